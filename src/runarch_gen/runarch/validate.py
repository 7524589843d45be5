"""Can this set be played? RULES.md §9: the static checks, the dynamic check and the verdict.

A *set* is a board and a deck. :func:`check_set` runs the static checks of §9.1 — nothing is
played — and proves each answer: the board's rows and columns (B-1, B-2 when asked), the 25
stones, every pattern, every goal (a witness, or the solver's proof that none exists), every
minimum of the bonus-token set (the best score any card can reach, an exact optimum), every
condition token (a witness) and the deck's size. It also analyses the bonus-token set itself
(:func:`analyse_tokens`): a fault of the *rules*, such as a game that cannot end whatever the
set, is reported as a :class:`RulesFinding`, apart from the faults of the set.
:func:`validate_set` adds the dynamic check of §9.3: simulated games between bots in every
variant asked for.

The verdict answers "can this set be played under these rules?": yes (exit code 0) unless a
static check fails or simulated games stall without being proven rules deadlocks (exit code 1).
Rules findings do not fail the set, except with ``strict``.

>>> from runarch_gen.runarch.engine.sample import sample_board, sample_deck
>>> from runarch_gen.runarch.rules import parse_rules
>>> report = check_set(sample_board(), sample_deck(50), [parse_rules("simple")])
>>> report.playable, [check.name for check in report.checks]
(True, ['board', 'stones', 'patterns', 'cards', 'minimums', 'deck size'])
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runarch_gen.errors import EXIT_INVALID, EXIT_OK, InputError, ParseError
from runarch_gen.fileio import display_name, read_text
from runarch_gen.runarch.archives import ArchiveRule, fits
from runarch_gen.runarch.atoms import LINES, PIECES, Piece
from runarch_gen.runarch.board import Board
from runarch_gen.runarch.boardcheck import check_board
from runarch_gen.runarch.cards import PATTERN_LENGTH, Card, Deck
from runarch_gen.runarch.deckcheck import DeckReport, Violation, check_deck
from runarch_gen.runarch.engine.conditions import Condition, load_conditions
from runarch_gen.runarch.engine.evaluation import evaluate_card
from runarch_gen.runarch.engine.state import CARDS_TO_END, MILESTONES
from runarch_gen.runarch.engine.tokens import TOKEN_SYMBOLS, BonusTokens, load_tokens
from runarch_gen.runarch.goals import MAX_ARCHIVED

if TYPE_CHECKING:
    from runarch_gen.runarch.simulation import SimulationReport

from runarch_gen.runarch.rules import (
    ArchiveOrder,
    LineDirection,
    MatchBonus,
    RulesConfig,
    Variant,
    parse_rules,
)

__all__ = [
    "DEFAULT_BOTS",
    "DEFAULT_GAMES",
    "DEFAULT_VARIANTS",
    "STATIC_STEPS",
    "BackgroundChecks",
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
    "validate_set",
]

DEFAULT_VARIANTS: tuple[str, ...] = ("simple", "complex", "solo")
DRAWS_PER_PLAYER = 10  # §9.1 at least 10 draws per player after setup
OFFER = 4  # §3 step 5
SIMPLE_HAND = 2  # §5.1
LEAST_PATTERN_POINTS = PATTERN_LENGTH  # §4.2 a valid line earns at least 1 point per position
STONES = PIECES  # §1.2 one stone per colour × shape


# ---------------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True, slots=True)
class Failure:
    """One reason the set cannot be played: the component, the rule, what is wrong, and the
    proof (a witness, a count, the solver's verdict)."""

    component: str  # "board", "deck", "card 12", "token N 13", "condition 3·3·3"
    rule: str  # "B-1", "§1.3", "§7", "R-09", "R-02", "§9.1"
    message: str
    proof: str = ""

    @property
    def text(self) -> str:
        return f"{self.component}: {self.message} [{self.rule}]"

    def to_json(self) -> dict[str, Any]:
        return {
            "component": self.component,
            "rule": self.rule,
            "message": self.message,
            "proof": self.proof,
        }


@dataclass(frozen=True, slots=True)
class Check:
    """One static check: its name, the variants it concerns (empty: the set as a whole), a
    one-line summary, its failures, and the proofs of what passed (witnesses), as JSON."""

    name: str
    rules: tuple[str, ...]
    summary: str
    failures: tuple[Failure, ...] = ()
    proofs: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def ok(self) -> bool:
        return not self.failures

    def concerns(self, rules: str) -> bool:
        return not self.rules or rules in self.rules

    def to_json(self) -> dict[str, Any]:
        return {
            "check": self.name,
            "rules": list(self.rules),
            "ok": self.ok,
            "summary": self.summary,
            "failures": [f.to_json() for f in self.failures],
            "proofs": dict(self.proofs),
        }


@dataclass(frozen=True, slots=True)
class RulesFinding:
    """A fault of the rules rather than of the set: ``probability`` is the share of games it
    affects, ``headline`` one line, ``explanation`` the argument, line by line."""

    kind: str  # "deadlock"
    rules: tuple[str, ...]
    probability: Fraction
    headline: str
    explanation: tuple[str, ...]
    details: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "rules": list(self.rules),
            "probability": str(self.probability),
            "rate": round(float(self.probability), 6),
            "headline": self.headline,
            "explanation": list(self.explanation),
            **dict(self.details),
        }


