"""[R-09] the phase-4 match bonus, recounted from the rules text with Piece objects and the
board's own rows — sharing no code with the engine's integer tables.

``board``: every stone of the card's match colour lying on a tile of that colour, plus every stone
of its match shape lying on a tile of that shape, anywhere on the board; ``line``: the same count
inside the evaluated line only. Random stone layouts, every match area and every line.
"""

from __future__ import annotations

import random

import pytest

from runarch_gen.runarch.atoms import PIECES, Piece
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.decks.cards import Card
from runarch_gen.runarch.engine.sample import sample_board, sample_deck
from runarch_gen.runarch.engine.tables import LINE_NAMES, LINE_SQUARES, Tables

FILES = "abcde"


def line_squares(name: str) -> list[tuple[int, int]]:
    """(row, column) of a line by its name, written out from RULES §4.2."""
    if name.startswith("r"):
        return [(int(name[1]) - 1, c) for c in range(5)]
    if name.startswith("c"):
        return [(r, FILES.index(name[1])) for r in range(5)]
    return [(i, i) for i in range(5)] if name == "d1" else [(i, 4 - i) for i in range(5)]


def naive_bonus(tiles: Board, stones: Board, match: Piece, where: list[tuple[int, int]]) -> int:
    tile_rows, stone_rows = tiles.rows(), stones.rows()
    total = 0
    for r, c in where:
        tile, stone = tile_rows[r][c], stone_rows[r][c]
        total += stone.colour == match.colour and tile.colour == match.colour
        total += stone.shape == match.shape and tile.shape == match.shape
    return total


@pytest.mark.parametrize("seed", range(4))
def test_R09_match_bonus_on_the_board_and_in_the_line(seed: int) -> None:
    rng = random.Random(seed)
    tiles = sample_board()
    template = sample_deck(25).cards[0]
    cards = [
        Card(i + 1, template.pattern, piece, template.goal, template.arrows)
        for i, piece in enumerate(PIECES)
    ]
    tables = Tables(tiles, cards)
    everywhere = [(r, c) for r in range(5) for c in range(5)]
    for _ in range(40):
        order = list(range(25))
        rng.shuffle(order)
        stones = Board.from_indices(order)
        for k, card in enumerate(cards):
            assert tables.match_bonus_board(order, k) == naive_bonus(
                tiles, stones, card.match, everywhere
            )
            for line, name in enumerate(LINE_NAMES):
                assert [divmod(sq, 5) for sq in LINE_SQUARES[line]] == line_squares(name)
                assert tables.match_bonus_line(order, k, line) == naive_bonus(
                    tiles, stones, card.match, line_squares(name)
                ), (name, card.match.code)
