"""Rule sweeps: many games at every point of a grid of parameters, and a table of how each
point plays (game-agnostic).

A :class:`Sweep` names a registered game, the parameters every point shares, a grid (every
combination of the listed values) or a list of points, the bots (a dimension too), the games per
point and a master seed. It reads from and writes to TOML, so a sweep can be kept and run again::

    game = "runarch"
    games = 500
    seed = 1
    bots = ["greedy"]

    [fixed]
    variant = "complex"

    [grid]
    deal = [4, 5]
    match_bonus = ["board", "line", "off"]

Point *k* plays with the seed ``game_seed(seed, k)``, game *i* of it exactly as
``runarch-gen GAME simulate --seed POINT_SEED`` plays its game *i*, so any point's figures can
be reproduced alone. The games of every point go out in small chunks to a local process pool or,
with a scheduler address, to a Dask distributed cluster; results come back in any order and are
put in game order, so the table is the same whatever ran it. Ctrl-C cancels what is still
running and reports the games that finished.

>>> sweep = parse_sweep('game = "g"\\n[grid]\\nx = [1, 2]\\ny = ["a", "b"]\\n')
>>> [dict(p.values) for p in sweep.points()]  # doctest: +NORMALIZE_WHITESPACE
[{'x': '1', 'y': 'a'}, {'x': '1', 'y': 'b'}, {'x': '2', 'y': 'a'}, {'x': '2', 'y': 'b'}]
"""

from __future__ import annotations

import csv
import io
import itertools
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from runarch_gen.errors import InputError, ParseError, check_stop, stop_handled
from runarch_gen.play import report as aggregates
from runarch_gen.play.playtest import MAX_GAMES, PlayTask, check_bots, play_game
from runarch_gen.play.registry import Registration, Value
from runarch_gen.play.report import GameResult, PlayReport
from runarch_gen.play.simulate import game_seed, run_games
from runarch_gen.play.stats import proportion
from runarch_gen.textdata import loads_toml

__all__ = [
    "MAX_POINTS",
    "Point",
    "Sweep",
    "SweepResult",
    "parse_sweep",
    "run_sweep",
]

MAX_POINTS = 1000
"""The most points one sweep has."""
MAX_TOTAL_GAMES = 10_000_000
"""The most games one sweep plays in all."""
MAX_SWEEP_FILE = 1_000_000
"""The longest sweep file read, in characters."""


@dataclass(frozen=True, slots=True)
class Point:
    """One point of a sweep: the parameter texts that vary (and those fixed), and the bots."""

    values: tuple[tuple[str, str], ...]
    bots: tuple[str, ...]

    def label(self, varying: Sequence[str]) -> str:
        """``deal=4, match_bonus=line`` — the varying parameters only."""
        shown = dict(self.values)
        parts = [f"{name}={shown[name]}" for name in varying if name in shown]
        if "bots" in varying:
            parts.append("bots=" + "+".join(self.bots))
        return ", ".join(parts) or "—"


