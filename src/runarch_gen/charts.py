"""Charts drawn with matplotlib, as PNG or SVG bytes: histograms of samples, bar charts with
error bars, lines with confidence bands, and heatmaps over two parameters. Game-agnostic;
simulation reports, the lab's sweeps and the web pages use them.

Each function is pure: data in, bytes out, the same bytes for the same data (no dates or
random ids in the files). matplotlib is imported inside, with its non-interactive Agg backend,
so importing this module costs nothing. Colours are the Okabe–Ito palette, which stays
distinguishable with every common colour-vision deficiency; the font (matplotlib's DejaVu Sans)
covers Czech.

>>> png = histogram({"white": [3, 4, 4, 5], "black": [2, 4, 6, 6]}, title="Scores",
...                 x_label="points")
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
>>> svg = bar_chart([Bar("first", 0.55, 0.5, 0.6)], title="Wins", y_label="rate", fmt="svg")
>>> svg.startswith(b"<?xml") and b"first" in svg
True
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "SERIES_COLOURS",
    "Bar",
    "Point",
    "bar_chart",
    "heatmap",
    "histogram",
    "line_chart",
]

Format = Literal["png", "svg"]

SERIES_COLOURS: tuple[str, ...] = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#F0E442",
)
"""Okabe–Ito, in the order series take them."""
INK = "#282828"
GRID = "#E1E1E1"
SIZE = (8.0, 4.5)  # inches: 1200 × 675 pixels at 150 dpi
DPI = 150


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar: its label, value, and optionally an interval drawn as an error bar."""

    label: str
    value: float
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True, slots=True)
class Point:
    """One point of a line: x, y and optionally a confidence interval (a band)."""

    x: float
    y: float
    low: float | None = None
    high: float | None = None


def _figure() -> tuple[Figure, Axes]:
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    figure = Figure(figsize=SIZE, dpi=DPI, layout="constrained")
    axes = figure.add_subplot()
    axes.set_facecolor("white")
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    axes.tick_params(colors=INK)
    axes.grid(True, color=GRID, linewidth=0.8)
    axes.set_axisbelow(True)
    return figure, axes


def _bytes(figure: Figure, fmt: Format) -> bytes:
    import matplotlib

    buffer = io.BytesIO()
    # No dates, software versions or random ids: the same data gives the same file.
    metadata: dict[str, Any] = {"Software": None}
    if fmt == "svg":
        metadata = {"Date": None, "Creator": None}
    with matplotlib.rc_context({"svg.hashsalt": "runarch-gen", "svg.fonttype": "none"}):
        figure.savefig(buffer, format=fmt, dpi=DPI, metadata=metadata, facecolor="white")
    return buffer.getvalue()


def _title(axes: Axes, title: str) -> None:
    axes.set_title(title, color=INK, fontsize=11, loc="left")


def histogram(
    series: Mapping[str, Sequence[float]],
    *,
    title: str,
    x_label: str,
    fmt: Format = "png",
) -> bytes:
    """Overlaid histograms of one or more samples on shared bins (whole numbers get a bin
    each while there are few of them)."""
    figure, axes = _figure()
    values = [v for sample in series.values() for v in sample]
    if values:
        low, high = min(values), max(values)
        whole = all(float(v).is_integer() for v in values)
        if whole and high - low <= 60:
            bins: Any = [x - 0.5 for x in range(int(low), int(high) + 2)]
        else:
            bins = 30 if high > low else 1
        for index, (name, sample) in enumerate(series.items()):
            axes.hist(
                list(sample),
                bins=bins,
                alpha=0.55 if len(series) > 1 else 0.9,
                color=SERIES_COLOURS[index % len(SERIES_COLOURS)],
                label=f"{name} (n = {len(sample)})",
            )
        if len(series) > 1 or series:
            axes.legend(frameon=False)
    axes.set_xlabel(x_label, color=INK)
    axes.set_ylabel("games", color=INK)
    _title(axes, title)
    return _bytes(figure, fmt)


