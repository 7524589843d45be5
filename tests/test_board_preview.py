"""The PNG preview: tiles drawn in the palette's colours, deterministic, sized by ``tile_px``."""

import io

import pytest
from PIL import Image

from runarch_gen.runarch.atoms import PIECES
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.boards.generate import generate_board
from runarch_gen.runarch.kit.glyphs import PALETTE
from runarch_gen.runarch.kit.preview import board_png


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def test_preview_is_a_png_that_uses_every_colour_and_tint() -> None:
    image = decode(board_png(generate_board(seed=1)))
    colours = {colour for _, colour in image.getcolors(maxcolors=1 << 20) or []}
    for ink in PALETTE.values():
        assert ink.rgb in colours  # the shapes
        assert ink.light in colours  # the tile backgrounds


def test_preview_shows_which_tile_is_where() -> None:
    # A board of one tile everywhere has one background tint only.
    yellow_stars = Board((PIECES[3 * 5 + 3],) * 25)
    colours = {c for _, c in decode(board_png(yellow_stars)).getcolors(1 << 20) or []}
    tints = {ink.light for ink in PALETTE.values()}
    assert colours & tints == {PALETTE[PIECES[18].colour].light}


def test_preview_is_deterministic_and_scales() -> None:
    board = generate_board(seed=2)
    assert board_png(board) == board_png(board)
    assert board_png(board) != board_png(generate_board(seed=3))
    small, large = decode(board_png(board, tile_px=40)), decode(board_png(board, tile_px=80))
    assert large.width == pytest.approx(2 * small.width, abs=3)
