"""The rules options of Vrhcáby as one immutable value, and the game's declaration.

Every field is a decision of ``docs/rules/backgammon.md`` (its [V-nn] tag in the comment); the
registry's parameters are the same names.

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
from runarch_gen.play.registry import GameType, Parameter, Value

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
    """One reading of the rules: the starting position, money or match play, and the options."""

    variant: str = "standard"  # [V-01] [V-16] [V-17]
    match: int = 0  # [V-40] 0 money play, else a match to this many points
    cube: bool = True  # [V-30]
    crawford: bool = True  # [V-42]
    jacoby: bool = True  # [V-35] money play only
    beaver: bool = False  # [V-33] money play only
    raccoon: bool = False  # [V-34] money play only, needs beaver
    beavers: int = 1  # [V-33] beavers (and raccoons) per game
    beaver_drop: bool = False  # [V-33] the seed's reading: a beaver may be refused
    autodoubles: int = 0  # [V-36] money play only; 0: off
    egyptian: bool = False  # [V-15]
    bgrule: str = "standard"  # [V-22] standard | seed
    resign: bool = True  # [V-24]
    limit: int = 20_000  # [V-50] actions before a game is stopped as stalled

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
    parameters=(
        Parameter(
            "variant", "standard", "starting position", ("standard", "nackgammon", "hypergammon")
        ),
        Parameter("match", 0, "match length in points (0: money play)", minimum=0, maximum=99),
        Parameter("cube", True, "the doubling cube"),
        Parameter("crawford", True, "the Crawford rule in match play"),
        Parameter("jacoby", True, "Jacoby rule in money play: no gammons before a double"),
        Parameter("beaver", False, "beavers in money play"),
        Parameter("raccoon", False, "raccoons in money play (needs beaver)"),
        Parameter("beavers", 1, "beavers per game", minimum=1, maximum=9),
        Parameter("beaver_drop", False, "the doubler may refuse a beaver (the seed's reading)"),
        Parameter(
            "autodoubles", 0, "automatic doubles per game in money play", minimum=0, maximum=9
        ),
        Parameter("egyptian", False, "at most five checkers on a point"),
        Parameter("bgrule", "standard", "what makes a backgammon", ("standard", "seed")),
        Parameter("resign", True, "resignations (single, gammon, backgammon)"),
        Parameter(
            "limit",
            20_000,
            "actions before a game is stopped as stalled",
            minimum=100,
            maximum=1_000_000,
        ),
    ),
    variants={
        "standard": "backgammon",
        "nackgammon": "backgammon(variant=nackgammon)",
        "hypergammon": "backgammon(variant=hypergammon)",
    },
    aliases=("vrhcaby", "vrhcáby", "bg"),
)


def rules_from_values(values: Mapping[str, Value]) -> Rules:
    """The :class:`Rules` of registry parameter values (defaults for the missing ones)."""
    defaults = BACKGAMMON_TYPE.parse_parameters({})
    merged = {**defaults, **values}
    return Rules(
        variant=str(merged["variant"]),
        match=int(merged["match"]),
        cube=bool(merged["cube"]),
        crawford=bool(merged["crawford"]),
        jacoby=bool(merged["jacoby"]),
        beaver=bool(merged["beaver"]),
        raccoon=bool(merged["raccoon"]),
        beavers=int(merged["beavers"]),
        beaver_drop=bool(merged["beaver_drop"]),
        autodoubles=int(merged["autodoubles"]),
        egyptian=bool(merged["egyptian"]),
        bgrule=str(merged["bgrule"]),
        resign=bool(merged["resign"]),
        limit=int(merged["limit"]),
    )
