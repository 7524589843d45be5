"""Random-simulation tests in the OpenSpiel style: many games between random players with the
invariants checked at every step, and the engine's fast evaluation checked against a naive one.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.play.bot import play_out
from runarch_gen.play.game import Termination
from runarch_gen.runarch.archives import fits
from runarch_gen.runarch.atoms import LINES, PIECES
from runarch_gen.runarch.bots import RandomBot, make_bot
from runarch_gen.runarch.engine import RunArchGame, RunArchState
from runarch_gen.runarch.engine.actions import EVAL_BASE, SWAP_BASE, decode_evaluation
from runarch_gen.runarch.engine.record import replay, write_record
from runarch_gen.runarch.engine.sample import sample_board, sample_deck
from runarch_gen.runarch.engine.stages import BET, OVER, SETUP_STAGE, RunArchTermination
from runarch_gen.runarch.rules import parse_rules

VARIANTS = [
    "simple",
    "complex",
    "classic",
    "solo",
    "complex(deal=4,direction=reversible,match_bonus=line,archive_order=article)",
    "simple(direction=reversible,minimum=6,target=40)",
    "solo(match_bonus=off,capacity=4)",
    "classic(archive_bonus=5,match_bonus=line)",
]
DECK = sample_deck(50)


def make(variant: str, stall: int | None = None) -> RunArchGame:
    config = parse_rules(variant)
    if stall is not None:
        config = config.with_options(stall=stall)
    return RunArchGame(config, sample_board(), DECK, deck_name="sample(50)")


def bots(seed: int) -> list[RandomBot]:
    return [RandomBot(random.Random(seed * 2 + 1)), RandomBot(random.Random(seed * 2 + 2))]


def check_invariants(state: RunArchState, base: RunArchState | None = None) -> None:
    """The invariants of any position; ``base`` is a hand-edited start whose tokens and totals
    the counts start from."""
    tokens_from = base.received if base is not None else (0, 0)
    totals_from = base.totals if base is not None else (0, 0)
    game = state.game
    assert sorted(state.stones) == list(range(25)), "the stones are a permutation"
    for side in (0, 1):
        assert state.totals[side] - totals_from[side] == sum(p for _, p in state.scored[side])
        assert state.bests[side] == max((p for _, p in state.scored[side]), default=0)
        for archive, rule in zip(state.archives[side], game.config.archive_rules, strict=True):
            assert len(archive) <= game.config.capacity
            assert fits(rule, [game.cards[k].match for k in archive])
        assert state.placed[side] == sum(map(len, state.archives[side]))
        assert len(state.hands[side]) <= 2
        # The validity mask, kept up to date swap by swap and card by card, is the hand's mask
        # built from scratch.
        assert state.masks[side] == game.tables.hand_mask(state.hands[side], state.stones)
        assert state.given[side] == state.received[1 - side] - tokens_from[1 - side] <= 3
    places = (
        state.pile
        + state.offer
        + state.discard
        + state.public
        + [k for side in (0, 1) for k in state.hands[side] + state.dealt[side]]
        + [k for side in (0, 1) for archive in state.archives[side] for k in archive]
        + [k for k in state.secret if k >= 0]
    )
    assert sorted(places) == list(range(len(game.cards))), "every card is in one place"
    taken = state.condition_tokens.count(-1) + state.frame_tokens.count(-1)
    placed_bets = sum(1 for side in (0, 1) for b in state.bets[side] if b >= 0)
    assert taken == placed_bets + len(state.pending) + state.discarded_bets
    legal = list(state.legal_actions())
    assert legal == sorted(set(legal)), "legal actions are sorted and unique"
    assert bool(legal) != state.is_terminal()
    texts = [state.action_to_string(a) for a in legal]
    assert len(set(texts)) == len(texts), "each legal action has its own text"
    if state.stage == BET:
        assert state.pending


def play_checked(game: RunArchGame, seed: int, state: RunArchState | None = None) -> RunArchState:
    base = state.copy() if state is not None else None
    state = state or game.new_initial_state(random.Random(seed))
    players = bots(seed)
    steps = 0
    while not state.is_terminal():
        check_invariants(state, base)
        copy = state.copy()
        assert copy == state
        player = state.current_player()
        action = players[player].step(state.observation(player), state.legal_actions())
        text = state.action_to_string(action)
        assert state.string_to_action(text) == action
        state.apply(action)
        copy.apply(action)
        assert copy == state
        steps += 1
        assert steps < 10 * game.config.stall + 100, "every game ends"
    check_invariants(state, base)
    return state


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_keep_every_invariant_at_every_step(variant: str) -> None:
    game = make(variant, stall=50)
    for seed in range(12):
        state = play_checked(game, seed)
        outcome = state.outcome()
        assert outcome is not None
        for side in (0, 1):
            assert outcome.scores[side].part("cards") == state.totals[side]
        assert replay(write_record(state, seed=seed)) == state, "record → replay is the identity"


def late_position(game: RunArchGame, seed: int) -> RunArchState:
    """A game after setup moved on by hand: both sides in movement phase 4 with their lowest
    minimum, 8 cards already archived from the pile, so that random play reaches the deep rules
    (double and jump swaps, diagonals, match bonus, offer draws, bets, the tenth card)."""
    state = game.new_initial_state(random.Random(seed))
    while state.stage == SETUP_STAGE:
        state.apply(state.legal_actions()[seed % len(state.legal_actions())])
    # Phase 4 for both with the D token still on top: totals past the last milestone keep it so.
    state.received = [3, 3]
    state.totals = [76, 76]
    for side in range(game.num_players):
        for card in list(state.pile[:30]):
            if state.placed[side] == 8:
                break
            archive = next((a for a in range(3) if state.archive_accepts(side, a, card)), None)
            if archive is not None:
                state.pile.remove(card)
                state.archives[side][archive].append(card)
                state.placed[side] += 1
    state.recompute()
    return state


@pytest.mark.parametrize("variant", ["complex", "classic", "solo", "complex(match_bonus=line)"])
def test_random_play_from_late_positions_keeps_every_invariant(variant: str) -> None:
    game = make(variant, stall=60)
    endings: Counter[RunArchTermination | None] = Counter()
    for seed in range(10):
        state = play_checked(game, seed, late_position(game, seed))
        endings[state.termination] += 1
    assert endings[RunArchTermination.TENTH_CARD] > 0 or variant == "solo"


@pytest.mark.parametrize("variant", VARIANTS)
def test_thousands_of_short_random_games_end_and_replay(variant: str) -> None:
    game = make(variant, stall=24)
    terminations: Counter[Termination] = Counter()
    for seed in range(250):
        state = game.new_initial_state(random.Random(seed))
        outcome = play_out(state, bots(seed))
        terminations[outcome.termination] += 1
        assert state.turn <= 24 and state.stage == OVER
        # the stall guard ends a game exactly when the turn limit is reached; every
        # other ending comes from the rules (or a proven deadlock) before it.
        stalled = outcome.termination is RunArchTermination.STALLED
        assert stalled == (state.turn == 24) or outcome.termination.value == "deadlock"
        assert sorted(state.stones) == list(range(25))
        if seed % 25 == 0:
            check_invariants(state)
            assert replay(write_record(state)) == state
    # 24 turns are too few for random players to finish: the stall guard must end them.
    assert terminations[RunArchTermination.STALLED] > 0


@pytest.mark.parametrize("variant", ["simple", "complex", "solo"])
def test_full_length_games_end_by_the_rules_or_the_stall_guard(variant: str) -> None:
    game = make(variant)
    for seed in range(3):
        state = game.new_initial_state(random.Random(seed))
        outcome = play_out(state, bots(seed))
        assert outcome.termination in {
            RunArchTermination.TARGET,
            RunArchTermination.TENTH_CARD,
            RunArchTermination.PILE_EMPTY,
            RunArchTermination.STALLED,
        }
        assert state.turn <= 500
        assert replay(write_record(state)) == state


def test_same_seed_same_game() -> None:
    for variant in ("complex", "solo", "simple"):
        game = make(variant, stall=80)
        first = game.new_initial_state(random.Random(5))
        play_out(first, bots(5))
        second = game.new_initial_state(random.Random(5))
        play_out(second, bots(5))
        assert first == second and first.history() == second.history()
        assert write_record(first, seed=5) == write_record(second, seed=5)
        other = game.new_initial_state(random.Random(6))
        play_out(other, bots(6))
        assert other.history() != first.history()


def test_bots_are_made_by_name_with_their_own_generator() -> None:
    bot = make_bot("random", random.Random(3))
    assert isinstance(bot, RandomBot) and bot.name == "random"


def test_random_bot_scores_whenever_it_can() -> None:
    game = make("simple(direction=reversible,minimum=5)", stall=200)
    state = game.new_initial_state(random.Random(1))
    players = bots(1)
    scored_when_possible = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        action = players[state.current].step(state.observation(state.current), legal)
        if any(EVAL_BASE <= a < SWAP_BASE for a in legal):
            assert EVAL_BASE <= action < SWAP_BASE
            scored_when_possible += 1
        state.apply(action)
    assert scored_when_possible > 0


# The fast evaluation (validity masks, see tables.py) against a naive one --------------------


def naive_points(pattern, stones, squares) -> int:
    points = 0
    for piece, sq in zip(pattern, squares, strict=True):
        stone = PIECES[stones[sq]]
        earned = (piece.colour == stone.colour) + (piece.shape == stone.shape)
        if not earned:
            return 0
        points += earned
    return points


def naive_board_bonus(tiles, stones, match) -> int:
    """R-09 default (``board``): stones of the match colour on a tile of that colour, plus stones
    of the match shape on a tile of that shape, counted over the whole board."""
    total = 0
    for square, tile in enumerate(tiles.tiles):
        stone = PIECES[stones[square]]
        total += stone.colour == match.colour == tile.colour
        total += stone.shape == match.shape == tile.shape
    return total


def naive_evaluations(state: RunArchState) -> set[tuple[int, str]]:
    """(card id, line name) of every passing evaluation, computed from the rules' text."""
    game = state.game
    side = state.current
    phase = state.phase(side)
    reversible = game.config.direction.value == "reversible"
    found = set()
    for card_index in state.hands[side]:
        card = game.cards[card_index]
        for line in LINES[: 12 if phase == 4 else 10]:
            points = naive_points(card.pattern, state.stones, line.squares)
            if reversible:
                points = max(points, naive_points(card.pattern, state.stones, line.squares[::-1]))
            if not points:
                continue
            score = points
            if phase == 4:
                score += naive_board_bonus(game.board, state.stones, card.match)
            if score >= state.minimum(side) and any(
                state.archive_accepts(side, a, card_index) for a in range(3)
            ):
                found.add((card.id, line.name))
    return found


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    reversible=st.booleans(),
    received=st.integers(0, 3),
    swaps=st.lists(st.tuples(st.integers(0, 24), st.integers(0, 24)), max_size=30),
)
def test_fast_evaluation_agrees_with_a_naive_one(seed, reversible, received, swaps) -> None:
    rules = "complex(direction=reversible)" if reversible else "complex"
    game = make(rules)
    state = game.new_initial_state(random.Random(seed))
    state.apply(0)
    state.apply(0)
    state.received[state.current] = received
    state.recompute()
    for a, b in swaps:
        assert {
            (
                state.card_id(state.hands[state.current][decode_evaluation(a)[0]]),
                LINES[decode_evaluation(a)[1]].name,
            )
            for a in state.legal_actions()
            if EVAL_BASE <= a < SWAP_BASE
        } == naive_evaluations(state)
        if a != b:  # any transposition, not only legal swaps: the masks must follow any change
            state.stones[a], state.stones[b] = state.stones[b], state.stones[a]
            state._update_masks(a, b)
            state._legal = None
    assert state.stage not in (SETUP_STAGE, OVER)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    reversible=st.booleans(),
    a=st.integers(0, 24),
    b=st.integers(0, 24),
)
def test_mask_after_swap_predicts_the_mask_the_engine_gets(seed, reversible, a, b) -> None:
    game = make("complex(direction=reversible)" if reversible else "complex")
    state = game.new_initial_state(random.Random(seed))
    state.apply(0)
    state.apply(0)
    view = state.observation(state.current)
    tables = game.tables
    predicted = tables.mask_after_swap(view.hand, view.validity_mask, view.stones, a, b)
    state.stones[a], state.stones[b] = state.stones[b], state.stones[a]
    state.recompute()
    assert predicted == state.masks[state.current] or a == b
    for slot, card in enumerate(state.hands[state.current]):
        lines = {
            i for i in range(12) if tables.valid_lines(state.masks[state.current], slot) >> i & 1
        }
        # The lines where the card is valid, from the rule: every position earns a point,
        # in the reading direction or, with ``reversible``, in either.
        pattern = game.cards[card].pattern
        valid = set()
        for i, line in enumerate(LINES):
            directions = [line.squares, line.squares[::-1]] if reversible else [line.squares]
            if any(naive_points(pattern, state.stones, squares) for squares in directions):
                valid.add(i)
        assert lines == valid
