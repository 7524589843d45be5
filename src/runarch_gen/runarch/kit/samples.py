"""Small, valid sample inputs for examples, tests and benchmarks of the kit (no generator).

The board is the cyclic Graeco-Latin square (tile at row r, column c: colour (r+c) mod 5, shape
(r+2c) mod 5). Sample patterns are colour_i = a + b·i, shape_i = a' + b'·i (mod 5) with b, b'
non-zero, which never repeat a colour or a shape; every colour×shape match appears equally
often; goals cycle through the five kinds.

>>> deck = sample_deck(50)
>>> len(deck), len({c.pattern for c in deck}), all(c.pattern.is_valid() for c in deck)
(50, 50, True)
"""

from __future__ import annotations

from runarch_gen.runarch.atoms import COLOURS, DIRECTIONS, PIECES, SHAPES, Piece
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.decks.cards import Card, Deck, Goal, GoalKind, Pattern


def sample_board() -> Board:
    return Board.from_rows(
        [[Piece(COLOURS[(r + c) % 5], SHAPES[(r + 2 * c) % 5]) for c in range(5)] for r in range(5)]
    )


def sample_deck(size: int = 50) -> Deck:
    """``size`` (1–400) cards with distinct valid patterns."""
    combos = [
        (a, b, a2, b2)
        for b in range(1, 5)
        for b2 in range(1, 5)
        for a in range(5)
        for a2 in range(5)
    ]
    if not 1 <= size <= len(combos):
        raise ValueError(f"a sample deck has 1 to {len(combos)} cards")
    cards = []
    for i in range(size):
        a, b, a2, b2 = combos[(i * 37) % len(combos)]
        pattern = Pattern(
            tuple(Piece(COLOURS[(a + b * k) % 5], SHAPES[(a2 + b2 * k) % 5]) for k in range(5))
        )
        match = PIECES[(i * 7) % 25]
        kind = list(GoalKind)[i % 5]
        colour, shape = COLOURS[(i // 5) % 5], SHAPES[(i // 25 + i) % 5]
        if kind is GoalKind.COLOUR:
            goal = Goal(kind, 4 + i % 3, colour=colour, colour_count=3)
        elif kind is GoalKind.SHAPE:
            goal = Goal(kind, 5 + i % 3, shape=shape, shape_count=3)
        elif kind is GoalKind.COLOUR_AND_SHAPE:
            goal = Goal(kind, 8 + i % 4, colour, 3, shape, 2)
        elif kind is GoalKind.COLOURS:
            goal = Goal(kind, 3 + i % 4, colour_count=4 + i % 2)
        else:
            goal = Goal(kind, 3 + i % 4, shape_count=4 + i % 2)
        first = DIRECTIONS[i % 8]
        second = DIRECTIONS[(i + 3 + i // 8) % 8]
        if second == first:
            second = DIRECTIONS[(i + 4) % 8]
        cards.append(Card(i + 1, pattern, match, goal, (first, second)))
    return Deck(tuple(cards))
