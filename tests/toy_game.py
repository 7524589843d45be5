"""Pig, a small dice game: a whole game of the family in one file, and the example of
``docs/adding-a-game.md``.

Each turn the player rolls a die (a chance node) and adds the pips to the turn's total, or
holds and banks it; a 1 loses the turn's total and passes the turn. The first to bank the
target wins. Players 1–4, explicit chance, perfect information.

The file holds what a game of the family writes: its rules dataclass (every parameter
declared once, on its field), the game and its states, its bots, one command of its own, and
its :data:`PIG` registration. Installed as a package whose ``runarch_gen.games`` entry point
names ``toy_game:PIG``, it appears in ``runarch-gen games``, gets ``runarch-gen pig`` (rules,
simulate, validate, record, replay and ``odds``), and can be swept and played on the web
(``tests/test_plugin.py`` does exactly that).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Self

import typer

from runarch_gen.cli.games import game_commands
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
from runarch_gen.play.parameters import param, parameters_of
from runarch_gen.play.registry import GameType, Registration

ROLL, HOLD = 0, 1
FACES = 6


@dataclass(frozen=True, slots=True)
class PigRules:
    """Pig's options: each field is a parameter of the game string ``pig(players=3,…)``."""

    players: int = param(2, "players", tag="P-01", minimum=1, maximum=4)
    target: int = param(20, "points to win", tag="P-02", minimum=1, maximum=100)
    limit: int = param(400, "actions before the game stalls", tag="P-03", minimum=1, maximum=10_000)


PIG_TYPE = GameType(
    short_name="pig",
    long_name="Pig",
    czech_name="Prasátko",
    min_players=1,
    max_players=4,
    chance_mode=ChanceMode.EXPLICIT,
    information=Information.PERFECT,
    parameters=parameters_of(PigRules),
    variants={"quick": {"target": "10"}},
    rules=PigRules,
)


class PigEnd(Termination):
    TARGET = "target"
    LIMIT = "limit"

    @property
    def stalled(self) -> bool:
        return self is PigEnd.LIMIT


@dataclass(frozen=True, slots=True)
class PigObservation:
    """What a player sees: everything (Pig hides nothing)."""

    banked: tuple[int, ...]
    turn_total: int
    player: int
    rolling: bool


class PigGame(Game["PigState"]):
    game_type = PIG_TYPE
    rules: PigRules

    def __init__(self, rules: PigRules | None = None) -> None:
        self.rules = rules or PigRules()

    @property
    def info(self) -> GameInfo:
        return GameInfo(self.rules.players, self.rules.limit)

    def new_initial_state(self, rng: random.Random | None = None) -> PigState:
        return PigState(self)


class PigState(State[PigObservation]):
    __slots__ = ("banked", "game", "player", "rolling", "turn_total")

    def __init__(self, game: PigGame) -> None:
        super().__init__()
        self.game = game
        self.banked = [0] * game.rules.players
        self.player = 0
        self.turn_total = 0
        self.rolling = False

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

    def _apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(str(action), "not legal here")
        players = self.game.rules.players
        if self.rolling:
            self.rolling = False
            if action == 1:
                self.turn_total = 0
                self.player = (self.player + 1) % players
            else:
                self.turn_total += action
        elif action == ROLL:
            self.rolling = True
        else:
            self.banked[self.player] += self.turn_total
            self.turn_total = 0
            if self.banked[self.player] < self.game.rules.target:
                self.player = (self.player + 1) % players

    def action_to_string(self, action: int) -> str:
        if self.rolling:
            return f"⚀{action}"
        return "roll" if action == ROLL else "hold"

    def is_terminal(self) -> bool:
        rules = self.game.rules
        return max(self.banked) >= rules.target or len(self._history) >= rules.limit

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        target = self.game.rules.target
        winners = tuple(p for p, b in enumerate(self.banked) if b >= target)
        return Outcome(
            PigEnd.TARGET if winners else PigEnd.LIMIT,
            winners,
            tuple(Score((("banked", b),)) for b in self.banked),
            tuple(f"p{p + 1}" for p in range(len(self.banked))),
        )

    def observation(self, player: int) -> PigObservation:
        return PigObservation(tuple(self.banked), self.turn_total, self.player, self.rolling)

    def statistics(self) -> dict[str, object]:
        return {
            "turn total left": self.turn_total,
            "seat": tuple(f"s{p}" for p in range(len(self.banked))),
        }

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


class HoldAt(Bot[PigObservation]):
    """Rolls until the turn's total reaches its threshold."""

    threshold = 12

    def step(self, observation: PigObservation, legal_actions: Sequence[int]) -> int:
        return HOLD if observation.turn_total >= self.threshold else ROLL


class Cautious(HoldAt):
    threshold = 4


class Reckless(HoldAt):
    threshold = 30


commands = game_commands()


@commands.command("odds")
def odds(
    rolls: Annotated[int, typer.Option("--rolls", min=0, max=100, help="Rolls in a row.")] = 3,
) -> None:
    """The chance that so many rolls in a row bring no 1."""
    typer.echo(f"{((FACES - 1) / FACES) ** rolls:.4f}")


PIG = Registration.of(
    PigGame,
    bots={"hold12": HoldAt, "cautious": Cautious, "reckless": Reckless},
    default_bot="hold12",
    conformance=("pig", "pig(players=4,target=30)", "quick(players=1)"),
    rules_document="toy_game_rules.md",
    commands=":commands",
)
"""Pig's registration: named by the package's ``runarch_gen.games`` entry point."""
