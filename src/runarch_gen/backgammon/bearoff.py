"""The exact one-sided bear-off database: for every position of 0 … 15 checkers on the six
home points (54,264 of them) the chance of bearing all checkers off in exactly *k* rolls,
playing each roll to make the expected number of rolls smallest, and for the positions with
all 15 checkers on the board the chance that the *first* checker is off in exactly *k* rolls
(played to make that soonest) — what a gammon in a bear-off turns on.

Two such one-sided distributions give the exact cubeless chances of a bear-off against a
bear-off (:func:`bearoff_probabilities`): the player on roll wins when he needs no more rolls
than the opponent. The tables are computed by :func:`compute_tables` in a few seconds (numpy,
one pass per pip count, each roll's best play chosen over every way of playing it) and kept
beside the module as ``bearoff.npz`` (``runarch-gen backgammon train --bearoff`` writes it
again); a test recomputes small positions independently.

A position is indexed by the combinatorial number system: the 6 separators between the
checker counts of points 1 … 6 written in a row of 21 slots.

>>> from runarch_gen.backgammon.board import side_from_points
>>> table = load_bearoff()
>>> one = side_from_points({1: 1, 0: 14})
>>> float(table.rolls(one)[1])
1.0
>>> round(float(table.mean(side_from_points({6: 2, 0: 13}))), 4)
2.1096
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache
from importlib import resources
from itertools import combinations
from math import comb
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from runarch_gen.backgammon.board import Side
from runarch_gen.errors import InputError

__all__ = [
    "MAX_ROLLS",
    "POSITIONS",
    "BearoffTable",
    "bearoff_index",
    "bearoff_probabilities",
    "compute_tables",
    "load_bearoff",
]

POINTS = 6
CHECKERS = 15
POSITIONS = comb(CHECKERS + POINTS, POINTS)  # 54,264
MAX_ROLLS = 32
BEAROFF_FILE = "bearoff.npz"
_BINOM = np.array([[comb(n, k) for k in range(POINTS + 1)] for n in range(CHECKERS + POINTS + 1)])
_ROLLS = tuple(
    (high, low, (1 if high == low else 2) / 36)
    for high in range(1, 7)
    for low in range(1, high + 1)
)
IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]


def bearoff_index(counts: IntArray) -> IntArray:
    """The index of each row of checker counts on points 1 … 6 (shape (n, 6)).

    >>> int(bearoff_index(np.array([[0, 0, 0, 0, 0, 0]]))[0])
    0
    >>> int(bearoff_index(np.array([[15, 0, 0, 0, 0, 0]]))[0]) == POSITIONS - 1
    True
    """
    separators = np.cumsum(counts, axis=1) + np.arange(POINTS)
    return np.asarray(_BINOM[separators, np.arange(1, POINTS + 1)].sum(axis=1), dtype=np.int64)


def all_positions() -> IntArray:
    """Every position's counts on points 1 … 6, row ``i`` the position of index ``i``."""
    rows = np.zeros((POSITIONS, POINTS), dtype=np.int64)
    for chosen in combinations(range(CHECKERS + POINTS), POINTS):
        counts = [chosen[0]] + [chosen[j] - chosen[j - 1] - 1 for j in range(1, POINTS)]
        row = np.array(counts, dtype=np.int64)
        rows[int(bearoff_index(row[None, :])[0])] = row
    return rows


def _successors(positions: IntArray) -> dict[int, IntArray]:
    """For each die, the index after moving one checker from each point 1 … 6 (−1 where
    that is not a legal move; the empty position goes to itself)."""
    count = positions.shape[0]
    pips = np.arange(1, POINTS + 1)
    occupied = positions > 0
    # the highest occupied point of each position (0 if empty)
    highest = np.where(occupied, pips, 0).max(axis=1)
    tables: dict[int, IntArray] = {}
    for die in range(1, 7):
        table = np.full((count, POINTS), -1, dtype=np.int64)
        for point in range(1, POINTS + 1):
            has = occupied[:, point - 1]
            if point - die < 0:
                # the higher-point rule: a larger die bears off from the highest point only
                has = has & (highest == point)
            after = positions.copy()
            after[:, point - 1] -= 1
            if point - die >= 1:
                after[:, point - die - 1] += 1
            after[~has] = 0
            index = bearoff_index(after)
            table[:, point - 1] = np.where(has, index, -1)
        table[0, :] = 0
        tables[die] = table
    return tables


def _candidates(tables: dict[int, IntArray], rows: IntArray, dice: Sequence[int]) -> IntArray:
    """Every position reachable from ``rows`` by playing the dice in this order, one column
    per sequence of points moved from (−1 where some step was illegal)."""
    current = rows[:, None]
    for die in dice:
        table = tables[die]
        safe = np.where(current < 0, 0, current)
        nxt = table[safe]  # (n, k, 6)
        nxt = np.where((current < 0)[..., None], -1, nxt)
        current = nxt.reshape(rows.shape[0], -1)
    return current


