"""B-1 and B-2 checked against a naive recount written from the rules, not from the checker.

Every single swap of two tiles of a valid board (300 of them, with and without the diagonals
rule) is recounted line by line: a row, column (or long diagonal) that shows a colour twice, and
one that shows a shape twice. The checker must report exactly those lines and attributes — so a
checker that tested shapes with the colours (a copy-paste slip) or skipped a line fails here.
"""

from __future__ import annotations

import itertools

import pytest

from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.boards.check import check_board
from runarch_gen.runarch.boards.generate import BoardConstraints, generate_board

FILES = "abcde"


def naive_lines(diagonals: bool) -> dict[str, list[tuple[int, int]]]:
    """Lines as (row, column) pairs, written out from RULES §2 without the checker's tables."""
    lines = {f"r{r + 1}": [(r, c) for c in range(5)] for r in range(5)}
    lines |= {f"c{FILES[c]}": [(r, c) for r in range(5)] for c in range(5)}
    if diagonals:
        lines["d1"] = [(i, i) for i in range(5)]
        lines["d2"] = [(i, 4 - i) for i in range(5)]
    return lines


def naive_repeats(board: Board, diagonals: bool) -> set[tuple[str, str]]:
    rows = board.rows()
    found = set()
    for name, squares in naive_lines(diagonals).items():
        colours = [rows[r][c].colour for r, c in squares]
        shapes = [rows[r][c].shape for r, c in squares]
        if len(set(colours)) != 5:
            found.add((name, "repeated-colour"))
        if len(set(shapes)) != 5:
            found.add((name, "repeated-shape"))
    return found


def swapped(board: Board, a: int, b: int) -> Board:
    tiles = list(board.tiles)
    tiles[a], tiles[b] = tiles[b], tiles[a]
    return Board(tuple(tiles))


@pytest.mark.parametrize("diagonals", [False, True], ids=["B-1", "B-2"])
def test_B1_B2_every_single_swap_is_reported_line_by_line(diagonals: bool) -> None:
    board = generate_board(BoardConstraints(diagonals=diagonals), seed=3)
    assert (
        naive_repeats(board, diagonals) == set() and check_board(board, diagonals=diagonals) == []
    )
    only_colour = only_shape = 0
    for a, b in itertools.combinations(range(25), 2):
        other = swapped(board, a, b)
        expected = naive_repeats(other, diagonals)
        reported = {
            (f.line, f.kind)
            for f in check_board(other, diagonals=diagonals)
            if f.kind in ("repeated-colour", "repeated-shape")
        }
        assert reported == expected, (a, b)
        kinds = {kind for _, kind in expected}
        only_colour += kinds == {"repeated-colour"}
        only_shape += kinds == {"repeated-shape"}
    # Boards whose only fault is a colour, or only a shape, are among them (a swap of two tiles
    # of one shape in one row repeats colours in columns only, and vice versa).
    assert only_colour > 0 and only_shape > 0
