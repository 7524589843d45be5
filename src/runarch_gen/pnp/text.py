"""Text that fits its box: word wrapping and shrinking, computed once for every backend.

>>> from runarch_gen.pnp.fonts import default_fonts
>>> layout = layout_text("Print at 100%", 20.0, 5.0, TextStyle(size=30), default_fonts())
>>> layout.size < 30 and layout.width <= 20.0 and layout.height <= 5.0
True
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, Literal

from runarch_gen.pnp.fonts import LINE_ASCENT, LINE_DESCENT, PT, FontSet
from runarch_gen.pnp.paint import BLACK, Paint

Align = Literal["left", "centre", "right"]
VAlign = Literal["top", "middle", "bottom"]

# Below this size text is unreadable on paper; a box that needs less is reported by the fit
# flag and the text is still kept inside it (down to ABSOLUTE_MIN_SIZE, then cut with "…").
ABSOLUTE_MIN_SIZE = 1.0


@dataclass(frozen=True, slots=True)
class TextStyle:
    """How a text is set: font role, size in points (the largest it may be), paint, alignment,
    line spacing as a multiple of the size, and the smallest size shrinking should aim for."""

    font: str = "regular"
    size: float = 10.0
    paint: Paint = BLACK
    align: Align = "centre"
    valign: VAlign = "middle"
    leading: float = 1.15
    min_size: float = 4.0


def text_style(size: float, paint: Paint = BLACK, **options: Any) -> TextStyle:
    """A :class:`TextStyle` of ``size`` pt in ``paint``, centred, never set below 6 pt (the
    smallest a kit prints) unless ``min_size`` says otherwise; ``options`` set the rest.

    >>> text_style(8, align="left").min_size
    6.0
    """
    return TextStyle(
        options.pop("font", "regular"),
        size,
        paint,
        options.pop("align", "centre"),
        options.pop("valign", "middle"),
        options.pop("leading", 1.15),
        options.pop("min_size", 6.0),
    )


@dataclass(frozen=True, slots=True)
class TextLine:
    """One set line: its text, left edge and baseline relative to the box's top-left, in mm."""

    text: str
    x: float
    baseline: float
    width: float


@dataclass(frozen=True, slots=True)
class TextLayout:
    """A text set inside a box: the size chosen, the lines, and the extent they occupy."""

    size: float
    lines: tuple[TextLine, ...]
    width: float
    height: float
    readable: bool
    """False when the text had to go below the style's ``min_size`` to fit."""


def layout_text(
    text: str, box_width: float, box_height: float, style: TextStyle, fonts: FontSet
) -> TextLayout:
    """Set ``text`` in a ``box_width`` × ``box_height`` mm box: wrap at spaces and ``\\n``,
    shrink from ``style.size`` until it fits. The result never extends beyond the box."""
    # Rounded down (never up) to share the cache between near-equal boxes and stay inside.
    return _layout_cached(
        text, math.floor(box_width * 1e4) / 1e4, math.floor(box_height * 1e4) / 1e4, style, fonts
    )


@functools.lru_cache(maxsize=8192)
def _layout_cached(
    text: str, box_width: float, box_height: float, style: TextStyle, fonts: FontSet
) -> TextLayout:
    if not text.strip() or box_width <= 0 or box_height <= 0:
        return TextLayout(style.size, (), 0.0, 0.0, True)
    best = _try_size(text, style.size, box_width, box_height, style, fonts)
    if best is None:
        low, high = ABSOLUTE_MIN_SIZE, style.size
        if _try_size(text, low, box_width, box_height, style, fonts) is None:
            return _truncated(text, box_width, box_height, style, fonts)
        for _ in range(10):
            mid = (low + high) / 2
            if _try_size(text, mid, box_width, box_height, style, fonts) is None:
                high = mid
            else:
                low = mid
        size = round(low, 3)
        best = _try_size(text, size, box_width, box_height, style, fonts)
        while best is None:  # rounding can tip a size over the edge: step down until it fits
            size = round(size * 0.99, 3)
            best = _try_size(text, size, box_width, box_height, style, fonts)
    return _placed(best, box_width, box_height, style, fonts)