# ---------------------------------------------------------------------------------------------
# The best score a card can reach


@dataclass(frozen=True, slots=True)
class ScoreWitness:
    """A card scoring ``pattern_points + match_bonus`` on ``line`` when the stones lie as in
    ``stones`` (piece index per square, reading order): the best any card of the deck can do."""

    card: int
    line: str
    pattern_points: int
    match_bonus: int
    stones: tuple[int, ...]
    reversed: bool = False

    @property
    def score(self) -> int:
        return self.pattern_points + self.match_bonus

    @property
    def text(self) -> str:
        way = " read backwards [R-08]" if self.reversed else ""
        bonus = f" + {self.match_bonus} match bonus" if self.match_bonus else ""
        return f"card {self.card} on {self.line}{way}: {self.pattern_points} pattern points{bonus}"

    def to_json(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "line": self.line,
            "reversed": self.reversed,
            "pattern_points": self.pattern_points,
            "match_bonus": self.match_bonus,
            "score": self.score,
            "stones": [STONES[i].code for i in self.stones],
        }


def best_card_score(
    board: Board,
    cards: Iterable[Card],
    *,
    phase4: bool,
    match_bonus: MatchBonus = MatchBonus.BOARD,
    direction: LineDirection = LineDirection.READING,
) -> ScoreWitness | None:
    """The highest card score any card of ``cards`` can reach, with the stones laid out to get
    it, or ``None`` when no card has a valid pattern.

    Movement phases 1–3 (``phase4=False``) score pattern points on rows and columns; phase 4
    adds the diagonals and the [R-09] match bonus. The stones may lie anywhere (swaps reach
    every arrangement), so for each card and line this is an assignment of the 25 stones to the
    25 squares that maximises the score, with every position of the line earning a point (the
    pattern is valid there); it is solved exactly, so a value above the result is proven out of
    reach. The stones found are scored again by the rules engine's own evaluation.

    >>> from runarch_gen.runarch.engine.sample import sample_board, sample_deck
    >>> board, deck = sample_board(), sample_deck(50)
    >>> best_card_score(board, deck, phase4=True, match_bonus=MatchBonus.LINE).score
    12
    >>> best_card_score(board, deck, phase4=False).score
    10
    """
    from ortools.graph.python import linear_sum_assignment

    lines = LINES if phase4 else tuple(line for line in LINES if not line.name.startswith("d"))
    bonus = match_bonus if phase4 else MatchBonus.OFF
    orientations = (False, True) if direction is LineDirection.REVERSIBLE else (False,)
    tiles = board.tiles
    best: tuple[int, int, int, int] | None = None  # score, -order, card index, line index …
    found: ScoreWitness | None = None
    card_list = [card for card in cards if card.pattern.is_valid()]
    # No score can exceed this (RULES §4.2): 10 pattern points; the board's match bonus counts
    # at most the 5 stones of a colour and the 5 of a shape; in a line a position earns a
    # pattern point and a bonus point for the same attribute only where the pattern holds the
    # match colour (shape), once per pattern, so each attribute adds at most 5 + 1. Reaching it
    # ends the search early.
    ceiling = {MatchBonus.OFF: 10, MatchBonus.LINE: 12, MatchBonus.BOARD: 20}[bonus]
    for index, card in enumerate(card_list):
        if best is not None and best[0] >= ceiling:
            break
        colour, shape = card.match.colour, card.match.shape
        # Bonus each stone earns on each square ([R-09]): its match colour on a tile of that
        # colour, its match shape on a tile of that shape.
        earns = [
            [
                (stone.colour == colour and tile.colour == colour)
                + (stone.shape == shape and tile.shape == shape)
                for tile in tiles
            ]
            for stone in STONES
        ]
        for line_index, line in enumerate(lines):
            for backwards in orientations:
                squares = line.squares[::-1] if backwards else line.squares
                position = {sq: i for i, sq in enumerate(squares)}
                left: list[int] = []
                right: list[int] = []
                costs: list[int] = []
                for s, stone in enumerate(STONES):
                    for sq in range(len(tiles)):
                        i = position.get(sq)
                        weight = 0
                        if i is not None:
                            wanted = card.pattern[i]
                            points = (stone.colour == wanted.colour) + (stone.shape == wanted.shape)
                            if not points:
                                continue  # the pattern would not be valid on the line
                            weight = points
                        if bonus is MatchBonus.BOARD or (
                            bonus is MatchBonus.LINE and i is not None
                        ):
                            weight += earns[s][sq]
                        left.append(s)
                        right.append(sq)
                        costs.append(-weight)
                solver = linear_sum_assignment.SimpleLinearSumAssignment()
                solver.add_arcs_with_cost(left, right, costs)
                if solver.solve() != solver.OPTIMAL:  # the pattern's own stones always fit
                    raise RuntimeError(f"card {card.id}: no arrangement scores on {line.name}")
                score = -solver.optimal_cost()
                key = (score, -index, -line_index, -int(backwards))
                if best is None or key > best:
                    best = key
                    stones = [0] * len(tiles)
                    for s in range(len(STONES)):
                        stones[solver.right_mate(s)] = s
                    points = sum(
                        (STONES[stones[sq]].colour == card.pattern[i].colour)
                        + (STONES[stones[sq]].shape == card.pattern[i].shape)
                        for i, sq in enumerate(squares)
                    )
                    found = ScoreWitness(
                        card.id, line.name, points, score - points, tuple(stones), backwards
                    )
    if found is not None:
        _confirm_with_engine(found, board, card_list, phase4, bonus, direction)
    return found


