"""A PNG preview of a board: each tile in its colour's light tint with its shape drawn in the
colour (``glyphs.PALETTE``, ``glyphs.SHAPE_OUTLINES``), its code in the corner, and the column
letters and row numbers around the board.

A pure function of the board; Pillow is imported inside it so that the command line starts
without it.

>>> from runarch_gen.runarch.boardgen import generate_board
>>> board_png(generate_board(seed=1))[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from runarch_gen.runarch.atoms import FILES, SIZE
from runarch_gen.runarch.board import Board
from runarch_gen.runarch.glyphs import PALETTE, SHAPE_OUTLINES

if TYPE_CHECKING:
    from PIL.ImageFont import FreeTypeFont, ImageFont

__all__ = ["board_png"]

INK = (51, 51, 51)
PAPER = (255, 255, 255)
_SUPERSAMPLE = 3  # draw large and scale down: Pillow's polygons have no anti-aliasing


def _font(size: int) -> FreeTypeFont | ImageFont:
    from PIL import ImageFont

    try:
        import font_source_sans_pro

        path = font_source_sans_pro.font_files_ttf.get("SourceSansProSemibold")
        if path:
            return ImageFont.truetype(path, size)
    except (ImportError, OSError):
        pass
    return ImageFont.load_default(size)


def board_png(board: Board, *, tile_px: int = 96, labels: bool = True) -> bytes:
    """The board as PNG bytes, ``tile_px`` pixels per tile; ``labels`` adds a–e and 1–5."""
    from PIL import Image, ImageDraw

    s = _SUPERSAMPLE
    tile = tile_px * s
    gap = max(1, tile // 16)
    margin = tile // 3 if labels else gap
    side = margin + SIZE * tile + (SIZE - 1) * gap + gap * 2
    image = Image.new("RGB", (side, side), PAPER)
    draw = ImageDraw.Draw(image)
    code_font = _font(tile // 6)
    label_font = _font(tile // 5)
    origin = margin

    if labels:
        for i in range(SIZE):
            centre = origin + i * (tile + gap) + tile // 2
            draw.text((centre, margin // 2), FILES[i], fill=INK, font=label_font, anchor="mm")
            draw.text((margin // 2, centre), str(i + 1), fill=INK, font=label_font, anchor="mm")

    for sq, piece in enumerate(board.tiles):
        row, col = divmod(sq, SIZE)
        x0 = origin + col * (tile + gap)
        y0 = origin + row * (tile + gap)
        ink = PALETTE[piece.colour]
        draw.rounded_rectangle(
            (x0, y0, x0 + tile, y0 + tile),
            radius=tile // 12,
            fill=ink.light,
            outline=INK,
            width=max(1, s),
        )
        outline = SHAPE_OUTLINES[piece.shape]
        # The shape fills the upper part of the tile, leaving the bottom corner for the code.
        box = tile * 0.66
        bx = x0 + (tile - box) / 2
        by = y0 + tile * 0.08
        stroke = max(2, round(tile / 40))
        if outline.is_circle:
            r = outline.radius * box
            cx, cy = bx + box / 2, by + box / 2
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink.rgb, outline=INK, width=stroke)
        else:
            points = [(bx + x * box, by + y * box) for x, y in outline.points]
            draw.polygon(points, fill=ink.rgb, outline=INK, width=stroke)
        draw.text(
            (x0 + tile - tile // 14, y0 + tile - tile // 20),
            piece.code,
            fill=INK,
            font=code_font,
            anchor="rd",
        )

    image = image.resize((side // s, side // s), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
