"""Malacca's verdicts: its ladder of bots, the line-up ``validate`` plays, its standing and its
own findings — the characters and the equipment (see :mod:`runarch_gen.play.design`).

- **Ladder**: ``random`` < ``morgan`` < ``reader`` (``bench/bench_ladder.py`` ranks each
  against the next).
- **Line-up**: ``morgan`` in every seat. ``reader``, the top of the ladder, plays about ten
  games a second at five seats: two hundred games of it do not fit the default run
  (``--bots reader,morgan`` plays it).
- **Standing**: each player's share of the money at the table.
- **character** [M-21]: each character's wins per seat against a fair share, the family
  corrected for the characters it tests (the generic value family of the per-seat statistic
  ``character``; the seat position is the ``seat`` family, not tested twice).
- **equipment** [M-26]: each kind of equipment card's net value to its buyer (the bonuses it
  earned minus its price of 5 silver), a t-test against zero for each kind bought, corrected
  for the kinds; a finding when the mean is at least :data:`EQUIPMENT_MARGIN` silver either
  way (a card always worth buying, or never).
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from typing import Any

from runarch_gen.play.balance import Comparison, Finding, judge
from runarch_gen.play.design import Design
from runarch_gen.play.stats import mean_estimate, mean_test

__all__ = ["DESIGN", "EQUIPMENT_MARGIN", "equipment_tests", "malacca_findings", "standing"]

EQUIPMENT_MARGIN = 2.0
"""How far from zero (in silver) an equipment card's mean net value must be to be a finding."""


def standing(state: Any) -> tuple[float, ...]:
    """Each player's share of the money at the table."""
    total = sum(state.money)
    n = len(state.money)
    return tuple(m / total for m in state.money) if total else (1 / n,) * n


def equipment_tests(played: Any) -> list[Comparison]:
    """The ``equipment`` family: per kind, the net silver of every card bought."""
    nets: dict[str, list[float]] = {}
    for g in played.results:
        for name, value in g.statistics:
            if not name.startswith("better ") or " net, bought in round" not in name:
                continue
            kind = name.removeprefix("better ").split(" net,")[0]
            items = value if isinstance(value, tuple) else (value,)
            nets.setdefault(kind, []).extend(float(v) for v in items)
    out = []
    for kind, values in sorted(nets.items()):
        if len(values) < 2:
            continue
        effect = mean_estimate(values)
        out.append(
            Comparison(
                "equipment",
                f"better {kind}",
                f"a better {kind} card netted its buyer {effect.text()} silver"
                f" over {len(values)} cards bought (price 5) [M-26]",
                effect,
                mean_test(values),
                effect.value,
                0.0,
                len(values),
                len(played.results),
                {"cards": len(values), "mean_net": round(effect.value, 3)},
                EQUIPMENT_MARGIN,
                "silver",
                statistics.stdev(values),
            )
        )
    return out


def malacca_findings(played: Any, values: Mapping[str, Any], replay: Any = None) -> list[Finding]:
    """Malacca's own findings: the ``equipment`` family (the characters are a value family)."""
    del values, replay
    return judge(equipment_tests(played))


def _lineup(values: Mapping[str, Any]) -> tuple[str, ...]:
    del values
    return ("morgan",)


DESIGN = Design(
    ladder=("random", "morgan", "reader"),
    lineup=_lineup,
    lineup_note="reader, the top, plays about 10 games/s at five seats, too slow for the"
    " default run (--bots reader,morgan plays it)",
    standing=standing,
    standing_note="each player's share of the money at the table",
    findings=malacca_findings,
    values=("character",),
)
