"""Colours as a printer sees them: RGB for screens and home printers, CMYK for print shops.

>>> Paint.hex("#D55E00").rgb
(213, 94, 0)
>>> Paint((0, 0, 0)).cmyk_or_derived
(0.0, 0.0, 0.0, 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Paint:
    """A flat colour: ``rgb`` 0–255 and, when a print-safe value is known, ``cmyk`` 0–1."""

    rgb: tuple[int, int, int]
    cmyk: tuple[float, float, float, float] | None = None

    @staticmethod
    def hex(text: str, cmyk: tuple[float, float, float, float] | None = None) -> Paint:
        """A paint from ``#RRGGBB``."""
        value = text.lstrip("#")
        if len(value) != 6:
            raise ValueError(f"expected a colour like #RRGGBB, got {text!r}")
        rgb = (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))
        return Paint(rgb, cmyk)

    @property
    def cmyk_or_derived(self) -> tuple[float, float, float, float]:
        """The given CMYK value, or a naive conversion from RGB."""
        if self.cmyk is not None:
            return self.cmyk
        r, g, b = (v / 255 for v in self.rgb)
        k = 1 - max(r, g, b)
        if k >= 1:
            return (0.0, 0.0, 0.0, 1.0)
        return ((1 - r - k) / (1 - k), (1 - g - k) / (1 - k), (1 - b - k) / (1 - k), k)

    @property
    def luminance(self) -> float:
        """Relative luminance 0–1 (to pick readable ink on a fill)."""

        def channel(v: int) -> float:
            s = v / 255
            return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

        r, g, b = (channel(v) for v in self.rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    def mix(self, other: Paint, t: float) -> Paint:
        """``t`` of the way from this paint to ``other`` (0 = this, 1 = other)."""
        rgb = tuple(round(a + (b - a) * t) for a, b in zip(self.rgb, other.rgb, strict=True))
        return Paint((rgb[0], rgb[1], rgb[2]))


WHITE = Paint((255, 255, 255), (0.0, 0.0, 0.0, 0.0))
BLACK = Paint((0, 0, 0), (0.0, 0.0, 0.0, 1.0))


def contrast(a: Paint, b: Paint) -> float:
    """The WCAG contrast ratio of two paints (1 to 21); small text needs 4.5 or more.

    >>> round(contrast(BLACK, WHITE), 1)
    21.0
    """
    high, low = sorted((a.luminance, b.luminance), reverse=True)
    return (high + 0.05) / (low + 0.05)


def ink_on(fill: Paint) -> Paint:
    """Black or white, whichever reads better on ``fill``."""
    return BLACK if contrast(BLACK, fill) >= contrast(WHITE, fill) else WHITE


def grey_level(paint: Paint) -> float:
    """The grey a mono printer or a greyscale copy makes of ``paint`` (0 black – 255 white,
    ITU-R 601 luma, as Pillow's ``L`` mode computes it).

    >>> round(grey_level(Paint((213, 94, 0))))
    119
    """
    r, g, b = paint.rgb
    return (299 * r + 587 * g + 114 * b) / 1000
