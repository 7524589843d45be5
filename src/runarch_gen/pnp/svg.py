"""The SVG backend: a :class:`~runarch_gen.pnp.surface.Surface` writing SVG elements, for web
pages. Coordinates stay in millimetres (the ``viewBox``), so the picture scales freely.

>>> s = SvgSurface(10, 10)
>>> s.rect(Box(0, 0, 5, 5), fill=BLACK)
>>> s.svg().count("<rect")
1
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from runarch_gen.pnp.fonts import PT, FontSet
from runarch_gen.pnp.geometry import Box, Point
from runarch_gen.pnp.paint import BLACK, Paint
from runarch_gen.pnp.surface import Stroke, Surface

__all__ = ["BLACK", "Box", "SvgSurface"]


def _num(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".") or "0"


def _colour(paint: Paint) -> str:
    return "#{:02x}{:02x}{:02x}".format(*paint.rgb)


def _paint_attrs(fill: Paint | None, stroke: Stroke | None) -> str:
    attrs = f' fill="{_colour(fill)}"' if fill is not None else ' fill="none"'
    if stroke is not None:
        attrs += f' stroke="{_colour(stroke.paint)}" stroke-width="{_num(stroke.width)}"'
        if stroke.dash:
            attrs += f' stroke-dasharray="{" ".join(_num(d) for d in stroke.dash)}"'
    return attrs


class SvgSurface(Surface):
    """A ``width`` × ``height`` mm picture; :meth:`svg` is the document, :meth:`elements` the
    elements alone (to place inside a larger SVG). Text is set in the page's fonts (the names
    are the font set's families, falling back to sans-serif)."""

    def __init__(self, width: float, height: float, fonts: FontSet | None = None) -> None:
        super().__init__(width, height, fonts)
        self._parts: list[str] = []

    def raw(self, markup: str) -> None:
        """Add markup as it is (e.g. a group with attributes for a web page)."""
        self._parts.append(markup)

    def elements(self) -> str:
        return "".join(self._parts)

    def svg(self, *, attributes: str = "") -> str:
        w, h = _num(self.width), _num(self.height)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}"'
            f' width="{w}mm" height="{h}mm"{attributes}>{self.elements()}</svg>'
        )

    def _device_rect(
        self, box: Box, radius: float, fill: Paint | None, stroke: Stroke | None
    ) -> None:
        rounded = f' rx="{_num(radius)}"' if radius > 0 else ""
        self._parts.append(
            f'<rect x="{_num(box.x)}" y="{_num(box.y)}" width="{_num(box.width)}"'
            f' height="{_num(box.height)}"{rounded}{_paint_attrs(fill, stroke)}/>'
        )

    def _device_circle(
        self, cx: float, cy: float, r: float, fill: Paint | None, stroke: Stroke | None
    ) -> None:
        self._parts.append(
            f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(r)}"{_paint_attrs(fill, stroke)}/>'
        )

    def _device_path(
        self, points: list[Point], closed: bool, fill: Paint | None, stroke: Stroke | None
    ) -> None:
        coords = " ".join(f"{_num(x)},{_num(y)}" for x, y in points)
        tag = "polygon" if closed else "polyline"
        caps = ' stroke-linecap="round" stroke-linejoin="round"' if stroke is not None else ""
        self._parts.append(f'<{tag} points="{coords}"{_paint_attrs(fill, stroke)}{caps}/>')

    def _device_text(
        self,
        x: float,
        y: float,
        text: str,
        font: str,
        size: float,
        paint: Paint,
        quarter_turns: int,
        width: float,
    ) -> None:
        weight = ' font-weight="bold"' if "bold" in font.lower() else ""
        turn = (
            f' transform="rotate({90 * (quarter_turns % 4)} {_num(x)} {_num(y)})"'
            if quarter_turns % 4
            else ""
        )
        family = quoteattr("'Source Sans Pro', 'Source Sans 3', sans-serif")
        self._parts.append(
            f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(size * PT)}"'
            f' font-family={family}{weight} fill="{_colour(paint)}"{turn}>'
            f"{escape(text)}</text>"
        )
