"""Fonts: which TrueType files draw which text role, their metrics, and their registration.

A :class:`FontSet` maps role names (``regular``, ``semibold``, ``bold``, ``italic``) to TTF
files. The same files are embedded in the PDF (reportlab) and drawn in previews (Pillow), and
text is laid out once from their metrics, so both outputs break lines the same way.

>>> fonts = default_fonts()
>>> sorted(fonts.paths)
['bold', 'italic', 'regular', 'semibold']
>>> fonts.missing_glyphs("regular", "Příliš žluťoučký kůň → ×")
''
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PT = 25.4 / 72
"""Millimetres per typographic point."""

# Vertical extents used to fit a line, in ems: high enough for Czech capitals with a háček
# (Ř, Č reach about 0.87 em) and low enough for descenders, so fitted text never leaves its box.
LINE_ASCENT = 0.90
LINE_DESCENT = 0.25


@dataclass(frozen=True, slots=True)
class FontSet:
    """Text roles and the TrueType files that draw them."""

    paths: dict[str, Path] = field(hash=False)

    def path(self, role: str) -> Path:
        try:
            return self.paths[role]
        except KeyError:
            raise KeyError(f"no font for the text role {role!r}") from None

    def width(self, role: str, text: str, size_pt: float) -> float:
        """The advance width of ``text`` set at ``size_pt`` points, in millimetres."""
        return _units(str(self.path(role)), text) * size_pt / 1000 * PT

    def units(self, role: str, text: str) -> float:
        """The advance width of ``text`` in font units (1000 per em), cached per text: text
        fitting tries many sizes, and a width in units serves them all."""
        return _units(str(self.path(role)), text)

    def missing_glyphs(self, role: str, text: str) -> str:
        """The characters of ``text`` (other than line breaks) that the font cannot draw."""
        cmap = _ttfont(str(self.path(role))).face.charToGlyph
        return "".join(sorted({ch for ch in text if ch not in "\n" and ord(ch) not in cmap}))

    def ttfont(self, role: str) -> Any:
        """reportlab's ``TTFont`` for the role, registered (for embedding in PDFs)."""
        _register_pdf(str(self.path(role)))
        return _ttfont(str(self.path(role)))


def default_fonts() -> FontSet:
    """Source Sans Pro (covers Czech, arrows, ×, ·, ≥), shipped as a Python package."""
    files = _source_sans_files()
    return FontSet(
        {
            "regular": Path(files["SourceSansPro"]),
            "semibold": Path(files["SourceSansProSemibold"]),
            "bold": Path(files["SourceSansProBold"]),
            "italic": Path(files["SourceSansProIt"]),
        }
    )


def _source_sans_files() -> dict[str, str]:
    import font_source_sans_pro

    files: dict[str, str] = font_source_sans_pro.font_files_ttf
    return files


@functools.lru_cache(maxsize=65536)
def _units(path: str, text: str) -> float:
    widths = _advances(path)
    default = widths.get(0x20, 500)
    return float(sum(widths.get(ord(ch), default) for ch in text))


@functools.cache
def _advances(path: str) -> dict[int, float]:
    """Advance widths per code point in 1000ths of an em (what reportlab measures and embeds)."""
    face = _ttfont(path).face
    return {code: face.getCharWidth(code) for code in face.charToGlyph}


@functools.cache
def _ttfont(path: str) -> Any:
    from reportlab.pdfbase.ttfonts import TTFont

    return TTFont(_pdf_font_name(path), path)


def _pdf_font_name(path: str) -> str:
    return "pnp-" + Path(path).stem


@functools.cache
def _register_pdf(path: str) -> str:
    from reportlab.pdfbase import pdfmetrics

    font = _ttfont(path)
    pdfmetrics.registerFont(font)
    return str(font.fontName)


@functools.cache
def pillow_font(path: str, size_px: float) -> Any:
    """A Pillow font for ``path`` at ``size_px`` pixels per em (cached)."""
    from PIL import ImageFont

    return ImageFont.truetype(path, size_px, layout_engine=ImageFont.Layout.BASIC)