@dataclass(frozen=True, slots=True)
class Sweep:
    """A sweep: the game, fixed parameters, the grid or the explicit points, bots, games per
    point and the master seed."""

    game: str
    games: int = 200
    seed: int = 0
    bots: tuple[tuple[str, ...], ...] = ()
    fixed: tuple[tuple[str, str], ...] = ()
    grid: tuple[tuple[str, tuple[str, ...]], ...] = ()
    listed: tuple[tuple[tuple[str, str], ...], ...] = ()

    @property
    def varying(self) -> tuple[str, ...]:
        """The names that change from point to point (``bots`` when several bot lists)."""
        names = [name for name, values in self.grid if len(values) > 1]
        for point in self.listed:
            names += [name for name, _ in point if name not in names]
        if len(self.bots) > 1:
            names.append("bots")
        return tuple(names)

    def points(self) -> list[Point]:
        """Every point: the grid's combinations (or the listed points) × the bot lists."""
        bot_lists = self.bots or ((),)
        if self.listed:
            combos: Iterator[dict[str, str]] = (dict(point) for point in self.listed)
        else:
            names = [name for name, _ in self.grid]
            combos = (
                dict(zip(names, values, strict=True))
                for values in itertools.product(*(vs for _, vs in self.grid))
            )
        out = []
        for combo in combos:
            merged = dict(self.fixed) | combo
            out += [Point(tuple(merged.items()), bots) for bots in bot_lists]
        return out

    def with_overrides(self, *, games: int | None = None, seed: int | None = None) -> Sweep:
        from dataclasses import replace

        return replace(
            self,
            games=self.games if games is None else games,
            seed=self.seed if seed is None else seed,
        )

    def to_toml(self) -> str:
        """The sweep as a TOML file that :func:`parse_sweep` reads back."""
        lines = [f"game = {_toml(self.game)}", f"games = {self.games}", f"seed = {self.seed}"]
        if len(self.bots) == 1:
            lines.append(f"bots = [{', '.join(_toml(b) for b in self.bots[0])}]")
        elif self.bots:
            lists = ", ".join("[" + ", ".join(_toml(b) for b in bots) + "]" for bots in self.bots)
            lines.append(f"bots = [{lists}]")
        if self.fixed:
            lines += ["", "[fixed]"] + [f"{k} = {_toml(v)}" for k, v in self.fixed]
        if self.grid:
            lines += ["", "[grid]"]
            lines += [f"{k} = [{', '.join(_toml(v) for v in vs)}]" for k, vs in self.grid]
        for point in self.listed:
            lines += ["", "[[points]]"] + [f"{k} = {_toml(v)}" for k, v in point]
        return "\n".join(lines) + "\n"


def _toml(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def _text(value: Any, where: str) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, (int, float, str)):
        return str(value)
    raise ParseError(f"{where}: expected a number, a word or on/off, not {type(value).__name__}")


