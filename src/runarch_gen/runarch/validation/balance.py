"""Balance findings of a set's simulated games, and the smallest change of the rules that
removes one, tried by simulation (``runarch-gen validate --suggest``).

A balance finding does not make a set unplayable; it is what a designer wants to know next.
Beside the generic findings of :mod:`runarch_gen.play.balance` (a seat edge, one side that wins
almost every game, a bot that wins significantly more often than the other) RunArch adds:

- ``deadlock``: more than :data:`DEADLOCK_SHARE` of the simulated games were proven unable to
  end (the token analysis of :mod:`~runarch_gen.runarch.analysis.token_analysis` explains the
  usual cause; archives that refuse every card in hand [R-11] are a rarer one);
- ``goals``: goals of the deck that no player's archives met in any game that ended.

:func:`candidates` lists the changes worth trying against a finding, smallest first: the
bonus-token values (for a deadlock, only sets the token analysis proves free of deadlocks),
the automa's level [R-28] (for a one-sided solo game), rules options with few values (for a
seat edge). :func:`find_fix` simulates them in turn with the same bots, games and seed, and
returns the first after which the finding is gone, with the figures before and after.

>>> from runarch_gen.runarch.engine.sample import sample_board, sample_deck
>>> from runarch_gen.runarch.rules import parse_rules
>>> finding = Finding("deadlock", "games could not end", 0.1, "deadlock")
>>> for rules in candidates(parse_rules("complex"), finding, sample_board(), sample_deck().cards):
...     print(rules)
complex(tokens="D5/6/7 X7/8/9 F8/9/10 N11/12/13")
complex(tokens="D5/6/7 X7/8/9 F9/10 N11/12/13")
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from runarch_gen.play.balance import Finding, Suggestion, balance_findings
from runarch_gen.play.stats import proportion
from runarch_gen.runarch.analysis.token_analysis import token_candidates
from runarch_gen.runarch.engine.tokens import load_tokens
from runarch_gen.runarch.rules import LineDirection, MatchBonus, RulesConfig, Variant

if TYPE_CHECKING:
    from runarch_gen.runarch.analysis.simulation import SimulationReport
    from runarch_gen.runarch.boards.board import Board
    from runarch_gen.runarch.decks.cards import Card

__all__ = [
    "DEADLOCK_SHARE",
    "GOAL_EVIDENCE",
    "BalanceNote",
    "candidates",
    "changed_options",
    "find_fix",
    "run_findings",
]

GOAL_EVIDENCE = 100
"""A goal counts as never met only after this many players' archives were judged against it."""
DEADLOCK_SHARE = 0.01
"""Deadlocks in more than this share of the games make a finding."""

AUTOMA_LEVELS = range(1, 6)


@dataclass(frozen=True, slots=True)
class BalanceNote:
    """A balance finding of one variant's simulated games, and what ``--suggest`` found."""

    rules: str
    finding: Finding
    suggestion: Suggestion | None = None
    fixed: str | None = None  # the rules string with the change, when one was found

    def lines(self) -> list[str]:
        out = [f"{self.rules}: {self.finding.kind}: {self.finding.headline}"]
        if self.suggestion is not None:
            out.append(f"  suggestion: {self.suggestion.text()}")
            if self.fixed is not None:
                out.append(f"  as a variant in a kit: runarch-gen kit --variant '{self.fixed}'")
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            **self.finding.to_json(),
            "suggestion": None if self.suggestion is None else self.suggestion.to_json(),
            "fixed_rules": self.fixed,
        }


# ---------------------------------------------------------------------------------------------
# Findings


def run_findings(result: SimulationReport, *, goals: bool = True) -> list[Finding]:
    """The balance findings of one variant's simulated games (stalls apart: the verdict judges
    them, and deadlocks are their own kind here); ``goals=False`` for a game without goals."""
    solo = result.sides[1] == "automa"
    bots = {name for g in result.summaries for name in g.bots if name != "automa"}
    values = None
    if not solo and len(bots) > 1:
        values = {"bot": result.wins_by_bot()}
    out = [
        f
        for f in balance_findings(result.summaries, result.sides, values=values, stall_tolerance=1)
        if f.kind != "stalls"
    ]
    if result.deadlocks > DEADLOCK_SHARE * result.games:
        share = proportion(result.deadlocks, result.games)
        out.append(
            Finding(
                "deadlock",
                f"{share.text()} of the games could not end ({result.deadlocks} of"
                f" {result.games} proven deadlocks)",
                share.rate,
                "deadlock",
                {"deadlocks": result.deadlocks, "games": result.games, "rate": share.to_json()},
            )
        )
    never = [
        entry
        for entry in (result.goals() if goals else [])
        if entry["met"].total >= GOAL_EVIDENCE and entry["met"].count == 0
    ]
    if never:
        players = never[0]["met"].total
        listed = "; ".join(
            f"{entry['goal']} (card {', '.join(map(str, entry['cards']))})" for entry in never[:6]
        )
        more = f" and {len(never) - 6} more" if len(never) > 6 else ""
        out.append(
            Finding(
                "goals",
                f"{len(never)} of {len(result.deck_goals)} goals were met by no player's archives"
                f" in {players} (players × finished games): {listed}{more} — a matter of the"
                " deck (runarch-gen deck --calibrate), not of the rules",
                len(never) / max(1, len(result.deck_goals)),
                "never met",
                {"goals": [entry["goal"] for entry in never], "players": players},
            )
        )
    return out