def _confirm_with_engine(
    witness: ScoreWitness,
    board: Board,
    cards: Sequence[Card],
    phase4: bool,
    bonus: MatchBonus,
    direction: LineDirection,
) -> None:
    """Score the witness with the rules engine's evaluation; a disagreement is a bug."""
    card = next(c for c in cards if c.id == witness.card)
    config = RulesConfig(match_bonus=bonus, direction=direction)
    scores = evaluate_card(
        witness.stones,
        card.pattern,
        phase=4 if phase4 else 1,
        tiles=board,
        match=card.match,
        config=config,
    )
    engine = next((s.card_score for s in scores if s.line == witness.line), None)
    if engine != witness.score:
        raise RuntimeError(
            f"best score of card {card.id} on {witness.line}: {witness.score}, but the rules"
            f" engine scores that arrangement {engine}"
        )


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
        solver.parameters.catch_sigint_signal = False  # Ctrl-C stays Python's (see below)
        status = solver.solve(model)
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
    return players * config.deal + OFFER, players


def _deck_size_check(deck: Deck, config: RulesConfig) -> Check:
    setup, players = setup_cards(config)
    needed = setup + players * DRAWS_PER_PLAYER
    draws = len(deck) - setup
    if config.has_archives:
        how = f"{players} player{'s' if players > 1 else ''} × {config.deal} dealt [R-04] + {OFFER}"
        how += " in the offer"
    else:
        how = f"{players} hands of {SIMPLE_HAND}, §5.1"
    arithmetic = (
        f"{len(deck)} cards: setup takes {setup} ({how}), leaving {max(draws, 0)} draws;"
        f" {players} × {DRAWS_PER_PLAYER} draws are needed, so at least {needed} cards"
    )
    rules = (str(config),)
    if len(deck) >= needed:
        return Check("deck size", rules, arithmetic, proofs={"cards": len(deck), "needed": needed})
    what = "too small to set up" if draws < 0 else f"{draws} draws, fewer than {needed - setup}"
    failure = Failure("deck", "§9.1", f"{what} in the {config.name} game", arithmetic)
    return Check(
        "deck size",
        rules,
        f"{len(deck)} cards, {needed} needed",
        (failure,),
        {"cards": len(deck), "needed": needed},
    )


# ---------------------------------------------------------------------------------------------
# The bonus-token set: can a two-player game always end?


@dataclass(frozen=True, slots=True)
class _Reach:
    """What one player can do alone when every card may score up to ``best``: reach the 10th
    card, pass the last milestone with fewer cards, and at which levels (milestones passed) a
    position with fewer than 10 cards can score no card."""

    finishes: bool
    passes: bool
    stuck: frozenset[int]


def _level(total: int) -> int:
    """Milestones passed [R-16]: the index of the player's own token that is on top."""
    return sum(total > m for m in MILESTONES)


def _minimum(stack: Sequence[int], level: int) -> int:
    return max(LEAST_PATTERN_POINTS, stack[min(level, len(stack) - 1)])


@functools.lru_cache(maxsize=4096)
def _reach(stack: tuple[int, ...], best: int) -> _Reach:
    # Totals as bits of an int, one int per number of cards; past the last milestone the
    # total no longer matters (the minimum is the last token's), so it is capped there.
    cap = MILESTONES[-1] + 1
    bands: list[int] = []
    low = 0
    for m in MILESTONES:
        bands.append(((1 << (m + 1)) - 1) ^ ((1 << low) - 1))  # totals low..m
        low = m + 1
    bands.append(1 << cap)
    row, passes, stuck = 1, False, set()
    for _ in range(CARDS_TO_END):
        passes = passes or bool(row >> cap & 1)
        grown = 0
        for level, band in enumerate(bands):
            here = row & band
            if not here:
                continue
            least = _minimum(stack, level)
            if least > best:
                stuck.add(level)
                continue
            for score in range(least, best + 1):
                grown |= here << score
        if grown >> cap:
            grown = (grown & ((1 << cap) - 1)) | (1 << cap)
        row = grown
    return _Reach(bool(row), passes, frozenset(stuck))


