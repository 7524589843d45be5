"""Bots and cube theory: Janowski's take and cash points, the computed match equity table, the
cube decisions at clear-cut chances, bots that only play legal actions and the heuristic bot
beating the random one."""

from __future__ import annotations

import random

import numpy as np
import pytest

from runarch_gen.backgammon.cube import (
    cubeful_equity,
    match_winning_chance,
    met,
    money_cube_action,
    thorp_count,
)
from runarch_gen.backgammon.engine import BackgammonGame
from runarch_gen.backgammon.evaluator import INPUTS, Network, equity, swap_sides
from runarch_gen.backgammon.rules import Rules
from runarch_gen.backgammon.tools import play_game
from runarch_gen.play.bot import play_out


def test_the_live_take_point_without_gammons_is_20_percent() -> None:  # V-37
    # at the live take point the taker's equity after taking is -1 per cube unit: a pass
    assert cubeful_equity(0.2, 1.0, 1.0, 1, x=1.0) == pytest.approx(-1.0)
    # dead cube (x = 0): the classic 25 % take point
    assert cubeful_equity(0.25, 1.0, 1.0, 1, x=0.0) == pytest.approx(-0.5)


def test_owning_the_cube_is_worth_something() -> None:
    for p in (0.3, 0.5, 0.7):
        own, middle, theirs = (cubeful_equity(p, 1.2, 1.2, o) for o in (0, -1, 1))
        assert own >= middle >= theirs


def test_clear_cube_decisions() -> None:
    assert money_cube_action(0.5, 1.0, 1.0, -1) == (False, True)
    double, take = money_cube_action(0.92, 1.0, 1.0, -1)
    assert double and not take
    double, take = money_cube_action(0.72, 1.0, 1.0, -1)
    assert double and take


def test_the_match_equity_table_is_consistent() -> None:  # V-44
    table = met(9)
    for a in range(1, 10):
        for b in range(1, 10):
            assert table[a][b] + table[b][a] == pytest.approx(1.0)
            if b < 9:
                assert table[a][b] < table[a][b + 1]
    assert 0.6 < table[1][2] < 0.75  # published tables: about 68 %
    assert table[5][5] == pytest.approx(0.5)


def test_match_winning_chance_of_a_sure_win_is_the_table_entry() -> None:
    table = met(7)
    assert match_winning_chance((1.0, 0.0, 0.0), (5, 3), 1, 7) == pytest.approx(table[4][3])
    assert match_winning_chance((0.0, 0.0, 0.0), (5, 3), 2, 7) == pytest.approx(table[5][1])


def test_thorp_count_adds_a_tenth_for_the_leader_over_30() -> None:
    from runarch_gen.backgammon.board import side_from_points

    side = side_from_points({6: 3, 5: 3, 4: 3, 0: 6})
    plain = thorp_count(side, leader=False)
    assert plain == 45 + 18 + 0 - 3
    assert thorp_count(side, leader=True) == pytest.approx(plain * 1.1)


def test_old_three_output_weights_read_with_no_backgammons() -> None:
    rng = np.random.default_rng(1)
    net = Network(
        rng.normal(0, 0.1, (INPUTS, 4)), np.zeros(4), rng.normal(0, 0.1, (4, 3)), np.zeros(3)
    )
    from runarch_gen.backgammon.board import START

    out = net.evaluate([(START, START)])
    assert out.shape == (1, 5) and out[0, 2] == 0.0 and out[0, 4] == 0.0
    assert swap_sides(swap_sides(out)) == pytest.approx(out)
    assert equity(swap_sides(out)) == pytest.approx(-equity(out))


@pytest.mark.parametrize("bots", [("td", "heuristic"), ("heuristic", "random"), ("td", "td")])
def test_bots_finish_matches_with_the_cube(bots: tuple[str, str]) -> None:
    state = play_game(Rules(match=3, beaver=True), bots, 4)
    assert state.is_terminal() and max(state.score) >= 3


def test_the_heuristic_bot_beats_the_random_bot() -> None:
    from runarch_gen.backgammon.bots import HeuristicBot, RandomBot

    game = BackgammonGame(Rules(cube=False, resign=False))
    wins = 0
    for index in range(20):
        seat = index % 2
        bots: list[RandomBot | HeuristicBot] = [
            RandomBot(random.Random(index)),
            RandomBot(random.Random(index)),
        ]
        bots[seat] = HeuristicBot(random.Random(index))
        outcome = play_out(game.new_initial_state(), bots, random.Random(index))
        wins += outcome.winners[0] == seat
    assert wins >= 16


def test_training_is_reproducible_and_a_longer_run_extends_a_shorter_one() -> None:
    from runarch_gen.backgammon.train import train

    one = train(games=3, seed=5, hidden=6)
    two = train(games=3, seed=5, hidden=6)
    assert all(
        np.array_equal(a, b)
        for a, b in zip(
            (one.w1, one.b1, one.w2, one.b2), (two.w1, two.b1, two.w2, two.b2), strict=True
        )
    )
    saved: list[Network] = []

    def keep(n: int, net: Network) -> None:
        if n == 2:
            saved.append(Network(net.w1.copy(), net.b1.copy(), net.w2.copy(), net.b2.copy()))

    train(games=3, seed=5, hidden=6, on_game=keep)
    shorter = train(games=2, seed=5, hidden=6)
    assert np.array_equal(saved[0].w1, shorter.w1)
