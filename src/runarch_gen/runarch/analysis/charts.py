"""PNG charts of a simulation report (``runarch-gen simulate --plots DIR``).

One pure function per chart, data from a :class:`~runarch_gen.runarch.analysis.simulation.
SimulationReport`, drawing by :mod:`runarch_gen.charts`; :func:`write_charts` writes them all.

- ``scores.png``: final scores, one histogram per bot (per seat when one bot plays both);
- ``length.png``: game length in turns;
- ``first-player.png``: how often the first and the second player won, with 95 % intervals;
- ``wins.png``: each bot's (or seat's) win rate with its 95 % interval;
- ``endings.png``: how often each end condition fired (stalls and deadlocks included).
"""

from __future__ import annotations

import os
from pathlib import Path

from runarch_gen.charts import Bar, bar_chart, histogram
from runarch_gen.fileio import atomic_write
from runarch_gen.play.stats import proportion
from runarch_gen.runarch.analysis.simulation import SimulationReport

__all__ = ["CHARTS", "chart_pngs", "write_charts"]

CHARTS = ("scores.png", "length.png", "first-player.png", "wins.png", "endings.png")


def _subtitle(report: SimulationReport) -> str:
    return f"{report.rules}, {report.games} games, bots {', '.join(report.bots)}"


def scores_png(report: SimulationReport) -> bytes:
    series: dict[str, list[float]] = {}
    by_bot = len({name for g in report.summaries for name in g.bots}) > 1
    for g in report.summaries:
        for side in (0, 1):
            key = g.bots[side] if by_bot else report.sides[side]
            series.setdefault(key, []).append(g.totals[side])
    return histogram(
        dict(sorted(series.items())),
        title=f"Final scores — {_subtitle(report)}",
        x_label="final score (points)",
    )


def length_png(report: SimulationReport) -> bytes:
    return histogram(
        {"turns": [g.turns for g in report.summaries]},
        title=f"Game length — {_subtitle(report)}",
        x_label="turns (both players'; the automa's in the solo game)",
    )


def first_player_png(report: SimulationReport) -> bytes:
    first = report.first_player()
    second = proportion(first["second_wins"], report.games)
    bars = [
        Bar("first player won", first["rate"].rate, first["rate"].low, first["rate"].high),
        Bar("second player won", second.rate, second.low, second.high),
    ]
    shared = first["shared"]
    if shared:
        share = proportion(shared, report.games)
        bars.append(Bar("shared or no win", share.rate, share.low, share.high))
    return bar_chart(
        bars,
        title=f"First-player advantage — {_subtitle(report)}",
        y_label="share of games",
        y_max=1.0,
        percent=True,
        reference=0.5,
    )


def wins_png(report: SimulationReport) -> bytes:
    bars = [
        Bar(name, row["win_rate"].rate, row["win_rate"].low, row["win_rate"].high)
        for name, row in report.wins_by_bot().items()
    ]
    if len(bars) < 2:
        bars = [
            Bar(f"seat {name}", rate.rate, rate.low, rate.high)
            for name, rate in report.wins_by_seat().items()
        ]
    return bar_chart(
        bars,
        title=f"Win rates (95 % intervals) — {_subtitle(report)}",
        y_label="win rate",
        y_max=1.0,
        percent=True,
        reference=0.5,
    )


def endings_png(report: SimulationReport) -> bytes:
    endings = report.endings()
    bars = []
    for name, count in endings.items():
        rate = proportion(count, report.games)
        bars.append(Bar(name, rate.rate, rate.low, rate.high))
    return bar_chart(
        bars,
        title=f"How games ended — {_subtitle(report)}",
        y_label="share of games",
        y_max=1.0,
        percent=True,
    )


def chart_pngs(report: SimulationReport) -> dict[str, bytes]:
    """Every chart of :data:`CHARTS` as PNG bytes, by file name."""
    return {
        "scores.png": scores_png(report),
        "length.png": length_png(report),
        "first-player.png": first_player_png(report),
        "wins.png": wins_png(report),
        "endings.png": endings_png(report),
    }


def write_charts(report: SimulationReport, directory: str | os.PathLike[str]) -> list[Path]:
    """Write the charts into ``directory`` (made if missing; other files in it are left
    alone), each through a temporary file and a rename; return the paths written."""
    folder = Path(directory)
    written = []
    for name, png in chart_pngs(report).items():
        path = folder / name
        atomic_write(path, png)
        written.append(path)
    return written
