"""How RunArch's attributes look: the palette, shape outlines and rune strokes, as data.

Every renderer (the PDF kit, the PNG previews) draws from these, so a shape looks the same
everywhere. Coordinates are in a unit box, ``x`` to the right and ``y`` **down**, centred on
(0.5, 0.5); a renderer scales the box and flips ``y`` if its page grows upwards.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from runarch_gen.runarch.atoms import Colour, Shape

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Ink:
    """A printable colour: RGB for screens, a CMYK value that prints safely, and a light tint
    for print-friendly output."""

    rgb: tuple[int, int, int]
    cmyk: tuple[float, float, float, float]
    light: tuple[int, int, int]

    @property
    def hex(self) -> str:
        return "#{:02X}{:02X}{:02X}".format(*self.rgb)


# Colour-blind-safe hues (after Okabe–Ito), their lightness spread so that a mono printer or a
# greyscale copy keeps them apart: full colour at grey levels 59 (blue), 87 (green), 119 (red),
# 151 (violet) and 213 (yellow), the print-friendly tints at 135, 162, 189, 216 and 243 — at
# least 25 levels apart in both (ITU-R 601 luma). Letters, shapes and runes tell them apart too.
PALETTE: dict[Colour, Ink] = {
    Colour.RED: Ink((213, 94, 0), (0.0, 0.60, 1.0, 0.10), (235, 177, 131)),  # vermilion
    Colour.BLUE: Ink((0, 72, 150), (1.0, 0.52, 0.0, 0.41), (99, 143, 191)),
    Colour.GREEN: Ink((0, 130, 90), (1.0, 0.0, 0.31, 0.49), (114, 186, 164)),  # bluish green
    Colour.YELLOW: Ink((240, 228, 66), (0.05, 0.0, 0.80, 0.0), (251, 247, 201)),
    Colour.VIOLET: Ink((204, 121, 167), (0.10, 0.55, 0.0, 0.0), (236, 205, 222)),  # reddish purple
}


def _regular(n: int, radius: float, rotation: float = -math.pi / 2) -> tuple[Point, ...]:
    return tuple(
        (
            0.5 + radius * math.cos(rotation + 2 * math.pi * k / n),
            0.5 + radius * math.sin(rotation + 2 * math.pi * k / n),
        )
        for k in range(n)
    )


def _star(points: int, outer: float, inner: float) -> tuple[Point, ...]:
    out: list[Point] = []
    for k in range(2 * points):
        r = outer if k % 2 == 0 else inner
        a = -math.pi / 2 + math.pi * k / points
        out.append((0.5 + r * math.cos(a), 0.5 + r * math.sin(a)))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Outline:
    """A shape's outline: a circle (``radius``) or a closed polygon (``points``)."""

    points: tuple[Point, ...] = ()
    radius: float = 0.0

    @property
    def is_circle(self) -> bool:
        return not self.points


# Sized so that the shapes look equally heavy side by side.
SHAPE_OUTLINES: dict[Shape, Outline] = {
    Shape.CIRCLE: Outline(radius=0.40),
    Shape.TRIANGLE: Outline(
        tuple((x, y + 0.07) for x, y in _regular(3, 0.48))  # lowered to sit optically centred
    ),
    Shape.SQUARE: Outline(((0.14, 0.14), (0.86, 0.14), (0.86, 0.86), (0.14, 0.86))),
    Shape.STAR: Outline(tuple((x, y + 0.03) for x, y in _star(5, 0.48, 0.20))),
    Shape.HEXAGON: Outline(_regular(6, 0.44, rotation=0.0)),
}

# Runes as open strokes (polylines), drawn with round caps at about 1/12 of the box.
RUNE_STROKES: dict[Shape, tuple[tuple[Point, ...], ...]] = {
    # Dagaz ᛞ: two uprights joined by a cross.
    Shape.CIRCLE: (
        ((0.18, 0.12), (0.18, 0.88)),
        ((0.82, 0.12), (0.82, 0.88)),
        ((0.18, 0.12), (0.82, 0.88)),
        ((0.82, 0.12), (0.18, 0.88)),
    ),
    # Teiwaz ᛏ: an upright under an arrowhead.
    Shape.TRIANGLE: (((0.5, 0.12), (0.5, 0.88)), ((0.2, 0.42), (0.5, 0.12), (0.8, 0.42))),
    # Uruz ᚢ: an upright, a falling shoulder and a shorter right leg.
    Shape.SQUARE: (((0.25, 0.88), (0.25, 0.12), (0.75, 0.38), (0.75, 0.88)),),
    # Othala ᛟ: a diamond standing on two legs.
    Shape.STAR: (
        ((0.5, 0.10), (0.78, 0.42), (0.22, 0.90)),
        ((0.5, 0.10), (0.22, 0.42), (0.78, 0.90)),
    ),
    # Jera ᛃ: two interlocking angles.
    Shape.HEXAGON: (
        ((0.42, 0.14), (0.18, 0.40), (0.42, 0.66)),
        ((0.58, 0.34), (0.82, 0.60), (0.58, 0.86)),
    ),
}
RUNE_STROKE_WIDTH = 1 / 12
