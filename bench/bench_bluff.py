"""Benchmark Bluff: games per second on one core for each bot, and the exact solver.

    python bench/bench_bluff.py                      # the issue's three figures
    python bench/bench_bluff.py --games 2000 --json
    python bench/bench_bluff.py --skip-solver --bots random,odds,bayes --players 4

Issue targets (one core): random 6-player games >= 200 games/s; the odds (probabilistic) bot
>= 50 games/s; the solver for two players with one die each below exploitability 0.001 in
under a minute. Each bot plays every seat of its own games (self-play), chance from a seeded
generator; the rates are wall clock and CPU time of this one process. Note the machine's load:
the figures are only comparable on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

from machine import load
from runarch_gen.bluff.best_response import evaluate
from runarch_gen.bluff.bots import BOTS
from runarch_gen.bluff.engine import BluffGame
from runarch_gen.bluff.rules import BluffRules
from runarch_gen.bluff.solver import SmallGame, bot_strategy, solve
from runarch_gen.play.bot import play_out


def bench_bot(name: str, players: int, games: int, seed: int) -> dict[str, Any]:
    """Self-play games of one bot at a table of ``players``; rates and game lengths."""
    game = BluffGame(BluffRules(players=players))
    rounds: list[int] = []
    actions = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        state = game.new_initial_state()
        bots = [BOTS[name](random.Random(f"{seed}:{i}:{p}")) for p in range(players)]
        play_out(state, bots, random.Random(f"{seed}:{i}"))
        rounds.append(state.round)
        actions += len(state.history())
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {
        "bot": name,
        "players": players,
        "games": games,
        "games_per_second": round(games / wall, 1),
        "games_per_cpu_second": round(games / cpu, 1),
        "actions_per_second": round(actions / wall),
        "rounds_mean": round(statistics.fmean(rounds), 2),
    }


def bench_solver(target: float) -> dict[str, Any]:
    """CFR+ on the one-die game to ``target``; the bots' exploitability (see
    bench_bluff_solver.py for the larger games and the table of values)."""
    started = time.perf_counter()
    game = SmallGame(BluffRules(), (1, 1))
    result = solve(game, target=target, check_every=25)
    seconds = time.perf_counter() - started
    bots = {}
    for name, make in BOTS.items():
        bots[name] = round(evaluate(bot_strategy(game, make)).exploitability, 4)
    return {
        "nodes": 1 << game.bids,
        "target": target,
        "iterations": result.iterations,
        "exploitability": round(result.exploitability, 6),
        "value": round(result.value, 6),
        "seconds": round(seconds, 2),
        "bots_exploitability": bots,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=500, help="games per bot (default 500)")
    parser.add_argument("--players", type=int, default=6, help="table size (default 6)")
    parser.add_argument("--bots", default="random,odds", help="bots to time (default random,odds)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target", type=float, default=0.001, help="solver exploitability")
    parser.add_argument("--skip-solver", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report: dict[str, Any] = {"load": load(), "bots": [], "solver": None}
    for name in args.bots.split(","):
        games = args.games if name == "random" else max(1, args.games // 5)
        report["bots"].append(bench_bot(name.strip(), args.players, games, args.seed))
    if not args.skip_solver:
        report["solver"] = bench_solver(args.target)
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        print()
        return 0
    print(f"load {report['load']}")
    for row in report["bots"]:
        print(
            f"{row['bot']:<8} {row['players']} players: {row['games_per_second']:>8.1f} games/s"
            f" ({row['games_per_cpu_second']:.1f} per CPU second, {row['actions_per_second']}"
            f" actions/s, {row['rounds_mean']} rounds a game, {row['games']} games)"
        )
    solver = report["solver"]
    if solver is not None:
        print(
            f"solver   1+1 dice: exploitability {solver['exploitability']} after"
            f" {solver['iterations']} iterations in {solver['seconds']} s"
            f" ({solver['nodes']} bid histories), value {solver['value']:+.6f}"
        )
        for name, gap in solver["bots_exploitability"].items():
            print(f"  {name:<8} exploitability {gap}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
