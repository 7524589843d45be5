"""gnubg Position ID and Match ID: published IDs as oracles, an independent bit-string decoder,
round trips of random positions and match states, and fuzzing of both readers."""

from __future__ import annotations

import base64
import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.backgammon.board import START, format_steps, legal_plays
from runarch_gen.backgammon.errors import InvalidIdError
from runarch_gen.backgammon.ids import (
    MatchInfo,
    match_id,
    parse_match_id,
    parse_position_id,
    position_id,
)


def bits_of(text: str) -> str:
    """An independent reading: Base64 → bytes → each byte's bits least significant first."""
    data = base64.b64decode(text + "=" * (-len(text) % 4))
    return "".join(format(byte, "08b")[::-1] for byte in data)


def decode_independently(text: str) -> list[list[int]]:
    """gnubg's two halves: per point and bar, runs of ones ended by a zero."""
    bits = bits_of(text)
    halves: list[list[int]] = []
    current: list[int] = []
    count = 0
    for bit in bits:
        if bit == "1":
            count += 1
            continue
        current.append(count)
        count = 0
        if len(current) == 25:
            halves.append(current)
            current = []
            if len(halves) == 2:
                break
    return halves


def test_the_start_is_gnubgs_published_id() -> None:  # V-52
    assert position_id(START, START) == "4HPwATDgc/ABMA"
    assert parse_position_id("4HPwATDgc/ABMA") == (START, START)


def test_the_independent_decoder_reads_the_start() -> None:
    first, second = decode_independently("4HPwATDgc/ABMA")
    expected = [0] * 25
    expected[5], expected[7], expected[12], expected[23] = 5, 3, 5, 2
    assert first == expected and second == expected


def test_the_on_roll_player_is_the_second_half() -> None:  # V-52, the example
    mover, other = parse_position_id("4HPwATDgc/ABUA")
    assert mover[25] == 1 and mover[24] == 1 and other == START
    texts = {format_steps(p.steps) for p in legal_plays(mover, other, 3, 1)}
    assert "bar/21" in texts


def test_gnubgs_manual_match_id_example() -> None:  # V-53: 2-4 in 9, 2-cube held by 0, 52
    info = parse_match_id("QYkqASAAIAAA")
    assert info == MatchInfo(
        cube=2,
        cube_owner=0,
        on_roll=1,
        crawford=False,
        game_state=1,
        turn=1,
        doubled=False,
        resign=0,
        dice=(5, 2),
        length=9,
        scores=(2, 4),
    )
    assert match_id(info) == "QYkqASAAIAAA"
    # the manual's fields, least significant bit first: cube 1000, owner 00, roll 1, Crawford
    # 0, state 100, turn 1, double 0, resign 00, dice 101 010
    fields = ["1000", "00", "1", "0", "100", "1", "0", "00", "101", "010"]
    assert bits_of("QYkqASAAIAAA")[:21] == "".join(fields)


def test_a_money_game_with_the_cube_in_the_middle() -> None:
    info = parse_match_id("cAkAAAAAAAAA")
    assert (info.cube, info.cube_owner, info.on_roll, info.length) == (1, -1, 1, 0)


side_points = st.lists(st.integers(0, 25), min_size=0, max_size=15)


@st.composite
def sides(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    mover = [0] * 26
    for p in draw(side_points):
        mover[p] += 1
    mover[0] += 15 - sum(mover)
    other = [0] * 26
    for drawn in draw(side_points):
        point = 0 if drawn and drawn != 25 and mover[25 - drawn] else drawn
        other[point] += 1
    other[0] += 15 - sum(other)
    return tuple(mover), tuple(other)


@settings(max_examples=200, deadline=None)
@given(sides())
def test_position_ids_round_trip(position: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
    mover, other = position
    text = position_id(mover, other)
    assert len(text) == 14
    assert parse_position_id(text) == (mover, other)
    first, second = decode_independently(text)
    assert first == list(other[1:]) and second == list(mover[1:])


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 15),
    st.sampled_from([-1, 0, 1]),
    st.integers(0, 1),
    st.booleans(),
    st.integers(0, 4),
    st.integers(0, 1),
    st.booleans(),
    st.integers(0, 3),
    st.sampled_from([(0, 0)] + [(a, b) for a in range(1, 7) for b in range(1, 7)]),
    st.integers(0, 99),
    st.integers(0, 98),
    st.integers(0, 98),
)
def test_match_ids_round_trip(
    log: int,
    owner: int,
    on_roll: int,
    crawford: bool,
    state: int,
    turn: int,
    doubled: bool,
    resign: int,
    dice: tuple[int, int],
    length: int,
    s0: int,
    s1: int,
) -> None:
    if length:
        s0, s1 = s0 % length, s1 % length
    info = MatchInfo(
        1 << log, owner, on_roll, crawford, state, turn, doubled, resign, dice, length, (s0, s1)
    )
    assert parse_match_id(match_id(info)) == info


@pytest.mark.parametrize(
    "text",
    ["", "4HPwATDgc/AB", "4HPwATDgc/ABMA!", "////////////////", "**************", "//////////////"],
)
def test_bad_position_ids_are_refused(text: str) -> None:
    with pytest.raises(InvalidIdError):
        parse_position_id(text)


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=!x", max_size=20
    )
)
def test_any_text_either_reads_or_is_refused(text: str) -> None:
    for reader in (parse_position_id, parse_match_id):
        with contextlib.suppress(InvalidIdError):
            reader(text)


def test_random_valid_keys_are_all_readable() -> None:
    rng = random.Random(3)
    for _ in range(200):
        bits = [0] * 80
        positions = rng.sample(range(80), rng.randint(0, 20))
        for index in positions:
            bits[index] = 1
        data = bytes(sum(bits[8 * i + j] << j for j in range(8)) for i in range(10))
        text = base64.b64encode(data).decode()[:14]
        try:
            mover, other = parse_position_id(text)
        except InvalidIdError:
            continue
        assert position_id(mover, other) == text
