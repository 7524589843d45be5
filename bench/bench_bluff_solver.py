"""Benchmark Bluff's solver: the small games solved, timed, and measured by the exact best
response; the table of game values for the docs.

    python bench/bench_bluff_solver.py                    # 1+1 (LP and CFR+), 1+2, 2+1
    python bench/bench_bluff_solver.py --games 2,2 --window 4 --iterations 400
    python bench/bench_bluff_solver.py --table            # the docs' table of values (long)
    python bench/bench_bluff_solver.py --json

Issue targets: one die each, the exact value in under 5 s; one die against two and two
against one, exploitability at most 0.001 in under 2 minutes; two dice each with the full
scale, a strategy of exploitability at most 0.02 measured in the full game. Times are CPU
seconds of this process and wall-clock seconds; on a loaded machine the wall clock is longer
(the load is printed). Run long ones with ``nice -n 10``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from fractions import Fraction
from typing import Any

from machine import load, run
from runarch_gen.bluff.best_response import evaluate
from runarch_gen.bluff.rules import BluffRules
from runarch_gen.bluff.solver import SmallGame, solve, solve_lp, solve_window
from runarch_gen.games import find_game


def _clock() -> tuple[float, float]:
    return time.process_time(), time.perf_counter()


def _since(start: tuple[float, float]) -> dict[str, float]:
    cpu, wall = _clock()
    return {"cpu_seconds": round(cpu - start[0], 2), "wall_seconds": round(wall - start[1], 2)}


def bench_lp(rules: BluffRules) -> dict[str, Any]:
    """The exact value of the one-die game by the sequence-form linear program."""
    start = _clock()
    value = solve_lp(SmallGame(rules, (1, 1)))
    near = Fraction(value).limit_denominator(10_000)
    exact = str(near) if abs(float(near) - value) < 1e-9 else None
    return {
        "game": "1,1",
        "method": "lp",
        "value": round(value, 9),
        "exact": exact,
        **_since(start),
    }


def bench_cfr(rules: BluffRules, dice: tuple[int, int], target: float) -> dict[str, Any]:
    """CFR+ on the whole tree to ``target``, measured again by the independent best response."""
    start = _clock()
    game = SmallGame(rules, dice)
    result = solve(game, target=target, check_every=25)
    timing = _since(start)
    measured = evaluate(result.strategy)
    return {
        "game": f"{dice[0]},{dice[1]}",
        "method": "cfr+",
        "bids": game.bids,
        "iterations": result.iterations,
        "value": round(result.value, 6),
        "exploitability": round(result.exploitability, 6),
        "exploitability_independent": round(measured.exploitability, 6),
        **timing,
    }


def bench_window(
    rules: BluffRules, dice: tuple[int, int], window: int, iterations: int
) -> dict[str, Any]:
    """CFR+ on the last-``window``-bids abstraction; exploitability in the full game."""
    start = _clock()
    game = SmallGame(rules, dice)
    checks: list[tuple[int, float]] = []

    def checked(iteration: int, gap: float) -> None:
        checks.append((iteration, gap))
        print(f"  iteration {iteration}: exploitability {gap:.5f}", file=sys.stderr, flush=True)

    result = solve_window(
        game, window, iterations=iterations, check_every=max(iterations // 4, 1), on_check=checked
    )
    return {
        "game": f"{dice[0]},{dice[1]}",
        "method": f"cfr+ window {window}",
        "bids": game.bids,
        "iterations": iterations,
        "value": round(result.value, 6),
        "exploitability": round(result.exploitability, 6),
        "history": [[i, round(g, 6)] for i, g in checks],
        **_since(start),
    }


VARIANTS = ("seed", "original", "endless", "reroll")


def table(rules_text: str, window: int, iterations: int) -> list[dict[str, Any]]:
    """The value of the one-round game for player 1 (the opener) for each pair of dice and
    each named variant, computed (nothing copied): the exact-hit and opener rules cannot
    change one round, so those variants give the same small game; show and re-roll changes
    it once a player holds two dice, which the solver does not cover."""
    rows = []
    solved: dict[tuple[str, tuple[int, int]], dict[str, Any]] = {}
    for dice in ((1, 1), (1, 2), (2, 1), (2, 2)):
        for variant in VARIANTS:
            game_rules = find_game(f"bluff(variant={variant}{rules_text})").rules
            try:
                game = SmallGame(game_rules, dice)
            except Exception as exc:  # the solver's refusal, reported in the table
                rows.append({"dice": dice, "variant": variant, "value": None, "note": str(exc)})
                continue
            row: dict[str, Any] = {
                "dice": dice,
                "variant": variant,
                "small_game": game.game_string(),
            }
            known = solved.get((game.game_string(), dice))
            if known is not None:  # the same small game as a variant before: its figures
                rows.append({**known, "variant": variant})
                continue
            if dice == (1, 1):
                row["value"] = solve_lp(game)
                row["method"] = "LP"
            elif game.bids <= 20:
                result = solve(game, target=1e-3, check_every=25)
                row.update(value=result.value, exploitability=result.exploitability, method="CFR+")
            else:
                result = solve_window(game, window, iterations=iterations)
                row.update(
                    value=result.value,
                    exploitability=result.exploitability,
                    method=f"CFR+, last {window} bids",
                )
            solved[(game.game_string(), dice)] = row
            rows.append(row)
            print(f"  {dice} {variant}: {row.get('value')}", file=sys.stderr, flush=True)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default="1,1 1,2 2,1", help="pairs of dice, e.g. '1,1 2,2'")
    parser.add_argument("--target", type=float, default=0.001)
    parser.add_argument("--window", type=int, default=4, help="for two dice each")
    parser.add_argument("--iterations", type=int, default=400, help="for two dice each")
    parser.add_argument("--rules", default="", help="extra parameters, e.g. ',faces=4'")
    parser.add_argument("--table", action="store_true", help="the table of values (long)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report: dict[str, Any] = {"load": load(), "runs": []}
    rules = find_game(f"bluff({args.rules.lstrip(',')})").rules
    if args.table:
        report["table"] = table(args.rules, args.window, args.iterations)
    else:
        for pair in args.games.split():
            dice = (int(pair.split(",")[0]), int(pair.split(",")[1]))
            if dice == (1, 1):
                report["runs"].append(bench_lp(rules))
            if sum(dice) <= 3:
                report["runs"].append(bench_cfr(rules, dice, args.target))
            else:
                report["runs"].append(bench_window(rules, dice, args.window, args.iterations))
    report["load_after"] = load()
    if args.json:
        json.dump(report, sys.stdout, indent=2, default=str)
        print()
        return 0
    print(f"load {report['load']} (after: {report['load_after']})")
    for row in report["runs"]:
        figures = ", ".join(f"{k} {v}" for k, v in row.items() if k not in ("game", "method"))
        print(f"{row['game']} {row['method']}: {figures}")
    for row in report.get("table", []):
        print(row)
    return 0


if __name__ == "__main__":
    run(main)
