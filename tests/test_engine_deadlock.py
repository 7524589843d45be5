"""[R-18] as the engine reads it: a game that can only stall ends at once as a deadlock.

Hand-built positions (see tests/test_engine_helpers.py): white stands at 48 points, past 25;
black at 52, past 50. Stacks are D, X, F, N values; F = 11 cannot be reached before movement
phase 4 (at most 10 pattern points), and phase 4 needs the other side past 75.
"""

from __future__ import annotations

import random
import sysconfig

import pytest

from runarch_gen.play.bot import play_out
from runarch_gen.runarch.bots import RandomBot, make_bot
from runarch_gen.runarch.engine import RunArchGame, RunArchState
from runarch_gen.runarch.engine import state as state_module
from runarch_gen.runarch.engine.actions import END
from runarch_gen.runarch.engine.record import replay, write_record
from runarch_gen.runarch.engine.sample import sample_board, sample_deck
from runarch_gen.runarch.engine.stages import RunArchTermination
from runarch_gen.runarch.rules import parse_rules
from tests.test_engine_helpers import card, make_game, position, stones_with, swap

F11 = (5, 7, 11, 13)
F10 = (5, 7, 10, 12)
FRAME = ((60, 1), (64, 0), (80, 1), (84, 0))  # no frame token on 55: no bet to place


def both_near_fifty(rules: str = "complex", black_stack: tuple[int, ...] = F11) -> RunArchState:
    """White (X = 7 to score, phase 3) holds card 1, which scores 7 on r1; black is past 50
    with the F token on top of its stack. White scoring passes 50."""
    game = make_game(rules, [card(1, "0R,3B,4G,5Y,6V"), card(2, "6V,5Y,4G,3B,0R")])
    return position(
        game,
        stones=stones_with(b1="3B"),  # r1 reads 0R 3B 4R 5R 6R: 2 + 2 + 1 + 1 + 1 = 7
        hands=[[1], [2]],
        totals=(48, 52),
        given=(1, 2),
        received=(2, 1),
        stacks=(F11, black_stack),
        frame_bets=FRAME,
    )


def white_scores_and_ends_turn(state: RunArchState) -> None:
    state.apply_text("1@r1>L+p")
    swap(state, "e5", "e4")
    state.apply(END)


@pytest.mark.parametrize("rules", ["complex", "classic"])
def test_R18_both_sides_stuck_at_F11_end_as_a_deadlock(rules: str) -> None:
    state = both_near_fifty(rules)
    assert state.can_score_again(0) and not state.can_score_again(1)
    white_scores_and_ends_turn(state)
    assert state.totals[0] == 55 and state.minimum(0) == 11 and state.phase(1) == 3
    assert (
        state.is_terminal() and state.termination == RunArchTermination.DEADLOCK and state.turn == 1
    )
    outcome = state.outcome()
    assert (
        outcome is not None
        and outcome.stalled
        and outcome.termination == RunArchTermination.DEADLOCK
    )


@pytest.mark.skipif(
    (state_module.__file__ or "").endswith(sysconfig.get_config_var("EXT_SUFFIX")),
    reason="the compiled engine calls deadlocked() directly: patching the class changes nothing",
)
def test_R18_deadlock_scores_equal_what_the_stall_guard_gives(monkeypatch) -> None:
    deadlocked = both_near_fifty("complex(stall=40)")
    white_scores_and_ends_turn(deadlocked)
    early = deadlocked.outcome()
    assert early is not None
    # The same game with the detection off runs on until the stall guard stops it.
    monkeypatch.setattr(RunArchState, "deadlocked", lambda self: False)
    guarded = both_near_fifty("complex(stall=40)")
    white_scores_and_ends_turn(guarded)
    assert not guarded.is_terminal()
    late = play_out(guarded, [RandomBot(random.Random(1)), RandomBot(random.Random(2))])
    assert late.termination == RunArchTermination.STALLED and guarded.turn == 40
    assert late.scores == early.scores and late.winners == early.winners


def test_R18_no_deadlock_while_the_other_side_can_still_score() -> None:
    state = both_near_fifty(black_stack=F10)  # black needs 10 pattern points: reachable
    white_scores_and_ends_turn(state)
    assert not state.is_terminal() and state.can_score_again(1)
    assert not state.can_score_again(0)  # white, at F = 11, waits for black to pass 75


def test_R18_phase_4_lets_a_high_minimum_score_with_the_match_bonus() -> None:
    state = both_near_fifty()
    state.received[1] = 3  # black holds white's F token too: movement phase 4
    assert state.minimum(1) == 11 and state.can_score_again(1)


def test_R18_match_bonus_off_leaves_F11_stuck_even_in_phase_4() -> None:
    state = both_near_fifty("complex(match_bonus=off)")
    state.received[1] = 3
    assert not state.can_score_again(1)


def test_R11_a_hand_no_archive_takes_cannot_score_again() -> None:
    game = make_game(
        "complex",
        [
            card(1, match="0B"),
            card(2, match="4B"),
            card(3, match="0G"),
            card(4, match="6Y"),
            card(5, match="0Y"),
        ],
    )
    state = position(game, hands=[[5], []], frame_bets=FRAME)
    index = game.card_index
    # SAME holds two blue cards, SHAPES a circle, COLOURS a yellow one: 0Y fits nowhere.
    state.archives[0] = [[index[1], index[2]], [index[3]], [index[4]]]
    state.placed[0] = 4
    assert not state.can_score_again(0)
    state.hands[0] = []
    assert not state.can_score_again(0)


def test_R24_the_solo_game_never_deadlocks() -> None:
    state = both_near_fifty("solo")
    assert not state.deadlocked()


def test_deadlocked_games_replay_from_their_record() -> None:
    game = RunArchGame(parse_rules("complex"), sample_board(), sample_deck(), deck_name="s")
    for seed in range(100):  # greedy games deadlock about one time in ten
        state = game.new_initial_state(random.Random(seed))
        bots = [make_bot("greedy", random.Random(seed)), make_bot("greedy", random.Random(-seed))]
        if play_out(state, bots).termination == RunArchTermination.DEADLOCK:
            break
    else:
        pytest.fail("no deadlock in 100 greedy games")
    text = write_record(state, seed=seed)
    assert '[Termination "deadlock"]' in text
    again = replay(text, deck=sample_deck())
    assert again.termination == RunArchTermination.DEADLOCK and again.outcome() == state.outcome()