@dataclass(frozen=True, slots=True)
class TokenAnalysis:
    """Whether two players holding stacks drawn from ``tokens`` can always end a game.

    A player's minimum is the value of their own top token; its movement phase (and so the best
    score a card can reach: ``best_pattern`` in phases 1–3, ``best_phase4`` in phase 4) comes
    from the opponent's progress [R-16]. Every pair of stacks is searched, each player's
    possible totals card by card; a pair *deadlocks* when no sequence of scores lets either
    player place a 10th card, and *may deadlock* when the players can both end up unable to
    score although the game could have ended.

    ``slowest`` are the totals of a player who always scores the least with the lowest tokens:
    the most cards anyone can score before each milestone; ``tenth_level`` the level (0 = D,
    1 = X, 2 = F, 3 = N) whose minimum a 10th card needs at least.
    """

    tokens: BonusTokens
    best_pattern: int
    best_phase4: int
    slowest: tuple[int, ...]
    tenth_level: int
    phase4_only: tuple[tuple[str, tuple[int, ...]], ...]
    pairs: int
    deadlock: Fraction
    deadlock_pairs: int
    possible: Fraction
    possible_pairs: int
    example: tuple[tuple[int, ...], tuple[int, ...]] | None
    condition: str
    condition_values: Mapping[str, tuple[int, ...]] | None = field(
        default=None, compare=False, hash=False
    )

    def finding(self, rules: Sequence[str]) -> RulesFinding | None:
        """The rules finding for two-player games under ``rules``; ``None`` when every game
        can end and none can run into a deadlock."""
        if not self.deadlock and not self.possible:
            return None
        names = " and ".join(rules)
        explanation = [self._tenth_card_text()]
        if self.phase4_only:
            shown = ", ".join(f"{s} {'/'.join(map(str, v))}" for s, v in self.phase4_only)
            explanation.append(
                f"{shown} exceed{'s' if len(self.phase4_only) == 1 else ''} the"
                f" {self.best_pattern} pattern points a card can score in movement phases 1–3:"
                " a player whose minimum it is scores again only in phase 4, which opens when"
                f" the opponent passes {MILESTONES[-1]} [R-16]."
            )
        if self.deadlock:
            when = "Whatever stacks are drawn" if self.deadlock == 1 else f"When {self.condition}"
            explanation.append(
                f"{when}, neither can pass {MILESTONES[-1]} and the game cannot"
                f" end: {self.deadlock_pairs:,} of the {self.pairs:,} pairs of stacks,"
                f" probability {self.deadlock} ({float(self.deadlock):.1%})."
            )
            headline = (
                f"{names}: {_share(self.deadlock)} cannot end (deadlock), when {self.condition}"
            )
        else:
            headline = f"{names}: {_share(self.possible)} can run into a deadlock"
        if self.possible:
            explanation.append(
                f"In {self.possible_pairs:,} more pairs of stacks (probability {self.possible})"
                " the players can both end up unable to score although the game could end."
            )
        explanation.append(self._remedy_text())
        details = {
            "tokens": self.tokens.to_json(),
            "best_pattern_points": self.best_pattern,
            "best_phase4_score": self.best_phase4,
            "slowest_totals": list(self.slowest),
            "tenth_card_token": TOKEN_SYMBOLS[self.tenth_level],
            "pairs": self.pairs,
            "deadlock_pairs": self.deadlock_pairs,
            "possible_deadlock_pairs": self.possible_pairs,
            "possible_deadlock": str(self.possible),
            "deadlock": str(self.deadlock),
            "example": [list(s) for s in self.example] if self.example else None,
            "condition": self.condition,
            "condition_values": self._condition_values(),
        }
        return RulesFinding(
            "deadlock",
            tuple(rules),
            self.deadlock or self.possible,
            headline,
            tuple(explanation),
            details,
        )

    def _condition_values(self) -> dict[str, list[int]] | None:
        """The token values that make the games deadlock: those both stacks hold (``{"F":
        [11]}``); when every pair deadlocks, the values phases 1–3 cannot reach on the tokens
        handed over at the milestones."""
        if self.condition_values is None:
            return None
        if self.condition_values:
            return {k: list(v) for k, v in self.condition_values.items()}
        return {
            symbol: [v for v in values if v > self.best_pattern]
            for symbol, values in zip(
                TOKEN_SYMBOLS[: len(MILESTONES)], self.tokens.values, strict=False
            )
            if any(v > self.best_pattern for v in values)
        }

    def _remedy_text(self) -> str:
        # Lower every value that phases 1–3 cannot reach on the tokens handed over at the
        # milestones (D, X, F) and search again: a computed remedy, not a guess.
        levels = len(MILESTONES)
        capped = BonusTokens(
            tuple(
                tuple(min(v, self.best_pattern) for v in values) if level < levels else values
                for level, values in enumerate(self.tokens.values)
            )
        )
        changed = [
            f"{symbol} {'/'.join(map(str, new))}"
            for symbol, old, new in zip(
                TOKEN_SYMBOLS, self.tokens.values, capped.values, strict=True
            )
            if old != new
        ]
        again = analyse_tokens(capped, best_pattern=self.best_pattern, best_phase4=self.best_phase4)
        verdict = (
            "every game can end"
            if not again.deadlock and not again.possible
            else f"{float(again.deadlock + again.possible):.1%} of games could still deadlock"
        )
        return (
            f"The token set is data (the rules option tokens=PATH, §1.4). With"
            f" {', '.join(changed)} instead, the same search finds that {verdict}."
        )

    def _tenth_card_text(self) -> str:
        nine = self.slowest[: CARDS_TO_END - 1]
        used = sorted({_level(total) for total in (0, *nine[:-1])})  # levels the 9 cards met
        lenient = ", ".join(f"{TOKEN_SYMBOLS[k]} {min(self.tokens.values[k])}" for k in used)
        passed = MILESTONES[self.tenth_level - 1] if self.tenth_level else 0
        symbol = TOKEN_SYMBOLS[self.tenth_level]
        later = " or a later one" if self.tenth_level < len(TOKEN_SYMBOLS) - 1 else ""
        return (
            f"A player's 10th card needs at least the {symbol} token's minimum"
            f" ({'/'.join(map(str, self.tokens.values[self.tenth_level]))}){later}: scoring"
            f" the least each time with the lowest tokens ({lenient}) the totals run"
            f" {', '.join(map(str, nine))}, so even the 9th card takes the total past {passed}."
        )


