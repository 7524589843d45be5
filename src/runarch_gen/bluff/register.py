"""Bluff in the family registry: its factory, its bots and what the conformance suite plays.

>>> from runarch_gen.play.registry import find_game
>>> str(find_game("bluff(players=6,exact=all-last)")), find_game("bluff(players=6)").start
('bluff(players=6,exact=all-last)', 5)
"""

from __future__ import annotations

from collections.abc import Mapping
from statistics import fmean
from typing import Any

from runarch_gen.bluff.bots import BOTS
from runarch_gen.bluff.design import DESIGN
from runarch_gen.bluff.engine import BLUFF_TYPE, BluffGame, BluffState, rules_from_values
from runarch_gen.play.design import register_design
from runarch_gen.play.registry import Value, register_game

__all__ = ["REGISTRATION", "load_bluff"]


def load_bluff(values: Mapping[str, Value]) -> BluffGame:
    """The Bluff game of registry parameter ``values`` (see :data:`BLUFF_TYPE`)."""
    return BluffGame(rules_from_values(dict(values)))


def _statistics(state: BluffState) -> dict[str, Any]:
    results = state.results
    return {
        "bids": state.bid_count,
        "challenges": len(results),
        "doubts right": fmean(r.doubt_right for r in results) if results else 0.0,
        "exact hits": fmean(r.exact for r in results) if results else 0.0,
        "dice lost per challenge": fmean(sum(r.lost) for r in results) if results else 0.0,
        # the scale's finding (bluff/design.py): how doubted star and number bids fared
        "star bids doubted": sum(r.bid.is_star for r in results),
        "star bids held": sum(r.bid.is_star and not r.doubt_right for r in results),
        "number bids doubted": sum(not r.bid.is_star for r in results),
        "number bids held": sum(not r.bid.is_star and not r.doubt_right for r in results),
    }


def _checks(values: Mapping[str, Value]) -> list[Any]:
    """Static checks of the rules: the scale can make a true opening bid to the end [L-04]."""
    from runarch_gen.play.verdict import Check, Failure

    rules = rules_from_values(dict(values))
    lowest = min(b.quantity for b in rules.bids)
    fewest = 2  # the fewest dice in play while the game goes on: two players, one die each
    failures = []
    if lowest > fewest:
        failures.append(
            Failure(
                "scale",
                "L-04",
                f"every bid names at least {lowest} dice, but the last two players may hold"
                f" {fewest}: the opener of such a round cannot bid anything true",
                proof=f"lowest field {lowest} > {fewest} dice",
            )
        )
    return [
        Check(
            "scale",
            f"{len(rules.scale.fields)} fields, {len(rules.bids)} bids from {rules.bids[0]}"
            f" to {rules.bids[-1]}",
            tuple(failures),
            proofs={"fields": str(rules.scale), "bids": len(rules.bids), "lowest": lowest},
        )
    ]


def _rounds(state: BluffState) -> int:
    return state.round


def _first(state: BluffState) -> int:
    return state.first_opener


REGISTRATION = register_game(
    BLUFF_TYPE,
    load_bluff,
    bots=BOTS,
    conformance=(
        "bluff(players=2)",
        "bluff(players=3,exact=all,opener=loser)",
        "bluff(players=4,exact=all-last,reroll=on,dice=3)",
        "bluff(players=5,cap=on)",
        "bluff(players=6)",
        "bluff(players=2,dice=1,single=on,cap=on,first=1)",
    ),
    rules_document="bluff.md",
    statistics=_statistics,
    checks=_checks,
    length=_rounds,
    length_unit="rounds",
    first=_first,
)
register_design(BLUFF_TYPE.short_name, DESIGN)
