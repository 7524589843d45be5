"""The raster backend: a :class:`~runarch_gen.pnp.surface.Surface` painting a Pillow image,
for PNG previews. Drawn at ``supersample`` times the resolution and reduced, for smooth edges.

>>> r = RasterSurface(20, 10, px_per_mm=4)
>>> r.rect(Box(0, 0, 10, 10), fill=BLACK)
>>> r.image().size, r.image().getpixel((5, 20))
((80, 40), (0, 0, 0))
"""

from __future__ import annotations

import functools
import io
import itertools
import math
from typing import Any

from runarch_gen.pnp.fonts import PT, FontSet, pillow_font
from runarch_gen.pnp.geometry import Box, Point
from runarch_gen.pnp.paint import BLACK, WHITE, Paint
from runarch_gen.pnp.surface import Stroke, Surface

__all__ = ["BLACK", "Box", "RasterSurface"]


class RasterSurface(Surface):
    """A ``width`` × ``height`` mm image at ``px_per_mm`` pixels per millimetre."""

    def __init__(
        self,
        width: float,
        height: float,
        px_per_mm: float = 4.0,
        fonts: FontSet | None = None,
        *,
        supersample: int = 2,
        background: Paint = WHITE,
    ) -> None:
        super().__init__(width, height, fonts)
        from PIL import Image, ImageDraw

        self._k = px_per_mm * supersample
        self._ss = supersample
        self._size = (round(width * px_per_mm), round(height * px_per_mm))
        self._img: Any = Image.new(
            "RGB", (self._size[0] * supersample, self._size[1] * supersample), background.rgb
        )
        self._draw: Any = ImageDraw.Draw(self._img)
        self._result: Any = None

    def image(self) -> Any:
        """The finished ``PIL.Image`` (drawing after this call is not allowed)."""
        if self._result is None:
            img = self._img.reduce(self._ss) if self._ss > 1 else self._img
            if img.size != self._size:
                img = img.crop((0, 0, *self._size))
            self._result = img
        return self._result

    def png(self, *, dpi: float | None = None, round_: bool = False) -> bytes:
        """The image as PNG bytes: no metadata but the resolution when ``dpi`` is given (so
        identical drawings give identical bytes); ``round_`` makes everything outside the
        largest centred circle transparent (a round piece's corners)."""
        image = self.image()
        if round_:
            image = with_round_alpha(image)
        buffer = io.BytesIO()
        if dpi is None:
            image.save(buffer, "PNG", compress_level=1)
        else:
            image.save(buffer, "PNG", compress_level=1, dpi=(dpi, dpi))
        return buffer.getvalue()

    # -- helpers ---------------------------------------------------------------------------------
    def _px(self, points: list[Point]) -> list[tuple[float, float]]:
        k = self._k
        return [(x * k, y * k) for x, y in points]

    def _width_px(self, stroke: Stroke) -> int:
        return max(1, round(stroke.width * self._k))

    def _outline(self, points: list[Point], closed: bool, stroke: Stroke) -> None:
        pts = self._px(points)
        if closed:
            pts = [*pts, pts[0], pts[1]] if len(pts) > 1 else pts
        w = self._width_px(stroke)
        colour = stroke.paint.rgb
        if stroke.dash:
            for segment in _dashes(pts, [d * self._k for d in stroke.dash]):
                self._draw.line(segment, fill=colour, width=w)
            return
        self._draw.line(pts, fill=colour, width=w, joint="curve")
        if not closed and w > 2:
            r = w / 2
            for x, y in (pts[0], pts[-1]):
                self._draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)

    # -- primitives ------------------------------------------------------------------------------
    def _device_rect(
        self, box: Box, radius: float, fill: Paint | None, stroke: Stroke | None
    ) -> None:
        k = self._k
        # A box under a pixel still covers one (Pillow refuses a corner before the other).
        xy = (
            box.x * k,
            box.y * k,
            max(box.x * k, box.right * k - 1),
            max(box.y * k, box.bottom * k - 1),
        )
        if fill is not None:
            if radius > 0:
                self._draw.rounded_rectangle(xy, radius * k, fill=fill.rgb)
            else:
                self._draw.rectangle(xy, fill=fill.rgb)
        if stroke is not None:
            if radius > 0 or stroke.dash:
                self._outline(_rounded_points(box, radius), True, stroke)
            else:
                w = self._width_px(stroke)
                grown = box.inset(-stroke.width / 2)
                self._draw.rectangle(
                    (grown.x * k, grown.y * k, grown.right * k - 1, grown.bottom * k - 1),
                    outline=stroke.paint.rgb,
                    width=w,
                )

    def _device_circle(
        self, cx: float, cy: float, r: float, fill: Paint | None, stroke: Stroke | None
    ) -> None:
        k = self._k
        if fill is not None:
            self._draw.ellipse(((cx - r) * k, (cy - r) * k, (cx + r) * k, (cy + r) * k), fill.rgb)
        if stroke is not None:
            if stroke.dash:
                self._outline(_circle_points(cx, cy, r), True, stroke)
            else:
                rr = r + stroke.width / 2
                self._draw.ellipse(
                    ((cx - rr) * k, (cy - rr) * k, (cx + rr) * k, (cy + rr) * k),
                    outline=stroke.paint.rgb,
                    width=self._width_px(stroke),
                )

    def _device_path(
        self, points: list[Point], closed: bool, fill: Paint | None, stroke: Stroke | None
    ) -> None:
        if closed and fill is not None:
            self._draw.polygon(self._px(points), fill=fill.rgb)
        if stroke is not None:
            self._outline(points, closed, stroke)

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
        k = self._k
        mask, ox, oy = _text_mask(
            str(self.fonts.path(font)), round(size * PT * k, 2), text, quarter_turns % 4
        )
        self._img.paste(paint.rgb, (round(x * k - ox), round(y * k - oy)), mask)


