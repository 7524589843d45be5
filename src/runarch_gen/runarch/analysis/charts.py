"""PNG charts of a RunArch simulation report (``runarch-gen simulate --plots DIR``).

The charts of every game (:mod:`runarch_gen.play.charts`) over the report's games:

- ``scores.png``: final scores, one histogram per bot (per seat when one bot plays both);
- ``length.png``: game length in turns;
- ``first-player.png``: how often the first and the second player won, with 95 % intervals;
- ``wins.png``: each bot's (or seat's) win rate with its 95 % interval;
- ``endings.png``: how often each end condition fired (stalls and deadlocks included).
"""

from __future__ import annotations

import os
from pathlib import Path

from runarch_gen.play import charts
from runarch_gen.runarch.analysis.simulation import SimulationReport

__all__ = ["CHARTS", "chart_pngs", "write_charts"]

CHARTS = tuple(f"{name}.png" for name in charts.CHART_NAMES)


def chart_pngs(report: SimulationReport) -> dict[str, bytes]:
    """Every chart of :data:`CHARTS` as PNG bytes, by file name."""
    subtitle = f"{report.rules}, {report.games} games, bots {', '.join(report.bots)}"
    games = report.summaries
    unit = "turns (both players'; the automa's in the solo game)"
    return {
        "scores.png": charts.scores_chart(games, report.sides, subtitle),
        "length.png": charts.length_chart([g.turns for g in games], unit, subtitle),
        "first-player.png": charts.first_player_chart(games, 2, subtitle),
        "wins.png": charts.wins_chart(games, report.sides, subtitle),
        "endings.png": charts.endings_chart(games, subtitle),
    }


def write_charts(report: SimulationReport, directory: str | os.PathLike[str]) -> list[Path]:
    """Write the charts into ``directory`` (made if missing; other files in it are left
    alone), each through a temporary file and a rename; return the paths written."""
    return charts.write_charts(chart_pngs(report), directory)
