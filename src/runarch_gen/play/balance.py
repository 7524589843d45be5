"""Balance findings from simulated games — the one statistics path every game's findings go
through — and a search for the change of the rules that brings a finding closest to fair
(game-agnostic).

**Families and tests.** A *family* is a set of tests of one question: the seats (is any seat
in the order of play better than a fair share?), the bots, the values of a per-seat feature
(Malacca's characters), a game's own questions (Bluff's star fields, Vrhcáby's gammons …).
Each :class:`Comparison` gives an effect size with its 95 % interval (for a share: the win rate
minus the fair share, in points) and a two-sided p-value. :func:`judge` corrects the p-values
of one family for the number of tests it makes with Holm's step-down method (the chance of
*any* false finding in the family stays below :data:`SIGNIFICANCE`, whatever the tests'
dependence) and gives each test one of two levels:

- a **finding**: significant after the correction *and* past the family's margin (by default
  :data:`MARGIN`, five points off the fair share);
- a **note**: significant after the correction but within the margin — real, but small.

Every finding and note names the games needed to confirm it: how many games the same test
needs to find an effect of the size measured, at the corrected level, 19 times in 20
(:data:`CONFIRM_POWER`).

**Facts** need no test: a proven deadlock, a goal never met. :func:`fact` makes a finding
(or a note below the margin) of a count with its interval.

The families every game has (:func:`common_findings`): ``seat`` (each position in the order
of play, from the side that moved first), ``bot`` (each bot's win rate per seat, when
different bots play), ``solo`` (the player against a non-player side such as an automa: a
one-sided game), each per-seat text statistic as a family of its values, and the endings:
``deadlock`` (games proven unable to end — a fault of the rules) apart from ``stall``
(games the limit ended: the bots could not finish them, or the game cannot be finished).

>>> from runarch_gen.play.report import GameResult
>>> games = [GameResult(i, ("a", "a"), 0, 10, "end", False, (0,), (5.0, 3.0), (1.0, -1.0))
...          for i in range(40)]
>>> [(f.kind, f.level) for f in common_findings(games, ("white", "black"))]
[('seat', 'finding')]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from runarch_gen.play.stats import (
    Estimate,
    excess_test,
    games_needed,
    games_needed_mean,
    holm,
    proportion,
    wilson_interval,
)

__all__ = [
    "CONFIRM_POWER",
    "FINDING",
    "MARGIN",
    "NOTE",
    "RATE_MARGIN",
    "SIGNIFICANCE",
    "SOLO_MARGIN",
    "Comparison",
    "Finding",
    "Suggestion",
    "balance_findings",
    "bot_tests",
    "common_findings",
    "ending_findings",
    "fact",
    "judge",
    "seat_tests",
    "share_test",
    "solo_tests",
    "suggest",
    "value_tests",
]

SIGNIFICANCE = 0.01
"""The family-wise error rate: after Holm's correction a test counts when its adjusted
p-value is below this (so a family of fair figures raises a false finding once in a hundred
validations)."""
MARGIN = 0.05
"""How far from a fair share a rate must be to be a finding rather than a note (5 points)."""
SOLO_MARGIN = 0.3
"""How far from even a solo game's win rate must be to be one-sided (outside 20–80 %)."""
RATE_MARGIN = 0.01
"""Deadlocks or stalls in this share of the games or more make a finding; fewer, a note."""
CONFIRM_POWER = 0.95
"""The power with which :attr:`Finding.confirm_games` games find the effect measured."""

FINDING = "finding"
NOTE = "note"


# ---------------------------------------------------------------------------------------------
# Findings


