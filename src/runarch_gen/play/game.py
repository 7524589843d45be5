"""Games, states and outcomes: the interface every engine of this tool implements.

In the shape of OpenSpiel's ``spiel.h``: a game is *declared* by a :class:`GameType` (its name,
players, how chance and information work, its parameters and named variants) and made by a
factory; a :class:`Game` object is immutable — the rules, their parameters and the fixed
components — and makes :class:`State` objects, which are mutable positions with a cheap
explicit :meth:`State.copy`.

Actions are ints; in a given state ``legal_actions()`` lists them in ascending order and
``action_to_string`` gives each a unique text, which ``string_to_action`` reads back.

**Chance.** In a game with :attr:`ChanceMode.EXPLICIT` chance (dice, shuffles during play)
``current_player()`` is :data:`CHANCE_PLAYER` while chance acts, and ``chance_outcomes()``
lists ``(outcome, probability)`` pairs; an outcome is applied like any action. So a game record
is its parameters plus every action, chance included, and replays without a seed, and a bot —
which is only ever asked at a decision node — cannot see a roll before it happens. A game with
:attr:`ChanceMode.SAMPLED` chance draws what is random at setup from the generator given to
:meth:`Game.new_initial_state` (OpenSpiel's *sampled stochastic* games); its records write the
drawn setup out in full.

**The end.** A finished state gives an :class:`Outcome`: why the game ended (a member of the
game's own :class:`Termination` enumeration, as in python-chess), who won, each side's score
and its *returns* (the utility each player gets, within the game's declared range).

>>> Score((("cards", 40), ("duel", 9))).total
49
"""

from __future__ import annotations

import enum
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar

from runarch_gen.errors import InputError
from runarch_gen.play.parameters import values_of

if TYPE_CHECKING:
    from runarch_gen.play.registry import GameType

Action = int
"""An action is an int; its meaning depends on the game and the state."""

CHANCE_PLAYER = -1
"""What :meth:`State.current_player` returns while chance acts (OpenSpiel's value)."""

TERMINAL_PLAYER = -4
"""What :meth:`State.current_player` returns once the game is over (OpenSpiel's value)."""

ObsT_co = TypeVar("ObsT_co", covariant=True)
StateT = TypeVar("StateT", bound="State[object]")


class ChanceMode(enum.Enum):
    """How a game's chance events happen (OpenSpiel's ``GameType.ChanceMode``)."""

    DETERMINISTIC = "deterministic"
    """No chance at all."""
    EXPLICIT = "explicit"
    """Chance nodes in the game tree, with listed outcomes and probabilities."""
    SAMPLED = "sampled"
    """Chance drawn from a seeded generator at setup, and recorded in the game's record."""


class Information(enum.Enum):
    """What the players see (OpenSpiel's ``GameType.Information``)."""

    PERFECT = "perfect"
    IMPERFECT = "imperfect"


class IllegalActionError(InputError, ValueError):
    """An action that is unknown or not allowed in the state; the message says why.

    >>> str(IllegalActionError("b2-c3", "phase 1 allows orthogonal swaps only"))
    "illegal action 'b2-c3': phase 1 allows orthogonal swaps only"
    """

    def __init__(self, action: str, reason: str) -> None:
        self.action = action
        self.reason = reason
        super().__init__(f"illegal action {action!r}: {reason}")


