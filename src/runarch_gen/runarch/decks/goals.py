"""Goals that can be met, and what they pay (RULES.md §7 [R-23]).

Two questions about a goal on a card of a deck:

- **Can it be met?** Some set of at most 10 cards of the deck fits the three archives' rules
  (§4.3, capacity 5 each [R-14]) and meets it. :func:`find_witness` answers with a *witness*
  (which cards go into which archive) found by a small CP-SAT model, or ``None`` when the model
  proves there is none.
- **What should it pay?** Rewards 3–12 rise with difficulty. Difficulty is a *chance* of the
  goal being met, given by a :class:`GoalOdds`. Today's estimate, :class:`RandomArchiveOdds`,
  counts the 10-card sets of the deck that meet the goal; :class:`MeasuredOdds` takes the rates
  observed in simulated games instead, so calibrated rewards replace the estimate without any
  other change. :func:`reward_for_chance` turns a chance into points.

>>> from runarch_gen.runarch.atoms import PIECES
>>> from runarch_gen.runarch.decks.cards import parse_goal
>>> odds = RandomArchiveOdds(PIECES * 2)  # a 50-card deck: every match twice
>>> [reward_for_chance(odds.chance(parse_goal(t, 0))) for t in ("blue>=2", "blue>=4")]
[4, 8]
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Protocol

from runarch_gen.runarch.archives import ARCHIVE_CAPACITY, ArchiveRule
from runarch_gen.runarch.atoms import COLOURS, SHAPES, Piece
from runarch_gen.runarch.counts import CARDS_TO_END
from runarch_gen.runarch.decks.cards import MAX_REWARD, MIN_REWARD, Card, Deck, Goal, GoalKind
from runarch_gen.solver import solve

MAX_ARCHIVED = CARDS_TO_END
"""A goal must be met by at most this many archived cards (§7): the complex game ends in the
round in which a player places their 10th card (§5)."""

REWARD_PER_BIT = 1.5
"""Points per halving of the chance: a goal half as likely pays 1.5 points more."""


# ---------------------------------------------------------------------------------------------
# Witnesses


@dataclass(frozen=True, slots=True)
class Witness:
    """Cards, by id, placed in archives that accept them, that together meet a goal.

    ``placement`` lists every archive rule (in :class:`ArchiveRule` order) with its card ids.
    """

    placement: tuple[tuple[ArchiveRule, tuple[int, ...]], ...]

    @property
    def card_ids(self) -> tuple[int, ...]:
        return tuple(card_id for _, ids in self.placement for card_id in ids)

    def cards_in(self, rule: ArchiveRule) -> tuple[int, ...]:
        for placed_rule, ids in self.placement:
            if placed_rule is rule:
                return ids
        return ()

    def to_json(self) -> dict[str, list[int]]:
        return {rule.value: list(ids) for rule, ids in self.placement}

    @property
    def text(self) -> str:
        """``same: 3, 7; shapes: 12; colours: -``"""
        return "; ".join(
            f"{rule.value}: {', '.join(map(str, ids)) if ids else '-'}"
            for rule, ids in self.placement
        )


def find_witness(
    goal: Goal,
    cards: Iterable[Card],
    *,
    capacity: int = ARCHIVE_CAPACITY,
    max_cards: int = MAX_ARCHIVED,
) -> Witness | None:
    """The fewest cards of ``cards`` that fit the archives and meet ``goal``, or ``None``.

    Only the cards' match areas matter (§4.3), so the model counts how many cards of each of the
    25 match areas go into each archive; the witness then names the lowest card ids of each.
    ``None`` means CP-SAT proved that no placement exists.

    >>> from runarch_gen.runarch.atoms import parse_piece
    >>> from runarch_gen.runarch.decks.cards import parse_goal, parse_pattern
    >>> p = parse_pattern("0R,3B,4G,5Y,6V")
    >>> deck = [Card(i, p, parse_piece(m), parse_goal("red>=1", 3), ()) for i, m in
    ...         enumerate(["0B", "3B", "4B", "3R"], 1)]
    >>> sorted(find_witness(parse_goal("blue>=3 & triangle>=2", 6), deck).card_ids)
    [1, 2, 3, 4]
    >>> find_witness(parse_goal("blue>=4", 6), deck) is None
    True
    """
    from ortools.sat.python import cp_model

    by_match: dict[Piece, list[int]] = {}
    for card in cards:
        by_match.setdefault(card.match, []).append(card.id)
    for ids in by_match.values():
        ids.sort()
    types = sorted(by_match)  # match areas present in the deck

    model = cp_model.CpModel()
    rules = tuple(ArchiveRule)
    placed = {
        (rule, piece): model.new_int_var(0, min(len(by_match[piece]), capacity), "")
        for rule in rules
        for piece in types
    }
    # SAME holds cards of one colour or of one shape: choose that key (5 colours + 5 shapes).
    colour_key = {c: model.new_bool_var("") for c in COLOURS}
    shape_key = {s: model.new_bool_var("") for s in SHAPES}
    model.add_exactly_one([*colour_key.values(), *shape_key.values()])
    for piece in types:
        available = len(by_match[piece])
        keyed = colour_key[piece.colour] + shape_key[piece.shape]
        model.add(placed[ArchiveRule.SAME, piece] <= min(available, capacity) * keyed)
        model.add(sum(placed[rule, piece] for rule in rules) <= available)
    for rule in rules:
        model.add(sum(placed[rule, piece] for piece in types) <= capacity)
    for shape in SHAPES:  # SHAPES: all different shapes
        model.add(sum(placed[ArchiveRule.SHAPES, p] for p in types if p.shape == shape) <= 1)
    for colour in COLOURS:  # COLOURS: all different colours
        model.add(sum(placed[ArchiveRule.COLOURS, p] for p in types if p.colour == colour) <= 1)
    total = sum(placed.values())
    model.add(total <= max_cards)

    def count(selects: Callable[[Piece], bool]) -> cp_model.LinearExprT:
        return sum(placed[rule, p] for rule in rules for p in types if selects(p))

    kind = goal.kind
    if kind in (GoalKind.COLOUR, GoalKind.COLOUR_AND_SHAPE):
        model.add(count(lambda p: p.colour == goal.colour) >= goal.colour_count)
    if kind in (GoalKind.SHAPE, GoalKind.COLOUR_AND_SHAPE):
        model.add(count(lambda p: p.shape == goal.shape) >= goal.shape_count)
    if kind is GoalKind.COLOURS:
        present = [model.new_bool_var("") for _ in COLOURS]
        for colour, flag in zip(COLOURS, present, strict=True):
            model.add(flag <= count(lambda p, c=colour: p.colour == c))  # type: ignore[misc]
        model.add(sum(present) >= goal.colour_count)
    if kind is GoalKind.SHAPES:
        present = [model.new_bool_var("") for _ in SHAPES]
        for shape, flag in zip(SHAPES, present, strict=True):
            model.add(flag <= count(lambda p, s=shape: p.shape == s))  # type: ignore[misc]
        model.add(sum(present) >= goal.shape_count)
    model.minimize(total)

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # sequential search: deterministic
    solver.parameters.random_seed = 0
    solver.parameters.max_deterministic_time = 10.0
    # The LP relaxation proves "this many cards at least" at once; without it, proving that a
    # 5-card witness is the smallest can take seconds.
    solver.parameters.linearization_level = 2
    status = solve(solver, model)
    if status == cp_model.INFEASIBLE:
        return None
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise RuntimeError(f"goal {goal.text!r}: the witness search ended {solver.status_name()}")

    next_card = dict.fromkeys(types, 0)
    placement: list[tuple[ArchiveRule, tuple[int, ...]]] = []
    for rule in rules:
        chosen: list[int] = []
        for piece in types:
            for _ in range(solver.value(placed[rule, piece])):
                chosen.append(by_match[piece][next_card[piece]])
                next_card[piece] += 1
        placement.append((rule, tuple(sorted(chosen))))
    return Witness(tuple(placement))


# ---------------------------------------------------------------------------------------------
# Difficulty and rewards


class GoalOdds(Protocol):
    """How likely a goal is to be met, 0–1. Rewards follow from it (:func:`reward_for_chance`)."""

    def chance(self, goal: Goal) -> float: ...


@dataclass(frozen=True, slots=True)
class RandomArchiveOdds:
    """The estimate from the deck alone: the share of all ``cards``-card sets of the deck whose
    match areas meet the goal — the chance that a player who archived 10 cards at random meets
    it. Exact (counted with binomial coefficients), not sampled.

    It ignores the archive rules and the players' choices, so it is a measure of *relative*
    difficulty; :class:`MeasuredOdds` replaces it with rates from simulated play.
    """

    matches: tuple[Piece, ...]
    cards: int = MAX_ARCHIVED

    @classmethod
    def from_deck(cls, deck: Deck | Sequence[Card], cards: int = MAX_ARCHIVED) -> RandomArchiveOdds:
        return cls(tuple(card.match for card in deck), cards)

    def chance(self, goal: Goal) -> float:
        return float(self.exact_chance(goal))

    def exact_chance(self, goal: Goal) -> Fraction:
        total = len(self.matches)
        drawn = min(self.cards, total)
        kind = goal.kind
        if kind is GoalKind.COLOURS:
            groups = Counter(p.colour for p in self.matches)
            meeting = _sets_with_distinct(list(groups.values()), drawn, goal.colour_count)
        elif kind is GoalKind.SHAPES:
            groups_s = Counter(p.shape for p in self.matches)
            meeting = _sets_with_distinct(list(groups_s.values()), drawn, goal.shape_count)
        else:
            meeting = self._sets_meeting_counts(goal, drawn)
        return Fraction(meeting, math.comb(total, drawn))

    def _sets_meeting_counts(self, goal: Goal, drawn: int) -> int:
        # Four kinds of card: the goal's colour and shape, colour only, shape only, neither.
        def has_colour(p: Piece) -> bool:
            return goal.colour is not None and p.colour == goal.colour

        def has_shape(p: Piece) -> bool:
            return goal.shape is not None and p.shape == goal.shape

        both = sum(has_colour(p) and has_shape(p) for p in self.matches)
        colour_only = sum(has_colour(p) and not has_shape(p) for p in self.matches)
        shape_only = sum(has_shape(p) and not has_colour(p) for p in self.matches)
        neither = len(self.matches) - both - colour_only - shape_only
        need_colour = goal.colour_count if goal.colour is not None else 0
        need_shape = goal.shape_count if goal.shape is not None else 0
        meeting = 0
        for i in range(min(both, drawn) + 1):
            for j in range(min(colour_only, drawn - i) + 1):
                for k in range(min(shape_only, drawn - i - j) + 1):
                    if i + j >= need_colour and i + k >= need_shape:
                        meeting += (
                            math.comb(both, i)
                            * math.comb(colour_only, j)
                            * math.comb(shape_only, k)
                            * math.comb(neither, drawn - i - j - k)
                        )
        return meeting


def _sets_with_distinct(group_sizes: list[int], drawn: int, at_least: int) -> int:
    """How many ``drawn``-sets of the cards touch at least ``at_least`` of the groups."""
    ways: dict[tuple[int, int], int] = {(0, 0): 1}  # (groups touched, cards taken) -> sets
    for size in group_sizes:
        grown: dict[tuple[int, int], int] = {}
        for (touched, taken), n in ways.items():
            for take in range(min(size, drawn - taken) + 1):
                key = (touched + (take > 0), taken + take)
                grown[key] = grown.get(key, 0) + n * math.comb(size, take)
        ways = grown
    return sum(n for (touched, taken), n in ways.items() if taken == drawn and touched >= at_least)


@dataclass(frozen=True, slots=True)
class MeasuredOdds:
    """Chances observed in simulated play, keyed by goal text (``blue>=3``); goals never
    observed fall back to another estimate. ``deck --calibrate`` fills it from
    :mod:`runarch_gen.runarch.analysis.calibration`."""

    rates: Mapping[str, float]
    fallback: GoalOdds

    def chance(self, goal: Goal) -> float:
        rate = self.rates.get(goal.text)
        return self.fallback.chance(goal) if rate is None else rate


def reward_for_chance(chance: float) -> int:
    """Reward points for a goal met with probability ``chance``: 3 for a sure goal, 1.5 points
    more for every halving of the chance, at most 12 [R-23].

    >>> [reward_for_chance(p) for p in (1.0, 0.5, 0.25, 0.1, 0.01, 0.0)]
    [3, 5, 6, 8, 12, 12]
    """
    if chance <= 0:
        return MAX_REWARD
    bits = -math.log2(min(chance, 1.0))
    points = math.floor(MIN_REWARD + REWARD_PER_BIT * bits + 0.5)
    return max(MIN_REWARD, min(MAX_REWARD, points))


def rewarded(goal: Goal, odds: GoalOdds) -> Goal:
    """``goal`` with the reward its chance under ``odds`` earns."""
    return replace(goal, reward=reward_for_chance(odds.chance(goal)))


def reward_deck(deck: Deck, odds: GoalOdds) -> Deck:
    """``deck`` with every goal's reward set from its chance under ``odds`` (its calibration
    record, if any, is kept: the caller sets a new one)."""
    cards = tuple(replace(card, goal=rewarded(card.goal, odds)) for card in deck)
    return replace(deck, cards=cards)
