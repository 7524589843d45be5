"""Jobs through the API: a kit, a deck and a playtest in worker processes, their files, limits,
cancelling, expiry and bad forms."""

from __future__ import annotations

import io
import json
import time
import zipfile
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.cli import run
from runarch_gen.web.jobs import Busy, JobManager
from tests.web.conftest import SAME_ORIGIN, files_under, wait_for


def submit(client, url: str, body: dict[str, Any] | str, cookie: str = "c" * 20) -> Any:
    client.cookies.set("rg_client", cookie)
    if isinstance(body, str):
        return client.post(url, content=body, headers=SAME_ORIGIN)
    return client.post(url, json=body, headers=SAME_ORIGIN)


def test_a_kit_with_the_drawn_board(client, jobs) -> None:
    query = {"seed": "11", "fix": "a1=5Y", "format": "json"}
    board = client.get("/api/runarch/board", params=query)
    response = submit(
        client,
        "/api/runarch/kit",
        {"seed": 4, "only": ["board", "tiles"], "board": board.text, "lang": "cs", "bleed": 2},
        cookie="kit-client-000000001",
    )
    assert response.status_code == 202, response.text
    status = wait_for(client, response.json()["id"])
    assert status["state"] == "done", status
    assert {"kit.pdf", "kit.zip", "manifest.json", "board.json"} <= set(status["files"])
    base = f"/api/jobs/{status['id']}/files"
    pdf = client.get(f"{base}/kit.pdf", params={"download": "1"})
    assert pdf.headers["content-disposition"].startswith("attachment")
    document = pymupdf.open(stream=pdf.content, filetype="pdf")
    manifest = status["result"]["manifest"]
    assert document.page_count == manifest["pages"]
    assert "a b c d e" in " ".join(document[0].get_text().split()) or document[0].get_text()
    kit_board = json.loads(client.get(f"{base}/board.json").text)
    assert kit_board["tiles"] == board.json()["tiles"]
    assert manifest["options"]["lang"] == "cs" and manifest["options"]["bleed_mm"] == 2.0
    names = zipfile.ZipFile(io.BytesIO(client.get(f"{base}/kit.zip").content)).namelist()
    assert "kit-4/kit.pdf" in names and "kit-4/manifest.json" in names
    for bad in ("../result.json", "..%2fresult.json", "progress.json", "nothing.pdf"):
        assert client.get(f"{base}/{bad}").status_code == 404
    assert client.get("/api/jobs/not-a-job").status_code == 404


@pytest.mark.slow
def test_a_deck_is_what_the_command_line_makes(client, capsys, tmp_path) -> None:
    response = submit(client, "/api/runarch/deck", {"cards": 30, "seed": 1}, cookie="deck" * 5)
    assert response.status_code == 202
    status = wait_for(client, response.json()["id"])
    assert status["state"] == "done", status
    cards = [f"card-{i:03d}.svg" for i in range(1, 31)]
    assert status["files"] == [*cards, "cards.png", "deck.csv", "deck.json"]
    capsys.readouterr()
    argv = ["deck", "--cards", "30", "--seed", "1", "-o", str(tmp_path / "d.json"), "--json"]
    assert run(argv) == 0
    expected = json.loads(capsys.readouterr().out)
    report = status["result"]["report"]
    for timing in ("total_seconds",):
        report.pop(timing), expected.pop(timing)
    report["solver"].pop("solve_seconds"), expected["solver"].pop("solve_seconds")
    report.pop("output"), expected.pop("output")
    assert report == expected
    base = f"/api/jobs/{status['id']}/files"
    assert client.get(f"{base}/deck.json").content == (tmp_path / "d.json").read_bytes()
    assert client.get(f"{base}/cards.png").content.startswith(b"\x89PNG")
    first = json.loads((tmp_path / "d.json").read_text())["cards"][0]
    svg = client.get(f"{base}/card-001.svg").text
    assert svg.startswith("<svg") and all(f">{code}<" in svg for code in first["pattern"])
    lines = status["result"]["check_lines"]
    assert any(line.startswith("balance (§9.2):") for line in lines)
    assert not any("out/" in line or "/tmp" in line for line in lines)


@pytest.mark.slow
def test_a_playtest_gives_report_charts_and_verdict(client) -> None:
    from runarch_gen.games import find_registration
    from runarch_gen.play.verdict import validate_game

    body = {"game": "runarch", "rules": "variant=simple,set=sample", "games": 4, "seed": 3}
    response = submit(client, "/api/playtest", body, cookie="play" * 5)
    assert response.status_code == 202
    status = wait_for(client, response.json()["id"])
    assert status["state"] == "done", status
    result = status["result"]
    registration = find_registration("runarch")
    values = registration.game_type.parse_parameters({"variant": "simple", "set": "sample"}, "test")
    verdict = validate_game(registration, values, games=4, seed=3, workers=1)
    assert result["verdict"] == {**verdict.to_json(), "seed": 3}
    assert result["report"]["games"] == 4
    assert result["charts"] and set(result["charts"]) <= set(status["files"])