class Termination(enum.Enum):
    """Why a game ended. Each game subclasses this with its own members (python-chess's
    ``Termination``); the value is the name records and reports print.

    :attr:`stalled` is true for an end that a limit, not the rules, brought about (a turn
    limit, a proven deadlock): such games are counted apart in every report.

    >>> class Ends(Termination):
    ...     RULES = "rules"
    ...     LIMIT = "stalled"
    ...     @property
    ...     def stalled(self) -> bool:
    ...         return self is Ends.LIMIT
    >>> Ends("stalled").stalled, str(Ends.RULES)
    (True, 'rules')
    """

    @property
    def stalled(self) -> bool:
        return False

    def __str__(self) -> str:
        return str(self.value)


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

    ``termination`` is a member of the game's :class:`Termination` enumeration; ``winners``
    lists the winning sides (several for a shared win, none when nobody wins); ``scores`` has
    one :class:`Score` per side and ``sides`` their names. ``returns`` are the players'
    utilities (OpenSpiel's ``Returns()``); by default +1 shared among the winners' seats and −1
    shared among the others' (0 for everyone when all or none win).

    >>> class End(Termination):
    ...     TARGET = "target"
    >>> o = Outcome(End.TARGET, (0,), (Score((("cards", 80),)), Score((("cards", 60),))))
    >>> o.result(), o.returns, o.stalled
    ('1-0', (1.0, -1.0), False)
    """

    termination: Termination
    winners: tuple[int, ...]
    scores: tuple[Score, ...]
    sides: tuple[str, ...] = ("white", "black")
    returns: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        if not self.returns:
            object.__setattr__(self, "returns", win_loss_returns(self.winners, len(self.scores)))

    @property
    def stalled(self) -> bool:
        """Whether a limit rather than the rules ended the game (see :class:`Termination`)."""
        return self.termination.stalled

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(score.total for score in self.scores)

    def result(self) -> str:
        """``1-0``, ``0-1`` or ``1/2-1/2`` for two sides (PGN style; a shared win is a draw);
        for more sides ``1-0-0``-style flags, one per side."""
        if len(self.scores) != 2:
            return "-".join(
                "1" if side in self.winners else "0" for side in range(len(self.scores))
            )
        if len(self.winners) == 1:
            return "1-0" if self.winners[0] == 0 else "0-1"
        return "1/2-1/2"


def win_loss_returns(winners: Sequence[int], players: int) -> tuple[float, ...]:
    """+1 shared among ``winners`` and −1 shared among the others; zeros when everyone or
    nobody wins. The returns of a game without points (a win is all that counts).

    >>> win_loss_returns((0,), 2), win_loss_returns((1, 2), 4), win_loss_returns((), 3)
    ((1.0, -1.0), (-0.5, 0.5, 0.5, -0.5), (0.0, 0.0, 0.0))
    """
    won = set(winners)
    if not won or len(won) == players:
        return (0.0,) * players
    win, lose = 1.0 / len(won), -1.0 / (players - len(won))
    return tuple(win if p in won else lose for p in range(players))


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Facts of one game object (OpenSpiel's ``GameInfo``): how many players, the most actions
    a game can take (chance included), and the range of the returns."""

    num_players: int
    max_game_length: int
    min_utility: float = -1.0
    max_utility: float = 1.0


class State(ABC, Generic[ObsT_co]):
    """A position of a game: whose turn, what is legal, what each player may see.

    Subclasses keep their data in ``__slots__``, call ``super().__init__()`` and implement every
    abstract method. The interface mirrors OpenSpiel's ``State`` (``LegalActions``,
    ``ApplyAction``, ``Clone`` …), and so does the bookkeeping: :meth:`apply` calls the game's
    :meth:`_apply` and then records the action in the :meth:`history` (OpenSpiel's
    ``ApplyAction`` around ``DoApplyAction``), so ``_apply`` sees the history without the action
    it applies.

    For simulation reports a state says how long its game was (:meth:`length`, in the game's
    :attr:`Game.length_unit`), which side moved first (:meth:`first`), and the game's own
    figures (:meth:`statistics`); the defaults are the actions taken, side 0, and none.
    """

    # No ``__slots__`` here: a subclass's own may name ``_history`` (RunArch's does), and a
    # class compiled with mypyc (the optional compiled build) must not inherit a non-empty one.

    def __init__(self) -> None:
        self._history: list[Action] = []

    @abstractmethod
    def current_player(self) -> int:
        """The player to act, :data:`CHANCE_PLAYER` while chance acts, or
        :data:`TERMINAL_PLAYER` when the game is over."""

    def is_chance_node(self) -> bool:
        """Whether chance acts now (then :meth:`chance_outcomes` lists what it may do)."""
        return self.current_player() == CHANCE_PLAYER

    def chance_outcomes(self) -> Sequence[tuple[Action, float]]:
        """At a chance node, the outcomes in ascending order with their probabilities (which
        sum to 1); elsewhere empty. Games with explicit chance override this."""
        return ()

    @abstractmethod
    def legal_actions(self) -> Sequence[Action]:
        """The legal actions in ascending order; empty exactly when the game is over. At a
        chance node, the outcomes of :meth:`chance_outcomes`.

        The sequence may be shared with the state's caches: read it, do not change it.
        """

    def apply(self, action: Action) -> None:
        """Play ``action`` (a decision or a chance outcome) and record it in the history;
        raises :class:`IllegalActionError` saying why when it is not legal."""
        self._apply(action)
        self._history.append(action)

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """The game's part of :meth:`apply`: check ``action`` (raising
        :class:`IllegalActionError` before changing anything) and play it."""

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

    def observation_string(self, player: int) -> str:
        """``player``'s observation as text: equal for two states that ``player`` cannot tell
        apart. The conformance suite compares it across states resampled from ``player``'s
        knowledge (:meth:`resample_from_infostate`); games with hidden information override it.
        """
        return repr(self.observation(player))

    def resample_from_infostate(self, player: int, rng: random.Random) -> Self:
        """A state drawn from those ``player`` cannot tell apart from this one (OpenSpiel's
        ``ResampleFromInfostate``): hidden information replaced at random, consistently with
        everything ``player`` has seen. A game of perfect information returns a copy."""
        del player, rng
        return self.copy()

    def history(self) -> Sequence[Action]:
        """Every action applied since the initial state, in order (chance outcomes included).

        The sequence is the state's own record: read it, do not change it."""
        return self._history

    def length(self) -> int:
        """How long the game has gone on, in its game's :attr:`Game.length_unit` (by default
        the actions taken, chance included)."""
        return len(self._history)

    def first(self) -> int:
        """The side that moved first (for the first player's edge; by default side 0)."""
        return 0

    def statistics(self) -> Mapping[str, Any]:
        """The game's own figures for simulation reports, by name: a number, a text, or a
        tuple of either with one value per side (such as each seat's character)."""
        return {}

    @abstractmethod
    def copy(self) -> Self:
        """An independent copy, equal to this state; cheap (no deep copies of shared data)."""


class Game(ABC, Generic[StateT]):
    """Immutable rules, parameters and components; the factory of initial states.

    ``game_type`` is the declaration shared by every game object of the kind (see
    :mod:`runarch_gen.play.registry`); ``rules`` is the game object's rules, an instance of
    ``game_type.rules`` whose fields are the game's parameters (:mod:`.parameters`), from
    which the game's string is written. ``length_unit`` names what :meth:`State.length`
    counts. ``num_players`` is the info's.
    """

    game_type: ClassVar[GameType]
    length_unit: ClassVar[str] = "actions"
    rules: Any

    @property
    def num_players(self) -> int:
        """How many players take decisions (an automa opponent is not a player)."""
        return self.info.num_players

    @property
    @abstractmethod
    def info(self) -> GameInfo:
        """Players, the longest game and the range of the returns."""

    @abstractmethod
    def new_initial_state(self, rng: random.Random | None = None) -> StateT:
        """A new game. Games with :attr:`ChanceMode.SAMPLED` chance draw their setup from
        ``rng`` (which they then require); other games start at their root and ignore it."""

    def __str__(self) -> str:
        """The game's parameter string, e.g. ``bluff(players=4)``: written from its rules."""
        return self.game_type.game_string(values_of(self.rules))

    def serialize_state(self, state: StateT) -> str:
        """``state`` as text that :meth:`deserialize_state` turns back into an equal state.

        By default the history's actions (chance outcomes included), which replay from the
        root: right for every game without :attr:`ChanceMode.SAMPLED` chance. Games whose
        setup is sampled override both methods (their records carry the setup).
        """
        return " ".join(str(action) for action in state.history())

    def deserialize_state(self, text: str) -> StateT:
        """The state :meth:`serialize_state` wrote, replayed action by action; an illegal or
        malformed action raises :class:`~runarch_gen.errors.InputError`."""
        state = self.new_initial_state()
        for word in text.split():
            if re.fullmatch(r"-?[0-9]{1,18}", word) is None:
                raise IllegalActionError(word[:40], "a serialised state holds action numbers")
            action = int(word)
            if action not in state.legal_actions():
                raise IllegalActionError(word, "not a legal action here")
            state.apply(action)
        return state


def sample_chance(state: State[object], rng: random.Random) -> Action:
    """One outcome of ``state``'s chance node, drawn with ``rng`` by the listed probabilities
    (one ``rng.random()`` per draw, so a seed gives the same outcomes everywhere)."""
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise ValueError("not a chance node")
    point = rng.random()
    running = 0.0
    for action, probability in outcomes:
        running += probability
        if point < running:
            return action
    return outcomes[-1][0]
