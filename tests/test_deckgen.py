"""Deck generation (RULES §1.3, §7, §9.2): the pattern design and its bound, the CP-SAT model's
objective against brute force, and generated decks held against the independent checker."""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.errors import ConstraintError, InputError
from runarch_gen.runarch.atoms import COLOURS, DIRECTIONS, PIECES, SHAPES, Colour, Piece, Shape
from runarch_gen.runarch.decks.cards import Deck, GoalKind, Pattern
from runarch_gen.runarch.decks.check import check_deck
from runarch_gen.runarch.decks.generate import (
    GOAL_THRESHOLDS,
    GenerationReport,
    affine_patterns,
    best_possible_difference,
    build_deck_model,
    candidate_pool,
    check_exact_targets,
    generate_deck,
    renamed,
    shared_positions,
    solve_deck_model,
    solver_parameters,
)
from runarch_gen.runarch.decks.goals import RandomArchiveOdds
from runarch_gen.runarch.decks.io import deck_to_json

# A few sizes and seeds keep the suite quick; bench/bench_decks.py covers 30–100.
SAMPLES = [(30, 1), (37, 2), (50, 3), (64, 4)]


@functools.cache
def generated(cards: int, seed: int, exact: tuple[str, ...] = ()) -> tuple[Deck, GenerationReport]:
    return generate_deck(cards, seed, exact=exact)


def random_pattern(rng: random.Random) -> Pattern:
    colours, shapes = list(COLOURS), list(SHAPES)
    rng.shuffle(colours)
    rng.shuffle(shapes)
    return Pattern(tuple(Piece(c, s) for c, s in zip(colours, shapes, strict=True)))


# ---------------------------------------------------------------------------------------------
# The mathematics behind "best possible"


def test_affine_design_has_400_valid_patterns_any_two_sharing_at_most_one_position() -> None:
    design = affine_patterns()
    assert len(design) == len(set(design)) == 400
    assert all(p.is_valid() for p in design)
    worst = max(shared_positions(a, b) for a, b in itertools.combinations(design, 2))
    assert worst == 1  # so any selection differs pairwise in at least 4 positions


@settings(max_examples=20, deadline=None)
@given(st.permutations(COLOURS), st.permutations(SHAPES), st.permutations(range(5)))
def test_renaming_colours_shapes_and_positions_keeps_shared_positions(
    colours: list[Colour], shapes: list[Shape], positions: list[int]
) -> None:
    design = affine_patterns()[:60]
    moved = renamed(design, colours, shapes, positions)
    assert all(p.is_valid() for p in moved)
    for (a, b), (c, d) in zip(
        itertools.combinations(design, 2), itertools.combinations(moved, 2), strict=True
    ):
        assert shared_positions(a, b) == shared_positions(c, d)


@settings(max_examples=10, deadline=None)
@given(st.integers(26, 40), st.randoms(use_true_random=False))
def test_pigeonhole_more_than_25_patterns_always_share_a_position(
    cards: int, rng: random.Random
) -> None:
    patterns = {random_pattern(rng) for _ in range(cards * 2)}
    deck = list(patterns)[:cards]
    if len(deck) < cards:
        return
    # At position 1 the 25 stones cannot all be different across more than 25 cards.
    assert len({p[0] for p in deck}) < len(deck)
    smallest = min(5 - shared_positions(a, b) for a, b in itertools.combinations(deck, 2))
    assert smallest <= best_possible_difference(cards).value == 4


def test_best_possible_difference_is_4_above_25_cards_and_5_up_to_25() -> None:
    assert [best_possible_difference(n).value for n in (1, 25, 26, 30, 50, 100)] == [
        5,
        5,
        4,
        4,
        4,
        4,
    ]
    assert "pigeonhole" in best_possible_difference(50).reason


def test_balanced_blocks_show_each_colour_and_shape_once_per_position_and_each_stone_once() -> None:
    blocks = candidate_pool(11).blocks
    pool = candidate_pool(11).patterns
    # The affine design's blocks (b, d, k, e): b and d in 1-4 (4 × 4), k in 1-4 except the one
    # value d/b mod 5 that makes the shapes collide (3), e in 0-4 (5): 4 · 4 · 3 · 5 = 240.
    assert len(blocks) == 240
    assert len(set(blocks)) == 240
    for block in blocks:
        patterns = [pool[k] for k in block]
        for i in range(5):
            assert {p[i].colour for p in patterns} == set(COLOURS)
            assert {p[i].shape for p in patterns} == set(SHAPES)
        assert Counter(p for pattern in patterns for p in pattern) == Counter(PIECES)
    # Each slope class holds 5 disjoint blocks, so up to 80 blocks fit together (20 suffice).
    assert max(Counter(k for block in blocks for k in block).values()) == 3


