"""Bots: players that see only an observation and the legal actions.

A bot is built with its own seeded :class:`random.Random` and never touches the state, so the
same seeds give the same game, and a bot cannot see what its player may not. Every game gets
:class:`RandomBot` (uniform over the legal actions) for free; :class:`PolicyBot` is the base of a
bot whose choice is an explicit distribution.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from runarch_gen.play.game import CHANCE_PLAYER, Action, Outcome, State, sample_chance

ObsT = TypeVar("ObsT")


class Bot(ABC, Generic[ObsT]):
    """A policy: ``step(observation, legal_actions)`` returns one of ``legal_actions``."""

    name: ClassVar[str] = "bot"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    @abstractmethod
    def step(self, observation: ObsT, legal_actions: Sequence[Action]) -> Action:
        """Choose an action from ``legal_actions`` (never empty)."""


class PolicyBot(Bot[ObsT]):
    """A bot with an explicit policy: :meth:`policy` lists each action it may take with its
    chance, and :meth:`step` draws one with a single ``rng.random()``. The policy is what an
    exact best response (exploitability) or a solver reads."""

    @abstractmethod
    def policy(self, observation: ObsT, legal: Sequence[Action]) -> Sequence[tuple[Action, float]]:
        """The actions of ``legal`` it may take, each with its chance (summing to 1)."""

    def step(self, observation: ObsT, legal_actions: Sequence[Action]) -> Action:
        policy = self.policy(observation, legal_actions)
        if len(policy) == 1:
            return policy[0][0]
        point = self.rng.random()
        running = 0.0
        for action, chance in policy:
            running += chance
            if point < running:
                return action
        return policy[-1][0]


class RandomBot(PolicyBot[Any]):
    """Every legal action with the same chance: the baseline bot of any game.

    >>> bot = RandomBot(random.Random(1))
    >>> bot.step(None, [3, 5, 8]) in (3, 5, 8), bot.policy(None, [3, 5])
    (True, [(3, 0.5), (5, 0.5)])
    """

    name: ClassVar[str] = "random"

    def policy(self, observation: Any, legal: Sequence[Action]) -> list[tuple[Action, float]]:
        share = 1.0 / len(legal)
        return [(action, share) for action in legal]

    def step(self, observation: Any, legal_actions: Sequence[Action]) -> Action:
        return legal_actions[self.rng.randrange(len(legal_actions))]


BotFactory = Callable[[random.Random], Bot[Any]]
"""``factory(rng)``: a bot with its own seeded generator (a bot class is one)."""


def play_out(
    state: State[ObsT], bots: Sequence[Bot[ObsT]], chance: random.Random | None = None
) -> Outcome:
    """Let ``bots`` (indexed by player) play ``state`` to its end and return the outcome.

    ``bots[p]`` is asked whenever ``state.current_player()`` is ``p``; at a chance node the
    outcome is drawn with ``chance`` (required when the game has chance nodes), so no bot
    ever sees a roll before it is made. See the "From Python" example of docs/guide/engine.md.
    """
    # The state's methods and the bots' steps looked up once: this loop runs every step of
    # every simulated game. ``current_player()`` is CHANCE_PLAYER exactly at a chance node.
    is_terminal, current_player = state.is_terminal, state.current_player
    apply, observation, legal_actions = state.apply, state.observation, state.legal_actions
    steps = [bot.step for bot in bots]
    while not is_terminal():
        player = current_player()
        if player == CHANCE_PLAYER:
            if chance is None:
                raise ValueError("this game has chance nodes: give play_out a generator")
            apply(sample_chance(state, chance))
            continue
        apply(steps[player](observation(player), legal_actions()))
    outcome = state.outcome()
    assert outcome is not None
    return outcome
