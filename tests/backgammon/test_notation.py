"""Move notation both ways ([V-51]): the seed's examples, lenient reading, typed errors, and
every legal play of random positions written and read back; the reader fuzzed."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.backgammon.board import START, format_steps, legal_plays, side_from_points
from runarch_gen.backgammon.errors import IllegalPlayError, NotationError
from runarch_gen.backgammon.notation import format_play, parse_dice, parse_play, parse_segments


def test_the_seeds_examples_are_read() -> None:
    # 31: 8/5 6/5 | 66: 24/18(2) 13/7(2) | 23: bar/23 24/21 (seed's example game)
    assert format_steps(parse_play("8/5 6/5", START, START, (3, 1)).steps) == "8/5 6/5"
    assert format_steps(parse_play("24/18(2) 13/7(2)", START, START, (6, 6)).steps) == (
        "24/18(2) 13/7(2)"
    )
    mover = side_from_points({25: 1, 24: 1, 13: 5, 8: 3, 6: 5})
    play = parse_play("bar/23 24/21", mover, START, (2, 3))
    assert format_play((2, 3), play.steps) == "23: bar/23 24/21"


def test_the_bar_and_off_have_several_names() -> None:
    mover = side_from_points({25: 1, 24: 1, 13: 5, 8: 3, 6: 5})
    assert parse_play("25/23 24/21", mover, START, (3, 2)) == parse_play(
        "bar/23 24/21", mover, START, (3, 2)
    )
    home = side_from_points({6: 2, 5: 13})
    other = side_from_points({12: 15})
    for word in ("off", "0", "ven", "out", "OFF"):
        play = parse_play(f"6/{word}(2) 5/{word} 5/{word}", home, other, (6, 6))
        assert format_steps(play.steps) == "6/off(2) 5/off(2)"


def test_one_checkers_moves_may_be_joined_or_split() -> None:
    joined = parse_play("13/9", START, START, (3, 1))
    split = parse_play("13/10 10/9", START, START, (3, 1))
    assert joined == split and format_steps(joined.steps) == "13/9"


def test_a_hit_on_the_way_is_written_and_read() -> None:
    mover = side_from_points({13: 1, 0: 14})
    other = side_from_points({14: 1, 22: 1, 0: 13})  # blots on our 11 and 3
    play = parse_play("13/11*/5", mover, other, (2, 6))
    assert play.other[25] == 1 and format_steps(play.steps) == "13/11*/5"
    assert parse_play("13/5", mover, other, (2, 6)).other[25] == 0  # via 7, no hit


def test_syntax_and_legality_are_different_errors() -> None:
    with pytest.raises(NotationError):
        parse_play("8-5", START, START, (3, 1))
    with pytest.raises(NotationError):
        parse_play("5/8", START, START, (3, 1))
    with pytest.raises(NotationError):
        parse_play("26/20", START, START, (3, 1))
    with pytest.raises(IllegalPlayError, match="not a legal play of 31"):
        parse_play("24/20 13/10", START, START, (3, 1))
    with pytest.raises(IllegalPlayError, match="can be played"):
        parse_play("", START, START, (3, 1))
    with pytest.raises(NotationError):
        parse_dice("37")


def test_rolls_are_read_in_several_forms() -> None:
    assert parse_dice("31") == parse_dice("3-1") == parse_dice("3 1") == (3, 1)
    assert parse_segments("31: 8/5 6/5") == [[(8, False), (5, False)], [(6, False), (5, False)]]


def test_every_play_of_random_games_reads_back_to_itself() -> None:
    rng = random.Random(11)
    checked = 0
    for _ in range(2):
        sides = [START, START]
        turn = 0
        for _ in range(100):
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            mover, other = sides[turn], sides[1 - turn]
            plays = legal_plays(mover, other, a, b)
            texts = [format_steps(p.steps) for p in plays]
            assert len(set(texts)) == len(texts)  # V-10: one text per position
            for play, text in list(zip(plays, texts, strict=True))[:: max(1, len(plays) // 5)]:
                assert parse_play(text, mover, other, (a, b)).key == play.key
                checked += 1
            if plays:
                chosen = rng.choice(plays)
                if chosen.mover[0] == 15:
                    break
                sides[turn], sides[1 - turn] = chosen.mover, chosen.other
            turn = 1 - turn
    assert checked > 200


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="0123456789/*() barofvenut:,-", max_size=40))
def test_the_reader_never_fails_otherwise(text: str) -> None:
    with contextlib.suppress(NotationError, IllegalPlayError):
        parse_play(text, START, START, (3, 1))