def _share(p: Fraction) -> str:
    if p.numerator == 1:
        return f"1 game in {p.denominator} ({float(p):.1%})"
    return f"{p} of the games ({float(p):.1%})"


def pair_outcome(
    a: tuple[int, ...], b: tuple[int, ...], *, best_pattern: int, best_phase4: int
) -> str:
    """How a two-player game goes when the players drew the token stacks ``a`` and ``b``
    (values top to bottom): ``ends`` (every way of playing can still end it), ``may deadlock``
    (the players can both end up unable to score, although it could end) or ``deadlock`` (no
    sequence of scores lets either player place a 10th card).

    The search is over each player's possible totals card by card, every card scoring
    anything from the player's minimum up to the best score of the player's phase:
    ``best_pattern`` until the opponent passes the last milestone, ``best_phase4`` after.
    Until then the players cannot help each other (phases 1–3 share the same best score), so
    each is searched alone; afterwards the one in phase 4 plays on from the start, having
    waited (scoring is never compulsory).

    >>> pair_outcome((5, 7, 11, 11), (6, 8, 11, 13), best_pattern=10, best_phase4=20)
    'deadlock'
    >>> pair_outcome((5, 7, 11, 11), (6, 8, 10, 13), best_pattern=10, best_phase4=20)
    'ends'
    """
    top = max(best_pattern, best_phase4)
    return _outcome(_profile(a, best_pattern, top), _profile(b, best_pattern, top), top)


_Profile = tuple[_Reach, _Reach, int]  # phases 1–3, phase 4, the minimum past the last milestone


def _profile(stack: tuple[int, ...], best_pattern: int, top: int) -> _Profile:
    return _reach(stack, best_pattern), _reach(stack, top), _minimum(stack, len(MILESTONES))


@functools.lru_cache(maxsize=4096)
def _outcome(a: _Profile, b: _Profile, top: int) -> str:
    # A stack matters only through its profile: many stacks share one.
    last = len(MILESTONES)
    low = frozenset(range(last))  # levels before the last milestone
    (a13, a4, a_last), (b13, b4, b_last) = a, b

    # x passes the last milestone in phases 1–3; y, in phase 4 from then on, places a 10th card
    # or passes too, after which x in phase 4 scores on at its last minimum.
    def via(x13: _Reach, x_last: int, y4: _Reach) -> bool:
        return x13.passes and (y4.finishes or (y4.passes and x_last <= top))

    if not (a13.finishes or b13.finishes or via(a13, a_last, b4) or via(b13, b_last, a4)):
        return "deadlock"
    if a13.stuck & low and b13.stuck & low:  # both stuck before anyone opens phase 4
        return "may deadlock"
    for x13, y4 in ((a13, b4), (b13, a4)):
        if last in x13.stuck and y4.stuck & low:  # x past the last milestone, y cannot follow
            return "may deadlock"
        if x13.passes and y4.passes and min(a_last, b_last) > top:
            return "may deadlock"
    return "ends"


def analyse_tokens(tokens: BonusTokens, *, best_pattern: int, best_phase4: int) -> TokenAnalysis:
    """Search every pair of stacks two players can draw from ``tokens`` (§1.4) for games that
    cannot end, given the best card score of movement phases 1–3 and of phase 4.

    >>> from runarch_gen.runarch.engine.tokens import default_tokens
    >>> analysis = analyse_tokens(default_tokens(), best_pattern=10, best_phase4=20)
    >>> analysis.deadlock, analysis.condition, analysis.slowest[:9]
    (Fraction(1, 9), 'both players drew F 11', (5, 10, 15, 20, 25, 30, 37, 44, 51))
    >>> analyse_tokens(default_tokens(), best_pattern=11, best_phase4=20).deadlock
    Fraction(0, 1)
    """
    stacks = tokens.stacks()
    deadlock = possible = Fraction(0)
    deadlock_pairs = possible_pairs = 0
    locked: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for (a, pa), (b, pb) in itertools.product(stacks, repeat=2):
        outcome = pair_outcome(a, b, best_pattern=best_pattern, best_phase4=best_phase4)
        if outcome == "deadlock":
            deadlock += pa * pb
            deadlock_pairs += 1
            locked.append((a, b))
        elif outcome == "may deadlock":
            possible += pa * pb
            possible_pairs += 1

    lenient = [min(values) for values in tokens.values]
    total, slowest = 0, []
    for _ in range(CARDS_TO_END):
        total += _minimum(lenient, _level(total))
        slowest.append(total)
    phase4_only = tuple(
        (symbol, tuple(v for v in values if v > best_pattern))
        for symbol, values in zip(TOKEN_SYMBOLS, tokens.values, strict=True)
        if any(v > best_pattern for v in values)
    )
    return TokenAnalysis(
        tokens=tokens,
        best_pattern=best_pattern,
        best_phase4=best_phase4,
        slowest=tuple(slowest),
        tenth_level=_level(slowest[CARDS_TO_END - 2]),
        phase4_only=phase4_only,
        pairs=len(stacks) ** 2,
        deadlock=deadlock,
        deadlock_pairs=deadlock_pairs,
        possible=possible,
        possible_pairs=possible_pairs,
        example=locked[0] if locked else None,
        condition=_describe_pairs(locked, tokens),
        condition_values=_narrowed_values(locked, tokens),
    )