@dataclass(frozen=True, slots=True)
class Finding:
    """A balance finding or note: its family (``kind``), what it is about (``subject``), a
    line for people, the figure a fix must bring back (``measure``: the first player's rate,
    the top side's rate …, and ``fair``, where it should be), the effect with its interval,
    the p-value before and after the family's correction, and the games that would confirm
    it. ``evidence`` holds the counts behind it (JSON-ready)."""

    kind: str
    headline: str
    measure: float
    subject: str = ""
    evidence: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    level: str = FINDING
    effect: Estimate | None = field(default=None, compare=False)
    p_value: float | None = field(default=None, compare=False)
    p_adjusted: float | None = field(default=None, compare=False)
    tests: int = field(default=1, compare=False)
    margin: float | None = field(default=None, compare=False)
    fair: float | None = field(default=None, compare=False)
    games: int = field(default=0, compare=False)
    confirm_games: int | None = field(default=None, compare=False)
    unit: str = field(default="points", compare=False)
    """The effect's unit: ``points`` (a difference of shares, shown ×100), or the figure's
    own (``silver``, ``index``)."""

    @property
    def is_finding(self) -> bool:
        return self.level == FINDING

    def figures(self, lang: str = "en") -> str:
        """``effect +10.4 points (4.2–16.3); p = 0.0012, 0.0048 after Holm over 4 tests;
        confirm with 420 games`` (in ``lang``: en or cs)"""
        from runarch_gen.play.words import unit, word

        parts = []
        if self.effect is not None:
            if self.unit == "points":
                effect = self.effect.text(points=True, signed=True)
                parts.append(word(lang, "effect_points", effect=effect))
            elif self.unit == "share":
                pass  # a fact: its rate and interval are in the headline
            else:
                effect = self.effect.text(signed=True)
                parts.append(
                    word(lang, "effect", effect=effect, unit=unit(lang, self.unit)).rstrip()
                )
        if self.p_value is not None:
            p = f"p = {self.p_value:.2g}"
            if self.tests > 1 and self.p_adjusted is not None:
                p += word(lang, "holm", p=f"{self.p_adjusted:.2g}", tests=self.tests)
            parts.append(p)
        if self.confirm_games is not None:
            if self.confirm_games <= self.games:
                parts.append(word(lang, "suffice", games=self.games))
            else:
                games = f"{self.confirm_games:,}"
                parts.append(
                    word(
                        lang,
                        "confirm",
                        games=games.replace(",", "\u00a0") if lang == "cs" else games,
                    )
                )
        return "; ".join(parts)

    def text(self) -> str:
        figures = self.figures()
        return f"{self.headline} [{figures}]" if figures else self.headline

    def to_json(self) -> dict[str, Any]:
        def r(x: float | None, digits: int = 6) -> float | None:
            return None if x is None else round(x, digits)

        return {
            "kind": self.kind,
            "level": self.level,
            "subject": self.subject,
            "headline": self.headline,
            "measure": round(self.measure, 4),
            "fair": r(self.fair, 4),
            "effect": None if self.effect is None else {**self.effect.to_json(), "unit": self.unit},
            "p_value": r(self.p_value),
            "p_adjusted": r(self.p_adjusted),
            "tests": self.tests,
            "correction": "holm" if self.p_value is not None else None,
            "margin": r(self.margin, 4),
            "games": self.games,
            "confirm_games": self.confirm_games,
            "evidence": dict(self.evidence),
        }


@dataclass(frozen=True, slots=True)
class Comparison:
    """One test of a family before the correction: the effect (for a share, the rate minus
    ``fair``) with its interval, the p-value, ``measure`` (the rate itself) and the
    ``trials`` it rests on out of ``games``; ``describe`` says what was seen, for the
    headline; ``margin`` overrides the family's."""

    kind: str
    subject: str
    describe: str
    effect: Estimate
    p_value: float
    measure: float
    fair: float
    trials: int
    games: int
    evidence: Mapping[str, Any] = field(default_factory=dict)
    margin: float | None = None
    unit: str = "points"
    sd: float | None = None
    """For a test of a mean: the sample's standard deviation per trial (the games needed to
    confirm it are then those of a t-test)."""


def judge(
    tests: Sequence[Comparison], *, alpha: float = SIGNIFICANCE, margin: float = MARGIN
) -> list[Finding]:
    """The findings and notes of one family of ``tests``: Holm's adjusted p-values, then a
    finding where the adjusted p-value is below ``alpha`` and the effect is at least the margin
    (the test's own, else ``margin``) away from none, a note where it is significant but
    smaller. Each names the games that would confirm it (:data:`CONFIRM_POWER`)."""
    if not tests:
        return []
    adjusted = holm([t.p_value for t in tests])
    out: list[Finding] = []
    m = len(tests)
    for test, p_adj in zip(tests, adjusted, strict=True):
        if p_adj >= alpha:
            continue
        limit = test.margin if test.margin is not None else margin
        level = FINDING if abs(test.effect.value) >= limit else NOTE
        out.append(
            Finding(
                test.kind,
                test.describe,
                test.measure,
                test.subject,
                test.evidence,
                level,
                test.effect,
                test.p_value,
                p_adj,
                m,
                limit,
                test.fair,
                test.games,
                confirm_games(test, alpha / m),
                test.unit,
            )
        )
    return out


