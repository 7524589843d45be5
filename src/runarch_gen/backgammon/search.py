"""Search over the strong evaluator: every legal play ranked (1-ply: the position after the
play; 2-ply: averaged over the opponent's 21 rolls, each answered by his best play at 1-ply),
and the chances of a position before the roll.

Plies count dice rolls looked at: a 1-ply ranking looks at the roll being played, a 2-ply
ranking at the opponent's reply too (gnubg's "0-ply" and "1-ply" evaluations of a play). The
2-ply search looks again only at the plays within :data:`MARGIN` of the best at 1-ply (at most
:data:`CANDIDATES`), as gnubg's move filters do, and evaluates every reply of every roll of
every candidate in one batch.

>>> from runarch_gen.backgammon.board import START
>>> from runarch_gen.backgammon.nets import load_evaluator
>>> ranked = rank_plays(load_evaluator(), START, START, (3, 1), plies=1)
>>> len(ranked), ranked[0].ply
(16, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from runarch_gen.backgammon.board import Play, Side, legal_plays
from runarch_gen.backgammon.nets import Evaluator, equity, swap

__all__ = ["CANDIDATES", "MARGIN", "RankedPlay", "position_chances", "rank_plays"]

Array = NDArray[np.float64]
CANDIDATES = 6
MARGIN = 0.16
ROLLS: tuple[tuple[int, int, float], ...] = tuple(
    (high, low, (1 if high == low else 2) / 36)
    for high in range(1, 7)
    for low in range(1, high + 1)
)


@dataclass(frozen=True, slots=True)
class RankedPlay:
    """A play with the mover's cubeless chances after it and the plies they were found at."""

    play: Play
    chances: Array
    ply: int

    @property
    def equity(self) -> float:
        return float(equity(self.chances))


def _after_plays(evaluator: Evaluator, plays: Sequence[Play]) -> Array:
    """The mover's chances after each play (the opponent on roll then)."""
    movers = np.array([p.other for p in plays], dtype=np.int64).reshape(-1, 26)
    others = np.array([p.mover for p in plays], dtype=np.int64).reshape(-1, 26)
    return swap(evaluator.evaluate_arrays(movers, others))


def replies_chances(
    evaluator: Evaluator, positions: Sequence[tuple[Side, Side]], egyptian: bool = False
) -> Array:
    """For positions ``(opponent on roll, me)``: my chances once he has rolled and played
    his best play (1-ply), averaged over his 21 rolls; all in one batch."""
    movers: list[Side] = []
    others: list[Side] = []
    groups: list[tuple[int, int, int, float]] = []  # position, start, end, weight
    for index, (opponent, me) in enumerate(positions):
        for high, low, weight in ROLLS:
            replies = legal_plays(opponent, me, high, low, egyptian)
            start = len(movers)
            if replies:
                for reply in replies:
                    movers.append(reply.other)  # I am on roll after his reply
                    others.append(reply.mover)
            else:
                movers.append(me)
                others.append(opponent)
            groups.append((index, start, len(movers), weight))
    mine = evaluator.evaluate_arrays(
        np.array(movers, dtype=np.int64).reshape(-1, 26),
        np.array(others, dtype=np.int64).reshape(-1, 26),
    )
    values = equity(mine)
    out = np.zeros((len(positions), 5))
    for index, start, end, weight in groups:
        worst = start + int(np.argmin(values[start:end]))  # his best is my worst
        out[index] += weight * mine[worst]
    return out


def rank_plays(
    evaluator: Evaluator,
    mover: Side,
    other: Side,
    dice: tuple[int, int],
    plies: int = 2,
    egyptian: bool = False,
    candidates: int = CANDIDATES,
    margin: float = MARGIN,
) -> list[RankedPlay]:
    """Every legal play of ``dice`` best first (an empty list when none)."""
    plays = legal_plays(mover, other, dice[0], dice[1], egyptian)
    if not plays:
        return []
    first = _after_plays(evaluator, plays)
    values = equity(first)
    order = sorted(range(len(plays)), key=lambda i: (-values[i], i))
    ranked = [RankedPlay(plays[i], first[i], 1) for i in order]
    if plies < 2 or len(plays) == 1:
        return ranked
    best = values[order[0]]
    chosen = [i for i in order[:candidates] if values[i] >= best - margin]
    deeper = replies_chances(
        evaluator, [(plays[i].other, plays[i].mover) for i in chosen], egyptian
    )
    top = [RankedPlay(plays[i], deeper[k], 2) for k, i in enumerate(chosen)]
    top.sort(key=lambda r: -r.equity)
    rest = [r for r in ranked if not any(r.play is t.play for t in top)]
    return top + rest


def position_chances(
    evaluator: Evaluator, mover: Side, other: Side, plies: int = 1, egyptian: bool = False
) -> Array:
    """The chances of the player on roll before his roll: the network itself (0), or the
    average over his 21 rolls of his best play's chances, the play found and valued at 1-ply
    (1) or by the 2-ply search of :func:`rank_plays` (2 and more: the cube hint of the 2-ply
    bot, as gnubg's cube decisions look one roll deeper than its plays)."""
    if plies <= 0:
        return np.asarray(evaluator.evaluate([(mover, other)])[0])
    total = np.zeros(5)
    for high, low, weight in ROLLS:
        plays = legal_plays(mover, other, high, low, egyptian)
        if not plays:
            total += weight * swap(evaluator.evaluate([(other, mover)]))[0]
        elif plies >= 2:
            ranked = rank_plays(evaluator, mover, other, (high, low), 2, egyptian)
            total += weight * ranked[0].chances
        else:
            after = _after_plays(evaluator, plays)
            total += weight * after[int(np.argmax(equity(after)))]
    return total
