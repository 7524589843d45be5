"""§9.1's deck-size check at its boundary, for every variant: a deck of exactly the cards
needed passes and one card fewer fails. The needed sizes are derived here from the rules text,
not from the code: setup (§3 steps 4–5: the deal of [R-04] to each player and 4 cards in the
offer; §5.1: two cards in each hand in the simple game; §8: one player in the solo game) plus
at least 10 draws per player (§9.1)."""

from __future__ import annotations

import pytest

from runarch_gen.runarch.engine.sample import sample_deck
from runarch_gen.runarch.rules import parse_rules
from runarch_gen.runarch.validation.validate import _deck_size_check

NEEDED = {
    "simple": 2 * 2 + 2 * 10,  # two hands of 2, 10 draws each: 24
    "complex": 2 * 5 + 4 + 2 * 10,  # 5 dealt to each, 4 in the offer, 10 draws each: 34
    "complex(deal=4)": 2 * 4 + 4 + 2 * 10,  # 32
    "classic": 2 * 5 + 4 + 2 * 10,  # 34
    "solo": 1 * 5 + 4 + 1 * 10,  # one player: 19
    "solo(deal=4)": 1 * 4 + 4 + 1 * 10,  # 18
}


@pytest.mark.parametrize(("variant", "needed"), NEEDED.items())
def test_deck_size_9_1_exactly_the_needed_cards_pass_and_one_fewer_fails(
    variant: str, needed: int
) -> None:
    config = parse_rules(variant)
    assert _deck_size_check(sample_deck(needed), config).ok
    short = _deck_size_check(sample_deck(needed - 1), config)
    assert not short.ok and short.failures[0].rule == "§9.1"


@pytest.mark.parametrize(("cards", "best"), [(24, 5), (25, 5), (26, 4), (30, 4)])
def test_pattern_difference_bound_pigeonhole_at_25_stones(cards: int, best: int) -> None:
    # 25 different stones (5 colours × 5 shapes): up to 25 cards can show a different stone at
    # every position, so two patterns may differ everywhere (5); a 26th card must repeat some
    # stone at position 1, so the best any deck of 26 or more can reach is 4.
    from runarch_gen.runarch.decks.check import _differences

    assert _differences(sample_deck(cards).cards).best_possible == best


@pytest.mark.parametrize(("minimum", "reachable"), [(6, True), (7, True), (8, False)])
def test_R10_a_minimum_equal_to_the_best_score_is_within_reach(
    minimum: int, reachable: bool
) -> None:
    # RULES §4.2 / [R-10]: the pattern points must *reach* the minimum, so a best of
    # exactly the minimum is enough and one point less is not.
    from runarch_gen.runarch.analysis.best_score import ScoreWitness
    from runarch_gen.runarch.validation.validate import _minimums_check

    best = ScoreWitness(card=1, line="r1", pattern_points=7, match_bonus=0, stones=tuple(range(25)))
    config = parse_rules(f"simple(minimum={minimum})")
    check = _minimums_check(config, (str(config),), None, best, None)
    assert check.ok is reachable