def confirm_games(test: Comparison, alpha: float) -> int | None:
    """The games at which ``test`` is significant at ``alpha`` with :data:`CONFIRM_POWER`, if
    the true effect is as small as the near end of its 95 % interval (a significant effect is
    measured a little large: it was chosen for being large); trials are scaled to games as in
    the games played."""
    effect = test.effect
    near = effect.value
    if effect.low is not None and effect.high is not None:
        bound = effect.low if effect.value > 0 else effect.high
        if (bound > 0) == (effect.value > 0) and bound != 0:
            near = bound
    if test.sd is not None:
        needed = games_needed_mean(near, test.sd, alpha, CONFIRM_POWER)
    else:
        needed = games_needed(test.fair + near, test.fair, alpha, CONFIRM_POWER)
    if needed is None or not test.trials:
        return None
    return math.ceil(needed * test.games / test.trials)


def fact(
    kind: str,
    subject: str,
    describe: str,
    count: int,
    total: int,
    *,
    margin: float,
    evidence: Mapping[str, Any] | None = None,
) -> Finding | None:
    """A finding of something seen ``count`` times in ``total`` that needs no test (a proven
    deadlock, a goal never met): a finding at a rate of ``margin`` or more, a note below it,
    nothing when it was never seen."""
    if not count or not total:
        return None
    share = proportion(count, total)
    effect = Estimate(share.rate, share.low, share.high, total)
    return Finding(
        kind,
        describe,
        share.rate,
        subject,
        dict(evidence or {}),
        FINDING if share.rate >= margin else NOTE,
        effect,
        margin=margin,
        fair=0.0,
        games=total,
        unit="share",
    )


# ---------------------------------------------------------------------------------------------
# The families every game has


def _players(games: Sequence[Any], sides: Sequence[str], exclude: Sequence[str]) -> int:
    """The sides that take decisions: every side but the non-player ones (an automa)."""
    excluded = set(exclude)
    if not games:
        return len(sides)
    return sum(1 for side in range(len(sides)) if games[0].bots[side] not in excluded)


def _sole(g: Any) -> int | None:
    return g.winners[0] if len(g.winners) == 1 else None


def share_test(
    kind: str,
    subject: str,
    wins: int,
    seats: int,
    chances: Sequence[float],
    fair: float,
    games: int,
    what: str,
    *,
    margin: float | None = None,
    evidence: Mapping[str, Any] | None = None,
    unit: str = "seats",
) -> Comparison:
    """The test that a subject's ``wins`` in ``seats`` seats (over games a side won alone) are
    a fair share: ``chances`` are its fair chance of the win in each such game (its seats ÷
    the players), tested as a Poisson-binomial count; the effect is the win rate per seat minus
    ``fair`` with the Wilson interval (a little wide when the subject holds several seats of a
    game, whose wins exclude each other)."""
    interval = wilson_interval(wins, seats)
    rate = wins / seats if seats else 0.0
    effect = Estimate(rate - fair, interval.low - fair, interval.high - fair, seats)
    text = proportion(wins, seats).text()
    return Comparison(
        kind,
        subject,
        f"{what} won {text} of {seats} {unit} won alone (fair {fair:.0%})"
        if unit == "games"
        else f"{what} won {text} of {seats} {unit} in games won alone (fair {fair:.0%})",
        effect,
        excess_test(wins, chances),
        rate,
        fair,
        seats,
        games,
        {"wins": wins, "seats": seats, "fair": round(fair, 4), **(evidence or {})},
        margin,
    )