def _line_metrics(size: float, leading: float, n: int) -> tuple[float, float]:
    """(first baseline from the top, total height) for ``n`` lines, in mm."""
    em = size * PT
    return LINE_ASCENT * em, (LINE_ASCENT + LINE_DESCENT) * em + (n - 1) * leading * em


def _try_size(
    text: str, size: float, box_width: float, box_height: float, style: TextStyle, fonts: FontSet
) -> tuple[float, list[tuple[str, float]]] | None:
    lines = _wrap(text, size, box_width, style.font, fonts, break_words=size <= style.min_size)
    if lines is None:
        return None
    _, height = _line_metrics(size, style.leading, len(lines))
    if height > box_height + 1e-9:
        return None
    return size, lines


def _wrap(
    text: str, size: float, width: float, font: str, fonts: FontSet, *, break_words: bool
) -> list[tuple[str, float]] | None:
    """Greedy line breaking; ``None`` when a word is wider than the box (unless words may be
    broken, which only happens at sizes below the readable minimum)."""
    out: list[tuple[str, float]] = []
    space = fonts.width(font, " ", size)
    for paragraph in text.split("\n"):
        words = paragraph.split()
        if not words:
            out.append(("", 0.0))
            continue
        current: list[str] = []
        current_width = 0.0
        for word in words:
            w = fonts.width(font, word, size)
            if w > width:
                if not break_words:
                    return None
                pieces = _break_word(word, size, width, font, fonts)
                if pieces is None:
                    return None
                if current:
                    out.append((" ".join(current), current_width))
                    current, current_width = [], 0.0
                out.extend(pieces[:-1])
                current, current_width = [pieces[-1][0]], pieces[-1][1]
                continue
            extra = w if not current else current_width + space + w
            if current and extra > width:
                out.append((" ".join(current), current_width))
                current, current_width = [word], w
            else:
                current.append(word)
                current_width = extra
        out.append((" ".join(current), current_width))
    return out


def _break_word(
    word: str, size: float, width: float, font: str, fonts: FontSet
) -> list[tuple[str, float]] | None:
    pieces: list[tuple[str, float]] = []
    current = ""
    for ch in word:
        candidate = current + ch
        if current and fonts.width(font, candidate, size) > width:
            pieces.append((current, fonts.width(font, current, size)))
            current = ch
        else:
            current = candidate
    w = fonts.width(font, current, size)
    if w > width:
        return None
    pieces.append((current, w))
    return pieces


def _truncated(
    text: str, box_width: float, box_height: float, style: TextStyle, fonts: FontSet
) -> TextLayout:
    """The last resort for a box too small for the whole text: as many lines as fit, the last
    one ending in an ellipsis, at the absolute minimum size (or nothing at all)."""
    size = ABSOLUTE_MIN_SIZE
    lines = _wrap(text, size, box_width, style.font, fonts, break_words=True) or []
    em = size * PT
    fit = 0
    while fit < len(lines) and _line_metrics(size, style.leading, fit + 1)[1] <= box_height:
        fit += 1
    kept = lines[:fit]
    if kept and fit < len(lines):
        last = kept[-1][0]
        while last and fonts.width(style.font, last + "…", size) > box_width:
            last = last[:-1]
        kept[-1] = (last + "…", fonts.width(style.font, last + "…", size))
    if not kept or em <= 0:
        return TextLayout(size, (), 0.0, 0.0, False)
    return _placed((size, kept), box_width, box_height, style, fonts)


def _placed(
    fitted: tuple[float, list[tuple[str, float]]],
    box_width: float,
    box_height: float,
    style: TextStyle,
    fonts: FontSet,
) -> TextLayout:
    size, lines = fitted
    first, height = _line_metrics(size, style.leading, len(lines))
    if style.valign == "top":
        top = 0.0
    elif style.valign == "bottom":
        top = box_height - height
    else:
        top = (box_height - height) / 2
    step = style.leading * size * PT
    placed: list[TextLine] = []
    for i, (line, width) in enumerate(lines):
        if style.align == "left":
            x = 0.0
        elif style.align == "right":
            x = box_width - width
        else:
            x = (box_width - width) / 2
        placed.append(TextLine(line, x, top + first + i * step, width))
    widest = max((w for _, w in lines), default=0.0)
    return TextLayout(size, tuple(placed), widest, height, size >= style.min_size - 1e-9)
