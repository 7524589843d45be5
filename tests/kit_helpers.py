"""Shared helpers for the kit tests: building kits once, reading PDFs back with PyMuPDF."""

from __future__ import annotations

import functools
import io
from dataclasses import dataclass
from typing import Any

import numpy as np
import pymupdf
from PIL import Image

from runarch_gen.pnp.fonts import PT
from runarch_gen.pnp.geometry import Box
from runarch_gen.runarch.kit.build import KitOptions, KitPlan, plan_kit, render_kit_pdf
from runarch_gen.runarch.kit.samples import sample_board, sample_deck

MM = 1 / PT  # points per mm


@dataclass(frozen=True)
class BuiltKit:
    plan: KitPlan
    pdf: bytes

    @functools.cached_property
    def doc(self) -> Any:
        return pymupdf.open(stream=self.pdf, filetype="pdf")

    def page_of(self, key: str, side: str = "front") -> tuple[int, Box]:
        """(0-based PDF page index, cut box in mm) of a component."""
        numbers = self.plan.imposition.numbers()
        for page, (front, back) in zip(self.plan.imposition.pages, numbers, strict=True):
            placements = page.placements if side == "front" else (page.backs or ())
            for p in placements:
                if p.item.key == key:
                    return (front if side == "front" else (back or 0)) - 1, p.cut
        raise KeyError(key)

    def words(self, page: int, box_mm: Box) -> list[tuple[float, float, str]]:
        """(x mm, y mm, word) of the words whose centre lies in ``box_mm``."""
        out = []
        for x0, y0, x1, y1, word, *_ in self.doc[page].get_text("words"):
            cx, cy = (x0 + x1) / 2 / MM, (y0 + y1) / 2 / MM
            if box_mm.x <= cx <= box_mm.right and box_mm.y <= cy <= box_mm.bottom:
                out.append((cx, cy, word))
        return out

    def pixels(self, page: int, dpi: int = 100) -> np.ndarray:
        pix = self.doc[page].get_pixmap(dpi=dpi)
        return np.asarray(Image.open(io.BytesIO(pix.tobytes("png"))).convert("RGB"))


@functools.cache
def built(
    paper: str = "a4",
    lang: str = "en",
    bleed: float = 3.0,
    duplex: str = "long",
    friendly: bool = False,
    cards: int = 50,
    only: tuple[str, ...] | None = None,
    offset: tuple[float, float] = (0.0, 0.0),
) -> BuiltKit:
    options = KitOptions(
        paper=paper,
        lang=lang,
        bleed=bleed,
        duplex=duplex,  # type: ignore[arg-type]
        print_friendly=friendly,
        only=only,
        duplex_offset=offset,
    )
    plan = plan_kit(sample_board(), sample_deck(cards), options)
    return BuiltKit(plan, render_kit_pdf(plan))
