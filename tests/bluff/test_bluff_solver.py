"""The solver: CFR+ against two linear programs, a published value, an exact best response
that shares no code with it, and a third best response walked over the engine's own states."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.bluff.best_response import evaluate
from runarch_gen.bluff.bots import BOTS
from runarch_gen.bluff.engine import BluffGame, BluffState
from runarch_gen.bluff.rules import BluffRules, ExactHit, Opener, parse_scale
from runarch_gen.bluff.solver import (
    SmallGame,
    bot_strategy,
    prune,
    small_rules,
    solve,
    solve_lp,
    solve_lp_states,
    solve_window,
)
from runarch_gen.bluff.strategy import Strategy, action_count, top_bit, uniform_strategy
from runarch_gen.errors import InputError

TINY = "1\n*1\n2\n"


def tiny(faces: int = 2, scale: str = TINY, dice: tuple[int, int] = (1, 1)) -> SmallGame:
    return SmallGame(BluffRules(faces=faces, scale=parse_scale(scale)), dice)


def random_strategy(game: SmallGame, seed: int, window: int = 0) -> Strategy:
    """Random chances at every history (perfect recall)."""
    base = uniform_strategy(game.game_string(), game.dice, game.bids, game.hand_counts)
    rng = np.random.default_rng(seed)
    probs = []
    for p in (0, 1):
        raw = rng.random(base.probs[p].shape) ** 3  # some near 0
        offsets = base.offsets(p)
        sums = np.repeat(np.add.reduceat(raw, offsets[:-1], axis=0), np.diff(offsets), axis=0)
        probs.append(raw / sums)
    return Strategy(
        base.game, base.dice, window, base.bids, base.hands, base.keys, (probs[0], probs[1])
    )


# -- an oracle walked over the engine's states -----------------------------------------------


def engine_best_response(game: SmallGame, strategy: Strategy, p: int) -> float:
    """What a best response of ``p`` wins, by recursion over bid histories for each of its
    hands with the other player's chances per hand, payoffs read from engine states."""
    rules = game.rules
    engine = BluffGame(rules)
    hands = [list(engine.hands[d]) for d in game.dice]
    prior = [
        np.array([dict(engine.hand_outcomes[d])[i] for i in range(len(h))])
        for d, h in zip(game.dice, hands, strict=True)
    ]
    o = 1 - p

    def payoff(x: int, y: int, history: tuple[int, ...]) -> float:
        state = engine.new_initial_state()
        deal = (x, y) if p == 0 else (y, x)
        for hand in deal:
            state.apply(hand)
        for j in history:
            state.apply(game.action_to_engine(j))
        state.apply(0)  # doubt
        outcome = state.outcome()
        assert outcome is not None
        return outcome.returns[p]

    def chance(mask: int, hand: int, action: int) -> float:
        found = strategy.policy(o, mask, hand)
        assert found is not None
        actions, chances = found
        return float(chances[actions.index(action)])

    def value(x: int, history: tuple[int, ...], weights: np.ndarray) -> float:
        mask = sum(1 << j for j in history)
        actor = len(history) % 2
        last = history[-1] if history else -1
        options: list[float] = []
        for action in ([-1] if history else []) + list(range(last + 1, game.bids)):
            if actor == p:
                if action < 0:
                    options.append(
                        sum(weights[y] * payoff(x, y, history) for y in range(len(weights)))
                    )
                else:
                    options.append(value(x, (*history, action), weights))
            else:
                chances = np.array([chance(mask, y, action) for y in range(len(weights))])
                if action < 0:
                    options.append(
                        sum(
                            weights[y] * chances[y] * payoff(x, y, history)
                            for y in range(len(weights))
                        )
                    )
                else:
                    options.append(value(x, (*history, action), weights * chances))
        return float(max(options) if actor == p else sum(options))

    return float(sum(prior[p][x] * value(x, (), prior[o].copy()) for x in range(len(hands[p]))))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_best_response_agrees_with_one_walked_over_engine_states(seed: int) -> None:
    game = tiny(faces=2)
    strategy = random_strategy(game, seed)
    measured = evaluate(strategy)
    for p in (0, 1):
        assert measured.best[p] == pytest.approx(engine_best_response(game, strategy, p), abs=1e-12)


