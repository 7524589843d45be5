"""Can this set be played? RULES.md §9: the static checks, the dynamic check and the verdict.

A *set* is a board and a deck. :func:`check_set` runs the static checks of §9.1 — nothing is
played — and proves each answer: the board's rows and columns (B-1, B-2 when asked), the 25
stones, every pattern, every goal (a witness, or the solver's proof that none exists), every
minimum of the bonus-token set (the best score any card can reach, an exact optimum:
:mod:`~runarch_gen.runarch.analysis.best_score`), every condition token (a witness) and the deck's
size. It also analyses the bonus-token set itself
(:mod:`~runarch_gen.runarch.analysis.token_analysis`):
a fault of the *rules*, such as a game that cannot end whatever the set, is reported as a
:class:`RulesFinding`, apart from the faults of the set.
:func:`validate_set` adds the dynamic check of §9.3: simulated games between bots in every
variant asked for.

The verdict answers "can this set be played under these rules?": yes (exit code 0) unless a
static check fails or more than :data:`STALL_TOLERANCE` of a variant's simulated games stall
without being proven rules deadlocks (exit code 1): a set that cannot be finished stalls nearly
every game, while the bots' own weakness leaves about one complex game in a hundred unfinished.
Rules findings do not fail the set, except with ``strict`` (which also tolerates no stall).

>>> from runarch_gen.runarch.engine.sample import sample_board, sample_deck
>>> from runarch_gen.runarch.rules import parse_rules
>>> report = check_set(sample_board(), sample_deck(50), [parse_rules("simple")])
>>> report.playable, [check.name for check in report.checks]
(True, ['board', 'stones', 'patterns', 'cards', 'minimums', 'deck size'])
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runarch_gen.errors import InputError, ParseError
from runarch_gen.fileio import read_text
from runarch_gen.play.balance import order
from runarch_gen.play.ladder import SKILL_CHUNK, SkillRun, skill_index
from runarch_gen.play.simulate import game_seed
from runarch_gen.play.stats import proportion, rate_difference, two_proportion_test
from runarch_gen.play.verdict import (
    SKILL_MARGIN,
    Check,
    Failure,
    judge,
    lineup_text,
    skill_findings,
)
from runarch_gen.runarch.analysis.best_score import STONES, ScoreWitness, best_card_score
from runarch_gen.runarch.analysis.token_analysis import (
    RulesFinding,
    TokenAnalysis,
    analyse_tokens,
    pair_outcome,
)
from runarch_gen.runarch.archives import ARCHIVE_CAPACITY, ArchiveRule, fits
from runarch_gen.runarch.atoms import PIECES, Piece
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.boards.check import check_board
from runarch_gen.runarch.counts import DRAWS_PER_PLAYER, OFFER_SIZE, SIMPLE_HAND
from runarch_gen.runarch.decks.cards import Card, Deck
from runarch_gen.runarch.decks.check import DeckReport, Violation, check_deck
from runarch_gen.runarch.decks.goals import MAX_ARCHIVED
from runarch_gen.runarch.design import DESIGN, LINEUP
from runarch_gen.runarch.engine.conditions import Condition, load_conditions
from runarch_gen.runarch.engine.tokens import TOKEN_SYMBOLS, BonusTokens, load_tokens
from runarch_gen.runarch.validation.balance import (
    BalanceNote,
    candidates,
    find_fix,
    kit_command,
    run_findings,
)
from runarch_gen.solver import solve
from runarch_gen.textdata import loads_json

if TYPE_CHECKING:
    from runarch_gen.play.metrics import Metrics
    from runarch_gen.runarch.analysis.simulation import SimulationReport

from runarch_gen.runarch.rules import (
    ArchiveOrder,
    LineDirection,
    MatchBonus,
    RulesConfig,
    Variant,
    parse_rules,
)
from runarch_gen.runarch.sets import DEFAULT_DECK_SIZE

__all__ = [
    "DEFAULT_BOTS",
    "DEFAULT_GAMES",
    "DEFAULT_VARIANTS",
    "STALL_TOLERANCE",
    "STATIC_STEPS",
    "Check",
    "DynamicCheck",
    "Failure",
    "GameSet",
    "RulesFinding",
    "ScoreWitness",
    "TokenAnalysis",
    "ValidationReport",
    "analyse_tokens",
    "best_card_score",
    "check_set",
    "default_variants",
    "find_condition_witness",
    "load_set",
    "pair_outcome",
    "setup_cards",
    "suggest_fixes",
    "validate_set",
]

DEFAULT_VARIANTS: tuple[str, ...] = ("simple", "complex", "solo")
STALL_TOLERANCE = 0.05
"""The share of a variant's simulated games that may stall without a proven deadlock before the
set fails: greedy bots leave about 1 % of complex games unfinished on sets that play well, a
set or a rule that cannot be finished stalls nearly all of them."""


# ---------------------------------------------------------------------------------------------
# Results


def _check(
    name: str,
    rules: tuple[str, ...],
    summary: str,
    failures: tuple[Failure, ...] = (),
    proofs: Mapping[str, Any] | None = None,
) -> Check:
    """A :class:`~runarch_gen.play.verdict.Check` of the variants ``rules`` (empty: the set as
    a whole)."""
    return Check(name, summary, failures, dict(proofs or {}), rules)


# ---------------------------------------------------------------------------------------------
# Condition tokens


def find_condition_witness(
    condition: Condition,
    cards: Iterable[Card],
    archive_rules: Sequence[ArchiveRule],
    *,
    capacity: int,
    max_cards: int = MAX_ARCHIVED,
) -> tuple[tuple[int, ...], ...] | None:
    """Card ids for each archive (left to right) that fit the archives' rules and whose counts
    meet ``condition``, with as few cards as possible; ``None`` when CP-SAT proves there are none.

    A condition is checked right after a card goes into an archive [R-02], so at least one card
    is archived; at most ``max_cards`` are (a player's 10th card ends the game).

    >>> from runarch_gen.runarch.engine.conditions import parse_condition
    >>> from runarch_gen.runarch.engine.sample import sample_deck
    >>> rules = (ArchiveRule.SAME, ArchiveRule.SHAPES, ArchiveRule.COLOURS)
    >>> [len(ids) for ids in find_condition_witness(parse_condition("3·2·1"), sample_deck(),
    ...                                             rules, capacity=5)]
    [3, 2, 1]
    >>> find_condition_witness(parse_condition("6·*·* any order"), sample_deck(), rules,
    ...                        capacity=5) is None
    True
    """
    from ortools.sat.python import cp_model

    by_match: dict[Piece, list[int]] = {}
    for card in cards:
        by_match.setdefault(card.match, []).append(card.id)
    for same_match in by_match.values():
        same_match.sort()
    types = sorted(by_match)
    archives = range(len(archive_rules))
    targets: list[tuple[int | None, ...]] = [(None,) * len(archive_rules)]
    if condition.counts is not None:
        targets = [condition.counts]
        if condition.any_order:  # [R-02] "in any order": each distinct order of the counts
            targets = sorted(set(itertools.permutations(condition.counts)), key=_none_last)

    for target in targets:
        model = cp_model.CpModel()
        placed = {
            (a, p): model.new_int_var(0, min(len(by_match[p]), capacity), "")
            for a in archives
            for p in types
        }
        for p in types:
            model.add(sum(placed[a, p] for a in archives) <= len(by_match[p]))
        sizes = [sum(placed[a, p] for p in types) for a in archives]
        for a, rule in zip(archives, archive_rules, strict=True):
            model.add(sizes[a] <= capacity)
            if rule is ArchiveRule.SAME:  # one colour or one shape: choose which
                keys = {k: model.new_bool_var("") for k in range(10)}
                model.add_exactly_one(keys.values())
                for p in types:
                    keyed = keys[int(p.colour)] + keys[5 + int(p.shape)]
                    model.add(placed[a, p] <= capacity * keyed)
            else:  # SHAPES: all shapes different; COLOURS: all colours different
                by_shape = rule is ArchiveRule.SHAPES
                groups: dict[int, list[Piece]] = {}
                for p in types:
                    groups.setdefault(int(p.shape if by_shape else p.colour), []).append(p)
                for group in groups.values():
                    model.add(sum(placed[a, p] for p in group) <= 1)
            if target[a] is not None:
                model.add(sizes[a] == target[a])
        total = sum(sizes)
        model.add(total >= 1)
        model.add(total <= max_cards)
        if condition.total is not None:
            model.add(total == condition.total)
        model.minimize(total)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1  # sequential: deterministic
        solver.parameters.random_seed = 0
        solver.parameters.max_deterministic_time = 10.0
        status = solve(solver, model)
        if status == cp_model.INFEASIBLE:
            continue
        if status != cp_model.OPTIMAL:
            raise RuntimeError(
                f"condition {condition.text}: the search ended {solver.status_name()}"
            )
        used = dict.fromkeys(types, 0)
        placement: list[list[int]] = []
        for a in archives:
            ids: list[int] = []
            for p in types:
                for _ in range(solver.value(placed[a, p])):
                    ids.append(by_match[p][used[p]])
                    used[p] += 1
            placement.append(sorted(ids))
        # "*" counts can always be 0, so every order of the counts needs the same fewest
        # cards: the first order that can be met is as good as any.
        return tuple(tuple(ids) for ids in placement)
    return None


def _none_last(counts: tuple[int | None, ...]) -> tuple[tuple[int, int], ...]:
    return tuple((1, 0) if n is None else (0, n) for n in counts)


def _condition_witness_problem(
    condition: Condition,
    placement: Sequence[Sequence[int]],
    cards: Sequence[Card],
    archive_rules: Sequence[ArchiveRule],
    capacity: int,
) -> str | None:
    """What is wrong with a witness, by the archive rules' plain definitions; ``None`` if it
    holds."""
    by_id = {card.id: card for card in cards}
    ids = [card_id for archive in placement for card_id in archive]
    if len(set(ids)) != len(ids) or any(card_id not in by_id for card_id in ids):
        return "a card used twice or not in the deck"
    if not 1 <= len(ids) <= MAX_ARCHIVED:
        return f"{len(ids)} cards"
    for rule, archive in zip(archive_rules, placement, strict=True):
        matches = [by_id[card_id].match for card_id in archive]
        if len(matches) > capacity or not fits(rule, matches):
            return f"archive {rule.value} cannot hold {', '.join(p.code for p in matches)}"
    counts = tuple(len(archive) for archive in placement)
    if not condition.is_met((counts[0], counts[1], counts[2])):
        return f"counts {counts} do not meet it"
    return None


# ---------------------------------------------------------------------------------------------
# Deck size


def setup_cards(config: RulesConfig) -> tuple[int, int]:
    """(cards setup takes, players who draw) for a variant: §3 steps 4–5 deal ``deal`` cards
    to each player [R-04] and lay 4 in the offer; the simple game deals 2 to each (§5.1); the
    solo game has one player (§8).

    >>> setup_cards(parse_rules("complex")), setup_cards(parse_rules("solo(deal=4)"))
    ((14, 2), (8, 1))
    """
    players = 1 if config.variant is Variant.SOLO else 2
    if not config.has_archives:
        return players * SIMPLE_HAND, players
    return players * config.deal + OFFER_SIZE, players


def _deck_size_check(deck: Deck, config: RulesConfig) -> Check:
    setup, players = setup_cards(config)
    needed = setup + players * DRAWS_PER_PLAYER
    draws = len(deck) - setup
    if config.has_archives:
        how = f"{players} player{'s' if players > 1 else ''} × {config.deal} dealt [R-04]"
        how += f" + {OFFER_SIZE} in the offer"
    else:
        how = f"{players} hands of {SIMPLE_HAND}, §5.1"
    arithmetic = (
        f"{len(deck)} cards: setup takes {setup} ({how}), leaving {max(draws, 0)} draws;"
        f" {players} × {DRAWS_PER_PLAYER} draws are needed, so at least {needed} cards"
    )
    rules = (str(config),)
    if len(deck) >= needed:
        return _check("deck size", rules, arithmetic, proofs={"cards": len(deck), "needed": needed})
    what = "too small to set up" if draws < 0 else f"{draws} draws, fewer than {needed - setup}"
    failure = Failure("deck", "§9.1", f"{what} in the {config.name} game", arithmetic)
    return _check(
        "deck size",
        rules,
        f"{len(deck)} cards, {needed} needed",
        (failure,),
        {"cards": len(deck), "needed": needed},
    )


# ---------------------------------------------------------------------------------------------
# The static checks


def _board_check(board: Board, diagonals: bool) -> Check:
    rule = "B-1 and B-2" if diagonals else "B-1"
    findings = check_board(board, diagonals=diagonals)
    failures = tuple(
        Failure(
            "board",
            "B-2" if f.line in ("d1", "d2") else "B-1",
            f.message,
            f"squares {', '.join(f.squares)}" if f.squares else "",
        )
        for f in findings
    )
    if not failures:
        summary = f"{rule} holds: no row{', column or diagonal' if diagonals else ' or column'}"
        summary += f" repeats a colour or a shape; the {len(set(board.tiles))} tiles are distinct"
        return _check("board", (), summary, proofs={"tiles": board.codes()})
    n = len(failures)
    return _check("board", (), f"{n} {_plural(n, 'violation')} of {rule}", failures)


def _stones_check(stones: Sequence[Piece] = STONES) -> Check:
    """§1.2: one stone of each colour × shape (the game's stones; a test passes others)."""
    distinct = {(s.colour, s.shape) for s in stones}
    summary = f"{len(distinct)} distinct stones, one of each colour × shape (§1.2)"
    if len(stones) == len(distinct) == len(PIECES):
        return _check("stones", (), summary)
    missing = len(PIECES) - len(distinct)
    what = f"{len(stones)} stones, {len(distinct)} distinct: {missing} colour × shape missing"
    return _check("stones", (), summary, (Failure("stones", "§1.2", what),))


def _violation_failure(v: Violation, proof: str = "") -> Failure:
    component = f"card {v.card}" if v.card is not None else "deck"
    if v.card is not None and v.field != "pattern":
        component += f" {v.field}"
    return Failure(component, v.rule, v.message, proof)


def _patterns_check(report: DeckReport) -> Check:
    failures = tuple(_violation_failure(v) for v in report.violations if v.field == "pattern")
    if failures:
        n = len(failures)
        return _check("patterns", (), f"{n} pattern {_plural(n, 'violation')}", failures)
    return _check(
        "patterns",
        (),
        f"{report.cards} patterns, each with 5 colours and 5 shapes, none repeated (§1.3)",
    )


def _cards_check(report: DeckReport) -> Check:
    # Everything else the deck checker finds wrong with a card or the deck, goals apart.
    failures = tuple(
        _violation_failure(v) for v in report.violations if v.field not in ("pattern", "goal")
    )
    if failures:
        return _check(
            "cards", (), f"{len(failures)} {_plural(len(failures), 'violation')}", failures
        )
    return _check("cards", (), f"{report.cards} cards: ids, match areas, arrows and rewards valid")


def _goals_check(report: DeckReport, rules: tuple[str, ...], capacity: int) -> Check:
    proof = (
        f"CP-SAT proved that no {MAX_ARCHIVED} or fewer cards of this deck fit the archives"
        f" (SAME, SHAPES, COLOURS, {capacity} cards each [R-14]) and meet it"
    )
    # One failure per goal, naming every card that shows it.
    shown: dict[tuple[str, str], list[int]] = {}
    for v in report.violations:
        if v.field == "goal":
            shown.setdefault((v.rule, v.message), []).append(v.card or 0)
    failures = tuple(
        Failure(
            f"{_plural(len(ids), 'card')} {', '.join(map(str, ids))}, goal",
            rule,
            message,
            proof if "cannot be met" in message else "",
        )
        for (rule, message), ids in shown.items()
    )
    proofs = {g.goal.text: g.witness.to_json() if g.witness else None for g in report.goals}
    if failures:
        unmet = sum(1 for g in report.goals if g.witness is None)
        return _check(
            "goals", rules, f"{unmet} of {len(report.goals)} goals cannot be met", failures, proofs
        )
    return _check(
        "goals",
        rules,
        f"{len(report.goals)} goals, each met by a witness of at most {MAX_ARCHIVED} cards in"
        f" archives of {capacity}",
        proofs=proofs,
    )


def _plural(n: int, noun: str) -> str:
    """``card`` for one, ``cards`` for more (the number is not included)."""
    return noun if n == 1 else noun + "s"


def _minimums_check(
    config: RulesConfig,
    rules: tuple[str, ...],
    tokens: BonusTokens | None,
    best_pattern: ScoreWitness | None,
    best_phase4: ScoreWitness | None,
) -> Check:
    if best_pattern is None:
        failure = Failure("deck", "§1.3", "no card has a valid pattern: no card can score")
        return _check("minimums", rules, "no card can score", (failure,))
    proofs: dict[str, Any] = {"best_pattern_points": best_pattern.to_json()}
    if tokens is None:  # the simple game's fixed minimum, rows and columns only
        if config.minimum <= best_pattern.score:
            return _check(
                "minimums",
                rules,
                f"the fixed minimum {config.minimum} [R-10] is within reach: best"
                f" {best_pattern.score} pattern points ({best_pattern.text})",
                proofs=proofs,
            )
        failure = Failure(
            f"minimum {config.minimum}",
            "R-10",
            f"cannot be reached: the best is {best_pattern.score} pattern points",
            best_pattern.text,
        )
        return _check("minimums", rules, "the fixed minimum cannot be reached", (failure,), proofs)
    assert best_phase4 is not None
    proofs["best_phase4_score"] = best_phase4.to_json()
    proofs["tokens"] = tokens.to_json()
    best = max(best_pattern.score, best_phase4.score)
    witness = best_phase4 if best_phase4.score >= best_pattern.score else best_pattern
    option = f"match_bonus={config.match_bonus.value}"
    failures = tuple(
        Failure(
            f"token {symbol} {value}",
            "R-09",
            f"a minimum of {value} cannot be reached with {option}: the best possible card"
            f" score is {best}",
            f"{witness.text}; this is the optimum over every card, line and arrangement of"
            " the stones (an assignment of the 25 stones to the squares, solved exactly)",
        )
        for symbol, values in zip(TOKEN_SYMBOLS, tokens.values, strict=True)
        for value in values
        if value > best
    )
    summary = (
        f"{tokens.text}: best {best_pattern.score} pattern points in phases 1–3,"
        f" best card score {best_phase4.score} in phase 4 with {option} ({best_phase4.text})"
    )
    if failures:
        return _check(
            "minimums",
            rules,
            f"{len(failures)} {_plural(len(failures), 'minimum')} out of reach: {summary}",
            failures,
            proofs,
        )
    return _check("minimums", rules, "every minimum can be reached: " + summary, proofs=proofs)


def _conditions_check(config: RulesConfig, rules: tuple[str, ...], cards: Sequence[Card]) -> Check:
    conditions = load_conditions(config.conditions)
    archive_rules = config.archive_rules
    order = ", ".join(rule.value.upper() for rule in archive_rules)
    proofs: dict[str, Any] = {}
    failures: list[Failure] = []
    for condition in conditions:
        placement = find_condition_witness(
            condition, cards, archive_rules, capacity=config.capacity
        )
        if placement is None:
            failures.append(
                Failure(
                    f"condition {condition.text}",
                    "R-02",
                    "cannot be met under the archive rules",
                    f"CP-SAT proved that no 1 to {MAX_ARCHIVED} cards of this deck fit the"
                    f" archives ({order} [R-13], {config.capacity} each [R-14]) with these"
                    " counts",
                ),
            )
            proofs[condition.text] = None
            continue
        problem = _condition_witness_problem(
            condition, placement, cards, archive_rules, config.capacity
        )
        if problem is not None:  # the model and the rules' definitions disagree: not proven
            raise RuntimeError(f"condition {condition.text}: the witness does not hold: {problem}")
        proofs[condition.text] = {
            rule.value: list(ids) for rule, ids in zip(archive_rules, placement, strict=True)
        }
    summary = f"{len(conditions)} condition tokens, each met by a witness (archives {order})"
    if failures:
        summary = f"{len(failures)} of {len(conditions)} condition tokens cannot be met"
    return _check("conditions", rules, summary, tuple(failures), proofs)


def check_set(
    board: Board,
    deck: Deck,
    variants: Sequence[RulesConfig | str] = DEFAULT_VARIANTS,
    *,
    diagonals: bool = False,
    advance: Callable[[int], None] | None = None,
    deck_checked: DeckReport | None = None,
) -> ValidationReport:
    """The static checks of RULES.md §9.1 for ``board`` and ``deck`` under each of
    ``variants``, and the rules findings of the bonus-token analysis.

    ``diagonals`` asks for B-2 as well; ``advance(1)`` is called after each check, for a
    progress bar; ``deck_checked`` is the deck checker's report for this deck with archives of
    5 [R-14], when the caller has it already. Raises :class:`~runarch_gen.errors.ParseError`
    for an unreadable condition or token file named by a variant's rules.
    """
    step = advance or (lambda n: None)
    configs = [v if isinstance(v, RulesConfig) else parse_rules(v) for v in variants]
    names = tuple(dict.fromkeys(str(c) for c in configs))

    def grouped(
        key: Callable[[RulesConfig], Any], where: Callable[[RulesConfig], bool]
    ) -> list[tuple[RulesConfig, tuple[str, ...]]]:
        groups: dict[Any, list[RulesConfig]] = {}
        for c in configs:
            if where(c):
                groups.setdefault(key(c), []).append(c)
        return [(g[0], tuple(dict.fromkeys(str(c) for c in g))) for g in groups.values()]

    checks = [_board_check(board, diagonals), _stones_check()]
    step(1)
    reports: dict[int, DeckReport] = {}
    if deck_checked is not None:
        reports[ARCHIVE_CAPACITY] = deck_checked

    def deck_report(capacity: int) -> DeckReport:
        if capacity not in reports:
            reports[capacity] = check_deck(deck, source="deck", capacity=capacity)
        return reports[capacity]

    checks += [_patterns_check(deck_report(5)), _cards_check(deck_report(5))]
    step(1)
    for config, rules in grouped(lambda c: c.capacity, lambda c: c.has_archives):
        checks.append(_goals_check(deck_report(config.capacity), rules, config.capacity))
    step(1)

    best: dict[tuple[bool, MatchBonus, LineDirection], ScoreWitness | None] = {}

    def best_score(phase4: bool, config: RulesConfig) -> ScoreWitness | None:
        key = (phase4, config.match_bonus if phase4 else MatchBonus.OFF, config.direction)
        if key not in best:
            best[key] = best_card_score(
                board, deck.cards, phase4=phase4, match_bonus=key[1], direction=key[2]
            )
        return best[key]

    findings: list[RulesFinding] = []
    analyses: dict[Any, tuple[TokenAnalysis, list[str]]] = {}
    for config, rules in grouped(
        lambda c: (c.has_archives, c.tokens, c.match_bonus, c.direction, c.minimum),
        lambda c: True,
    ):
        tokens = load_tokens(config.tokens) if config.has_archives else None
        pattern = best_score(False, config)
        phase4 = best_score(True, config) if tokens is not None else None
        checks.append(_minimums_check(config, rules, tokens, pattern, phase4))
        two_player = [
            r for r in rules if parse_rules(r).variant in (Variant.COMPLEX, Variant.CLASSIC)
        ]
        if tokens is not None and pattern is not None and phase4 is not None and two_player:
            key = (tokens, pattern.score, phase4.score)
            if key not in analyses:
                analysis = analyse_tokens(
                    tokens, best_pattern=pattern.score, best_phase4=phase4.score
                )
                analyses[key] = (analysis, [])
            analyses[key][1].extend(two_player)
    for analysis, rules_list in analyses.values():
        finding = analysis.finding(rules_list)
        if finding is not None:
            findings.append(finding)
    step(1)
    for config, rules in grouped(
        lambda c: (c.conditions, c.archive_order, c.capacity), lambda c: c.has_bets
    ):
        checks.append(_conditions_check(config, rules, deck.cards))
    step(1)
    checks += [_deck_size_check(deck, config) for config in configs]
    step(1)
    return ValidationReport(variants=names, checks=tuple(checks), findings=tuple(findings))


STATIC_STEPS = 6
"""How many times :func:`check_set` calls ``advance(1)``."""


# ---------------------------------------------------------------------------------------------
# The set: a kit folder, a board and a deck file, or a seed


@dataclass(frozen=True, slots=True)
class GameSet:
    """A board and a deck to validate, where each came from, the seed that made them (or the
    kit), and the variants a kit's manifest names (``None`` when it names none)."""

    board: Board
    deck: Deck
    seed: int
    fresh_seed: bool  # nobody gave the seed: it was drawn now (and should be reported)
    source: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    variants: tuple[str, ...] | None = None


KIT_BOARD, KIT_DECK, KIT_MANIFEST = "board.json", "deck.json", "manifest.json"


def load_set(
    kit: str | os.PathLike[str] | None = None,
    *,
    board: str | os.PathLike[str] | None = None,
    deck: str | os.PathLike[str] | None = None,
    seed: int | None = None,
) -> GameSet:
    """The set to validate: a kit folder's ``board.json`` and ``deck.json`` (and the seed and
    rules its ``manifest.json`` records), files that replace them, and for whatever is missing
    a board and a 50-card deck generated from ``seed`` as ``runarch-gen kit`` makes them.

    Boards and decks are only *read* here (a board breaking B-1 or a deck breaking a rule is the
    validation's business); unreadable input raises :class:`~runarch_gen.errors.InputError`.
    """
    import secrets

    from runarch_gen.runarch.sets import load_set_parts

    source: dict[str, Any] = {}
    manifest: Mapping[str, Any] = {}
    if kit is not None:
        folder = Path(kit)
        if not folder.is_dir():
            raise InputError(f"{kit}: not a kit folder (no such directory)")
        manifest = _read_manifest(folder / KIT_MANIFEST)
        for name, given in ((KIT_BOARD, board), (KIT_DECK, deck)):
            if given is None and not (folder / name).is_file():
                raise InputError(f"{kit}: not a kit folder: no {name}")
        board = board if board is not None else folder / KIT_BOARD
        deck = deck if deck is not None else folder / KIT_DECK
        source["kit"] = str(kit)
    recorded = manifest.get("seed")
    fresh = seed is None and not isinstance(recorded, int)
    if seed is None:
        seed = recorded if isinstance(recorded, int) else secrets.randbelow(2**31)
    parts = load_set_parts(board, deck, seed=seed)
    source["board"] = (
        {"file": parts.board_file}
        if parts.board_file is not None
        else {"generated": True, "seed": seed}
    )
    source["deck"] = (
        {"file": parts.deck_file, "cards": len(parts.deck)}
        if parts.deck_file is not None
        else {"generated": True, "seed": seed, "cards": DEFAULT_DECK_SIZE}
    )
    the_board, the_deck = parts.board, parts.deck
    source["seed"] = seed
    return GameSet(the_board, the_deck, seed, fresh, source, _manifest_variants(manifest, kit))


def _read_manifest(path: Path) -> Mapping[str, Any]:
    if not path.is_file():
        return {}
    data = loads_json(read_text(path), str(path))
    if not isinstance(data, dict):
        raise ParseError("a manifest is a JSON object", source=str(path))
    return data


def _manifest_variants(
    manifest: Mapping[str, Any], kit: str | os.PathLike[str] | None
) -> tuple[str, ...] | None:
    """The variants a kit was validated for, else the defaults with the [R-13] archive order
    its player boards print; ``None`` when the manifest says nothing about rules."""
    validation = manifest.get("validation")
    if isinstance(validation, dict) and isinstance(validation.get("variants"), list):
        names = validation["variants"]
        for name in names:
            if not isinstance(name, str):
                raise ParseError("validation.variants: rules strings expected", source=str(kit))
            parse_rules(name, source=f"{kit}: {KIT_MANIFEST}")
        return tuple(names)
    options = manifest.get("options")
    order = options.get("archive_order") if isinstance(options, dict) else None
    if isinstance(order, str) and order != "overview":
        try:
            return default_variants(order)
        except ValueError:
            raise ParseError(f"unknown archive_order {order!r}", source=str(kit)) from None
    return None


def default_variants(
    archive_order: str = "overview", tokens: str = "default", conditions: str = "default"
) -> tuple[str, ...]:
    """The variants validated by default (simple, complex, solo), with the [R-13] archive order,
    the bonus-action token values and the condition tokens a kit prints.

    >>> default_variants("article")
    ('simple', 'complex(archive_order=article)', 'solo(archive_order=article)')
    """
    order = ArchiveOrder(archive_order)
    out = []
    for variant in DEFAULT_VARIANTS:
        config = parse_rules(variant)
        if config.has_archives:
            config = config.with_options(archive_order=order, tokens=tokens)
        if config.has_bets:
            config = config.with_options(conditions=conditions)
        out.append(str(config))
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# The dynamic check and the verdict


@dataclass(frozen=True, slots=True)
class DynamicCheck:
    """Simulated games of one variant (§9.3): how many were played, stalled and deadlocked.

    A *deadlock* is a game the engine proved cannot end (neither side can ever score again); it
    counts among the stalls. Stalls that are not deadlocks mean the bots could not finish a game
    within the stall guard [R-18]: more of them than the report's tolerance fail the set.
    """

    rules: str
    bots: tuple[str, ...]
    seed: int
    games: int
    stalls: int
    deadlocks: int
    interrupted: bool
    summary: tuple[str, ...] = ()
    report: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    predicted_deadlock: Fraction | None = None
    median_turns: float | None = None
    first_player_wins: float | None = None  # share of the games the first player won alone
    metrics: Metrics | None = field(default=None, compare=False, hash=False)
    skill: SkillRun | None = field(default=None, compare=False, hash=False)

    @property
    def ended(self) -> int:
        """Games that ended by the rules."""
        return self.games - self.stalls

    @property
    def unexplained_stalls(self) -> int:
        return self.stalls - self.deadlocks

    @property
    def text(self) -> str:
        """``complex: 200 games, 24 stalled: 24 proven deadlocks 12.0 % (8.2–17.2), 0 not; …``"""
        from runarch_gen.play.stats import proportion

        parts = [f"{self.games} games, {self.stalls} stalled"]
        if self.stalls:
            rate = proportion(self.deadlocks, self.games).text()
            parts[0] += f": {self.deadlocks} proven deadlocks {rate}, {self.unexplained_stalls} not"
        if self.predicted_deadlock is not None:
            parts.append(
                f"the token analysis: {float(self.predicted_deadlock):.1%} of games cannot end"
            )
        if self.interrupted:
            parts.append("interrupted")
        return f"{self.rules}: " + "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "bots": list(self.bots),
            "seed": self.seed,
            "games": self.games,
            "stalls": self.stalls,
            "deadlocks": self.deadlocks,
            "unexplained_stalls": self.unexplained_stalls,
            "interrupted": self.interrupted,
            "predicted_deadlock": (
                str(self.predicted_deadlock) if self.predicted_deadlock is not None else None
            ),
            "skill": None if self.skill is None else self.skill.to_json(),
            "simulation": dict(self.report),
        }


@dataclass(frozen=True, slots=True)
class ValidationReport:
    """Every check, finding and simulation, and the verdict: can the set be played?

    ``exit_code``: 0 playable; 1 not playable (a static failure, or more than
    ``stall_tolerance`` of a variant's simulated games stalled without a proven deadlock; with
    ``strict`` a rules finding, a deadlock or any such stall too); 130 the dynamic check was
    interrupted.
    """

    variants: tuple[str, ...]
    checks: tuple[Check, ...]
    findings: tuple[RulesFinding, ...]
    dynamic: tuple[DynamicCheck, ...] = ()
    skipped: tuple[tuple[str, str], ...] = ()
    strict: bool = False
    source: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    stall_tolerance: float = STALL_TOLERANCE
    balance: tuple[BalanceNote, ...] = ()
    suggest_interrupted: bool = False
    lineup: str = ""

    def stalls_fail(self, run: DynamicCheck) -> bool:
        """Whether ``run`` stalled too often without a proven deadlock: more than
        :attr:`stall_tolerance` of its games (any at all with ``strict``)."""
        tolerance = 0.0 if self.strict else self.stall_tolerance
        return run.unexplained_stalls > tolerance * run.games

    def predicted_deadlock(self, rules: str) -> Fraction | None:
        """The share of ``rules`` games the token analysis proves cannot end (``None``: the
        analysis does not apply to that variant)."""
        for finding in self.findings:
            if finding.kind == "deadlock" and rules in finding.rules:
                return Fraction(str(finding.details["deadlock"]))
        return None

    def failing_checks(self, rules: str | None = None) -> list[Check]:
        return [c for c in self.checks if not c.ok and (rules is None or c.concerns(rules))]

    def _judge(self, rules: str | None = None) -> Any:
        # The one verdict (runarch_gen.play.verdict.judge), for the set or one variant.
        return judge(
            self.failing_checks(rules),
            [
                (run.rules, run.games, run.stalls, run.deadlocks)
                for run in self.dynamic
                if rules is None or run.rules == rules
            ],
            strict=self.strict,
            stall_tolerance=self.stall_tolerance,
            rules_findings=[f.headline for f in self.findings if rules is None or rules in f.rules],
            interrupted=self.interrupted,
        )

    def playable_in(self, rules: str) -> bool:
        """Whether the set can be played in the variant ``rules`` (one of :attr:`variants`)."""
        return bool(self._judge(rules).playable)

    @property
    def reasons(self) -> tuple[str, ...]:
        """Why the set cannot be played, one line each; empty when it can."""
        return tuple(self._judge().reasons)

    @property
    def interrupted(self) -> bool:
        return self.suggest_interrupted or any(run.interrupted for run in self.dynamic)

    @property
    def playable(self) -> bool:
        return not self.reasons

    @property
    def verdict(self) -> str:
        """``playable``, ``not playable``, or ``interrupted`` when the dynamic check stopped
        before anything failed (a failure found before the interruption stands)."""
        return str(self._judge().verdict)

    @property
    def exit_code(self) -> int:
        return int(self._judge().exit_code)

    def metrics_json(self) -> dict[str, Any]:
        """The design metrics, one object per variant simulated (by its rules string)."""
        return {run.rules: run.metrics.to_json() for run in self.dynamic if run.metrics}

    def lines(self) -> list[str]:
        """The report for people: checks, rules findings, simulations, verdict."""
        out = ["static checks (RULES §9.1):"]
        for check in self.checks:
            where = f" ({', '.join(check.rules)})" if check.rules else ""
            out.append(f"  {'ok  ' if check.ok else 'FAIL'}  {check.name}{where}: {check.summary}")
            for failure in check.failures:
                out.append(f"          {failure.text}")
                if failure.proof:
                    out.append(f"            proof: {failure.proof}")
        for finding in self.findings:
            out.append(f"RULES FINDING — {finding.headline}")
            out += [f"  {line}" for line in finding.explanation]
        if self.dynamic or self.skipped:
            first = self.dynamic[0] if self.dynamic else None
            head = "dynamic check (RULES §9.3)"
            if first is not None:
                head += f": bots {', '.join(first.bots)}, seed {first.seed}"
            out.append(head + ":")
            if self.lineup:
                out.append(f"  line-up: {self.lineup}")
            for run in self.dynamic:
                out.append(f"  {run.text}")
                out += [f"    {line}" for line in run.summary]
                if run.metrics is not None:
                    out.append("    design metrics (95 % intervals; docs/metrics.md):")
                    out += [f"    {line}" for line in run.metrics.lines()]
                    if run.skill is not None:
                        out.append(f"        skill trace: {run.skill.describe}")
            out += [f"  {rules}: not simulated: {why}" for rules, why in self.skipped]
        for level, title in (("finding", "balance findings"), ("note", "notes")):
            chosen = [note for note in self.balance if note.finding.level == level]
            if chosen:
                more = " (not failures)" if level == "finding" else " (significant, but small)"
                out.append(f"{title}{more}:")
                for note in chosen:
                    out += [f"  {line}" for line in note.lines()]
        if not self.playable:
            out.append("verdict: NOT PLAYABLE")
            out += [f"  {reason}" for reason in self.reasons]
        elif any(run.interrupted for run in self.dynamic):
            out.append("verdict: none — interrupted before the dynamic check finished")
        else:
            n, b = len(self.findings), sum(note.finding.is_finding for note in self.balance)
            counted = [
                f"{k} {what}{'s' if k > 1 else ''}"
                for k, what in ((n, "rules finding"), (b, "balance finding"))
                if k
            ]
            notes = f" ({', '.join(counted)} above)" if counted else ""
            out.append(
                f"verdict: PLAYABLE — the set can be played in {', '.join(self.variants)}{notes}"
            )
        if any(run.interrupted for run in self.dynamic):
            out.append("interrupted: the figures above are those of the games that finished")
        elif self.suggest_interrupted:
            out.append("interrupted while searching for suggestions: the verdict stands")
        return out

    def manifest_json(self) -> dict[str, Any]:
        """The verdict as a kit's ``manifest.json`` records it: no proofs or game tables
        (``runarch-gen validate KIT`` reproduces them), but every reason and finding."""
        return {
            "verdict": self.verdict,
            "variants": list(self.variants),
            "playable": {rules: self.playable_in(rules) for rules in self.variants},
            "reasons": list(self.reasons),
            "checks": [
                {
                    "check": c.name,
                    "rules": list(c.rules),
                    "ok": c.ok,
                    "summary": c.summary,
                    "failures": [f.text for f in c.failures],
                }
                for c in self.checks
            ],
            "rules_findings": [
                {k: v for k, v in f.to_json().items() if k != "explanation"} for f in self.findings
            ],
            **(
                {"balance": [{"rules": n.rules, **n.finding.to_json()} for n in self.balance]}
                if self.balance
                else {}
            ),
            "dynamic": [
                {k: v for k, v in run.to_json().items() if k not in ("simulation",)}
                | {"median_turns": run.median_turns, "first_player_wins": run.first_player_wins}
                for run in self.dynamic
            ]
            if self.dynamic
            else None,
            **({"metrics": self.metrics_json()} if self.dynamic else {}),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "playable": self.playable,
            "exit_code": self.exit_code,
            "strict": self.strict,
            "stall_tolerance": self.stall_tolerance,
            "variants": [
                {"rules": rules, "playable": self.playable_in(rules)} for rules in self.variants
            ],
            "reasons": list(self.reasons),
            "set": dict(self.source),
            "checks": [c.to_json() for c in self.checks],
            "rules_findings": [f.to_json() for f in self.findings],
            "dynamic": [run.to_json() for run in self.dynamic],
            "skipped": [{"rules": r, "reason": why} for r, why in self.skipped],
            "lineup": self.lineup,
            "metrics": self.metrics_json(),
            "balance": [note.to_json() for note in self.balance],
            "interrupted": self.interrupted,
        }


DEFAULT_GAMES = 300
"""Simulated games per variant in the dynamic check (§9.3)."""
DEFAULT_BOTS: tuple[str, ...] = LINEUP
"""The bots of the dynamic check: one name plays both seats (the solo game: against the
automa) — the line-up of RunArch's design (:mod:`runarch_gen.runarch.design`)."""
SKILL_GAMES = 100
"""Games per variant for the skill trace at the most: the line-up's strongest bot against
``random`` (the solo game: ``random`` against the automa, beside the line-up's own games),
twenty at a time until the interval is decisive."""


def _skill(
    config: RulesConfig,
    result: SimulationReport,
    play: Callable[[list[str], int, int], SimulationReport],
    bots: Sequence[str],
    games: int,
) -> SkillRun | None:
    """The skill trace of one variant: the strongest of ``bots`` on RunArch's ladder against the
    bottom of the ladder (``play(bots, games, part)`` plays a part of them), twenty games at a
    time until its interval lies wholly above the ``skill`` finding's margin, ``games`` at the
    most (see :func:`runarch_gen.play.ladder.pairing`)."""
    strong, weak = DESIGN.strongest(bots), DESIGN.bottom
    if strong is None or weak is None or strong == weak or games < 1:
        return None
    if config.has_automa and len(set(bots)) != 1:
        return None  # the line-up's own rate would mix bots
    won = decided = played = 0
    run: SkillRun | None = None
    part = 0
    while played < games:
        count = min(SKILL_CHUNK, games - played)
        other = play([weak] if config.has_automa else [strong, weak], count, part)
        if other.interrupted:
            return None
        part += 1
        played += other.games
        if config.has_automa:
            a = result.wins_by_seat()["player"]
            won += other.wins_by_seat()["player"].count
            b = proportion(won, played)
            describe = (
                f"{strong} wins {a.text()} of {a.total} games against the automa,"
                f" {weak} {b.text()} of {played}"
            )
            run = SkillRun(
                strong,
                weak,
                a.total + played,
                rate_difference(a.count, a.total, won, played),
                two_proportion_test(a.count, a.total, won, played),
                describe,
            )
        else:
            wins = other.wins_by_bot()
            won += wins[strong]["wins"]
            decided += wins[strong]["wins"] + wins[weak]["wins"]
            index, p = skill_index(won, decided, 2)
            describe = (
                f"{strong} against {weak} won {proportion(won, decided).text()} of {decided}"
                " games won alone (fair 50%)"
            )
            run = SkillRun(strong, weak, played, index, p, describe)
        if run.index.low is not None and run.index.low > SKILL_MARGIN:
            break
    return run


def _key_figures(result: SimulationReport) -> tuple[str, ...]:
    """A few lines of a simulation report: endings, length, scores, first player (the whole
    report is in the JSON)."""
    endings = ", ".join(f"{name} {n}" for name, n in result.endings().items())
    lines = [f"endings: {endings}", f"turns: {result.turns().text()}"]
    for seat, summary in result.scores_by_seat().items():
        lines.append(f"final score, {seat}: {summary.text()}")
    if not result.rules.startswith("solo"):
        first = result.first_player()
        lines.append(
            f"first player won {first['rate'].text()} of the games"
            f" (p = {first['p_value']:.2g} against one half)"
        )
    return tuple(lines)


def validate_set(
    board: Board,
    deck: Deck,
    variants: Sequence[RulesConfig | str] = DEFAULT_VARIANTS,
    *,
    games: int = DEFAULT_GAMES,
    bots: Sequence[str] = DEFAULT_BOTS,
    seed: int = 0,
    workers: int | None = None,
    strict: bool = False,
    stall_tolerance: float = STALL_TOLERANCE,
    diagonals: bool = False,
    simulate_games: bool = True,
    source: Mapping[str, Any] | None = None,
    advance: Callable[[int], None] | None = None,
    skill_games: int = SKILL_GAMES,
) -> ValidationReport:
    """Can this set be played? The static checks (:func:`check_set`), then ``games`` simulated
    games per variant between ``bots`` (skipped with ``simulate_games=False``, and for a
    variant whose static checks fail), their design metrics — with the skill trace from
    ``skill_games`` games of the strongest bot against ``random`` (0: none) — their balance
    findings and notes, and the verdict.

    ``seed`` and ``workers`` go to the simulation: the same seed gives the same report whatever
    the number of workers. ``advance(n)`` is called as checks and games finish: first
    :data:`STATIC_STEPS` steps, then one per game. A Ctrl-C during the simulation ends it early:
    the report holds what was finished and says so (exit code 130).
    """
    from runarch_gen.runarch.analysis.simulation import check_bots, simulate

    configs = [v if isinstance(v, RulesConfig) else parse_rules(v) for v in variants]
    if simulate_games:
        if games < 1:
            raise InputError(f"games must be at least 1, not {games}")
        for config in configs:
            check_bots(bots, config)  # unknown bots are bad input, before any work
    report = check_set(board, deck, configs, diagonals=diagonals, advance=advance)
    if not 0.0 <= stall_tolerance <= 1.0:
        raise InputError(f"the stall tolerance must be from 0 to 1, not {stall_tolerance:g}")
    report = replace(
        report, strict=strict, stall_tolerance=stall_tolerance, source=dict(source or {})
    )
    if not simulate_games:
        return report

    runs: list[DynamicCheck] = []
    skipped: list[tuple[str, str]] = []
    notes: list[BalanceNote] = []
    for config in configs:
        rules = str(config)
        if any(r == rules for r, _ in skipped) or any(run.rules == rules for run in runs):
            continue
        failing = report.failing_checks(rules)
        if failing:
            skipped.append((rules, f"the static checks fail ({failing[0].name})"))
            continue
        if runs and runs[-1].interrupted:
            skipped.append((rules, "interrupted"))
            continue
        result = simulate(
            rules=config,
            board=board,
            deck=deck,
            bots=list(bots),
            games=games,
            seed=seed,
            workers=workers,
            on_progress=advance,
        )
        runs.append(
            DynamicCheck(
                rules=rules,
                bots=tuple(bots),
                seed=seed,
                games=result.games,
                stalls=result.stalls,
                deadlocks=result.deadlocks,
                interrupted=result.interrupted,
                summary=_key_figures(result),
                report=result.to_json(),
                predicted_deadlock=report.predicted_deadlock(rules),
                median_turns=result.turns().median if result.games else None,
                first_player_wins=(
                    None
                    if config.has_automa or not result.games
                    else result.first_player()["rate"].rate
                ),
            )
        )
        if not result.interrupted:

            def play(names: list[str], count: int, part: int, config: RulesConfig = config) -> Any:
                return simulate(
                    rules=config,
                    board=board,
                    deck=deck,
                    bots=names,
                    games=count,
                    seed=seed + 1 if part == 0 else game_seed(seed + 1, part),
                    workers=workers,
                    # how many is not known ahead: the progress counts the line-up's games
                    on_progress=None,
                )

            skill = _skill(config, result, play, bots, skill_games)
            metrics = result.metrics(None if skill is None else skill.index)
            runs[-1] = replace(runs[-1], metrics=metrics, skill=skill)
            found = order(run_findings(result, goals=config.has_archives) + skill_findings(skill))
            notes += [BalanceNote(rules, finding) for finding in found]
    given = tuple(bots) != DEFAULT_BOTS
    return replace(
        report,
        dynamic=tuple(runs),
        skipped=tuple(skipped),
        balance=tuple(notes),
        lineup=lineup_text(DESIGN, list(bots), given),
    )


def suggest_fixes(
    report: ValidationReport,
    board: Board,
    deck: Deck,
    *,
    games: int = DEFAULT_GAMES,
    bots: Sequence[str] = DEFAULT_BOTS,
    seed: int = 0,
    workers: int | None = None,
    advance: Callable[[int], None] | None = None,
) -> ValidationReport:
    """``report`` with a suggestion for each balance finding: the candidate changes of the
    rules (:func:`~runarch_gen.runarch.validation.balance.candidates`, smallest first) played
    with the same ``bots``, ``games`` and ``seed`` until one removes the finding. A Ctrl-C
    stops the search: the suggestions found so far are kept and the report says it was
    interrupted."""
    from runarch_gen.runarch.analysis.simulation import simulate

    def play(rules: RulesConfig) -> SimulationReport:
        return simulate(
            rules=rules,
            board=board,
            deck=deck,
            bots=list(bots),
            games=games,
            seed=seed,
            workers=workers,
            on_progress=advance,
        )

    notes: list[BalanceNote] = []
    stopped = False
    for note in report.balance:
        if stopped or not note.finding.is_finding:
            notes.append(note)
            continue
        config = parse_rules(note.rules)
        tries = candidates(config, note.finding, board, deck.cards)
        if not tries:
            notes.append(note)  # not a matter of the rules: nothing to try
            continue
        suggestion, fixed, stopped = find_fix(config, note.finding, tries, play)
        if stopped:
            notes.append(note)  # the search was cut short: no suggestion to report
            continue
        kit = None if fixed is None else kit_command(report.source, str(fixed), seed)
        notes.append(
            replace(
                note,
                suggestion=suggestion,
                fixed=None if fixed is None else str(fixed),
                kit=kit,
            )
        )
    return replace(report, balance=tuple(notes), suggest_interrupted=stopped)
