"""The figures of one point of a rule sweep, as named columns (game-agnostic).

A :class:`Column` says what a figure is — its name in the CSV and JSON, its label in the table
and on charts, its kind (a rate, a mean, a count, a p-value), its unit and, for rates that have
one, the fair value it is judged against; a :class:`Figure` is its value at one point with its
95 % interval. :func:`point_figures` makes the figures of one point from its
:class:`~.report.PlayReport`:

- ``games``: games played;
- ``deadlock_rate``: games the rules could never have ended (a stalled game whose termination
  is named ``deadlock``), and ``stall_rate``: games a limit ended (any other stalled game) —
  two different faults of a rule set, each with its Wilson interval;
- ``length``: mean game length in the game's unit (turns, rounds, actions) and ``margin``: the
  mean winning margin in points (the best final total less the second best), each with the
  95 % interval of its mean;
- ``first_player_rate``: how often the side that moved first won, of the games one side won
  alone, against the fair share 1/players, and ``first_player_p``, the exact binomial test;
- ``win_BOT`` for each bot of a line-up of different bots (or a line-up facing a non-player
  side such as an automa): win rates of bots that only play themselves say nothing;
- ``win_seat_SIDE`` for each seat, when the first mover changes from game to game (otherwise a
  seat's rate is the first player's again);
- ``win_KEY_VALUE`` for a per-side text the game reports (a character, a colour);
- ``mean_NAME`` for each number the game reports per game, with the interval of its mean;
- every metric of the report's ``metrics`` section (design metrics, when a game reports them):
  a number, or an object with ``rate``, ``mean`` or ``value`` and optionally ``low``, ``high``,
  ``unit`` and ``fair``. A metric with the name of one of the figures above replaces it.

Columns are flat — ``NAME``, ``NAME_low``, ``NAME_high`` — so a CSV reader, a chart and a
spreadsheet see the same names.

>>> stall = Column("stall_rate", "stalled", "rate")
>>> Figure(stall, 0.125, 0.1, 0.15).text()
'12.5 % (10.0–15.0)'
>>> Figure(stall, 0.125, 0.1, 0.15).flat()
{'stall_rate': 0.125, 'stall_rate_low': 0.1, 'stall_rate_high': 0.15}
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from runarch_gen.play import report as aggregates
from runarch_gen.play.report import PlayReport
from runarch_gen.play.stats import Proportion, Summary, proportion, z_for

__all__ = [
    "Column",
    "Figure",
    "columns_of",
    "point_figures",
]

Kind = Literal["rate", "mean", "value", "count", "p"]

DEADLOCK = "deadlock"
"""The termination name of a game that could never have ended (counted apart from stalls)."""
SCORE_UNIT = "points"
"""The unit of final totals, and so of the winning margin."""


@dataclass(frozen=True, slots=True)
class Column:
    """What a figure is: ``name`` (CSV, JSON), ``label`` (table, charts), ``kind``, ``unit``
    and, for a rate with one, the ``fair`` value it is judged against."""

    name: str
    label: str
    kind: Kind
    unit: str = ""
    fair: float | None = None

    @property
    def charted(self) -> bool:
        """Rates, means and values are charted; counts and p-values are not."""
        return self.kind in ("rate", "mean", "value")

    @property
    def title(self) -> str:
        """The label with its unit: ``length (turns)``."""
        return f"{self.label} ({self.unit})" if self.unit else self.label

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "label": self.label, "kind": self.kind}
        if self.unit:
            out["unit"] = self.unit
        if self.fair is not None:
            out["fair"] = round(self.fair, 6)
        return out


@dataclass(frozen=True, slots=True)
class Figure:
    """A column's value at one point, with its 95 % interval where it has one."""

    column: Column
    value: float
    low: float | None = None
    high: float | None = None

    def text(self) -> str:
        """``12.5 % (10.0–15.0)`` for a rate, ``54.2 (53.1–55.3)`` for a mean."""
        kind = self.column.kind
        if kind == "count":
            return f"{self.value:.0f}"
        if kind == "p":
            return f"{self.value:.2g}"
        if kind == "rate":
            main = f"{100 * self.value:.1f} %"
            if self.low is None or self.high is None:
                return main
            return f"{main} ({100 * self.low:.1f}–{100 * self.high:.1f})"
        main = _number(self.value)
        if self.low is None or self.high is None:
            return main
        return f"{main} ({_number(self.low)}–{_number(self.high)})"

    def flat(self) -> dict[str, float]:
        """``{NAME: value, NAME_low: …, NAME_high: …}``, rounded for files."""
        digits = 6 if self.column.kind == "p" else 4
        out = {self.column.name: _round(self.value, digits)}
        if self.low is not None and self.high is not None:
            out[f"{self.column.name}_low"] = _round(self.low, digits)
            out[f"{self.column.name}_high"] = _round(self.high, digits)
        return out


def _number(x: float) -> str:
    return f"{x:.1f}" if abs(x) >= 10 else f"{x:.2f}"


def _round(x: float, digits: int) -> float:
    value = round(float(x), digits)
    return value if math.isfinite(value) else 0.0