def parse_sweep(text: str, source: str = "sweep") -> Sweep:
    """A :class:`Sweep` from TOML text; a :class:`ParseError` names the key at fault."""
    if len(text) > MAX_SWEEP_FILE:
        raise ParseError(f"a sweep file is at most {MAX_SWEEP_FILE:,} characters", source=source)
    data = loads_toml(text, source)
    known = {"game", "games", "seed", "bots", "fixed", "grid", "points"}
    for key in data:
        if key not in known:
            raise ParseError(
                f"unknown key {key!r} (known: {', '.join(sorted(known))})", source=source
            )
    game = data.get("game")
    if not isinstance(game, str) or not game.strip():
        raise ParseError('game: name the game, e.g. game = "runarch"', source=source)
    games = data.get("games", 200)
    seed = data.get("seed", 0)
    for name, value in (("games", games), ("seed", seed)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ParseError(f"{name}: a whole number 0 or more", source=source)
    if not 1 <= games <= MAX_GAMES:
        raise ParseError(f"games: 1 to {MAX_GAMES:,} per point", source=source)
    if seed >= 2**63:
        raise ParseError("seed: below 2^63", source=source)
    bots = _bots(data.get("bots", []), source)
    fixed = _table(data.get("fixed", {}), "fixed", source)
    grid_data = data.get("grid", {})
    if not isinstance(grid_data, dict):
        raise ParseError("grid: a table of lists", source=source)
    grid = []
    for name, values in grid_data.items():
        if not isinstance(values, list) or not values:
            raise ParseError(f"grid.{name}: a non-empty list of values", source=source)
        grid.append((str(name), tuple(_text(v, f"grid.{name}") for v in values)))
    points_data = data.get("points", [])
    if not isinstance(points_data, list):
        raise ParseError("points: an array of tables ([[points]])", source=source)
    listed = tuple(
        tuple(_table(p, f"points[{i}]", source)) for i, p in enumerate(points_data, start=1)
    )
    if grid and listed:
        raise ParseError("give [grid] or [[points]], not both", source=source)
    sweep = Sweep(game.strip(), games, seed, bots, tuple(fixed), tuple(grid), listed)
    count = len(sweep.points())
    if count > MAX_POINTS:
        raise ParseError(f"{count:,} points: a sweep has at most {MAX_POINTS}", source=source)
    if count * games > MAX_TOTAL_GAMES:
        raise ParseError(
            f"{count * games:,} games: a sweep plays at most {MAX_TOTAL_GAMES:,}", source=source
        )
    return sweep


def _table(value: Any, where: str, source: str) -> list[tuple[str, str]]:
    if not isinstance(value, dict):
        raise ParseError(f"{where}: a table of parameter = value", source=source)
    return [(str(k), _text(v, f"{where}.{k}")) for k, v in value.items()]


def _bots(value: Any, source: str) -> tuple[tuple[str, ...], ...]:
    if not isinstance(value, list):
        raise ParseError("bots: a list of bot names, or a list of such lists", source=source)
    if all(isinstance(v, str) for v in value):
        return (tuple(value),) if value else ()
    if all(isinstance(v, list) and v and all(isinstance(b, str) for b in v) for v in value):
        return tuple(tuple(v) for v in value)
    raise ParseError("bots: a list of bot names, or a list of such lists", source=source)


# ---------------------------------------------------------------------------------------------
# Running


@dataclass(frozen=True, slots=True)
class _SweepTask:
    tasks: tuple[PlayTask, ...]
    seeds: tuple[int, ...]
    games: int


def _play_flat(task: _SweepTask, flat: int, _seed: int) -> tuple[int, GameResult]:
    # Game `flat` of the whole sweep is game `index` of point `point`, seeded as a simulation
    # of that point alone with the point's seed would seed it.
    point, index = divmod(flat, task.games)
    return point, play_game(task.tasks[point], index, game_seed(task.seeds[point], index))


def _play_chunk(task: PlayTask, start: int, stop: int, seed: int) -> list[GameResult]:
    """Games ``start … stop-1`` of one point (runs on a Dask worker)."""
    return [play_game(task, i, game_seed(seed, i)) for i in range(start, stop)]


@dataclass(frozen=True, slots=True)
class SweepResult:
    """The reports of every point, in point order, and how the sweep ran."""

    sweep: Sweep
    points: tuple[Point, ...]
    seeds: tuple[int, ...]
    reports: tuple[PlayReport, ...]
    interrupted: bool
    where: str = "local"

    def rows(self) -> list[dict[str, Any]]:
        """One row per point: the varying parameters, the point's seed and its figures."""
        varying = self.sweep.varying
        out = []
        for point, seed, play in zip(self.points, self.seeds, self.reports, strict=True):
            values = dict(point.values)
            row: dict[str, Any] = {name: values[name] for name in varying if name in values}
            if "bots" in varying:
                row["bots"] = "+".join(point.bots)
            row |= {"seed": seed, **point_metrics(play)}
            out.append(row)
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.sweep.game,
            "games_per_point": self.sweep.games,
            "seed": self.sweep.seed,
            "varying": list(self.sweep.varying),
            "ran_on": self.where,
            "interrupted": self.interrupted,
            "points": [
                {
                    "point": dict(point.values),
                    "bots": list(point.bots),
                    "seed": seed,
                    "metrics": point_metrics(play),
                    "report": play.to_json(),
                }
                for point, seed, play in zip(self.points, self.seeds, self.reports, strict=True)
            ],
        }

    def csv(self) -> str:
        rows = self.rows()
        buffer = io.StringIO()
        if rows:
            # Points with other bots have other columns: every column, in first-seen order.
            names = list(dict.fromkeys(name for row in rows for name in row))
            writer = csv.DictWriter(buffer, fieldnames=names, lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        return buffer.getvalue()

    def charts(self) -> dict[str, bytes]:
        """Lines over one varying parameter, heatmaps over two, of the stall rate, the first
        player's rate and each bot's win rate, by file name (PNG and SVG)."""
        from runarch_gen.charts import Point, heatmap, line_chart

        rows = self.rows()
        varying = [n for n in self.sweep.varying if n != "bots"] or list(self.sweep.varying)
        rates = {
            k
            for row in rows
            for k in row
            if k.startswith("win_") and not k.endswith(("_low", "_high"))
        }
        metrics = ["stall_rate", "first_player_rate", *sorted(rates)]
        title = f"{self.sweep.game}, {self.sweep.games} games per point"
        out: dict[str, bytes] = {}
        formats: tuple[Literal["png", "svg"], ...] = ("png", "svg")
        if len(varying) == 1:
            (x,) = varying
            labels = [str(row[x]) for row in rows]
            for metric in metrics:
                points = [
                    Point(
                        float(i), row[metric], row.get(f"{metric}_low"), row.get(f"{metric}_high")
                    )
                    for i, row in enumerate(rows)
                    if metric in row
                ]
                for fmt in formats:
                    out[f"{metric}.{fmt}"] = line_chart(
                        {metric.replace("_", " "): points},
                        title=f"{metric.replace('_', ' ')} — {title}",
                        x_label=x,
                        y_label=metric.replace("_", " "),
                        percent=True,
                        reference=0.5 if metric == "first_player_rate" else None,
                        x_ticks=labels,
                        fmt=fmt,
                    )
        elif len(varying) >= 2:
            x, y = varying[0], varying[1]
            xs = list(dict.fromkeys(str(row[x]) for row in rows))
            ys = list(dict.fromkeys(str(row[y]) for row in rows))
            for metric in metrics:
                cells: dict[tuple[str, str], float] = {}
                for row in rows:
                    if metric in row:
                        cells.setdefault((str(row[x]), str(row[y])), row[metric])
                values = [[cells.get((vx, vy)) for vx in xs] for vy in ys]
                for fmt in formats:
                    out[f"{metric}.{fmt}"] = heatmap(
                        values,
                        x_labels=xs,
                        y_labels=ys,
                        title=f"{metric.replace('_', ' ')} — {title}",
                        x_label=x,
                        y_label=y,
                        value_label=metric.replace("_", " "),
                        percent=True,
                        fmt=fmt,
                    )
        return out

    def table(self) -> str:
        """The rows as an aligned text table, with intervals."""
        varying = self.sweep.varying
        head = [*varying, "games", "stalled", "length", "first player", "margin", "wins"]
        lines = []
        for point, play in zip(self.points, self.reports, strict=True):
            values = dict(point.values)
            cells = [values.get(n, "+".join(point.bots)) for n in varying if n != "bots"]
            if "bots" in varying:
                cells.append("+".join(point.bots))
            m = point_metrics(play)
            first = aggregates.first_player(play.results, len(play.sides))["rate_of_decided"]
            wins = aggregates.wins_by_bot(play.results, play.exclude)
            cells += [
                str(play.games),
                proportion(play.stalls, play.games).text(),
                f"{m['length_mean']:.1f}",
                first.text(),
                f"{m['margin_mean']:.1f}",
                "; ".join(f"{k} {v['win_rate'].text()}" for k, v in wins.items()),
            ]
            lines.append(cells)
        widths = [max(len(h), *(len(c[i]) for c in lines)) for i, h in enumerate(head)]
        out = ["  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)).rstrip()]
        out += [
            "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()
            for cells in lines
        ]
        status = " (interrupted)" if self.interrupted else ""
        out.insert(
            0,
            f"sweep of {self.sweep.game}: {len(self.points)} points × {self.sweep.games} games,"
            f" seed {self.sweep.seed}, ran on {self.where}{status}",
        )
        return "\n".join(out)


def point_metrics(play: PlayReport) -> dict[str, Any]:
    """The balance figures of one point, flat, for tables and charts (rates with their 95 %
    intervals as ``_low``/``_high``)."""
    stall = proportion(play.stalls, play.games)
    first = aggregates.first_player(play.results, len(play.sides))
    decided = first["rate_of_decided"]
    out: dict[str, Any] = {
        "games": play.games,
        "stall_rate": round(stall.rate, 4),
        "stall_rate_low": round(stall.low, 4),
        "stall_rate_high": round(stall.high, 4),
        "length_mean": round(play.lengths().mean, 3),
        "margin_mean": round(aggregates.spread(play.results).mean, 3),
        "first_player_rate": round(decided.rate, 4),
        "first_player_low": round(decided.low, 4),
        "first_player_high": round(decided.high, 4),
        "first_player_p": round(first["p_value"], 6),
    }
    for name, row in aggregates.wins_by_bot(play.results, play.exclude).items():
        rate = row["win_rate"]
        out[f"win_{name}"] = round(rate.rate, 4)
        out[f"win_{name}_low"] = round(rate.low, 4)
        out[f"win_{name}_high"] = round(rate.high, 4)
    for key, rows in play.wins_by_value().items():
        for value, row in rows.items():
            out[f"win_{key}_{value}"] = round(row["win_rate"].rate, 4)
    for name, summary in play.numbers().items():
        out[f"mean_{name.replace(' ', '_')}"] = round(summary.mean, 4)
    return out


def run_sweep(
    registration: Registration,
    sweep: Sweep,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> SweepResult:
    """Play every point of ``sweep`` and report; locally in ``workers`` processes, or on the
    Dask cluster at ``scheduler`` (``"env"``: the address in ``DASK_SCHEDULER_ADDRESS``).

    Every point's parameters and bots are checked before the first game (an
    :class:`InputError` names the point).
    """
    points = sweep.points()
    if not points:
        raise InputError("the sweep has no point")
    tasks = []
    for number, point in enumerate(points, start=1):
        where = f"point {number} ({point.label(sweep.varying)})"
        values = registration.game_type.parse_parameters(dict(point.values), where)
        try:
            game = registration.load(values)
            names = check_bots(
                registration, point.bots or (registration.default_bot,), game.num_players
            )
        except InputError as exc:
            raise InputError(f"{where}: {exc}") from None
        tasks.append(_task(registration, values, names))
    seeds = tuple(game_seed(sweep.seed, k) for k in range(len(points)))
    if scheduler is not None:
        results, interrupted, where = _run_on_dask(
            tasks, seeds, sweep.games, scheduler, on_progress
        )
    else:
        flat = _SweepTask(tuple(tasks), seeds, sweep.games)
        run = run_games(
            _play_flat,
            flat,
            games=len(points) * sweep.games,
            seed=sweep.seed,
            workers=workers,
            on_progress=on_progress,
        )
        results = [[] for _ in points]
        for number, result in run.results:
            results[number].append(result)
        interrupted, where = run.interrupted, "local"
    reports = []
    for task, seed, per_point in zip(tasks, seeds, results, strict=True):
        game = registration.load(dict(task.values))
        ordered = tuple(sorted(per_point, key=lambda r: r.index))
        sides = ordered[0].sides if ordered else tuple(f"p{i + 1}" for i in range(game.num_players))
        reports.append(
            PlayReport(
                game=str(game),
                bots=task.bots,
                seed=seed,
                requested=sweep.games,
                sides=sides,
                length_unit=game.length_unit,
                interrupted=interrupted,
                results=ordered,
                exclude=tuple(sides[game.num_players :]),
            )
        )
    return SweepResult(sweep, tuple(points), seeds, tuple(reports), interrupted, where)


def _task(registration: Registration, values: Mapping[str, Value], bots: Sequence[str]) -> PlayTask:
    return PlayTask.of(registration, values, bots)


CHUNK = 25
"""Games per Dask task: small enough to spread and cancel, large enough to be cheap to send."""


def _run_on_dask(
    tasks: Sequence[PlayTask],
    seeds: Sequence[int],
    games: int,
    scheduler: str,
    on_progress: Callable[[int], None] | None,
) -> tuple[list[list[GameResult]], bool, str]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise InputError(
            "--scheduler needs Dask distributed: pip install 'runarch-gen[cluster]'"
        ) from None
    address = os.environ.get("DASK_SCHEDULER_ADDRESS", "") if scheduler == "env" else scheduler
    if not address:
        raise InputError("no scheduler address: give --scheduler or set DASK_SCHEDULER_ADDRESS")
    try:
        client = Client(address, timeout="10s", set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise InputError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    advance = on_progress or (lambda n: None)
    results: list[list[GameResult]] = [[] for _ in tasks]
    futures = []
    interrupted = False
    try:
        for point, (task, seed) in enumerate(zip(tasks, seeds, strict=True)):
            scattered = client.scatter(task, broadcast=True, hash=False)
            for start in range(0, games, CHUNK):
                stop = min(start + CHUNK, games)
                future = client.submit(_play_chunk, scattered, start, stop, seed, pure=False)
                futures.append((point, future))
        by_key = {future.key: point for point, future in futures}
        for future in as_completed([f for _, f in futures], loop=client.loop):
            chunk = future.result()
            results[by_key[future.key]].extend(chunk)
            advance(len(chunk))
            check_stop()
    except KeyboardInterrupt:
        stop_handled()
        interrupted = True
        client.cancel([f for _, f in futures])
    finally:
        client.close()
    return results, interrupted, f"dask {address}"
