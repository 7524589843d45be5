"""The drawing surface every component is drawn on, once, whatever the output.

A :class:`Surface` takes shapes and text in local millimetres (``y`` down), applies the current
transform (translations, uniform scales, quarter turns) and hands device-space shapes to its
backend: :class:`~runarch_gen.pnp.pdf.PdfSurface` writes vector PDF, and
:class:`~runarch_gen.pnp.raster.RasterSurface` paints a Pillow image for previews.
:class:`RecordingSurface` only remembers what was drawn, for tests and checks.

>>> s = RecordingSurface(100, 100)
>>> with s.transformed(translate=(10, 10)):
...     s.rect(Box(0, 0, 5, 5), fill=BLACK)
>>> s.records[0].bounds
Box(x=10.0, y=10.0, width=5.0, height=5.0)
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from runarch_gen.pnp.fonts import LINE_ASCENT, LINE_DESCENT, PT, FontSet, default_fonts
from runarch_gen.pnp.geometry import Affine, Box, Point
from runarch_gen.pnp.paint import BLACK, Paint
from runarch_gen.pnp.text import TextLayout, TextStyle, layout_text


@dataclass(frozen=True, slots=True)
class Stroke:
    """How an outline is drawn: paint, width in mm, optional dash pattern in mm."""

    paint: Paint = BLACK
    width: float = 0.25
    dash: tuple[float, ...] | None = None


class Surface:
    """Drawing in millimetres with ``y`` down; subclasses implement the ``_device_*`` methods."""

    def __init__(self, width: float, height: float, fonts: FontSet | None = None) -> None:
        self.width = width
        self.height = height
        self.fonts = fonts if fonts is not None else default_fonts()
        self._matrix = Affine.identity()
        self._min_pt = 0.0
        self._window: Box | None = None

    # -- transforms ----------------------------------------------------------------------------
    @property
    def matrix(self) -> Affine:
        return self._matrix

    @contextlib.contextmanager
    def transformed(
        self,
        *,
        translate: Point = (0.0, 0.0),
        quarter_turns: int = 0,
        scale: float = 1.0,
    ) -> Iterator[None]:
        """Draw the block in coordinates moved to ``translate``, then turned clockwise by
        ``quarter_turns`` × 90° about that origin, then scaled."""
        saved = self._matrix
        m = saved.translated(*translate)
        if quarter_turns % 4:
            m = m.rotated(quarter_turns)
        if scale != 1.0:
            m = m.scaled(scale)
        self._matrix = m
        try:
            yield
        finally:
            self._matrix = saved

    @contextlib.contextmanager
    def turned_about(self, centre: Point, quarter_turns: int) -> Iterator[None]:
        """Draw the block turned clockwise by ``quarter_turns`` × 90° about ``centre``."""
        cx, cy = centre
        with (
            self.transformed(translate=(cx, cy), quarter_turns=quarter_turns),
            self.transformed(translate=(-cx, -cy)),
        ):
            yield

    @contextlib.contextmanager
    def showing(self, window: Box) -> Iterator[None]:
        """Inside the block, only text lying wholly inside ``window`` (local mm) is set: a
        drawing of which the page shows a window (a board tile) keeps no hidden text."""
        saved = self._window
        self._window = self._matrix.apply_box(window)
        try:
            yield
        finally:
            self._window = saved

    @contextlib.contextmanager
    def minimum_text(self, points: float) -> Iterator[None]:
        """Inside the block, text that would be set smaller than ``points`` on the page (a
        component drawn small as a picture) is left out instead."""
        saved = self._min_pt
        self._min_pt = points
        try:
            yield
        finally:
            self._min_pt = saved

    # -- primitives ----------------------------------------------------------------------------
    def rect(self, box: Box, fill: Paint | None = None, stroke: Stroke | None = None) -> None:
        self.rounded_rect(box, 0.0, fill, stroke)

    def rounded_rect(
        self, box: Box, radius: float, fill: Paint | None = None, stroke: Stroke | None = None
    ) -> None:
        if fill is None and stroke is None:
            return
        device = self._matrix.apply_box(box)
        self._device_rect(device, radius * self._matrix.scale, fill, self._scaled(stroke))

    def circle(
        self,
        centre: Point,
        radius: float,
        fill: Paint | None = None,
        stroke: Stroke | None = None,
    ) -> None:
        if fill is None and stroke is None:
            return
        cx, cy = self._matrix.apply(*centre)
        self._device_circle(cx, cy, radius * self._matrix.scale, fill, self._scaled(stroke))

    def polygon(
        self, points: Sequence[Point], fill: Paint | None = None, stroke: Stroke | None = None
    ) -> None:
        """A closed polygon."""
        if (fill is None and stroke is None) or len(points) < 3:
            return
        self._device_path(self._matrix.apply_all(list(points)), True, fill, self._scaled(stroke))

    def polyline(self, points: Sequence[Point], stroke: Stroke) -> None:
        """An open line through ``points``, with round caps and joins."""
        if len(points) < 2:
            return
        scaled = self._scaled(stroke)
        assert scaled is not None
        self._device_path(self._matrix.apply_all(list(points)), False, None, scaled)

    def line(self, start: Point, end: Point, stroke: Stroke) -> None:
        self.polyline((start, end), stroke)

    def text(self, box: Box, text: str, style: TextStyle) -> TextLayout:
        """Set ``text`` inside ``box``, wrapped and shrunk to fit (never beyond the box)."""
        layout = layout_text(text, box.width, box.height, style, self.fonts)
        if not layout.lines:
            return layout
        m = self._matrix
        size = layout.size * m.scale
        if size < self._min_pt - 1e-9:
            return layout
        turns = m.quarter_turns
        for line in layout.lines:
            if not line.text:
                continue
            if self._window is not None:
                em = layout.size * PT
                top = box.y + line.baseline - LINE_ASCENT * em
                extent = Box(box.x + line.x, top, line.width, (LINE_ASCENT + LINE_DESCENT) * em)
                if not self._window.contains(m.apply_box(extent), 1e-6):
                    continue
            x, y = m.apply(box.x + line.x, box.y + line.baseline)
            self._device_text(x, y, line.text, style.font, size, style.paint, turns, line.width)
        return layout

    def _scaled(self, stroke: Stroke | None) -> Stroke | None:
        if stroke is None:
            return stroke
        s = self._matrix.scale
        if s == 1.0:
            return stroke
        dash = tuple(d * s for d in stroke.dash) if stroke.dash else None
        return Stroke(stroke.paint, stroke.width * s, dash)

    # -- backend -------------------------------------------------------------------------------
    def _device_rect(
        self, box: Box, radius: float, fill: Paint | None, stroke: Stroke | None
    ) -> None:
        raise NotImplementedError

    def _device_circle(
        self, cx: float, cy: float, r: float, fill: Paint | None, stroke: Stroke | None
    ) -> None:
        raise NotImplementedError

    def _device_path(
        self, points: list[Point], closed: bool, fill: Paint | None, stroke: Stroke | None
    ) -> None:
        raise NotImplementedError

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
        """One line of text whose baseline starts at device ``(x, y)``, turned clockwise by
        ``quarter_turns``; ``width`` is its advance width in local mm (for bounds)."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Record:
    """One primitive as drawn on a :class:`RecordingSurface`, in device millimetres."""

    kind: str
    bounds: Box
    fill: Paint | None = None
    stroke: Stroke | None = None
    text: str = ""
    font: str = ""
    points: tuple[Point, ...] = ()


