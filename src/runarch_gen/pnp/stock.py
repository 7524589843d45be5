"""Stock components that many games print: die faces and die nets (custom faces through a
callback), the doubling-cube net, coins and tokens with a value, checkers, fold-up screens,
score tracks and card backs. Each draws on a :class:`~runarch_gen.pnp.surface.Surface` in
millimetres and knows nothing of any game; a game passes its colours and its own faces.

A die net is a cross: a column of four faces with one arm either side of the second, and seven
glue tabs (one per pair of edges that meet when folded). The standard die's faces are placed so
that opposite faces sum to 7:

>>> net = DieNet(15.0)
>>> [net.faces[a] + net.faces[b] for a, b in OPPOSITE_CELLS]
[7, 7, 7]
>>> net.bounds((0, 0))  # tabs above, half the cut line outside
Box(x=-0.15, y=-4.65, width=45.3, height=64.8)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from runarch_gen.pnp.geometry import Box, Point
from runarch_gen.pnp.paint import BLACK, WHITE, Paint
from runarch_gen.pnp.surface import Stroke, Surface
from runarch_gen.pnp.text import TextStyle

__all__ = [
    "CARD_SIZES",
    "CUT",
    "DOUBLING_CUBE",
    "FOLD",
    "NET_CELLS",
    "NET_TABS",
    "OPPOSITE_CELLS",
    "STANDARD_DIE",
    "TEXT_GREY",
    "DieNet",
    "FaceDrawer",
    "draw_card_back",
    "draw_checker",
    "draw_coin",
    "draw_pips",
    "draw_score_track",
    "draw_screen",
    "draw_track_marker",
    "pip_face",
    "star_points",
    "text_face",
]

GREY = Paint.hex("#9A9A9A")
TEXT_GREY = Paint.hex("#595959")
"""Grey for small text and thin lines that must read: 7:1 on white paper."""
LIGHT = Paint.hex("#E6E6E6")
CUT = Stroke(BLACK, 0.3)
"""A cut line."""
FOLD = Stroke(GREY, 0.3, (2.0, 1.5))
"""A fold line: dashed grey."""

TRACK_NUMBERS = TextStyle(size=10)

CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.0, 89.0),
    "mini": (44.0, 63.0),
    "a6": (105.0, 148.0),
}
"""Card sizes every kit shares (width × height in mm, portrait): a kit's component table names
one as ``size = "poker"`` (``landscape = true`` turns it)."""

FaceDrawer = Callable[[Surface, Box, int], None]
"""Draws the face of value ``n`` inside a square box."""

# -- die faces -----------------------------------------------------------------------------------

PIP_SPOTS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
    7: ((0, 0), (0, 1), (0, 2), (1, 1), (2, 0), (2, 1), (2, 2)),
    8: ((0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)),
}
"""Pips on a 3 × 3 grid (column, row) for the values 1–8."""


def draw_pips(
    surface: Surface,
    box: Box,
    value: int,
    ink: Paint = BLACK,
    *,
    step: float = 0.27,
    radius: float = 0.085,
) -> None:
    """The pips of ``value`` (1–8) in ``box``: ``step`` and ``radius`` as shares of its width.

    >>> from runarch_gen.pnp.surface import RecordingSurface
    >>> s = RecordingSurface(20, 20)
    >>> draw_pips(s, Box(0, 0, 20, 20), 5)
    >>> len(s.records), all(Box(0, 0, 20, 20).contains(r.bounds) for r in s.records)
    (5, True)
    """
    cx, cy = box.centre
    d = box.width * step
    for col, row in PIP_SPOTS[value]:
        surface.circle((cx + (col - 1) * d, cy + (row - 1) * d), box.width * radius, fill=ink)


def pip_face(ink: Paint = BLACK, *, step: float = 0.27, radius: float = 0.085) -> FaceDrawer:
    """A :data:`FaceDrawer` of pips."""

    def face(surface: Surface, box: Box, value: int) -> None:
        draw_pips(surface, box, value, ink, step=step, radius=radius)

    return face


def text_face(style: TextStyle, inset: float = 2.0) -> FaceDrawer:
    """A :data:`FaceDrawer` that prints the value as a number (the doubling cube)."""

    def face(surface: Surface, box: Box, value: int) -> None:
        surface.text(box.inset(inset), str(value), style)

    return face


def star_points(centre: Point, radius: float, inner: float = 0.45) -> list[Point]:
    """A five-pointed star, point up (a custom die face, a marker)."""
    cx, cy = centre
    out = []
    for k in range(10):
        r = radius if k % 2 == 0 else radius * inner
        angle = -math.pi / 2 + k * math.pi / 5
        out.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    return out


# -- die nets ------------------------------------------------------------------------------------

NET_CELLS: tuple[tuple[int, int], ...] = ((1, 0), (1, 1), (1, 2), (1, 3), (0, 1), (2, 1))
"""Cells of the cross net (column, row) in face order: the column's four, then left and right."""
OPPOSITE_CELLS: tuple[tuple[int, int], ...] = ((0, 2), (1, 3), (4, 5))
"""Pairs of net cells that are opposite faces once folded."""
NET_TABS: tuple[tuple[int, str], ...] = (
    (0, "left"),
    (0, "right"),
    (0, "top"),
    (2, "left"),
    (2, "right"),
    (3, "left"),
    (3, "right"),
)
"""One glue tab per pair of edges that meet when the net is folded: seven."""
STANDARD_DIE: tuple[int, ...] = (2, 1, 5, 6, 3, 4)
"""A standard die's faces in :data:`NET_CELLS` order: opposite faces sum to 7."""
DOUBLING_CUBE: tuple[int, ...] = (2, 4, 64, 32, 8, 16)
"""The doubling cube's faces 2 … 64 in :data:`NET_CELLS` order (2 opposite 64, 4 opposite 32,
8 opposite 16, like the usual cube)."""


