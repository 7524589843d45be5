"""The RunArch rules engine: every rule of RULES.md, the OpenSpiel-shaped interface of
:mod:`runarch_gen.play`, and the speed to play hundreds of games a second.

>>> import random
>>> from runarch_gen.runarch.engine.sample import sample_board, sample_deck
>>> from runarch_gen.runarch.rules import parse_rules
>>> game = RunArchGame(parse_rules("simple"), sample_board(), sample_deck())
>>> state = game.new_initial_state(random.Random(1))
>>> state.apply_text("a1-b2")
609
>>> state.legal_actions()
(726,)
>>> state.action_to_string(726), state.turn
('end', 0)
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