def test_candidate_pool_is_the_design_renamed_by_the_seed() -> None:
    assert candidate_pool(7) == candidate_pool(7)
    assert candidate_pool(7) != candidate_pool(8)
    pool = candidate_pool(7).patterns
    assert len(set(pool)) == 400
    assert max(shared_positions(a, b) for a, b in itertools.combinations(pool[:80], 2)) == 1


# ---------------------------------------------------------------------------------------------
# The model's objective, against brute force, on pools where it matters


patterns = st.builds(
    lambda colours, shapes: Pattern(
        tuple(Piece(c, s) for c, s in zip(colours, shapes, strict=True))
    ),
    st.permutations(COLOURS),
    st.permutations(SHAPES),
)


@settings(max_examples=6, deadline=None)
@given(st.lists(patterns, min_size=6, max_size=8, unique=True), st.integers(3, 5))
def test_model_maximises_the_smallest_difference_like_brute_force(
    pool: list[Pattern], cards: int
) -> None:
    # Random patterns conflict: here the objective decides. No balance targets, so that the
    # answer can be checked against every subset.
    deck_model = build_deck_model(cards, pool, targets=())
    assert deck_model.conflicts == sum(
        1 for a, b in itertools.combinations(pool, 2) if 5 - shared_positions(a, b) < 5
    )
    solution = solve_deck_model(deck_model, seed=1)
    best = max(
        min(5 - shared_positions(a, b) for a, b in itertools.combinations(subset, 2))
        for subset in itertools.combinations(pool, cards)
    )
    chosen = solution.patterns
    assert len(chosen) == cards
    reached = min(5 - shared_positions(a, b) for a, b in itertools.combinations(chosen, 2))
    assert solution.smallest_difference == reached == best
    assert solution.status == "OPTIMAL"


# ---------------------------------------------------------------------------------------------
# Generated decks


@pytest.mark.parametrize(("cards", "seed"), SAMPLES)
def test_independent_checker_accepts_generated_decks(cards: int, seed: int) -> None:
    deck, _ = generated(cards, seed)
    report = check_deck(deck)
    assert report.violations == ()
    assert report.balanced, [f.text for f in report.figures if not f.even]
    # Rewards rise with difficulty; only small decks warn, about §9.1 (see test_deckcheck).
    assert all("§9.1" in warning for warning in report.warnings)
    assert bool(report.warnings) == (cards < 34)


@pytest.mark.parametrize(("cards", "seed"), SAMPLES)
def test_smallest_difference_equals_the_reported_value_and_the_best_possible(
    cards: int, seed: int
) -> None:
    deck, report = generated(cards, seed)
    smallest = min(
        5 - shared_positions(a.pattern, b.pattern) for a, b in itertools.combinations(deck, 2)
    )
    assert report.smallest_difference == smallest == check_deck(deck).differences.smallest
    assert report.best_possible.value == 4
    assert report.proven
    assert report.solver_status == "OPTIMAL"


def _spread_ok(counts: list[int], total: int) -> bool:
    low, high = total // len(counts), math.ceil(total / len(counts))
    return sum(counts) == total and all(low <= n <= high for n in counts)


@pytest.mark.parametrize(("cards", "seed"), SAMPLES)
def test_balance_figures_equal_the_targets(cards: int, seed: int) -> None:
    deck, _ = generated(cards, seed)
    patterns = [card.pattern for card in deck]
    stones = Counter(p for pattern in patterns for p in pattern)
    assert _spread_ok([stones[p] for p in PIECES], 5 * cards)  # N·5/25 each
    for i in range(5):
        colours = Counter(pattern[i].colour for pattern in patterns)
        shapes = Counter(pattern[i].shape for pattern in patterns)
        assert _spread_ok([colours[c] for c in COLOURS], cards)
        assert _spread_ok([shapes[s] for s in SHAPES], cards)
    matches = Counter(card.match for card in deck)
    assert _spread_ok([matches[p] for p in PIECES], cards)  # N/25 each, ±1
    if cards == 50:
        assert set(matches.values()) == {2}  # every match exactly twice
    match_colours = Counter(card.match.colour for card in deck)
    match_shapes = Counter(card.match.shape for card in deck)
    assert _spread_ok([match_colours[c] for c in COLOURS], cards)
    assert _spread_ok([match_shapes[s] for s in SHAPES], cards)
    goals = [card.goal for card in deck]
    kinds = Counter(g.kind for g in goals)
    assert _spread_ok([kinds[k] for k in GoalKind], cards)
    colour_goals = Counter(g.colour for g in goals if g.colour is not None)
    shape_goals = Counter(g.shape for g in goals if g.shape is not None)
    assert _spread_ok([colour_goals[c] for c in COLOURS], colour_goals.total())
    assert _spread_ok([shape_goals[s] for s in SHAPES], shape_goals.total())
    for kind, levels in GOAL_THRESHOLDS.items():
        used = Counter((g.colour_count, g.shape_count) for g in goals if g.kind is kind)
        assert set(used) <= set(levels)
        assert _spread_ok([used[level] for level in levels], kinds[kind])
    firsts = Counter(card.arrows[0] for card in deck)
    seconds = Counter(card.arrows[1] for card in deck)
    assert _spread_ok([firsts[d] for d in DIRECTIONS], cards)
    assert _spread_ok([seconds[d] for d in DIRECTIONS], cards)
    assert _spread_ok([firsts[d] + seconds[d] for d in DIRECTIONS], 2 * cards)
    pairs = Counter(card.arrows for card in deck)
    all_pairs = [(a, b) for a in DIRECTIONS for b in DIRECTIONS if a != b]
    assert _spread_ok([pairs[p] for p in all_pairs], cards)


