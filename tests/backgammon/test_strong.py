"""The strong bot: its features (shot counts computed from the 36 rolls), the split between
the contact net, the race net and the exact bear-off database, the 1- and 2-ply search, the
bots in whole games, reproducible training and rollouts."""

from __future__ import annotations

import random

import numpy as np
import pytest

from runarch_gen.backgammon.bearoff import bearoff_probabilities
from runarch_gen.backgammon.board import START, format_steps, legal_plays, side_from_points
from runarch_gen.backgammon.ids import parse_position_id
from runarch_gen.backgammon.nets import (
    BEAROFF,
    CONTACT,
    CONTACT_INPUTS,
    OVER,
    RACE,
    RACE_INPUTS,
    Evaluator,
    Layer,
    classify,
    contact_features,
    load_evaluator,
    race_features,
    shot_chance,
)
from runarch_gen.backgammon.odds import HIT_CHANCE
from runarch_gen.backgammon.rules import Rules
from runarch_gen.backgammon.search import position_chances, rank_plays
from runarch_gen.backgammon.selfplay import TrainingOptions, rollout_chances, train_evaluator
from runarch_gen.backgammon.tools import play_game
from runarch_gen.errors import InputError


def _arrays(*sides: tuple[int, ...]) -> list[np.ndarray]:
    return [np.array([side]) for side in sides]


@pytest.mark.parametrize("distance", range(1, 13))
def test_a_lone_shot_is_hit_as_often_as_the_odds_table_says(distance: int) -> None:
    # my blot on my 13-point, one opposing checker `distance` pips behind it, nothing between
    me = side_from_points({13: 1, 0: 14})
    you = side_from_points({25 - (13 - distance): 1, 0: 14})
    chance = float(shot_chance(*_arrays(me, you))[0])
    assert chance == pytest.approx(HIT_CHANCE[distance], abs=1e-12)


def test_made_points_block_indirect_shots() -> None:
    # an 8 away: 6-2, 5-3, 4-4, 2-2 (and 4-4 via 4) ... block the 4, 2, 6 and 5, 3 points
    me = side_from_points({13: 1, 9: 2, 11: 2, 7: 2, 8: 2, 10: 2, 0: 4})
    you = side_from_points({20: 1, 0: 14})  # my point 5: 8 pips behind my blot
    assert float(shot_chance(*_arrays(me, you))[0]) == 0.0


def test_a_checker_on_the_bar_hits_only_by_entering() -> None:
    me = side_from_points({4: 1, 10: 1, 0: 13})
    you = side_from_points({25: 1, 19: 1, 0: 13})  # its 19 is my 6: it may not move first
    chance = float(shot_chance(*_arrays(me, you))[0])
    # entering, it hits my 4 with any 4 (11 rolls), 1-3, 3-1, 2-2, 1-1, and my 10 with 5-5
    # (6-4 already counted); from my 6 it could hit 10 with a 4, but must enter first
    assert chance == pytest.approx(16 / 36)


def test_the_split_between_networks_and_database() -> None:
    race_a = side_from_points({8: 5, 5: 10})
    race_b = side_from_points({9: 5, 4: 10})
    home = side_from_points({3: 5, 2: 10})
    kinds = classify(
        np.array([START, race_a, home, side_from_points({0: 15})]),
        np.array([START, race_b, home, START]),
    )
    assert list(kinds) == [CONTACT, RACE, BEAROFF, OVER]
    assert contact_features(*_arrays(START, START)).shape == (1, CONTACT_INPUTS)
    assert race_features(*_arrays(race_a, race_b)).shape == (1, RACE_INPUTS)


def test_bear_offs_are_evaluated_exactly() -> None:
    evaluator = load_evaluator()
    me = side_from_points({3: 2, 1: 3, 0: 10})
    you = side_from_points({6: 4, 5: 1, 0: 10})
    assert np.allclose(evaluator.evaluate([(me, you)])[0], bearoff_probabilities(me, you))


def test_finished_games_are_scored() -> None:
    evaluator = load_evaluator()
    winner = side_from_points({0: 15})
    gammoned = side_from_points({20: 1, 6: 14})
    # the player on roll has lost a backgammon (a checker in the winner's home board)
    assert list(evaluator.evaluate([(gammoned, winner)])[0]) == [0, 0, 0, 1, 1]
    assert list(evaluator.evaluate([(winner, gammoned)])[0]) == [1, 1, 1, 0, 0]
    single = side_from_points({6: 14, 0: 1})
    assert list(evaluator.evaluate([(winner, single)])[0]) == [1, 0, 0, 0, 0]


def test_chances_are_consistent() -> None:
    out = load_evaluator().evaluate([(START, START), (START, side_from_points({8: 15}))])
    assert np.all(out[:, 1] <= out[:, 0]) and np.all(out[:, 2] <= out[:, 1])
    assert np.all(out[:, 3] <= 1 - out[:, 0]) and np.all(out[:, 4] <= out[:, 3])


def test_rank_plays_lists_every_play_best_first() -> None:
    evaluator = load_evaluator()
    for plies in (1, 2):
        ranked = rank_plays(evaluator, START, START, (4, 2), plies=plies)
        assert {r.play.key for r in ranked} == {p.key for p in legal_plays(START, START, 4, 2)}
        deep = [r.equity for r in ranked if r.ply == plies]
        assert deep == sorted(deep, reverse=True)
    # every strong player makes the 4-point with 42 at the start
    assert ranked[0].play.mover[4] == 2


