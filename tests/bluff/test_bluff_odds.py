"""The odds against brute-force enumeration of every roll."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.bluff.odds import at_least, bid_holds, odds_table, tail_table
from runarch_gen.errors import InputError


def _enumerate(
    quantity: int, face: int, visible: tuple[int, ...], hidden: int, faces: int
) -> Fraction:
    """Every roll of the hidden dice, counted one by one."""
    star = faces + 1
    hits = total = 0
    for roll in itertools.product(range(1, star + 1), repeat=hidden):
        dice = visible + roll
        count = sum(1 for d in dice if d == face or (face != star and d == star))
        hits += count >= quantity
        total += 1
    return Fraction(hits, total)


@pytest.mark.parametrize("hidden", range(6))
@pytest.mark.parametrize("faces", [2, 5])
def test_the_odds_equal_an_enumeration_of_every_roll(hidden: int, faces: int) -> None:
    for visible in [(), (1,), (faces + 1, 2), (1, 1, faces + 1)]:
        for face in range(1, faces + 2):
            for quantity in range(hidden + len(visible) + 2):
                exact = _enumerate(quantity, face, visible, hidden, faces)
                assert bid_holds(quantity, face, visible, hidden, faces=faces) == exact


def test_the_float_tables_are_the_exact_sums() -> None:
    for hidden in range(12):
        for star in (False, True):
            p = Fraction(1 if star else 2, 6)
            table = tail_table(hidden, 5, star)
            assert len(table) == hidden + 2 and table[-1] == 0.0
            for k in range(hidden + 1):
                assert table[k] == pytest.approx(float(at_least(k, hidden, p)), abs=1e-12)


def test_the_table_for_24_hidden_dice() -> None:
    rows = odds_table(24)
    assert rows[0].number == 1 and rows[0].star == 1
    # a binomial whose mean is a whole number has that number as its median:
    # 24 × 1/3 = 8 numbers and 24 × 1/6 = 4 stars
    assert rows[8].number > Fraction(1, 2) > rows[9].number
    assert rows[4].star > Fraction(1, 2) > rows[5].star
    assert all(a.number >= b.number and a.star >= b.star for a, b in itertools.pairwise(rows))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 40), st.integers(-3, 45), st.booleans())
def test_a_bid_is_likelier_than_the_next_one_up(hidden: int, need: int, star: bool) -> None:
    p = Fraction(1 if star else 2, 6)
    assert 0 <= at_least(need + 1, hidden, p) <= at_least(need, hidden, p) <= 1


def test_too_many_hidden_dice_is_refused() -> None:
    with pytest.raises(InputError, match="0 to 200"):
        at_least(3, 201, Fraction(1, 3))