@pytest.mark.parametrize(("cards", "seed"), SAMPLES[:2])
def test_rewards_rise_with_difficulty(cards: int, seed: int) -> None:
    deck, _ = generated(cards, seed)
    odds = RandomArchiveOdds.from_deck(deck)
    goals = {card.goal.text: card.goal for card in deck}.values()
    rated = sorted(goals, key=odds.exact_chance)
    assert all(3 <= g.reward <= 12 for g in rated)
    rewards = [g.reward for g in rated]  # from the least likely goal to the most likely
    assert rewards == sorted(rewards, reverse=True)
    assert rewards[0] > rewards[-1]


def test_every_goal_has_a_witness_that_holds() -> None:
    deck, report = generated(30, 1)
    assert sorted(text for text, _ in report.witnesses) == sorted({c.goal.text for c in deck})
    by_id = {card.id: card for card in deck}
    for text, witness in report.witnesses:
        goal = next(card.goal for card in deck if card.goal.text == text)
        assert len(witness.card_ids) <= 10
        assert goal.is_met(by_id[i].match for i in witness.card_ids)


def test_solver_is_one_worker_with_a_deterministic_limit_and_no_wall_clock_limit() -> None:
    parameters = solver_parameters(2**40 + 3, 60.0)
    assert parameters["num_workers"] == 1
    assert parameters["max_deterministic_time"] == 60.0
    assert 0 <= parameters["random_seed"] < 2**31
    assert not {"max_time_in_seconds", "interleave_search"} & set(parameters)


def test_same_seed_same_deck_and_another_seed_another_deck() -> None:
    deck, _ = generated(30, 1)
    again, _ = generate_deck(30, 1)
    assert deck_to_json(again) == deck_to_json(deck)
    other, _ = generate_deck(30, 2)
    assert {c.pattern for c in other} != {c.pattern for c in deck}


# ---------------------------------------------------------------------------------------------
# Sizes and exact targets


@pytest.mark.parametrize("cards", [29, 101, 0])
def test_deck_size_outside_30_to_100_is_refused(cards: int) -> None:
    with pytest.raises(InputError, match=r"outside 30–100 \[R-01\]"):
        generate_deck(cards, 1)


def test_exact_target_that_cannot_hold_names_it_and_the_closest_sizes() -> None:
    with pytest.raises(
        ConstraintError, match=r"exact matches: 52 cards .* 50 or 75 cards.* 2 or 3"
    ):
        check_exact_targets(52, ["matches"])
    with pytest.raises(ConstraintError, match=r"exact arrow-pairs: 50 cards .* 56 cards"):
        check_exact_targets(50, ["arrow-pairs"])
    with pytest.raises(ConstraintError, match=r"exact stones: 31 cards .* 30 or 35 cards"):
        check_exact_targets(31, ["stones"])
    with pytest.raises(InputError, match="exact colours: unknown balance target"):
        check_exact_targets(50, ["colours"])
    with pytest.raises(InputError, match="always spread evenly"):
        check_exact_targets(50, ["goal-colours"])
    assert check_exact_targets(40, ["arrow-directions", "stones"]) == {"arrow-directions", "stones"}


def test_exact_arrow_directions_hold_exactly() -> None:
    deck, report = generated(40, 5, ("arrow-directions",))
    assert report.exact == {"arrow-directions"}
    firsts = Counter(card.arrows[0] for card in deck)
    seconds = Counter(card.arrows[1] for card in deck)
    assert set(firsts.values()) == set(seconds.values()) == {5}
    assert len(firsts) == len(seconds) == 8
