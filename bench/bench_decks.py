"""Deck speeds: time and smallest difference reached for 30, 50 and 100 cards.

    python bench/bench_decks.py               # 30, 50, 100 cards, seeds 1-5, plus the command line
    python bench/bench_decks.py --seeds 10    # more seeds per size
    python bench/bench_decks.py --all-sizes   # also every size from 30 to 100, one seed each

Each deck is made by :func:`generate_deck` in this process (OR-Tools imported first): *total*
is the whole job — build the model, solve it, deal the cards, find every goal's witness —,
*solve* the CP-SAT call alone, *dtime* CP-SAT's deterministic time (machine-independent). The
command-line figure is a whole ``runarch-gen deck`` run in a fresh process, start-up included.
The machine's load is printed first: figures taken under load are slower.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine import load
from runarch_gen.runarch.decks.check import check_deck
from runarch_gen.runarch.decks.generate import GenerationReport, generate_deck

SIZES = (30, 50, 100)
TARGETS = {50: 10.0, 100: 30.0}  # seconds the issue allows for the default and the largest deck


def made(cards: int, seed: int) -> tuple[float, GenerationReport]:
    start = time.perf_counter()
    deck, report = generate_deck(cards, seed)
    seconds = time.perf_counter() - start
    checked = check_deck(deck)  # the figures below are only worth quoting for valid decks
    assert checked.valid and checked.balanced, checked.summary()
    assert checked.differences.smallest == report.smallest_difference
    return seconds, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=5, help="seeds per size (1..N)")
    parser.add_argument("--all-sizes", action="store_true", help="also sizes 30-100, seed 1")
    options = parser.parse_args()

    from ortools.sat.python import cp_model  # noqa: F401  (import time is not deck time)

    print(f"load average {load()}; python {sys.version.split()[0]}")
    print("one CP-SAT worker, deterministic; every deck checked by the independent checker\n")
    print(f"{'cards':>5} {'seed':>4} {'total s':>8} {'solve s':>8} {'dtime':>6}  difference")
    for cards in SIZES:
        totals = []
        for seed in range(1, options.seeds + 1):
            seconds, report = made(cards, seed)
            totals.append(seconds)
            proof = "proven optimal" if report.proven else "NOT proven"
            print(
                f"{cards:>5} {seed:>4} {seconds:8.2f} {report.solve_seconds:8.2f}"
                f" {report.deterministic_seconds:6.2f}  {report.smallest_difference} of best"
                f" possible {report.best_possible.value}, {proof}"
            )
        target = f" (target < {TARGETS[cards]:.0f} s)" if cards in TARGETS else ""
        print(
            f"{cards:>5} cards: median {statistics.median(totals):.2f} s,"
            f" max {max(totals):.2f} s over {len(totals)} seeds{target}\n"
        )

    print("command line (fresh process, start-up included)")
    with tempfile.TemporaryDirectory() as folder:
        out = str(Path(folder) / "deck.json")
        for cards in SIZES:
            command = [sys.executable, "-m", "runarch_gen", "deck", "-n", str(cards)]
            start = time.perf_counter()
            subprocess.run(
                [*command, "--seed", "1", "-o", out],
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            seconds = time.perf_counter() - start
            print(f"  runarch-gen deck -n {cards} --seed 1 -o OUT: {seconds:.2f} s")
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "runarch_gen", "check", out],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        print(f"  runarch-gen check OUT (100 cards): {time.perf_counter() - start:.2f} s")

    if options.all_sizes:
        print("\nevery size, seed 1")
        worst = (0.0, 0)
        for cards in range(30, 101):
            seconds, report = made(cards, 1)
            assert report.proven
            worst = max(worst, (seconds, cards))
            print(
                f"  {cards:>3} cards {seconds:6.2f} s (dtime {report.deterministic_seconds:.2f}),"
                f" difference {report.smallest_difference}"
            )
        print(f"  slowest: {worst[1]} cards in {worst[0]:.2f} s")
    print(f"\nload average at the end {load()}")


if __name__ == "__main__":
    main()
