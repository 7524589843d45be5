"""A document of whole pages, each drawn by a function into its frame: a margin all round, a
footer band with a 10 mm square to check the print scale and a line naming the page and its
number ("3/12"), landscape pages drawn turned onto the portrait paper. The same drawing goes to
the PDF and to PNG previews.

>>> from runarch_gen.pnp.surface import RecordingSurface
>>> doc = Document((Page("one", lambda s, b: None),), (210.0, 297.0), label=footer_label("Game"))
>>> s = RecordingSurface(210, 297)
>>> doc.draw_page(s, 0)
>>> [r.text for r in s.records if r.kind == "text"][0]
'Game · one · 1/1'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from runarch_gen.pnp.geometry import Box
from runarch_gen.pnp.paint import BLACK, Paint
from runarch_gen.pnp.surface import Stroke, Surface
from runarch_gen.pnp.text import TextStyle

__all__ = ["Document", "Draw", "Page", "footer_label", "page_of"]

Draw = Callable[[Surface, Box], None]
GREY = Paint.hex("#9A9A9A")


@dataclass(frozen=True, slots=True)
class Page:
    """One page: a name (``board``, ``nets-2`` …), how to draw it into its frame, whether the
    frame is landscape, and a printing note for its footer."""

    name: str
    draw: Draw
    landscape: bool = False
    note: str = ""


def page_of(number: int, total: int) -> str:
    """Page numbering as printed: ``3/12``."""
    return f"{number}/{total}"


Label = Callable[[Page, int, int], str]


def footer_label(game: str, tail: str = "") -> Label:
    """``Game · page · n/N · note · tail``, parts left out when empty."""

    def label(page: Page, number: int, total: int) -> str:
        parts = [game, page.name, page_of(number, total), page.note, tail]
        return " · ".join(p for p in parts if p)

    return label


@dataclass(frozen=True, slots=True)
class Document:
    """Pages on paper of ``size`` (portrait width, height in mm)."""

    pages: tuple[Page, ...]
    size: tuple[float, float]
    label: Label
    margin: float = 10.0
    footer: float = 12.0

    def frame(self, page: Page) -> Box:
        """The page's drawing frame in its own (turned, if landscape) coordinates."""
        width, height = self.size
        if page.landscape:
            width, height = height, width
        m = self.margin
        return Box(m, m, width - 2 * m, height - 2 * m - self.footer)

    def draw_page(self, surface: Surface, index: int) -> None:
        page = self.pages[index]
        frame = self.frame(page)
        if page.landscape:  # drawn on a landscape frame, turned a quarter onto the portrait page
            with surface.transformed(translate=(self.size[0], 0), quarter_turns=1):
                page.draw(surface, frame)
                self._furniture(surface, frame, page, index)
            return
        page.draw(surface, frame)
        self._furniture(surface, frame, page, index)

    def _furniture(self, surface: Surface, frame: Box, page: Page, index: int) -> None:
        foot = frame.bottom + 2
        surface.rect(Box(frame.x, foot, 10, 10), stroke=Stroke(BLACK, 0.2))
        surface.text(
            Box(frame.x + 12, foot, frame.width - 12, 10),
            self.label(page, index + 1, len(self.pages)),
            TextStyle(size=7, align="left", paint=GREY),
        )

    def pdf(self, *, title: str, creator: str) -> bytes:
        from runarch_gen.pnp.pdf import PdfSurface

        pdf = PdfSurface(*self.size, title=title, creator=creator)
        for index in range(len(self.pages)):
            if index:
                pdf.next_page()
            self.draw_page(pdf, index)
        return pdf.finish()

    def previews(self, names: Sequence[str], px_per_mm: float = 3.0) -> dict[str, bytes]:
        """PNGs of the pages named, as ``preview-NN-name.png``."""
        from runarch_gen.pnp.raster import RasterSurface

        out = {}
        for index, page in enumerate(self.pages):
            if page.name in names:
                raster = RasterSurface(*self.size, px_per_mm=px_per_mm)
                self.draw_page(raster, index)
                out[f"preview-{index + 1:02d}-{page.name}.png"] = raster.png()
        return out
