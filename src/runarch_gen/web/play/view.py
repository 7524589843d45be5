"""How the play page shows a game: a :class:`Renderer` per game, the generic one for any
other registered game (a plug-in included).

A renderer turns what one seat may see into JSON for the page. Its only window on the game is
the engine's ``observation(seat)`` (and the public game object: rules, board, the deck list),
never the state: so whatever it writes, it cannot write what the seat may not see. The
structured choices it offers the seat to move are made from the observation and the legal
actions of that seat (which the engine derives from what the seat knows).

``memory`` is a small dict a renderer keeps per seat between observations (what the seat saw
earlier, e.g. the cards laid before the round was resolved); it too is fed only observations.

>>> from tests.toy_game import PigGame
>>> game = PigGame()
>>> Renderer().view(game, game.new_initial_state().observation(0), 0, {})
{'kind': 'generic', 'fields': {'banked': [0, 0], 'turn_total': 0, 'player': 0, 'rolling': False}}
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import math
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from runarch_gen.play.game import ChanceMode, Game, State

__all__ = ["RecordFile", "Renderer", "observation_fields", "to_json"]

MAX_DEPTH = 8


def to_json(value: Any, depth: int = 0) -> Any:
    """``value`` as JSON data: dataclasses as objects of their fields, enumerations as their
    values, sequences as lists; anything else as its text.

    >>> import enum
    >>> class Side(enum.Enum):
    ...     WHITE = "white"
    >>> to_json({"side": Side.WHITE, "dice": (3, 1), "none": None})
    {'side': 'white', 'dice': [3, 1], 'none': None}
    """
    if depth > MAX_DEPTH:
        return str(value)
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, enum.Enum):
        return to_json(value.value, depth + 1)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: to_json(getattr(value, f.name), depth + 1) for f in dataclasses.fields(value)
        }
    if isinstance(value, Mapping):
        return {str(k): to_json(v, depth + 1) for k, v in value.items()}
    if isinstance(value, Sequence | set | frozenset):
        return [to_json(v, depth + 1) for v in value]
    return str(value)


def observation_fields(observation: Any) -> Any:
    """An observation's fields as JSON: a dataclass's fields, or else the public properties of
    its class (an observation that is a live view of the state, as RunArch's).

    >>> class View:
    ...     @property
    ...     def dice(self) -> tuple[int, int]:
    ...         return (3, 1)
    >>> observation_fields(View())
    {'dice': [3, 1]}
    """
    if dataclasses.is_dataclass(observation) and not isinstance(observation, type):
        return to_json(observation)
    names = [
        name
        for name, member in inspect.getmembers(type(observation))
        if isinstance(member, property) and not name.startswith("_")
    ]
    return {name: to_json(getattr(observation, name)) for name in names}


@dataclass(frozen=True, slots=True)
class RecordFile:
    """A file of a finished game's record: its name, media type and text."""

    name: str
    media: str
    text: str


class Renderer:
    """The generic view: the observation's fields as JSON and the legal actions as their texts;
    the record every game with explicit chance writes (``runarch-gen GAME replay`` reads it).

    Games with a page of their own subclass this (:data:`RENDERERS`)."""

    kind = "generic"
    files: tuple[str, ...] = ()
    """The parts a game may be given as files (RunArch: ``board``, ``deck``)."""

    def make_game(
        self, registration: Any, values: Mapping[str, Any], stopping: threading.Event | None
    ) -> Game[Any]:
        """The game of ``values`` (``stopping``: set when the server stops, for a game whose
        making takes long)."""
        del stopping
        game: Game[Any] = registration.load(values)
        return game

    def game_with_files(
        self, registration: Any, values: Mapping[str, Any], files: Mapping[str, str]
    ) -> tuple[Game[Any], str] | None:
        """The game of ``values`` with parts given as files (a RunArch board or deck) and its
        text, or ``None`` when the game takes no files."""
        del registration, values, files
        return None

    def players(self, registration: Any, values: Mapping[str, Any]) -> tuple[int, tuple[str, ...]]:
        """How many seats the game of ``values`` has and their names (the page's seat list is
        made from it before the game is)."""
        game = registration.load(values)
        return game.num_players, self.sides(game)

    def sides(self, game: Game[Any]) -> tuple[str, ...]:
        """The seats' names (``p1``, ``p2`` … unless the game names them)."""
        return tuple(f"p{p + 1}" for p in range(game.num_players))

    def note(self, game: Game[Any], observation: Any, seat: int, memory: dict[str, Any]) -> None:
        """Remember what the seat saw (called after every action with its new observation)."""
        del game, observation, seat, memory

    def view(
        self, game: Game[Any], observation: Any, seat: int, memory: dict[str, Any]
    ) -> dict[str, Any]:
        """What ``seat`` sees, as JSON: the observation's fields (a dataclass's) or its text."""
        del game, seat, memory
        return {"kind": self.kind, "fields": observation_fields(observation)}

    def choices(
        self,
        game: Game[Any],
        observation: Any,
        seat: int,
        legal: Sequence[tuple[int, str]],
    ) -> dict[str, Any] | None:
        """The seat's legal actions arranged for the page (``None``: the plain list will do)."""
        del game, observation, seat, legal
        return None

    def record(
        self, game: Game[Any], state: State[Any], names: Sequence[str], tags: Mapping[str, str]
    ) -> list[RecordFile]:
        """The record of ``state`` (first) and any file its replay needs, or none when the game
        has no record format (sampled chance without a writer of its own)."""
        if game.game_type.chance_mode is ChanceMode.SAMPLED:
            return []
        from runarch_gen.play.gamerecord import write_record

        seats = ", ".join(f"p{p + 1} {name}" for p, name in enumerate(names))
        text = write_record(game, state, tags=[("Seats", seats), *tags.items()])
        name = game.game_type.short_name
        return [RecordFile(f"{name}-record.txt", "text/plain; charset=utf-8", text)]

    def replay_command(self, game: Game[Any]) -> str:
        """The command that replays the record."""
        name = game.game_type.short_name
        return f"runarch-gen {name} replay {name}-record.txt"

    def hint(
        self, game: Game[Any], observation: Any, legal: Sequence[tuple[int, str]]
    ) -> dict[str, Any] | None:
        """Advice for the seat to move (``None``: the game has none)."""
        del game, observation, legal
        return None

    def has_hint(self, game: Game[Any]) -> bool:
        del game
        return False

    def analysis(
        self, game: Game[Any], state: State[Any], seats: Sequence[int]
    ) -> dict[str, Any] | None:
        """A finished game's analysis for ``seats`` (``None``: the game has none)."""
        del game, state, seats
        return None

    def has_analysis(self, game: Game[Any]) -> bool:
        del game
        return False

    def asset(self, game: Game[Any], name: str, lang: str) -> tuple[bytes, str] | None:
        """A picture of a public part of the game (``board.svg``, a card) by name, or ``None``."""
        del game, name, lang
        return None