def test_the_solvers_own_exploitability_is_the_independent_one() -> None:
    game = tiny(faces=3, scale="1\n2\n*1\n3\n")
    result = solve(game, target=1e-9, max_iterations=60, check_every=20)
    measured = evaluate(result.strategy)
    assert result.exploitability == pytest.approx(measured.exploitability, abs=1e-5)
    assert result.value == pytest.approx(measured.value, abs=1e-5)


# -- the values -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "scale"), [(2, TINY), (3, TINY), (2, "1\n2\n*1\n"), (3, "1\n*1\n")]
)
def test_cfr_and_the_two_linear_programs_agree_on_tiny_games(faces: int, scale: str) -> None:
    game = tiny(faces, scale)
    result = solve(game, target=1e-4, max_iterations=5000, check_every=25)
    assert result.exploitability < 1e-4
    exact = solve_lp(game)
    assert exact == pytest.approx(solve_lp_states(game.rules), abs=1e-9)
    # the value of the average strategy lies within its exploitability of the game's value
    assert abs(result.value - exact) <= 2 * result.exploitability + 1e-6


def test_the_one_die_game_has_the_published_value() -> None:
    # With one die each the Bluff scale (★k between 2k−1 and 2k) is Dudo's ranking of claims
    # (n aces between 2n−1 and 2n of a kind); Neller and Hnath (2011) give the first
    # player's value of one-die-each Dudo as −7/258.
    game = SmallGame(BluffRules(), (1, 1))
    assert game.bids == 12 and game.hand_counts == (6, 6)
    assert solve_lp(game) == pytest.approx(float(Fraction(-7, 258)), abs=1e-9)
    result = solve(game, target=1e-3, check_every=25)
    assert result.exploitability < 1e-3 and result.iterations < 500
    assert abs(result.value - (-7 / 258)) <= 2 * result.exploitability


@pytest.mark.slow
def test_one_die_against_two_reaches_a_thousandth() -> None:
    for dice in ((1, 2), (2, 1)):
        game = SmallGame(BluffRules(), dice)
        assert game.bids == 18
        result = solve(game, target=1e-3, check_every=50)
        assert result.exploitability < 1e-3
        measured = evaluate(result.strategy)
        assert measured.exploitability == pytest.approx(result.exploitability, abs=1e-5)
        # the player with two dice has the edge
        assert (result.value < -0.1) if dice == (1, 2) else (result.value > 0.1)


def test_exploitability_is_never_negative_and_values_stay_in_range() -> None:
    game = tiny(faces=3)
    for seed in range(12):
        measured = evaluate(random_strategy(game, seed))
        assert measured.exploitability >= -1e-12
        assert -1 <= measured.value <= 1
        # neither best response does worse than following the strategy
        assert measured.best[0] >= measured.value - 1e-12
        assert measured.best[1] >= -measured.value - 1e-12


# -- the abstraction --------------------------------------------------------------------------


def test_a_window_of_every_bid_is_the_whole_tree() -> None:
    game = tiny(faces=3, scale="1\n*1\n2\n3\n")
    # the same CFR+ on the same tree: equal but for rounding (single precision on the tree,
    # and regret matching+ turns a rounding error at 0 into another strategy)
    whole = solve(game, target=0.0, max_iterations=40, check_every=40)
    windowed = solve_window(game, game.bids, iterations=40)
    assert windowed.value == pytest.approx(whole.value, abs=1e-4)
    assert windowed.exploitability == pytest.approx(whole.exploitability, abs=1e-4)


def test_a_short_window_is_measured_in_the_full_game_and_does_worse() -> None:
    game = SmallGame(BluffRules(), (1, 1))
    short = solve_window(game, 2, iterations=150)
    longer = solve_window(game, 4, iterations=150)
    assert short.strategy.window == 2
    assert short.exploitability == pytest.approx(evaluate(short.strategy).exploitability)
    assert short.exploitability > longer.exploitability > 0


def test_a_window_state_forgets_the_oldest_bids() -> None:
    game = SmallGame(BluffRules(), (1, 1))
    strategy = solve_window(game, 2, iterations=5).strategy
    # the histories {0, 3, 5} and {1, 3, 5}: the last two bids alike, player 2 to act
    a, b = strategy.state_index(1, np.array([0b101001, 0b101010]))
    assert a == b >= 0


# -- the strategy as data ---------------------------------------------------------------------


