"""A game from another package: ``tests/toy_game.py`` built into a wheel whose
``runarch_gen.games`` entry point names its registration, installed with pip into a folder of
its own, and driven through every command that takes a game — with no edit to this project.

The wheel is made here (a zip with the module, its rules document and the ``.dist-info`` that
pip reads), so the test needs no network and no build backend.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
DIST = "runarch_gen_pig-0.1"
FILES = ("toy_game.py", "toy_game_rules.md")


def _wheel(folder: Path) -> Path:
    """A wheel of the toy game (a real one: pip installs it and checks its RECORD)."""
    info = f"{DIST}.dist-info"
    contents = {name: (TESTS / name).read_bytes() for name in FILES}
    contents[f"{info}/METADATA"] = (
        b"Metadata-Version: 2.1\nName: runarch-gen-pig\nVersion: 0.1\n"
        b"Summary: Pig, a dice game for runarch-gen\n"
    )
    contents[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: tests/test_plugin.py\nRoot-Is-Purelib: true\n"
        b"Tag: py3-none-any\n"
    )
    contents[f"{info}/entry_points.txt"] = b"[runarch_gen.games]\npig = toy_game:PIG\n"
    record = []
    for name, data in contents.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{info}/RECORD,,")
    contents[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel = folder / f"{DIST}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, data in contents.items():
            archive.writestr(name, data)
    return wheel


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the toy game's package is installed into."""
    build = tmp_path_factory.mktemp("wheel")
    target = tmp_path_factory.mktemp("site")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            "--disable-pip-version-check",
            "--target",
            str(target),
            str(_wheel(build)),
        ],
        check=True,
        capture_output=True,
    )
    assert (target / f"{DIST}.dist-info" / "entry_points.txt").is_file()
    return target


def _env(site: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(site), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.pop("COLUMNS", None)
    return env


def run(site: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "runarch_gen", *args],
        capture_output=True,
        text=True,
        env=_env(site),
        cwd=cwd,
        timeout=300,
    )


def test_without_the_package_there_is_no_pig() -> None:
    from runarch_gen.play.registry import registered_games

    assert "pig" not in [r.name for r in registered_games()]


def test_the_installed_game_is_listed_with_its_declaration(site: Path) -> None:
    listed = run(site, "games", "--json")
    assert listed.returncode == 0, listed.stderr
    games = {g["name"]: g for g in json.loads(listed.stdout)["games"]}
    assert list(games)[:4] == ["runarch", "bluff", "malacca", "backgammon"]
    pig = games["pig"]
    assert pig["default_bot"] == "hold12"
    assert pig["variants"] == {"quick": "pig(target=10)"}
    assert [p["name"] for p in pig["parameters"]] == ["players", "target", "limit"]
    assert pig["parameters"][1]["rule"] == "P-02"
    text = run(site, "games").stdout
    assert "pig — Pig (Prasátko), 1-4 players" in text
    assert "target: 1-100 (default 20) — points to win [P-02]" in text


def test_the_game_gets_its_command_group(site: Path) -> None:
    top = run(site, "--help")
    assert top.returncode == 0 and "pig" in top.stdout
    group = run(site, "pig", "--help")
    assert group.returncode == 0, group.stderr
    for command in ("rules", "simulate", "validate", "record", "replay", "odds"):
        assert command in group.stdout
    assert "[P-02]" in run(site, "pig", "rules").stdout
    assert run(site, "pig", "odds", "--rolls", "2").stdout.strip() == "0.6944"


def test_simulate_and_validate_the_installed_game(site: Path) -> None:
    simulated = run(site, "pig", "simulate", "-n", "30", "--seed", "1", "-j", "1", "--json")
    assert simulated.returncode == 0, simulated.stderr
    report = json.loads(simulated.stdout)
    assert report["game"] == "pig" and report["games"] == 30
    quick = run(site, "pig", "simulate", "-n", "5", "--seed", "1", "-j", "1", "--rules", "quick")
    assert quick.returncode == 0 and "pig(target=10)" in quick.stdout
    validated = run(site, "pig", "validate", "-n", "30", "--seed", "1", "-j", "1", "--json")
    assert validated.returncode == 0, validated.stderr
    assert json.loads(validated.stdout)["dynamic"][0]["bots"] == ["hold12"]


def test_record_and_replay_the_installed_game(site: Path, tmp_path: Path) -> None:
    record = tmp_path / "pig.txt"
    made = run(site, "pig", "record", "--rules", "players=3", "--bots", "cautious", "--seed", "2")
    assert made.returncode == 0, made.stderr
    assert made.stdout.startswith('[Game "pig(players=3)"]')
    record.write_text(made.stdout, encoding="utf-8")
    replayed = run(site, "pig", "replay", str(record), "--json")
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["over"] is True
    assert run(site, "bluff", "replay", str(record)).returncode == 2  # not a Bluff record


def test_sweep_the_installed_game(site: Path) -> None:
    swept = run(
        site, "sweep", "--game", "pig", "--grid", "target=10,30", "-n", "20", "--seed", "3",
        "-j", "1", "--json",
    )  # fmt: skip
    assert swept.returncode == 0, swept.stderr
    points = json.loads(swept.stdout)["points"]
    assert [p["point"]["target"] for p in points] == ["10", "30"]
    assert [p["report"]["game"] for p in points] == ["pig(target=10)", "pig(target=30)"]


def test_the_web_plays_the_installed_game(site: Path, tmp_path: Path) -> None:
    script = textwrap.dedent(
        """
        import json, sys, time, warnings
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
        from runarch_gen.web.app import create_app
        from runarch_gen.web.jobs import JobManager

        jobs = JobManager(root=sys.argv[1])
        base = "http://127.0.0.1:8000"
        with TestClient(create_app(jobs=jobs, tick_seconds=0.2), base_url=base) as client:
            names = [g["name"] for g in client.get("/api/games").json()["games"]]
            page = client.get("/playtest").text
            client.cookies.set("rg_client", "p" * 20)
            body = {"game": "pig", "rules": "players=3", "games": 12, "seed": 4}
            job = client.post("/api/playtest", json=body, headers={"Origin": base}).json()["id"]
            for _ in range(1200):
                status = client.get(f"/api/jobs/{job}").json()
                if status["state"] not in ("queued", "running"):
                    break
                time.sleep(0.1)
        jobs.shutdown()
        print(json.dumps({"names": names, "page": 'value="pig"' in page, "status": status}))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)],
        capture_output=True,
        text=True,
        env=_env(site),
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert "pig" in seen["names"] and seen["page"]
    assert seen["status"]["state"] == "done", seen["status"]
    assert seen["status"]["result"]["report"]["games"] == 12