def _narrowed_values(
    pairs: Sequence[tuple[tuple[int, ...], tuple[int, ...]]], tokens: BonusTokens
) -> dict[str, tuple[int, ...]] | None:
    """``{"F": (11,)}`` when the pairs are exactly those in which both stacks hold one of these
    values of these symbols (and anything of the others); ``None`` when they are not."""
    sides = {a for a, _ in pairs}
    if not pairs or sides != {b for _, b in pairs} or len(pairs) != len(sides) ** 2:
        return None
    seen = [tuple(sorted({stack[i] for stack in sides})) for i in range(len(TOKEN_SYMBOLS))]
    if len(sides) != math.prod(len(v) for v in seen):
        return None
    return {
        symbol: values
        for symbol, values, every in zip(TOKEN_SYMBOLS, seen, tokens.values, strict=True)
        if len(values) < len(every)
    }


def _describe_pairs(
    pairs: Sequence[tuple[tuple[int, ...], tuple[int, ...]]], tokens: BonusTokens
) -> str:
    """``both players drew F 11`` when the pairs are exactly those whose two stacks each hold
    one of some symbols' values; otherwise a count and an example."""
    if not pairs:
        return "no pair of stacks"
    narrowed = _narrowed_values(pairs, tokens)
    if narrowed is not None:
        if not narrowed:
            return "they drew any stacks"
        return "both players drew " + " and ".join(
            f"{symbol} {' or '.join(map(str, values))}" for symbol, values in narrowed.items()
        )
    a, b = pairs[0]
    return (
        f"the stacks drawn are one of {len(pairs)} pairs, e.g. {_stack_text(a)} / {_stack_text(b)}"
    )


def _stack_text(stack: Sequence[int]) -> str:
    return " ".join(f"{s}{v}" for s, v in zip(TOKEN_SYMBOLS, stack, strict=True))


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
        return Check("board", (), summary, proofs={"tiles": board.codes()})
    n = len(failures)
    return Check("board", (), f"{n} {_plural(n, 'violation')} of {rule}", failures)


def _stones_check() -> Check:
    distinct = {(s.colour, s.shape) for s in STONES}
    summary = f"{len(distinct)} distinct stones, one of each colour × shape (§1.2)"
    if len(STONES) == len(distinct) == len(PIECES):
        return Check("stones", (), summary)
    return Check("stones", (), summary, (Failure("stones", "§1.2", "stones repeat"),))


def _violation_failure(v: Violation, proof: str = "") -> Failure:
    component = f"card {v.card}" if v.card is not None else "deck"
    if v.card is not None and v.field != "pattern":
        component += f" {v.field}"
    return Failure(component, v.rule, v.message, proof)


