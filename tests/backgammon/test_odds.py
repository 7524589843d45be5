"""The seed's probability tables, reproduced by computation (and entering checked a second way
through the move generator)."""

from __future__ import annotations

import pytest

from runarch_gen.backgammon.board import legal_plays, side_from_points
from runarch_gen.backgammon.odds import HIT_CHANCE, REACH_CHANCE, enter_table

# The seed's tables as printed (percent, one decimal): distance → (p(hit), p(total at least)).
SEED_DISTANCE_TABLE = {
    1: (30.6, 100.0),
    2: (33.3, 100.0),
    3: (38.9, 100.0),
    4: (41.7, 94.4),
    5: (41.7, 86.1),
    6: (47.2, 75.0),
    7: (16.7, 63.9),
    8: (16.7, 47.2),
    9: (13.9, 33.3),
    10: (8.3, 22.2),
    11: (5.6, 16.7),
    12: (8.3, 11.1),
    15: (2.8, 8.3),
    16: (2.8, 8.3),
    18: (2.8, 5.6),
    20: (2.8, 5.6),
    24: (2.8, 2.8),
}
# closed points → (1 checker, 2 checkers, 3 or 4 checkers)
SEED_ENTER_TABLE = {
    0: (100.0, 100.0, 16.7),
    1: (97.2, 69.4, 13.9),
    2: (88.9, 44.4, 11.1),
    3: (75.0, 25.0, 8.3),
    4: (55.6, 11.1, 5.6),
    5: (30.6, 2.8, 2.8),
    6: (0.0, 0.0, 0.0),
}


@pytest.mark.parametrize("distance", sorted(SEED_DISTANCE_TABLE))
def test_hitting_and_reaching_chances_equal_the_seed(distance: int) -> None:  # V-60
    hit, reach = SEED_DISTANCE_TABLE[distance]
    assert round(100 * HIT_CHANCE[distance], 1) == hit
    assert round(100 * REACH_CHANCE[distance], 1) == reach


def test_entering_chances_equal_the_seed() -> None:  # V-60
    for closed, one, two, more in enter_table():
        assert (round(100 * one, 1), round(100 * two, 1), round(100 * more, 1)) == (
            SEED_ENTER_TABLE[closed]
        )


@pytest.mark.parametrize("closed", range(7))
@pytest.mark.parametrize("on_bar", [1, 2, 3, 4])
def test_entering_counted_through_the_move_generator(closed: int, on_bar: int) -> None:
    """The second way: rolls whose every legal play leaves no checker on the bar."""
    mover = side_from_points({25: on_bar, 13: 15 - on_bar})
    other = side_from_points({**dict.fromkeys(range(1, closed + 1), 2), 13: 15 - 2 * closed})
    entered = 0
    for a in range(1, 7):
        for b in range(1, 7):
            plays = legal_plays(mover, other, a, b)
            if plays and all(p.mover[25] == 0 for p in plays):
                entered += 1
    row = {row[0]: row[1:] for row in enter_table()}[closed]
    assert entered / 36 == pytest.approx(row[min(on_bar, 3) - 1])