def bar_chart(
    bars: Sequence[Bar],
    *,
    title: str,
    y_label: str,
    y_max: float | None = None,
    percent: bool = False,
    reference: float | None = None,
    fmt: Format = "png",
) -> bytes:
    """Bars with their intervals as error bars; ``reference`` draws a dashed line (e.g. one
    half for a fair share); ``percent`` labels the axis in per cent."""
    figure, axes = _figure()
    xs = list(range(len(bars)))
    errors = [
        [(b.value - b.low) if b.low is not None else 0.0 for b in bars],
        [(b.high - b.value) if b.high is not None else 0.0 for b in bars],
    ]
    axes.bar(
        xs,
        [b.value for b in bars],
        color=[SERIES_COLOURS[i % len(SERIES_COLOURS)] for i in xs],
        yerr=errors,
        capsize=6,
        ecolor=INK,
        width=0.6,
    )
    axes.set_xticks(xs, [b.label for b in bars])
    if y_max is not None:
        axes.set_ylim(0, y_max)
    if reference is not None:
        axes.axhline(reference, color=INK, linestyle="--", linewidth=1)
    if percent:
        from matplotlib.ticker import PercentFormatter

        axes.yaxis.set_major_formatter(PercentFormatter(1.0))
    axes.set_ylabel(y_label, color=INK)
    _title(axes, title)
    return _bytes(figure, fmt)


def line_chart(
    series: Mapping[str, Sequence[Point]],
    *,
    title: str,
    x_label: str,
    y_label: str,
    percent: bool = False,
    reference: float | None = None,
    x_ticks: Sequence[str] | None = None,
    fmt: Format = "png",
) -> bytes:
    """One line per series over a parameter, with its confidence band where points have
    intervals; ``x_ticks`` labels the points 0, 1, 2 … (a parameter's values that are not
    numbers)."""
    figure, axes = _figure()
    for index, (name, points) in enumerate(series.items()):
        colour = SERIES_COLOURS[index % len(SERIES_COLOURS)]
        ordered = sorted(points, key=lambda p: p.x)
        xs = [p.x for p in ordered]
        axes.plot(xs, [p.y for p in ordered], marker="o", color=colour, label=name)
        lows = [p.low for p in ordered if p.low is not None]
        highs = [p.high for p in ordered if p.high is not None]
        if ordered and len(lows) == len(highs) == len(ordered):
            axes.fill_between(xs, lows, highs, color=colour, alpha=0.2, linewidth=0)
    if reference is not None:
        axes.axhline(reference, color=INK, linestyle="--", linewidth=1)
    if percent:
        from matplotlib.ticker import PercentFormatter

        axes.yaxis.set_major_formatter(PercentFormatter(1.0))
    if x_ticks is not None:
        axes.set_xticks(range(len(x_ticks)), list(x_ticks))
    if len(series) > 1:
        axes.legend(frameon=False)
    axes.set_xlabel(x_label, color=INK)
    axes.set_ylabel(y_label, color=INK)
    _title(axes, title)
    return _bytes(figure, fmt)


def heatmap(
    values: Sequence[Sequence[float | None]],
    *,
    x_labels: Sequence[str],
    y_labels: Sequence[str],
    title: str,
    x_label: str,
    y_label: str,
    value_label: str,
    percent: bool = False,
    fmt: Format = "png",
) -> bytes:
    """A grid of values over two parameters (rows: ``y_labels``, columns: ``x_labels``),
    each cell labelled with its value; ``None`` cells stay blank. The colour map (viridis)
    reads in grey too."""
    import numpy as np

    figure, axes = _figure()
    axes.grid(False)
    grid = np.array([[np.nan if v is None else v for v in row] for row in values], dtype=float)
    image = axes.imshow(grid, cmap="viridis", aspect="auto", origin="lower")
    axes.set_xticks(range(len(x_labels)), list(x_labels))
    axes.set_yticks(range(len(y_labels)), list(y_labels))
    finite = grid[np.isfinite(grid)]
    middle = (float(finite.min()) + float(finite.max())) / 2 if finite.size else 0.0
    for row, line in enumerate(values):
        for column, value in enumerate(line):
            if value is None:
                continue
            text = f"{100 * value:.0f} %" if percent else f"{value:.3g}"
            axes.text(
                column,
                row,
                text,
                ha="center",
                va="center",
                fontsize=8,
                color="black" if value > middle else "white",
            )
    bar = figure.colorbar(image, ax=axes)
    bar.set_label(value_label, color=INK)
    if percent:
        from matplotlib.ticker import PercentFormatter

        bar.ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    axes.set_xlabel(x_label, color=INK)
    axes.set_ylabel(y_label, color=INK)
    _title(axes, title)
    return _bytes(figure, fmt)
