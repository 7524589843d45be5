"""The bots: legal and invariant-keeping in every variant, deterministic, blind to what their
side may not see, and ranked random < greedy < lookahead by seeded matches significant at 99 %.
"""

from __future__ import annotations

import random

import pytest

from runarch_gen.errors import InputError
from runarch_gen.play.stats import binomial_test
from runarch_gen.runarch.analysis.simulation import simulate
from runarch_gen.runarch.bots import BOTS, GreedyBot, LookaheadBot, make_bot
from runarch_gen.runarch.engine import RunArchGame, RunArchState
from runarch_gen.runarch.engine.record import replay, write_record
from runarch_gen.runarch.engine.sample import sample_board, sample_deck
from runarch_gen.runarch.engine.stages import PLAY
from runarch_gen.runarch.rules import parse_rules
from tests.test_engine_simulation import check_invariants

VARIANTS = [
    "simple",
    "complex",
    "classic",
    "solo",
    "complex(deal=4,direction=reversible,match_bonus=line,archive_order=article)",
    "simple(direction=reversible,minimum=7)",
    "classic(match_bonus=off,capacity=5)",
]
DECK = sample_deck(50)


def game_of(variant: str, stall: int = 120) -> RunArchGame:
    config = parse_rules(variant).with_options(stall=stall)
    return RunArchGame(config, sample_board(), DECK, deck_name="sample(50)")


def play(game: RunArchGame, names: tuple[str, str], seed: int, check: bool = False) -> RunArchState:
    state = game.new_initial_state(random.Random(seed))
    bots = [make_bot(names[0], random.Random(seed)), make_bot(names[1], random.Random(seed + 1))]
    while not state.is_terminal():
        if check:
            check_invariants(state)
        player = state.current_player()
        action = bots[player].step(state.observation(player), state.legal_actions())
        assert action in state.legal_actions()
        state.apply(action)
    return state


def test_make_bot_knows_every_bot_and_names_unknown_ones() -> None:
    assert list(BOTS) == ["random", "greedy", "lookahead"]
    assert isinstance(make_bot(" Greedy ", random.Random(1)), GreedyBot)
    assert isinstance(make_bot("lookahead", random.Random(1)), LookaheadBot)
    with pytest.raises(InputError, match=r"unknown bot 'clever'.*random, greedy, lookahead"):
        make_bot("clever", random.Random(1))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("names", [("greedy", "lookahead"), ("lookahead", "random")])
def test_bots_play_legal_moves_that_keep_every_invariant(
    variant: str, names: tuple[str, str]
) -> None:
    game = game_of(variant, stall=60)
    for seed in range(2):
        state = play(game, names, seed, check=True)
        check_invariants(state)
        assert replay(write_record(state, seed=seed)) == state


@pytest.mark.parametrize("name", ["greedy", "lookahead"])
def test_same_seeds_give_the_same_game(name: str) -> None:
    game = game_of("complex")
    first, second = play(game, (name, name), 3), play(game, (name, name), 3)
    assert first.history() == second.history()


def hidden_changed(state: RunArchState) -> RunArchState:
    """The same position for the side to move, with the other side's hand and the draw
    pile's order changed: what that side may not see."""
    other = 1 - state.current
    changed = state.copy()
    unseen = changed.pile + changed.hands[other]
    random.Random(9).shuffle(unseen)
    size = len(changed.hands[other])
    changed.hands[other] = unseen[:size]
    changed.pile = unseen[size:]
    changed.recompute()
    return changed


@pytest.mark.parametrize("name", ["greedy", "lookahead"])
def test_bots_decide_the_same_whatever_they_cannot_see(name: str) -> None:
    game = game_of("complex")
    state = game.new_initial_state(random.Random(4))
    bots = [make_bot(name, random.Random(1)), make_bot(name, random.Random(2))]
    checked = 0
    while not state.is_terminal() and checked < 60:
        player = state.current_player()
        if state.stage == PLAY:
            changed = hidden_changed(state)
            twin = make_bot(name, random.Random(7))
            again = make_bot(name, random.Random(7))
            assert twin.step(state.observation(player), state.legal_actions()) == again.step(
                changed.observation(player), changed.legal_actions()
            )
            checked += 1
        state.apply(bots[player].step(state.observation(player), state.legal_actions()))
    assert checked == 60


def test_greedy_finishes_complex_games_that_random_play_never_finishes() -> None:
    report = simulate(
        rules=parse_rules("complex"),
        board=sample_board(),
        deck=DECK,
        bots=["greedy"],
        games=30,
        seed=2,
        workers=2,
    )
    guard = report.stalls - report.deadlocks  # games the 500-turn guard stopped
    assert report.games - report.stalls >= 24 and guard <= 2
    assert report.turns().median < 120


def match(bots: list[str], variant: str, games: int) -> tuple[int, int, float]:
    report = simulate(
        rules=parse_rules(variant),
        board=sample_board(),
        deck=DECK,
        bots=bots,
        games=games,
        seed=1,
        workers=2,
    )
    head = report.head_to_head()
    assert head is not None
    first, second = head["wins"][bots[0]], head["wins"][bots[1]]
    return first, second, binomial_test(first, first + second)


def test_greedy_beats_random_significantly_at_99_percent() -> None:
    # 20 complex games, seats alternating: greedy wins all (p ≈ 2e-6).
    greedy, rand, p = match(["greedy", "random"], "complex", 20)
    assert greedy > rand and p < 0.01


def test_lookahead_beats_greedy_significantly_at_99_percent() -> None:
    # In the simple game the bots differ in play alone (no bonus-token draw, see the README):
    # 60 games, seats alternating, give 49–11 (p ≈ 8e-7); 40 would leave little margin.
    look, greedy, p = match(["lookahead", "greedy"], "simple", 60)
    assert look > greedy and p < 0.01
