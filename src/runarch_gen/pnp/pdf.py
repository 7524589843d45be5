"""The vector backend: a :class:`~runarch_gen.pnp.surface.Surface` that writes PDF pages with
reportlab, fonts embedded (subset), output byte-identical for identical drawing.

Paths and text are written as PDF operators directly into reportlab's page stream (its
documented ``addLiteral`` route, with its own font-subset naming), which is several times faster
than building reportlab path objects for the thousands of small shapes a kit holds.

>>> pdf = PdfSurface(100, 50)
>>> pdf.rect(Box(10, 10, 20, 20), fill=BLACK)
>>> pdf.finish()[:5]
b'%PDF-'
"""

from __future__ import annotations

import functools
import io
from typing import Any, Literal

from runarch_gen.pnp.fonts import FontSet
from runarch_gen.pnp.geometry import Box, Point
from runarch_gen.pnp.paint import BLACK, Paint
from runarch_gen.pnp.surface import Stroke, Surface

__all__ = ["BLACK", "Box", "PdfSurface"]

MM = 72 / 25.4
"""Points per millimetre."""

KAPPA = 0.5522847498  # Bézier handle length of a quarter circle, as a share of the radius

ColourModel = Literal["rgb", "cmyk"]


# A coordinate in points to 1/100 pt (3.5 µm): short, and identical across runs.
_n = "{:.2f}".format


@functools.cache
def _path_template(n: int) -> str:
    """``x y m x y l … `` for ``n`` points: one format call per path, not one per number."""
    return "{:.2f} {:.2f} m " + "{:.2f} {:.2f} l " * (n - 1)


