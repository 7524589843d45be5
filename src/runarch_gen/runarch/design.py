"""RunArch's verdicts: its ladder of bots, the line-up ``validate`` plays and its standing (see
:mod:`runarch_gen.play.design`). Its own findings — goals never met and the bonus tokens'
deadlocks — are made by :mod:`runarch_gen.runarch.validation.balance`, where the deck and the
token analysis are at hand.

- **Ladder**: ``random`` < ``greedy`` < ``lookahead`` (``bench/bench_ladder.py`` ranks each
  against the next).
- **Line-up**: ``greedy`` in both seats (the solo game: against the automa). ``lookahead``, the
  top, plays about 14 complex games a second against itself, so 300 games of each of three
  variants would take about half a minute on two cores (``--bots lookahead`` plays it).
- **Standing**: each side's points — cards during the game, the final score at the end — over
  100 (the simple game: over its target).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from runarch_gen.play.design import Design, register_design

__all__ = ["DESIGN", "LINEUP", "NAME", "standing", "turn"]

NAME = "runarch"
"""The game's short name, under which its design is registered."""

LINEUP: tuple[str, ...] = ("greedy",)
"""The bots of the default dynamic check (one name plays both seats)."""

POINTS = 100.0
"""The points a standing of 1 stands for in the complex and solo games (about a winner's)."""


def standing(state: Any) -> tuple[float, ...]:
    """Each side's points over 100 (over the target in the simple game); at the end, the
    final scores (bets, goals and the best-card duel included)."""
    config = state.game.config
    scale = float(config.target) if not config.has_archives else POINTS
    outcome = state.outcome() if state.is_terminal() else None
    totals = outcome.totals if outcome is not None else state.totals
    return (totals[0] / scale, totals[1] / scale)


def turn(state: Any) -> int:
    """Completed turns, the automa's included."""
    return int(state.turn)


def _lineup(values: Mapping[str, Any]) -> tuple[str, ...]:
    del values
    return LINEUP


DESIGN = register_design(
    NAME,
    Design(
        ladder=("random", "greedy", "lookahead"),
        lineup=_lineup,
        lineup_note="lookahead, the top, plays about 14 complex games a second against itself:"
        " 300 games of each variant do not fit the default run (--bots lookahead plays it)",
        standing=standing,
        standing_note="each side's points over 100 (the simple game: over its target)",
        turn=turn,
    ),
)
