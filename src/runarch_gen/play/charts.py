"""Charts of simulated games, for any game (``simulate --plots DIR``).

One function per chart over played games (:class:`~.report.PlayedGame`), drawing by
:mod:`runarch_gen.charts`; :func:`report_charts` makes the set of a :class:`~.report.PlayReport`
and :func:`write_charts` writes a set into a folder, each file through a temporary file:

- ``scores``: final scores, one histogram per bot (per seat when one bot plays every seat);
- ``length``: game length in the game's unit;
- ``first-player``: how often the first player and the others won, with 95 % intervals;
- ``wins``: each bot's (or seat's) win rate with its 95 % interval;
- ``endings``: how often each end condition fired (stalls included).

:func:`sweep_charts` draws a rule sweep's figures over its varying parameters: a line over one,
a heatmap over two, and small multiples — a heatmap per value of every further parameter, bots
included — on one colour scale.
"""

from __future__ import annotations

import math
import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from runarch_gen.charts import (
    Bar,
    Cell,
    Format,
    Panel,
    Point,
    bar_chart,
    bar_figure,
    figure_bytes,
    heatmap_figure,
    histogram,
    line_figure,
)
from runarch_gen.errors import OutputError
from runarch_gen.play import report
from runarch_gen.play.report import PlayedGame, PlayReport
from runarch_gen.play.stats import proportion
from runarch_gen.play.sweep_columns import Column, Figure
from runarch_gen.play.words import games_cs, named, word
from runarch_gen.play.words import unit as unit_in

if TYPE_CHECKING:
    from matplotlib.figure import Figure as MplFigure

__all__ = [
    "CHART_NAMES",
    "endings_chart",
    "first_player_chart",
    "length_chart",
    "report_charts",
    "scores_chart",
    "sweep_charts",
    "wins_chart",
    "write_charts",
]

CHART_NAMES = ("scores", "length", "first-player", "wins", "endings")


def scores_chart(
    games: Sequence[PlayedGame],
    sides: Sequence[str],
    subtitle: str,
    fmt: Format = "png",
    lang: str = "en",
) -> bytes:
    series: dict[str, list[float]] = {}
    by_bot = len({name for g in games for name in g.bots}) > 1
    for g in games:
        for side in range(len(sides)):
            key = g.bots[side] if by_bot else sides[side]
            series.setdefault(key, []).append(g.totals[side])
    return histogram(
        dict(sorted(series.items())),
        title=word(lang, "chart_scores", subtitle=subtitle),
        x_label=word(lang, "final_score_axis"),
        fmt=fmt,
        y_label=word(lang, "games_axis"),
    )


def length_chart(
    lengths: Sequence[float], unit: str, subtitle: str, fmt: Format = "png", lang: str = "en"
) -> bytes:
    shown = unit_in(lang, unit)
    return histogram(
        {shown: list(lengths)},
        title=word(lang, "chart_length", subtitle=subtitle),
        x_label=shown,
        fmt=fmt,
        y_label=word(lang, "games_axis"),
    )


def first_player_chart(
    games: Sequence[PlayedGame], sides: int, subtitle: str, fmt: Format = "png", lang: str = "en"
) -> bytes:
    first = report.first_player(games, sides)
    others = proportion(first["second_wins"], len(games))
    bars = [
        Bar(word(lang, "first_won"), first["rate"].rate, first["rate"].low, first["rate"].high),
        Bar(
            word(lang, "second_won" if sides == 2 else "another_won"),
            others.rate,
            others.low,
            others.high,
        ),
    ]
    if first["shared"]:
        share = proportion(first["shared"], len(games))
        bars.append(Bar(word(lang, "shared_or_none"), share.rate, share.low, share.high))
    return bar_chart(
        bars,
        title=word(lang, "chart_first", subtitle=subtitle),
        y_label=word(lang, "share_of_games"),
        y_max=1.0,
        percent=True,
        reference=1 / max(sides, 1),
        fmt=fmt,
    )


