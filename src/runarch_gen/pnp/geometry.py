"""Millimetre geometry for print-and-play drawing: boxes and quarter-turn affine transforms.

Coordinates are millimetres with ``x`` to the right and ``y`` **down** (like a page read from
the top-left corner, like Pillow); the PDF backend flips ``y`` when it writes.

>>> Box(10, 20, 30, 40).inset(5)
Box(x=15, y=25, width=20, height=30)
>>> Affine.identity().translated(10, 0).rotated(1).apply(1, 0)
(10.0, 1.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned rectangle: top-left corner ``(x, y)``, ``width`` and ``height`` in mm."""

    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def bottom(self) -> float:
        return self.y + self.height

    @property
    def centre(self) -> Point:
        return (self.x + self.width / 2, self.y + self.height / 2)

    @property
    def area(self) -> float:
        return self.width * self.height

    def inset(self, dx: float, dy: float | None = None) -> Box:
        """The box shrunk by ``dx`` left and right and ``dy`` (default ``dx``) top and bottom;
        a negative inset grows it."""
        dy = dx if dy is None else dy
        return Box(self.x + dx, self.y + dy, self.width - 2 * dx, self.height - 2 * dy)

    def moved(self, dx: float, dy: float) -> Box:
        return Box(self.x + dx, self.y + dy, self.width, self.height)

    def contains(self, other: Box, tolerance: float = 1e-6) -> bool:
        """Whether ``other`` lies wholly inside this box."""
        return (
            other.x >= self.x - tolerance
            and other.y >= self.y - tolerance
            and other.right <= self.right + tolerance
            and other.bottom <= self.bottom + tolerance
        )

    def intersects(self, other: Box) -> bool:
        """Whether the interiors of the two boxes overlap."""
        return (
            self.x < other.right
            and other.x < self.right
            and self.y < other.bottom
            and other.y < self.bottom
        )

    def split_columns(self, n: int, gap: float = 0.0) -> list[Box]:
        """``n`` equal boxes side by side with ``gap`` between them."""
        w = (self.width - gap * (n - 1)) / n
        return [Box(self.x + i * (w + gap), self.y, w, self.height) for i in range(n)]

    def split_rows(self, n: int, gap: float = 0.0) -> list[Box]:
        """``n`` equal boxes one above the other with ``gap`` between them."""
        h = (self.height - gap * (n - 1)) / n
        return [Box(self.x, self.y + i * (h + gap), self.width, h) for i in range(n)]

    def square_in_centre(self, side: float | None = None) -> Box:
        """The largest (or a ``side``-sized) square centred in the box."""
        s = min(self.width, self.height) if side is None else side
        cx, cy = self.centre
        return Box(cx - s / 2, cy - s / 2, s, s)

    @staticmethod
    def bounding(points: list[Point] | tuple[Point, ...]) -> Box:
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        return Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


@dataclass(frozen=True, slots=True)
class Affine:
    """``(x, y) -> (a·x + c·y + e, b·x + d·y + f)``, restricted by its builders to translations,
    uniform scales and quarter turns, so boxes stay boxes and circles stay circles."""

    a: float = 1.0
    b: float = 0.0
    c: float = 0.0
    d: float = 1.0
    e: float = 0.0
    f: float = 0.0

    @staticmethod
    def identity() -> Affine:
        return Affine()

    def apply(self, x: float, y: float) -> Point:
        return (self.a * x + self.c * y + self.e, self.b * x + self.d * y + self.f)

    def apply_all(self, points: list[Point] | tuple[Point, ...]) -> list[Point]:
        a, b, c, d, e, f = self.a, self.b, self.c, self.d, self.e, self.f
        return [(a * x + c * y + e, b * x + d * y + f) for x, y in points]

    def then(self, outer: Affine) -> Affine:
        """This transform followed by ``outer``."""
        return Affine(
            outer.a * self.a + outer.c * self.b,
            outer.b * self.a + outer.d * self.b,
            outer.a * self.c + outer.c * self.d,
            outer.b * self.c + outer.d * self.d,
            outer.a * self.e + outer.c * self.f + outer.e,
            outer.b * self.e + outer.d * self.f + outer.f,
        )

    def translated(self, dx: float, dy: float) -> Affine:
        """Local coordinates shifted: the new origin is the old ``(dx, dy)``."""
        return Affine(1, 0, 0, 1, dx, dy).then(self)

    def rotated(self, quarter_turns: int) -> Affine:
        """Local axes turned clockwise (on the page) by ``quarter_turns`` × 90°."""
        q = quarter_turns % 4
        cos, sin = ((1, 0), (0, 1), (-1, 0), (0, -1))[q]
        return Affine(cos, sin, -sin, cos, 0, 0).then(self)

    def scaled(self, factor: float) -> Affine:
        return Affine(factor, 0, 0, factor, 0, 0).then(self)

    @property
    def scale(self) -> float:
        """The uniform scale factor."""
        return math.sqrt(abs(self.a * self.d - self.b * self.c))

    @property
    def quarter_turns(self) -> int:
        """The rotation in clockwise quarter turns (0–3)."""
        angle = math.atan2(self.b, self.a)
        return round(angle / (math.pi / 2)) % 4

    def apply_box(self, box: Box) -> Box:
        """The image of an axis-aligned box (still axis-aligned under quarter turns)."""
        return Box.bounding(self.apply_all([(box.x, box.y), (box.right, box.bottom)]))
