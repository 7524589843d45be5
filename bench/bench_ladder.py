"""Rank each game's ladder of bots: every bot against the one below it, at 95 %.

    python bench/bench_ladder.py                          # every game, 200 games a rung
    python bench/bench_ladder.py --games 100 --only bluff,malacca
    python bench/bench_ladder.py --rules "malacca=players=5" --json
    python bench/bench_ladder.py --only bluff --games 0 --line-ups 200   # self-play vs line-up
    python bench/bench_ladder.py --only backgammon --games 0 --pair neural,td --pair td2,td

A rung plays the stronger bot in one seat against the weaker in every other seat (the seats
turn game by game) and reports the stronger bot's share of the games won alone and its skill
index (n·r − 1)/(n − 1) with the 95 % interval (:mod:`runarch_gen.play.ladder`); the rung is
*ranked* when the whole interval lies above 0. RunArch's ladder is ranked in its complex game
on a generated set, the others in their default rules. With ``--line-ups N`` it also plays N
games of the top of the ladder against itself and N of the default line-up of ``validate``,
and prints their length and the game's own per-game figures (why Bluff's line-up is mixed).
Note the machine's load average.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from machine import load
from runarch_gen.games import game_values
from runarch_gen.play.design import design_of
from runarch_gen.play.ladder import climb, pairing
from runarch_gen.play.playtest import playtest

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
    parser.add_argument("--line-ups", type=int, default=0, help="games of self-play and line-up")
    parser.add_argument(
        "--pair",
        action="append",
        default=[],
        help="STRONG,WEAK: rank two bots off the ladder too (100 games, or --games)",
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
        rungs = (
            climb(
                registration,
                values,
                ladder,
                games=args.games,
                seed=args.seed,
                workers=args.workers,
            )
            if args.games
            else []
        )
        for pair in args.pair:
            strong, _, weak = pair.partition(",")
            run = pairing(
                registration,
                values,
                strong,
                weak,
                games=args.games or 100,
                seed=args.seed,
                workers=args.workers,
            )
            if run is not None:
                rungs.append(run)
        lineups: dict[str, dict[str, Any]] = {}
        if args.line_ups:
            for label, bots in (
                ("top against itself", [ladder[-1]]),
                ("validate's line-up", list(design_of(game).lineup(values))),
            ):
                played = playtest(
                    registration,
                    values,
                    bots,
                    games=args.line_ups,
                    seed=args.seed,
                    workers=args.workers,
                )
                figures = {k: round(v.mean, 3) for k, v in played.numbers().items()}
                lineups[label] = {
                    "bots": bots,
                    "length": round(played.lengths().mean, 2),
                    "unit": played.length_unit,
                    "figures": figures,
                }
        out["ladders"][game] = {
            "rules": str(registration.load(values)),
            "ladder": list(ladder),
            "seconds": round(time.perf_counter() - started, 1),
            "rungs": [rung.to_json() for rung in rungs],
            "line_ups": lineups,
        }
        if not args.json:
            print(f"{game}: {' < '.join(ladder)} ({out['ladders'][game]['rules']})")
            for rung in rungs:
                mark = "ranked" if rung.ranked else "NOT ranked"
                print(f"  {rung.describe}; index {rung.index.text(digits=3)}: {mark}")
            for label, row in lineups.items():
                shown = ", ".join(f"{k} {v:g}" for k, v in row["figures"].items())
                print(
                    f"  {label} ({', '.join(row['bots'])}): {row['length']:g} {row['unit']};"
                    f" {shown}"
                )
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"load average {load()}")


if __name__ == "__main__":
    main()
