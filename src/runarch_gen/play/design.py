"""What each game declares for its verdicts: its ladder of bots, the bots ``validate`` plays
by default, its standing (for the design metrics) and its own findings (game-agnostic).

A game package registers a :class:`Design` beside its game (:func:`register_design`); the
simulation runner, the findings and the metrics read it by the game's short name, never the
game's code. A game that registers none gets :data:`DEFAULT_DESIGN`'s behaviour: its first
bot by name, no standing, no findings of its own.

- ``ladder``: the bots from weakest to strongest, ``random`` at the bottom; each is ranked
  against the next (``bench/bench_ladder.py``), and the skill trace measures the line-up's
  strongest bot against the bottom of the ladder.
- ``lineup(values)``: the bots of ``validate``'s games by default — from the top of the
  ladder, mixed where self-play is degenerate — and ``lineup_note``, why, as the report says.
- ``standing(state)``: each side's progress towards winning on one scale (the metrics' lead,
  drama and decisiveness), with ``standing_note`` saying what it is.
- ``findings(report, values, replay)``: the game's own findings (a list of
  :class:`~runarch_gen.play.balance.Finding`, made with the same statistics as the common
  families).
- ``values``: the per-seat statistics tested as finding families (``None``: every one).

>>> design_of("no-such-game").lineup({}) == ()
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["DEFAULT_DESIGN", "Design", "design_of", "register_design"]


def _no_lineup(values: Mapping[str, Any]) -> tuple[str, ...]:
    del values
    return ()


@dataclass(frozen=True, slots=True)
class Design:
    """A game's declaration for its verdicts (see the module's text)."""

    ladder: tuple[str, ...] = ()
    lineup: Callable[[Mapping[str, Any]], tuple[str, ...]] = _no_lineup
    lineup_note: str = ""
    standing: Callable[[Any], Sequence[float]] | None = None
    standing_note: str = ""
    turn: Callable[[Any], int] | None = None
    """The game's count of turns, where a turn is not simply a decision by another player (see
    :func:`~runarch_gen.play.metrics.play_traced`)."""
    findings: Callable[..., list[Any]] | None = None
    """``findings(report, values, replay)``: the game's own findings; ``replay(values)`` plays
    the same games (bots, number, seed) under other parameter values, for a family that
    compares rules (``None`` where games cannot be played again)."""
    values: tuple[str, ...] | None = None
    skill_games: int = 100
    """Games of the strongest bot of the line-up against the bottom of the ladder, for the skill
    trace in ``validate``, at the most (twenty at a time until it is decisive)."""

    @property
    def bottom(self) -> str | None:
        return self.ladder[0] if self.ladder else None

    def rung(self, bot: str) -> int | None:
        """``bot``'s place on the ladder (0 the bottom), ``None`` when it is not on it."""
        return self.ladder.index(bot) if bot in self.ladder else None

    def strongest(self, bots: Sequence[str]) -> str | None:
        """The highest of ``bots`` on the ladder (``None`` when none is on it)."""
        ranked = [b for b in bots if b in self.ladder]
        return max(ranked, key=self.ladder.index) if ranked else None


DEFAULT_DESIGN = Design()

_DESIGNS: dict[str, Design] = {}


def register_design(name: str, design: Design) -> Design:
    """Register the design of game ``name`` (its short name); a second registration replaces
    the first."""
    _DESIGNS[name] = design
    return design


def design_of(name: str) -> Design:
    """The design of game ``name``, or :data:`DEFAULT_DESIGN`."""
    return _DESIGNS.get(name, DEFAULT_DESIGN)
