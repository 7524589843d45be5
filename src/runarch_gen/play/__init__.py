"""The generic engine interface every game of this tool implements (no game specifics here).

In the shape of OpenSpiel: an immutable :class:`Game` (rules and parameters, printable as a short
string such as ``complex(deal=4)``) makes mutable :class:`State` objects; a state lists its
``legal_actions()`` (sorted ints, each with a unique text), takes ``apply(action)``, says
``is_terminal()`` and, at the end, gives an :class:`Outcome` that says why the game ended and
how each side scored. Chance comes from a :class:`random.Random` the caller seeds, so a seed and
the list of actions replay a game exactly. Bots (:class:`Bot`) see only an observation and the
legal actions. :mod:`runarch_gen.play.record` reads and writes the tag header of game records.
"""

from runarch_gen.play.bot import Bot, play_out
from runarch_gen.play.game import (
    TERMINAL_PLAYER,
    Action,
    Game,
    IllegalActionError,
    Outcome,
    Score,
    State,
)

__all__ = [
    "TERMINAL_PLAYER",
    "Action",
    "Bot",
    "Game",
    "IllegalActionError",
    "Outcome",
    "Score",
    "State",
    "play_out",
]
