"""runarch-gen sweep: from a file or from options, tables, CSV, charts, a saved sweep, own sets
of files, one limit of points, a journal to resume from, and every cluster failure in one
line (exit 2)."""

from __future__ import annotations

import csv
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from runarch_gen.cli import run
from runarch_gen.games import find_registration
from runarch_gen.play.playtest import playtest
from runarch_gen.play.sweep import Journal, parse_sweep, run_sweep
from runarch_gen.runarch.boards.io import format_board
from runarch_gen.runarch.decks.io import deck_to_json
from runarch_gen.runarch.engine.sample import sample_board, sample_deck

SIMPLE = ["--game", "runarch", "--set", "variant=simple", "--set", "set=sample"]


def test_a_sweep_from_options_saves_a_file_that_runs_the_same(tmp_path: Path, capsys) -> None:
    saved = tmp_path / "s.toml"
    args = ["sweep", "--game", "runarch", "--set", "variant=simple", "--set", "set=sample"]
    args += ["--grid", "target=40,80", "-n", "12", "--seed", "3", "-j", "1", "--json"]
    assert run([*args, "--save", str(saved), "--journal", str(tmp_path / "j1")]) == 0
    first = json.loads(capsys.readouterr().out)
    assert [p["point"]["target"] for p in first["points"]] == ["40", "80"]
    assert first["varying"] == ["target"] and first["complete"] and first["failure"] is None
    assert run(["sweep", str(saved), "-j", "2", "--json", "--journal", str(tmp_path / "j2")]) == 0
    assert json.loads(capsys.readouterr().out) == first


