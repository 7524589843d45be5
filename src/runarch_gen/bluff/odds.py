"""The chance that a bid holds, exactly, from the binomial (``docs/rules/bluff.md`` §5).

A die shows a given number or a star with chance 2/(faces+1), a star with chance 1/(faces+1).
With ``hidden`` dice you cannot see, a bid that needs ``k`` more counting dice than you see
holds with chance P(Binomial(hidden, p) ≥ k).

>>> at_least(2, 3, Fraction(1, 3))
Fraction(7, 27)
>>> bid_holds(3, 3, (3, 6), 4, faces=5)
Fraction(65, 81)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb

from runarch_gen.errors import InputError

__all__ = [
    "MAX_HIDDEN",
    "OddsRow",
    "at_least",
    "bid_holds",
    "face_chance",
    "odds_table",
    "tail_table",
]

MAX_HIDDEN = 200
"""The most hidden dice the odds are computed for (bounded work)."""


def face_chance(star_bid: bool, faces: int = 5) -> Fraction:
    """The chance that one die counts: 2/(faces+1) for a number, 1/(faces+1) for the star."""
    return Fraction(1 if star_bid else 2, faces + 1)


def at_least(need: int, hidden: int, p: Fraction) -> Fraction:
    """P(Binomial(hidden, p) ≥ need), exactly; 1 when ``need`` ≤ 0, 0 when it exceeds
    ``hidden``."""
    if not 0 <= hidden <= MAX_HIDDEN:
        raise InputError(f"hidden dice are 0 to {MAX_HIDDEN}, not {hidden}")
    if need <= 0:
        return Fraction(1)
    if need > hidden:
        return Fraction(0)
    q = 1 - p
    return sum(
        (comb(hidden, k) * p**k * q ** (hidden - k) for k in range(need, hidden + 1)),
        Fraction(0),
    )


def bid_holds(
    quantity: int, face: int, visible: Sequence[int], hidden: int, *, faces: int = 5
) -> Fraction:
    """The chance that "at least ``quantity`` × ``face``" holds, for a player who sees
    ``visible`` dice (faces ``1…faces``, the star ``faces + 1``) and not ``hidden`` more."""
    star = faces + 1
    seen = sum(1 for d in visible if d == face or (face != star and d == star))
    return at_least(quantity - seen, hidden, face_chance(face == star, faces))


@cache
def tail_table(hidden: int, faces: int, star_bid: bool) -> tuple[float, ...]:
    """``t[k]`` = P(at least k of ``hidden`` dice count), k = 0 … hidden + 1, as floats (for
    bots; the same sums as :func:`at_least`)."""
    p = face_chance(star_bid, faces)
    exact = [comb(hidden, k) * p**k * (1 - p) ** (hidden - k) for k in range(hidden + 1)]
    tails = [Fraction(0)] * (hidden + 2)
    for k in range(hidden, -1, -1):
        tails[k] = tails[k + 1] + exact[k]
    return tuple(float(t) for t in tails)


@dataclass(frozen=True, slots=True)
class OddsRow:
    """One row of the odds table: ``need`` more counting dice among the hidden ones."""

    need: int
    number: Fraction
    star: Fraction

    def to_json(self) -> dict[str, object]:
        return {
            "need": self.need,
            "number": float(self.number),
            "number_exact": str(self.number),
            "star": float(self.star),
            "star_exact": str(self.star),
        }


def odds_table(hidden: int, faces: int = 5, *, up_to: int | None = None) -> tuple[OddsRow, ...]:
    """The chance that a number bid and a star bid hold when they need 0, 1, … more counting
    dice among ``hidden`` (up to ``up_to``, default ``hidden``)."""
    top = hidden if up_to is None else min(up_to, hidden)
    number, star = face_chance(False, faces), face_chance(True, faces)
    return tuple(
        OddsRow(k, at_least(k, hidden, number), at_least(k, hidden, star)) for k in range(top + 1)
    )
