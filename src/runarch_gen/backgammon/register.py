"""Vrhcáby in the family registry: its factory, its bots and what the conformance suite plays.

>>> from runarch_gen.play.registry import find_game
>>> str(find_game("backgammon(match=7)"))
'backgammon(match=7)'
"""

from __future__ import annotations

from collections.abc import Mapping

from runarch_gen.backgammon.bots import BOTS
from runarch_gen.backgammon.design import DESIGN
from runarch_gen.backgammon.engine import BackgammonGame, BackgammonState
from runarch_gen.backgammon.rules import BACKGAMMON_TYPE, rules_from_values
from runarch_gen.play.design import register_design
from runarch_gen.play.registry import Value, register_game

__all__ = ["REGISTRATION", "load_backgammon"]


def load_backgammon(values: Mapping[str, Value]) -> BackgammonGame:
    """The game of registry parameter ``values`` (see :data:`BACKGAMMON_TYPE`)."""
    return BackgammonGame(rules_from_values(values))


def _statistics(state: BackgammonState) -> dict[str, float]:
    games = state.games
    if not games:
        return {}
    n = len(games)
    return {
        "games": float(n),
        "single": sum(g.kind == 1 and g.end.value == "single" for g in games) / n,
        "gammon": sum(g.kind == 2 for g in games) / n,
        "backgammon": sum(g.kind == 3 for g in games) / n,
        "doubles": float(sum(g.doubles for g in games)),
        "takes": float(sum(g.takes for g in games)),
        "drops": float(sum(g.drops for g in games)),
        "resigned": sum(g.end.value == "resigned" for g in games) / n,
        "final cube": sum(g.cube for g in games) / n,
        "points": float(sum(g.points for g in games)),
    }


def _rolls(state: BackgammonState) -> int:
    return sum(g.rolls for g in state.games) + state.game_rolls * (not state.is_terminal())


def _first(state: BackgammonState) -> int:
    return state.games[0].first if state.games else state.first


REGISTRATION = register_game(
    BACKGAMMON_TYPE,
    load_backgammon,
    bots=BOTS,
    conformance=(
        "backgammon",
        "backgammon(match=3)",
        "backgammon(beaver=on,raccoon=on,beaver_drop=on,autodoubles=2,jacoby=off)",
        "backgammon(variant=hypergammon,match=5,egyptian=on)",
        "backgammon(variant=nackgammon,bgrule=seed,resign=off)",
    ),
    rules_document="backgammon.md",
    statistics=_statistics,
    length=_rolls,
    length_unit="rolls",
    first=_first,
)
register_design(BACKGAMMON_TYPE.short_name, DESIGN)
