"""Balance findings of a set's simulated games, and the change of the rules that brings one
closest to fair, tried by simulation (``runarch-gen validate --suggest``).

A balance finding does not make a set unplayable; it is what a designer wants to know next.
RunArch's findings go through the same statistics as every game's
(:func:`runarch_gen.play.balance.common_findings`: the ``seat``, ``bot`` and ``solo`` families
corrected with Holm, findings and notes, ``deadlock`` apart from ``stall``), and RunArch adds
its own:

- ``deadlock`` (the bonus tokens): games proven unable to end — the token analysis of
  :mod:`~runarch_gen.runarch.analysis.token_analysis` explains the usual cause, archives that
  refuse every card in hand [R-11] a rarer one; a finding from :data:`DEADLOCK_SHARE` of the
  games;
- ``goals``: goals of the deck that no player's archives met in any game that ended.

:func:`candidates` lists the changes worth trying against a finding, smallest first: the
bonus-token values (for a deadlock, only sets the token analysis proves free of deadlocks),
every other level of the automa [R-28] (for a one-sided solo game: the whole ladder of levels
is played and shown), rules options with few values (for a seat edge). :func:`find_fix`
simulates them all with the same bots, games and seed, and proposes the one whose figure is
closest to fair, with the figures before and after.

>>> from runarch_gen.runarch.engine.sample import sample_board, sample_deck
>>> from runarch_gen.runarch.rules import parse_rules
>>> finding = Finding("deadlock", "games could not end", 0.1, "deadlock")
>>> for rules in candidates(parse_rules("complex"), finding, sample_board(), sample_deck().cards):
...     print(rules)
complex(tokens="D5/6/7 X7/8/9 F8/9/10 N11/12/13")
complex(tokens="D5/6/7 X7/8/9 F9/10 N11/12/13")
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from runarch_gen.play.balance import (
    RATE_MARGIN,
    Finding,
    Suggestion,
    closest,
    common_findings,
    measure_of,
    order,
)
from runarch_gen.runarch.analysis.token_analysis import token_candidates
from runarch_gen.runarch.engine.tokens import load_tokens
from runarch_gen.runarch.rules import LineDirection, MatchBonus, RulesConfig, Variant, parse_rules

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
    "kit_command",
    "run_findings",
]

GOAL_EVIDENCE = 100
"""A goal counts as never met only after this many players' archives were judged against it."""
DEADLOCK_SHARE = RATE_MARGIN
"""Deadlocks in this share of the games or more make a finding (fewer, a note)."""

AUTOMA_LEVELS = range(1, 6)


@dataclass(frozen=True, slots=True)
class BalanceNote:
    """A balance finding (or note) of one variant's simulated games, what ``--suggest``
    found, and the kit command that prints the rules it proposes for the validated set."""

    rules: str
    finding: Finding
    suggestion: Suggestion | None = None
    fixed: str | None = None  # the rules string with the change, when one was found
    kit: str | None = None  # the command that makes a kit of this set with the change

    def lines(self) -> list[str]:
        out = [f"{self.rules}: {self.finding.kind}: {self.finding.headline}"]
        figures = self.finding.figures()
        if figures:
            out.append(f"  {figures}")
        if self.suggestion is not None:
            ladder = self.automa_ladder()
            out.append(f"  suggestion: {self.suggestion.text(tried_too=not ladder)}")
            if ladder:
                out.append(f"  the automa's levels [R-28]: {ladder}")
            if self.kit is not None:
                out.append(f"  as a variant in a kit of this set: {self.kit}")
            elif self.fixed is not None:
                out.append(f"  as a variant in a kit: runarch-gen kit --variant '{self.fixed}'")
        return out

    def automa_ladder(self) -> str:
        """Every level of the automa played, with the player's win rate, the validated one
        marked: ``1 100.0 % (validated) · 2 90.0 % · …`` (empty for other suggestions)."""
        if self.suggestion is None or not self.suggestion.tried:
            return ""
        levels: dict[int, str] = {}
        for label, measure in self.suggestion.tried:
            key, _, value = label.partition("=")
            if key != "automa" or not value.isdigit():
                return ""
            levels[int(value)] = f"{measure:.1%}"
        current = parse_rules(self.rules).automa
        levels[current] = f"{self.suggestion.before:.1%} (validated)"
        return " · ".join(f"{k} {levels[k]}" for k in sorted(levels))

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            **self.finding.to_json(),
            "suggestion": None if self.suggestion is None else self.suggestion.to_json(),
            "fixed_rules": self.fixed,
            "kit_command": self.kit,
        }