def wins_chart(
    games: Sequence[PlayedGame],
    sides: Sequence[str],
    subtitle: str,
    fmt: Format = "png",
    lang: str = "en",
) -> bytes:
    bars = [
        Bar(name, row["win_rate"].rate, row["win_rate"].low, row["win_rate"].high)
        for name, row in report.wins_by_bot(games).items()
    ]
    if len(bars) < 2:
        bars = [
            Bar(word(lang, "seat", name=name), rate.rate, rate.low, rate.high)
            for name, rate in report.wins_by_seat(games, sides).items()
        ]
    return bar_chart(
        bars,
        title=word(lang, "chart_wins", subtitle=subtitle),
        y_label=word(lang, "win_rate"),
        y_max=1.0,
        percent=True,
        reference=1 / max(len(sides), 1),
        fmt=fmt,
    )


def endings_chart(
    games: Sequence[PlayedGame], subtitle: str, fmt: Format = "png", lang: str = "en"
) -> bytes:
    bars = []
    for name, count in report.endings(games).items():
        rate = proportion(count, len(games))
        bars.append(Bar(name, rate.rate, rate.low, rate.high))
    return bar_chart(
        bars,
        title=word(lang, "chart_endings", subtitle=subtitle),
        y_label=word(lang, "share_of_games"),
        y_max=1.0,
        percent=True,
        fmt=fmt,
    )


def report_charts(
    play: PlayReport, fmt: Format = "png", lang: str = "en", title: str | None = None
) -> dict[str, bytes]:
    """Every chart of a :class:`PlayReport` by file name (``scores.png`` …): titles and labels
    in ``lang`` (en, cs), the game named by ``title`` if given."""
    games_text: object = games_cs(play.games) if lang == "cs" else f"{play.games} games"
    subtitle = word(
        lang,
        "chart_subtitle",
        game=named(play.game, title),
        games=games_text,
        bots=", ".join(play.bots),
    )
    games = play.results
    length = [g.length for g in games]
    return {
        f"scores.{fmt}": scores_chart(games, play.sides, subtitle, fmt, lang),
        f"length.{fmt}": length_chart(length, play.length_unit, subtitle, fmt, lang),
        f"first-player.{fmt}": first_player_chart(games, len(play.sides), subtitle, fmt, lang),
        f"wins.{fmt}": wins_chart(games, play.sides, subtitle, fmt, lang),
        f"endings.{fmt}": endings_chart(games, subtitle, fmt, lang),
    }


def check_chart_folder(directory: str | os.PathLike[str]) -> Path:
    """Make sure charts can be written into ``directory`` before any game is played: made if
    missing, refused with one line when it is a file or cannot be written."""
    folder = Path(directory)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        why = exc.strerror or exc
        raise OutputError(f"{folder}: cannot make the charts folder: {why}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{folder}: cannot write charts into this folder")
    return folder


def write_charts(charts: Mapping[str, bytes], directory: str | os.PathLike[str]) -> list[Path]:
    """Write ``charts`` (file name → bytes) into ``directory`` (made if missing; other files in
    it are left alone) as one set: all are written into a temporary folder inside it first and
    moved into place only when every one is written, so a failure leaves no partial set."""
    folder = check_chart_folder(directory)
    tmp = Path(tempfile.mkdtemp(prefix=".charts.", suffix=".tmp", dir=folder))
    try:
        for name, data in charts.items():
            (tmp / name).write_bytes(data)
        written = []
        for name in charts:
            os.replace(tmp / name, folder / name)
            written.append(folder / name)
    except OSError as exc:
        raise OutputError(f"{folder}: cannot write charts: {exc.strerror or exc}") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return written


# ---------------------------------------------------------------------------------------------
# Rule sweeps


