"""A game played in the browser: the state on the server, bots in some seats, and each seat
sent only what it may see.

A :class:`PlaySession` holds one game of any registered game: the state, a plan of its seats
(the person who made it, other people at the same screen, bots by name), the bots, and the
chance generator. Its answers are made for one seat at a time by :meth:`PlaySession.payload`:
the engine's ``observation(seat)`` drawn by the game's renderer (:mod:`.view`), the seat's
legal actions while it is to act (never another seat's: they would show its hand), the
result once the game is over, and a log of the actions in which only the seat's own actions
— or, in a game of perfect information, every action — show their text.

**Seeding** is the family's one rule (:func:`runarch_gen.play.playtest.play_seats`): the bot
in seat *s* gets ``Random(f"{seed}:{s}")``, chance ``Random(f"{seed}:chance")``, a game whose
setup is sampled draws it from ``Random(seed)``. The seed is never sent while the game runs
unless the person gave it (it tells every roll to come).

**Bots move with a delay** (``delay`` seconds each, so a person can follow): nothing runs in
the background; whenever the session is asked (:meth:`PlaySession.advance`), the bot moves
that have fallen due are made, and the answer says when the next one falls due
(``next_in``). Chance is drawn at once.

**Undo** (:meth:`PlaySession.undo`) takes back the person's last decision and the bots'
answers to it, when every other seat is a bot and nothing was learned since: it never goes
back over a chance outcome (a roll or a draw seen), nor, in a game of imperfect information,
over another seat's decision (what a bot does tells what it holds) or over one of the
person's own actions that revealed something hidden (a card drawn: the seat's observation
after it differs in states resampled from what the seat knew). Nor once the game is over.
What undo restores lives on the server only; no answer carries a past state.

>>> from tests.toy_game import PIG
>>> game = PIG.load({"target": 5})
>>> session = PlaySession("x", "127.0.0.1", PIG, game, "pig(target=5)",
...                       [SeatPlan("you"), SeatPlan("bot", "hold12")], seed=3, delay=0)
>>> session.act(0, "roll")["to_move"] in (1, 2)
True
"""

from __future__ import annotations

import copy
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from runarch_gen.errors import InputError, RunArchError
from runarch_gen.play.bot import Bot, BotFactory
from runarch_gen.play.game import (
    CHANCE_PLAYER,
    ChanceMode,
    Game,
    IllegalActionError,
    Information,
    State,
    sample_chance,
)
from runarch_gen.play.registry import Registration
from runarch_gen.web.play.games import renderer_for
from runarch_gen.web.play.view import RecordFile, Renderer, to_json

__all__ = ["MAX_ACTION_TEXT", "PlaySession", "SeatPlan"]

MAX_ACTION_TEXT = 200
"""Characters an action's text may have."""
REVEAL_SAMPLES = 6
"""States resampled from a seat's knowledge to tell whether its action revealed something."""
LOG_SHOWN = 120
"""The log's last entries an answer carries."""
MAX_SNAPSHOTS = 100

Chance = Callable[[State[Any]], int]


@dataclass(frozen=True, slots=True)
class SeatPlan:
    """Who plays a seat: ``you`` (the person who made the game), ``human`` (another person at
    the same screen) or ``bot`` (with its name)."""

    kind: str
    bot: str = ""

    @property
    def person(self) -> bool:
        return self.kind != "bot"

    def label(self) -> str:
        return self.bot if self.kind == "bot" else self.kind


@dataclass(slots=True)
class _Snapshot:
    """What undo restores: the state before one of the person's decisions, the bots as they
    were, and every seat's memory."""

    state: State[Any]
    bots: dict[int, Bot[Any]]
    memory: dict[int, dict[str, Any]]
    seat: int
    length: int


@dataclass(slots=True)
class _Entry:
    actor: int
    action: int
    text: str


