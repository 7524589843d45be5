"""Charts of simulated games, for any game (``simulate --plots DIR``).

One function per chart over played games (:class:`~.report.PlayedGame`), drawing by
:mod:`runarch_gen.charts`; :func:`report_charts` makes the set of a :class:`~.report.PlayReport`
and :func:`write_charts` writes a set into a folder, each file through a temporary file:

- ``scores``: final scores, one histogram per bot (per seat when one bot plays every seat);
- ``length``: game length in the game's unit;
- ``first-player``: how often the first player and the others won, with 95 % intervals;
- ``wins``: each bot's (or seat's) win rate with its 95 % interval;
- ``endings``: how often each end condition fired (stalls included).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from runarch_gen.charts import Bar, Format, bar_chart, histogram
from runarch_gen.errors import OutputError
from runarch_gen.play import report
from runarch_gen.play.report import PlayedGame, PlayReport
from runarch_gen.play.stats import proportion

__all__ = [
    "CHART_NAMES",
    "endings_chart",
    "first_player_chart",
    "length_chart",
    "report_charts",
    "scores_chart",
    "wins_chart",
    "write_charts",
]

CHART_NAMES = ("scores", "length", "first-player", "wins", "endings")


def scores_chart(
    games: Sequence[PlayedGame], sides: Sequence[str], subtitle: str, fmt: Format = "png"
) -> bytes:
    series: dict[str, list[float]] = {}
    by_bot = len({name for g in games for name in g.bots}) > 1
    for g in games:
        for side in range(len(sides)):
            key = g.bots[side] if by_bot else sides[side]
            series.setdefault(key, []).append(g.totals[side])
    return histogram(
        dict(sorted(series.items())),
        title=f"Final scores — {subtitle}",
        x_label="final score",
        fmt=fmt,
    )


def length_chart(lengths: Sequence[float], unit: str, subtitle: str, fmt: Format = "png") -> bytes:
    return histogram(
        {unit: list(lengths)}, title=f"Game length — {subtitle}", x_label=unit, fmt=fmt
    )


def first_player_chart(
    games: Sequence[PlayedGame], sides: int, subtitle: str, fmt: Format = "png"
) -> bytes:
    first = report.first_player(games, sides)
    others = proportion(first["second_wins"], len(games))
    bars = [
        Bar("first player won", first["rate"].rate, first["rate"].low, first["rate"].high),
        Bar(
            "second player won" if sides == 2 else "another player won",
            others.rate,
            others.low,
            others.high,
        ),
    ]
    if first["shared"]:
        share = proportion(first["shared"], len(games))
        bars.append(Bar("shared or no win", share.rate, share.low, share.high))
    return bar_chart(
        bars,
        title=f"First-player advantage — {subtitle}",
        y_label="share of games",
        y_max=1.0,
        percent=True,
        reference=1 / max(sides, 1),
        fmt=fmt,
    )


def wins_chart(
    games: Sequence[PlayedGame], sides: Sequence[str], subtitle: str, fmt: Format = "png"
) -> bytes:
    bars = [
        Bar(name, row["win_rate"].rate, row["win_rate"].low, row["win_rate"].high)
        for name, row in report.wins_by_bot(games).items()
    ]
    if len(bars) < 2:
        bars = [
            Bar(f"seat {name}", rate.rate, rate.low, rate.high)
            for name, rate in report.wins_by_seat(games, sides).items()
        ]
    return bar_chart(
        bars,
        title=f"Win rates (95 % intervals) — {subtitle}",
        y_label="win rate",
        y_max=1.0,
        percent=True,
        reference=1 / max(len(sides), 1),
        fmt=fmt,
    )


def endings_chart(games: Sequence[PlayedGame], subtitle: str, fmt: Format = "png") -> bytes:
    bars = []
    for name, count in report.endings(games).items():
        rate = proportion(count, len(games))
        bars.append(Bar(name, rate.rate, rate.low, rate.high))
    return bar_chart(
        bars,
        title=f"How games ended — {subtitle}",
        y_label="share of games",
        y_max=1.0,
        percent=True,
        fmt=fmt,
    )


def report_charts(play: PlayReport, fmt: Format = "png") -> dict[str, bytes]:
    """Every chart of a :class:`PlayReport` by file name (``scores.png`` …)."""
    subtitle = f"{play.game}, {play.games} games, bots {', '.join(play.bots)}"
    games = play.results
    return {
        f"scores.{fmt}": scores_chart(games, play.sides, subtitle, fmt),
        f"length.{fmt}": length_chart([g.length for g in games], play.length_unit, subtitle, fmt),
        f"first-player.{fmt}": first_player_chart(games, len(play.sides), subtitle, fmt),
        f"wins.{fmt}": wins_chart(games, play.sides, subtitle, fmt),
        f"endings.{fmt}": endings_chart(games, subtitle, fmt),
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