def test_one_job_of_a_kind_per_client_and_cancel(client, jobs) -> None:
    body = {"game": "runarch", "rules": "variant=complex,set=sample", "games": 5000, "seed": 1}
    first = submit(client, "/api/playtest", body, cookie="busy" * 5)
    assert first.status_code == 202
    second = submit(client, "/api/playtest", body, cookie="busy" * 5)
    assert second.status_code == 429
    assert "already queued or running" in second.json()["error"]
    job = first.json()["id"]
    cancelled = client.post(f"/api/jobs/{job}/cancel", headers=SAME_ORIGIN).json()
    assert cancelled["state"] == "cancelled"
    stopped = jobs.get(job)
    assert stopped is not None and stopped.process is None
    again = submit(client, "/api/playtest", {**body, "games": 2}, cookie="busy" * 5)
    assert again.status_code == 202  # the cancelled job no longer counts
    client.post(f"/api/jobs/{again.json()['id']}/cancel", headers=SAME_ORIGIN)
    assert client.post("/api/jobs/nope/cancel", headers=SAME_ORIGIN).status_code == 404


BAD_FORMS = [
    ("/api/runarch/deck", {"cards": 10}, "--cards 10: a deck has 30 to 100 cards"),
    ("/api/runarch/deck", {"cards": "many"}, "--cards 'many': expected a whole number"),
    ("/api/runarch/deck", {"cards": "4²"}, "--cards '4²': expected a whole number"),
    ("/api/runarch/deck", {"calibrate_games": 0}, "--calibrate-games 0"),
    ("/api/runarch/deck", {"seed": -4}, "--seed -4"),
    ("/api/runarch/deck", {"seed": "²"}, "--seed '²': expected a whole number"),
    ("/api/runarch/deck", {"seed": 1.5}, "--seed '1.5': expected a whole number"),
    ("/api/runarch/deck", {"colour": 1}, "unknown field 'colour'"),
    ("/api/runarch/kit", {"paper": "a3"}, "--paper 'a3': expected one of a4, letter"),
    ("/api/runarch/kit", {"lang": "de"}, "--lang 'de': expected one of en, cs"),
    ("/api/runarch/kit", {"bleed": -1}, "--bleed -1: expected 0 to 20"),
    ("/api/runarch/kit", '{"bleed": 1e999}', "--bleed inf"),
    ("/api/runarch/kit", '{"bleed": NaN}', "--bleed nan"),
    ("/api/runarch/kit", {"duplex": "both"}, "--duplex 'both': expected one of long, short"),
    ("/api/runarch/kit", {"duplex_offset": "x"}, "--duplex-offset 'x': expected X,Y"),
    ("/api/runarch/kit", {"duplex_offset": "1e308,0"}, "--duplex-offset '1e308'"),
    ("/api/runarch/kit", {"duplex_offset": "30,0"}, "--duplex-offset 30: expected -20 to 20"),
    ("/api/runarch/kit", {"only": ["dice"]}, "--only: unknown component 'dice'"),
    ("/api/runarch/kit", {"only": [1]}, "--only: expected a list"),
    ("/api/runarch/kit", {"board": "5Y 5Y"}, "--board"),
    ("/api/runarch/kit", {"deck": "{}"}, "--deck"),
    ("/api/runarch/kit", {"validate": "yes"}, "--validate 'yes': expected true or false"),
    ("/api/runarch/kit", {"template": "/etc/passwd"}, "unknown field 'template'"),
    ("/api/playtest", {"game": "chess"}, "chess"),
    ("/api/playtest", {"bots": "nobody"}, "unknown bot 'nobody'"),
    ("/api/playtest", {"games": 0}, "--games 0: expected 1 to 100000"),
    ("/api/playtest", {"games": "١٢"}, "--games '١٢': expected a whole number"),
    ("/api/playtest", {"rules": "variant=nope"}, "nope"),
    ("/api/playtest", {"rules": "stall=-1"}, "stall"),
    (
        "/api/playtest",
        {"game": "backgammon", "bots": "random,random,random,random,random,random,random"},
        "2 seats take at most 2 bots, not 7",
    ),
]


@pytest.mark.parametrize(("url", "body", "message"), BAD_FORMS)
def test_bad_forms_give_400_and_leave_nothing(client, jobs, url, body, message) -> None:
    before = files_under(jobs.root)
    response = submit(client, url, body, cookie="form" * 5)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert message in error and "\n" not in error
    assert files_under(jobs.root) == before


def test_the_queue_is_bounded(tmp_path) -> None:
    manager = JobManager(max_running=0, max_queued=2, root=tmp_path)
    try:
        manager.submit("kit", "a", {})
        manager.submit("kit", "b", {})
        with pytest.raises(Busy, match="too many jobs"):
            manager.submit("kit", "c", {})
        with pytest.raises(Busy, match="already queued"):
            manager.submit("kit", "a", {})
    finally:
        manager.shutdown()