def sweep_charts(
    dimensions: Sequence[str],
    coordinates: Sequence[Mapping[str, str]],
    figures: Sequence[Mapping[str, Figure]],
    columns: Sequence[Column],
    *,
    title: str,
    formats: Sequence[Format] = ("png", "svg"),
) -> dict[str, bytes]:
    """A chart of every charted column of a sweep, by file name (``stall_rate.png`` …).

    ``dimensions`` are the names that vary from point to point, ``coordinates`` each point's
    value of each, ``figures`` each point's figures by column name. No dimension: a bar per
    column. One: a line over it, with the 95 % band. Two or more: heatmaps over the two with
    the most values, one panel per combination of the others, on one colour scale. Rates with
    a fair value are coloured away from it, the fair share drawn; a column whose points all
    agree within their intervals says so on its chart and keeps its colours pale.
    """
    out: dict[str, bytes] = {}
    values = {d: list(dict.fromkeys(c[d] for c in coordinates)) for d in dimensions}
    if not dimensions and figures:  # one point: its rates side by side
        rates = [f for f in figures[0].values() if f.column.kind == "rate"]
        fair = {f.column.fair for f in rates if f.column.fair is not None}
        chart = bar_figure(
            [Bar(f.column.label, f.value, f.low, f.high) for f in rates],
            title=f"rates (95 % intervals) — {title}",
            y_label="share of games",
            y_max=1.0,
            percent=True,
            reference=fair.pop() if len(fair) == 1 else None,
        )
        for fmt in formats:
            out[f"rates.{fmt}"] = figure_bytes(chart, fmt)
    for column in columns:
        if not column.charted or (not dimensions and column.kind == "rate"):
            continue
        present = [
            (c, f[column.name])
            for c, f in zip(coordinates, figures, strict=True)
            if column.name in f
        ]
        if not present:
            continue
        # A figure some points lack (a bot's wins where it plays) is drawn over the names
        # that still vary where it is; those it is found at one value of are named instead.
        only = {d: present[0][0][d] for d in dimensions if len({c[d] for c, _ in present}) == 1}
        axes = [d for d in dimensions if d not in only or len(values[d]) == 1]
        where = "".join(f", {d}={v}" for d, v in only.items() if d not in axes)
        heading = f"{column.title} — {title}{where}"
        kept = {d: [v for v in values[d] if any(c[d] == v for c, _ in present)] for d in axes}
        note = flat_note([f for _, f in present])
        if not axes:
            figure = _bars(column, [f for _, f in present], heading)
        elif len(axes) == 1:
            figure = _line(column, axes[0], kept[axes[0]], present, heading, note)
        else:
            figure = _maps(column, axes, kept, present, heading, note)
        for fmt in formats:  # one figure, laid out once, saved in each format
            out[f"{column.name}.{fmt}"] = figure_bytes(figure, fmt)
            figure.set_layout_engine("none")
    return out


def flat_note(figures: Sequence[Figure]) -> str | None:
    """What to say when a column does not change beyond chance over the points: every value
    the same, or every point's 95 % interval holding one common range; else ``None``."""
    if len(figures) < 2:
        return None
    if len({f.value for f in figures}) == 1:
        return f"flat: every point {figures[0].text()}"
    if any(f.low is None or f.high is None for f in figures):
        return None
    low = max(f.low for f in figures if f.low is not None)
    high = min(f.high for f in figures if f.high is not None)
    if low > high:
        return None
    shown = Figure(figures[0].column, low, None, None).text()
    upper = Figure(figures[0].column, high, None, None).text()
    return f"flat: no point differs beyond its 95 % interval (all hold {shown}–{upper})"


def _fair_label(column: Column) -> str | None:
    if column.fair is None:
        return None
    return f"fair share {100 * column.fair:.0f} %" if column.kind == "rate" else "fair"


def _bars(column: Column, figures: Sequence[Figure], heading: str) -> MplFigure:
    bars = [Bar(column.label, f.value, f.low, f.high) for f in figures]
    percent = column.kind == "rate"
    return bar_figure(
        bars,
        title=heading,
        y_label=column.title,
        y_max=1.0 if percent else None,
        percent=percent,
        reference=column.fair,
    )


def _numeric(labels: Sequence[str]) -> list[float] | None:
    try:
        numbers = [float(x) for x in labels]
    except ValueError:
        return None
    return numbers if all(math.isfinite(x) for x in numbers) else None


