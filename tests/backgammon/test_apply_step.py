"""One die's step, ``apply_step``, against the rules written out on hand-built positions: bar
first [V-03], blocked points [V-05], hits, bearing off exactly or from the highest point
[V-07] and the Egyptian cap [V-15]. Each side counts its own points 24 → 1; the opponent's
point p is the mover's 25 − p."""

from __future__ import annotations

from runarch_gen.backgammon.board import (
    BAR,
    MAX_STACK_EGYPTIAN,
    OFF,
    START,
    Step,
    apply_step,
    side_from_points,
)


def test_V01_a_plain_step_moves_one_checker_and_leaves_the_opponent() -> None:
    moved = apply_step(START, START, 13, 5)
    assert moved is not None
    mover, other, step = moved
    assert step == Step(13, 5, 8, False)
    assert mover == side_from_points({24: 2, 13: 4, 8: 4, 6: 5}) and other == START


def test_V03_a_checker_on_the_bar_enters_first() -> None:
    mover = side_from_points({BAR: 1, 13: 2})
    other = side_from_points({1: 1})
    assert apply_step(mover, other, 13, 3) is None  # the bar first
    entered = apply_step(mover, other, BAR, 3)
    assert entered is not None and entered[2] == Step(BAR, 3, 22, False)
    assert entered[0] == side_from_points({22: 1, 13: 2})
    assert apply_step(mover, other, 7, 1) is None  # no checker there


def test_V05_two_opposing_checkers_block_a_point_and_one_is_hit() -> None:
    mover = side_from_points({13: 1})
    # The opponent's 17-point is the mover's 8-point: two block it, one is hit.
    assert apply_step(mover, side_from_points({17: 2}), 13, 5) is None
    hit = apply_step(mover, side_from_points({17: 1, 6: 3}), 13, 5)
    assert hit is not None
    assert hit[2] == Step(13, 5, 8, True)
    assert hit[0] == side_from_points({8: 1})
    assert hit[1] == side_from_points({BAR: 1, 6: 3})


def test_V07_bearing_off_exactly_or_with_a_higher_die_from_the_highest_point() -> None:
    home = side_from_points({5: 1, 2: 2})
    empty = side_from_points({})
    exact = apply_step(home, empty, 5, 5)
    assert exact is not None and exact[2] == Step(5, 5, OFF, False)
    assert exact[0] == side_from_points({2: 2, OFF: 1})
    higher = apply_step(home, empty, 5, 6)  # the highest point: a 6 bears it off
    assert higher is not None and higher[0][OFF] == 1
    assert apply_step(home, empty, 2, 6) is None  # a checker above it must move first
    assert apply_step(home, empty, 2, 2) is not None  # exact from a lower point is fine
    outside = side_from_points({7: 1, 2: 2})
    assert apply_step(outside, empty, 2, 2) is None  # not all home: no bearing off
    moved_in = apply_step(outside, empty, 7, 1)
    assert moved_in is not None and moved_in[2] == Step(7, 1, 6, False)


def test_V15_the_Egyptian_rule_caps_a_point_at_five() -> None:
    full = side_from_points({8: MAX_STACK_EGYPTIAN, 13: 1})
    empty = side_from_points({})
    assert apply_step(full, empty, 13, 5, egyptian=True) is None
    allowed = apply_step(full, empty, 13, 5)
    assert allowed is not None and allowed[0][8] == MAX_STACK_EGYPTIAN + 1
    four = side_from_points({8: MAX_STACK_EGYPTIAN - 1, 13: 1})
    assert apply_step(four, empty, 13, 5, egyptian=True) is not None
