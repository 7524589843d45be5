"""The generic play interface as RunArch implements it: outcomes, observations, actions' texts,
game construction, and bad input."""

from __future__ import annotations

import random

import pytest

from runarch_gen.errors import InputError, ParseError
from runarch_gen.play import TERMINAL_PLAYER, IllegalActionError, Outcome, Score, play_out
from runarch_gen.runarch.bots import RandomBot, make_bot
from runarch_gen.runarch.decks.cards import Card
from runarch_gen.runarch.engine import RunArchGame
from runarch_gen.runarch.engine.actions import NUM_DISTINCT_ACTIONS, kind
from runarch_gen.runarch.engine.conditions import (
    default_conditions,
    load_conditions,
    parse_condition,
    parse_condition_set,
)
from runarch_gen.runarch.engine.sample import sample_board, sample_deck
from runarch_gen.runarch.engine.stages import RunArchTermination
from runarch_gen.runarch.rules import parse_rules
from tests.test_engine_helpers import card, make_game, position

P = "0R,3B,4G,5Y,6V"


def test_outcome_says_why_and_gives_each_side_a_breakdown() -> None:
    outcome = Outcome(
        RunArchTermination.TENTH_CARD,
        (1,),
        (Score((("cards", 50), ("duel", 0))), Score((("cards", 48), ("duel", 9)))),
    )
    assert outcome.totals == (50, 57) and outcome.result() == "0-1"
    assert outcome.scores[1].as_dict() == {"cards": 48, "duel": 9, "total": 57}
    assert Outcome(RunArchTermination.TARGET, (0, 1), (Score(()), Score(()))).result() == "1/2-1/2"


def test_a_finished_game_has_no_player_no_actions_and_an_outcome() -> None:
    game = make_game("complex(stall=4)")
    state = game.new_initial_state(random.Random(1))
    assert state.outcome() is None
    outcome = play_out(state, [RandomBot(random.Random(1)), RandomBot(random.Random(2))])
    assert state.current_player() == TERMINAL_PLAYER and state.legal_actions() == ()
    assert outcome == state.outcome() and outcome.sides == ("white", "black")
    assert outcome.totals == tuple(s.total for s in state.settlements())
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(state.string_to_action("a1-b1"))


def test_observation_hides_the_opponents_hand_secret_and_the_offer_patterns() -> None:
    game = make_game("complex")
    state = game.new_initial_state(random.Random(5))
    state.apply(0)
    state.apply(0)
    mine, theirs = state.observation(0), state.observation(1)
    assert mine.hand == tuple(state.hands[0]) and theirs.hand == tuple(state.hands[1])
    assert mine.opponent_hand_size == len(state.hands[1])
    assert mine.secret == state.secret[0] and theirs.secret == state.secret[1]
    assert mine.offer == tuple(game.cards[k].match.index for k in state.offer)  # match areas only
    assert not hasattr(mine, "pile") and mine.pile_size == len(state.pile)
    names = [n for n in dir(type(mine)) if not n.startswith("_")]
    assert "secrets" not in names and "hands" not in names
    assert mine.stones == tuple(state.stones) and mine.public_goals == tuple(state.public)
    assert len(mine.conditions) == 6 and len(mine.frame_bets) == 4


def test_actions_have_one_int_range_per_kind() -> None:
    assert [kind(a) for a in (0, 29, 30, 605, 606, 725, 726, 727, 742, 743)] == [
        "setup",
        "setup",
        "evaluate",
        "evaluate",
        "swap",
        "swap",
        "end",
        "bet",
        "bet",
        "unknown",
    ]
    # 30 setup choices (deal 5: 2 public goals of 5 cards, C(5, 2) = 10, times 3 secret
    # goals among the other 3); 576 evaluations (2 hand slots × 12 lines × 4 destinations, three
    # archives or none, × 6 draw codes: pile, 4 offer slots, nothing); 120 swaps (§4.1: 40
    # orthogonal and 32 diagonal neighbours, 15 + 15 row and column jumps, 9 + 9 diagonal
    # jumps); 1 end of turn; 16 bet spots (3 archives × 4 spots of §6.2, 4 public goals).
    assert 30 + 576 + 120 + 1 + 16 == 743
    assert NUM_DISTINCT_ACTIONS == 743


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hello", "expected an evaluation like 17@r3>L\\+p"),
        ("a1-c2", "not adjacent and no jump apart"),
        ("f1-a1", "expected an evaluation"),
        ("999@r1>L+p", "the deck has no card 999"),
        ("2@r1>L+p", "card 2 is not in the hand of white"),
        ("1@x9>L+p", "unknown line 'x9'"),
        ("$77", "card 77 is not a public goal"),
        ("setup:1,2/3", "the setup is over"),
    ],
)
def test_unknown_action_text_raises_a_typed_error_saying_why(text: str, message: str) -> None:
    game = make_game("complex", [card(1, P), card(2, P), card(77, P)])
    state = position(game, hands=[[1], [2]])
    with pytest.raises(IllegalActionError, match=message) as caught:
        state.string_to_action(text)
    assert isinstance(caught.value, InputError) and isinstance(caught.value, ValueError)