def seat_tests(
    games: Sequence[Any], sides: Sequence[str], exclude: Sequence[str] = ()
) -> list[Comparison]:
    """The ``seat`` family: each position in the order of play (0 the side that moved first)
    against a fair share of the games won by one player alone; with two players the first
    player only (the second's rate is its complement)."""
    n = _players(games, sides, exclude)
    if n < 2:
        return []
    decided = [g for g in games if (w := _sole(g)) is not None and w < n]
    if not decided:
        return []
    wins = [0] * n
    for g in decided:
        winner = _sole(g)
        assert winner is not None
        wins[(winner - g.first) % n] += 1
    fair = 1 / n
    out = []
    for position in range(1 if n == 2 else n):
        what = (
            ("the first player" if position == 0 else f"position {position + 1}")
            if n > 2
            else "the first player"
        )
        out.append(
            share_test(
                "seat",
                "first" if position == 0 else f"position {position + 1}",
                wins[position],
                len(decided),
                [fair] * len(decided),
                fair,
                len(games),
                what,
                evidence={"position": position + 1, "decided": len(decided)},
                unit="games",
            )
        )
    return out


def bot_tests(
    games: Sequence[Any], sides: Sequence[str], exclude: Sequence[str] = ()
) -> list[Comparison]:
    """The ``bot`` family: with two or more different bots among the players, each bot's wins
    per seat against its fair share (with two bots, one test: the other's is its complement)."""
    n = _players(games, sides, exclude)
    names = sorted({g.bots[s] for g in games for s in range(n)})
    if len(names) < 2:
        return []
    tests = []
    for name in names:
        wins = seats = 0
        chances: list[float] = []
        for g in games:
            winner = _sole(g)
            if winner is None or winner >= n:
                continue
            held = sum(1 for s in range(n) if g.bots[s] == name)
            if not held or held == n:
                continue
            seats += held
            chances.append(held / n)
            wins += g.bots[winner] == name
        if seats:
            tests.append(
                share_test("bot", name, wins, seats, chances, 1 / n, len(games), f"bot {name}")
            )
    return _one_of_two(tests)


def _one_of_two(tests: list[Comparison]) -> list[Comparison]:
    # Two subjects share the seats: the second's test repeats the first's. Keep the one with
    # the higher rate, so that a finding names the side with the edge.
    if len(tests) != 2:
        return tests
    return [max(tests, key=lambda t: (t.measure, t.subject == min(x.subject for x in tests)))]


def value_tests(
    games: Sequence[Any],
    sides: Sequence[str],
    key: str,
    exclude: Sequence[str] = (),
    *,
    margin: float | None = None,
) -> list[Comparison]:
    """The family of a per-seat text statistic ``key`` (a character, a colour): each value's
    wins per seat against its fair share, in games won by one player alone."""
    n = _players(games, sides, exclude)
    if n < 2:
        return []
    per: dict[str, tuple[int, int, list[float]]] = {}
    for g in games:
        winner = _sole(g)
        if winner is None or winner >= n:
            continue
        values = dict(g.statistics).get(key)
        if not isinstance(values, tuple) or len(values) < n:
            continue
        held: dict[str, int] = {}
        for s in range(n):
            held[str(values[s])] = held.get(str(values[s]), 0) + 1
        for value, count in held.items():
            if count == n:
                continue
            wins, seats, chances = per.setdefault(value, (0, 0, []))
            chances.append(count / n)
            per[value] = (wins + (str(values[winner]) == value), seats + count, chances)
    if len(per) < 2:
        return []
    return _one_of_two(
        [
            share_test(
                key,
                value,
                wins,
                seats,
                chances,
                1 / n,
                len(games),
                f"{key} {value}",
                margin=margin,
            )
            for value, (wins, seats, chances) in sorted(per.items())
        ]
    )


def solo_tests(
    games: Sequence[Any], sides: Sequence[str], exclude: Sequence[str] = ()
) -> list[Comparison]:
    """The ``solo`` family: a player against a non-player side (an automa) should win about
    half the games; one-sided beyond :data:`SOLO_MARGIN`."""
    n = _players(games, sides, exclude)
    if n != 1 or len(sides) < 2 or not games:
        return []
    wins = sum(1 for g in games if _sole(g) == 0)
    total = len(games)
    return [
        share_test(
            "solo",
            sides[0],
            wins,
            total,
            [0.5] * total,
            0.5,
            total,
            f"the {sides[0]} against the {', '.join(sides[1:])}",
            margin=SOLO_MARGIN,
            unit="games",
        )
    ]