def _tab(box: Box, edge: str, depth: float) -> list[Point]:
    x, y, w, h = box.x, box.y, box.width, box.height
    d, s = depth, depth * 0.8
    if edge == "left":
        return [(x, y), (x - d, y + s), (x - d, y + h - s), (x, y + h)]
    if edge == "right":
        return [(x + w, y), (x + w + d, y + s), (x + w + d, y + h - s), (x + w, y + h)]
    return [(x, y), (x + s, y - d), (x + w - s, y - d), (x + w, y)]


@dataclass(frozen=True, slots=True)
class DieNet:
    """A cube to cut, fold and glue: faces of ``side`` mm in a cross, ``faces`` in
    :data:`NET_CELLS` order, glue tabs ``tab`` × side deep."""

    side: float
    faces: tuple[int, ...] = STANDARD_DIE
    tab: float = 0.3
    fill: Paint = WHITE
    tab_fill: Paint = LIGHT
    cut: Stroke = CUT
    fold: Stroke = FOLD

    def cells(self, origin: Point) -> list[Box]:
        """The six face boxes, the net's 3 × 4 grid starting at ``origin``."""
        ox, oy = origin
        s = self.side
        return [Box(ox + c * s, oy + r * s, s, s) for c, r in NET_CELLS]

    def bounds(self, origin: Point) -> Box:
        """Everything the net draws, tabs and strokes included."""
        ox, oy = origin
        grow = self.cut.width / 2
        top = self.tab * self.side
        return Box(ox, oy - top, 3 * self.side, 4 * self.side + top).inset(-grow if grow else 0.0)

    def draw(self, surface: Surface, origin: Point, face: FaceDrawer | None = None) -> None:
        """Tabs, faces (``face`` draws each value; pips by default) and the cut outline."""
        draw_face = face if face is not None else pip_face()
        cells = self.cells(origin)
        for index, edge in NET_TABS:
            surface.polygon(
                _tab(cells[index], edge, self.side * self.tab), fill=self.tab_fill, stroke=self.cut
            )
        for box, value in zip(cells, self.faces, strict=True):
            surface.rect(box, fill=self.fill, stroke=self.fold)
            draw_face(surface, box, value)
        ox, oy = origin
        s = self.side
        outline = [
            (ox + s, oy),
            (ox + 2 * s, oy),
            (ox + 2 * s, oy + s),
            (ox + 3 * s, oy + s),
            (ox + 3 * s, oy + 2 * s),
            (ox + 2 * s, oy + 2 * s),
            (ox + 2 * s, oy + 4 * s),
            (ox + s, oy + 4 * s),
            (ox + s, oy + 2 * s),
            (ox, oy + 2 * s),
            (ox, oy + s),
            (ox + s, oy + s),
            (ox + s, oy),
        ]
        surface.polyline(outline, self.cut)


# -- round pieces --------------------------------------------------------------------------------


def draw_coin(
    surface: Surface,
    centre: Point,
    radius: float,
    label: str,
    *,
    fill: Paint,
    ink: Paint = BLACK,
    size: float = 40.0,
) -> None:
    """A coin or token: a disc with an inner ring and its value (``label``) as large as fits.

    >>> from runarch_gen.pnp.surface import RecordingSurface
    >>> s = RecordingSurface(30, 30)
    >>> draw_coin(s, (15, 15), 11, "5", fill=WHITE)
    >>> [r.text for r in s.records if r.kind == "text"]
    ['5']
    """
    surface.circle(centre, radius, fill=fill, stroke=Stroke(ink, 0.4))
    surface.circle(centre, radius * 0.8, fill=None, stroke=Stroke(ink, 0.25))
    box = Box(centre[0] - radius * 0.7, centre[1] - radius * 0.55, radius * 1.4, radius * 1.1)
    surface.text(box, label, TextStyle(font="bold", size=size, paint=ink, min_size=3))