def test_a_strategy_saved_reads_back_the_same_and_byte_for_byte(tmp_path) -> None:
    from runarch_gen.bluff.strategy import read_strategy

    result = solve(tiny(faces=3), target=1e-3, check_every=10)
    path = tmp_path / "s.npz"
    result.strategy.save(path)
    again = read_strategy(path)
    assert again.game == result.strategy.game and again.dice == (1, 1)
    for p in (0, 1):
        assert np.array_equal(again.keys[p], result.strategy.keys[p])
        assert np.allclose(again.probs[p], result.strategy.probs[p], atol=1e-7)
    assert again.to_bytes() == path.read_bytes() == result.strategy.to_bytes()


def test_pruning_keeps_the_played_states_and_the_strength() -> None:
    game = SmallGame(BluffRules(), (1, 1))
    result = solve(game, target=1e-3, check_every=25)
    kept = prune(result.strategy)
    assert kept.states(0) < result.strategy.states(0)
    assert evaluate(kept).exploitability < 2e-3
    for p in (0, 1):
        assert set(kept.keys[p].tolist()) <= set(result.strategy.keys[p].tolist())


@settings(max_examples=120, deadline=None)
@given(st.binary(max_size=64), st.integers(0, 4000), st.integers(0, 255))
def test_a_damaged_strategy_file_is_refused_with_one_error(
    junk: bytes, at: int, value: int
) -> None:
    from runarch_gen.bluff.strategy import strategy_from_bytes

    data = bytearray(_TINY_FILE)
    if data:
        data[at % len(data)] = value
    for candidate in (bytes(data), junk, _TINY_FILE[: at % len(_TINY_FILE)]):
        try:
            strategy = strategy_from_bytes(candidate, "s.npz")
        except InputError as exc:
            assert str(exc).startswith("s.npz: ") and "\n" not in str(exc)
            continue
        evaluate(strategy)  # whatever reads back is a strategy of its game


_TINY_FILE = uniform_strategy(
    "bluff(players=2,dice=1,faces=2,scale=1/★1/2,cap=on,single=on,first=1)", (1, 1), 5, (3, 3)
).to_bytes()


def test_a_strategy_file_that_lies_about_its_sizes_is_refused() -> None:
    import io
    import json
    import zipfile

    from runarch_gen.bluff.strategy import strategy_from_bytes

    def rebuilt(change: dict[str, int | str | list[int]]) -> bytes:
        source = zipfile.ZipFile(io.BytesIO(_TINY_FILE))
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as target:
            for info in source.infolist():
                data = source.read(info)
                if info.filename == "meta.npy":
                    meta = json.loads(np.load(io.BytesIO(data)).tobytes())
                    meta.update(change)
                    buffer = io.BytesIO()
                    np.save(buffer, np.frombuffer(json.dumps(meta).encode(), np.uint8))
                    data = buffer.getvalue()
                target.writestr(info.filename, data)
        return out.getvalue()

    cases: list[tuple[dict[str, int | str | list[int]], str]] = [
        ({"bids": 6}, "not the states' actions"),
        ({"hands": [3, 4]}, "not the states' actions"),
        ({"bids": 10**6}, "bids is 1 to"),
        ({"format": "other"}, "not a"),
        ({"window": -1}, "window is 0 to"),
    ]
    for change, message in cases:
        with pytest.raises(InputError, match=message):
            strategy_from_bytes(rebuilt(change), "s.npz")


# -- the small game ---------------------------------------------------------------------------


def test_the_small_game_ignores_what_one_round_cannot_tell() -> None:
    base = small_rules(BluffRules(), (1, 1))
    other = small_rules(BluffRules(exact=ExactHit.ALL, opener=Opener.LOSER, limit=9), (1, 1))
    assert base == other
    assert small_rules(BluffRules(reroll=True), (1, 1)) == base  # nobody can show a die
    with pytest.raises(InputError, match="show and re-roll"):
        small_rules(BluffRules(reroll=True), (1, 2))


def test_games_too_large_for_the_whole_tree_are_refused() -> None:
    game = SmallGame(BluffRules(), (2, 2))
    assert game.bids == 24
    with pytest.raises(InputError, match="use an abstraction"):
        solve(game)


def test_every_state_lists_doubt_then_the_higher_bids() -> None:
    tops = top_bit(np.array([0, 1, 6]))
    assert action_count(tops, 12).tolist() == [12, 12, 10]


# -- the bots ---------------------------------------------------------------------------------