def _rate(column: Column, share: Proportion) -> Figure:
    return Figure(column, share.rate, share.low, share.high)


def _mean(column: Column, summary: Summary) -> Figure:
    """The mean with its 95 % interval (normal approximation: mean ± 1.96 sd/√n; none for
    fewer than two values)."""
    if summary.n < 2:
        return Figure(column, summary.mean)
    half = z_for(0.95) * summary.sd / math.sqrt(summary.n)
    return Figure(column, summary.mean, summary.mean - half, summary.mean + half)


def _safe(text: str) -> str:
    """A name usable in a column: spaces and odd characters become ``_``."""
    return "".join(c if c.isalnum() else "_" for c in text.strip().lower()).strip("_") or "x"


def point_figures(play: PlayReport) -> list[Figure]:
    """Every figure of one point, in column order (see the module's documentation)."""
    games = play.results
    total = len(games)
    players = max(1, len(play.sides) - len(play.exclude))
    fair = 1 / max(len(play.sides), 1)
    if not total:  # a point stopped before its first game has no figure but that
        return [Figure(Column("games", "games", "count"), 0.0)]
    deadlocks = sum(g.stalled and g.termination == DEADLOCK for g in games)
    stalls = sum(g.stalled and g.termination != DEADLOCK for g in games)
    first = aggregates.first_player(games, len(play.sides))
    out = [
        Figure(Column("games", "games", "count"), float(total)),
        _rate(Column("deadlock_rate", "deadlocked", "rate"), proportion(deadlocks, total)),
        _rate(Column("stall_rate", "stalled", "rate"), proportion(stalls, total)),
        _mean(Column("length", "length", "mean", play.length_unit), play.lengths()),
        _mean(Column("margin", "margin", "mean", SCORE_UNIT), aggregates.spread(games)),
        _rate(
            Column("first_player_rate", "first player wins", "rate", fair=1 / len(play.sides)),
            first["rate_of_decided"],
        ),
        Figure(Column("first_player_p", "first player p", "p"), first["p_value"]),
    ]
    by_bot = aggregates.wins_by_bot(games, play.exclude)
    if len(by_bot) > 1 or (by_bot and play.exclude):
        for name, row in by_bot.items():
            column = Column(f"win_{_safe(name)}", f"{name} wins", "rate", fair=fair)
            out.append(_rate(column, row["win_rate"]))
    if players > 1 and len({g.first for g in games}) > 1:
        for name, share in aggregates.wins_by_seat(games, play.sides).items():
            if name in play.exclude:
                continue
            column = Column(f"win_seat_{_safe(name)}", f"seat {name} wins", "rate", fair=fair)
            out.append(_rate(column, share))
    for key, rows in play.wins_by_value().items():
        for value, row in rows.items():
            name = f"win_{_safe(key)}_{_safe(value)}"
            column = Column(name, f"{key} {value} wins", "rate", fair=fair)
            out.append(_rate(column, row["win_rate"]))
    for name, summary in play.numbers().items():
        out.append(_mean(Column(f"mean_{_safe(name)}", name, "mean"), summary))
    return _with_metrics(out, play.to_json().get("metrics"))


def _with_metrics(figures: list[Figure], metrics: Any) -> list[Figure]:
    """The figures with the report's own metrics laid over them (same name: replaced in
    place; new names: added at the end)."""
    if not isinstance(metrics, Mapping):
        return figures
    index = {f.column.name: i for i, f in enumerate(figures)}
    for name, value in metrics.items():
        figure = _metric(str(name), value)
        if figure is None:
            continue
        if figure.column.name in index:
            figures[index[figure.column.name]] = figure
        else:
            index[figure.column.name] = len(figures)
            figures.append(figure)
    return figures


def _metric(name: str, value: Any) -> Figure | None:
    def number(x: Any) -> float | None:
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
            return None
        return float(x)

    key = _safe(name)
    label = name.replace("_", " ")
    if number(value) is not None:
        return Figure(Column(key, label, "value"), float(value))
    if not isinstance(value, Mapping):
        return None
    unit = str(value.get("unit", "")) if isinstance(value.get("unit", ""), str) else ""
    fair = number(value.get("fair"))
    for field, kind in (("rate", "rate"), ("mean", "mean"), ("value", "value")):
        main = number(value.get(field))
        if main is None:
            continue
        low, high = number(value.get("low")), number(value.get("high"))
        if low is None or high is None:
            low = high = None
        shown = "rate" if kind == "value" and unit.startswith("share") else kind  # metrics' rates
        column = Column(key, label, shown, unit, fair)  # type: ignore[arg-type]
        return Figure(column, main, low, high)
    return None


def columns_of(points: Iterable[Sequence[Figure]]) -> list[Column]:
    """Every column of some points, in first-seen order (a column some points lack — a bot
    that plays only at some points — is there once)."""
    seen: dict[str, Column] = {}
    for figures in points:
        for figure in figures:
            seen.setdefault(figure.column.name, figure.column)
    return list(seen.values())
