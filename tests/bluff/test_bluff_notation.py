"""Bid texts, face lists and action texts: readers and writers in pairs, fuzzed."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.bluff.engine import BluffGame
from runarch_gen.bluff.notation import InvalidBidError, format_faces, parse_bid, parse_faces
from runarch_gen.bluff.rules import BluffRules
from runarch_gen.errors import InputError
from runarch_gen.games import find_game
from runarch_gen.play.game import IllegalActionError, sample_chance


@pytest.mark.parametrize(
    ("text", "bid"),
    [("11×3", (11, 3)), ("11x3", (11, 3)), ("4×★", (4, 6)), ("4X*", (4, 6)), (" 2 x s ", (2, 6))],
)
def test_bids_are_read_in_every_accepted_form(text: str, bid: tuple[int, int]) -> None:
    assert parse_bid(text, 5) == bid


@pytest.mark.parametrize("text", ["", "11", "x3", "11×0", "11×7", "11×33", "eleven×3", "1×★★"])
def test_malformed_bids_are_invalid(text: str) -> None:
    with pytest.raises(InvalidBidError):
        parse_bid(text, 5)


@given(st.lists(st.integers(1, 6), max_size=9))
def test_face_lists_read_back(dice: list[int]) -> None:
    hand = tuple(sorted(dice))
    assert parse_faces(format_faces(hand, 5), 5) == hand


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_the_readers_raise_only_their_typed_error(text: str) -> None:
    for reader in (parse_bid, parse_faces):
        with contextlib.suppress(InvalidBidError):
            reader(text, 5)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30), st.integers(0, 50))
def test_any_text_given_to_a_state_is_an_action_or_a_typed_error(text: str, steps: int) -> None:
    game = find_game("bluff(players=3,reroll=on,dice=3)")
    rng = random.Random(steps)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply(sample_chance(state, rng))
        else:
            state.apply(rng.choice(list(state.legal_actions())))
    try:
        action = state.string_to_action(text)
    except (InvalidBidError, IllegalActionError):
        return
    assert action in state.legal_actions()


def test_every_bid_prints_and_reads_back_to_itself() -> None:
    game = BluffGame(BluffRules())
    for rank, bid in enumerate(game.bids):
        assert game.rank_of[parse_bid(str(bid), 5)] == rank


def test_bad_game_strings_are_one_clear_error() -> None:
    for text, message in [
        ("bluff(players=9)", "players is at most 6"),
        ("bluff(exact=none)", "exact is one of give, all, all-last"),
        ("bluff(scale=/no/such/file)", "a scale file may be named only on the command line"),
    ]:
        with pytest.raises(InputError, match=message):
            find_game(text)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(-5, 1200), max_size=40) | st.text(max_size=80).map(lambda t: [t]))
def test_a_serialised_record_reads_back_or_is_refused_with_one_error(words: list[object]) -> None:
    game = find_game("bluff(players=3,reroll=on,dice=2)")
    text = " ".join(str(w) for w in words)
    try:
        state = game.deserialize_state(text)
    except InputError:
        return
    assert game.deserialize_state(game.serialize_state(state)) == state


def test_a_played_record_replays_to_the_same_state() -> None:
    game = find_game("bluff(players=4,exact=all-last,reroll=on)")
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(sample_chance(state, rng))
        else:
            state.apply(rng.choice(list(state.legal_actions())))
    again = game.deserialize_state(game.serialize_state(state))
    assert again == state and again.dice == state.dice and again.results == state.results