def _patterns_check(report: DeckReport) -> Check:
    failures = tuple(_violation_failure(v) for v in report.violations if v.field == "pattern")
    if failures:
        n = len(failures)
        return Check("patterns", (), f"{n} pattern {_plural(n, 'violation')}", failures)
    return Check(
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
        return Check(
            "cards", (), f"{len(failures)} {_plural(len(failures), 'violation')}", failures
        )
    return Check("cards", (), f"{report.cards} cards: ids, match areas, arrows and rewards valid")


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
        return Check(
            "goals", rules, f"{unmet} of {len(report.goals)} goals cannot be met", failures, proofs
        )
    return Check(
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
        return Check("minimums", rules, "no card can score", (failure,))
    proofs: dict[str, Any] = {"best_pattern_points": best_pattern.to_json()}
    if tokens is None:  # the simple game's fixed minimum, rows and columns only
        if config.minimum <= best_pattern.score:
            return Check(
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
        return Check("minimums", rules, "the fixed minimum cannot be reached", (failure,), proofs)
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
        return Check(
            "minimums",
            rules,
            f"{len(failures)} {_plural(len(failures), 'minimum')} out of reach: {summary}",
            failures,
            proofs,
        )
    return Check("minimums", rules, "every minimum can be reached: " + summary, proofs=proofs)


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
    return Check("conditions", rules, summary, tuple(failures), proofs)


def check_set(
    board: Board,
    deck: Deck,
    variants: Sequence[RulesConfig | str] = DEFAULT_VARIANTS,
    *,
    diagonals: bool = False,
    advance: Callable[[int], None] | None = None,
) -> ValidationReport:
    """The static checks of RULES.md §9.1 for ``board`` and ``deck`` under each of
    ``variants``, and the rules findings of the bonus-token analysis.

    ``diagonals`` asks for B-2 as well; ``advance(1)`` is called after each check, for a
    progress bar. Raises :class:`~runarch_gen.errors.ParseError` for an unreadable condition or
    token file named by a variant's rules.
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


class BackgroundChecks:
    """:func:`check_set` in a forked child process, beside other work (the kit draws while the
    set is checked on the other core); :meth:`result` waits for the report, :meth:`close`
    stops the child if it is no longer wanted. Without ``fork`` the checks run at once.
    """

    def __init__(
        self, board: Board, deck: Deck, variants: Sequence[RulesConfig | str], **options: Any
    ) -> None:
        import multiprocessing

        self._report: ValidationReport | None = None
        self._process: Any = None
        if "fork" not in multiprocessing.get_all_start_methods():
            self._report = check_set(board, deck, variants, **options)
            return
        context = multiprocessing.get_context("fork")
        self._receive, send = context.Pipe(duplex=False)
        self._process = context.Process(
            target=_checks_in_child, args=(board, deck, tuple(variants), options, send), daemon=True
        )
        self._process.start()
        send.close()

    def result(self) -> ValidationReport:
        if self._report is None:
            try:
                outcome = self._receive.recv()
            except EOFError:
                outcome = RuntimeError("the static checks stopped without a report")
            finally:
                self.close()
            if isinstance(outcome, BaseException):
                raise outcome
            self._report = outcome
        return self._report

    def close(self) -> None:
        if self._process is not None:
            if self._process.is_alive():
                self._process.terminate()
            self._process.join()
            self._receive.close()
            self._process = None


def _checks_in_child(
    board: Board, deck: Deck, variants: tuple[RulesConfig | str, ...], options: Any, send: Any
) -> None:
    try:
        send.send(check_set(board, deck, variants, **options))
    except BaseException as exc:  # handed to the parent, which raises it
        send.send(exc)
    finally:
        send.close()


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
DEFAULT_DECK_SIZE = 50


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

    from runarch_gen.runarch.boardio import read_board
    from runarch_gen.runarch.deckio import read_deck

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
    if board is not None:
        the_board = read_board(board)
        source["board"] = {"file": display_name(board)}
    else:
        from runarch_gen.runarch.boardgen import generate_board

        the_board = generate_board(seed=seed)
        source["board"] = {"generated": True, "seed": seed}
    if deck is not None:
        the_deck = read_deck(deck)
        source["deck"] = {"file": display_name(deck), "cards": len(the_deck)}
    else:
        from runarch_gen.runarch.deckgen import generate_deck

        the_deck, _ = generate_deck(DEFAULT_DECK_SIZE, seed)
        source["deck"] = {"generated": True, "seed": seed, "cards": DEFAULT_DECK_SIZE}
    source["seed"] = seed
    return GameSet(the_board, the_deck, seed, fresh, source, _manifest_variants(manifest, kit))


def _read_manifest(path: Path) -> Mapping[str, Any]:
    if not path.is_file():
        return {}
    text = read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(f"malformed JSON: {exc.msg}", source=str(path), line=exc.lineno) from None
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


def default_variants(archive_order: str = "overview") -> tuple[str, ...]:
    """The variants validated by default (simple, complex, solo), with the [R-13] archive order
    a kit's player boards print.

    >>> default_variants("article")
    ('simple', 'complex(archive_order=article)', 'solo(archive_order=article)')
    """
    order = ArchiveOrder(archive_order)
    return tuple(
        str(config.with_options(archive_order=order)) if config.has_archives else str(config)
        for config in map(parse_rules, DEFAULT_VARIANTS)
    )


# ---------------------------------------------------------------------------------------------
# The dynamic check and the verdict


@dataclass(frozen=True, slots=True)
class DynamicCheck:
    """Simulated games of one variant (§9.3): how many were played, stalled and deadlocked.

    A *deadlock* is a game the engine proved cannot end (neither side can ever score again); it
    counts among the stalls. Stalls that are not deadlocks mean the bots could not finish a game
    within the stall guard [R-18]: the set fails.
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
            "simulation": dict(self.report),
        }


@dataclass(frozen=True, slots=True)
class ValidationReport:
    """Every check, finding and simulation, and the verdict: can the set be played?

    ``exit_code``: 0 playable; 1 not playable (a static failure, or simulated games that stalled
    without a proven deadlock; with ``strict`` a rules finding too); 130 the dynamic check was
    interrupted.
    """

    variants: tuple[str, ...]
    checks: tuple[Check, ...]
    findings: tuple[RulesFinding, ...]
    dynamic: tuple[DynamicCheck, ...] = ()
    skipped: tuple[tuple[str, str], ...] = ()
    strict: bool = False
    source: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def predicted_deadlock(self, rules: str) -> Fraction | None:
        """The share of ``rules`` games the token analysis proves cannot end (``None``: the
        analysis does not apply to that variant)."""
        for finding in self.findings:
            if finding.kind == "deadlock" and rules in finding.rules:
                return Fraction(str(finding.details["deadlock"]))
        return None

    def failing_checks(self, rules: str | None = None) -> list[Check]:
        return [c for c in self.checks if not c.ok and (rules is None or c.concerns(rules))]

    def playable_in(self, rules: str) -> bool:
        """Whether the set can be played in the variant ``rules`` (one of :attr:`variants`)."""
        if self.failing_checks(rules):
            return False
        for run in self.dynamic:
            if run.rules == rules and (run.unexplained_stalls or (self.strict and run.deadlocks)):
                return False
        return not (self.strict and any(rules in f.rules for f in self.findings))

    @property
    def reasons(self) -> tuple[str, ...]:
        """Why the set cannot be played, one line each; empty when it can."""
        out = []
        for check in self.failing_checks():
            where = f" ({', '.join(check.rules)})" if check.rules else ""
            first = check.failures[0].text
            more = f" (and {len(check.failures) - 1} more)" if len(check.failures) > 1 else ""
            out.append(f"{check.name}{where}: {first}{more}")
        for run in self.dynamic:
            if run.unexplained_stalls:
                out.append(
                    f"{run.rules}: {run.unexplained_stalls} of {run.games} simulated games"
                    " stalled without a proven deadlock: the bots could not finish them"
                    " within the stall guard [R-18]"
                )
            if self.strict and run.deadlocks:
                out.append(f"{run.rules}: {run.deadlocks} of {run.games} games deadlocked (strict)")
        if self.strict:
            out += [f"rules finding (strict): {f.headline}" for f in self.findings]
        return tuple(out)

    @property
    def interrupted(self) -> bool:
        return any(run.interrupted for run in self.dynamic)

    @property
    def playable(self) -> bool:
        return not self.reasons

    @property
    def verdict(self) -> str:
        """``playable``, ``not playable``, or ``interrupted`` when the dynamic check stopped
        before anything failed (a failure found before the interruption stands)."""
        if not self.playable:
            return "not playable"
        return "interrupted" if self.interrupted else "playable"

    @property
    def exit_code(self) -> int:
        if self.interrupted:
            from runarch_gen.errors import EXIT_INTERRUPTED

            return EXIT_INTERRUPTED
        return EXIT_OK if self.playable else EXIT_INVALID

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
            for run in self.dynamic:
                out.append(f"  {run.text}")
                out += [f"    {line}" for line in run.summary]
            out += [f"  {rules}: not simulated: {why}" for rules, why in self.skipped]
        if not self.playable:
            out.append("verdict: NOT PLAYABLE")
            out += [f"  {reason}" for reason in self.reasons]
        elif self.interrupted:
            out.append("verdict: none — interrupted before the dynamic check finished")
        else:
            n = len(self.findings)
            notes = f" ({n} rules finding{'s' if n > 1 else ''} above)" if n else ""
            out.append(
                f"verdict: PLAYABLE — the set can be played in {', '.join(self.variants)}{notes}"
            )
        if self.interrupted:
            out.append("interrupted: the figures above are those of the games that finished")
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
            "dynamic": [
                {k: v for k, v in run.to_json().items() if k not in ("simulation",)}
                | {"median_turns": run.median_turns, "first_player_wins": run.first_player_wins}
                for run in self.dynamic
            ]
            if self.dynamic
            else None,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "playable": self.playable,
            "exit_code": self.exit_code,
            "strict": self.strict,
            "variants": [
                {"rules": rules, "playable": self.playable_in(rules)} for rules in self.variants
            ],
            "reasons": list(self.reasons),
            "set": dict(self.source),
            "checks": [c.to_json() for c in self.checks],
            "rules_findings": [f.to_json() for f in self.findings],
            "dynamic": [run.to_json() for run in self.dynamic],
            "skipped": [{"rules": r, "reason": why} for r, why in self.skipped],
            "interrupted": self.interrupted,
        }


DEFAULT_GAMES = 300
"""Simulated games per variant in the dynamic check (§9.3)."""
DEFAULT_BOTS: tuple[str, ...] = ("greedy",)
"""The bots of the dynamic check: one name plays both seats (the solo game: against the
automa)."""


def _restore_ctrl_c() -> None:
    """Give Ctrl-C back to Python. A CP-SAT solve that catches SIGINT (its default, as in the
    goal witnesses and the deck generator) leaves the signal's default action behind, which
    would kill the process outright instead of letting the simulation stop cleanly."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.getsignal(signal.SIGINT))


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
    diagonals: bool = False,
    simulate_games: bool = True,
    source: Mapping[str, Any] | None = None,
    advance: Callable[[int], None] | None = None,
) -> ValidationReport:
    """Can this set be played? The static checks (:func:`check_set`), then ``games`` simulated
    games per variant between ``bots`` (skipped with ``simulate_games=False``, and for a
    variant whose static checks fail), and the verdict.

    ``seed`` and ``workers`` go to the simulation: the same seed gives the same report whatever
    the number of workers. ``advance(n)`` is called as checks and games finish: first
    :data:`STATIC_STEPS` steps, then one per game. A Ctrl-C during the simulation ends it early:
    the report holds what was finished and says so (exit code 130).
    """
    from runarch_gen.runarch.simulation import check_bots, simulate

    configs = [v if isinstance(v, RulesConfig) else parse_rules(v) for v in variants]
    if simulate_games:
        if games < 1:
            raise InputError(f"games must be at least 1, not {games}")
        for config in configs:
            check_bots(bots, config)  # unknown bots are bad input, before any work
    report = check_set(board, deck, configs, diagonals=diagonals, advance=advance)
    report = replace(report, strict=strict, source=dict(source or {}))
    if not simulate_games:
        return report
    _restore_ctrl_c()

    runs: list[DynamicCheck] = []
    skipped: list[tuple[str, str]] = []
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
    return replace(report, dynamic=tuple(runs), skipped=tuple(skipped))
