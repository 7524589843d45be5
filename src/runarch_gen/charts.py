"""Charts drawn with matplotlib, as PNG or SVG bytes: histograms of samples, bar charts with
error bars, lines with confidence bands, and heatmaps over two parameters — one, or a panel
per value of further parameters (small multiples on one colour scale). Game-agnostic;
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
    "Cell",
    "Panel",
    "Point",
    "bar_chart",
    "bar_figure",
    "figure_bytes",
    "heatmap",
    "heatmap_figure",
    "heatmaps",
    "histogram",
    "line_chart",
    "line_figure",
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


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell of a heatmap: its value (its label) and optionally its interval, and the
    ``shade`` its colour stands for when that is not the value (e.g. the value less a fair
    share that differs from cell to cell; the interval is then on the same footing)."""

    value: float
    low: float | None = None
    high: float | None = None
    shade: float | None = None

    @property
    def colour(self) -> float:
        return self.value if self.shade is None else self.shade


@dataclass(frozen=True, slots=True)
class Panel:
    """One panel of small multiples: its title and its cells, rows (y) × columns (x);
    ``None`` for a cell with no value."""

    title: str
    cells: Sequence[Sequence[Cell | None]]


def _figure(size: tuple[float, float] = SIZE) -> tuple[Figure, Axes]:
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    figure = Figure(figsize=size, dpi=DPI, layout="constrained")
    axes = figure.add_subplot()
    _style(axes)
    return figure, axes


def _style(axes: Axes) -> None:
    axes.set_facecolor("white")
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    axes.tick_params(colors=INK)
    axes.grid(True, color=GRID, linewidth=0.8)
    axes.set_axisbelow(True)


def _note(axes: Axes, note: str | None) -> None:
    """A remark in a box at the top of the plot (e.g. that a map is flat)."""
    if note:
        axes.text(
            0.5,
            0.98,
            note,
            transform=axes.transAxes,
            ha="center",
            va="top",
            fontsize=8,
            color=INK,
            bbox={"boxstyle": "round,pad=0.3", "facecolor": "#FFF6D5", "edgecolor": GRID},
            zorder=5,
        )


def figure_bytes(figure: Figure, fmt: Format) -> bytes:
    """A figure as PNG or SVG bytes (the same figure may be saved in both)."""
    return _bytes(figure, fmt)


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
    y_label: str = "games",
) -> bytes:
    """Overlaid histograms of one or more samples on shared bins (whole numbers get a bin
    each while there are few of them); ``y_label`` names what is counted."""
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
    axes.set_ylabel(y_label, color=INK)
    _title(axes, title)
    return _bytes(figure, fmt)


def bar_figure(
    bars: Sequence[Bar],
    *,
    title: str,
    y_label: str,
    y_max: float | None = None,
    percent: bool = False,
    reference: float | None = None,
) -> Figure:
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
    return figure


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
    """:func:`bar_figure` as PNG or SVG bytes."""
    return _bytes(
        bar_figure(
            bars, title=title, y_label=y_label, y_max=y_max, percent=percent, reference=reference
        ),
        fmt,
    )


def line_figure(
    series: Mapping[str, Sequence[Point]],
    *,
    title: str,
    x_label: str,
    y_label: str,
    percent: bool = False,
    reference: float | None = None,
    x_ticks: Sequence[str] | None = None,
    reference_label: str | None = None,
    note: str | None = None,
    x_positions: Sequence[float] | None = None,
) -> Figure:
    """One line per series over a parameter, with its confidence band where points have
    intervals; ``x_ticks`` labels the points 0, 1, 2 … (a parameter's values that are not
    numbers; or at ``x_positions``); ``reference`` draws a dashed line (named in the legend by
    ``reference_label``), ``note`` a remark in a box."""
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
        axes.axhline(reference, color=INK, linestyle="--", linewidth=1, label=reference_label)
    if percent:
        from matplotlib.ticker import PercentFormatter

        axes.yaxis.set_major_formatter(PercentFormatter(1.0))
    if x_ticks is not None:
        where = list(x_positions) if x_positions is not None else list(range(len(x_ticks)))
        axes.set_xticks(where, list(x_ticks))
    if len(series) > 1 or (reference is not None and reference_label):
        axes.legend(frameon=False)
    _note(axes, note)
    if note:
        low, high = axes.get_ylim()
        axes.set_ylim(low, high + 0.15 * (high - low))  # room for the note's box
    axes.set_xlabel(x_label, color=INK)
    axes.set_ylabel(y_label, color=INK)
    _title(axes, title)
    return figure