def test_the_issue_bear_off_play() -> None:
    # WgMAAJ0FAAAAAA 53: 5/off 3/off; 6/3 5/off is about 0.30 worse (exact, the database)
    me, you = parse_position_id("WgMAAJ0FAAAAAA")
    ranked = rank_plays(load_evaluator(), me, you, (5, 3), plies=1)
    assert format_steps(ranked[0].play.steps) == "5/off 3/off"
    worse = next(r for r in ranked if format_steps(r.play.steps) == "6/3 5/off")
    assert ranked[0].equity - worse.equity == pytest.approx(0.30, abs=0.01)


def test_no_hit_against_a_closed_board() -> None:
    # 27YDBARX7hsAAA 62: hitting 6/4* with the opponent's board closed is a blunder
    me, you = parse_position_id("27YDBARX7hsAAA")
    best = rank_plays(load_evaluator(), me, you, (6, 2), plies=2)[0].play
    assert not any(step.hit for step in best.steps)


def test_position_chances_average_the_rolls() -> None:
    evaluator = load_evaluator()
    zero = position_chances(evaluator, START, START, plies=0)
    one = position_chances(evaluator, START, START, plies=1)
    assert zero.shape == one.shape == (5,)
    assert abs(one[0] - zero[0]) < 0.1


def test_two_ply_position_chances_average_the_searched_plays() -> None:
    evaluator = load_evaluator()
    # a contact position after an opening 31 and a reply
    mover, other = parse_position_id("4HPwATDgc/ABMA")
    two = position_chances(evaluator, mover, other, plies=2)
    expected = np.zeros(5)
    for high in range(1, 7):
        for low in range(1, high + 1):
            best = rank_plays(evaluator, mover, other, (high, low), plies=2)[0]
            expected += (1 if high == low else 2) / 36 * best.chances
    assert np.allclose(two, expected)
    assert not np.allclose(two, position_chances(evaluator, mover, other, plies=1))


@pytest.mark.parametrize(
    ("rules", "bots"),
    [
        (Rules(variant="hypergammon"), ("neural", "neural2")),
        (Rules(variant="hypergammon", match=3), ("neural2", "td")),
        (Rules(variant="hypergammon", beaver=True), ("neural", "heuristic")),
    ],
)
def test_the_strong_bots_finish_games(rules: Rules, bots: tuple[str, str]) -> None:
    state = play_game(rules, bots, 3)
    assert state.is_terminal() and state.winner in (0, 1)


def test_training_is_reproducible() -> None:
    options = TrainingOptions(games=3, seed=5, contact_hidden=4, race_hidden=3, parallel=2)
    first = train_evaluator(options)
    second = train_evaluator(options)
    assert np.array_equal(first.contact.w1, second.contact.w1)
    assert np.array_equal(first.race.w2, second.race.w2)
    assert not np.array_equal(first.contact.w1, Evaluator.fresh(4, 3, 5).contact.w1)


def test_a_rollout_of_a_finished_race_is_exact() -> None:
    # the player on roll bears his last checker off with any roll
    me = side_from_points({1: 1, 0: 14})
    you = side_from_points({6: 15})
    chances = rollout_chances(load_evaluator(), [(me, you)], random.Random(1))
    assert chances[0][0] == pytest.approx(1.0) and chances[0][1] == pytest.approx(1.0)


def test_cross_entropy_steps_learn_a_rare_outcome_faster() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=(64, 10))
    target = np.tile([0.5, 0.3, 0.02, 0.3, 0.02], (64, 1))
    errors = {}
    for cross_entropy in (False, True):
        layer = Layer.fresh(10, 6, np.random.default_rng(1))
        layer.b2[:] = -4.0  # every output starts near 0.018: a gammon is underrated
        for _ in range(20):
            layer.train(x, target, 0.005, cross_entropy)
        errors[cross_entropy] = abs(float(layer.forward(x)[1][:, 1].mean()) - 0.3)
    # the squared error's step is scaled by the output's slope, about 0.02 here
    assert errors[True] < errors[False] / 2


def test_cross_entropy_training_is_its_own_run() -> None:
    base = TrainingOptions(games=3, seed=5, contact_hidden=4, race_hidden=3, parallel=2)
    squared = train_evaluator(base)
    options = TrainingOptions(
        games=3, seed=5, contact_hidden=4, race_hidden=3, parallel=2, cross_entropy=True
    )
    first, second = train_evaluator(options), train_evaluator(options)
    assert np.array_equal(first.contact.w1, second.contact.w1)
    assert not np.array_equal(first.contact.w2, squared.contact.w2)


def test_the_mean_of_evaluators_averages_every_weight() -> None:
    one, two = Evaluator.fresh(4, 3, 1), Evaluator.fresh(4, 3, 2)
    mean = Evaluator.mean([one, two])
    assert np.allclose(mean.contact.w1, (one.contact.w1 + two.contact.w1) / 2)
    assert np.allclose(mean.race.b2, (one.race.b2 + two.race.b2) / 2)
    assert Evaluator.mean([one]) is one
    with pytest.raises(InputError, match="different shapes"):
        Evaluator.mean([one, Evaluator.fresh(5, 3, 1)])


def test_a_widened_evaluator_evaluates_the_same_and_trains_its_new_units() -> None:
    narrow = Evaluator.fresh(4, 3, 1)
    wide = narrow.widened(9, seed=2)
    assert wide.contact.w1.shape == (CONTACT_INPUTS, 9) and wide.contact.w2.shape == (9, 5)
    mover, other = parse_position_id("4HPwATDgc/ABMA")
    assert np.allclose(wide.evaluate([(mover, other)]), narrow.evaluate([(mover, other)]))
    assert narrow.widened(4, seed=2) is narrow
    options = TrainingOptions(games=2, seed=5, parallel=2)
    trained = train_evaluator(options, wide)
    assert np.any(trained.contact.w2[4:] != 0.0)