def test_illegal_actions_say_why() -> None:
    game = make_game("complex", [card(1, P)])
    state = position(game, hands=[[1], []])
    with pytest.raises(IllegalActionError, match="not a move of the play"):
        state.apply(NUM_DISTINCT_ACTIONS - 1)
    with pytest.raises(IllegalActionError, match="a scored card goes into an archive"):
        state.apply_text("1@r1+p")
    state.apply_text("a1-b1")
    with pytest.raises(IllegalActionError, match="the move is complete"):
        state.apply_text("c1-d1")


def test_setup_texts_name_the_dealt_cards() -> None:
    game = make_game("complex(deal=4)")
    state = game.new_initial_state(random.Random(2))
    ids = [game.cards[k].id for k in state.dealt[state.current]]
    text = f"setup:{ids[1]}/{ids[3]}"
    action = state.string_to_action(text)
    assert state.action_to_string(action) == text
    with pytest.raises(IllegalActionError, match="choose 1 public goal"):
        state.string_to_action(f"setup:{ids[0]},{ids[1]}/{ids[3]}")
    with pytest.raises(IllegalActionError, match="was dealt"):
        state.string_to_action("setup:999/998" if 999 not in game.card_index else "setup:1/2")


def test_copy_is_independent_and_equal() -> None:
    game = make_game("complex", [card(1, P)])
    state = position(game, hands=[[1], []])
    copy = state.copy()
    assert copy == state
    copy.apply_text("1@r1>L+p")
    assert copy != state and state.hands[0] == [game.card_index[1]] and state.totals == [0, 0]


def test_game_rejects_decks_it_cannot_play() -> None:
    board = sample_board()
    cards = list(sample_deck(30))
    with pytest.raises(InputError, match="needs at least 14 cards"):
        RunArchGame(parse_rules("complex"), board, cards[:13])
    with pytest.raises(InputError, match="card id 1 appears twice"):
        RunArchGame(parse_rules("complex"), board, [*cards, cards[0]])
    short = Card(
        500, type(cards[0].pattern)(cards[0].pattern.pieces[:4]), cards[0].match, cards[0].goal, ()
    )
    with pytest.raises(InputError, match="card 500"):
        RunArchGame(parse_rules("complex"), board, [*cards, short])
    assert RunArchGame(parse_rules("simple"), board, cards[:4])


def test_condition_texts_parse_and_print() -> None:
    assert [c.text for c in default_conditions()][:3] == ["1·1·1", "2·2·2", "3·3·3"]
    assert len(default_conditions()) == 12
    assert parse_condition("4 . * . * any order").text == "4·*·* any order"
    assert parse_condition("4·*·* any order").is_met((0, 4, 1))
    assert parse_condition("*·*·3").is_met((0, 0, 3)) and not parse_condition("*·*·3").is_met(
        (3, 0, 0)
    )
    assert load_conditions("default") == default_conditions()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("conditions = [", "malformed TOML"),
        ("other = 1", "non-empty list"),
        ('conditions = ["1·1"]', "condition 1: bad condition '1·1'"),
        ("conditions = [3]", "condition 1 is not a string"),
    ],
)
def test_bad_condition_sets_are_named(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_condition_set(text, source="c.toml")


def test_missing_condition_file_is_an_input_error(tmp_path) -> None:
    with pytest.raises(InputError, match="no such file"):
        RunArchGame(
            parse_rules(f"complex(conditions={tmp_path}/none.toml)", files=tmp_path),
            sample_board(),
            sample_deck(),
        )


def test_unknown_bot_is_named() -> None:
    with pytest.raises(InputError, match="unknown bot 'clever'"):
        make_bot("clever", random.Random(1))


def test_the_guide_example_runs(capsys) -> None:
    from pathlib import Path

    guide = Path(__file__).parent.parent / "docs" / "guide" / "engine.md"
    section = guide.read_text(encoding="utf-8").split("## From Python", 1)[1]
    code = section.split("```python", 1)[1].split("```", 1)[0]
    exec(compile(code, "docs/guide/engine.md", "exec"), {})
    assert "[Variant" in capsys.readouterr().out


def test_games_and_states_pickle_for_worker_processes() -> None:
    import pickle

    game = make_game("complex")
    state = game.new_initial_state(random.Random(1))
    state.apply(0)
    state.apply(0)
    assert pickle.loads(pickle.dumps(game)) == game
    assert pickle.loads(pickle.dumps(state)) == state


def test_observation_scores_cards_on_any_arrangement() -> None:
    game = make_game("complex(direction=reversible)", [card(1, P)])
    state = position(game, hands=[[1], []])
    view = state.observation(0)
    k = game.card_index[1]
    assert view.pattern_points(k, 0) == 6 and view.pattern_points(k, 10) == 10
    reversed_d1 = list(state.stones)
    for i, j in ((0, 24), (6, 18)):
        reversed_d1[i], reversed_d1[j] = reversed_d1[j], reversed_d1[i]
    assert view.pattern_points(k, 10, reversed_d1) == 10  # read backwards