def line_chart(
    series: Mapping[str, Sequence[Point]],
    *,
    title: str,
    x_label: str,
    y_label: str,
    percent: bool = False,
    reference: float | None = None,
    x_ticks: Sequence[str] | None = None,
    reference_label: str | None = None,
    note: str | None = None,
    x_positions: Sequence[float] | None = None,
    fmt: Format = "png",
) -> bytes:
    """:func:`line_figure` as PNG or SVG bytes."""
    return _bytes(
        line_figure(
            series,
            title=title,
            x_label=x_label,
            y_label=y_label,
            percent=percent,
            reference=reference,
            x_ticks=x_ticks,
            reference_label=reference_label,
            note=note,
            x_positions=x_positions,
        ),
        fmt,
    )


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
    each cell labelled with its value; ``None`` cells stay blank (see :func:`heatmaps`)."""
    cells = [[None if v is None else Cell(v) for v in row] for row in values]
    return heatmaps(
        [Panel("", cells)],
        x_labels=x_labels,
        y_labels=y_labels,
        title=title,
        x_label=x_label,
        y_label=y_label,
        value_label=value_label,
        percent=percent,
        fmt=fmt,
    )


MISSING = "#EDEDED"
"""The colour of a cell with no value."""


def heatmap_figure(
    panels: Sequence[Panel],
    *,
    x_labels: Sequence[str],
    y_labels: Sequence[str],
    title: str,
    x_label: str,
    y_label: str,
    value_label: str,
    percent: bool = False,
    centre: float | None = None,
    centre_label: str | None = None,
    span: float = 0.0,
    limits: tuple[float, float] | None = None,
    note: str | None = None,
) -> Figure:
    """Heatmaps over two parameters, one panel per value of the further ones (small
    multiples), on one colour scale with one colour bar; each cell labelled with its value,
    cells with no value left grey and blank.

    With ``centre`` (a fair value) the colours diverge from it — purple below, orange above —
    and the colour bar marks it with a line (named by ``centre_label``); otherwise they run
    through viridis, which reads in grey too. The scale reaches at least ``span`` either side
    of its middle, so that differences no larger than the noise stay pale instead of being
    stretched over the whole map, and never beyond ``limits`` (default for ``percent``: 0 to
    1). A label is bold where the cell's interval excludes ``centre``. ``note`` is a remark
    shown under the title (e.g. that the map is flat).
    """
    import math

    import numpy as np
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize, TwoSlopeNorm

    finite = [
        c.colour
        for panel in panels
        for row in panel.cells
        for c in row
        if c is not None and math.isfinite(c.colour)
    ]
    bounds = limits if limits is not None else ((0.0, 1.0) if percent else None)
    norm: Normalize
    if centre is not None:
        half = max([abs(v - centre) for v in finite] + [span, 1e-9])
        low, high = centre - half, centre + half
        if bounds is not None:
            low, high = max(low, bounds[0]), min(high, bounds[1])
        norm = (
            TwoSlopeNorm(vcenter=centre, vmin=low, vmax=high)
            if low < centre < high
            else Normalize(low, high)
        )
        cmap = colormaps["PuOr_r"].with_extremes(bad=MISSING)
    else:
        lowest, highest = (min(finite), max(finite)) if finite else (0.0, 1.0)
        middle = (lowest + highest) / 2
        floor = 0.005 if percent else max(abs(middle) * 0.02, 1e-6)
        half = max((highest - lowest) / 2, span, floor)
        low, high = middle - half, middle + half
        if bounds is not None and low < bounds[0]:
            low, high = bounds[0], high + (bounds[0] - low)
        if bounds is not None and high > bounds[1]:
            low, high = max(bounds[0], low - (high - bounds[1])), bounds[1]
        norm = Normalize(low, high)
        cmap = colormaps["viridis"].with_extremes(bad=MISSING)

    columns_x, rows_y = max(len(x_labels), 1), max(len(y_labels), 1)
    count = max(len(panels), 1)
    panel_width = 0.55 * columns_x + 1.3
    panel_height = 0.38 * rows_y + 1.1
    across = 1 if count == 1 else max(1, min(count, int(13 // panel_width) or 1))
    down = math.ceil(count / across)
    size = (
        max(SIZE[0], across * panel_width + 1.6),
        max(SIZE[1], down * panel_height + 1.2 + (0.3 if note else 0)),
    )
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    figure = Figure(figsize=size, dpi=DPI, layout="constrained")
    grid = figure.subplots(down, across, squeeze=False)
    axes_used = []
    rotate = columns_x > 3 and max((len(x) for x in x_labels), default=0) > 5
    for index, panel in enumerate(panels):
        axes = grid[index // across][index % across]
        axes_used.append(axes)
        values = np.array(
            [[np.nan if c is None else c.colour for c in row] for row in panel.cells],
            dtype=float,
        )
        axes.imshow(values, cmap=cmap, norm=norm, aspect="auto", origin="lower")
        axes.set_xticks(range(len(x_labels)), list(x_labels), rotation=30 if rotate else 0)
        axes.set_yticks(range(len(y_labels)), list(y_labels))
        axes.tick_params(colors=INK, labelsize=8 if count > 1 else 10)
        for side in ("top", "right"):
            axes.spines[side].set_visible(False)
        for row, line in enumerate(panel.cells):
            for column, cell in enumerate(line):
                if cell is None or not math.isfinite(cell.value):
                    continue
                text = f"{100 * cell.value:.0f} %" if percent else f"{cell.value:.3g}"
                red, green, blue, _ = cmap(norm(cell.colour))
                dark = 0.299 * red + 0.587 * green + 0.114 * blue < 0.5
                beyond = (
                    centre is not None
                    and cell.low is not None
                    and cell.high is not None
                    and not cell.low <= centre <= cell.high
                )
                axes.text(
                    column,
                    row,
                    text,
                    ha="center",
                    va="center",
                    fontsize=8 if count == 1 else 7,
                    fontweight="bold" if beyond else "normal",
                    color="white" if dark else "black",
                )
        if count > 1:
            axes.set_title(panel.title, color=INK, fontsize=9)
            if index % across == 0:
                axes.set_ylabel(y_label, color=INK, fontsize=8)
            if index // across == down - 1 or index + across >= count:
                axes.set_xlabel(x_label, color=INK, fontsize=8)
        else:
            axes.set_xlabel(x_label, color=INK)
            axes.set_ylabel(y_label, color=INK)
    for index in range(count, down * across):
        grid[index // across][index % across].set_visible(False)
    bar = figure.colorbar(ScalarMappable(norm=norm, cmap=cmap), ax=axes_used, shrink=0.9)
    label = value_label
    if centre is not None:
        bar.ax.axhline(centre, color=INK, linewidth=1.5)
        if centre_label:
            label = f"{value_label} (line: {centre_label})"
    bar.set_label(label, color=INK)
    if percent:
        from matplotlib.ticker import PercentFormatter

        bar.ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    if count == 1:
        _title(grid[0][0], f"{title}\n{note}" if note else title)
    else:
        heading = f"{title}\n{note}" if note else title
        figure.suptitle(heading, color=INK, fontsize=11, x=0.01, ha="left")
    return figure


def heatmaps(
    panels: Sequence[Panel],
    *,
    x_labels: Sequence[str],
    y_labels: Sequence[str],
    title: str,
    x_label: str,
    y_label: str,
    value_label: str,
    percent: bool = False,
    centre: float | None = None,
    centre_label: str | None = None,
    span: float = 0.0,
    limits: tuple[float, float] | None = None,
    note: str | None = None,
    fmt: Format = "png",
) -> bytes:
    """:func:`heatmap_figure` as PNG or SVG bytes."""
    return _bytes(
        heatmap_figure(
            panels,
            x_labels=x_labels,
            y_labels=y_labels,
            title=title,
            x_label=x_label,
            y_label=y_label,
            value_label=value_label,
            percent=percent,
            centre=centre,
            centre_label=centre_label,
            span=span,
            limits=limits,
            note=note,
        ),
        fmt,
    )
