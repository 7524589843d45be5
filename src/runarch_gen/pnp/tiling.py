"""Items larger than a sheet, tiled across pages: each page shows a window of the item, the
windows overlap by at least ``overlap`` mm, alignment marks (⊕) sit in the middle of every
overlap strip, and each page prints its place (row and column).

>>> plan = plan_tiles(400, 280, 281, 186, overlap=12)
>>> plan.rows, plan.columns, len(plan.tiles)
(2, 2, 4)
>>> plan.tiles[3].window.x + plan.tiles[3].window.width
400.0
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

from runarch_gen.pnp.geometry import Box, Point
from runarch_gen.pnp.paint import BLACK, WHITE, Paint
from runarch_gen.pnp.surface import Stroke, Surface
from runarch_gen.pnp.text import TextStyle

__all__ = ["MARK_RADIUS", "Tile", "TilePlan", "draw_mark", "draw_tile", "plan_tiles"]

MARK_RADIUS = 3.0
"""The alignment mark's circle, mm (its cross arms reach 5 mm)."""
MARK = Stroke(BLACK, 0.3)
CAPTION = TextStyle(size=8, align="left")
PLACE = "page {page} of {pages}: row {row}, column {column}"
"""How a tile's place is printed (``str.format`` with page, pages, row, column)."""
TRIM = Stroke(Paint.hex("#9A9A9A"), 0.2, (2.0, 2.0))


@dataclass(frozen=True, slots=True)
class Tile:
    """One page's window onto the item (item mm), at ``row`` and ``column`` (from 0)."""

    row: int
    column: int
    window: Box


@dataclass(frozen=True, slots=True)
class TilePlan:
    """How an item of ``width`` × ``height`` mm is tiled: the tiles row by row, and the
    alignment marks (item mm), each inside the windows of at least two tiles."""

    width: float
    height: float
    rows: int
    columns: int
    tiles: tuple[Tile, ...]
    marks: tuple[Point, ...]

    def place(self, tile: Tile, template: str = PLACE) -> str:
        """Where ``tile`` goes, as printed on its page (numbers from 1)."""
        return template.format(
            page=tile.row * self.columns + tile.column + 1,
            pages=len(self.tiles),
            row=tile.row + 1,
            column=tile.column + 1,
        )

    def marks_in(self, tile: Tile) -> list[Point]:
        w = tile.window.inset(-1e-9)  # a mark on a shared edge (no overlap) is on both tiles
        return [(x, y) for x, y in self.marks if w.x <= x <= w.right and w.y <= y <= w.bottom]


def _count(length: float, window: float, overlap: float) -> int:
    n = 1
    while n * window - (n - 1) * overlap < length:
        n += 1
    return n


def plan_tiles(
    width: float,
    height: float,
    area_width: float,
    area_height: float,
    *,
    overlap: float = 12.0,
    along: tuple[float, ...] = (0.2, 0.5, 0.8),
) -> TilePlan:
    """Tile an item of ``width`` × ``height`` mm over pages whose printable area is
    ``area_width`` × ``area_height``: as few pages as overlap by at least ``overlap``, the
    windows spread evenly; marks in each overlap strip at the shares ``along`` of its length."""
    if area_width <= overlap or area_height <= overlap:
        raise ValueError("the printable area must be larger than the overlap")
    win_w, win_h = min(area_width, width), min(area_height, height)
    columns = _count(width, win_w, overlap)
    rows = _count(height, win_h, overlap)
    step_x = (width - win_w) / (columns - 1) if columns > 1 else 0.0
    step_y = (height - win_h) / (rows - 1) if rows > 1 else 0.0
    tiles = tuple(
        Tile(r, c, Box(c * step_x, r * step_y, win_w, win_h))
        for r in range(rows)
        for c in range(columns)
    )
    marks: set[Point] = set()
    xs = [c * step_x for c in range(columns)]
    ys = [r * step_y for r in range(rows)]
    for before, left in itertools.pairwise(xs):
        mid = (left + before + win_w) / 2  # between this window's left and the last one's right
        for share in along:
            marks.add((mid, height * share))
    for before, top in itertools.pairwise(ys):
        mid = (top + before + win_h) / 2
        for share in along:
            marks.add((width * share, mid))
    return TilePlan(width, height, rows, columns, tiles, tuple(sorted(marks)))


def draw_mark(surface: Surface, centre: Point, stroke: Stroke = MARK) -> None:
    """An alignment mark ⊕."""
    x, y = centre
    surface.circle((x, y), MARK_RADIUS, stroke=stroke)
    surface.line((x - 5, y), (x + 5, y), stroke)
    surface.line((x, y - 5), (x, y + 5), stroke)


def draw_tile(
    surface: Surface,
    plan: TilePlan,
    tile: Tile,
    origin: Point,
    draw_item: Callable[[Surface], None],
    *,
    caption: str = "",
    background: Paint = WHITE,
) -> Box:
    """Draw ``tile`` of the item with its window's top-left corner at ``origin`` on the page:
    the item (``draw_item`` draws it whole at (0, 0)), the page outside the window covered with
    ``background``, the marks that fall in the window, the window's dashed trim line, and
    ``caption`` (e.g. :meth:`TilePlan.place`) in the 8 mm above the window. The window's box on
    the page."""
    ox, oy = origin
    w = tile.window
    with surface.transformed(translate=(ox - w.x, oy - w.y)):
        draw_item(surface)
    on_page = Box(ox, oy, w.width, w.height)
    page_w, page_h = surface.width, surface.height
    for cover in (
        Box(0, 0, page_w, oy),
        Box(0, on_page.bottom, page_w, page_h - on_page.bottom),
        Box(0, oy, ox, w.height),
        Box(on_page.right, oy, page_w - on_page.right, w.height),
    ):
        if cover.width > 0 and cover.height > 0:
            surface.rect(cover, fill=background)
    with surface.transformed(translate=(ox - w.x, oy - w.y)):
        for mark in plan.marks_in(tile):
            draw_mark(surface, mark)
    surface.rect(on_page, stroke=TRIM)
    if caption:
        surface.text(Box(ox, max(0.0, oy - 8), w.width, min(7.0, oy)), caption, CAPTION)
    return on_page
