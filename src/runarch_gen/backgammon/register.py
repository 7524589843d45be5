"""Vrhcáby in the family registry: its bots, the default one, and what the conformance suite
plays. The game's type, parameters and variants are declared on :class:`BackgammonGame` and
its rules; this module is named by the ``runarch_gen.games`` entry point ``backgammon``.

>>> from runarch_gen.play.registry import find_game
>>> str(find_game("backgammon(match=7)")), str(find_game("nackgammon"))
('backgammon(match=7)', 'backgammon(variant=nackgammon)')
"""

from __future__ import annotations

from collections.abc import Mapping

from runarch_gen.backgammon.design import DESIGN
from runarch_gen.backgammon.engine import BackgammonGame
from runarch_gen.backgammon.rules import rules_from_values
from runarch_gen.play.design import register_design
from runarch_gen.play.registry import Value, register_game

__all__ = ["REGISTRATION", "load_backgammon"]


def load_backgammon(values: Mapping[str, Value]) -> BackgammonGame:
    """The game of registry parameter ``values`` (see :data:`BACKGAMMON_TYPE`)."""
    return BackgammonGame(rules_from_values(values))


REGISTRATION = register_game(
    BackgammonGame,
    bots="runarch_gen.backgammon.bots:BOTS",
    default_bot="heuristic",
    conformance=(
        "backgammon",
        "backgammon(match=3)",
        "backgammon(beaver=on,raccoon=on,beaver_drop=on,autodoubles=2,jacoby=off)",
        "backgammon(variant=hypergammon,match=5,egyptian=on)",
        "backgammon(variant=nackgammon,bgrule=seed,resign=off)",
    ),
    rules_document="backgammon.md",
    description="Vrhcáby (backgammon): legal plays, gnubg IDs, odds, match equity, records, bots.",
    commands="runarch_gen.cli.backgammon:backgammon_app",
    order=4,
    kit="runarch_gen.backgammon.kit:KIT",
)
register_design(BackgammonGame.game_type.short_name, DESIGN)  # ladder, line-up, findings
