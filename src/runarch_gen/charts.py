"""Small PNG charts drawn with Pillow: histograms of one or more samples, and bar charts with
error bars. Game-agnostic; simulation reports use them for ``--plots``.

Each function is pure: data in, PNG bytes out. Pillow is imported inside, so importing this
module costs nothing.

>>> png = histogram_png({"white": [3, 4, 4, 5], "black": [2, 4, 6, 6]}, title="Scores",
...                     x_label="points")
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
>>> bar_chart_png([Bar("first", 0.55, 0.5, 0.6)], title="Wins", y_label="rate")[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL.ImageFont import FreeTypeFont, ImageFont

__all__ = ["SERIES_COLOURS", "Bar", "bar_chart_png", "histogram_png", "nice_ticks"]

# Okabe–Ito: distinguishable with every common colour-vision deficiency.
SERIES_COLOURS: tuple[tuple[int, int, int], ...] = (
    (0, 114, 178),
    (230, 159, 0),
    (0, 158, 115),
    (204, 121, 167),
    (86, 180, 233),
    (213, 94, 0),
    (240, 228, 66),
)
INK = (40, 40, 40)
GRID = (225, 225, 225)
PAPER = (255, 255, 255)
_SCALE = 2  # drawn at twice the size and scaled down, for smooth text and lines


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar: its label, value, and optionally an interval drawn as an error bar."""

    label: str
    value: float
    low: float | None = None
    high: float | None = None


def nice_ticks(low: float, high: float, count: int = 6) -> list[float]:
    """Round tick values covering ``low``–``high``: steps of 1, 2 or 5 times a power of ten.

    >>> nice_ticks(0, 97)
    [0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
    >>> nice_ticks(0, 1)
    [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    """
    if high <= low:
        high = low + 1
    raw = (high - low) / max(1, count - 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step)
    ticks = []
    k = 0
    while (first + k) * step < high + step * 0.999:
        ticks.append(round(float((first + k) * step), 10))
        k += 1
    return ticks


def _font(size: int) -> FreeTypeFont | ImageFont:
    from PIL import ImageFont

    try:
        import font_source_sans_pro

        path = font_source_sans_pro.font_files_ttf.get("SourceSansProSemibold")
        if path:
            return ImageFont.truetype(path, size)
    except (ImportError, OSError):
        pass
    return ImageFont.load_default(size)


def _label(value: float, percent: bool) -> str:
    if percent:
        return f"{100 * value:.0f} %"
    return f"{value:.0f}" if abs(value - round(value)) < 1e-9 else f"{value:g}"