class PdfSurface(Surface):
    """A multi-page PDF of ``width`` × ``height`` mm pages, built in memory.

    ``colour_model`` picks how paints are written: ``rgb`` (screens, home printers) or ``cmyk``
    (the paints' print-safe CMYK values, for a print shop). Metadata carries no date or random
    ID (reportlab's invariant mode), so the same drawing gives the same bytes.
    """

    def __init__(
        self,
        width: float,
        height: float,
        fonts: FontSet | None = None,
        *,
        colour_model: ColourModel = "rgb",
        title: str = "",
        author: str = "",
        subject: str = "",
        creator: str = "",
        keywords: str = "",
    ) -> None:
        super().__init__(width, height, fonts)
        from reportlab.pdfgen.canvas import Canvas

        self._buffer = io.BytesIO()
        page = (0, 0, width * MM, height * MM)
        # The initial font is one of ours (embedded), not reportlab's default Helvetica, which
        # would be referenced on every page without being embedded.
        initial = self.fonts.ttfont(next(iter(self.fonts.paths))).fontName
        self._canvas: Any = Canvas(
            self._buffer,
            pagesize=(width * MM, height * MM),
            invariant=1,
            pageCompression=1,
            initialFontName=initial,
            trimBox=page,
            bleedBox=page,
        )
        c = self._canvas
        c.setTitle(title)
        c.setAuthor(author)
        c.setSubject(subject)
        c.setKeywords(keywords)
        c.setCreator(creator)
        c.setProducer(creator or "reportlab")
        self._out = c._code.append
        self._cmyk = colour_model == "cmyk"
        self._page_height = height * MM
        self._pages = 1
        self._boxes_set = False
        self._fonts_used: set[Any] = set()
        self._reset_state()

    @property
    def page_count(self) -> int:
        return self._pages

    def next_page(self, width: float | None = None, height: float | None = None) -> None:
        """Close the current page and start a new one, of the same size or ``width`` ×
        ``height`` mm (its TrimBox and BleedBox the whole page until :meth:`set_page_boxes`)."""
        self._canvas.showPage()
        if width is not None and height is not None:
            size = (width * MM, height * MM)
            self._canvas.setPageSize(size)
            self._page_height = height * MM
            self._canvas.setTrimBox((0, 0, *size))
            self._canvas.setBleedBox((0, 0, *size))
        elif self._boxes_set:
            size = self._canvas._pagesize
            self._canvas.setTrimBox((0, 0, *size))
            self._canvas.setBleedBox((0, 0, *size))
        self._boxes_set = False
        self._out = self._canvas._code.append
        self._pages += 1
        self._reset_state()

    def set_page_boxes(
        self,
        trim: tuple[float, float, float, float],
        bleed: tuple[float, float, float, float],
    ) -> None:
        """The current page's TrimBox (where it is cut) and BleedBox (how far its ink runs), each
        ``(x, y, width, height)`` in mm from the page's top-left corner."""
        h = self._page_height

        def points(box: tuple[float, float, float, float]) -> tuple[float, ...]:
            x, y, w, bh = box
            return tuple(round(v, 2) for v in (x * MM, h - (y + bh) * MM, (x + w) * MM, h - y * MM))

        self._canvas.setTrimBox(points(trim))
        self._canvas.setBleedBox(points(bleed))
        self._boxes_set = True

    def finish(self) -> bytes:
        """Close the document and return its bytes."""
        from reportlab import rl_config

        self._canvas.showPage()
        saved = rl_config.useA85
        rl_config.useA85 = 0  # binary Flate streams: smaller, and no slow ASCII85 pass
        try:
            self._canvas.save()
        finally:
            rl_config.useA85 = saved
            doc = self._canvas._doc
            for font in self._fonts_used:  # fonts are shared: drop this document's state
                font.state.pop(doc, None)
        return self._buffer.getvalue()

    # -- graphics state, cached so each operator is written only when it changes ----------------
    def _reset_state(self) -> None:
        self._out("1 j 1 J")  # round joins and caps
        self._fill: Paint | None = None
        self._stroke_paint: Paint | None = None
        self._line_width: float | None = None
        self._dash: tuple[float, ...] | None = None

    def _colour(self, paint: Paint, stroke: bool) -> str:
        if self._cmyk:
            c, m, y, k = paint.cmyk_or_derived
            return f"{c:.4g} {m:.4g} {y:.4g} {k:.4g} {'K' if stroke else 'k'}"
        r, g, b = paint.rgb
        return f"{r / 255:.4g} {g / 255:.4g} {b / 255:.4g} {'RG' if stroke else 'rg'}"

    def _set_fill(self, paint: Paint) -> None:
        if paint != self._fill:
            self._out(self._colour(paint, False))
            self._fill = paint

    def _set_stroke(self, stroke: Stroke) -> None:
        if stroke.paint != self._stroke_paint:
            self._out(self._colour(stroke.paint, True))
            self._stroke_paint = stroke.paint
        if stroke.width != self._line_width:
            self._out(f"{_n(stroke.width * MM)} w")
            self._line_width = stroke.width
        if stroke.dash != self._dash:
            if stroke.dash:
                self._out(f"[{' '.join(_n(d * MM) for d in stroke.dash)}] 0 d")
            else:
                self._out("[] 0 d")
            self._dash = stroke.dash

    def _paint_op(self, fill: Paint | None, stroke: Stroke | None, closed: bool = True) -> str:
        if fill is not None:
            self._set_fill(fill)
        if stroke is not None:
            self._set_stroke(stroke)
        if fill is not None and stroke is not None:
            return "b" if closed else "B"
        if fill is not None:
            return "f"
        return "s" if closed else "S"

    # -- primitives ------------------------------------------------------------------------------
    def _device_rect(
        self, box: Box, radius: float, fill: Paint | None, stroke: Stroke | None
    ) -> None:
        op = self._paint_op(fill, stroke)
        r = min(radius, box.width / 2, box.height / 2)
        if r <= 0:
            x, y = box.x * MM, self._page_height - box.bottom * MM
            self._out(f"{_n(x)} {_n(y)} {_n(box.width * MM)} {_n(box.height * MM)} re {op}")
            return
        h = self._page_height
        x0, x1 = box.x * MM, box.right * MM
        y0, y1 = h - box.bottom * MM, h - box.y * MM
        rr = r * MM
        k = rr * KAPPA
        self._out(
            f"{_n(x0 + rr)} {_n(y0)} m {_n(x1 - rr)} {_n(y0)} l "
            f"{_n(x1 - rr + k)} {_n(y0)} {_n(x1)} {_n(y0 + rr - k)} {_n(x1)} {_n(y0 + rr)} c "
            f"{_n(x1)} {_n(y1 - rr)} l "
            f"{_n(x1)} {_n(y1 - rr + k)} {_n(x1 - rr + k)} {_n(y1)} {_n(x1 - rr)} {_n(y1)} c "
            f"{_n(x0 + rr)} {_n(y1)} l "
            f"{_n(x0 + rr - k)} {_n(y1)} {_n(x0)} {_n(y1 - rr + k)} {_n(x0)} {_n(y1 - rr)} c "
            f"{_n(x0)} {_n(y0 + rr)} l "
            f"{_n(x0)} {_n(y0 + rr - k)} {_n(x0 + rr - k)} {_n(y0)} {_n(x0 + rr)} {_n(y0)} c {op}"
        )

    def _device_circle(
        self, cx: float, cy: float, r: float, fill: Paint | None, stroke: Stroke | None
    ) -> None:
        op = self._paint_op(fill, stroke)
        x, y, rr = cx * MM, self._page_height - cy * MM, r * MM
        k = rr * KAPPA
        self._out(
            f"{_n(x + rr)} {_n(y)} m "
            f"{_n(x + rr)} {_n(y + k)} {_n(x + k)} {_n(y + rr)} {_n(x)} {_n(y + rr)} c "
            f"{_n(x - k)} {_n(y + rr)} {_n(x - rr)} {_n(y + k)} {_n(x - rr)} {_n(y)} c "
            f"{_n(x - rr)} {_n(y - k)} {_n(x - k)} {_n(y - rr)} {_n(x)} {_n(y - rr)} c "
            f"{_n(x + k)} {_n(y - rr)} {_n(x + rr)} {_n(y - k)} {_n(x + rr)} {_n(y)} c {op}"
        )

    def _device_path(
        self, points: list[Point], closed: bool, fill: Paint | None, stroke: Stroke | None
    ) -> None:
        op = self._paint_op(fill, stroke, closed)
        h = self._page_height
        coords = [v for x, y in points for v in (x * MM, h - y * MM)]
        self._out(_path_template(len(points)).format(*coords) + op)

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
        self._set_fill(paint)
        c = self._canvas
        ttf = self.fonts.ttfont(font)
        self._fonts_used.add(ttf)
        cos, sin = ((1, 0), (0, -1), (-1, 0), (0, 1))[quarter_turns % 4]  # clockwise on paper
        parts = [f"BT {cos} {sin} {-sin} {cos} {_n(x * MM)} {_n(self._page_height - y * MM)} Tm"]
        for subset, chunk in ttf.splitString(text, c._doc):
            name = ttf.getSubsetInternalName(subset, c._doc)
            parts.append(f"{name} {_n(size)} Tf ({c._escape(chunk)}) Tj")
        parts.append("ET")
        self._out(" ".join(parts))
