"""Goals (RULES §7 [R-23]): achievability witnesses against brute force and worked examples,
chances counted two ways, and rewards that rise with difficulty."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.runarch.archives import ArchiveRule, fits
from runarch_gen.runarch.atoms import COLOURS, PIECES, SHAPES, Piece, parse_piece
from runarch_gen.runarch.decks.cards import Card, Goal, GoalKind, parse_goal, parse_pattern
from runarch_gen.runarch.decks.goals import (
    MeasuredOdds,
    RandomArchiveOdds,
    find_witness,
    reward_for_chance,
    rewarded,
)

PATTERN = parse_pattern("0R,3B,4G,5Y,6V")


def cards_with(matches: list[Piece]) -> list[Card]:
    goal = parse_goal("red>=1", 3)
    return [Card(i, PATTERN, m, goal, ()) for i, m in enumerate(matches, start=1)]


def codes(text: str) -> list[Piece]:
    return [parse_piece(code) for code in text.split()]


def brute_force_achievable(goal: Goal, matches: list[Piece], capacity: int = 5) -> bool:
    """Try every placement of every card: none, SAME, SHAPES or COLOURS."""
    rules = (None, ArchiveRule.SAME, ArchiveRule.SHAPES, ArchiveRule.COLOURS)
    for placement in itertools.product(rules, repeat=len(matches)):
        placed = [m for m, rule in zip(matches, placement, strict=True) if rule is not None]
        if len(placed) > 10:
            continue
        archives_ok = all(
            len(held) <= capacity and fits(rule, held)
            for rule in rules[1:]
            for held in [[m for m, r in zip(matches, placement, strict=True) if r is rule]]
        )
        if archives_ok and goal.is_met(placed):
            return True
    return False


goals = st.one_of(
    st.builds(
        lambda c, n: Goal(GoalKind.COLOUR, 5, colour=c, colour_count=n),
        st.sampled_from(COLOURS),
        st.integers(1, 6),
    ),
    st.builds(
        lambda s, n: Goal(GoalKind.SHAPE, 5, shape=s, shape_count=n),
        st.sampled_from(SHAPES),
        st.integers(1, 6),
    ),
    st.builds(
        lambda c, a, s, b: Goal(GoalKind.COLOUR_AND_SHAPE, 5, c, a, s, b),
        st.sampled_from(COLOURS),
        st.integers(1, 4),
        st.sampled_from(SHAPES),
        st.integers(1, 4),
    ),
    st.builds(lambda k: Goal(GoalKind.COLOURS, 5, colour_count=k), st.integers(1, 6)),
    st.builds(lambda k: Goal(GoalKind.SHAPES, 5, shape_count=k), st.integers(1, 6)),
)
# Few colours and shapes, so that archives clash often.
small_matches = st.lists(
    st.builds(Piece, st.sampled_from(COLOURS[:3]), st.sampled_from(SHAPES[:3])),
    min_size=1,
    max_size=6,
)


@settings(max_examples=60, deadline=None)
@given(goals, small_matches)
def test_witness_exists_exactly_when_brute_force_finds_a_placement(
    goal: Goal, matches: list[Piece]
) -> None:
    cards = cards_with(matches)
    witness = find_witness(goal, cards)
    assert (witness is not None) == brute_force_achievable(goal, matches)
    if witness is not None:
        by_id = {card.id: card.match for card in cards}
        for rule, ids in witness.placement:
            assert len(ids) <= 5
            assert fits(rule, [by_id[i] for i in ids])
        assert goal.is_met(by_id[i] for i in witness.card_ids)


def test_seed_example_three_blue_and_two_triangles_needs_four_cards() -> None:
    # RULES §1.3: "at least 3 blue and at least 2 triangle cards" — 3B counts for both.
    cards = cards_with(codes("0B 3B 4B 3R 5G"))
    witness = find_witness(parse_goal("blue>=3 & triangle>=2", 6), cards)
    assert witness is not None
    assert sorted(witness.card_ids) == [1, 2, 3, 4]


def test_at_most_ten_cards_caps_a_single_colour_at_ten() -> None:
    # SAME 5 blue + SHAPES 5 blue of different shapes + COLOURS 1 blue = 11 cards: over 10 [§7].
    blue = [Piece(COLOURS[1], s) for s in SHAPES] * 3
    cards = cards_with(blue)
    assert find_witness(parse_goal("blue>=10", 9), cards) is not None
    assert find_witness(parse_goal("blue>=11", 9), cards) is None
    assert find_witness(parse_goal("blue>=11", 9), cards, max_cards=11) is not None


def test_classic_archives_of_four_hold_less_r27() -> None:
    blue = [Piece(COLOURS[1], s) for s in SHAPES] * 3
    cards = cards_with(blue)
    assert find_witness(parse_goal("blue>=9", 9), cards, capacity=4) is not None
    assert find_witness(parse_goal("blue>=10", 9), cards, capacity=4) is None


def test_six_colours_cannot_be_met() -> None:
    cards = cards_with(list(PIECES))
    assert find_witness(parse_goal("colours>=5", 5), cards) is not None
    assert find_witness(parse_goal("colours>=6", 5), cards) is None


# ---------------------------------------------------------------------------------------------
# Chances, counted two ways


@settings(max_examples=40, deadline=None)
@given(goals, st.lists(st.sampled_from(PIECES[:12]), min_size=4, max_size=11), st.integers(1, 4))
def test_chance_counts_the_card_sets_that_meet_the_goal(
    goal: Goal, matches: list[Piece], drawn: int
) -> None:
    odds = RandomArchiveOdds(tuple(matches), cards=drawn)
    subsets = list(itertools.combinations(range(len(matches)), min(drawn, len(matches))))
    meeting = sum(1 for s in subsets if goal.is_met(matches[i] for i in s))
    assert odds.exact_chance(goal) == Fraction(meeting, len(subsets))


def test_chance_of_a_single_colour_is_hypergeometric() -> None:
    odds = RandomArchiveOdds(PIECES * 2)  # 50 cards, 10 of each colour
    expected = sum(math.comb(10, j) * math.comb(40, 10 - j) for j in range(3, 11))
    assert odds.exact_chance(parse_goal("blue>=3", 0)) == Fraction(expected, math.comb(50, 10))


# ---------------------------------------------------------------------------------------------
# Rewards


@given(st.floats(0, 1), st.floats(0, 1))
def test_rewards_rise_as_the_chance_falls_and_stay_between_3_and_12(p: float, q: float) -> None:
    low, high = sorted((p, q))
    assert 3 <= reward_for_chance(high) <= reward_for_chance(low) <= 12


def test_reward_points_per_halving_of_the_chance() -> None:
    assert [reward_for_chance(p) for p in (1, 0.5, 0.25, 0.125)] == [3, 5, 6, 8]
    assert reward_for_chance(0.0) == 12


def test_measured_rates_replace_the_estimate_goal_by_goal() -> None:
    estimate = RandomArchiveOdds(PIECES * 2)
    measured = MeasuredOdds({"blue>=3": 0.9}, fallback=estimate)
    blue, red = parse_goal("blue>=3", 0), parse_goal("red>=3", 0)
    assert rewarded(blue, measured).reward == 3  # played often: cheap
    assert rewarded(red, measured).reward == rewarded(red, estimate).reward > 3
