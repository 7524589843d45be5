"""Bots against bots: the skill trace and the ladder of a game's bots (game-agnostic).

A *pairing* plays a stronger bot in one seat against a weaker one in every other seat (the
seats turn game by game, so the stronger bot sits in each equally often) and measures the
stronger bot's **skill index** ``(n·r − 1) / (n − 1)``, ``r`` its share of the games won alone
and ``n`` the players: 0 when it does no better than a fair share, 1 when it wins every game.
In a solo game (a player against a non-player side such as an automa) each bot plays the
non-player side and the index is the difference of their win rates.

The **skill trace** of a game and variant is the pairing of the line-up's strongest bot with
the bottom of the game's ladder (``random``): how much skill gains here. It is played twenty
games at a time and stops once its interval lies wholly above the margin of the ``skill``
finding (skill plainly matters), after 100 games at the most. A **ladder** is a
game's bots from weakest to strongest; :func:`climb` pairs each with the next, and each rung
is *ranked at 95 %* when the stronger bot's index has its whole 95 % interval above 0.

>>> index, p = skill_index(150, 200, 2)
>>> round(index.value, 2), round(index.low, 3), p < 1e-10
(0.5, 0.371, True)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from runarch_gen.play.metrics import head_to_head_skill, skill_index
from runarch_gen.play.registry import Registration, Value
from runarch_gen.play.simulate import game_seed
from runarch_gen.play.stats import (
    Estimate,
    proportion,
    rate_difference,
    two_proportion_test,
)

__all__ = ["SKILL_CHUNK", "SkillRun", "climb", "head_to_head_skill", "pairing", "skill_index"]


@dataclass(frozen=True, slots=True)
class SkillRun:
    """Games of ``strong`` in one seat against ``weak`` in the others (for a solo game, each
    against the non-player side): the skill index with its 95 % interval and the p-value of
    "the stronger bot does no better"."""

    strong: str
    weak: str
    games: int
    index: Estimate
    p_value: float
    describe: str

    @property
    def ranked(self) -> bool:
        """Whether ``strong`` is stronger at 95 %: the index's interval lies above 0."""
        return self.index.low is not None and self.index.low > 0

    def to_json(self) -> dict[str, Any]:
        return {
            "strong": self.strong,
            "weak": self.weak,
            "games": self.games,
            "index": self.index.to_json(),
            "p_value": round(self.p_value, 6),
            "ranked": self.ranked,
            "describe": self.describe,
        }


SKILL_CHUNK = 20
"""Games a sequential pairing plays at a time (see :func:`pairing`'s ``stop_above``)."""


def pairing(
    registration: Registration,
    values: Mapping[str, Value],
    strong: str,
    weak: str,
    *,
    games: int,
    seed: int,
    workers: int | None = None,
    on_progress: Callable[[int], None] | None = None,
    stop_above: float | None = None,
) -> SkillRun | None:
    """Play ``games`` games of ``strong`` against ``weak`` (see the module's text); ``None``
    when they were interrupted. With ``stop_above`` the games are played
    :data:`SKILL_CHUNK` at a time, and the pairing stops as soon as the index's whole 95 %
    interval lies above that figure (skill plainly matters: more games would not change what
    the report says), at ``games`` at the most."""
    from runarch_gen.play.playtest import playtest

    players = registration.load(values).num_players
    lineups = [[strong], [weak]] if players == 1 else [[strong, *([weak] * (players - 1))]]
    done: list[list[Any]] = [[] for _ in lineups]
    chunk = SKILL_CHUNK if stop_above is not None else games
    part = 0
    while len(done[0]) < games:
        count = min(chunk, games - len(done[0]))
        for results, bots in zip(done, lineups, strict=True):
            played = playtest(
                registration,
                values,
                bots,
                games=count,
                seed=seed if part == 0 else game_seed(seed, part),
                workers=workers,
                on_progress=on_progress,
            )
            if played.interrupted:
                return None
            results.extend(played.results)
        part += 1
        run = _judged(strong, weak, players, done)
        if stop_above is not None and run.index.low is not None and run.index.low > stop_above:
            break
    return _judged(strong, weak, players, done)


def _judged(strong: str, weak: str, players: int, done: Sequence[Sequence[Any]]) -> SkillRun:
    if players == 1:  # a solo game: each bot against the non-player side
        a, b = done
        wins_a = sum(g.winners == (0,) for g in a)
        wins_b = sum(g.winners == (0,) for g in b)
        other = a[0].sides[1] if a and len(a[0].sides) > 1 else "non-player side"
        describe = (
            f"{strong} wins {proportion(wins_a, len(a)).text()} of {len(a)} games against"
            f" the {other}, {weak} {proportion(wins_b, len(b)).text()}"
        )
        return SkillRun(
            strong,
            weak,
            len(a) + len(b),
            rate_difference(wins_a, len(a), wins_b, len(b)),
            two_proportion_test(wins_a, len(a), wins_b, len(b)),
            describe,
        )
    (results,) = done
    decided = [g for g in results if len(g.winners) == 1 and g.winners[0] < players]
    wins = sum(g.bots[g.winners[0]] == strong for g in decided)
    index, p = skill_index(wins, len(decided), players)
    opponents = f"{players - 1} × {weak}" if players > 2 else weak
    describe = (
        f"{strong} against {opponents} won {proportion(wins, len(decided)).text()} of"
        f" {len(decided)} games won alone (fair {1 / players:.0%})"
    )
    return SkillRun(strong, weak, len(results), index, p, describe)


def climb(
    registration: Registration,
    values: Mapping[str, Value],
    ladder: Sequence[str],
    *,
    games: int,
    seed: int,
    workers: int | None = None,
) -> list[SkillRun]:
    """Each bot of ``ladder`` (weakest first) against the one below it, ``games`` games each
    (stops at an interruption)."""
    out = []
    for weak, strong in itertools.pairwise(ladder):
        run = pairing(registration, values, strong, weak, games=games, seed=seed, workers=workers)
        if run is None:
            break
        out.append(run)
    return out
