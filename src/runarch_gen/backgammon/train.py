"""Temporal-difference self-play training of the evaluator (TD-Gammon's method, TD(0)).

The network plays both sides: on each roll it evaluates every legal play's resulting position
(from the opponent's side, who is then on roll) and picks the one best for the mover. After
each play the evaluation of the position before it — the mover on roll — is moved towards the
evaluation after it, seen from the mover (win = 1 − the opponent's win, gammons and
backgammons swapped); the last play of a game is moved towards the real result, and the
loser's last position towards the loss. Cubeless money games from the standard
start; the same seed gives the same weights.

>>> net = train(games=2, seed=1, hidden=8)
>>> net.w1.shape
(199, 8)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import numpy as np

from runarch_gen.backgammon.board import BAR, OFF, START, Side, legal_plays
from runarch_gen.backgammon.evaluator import Network, equity, features, swap_sides

__all__ = ["best_play_index", "train"]


def best_play_index(net: Network, positions: list[tuple[Side, Side]]) -> tuple[int, np.ndarray]:
    """The index of the best resulting position for the mover, and its evaluation from the
    mover's side. ``positions`` are (mover, other) after each play."""
    flipped = [(other, mover) for mover, other in positions]
    mine = swap_sides(net.evaluate(flipped))  # evaluated with the opponent on roll
    best = int(np.argmax(equity(mine)))
    return best, mine[best]


def _result(mover: Side, other: Side) -> tuple[float, float]:
    """(gammon, backgammon) of a finished game, ``mover`` having borne off (rule [V-21])."""
    gammon = 1.0 if other[OFF] == 0 else 0.0
    backgammon = gammon if (other[BAR] or any(other[19:25])) else 0.0
    return gammon, backgammon


def train(
    games: int = 20_000,
    seed: int = 1,
    hidden: int = 48,
    rate: float = 0.1,
    seconds: float | None = None,
    net: Network | None = None,
    on_game: Callable[[int, Network], None] | None = None,
) -> Network:
    """Train for ``games`` self-play games (or until ``seconds`` have passed)."""
    rng = random.Random(seed)
    net = net or Network.fresh(hidden, seed)
    started = time.perf_counter()
    checkers = sum(START)
    for index in range(games):
        if seconds is not None and time.perf_counter() - started > seconds:
            break
        sides: list[Side] = [START, START]
        turn = rng.randrange(2)
        previous: list[np.ndarray | None] = [None, None]
        first = True
        while True:
            if first:
                a, b = rng.randint(1, 6), rng.randint(1, 6)
                while a == b:
                    a, b = rng.randint(1, 6), rng.randint(1, 6)
                first = False
            else:
                a, b = rng.randint(1, 6), rng.randint(1, 6)
            mover, other = sides[turn], sides[1 - turn]
            x = features([(mover, other)])
            plays = legal_plays(mover, other, a, b)
            if plays:
                pick, value = best_play_index(net, [p.key for p in plays])
                chosen = plays[pick]
                mover, other = chosen.mover, chosen.other
            else:
                value = swap_sides(net.evaluate([(other, mover)]))[0]
            if mover[OFF] == checkers:
                gammon, backgammon = _result(mover, other)
                net.train(x, np.array([[1.0, gammon, backgammon, 0.0, 0.0]]), rate)
                # the loser's last position learns the loss
                loser_x = previous[1 - turn]
                if loser_x is not None:
                    net.train(loser_x, np.array([[0.0, 0.0, 0.0, gammon, backgammon]]), rate)
                break
            net.train(x, value[None, :], rate)
            previous[turn] = x
            sides[turn], sides[1 - turn] = mover, other
            turn = 1 - turn
        if on_game is not None:
            on_game(index + 1, net)
    return net