class RecordingSurface(Surface):
    """Remembers every primitive with its device-space bounds (strokes included)."""

    def __init__(self, width: float, height: float, fonts: FontSet | None = None) -> None:
        super().__init__(width, height, fonts)
        self.records: list[Record] = []

    def _device_rect(
        self, box: Box, radius: float, fill: Paint | None, stroke: Stroke | None
    ) -> None:
        grow = stroke.width / 2 if stroke else 0.0
        self.records.append(Record("rect", box.inset(-grow), fill, stroke))

    def _device_circle(
        self, cx: float, cy: float, r: float, fill: Paint | None, stroke: Stroke | None
    ) -> None:
        rr = r + (stroke.width / 2 if stroke else 0.0)
        self.records.append(Record("circle", Box(cx - rr, cy - rr, 2 * rr, 2 * rr), fill, stroke))

    def _device_path(
        self, points: list[Point], closed: bool, fill: Paint | None, stroke: Stroke | None
    ) -> None:
        grow = stroke.width / 2 if stroke else 0.0
        bounds = Box.bounding(points).inset(-grow)
        kind = "polygon" if closed else "polyline"
        self.records.append(Record(kind, bounds, fill, stroke, points=tuple(points)))

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
        from runarch_gen.pnp.fonts import LINE_ASCENT, LINE_DESCENT, PT

        em = size * PT
        w = width * self._matrix.scale
        # The line's box in its own frame (baseline at 0), turned like the text.
        local = Box(0, -LINE_ASCENT * em, w, (LINE_ASCENT + LINE_DESCENT) * em)
        turn = Affine.identity().translated(x, y).rotated(quarter_turns)
        self.records.append(Record("text", turn.apply_box(local), paint, text=text, font=font))