def _solve(positions: IntArray, tables: dict[int, IntArray], done: NDArray[np.bool_]) -> FloatArray:
    """Distributions of rolls until a position in ``done`` is reached, each roll played to
    make the expected number of rolls smallest."""
    count = positions.shape[0]
    pips = positions @ np.arange(1, POINTS + 1)
    dist = np.zeros((count + 1, MAX_ROLLS))  # the last row: an impossible play
    mean = np.full(count + 1, np.inf)
    dist[:count][done, 0] = 1.0
    mean[:count][done] = 0.0
    for pip in range(1, int(pips.max()) + 1):
        rows = np.flatnonzero((pips == pip) & ~done)
        if rows.size == 0:
            continue
        total = np.zeros((rows.size, MAX_ROLLS))
        for high, low, chance in _ROLLS:
            if high == low:
                cands = _candidates(tables, rows, (high,) * 4)
            else:
                cands = np.concatenate(
                    [
                        _candidates(tables, rows, (high, low)),
                        _candidates(tables, rows, (low, high)),
                    ],
                    axis=1,
                )
            cands = np.where(cands < 0, count, cands)
            best = cands[np.arange(rows.size), np.argmin(mean[cands], axis=1)]
            total[:, 1:] += chance * dist[best, :-1]
        dist[rows] = total
        mean[rows] = total @ np.arange(MAX_ROLLS)
    return dist[:count]


def compute_tables() -> tuple[FloatArray, FloatArray]:
    """(bear-off distributions, first-checker-off distributions), one row per index."""
    positions = all_positions()
    tables = _successors(positions)
    totals = positions.sum(axis=1)
    off = _solve(positions, tables, totals == 0)
    first = _solve(positions, tables, totals < CHECKERS)
    return off, first


class BearoffTable:
    """The two tables with lookups by side (a side has all its checkers home)."""

    def __init__(self, off: FloatArray, first: FloatArray) -> None:
        self.off = off
        self.first = first
        self.off_tail = np.concatenate(
            [np.cumsum(off[:, ::-1], axis=1)[:, ::-1], np.zeros((off.shape[0], 1))], axis=1
        )
        self.first_tail = np.concatenate(
            [np.cumsum(first[:, ::-1], axis=1)[:, ::-1], np.zeros((first.shape[0], 1))], axis=1
        )
        self.means = off @ np.arange(MAX_ROLLS)

    @staticmethod
    def index_of(sides: Sequence[Side]) -> IntArray:
        counts = np.array([side[1 : POINTS + 1] for side in sides], dtype=np.int64)
        return bearoff_index(counts)

    def rolls(self, side: Side) -> FloatArray:
        """The chance of needing exactly 0, 1, 2 … rolls to bear ``side`` off."""
        return np.asarray(self.off[int(self.index_of([side])[0])])

    def mean(self, side: Side) -> float:
        """The expected number of rolls to bear ``side`` off."""
        return float(self.means[int(self.index_of([side])[0])])

    def probabilities(self, movers: IntArray, others: IntArray) -> FloatArray:
        """Rows of the five cubeless chances (gnubg's order: win, win gammon, win
        backgammon, lose gammon, lose backgammon) of the player on roll, by index."""
        mine, theirs = self.off[movers], self.off[others]
        # the mover wins when his count of rolls is at most the opponent's
        win = (mine * self.off_tail[others][:, :MAX_ROLLS]).sum(axis=1)
        theirs_first = self.first_tail[others][:, :MAX_ROLLS]
        win_gammon = (mine * theirs_first).sum(axis=1)
        # the opponent wins a gammon when he is off before the mover's first checker
        mine_first_after = self.first_tail[movers][:, 1 : MAX_ROLLS + 1]
        lose_gammon = (theirs * mine_first_after).sum(axis=1)
        zeros = np.zeros_like(win)
        return np.stack([win, win_gammon, zeros, lose_gammon, zeros], axis=1)


def bearoff_probabilities(mover: Side, other: Side) -> FloatArray:
    """The exact cubeless chances of the player on roll when both sides are bearing off.

    >>> from runarch_gen.backgammon.board import side_from_points
    >>> p = bearoff_probabilities(side_from_points({1: 1, 0: 14}), side_from_points({1: 1, 0: 14}))
    >>> float(p[0])
    1.0
    """
    table = load_bearoff()
    index = table.index_of([mover, other])
    return np.asarray(table.probabilities(index[:1], index[1:])[0])


def save_tables(path: str | Path, off: FloatArray, first: FloatArray) -> None:
    """Write the tables (16-bit fixed point, as gnubg stores its databases, compressed)."""
    from runarch_gen.fileio import atomic_write

    buffer = io.BytesIO()
    np.savez_compressed(
        buffer,
        off=np.round(off * 65535).astype(np.uint16),
        first=np.round(first * 65535).astype(np.uint16),
    )
    atomic_write(path, buffer.getvalue())


def read_tables(path: str | Path) -> BearoffTable:
    try:
        with np.load(path) as data:
            off = np.asarray(data["off"], dtype=np.float64) / 65535
            first = np.asarray(data["first"], dtype=np.float64) / 65535
    except (OSError, KeyError, ValueError) as exc:
        raise InputError(f"{path}: not a bear-off database ({exc})") from None
    if off.shape != (POSITIONS, MAX_ROLLS) or first.shape != (POSITIONS, MAX_ROLLS):
        raise InputError(f"{path}: a bear-off database of the wrong shape {off.shape}")
    return BearoffTable(off, first)


@cache
def load_bearoff() -> BearoffTable:
    """The shipped database (``bearoff.npz`` beside this module), computed again if absent."""
    source = resources.files("runarch_gen.backgammon") / BEAROFF_FILE
    with resources.as_file(source) as path:
        if path.is_file():
            return read_tables(path)
    off, first = compute_tables()
    return BearoffTable(off, first)
