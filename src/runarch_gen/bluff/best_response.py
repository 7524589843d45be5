"""The exact best response to a strategy of the small game of Bluff, in the full game.

This module measures what :mod:`.solver` makes, and shares no code with it: it rebuilds the
small game from the strategy's game string (its own hands, chances and payoffs), walks every
bid history of the full game — perfect recall, whatever the strategy remembers — and asks the
:class:`~.strategy.Strategy` only for its chances. For each player it finds the best reply to
the other's strategy: a pass forward gives the other player's chance of playing into each
history for each of their hands, and a pass backward takes, at the replying player's
histories, the best action for each hand. The **exploitability** is half the sum of what the
two best responses win (0 exactly at an equilibrium), in units of the ±1 returns.

Histories are bit masks of the game's ``B`` bids in plain order (``n + 2**j`` follows ``n`` by
bid ``j``); two dice each is 2²⁴ histories × 21 hands, done in chunks, in single precision
above :data:`DOUBLE_LIMIT` cells.

>>> from runarch_gen.bluff.strategy import uniform_strategy
>>> s = uniform_strategy("bluff(players=2,dice=1,single=on,cap=on,first=1,faces=2,"
...                      "scale=1/★1/2)", (1, 1), 5, (3, 3))
>>> e = evaluate(s)
>>> round(e.value, 4), e.exploitability > 0.3
(0.0578, True)
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from runarch_gen.bluff.strategy import Strategy, one_blas_thread
from runarch_gen.errors import InputError

__all__ = ["DOUBLE_LIMIT", "Evaluation", "evaluate", "exploitability"]

Array = npt.NDArray[Any]
CHUNK = 1 << 19
"""Histories handled at once."""
DOUBLE_LIMIT = 1 << 25
"""Above this many cells (histories × hands) the passes run in single precision."""
MAX_BIDS = 26


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A strategy measured: the value of the game for player 1 when both play it, and what a
    best response of each player to the other's strategy wins."""

    value: float
    best: tuple[float, float]

    @property
    def exploitability(self) -> float:
        return (self.best[0] + self.best[1]) / 2

    def to_json(self) -> dict[str, float]:
        return {
            "value": round(self.value, 6),
            "best_response_1": round(self.best[0], 6),
            "best_response_2": round(self.best[1], 6),
            "exploitability": round(self.exploitability, 6),
        }


class _Game:
    """The small game rebuilt from a strategy's game string."""

    def __init__(self, strategy: Strategy) -> None:
        from runarch_gen.bluff.engine import BluffGame
        from runarch_gen.games import find_game

        game = find_game(strategy.game)
        if not isinstance(game, BluffGame):
            raise InputError(f"{strategy.game[:60]!r} is not a game of Bluff")
        rules = game.rules
        total = sum(strategy.dice)
        bids = [(b.quantity, b.face) for b in rules.bids if b.quantity <= total]
        if len(bids) != strategy.bids:
            raise InputError(
                f"the strategy has {strategy.bids} bids, its game {len(bids)} with"
                f" {total} dice in play"
            )
        if len(bids) > MAX_BIDS:
            raise InputError(f"a best response is computed for up to {MAX_BIDS} bids")
        self.B = len(bids)
        sides = rules.faces + 1
        star = sides
        self.hands: list[list[tuple[int, ...]]] = []
        self.prior: list[Array] = []
        for dice in strategy.dice:
            tally = Counter(
                tuple(sorted(roll)) for roll in itertools.product(range(1, sides + 1), repeat=dice)
            )
            hands = sorted(tally)
            self.hands.append(hands)
            self.prior.append(np.array([tally[h] / sides**dice for h in hands]))
        if (len(self.hands[0]), len(self.hands[1])) != strategy.hands:
            raise InputError("the strategy's hands are not its game's")

        def counted(hand: tuple[int, ...], face: int) -> int:
            return sum(1 for d in hand if d == face or (face != star and d == star))

        # win[t][h0, h1]: +1 when bid t holds for these hands (its bidder wins a doubt)
        self.win = np.array(
            [
                [
                    [1.0 if counted(a, f) + counted(b, f) >= q else -1.0 for b in self.hands[1]]
                    for a in self.hands[0]
                ]
                for q, f in bids
            ]
        )