def draw_checker(
    surface: Surface,
    centre: Point,
    radius: float,
    *,
    fill: Paint,
    ring: Paint,
    edge: Stroke = CUT,
    inset: float = 3.0,
) -> None:
    """A checker to cut out: a disc with a ring ``inset`` mm inside its edge."""
    surface.circle(centre, radius, fill=fill, stroke=edge)
    surface.circle(centre, radius - inset, stroke=Stroke(ring, 0.4))


# -- screens, tracks, backs ----------------------------------------------------------------------

Panel = Callable[[Surface, Box], None]


def draw_screen(
    surface: Surface,
    box: Box,
    panels: Sequence[Panel],
    *,
    cut: Stroke = CUT,
    fold: Stroke = FOLD,
) -> list[Box]:
    """A fold-up screen: ``box`` cut out and folded into ``len(panels)`` equal panels, each
    drawn by its callback; the panels' boxes."""
    n = len(panels)
    width = box.width / n
    surface.rect(box, stroke=cut)
    for k in range(1, n):
        x = box.x + k * width
        surface.line((x, box.y), (x, box.bottom), fold)
    boxes = [Box(box.x + k * width, box.y, width, box.height) for k in range(n)]
    for panel, panel_box in zip(panels, boxes, strict=True):
        panel(surface, panel_box)
    return boxes


def draw_score_track(
    surface: Surface,
    origin: Point,
    cell: float,
    values: Iterable[int],
    per_row: int,
    *,
    stroke: Stroke = CUT,
    style: TextStyle = TRACK_NUMBERS,
) -> list[Box]:
    """A score track: a square of ``cell`` mm per value, ``per_row`` to a row, each numbered;
    the boxes in the order of ``values``.

    >>> from runarch_gen.pnp.surface import RecordingSurface
    >>> boxes = draw_score_track(RecordingSurface(99, 99), (0, 0), 10, range(26), 13)
    >>> len(boxes), boxes[13]
    (26, Box(x=0, y=10, width=10, height=10))
    """
    ox, oy = origin
    boxes = []
    for index, value in enumerate(values):
        row, column = divmod(index, per_row)
        box = Box(ox + column * cell, oy + row * cell, cell, cell)
        surface.rect(box, stroke=stroke)
        surface.text(box.inset(1), str(value), style)
        boxes.append(box)
    return boxes


def draw_track_marker(
    surface: Surface, box: Box, label: str, *, fill: Paint, stroke: Stroke = CUT
) -> None:
    """A marker for a track (a square piece with a letter, e.g. the Crawford game's C)."""
    surface.rounded_rect(box, 3, fill=fill, stroke=stroke)
    surface.text(box, label, TextStyle(font="bold", size=box.height))


def draw_card_back(
    surface: Surface,
    cut: Box,
    bleed: float,
    *,
    fill: Paint,
    accent: Paint,
    title: str,
    subtitle: str = "",
    emblem: float = 26.0,
) -> None:
    """A card back: ``fill`` to the bleed, a frame, a compass rose of ``emblem`` mm radius in
    the middle, the title above and an optional subtitle below, all in ``accent``."""
    surface.rect(cut.inset(-bleed), fill=fill)
    inner = cut.inset(3.0)
    surface.rounded_rect(inner, 2.5, fill=None, stroke=Stroke(accent, 0.6))
    centre = cut.centre
    for share in (22 / 26, 17 / 26):
        surface.circle(centre, emblem * share, fill=None, stroke=Stroke(accent, 0.5))
    waist = emblem * 4 / 26
    for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        tip = (centre[0] + dx * emblem, centre[1] + dy * emblem)
        side = (centre[0] + dy * waist, centre[1] - dx * waist)
        other = (centre[0] - dy * waist, centre[1] + dx * waist)
        surface.polygon([tip, side, other], fill=accent)
    surface.text(
        Box(inner.x, inner.y + 4, inner.width, 10),
        title,
        TextStyle(font="bold", size=14, paint=accent),
    )
    if subtitle:
        surface.text(
            Box(inner.x, inner.bottom - 12, inner.width, 9),
            subtitle,
            TextStyle(size=8, paint=accent),
        )
