"""The generic engine interface every game of this tool implements (no game specifics here).

In the shape of OpenSpiel: a game is declared (:class:`~.registry.GameType`: name, players,
chance, information, parameters) and registered (:func:`~.registry.register_game`), then found
by a string such as ``bluff(players=4)``. An immutable :class:`Game` makes mutable
:class:`State` objects; a state lists its ``legal_actions()`` (sorted ints, each with a unique
text), takes ``apply(action)``, says ``is_terminal()`` and, at the end, gives an
:class:`Outcome` that says why the game ended (the game's :class:`Termination`), who won, each
side's score and the returns. Chance is a player (:data:`CHANCE_PLAYER`) with listed outcomes,
or sampled at setup from a seeded generator (:class:`ChanceMode`). Bots (:class:`Bot`) see only
an observation and the legal actions. :mod:`.conformance` checks every game's promises,
:mod:`.simulate` plays many games reproducibly across processes, :mod:`.record` reads and
writes the tag header of game records.
"""

from runarch_gen.play.bot import Bot, play_out
from runarch_gen.play.game import (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    Action,
    ChanceMode,
    Game,
    GameInfo,
    IllegalActionError,
    Information,
    Outcome,
    Score,
    State,
    Termination,
    sample_chance,
)

__all__ = [
    "CHANCE_PLAYER",
    "TERMINAL_PLAYER",
    "Action",
    "Bot",
    "ChanceMode",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "Information",
    "Outcome",
    "Score",
    "State",
    "Termination",
    "play_out",
    "sample_chance",
]