class _Canvas:
    """A white image with a plot area, axes, a title and tick labels."""

    def __init__(self, width: int, height: int, title: str) -> None:
        from PIL import Image, ImageDraw

        s = _SCALE
        self.image = Image.new("RGB", (width * s, height * s), PAPER)
        self.draw: ImageDraw.ImageDraw = ImageDraw.Draw(self.image)
        self.font = _font(15 * s)
        self.small = _font(13 * s)
        self.title_font = _font(20 * s)
        self.left, self.right = 80 * s, (width - 30) * s
        self.top, self.bottom = 84 * s, (height - 70) * s
        self.draw.text((20 * s, 14 * s), title, fill=INK, font=self.title_font)

    def y_axis(self, ticks: Sequence[float], label: str, percent: bool = False) -> None:
        s = _SCALE
        for tick in ticks:
            y = self.y(tick, ticks)
            self.draw.line([(self.left, y), (self.right, y)], fill=GRID, width=s)
            text = _label(tick, percent)
            w = self.draw.textlength(text, font=self.small)
            self.draw.text((self.left - w - 8 * s, y - 8 * s), text, fill=INK, font=self.small)
        self.draw.text((20 * s, self.top - 34 * s), label, fill=INK, font=self.font)
        self.draw.line([(self.left, self.top), (self.left, self.bottom)], fill=INK, width=s)
        self.draw.line([(self.left, self.bottom), (self.right, self.bottom)], fill=INK, width=s)

    def y(self, value: float, ticks: Sequence[float]) -> float:
        low, high = ticks[0], ticks[-1]
        return self.bottom - (value - low) / (high - low) * (self.bottom - self.top)

    def legend(self, names: Sequence[str]) -> None:
        s = _SCALE
        x = float(self.right)
        for i in reversed(range(len(names))):
            text = names[i]
            w = self.draw.textlength(text, font=self.small)
            x -= w + 34 * s
            colour = SERIES_COLOURS[i % len(SERIES_COLOURS)]
            self.draw.rectangle([x, 52 * s, x + 14 * s, 66 * s], fill=colour)
            self.draw.text((x + 20 * s, 50 * s), text, fill=INK, font=self.small)

    def png(self) -> bytes:
        from PIL import Image

        width, height = self.image.size
        small = self.image.resize((width // _SCALE, height // _SCALE), Image.Resampling.LANCZOS)
        out = io.BytesIO()
        small.save(out, format="PNG", optimize=True)
        return out.getvalue()


def histogram_png(
    series: Mapping[str, Sequence[float]],
    *,
    title: str,
    x_label: str,
    y_label: str = "games",
    bin_width: float | None = None,
    width: int = 900,
    height: int = 520,
) -> bytes:
    """A histogram of each sample in ``series`` (name → values), the samples' bars side by side
    in each bin. ``bin_width`` defaults to a round width giving about 25 bins."""
    values = [v for sample in series.values() for v in sample]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    if bin_width is None:
        span = max(1.0, high - low)
        bin_width = max(1.0, nice_ticks(0, span / 25, 2)[1])
    start = math.floor(low / bin_width) * bin_width
    bins = max(1, math.floor((high - start) / bin_width) + 1)
    counts = {
        name: [
            sum(1 for v in sample if start + k * bin_width <= v < start + (k + 1) * bin_width)
            for k in range(bins)
        ]
        for name, sample in series.items()
    }
    top = max((c for row in counts.values() for c in row), default=1)
    canvas = _Canvas(width, height, title)
    y_ticks = nice_ticks(0, max(1, top))
    canvas.y_axis(y_ticks, y_label)
    s = _SCALE
    draw = canvas.draw
    slot = (canvas.right - canvas.left) / bins
    names = list(series)
    for k in range(bins):
        x0 = canvas.left + k * slot
        inner = slot * 0.85 / max(1, len(names))
        for j, name in enumerate(names):
            count = counts[name][k]
            if not count:
                continue
            left = x0 + slot * 0.075 + j * inner
            colour = SERIES_COLOURS[j % len(SERIES_COLOURS)]
            draw.rectangle(
                [left, canvas.y(count, y_ticks), left + inner, canvas.bottom], fill=colour
            )
    x_ticks = nice_ticks(start, start + bins * bin_width, 10)
    for tick in x_ticks:
        if tick < start or tick > start + bins * bin_width:
            continue
        x = canvas.left + (tick - start) / bin_width * slot
        draw.line([(x, canvas.bottom), (x, canvas.bottom + 6 * s)], fill=INK, width=s)
        text = _label(tick, False)
        w = draw.textlength(text, font=canvas.small)
        draw.text((x - w / 2, canvas.bottom + 9 * s), text, fill=INK, font=canvas.small)
    w = draw.textlength(x_label, font=canvas.font)
    draw.text(
        ((canvas.left + canvas.right) / 2 - w / 2, canvas.bottom + 34 * s),
        x_label,
        fill=INK,
        font=canvas.font,
    )
    if len(names) > 1:
        canvas.legend(names)
    return canvas.png()


def bar_chart_png(
    bars: Sequence[Bar],
    *,
    title: str,
    y_label: str,
    y_max: float | None = None,
    percent: bool = False,
    reference: float | None = None,
    width: int = 900,
    height: int = 520,
) -> bytes:
    """Bars with their labels below and, where given, error bars from ``low`` to ``high``;
    ``reference`` draws a dashed line (e.g. 50 % for a fair game); ``percent`` labels the
    axis in per cent of 1."""
    tops = [b.high if b.high is not None else b.value for b in bars] + [reference or 0]
    high = y_max if y_max is not None else max([*tops, 1e-09])
    low = min([0.0] + [b.value for b in bars])
    canvas = _Canvas(width, height, title)
    ticks = nice_ticks(low, high)
    canvas.y_axis(ticks, y_label, percent)
    s = _SCALE
    draw = canvas.draw
    slot = (canvas.right - canvas.left) / max(1, len(bars))
    for k, bar in enumerate(bars):
        x0 = canvas.left + k * slot + slot * 0.2
        x1 = canvas.left + (k + 1) * slot - slot * 0.2
        colour = SERIES_COLOURS[k % len(SERIES_COLOURS)]
        y0, y1 = canvas.y(bar.value, ticks), canvas.y(0, ticks)
        draw.rectangle([x0, min(y0, y1), x1, max(y0, y1)], fill=colour)
        if bar.low is not None and bar.high is not None:
            mid = (x0 + x1) / 2
            lo, hi = canvas.y(bar.low, ticks), canvas.y(bar.high, ticks)
            draw.line([(mid, lo), (mid, hi)], fill=INK, width=2 * s)
            for y in (lo, hi):
                draw.line([(mid - 10 * s, y), (mid + 10 * s, y)], fill=INK, width=2 * s)
        text = bar.label
        w = draw.textlength(text, font=canvas.small)
        draw.text(((x0 + x1) / 2 - w / 2, canvas.bottom + 9 * s), text, fill=INK, font=canvas.small)
        value = _label(bar.value, percent) if percent else f"{bar.value:.3g}"
        above = min(y0, y1)
        if bar.high is not None:
            above = min(above, canvas.y(bar.high, ticks))
        w = draw.textlength(value, font=canvas.small)
        draw.text(((x0 + x1) / 2 - w / 2, above - 22 * s), value, fill=INK, font=canvas.small)
    if reference is not None:
        y = canvas.y(reference, ticks)
        x = canvas.left
        while x < canvas.right:
            draw.line([(x, y), (min(x + 12 * s, canvas.right), y)], fill=INK, width=s)
            x += 20 * s
    return canvas.png()
