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


# -- every game's kit ---------------------------------------------------------------------------


@dataclass(frozen=True)
class FamilyKit:
    """A game's planned kit and its kit.pdf, read back with PyMuPDF."""

    game: str
    plan: Any
    pdf: bytes

    @functools.cached_property
    def doc(self) -> Any:
        return pymupdf.open(stream=self.pdf, filetype="pdf")

    def pixels(self, page: int, dpi: int = 100) -> np.ndarray:
        pix = self.doc[page].get_pixmap(dpi=dpi)
        return np.asarray(Image.open(io.BytesIO(pix.tobytes("png"))).convert("RGB"))

    def placements(self, kind: str, side: str = "front") -> list[tuple[int, Any]]:
        """(0-based PDF page, placement) of every piece of ``kind``."""
        numbers = self.plan.imposition.numbers()
        out = []
        for page, (front, back) in zip(self.plan.imposition.pages, numbers, strict=True):
            placed = page.placements if side == "front" else (page.backs or ())
            out += [
                ((front if side == "front" else back) - 1, p) for p in placed if p.item.kind == kind
            ]
        return out


GAMES = ("runarch", "bluff", "malacca", "backgammon")


@functools.cache
def family(
    game: str,
    lang: str = "en",
    friendly: bool = False,
    paper: str = "a4",
    bleed: float = 3.0,
    duplex: str = "long",
) -> FamilyKit:
    """A game's kit with these options (RunArch's from its sample board and 30 cards)."""
    if game == "runarch":
        kit = built(paper=paper, lang=lang, bleed=bleed, duplex=duplex, friendly=friendly, cards=30)
        return FamilyKit(game, kit.plan, kit.pdf)
    from runarch_gen.games import find_registration
    from runarch_gen.pnp.kit import KitOptions, KitRequest, kit_definition, render_kit_pdf

    definition = kit_definition(find_registration(game))
    options = KitOptions(
        paper=paper,
        lang=lang,
        bleed=bleed,
        duplex=duplex,  # type: ignore[arg-type]
        print_friendly=friendly,
    )
    plan = definition.plan(KitRequest(options))
    return FamilyKit(game, plan, render_kit_pdf(plan))


# -- reading text back --------------------------------------------------------------------------


def spans(page: Any) -> list[dict[str, Any]]:
    """Every non-empty text span of a PDF page (PyMuPDF's dict form)."""
    out = []
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            for span in line["spans"]:
                if span["text"].strip():
                    out.append(span)
    return out


def _luminance(rgb: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def low_contrast(page: Any, large: float = 14.0) -> list[tuple[str, float]]:
    """Spans whose colour reads below 4.5:1 (3:1 for text of ``large`` pt or more) against
    the rendered background under them (the most frequent pixel colour of the span's box)."""
    pix = page.get_pixmap(dpi=72)
    img = np.asarray(Image.frombytes("RGB", (pix.width, pix.height), pix.samples))
    out = []
    for span in spans(page):
        colour = pymupdf.sRGB_to_rgb(span["color"])
        x0, y0, x1, y1 = (round(v) for v in span["bbox"])
        box = img[max(y0, 0) : y1 + 1, max(x0, 0) : x1 + 1].reshape(-1, 3)
        if not len(box):
            continue
        values, counts = np.unique(box, axis=0, return_counts=True)
        background = values[counts.argmax()]
        ratio = contrast_ratio(tuple(c / 255 for c in colour), tuple(c / 255 for c in background))
        if ratio < (3.0 if span["size"] >= large else 4.5):
            out.append((span["text"], ratio))
    return out
