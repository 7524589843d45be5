"""Bluff's verdicts: its ladder of bots, the line-up ``validate`` plays, its standing and its
own findings — the betting scale and the variants (see :mod:`runarch_gen.play.design`).

- **Ladder**: ``random`` < ``odds`` < ``bayes`` (``bench/bench_ladder.py`` ranks each against
  the next).
- **Line-up**: ``bayes`` and ``odds``. ``bayes`` against itself is degenerate: every bayes
  reads the others' bids the same way, games end in about 8 rounds and the doubter is right
  almost nine times in ten; against ``odds`` it plays a table that bluffs differently.
- **Standing**: each player's dice ÷ the dice each started with (the last player with dice
  wins).
- **scale** [L-04]: the scale prices a star field ★k between the number fields 2k−1 and 2k.
  If that is right, a doubted star bid holds about as often as a doubted number bid; the test
  compares the two (Newcombe's interval of the difference, a two-proportion test), a finding
  past ten points.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from runarch_gen.play.balance import Comparison, Finding, judge
from runarch_gen.play.design import Design
from runarch_gen.play.stats import proportion, rate_difference, two_proportion_test

__all__ = ["DESIGN", "SCALE_MARGIN", "bluff_findings", "standing"]

SCALE_MARGIN = 0.10
"""How far apart (in points) doubted star and number bids must hold to make a finding."""


def standing(state: Any) -> tuple[float, ...]:
    """Each player's dice as a share of the dice each started with."""
    start = state.game.start or 1
    return tuple(d / start for d in state.dice)


def scale_tests(played: Any) -> list[Comparison]:
    """The ``scale`` family: doubted star bids against doubted number bids, how often each
    held."""
    totals = dict.fromkeys(
        ("star bids doubted", "star bids held", "number bids doubted", "number bids held"), 0
    )
    for g in played.results:
        figures = dict(g.statistics)
        for name in totals:
            value = figures.get(name, 0)
            totals[name] += int(value) if isinstance(value, (int, float)) else 0
    star_n, star_held = totals["star bids doubted"], totals["star bids held"]
    number_n, number_held = totals["number bids doubted"], totals["number bids held"]
    if not star_n or not number_n:
        return []
    effect = rate_difference(star_held, star_n, number_held, number_n)
    star, number = proportion(star_held, star_n), proportion(number_held, number_n)
    return [
        Comparison(
            "scale",
            "star fields",
            f"doubted star bids held {star.text()} of {star_n} times, number bids"
            f" {number.text()} of {number_n}: the scale's star fields are not priced like its"
            " number fields [L-04]",
            effect,
            two_proportion_test(star_held, star_n, number_held, number_n),
            star.rate,
            number.rate,
            star_n,
            len(played.results),
            {"star": [star_held, star_n], "number": [number_held, number_n]},
            SCALE_MARGIN,
        )
    ]


def bluff_findings(played: Any, values: Mapping[str, Any]) -> list[Finding]:
    """Bluff's own findings: the ``scale`` family."""
    del values
    return judge(scale_tests(played))


def _lineup(values: Mapping[str, Any]) -> tuple[str, ...]:
    del values
    return ("bayes", "odds")


DESIGN = Design(
    ladder=("random", "odds", "bayes"),
    lineup=_lineup,
    lineup_note="bayes against itself is degenerate (games end in about 8 rounds, the"
    " doubter right 88 % of the time): it plays against odds",
    standing=standing,
    standing_note="each player's dice ÷ the dice each started with",
    findings=bluff_findings,
)
