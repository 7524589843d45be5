"""Malacca in the family registry: its bots, the default one, and what the conformance suite
plays. The game's type and parameters are declared on :class:`MalaccaGame` and its rules; this
module is named by the ``runarch_gen.games`` entry point ``malacca``.

>>> from runarch_gen.play.registry import find_game
>>> str(find_game("malacca(players=5,equipment=on)"))
'malacca(players=5,equipment=on)'
"""

from __future__ import annotations

from collections.abc import Mapping

from runarch_gen.malacca.design import DESIGN
from runarch_gen.malacca.engine import MalaccaGame
from runarch_gen.malacca.rules import rules_from_values
from runarch_gen.play.design import register_design
from runarch_gen.play.registry import Value, register_game

__all__ = ["REGISTRATION", "load_malacca"]


def load_malacca(values: Mapping[str, Value]) -> MalaccaGame:
    """The Malacca game of registry parameter ``values`` (see ``MALACCA_TYPE``)."""
    return MalaccaGame(rules_from_values(values))


REGISTRATION = register_game(
    MalaccaGame,
    bots="runarch_gen.malacca.bots:BOTS",
    default_bot="morgan",
    conformance=(
        "malacca(players=2)",
        "malacca(players=3,characters=random,equipment=on)",
        "malacca(players=4,characters=random,equipment=on,share=even,cargo=defenders)",
        "malacca(players=5,characters=random,equipment=on,useless_bonus=on,zheng_stake=on)",
        "malacca(players=6,characters=random)",
        "malacca(players=7,characters=random,equipment=on)",
        "malacca(players=8,characters=random,equipment=on,rounds=6)",
        "malacca(players=3,characters=sayyida/laskarina/caesar,ships=1-3,rounds=3)",
    ),
    rules_document="malacca.md",
    description="Malacca: pirates lay hidden action cards with open stakes on each ship"
    " (2–8 players).",
    commands="runarch_gen.cli.malacca:malacca_app",
    order=3,
    kit="runarch_gen.malacca.kit:KIT",
)
register_design(MalaccaGame.game_type.short_name, DESIGN)  # ladder, line-up, findings