def test_a_full_queue_is_429(client, jobs, monkeypatch) -> None:
    monkeypatch.setattr(jobs, "max_running", 0)
    monkeypatch.setattr(jobs, "max_queued", 0)
    response = submit(client, "/api/runarch/deck", {"cards": 30}, cookie="full" * 5)
    assert response.status_code == 429
    assert "busy" in response.json()["error"]


def test_jobs_expire_with_their_files(tmp_path) -> None:
    manager = JobManager(max_running=0, ttl=0.2, root=tmp_path)
    try:
        job = manager.submit("deck", "a", {})
        assert job.folder.is_dir()
        time.sleep(0.3)
        manager.tick()
        assert manager.get(job.id) is None
        assert not job.folder.exists()
    finally:
        manager.shutdown()


def test_job_ids_are_unguessable(tmp_path) -> None:
    manager = JobManager(max_running=0, max_queued=100, root=tmp_path)
    try:
        ids = [manager.submit("deck", f"client{i}", {}).id for i in range(20)]
        assert len(set(ids)) == 20 and all(len(i) >= 32 for i in ids)
        assert {p.name for p in tmp_path.iterdir() for p in p.iterdir()} == set(ids)
    finally:
        manager.shutdown()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
def test_cancel_ends_the_command_a_job_runs(client, jobs) -> None:
    response = submit(
        client, "/api/runarch/kit", {"seed": 8, "validate": True}, cookie="cancel" * 4
    )
    job_id = response.json()["id"]
    job = jobs.get(job_id)
    assert job is not None
    deadline = time.monotonic() + 60
    while "progress" not in client.get(f"/api/jobs/{job_id}").json():  # the command is running
        assert time.monotonic() < deadline
        time.sleep(0.1)
    group = job.process.pid
    assert client.post(f"/api/jobs/{job_id}/cancel", headers=SAME_ORIGIN).json()["state"] == (
        "cancelled"
    )
    deadline = time.monotonic() + 5
    while live_in_group(group) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert live_in_group(group) == []  # neither the worker nor the kit command is left


def live_in_group(group: int) -> list[int]:
    """The processes of a process group that still run (a zombie waiting for a parent that
    does not reap it is not running)."""
    alive = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] not in ("Z", "X"):
            alive.append(int(stat.parent.name))
    return alive


def test_a_command_reports_progress_to_a_file(tmp_path) -> None:
    import os
    import subprocess
    import sys

    from runarch_gen.progress import PROGRESS_FILE

    target = tmp_path / "progress.json"
    done = subprocess.run(
        [sys.executable, "-m", "runarch_gen", "boards", "-n", "3", "--seed", "1"],
        env={**os.environ, PROGRESS_FILE: str(target)},
        capture_output=True,
        check=True,
    )
    assert len(done.stdout.splitlines()) == 3
    assert json.loads(target.read_text()) == {"label": "boards", "total": 3, "done": 3, "steps": 3}


def test_a_kit_zip_is_the_same_bytes_every_time(tmp_path) -> None:
    import os

    from runarch_gen.web.worker import _zip_folder

    folder = tmp_path / "kit"
    folder.mkdir()
    (folder / "b.txt").write_text("b")
    (folder / "a.pdf").write_bytes(b"%PDF")
    _zip_folder(folder, tmp_path / "one.zip", "kit-1")
    os.utime(folder / "a.pdf", (0, 10**9))  # another time stamp: the zip must not carry it
    _zip_folder(folder, tmp_path / "two.zip", "kit-1")
    assert (tmp_path / "one.zip").read_bytes() == (tmp_path / "two.zip").read_bytes()
    assert zipfile.ZipFile(tmp_path / "one.zip").namelist() == ["kit-1/a.pdf", "kit-1/b.txt"]


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
FIELDS = [
    "cards",
    "seed",
    "calibrate",
    "calibrate_games",
    "lang",
    "paper",
    "bleed",
    "duplex",
    "duplex_offset",
    "print_friendly",
    "only",
    "validate",
    "board",
    "deck",
    "game",
    "rules",
    "bots",
    "games",
]


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(["/api/runarch/deck", "/api/runarch/kit", "/api/playtest"]),
    st.dictionaries(st.sampled_from(FIELDS), JSON_VALUES, max_size=4),
)
def test_any_form_is_queued_or_refused_in_one_line(tmp_path_factory, url, body) -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from starlette.testclient import TestClient
    from runarch_gen.web.app import create_app

    # Jobs are queued but never started: this is about reading forms.
    manager = JobManager(max_running=0, max_queued=10_000, root=tmp_path_factory.mktemp("fuzz"))
    with TestClient(create_app(jobs=manager), base_url="http://127.0.0.1:8000") as fuzz:
        response = fuzz.post(url, content=json.dumps(body), headers=SAME_ORIGIN)
    assert response.status_code in (202, 400), response.text
    if response.status_code == 400:
        error = response.json()["error"]
        assert error and "\n" not in error and "Traceback" not in error
