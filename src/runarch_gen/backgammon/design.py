"""Vrhcáby's verdicts: its ladder of bots, the line-up ``validate`` plays, its standing and its
own findings — the cube and the gammons (see :mod:`runarch_gen.play.design`).

- **Ladder**: ``random`` < ``heuristic`` < ``td`` (``bench/bench_ladder.py`` ranks each
  against the next). The stronger bots by error per move against GNU Backgammon (``neural``,
  ``td2``, ``neural2``; ``docs/backgammon.md``) are not on it: head to head none is ranked above
  ``td`` at 95 % in 100 games (``td2`` won 55 %, 45–64 %; ``neural`` 59 %, 49–68 %), and they
  play about a game a second or less.
- **Line-up**: ``td``, the top of the ladder, in both seats.
- **Standing**: the race: each side's share of the pips both sides still need (the side with
  fewer pips to go leads), plus the points won in a match, over the match's length.
- **cube** [V-30]: the share of games a dropped double ends; a finding when drops end half the
  games or more (the cube then decides most games before they are played out).
- **gammons** [V-20]: in games won alone, how often the win was a gammon or a backgammon when
  the first player won against when the second did; a finding past five points (a gammon edge
  for a seat, on top of any edge in games won).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from runarch_gen.backgammon.board import pip_count
from runarch_gen.play.balance import FINDING, Comparison, Finding, fact, judge
from runarch_gen.play.design import Design
from runarch_gen.play.stats import proportion, rate_difference, two_proportion_test

__all__ = ["CUBE_MARGIN", "DESIGN", "backgammon_findings", "standing"]

CUBE_MARGIN = 0.5
"""Drops ending this share of the games or more make the ``cube`` finding."""


def standing(state: Any) -> tuple[float, ...]:
    """The race (each side's share of the pips to go, the other's pips over both), plus the
    match score, over the match's length."""
    pips = [pip_count(side) for side in state.board]
    total = sum(pips)
    race = [pips[1] / total, pips[0] / total] if total else [0.5, 0.5]
    match = state.game.rules.match
    if not match:
        return (race[0], race[1])
    return ((state.score[0] + race[0]) / match, (state.score[1] + race[1]) / match)


def _figure(g: Any, name: str) -> float:
    value = dict(g.statistics).get(name, 0.0)
    return float(value) if isinstance(value, (int, float)) else 0.0


def gammon_tests(played: Any) -> list[Comparison]:
    """The ``gammons`` family (money play, one game per session): gammons among the first
    player's wins against gammons among the second's."""
    counts = {True: [0, 0], False: [0, 0]}  # first player won → [gammons, wins]
    for g in played.results:
        if len(g.winners) != 1 or _figure(g, "games") != 1:
            continue
        gammon = _figure(g, "gammon") + _figure(g, "backgammon") > 0
        row = counts[g.winners[0] == g.first]
        row[0] += gammon
        row[1] += 1
    (a, n), (b, m) = counts[True], counts[False]
    if not n or not m:
        return []
    effect = rate_difference(a, n, b, m)
    return [
        Comparison(
            "gammons",
            "first player",
            f"the first player's wins were gammons {proportion(a, n).text()} of {n} times,"
            f" the second's {proportion(b, m).text()} of {m} [V-20]",
            effect,
            two_proportion_test(a, n, b, m),
            a / n,
            b / m,
            n,
            len(played.results),
            {"first": [a, n], "second": [b, m]},
        )
    ]


def backgammon_findings(
    played: Any, values: Mapping[str, Any], replay: Any = None
) -> list[Finding]:
    """Vrhcáby's own findings: ``cube`` and ``gammons``."""
    del values, replay
    out = judge(gammon_tests(played))
    games = len(played.results)
    dropped = sum(g.termination == "dropped" for g in played.results)
    cube = fact(
        "cube",
        "drops",
        f"dropped doubles ended {proportion(dropped, games).text()} of the games: the cube"
        " decides most games before they are played out [V-30]",
        dropped,
        games,
        margin=CUBE_MARGIN,
        evidence={"dropped": dropped, "games": games},
    )
    if cube is not None and cube.level == FINDING:
        out.append(cube)
    return out


def _lineup(values: Mapping[str, Any]) -> tuple[str, ...]:
    del values
    return ("td",)


DESIGN = Design(
    ladder=("random", "heuristic", "td"),
    lineup=_lineup,
    lineup_note="td is the top (neural, td2 and neural2 are not ranked above it head to head"
    " at 95 % in 100 games)",
    standing=standing,
    standing_note="each side's share of the pips to go, plus the match score over its length",
    findings=backgammon_findings,
)
