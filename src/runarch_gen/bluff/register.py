"""Bluff in the family registry: its bots, the default one, its static checks and what the
conformance suite plays. The game's type, parameters and variants are declared on
:class:`BluffGame` and its rules; this module is named by the ``runarch_gen.games`` entry point
``bluff``.

>>> from runarch_gen.play.registry import find_game
>>> str(find_game("bluff(players=6,exact=all-last)")), find_game("bluff(players=6)").start
('bluff(players=6,exact=all-last)', 5)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from runarch_gen.bluff.design import DESIGN
from runarch_gen.bluff.engine import BluffGame, rules_from_values
from runarch_gen.play.design import register_design
from runarch_gen.play.registry import Value, register_game

__all__ = ["REGISTRATION", "load_bluff"]


def load_bluff(values: Mapping[str, Value]) -> BluffGame:
    """The Bluff game of registry parameter ``values`` (see :data:`BLUFF_TYPE`)."""
    return BluffGame(rules_from_values(values))


def _checks(values: Mapping[str, Value]) -> list[Any]:
    """Static checks of the rules: the scale can make a true opening bid to the end [L-04]."""
    from runarch_gen.play.verdict import Check, Failure

    rules = rules_from_values(values)
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


REGISTRATION = register_game(
    BluffGame,
    bots="runarch_gen.bluff.bots:BOTS",
    default_bot="bayes",
    conformance=(
        "bluff(players=2)",
        "bluff(players=3,exact=all,opener=loser)",
        "bluff(players=4,exact=all-last,reroll=on,dice=3)",
        "bluff(players=5,cap=on)",
        "bluff(players=6)",
        "bluff(players=2,dice=1,single=on,cap=on,first=1)",
    ),
    rules_document="bluff.md",
    checks=_checks,
    description="Bluff, the Czech Liar's Dice (2-6 players): rules, odds, the exact solver,"
    " simulations.",
    commands="runarch_gen.cli.bluff:bluff_app",
    order=2,
    kit="runarch_gen.bluff.kit:KIT",
)
register_design(BluffGame.game_type.short_name, DESIGN)  # ladder, line-up, findings
