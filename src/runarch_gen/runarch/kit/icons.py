"""Vector glyphs of the kit, all drawn as paths from :mod:`runarch_gen.runarch.kit.glyphs`: shapes,
runes, stones, compass arrows, and the bonus-action symbols (RULES §1.4)."""

from __future__ import annotations

import math

from runarch_gen.pnp.geometry import Box, Point
from runarch_gen.pnp.paint import WHITE, Paint
from runarch_gen.pnp.surface import Stroke, Surface
from runarch_gen.runarch.atoms import Direction, Piece, Shape
from runarch_gen.runarch.kit.glyphs import RUNE_STROKE_WIDTH, RUNE_STROKES, SHAPE_OUTLINES
from runarch_gen.runarch.kit.style import Style


def _unit(box: Box, points: tuple[Point, ...] | list[Point]) -> list[Point]:
    return [(box.x + x * box.width, box.y + y * box.height) for x, y in points]


def draw_shape(
    s: Surface, shape: Shape, box: Box, fill: Paint | None, stroke: Stroke | None = None
) -> None:
    """A shape's outline scaled into ``box`` (a square box keeps its proportions)."""
    outline = SHAPE_OUTLINES[shape]
    if outline.is_circle:
        s.circle(box.centre, outline.radius * min(box.width, box.height), fill, stroke)
    else:
        s.polygon(_unit(box, outline.points), fill, stroke)


def draw_rune(s: Surface, shape: Shape, box: Box, paint: Paint, weight: float = 1.0) -> None:
    """The shape's rune as stroked paths in ``box``."""
    stroke = Stroke(paint, RUNE_STROKE_WIDTH * min(box.width, box.height) * weight)
    for line in RUNE_STROKES[shape]:
        s.polyline(_unit(box, line), stroke)


def draw_stone(s: Surface, piece: Piece, centre: Point, radius: float, style: Style) -> None:
    """A stone as it appears in a card's pattern: a coloured disc with a white shape."""
    cx, cy = centre
    if style.friendly:
        s.circle(
            centre,
            radius,
            style.field(piece.colour),
            Stroke(style.colour(piece.colour), radius * 0.14),
        )
    else:
        s.circle(centre, radius, style.field(piece.colour), Stroke(style.ink, radius * 0.06))
    side = radius * 1.25
    box = Box(cx - side / 2, cy - side / 2, side, side)
    draw_shape(s, piece.shape, box, WHITE, Stroke(style.ink, max(0.25, radius * 0.07)))


def arrow(
    s: Surface,
    start: Point,
    end: Point,
    paint: Paint,
    width: float,
    head: float | None = None,
    *,
    both: bool = False,
) -> None:
    """A line from ``start`` to ``end`` with a filled head at ``end`` (and ``start`` if
    ``both``)."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0)
    if length <= 0:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    h = head if head is not None else width * 3.2
    shaft_start = (x0 + ux * h * 0.8, y0 + uy * h * 0.8) if both else start
    s.line(shaft_start, (x1 - ux * h * 0.8, y1 - uy * h * 0.8), Stroke(paint, width))
    ends = [(end, (ux, uy))] + ([(start, (-ux, -uy))] if both else [])
    for (tx, ty), (dx, dy) in ends:
        px, py = -dy, dx
        s.polygon(
            [
                (tx, ty),
                (tx - dx * h + px * h * 0.55, ty - dy * h + py * h * 0.55),
                (tx - dx * h - px * h * 0.55, ty - dy * h - py * h * 0.55),
            ],
            paint,
        )


def draw_direction(s: Surface, direction: Direction, box: Box, paint: Paint) -> None:
    """A compass arrow from the centre of ``box`` towards ``direction`` (north is up)."""
    cx, cy = box.centre
    r = min(box.width, box.height) / 2
    norm = math.hypot(direction.d_col, direction.d_row)
    dx, dy = direction.d_col / norm, direction.d_row / norm
    s.circle((cx, cy), r * 0.13, paint)
    arrow(s, (cx, cy), (cx + dx * r * 0.92, cy + dy * r * 0.92), paint, r * 0.16, r * 0.42)


def draw_bonus_symbol(s: Surface, symbol: str, box: Box, paint: Paint) -> None:
    """The bonus-action symbols: D two-headed diagonal arrows, X a circle of arrows,
    F one one-headed diagonal arrow with a victory point, N a cross."""
    cx, cy = box.centre
    r = min(box.width, box.height) / 2
    w = r * 0.13
    if symbol == "D":
        a = r * 0.72
        arrow(s, (cx - a, cy + a), (cx + a, cy - a), paint, w, r * 0.32, both=True)
        arrow(s, (cx - a, cy - a), (cx + a, cy + a), paint, w, r * 0.32, both=True)
    elif symbol == "X":
        rr = r * 0.66
        for k in range(2):
            start = math.pi * k + 0.35
            end = start + math.pi - 0.7
            pts = [
                (
                    cx + rr * math.cos(start + (end - start) * i / 16),
                    cy + rr * math.sin(start + (end - start) * i / 16),
                )
                for i in range(17)
            ]
            s.polyline(pts[:-2], Stroke(paint, w))
            arrow(s, pts[-3], pts[-1], paint, w, r * 0.34)
    elif symbol == "F":
        # One diagonal arrow with one head (D's arrows have two), and the victory point.
        a = r * 0.72
        arrow(s, (cx - a, cy + a), (cx + a, cy - a), paint, w, r * 0.32)
        star = Box(cx + r * 0.12, cy + r * 0.12, r * 0.75, r * 0.75)
        draw_shape(s, Shape.STAR, star, paint)
    else:  # N: the cross that never leaves its owner
        a = r * 0.6
        s.line((cx - a, cy - a), (cx + a, cy + a), Stroke(paint, w * 1.6))
        s.line((cx + a, cy - a), (cx - a, cy + a), Stroke(paint, w * 1.6))


def star_points(cx: float, cy: float, outer: float, inner: float, n: int = 5) -> list[Point]:
    out = []
    for k in range(2 * n):
        rad = outer if k % 2 == 0 else inner
        a = -math.pi / 2 + math.pi * k / n
        out.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    return out