def kit_command(source: Mapping[str, Any], fixed: str, seed: int | None = None) -> str:
    """The ``runarch-gen kit`` command that makes a kit of the validated set — the same board
    and deck: their files, or the seed that generates them (``seed`` when ``source`` does not
    say) — with the rules ``fixed`` as a variant to try (the kit prints its token values on
    the tokens).

    >>> kit_command({"board": {"generated": True, "seed": 7}, "deck": {"generated": True},
    ...              "seed": 7}, "solo(automa=4)")
    "runarch-gen kit --seed 7 --variant 'solo(automa=4)'"
    """
    words = ["runarch-gen", "kit"]
    generated = False
    for part in ("board", "deck"):
        where = source.get(part)
        if isinstance(where, Mapping) and where.get("file"):
            words += [f"--{part}", str(where["file"])]
        else:
            generated = True
    chosen = source.get("seed", seed)
    if generated and chosen is not None:
        words += ["--seed", str(chosen)]
    words += ["--variant", fixed]
    return " ".join(shlex.quote(w) for w in words)


# ---------------------------------------------------------------------------------------------
# Findings


def run_findings(result: SimulationReport, *, goals: bool = True) -> list[Finding]:
    """The balance findings and notes of one variant's simulated games: the families every
    game has (seat, bot, solo, deadlock, stall) and the goals never met (``goals=False`` for a
    game without goals); findings first."""
    out = common_findings(result.summaries, result.sides, exclude=("automa",), values=())
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
                games=result.games,
            )
        )
    return order(out)


def _same(finding: Finding, result: SimulationReport) -> bool:
    """Whether ``finding`` is still a finding in ``result``'s games."""
    return any(
        f.kind == finding.kind and f.subject == finding.subject and f.is_finding
        for f in run_findings(result)
    )


class _Played:
    # A simulation report seen as the generic findings read one.
    def __init__(self, result: SimulationReport) -> None:
        self.results = result.summaries
        self.sides = result.sides
        self.exclude = ("automa",)


def _measure(finding: Finding, result: SimulationReport) -> float:
    return measure_of(finding, _Played(result))


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

    if finding.kind in ("deadlock", "stall", "stalls") and config.has_archives:
        scores = _best_scores(config, board, cards)
        if scores is None:
            return []
        found = token_candidates(
            load_tokens(config.tokens), best_pattern=scores[0], best_phase4=scores[1]
        )
        return [config.with_options(tokens=tokens_value(t)) for t in found]
    if finding.kind in ("solo", "one-sided") and config.variant is Variant.SOLO:
        # the whole ladder of levels, nearest the current one first
        levels = sorted(
            (k for k in AUTOMA_LEVELS if k != config.automa),
            key=lambda k: (abs(k - config.automa), k),
        )
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
    """Simulate every one of ``tries`` (``play(rules)``) and propose the one whose figure is
    closest to fair (the fair share; none at all for a deadlock), if it comes closer than the
    rules as they are — with the figures before and after, and every figure tried; the rules
    proposed (``None`` when none); and whether a run was interrupted (the search stops)."""
    measured: list[tuple[Mapping[str, str], float, int, bool]] = []
    for rules in tries:
        result = play(rules)
        if result.interrupted:
            return Suggestion(finding, {}, finding.measure, None, 0), None, True
        change = changed_options(config, rules)
        gone = not _same(finding, result)
        measured.append((change, _measure(finding, result), result.games, gone))
    suggestion = closest(finding, measured)
    if not suggestion.found:
        return suggestion, None, False
    index = [dict(m[0]) for m in measured].index(dict(suggestion.change))
    return suggestion, tries[index], False
