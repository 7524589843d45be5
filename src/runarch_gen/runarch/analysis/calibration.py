"""Goal rewards from play (``runarch-gen deck --calibrate``, RULES.md §7 [R-23]).

The deck generator pays a goal by a chance estimated from the deck alone
(:class:`~runarch_gen.runarch.decks.goals.RandomArchiveOdds`). :func:`calibrate_deck` plays
simulated games with the deck instead and sets each reward from the rate at which players'
final archives met the goal (:class:`~runarch_gen.runarch.decks.goals.MeasuredOdds`, the same reward
scale), in the games that ended by the rules; a goal never measured keeps the deck estimate.
Every player's archives are checked against every goal of the deck, not only the goals it
held, so each goal gets two measurements per game, and a goal that asks for more of the same
(``blue>=4`` against ``blue>=2``) is never measured as easier. How it was calibrated — variant,
bots, games, seed, board and the rates — is recorded in the deck (:class:`~runarch_gen.
runarch.cards.Calibration`, the ``calibration`` field of a JSON deck file). The simulation is
seeded, so the same options give the same deck whatever the number of workers.

>>> from runarch_gen.runarch.engine.sample import sample_board, sample_deck
>>> from runarch_gen.runarch.rules import parse_rules
>>> deck, report = calibrate_deck(sample_deck(), sample_board(), rules=parse_rules("complex"),
...                               bots=["greedy"], games=6, seed=1, workers=1)
>>> deck.calibration.games, deck.calibration.variant, len(report.changes) > 0
(6, 'complex', True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from runarch_gen.runarch.analysis.simulation import SimulationReport, simulate
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.decks.cards import Calibration, Deck
from runarch_gen.runarch.decks.goals import MeasuredOdds, RandomArchiveOdds, reward_deck
from runarch_gen.runarch.rules import RulesConfig

__all__ = ["CalibrationReport", "GoalChange", "calibrate_deck"]


@dataclass(frozen=True, slots=True)
class GoalChange:
    """One goal's reward before and after calibration, and the rate it was set from
    (``None`` when no game measured it: the estimate from the deck stayed)."""

    goal: str
    before: int
    after: int
    met: int
    players: int

    @property
    def rate(self) -> float | None:
        return self.met / self.players if self.players else None


@dataclass(frozen=True, slots=True)
class CalibrationReport:
    calibration: Calibration
    changes: tuple[GoalChange, ...]
    simulation: SimulationReport

    def lines(self) -> list[str]:
        c = self.calibration
        sim = self.simulation
        lines = [
            f"calibrated from {sim.games} games of {c.variant} between {', '.join(c.bots)},"
            f" seed {c.seed}, board {c.board}: {sim.games - sim.stalls} ended by the rules,"
            f" {sim.stalls} stalled ({sim.deadlocks} deadlocked)"
        ]
        for change in self.changes:
            rate = "not measured" if change.rate is None else f"met {100 * change.rate:.1f} %"
            lines.append(f"  {change.goal:<28} {rate:<16} reward {change.before} -> {change.after}")
        return lines

    def to_json(self) -> dict[str, Any]:
        c = self.calibration
        return {
            "variant": c.variant,
            "bots": list(c.bots),
            "games": c.games,
            "seed": c.seed,
            "board": c.board,
            "finished_games": self.simulation.games - self.simulation.stalls,
            "stalls": self.simulation.stalls,
            "deadlocks": self.simulation.deadlocks,
            "goals": [
                {
                    "goal": ch.goal,
                    "met": ch.met,
                    "players": ch.players,
                    "rate": None if ch.rate is None else round(ch.rate, 4),
                    "reward_before": ch.before,
                    "reward_after": ch.after,
                }
                for ch in self.changes
            ],
        }


def calibrate_deck(
    deck: Deck,
    board: Board,
    *,
    rules: RulesConfig,
    bots: Sequence[str],
    games: int,
    seed: int,
    board_source: str = "given",
    workers: int | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> tuple[Deck, CalibrationReport]:
    """``deck`` with its goal rewards set from ``games`` simulated games of ``rules`` on
    ``board`` between ``bots`` (see the module docstring), and the report."""
    report = simulate(
        rules=rules,
        board=board,
        deck=deck,
        bots=bots,
        games=games,
        seed=seed,
        workers=workers,
        on_progress=on_progress,
    )
    measured = {row["goal"]: row["met"] for row in report.goals() if row["met"].total}
    odds = MeasuredOdds(
        {goal: rate.rate for goal, rate in measured.items()}, RandomArchiveOdds.from_deck(deck)
    )
    calibrated = reward_deck(deck, odds)
    calibration = Calibration(
        variant=str(rules),
        bots=tuple(report.bots),
        games=report.games,
        seed=seed,
        board=board_source,
        rates=tuple((goal, rate.count, rate.total) for goal, rate in sorted(measured.items())),
    )
    before = {card.goal.text: card.goal.reward for card in deck}
    after = {card.goal.text: card.goal.reward for card in calibrated}
    changes = tuple(
        GoalChange(
            goal,
            before[goal],
            after[goal],
            measured[goal].count if goal in measured else 0,
            measured[goal].total if goal in measured else 0,
        )
        for goal in sorted(before)
    )
    return replace(calibrated, calibration=calibration), CalibrationReport(
        calibration, changes, report
    )
