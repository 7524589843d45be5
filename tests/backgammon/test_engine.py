"""The engine's cube, scoring and match rules, each test after its [V-nn] decision."""

from __future__ import annotations

import random

import pytest

from runarch_gen.backgammon.board import side_from_points
from runarch_gen.backgammon.engine import (
    BEAVER,
    DOUBLE,
    DROP,
    RACCOON,
    ROLL,
    TAKE,
    BackgammonEnd,
    BackgammonGame,
    BackgammonState,
    Phase,
)
from runarch_gen.backgammon.errors import IllegalPlayError
from runarch_gen.backgammon.rules import Rules
from runarch_gen.play.game import IllegalActionError


def phase_of(state: BackgammonState) -> Phase:
    return state.phase


def started(rules: Rules, opening: str = "opening 3-1") -> BackgammonState:
    state = BackgammonGame(rules).new_initial_state()
    state.apply_text(opening)
    return state


def near_the_end(
    state: BackgammonState, winner_side: dict[int, int], loser_side: dict[int, int]
) -> None:
    """Put the player on roll (the winner) one roll from bearing off his last checkers."""
    state.board[state.turn] = side_from_points(winner_side)
    state.board[1 - state.turn] = side_from_points(loser_side)


def finish_with_66(state: BackgammonState) -> None:
    if state.phase is Phase.PRE_ROLL:
        state.apply(ROLL)
    state.apply(66)
    state.apply(state.legal_actions()[0])


def test_the_opening_roll_decides_who_moves_and_plays_both_dice() -> None:  # V-04
    state = started(Rules(), "opening 2-5")
    assert state.turn == 1 and state.dice == (5, 2) and phase_of(state) is Phase.MOVE


def test_an_opening_tie_is_rolled_again_and_may_double_the_cube() -> None:  # V-36
    state = BackgammonGame(Rules(autodoubles=1)).new_initial_state()
    state.apply_text("opening 4-4")
    assert phase_of(state) is Phase.OPENING and state.cube == 2 and state.cube_owner == -1
    state.apply_text("opening 4-4")
    assert state.cube == 2  # the limit is one
    match = BackgammonGame(Rules(match=5, autodoubles=3)).new_initial_state()
    match.apply_text("opening 4-4")
    assert match.cube == 1  # V-43 money play only


def test_only_the_owner_or_the_middle_may_double() -> None:  # V-30
    state = started(Rules())
    state.apply_text("8/5 6/5")
    assert DOUBLE in state.legal_actions()  # black, cube in the middle
    state.apply(DOUBLE)
    state.apply(TAKE)  # white takes and owns the 2
    state.apply(31)
    state.apply(state.legal_actions()[0])
    assert state.turn == 0 and DOUBLE in state.legal_actions()
    state.apply(ROLL)
    state.apply(21)
    state.apply(state.legal_actions()[0])
    assert state.turn == 1 and DOUBLE not in state.legal_actions()
    with pytest.raises(IllegalActionError):
        state.apply(DOUBLE)


def test_dropping_gives_the_doubler_the_cube_before_the_double() -> None:  # V-32
    state = started(Rules())
    state.apply_text("8/5 6/5")
    state.apply(DOUBLE)
    state.apply(TAKE)
    state.apply(31)
    state.apply(state.legal_actions()[0])
    state.apply(DOUBLE)  # white redoubles to 4
    state.apply(DROP)
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is BackgammonEnd.DROPPED
    assert outcome.returns == (2.0, -2.0) and state.score == [2, 0]


def test_a_gammon_counts_double_and_a_backgammon_triple() -> None:  # V-21, V-22
    for loser, kind, end in (
        ({6: 14, 0: 1}, 1, BackgammonEnd.SINGLE),
        ({6: 15}, 2, BackgammonEnd.GAMMON),
        ({20: 1, 6: 14}, 3, BackgammonEnd.BACKGAMMON),  # in the winner's home board
        ({25: 1, 6: 14}, 3, BackgammonEnd.BACKGAMMON),  # on the bar
        ({10: 1, 6: 14}, 2, BackgammonEnd.GAMMON),  # only in his own outer board
    ):
        state = started(Rules(jacoby=False, resign=False, cube=False))
        near_the_end(state, {1: 2, 0: 13}, loser)
        state.phase = Phase.ROLL
        finish_with_66(state)
        assert state.games[-1].kind == kind and state.outcome() is not None
        assert state.outcome().termination is end  # type: ignore[union-attr]


