"""A small dice game for testing the generic layer without any real game: Pig to a target.

Each turn the player rolls a die (a chance node) and adds the pips to the turn's total, or
holds and banks it; a 1 loses the turn's total and passes the turn. The first to bank the
target wins. Players 1–4, explicit chance, perfect information.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Self

from runarch_gen.play.bot import Bot
from runarch_gen.play.game import (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    ChanceMode,
    Game,
    GameInfo,
    IllegalActionError,
    Information,
    Outcome,
    Score,
    State,
    Termination,
)
from runarch_gen.play.registry import GameType, Parameter, Registration, Value

ROLL, HOLD = 0, 1
FACES = 6


class PigEnd(Termination):
    TARGET = "target"
    LIMIT = "limit"

    @property
    def stalled(self) -> bool:
        return self is PigEnd.LIMIT


PIG_TYPE = GameType(
    short_name="pig",
    long_name="Pig",
    czech_name="Prasátko",
    min_players=1,
    max_players=4,
    chance_mode=ChanceMode.EXPLICIT,
    information=Information.PERFECT,
    parameters=(
        Parameter("players", 2, "players", minimum=1, maximum=4),
        Parameter("target", 20, "points to win", minimum=1, maximum=100),
        Parameter("limit", 400, "actions before the game stalls", minimum=1, maximum=10_000),
    ),
)


class PigGame(Game["PigState"]):
    game_type = PIG_TYPE

    def __init__(self, players: int = 2, target: int = 20, limit: int = 400) -> None:
        self.players, self.target, self.limit = players, target, limit

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def info(self) -> GameInfo:
        return GameInfo(self.players, self.limit)

    def new_initial_state(self, rng: random.Random | None = None) -> PigState:
        return PigState(self)

    def __str__(self) -> str:
        return PIG_TYPE.game_string(
            {"players": self.players, "target": self.target, "limit": self.limit}
        )


class PigState(State[tuple[int, ...]]):
    __slots__ = ("_history", "banked", "game", "player", "rolling", "turn_total")

    def __init__(self, game: PigGame) -> None:
        self.game = game
        self.banked = [0] * game.players
        self.player = 0
        self.turn_total = 0
        self.rolling = False
        self._history: list[int] = []

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL_PLAYER
        return CHANCE_PLAYER if self.rolling else self.player

    def chance_outcomes(self) -> Sequence[tuple[int, float]]:
        return tuple((face, 1 / FACES) for face in range(1, FACES + 1)) if self.rolling else ()

    def legal_actions(self) -> Sequence[int]:
        if self.is_terminal():
            return ()
        return tuple(range(1, FACES + 1)) if self.rolling else (ROLL, HOLD)

    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(str(action), "not legal here")
        self._history.append(action)
        if self.rolling:
            self.rolling = False
            if action == 1:
                self.turn_total = 0
                self.player = (self.player + 1) % self.game.players
            else:
                self.turn_total += action
        elif action == ROLL:
            self.rolling = True
        else:
            self.banked[self.player] += self.turn_total
            self.turn_total = 0
            if self.banked[self.player] < self.game.target:
                self.player = (self.player + 1) % self.game.players

    def action_to_string(self, action: int) -> str:
        if self.rolling:
            return f"⚀{action}"
        return "roll" if action == ROLL else "hold"

    def is_terminal(self) -> bool:
        return max(self.banked) >= self.game.target or len(self._history) >= self.game.limit

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        won = max(self.banked) >= self.game.target
        winners = tuple(p for p, b in enumerate(self.banked) if b >= self.game.target)
        return Outcome(
            PigEnd.TARGET if won else PigEnd.LIMIT,
            winners,
            tuple(Score((("banked", b),)) for b in self.banked),
            tuple(f"p{p + 1}" for p in range(self.game.players)),
        )

    def observation(self, player: int) -> tuple[int, ...]:
        return (*self.banked, self.turn_total, self.player, int(self.rolling))

    def history(self) -> Sequence[int]:
        return tuple(self._history)

    def copy(self) -> Self:
        new = type(self).__new__(type(self))
        new.game = self.game
        new.banked = self.banked[:]
        new.player, new.turn_total, new.rolling = self.player, self.turn_total, self.rolling
        new._history = self._history[:]
        return new

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PigState) and self._history == other._history

    __hash__ = None  # type: ignore[assignment]


class HoldAt(Bot[tuple[int, ...]]):
    """Rolls until the turn's total reaches its threshold."""

    threshold = 12

    def step(self, observation: tuple[int, ...], legal_actions: Sequence[int]) -> int:
        return HOLD if observation[-3] >= self.threshold else ROLL


class Cautious(HoldAt):
    threshold = 4


class Reckless(HoldAt):
    threshold = 30


def load_pig(values: Mapping[str, Value]) -> PigGame:
    return PigGame(int(values["players"]), int(values["target"]), int(values["limit"]))


def pig_statistics(state: PigState) -> dict[str, object]:
    return {
        "turn total left": state.turn_total,
        "seat": tuple(f"s{p}" for p in range(len(state.banked))),
    }


PIG = Registration(
    PIG_TYPE,
    load_pig,
    {"hold12": HoldAt, "cautious": Cautious, "reckless": Reckless},
    ("pig", "pig(players=4,target=30)"),
    statistics=pig_statistics,
    length_unit="actions",
)