@dataclass
class PlaySession:
    """One game in the browser (see the module's docstring)."""

    id: str
    owner: str
    registration: Registration
    game: Game[Any]
    game_text: str
    seats: Sequence[SeatPlan]
    seed: int
    delay: float = 0.8
    seed_given: bool = False
    factories: Mapping[str, BotFactory] | None = None
    chance: Chance | None = None
    clock: Callable[[], float] = time.monotonic
    renderer: Renderer | None = None
    initial: Callable[[Game[Any]], State[Any]] | None = None
    """The initial state (default: the game's, its setup drawn from the seed when sampled)."""
    created: float = field(init=False)
    touched: float = field(init=False)

    def __post_init__(self) -> None:
        game = self.game
        if len(self.seats) != game.num_players:
            raise InputError(f"{game.num_players} seats, not {len(self.seats)}")
        self.renderer = self.renderer or renderer_for(game.game_type.short_name)
        factories = self.factories if self.factories is not None else self.registration.bots
        self.bots: dict[int, Bot[Any]] = {
            seat: factories[plan.bot](random.Random(f"{self.seed}:{seat}"))
            for seat, plan in enumerate(self.seats)
            if plan.kind == "bot"
        }
        sampled = game.game_type.chance_mode is ChanceMode.SAMPLED
        if self.initial is not None:
            self.state: State[Any] = self.initial(game)
        else:
            self.state = game.new_initial_state(random.Random(self.seed) if sampled else None)
        self._chance_rng = random.Random(f"{self.seed}:chance")
        self.perfect = game.game_type.information is Information.PERFECT
        self.entries: list[_Entry] = []
        self.snapshots: list[_Snapshot] = []
        self.memory: dict[int, dict[str, Any]] = {
            seat: {} for seat, plan in enumerate(self.seats) if plan.person
        }
        self.version = 0
        self.due: float | None = None
        self.failure: str | None = None
        self.blocked = "nothing to take back yet"
        self.lock = threading.RLock()
        self._undo_cache: tuple[int, int, tuple[bool, str]] | None = None
        self.created = self.touched = self.clock()
        for seat, memory in self.memory.items():
            self._view().note(game, self.state.observation(seat), seat, memory)
        self.advance()

    # -- seats --------------------------------------------------------------------------------

    def _view(self) -> Renderer:
        assert self.renderer is not None
        return self.renderer

    @property
    def you(self) -> int:
        """The seat of the person who made the game."""
        return next(seat for seat, plan in enumerate(self.seats) if plan.kind == "you")

    def people(self) -> list[int]:
        return [seat for seat, plan in enumerate(self.seats) if plan.person]

    def seat_of(self, given: int | None) -> int:
        """The seat an answer is for: ``given`` (a person's seat, 0-based), or the creator's."""
        if given is None:
            return self.you
        if not 0 <= given < len(self.seats):
            raise InputError(f"--seat {given + 1}: this game has seats 1 to {len(self.seats)}")
        if not self.seats[given].person:
            raise InputError(f"--seat {given + 1}: a bot plays that seat")
        return given

    def names(self) -> list[str]:
        return [plan.label() for plan in self.seats]

    # -- moving on ----------------------------------------------------------------------------

    def _draw(self, state: State[Any]) -> int:
        if self.chance is not None:
            return self.chance(state)
        return sample_chance(state, self._chance_rng)

    def _apply(self, action: int, actor: int) -> None:
        state = self.state
        text = state.action_to_string(action)
        state.apply(action)
        self.entries.append(_Entry(actor, action, text))
        self.version += 1
        view = self._view()
        for seat, memory in self.memory.items():
            view.note(self.game, state.observation(seat), seat, memory)
        if actor == CHANCE_PLAYER or (not self.perfect and actor not in self.memory):
            self.snapshots.clear()  # nothing before this can be taken back any more
            self.blocked = (
                "chance has spoken since"
                if actor == CHANCE_PLAYER
                else "another player has answered since"
            )

    def advance(self) -> None:
        """Draw chance at once and make the bot moves that have fallen due."""
        with self.lock:
            now = self.clock()
            state = self.state
            while self.failure is None and not state.is_terminal():
                player = state.current_player()
                if player == CHANCE_PLAYER:
                    self._apply(self._draw(state), CHANCE_PLAYER)
                    continue
                if self.seats[player].person:
                    self.due = None
                    return
                if self.due is None:
                    self.due = now + self.delay
                if now < self.due:
                    return
                at = self.due
                try:
                    action = self.bots[player].step(
                        state.observation(player), state.legal_actions()
                    )
                    self._apply(action, player)
                except Exception as exc:  # a broken bot ends the game, not the server
                    self.failure = f"the bot {self.seats[player].bot} failed: {exc}"[:300]
                    return
                self.due = at + self.delay
            self.due = None

    # -- a person's actions -------------------------------------------------------------------

    def act(self, seat: int, text: str, version: int | None = None) -> dict[str, Any]:
        """Play the action written ``text`` for ``seat`` (a person's); the new payload.
        Raises :class:`IllegalActionError` (a 400) saying why it is not legal now."""
        with self.lock:
            self.advance()
            seat = self.seat_of(seat)
            wanted = text.strip()
            if len(wanted) > MAX_ACTION_TEXT:
                raise IllegalActionError(wanted[:40] + "…", "an action is a short text")
            if version is not None and version != self.version:
                raise IllegalActionError(
                    wanted, f"the game has moved on (version {self.version}, not {version})"
                )
            state = self.state
            if self.failure is not None:
                raise IllegalActionError(wanted, self.failure)
            if state.is_terminal():
                raise IllegalActionError(wanted, "the game is over")
            mover = state.current_player()
            if mover != seat:
                whose = self._view().sides(self.game)[mover] if mover >= 0 else "chance"
                raise IllegalActionError(wanted, f"it is {whose}'s turn, not yours")
            try:
                action = state.string_to_action(wanted)
            except IllegalActionError as exc:
                raise IllegalActionError(wanted, exc.reason) from None
            except RunArchError as exc:
                raise IllegalActionError(wanted, str(exc)) from None
            except (ValueError, KeyError, IndexError):
                raise IllegalActionError(wanted, "not an action of this game") from None
            if action not in state.legal_actions():
                raise IllegalActionError(wanted, "not legal now")
            snapshot = _Snapshot(
                state.copy(),
                {p: _bot_copy(bot) for p, bot in self.bots.items()},
                copy.deepcopy(self.memory),
                seat,
                len(self.entries),
            )
            self._apply(action, seat)
            self.snapshots.append(snapshot)
            del self.snapshots[:-MAX_SNAPSHOTS]
            self.due = None
            self.advance()
            return self.payload(seat)

    def undo_check(self, seat: int) -> tuple[bool, str]:
        """Whether ``seat`` may take back its last decision now, and if not, why."""
        with self.lock:
            key = (self.version, seat)
            if self._undo_cache is not None and self._undo_cache[:2] == key:
                return self._undo_cache[2]
            answer = self._undo_check(seat)
            self._undo_cache = (*key, answer)
            return answer

    def _undo_check(self, seat: int) -> tuple[bool, str]:
        if self.failure is not None:
            return False, self.failure
        if self.state.is_terminal():
            return False, "the game is over"
        if any(plan.person and p != seat for p, plan in enumerate(self.seats)):
            return False, "undo is for games against bots"
        if not self.snapshots or self.snapshots[-1].seat != seat:
            return False, self.blocked
        snapshot = self.snapshots[-1]
        replay = snapshot.state.copy()
        for index, entry in enumerate(self.entries[snapshot.length :]):
            if entry.actor == CHANCE_PLAYER:
                return False, "chance has spoken since"
            if entry.actor != seat and not self.perfect:
                return False, "another player has answered since"
            if not self.perfect and self._reveals(
                replay, entry.action, seat, snapshot.length + index
            ):
                return False, "your action showed you something hidden"
            replay.apply(entry.action)
        return True, ""

    def _reveals(self, state: State[Any], action: int, seat: int, index: int) -> bool:
        """Whether ``action`` shows ``seat`` something hidden: the seat's observation after it
        differs between ``state`` and states resampled from what the seat knew."""
        after = state.copy()
        after.apply(action)
        seen = after.observation_string(seat)
        rng = random.Random(f"{self.seed}:reveal:{index}")
        for _ in range(REVEAL_SAMPLES):
            other = state.resample_from_infostate(seat, rng)
            if action not in other.legal_actions():
                return True
            other.apply(action)
            if other.observation_string(seat) != seen:
                return True
        return False

    def undo(self, seat: int) -> dict[str, Any]:
        """Take back ``seat``'s last decision and the bots' answers to it (see the module)."""
        with self.lock:
            self.advance()
            seat = self.seat_of(seat)
            allowed, why = self.undo_check(seat)
            if not allowed:
                raise InputError(f"cannot undo: {why}")
            snapshot = self.snapshots.pop()
            self.state = snapshot.state
            for p, bot in snapshot.bots.items():
                self.bots[p] = bot
            self.memory = snapshot.memory
            del self.entries[snapshot.length :]
            self.version += 1
            self.due = None
            self.advance()
            return self.payload(seat)

    # -- answers ------------------------------------------------------------------------------

    def payload(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see now, as the API's JSON (see the module's docstring)."""
        with self.lock:
            state, game, view = self.state, self.game, self._view()
            sides = view.sides(game)
            observation = state.observation(seat)
            over = state.is_terminal()
            mover = -1 if over else state.current_player()
            mine = mover == seat and self.failure is None
            legal: list[tuple[int, str]] = []
            if mine:
                legal = [(a, state.action_to_string(a)) for a in state.legal_actions()]
            undo, why = self.undo_check(seat)
            now = self.clock()
            waiting = self.due is not None and not over
            return {
                "id": self.id,
                "game": self.game_text,
                "name": game.game_type.short_name,
                "version": self.version,
                "seat": seat + 1,
                "seats": [
                    {"seat": p + 1, "side": sides[p], "plays": plan.label()}
                    for p, plan in enumerate(self.seats)
                ],
                "to_move": mover + 1 if mover >= 0 else None,
                "legal": [text for _, text in legal],
                "choices": view.choices(game, observation, seat, legal) if mine else None,
                "result": self._result(),
                "view": view.view(game, observation, seat, self.memory.get(seat, {})),
                "log": self._log(seat),
                "actions": len(self.entries),
                "undo": undo,
                "undo_why": why,
                "next_in": round(max(0.0, (self.due or now) - now), 3) if waiting else None,
                "delay": self.delay,
                "record": self.record_open(),
                "hint": mine and view.has_hint(game),
                "analysis": over and view.has_analysis(game),
                "seed": str(self.seed) if self.seed_given or over else None,
                "error": self.failure,
            }

    def _result(self) -> dict[str, Any] | None:
        outcome = self.state.outcome()
        if outcome is None:
            return None
        return {
            "result": outcome.result(),
            "termination": outcome.termination.value,
            "stalled": outcome.stalled,
            "winners": [w + 1 for w in outcome.winners],
            "sides": list(outcome.sides),
            "scores": [score.as_dict() for score in outcome.scores],
            "returns": to_json(outcome.returns),
        }

    def _log(self, seat: int) -> list[dict[str, Any]]:
        sides = self._view().sides(self.game)
        start = max(0, len(self.entries) - LOG_SHOWN)
        out = []
        for number, entry in enumerate(self.entries[start:], start=start + 1):
            shown = self.perfect or entry.actor == seat
            out.append(
                {
                    "n": number,
                    "who": "chance" if entry.actor == CHANCE_PLAYER else sides[entry.actor],
                    "seat": entry.actor + 1 if entry.actor >= 0 else None,
                    "text": entry.text if shown else None,
                }
            )
        return out

    def record_open(self) -> bool:
        """Whether the record may be given: once the game is over, or at any time in a game
        of perfect information (its record holds only what everyone saw)."""
        return self.state.is_terminal() or self.perfect

    def record(self) -> list[RecordFile]:
        """The game's record and the files its replay needs (see :meth:`record_open`)."""
        with self.lock:
            if not self.record_open():
                raise InputError(
                    "the record is given when the game is over: it holds what the others hide"
                )
            tags = {"Event": "runarch-gen play"}
            if self.seed_given or self.state.is_terminal():
                tags["Seed"] = str(self.seed)
            return self._view().record(self.game, self.state, self.names(), tags)

    def hint(self, seat: int) -> dict[str, Any]:
        with self.lock:
            self.advance()
            seat = self.seat_of(seat)
            state, view = self.state, self._view()
            if not view.has_hint(self.game):
                raise InputError(f"{self.game.game_type.short_name} has no hint")
            if state.is_terminal() or state.current_player() != seat:
                raise InputError("a hint is for the player to move")
            legal = [(a, state.action_to_string(a)) for a in state.legal_actions()]
            hint = view.hint(self.game, state.observation(seat), legal)
            if hint is None:
                raise InputError("no hint in this position")
            return hint

    def analysis(self, seat: int) -> dict[str, Any]:
        with self.lock:
            seat = self.seat_of(seat)
            view = self._view()
            if not view.has_analysis(self.game):
                raise InputError(f"{self.game.game_type.short_name} has no analysis")
            if not self.state.is_terminal():
                raise InputError("the analysis is made when the game is over")
            found = view.analysis(self.game, self.state, self.people())
            if found is None:
                raise InputError("no analysis of this game")
            return found


def _bot_copy(bot: Bot[Any]) -> Bot[Any]:
    """A copy of ``bot`` whose generator goes on from where ``bot``'s is now."""
    twin = copy.copy(bot)
    rng = random.Random()
    rng.setstate(bot.rng.getstate())
    twin.rng = rng
    return twin
