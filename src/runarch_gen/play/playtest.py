"""Simulated games of any registered game between bots, and the report of how it plays.

:func:`playtest` plays ``games`` games of one game (a registration and its parameter values)
between named bots across worker processes (:mod:`.simulate`): game *i* gets its own seed from
the master seed and *i*; its chance outcomes are drawn from a generator of that seed, each bot
gets a generator of its own, and the bots rotate through the seats game by game
(:func:`seat_bots`), so every bot plays every seat equally often. Each game is boiled down to a
:class:`~.report.GameResult`, and the :class:`~.report.PlayReport` aggregates them in game
order: the same for one worker or twenty.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from runarch_gen.errors import InputError
from runarch_gen.play.bot import Bot, play_out
from runarch_gen.play.design import design_of
from runarch_gen.play.game import ChanceMode, Game, Outcome, State, StateT
from runarch_gen.play.metrics import Trace, play_traced
from runarch_gen.play.registry import BotFactory, Registration, Value
from runarch_gen.play.report import GameResult, PlayReport, Statistic
from runarch_gen.play.simulate import run_games

__all__ = [
    "MAX_GAMES",
    "PlayTask",
    "PlayedGame",
    "check_bots",
    "play_game",
    "play_seats",
    "play_seats_traced",
    "play_seeded",
    "playtest",
    "seat_bots",
]

MAX_GAMES = 10_000_000
"""The most games one run plays (each game's result is kept for the report)."""


def seat_bots(bots: Sequence[str], index: int, players: int) -> tuple[str, ...]:
    """The bots in each seat of game ``index``: the list repeated to fill the seats, turned by
    one seat per game, so each bot sits in each seat equally often.

    >>> seat_bots(["a", "b"], 0, 2), seat_bots(["a", "b"], 1, 2)
    (('a', 'b'), ('b', 'a'))
    >>> seat_bots(["a", "b", "c"], 1, 4)
    ('b', 'c', 'a', 'a')
    >>> seat_bots(["greedy"], 5, 1)
    ('greedy',)
    """
    filled = [bots[i % len(bots)] for i in range(players)]
    turn = index % players
    return tuple(filled[turn:] + filled[:turn])


def check_bots(registration: Registration, bots: Sequence[str], players: int) -> tuple[str, ...]:
    """The bot names, normalised; :class:`InputError` names unknown bots or too many."""
    names = tuple(name.strip().lower() for name in bots if name.strip())
    known = ", ".join(sorted(registration.bots))
    if not names:
        raise InputError(f"name at least one bot: {known}")
    for name in names:
        if name not in registration.bots:
            raise InputError(f"unknown bot {name!r}: expected one of {known}")
    if len(names) > players:
        raise InputError(f"{players} seats take at most {players} bots, not {len(names)}")
    return names


@dataclass(frozen=True, slots=True)
class PlayTask:
    """What a worker process (or a cluster worker) needs to play games of one game: the
    factory and parameter values, the bots' names, and their factories (picklable); and the
    game's standing and count of turns, for the design metrics' traces
    (:mod:`runarch_gen.play.design`)."""

    factory: Callable[[Mapping[str, Value]], Game[Any]]
    values: tuple[tuple[str, Value], ...]
    bots: tuple[str, ...]
    factories: tuple[tuple[str, BotFactory], ...]
    standing: Callable[[Any], Sequence[float]] | None = None
    turn: Callable[[Any], int] | None = None

    @classmethod
    def of(
        cls, registration: Registration, values: Mapping[str, Value], bots: Sequence[str]
    ) -> PlayTask:
        """The task of playing ``registration``'s game with ``values`` between ``bots``."""
        design = design_of(registration.game_type.short_name)
        return cls(
            registration.factory,
            tuple(values.items()),
            tuple(bots),
            tuple((name, registration.bots[name]) for name in sorted(set(bots))),
            design.standing,
            design.turn,
        )


_Task = PlayTask  # the name sweeps imported before it was public

_GAMES: dict[int, tuple[PlayTask, Game[Any]]] = {}


def _game_of(task: PlayTask) -> Game[Any]:
    # One game object per process and task (its tables are built once).
    entry = _GAMES.get(id(task))
    if entry is None or entry[0] is not task:
        _GAMES.clear()
        entry = _GAMES[id(task)] = (task, task.factory(dict(task.values)))
    return entry[1]


def _statistic(value: Any) -> Statistic:
    if isinstance(value, (list, tuple)):
        return tuple(value)
    if isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"a statistic is a number, a text or a sequence of them, not {value!r}")


def _seated(
    game: Game[StateT],
    factories: Mapping[str, BotFactory],
    seats: Sequence[str],
    seed: int,
) -> tuple[StateT, list[Bot[Any]], random.Random]:
    # The one seeding rule (see play_seats).
    bots: list[Bot[Any]] = [
        factories[name](random.Random(f"{seed}:{side}")) for side, name in enumerate(seats)
    ]
    sampled = game.game_type.chance_mode is ChanceMode.SAMPLED
    state = game.new_initial_state(random.Random(seed) if sampled else None)
    return state, bots, random.Random(f"{seed}:chance")


