"""Malacca's engine: setup, turn order, hidden cards, special-card flow, characters, equipment,
the end; and invariants over random games (money conserved round by round, the 16 special
cards always somewhere)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.errors import InputError
from runarch_gen.games import find_game
from runarch_gen.malacca.bots import BOTS
from runarch_gen.malacca.engine import MalaccaGame, MalaccaState, MalformedActionError, Phase
from runarch_gen.malacca.rules import Card, Character, MalaccaRules
from runarch_gen.play.game import CHANCE_PLAYER, IllegalActionError, sample_chance


def new(**kw: object) -> MalaccaState:
    return MalaccaGame(MalaccaRules(**kw)).new_initial_state()  # type: ignore[arg-type]


def phase(state: MalaccaState) -> Phase:
    return state.phase  # read through a call: each read may differ after an action


def run(state: MalaccaState, *texts: str) -> None:
    for text in texts:
        state.apply_text(text)


def specials_everywhere(state: MalaccaState) -> int:
    laid = sum(1 for c in state.laid if c is not None and c >= 3)
    return (
        sum(state.deck)
        + len(state.bottom)
        + sum(sum(h) for h in state.hands)
        + len(state.looking)
        + laid
    )


def test_the_first_captain_is_drawn_by_lot_and_lays_first() -> None:
    state = new(players=3)
    assert state.current_player() == CHANCE_PLAYER
    assert [p for _, p in state.chance_outcomes()] == [pytest.approx(1 / 3)] * 3
    run(state, "captain p3", "ship 7")
    assert state.current_player() == 2
    run(state, "trade 2")
    assert state.current_player() == 0


def test_ships_come_from_the_ship_deck_with_their_counts() -> None:
    state = new(players=2, ships=(2, 2, 5), rounds=3)
    run(state, "captain p1")
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == [2, 5]
    assert [p for _, p in outcomes] == pytest.approx([2 / 3, 1 / 3])
    run(state, "ship 2", "trade 0", "trade 0")
    assert list(state.chance_outcomes()) == [(2, 0.5), (5, 0.5)]


def test_stakes_are_open_cards_are_hidden_until_the_reveal() -> None:
    state = new(players=3)
    run(state, "captain p1", "ship 9", "attack 3", "trade 5")
    seen = state.observation(2)
    assert seen.stakes == (3, 5, None)
    assert seen.laid == (-1, -1, None)
    assert state.observation(0).laid == (Card.ATTACK, -1, None)
    run(state, "defence 0")
    # all three laid: revealed and resolved at once (no wait card); p3's defence held
    assert state.money == [5 - 3 - 1, 10, 5 + 3]
    assert state.observation(0).laid == (Card.ATTACK, Card.TRADE, Card.DEFENCE)
    run(state, "draw trade2")
    assert state.round == 1 and state.captain == 1 and phase(state) is Phase.SHIP


def test_the_stake_is_at_most_the_money_and_only_held_cards_are_legal() -> None:
    state = new(players=2)
    run(state, "captain p1", "ship 4")
    legal = state.legal_actions()
    assert len(legal) == 3 * 6 and 8 * 5 + 2 in legal and 8 * 6 + 2 not in legal
    with pytest.raises(IllegalActionError):
        state.apply_text("trade 6")
    with pytest.raises(IllegalActionError):
        state.apply_text("attack2 0")
    with pytest.raises(MalformedActionError, match="not a play action"):
        state.apply_text("captain p1")
    with pytest.raises(MalformedActionError):
        state.apply_text("trade five")


def test_wait_cards_choose_after_the_reveal_in_order_from_the_captain() -> None:
    state = new(players=3, characters=(Character.LASKARINA, Character.ORGONEZ, Character.PICARD))
    run(state, "captain p2", "draw wait-ad", "ship 6")
    assert state.hands[0][Card.WAIT_AD] == 1
    run(state, "attack 0", "trade 3", "wait-ad 0")
    assert phase(state) is Phase.WAIT and state.current_player() == 0
    assert state.observation(1).laid == (Card.WAIT_AD, Card.ATTACK, Card.TRADE)
    assert [state.action_to_string(a) for a in state.legal_actions()] == [
        "choose attack",
        "choose defence",
    ]
    run(state, "choose defence")
    # defended: p2's attack fails; p1 takes the stake-less share and a special card
    assert phase(state) is Phase.DRAW
    run(state, "draw trade2")
    assert state.hands[0][Card.TRADE2] == 1
    assert state.bottom == [(Card.WAIT_AD, -1)]  # [M-17] after the draws


def test_an_empty_shuffled_deck_deals_from_the_bottom_then_nothing() -> None:
    state = new(players=2, characters=(Character.MORGAN, Character.ORGONEZ))
    run(state, "captain p1", "ship 3")
    state.deck = [0] * 8
    state.bottom = [(Card.TRADE2, -1)]
    run(state, "defence 0", "attack 0")
    assert state.hands[0][Card.TRADE2] == 1 and not state.bottom
    run(state, "ship 4", "attack 0", "defence 0")
    assert sum(state.hands[0]) == 1 and state.round == 2  # nobody draws from nothing


def test_sayyida_looks_at_two_and_keeps_one_the_other_secretly_to_the_bottom() -> None:
    state = new(players=2, characters=(Character.SAYYIDA, Character.ORGONEZ))
    run(state, "captain p1", "ship 5", "defence 0", "attack 0", "draw trade2", "draw attack2")
    assert phase(state) is Phase.KEEP and state.current_player() == 0
    assert state.observation(0).looking == (Card.TRADE2, Card.ATTACK2)
    assert state.observation(1).looking == ()
    run(state, "keep trade2")
    assert state.hands[0][Card.TRADE2] == 1
    assert state.bottom == [(Card.ATTACK2, 0)]
    assert state.observation(0).bottom == (Card.ATTACK2,)
    assert state.observation(1).bottom == (-1,)


def test_starting_money_by_character_and_black_caesar_counts_himself() -> None:
    chars = (Character.CAESAR, Character.PICARD, Character.ORGONEZ, Character.INGRID)
    state = new(players=4, characters=chars)
    run(state, "captain p1")
    assert state.money == [4, 3, 9, 4]
    state = new(players=2, characters=())
    run(state, "captain p1", "deal morgan", "deal zheng")
    assert state.money == [5, 3]


def test_laskarina_draws_one_special_card_at_setup() -> None:
    state = new(players=2, characters=(Character.ORGONEZ, Character.LASKARINA))
    run(state, "captain p1")
    assert phase(state) is Phase.DRAW
    run(state, "draw defence2")
    assert state.hands[1][Card.DEFENCE2] == 1 and state.observation(0).specials == (0, 1)


def test_equipment_costs_five_runs_out_and_skips_who_cannot_pay() -> None:
    state = new(players=2, equipment=True)
    run(state, "captain p1")
    assert phase(state) is Phase.BUY and state.current_player() == 0
    run(state, "buy trade", "pass", "ship 3")
    assert state.money == [0, 5] and state.equipment[0] == [0, 0, 1]
    run(state, "trade 0", "trade 5")  # p1 scrubs the deck: +2; p2 +5
    assert state.money == [2, 10]
    # round 2: p2 is captain; p1 cannot pay and is not asked
    assert phase(state) is Phase.BUY and state.current_player() == 1
    state.equipment_left = [0, 0, 1]
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["pass", "buy trade"]
    run(state, "buy trade")
    assert state.equipment_left == [0, 0, 0] and phase(state) is Phase.SHIP


def test_the_game_ends_after_the_last_round_and_ties_share_the_win() -> None:
    state = new(players=2, ships=(3, 4), rounds=2)
    run(state, "captain p1", "ship 3", "trade 0", "trade 0", "ship 4", "trade 0", "trade 0")
    assert state.is_terminal() and state.captain == 0
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0, 1) and outcome.returns == (0.0, 0.0)
    assert str(outcome.termination) == "last ship"


def test_the_captain_moves_clockwise_every_round() -> None:
    state = new(players=3)
    run(state, "captain p3")
    captains = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.legal_actions()[0])
        else:
            if phase(state) is Phase.PLAY and state.turn == 0:
                captains.append(state.captain)
            state.apply(state.legal_actions()[0])
    assert captains == [2, 0, 1] * 4


def test_game_strings_round_trip_and_bad_ones_are_refused() -> None:
    for text in (
        "malacca",
        "malacca(players=6,equipment=on)",
        "malacca(ships=2/4/6/8,rounds=4,characters=morgan/zheng/caesar/ingrid)",
    ):
        assert str(find_game(text)) == text
    for bad in (
        "malacca(players=9)",
        "malacca(rounds=13)",
        "malacca(characters=morgan/morgan/zheng/ingrid)",
        "malacca(characters=nobody)",
        "malacca(ships=14-3)",
        "malacca(share=half)",
    ):
        with pytest.raises(InputError):
            find_game(bad)


def _play_random(seed: int, text: str) -> MalaccaState:
    game = find_game(text)
    rng = random.Random(seed)
    state: MalaccaState = game.new_initial_state()
    bots = [
        BOTS[rng.choice(["random", "morgan"])](random.Random(seed + p))
        for p in range(game.num_players)
    ]
    rounds_seen = None
    while not state.is_terminal():
        before = sum(state.money)
        spent = len(state.equipment_cards)
        setup = state.in_setup
        if state.is_chance_node():
            state.apply(sample_chance(state, rng))
        else:
            p = state.current_player()
            state.apply(bots[p].step(state.observation(p), state.legal_actions()))
        assert specials_everywhere(state) == 16
        assert min(state.money) >= 0
        last = state.last_round
        if last is not None and last is not rounds_seen:
            rounds_seen = last
            result = last[2]
            # money conserved: what players gained came from the ship and the bank
            assert sum(state.money) - before == (
                result.from_ship + result.from_bank - result.to_bank
            )
        elif not setup:
            assert sum(state.money) - before == -5 * (len(state.equipment_cards) - spent)
    return state


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from(
        [
            "malacca(players=2)",
            "malacca(players=4,characters=random,equipment=on)",
            "malacca(players=8,characters=random,equipment=on,share=even,cargo=defenders)",
            "malacca(players=5,characters=random,ships=1-3,rounds=3)",
        ]
    ),
)
def test_random_games_conserve_money_and_cards(seed: int, text: str) -> None:
    state = _play_random(seed, text)
    assert state.is_terminal() and state.round == state.rules.rounds


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 8))
def test_resampled_states_look_the_same_and_keep_every_card(seed: int, players: int) -> None:
    game = find_game(f"malacca(players={players},characters=random)")
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(rng.randrange(5, 120)):
        if state.is_terminal():
            break
        state.apply(
            sample_chance(state, rng)
            if state.is_chance_node()
            else rng.choice(list(state.legal_actions()))
        )
    for p in range(players):
        other = state.resample_from_infostate(p, rng)
        assert other.observation_string(p) == state.observation_string(p)
        assert specials_everywhere(other) == 16
        assert other.hands[p] == state.hands[p]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 60), st.text(max_size=30))
def test_action_texts_parse_or_fail_with_a_typed_error(steps: int, text: str) -> None:
    game = find_game("malacca(players=3,characters=random,equipment=on)")
    rng = random.Random(steps)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rng.choice(list(state.legal_actions())))
    if state.is_terminal():
        return
    try:
        action = state.string_to_action(text)
    except (IllegalActionError, MalformedActionError):
        return
    assert action in state.legal_actions()
