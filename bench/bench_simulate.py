"""Benchmark simulations: games per second per bot pairing, and a long greedy run per worker
count.

    python bench/bench_simulate.py                      # pairings (200 games) + 10,000 games
    python bench/bench_simulate.py --games 500 --long 2000 --variants complex,simple
    python bench/bench_simulate.py --long 0 --json      # pairings only

Part 1 plays ``--games`` games of each bot pairing in each variant on one worker and reports
games and turns per second (wall clock), how the games ended (stalls and deadlocks [R-18]) and
the first bot's win rate. Part 2 times ``simulate`` with two greedy bots in the complex game
for ``--long`` games on 1 and on 2 workers (the issue's target: 10,000 games in under two
minutes on 2 cores, about 83 games/s), and checks that both reports are identical. Part 3 times
``runarch-gen simulate`` as a whole (start-up, board and deck generation included) for the
same run on all cores. The board and deck are generated from ``--seed`` as the command does.
Note the machine's load: the figures are only comparable on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from typing import Any

from machine import load
from runarch_gen.runarch.analysis.simulation import playtest_set, simulate
from runarch_gen.runarch.rules import parse_rules

PAIRINGS = (
    ("random", "random"),
    ("greedy", "random"),
    ("greedy", "greedy"),
    ("lookahead", "greedy"),
    ("lookahead", "lookahead"),
)


def bench_pairing(variant: str, bots: tuple[str, ...], games: int, seed: int) -> dict[str, Any]:
    chosen = playtest_set(seed)
    rules = parse_rules(variant)
    if rules.has_automa:
        bots = bots[:1]
    started = time.perf_counter()
    report = simulate(
        rules=rules,
        board=chosen.board,
        deck=chosen.deck,
        bots=bots,
        games=games,
        seed=seed,
        workers=1,
    )
    wall = time.perf_counter() - started
    turns = sum(g.turns for g in report.summaries)
    head = report.head_to_head()
    first_bot_wins = None
    if head is not None:
        first_bot_wins = head["wins"][bots[0]] / report.games
    return {
        "variant": str(rules),
        "bots": list(bots),
        "games": games,
        "seconds": round(wall, 2),
        "games_per_second": round(games / wall, 1),
        "turns_per_second": round(turns / wall),
        "mean_turns": round(turns / games, 1),
        "stall_rate": round(report.stalls / games, 4),
        "deadlock_rate": round(report.deadlocks / games, 4),
        "first_bot_win_rate": None if first_bot_wins is None else round(first_bot_wins, 3),
    }


def bench_long(games: int, seed: int, workers: int) -> tuple[dict[str, Any], dict[str, Any]]:
    chosen = playtest_set(seed)
    started = time.perf_counter()
    report = simulate(
        rules=parse_rules("complex"),
        board=chosen.board,
        deck=chosen.deck,
        bots=["greedy"],
        games=games,
        seed=seed,
        workers=workers,
    )
    wall = time.perf_counter() - started
    return {
        "workers": workers,
        "games": games,
        "seconds": round(wall, 1),
        "games_per_second": round(games / wall, 1),
        "stall_rate": round(report.stalls / games, 4),
        "deadlock_rate": round(report.deadlocks / games, 4),
        "mean_turns": round(report.turns().mean, 1),
    }, report.to_json()


def bench_command(games: int, seed: int) -> dict[str, Any]:
    command = [
        sys.executable,
        "-m",
        "runarch_gen",
        "simulate",
        "--games",
        str(games),
        "--seed",
        str(seed),
        "--json",
    ]
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    wall = time.perf_counter() - started
    return {"command": " ".join(command[2:]), "seconds": round(wall, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per bot pairing")
    parser.add_argument("--long", type=int, default=10_000, help="games of the long run (0: skip)")
    parser.add_argument("--variants", default="complex", help="rules strings, comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print a JSON report")
    args = parser.parse_args(argv)
    report: dict[str, Any] = {"load_before": load(), "python": sys.version.split()[0]}
    pairings = []
    for variant in [v.strip() for v in args.variants.split(",") if v.strip()]:
        for bots in PAIRINGS:
            if parse_rules(variant).has_automa and bots[1] != bots[0]:
                continue
            pairings.append(bench_pairing(variant, bots, args.games, args.seed))
            if not args.json:
                row = pairings[-1]
                print(
                    f"{row['variant']:<10} {' vs '.join(row['bots']):<22}"
                    f" {row['games_per_second']:>7} games/s {row['turns_per_second']:>7} turns/s"
                    f"  turns {row['mean_turns']:>6}  stalled {row['stall_rate']:>6.1%}"
                    f" (deadlock {row['deadlock_rate']:.1%})  first bot wins"
                    f" {row['first_bot_win_rate']}",
                    flush=True,
                )
    report["pairings"] = pairings
    if args.long:
        runs = []
        reports = []
        for workers in (1, 2):
            run, full = bench_long(args.long, args.seed, workers)
            runs.append(run)
            reports.append(full)
            if not args.json:
                print(
                    f"simulate --games {args.long} (complex, greedy) on {workers} worker(s):"
                    f" {run['seconds']} s, {run['games_per_second']} games/s;"
                    f" stalled {run['stall_rate']:.1%} (deadlock {run['deadlock_rate']:.1%}),"
                    f" mean {run['mean_turns']} turns",
                    flush=True,
                )
        report["long"] = runs
        report["identical_reports"] = reports[0] == reports[1]
        report["command"] = bench_command(args.long, args.seed)
        if not args.json:
            print(f"reports identical for 1 and 2 workers: {report['identical_reports']}")
            print(f"runarch-gen {report['command']['command']}: {report['command']['seconds']} s")
    report["load_after"] = load()
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"load average {report['load_before']} (before), {report['load_after']} (after)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
