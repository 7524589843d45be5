"""The bear-off database against an independent expectimax: small positions recomputed with
the reference move generator (which shares no code with the engine or the database), the
index a bijection, distributions that sum to one, and two-sided chances from them."""

from __future__ import annotations

from functools import cache
from itertools import product

import numpy as np
import pytest

from runarch_gen.backgammon.bearoff import (
    MAX_ROLLS,
    POSITIONS,
    all_positions,
    bearoff_index,
    bearoff_probabilities,
    load_bearoff,
)
from runarch_gen.backgammon.board import side_from_points
from tests.backgammon.reference import from_sides, reference_plays, to_sides

ROLLS = [(a, b, (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(1, a + 1)]
NOBODY = side_from_points({0: 15})


@cache
def expected_rolls(counts: tuple[int, ...]) -> float:
    """The fewest expected rolls to bear off, by plain expectimax over the reference plays."""
    if not any(counts):
        return 0.0
    side = side_from_points({p + 1: n for p, n in enumerate(counts) if n} | {0: 15 - sum(counts)})
    total = 0.0
    for a, b, chance in ROLLS:
        finals = reference_plays(from_sides(side, NOBODY), a, b)
        best = min(expected_rolls(tuple(to_sides(f)[0][1:7])) for f in finals)
        total += chance * (1.0 + best)
    return total


def test_the_index_numbers_every_position_once() -> None:
    positions = all_positions()
    assert positions.shape == (POSITIONS, 6) == (54_264, 6)
    assert np.array_equal(bearoff_index(positions), np.arange(POSITIONS))
    assert positions.sum(axis=1).max() == 15


def test_distributions_sum_to_one() -> None:
    table = load_bearoff()
    assert table.off.shape == (POSITIONS, MAX_ROLLS)
    assert np.allclose(table.off.sum(axis=1), 1.0, atol=1e-3)
    assert np.allclose(table.first.sum(axis=1), 1.0, atol=1e-3)


@pytest.mark.parametrize("checkers", [1, 2, 3])
def test_expected_rolls_match_an_independent_expectimax(checkers: int) -> None:
    table = load_bearoff()
    for counts in product(range(checkers + 1), repeat=6):
        if sum(counts) != checkers:
            continue
        side = side_from_points({p + 1: n for p, n in enumerate(counts) if n} | {0: 15 - checkers})
        assert table.mean(side) == pytest.approx(expected_rolls(counts), abs=2e-3), counts


def test_known_bear_offs() -> None:
    table = load_bearoff()
    # two checkers on the 1-point: always off in one roll; on the 6-point only with doubles
    # of 3 or more, or a 6 and ... : 4 of 36 rolls (33, 44, 55, 66)
    assert table.rolls(side_from_points({1: 2, 0: 13}))[1] == pytest.approx(1.0)
    assert table.rolls(side_from_points({6: 2, 0: 13}))[1] == pytest.approx(4 / 36, abs=1e-4)


def test_two_sided_chances() -> None:
    one = side_from_points({1: 1, 0: 14})
    far = side_from_points({6: 2, 0: 13})
    assert bearoff_probabilities(one, far)[0] == pytest.approx(1.0)  # on roll, off at once
    # the far side on roll wins only by bearing off both at once: 4 rolls of 36
    assert bearoff_probabilities(far, one)[0] == pytest.approx(4 / 36, abs=1e-4)
    # gammons: a side with all 15 on the board loses a gammon if the other is off first
    fifteen = side_from_points({6: 5, 5: 5, 4: 5})
    chances = bearoff_probabilities(one, fifteen)
    assert chances[1] == pytest.approx(1.0) and chances[3] == 0.0
