"""The bots' fast planning against the straightforward computation it stands for.

``Position`` keeps square masks, trade tables and unrolled loops for speed (the greedy bot's
hot path); every answer here is recomputed from the stones alone — distances between squares,
the colour and shape a stone shares with each pattern stone — and must agree exactly, ties
and their order included.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.runarch.bots.planning import (
    BONUS_STEP_COST,
    PAIRS_AT,
    Position,
    knowledge,
    pairs_mask,
    pairs_of_mask,
)
from runarch_gen.runarch.engine import RunArchGame
from runarch_gen.runarch.engine.sample import sample_board, sample_deck
from runarch_gen.runarch.engine.tables import PAIR_A, PAIR_B, PAIRS
from runarch_gen.runarch.rules import MatchBonus, parse_rules

DECK = sample_deck(50)
GAMES = {
    bonus: RunArchGame(
        parse_rules(f"complex(match_bonus={bonus.value})"), sample_board(), DECK, deck_name="s"
    )
    for bonus in MatchBonus
}


def distance(a: int, b: int, phase: int) -> int:
    dr, dc = abs(a // 5 - b // 5), abs(a % 5 - b % 5)
    return dr + dc if phase == 1 else max(dr, dc)


def earns(pattern_stone: int, stone: int) -> bool:
    return pattern_stone // 5 == stone // 5 or pattern_stone % 5 == stone % 5


def reference_cost(
    game: RunArchGame, stones: list[int], card: int, squares: tuple[int, ...], phase: int
) -> tuple[list[int], list[int]]:
    """Per pattern position: distance to the nearest stone earning a point, and the exact
    stone's extra distance — from the stones alone."""
    pattern = [p.index for p in game.cards[card].pattern]
    nears, extras = [], []
    for i, q in enumerate(squares):
        near = min(distance(sq, q, phase) for sq in range(25) if earns(pattern[i], stones[sq]))
        exact = stones.index(pattern[i])
        nears.append(near)
        extras.append(distance(exact, q, phase) - near)
    return nears, extras


def potential(nears: list[int], extras: list[int], need: int) -> int:
    k = need - 5
    if k <= 0:
        return sum(nears)
    if k >= 5:
        return sum(nears) + sum(extras) + BONUS_STEP_COST * (k - 5)
    return sum(nears) + sum(sorted(extras)[:k])


def need_of(
    game: RunArchGame, stones: list[int], card: int, line: int, phase: int, minimum: int
) -> int:
    return minimum - (knowledge(game).match_bonus(stones, card, line) if phase == 4 else 0)


Case = tuple[MatchBonus, list[int], list[int], int, int]
positions = st.tuples(
    st.sampled_from(list(MatchBonus)),
    st.permutations(list(range(25))),
    st.lists(st.integers(0, len(DECK) - 1), min_size=1, max_size=3, unique=True),
    st.integers(1, 4),
    st.integers(5, 13),
)


@settings(max_examples=60, deadline=None)
@given(positions)
def test_best_targets_are_the_straightforward_potentials_sorted(case: Case) -> None:
    bonus, stones, hand, phase, minimum = case
    game = GAMES[bonus]
    position = Position(knowledge(game), stones, hand, phase, minimum)
    expected = []
    for slot, card in enumerate(hand):
        for line, squares in position.targets:
            nears, extras = reference_cost(game, stones, card, squares, phase)
            need = need_of(game, stones, card, line, phase, minimum)
            expected.append((potential(nears, extras, need), slot, line, squares))
            assert position.cost(slot, squares, need) == expected[-1][0]
            assert position.terms(slot, squares) == (nears, extras)
    assert position.best_targets() == sorted(expected)


