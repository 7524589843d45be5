"""The bots: policies are distributions over legal actions, the odds bot follows the odds, the
re-roll reveals, the Bayesian bot's reading of bids."""

from __future__ import annotations

import random

import pytest

from runarch_gen.bluff.bots import BOTS, BayesBot, BluffBot, OddsBot, reveal_matching
from runarch_gen.bluff.engine import DOUBT, Phase
from runarch_gen.games import find_game
from runarch_gen.play.game import sample_chance
from tests.bluff.helpers import table


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.parametrize("rules", ["bluff(players=3)", "bluff(players=4,reroll=on,cap=on)"])
def test_every_policy_is_a_distribution_over_legal_actions(name: str, rules: str) -> None:
    game = find_game(rules)
    rng = random.Random(2)
    bot = BOTS[name](random.Random(1))
    assert isinstance(bot, BluffBot)
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(sample_chance(state, rng))
                continue
            player = state.current_player()
            legal = state.legal_actions()
            policy = bot.policy(state.observation(player), legal)
            assert abs(sum(p for _, p in policy) - 1) < 1e-9
            assert all(a in legal and p >= 0 for a, p in policy)
            state.apply(bot.step(state.observation(player), legal))


def test_the_odds_bot_doubts_an_impossible_bid_and_bids_what_it_holds() -> None:
    state = table(["3,3,★", "1,2,4"], ["1×1"])
    bot = OddsBot(random.Random(0))
    seen = state.observation(1)
    policy = dict(bot.policy(seen, state.legal_actions()))
    assert set(policy) <= set(state.legal_actions()) and DOUBT not in policy  # 1×1 is likely
    state.apply_text("6×5")  # more dice than there are
    policy = dict(bot.policy(state.observation(0), state.legal_actions()))
    assert policy == {DOUBT: 1.0}


def test_after_its_bid_the_odds_bot_reveals_the_dice_backing_it() -> None:
    state = table(["1,3,3,★", "2,2,4,5"], ["3×3"], reroll=True)
    assert state.phase == Phase.SHOW
    seen = state.observation(0)
    action = reveal_matching(seen, state.legal_actions())
    assert state.action_to_string(action) == "show 3,3,★"
    state = table(["3,3,★,★", "2,2,4,5"], ["3×3"], reroll=True)  # all count: keep
    assert state.action_to_string(reveal_matching(state.observation(0), state.legal_actions())) == (
        "keep"
    )


def test_the_bayesian_bot_believes_a_bidder_holds_the_face_bid() -> None:
    state = table(["1,2", "5,5", "4,4"], ["2×5"])
    odds = OddsBot(random.Random(0)).tails(state.observation(2))
    bayes = BayesBot(random.Random(0)).tails(state.observation(2))
    # p3 sees p1 and p2 bid nothing but p2's 2×5: more fives are likelier for the Bayesian bot
    assert bayes[5][2] > odds[5][2]
    # stars count for every number, so other faces gain too, but less
    assert bayes[5][2] - odds[5][2] > bayes[4][2] - odds[4][2]
