"""Balance findings from simulated games, with their evidence, and a search for the smallest
change of the rules that removes one (game-agnostic).

A finding is not a failure — the game can be played — but a designer wants to know it:

- ``seat``: the first player wins more (or less) often than a fair share, significantly
  (a two-sided binomial test at :data:`SIGNIFICANCE`) and by more than :data:`MARGIN`;
- ``one-sided``: one side wins almost every game (more than :data:`ONE_SIDED`), e.g. a solo
  game whose automa never wins;
- ``dominant``: a value of a per-seat feature (a character, a colour) wins significantly more
  often than the others and more than :data:`MARGIN` above a fair share;
- ``stalls``: games stall (do not end by the rules), with their rate.

:func:`suggest` tries candidate changes in the order given (smallest first), simulates each
and returns the first that removes the finding, with the figures before and after — so the
proposal is backed by the games it reports.

>>> from runarch_gen.play.report import GameResult
>>> games = [GameResult(i, ("a", "b"), 0, 10, "end", False, (0,), (5.0, 3.0), (1.0, -1.0))
...          for i in range(40)]
>>> [f.kind for f in balance_findings(games, ("white", "black"))]
['seat', 'one-sided']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from runarch_gen.play import report
from runarch_gen.play.report import PlayedGame, PlayReport
from runarch_gen.play.stats import proportion, two_proportion_test

__all__ = [
    "MARGIN",
    "ONE_SIDED",
    "SIGNIFICANCE",
    "Finding",
    "Suggestion",
    "balance_findings",
    "suggest",
]

SIGNIFICANCE = 0.01
"""The p-value below which a deviation from a fair share counts."""
MARGIN = 0.05
"""How far from a fair share a rate must be to matter (5 percentage points)."""
ONE_SIDED = 0.9
"""A side that wins more than this share of the games makes the game one-sided."""


@dataclass(frozen=True, slots=True)
class Finding:
    """A balance finding: its kind, a line for people, and the evidence (figures, JSON-ready).

    ``measure`` is the figure a fix must bring back into range (the first player's rate, the
    top side's rate …) and ``subject`` what it is about (a side, a value)."""

    kind: str
    headline: str
    measure: float
    subject: str = ""
    evidence: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "subject": self.subject,
            "headline": self.headline,
            "measure": round(self.measure, 4),
            "evidence": dict(self.evidence),
        }