def _deadlocked(g: Any) -> bool:
    return bool(getattr(g, "deadlocked", False))


def ending_findings(games: Sequence[Any], *, margin: float = RATE_MARGIN) -> list[Finding]:
    """``deadlock`` (games proven unable to end: a fault of the rules) and ``stall`` (games a
    limit ended without such a proof: the bots could not finish them, or the game cannot be
    finished) as facts with their rates."""
    n = len(games)
    deadlocks = sum(_deadlocked(g) for g in games)
    stalls = sum(bool(g.stalled) and not _deadlocked(g) for g in games)
    dead = fact(
        "deadlock",
        "deadlock",
        f"{proportion(deadlocks, n).text()} of the games could not end ({deadlocks} of {n}"
        " proven deadlocks: a fault of the rules)",
        deadlocks,
        n,
        margin=margin,
        evidence={"deadlocks": deadlocks, "games": n},
    )
    stall = fact(
        "stall",
        "stall",
        f"{proportion(stalls, n).text()} of the games stalled ({stalls} of {n} ended by the"
        " limit without a proven deadlock: the bots could not finish them)",
        stalls,
        n,
        margin=margin,
        evidence={"stalls": stalls, "games": n},
    )
    return [f for f in (dead, stall) if f is not None]


def per_seat_keys(games: Sequence[Any]) -> list[str]:
    """The per-seat text statistics of ``games`` (one text per side: a character …)."""
    return sorted(
        {
            name
            for g in games
            for name, value in getattr(g, "statistics", ())
            if isinstance(value, tuple) and value and all(isinstance(v, str) for v in value)
        }
    )


def common_findings(
    games: Sequence[Any],
    sides: Sequence[str],
    *,
    exclude: Sequence[str] = (),
    values: Iterable[str] | None = None,
    margin: float = MARGIN,
    alpha: float = SIGNIFICANCE,
) -> list[Finding]:
    """The families every game has: ``seat``, ``bot``, ``solo``, one family per per-seat text
    statistic named in ``values`` (default: every one), and the endings — each family
    corrected apart (:func:`judge`); findings first, then notes, in family order."""
    keys = per_seat_keys(games) if values is None else list(values)
    families = [
        seat_tests(games, sides, exclude),
        bot_tests(games, sides, exclude),
        solo_tests(games, sides, exclude),
        *(value_tests(games, sides, key, exclude) for key in keys),
    ]
    out = [f for tests in families for f in judge(tests, alpha=alpha, margin=margin)]
    out += ending_findings(games)
    return order(out)


def order(findings: Iterable[Finding]) -> list[Finding]:
    """Findings before notes, each in the order given."""
    listed = list(findings)
    return [f for f in listed if f.is_finding] + [f for f in listed if not f.is_finding]


def balance_findings(
    games: Sequence[Any],
    sides: Sequence[str],
    *,
    values: Mapping[str, Any] | None = None,
    stall_tolerance: float = 0.0,
    exclude: Sequence[str] = (),
) -> list[Finding]:
    """The findings (not the notes) of :func:`common_findings`, for older callers: ``values``
    names the per-seat statistics to test (its keys); ``stall_tolerance`` is no longer read
    (the verdict judges stalls)."""
    del stall_tolerance
    keys = None if values is None else list(values)
    return [f for f in common_findings(games, sides, exclude=exclude, values=keys) if f.is_finding]


