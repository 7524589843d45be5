"""Board speeds, path by path: boards per second and count time.

    python bench/bench_boards.py            # everything (about a minute)
    python bench/bench_boards.py --quick    # fewer repeats, no CP-SAT counting of large sets

Library figures are measured in this process, *cold* (the per-process enumeration and every
cache cleared first, numpy and OR-Tools already imported) and *warm*; command-line figures are
whole runs of ``runarch-gen`` in a fresh process, start-up included. Each figure is the best of
``--repeat`` runs. The machine's load is printed first: figures taken under load are slower.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from machine import load
from runarch_gen.runarch.boards import generate as boardgen
from runarch_gen.runarch.boards import symmetry
from runarch_gen.runarch.boards.check import check_board_text
from runarch_gen.runarch.boards.generate import (
    BoardConstraints,
    count_boards,
    generate_boards,
)
from runarch_gen.runarch.boards.io import format_boards

CASES = {
    "B-1": BoardConstraints(),
    "B-2 (--diagonals)": BoardConstraints(diagonals=True),
    "B-1 --fix a1=5Y --forbid c3=0R": BoardConstraints.parse(fixes=["a1=5Y"], forbids=["c3=0R"]),
    "B-2 3 fixes 3 forbids": BoardConstraints.parse(
        diagonals=True,
        fixes=["a1=5Y", "c2=0R", "e4=3B"],
        forbids=["b5=6G", "d1=4V", "c3=0B"],
    ),
}
CPSAT_COUNT = BoardConstraints.parse(fixes=["a1=0R", "b1=3B", "c1=4G", "d1=5Y", "e1=6V"])


def best(repeat: int, work: Callable[[], object], setup: Callable[[], None] | None = None) -> float:
    times = []
    for _ in range(repeat):
        if setup is not None:
            setup()
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def clear_caches() -> None:
    for cached in (
        symmetry.normalised_boards,
        symmetry._diagonal_boards,
        boardgen._plan,
        symmetry._permutations,
        boardgen._relabel_tables,
        symmetry._relabelling_masks,
        symmetry._board_array,
        symmetry._popcounts,
        symmetry._off_diagonals,
    ):
        cached.cache_clear()


def random_bans(rng: random.Random, n: int) -> list[str]:
    squares = [f"{c}{r}" for r in range(1, 6) for c in "abcde"]
    codes = [f"{s}{c}" for c in "RBGYV" for s in "03456"]
    return [f"{rng.choice(squares)}={rng.choice(codes)}" for _ in range(n)]


def bans_and_conflicts(repeat: int, quick: bool) -> None:
    """Counts with many bans (each ban is one mask more: any number costs about the same) and
    conflicts among hundreds of bans explained (QuickXplain over the exact counter)."""
    from runarch_gen.runarch.boards.explain import explain_conflict

    print("\npins and bans (library, warm)")
    rng = random.Random(1)
    for n in (1, 40, 150, 300, 625):
        for diagonals in (False, True):
            cases = [
                BoardConstraints.parse(diagonals=diagonals, forbids=random_bans(rng, n))
                for _ in range(5 if quick else 20)
            ]
            times = [
                best(repeat, partial(count_boards, c), boardgen._plan.cache_clear) for c in cases
            ]
            median, worst = statistics.median(times) * 1000, max(times) * 1000
            print(
                f"  count with {n:3} random bans{' (B-2)' if diagonals else '     '}:"
                f" median {median:6.1f} ms, worst {worst:6.1f} ms"
            )
    explained: list[tuple[float, int]] = []
    while len(explained) < (8 if quick else 40):
        constraints = BoardConstraints.parse(
            diagonals=rng.random() < 0.3, forbids=random_bans(rng, rng.choice([300, 400, 625]))
        )
        if count_boards(constraints) == 0:
            start = time.perf_counter()
            why = explain_conflict(constraints, time_limit=None)
            assert why is not None
            explained.append((time.perf_counter() - start, len(why.options)))
    seconds = sorted(t for t, _ in explained)
    sizes = sorted(k for _, k in explained)
    print(
        f"  {len(explained)} conflicts among 300–625 bans explained: median"
        f" {statistics.median(seconds) * 1000:.0f} ms, 90th percentile"
        f" {seconds[int(0.9 * len(seconds))] * 1000:.0f} ms, worst {seconds[-1] * 1000:.0f} ms"
        f" (minimal conflicts of {sizes[0]}–{sizes[-1]} options)"
    )


def cli_seconds(args: list[str], repeat: int) -> float:
    command = [sys.executable, "-m", "runarch_gen", *args]

    def once() -> None:
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    return best(repeat, once)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true")
    options = parser.parse_args()
    repeat = 1 if options.quick else options.repeat
    n = 10_000

    import numpy  # noqa: F401  (imported up front: the figures are about the algorithms)
    from ortools.sat.python import cp_model  # noqa: F401

    print(f"load average {load()}")
    print(f"python {sys.version.split()[0]}\n")

    print("exact engine (library)")
    enumerate_cold = best(repeat, boardgen.normalised_boards, clear_caches)
    print(
        f"  enumerate the {len(boardgen.normalised_boards())} normalised boards, cold: "
        f"{enumerate_cold * 1000:.1f} ms"
    )
    for name, constraints in CASES.items():
        count_cold = best(repeat, partial(count_boards, constraints), clear_caches)
        total = count_boards(constraints)
        k = min(n, total)
        generate = partial(generate_boards, k, constraints, seed=1)
        cold = best(repeat, generate, clear_caches)
        warm = best(repeat, generate)
        print(
            f"  {name:32} count {total:>9} in {count_cold * 1000:7.1f} ms cold;"
            f" {k} distinct boards {k / cold:9.0f}/s cold, {k / warm:9.0f}/s warm"
        )

    bans_and_conflicts(repeat, options.quick)

    print("\ncommand line (fresh process, start-up included)")
    with tempfile.TemporaryDirectory() as folder:
        out = str(Path(folder) / "boards.jsonl")
        for args in (
            ["--version"],
            ["board", "--seed", "1"],
            ["boards", "--count", str(n), "--seed", "1", "-o", out],
            ["boards", "--count", str(n), "--seed", "1", "--diagonals", "-o", out],
            [
                "boards",
                "--count",
                str(n),
                "--seed",
                "1",
                "--fix",
                "a1=5Y",
                "--forbid",
                "c3=0R",
                "-o",
                out,
            ],
            ["count"],
            ["count", "--diagonals"],
            ["count", "--diagonals", "--fix", "a1=5Y", "--fix", "c2=0R", "--forbid", "b5=6G"],
        ):
            seconds = cli_seconds(args, repeat)
            shown = " ".join(a if a != out else "OUT" for a in args)
            print(f"  runarch-gen {shown:72} {seconds:6.2f} s")

    print("\nCP-SAT engine (library)")
    from runarch_gen.runarch.boards.cpsat import build_board_model, enumerate_solutions

    listed = count_boards(CPSAT_COUNT, engine="cpsat")
    count_time = best(repeat, lambda: count_boards(CPSAT_COUNT, engine="cpsat"))
    print(
        f"  count with row 1 fixed ({listed} boards): {count_time:.2f} s,"
        f" {listed / count_time:.0f} boards/s enumerated"
    )
    found: list[object] = []
    read_time = best(
        repeat,
        lambda: enumerate_solutions(build_board_model(CPSAT_COUNT), on_board=found.append),
    )
    print(f"  listing them as boards: {listed / read_time:.0f} boards/s")
    k = 10 if options.quick else 30
    for name in ("B-1", "B-2 (--diagonals)"):
        seconds = best(1, partial(generate_boards, k, CASES[name], seed=1, engine="cpsat"))
        print(f"  {name:32} {k} distinct boards: {k / seconds:.1f} boards/s")

    print("\nchecker")
    text = format_boards(generate_boards(n, seed=1), "jsonl")
    seconds = best(repeat, lambda: check_board_text(text, source="bench", diagonals=True))
    print(f"  read and check {n} JSON Lines boards: {n / seconds:.0f} boards/s")


if __name__ == "__main__":
    main()
