"""Benchmark Malacca: complete games between bots, and single rounds resolved.

    python bench/bench_malacca.py                          # 5 players, morgan and random
    python bench/bench_malacca.py --bots morgan,reader --games 40
    python bench/bench_malacca.py --rules "players=8,characters=random,equipment=on" --json

For each bot it plays ``--games`` games with that bot in every seat (the reader bot against
morgan bots, as it is slow) on one core and reports games, decisions and actions per second
(wall clock and CPU time of this one process), then the rate of ``resolve_round`` on random
rounds. Issue target: rule-following bots, 5 players, at least 300 games per second on one
core. Note the machine's load: figures are only comparable on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from machine import load
from runarch_gen.games import find_game
from runarch_gen.malacca.bots import BOTS
from runarch_gen.malacca.engine import MalaccaGame
from runarch_gen.malacca.resolve import RoundInput, Seat, resolve_round
from runarch_gen.malacca.rules import Card
from runarch_gen.play.bot import Bot
from runarch_gen.play.game import sample_chance


def bench_bot(game: MalaccaGame, bot: str, games: int, seed: int) -> dict[str, Any]:
    n = game.num_players
    decisions = actions = 0
    money: list[int] = []
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        names = [bot] * n if bot != "reader" else ["reader"] + ["morgan"] * (n - 1)
        bots: list[Bot[Any]] = [
            BOTS[name](random.Random(seed * 1_000_003 + i * 16 + p)) for p, name in enumerate(names)
        ]
        chance = random.Random(seed * 7 + i)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(sample_chance(state, chance))
            else:
                p = state.current_player()
                state.apply(bots[p].step(state.observation(p), state.legal_actions()))
                decisions += 1
            actions += 1
        money += state.money
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu
    return {
        "bot": bot,
        "games": games,
        "seconds": round(wall, 3),
        "games_per_second": round(games / wall, 1),
        "games_per_cpu_second": round(games / cpu, 1) if cpu else None,
        "decisions_per_second": round(decisions / wall),
        "actions_per_second": round(actions / wall),
        "mean_final_money": round(sum(money) / len(money), 2),
    }


def bench_resolve(rounds: int, seed: int, players: int) -> dict[str, Any]:
    rng = random.Random(seed)
    cases = []
    for _ in range(1000):
        seats = []
        for _p in range(players):
            card = Card(rng.randrange(8))
            money = rng.randrange(0, 40)
            choice = rng.choice(card.choices) if card.role is None else None
            seats.append(Seat(money, card, rng.randrange(money + 1), choice))
        cases.append(RoundInput(rng.randrange(3, 15), rng.randrange(players), tuple(seats)))
    wall = time.perf_counter()
    for i in range(rounds):
        resolve_round(cases[i % len(cases)])
    wall = time.perf_counter() - wall
    return {"rounds": rounds, "rounds_per_second": round(rounds / wall)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="players=5", help="malacca parameters")
    parser.add_argument("--bots", default="morgan,random")
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--reader-games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=20_000, help="rounds for resolve_round")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    game = find_game(f"malacca({args.rules})")
    assert isinstance(game, MalaccaGame)
    rows = [
        bench_bot(game, bot, args.reader_games if bot == "reader" else args.games, args.seed)
        for bot in args.bots.split(",")
    ]
    resolve = bench_resolve(args.rounds, args.seed, game.num_players)
    report = {"game": str(game), "load": load(), "bots": rows, "resolve": resolve}
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        print()
        return 0
    print(f"{report['game']} — load {report['load']}")
    for row in rows:
        print(
            f"  {row['bot']:<8} {row['games']:>5} games in {row['seconds']:>6} s:"
            f" {row['games_per_second']:>7} games/s ({row['games_per_cpu_second']} per CPU s),"
            f" {row['decisions_per_second']:>7} decisions/s, mean money {row['mean_final_money']}"
        )
    print(f"  resolve_round: {resolve['rounds_per_second']:,} rounds/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
