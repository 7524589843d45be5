"""Helpers of the play tests: sessions made in Python (with a clock, bots and chance of the
test's choosing) and games played through them."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from runarch_gen.play.bot import Bot, BotFactory
from runarch_gen.play.game import State
from runarch_gen.play.registry import find_registration
from runarch_gen.web.play.session import PlaySession, SeatPlan
from runarch_gen.web.play.setup import read_options


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class FirstLegal(Bot[Any]):
    """The smallest legal action: what it does depends only on the legal actions."""

    def step(self, observation: Any, legal_actions: Sequence[int]) -> int:
        return min(legal_actions)


def session(
    body: Mapping[str, Any],
    *,
    factories: Mapping[str, BotFactory] | None = None,
    chance: Callable[[State[Any]], int] | None = None,
    clock: Callable[[], float] | None = None,
    seats: Sequence[SeatPlan] | None = None,
    initial: Callable[[Any], State[Any]] | None = None,
    seed: int | None = None,
) -> PlaySession:
    """A session of the form ``body`` (as ``POST /api/play`` reads it); its bots, chance,
    clock and initial state replaceable; ``seed`` a seed the person did not give."""
    if factories is not None and seats is None:
        # Bots of the test's own: the form is read without them, the seats made here.
        names = [n.strip() for n in str(body.get("bots", "")).split(",")]
        body = {k: v for k, v in body.items() if k != "bots"}
        seats = [SeatPlan("you"), *(SeatPlan("bot", n) for n in names)]
    options = read_options(body)
    extra: dict[str, Any] = {}
    if clock is not None:
        extra["clock"] = clock
    return PlaySession(
        "test",
        "127.0.0.1",
        options.registration,
        options.game,
        options.game_text,
        seats if seats is not None else options.seats,
        options.seed if seed is None else seed,
        options.delay,
        options.seed_given and seed is None,
        factories=factories,
        chance=chance,
        initial=initial,
        **extra,
    )


def random_texts(seed: int) -> Callable[[dict[str, Any]], str]:
    """A player who picks one of the payload's legal texts at random."""
    rng = random.Random(seed)

    def pick(payload: dict[str, Any]) -> str:
        return str(rng.choice(payload["legal"]))

    return pick


def play_through(
    game: PlaySession, choose: Callable[[dict[str, Any]], str], limit: int = 5000
) -> list[dict[str, Any]]:
    """Play ``game`` to its end with ``choose`` deciding for the person; every payload seen."""
    seen = []
    payload = game.payload(game.you)
    for _ in range(limit):
        seen.append(payload)
        if payload["result"] is not None:
            return seen
        if payload["legal"]:
            payload = game.act(game.you, choose(payload))
        else:
            game.advance()
            payload = game.payload(game.you)
    raise AssertionError(f"{game.game_text} not over after {limit} steps")


def registration(name: str) -> Any:
    return find_registration(name)
