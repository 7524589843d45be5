"""Probability tables computed from the 36 rolls of two dice (rule [V-60]), the seed's three
tables: hitting a blot at a distance, the pip total of a roll reaching a distance, and entering
from the bar against closed points.

>>> f"{HIT_CHANCE[6]:.1%}", f"{REACH_CHANCE[8]:.1%}"
('47.2%', '47.2%')
>>> f"{enter_chance(2, 2):.1%}"
'44.4%'
"""

from __future__ import annotations

from fractions import Fraction

__all__ = [
    "HIT_CHANCE",
    "REACH_CHANCE",
    "SEED_DISTANCES",
    "enter_chance",
    "enter_fraction",
    "enter_table",
    "hit_fraction",
    "reach_fraction",
    "rolls",
]


def rolls() -> list[tuple[int, int]]:
    """The 36 equally likely ordered rolls."""
    return [(a, b) for a in range(1, 7) for b in range(1, 7)]


def _distances(a: int, b: int) -> set[int]:
    """The distances one checker can travel with the roll, every part landing on an open
    point (no blocks assumed)."""
    if a == b:
        return {a, 2 * a, 3 * a, 4 * a}
    return {a, b, a + b}


def hit_fraction(distance: int) -> Fraction:
    """The chance that a roll can hit a blot ``distance`` pips away (no points blocked)."""
    hits = sum(1 for a, b in rolls() if distance in _distances(a, b))
    return Fraction(hits, 36)


def reach_fraction(distance: int) -> Fraction:
    """The chance that a roll's pip total (doubles four times) is at least ``distance``."""
    total = sum(1 for a, b in rolls() if (4 * a if a == b else a + b) >= distance)
    return Fraction(total, 36)


def enter_fraction(closed: int, checkers: int) -> Fraction:
    """The chance that ``checkers`` on the bar all enter against ``closed`` closed points."""
    entered = 0
    for a, b in rolls():
        open_a, open_b = a > closed, b > closed  # which points are closed does not matter
        enters = (4 if open_a else 0) if a == b else int(open_a) + int(open_b)
        if enters >= checkers:
            entered += 1
    return Fraction(entered, 36)


def enter_chance(closed: int, checkers: int) -> float:
    return float(enter_fraction(closed, checkers))


def enter_table() -> list[tuple[int, float, float, float]]:
    """Rows (closed points, 1 checker, 2 checkers, 3 or 4 checkers) as in the seed."""
    return [(k, enter_chance(k, 1), enter_chance(k, 2), enter_chance(k, 3)) for k in range(7)]


HIT_CHANCE: dict[int, float] = {d: float(hit_fraction(d)) for d in range(1, 25)}
REACH_CHANCE: dict[int, float] = {d: float(reach_fraction(d)) for d in range(1, 25)}
SEED_DISTANCES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 15, 16, 18, 20, 24)
"""The distances the seed's table lists."""
