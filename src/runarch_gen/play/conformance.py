"""The conformance suite every game of the family passes (OpenSpiel's ``basic_tests``).

:func:`check_random_games` plays games with uniformly random decisions — chance drawn by its
listed probabilities — and checks the interface's promises at every step:

- a state is terminal exactly when it lists no legal action, and then says why it ended, with
  returns inside the declared range and winners among the sides;
- legal actions are sorted and unique, each with a unique text that parses back to it;
- at a chance node the outcomes are sorted, have positive probabilities summing to 1, and are
  exactly the legal actions;
- ``copy()`` equals the original and is independent of it;
- serialising a state and reading it back gives an equal state (records replay exactly);
- no observation leaks: a state resampled from a player's knowledge
  (:meth:`~.game.State.resample_from_infostate`) looks the same to that player and offers
  them the same actions;
- no game is longer than its declared ``max_game_length``.

A failure raises :class:`ConformanceError` naming the game, the seed, the step and the last
actions, so it can be replayed.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from runarch_gen.play.game import (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    Game,
    IllegalActionError,
    State,
    sample_chance,
)

__all__ = ["ConformanceError", "ConformanceReport", "check_random_games", "check_state"]

PROBABILITY_TOLERANCE = 1e-9


class ConformanceError(AssertionError):
    """A broken promise of the game interface; the message says which and where."""


@dataclass(slots=True)
class ConformanceReport:
    """What the random games covered."""

    games: int = 0
    states: int = 0
    chance_nodes: int = 0
    longest: int = 0
    terminations: Counter[str] = field(default_factory=Counter)


class _Where:
    __slots__ = ("game", "seed", "state")

    def __init__(self, game: Game[Any], seed: int, state: State[Any]) -> None:
        self.game, self.seed, self.state = game, seed, state

    def fail(self, message: str) -> ConformanceError:
        history = list(self.state.history())
        return ConformanceError(
            f"{self.game} (seed {self.seed}, after {len(history)} actions,"
            f" last {history[-8:]}): {message}"
        )


def check_state(
    game: Game[Any],
    state: State[Any],
    rng: random.Random,
    *,
    seed: int = 0,
    deep: bool = True,
) -> None:
    """Check every promise of the interface on one state; ``deep`` adds the costlier checks
    (every action's text parsed back, serialisation, resampling, copy independence)."""
    where = _Where(game, seed, state)
    player = state.current_player()
    legal = list(state.legal_actions())
    info = game.info
    if len(state.history()) > info.max_game_length:
        raise where.fail(f"longer than the declared maximum {info.max_game_length}")
    if state.is_terminal():
        _check_terminal(where, state, player, legal, info.min_utility, info.max_utility)
        return
    if not legal:
        raise where.fail("not terminal, yet no legal action")
    if any(b <= a for a, b in itertools.pairwise(legal)):
        raise where.fail("legal actions are not sorted and unique")
    if player == CHANCE_PLAYER:
        _check_chance(where, state, legal)
    elif not 0 <= player < game.num_players:
        raise where.fail(f"current player {player} is no player")
    elif deep:
        _check_texts(where, state, legal)
    if not deep:
        return
    _check_copy(where, state, legal, rng)
    text = game.serialize_state(state)
    if game.deserialize_state(text) != state:
        raise where.fail("serialising and reading back gives a different state")
    for observer in range(game.num_players):
        seen = state.observation_string(observer)
        other = state.resample_from_infostate(observer, rng)
        if other.observation_string(observer) != seen:
            raise where.fail(f"player {observer}'s observation changes with what they cannot see")
        if player == observer and list(other.legal_actions()) != legal:
            raise where.fail(f"player {observer}'s legal actions depend on what they cannot see")


def _check_terminal(
    where: _Where,
    state: State[Any],
    player: int,
    legal: Sequence[int],
    low: float,
    high: float,
) -> None:
    if legal:
        raise where.fail("terminal, yet legal actions remain")
    if player != TERMINAL_PLAYER:
        raise where.fail(f"terminal, yet player {player} is to act")
    outcome = state.outcome()
    if outcome is None:
        raise where.fail("terminal without an outcome")
    sides = len(outcome.scores)
    if len(outcome.sides) != sides or len(outcome.returns) != sides:
        raise where.fail("the outcome's sides, scores and returns differ in number")
    if any(not 0 <= w < sides for w in outcome.winners):
        raise where.fail(f"winners {outcome.winners} are not sides")
    for value in outcome.returns:
        if not (math.isfinite(value) and low - 1e-9 <= value <= high + 1e-9):
            raise where.fail(f"return {value} outside [{low}, {high}]")


def _check_chance(where: _Where, state: State[Any], legal: Sequence[int]) -> None:
    outcomes = list(state.chance_outcomes())
    if [a for a, _ in outcomes] != list(legal):
        raise where.fail("the chance outcomes are not the legal actions")
    if any(not (p > 0) for _, p in outcomes):
        raise where.fail("a chance outcome has no positive probability")
    total = math.fsum(p for _, p in outcomes)
    if abs(total - 1.0) > PROBABILITY_TOLERANCE:
        raise where.fail(f"chance probabilities sum to {total!r}")


def _check_texts(where: _Where, state: State[Any], legal: Sequence[int]) -> None:
    texts = [state.action_to_string(a) for a in legal]
    if len(set(texts)) != len(texts):
        raise where.fail("two legal actions share a text")
    for action, text in zip(legal, texts, strict=True):
        try:
            parsed = state.string_to_action(text)
        except IllegalActionError as exc:
            raise where.fail(f"{text!r} does not parse back: {exc}") from None
        if parsed != action:
            raise where.fail(f"{text!r} parses to {parsed}, not {action}")


def _check_copy(where: _Where, state: State[Any], legal: Sequence[int], rng: random.Random) -> None:
    copy = state.copy()
    if copy != state:
        raise where.fail("copy() differs from the original")
    changed = state.copy()
    changed.apply(rng.choice(list(legal)))
    if copy != state:
        raise where.fail("playing on a copy changed the original")


def check_random_games(
    game: Game[Any], *, games: int = 10, seed: int = 0, deep_every: int = 1
) -> ConformanceReport:
    """Play ``games`` random games of ``game`` and check every state (the costly checks on
    every ``deep_every``-th state, and always on the last); raises :class:`ConformanceError`."""
    report = ConformanceReport()
    for index in range(games):
        game_seed = seed * 1_000_003 + index
        rng = random.Random(game_seed)
        state = game.new_initial_state(random.Random(game_seed))
        step = 0
        while True:
            check_state(game, state, rng, seed=game_seed, deep=step % deep_every == 0)
            report.states += 1
            if state.is_terminal():
                break
            if state.is_chance_node():
                report.chance_nodes += 1
                state.apply(sample_chance(state, rng))
            else:
                state.apply(rng.choice(list(state.legal_actions())))
            step += 1
        check_state(game, state, rng, seed=game_seed, deep=True)
        outcome = state.outcome()
        assert outcome is not None
        report.games += 1
        report.longest = max(report.longest, len(state.history()))
        report.terminations[outcome.termination.value] += 1
    return report
