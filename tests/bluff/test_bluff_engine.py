"""Challenges, penalties, rounds and variants on hand-built tables, and random games checked
against an independent referee."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.bluff.bots import BOTS
from runarch_gen.bluff.engine import (
    DOUBT,
    SHOW_BASE,
    BluffEnd,
    BluffGame,
    BluffState,
    Phase,
    rules_from_values,
)
from runarch_gen.bluff.notation import InvalidBidError
from runarch_gen.bluff.rules import BluffRules, ExactHit, Opener
from runarch_gen.games import find_game
from runarch_gen.play.conformance import check_random_games
from runarch_gen.play.game import CHANCE_PLAYER, IllegalActionError, sample_chance
from tests.bluff.helpers import table


def test_the_seeds_example_eleven_threes_counts_stars_too() -> None:
    # "at least 11 dice on the table show a 3 (or a star)": 4 players, 6 dice each
    hands = ["3,3,★,1,2,4", "3,★,★,5,5,1", "3,3,3,2,2,2", "★,3,1,1,4,4"]
    # threes: 2+1+3+1 = 7, stars: 1+2+0+1 = 4 → 11 dice count
    state = table(hands, ["11×3", "doubt"])
    result = state.results[-1]
    assert result.counted == 11 and result.exact
    state = table(hands, ["10×3", "doubt"])
    assert state.results[-1].loser == 1 and state.results[-1].lost[1] == 1  # one more than bid
    state = table(hands, ["12×3", "doubt"])
    assert state.results[-1].loser == 0 and state.results[-1].lost[0] == 1  # one missing


def test_a_bid_that_holds_costs_the_doubter_the_surplus() -> None:
    state = table(["2,2,2,★", "2,★,5,5"], ["2×2", "doubt"])
    result = state.results[-1]  # six dice show a 2 or a star
    assert (result.counted, result.winner, result.loser, result.lost) == (6, 0, 1, (0, 4))
    assert state.dice == [4, 0] and state.is_terminal()
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.termination is BluffEnd.LAST


def test_a_bid_that_fails_costs_the_bidder_the_shortfall() -> None:
    state = table(["1,1,3", "4,4,5"], ["1×2", "3×2", "doubt"])
    result = state.results[-1]  # no 2 and no star: 3 missing
    assert (result.counted, result.loser, result.lost, result.doubt_right) == (0, 1, (0, 3), True)
    assert state.dice == [3, 0]


def test_a_star_bid_counts_only_stars() -> None:
    state = table(["★,★,3", "3,3,★"], ["3×★", "doubt"])
    assert state.results[-1].counted == 3 and state.results[-1].exact
    state = table(["★,★,3", "3,3,★"], ["4×★", "doubt"])
    assert state.results[-1].counted == 3 and state.results[-1].lost == (1, 0)


def test_a_debt_larger_than_the_dice_held_takes_them_all_and_lapses() -> None:  # L-10
    state = table(["1,1", "1,1", "2,2"], ["10×5", "doubt"])
    assert state.results[-1].lost == (2, 0, 0) and state.dice == [0, 2, 2]


def test_the_exact_hit_the_doubter_gives_the_bidder_a_die() -> None:  # L-11 give
    state = table(["3,3", "3,1", "5,5"], ["3×3", "doubt"])
    result = state.results[-1]
    assert result.exact and result.lost == (0, 1, 0) and result.gained == 0  # p1 has all 2
    # a bidder below their starting dice takes the die
    state = table(["3,3", "1,1"], ["3×3", "4×3", "doubt"])  # p2 bids 4×3 wrongly: 2 missing
    assert state.dice == [2, 0]
    state = table(["3,3,4", "★,1,1"], ["1×1", "3×3", "doubt"])
    assert state.results[-1].exact and state.results[-1].gained == 0 and state.dice == [2, 3]


def test_an_exact_hit_brings_a_bidder_back_up_to_the_starting_dice() -> None:
    rules = BluffRules(players=2, dice=2, first=1)
    state = BluffGame(rules).new_initial_state()
    for text in ("roll 1,1", "roll 2,2", "2×1", "doubt"):  # p2 doubts wrongly? exact hit
        state.apply_text(text)
    assert state.dice == [2, 1]
    # round 2: p1 (the winner) opens; p2 bids exactly and p1 doubts
    for text in ("roll 4,5", "roll ★", "1×5", "2×5", "doubt"):
        state.apply_text(text)
    assert state.results[-1].exact and state.results[-1].gained == 1 and state.dice == [1, 2]


def test_variant_one_everyone_but_the_bidder_loses_a_die() -> None:  # L-11 all
    state = table(["3,3", "1,1", "2,2", "5,5"], ["2×3", "doubt"], exact=ExactHit.ALL)
    assert state.results[-1].lost == (0, 1, 1, 1) and state.dice == [2, 1, 1, 1]


def test_the_endless_games_limit_spares_a_bystanders_last_die() -> None:  # L-11 all-last
    state = table(["3,3", "1,1", "2,2"], ["2×3", "3×1", "doubt"], exact=ExactHit.ALL_LAST)
    # p2's 3×1 fails by 1: p2 → 1 die. Round 2: p3 (the winner) opens.
    assert state.dice == [2, 1, 2] and state.opener == 2
    for text in ("roll 4,4", "roll 1,5", "roll 5"):  # rolled in seat order from p3
        state.apply_text(text)
    assert state.hidden == [(1, 5), (5,), (4, 4)]
    state.apply_text("1×4")  # p3 bids; p1 doubts although p3 holds two fours
    state.apply_text("2×4")
    state.apply_text("doubt")  # p2 doubts p1's exact 2×4
    result = state.results[-1]
    assert result.exact and result.bidder == 0 and result.doubter == 1
    assert result.lost == (0, 1, 1) and state.dice == [2, 0, 1]
    state2 = table(["3", "1", "2"], ["1×3", "doubt"], exact=ExactHit.ALL_LAST)
    assert state2.results[-1].lost == (0, 1, 0)  # p3 is a bystander with one die left


def test_the_winner_opens_the_next_round_by_default_and_the_loser_as_an_option() -> None:
    state = table(["1,1", "2,2", "3,3"], ["1×4", "doubt"])  # p1's bid fails: p2 wins
    assert state.opener == 1 and state.current_player() == CHANCE_PLAYER
    state = table(["1,1", "2,2", "3,3"], ["1×4", "doubt"], opener=Opener.LOSER)
    assert state.opener == 0


def test_an_opener_who_is_out_passes_the_opening_on() -> None:  # L-12
    state = table(["1,1", "2,2", "3,3"], ["9×4", "doubt"], opener=Opener.LOSER)
    assert state.dice == [0, 2, 2] and state.opener == 1


def test_play_goes_clockwise_skipping_players_without_dice() -> None:
    state = table(["1,1", "2,2", "3,3"], ["1×4", "5×4", "doubt"])  # p2 loses both dice
    assert state.dice == [2, 0, 2] and state.opener == 2
    for text in ("roll 1,2", "roll 3,4"):
        state.apply_text(text)
    assert state.current_player() == 2
    state.apply_text("1×1")
    assert state.current_player() == 0


def test_a_single_round_game_ends_with_its_winner() -> None:  # L-16
    state = table(["3", "★"], ["1×3", "doubt"], single=True)
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is BluffEnd.ROUND
    assert outcome.winners == (0,) and outcome.returns == (1.0, -1.0)


def test_show_and_reroll_reveals_dice_and_rolls_the_rest_in_secret() -> None:  # L-13, L-14
    state = table(["1,3,3", "2,4,5"], ["2×3"], reroll=True)
    assert state.phase == Phase.SHOW and state.current_player() == 0
    texts = [state.action_to_string(a) for a in state.legal_actions()]
    assert texts == ["keep", "show 1", "show 3", "show 1,3", "show 3,3"]  # never all three
    state.apply_text("show 3,3")
    assert state.current_player() == 0 and state.phase == Phase.CHOOSE  # L-17: a choice
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["hold", "reroll"]
    state.apply_text("reroll")
    assert state.current_player() == CHANCE_PLAYER and state.phase == Phase.REROLL
    assert [state.action_to_string(a) for a in state.legal_actions()][:2] == [
        "reroll 1",
        "reroll 2",
    ]
    state.apply_text("reroll ★")
    assert state.shown[0] == (3, 3) and state.hidden[0] == (6,)
    seen_by_p2 = state.observation(1)
    assert seen_by_p2.shown[0] == (3, 3) and seen_by_p2.own == (2, 4, 5)
    assert "★" not in state.observation_string(1).split("own")[1].split("shown")[0]
    state.apply_text("3×3")
    with pytest.raises(IllegalActionError, match="not a reveal"):
        BluffState.apply(state.copy(), SHOW_BASE + 100)  # p2 holds no 3
    state.apply_text("keep")
    assert state.current_player() == 0
    state.apply_text("doubt")
    assert state.results[-1].counted == 3  # the shown threes count, with the star


def test_a_player_with_one_hidden_die_cannot_reveal() -> None:
    state = table(["1,3", "2,4"], ["2×3"], reroll=True)
    state.apply_text("show 3")
    state.apply_text("reroll")
    state.apply_text("reroll 1")
    state.apply_text("3×3")
    state.apply_text("keep")
    state.apply_text("4×3")  # p1 has one hidden die: no reveal step
    assert state.phase == Phase.BID and state.current_player() == 1


def test_showing_gives_the_right_to_reroll_not_the_duty() -> None:  # L-17
    state = table(["1,3,3", "2,4,5"], ["2×3"], reroll=True)
    state.apply_text("show 3")
    state.apply_text("hold")
    assert state.phase == Phase.BID and state.current_player() == 1
    assert state.shown[0] == (3,) and state.hidden[0] == (1, 3)  # nothing re-rolled
    assert state.observation(1).rerolled == (False, False)
    state.apply_text("3×3")
    state.apply_text("keep")
    state.apply_text("4×3")
    state.apply_text("show 3")  # a later reveal from the same roll
    state.apply_text("reroll")
    assert state.observation(1).rerolled == (True, False)
    assert "reroll" in state.observation_string(1) or "+" in state.observation_string(1)
    state.apply_text("reroll 5")
    other = state.resample_from_infostate(1, random.Random(3))
    assert other.observation_string(1) == state.observation_string(1)
    assert other.shown[0] == (3, 3)


def test_a_reroll_choice_is_read_in_any_case_and_nothing_else_is() -> None:
    state = table(["1,3,3", "2,4,5"], ["2×3"], reroll=True)
    state.apply_text("show 3")
    assert state.string_to_action(" Reroll ") == 1
    with pytest.raises(InvalidBidError, match="reroll or hold"):
        state.string_to_action("maybe")
    fresh = table(["1,3,3", "2,4,5"], ["2×3"], reroll=True)
    with pytest.raises(InvalidBidError, match="faces shown"):
        fresh.string_to_action("show")
    with pytest.raises(IllegalActionError, match="one stays hidden"):
        fresh.string_to_action("show 1,3,3")
    with pytest.raises(IllegalActionError, match="one stays hidden"):
        fresh.string_to_action("show 5")


def test_texts_that_are_not_actions_raise_typed_errors() -> None:
    state = table(["1,1", "2,2"], ["2×2"])
    with pytest.raises(InvalidBidError):
        state.string_to_action("two twos")
    with pytest.raises(IllegalActionError, match="not higher"):
        state.string_to_action("1×5")
    assert state.string_to_action("nevěřím") == DOUBT


def test_observations_hide_the_other_players_dice() -> None:
    state = table(["1,1", "2,2"], ["2×2"])
    mine = state.observation(0)
    assert mine.own == (1, 1) and mine.hidden_from_me == 2 and mine.last == state.bids[-1][1]
    assert "2,2" not in state.observation_string(0)
    other = state.resample_from_infostate(0, random.Random(1))
    assert other.observation_string(0) == state.observation_string(0)


# -- an independent referee ------------------------------------------------------------------


def _referee(
    hands: list[list[int]],
    quantity: int,
    face: str,
    bidder: int,
    doubter: int,
    dice: list[int],
    start: int,
    exact: str,
) -> list[int]:
    """The dice after a challenge, from the rules text alone (faces 1-5, star 6)."""
    everything = [d for hand in hands for d in hand]
    if face == "★":
        count = everything.count(6)
    else:
        count = everything.count(int(face)) + everything.count(6)
    after = list(dice)
    if count > quantity:
        after[doubter] = max(0, after[doubter] - (count - quantity))
    elif count < quantity:
        after[bidder] = max(0, after[bidder] - (quantity - count))
    elif exact == "give":
        after[doubter] -= 1
        after[bidder] = min(start, after[bidder] + 1)
    else:
        for p in range(len(after)):
            if p == bidder or after[p] == 0:
                continue
            if exact == "all-last" and p != doubter and after[p] == 1:
                continue
            after[p] -= 1
    return after


@pytest.mark.parametrize(
    "text",
    [
        "bluff(players=2)",
        "bluff(players=4,exact=all)",
        "bluff(players=5,exact=all-last,opener=loser)",
        "bluff(players=6)",
        "bluff(players=3,reroll=on,dice=4)",
    ],
)
def test_every_challenge_of_random_games_agrees_with_the_referee(text: str) -> None:
    game = find_game(text)
    assert isinstance(game, BluffGame)
    rules = game.rules
    rng = random.Random(7)
    for index in range(12):
        bots = [
            BOTS["odds" if index % 2 else "random"](random.Random(index * 10 + p))
            for p in range(rules.players)
        ]
        state = game.new_initial_state()
        seen = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(sample_chance(state, rng))
                continue
            player = state.current_player()
            before = list(state.dice)
            state.apply(bots[player].step(state.observation(player), state.legal_actions()))
            if len(state.results) > seen:
                seen = len(state.results)
                r = state.results[-1]
                quantity, face = str(r.bid).split("×")
                expected = _referee(
                    [list(h) for h in r.hands],
                    int(quantity),
                    face,
                    r.bidder,
                    r.doubter,
                    before,
                    game.start,
                    rules.exact.value,
                )
                assert state.dice == expected, (text, index, r)
                assert sum(len(h) for h in r.hands) == sum(before)
        outcome = state.outcome()
        assert outcome is not None
        alive = [p for p, n in enumerate(state.dice) if n]
        assert outcome.stalled or list(outcome.winners) == alive


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_conformance_suite_for_every_table_size(players: int) -> None:
    for options in ("", ",exact=all-last,opener=loser", ",reroll=on,dice=2"):
        game = find_game(f"bluff(players={players}{options})")
        report = check_random_games(game, games=2, seed=players, deep_every=5)
        assert report.games == 2 and report.chance_nodes > 0


def test_the_roll_probabilities_are_the_multinomial_ones() -> None:
    game = BluffGame(BluffRules(players=2, dice=3))
    outcomes = game.hand_outcomes[3]
    assert len(outcomes) == 56  # multisets of 3 from 6 faces
    by_hand = {game.hands[3][i]: p for i, p in outcomes}
    assert by_hand[(1, 1, 1)] == pytest.approx(1 / 216)
    assert by_hand[(1, 2, 3)] == pytest.approx(6 / 216)
    assert by_hand[(2, 2, 6)] == pytest.approx(3 / 216)


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10_000), st.sampled_from(["give", "all", "all-last"]))
def test_dice_never_grow_past_the_start_and_the_total_never_rises(
    players: int, seed: int, exact: str
) -> None:
    game = BluffGame(rules_from_values({"players": players, "exact": exact, "dice": 3}))
    rng = random.Random(seed)
    state = game.new_initial_state()
    total = sum(state.dice)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(sample_chance(state, rng))
        else:
            state.apply(rng.choice(list(state.legal_actions())))
        assert max(state.dice) <= game.start and sum(state.dice) <= total
        total = sum(state.dice)
    assert Counter(n > 0 for n in state.dice)[True] >= 1
