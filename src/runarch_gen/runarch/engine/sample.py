"""A valid board and balanced decks made by formula, for examples, tests and benchmarks.

The board puts colour ``(r + c) % 5`` and shape ``(r + 2c) % 5`` on row r, column c: a
Graeco-Latin square (rule B-1). A pattern ``colour_i = a + b·i``, ``shape_i = a' + b'·i`` (mod 5,
b and b' non-zero) never repeats a colour or a shape. The deck generator of runarch-gen makes
better decks; these exist so the engine can be exercised without one.

>>> sample_board().codes()[0]
['0R', '4B', '6G', '3Y', '5V']
>>> deck = sample_deck(50)
>>> len(deck), len({c.pattern for c in deck}), all(c.pattern.is_valid() for c in deck)
(50, 50, True)
"""

from __future__ import annotations

import random

from runarch_gen.runarch.atoms import DIRECTIONS, PIECES, SIZE, Colour, Shape
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.decks.cards import Card, Deck, Goal, GoalKind, Pattern


def sample_board() -> Board:
    """The Graeco-Latin board ``colour (r+c)%5, shape (r+2c)%5``."""
    return Board.from_indices(
        [((r + c) % SIZE) * SIZE + (r + 2 * c) % SIZE for r in range(SIZE) for c in range(SIZE)]
    )


def sample_deck(size: int = 50, seed: int = 0) -> Deck:
    """``size`` cards (ids 1…size) with distinct valid patterns, every match combination
    ``size/25`` times, goals of every kind and two different automa arrows each."""
    rng = random.Random(seed)
    patterns = [
        (a, b, a2, b2)
        for a in range(SIZE)
        for b in range(1, SIZE)
        for a2 in range(SIZE)
        for b2 in range(1, SIZE)
    ]
    rng.shuffle(patterns)
    cards = []
    for i in range(size):
        a, b, a2, b2 = patterns[i % len(patterns)]
        pattern = Pattern(
            tuple(PIECES[((a + b * k) % SIZE) * SIZE + (a2 + b2 * k) % SIZE] for k in range(SIZE))
        )
        match = PIECES[(i * 7) % 25]  # 7 is prime to 25: every combination equally often
        arrows = tuple(rng.sample(DIRECTIONS, 2))
        cards.append(Card(i + 1, pattern, match, _goal(i, rng), arrows))
    return Deck(tuple(cards))


def _goal(i: int, rng: random.Random) -> Goal:
    kind = list(GoalKind)[i % len(GoalKind)]
    colour, shape = Colour(rng.randrange(SIZE)), Shape(rng.randrange(SIZE))
    if kind is GoalKind.COLOUR:
        count = rng.choice((2, 3, 4))
        return Goal(kind, 2 + 2 * count, colour=colour, colour_count=count)
    if kind is GoalKind.SHAPE:
        count = rng.choice((2, 3, 4))
        return Goal(kind, 2 + 2 * count, shape=shape, shape_count=count)
    if kind is GoalKind.COLOUR_AND_SHAPE:
        return Goal(kind, 9, colour=colour, colour_count=3, shape=shape, shape_count=2)
    count = rng.choice((3, 4, 5))
    if kind is GoalKind.COLOURS:
        return Goal(kind, 2 * count, colour_count=count)
    return Goal(kind, 2 * count, shape_count=count)
