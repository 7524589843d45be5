"""A PNG preview of a board, drawn like the print-and-play kit's tiles (print-friendly): each
tile in its colour's light tint, edged and outlined in the colour, with its shape and rune in
the corners and its code; the column letters and row numbers around the board.

A pure function of the board; Pillow and the kit's drawing are imported inside it so that the
command line starts without them.

>>> from runarch_gen.runarch.boards.generate import generate_board
>>> board_png(generate_board(seed=1))[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

from runarch_gen.runarch.boards.board import Board

__all__ = ["board_png"]


def board_png(board: Board, *, tile_px: int = 96, labels: bool = True) -> bytes:
    """The board as PNG bytes, ``tile_px`` pixels per tile; ``labels`` adds a–e and 1–5."""
    from runarch_gen.runarch.kit.build import board_painter, board_picture

    return board_picture(board_painter(friendly=True), board, tile_px=tile_px, labels=labels)