# ---------------------------------------------------------------------------------------------
# Suggestions


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The change that brings a finding's measure closest to fair among those tried, with the
    figures before and after it; ``change`` is empty when none improves on the rules as they
    are. ``tried`` lists every change tried with its figure (the whole ladder of levels, for
    an automa)."""

    finding: Finding
    change: Mapping[str, str]
    before: float
    after: float | None
    games: int
    tried: tuple[tuple[str, float], ...] = ()
    target: float | None = None
    gone: bool = False

    @property
    def found(self) -> bool:
        return bool(self.change)

    def text(self, tried_too: bool = True) -> str:
        """One line: the change with its figures before and after (and, with ``tried_too``,
        every change tried with its figure)."""
        tried = ", ".join(f"{c} {m:.1%}" for c, m in self.tried) or "nothing"
        if not self.found:
            return f"no change tried comes closer to fair: {tried}"
        change = ", ".join(f"{k}={v}" for k, v in self.change.items())
        assert self.after is not None
        aim = f" (aim {self.target:.0%})" if self.target is not None else ""
        status = "" if self.gone else "; the finding remains"
        also = f"; tried {tried}" if tried_too else ""
        return (
            f"change {change}: {self.before:.1%} → {self.after:.1%}{aim}"
            f" over {self.games} simulated games{status}{also}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "finding": self.finding.to_json(),
            "change": dict(self.change),
            "before": round(self.before, 4),
            "after": None if self.after is None else round(self.after, 4),
            "target": None if self.target is None else round(self.target, 4),
            "finding_gone": self.gone,
            "games": self.games,
            "tried": [{"change": c, "measure": round(m, 4)} for c, m in self.tried],
        }


def target_of(finding: Finding) -> float:
    """Where a finding's measure would be fair: the fair share, or none at all for deadlocks,
    stalls and other facts."""
    return finding.fair if finding.fair is not None else 0.0


def closest(
    finding: Finding,
    measured: Sequence[tuple[Mapping[str, str], float, int, bool]],
) -> Suggestion:
    """Of the changes ``measured`` — (change, its measure, games, whether the finding is
    gone), smallest change first — the one whose measure is nearest the finding's target, if
    it comes nearer than the rules as they are (ties: the smaller change)."""
    target = target_of(finding)
    tried = tuple((_label(change), measure) for change, measure, _, _ in measured)
    best = None
    for index, (_, measure, _, _) in enumerate(measured):
        if best is None or abs(measure - target) < abs(measured[best][1] - target) - 1e-12:
            best = index
    if best is None or abs(measured[best][1] - target) >= abs(finding.measure - target):
        return Suggestion(finding, {}, finding.measure, None, 0, tried, target)
    change, measure, games, gone = measured[best]
    return Suggestion(finding, dict(change), finding.measure, measure, games, tried, target, gone)


def _label(change: Mapping[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in change.items())


def suggest(
    finding: Finding,
    candidates: Iterable[Mapping[str, str]],
    simulate: Callable[[Mapping[str, str]], Any],
    sides: Sequence[str],
    *,
    measure: Callable[[Finding, Any], float] | None = None,
    findings: Callable[[Any], Sequence[Finding]] | None = None,
    stall_tolerance: float = 0.0,
) -> Suggestion:
    """Play every candidate change (``simulate(change)`` returns a report with ``results``,
    ``sides`` and ``exclude``) and return the one that brings ``finding``'s measure closest to
    fair (:func:`closest`), with every figure tried. ``measure(finding, report)`` reads the
    figure (default: :func:`measure_of`); ``findings(report)`` lists what a report finds
    (default: :func:`common_findings`), to say whether the finding is gone."""
    del sides, stall_tolerance
    read = measure or measure_of
    measured = []
    for change in candidates:
        played = simulate(change)
        found = (
            findings(played)
            if findings is not None
            else common_findings(
                played.results, played.sides, exclude=getattr(played, "exclude", ())
            )
        )
        gone = not any(
            f.kind == finding.kind and f.subject == finding.subject and f.is_finding for f in found
        )
        measured.append((dict(change), read(finding, played), len(played.results), gone))
    return closest(finding, measured)


def measure_of(finding: Finding, played: Any) -> float:
    """The figure of ``finding``'s kind and subject in a report's games (``results``,
    ``sides``, ``exclude``)."""
    games = played.results
    sides = played.sides
    exclude = getattr(played, "exclude", ())
    if finding.kind in ("deadlock", "stall"):
        for f in ending_findings(games, margin=2.0):
            if f.kind == finding.kind:
                return f.measure
        return 0.0
    family = {
        "seat": lambda: seat_tests(games, sides, exclude),
        "bot": lambda: bot_tests(games, sides, exclude),
        "solo": lambda: solo_tests(games, sides, exclude),
    }.get(finding.kind, lambda: value_tests(games, sides, finding.kind, exclude))()
    for test in family:
        if test.subject == finding.subject:
            return test.measure
    return float("nan")