def _line(
    column: Column,
    dimension: str,
    labels: Sequence[str],
    present: Sequence[tuple[Mapping[str, str], Figure]],
    heading: str,
    note: str | None,
) -> MplFigure:
    numbers = _numeric(labels)
    whole = numbers is not None and len(numbers) <= 15 and all(x.is_integer() for x in numbers)
    position = (
        dict(zip(labels, numbers, strict=True))
        if numbers is not None
        else {x: float(i) for i, x in enumerate(labels)}
    )
    points = [Point(position[c[dimension]], f.value, f.low, f.high) for c, f in present]
    series = {column.title: points}
    constant = _varying_fair(present) is None
    if not constant:  # the fair share changes along the line (with the players): drawn too
        series["fair share"] = [
            Point(position[c[dimension]], f.column.fair or 0.0) for c, f in present
        ]
    return line_figure(
        series,
        title=heading,
        x_label=dimension,
        y_label=column.title,
        percent=column.kind == "rate",
        reference=column.fair if constant else None,
        reference_label=_fair_label(column),
        # whole numbers are ticked at their values, words in the order given
        x_ticks=list(labels) if numbers is None or whole else None,
        x_positions=numbers if numbers is not None and whole else None,
        note=note,
    )


def _varying_fair(present: Sequence[tuple[Mapping[str, str], Figure]]) -> set[float] | None:
    """The fair values of a column's points when they differ (the players vary), else None."""
    fairs = {f.column.fair for _, f in present}
    if len(fairs) < 2 or None in fairs:
        return None
    return {fair for fair in fairs if fair is not None}


def _maps(
    column: Column,
    dimensions: Sequence[str],
    values: Mapping[str, Sequence[str]],
    present: Sequence[tuple[Mapping[str, str], Figure]],
    heading: str,
    note: str | None,
) -> MplFigure:
    # The two dimensions with the most values span each map (the first named on ties); every
    # other one gets a panel per value, so no dimension is ever left out. Where the fair share
    # differs from point to point (the players vary), the colours say how far each point is
    # from its own fair share; the labels stay the values.
    edge = _varying_fair(present) is not None
    ranked = sorted(dimensions, key=lambda d: (-len(values[d]), dimensions.index(d)))
    x, y = sorted(ranked[:2], key=dimensions.index)
    rest = [d for d in dimensions if d not in (x, y)]
    panels: dict[tuple[str, ...], list[list[Cell | None]]] = {}
    for coordinate, figure in present:
        key = tuple(coordinate[d] for d in rest)
        cells = panels.setdefault(key, [[None] * len(values[x]) for _ in values[y]])
        cells[values[y].index(coordinate[y])][values[x].index(coordinate[x])] = _cell(figure, edge)
    order = {d: {v: i for i, v in enumerate(values[d])} for d in rest}
    keys = sorted(panels, key=lambda k: [order[d][v] for d, v in zip(rest, k, strict=True)])
    spans = [f.high - f.low for _, f in present if f.low is not None and f.high is not None]
    return heatmap_figure(
        [
            Panel(", ".join(f"{d}={v}" for d, v in zip(rest, key, strict=True)), panels[key])
            for key in keys
        ],
        x_labels=values[x],
        y_labels=values[y],
        title=heading,
        x_label=x,
        y_label=y,
        value_label=f"{column.title} less each point's fair share" if edge else column.title,
        percent=column.kind == "rate",
        centre=0.0 if edge else column.fair,
        centre_label="each point's fair share" if edge else _fair_label(column),
        span=max(spans, default=0.0),
        limits=(-1.0, 1.0) if edge else None,
        note=note,
    )


def _cell(figure: Figure, edge: bool) -> Cell:
    if not edge or figure.column.fair is None:
        return Cell(figure.value, figure.low, figure.high)
    fair = figure.column.fair
    low = None if figure.low is None else figure.low - fair
    high = None if figure.high is None else figure.high - fair
    return Cell(figure.value, low, high, shade=figure.value - fair)
