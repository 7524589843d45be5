"""The RunArch rules engine: every rule of RULES.md, the OpenSpiel-shaped interface of
:mod:`runarch_gen.play`, and the speed to play hundreds of games a second.

>>> import random
>>> from runarch_gen.runarch.engine import RunArchGame
>>> # game = RunArchGame(parse_rules("complex"), board, deck)
>>> # state = game.new_initial_state(random.Random(1))
"""

from runarch_gen.runarch.engine.conditions import Condition, default_conditions, parse_condition
from runarch_gen.runarch.engine.game import RunArchGame
from runarch_gen.runarch.engine.observation import RunArchObservation
from runarch_gen.runarch.engine.setup import GOLD, SILVER, Setup
from runarch_gen.runarch.engine.state import RunArchState

__all__ = [
    "GOLD",
    "SILVER",
    "Condition",
    "RunArchGame",
    "RunArchObservation",
    "RunArchState",
    "Setup",
    "default_conditions",
    "parse_condition",
]