def balance_findings(
    games: Sequence[PlayedGame],
    sides: Sequence[str],
    *,
    values: Mapping[str, Mapping[str, Any]] | None = None,
    stall_tolerance: float = 0.0,
) -> list[Finding]:
    """The balance findings of ``games`` (see the module's list). ``values`` are the win rates
    by a per-seat feature (:meth:`PlayReport.wins_by_value`)."""
    out: list[Finding] = []
    n = len(games)
    if not n:
        return out
    fair = 1 / len(sides)
    first = report.first_player(games, len(sides))
    decided = first["first_wins"] + first["second_wins"]
    rate = first["rate_of_decided"]
    if decided and first["p_value"] < SIGNIFICANCE and abs(rate.rate - fair) > MARGIN:
        who = "first" if rate.rate > fair else "second"
        out.append(
            Finding(
                "seat",
                f"the {who} player has an edge: the first player won {rate.text()} of the"
                f" {decided} games won alone (fair: {fair:.0%}; p = {first['p_value']:.2g})",
                rate.rate,
                who,
                {
                    "first_wins": first["first_wins"],
                    "decided": decided,
                    "rate": rate.to_json(),
                    "fair": round(fair, 4),
                    "p_value": round(first["p_value"], 6),
                },
            )
        )
    for side, share in report.wins_by_seat(games, sides).items():
        if share.low > ONE_SIDED:
            out.append(
                Finding(
                    "one-sided",
                    f"{side} wins almost every game: {share.text()} of {n}",
                    share.rate,
                    side,
                    {"wins": share.count, "games": n, "rate": share.to_json()},
                )
            )
    for key, rows in (values or {}).items():
        total_wins = sum(row["wins"] for row in rows.values())
        total_sides = sum(row["sides"] for row in rows.values())
        for value, row in rows.items():
            others_wins = total_wins - row["wins"]
            others_sides = total_sides - row["sides"]
            if not row["sides"] or not others_sides:
                continue
            p = two_proportion_test(row["wins"], row["sides"], others_wins, others_sides)
            share = row["win_rate"]
            if p < SIGNIFICANCE and share.rate > fair + MARGIN:
                out.append(
                    Finding(
                        "dominant",
                        f"{key} {value} wins {share.text()} of its {row['sides']} seats"
                        f" (fair: {fair:.0%}; p = {p:.2g} against the others)",
                        share.rate,
                        f"{key} {value}",
                        {"wins": row["wins"], "sides": row["sides"], "p_value": round(p, 6)},
                    )
                )
    stalls = sum(g.stalled for g in games)
    if stalls > stall_tolerance * n:
        share = proportion(stalls, n)
        out.append(
            Finding(
                "stalls",
                f"{share.text()} of the games stall ({stalls} of {n})",
                share.rate,
                "",
                {"stalls": stalls, "games": n, "rate": share.to_json()},
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A change that removes a finding, with the figures before and after it, or ``change``
    empty when no candidate did (``tried`` lists what was tried, with its figure)."""

    finding: Finding
    change: Mapping[str, str]
    before: float
    after: float | None
    games: int
    tried: tuple[tuple[str, float], ...] = ()

    @property
    def found(self) -> bool:
        return bool(self.change)

    def text(self) -> str:
        if not self.found:
            tried = ", ".join(f"{c} ({m:.1%})" for c, m in self.tried) or "nothing"
            return f"no change tried removes it: {tried}"
        change = ", ".join(f"{k}={v}" for k, v in self.change.items())
        return (
            f"change {change}: {self.before:.1%} → {self.after:.1%}"
            f" over {self.games} simulated games"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "finding": self.finding.to_json(),
            "change": dict(self.change),
            "before": round(self.before, 4),
            "after": None if self.after is None else round(self.after, 4),
            "games": self.games,
            "tried": [{"change": c, "measure": round(m, 4)} for c, m in self.tried],
        }


def suggest(
    finding: Finding,
    candidates: Iterable[Mapping[str, str]],
    simulate: Callable[[Mapping[str, str]], PlayReport],
    sides: Sequence[str],
    *,
    stall_tolerance: float = 0.0,
) -> Suggestion:
    """Try each candidate change (``simulate(change)`` plays games with it) in order and return
    the first after which ``finding`` is gone — no finding of its kind and subject in the new
    games, stalls judged with ``stall_tolerance`` as when it was found — with the figures
    before and after."""
    tried: list[tuple[str, float]] = []
    for change in candidates:
        played = simulate(change)
        after = [
            f
            for f in balance_findings(
                played.results,
                sides,
                values=played.wins_by_value(),
                stall_tolerance=stall_tolerance,
            )
            if f.kind == finding.kind and f.subject == finding.subject
        ]
        measure = _measure(finding, played)
        label = ", ".join(f"{k}={v}" for k, v in change.items())
        if not after:
            return Suggestion(
                finding, dict(change), finding.measure, measure, played.games, tuple(tried)
            )
        tried.append((label, measure))
    return Suggestion(finding, {}, finding.measure, None, 0, tuple(tried))


def _measure(finding: Finding, played: PlayReport) -> float:
    """The figure of ``finding``'s kind in ``played``."""
    games = played.results
    if finding.kind == "seat":
        return float(report.first_player(games, len(played.sides))["rate_of_decided"].rate)
    if finding.kind == "one-sided":
        rates = report.wins_by_seat(games, played.sides)
        return rates[finding.subject].rate if finding.subject in rates else 0.0
    if finding.kind == "stalls":
        return proportion(played.stalls, played.games).rate
    if finding.kind == "dominant":
        key, _, value = finding.subject.partition(" ")
        row = played.wins_by_value().get(key, {}).get(value)
        return float(row["win_rate"].rate) if row else 0.0
    return float("nan")