def with_round_alpha(image: Any, supersample: int = 4) -> Any:
    """``image`` as RGBA, opaque inside the largest circle centred in it and transparent
    outside, with a smooth edge."""
    from PIL import Image, ImageDraw

    w, h = image.size
    big = Image.new("L", (w * supersample, h * supersample), 0)
    d = min(w, h) * supersample
    x0, y0 = (w * supersample - d) / 2, (h * supersample - d) / 2
    ImageDraw.Draw(big).ellipse((x0, y0, x0 + d - 1, y0 + d - 1), fill=255)
    out = image.convert("RGBA")
    out.putalpha(big.reduce(supersample))
    return out


@functools.lru_cache(maxsize=4096)
def _text_mask(path: str, size_px: float, text: str, turns: int) -> tuple[Any, int, int]:
    """A line of text as an alpha mask, turned clockwise by ``turns`` quarter turns, and where
    its baseline origin lies inside the mask. Cached: a kit repeats many short labels."""
    from PIL import Image, ImageDraw

    face = pillow_font(path, size_px)
    left, top, right, bottom = face.getbbox(text, anchor="ls")
    w, h = max(1, math.ceil(right - left)), max(1, math.ceil(bottom - top))
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor="ls")
    ox, oy = -left, -top
    if turns == 1:
        mask = mask.transpose(Image.Transpose.ROTATE_270)
        ox, oy = h - oy, ox
    elif turns == 2:
        mask = mask.transpose(Image.Transpose.ROTATE_180)
        ox, oy = w - ox, h - oy
    elif turns == 3:
        mask = mask.transpose(Image.Transpose.ROTATE_90)
        ox, oy = oy, w - ox
    return mask, ox, oy


def _circle_points(cx: float, cy: float, r: float, segments: int = 72) -> list[Point]:
    return [
        (
            cx + r * math.cos(2 * math.pi * i / segments),
            cy + r * math.sin(2 * math.pi * i / segments),
        )
        for i in range(segments)
    ]


def _rounded_points(box: Box, radius: float, per_corner: int = 8) -> list[Point]:
    r = min(radius, box.width / 2, box.height / 2)
    if r <= 0:
        return [(box.x, box.y), (box.right, box.y), (box.right, box.bottom), (box.x, box.bottom)]
    corners = (
        (box.right - r, box.y + r, -math.pi / 2),
        (box.right - r, box.bottom - r, 0.0),
        (box.x + r, box.bottom - r, math.pi / 2),
        (box.x + r, box.y + r, math.pi),
    )
    out: list[Point] = []
    for cx, cy, start in corners:
        for i in range(per_corner + 1):
            a = start + (math.pi / 2) * i / per_corner
            out.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return out


def _dashes(
    points: list[tuple[float, float]], pattern: list[float]
) -> list[list[tuple[float, float]]]:
    """Split a polyline into the drawn pieces of a dash pattern."""
    out: list[list[tuple[float, float]]] = []
    if not pattern or sum(pattern) <= 0:
        return [points]
    index, left, on = 0, pattern[0], True
    current: list[tuple[float, float]] = [points[0]]
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        seg = math.hypot(x1 - x0, y1 - y0)
        pos = 0.0
        while seg - pos > left:
            pos += left
            t = pos / seg
            p = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
            if on:
                current.append(p)
                out.append(current)
            current = [p]
            on = not on
            index = (index + 1) % len(pattern)
            left = pattern[index]
        left -= seg - pos
        if on:
            current.append((x1, y1))
    if on and len(current) > 1:
        out.append(current)
    return out