def play_seats(
    game: Game[StateT],
    factories: Mapping[str, BotFactory],
    seats: Sequence[str],
    seed: int,
) -> StateT:
    """Play one game of ``game`` to its end between the bots named in ``seats`` (one per
    player) and return the final state. The one seeding rule of every simulated game: the
    bot in seat *s* gets ``Random(f"{seed}:{s}")``, chance ``Random(f"{seed}:chance")``, and
    a game whose chance is sampled at setup draws it from ``Random(seed)``."""
    state, bots, chance = _seated(game, factories, seats, seed)
    play_out(state, bots, chance)
    return state


def play_seats_traced(
    game: Game[StateT],
    factories: Mapping[str, BotFactory],
    seats: Sequence[str],
    seed: int,
    standing: Callable[[Any], Sequence[float]] | None = None,
    turn: Callable[[Any], int] | None = None,
) -> tuple[StateT, Trace]:
    """:func:`play_seats` — the same game, move for move — with the trace the design metrics
    read (:func:`~runarch_gen.play.metrics.play_traced`)."""
    state, bots, chance = _seated(game, factories, seats, seed)
    _, trace = play_traced(state, bots, chance, standing, turn)
    return state, trace


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One game played by :func:`play_seeded`: the game, its final state, the bot in each
    seat and the seed."""

    game: Game[Any]
    state: State[Any]
    bots: tuple[str, ...]
    seed: int

    @property
    def outcome(self) -> Outcome:
        outcome = self.state.outcome()
        assert outcome is not None
        return outcome


def play_seeded(
    registration: Registration,
    values: Mapping[str, Value],
    bots: Sequence[str],
    seed: int,
    *,
    game: Game[Any] | None = None,
) -> PlayedGame:
    """Play one game of the registered game with parameter ``values`` between ``bots`` (named;
    they fill the seats in turn) from ``seed``, as a simulation plays its games (see
    :func:`play_seats`). ``game`` is the game of ``values`` when the caller has made it.

    >>> from runarch_gen.play.registry import find_registration
    >>> played = play_seeded(find_registration("bluff"), {"players": 3}, ["odds", "random"], 7)
    >>> played.bots, played.state.is_terminal()
    (('odds', 'random', 'odds'), True)
    """
    game = game if game is not None else registration.load(values)
    players = game.num_players
    seats = seat_bots(check_bots(registration, bots, players), 0, players)
    state = play_seats(game, registration.bots, seats, seed)
    return PlayedGame(game, state, seats, seed)


def play_game(task: PlayTask, index: int, seed: int) -> GameResult:
    """Play game ``index`` with ``seed`` and boil it down (runs in a worker)."""
    game = _game_of(task)
    players = game.num_players
    names = seat_bots(task.bots, index, players)
    state, trace = play_seats_traced(
        game, dict(task.factories), names, seed, task.standing, task.turn
    )
    outcome = state.outcome()
    assert outcome is not None
    sides = outcome.sides
    return GameResult(
        index=index,
        bots=names + tuple(sides[players:]),
        first=state.first(),
        length=state.length(),
        termination=outcome.termination.value,
        stalled=outcome.stalled,
        winners=outcome.winners,
        totals=tuple(float(t) for t in outcome.totals),
        returns=outcome.returns,
        statistics=tuple((name, _statistic(value)) for name, value in state.statistics().items()),
        sides=sides,
        # A member of the game's Termination with a true `deadlock` is a proven deadlock.
        deadlocked=bool(getattr(outcome.termination, "deadlock", False)),
        trace=trace,
    )


def playtest(
    registration: Registration,
    values: Mapping[str, Value],
    bots: Sequence[str] | None = None,
    *,
    games: int,
    seed: int,
    workers: int | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> PlayReport:
    """Play ``games`` games of the registered game with parameter ``values`` between ``bots``
    (default: the game's default bot) and report.

    Raises :class:`InputError` for unknown bots, too many bots, or a number of games outside
    1 … :data:`MAX_GAMES`. Ctrl-C (or a :class:`KeyboardInterrupt` from ``on_progress``)
    stops the run, and the games finished are reported with ``interrupted`` set.
    """
    if not 1 <= games <= MAX_GAMES:
        raise InputError(f"games must be 1 to {MAX_GAMES:,}, not {games}")
    game = registration.load(values)
    names = check_bots(registration, bots or (registration.default_bot,), game.num_players)
    task = PlayTask.of(registration, values, names)
    run = run_games(
        play_game, task, games=games, seed=seed, workers=workers, on_progress=on_progress
    )
    results = tuple(run.results)
    sides = results[0].sides if results else tuple(f"p{i + 1}" for i in range(game.num_players))
    return PlayReport(
        game=str(game),
        bots=names,
        seed=seed,
        requested=games,
        sides=sides,
        length_unit=game.length_unit,
        interrupted=run.interrupted,
        results=results,
        exclude=tuple(sides[game.num_players :]),
        ladder=design_of(registration.game_type.short_name).ladder,
    )
