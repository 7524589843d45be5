"""The move rule: hand-built positions written from the rules document, and every legal play
checked against an independent checker (tests/backgammon/reference.py) two ways."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.backgammon.board import (
    START,
    Play,
    Side,
    format_steps,
    legal_plays,
    replay_code,
    side_from_points,
    unpack_position,
)
from tests.backgammon.old_generator import old_legal_plays
from tests.backgammon.reference import from_sides, reference_plays, to_sides


def plays_text(mover: Side, other: Side, d1: int, d2: int) -> set[str]:
    return {format_steps(p.steps) for p in legal_plays(mover, other, d1, d2)}


def engine_positions(mover: Side, other: Side, d1: int, d2: int) -> set[tuple[Side, Side]]:
    return {p.key for p in legal_plays(mover, other, d1, d2)}


def checker_positions(mover: Side, other: Side, d1: int, d2: int) -> set[tuple[Side, Side]]:
    return {to_sides(b) for b in reference_plays(from_sides(mover, other), d1, d2)}


def test_the_start_has_15_checkers_each_and_167_pips() -> None:  # V-01
    assert sum(START) == 15
    assert sum(p * n for p, n in enumerate(START)) == 167


def test_opening_31_makes_the_5_point_among_16_plays() -> None:  # V-10
    texts = plays_text(START, START, 3, 1)
    assert "8/5 6/5" in texts and "24/20" in texts and "13/9" in texts
    assert len(texts) == 16


def test_every_opening_roll_agrees_with_the_checker() -> None:  # counted two ways
    counts = {}
    for a in range(1, 7):
        for b in range(1, a + 1):
            engine = engine_positions(START, START, a, b)
            assert engine == checker_positions(START, START, a, b), (a, b)
            counts[f"{a}{b}"] = len(engine)
    assert counts["66"] == 11 and counts["65"] == 7 and counts["11"] == 42


def test_bar_entry_against_five_closed_points_has_one_door() -> None:  # V-03, V-05
    mover = side_from_points({25: 1, 13: 5, 8: 3, 6: 6})
    # the opponent holds its points 1-5 (our 24..20); our 19 (its 6) is open
    other = side_from_points({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5})
    assert plays_text(mover, other, 6, 5) == {"bar/19 13/8", "bar/19 8/3", "bar/19 6/1", "bar/14"}
    assert plays_text(mover, other, 5, 4) == set()  # cannot enter: the whole roll is lost


def test_bar_entry_against_a_closed_board_passes() -> None:  # V-11
    mover = side_from_points({25: 2, 13: 5, 8: 3, 6: 5})
    other = side_from_points({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
    for a in range(1, 7):
        for b in range(1, 7):
            assert legal_plays(mover, other, a, b) == []


def test_two_on_the_bar_with_one_entering_die_play_only_that_entry() -> None:  # V-03
    mover = side_from_points({25: 2, 6: 13})
    other = side_from_points({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5})  # only our 19 open
    assert plays_text(mover, other, 6, 3) == {"bar/19"}


def test_the_higher_die_must_be_played_when_only_one_can() -> None:  # V-09
    mover = side_from_points({12: 1, 0: 14})
    other = side_from_points({22: 2, 19: 2, 15: 2, 0: 9})  # our 3, 6 and 10 closed
    # 5-1: 12/7 then 7/6 closed; 12/11 then 11/6 closed: one die only, the higher
    assert plays_text(mover, other, 5, 1) == {"12/7"}
    # 6-4: 12/6 closed, 12/8 then 8/2: both dice, one way
    assert plays_text(mover, other, 6, 4) == {"12/2"}


def test_the_lower_die_alone_when_the_higher_cannot_move() -> None:  # V-09
    mover = side_from_points({12: 1, 0: 14})
    other = side_from_points({18: 2, 19: 2, 0: 11})  # our 7 and 6 closed
    # 5-1: 12/7 closed; 12/11 then 11/6 closed: only the 1
    assert plays_text(mover, other, 5, 1) == {"12/11"}


def test_as_many_dice_as_possible_must_be_played() -> None:  # V-08
    mover = side_from_points({20: 1, 0: 14})
    other = side_from_points({11: 2, 0: 13})  # our 14 closed
    # 6-1: 20/14 is closed, so the 1 first: 20/19/13 uses both dice
    assert plays_text(mover, other, 6, 1) == {"20/13"}


def test_bear_off_exactly_and_with_the_higher_point_rule() -> None:  # V-07
    mover = side_from_points({5: 1, 3: 1, 0: 13})
    other = side_from_points({12: 2, 0: 13})
    # 6-4: the 6 takes the highest checker (5), then the 4 the 3 (now the highest); or the
    # 4 first (5/1) and the 6 takes the 3, now the highest
    assert plays_text(mover, other, 6, 4) == {"5/off 3/off", "5/1 3/off"}
    # 4-1: a 4 cannot bear off the 3 while the 5 is above it: 5/1 3/2, or 5/4/off
    assert plays_text(mover, other, 4, 1) == {"5/1 3/2", "5/off"}
    # with the opponent holding our 1-point, 5/1 is closed: only 5/4/off is left
    assert plays_text(mover, side_from_points({24: 2, 0: 13}), 4, 1) == {"5/off"}


def test_no_bearing_off_with_a_checker_outside() -> None:  # V-07
    mover = side_from_points({7: 1, 2: 1, 0: 13})
    other = side_from_points({12: 2, 0: 13})
    # 6-2: 2/off needs the 7 home first: 7/1 2/off, or 7/5 then 5/off with the 6
    assert plays_text(mover, other, 6, 2) == {"7/1 2/off", "7/off"}


def test_doubles_that_can_be_played_only_partly() -> None:  # V-08, V-12
    mover = side_from_points({13: 1, 0: 14})
    other = side_from_points({16: 2})  # our 9 closed: 13/11/9 stops
    # 2-2: 13/11 then 11/9 closed: one die only
    assert plays_text(mover, other, 2, 2) == {"13/11"}
    mover = side_from_points({13: 2, 0: 13})
    assert plays_text(mover, other, 2, 2) == {"13/11(2)"}


def test_hits_are_starred_and_kept_on_the_way() -> None:  # V-06, V-51
    mover = side_from_points({13: 1, 0: 14})
    other = side_from_points({14: 1, 22: 1, 0: 13})  # blots on our 11 and 3
    texts = plays_text(mover, other, 2, 6)
    assert "13/11*/5" in texts and "13/7/5" not in texts


def test_egyptian_rule_caps_a_point_at_five() -> None:  # V-15
    mover = side_from_points({6: 5, 8: 3, 13: 5, 24: 2})
    without = {format_steps(p.steps) for p in legal_plays(mover, START, 2, 2)}
    capped = {format_steps(p.steps) for p in legal_plays(mover, START, 2, 2, egyptian=True)}
    assert any("8/6" in t for t in without)
    assert not any("8/6" in t for t in capped)


def random_side(rng: random.Random, checkers: int, forbidden: set[int]) -> list[int]:
    side = [0] * 26
    for _ in range(checkers):
        choices = [p for p in range(26) if p not in forbidden]
        side[rng.choice(choices)] += 1
    return side


@st.composite
def positions(draw: st.DrawFn) -> tuple[Side, Side, int, int]:
    seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    home_game = draw(st.booleans())
    mover_points = set(range(7, 26)) if home_game else set()
    mover = random_side(rng, rng.randint(1, 15), mover_points)
    occupied = {25 - p for p in range(1, 25) if mover[p]}
    other = random_side(rng, rng.randint(1, 15), occupied)
    mover[0] += 15 - sum(mover)
    other[0] += 15 - sum(other)
    return tuple(mover), tuple(other), draw(st.integers(1, 6)), draw(st.integers(1, 6))


@settings(max_examples=150, deadline=None)
@given(positions())
def test_random_positions_match_the_independent_checker(
    case: tuple[Side, Side, int, int],
) -> None:
    mover, other, a, b = case
    assert engine_positions(mover, other, a, b) == checker_positions(mover, other, a, b)


def test_positions_of_random_games_match_the_checker() -> None:
    rng = random.Random(7)
    checked = 0
    for _ in range(6):
        sides = [START, START]
        turn = 0
        for _ in range(200):
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            mover, other = sides[turn], sides[1 - turn]
            plays = legal_plays(mover, other, a, b)
            assert {p.key for p in plays} == checker_positions(mover, other, a, b)
            checked += 1
            if plays:
                chosen = rng.choice(plays)
                mover, other = chosen.mover, chosen.other
                if mover[0] == 15:
                    break
            sides[turn], sides[1 - turn] = mover, other
            turn = 1 - turn
    assert checked > 300


def listing(plays: list[Play]) -> list[tuple[object, ...]]:
    return [(p.steps, p.mover, p.other, p.code) for p in plays]


@settings(max_examples=400, deadline=None)
@given(positions(), st.booleans())
def test_the_generator_lists_exactly_what_the_first_generator_listed(
    case: tuple[Side, Side, int, int], egyptian: bool
) -> None:
    # the same plays, steps, codes (the engine's actions) and order as the depth-first search
    mover, other, a, b = case
    assert listing(legal_plays(mover, other, a, b, egyptian)) == listing(
        old_legal_plays(mover, other, a, b, egyptian)
    )


def test_positions_of_random_games_are_listed_as_the_first_generator_listed() -> None:
    rng = random.Random(11)
    checked = 0
    for _ in range(30):
        sides = [START, START]
        turn = 0
        for _ in range(300):
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            mover, other = sides[turn], sides[1 - turn]
            plays = legal_plays(mover, other, a, b)
            assert listing(plays) == listing(old_legal_plays(mover, other, a, b))
            checked += 1
            if plays:
                chosen = rng.choice(plays)
                mover, other = chosen.mover, chosen.other
                if mover[0] == 15:
                    break
            sides[turn], sides[1 - turn] = mover, other
            turn = 1 - turn
    assert checked > 1500


def test_a_play_replays_its_code_and_unpacks_its_sides() -> None:
    for play in legal_plays(START, START, 6, 4):
        assert play.steps == replay_code(START, START, play.code)
        assert unpack_position(play.after) == play.key and sum(play.mover) == 15
        assert play.key == (play.mover, play.other)