@settings(max_examples=60, deadline=None)
@given(positions, st.data())
def test_best_swap_is_the_lowest_potential_after_each_candidate(
    case: Case, data: st.DataObject
) -> None:
    bonus, stones, hand, phase, minimum = case
    game = GAMES[bonus]
    position = Position(knowledge(game), stones, hand, phase, minimum)
    slot = data.draw(st.integers(0, len(hand) - 1))
    line, squares = data.draw(st.sampled_from(position.targets))
    excluded = set(data.draw(st.lists(st.integers(0, len(PAIRS) - 1), max_size=8)))
    card = hand[slot]
    nears, extras = reference_cost(game, stones, card, squares, phase)
    need = need_of(game, stones, card, line, phase, minimum)
    cost = potential(nears, extras, need)
    candidates = position.candidate_swaps(slot, squares, nears, extras, need)
    assert candidates <= {p for at in PAIRS_AT[phase] for p in at}
    best = None
    for pair in sorted(candidates - excluded):
        after = stones[:]
        a, b = PAIR_A[pair], PAIR_B[pair]
        after[a], after[b] = after[b], after[a]
        n, e = reference_cost(game, after, card, squares, phase)
        value = potential(n, e, need_of(game, after, card, line, phase, minimum))
        if value < (cost if best is None else best[1]):
            best = (cost, value, pair)
    assert position.best_swap(slot, line, squares, excluded) == best
    assert position.best_swap(slot, line, squares, pairs_mask(excluded)) == best
    prepared = position.prepare(slot, line, squares)
    for pair in sorted(candidates)[:6]:
        after = stones[:]
        a, b = PAIR_A[pair], PAIR_B[pair]
        after[a], after[b] = after[b], after[a]
        n, e = reference_cost(game, after, card, squares, phase)
        need_after = need_of(game, after, card, line, phase, minimum)
        assert position.terms_after(prepared, pair) == (n, e, need_after)
        assert position.cost_after(prepared, pair) == potential(n, e, need_after)
        assert position.totals_after(prepared, pair) == (sum(n), e, need_after)


exact_positions = st.tuples(
    st.sampled_from(list(MatchBonus)),
    st.permutations(list(range(25))),
    st.lists(st.integers(0, len(DECK) - 1), min_size=1, max_size=3, unique=True),
    st.integers(1, 3),
    st.integers(10, 14),
)


@settings(max_examples=80, deadline=None)
@given(exact_positions, st.data())
def test_best_swap_needing_every_exact_stone_is_the_best_of_all_swaps(
    case: Case, data: st.DataObject
) -> None:
    # A minimum of 10 or more outside phase 4: every position needs its exact stone, and
    # best_swap looks only at swaps bringing one closer. No other swap of the phase may do
    # better: the best of them all, lowest pair first on a tie, is its answer.
    bonus, stones, hand, phase, minimum = case
    game = GAMES[bonus]
    position = Position(knowledge(game), stones, hand, phase, minimum)
    slot = data.draw(st.integers(0, len(hand) - 1))
    line, squares = data.draw(st.sampled_from(position.targets))
    excluded = set(data.draw(st.lists(st.integers(0, len(PAIRS) - 1), max_size=8)))
    card = hand[slot]
    cost = potential(*reference_cost(game, stones, card, squares, phase), minimum)
    best = None
    for pair in sorted({p for at in PAIRS_AT[phase] for p in at} - excluded):
        after = stones[:]
        a, b = PAIR_A[pair], PAIR_B[pair]
        after[a], after[b] = after[b], after[a]
        value = potential(*reference_cost(game, after, card, squares, phase), minimum)
        if value < (cost if best is None else best[1]):
            best = (cost, value, pair)
    assert position.best_swap(slot, line, squares, excluded) == best
    assert position.best_exact_swap(slot, squares, pairs_mask(excluded)) == best
    if best is not None:  # the limit: nothing when the potential now is above it
        assert position.best_swap(slot, line, squares, excluded, cost - 1) is None
        assert position.best_swap(slot, line, squares, excluded, cost) == best


@settings(max_examples=60, deadline=None)
@given(positions, st.lists(st.integers(0, len(PAIRS) - 1), max_size=6), st.randoms())
def test_an_updated_position_is_the_position_built_afresh(
    case: Case, swaps: list[int], rng: random.Random
) -> None:
    bonus, stones, hand, phase, minimum = case
    known = knowledge(GAMES[bonus])
    position = Position(known, stones, hand, phase, minimum)
    moved = stones[:]
    for pair in swaps:  # some swaps played on the planning position itself
        a, b = PAIR_A[pair], PAIR_B[pair]
        if rng.random() < 0.5:
            position.swap(a, b)
            moved = position.stones[:]
    for pair in swaps:  # the stones the game then shows
        a, b = PAIR_A[pair], PAIR_B[pair]
        moved[a], moved[b] = moved[b], moved[a]
    position.update(tuple(moved))
    fresh = Position(known, moved, hand, phase, minimum)
    position.refresh()  # the cards' lists are brought up to date when read
    fresh.refresh()
    for name in ("stones", "stone_at", "near_masks", "exact_at", "colour_squares", "shape_squares"):
        assert getattr(position, name) == getattr(fresh, name), name


@given(st.sets(st.integers(0, len(PAIRS) - 1)))
def test_pair_masks_round_trip(pairs: set[int]) -> None:
    assert pairs_of_mask(pairs_mask(pairs)) == sorted(pairs)