def _parity(count: int) -> npt.NDArray[np.int8]:
    """Whose turn after each history: the number of bids made, mod 2, by folding bits."""
    masks = np.arange(count, dtype=np.int64)
    out = np.zeros(count, dtype=np.int8)
    bit = 0
    while (1 << bit) < count:
        out ^= ((masks >> bit) & 1).astype(np.int8)
        bit += 1
    return out


def _spans(start: int, stop: int) -> list[tuple[int, int]]:
    return [(a, min(a + CHUNK, stop)) for a in range(start, stop, CHUNK)]


def _pass(strategy: Strategy, game: _Game, parity: Array, p: int, mode: str) -> float:
    """Player ``p``'s return against the other's strategy: with ``mode`` ``best`` the best
    reply, with ``follow`` ``p``'s own strategy."""
    o = 1 - p
    B = game.B
    N = 1 << B
    hands_o, hands_p = len(game.hands[o]), len(game.hands[p])
    dtype = np.float64 if N * max(hands_o, hands_p) <= DOUBLE_LIMIT else np.float32
    reach = np.empty((N, hands_o), dtype=dtype)
    reach[0] = game.prior[o]
    # forward: the other player's chance of playing into each history, per hand
    for j in range(B):
        for a, b in _spans(0, 1 << j):
            masks = np.arange(a, b, dtype=np.int64)
            theirs = parity[a:b] == o
            factor = np.ones((b - a, hands_o), dtype=dtype)
            if np.any(theirs):
                factor[theirs] = strategy.action_probs(o, masks[theirs], j, parity[a:b][theirs])
            np.multiply(reach[a:b], factor, out=reach[(1 << j) + a : (1 << j) + b])
    # the doubt at each history: whoever is to act doubts the bid standing
    values = reach if hands_o == hands_p else np.empty((N, hands_p), dtype=dtype)
    for t in range(B):
        win = game.win[t] if p == 1 else game.win[t].T
        win = np.ascontiguousarray(win, dtype=dtype)
        for a, b in _spans(1 << t, 2 << t):
            masks = np.arange(a, b, dtype=np.int64)
            acting = parity[a:b]
            weights = reach[a:b].copy()
            theirs = acting == o
            if np.any(theirs):
                weights[theirs] *= strategy.action_probs(o, masks[theirs], -1, acting[theirs])
            # p wins the doubt as the bidder when the bid holds, as the doubter when it fails
            sign = np.where(acting == p, -1.0, 1.0).astype(dtype)[:, None]
            doubt = (weights @ win) * sign
            if mode == "follow":
                mine = acting == p
                if np.any(mine):
                    doubt[mine] *= strategy.action_probs(p, masks[mine], -1, acting[mine])
            values[a:b] = doubt
    values[0] = -np.inf if (p == 0 and mode == "best") else 0.0
    # backward: each history takes its children's values
    for j in range(B - 1, -1, -1):
        for a, b in _spans(0, 1 << j):
            child = values[(1 << j) + a : (1 << j) + b]
            head = values[a:b]
            mine = parity[a:b] == p
            if mode == "best":
                head[mine] = np.maximum(head[mine], child[mine])
                head[~mine] += child[~mine]
            else:
                weighted = child.copy()
                if np.any(mine):
                    masks = np.arange(a, b, dtype=np.int64)[mine]
                    weighted[mine] *= strategy.action_probs(p, masks, j, parity[a:b][mine])
                head += weighted
    return float(np.asarray(game.prior[p], dtype=np.float64) @ values[0].astype(np.float64))


def evaluate(strategy: Strategy) -> Evaluation:
    """The strategy's value for player 1 and each best response's return, in the full game
    (see the module)."""
    game = _Game(strategy)
    parity = _parity(1 << game.B)
    with one_blas_thread():
        best = (
            _pass(strategy, game, parity, 0, "best"),
            _pass(strategy, game, parity, 1, "best"),
        )
        value = _pass(strategy, game, parity, 0, "follow")
    return Evaluation(value, best)


exploitability = evaluate
"""The same as :func:`evaluate` (the exploitability is its ``exploitability``)."""