def test_the_seeds_backgammon_reading_counts_the_losers_outer_board() -> None:  # V-22
    state = started(Rules(jacoby=False, bgrule="seed", resign=False, cube=False))
    near_the_end(state, {1: 2, 0: 13}, {10: 1, 6: 14})
    state.phase = Phase.ROLL
    finish_with_66(state)
    assert state.games[-1].kind == 3
    state = started(Rules(jacoby=False, bgrule="seed", resign=False, cube=False))
    near_the_end(state, {1: 2, 0: 13}, {20: 1, 6: 14})
    state.phase = Phase.ROLL
    finish_with_66(state)
    assert state.games[-1].kind == 2


def test_jacoby_counts_gammons_as_singles_only_with_the_cube_in_the_middle() -> None:  # V-35
    state = started(Rules(jacoby=True, resign=False))
    near_the_end(state, {1: 2, 0: 13}, {6: 15})
    state.phase = Phase.ROLL
    finish_with_66(state)
    assert state.games[-1].kind == 2 and state.games[-1].points == 1
    state = started(Rules(jacoby=True, resign=False))
    near_the_end(state, {1: 2, 0: 13}, {6: 15})
    state.phase = Phase.PRE_ROLL
    state.apply(DOUBLE)
    state.apply(TAKE)
    finish_with_66(state)
    assert state.games[-1].points == 4  # gammon at a 2-cube
    match = started(Rules(match=7, jacoby=True, resign=False))
    near_the_end(match, {1: 2, 0: 13}, {6: 15})
    match.phase = Phase.ROLL
    finish_with_66(match)
    assert match.score[match.games[-1].winner] == 2  # no Jacoby in a match


def test_the_crawford_game_has_no_doubling_and_the_next_one_has() -> None:  # V-42
    state = started(Rules(match=3, resign=False))
    near_the_end(state, {1: 2, 0: 13}, {6: 15})
    state.phase = Phase.ROLL
    finish_with_66(state)  # a gammon: 2 points, 1 away from 3
    assert state.crawford_game and phase_of(state) is Phase.OPENING
    state.apply_text("opening 1-3")  # black starts
    state.apply(state.legal_actions()[0])
    assert phase_of(state) is Phase.ROLL  # no cube, no resignations: straight to the dice
    winner = 1 - state.games[-1].winner
    assert state.score[winner] == 0


def test_post_crawford_doubling_is_back() -> None:  # V-42
    state = started(Rules(match=3, resign=False))
    near_the_end(state, {1: 2, 0: 13}, {6: 15})
    state.phase = Phase.ROLL
    finish_with_66(state)
    leader = state.games[-1].winner
    state.apply_text("opening 1-3")
    # the trailer wins the Crawford game: a single
    state.turn = 1 - leader
    near_the_end(state, {1: 2, 0: 13}, {6: 14, 0: 1})
    state.phase = Phase.ROLL
    finish_with_66(state)
    assert not state.crawford_game and state.post_crawford
    state.apply_text("opening 1-3")
    state.apply(state.legal_actions()[0])
    assert DOUBLE in state.legal_actions()


def test_crawford_off_keeps_the_cube() -> None:
    state = started(Rules(match=3, crawford=False, resign=False))
    near_the_end(state, {1: 2, 0: 13}, {6: 15})
    state.phase = Phase.ROLL
    finish_with_66(state)
    assert not state.crawford_game


def test_a_match_ends_at_n_points_or_beyond() -> None:  # V-41
    state = started(Rules(match=1, resign=False))
    near_the_end(state, {1: 2, 0: 13}, {6: 15})
    state.phase = Phase.ROLL
    finish_with_66(state)
    outcome = state.outcome()
    assert state.is_terminal() and outcome is not None
    assert outcome.termination is BackgammonEnd.MATCH and max(state.score) == 2
    assert sorted(outcome.returns) == [-1.0, 1.0]


