"""Rank each game's ladder of bots: every bot against the one below it, at 95 %.

    python bench/bench_ladder.py                          # every game, 200 games a rung
    python bench/bench_ladder.py --games 100 --only bluff,malacca
    python bench/bench_ladder.py --rules "malacca=players=5" --json

A rung plays the stronger bot in one seat against the weaker in every other seat (the seats
turn game by game) and reports the stronger bot's share of the games won alone and its skill
index (n·r − 1)/(n − 1) with the 95 % interval (:mod:`runarch_gen.play.ladder`); the rung is
*ranked* when the whole interval lies above 0. RunArch's ladder is ranked in its complex game
on a generated set, the others in their default rules. Note the machine's load average.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from machine import load
from runarch_gen.games import game_values
from runarch_gen.play.design import design_of
from runarch_gen.play.ladder import climb

RULES = {"runarch": "variant=complex,set=1"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games a rung (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", default="runarch,bluff,malacca,backgammon")
    parser.add_argument(
        "--rules", action="append", default=[], help="GAME=RULES, e.g. malacca=players=5"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rules = dict(RULES)
    for item in args.rules:
        game, _, text = item.partition("=")
        rules[game] = text
    out: dict[str, Any] = {"load_average": load(), "games_a_rung": args.games, "ladders": {}}
    for game in args.only.split(","):
        registration, values = game_values(game, rules.get(game, ""))
        ladder = design_of(game).ladder
        started = time.perf_counter()
        rungs = climb(
            registration, values, ladder, games=args.games, seed=args.seed, workers=args.workers
        )
        out["ladders"][game] = {
            "rules": str(registration.load(values)),
            "ladder": list(ladder),
            "seconds": round(time.perf_counter() - started, 1),
            "rungs": [rung.to_json() for rung in rungs],
        }
        if not args.json:
            print(f"{game}: {' < '.join(ladder)} ({out['ladders'][game]['rules']})")
            for rung in rungs:
                mark = "ranked" if rung.ranked else "NOT ranked"
                print(f"  {rung.describe}; index {rung.index.text(digits=3)}: {mark}")
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"load average {load()}")


if __name__ == "__main__":
    main()
