"""Malacca's bots: legal moves only, seeing only their observation; the thinking bots choose a
wait card's role well, and play better than chance."""

from __future__ import annotations

import random

from runarch_gen.games import find_registration
from runarch_gen.malacca.bots import BOTS, MorganBot, ReaderBot, best_wait_choice, keep_choice
from runarch_gen.malacca.engine import MalaccaGame, MalaccaState
from runarch_gen.malacca.rules import Card, Character, MalaccaRules
from runarch_gen.play.game import sample_chance
from runarch_gen.play.playtest import playtest


def test_every_bot_plays_legal_moves_from_its_observation_alone() -> None:
    game = MalaccaGame(MalaccaRules(players=5, characters=(), equipment=True, rounds=4))
    for name, factory in BOTS.items():
        rng = random.Random(len(name))
        state = game.new_initial_state()
        bots = [factory(random.Random(p)) for p in range(5)]
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(sample_chance(state, rng))
                continue
            p = state.current_player()
            # before the reveal another seat's card is hidden from the bot's observation
            seen = state.observation(p)
            if seen.phase == "play":
                assert all(c in (None, -1) for q, c in enumerate(seen.laid) if q != p)
            action = bots[p].step(seen, state.legal_actions())
            assert action in state.legal_actions()
            state.apply(action)


def _wait_table() -> MalaccaState:
    state = MalaccaGame(
        MalaccaRules(
            players=3, characters=(Character.LASKARINA, Character.ORGONEZ, Character.PICARD)
        )
    ).new_initial_state()
    for text in ("captain p2", "draw wait-ad", "ship 14", "trade 5", "trade 3", "wait-ad 0"):
        state.apply_text(text)
    return state


def test_a_wait_card_attacks_when_everyone_else_traded() -> None:
    state = _wait_table()
    action = best_wait_choice(state.observation(0), state.legal_actions())
    assert state.action_to_string(action) == "choose attack"


def test_a_wait_card_defends_against_an_attack() -> None:
    state = MalaccaGame(
        MalaccaRules(players=2, characters=(Character.LASKARINA, Character.ORGONEZ))
    ).new_initial_state()
    for text in ("captain p2", "draw wait-ad", "ship 3", "attack 4", "wait-ad 0"):
        state.apply_text(text)
    action = best_wait_choice(state.observation(0), state.legal_actions())
    assert state.action_to_string(action) == "choose defence"


def test_sayyida_keeps_the_most_flexible_card() -> None:
    assert keep_choice([int(Card.ATTACK2), int(Card.WAIT_AD)]) == Card.WAIT_AD
    assert keep_choice([int(Card.ATTACK2), int(Card.DEFENCE2)]) == Card.DEFENCE2


def test_the_last_seat_stakes_nothing_on_attack_or_defence() -> None:
    game = MalaccaGame(MalaccaRules(players=3))
    for seed in range(40):
        state = game.new_initial_state()
        for text in ("captain p1", "ship 9", "trade 3", "trade 4"):
            state.apply_text(text)
        action = MorganBot(random.Random(seed)).step(state.observation(2), state.legal_actions())
        stake, card = divmod(action, 8)
        if Card(card).role is not None and Card(card).role.value != "trade":  # type: ignore[union-attr]
            assert stake == 0


def test_the_reader_does_not_stake_everything_first_at_the_table() -> None:
    game = MalaccaGame(MalaccaRules(players=4))
    state = game.new_initial_state()
    for text in ("captain p1", "ship 8"):
        state.apply_text(text)
    state.money[0] = 40
    state._legal = None
    action = ReaderBot(random.Random(1)).step(state.observation(0), state.legal_actions())
    assert action // 8 < 40


def test_morgan_beats_random_players() -> None:
    registration = find_registration("malacca")
    values = registration.game_type.parse_parameters({"players": "4"})
    report = playtest(registration, values, ["morgan", "random"], games=60, seed=3, workers=1)
    rows = report.to_json()["wins"]["by_bot"]
    assert rows["morgan"]["wins"] > rows["random"]["wins"]


def test_the_reader_beats_morgan() -> None:
    registration = find_registration("malacca")
    values = registration.game_type.parse_parameters({"players": "3", "rounds": "8"})
    report = playtest(registration, values, ["reader", "morgan"], games=12, seed=5, workers=1)
    rows = report.to_json()["wins"]["by_bot"]
    assert rows["reader"]["win_rate"]["rate"] > rows["morgan"]["win_rate"]["rate"]
