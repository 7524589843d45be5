"""Games, states and outcomes: the interface every engine of this tool implements.

A :class:`Game` is immutable: the rules, their parameters and the fixed components. It makes
:class:`State` objects, which are mutable positions with a cheap explicit :meth:`State.copy`.
Actions are ints; in a given state ``legal_actions()`` lists them in ascending order and
``action_to_string`` gives each a unique text, which ``string_to_action`` reads back.

>>> Score((("cards", 40), ("duel", 9))).total
49
>>> Outcome("target", (0,), (Score((("cards", 80),)), Score((("cards", 60),)))).result()
'1-0'
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Self, TypeVar

from runarch_gen.errors import InputError

Action = int
"""An action is an int; its meaning depends on the game and the state."""

TERMINAL_PLAYER = -4
"""What :meth:`State.current_player` returns once the game is over (OpenSpiel's value)."""

ObsT_co = TypeVar("ObsT_co", covariant=True)
StateT = TypeVar("StateT", bound="State[object]")


class IllegalActionError(InputError, ValueError):
    """An action that is unknown or not allowed in the state; the message says why.

    >>> str(IllegalActionError("b2-c3", "phase 1 allows orthogonal swaps only"))
    "illegal action 'b2-c3': phase 1 allows orthogonal swaps only"
    """

    def __init__(self, action: str, reason: str) -> None:
        self.action = action
        self.reason = reason
        super().__init__(f"illegal action {action!r}: {reason}")


@dataclass(frozen=True, slots=True)
class Score:
    """One side's final score as named parts, e.g. ``cards``, ``duel``, ``bets``."""

    parts: tuple[tuple[str, int], ...]

    @property
    def total(self) -> int:
        return sum(value for _, value in self.parts)

    def part(self, name: str) -> int:
        """The value of the part called ``name`` (0 when there is none)."""
        return sum(value for key, value in self.parts if key == name)

    def as_dict(self) -> dict[str, int]:
        return {**dict(self.parts), "total": self.total}


@dataclass(frozen=True, slots=True)
class Outcome:
    """Why a game ended and how it ended, in the manner of python-chess's ``Outcome``.

    ``termination`` is the game's name for the reason (e.g. ``target``, ``stalled``);
    ``winners`` lists the winning sides (several for a shared win, none when nobody wins);
    ``scores`` has one :class:`Score` per side, ``sides`` their names. ``stalled`` is true when a
    turn limit rather than the rules ended the game.
    """

    termination: str
    winners: tuple[int, ...]
    scores: tuple[Score, ...]
    sides: tuple[str, ...] = ("white", "black")
    stalled: bool = False

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(score.total for score in self.scores)

    def result(self) -> str:
        """``1-0``, ``0-1`` or ``1/2-1/2`` for two sides (PGN style); a shared win is a draw."""
        if len(self.scores) != 2:
            return "-".join(
                "1" if side in self.winners else "0" for side in range(len(self.scores))
            )
        if len(self.winners) == 1:
            return "1-0" if self.winners[0] == 0 else "0-1"
        return "1/2-1/2"


class State(ABC, Generic[ObsT_co]):
    """A position of a game: whose turn, what is legal, what each player may see.

    Subclasses keep their data in ``__slots__`` and implement every abstract method. The
    interface mirrors OpenSpiel's ``State`` (``LegalActions``, ``ApplyAction``, ``Clone`` …).
    """

    __slots__ = ()

    @abstractmethod
    def current_player(self) -> int:
        """The player to act, or :data:`TERMINAL_PLAYER` when the game is over."""

    @abstractmethod
    def legal_actions(self) -> Sequence[Action]:
        """The legal actions in ascending order; empty exactly when the game is over.

        The sequence may be shared with the state's caches: read it, do not change it.
        """

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Play ``action``; raises :class:`IllegalActionError` saying why when it is not legal."""

    @abstractmethod
    def action_to_string(self, action: Action) -> str:
        """The action's text in this state (unique among the legal actions)."""

    def string_to_action(self, text: str) -> Action:
        """The legal action whose text is ``text``; raises :class:`IllegalActionError`.

        Games usually override this with a parser that can also say *why* an action is illegal.
        """
        wanted = text.strip()
        for action in self.legal_actions():
            if self.action_to_string(action) == wanted:
                return action
        raise IllegalActionError(wanted, "not a legal action here")

    def apply_text(self, text: str) -> Action:
        """Parse ``text`` with :meth:`string_to_action`, apply it and return the action."""
        action = self.string_to_action(text)
        self.apply(action)
        return action

    @abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game is over."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The :class:`Outcome` once the game is over, else ``None``."""

    @abstractmethod
    def observation(self, player: int) -> ObsT_co:
        """What ``player`` may see of the position (never the others' hidden information)."""

    @abstractmethod
    def history(self) -> Sequence[Action]:
        """Every action applied since the initial state, in order."""

    @abstractmethod
    def copy(self) -> Self:
        """An independent copy, equal to this state; cheap (no deep copies of shared data)."""


class Game(ABC, Generic[StateT]):
    """Immutable rules, parameters and components; the factory of initial states."""

    @property
    @abstractmethod
    def num_players(self) -> int:
        """How many players take decisions (an automa opponent is not a player)."""

    @abstractmethod
    def new_initial_state(self, rng: random.Random) -> StateT:
        """A new game; every chance event (shuffles, draws, placements) comes from ``rng``."""

    @abstractmethod
    def __str__(self) -> str:
        """The game's parameter string, e.g. ``complex(deal=4)``."""
