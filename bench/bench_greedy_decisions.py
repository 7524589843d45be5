"""Benchmark the greedy bot's decisions other than moving: scoring (the card, then filing and
drawing), placing a bet token, setup, and which cards in hand an archive takes.

    python bench/bench_greedy_decisions.py                       # 100 complex games
    python bench/bench_greedy_decisions.py --games 300 --variant "complex(match_bonus=line)"
    python bench/bench_greedy_decisions.py --json

Greedy bots play ``--games`` games (board and deck generated from ``--seed`` as ``simulate``
does); every decision of these kinds is recorded (a copy of the state, the side, the legal
actions) and then replayed ``--repeat`` times on one core. The figures are CPU time per call,
the best replay, so other work on the machine disturbs them less than wall-clock rates;
``calls/game`` and ``ms/game`` say what share of a game they make up (compare
``bench_simulate.py``'s greedy-vs-greedy rate).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

from machine import count, load, run
from runarch_gen.runarch.analysis.simulation import playtest_set
from runarch_gen.runarch.bots.greedy import GreedyBot
from runarch_gen.runarch.bots.planning import choose_bet, knowledge, playable_cards
from runarch_gen.runarch.engine import RunArchGame, RunArchState
from runarch_gen.runarch.engine.actions import BET_BASE, EVAL_BASE, SWAP_BASE
from runarch_gen.runarch.rules import parse_rules

Recorded = list[tuple[RunArchState, int, tuple[int, ...]]]


def record(game: RunArchGame, games: int, seed: int) -> dict[str, Recorded]:
    """The setup, scoring and betting decisions of greedy games, and the move decisions where
    a side's hand or archives changed since its last one (where the bot checks which cards in
    hand an archive takes)."""
    kinds: dict[str, Recorded] = {"score": [], "bet": [], "setup": [], "playable": []}
    for index in range(games):
        state = game.new_initial_state(random.Random(seed + index))
        bots = [GreedyBot(random.Random(f"{seed + index}:{side}")) for side in (0, 1)]
        seen: list[object] = [None, None]
        while not state.is_terminal():
            player = state.current_player()
            legal = tuple(state.legal_actions())
            observation = state.observation(player)
            first = legal[0]
            if first < EVAL_BASE:
                kind = "setup"
            elif first < SWAP_BASE:
                kind = "score"
            elif first >= BET_BASE:
                kind = "bet"
            else:
                kind = "playable"
                now = (observation.hand, observation.archives[player])
                if now == seen[player]:
                    kind = ""
                seen[player] = now
            if kind:
                kinds[kind].append((state.copy(), player, legal))
            state.apply(bots[player].step(observation, legal))
    return kinds


def replays(kinds: dict[str, Recorded]) -> dict[str, Callable[[], None]]:
    bot = GreedyBot(random.Random(0))

    def score() -> None:
        for state, player, legal in kinds["score"]:
            bot.score(state.observation(player), bot.evaluations(legal))

    def bet() -> None:
        for state, player, legal in kinds["bet"]:
            choose_bet(state.observation(player), legal)

    def setup() -> None:
        for state, player, legal in kinds["setup"]:
            bot.set_up(state.observation(player), legal)

    cases = [(state.observation(player), player) for state, player, _ in kinds["playable"]]
    reads = [(knowledge(o.game), o.archives[player], o.hand) for o, player in cases]

    def playable() -> None:
        for known, archives, hand in reads:
            playable_cards(known, archives, hand)

    return {"score": score, "bet": bet, "setup": setup, "playable": playable}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=count, default=100)
    parser.add_argument("--variant", default="complex")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=count, default=5, help="replays; the best one counts")
    parser.add_argument("--json", action="store_true", help="print a JSON report")
    args = parser.parse_args(argv)
    chosen = playtest_set(args.seed)
    rules = parse_rules(args.variant)
    game = RunArchGame(rules, chosen.board, chosen.deck)
    machine_before = load()
    kinds = record(game, args.games, args.seed)
    rows: list[dict[str, Any]] = []
    for name, replay in replays(kinds).items():
        calls = len(kinds[name])
        best = float("inf")
        for _ in range(args.repeat):
            started = time.process_time()
            replay()
            best = min(best, time.process_time() - started)
        rows.append(
            {
                "decision": name,
                "calls_per_game": round(calls / args.games, 1),
                "us_per_call": round(1e6 * best / calls, 2) if calls else None,
                "ms_per_game": round(1e3 * best / args.games, 3),
            }
        )
    machine = f"{machine_before} (before), {load()} (after)"
    if args.json:
        print(
            json.dumps({"variant": str(rules), "games": args.games, "rows": rows, "load": machine})
        )
        return 0
    print(f"{rules}, {args.games} greedy games, CPU time, best of {args.repeat} replays")
    for row in rows:
        per_call = "-" if row["us_per_call"] is None else f"{row['us_per_call']:7.2f}"
        print(
            f"  {row['decision']:9s} {row['calls_per_game']:6.1f} calls/game"
            f"  {per_call} µs/call  {row['ms_per_game']:6.3f} ms/game"
        )
    print(f"load average {machine}")
    return 0


if __name__ == "__main__":
    run(main)