def _same(finding: Finding, result: SimulationReport) -> bool:
    """Whether ``finding`` is still there in ``result``'s games."""
    return any(
        f.kind == finding.kind and f.subject == finding.subject for f in run_findings(result)
    )


def _measure(finding: Finding, result: SimulationReport) -> float:
    if finding.kind == "deadlock":
        return proportion(result.deadlocks, result.games).rate
    if finding.kind == "seat":
        return float(result.first_player()["rate_of_decided"].rate)
    if finding.kind == "one-sided":
        rates = result.wins_by_seat()
        return rates[finding.subject].rate if finding.subject in rates else 0.0
    if finding.kind == "dominant":
        row = result.wins_by_bot().get(finding.subject.partition(" ")[2])
        return float(row["win_rate"].rate) if row else 0.0
    return float("nan")


# ---------------------------------------------------------------------------------------------
# Candidate changes


def _best_scores(
    config: RulesConfig, board: Board, cards: Sequence[Card]
) -> tuple[int, int] | None:
    from runarch_gen.runarch.analysis.best_score import best_card_score

    pattern = best_card_score(
        board,
        cards,
        phase4=False,
        match_bonus=MatchBonus.OFF,
        direction=config.direction,
    )
    phase4 = best_card_score(
        board,
        cards,
        phase4=True,
        match_bonus=config.match_bonus,
        direction=config.direction,
    )
    if pattern is None or phase4 is None:
        return None
    return pattern.score, phase4.score


def candidates(
    config: RulesConfig, finding: Finding, board: Board, cards: Sequence[Card]
) -> list[RulesConfig]:
    """The rules worth trying against ``finding`` in ``config``'s games, smallest change first
    (empty when the finding is not a matter of the rules, e.g. a goal the deck makes hard or a
    bot that is simply stronger)."""
    from runarch_gen.runarch.engine.tokens import tokens_value

    if finding.kind in ("deadlock", "stalls") and config.has_archives:
        scores = _best_scores(config, board, cards)
        if scores is None:
            return []
        found = token_candidates(
            load_tokens(config.tokens), best_pattern=scores[0], best_phase4=scores[1]
        )
        return [config.with_options(tokens=tokens_value(t)) for t in found]
    if finding.kind == "one-sided" and config.variant is Variant.SOLO:
        if finding.subject == "automa":
            levels = range(config.automa - 1, AUTOMA_LEVELS.start - 1, -1)
        else:
            levels = range(config.automa + 1, AUTOMA_LEVELS.stop)
        return [config.with_options(automa=level) for level in levels]
    if finding.kind == "seat":
        out = []
        if config.has_archives:
            out.append(config.with_options(deal=4 if config.deal == 5 else 5))
        out += [
            config.with_options(match_bonus=bonus)
            for bonus in MatchBonus
            if bonus is not config.match_bonus
        ]
        out += [
            config.with_options(direction=d) for d in LineDirection if d is not config.direction
        ]
        return out
    return []


def changed_options(before: RulesConfig, after: RulesConfig) -> dict[str, str]:
    """The options ``after`` sets differently from ``before``, as the rules string writes them."""
    from runarch_gen.runarch.rules import OPTIONS

    out = {}
    for spec in OPTIONS:
        old, new = getattr(before, spec.name), getattr(after, spec.name)
        if old != new:
            out[spec.name] = str(getattr(new, "value", new))
    return out


def find_fix(
    config: RulesConfig,
    finding: Finding,
    tries: Sequence[RulesConfig],
    play: Callable[[RulesConfig], SimulationReport],
) -> tuple[Suggestion, RulesConfig | None, bool]:
    """Simulate each of ``tries`` (``play(rules)``) in turn and return the first after which
    ``finding`` is gone (for a deadlock: no game deadlocks), with the figures before and after;
    the rules found (``None`` when none); and whether a run was interrupted (the search stops)."""
    tried: list[tuple[str, float]] = []
    for rules in tries:
        result = play(rules)
        change = changed_options(config, rules)
        label = ", ".join(f"{k}={v}" for k, v in change.items())
        measure = _measure(finding, result)
        if result.interrupted:
            return Suggestion(finding, {}, finding.measure, None, 0, tuple(tried)), None, True
        if not _same(finding, result):
            suggestion = Suggestion(
                finding, change, finding.measure, measure, result.games, tuple(tried)
            )
            return suggestion, rules, False
        tried.append((label, measure))
    return Suggestion(finding, {}, finding.measure, None, 0, tuple(tried)), None, False
