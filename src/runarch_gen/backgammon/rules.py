"""The rules options of Vrhcáby as one immutable value, and the game's declaration.

Every field is a decision of ``docs/rules/backgammon.md`` (its [V-nn] tag in the field's
declaration) and a parameter of the game string: the registry's parameters, the rules of a
game string and the game string of some rules are all derived from :class:`Rules`.

>>> Rules().money, Rules(match=7).money
(True, False)
>>> Rules(match=7).jacoby_applies, Rules().jacoby_applies
(False, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from runarch_gen.backgammon.board import HYPERGAMMON, NACKGAMMON, START, Side
from runarch_gen.play.game import ChanceMode, Information
from runarch_gen.play.parameters import Value, param, parameters_of, rules_of
from runarch_gen.play.registry import GameType

__all__ = ["BACKGAMMON_TYPE", "MAX_CUBE", "STARTS", "Rules", "rules_from_values"]

MAX_CUBE = 2**15
"""[V-31] The cube has no ceiling below 32768, the largest value a gnubg Match ID holds."""

STARTS: dict[str, Side] = {
    "standard": START,  # [V-01]
    "nackgammon": NACKGAMMON,  # [V-16]
    "hypergammon": HYPERGAMMON,  # [V-17]
}


@dataclass(frozen=True, slots=True)
class Rules:
    """One reading of the rules: the starting position, money or match play, and the options.

    Each field is a parameter of the game string (its help, bounds and rule tag declared with
    :func:`~runarch_gen.play.parameters.param`)."""

    variant: str = param(
        "standard",
        "starting position",
        tag="V-01, V-16, V-17",
        choices=("standard", "nackgammon", "hypergammon"),
    )
    match: int = param(
        0, "match length in points (0: money play)", tag="V-40", minimum=0, maximum=99
    )
    cube: bool = param(True, "the doubling cube", tag="V-30")
    crawford: bool = param(True, "the Crawford rule in match play", tag="V-42")
    jacoby: bool = param(True, "Jacoby rule in money play: no gammons before a double", tag="V-35")
    beaver: bool = param(False, "beavers in money play", tag="V-33")
    raccoon: bool = param(False, "raccoons in money play (needs beaver)", tag="V-34")
    beavers: int = param(1, "beavers per game", tag="V-33", minimum=1, maximum=9)
    beaver_drop: bool = param(
        False, "the doubler may refuse a beaver (the seed's reading)", tag="V-33"
    )
    autodoubles: int = param(
        0, "automatic doubles per game in money play", tag="V-36", minimum=0, maximum=9
    )
    egyptian: bool = param(False, "at most five checkers on a point", tag="V-15")
    bgrule: str = param(
        "standard", "what makes a backgammon", tag="V-22", choices=("standard", "seed")
    )
    resign: bool = param(True, "resignations (single, gammon, backgammon)", tag="V-24")
    limit: int = param(
        20_000,
        "actions before a game is stopped as stalled",
        tag="V-50",
        minimum=100,
        maximum=1_000_000,
    )

    @property
    def money(self) -> bool:
        return self.match == 0

    @property
    def start(self) -> Side:
        return STARTS[self.variant]

    @property
    def checkers(self) -> int:
        return sum(self.start)

    @property
    def jacoby_applies(self) -> bool:
        return self.money and self.jacoby and self.cube

    @property
    def beaver_allowed(self) -> bool:
        return self.money and self.cube and self.beaver and self.beavers > 0

    @property
    def raccoon_allowed(self) -> bool:
        return self.beaver_allowed and self.raccoon

    @property
    def autodoubles_allowed(self) -> int:
        return self.autodoubles if self.money and self.cube else 0


BACKGAMMON_TYPE = GameType(
    short_name="backgammon",
    long_name="Backgammon",
    czech_name="Vrhcáby",
    min_players=2,
    max_players=2,
    chance_mode=ChanceMode.EXPLICIT,
    information=Information.PERFECT,
    parameters=parameters_of(Rules),
    variants={
        "standard": {},
        "nackgammon": {"variant": "nackgammon"},
        "hypergammon": {"variant": "hypergammon"},
    },
    aliases=("vrhcaby", "vrhcáby", "bg"),
    rules=Rules,
)


def rules_from_values(values: Mapping[str, Value]) -> Rules:
    """The :class:`Rules` of registry parameter values (defaults for the missing ones)."""
    return rules_of(Rules, values)
