"""How much faster a user's ``runarch-gen simulate`` is than on an older install: the whole
command (start-up, reading the board and deck, the games, the report), run alternately on the
two installs in one run.

    git worktree add /tmp/base566 566d5e1
    python3 -m venv /tmp/base566/.venv && /tmp/base566/.venv/bin/pip install /tmp/base566
    python3 -m venv /tmp/now && /tmp/now/bin/pip install .
    python bench/bench_speedup.py --base /tmp/base566/.venv --new /tmp/now --rounds 7
    python3 -m venv /tmp/fast && RUNARCH_GEN_COMPILE=1 /tmp/fast/bin/pip install .
    python bench/bench_speedup.py --base /tmp/base566/.venv --new /tmp/fast --rounds 7

Compare installs made as a user makes them (``pip install .``, which also writes the bytecode
caches): an editable install where ``PYTHONDONTWRITEBYTECODE`` is set compiles every module at
each start and starts slower. ``--new`` defaults to the ``runarch-gen`` beside this Python.

Each round runs ``runarch-gen simulate --games N --workers 1 --seed S --board B --deck D
--json`` once on each install, the order swapped every round so a drift in the machine's load
hits both alike. Per install it prints the median wall-clock time and CPU time (user + system
of the command's process); then the speed-up (old time / new time) as the median of the
per-round ratios with a 95 % interval (t interval over the rounds' log ratios). The CPU figure
is the steadier one on a shared machine. Both installs must print the same report (the same
games, move for move): every field the old install prints must be the same in the new one's
(a newer version may add fields, such as ``metrics``, which are named); a difference stops the
run with exit 1.

The board and deck are written by the new install from ``--seed`` unless ``--board`` and
``--deck`` are given.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine import count, load, run

# Two-sided 95 % quantiles of Student's t for 1–30 degrees of freedom (beyond: 1.96).
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def executable(text: str) -> Path:
    """An argparse type: a ``runarch-gen`` executable, or a venv holding one."""
    path = Path(text)
    if path.is_dir():
        path = path / "bin" / "runarch-gen"
    if not (path.is_file() and os.access(path, os.X_OK)):
        raise argparse.ArgumentTypeError(f"{text}: no runarch-gen executable there")
    return path


def run_child(command: list[str]) -> tuple[float, float, bytes]:
    """Run ``command``: ``(wall seconds, CPU seconds of that process, its stdout)``."""
    started = time.perf_counter()
    with tempfile.TemporaryFile() as out_file, tempfile.TemporaryFile() as err_file:
        pid = os.posix_spawn(
            command[0],
            command,
            os.environ,
            file_actions=[
                (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                (os.POSIX_SPAWN_DUP2, out_file.fileno(), 1),
                (os.POSIX_SPAWN_DUP2, err_file.fileno(), 2),
            ],
        )
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - started
        out_file.seek(0)
        err_file.seek(0)
        out, err = out_file.read(), err_file.read()
    code = os.waitstatus_to_exitcode(status)
    if code:
        sys.exit(f"{command[0]} failed ({code}): {err.decode().strip()}")
    return wall, usage.ru_utime + usage.ru_stime, out


def same_report(base: bytes, new: bytes) -> tuple[bool, list[str]]:
    """Whether the new report holds every field of the base report with the same value, and
    the fields only the new one has."""
    if base == new:
        return True, []
    old, now = json.loads(base), json.loads(new)
    if not (isinstance(old, dict) and isinstance(now, dict)):
        return False, []
    same = all(key in now and now[key] == value for key, value in old.items())
    return same, sorted(set(now) - set(old))


def ratio_interval(ratios: list[float]) -> tuple[float, float, float]:
    """The median of ``ratios`` and a 95 % t interval of their geometric mean."""
    logs = [math.log(r) for r in ratios]
    middle = statistics.median(ratios)
    if len(logs) < 2:
        return middle, math.nan, math.nan
    mean, sd = statistics.fmean(logs), statistics.stdev(logs)
    df = len(logs) - 1
    half = (_T95[df - 1] if df <= len(_T95) else 1.96) * sd / math.sqrt(len(logs))
    return middle, math.exp(mean - half), math.exp(mean + half)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=executable, required=True, help="the old runarch-gen")
    parser.add_argument(
        "--new",
        type=executable,
        default=None,
        help="the new runarch-gen (default: the one beside this Python)",
    )
    parser.add_argument("--games", type=count, default=150)
    parser.add_argument("--rounds", type=count, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", default="complex")
    parser.add_argument("--bots", default="greedy")
    parser.add_argument("--board", help="board file (default: generated from --seed)")
    parser.add_argument("--deck", help="deck file (default: generated from --seed)")
    args = parser.parse_args(argv)
    new = args.new or executable(str(Path(sys.executable).parent / "runarch-gen"))
    print(f"load before: {load()}")
    with tempfile.TemporaryDirectory() as work:
        board, deck = args.board, args.deck
        seed = str(args.seed)
        if board is None:
            board = str(Path(work) / "board.json")
            subprocess.run(
                [new, "board", "--seed", seed, "--format", "json", "-o", board],
                check=True,
                capture_output=True,
            )
        if deck is None:
            deck = str(Path(work) / "deck.json")
            subprocess.run(
                [new, "deck", "--seed", seed, "-o", deck], check=True, capture_output=True
            )
        tail = ["simulate", "--games", str(args.games), "--workers", "1", "--seed", seed]
        tail += ["--variant", args.variant, "--bots", args.bots, "--board", board, "--deck", deck]
        tail += ["--json"]
        print(f"command: runarch-gen {' '.join(tail)}")
        installs = {"base": [str(args.base), *tail], "new": [str(new), *tail]}
        walls: dict[str, list[float]] = {"base": [], "new": []}
        cpus: dict[str, list[float]] = {"base": [], "new": []}
        outputs: dict[str, bytes] = {}
        for round_ in range(args.rounds):
            order = ("base", "new") if round_ % 2 == 0 else ("new", "base")
            for name in order:
                wall, cpu, out = run_child(installs[name])
                walls[name].append(wall)
                cpus[name].append(cpu)
                if outputs.setdefault(name, out) != out:
                    print(f"{name}: the report changed between rounds", file=sys.stderr)
                    return 1
            print(
                f"round {round_ + 1}: base {walls['base'][-1]:.2f} s ({cpus['base'][-1]:.2f} CPU)"
                f"  new {walls['new'][-1]:.2f} s ({cpus['new'][-1]:.2f} CPU)",
                flush=True,
            )
        same, added = same_report(outputs["base"], outputs["new"])
        if not same:
            print("the two installs printed different reports: not the same games", file=sys.stderr)
            return 1
    print(f"load after: {load()}")
    extra = f"; fields only the new install prints: {', '.join(added)}" if added else ""
    print(f"reports identical ({len(outputs['new']):,} bytes of JSON{extra})")
    for name, path in (("base", args.base), ("new", new)):
        wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        print(
            f"{name:<5} {wall:6.2f} s wall ({args.games / wall:6.1f} games/s)"
            f"  {cpu:6.2f} s CPU ({args.games / cpu:6.1f} games/s)  {path}"
        )
    for label, times in (("wall", walls), ("CPU", cpus)):
        ratios = [b / n for b, n in zip(times["base"], times["new"], strict=True)]
        middle, low, high = ratio_interval(ratios)
        print(f"speed-up, {label:<4}: {middle:.2f}x (95 % interval {low:.2f}-{high:.2f})")
    return 0


if __name__ == "__main__":
    run(main)