def test_a_bot_strategy_is_a_distribution_at_every_state_for_every_hand() -> None:
    game = tiny()
    for make in BOTS.values():
        strategy = bot_strategy(game, make)
        for p in (0, 1):
            offsets = strategy.offsets(p)
            sums = np.add.reduceat(strategy.probs[p], offsets[:-1], axis=0)
            assert np.allclose(sums, 1.0)


def test_the_cfr_bot_is_the_least_exploitable_bot_of_the_one_die_game() -> None:
    game = SmallGame(BluffRules(), (1, 1))
    gaps = {name: evaluate(bot_strategy(game, make)).exploitability for name, make in BOTS.items()}
    assert gaps["cfr"] < 0.002
    assert gaps["cfr"] < min(gaps[name] for name in ("random", "odds", "bayes"))


def test_the_cfr_bot_plays_the_solved_endgame_and_bayes_elsewhere() -> None:
    from runarch_gen.bluff.bots import BayesBot, CfrBot

    # three players: not covered
    state = BluffGame(BluffRules(players=3, dice=1, first=1)).new_initial_state()
    for text in ("roll 3", "roll 5", "roll ★"):
        state.apply_text(text)
    seen, legal = state.observation(0), state.legal_actions()
    assert CfrBot(random.Random(1)).policy(seen, legal) == BayesBot(random.Random(1)).policy(
        seen, legal
    )
    # two players with one die each: the solved game's chances
    state = BluffGame(BluffRules(players=2, dice=1, first=1)).new_initial_state()
    for text in ("roll 2", "roll 4"):
        state.apply_text(text)
    plan = CfrBot(random.Random(1)).solved(state.observation(0), state.legal_actions())
    assert plan is not None and sum(c for _, c in plan) == pytest.approx(1.0)
    # a bid above the two dice in play (no cap) is doubted
    state.apply_text("5×3")
    assert CfrBot(random.Random(1)).policy(state.observation(1), state.legal_actions()) == [
        (0, 1.0)
    ]


def _play(state: BluffState, bots: Sequence[Any], rng: random.Random) -> None:
    from runarch_gen.play.game import sample_chance

    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(sample_chance(state, rng))
        else:
            player = state.current_player()
            state.apply(bots[player].step(state.observation(player), state.legal_actions()))


def test_the_cfr_bot_plays_whole_games_with_every_rule() -> None:
    for text in ("players=2", "players=3,exact=all", "players=2,dice=2,reroll=on"):
        from runarch_gen.games import find_game

        game = find_game(f"bluff({text})")
        for seed in range(3):
            state = game.new_initial_state()
            bots = [BOTS["cfr"](random.Random(seed * 10 + p)) for p in range(game.num_players)]
            _play(state, bots, random.Random(seed))
            assert state.outcome() is not None


# -- the strategies the cfr bot ships with ------------------------------------------------------


def _shipped(dice: tuple[int, int]) -> Strategy:
    from importlib.resources import files

    from runarch_gen.bluff.strategy import strategy_from_bytes

    data = (files("runarch_gen.bluff") / "data" / f"cfr-{dice[0]}-{dice[1]}.npz").read_bytes()
    return strategy_from_bytes(data, f"cfr-{dice[0]}-{dice[1]}.npz")


def test_the_shipped_one_die_strategy_is_what_solve_save_writes(tmp_path) -> None:
    from runarch_gen.cli import run

    path = tmp_path / "cfr-1-1.npz"
    assert (
        run(["bluff", "solve", "--lp", "--target", "0.0001", "--bots", "", "--save", str(path)])
        == 0
    )
    assert path.read_bytes() == _shipped((1, 1)).to_bytes()


@pytest.mark.parametrize("dice", [(1, 1), (1, 2), (2, 1)])
def test_the_shipped_strategies_are_their_games_and_within_a_thousandth(
    dice: tuple[int, int],
) -> None:
    from runarch_gen.bluff.bots import solved_strategy

    strategy = _shipped(dice)
    assert strategy.dice == dice and strategy.window == 0
    assert strategy.game == SmallGame(BluffRules(), dice).game_string()
    assert evaluate(strategy).exploitability < 1e-3
    found = solved_strategy(BluffRules(players=5, exact=ExactHit.ALL), dice)
    assert found is not None and found[1].game == strategy.game


@pytest.mark.slow
def test_the_shipped_two_dice_strategy_is_within_two_hundredths_in_the_full_game() -> None:
    strategy = _shipped((2, 2))
    assert strategy.window == 4 and strategy.bids == 24
    assert evaluate(strategy).exploitability <= 0.02