def test_beaver_and_raccoon_in_money_play() -> None:  # V-33, V-34
    state = started(Rules(beaver=True, raccoon=True))
    state.apply_text("8/5 6/5")
    state.apply(DOUBLE)
    assert BEAVER in state.legal_actions()
    state.apply(BEAVER)
    assert state.cube == 4 and state.cube_owner == 0 and phase_of(state) is Phase.BEAVERED
    assert DROP not in state.legal_actions()  # standard: the doubler must accept
    state.apply(RACCOON)
    assert state.cube == 8 and state.cube_owner == 1 and phase_of(state) is Phase.ROLL
    match = started(Rules(match=5, beaver=True))
    match.apply_text("8/5 6/5")
    match.apply(DOUBLE)
    assert BEAVER not in match.legal_actions()


def test_the_seeds_beaver_may_be_refused() -> None:  # V-33 option
    state = started(Rules(beaver=True, beaver_drop=True))
    state.apply_text("8/5 6/5")
    state.apply(DOUBLE)
    state.apply(BEAVER)
    state.apply(DROP)
    assert state.score == [2, 0]


def test_resignations_accepted_and_rejected() -> None:  # V-24
    state = started(Rules(jacoby=False))
    state.apply_text("8/5 6/5")
    state.apply_text("resign gammon")
    state.apply_text("reject")
    assert phase_of(state) is Phase.ROLL and state.turn == 1
    state.apply(31)
    state.apply(state.legal_actions()[0])
    state.apply_text("resign single")
    state.apply_text("accept")
    assert state.score == [0, 1] and state.outcome() is not None


def test_an_illegal_play_is_refused_with_the_reason() -> None:
    state = started(Rules())
    with pytest.raises(IllegalPlayError, match="not a legal play of 31"):
        state.apply_text("24/20 24/23")
    with pytest.raises(IllegalPlayError):
        state.apply(999_999)


def test_random_games_replay_from_their_records_and_copies_are_equal() -> None:
    game = BackgammonGame(Rules(match=3))
    rng = random.Random(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        copy = state.copy()
        assert copy == state
        state.apply(rng.choice(list(state.legal_actions())))
    replay = game.deserialize_state(game.serialize_state(state))
    assert replay == state and replay.score == state.score


def test_a_plays_action_decodes_to_steps_that_rebuild_its_position() -> None:
    from runarch_gen.backgammon.engine import decode_play, step_play

    game = BackgammonGame(Rules(cube=False, resign=False))
    rng = random.Random(8)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 300:
        if phase_of(state) is Phase.MOVE:
            mover, other = state.board[state.turn], state.board[1 - state.turn]
            for action in state.legal_actions():
                play = state._legal_plays()[action]
                assert step_play(mover, other, decode_play(action)) == play.key
                checked += 1
        state.apply(rng.choice(list(state.legal_actions())))
    assert checked >= 100


def test_the_states_match_id_says_who_is_on_roll_with_what() -> None:  # V-53
    from runarch_gen.backgammon.ids import parse_match_id, parse_position_id

    state = started(Rules(match=7), "opening 2-5")
    info = parse_match_id(state.match_id())
    assert (info.on_roll, info.turn, info.dice, info.length, info.cube) == (1, 1, (5, 2), 7, 1)
    assert parse_position_id(state.position_id()) == (state.board[1], state.board[0])
    state.apply_text("13/8 13/11")
    state.apply(DOUBLE)
    info = parse_match_id(state.match_id())
    assert info.doubled and info.turn == 1 and info.on_roll == 0


def test_a_tiny_limit_stops_games_within_the_declared_length() -> None:  # V-50
    from runarch_gen.play.conformance import check_random_games

    game = BackgammonGame(Rules(limit=100, cube=False, resign=False))
    report = check_random_games(game, games=4, seed=3, deep_every=50)
    assert report.longest <= game.info.max_game_length
    assert report.terminations["limit"] > 0