def test_csv_and_charts_are_written(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    table, plots = tmp_path / "t.csv", tmp_path / "plots"
    args = ["sweep", "--game", "runarch", "--set", "set=sample", "--set", "variant=simple"]
    args += ["--grid", "target=30,60", "--grid", "minimum=5,7", "-n", "6", "--seed", "1"]
    assert run([*args, "--csv", str(table), "--plots", str(plots), "-j", "1"]) == 0
    rows = list(csv.DictReader(table.open()))
    assert len(rows) == 4 and {r["minimum"] for r in rows} == {"5", "7"}
    assert {"deadlock_rate", "stall_rate", "length", "length_low", "margin_high"} <= set(rows[0])
    assert (plots / "stall_rate.png").read_bytes()[:4] == b"\x89PNG"
    assert b"<svg" in (plots / "first_player_rate.svg").read_bytes()
    out = capsys.readouterr().out
    assert "sweep of runarch: 4 points" in out and "length (turns)" in out
    assert not (tmp_path / "output").exists() or not list((tmp_path / "output").iterdir())


def test_bad_sweeps_are_one_line_and_exit_2(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "runarch"\n[grid]\ndeal = [4, 9]\n')
    assert run(["sweep", str(bad), "-n", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "deal=9" in err
    assert run(["sweep", "--game", "nosuchgame", "--grid", "x=1,2"]) == 2
    assert "unknown game 'nosuchgame'" in capsys.readouterr().err


def test_one_point_limit_for_a_grid_and_a_file_before_any_game(tmp_path: Path, capsys) -> None:
    stalls = ",".join(str(n) for n in range(20, 720))
    started = time.perf_counter()
    assert run(["sweep", *SIMPLE, "--grid", "deal=4,5", "--grid", f"stall={stalls}"]) == 2
    inline = capsys.readouterr().err
    plan = tmp_path / "big.toml"
    plan.write_text(f'game = "runarch"\n[grid]\ndeal = [4, 5]\nstall = [{stalls}]\n')
    assert run(["sweep", str(plan)]) == 2
    from_file = capsys.readouterr().err
    assert time.perf_counter() - started < 10
    assert "1,400 points: a sweep has at most 1,000" in inline
    assert "1,400 points: a sweep has at most 1,000" in from_file


def test_the_charts_folder_is_checked_before_the_first_game(tmp_path: Path, capsys) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    started = time.perf_counter()
    args = ["sweep", *SIMPLE, "--grid", "target=40,80", "-n", "100000"]
    assert run([*args, "--plots", str(blocker / "plots"), "--journal", str(tmp_path / "j")]) == 2
    assert time.perf_counter() - started < 10
    assert "cannot make the charts folder" in capsys.readouterr().err
    assert not (tmp_path / "j").exists()


# ---------------------------------------------------------------------------------------------
# Own sets


@pytest.fixture
def own_set(tmp_path: Path) -> Path:
    """The sample set written as a board file, a deck file and a kit folder."""
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "board.json").write_text(format_board(sample_board(), "json"))
    (tmp_path / "mine" / "deck.json").write_text(deck_to_json(sample_deck()))
    return tmp_path


def test_own_board_and_deck_play_as_the_same_set_given_by_name(own_set: Path, capsys) -> None:
    folder = own_set / "mine"
    common = ["--set", "variant=simple", "--grid", "target=30,50", "-n", "8", "--seed", "4"]
    common += ["-j", "1", "--json"]
    assert run(["sweep", "--game", "runarch", "--set", "set=sample", *common]) == 0
    by_name = json.loads(capsys.readouterr().out)
    files = ["--board", str(folder / "board.json"), "--deck", str(folder / "deck.json")]
    saved = own_set / "elsewhere" / "plan.toml"
    assert run(["sweep", "--game", "runarch", *files, *common, "--save", str(saved)]) == 0
    by_files = json.loads(capsys.readouterr().out)
    assert [p["report"] for p in by_files["points"]] == [p["report"] for p in by_name["points"]]
    # the saved sweep carries the files it read: it runs alone, anywhere
    assert "[files]" in saved.read_text()
    assert run(["sweep", str(saved), "-j", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == by_files


def test_a_sweep_file_names_its_set_beside_it_and_grids_over_sets(own_set: Path, capsys) -> None:
    plan = own_set / "plan.toml"
    plan.write_text(
        'game = "runarch"\ngames = 6\nseed = 2\nboard = "mine/board.json"\n'
        'deck = "mine/deck.json"\n[fixed]\nvariant = "simple"\n'
    )
    assert run(["sweep", str(plan), "-j", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)["points"][0]["report"]
    registration = find_registration("runarch")
    values = registration.game_type.parse_parameters({"variant": "simple", "set": "sample"})
    alone = playtest(registration, values, ["greedy"], games=6, seed=report["seed"], workers=1)
    assert report == alone.to_json()
    # a grid over sets: a seed's, a kit folder's (the same sample set under another name)
    plan.write_text(
        'game = "runarch"\ngames = 6\nseed = 2\n[fixed]\nvariant = "simple"\n'
        '[grid]\nset = ["sample", "mine"]\n'
    )
    assert run(["sweep", str(plan), "-j", "1", "--json"]) == 0
    points = json.loads(capsys.readouterr().out)["points"]
    assert [p["point"]["set"] for p in points] == ["sample", "mine"]
    alone = playtest(registration, values, ["greedy"], games=6, seed=points[1]["seed"], workers=1)
    assert points[1]["report"] == alone.to_json()
    # a name outside the sweep file's folder is never read
    plan.write_text('game = "runarch"\nboard = "../board.json"\n')
    (own_set.parent / "board.json").write_text(format_board(sample_board(), "text"))
    assert run(["sweep", str(plan), "-n", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "board: a board file named on the command line" in err


# ---------------------------------------------------------------------------------------------
# The journal


def test_resume_continues_a_journal_to_the_table_of_a_whole_run(tmp_path: Path, capsys) -> None:
    args = [*SIMPLE, "--grid", "target=30,50", "-n", "40", "--seed", "6", "-j", "2"]
    assert (
        run(
            [
                "sweep",
                *args,
                "--csv",
                str(tmp_path / "whole.csv"),
                "--journal",
                str(tmp_path / "whole.jsonl"),
            ]
        )
        == 0
    )
    whole = capsys.readouterr().out
    assert (tmp_path / "whole.jsonl").exists()  # asked for: kept
    plan = parse_sweep(
        'game = "runarch"\ngames = 40\nseed = 6\n[fixed]\nvariant = "simple"\n'
        'set = "sample"\n[grid]\ntarget = ["30", "50"]\n'
    )
    journal = tmp_path / "part.jsonl"
    seen: list[int] = []

    def stop(n: int) -> None:
        seen.append(n)
        if len(seen) == 30:
            raise KeyboardInterrupt

    with Journal(journal, plan, keep=False) as kept:
        run_sweep(
            find_registration("runarch"), plan, workers=1, on_progress=stop, on_games=kept.add
        )
    assert run(["sweep", "--resume", str(journal), "--csv", str(tmp_path / "resumed.csv")]) == 0
    assert capsys.readouterr().out == whole
    assert (tmp_path / "resumed.csv").read_text() == (tmp_path / "whole.csv").read_text()
    assert not journal.exists()  # the default kind of journal goes once the sweep is done
    assert run(["sweep", "--resume", str(tmp_path / "whole.jsonl"), "-n", "5"]) == 2
    assert "--resume continues the sweep its journal holds" in capsys.readouterr().err
    assert run(["sweep", *args, "--journal", str(tmp_path / "whole.jsonl")]) == 2
    assert "exists already: continue that sweep with --resume" in capsys.readouterr().err


@pytest.mark.slow
def test_ctrl_c_keeps_the_finished_games_and_resume_ends_the_same(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "runarch_gen", "sweep", *SIMPLE, "--grid", "target=30,50"]
    command += ["-n", "1500", "--seed", "8", "-j", "2", "--csv"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [*command, "part.csv"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(4)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "continue with runarch-gen sweep --resume output/sweep-8-" in err
    journal = err.split("--resume ")[-1].strip()
    assert (tmp_path / journal).exists() and "(interrupted)" in out
    resumed = subprocess.run(
        [sys.executable, "-m", "runarch_gen", "sweep", "--resume", journal, "--csv", "resumed.csv"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert resumed.returncode == 0, resumed.stderr
    whole = subprocess.run(
        [*command, "whole.csv"], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert whole.stdout == resumed.stdout
    assert (tmp_path / "whole.csv").read_text() == (tmp_path / "resumed.csv").read_text()
    assert not list((tmp_path / "output").iterdir())


# ---------------------------------------------------------------------------------------------
# Cluster failures: one line, exit 2, quickly


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port where something accepts connections and never says a word."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    for connection in held:
        connection.close()
    server.close()


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("bogus://127.0.0.1:8786", "not a Dask scheduler address (its scheme is one of"),
        ("http://127.0.0.1:8787", "not a Dask scheduler address"),
        ("tcp://127.0.0.1:1", "cannot connect to a Dask scheduler"),
        ("SILENT", "something listens there but does not answer as a Dask scheduler within 2 s"),
    ],
)
def test_a_cluster_that_is_not_there_is_one_line_and_exit_2(
    tmp_path: Path, capsys, silent_port: int, address: str, message: str
) -> None:
    pytest.importorskip("distributed")
    address = address.replace("SILENT", f"tcp://127.0.0.1:{silent_port}")
    started = time.perf_counter()
    code = run(
        [
            "sweep",
            *SIMPLE,
            "--grid",
            "target=30,50",
            "-n",
            "50",
            "--scheduler",
            address,
            "--wait",
            "2",
            "--journal",
            str(tmp_path / "j"),
        ]
    )
    assert code == 2 and time.perf_counter() - started < 20
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and message in captured.err
    assert captured.out == ""  # no game finished: no table
