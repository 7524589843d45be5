"""Hand-built RunArch positions for the engine's rule tests (and a check of the helpers)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from runarch_gen.play.game import Outcome
from runarch_gen.runarch.atoms import parse_direction, parse_piece, parse_square
from runarch_gen.runarch.decks.cards import Card, parse_goal, parse_pattern
from runarch_gen.runarch.engine import RunArchGame, RunArchState, Setup
from runarch_gen.runarch.engine.sample import sample_board, sample_deck
from runarch_gen.runarch.engine.stages import OVER, PLAY, RunArchTermination
from runarch_gen.runarch.rules import parse_rules

IDENTITY = tuple(range(25))  # stone k on square k: row 1 holds 0R 3R 4R 5R 6R, …
STACK = (5, 7, 9, 11)


def card(
    card_id: int,
    pattern: str = "0R,3B,4G,5Y,6V",
    match: str = "0R",
    goal: str = "colours>=2",
    reward: int = 6,
    arrows: str = "N,E",
) -> Card:
    return Card(
        card_id,
        parse_pattern(pattern),
        parse_piece(match),
        parse_goal(goal, reward),
        tuple(parse_direction(d) for d in arrows.split(",")),
    )


def make_game(rules: str = "complex", cards: Sequence[Card] = (), size: int = 40) -> RunArchGame:
    """A game on the sample board with ``cards`` first, then sample cards (ids from 101)."""
    filler = [Card(100 + c.id, c.pattern, c.match, c.goal, c.arrows) for c in sample_deck(size)][
        : max(0, size - len(cards))
    ]
    return RunArchGame(parse_rules(rules), sample_board(), [*cards, *filler], deck_name="test")


def position(
    game: RunArchGame,
    *,
    stones: Sequence[int] = IDENTITY,
    hands: Sequence[Sequence[int]] = ((), ()),
    to_move: int = 0,
    received: Sequence[int] = (0, 0),
    given: Sequence[int] = (0, 0),
    totals: Sequence[int] = (0, 0),
    stacks: Sequence[Sequence[int]] = (STACK, STACK),
    conditions: Sequence[tuple[int, int]] = (),
    frame_bets: Sequence[tuple[int, int]] = (),
    public: Sequence[int] = (),
) -> RunArchState:
    """A position in the play stage: ``hands`` by card id; the rest of the deck in the pile
    (top = the lowest position not in a hand), the offer empty unless set afterwards."""
    in_hands = [game.card_index[i] for hand in hands for i in hand]
    in_public = [game.card_index[i] for i in public]
    order = tuple(
        [k for k in range(len(game.cards)) if k not in in_hands and k not in in_public]
        + in_hands
        + in_public
    )
    setup = Setup(
        stones=tuple(stones),
        order=order,
        stacks=tuple(tuple(s) for s in stacks) if game.token_games else (),
        conditions=tuple(conditions) if game.bets else (),
        frame_bets=tuple(frame_bets) if game.bets else (),
        first=to_move if not game.solo else 0,
    )
    if game.bets and not setup.frame_bets:
        setup = Setup(
            setup.stones,
            setup.order,
            setup.stacks,
            setup.conditions,
            ((51, 1), (55, 1), (76, 1), (80, 1)),
            setup.first,
        )
    state = game.new_state(setup)
    state.stage = PLAY
    state.current = to_move
    state.dealt = [[], []]
    state.hands = [[game.card_index[i] for i in hand] for hand in hands]
    state.public = [game.card_index[i] for i in public]
    order_left = [k for k in order if k not in in_hands and k not in in_public]
    state.pile = list(reversed(order_left))
    state.offer = []
    state.received = list(received)
    state.given = list(given)
    state.totals = list(totals)
    state.recompute()
    return state


def sq(name: str) -> int:
    return parse_square(name)


def swap(state: RunArchState, a: str, b: str) -> None:
    state.apply(state.string_to_action(f"{a}-{b}"))


def texts(state: RunArchState, kind: str = "") -> list[str]:
    """The legal actions' texts, optionally only those containing ``kind``."""
    return [t for t in map(state.action_to_string, state.legal_actions()) if kind in t]


def stones_with(**placed: str) -> tuple[int, ...]:
    """The identity stones with some stones moved so square=code holds; the displaced stones
    take the vacated squares (a permutation throughout)."""
    stones = list(IDENTITY)
    for name, code in placed.items():
        target, piece = parse_square(name), parse_piece(code).index
        where = stones.index(piece)
        stones[where], stones[target] = stones[target], stones[where]
    return tuple(stones)


def rng(seed: int) -> random.Random:
    return random.Random(seed)


def final(
    state: RunArchState, termination: RunArchTermination = RunArchTermination.TENTH_CARD
) -> Outcome:
    """End the game here and return its outcome (final scoring of the position as it is)."""
    state.stage = OVER
    state.termination = state.termination or termination
    outcome = state.outcome()
    assert outcome is not None
    return outcome


def test_hand_built_positions_are_consistent() -> None:
    game = make_game("complex", [card(1), card(2)])
    state = position(game, hands=[[1], [2]], to_move=1)
    assert sorted(stones_with(a1="6V", c3="0R")) == list(range(25))
    assert stones_with(a1="6V")[sq("a1")] == parse_piece("6V").index
    in_play = state.pile + state.hands[0] + state.hands[1]
    assert sorted(in_play) == list(range(len(game.cards)))
    assert state.current == 1 and all(t.startswith("2@") for t in texts(state, "@"))
