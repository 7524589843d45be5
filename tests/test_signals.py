"""Signals: Ctrl-C (SIGINT), SIGTERM and SIGHUP stop a real command mid-run with one line on
stderr, the documented exit code (130, 143, 129), no temporary file or folder left behind and
no worker process left running."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

EXE = str(Path(sys.executable).parent / "runarch-gen")
EXPECTED = {
    signal.SIGINT: (130, "runarch-gen: interrupted"),
    signal.SIGTERM: (143, "runarch-gen: stopped by SIGTERM"),
    signal.SIGHUP: (129, "runarch-gen: stopped by SIGHUP"),
}


def _group_alive(pgid: int) -> list[int]:
    alive = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            alive.append(int(entry.name))
    return alive


def _stop(args: list[str], cwd: Path, signum: int, after: float) -> tuple[int, str]:
    process = subprocess.Popen(
        [EXE, *args],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: the test can find its children
    )
    time.sleep(after)
    assert process.poll() is None, "the command ended before the signal"
    # Ctrl-C reaches the whole foreground group; kill and hang-up reach the one process.
    if signum == signal.SIGINT:
        os.killpg(process.pid, signum)
    else:
        process.send_signal(signum)
    try:
        _, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        pytest.fail(f"{args[0]} did not stop within 60 s of {signum!r}")
    deadline = time.monotonic() + 10
    while _group_alive(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _group_alive(process.pid) == [], "worker processes survived their parent"
    return process.returncode, err


def _leftovers(folder: Path) -> list[str]:
    return sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.name.startswith(".") or p.name.endswith(".tmp")
    )


LONG_DECK = ["deck", "--cards", "100", "--seed", "5", "-o", "out/deck.json", "--calibrate"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "after"),
    [
        (["simulate", "--games", "100000", "--seed", "1", "--workers", "2"], 1.2),
        (["kit", "--seed", "11", "--out", "out", "--validate", "--images"], 1.2),
        ([*LONG_DECK, "--calibrate-games", "20000"], 1.2),
    ],
    ids=["simulate", "kit", "deck"],
)
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
def test_a_signal_stops_the_command_cleanly(
    tmp_path: Path, args: list[str], after: float, signum: int
) -> None:
    (tmp_path / "out").mkdir()
    code, err = _stop(args, tmp_path, signum, after)
    expected_code, message = EXPECTED[signal.Signals(signum)]
    assert code == expected_code, err
    assert "Traceback" not in err and "Error" not in err.replace("error:", ""), err
    assert message in err.strip().splitlines()[-1] or "interrupted after" in err, err
    assert _leftovers(tmp_path) == []
    assert not (tmp_path / "out" / "kit-11").exists() and not (tmp_path / "out/deck.json").exists()


@pytest.mark.slow
def test_hangup_stops_like_terminate(tmp_path: Path) -> None:
    code, err = _stop(
        ["simulate", "--games", "100000", "--seed", "1"], tmp_path, signal.SIGHUP, 1.5
    )
    assert code == 129 and "Traceback" not in err, err


@pytest.mark.parametrize("after", [0.15, 0.3])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
def test_a_signal_during_start_up_is_one_line_too(
    tmp_path: Path, signum: int, after: float
) -> None:
    process = subprocess.Popen(
        [EXE, "simulate", "--games", "100000", "--seed", "1"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    time.sleep(after)
    process.send_signal(signum)
    _, err = process.communicate(timeout=60)
    expected_code, message = EXPECTED[signal.Signals(signum)]
    assert process.returncode == expected_code, err
    assert "Traceback" not in err and err.strip().splitlines()[-1].startswith(message), err


def test_a_pipe_closed_early_keeps_the_exit_code(tmp_path: Path) -> None:
    # 3,000 boards with an unknown code in each: thousands of report lines, of which `head`
    # reads one and leaves; the checker still ends with its own exit code (2: bad input).
    many = tmp_path / "many.jsonl"
    subprocess.run([EXE, "boards", "-n", "3000", "--seed", "1", "--format", "jsonl", "-o", many])
    (tmp_path / "bad.jsonl").write_text(many.read_text().replace('"0R"', '"9Q"'))
    script = f"set -o pipefail; {EXE} check bad.jsonl | head -1 >/dev/null; echo $?"
    done = subprocess.run(
        ["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.stdout.strip() == "2" and "Traceback" not in done.stderr, done.stderr
    assert "BrokenPipe" not in done.stderr


# -- a stress test: every family's long commands, signalled at random moments under load ------

STRESSED = [
    ["simulate", "--games", "100000", "--seed", "1", "--workers", "2"],
    ["validate", "--seed", "7", "--games", "20000"],
    ["kit", "--seed", "11", "--out", "out", "--validate"],
    ["sweep", "--game", "runarch", "--grid", "variant=complex,classic", "--games", "5000"],
    ["bluff", "simulate", "-n", "100000", "--seed", "1", "--plots", "plots"],
    ["bluff", "validate", "-n", "100000", "--seed", "1"],
    ["bluff", "kit", "-o", "out/bluff"],
    ["malacca", "simulate", "-n", "100000", "--seed", "1", "-j", "2"],
    ["malacca", "validate", "-n", "100000", "--seed", "1"],
    ["malacca", "kit", "-o", "out/malacca"],
    ["backgammon", "simulate", "-n", "100000", "--seed", "1"],
    ["backgammon", "validate", "-n", "100000", "--seed", "1"],
    ["backgammon", "kit", "-o", "out/backgammon"],
]


def _signal_group_at(args: list[str], cwd: Path, signum: int, after: float) -> tuple[int, str]:
    process = subprocess.Popen(
        [EXE, *args],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    time.sleep(after)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signum)  # the whole group, workers included, as a terminal does
    try:
        _, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        pytest.fail(f"{' '.join(args)} hung after {signal.Signals(signum).name} at {after:.2f} s")
    deadline = time.monotonic() + 10
    while _group_alive(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _group_alive(process.pid) == [], f"{args}: processes survived"
    return process.returncode, err


@pytest.mark.slow
def test_signals_at_random_moments_under_load_leave_nothing_behind(tmp_path: Path) -> None:
    import random
    from concurrent.futures import ThreadPoolExecutor

    rng = random.Random(27)
    runs = [
        (args, rng.choice([signal.SIGINT, signal.SIGTERM]), rng.uniform(0.2, 2.5))
        for args in STRESSED
    ]

    def one(number: int) -> tuple[list[str], int, str, Path]:
        args, signum, after = runs[number]
        folder = tmp_path / f"run{number}"
        (folder / "out").mkdir(parents=True)
        code, err = _signal_group_at(args, folder, signum, after)
        return args, code, err, folder

    # Two at a time on a machine of two cores: each run competes with another for the CPU.
    with ThreadPoolExecutor(2) as pool:
        for args, code, err, folder in pool.map(one, range(len(runs))):
            assert code in (0, 130, 143), f"{args}: exit {code}: {err}"
            assert "Traceback" not in err, f"{args}: {err}"
            if code:
                assert len(err.strip().splitlines()) <= 3, f"{args}: {err}"
            assert _leftovers(folder) == [], f"{args}: {_leftovers(folder)}"
