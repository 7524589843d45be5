"""Print a fingerprint of every simulated game, to check that a change to the engine or the
bots plays exactly the same games (run before and after, then ``diff`` the outputs).

    python bench/trace_games.py > before.txt        # on the old code
    python bench/trace_games.py > after.txt         # on the new code; diff must be empty
    python bench/trace_games.py --games 50 --configs complex:greedy,greedy

Per game, one line: rules, bots, game index, turns, termination, totals, and a digest of every
action played together with the legal actions offered at each step and both sides' final
observation strings. Games are played as ``simulate`` plays them (same seeds, same seating).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys

from runarch_gen.play.bot import Bot
from runarch_gen.runarch.analysis.simulation import playtest_set, seat_bots
from runarch_gen.runarch.bots import make_bot
from runarch_gen.runarch.engine.game import RunArchGame
from runarch_gen.runarch.engine.observation import RunArchObservation
from runarch_gen.runarch.rules import parse_rules

CONFIGS = (
    "complex:greedy",
    "simple:greedy",
    "classic:greedy",
    "solo:greedy",
    "solo(automa=4):greedy",
    "complex(match_bonus=line):greedy",
    "complex(match_bonus=board):greedy",
    "complex:random",
    "complex:greedy,random",
    "complex:lookahead,greedy",
    "simple:lookahead,greedy",
    "solo:lookahead",
)


def trace(config: str, games: int, seed: int) -> list[str]:
    rules_text, _, bots_text = config.rpartition(":")
    rules = parse_rules(rules_text)
    bots = tuple(bots_text.split(","))
    chosen = playtest_set(seed)
    game = RunArchGame(rules, chosen.board, chosen.deck)
    lines = []
    for index in range(games):
        game_seed = seed * 1_000_003 + index
        state = game.new_initial_state(random.Random(game_seed))
        names = seat_bots(bots, index, game.solo)
        players: list[Bot[RunArchObservation]] = [
            make_bot(name, random.Random(f"{game_seed}:{side}"))
            for side, name in enumerate(names[: game.num_players])
        ]
        digest = hashlib.sha256()
        while not state.is_terminal():
            player = state.current_player()
            legal = state.legal_actions()
            action = players[player].step(state.observation(player), legal)
            digest.update(repr((tuple(legal), action)).encode())
            state.apply(action)
        for side in (0, 1):
            digest.update(state.observation_string(side).encode())
        outcome = state.outcome()
        assert outcome is not None
        lines.append(
            f"{rules_text} {','.join(names)} #{index} turns={state.turn}"
            f" {outcome.termination.value} totals={outcome.totals} {digest.hexdigest()[:16]}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per configuration")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--configs", default=";".join(CONFIGS), help="RULES:BOT[,BOT] items, ';'-separated"
    )
    args = parser.parse_args(argv)
    for config in args.configs.split(";"):
        for line in trace(config.strip(), args.games, args.seed):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
