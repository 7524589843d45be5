"""Rule sweeps: many games at every point of a grid of parameters, and a table of how each
point plays (game-agnostic).

A :class:`Sweep` names a registered game, the parameters every point shares, a grid (every
combination of the listed values), a list of points (each crossed with the grid), the bots (a
dimension too), the games per point and a master seed. It reads from and writes to TOML, so a
sweep can be kept and run again::

    game = "runarch"
    games = 500
    seed = 1
    bots = ["greedy"]
    board = "my-board.json"     # files beside the sweep file (parameters that take files)

    [fixed]
    variant = "complex"

    [grid]
    deal = [4, 5]
    match_bonus = ["board", "line", "off"]

A parameter that takes a file (RunArch's ``set``, ``board`` and ``deck``, Bluff's ``scale``)
may name one: on the command line relative to the working folder, in a sweep file beside it
(no absolute paths, no ``..``). Each file is read once, before any game, and a saved sweep
carries what it read in its ``[files]`` table, so it runs the same wherever it is taken.

Point *k* plays with the seed ``game_seed(seed, k)``, game *i* of it exactly as
``runarch-gen GAME simulate --seed POINT_SEED`` plays its game *i*, so any point's figures can
be reproduced alone. The games go out in chunks to a local process pool or, with a scheduler
address, to a Dask distributed cluster (:mod:`.cluster`); results come back in any order and
are put in game order, so the table is the same whatever ran it. Finished games can be kept
in a journal as they come (:class:`Journal`); a sweep stopped by Ctrl-C or a failing cluster
continues from its journal (``done``) to the same final table.

>>> sweep = parse_sweep('game = "g"\\n[grid]\\nx = [1, 2]\\ny = ["a", "b"]\\n')
>>> [dict(p.values) for p in sweep.points()]  # doctest: +NORMALIZE_WHITESPACE
[{'x': '1', 'y': 'a'}, {'x': '1', 'y': 'b'}, {'x': '2', 'y': 'a'}, {'x': '2', 'y': 'b'}]
"""

from __future__ import annotations

import bisect
import csv
import io
import itertools
import json
import math
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

from runarch_gen import __version__
from runarch_gen.errors import InputError, OutputError, ParseError
from runarch_gen.fileio import beside, display_name, read_text
from runarch_gen.play.cluster import TIMEOUT, check_address, run_on_dask, scheduler_address
from runarch_gen.play.metrics import Trace
from runarch_gen.play.playtest import MAX_GAMES, PlayTask, check_bots, play_game
from runarch_gen.play.registry import Registration, Value, format_value
from runarch_gen.play.report import GameResult, PlayReport, Statistic
from runarch_gen.play.simulate import game_seed, run_games
from runarch_gen.play.sweep_columns import Column, Figure, columns_of, point_figures
from runarch_gen.textdata import loads_json, loads_toml

__all__ = [
    "CHUNK",
    "MAX_POINTS",
    "MAX_TOTAL_GAMES",
    "Journal",
    "Kept",
    "Point",
    "Sweep",
    "SweepResult",
    "parse_sweep",
    "read_files",
    "read_journal",
    "run_sweep",
]

MAX_POINTS = 1000
"""The most points one sweep has, however it is given (a file or the command line)."""
MAX_TOTAL_GAMES = 10_000_000
"""The most games one sweep plays in all."""
MAX_SWEEP_FILE = 4_000_000
"""The longest sweep file read, in characters (its ``[files]`` may hold decks)."""
MAX_JOURNAL_BYTES = 1024 * 1024 * 1024
"""The largest journal read back (about five million games)."""
CHUNK = 25
"""Games per Dask task: small enough to spread and to lose little with a worker, large enough
that sending a task costs little beside its games."""

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+\Z")
_SHORTHAND = ("board", "deck")
"""Top-level keys of a sweep file that stand for fixed parameters (a set's files)."""


@dataclass(frozen=True, slots=True)
class Point:
    """One point of a sweep: the parameter texts (fixed and varying), and the bots."""

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
    """A sweep: the game, fixed parameters, the grid, the listed points (each crossed with the
    grid), bots, games per point, the master seed, and the files it read (name → content)."""

    game: str
    games: int = 200
    seed: int = 0
    bots: tuple[tuple[str, ...], ...] = ()
    fixed: tuple[tuple[str, str], ...] = ()
    grid: tuple[tuple[str, tuple[str, ...]], ...] = ()
    listed: tuple[tuple[tuple[str, str], ...], ...] = ()
    files: tuple[tuple[str, str], ...] = ()

    @property
    def count(self) -> int:
        """How many points, computed without making them."""
        return (
            max(len(self.listed), 1)
            * math.prod(len(values) for _, values in self.grid)
            * max(len(self.bots), 1)
        )

    @property
    def varying(self) -> tuple[str, ...]:
        """The names that change from point to point: the grid's with several values, those
        the listed points set differently (or only some of them set), and ``bots`` when there
        are several bot lists."""
        names = [name for name, values in self.grid if len(values) > 1]
        if len(self.listed) > 1:
            given = [dict(point) for point in self.listed]
            for point in self.listed:
                for name, _ in point:
                    if name in names:
                        continue
                    seen = {p.get(name) for p in given}
                    if len(seen) > 1:
                        names.append(name)
        if len(self.bots) > 1:
            names.append("bots")
        return tuple(names)

    def check(self) -> None:
        """Refuse, before any game, a sweep too large or naming a parameter twice."""
        count = self.count
        if count > MAX_POINTS:
            raise InputError(f"{count:,} points: a sweep has at most {MAX_POINTS:,}")
        if not 1 <= self.games <= MAX_GAMES:
            raise InputError(f"games: 1 to {MAX_GAMES:,} per point, not {self.games}")
        if count * self.games > MAX_TOTAL_GAMES:
            raise InputError(
                f"{count * self.games:,} games: a sweep plays at most {MAX_TOTAL_GAMES:,}"
            )
        fixed = {name for name, _ in self.fixed}
        gridded = {name for name, _ in self.grid}
        listed = {name for point in self.listed for name, _ in point}
        twice = sorted((fixed & gridded) | (fixed & listed) | (gridded & listed))
        if twice:
            raise InputError(f"{twice[0]} is given twice (fixed, grid, points): give it once")

    def points(self) -> list[Point]:
        """Every point: the listed points (or one) × the grid's combinations × the bot
        lists, in that order."""
        self.check()
        bot_lists = self.bots or ((),)
        names = [name for name, _ in self.grid]
        out = []
        for listed in self.listed or ((),):
            for values in itertools.product(*(vs for _, vs in self.grid)):
                merged = dict(self.fixed) | dict(listed) | dict(zip(names, values, strict=True))
                out += [Point(tuple(merged.items()), bots) for bots in bot_lists]
        return out

    def with_overrides(self, *, games: int | None = None, seed: int | None = None) -> Sweep:
        """The same sweep with another number of games per point or master seed."""
        return replace(
            self,
            games=self.games if games is None else games,
            seed=self.seed if seed is None else seed,
        )

    def to_toml(self) -> str:
        """The sweep as a TOML file that :func:`parse_sweep` reads back (with the content of
        every file it read, so it needs none of them)."""
        lines = [f"game = {_toml(self.game)}", f"games = {self.games}", f"seed = {self.seed}"]
        if len(self.bots) == 1:
            lines.append(f"bots = [{', '.join(_toml(b) for b in self.bots[0])}]")
        elif self.bots:
            lists = ", ".join("[" + ", ".join(_toml(b) for b in bots) + "]" for bots in self.bots)
            lines.append(f"bots = [{lists}]")
        if self.fixed:
            lines += ["", "[fixed]"] + [f"{_key(k)} = {_toml(v)}" for k, v in self.fixed]
        if self.grid:
            lines += ["", "[grid]"]
            lines += [f"{_key(k)} = [{', '.join(_toml(v) for v in vs)}]" for k, vs in self.grid]
        for point in self.listed:
            lines += ["", "[[points]]"] + [f"{_key(k)} = {_toml(v)}" for k, v in point]
        if self.files:
            lines += ["", "[files]"] + [f"{_toml(k)} = {_toml(v)}" for k, v in self.files]
        return "\n".join(lines) + "\n"


def _toml(value: str) -> str:
    """A TOML basic string."""
    out = []
    for char in value:
        if char in '"\\':
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif char == "\r":
            out.append("\\r")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _key(name: str) -> str:
    return name if _BARE_KEY.match(name) else _toml(name)


def _text(value: Any, where: str) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, (int, float, str)):
        return str(value)
    raise ParseError(f"{where}: expected a number, a word or on/off, not {type(value).__name__}")


KNOWN_KEYS = ("game", "games", "seed", "bots", "fixed", "grid", "points", "files", *_SHORTHAND)


def parse_sweep(text: str, source: str = "sweep") -> Sweep:
    """A :class:`Sweep` from TOML text; a :class:`ParseError` names the key at fault. Files
    the sweep names are read by :func:`read_files`."""
    if len(text) > MAX_SWEEP_FILE:
        raise ParseError(f"a sweep file is at most {MAX_SWEEP_FILE:,} characters", source=source)
    data = loads_toml(text, source)
    for key in data:
        if key not in KNOWN_KEYS:
            raise ParseError(
                f"unknown key {key!r} (known: {', '.join(sorted(KNOWN_KEYS))})", source=source
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
    for key in _SHORTHAND:
        if key in data:
            if any(name == key for name, _ in fixed):
                raise ParseError(f"{key} is given twice (top level and [fixed])", source=source)
            fixed.append((key, _text(data[key], key)))
    grid_data = data.get("grid", {})
    if not isinstance(grid_data, dict):
        raise ParseError("grid: a table of lists", source=source)
    grid = []
    for name, values in grid_data.items():
        if not isinstance(values, list) or not values:
            raise ParseError(f"grid.{name}: a non-empty list of values", source=source)
        texts = tuple(_text(v, f"grid.{name}") for v in values)
        if len(set(texts)) != len(texts):
            raise ParseError(f"grid.{name}: a value is listed twice", source=source)
        grid.append((str(name), texts))
    points_data = data.get("points", [])
    if not isinstance(points_data, list):
        raise ParseError("points: an array of tables ([[points]])", source=source)
    listed = tuple(
        tuple(_table(p, f"points[{i}]", source)) for i, p in enumerate(points_data, start=1)
    )
    files = data.get("files", {})
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        raise ParseError("files: a table of file name = its content", source=source)
    sweep = Sweep(
        game.strip(),
        games,
        seed,
        bots,
        tuple(fixed),
        tuple(grid),
        listed,
        tuple((str(k), v) for k, v in files.items()),
    )
    try:
        sweep.check()
    except InputError as exc:
        raise ParseError(str(exc), source=source) from None
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


def _values(sweep: Sweep) -> Iterator[tuple[str, str]]:
    """Every (parameter, value) the sweep gives anywhere."""
    yield from sweep.fixed
    for name, values in sweep.grid:
        for value in values:
            yield name, value
    for point in sweep.listed:
        yield from point


def read_files(registration: Registration, sweep: Sweep, sweep_file: str | None = None) -> Sweep:
    """The sweep with every file it names read, once, into its ``files``.

    A file is named by the value of a parameter that takes one (``Parameter.from_file``). With
    ``sweep_file`` the names are those of that sweep file: a name must lie beside it (no
    absolute path, no ``..``) and a value that names no file there is passed on as written —
    the game reads it as an inline value or says what is wrong with it. Without, the names
    were typed on the command line and are read from the working folder. Names already in
    ``files`` (a saved sweep, a journal) are never read again.
    """
    takes_file = {
        p.name: p.from_file for p in registration.game_type.parameters if p.from_file is not None
    }
    files = dict(sweep.files)
    read: dict[str, str] = {}
    for name, value in _values(sweep):
        reader = takes_file.get(name)
        if reader is None or value in files:
            continue
        if sweep_file is None:
            content = reader(value)
        else:
            try:
                path = beside(sweep_file, value, f"{display_name(sweep_file)}: {name}")
            except InputError:
                continue
            if not path.exists():
                continue
            key = str(path.resolve())
            if key not in read:
                read[key] = reader(str(path))
            content = read[key]
        if content != value:
            files[value] = content
    return replace(sweep, files=tuple(files.items()))


# ---------------------------------------------------------------------------------------------
# A journal of finished games

JOURNAL_FORMAT = "runarch-gen sweep journal"


def _encode(result: GameResult) -> list[Any]:
    return [
        result.index,
        list(result.bots),
        result.first,
        result.length,
        result.termination,
        result.stalled,
        list(result.winners),
        list(result.totals),
        list(result.returns),
        [[name, list(v) if isinstance(v, tuple) else v] for name, v in result.statistics],
        list(result.sides),
        result.deadlocked,
        None if result.trace is None else _encode_trace(result.trace),
    ]


def _encode_trace(trace: Trace) -> list[Any]:
    # What the design metrics read of a game (runarch_gen.play.metrics.Trace).
    return [
        trace.decisions,
        trace.choices,
        trace.branching,
        trace.lead_changes,
        list(trace.deficits),
        list(trace.last_behind),
        trace.points,
    ]


def _decode_trace(item: Any) -> Trace | None:
    if item is None:
        return None
    if not (isinstance(item, list) and len(item) == 7):
        raise ValueError("a game's trace is a list of 7 fields")
    decisions, choices, branching, changes, deficits, behind, points = item
    counts = (decisions, choices, branching, changes, points)
    if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in counts):
        raise ValueError("a trace's counts are whole numbers")
    if not (isinstance(deficits, list) and all(_is_number(x) for x in deficits)):
        raise ValueError("a trace's gaps are numbers")
    if not (isinstance(behind, list) and all(isinstance(x, int) for x in behind)):
        raise ValueError("a trace's points behind are whole numbers")
    if len(behind) != len(deficits):
        raise ValueError("a trace has one gap and one point behind per side")
    return Trace(decisions, choices, branching, changes, tuple(deficits), tuple(behind), points)


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _decode(item: Any, games: int) -> GameResult:
    """A finished game from its journal form; ``ValueError`` says what is wrong."""
    # 11 fields in journals kept before the design metrics; 13 since (deadlocked, trace)
    if not isinstance(item, list) or len(item) not in (11, 13):
        raise ValueError("a game is a list of 11 or 13 fields")
    index, bots, first, length, termination, stalled, winners, totals, returns, stats, sides = item[
        :11
    ]
    deadlocked, trace = (item[11], _decode_trace(item[12])) if len(item) == 13 else (False, None)
    if not isinstance(deadlocked, bool):
        raise ValueError("deadlocked is true or false")

    def ints(x: Any) -> bool:
        return isinstance(x, int) and not isinstance(x, bool)

    def texts(x: Any) -> bool:
        return isinstance(x, list) and all(isinstance(v, str) for v in x)

    if not ints(index) or not 0 <= index < games:
        raise ValueError(f"game number {index!r} is not one of this sweep's 0-{games - 1}")
    if not (texts(bots) and texts(sides) and ints(first) and ints(length)):
        raise ValueError("bots, sides, first and length are texts and whole numbers")
    if not isinstance(termination, str) or not isinstance(stalled, bool):
        raise ValueError("the termination is a text and stalled true or false")
    if not isinstance(winners, list) or not all(ints(w) for w in winners):
        raise ValueError("winners are whole numbers")
    for values in (totals, returns):
        if not isinstance(values, list) or not all(_is_number(v) for v in values):
            raise ValueError("totals and returns are numbers")
    statistics: list[tuple[str, Statistic]] = []
    if not isinstance(stats, list):
        raise ValueError("statistics are a list")
    for entry in stats:
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str)):
            raise ValueError("a statistic is a name and a value")
        value = entry[1]

        def atom(x: Any) -> bool:
            return isinstance(x, (str, bool)) or _is_number(x)

        if isinstance(value, list) and all(atom(v) for v in value):
            statistics.append((entry[0], tuple(value)))
        elif atom(value):
            statistics.append((entry[0], value))
        else:
            raise ValueError(f"statistic {entry[0]!r} is not a number or a text")
    return GameResult(
        index=index,
        bots=tuple(bots),
        first=first,
        length=length,
        termination=termination,
        stalled=stalled,
        winners=tuple(winners),
        totals=tuple(totals),
        returns=tuple(returns),
        statistics=tuple(statistics),
        sides=tuple(sides),
        deadlocked=deadlocked,
        trace=trace,
    )


class Journal:
    """A sweep's finished games, appended to a file as they come (JSON Lines: a header with
    the sweep and the version, then one line per chunk of games of one point), so that no
    finished game is lost when the run is not; :func:`read_journal` reads it back.

    A new journal never replaces a file: one already there is refused at once, and the file
    is made with the first games (a sweep that plays none leaves none). ``resume`` appends to
    a journal :func:`read_journal` has read. Each line is flushed as it is written: a journal
    cut off by a crash loses at most its last, unfinished line. ``keep`` records whether the
    user asked for the journal (else the command removes it once the sweep is complete).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        sweep: Sweep,
        *,
        resume: bool = False,
        keep: bool = True,
    ) -> None:
        self.path = Path(path)
        self.sweep = sweep
        self.resume = resume
        self.keep = keep
        self.games = 0
        self._handle: IO[str] | None = None
        if not resume and (self.path.exists() or self.path.is_symlink()):
            raise OutputError(
                f"{self.path}: exists already: continue that sweep with --resume {self.path},"
                " or name another journal"
            )

    def _open(self) -> IO[str]:
        if self._handle is not None:
            return self._handle
        try:
            if self.resume:
                handle = open(self.path, "a", encoding="utf-8")  # noqa: SIM115
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                handle = open(self.path, "x", encoding="utf-8")  # noqa: SIM115
        except FileExistsError:
            raise OutputError(f"{self.path}: exists already: name another journal") from None
        except OSError as exc:
            raise OutputError(f"{self.path}: cannot write: {exc.strerror or exc}") from None
        self._handle = handle
        if not self.resume:
            header = {
                "format": JOURNAL_FORMAT,
                "version": __version__,
                "keep": self.keep,
                "sweep": self.sweep.to_toml(),
            }
            self._write(header)
        return handle

    def _write(self, obj: Any) -> None:
        handle = self._open()
        try:
            handle.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n")
            handle.flush()
        except OSError as exc:
            raise OutputError(f"{self.path}: cannot write: {exc.strerror or exc}") from None

    @property
    def exists(self) -> bool:
        """Whether the journal has been written (a sweep that played nothing wrote none)."""
        return self.resume or self._handle is not None

    def add(self, point: int, results: Sequence[GameResult]) -> None:
        """Keep finished games of point ``point`` (its number from 0)."""
        if results:
            self._write({"point": point, "games": [_encode(r) for r in results]})
            self.games += len(results)

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True, slots=True)
class Kept:
    """What a journal holds: the sweep, its finished games (point → game number → game), and
    whether the user asked to keep the journal."""

    sweep: Sweep
    done: dict[int, dict[int, GameResult]]
    keep: bool


def read_journal(path: str | os.PathLike[str]) -> Kept:
    """The sweep a journal was kept for and its finished games (:class:`Kept`).

    Every line is checked: a :class:`ParseError` names the file and line at fault. A last line
    cut off by a crash (no line end) is left out. A journal of another version of runarch-gen
    is refused: its games and new ones would not make one sweep.
    """
    name = display_name(path)
    text = read_text(path, limit=MAX_JOURNAL_BYTES)
    lines = text.split("\n")
    if not lines[0].strip():
        raise ParseError("empty: not a sweep journal", source=name)
    header = loads_json(lines[0], name)
    if not isinstance(header, dict) or header.get("format") != JOURNAL_FORMAT:
        raise ParseError("not a sweep journal (runarch-gen sweep --journal)", source=name, line=1)
    if header.get("version") != __version__:
        raise ParseError(
            f"kept by runarch-gen {header.get('version')!r}, this is {__version__}: its games"
            " and new ones would not make one sweep",
            source=name,
            line=1,
        )
    if not isinstance(header.get("sweep"), str):
        raise ParseError("the header has no sweep", source=name, line=1)
    sweep = parse_sweep(header["sweep"], f"{name}:1: sweep")
    count = sweep.count
    done: dict[int, dict[int, GameResult]] = {}
    complete = text.endswith("\n")
    last = len(lines) - 1
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        if number == last + 1 and not complete:
            break  # cut off by a crash while it was written
        record = loads_json(line, name, first_line=number)
        point = record.get("point") if isinstance(record, dict) else None
        games = record.get("games") if isinstance(record, dict) else None
        if (
            not isinstance(point, int)
            or isinstance(point, bool)
            or not 0 <= point < count
            or not isinstance(games, list)
        ):
            raise ParseError(
                f"expected a point of this sweep (0-{count - 1}) and its games",
                source=name,
                line=number,
            )
        for item in games:
            try:
                result = _decode(item, sweep.games)
            except ValueError as exc:
                raise ParseError(str(exc), source=name, line=number) from None
            known = done.setdefault(point, {}).setdefault(result.index, result)
            if known != result:
                raise ParseError(
                    f"point {point} game {result.index} is given twice, differently",
                    source=name,
                    line=number,
                )
    return Kept(sweep, done, header.get("keep") is True)


# ---------------------------------------------------------------------------------------------
# Running


@dataclass(frozen=True, slots=True)
class _SweepTask:
    """The games still to play, for the local pool: runs of game numbers of each point."""

    tasks: tuple[PlayTask, ...]
    seeds: tuple[int, ...]
    runs: tuple[tuple[int, int, int], ...]
    offsets: tuple[int, ...]


def _play_flat(task: _SweepTask, flat: int, _seed: int) -> tuple[int, GameResult]:
    # Game `flat` of the games still to play is game `index` of point `point`, seeded as a
    # simulation of that point alone with the point's seed would seed it.
    run = bisect.bisect_right(task.offsets, flat) - 1
    point, start, _ = task.runs[run]
    index = start + flat - task.offsets[run]
    return point, play_game(task.tasks[point], index, game_seed(task.seeds[point], index))


_CANONICAL: dict[PlayTask, PlayTask] = {}


def _play_chunk(task: PlayTask, start: int, stop: int, seed: int) -> list[GameResult]:
    """Games ``start … stop-1`` of one point (runs on a Dask worker)."""
    # Equal tasks from different chunks become one object, so that the game a worker built for
    # one chunk serves the next (games are cached by task identity).
    if len(_CANONICAL) > 64:
        _CANONICAL.clear()
    task = _CANONICAL.setdefault(task, task)
    return [play_game(task, i, game_seed(seed, i)) for i in range(start, stop)]


def _missing(done: Mapping[int, GameResult], games: int) -> list[tuple[int, int]]:
    """The runs ``[start, stop)`` of game numbers not in ``done``."""
    runs = []
    start = None
    for index in range(games + 1):
        missing = index < games and index not in done
        if missing and start is None:
            start = index
        elif not missing and start is not None:
            runs.append((start, index))
            start = None
    return runs


LOCAL_BATCH = 2000
"""Games the local pool plays between two keepings of finished games (whole points)."""


def _batches(
    runs: Sequence[tuple[int, int, int]], size: int
) -> Iterator[list[tuple[int, int, int]]]:
    """``runs`` in batches of whole points, each of at least ``size`` games (but the last)."""
    batch: list[tuple[int, int, int]] = []
    games = 0
    for number, run in enumerate(runs):
        batch.append(run)
        games += run[2] - run[1]
        last_of_point = number + 1 == len(runs) or runs[number + 1][0] != run[0]
        if games >= size and last_of_point:
            yield batch
            batch, games = [], 0
    if batch:
        yield batch


def _task(registration: Registration, values: Mapping[str, Value], bots: Sequence[str]) -> PlayTask:
    return PlayTask.of(registration, values, bots)


def _prepare(
    registration: Registration, sweep: Sweep, points: Sequence[Point]
) -> tuple[list[PlayTask], int]:
    """Every point's task, checked before the first game (an :class:`InputError` names the
    point), and the number of players."""
    takes_file = {p.name for p in registration.game_type.parameters if p.from_file is not None}
    files = dict(sweep.files)
    tasks = []
    players = 0
    for number, point in enumerate(points, start=1):
        where = f"point {number} ({point.label(sweep.varying)})"
        given = {
            name: files.get(value, value) if name in takes_file else value
            for name, value in point.values
        }
        try:
            values = registration.game_type.parse_parameters(given, where)
            game = registration.load(values)
            names = check_bots(
                registration, point.bots or (registration.default_bot,), game.num_players
            )
        except ParseError as exc:
            if exc.source == where:
                raise
            raise InputError(f"{where}: {exc}") from None
        except InputError as exc:
            raise InputError(f"{where}: {exc}") from None
        players = max(players, game.num_players)
        tasks.append(_task(registration, values, names))
    return tasks, players


def run_sweep(
    registration: Registration,
    sweep: Sweep,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    on_progress: Callable[[int], None] | None = None,
    done: Mapping[int, Mapping[int, GameResult]] | None = None,
    on_games: Callable[[int, Sequence[GameResult]], None] | None = None,
    timeout: float = TIMEOUT,
) -> SweepResult:
    """Play every point of ``sweep`` and report; locally in ``workers`` processes, or on the
    Dask cluster at ``scheduler`` (``"env"``: the address in ``DASK_SCHEDULER_ADDRESS``).

    The sweep's size and every point's parameters and bots are checked before the first game
    (an :class:`InputError` names the point). ``done`` holds games already played (from a
    journal): only the others are played, and the result is the one a run from scratch gives.
    ``on_games(point, games)`` is told of finished games as they come — on Dask chunk by
    chunk, locally after each batch of whole points (:data:`LOCAL_BATCH` games or more) — and
    ``on_progress(n)`` of their number. Ctrl-C stops the run (``interrupted``); a failing
    cluster stops it within about ``timeout`` seconds of waiting (``failure``, one line);
    either way the finished games are reported.
    """
    sweep.check()
    if scheduler is not None:  # an address Dask cannot use is refused before any game
        check_address(scheduler_address(scheduler))
    points = sweep.points()
    tasks, _ = _prepare(registration, sweep, points)
    seeds = tuple(game_seed(sweep.seed, k) for k in range(len(points)))
    finished: list[dict[int, GameResult]] = [
        dict((done or {}).get(k, {})) for k in range(len(points))
    ]
    advance = on_progress or (lambda n: None)
    already = sum(len(f) for f in finished)
    if already:
        advance(already)
    runs = [
        (point, start, stop)
        for point in range(len(points))
        for start, stop in _missing(finished[point], sweep.games)
    ]
    tell = on_games or (lambda point, games: None)
    interrupted, failure, where = False, None, "local"
    if runs and scheduler is not None:
        address = scheduler_address(scheduler)
        where = f"dask {address}"

        def chunks() -> Iterator[tuple[int, tuple[Any, ...]]]:
            for point, start, stop in runs:
                for first in range(start, stop, CHUNK):
                    yield point, (tasks[point], first, min(first + CHUNK, stop), seeds[point])

        def keep(point: int, results: list[GameResult]) -> None:
            for result in results:
                finished[point][result.index] = result
            tell(point, results)
            advance(len(results))

        run = run_on_dask(_play_chunk, chunks(), keep, address=address, timeout=timeout)
        interrupted, failure = run.interrupted, run.failure
    elif runs:
        # The local pool plays the games in batches of whole points, each batch kept (told)
        # when it ends: a crash loses one batch at most, and a new pool per batch costs little.
        # Ctrl-C between batches (while a pool starts or the journal is written) stops the
        # run as one inside a batch does; a game the journal missed is played again on resume.
        try:
            for batch in _batches(runs, LOCAL_BATCH):
                offsets = tuple(itertools.accumulate((b - a for _, a, b in batch), initial=0))
                flat = _SweepTask(tuple(tasks), seeds, tuple(batch), offsets[:-1])
                local = run_games(
                    _play_flat,
                    flat,
                    games=offsets[-1],
                    seed=sweep.seed,
                    workers=workers,
                    on_progress=on_progress,
                )
                new: dict[int, list[GameResult]] = {}
                for point, result in local.results:
                    finished[point][result.index] = result
                    new.setdefault(point, []).append(result)
                for point in sorted(new):
                    tell(point, new[point])
                if local.interrupted:
                    interrupted = True
                    break
        except KeyboardInterrupt:
            interrupted = True
    reports = []
    for task, seed, games in zip(tasks, seeds, finished, strict=True):
        game = registration.load(dict(task.values))
        ordered = tuple(games[i] for i in sorted(games))
        sides = ordered[0].sides if ordered else tuple(f"p{i + 1}" for i in range(game.num_players))
        reports.append(
            PlayReport(
                game=str(game),
                bots=task.bots,
                seed=seed,
                requested=sweep.games,
                sides=sides,
                length_unit=game.length_unit,
                interrupted=len(ordered) < sweep.games,
                results=ordered,
                exclude=tuple(sides[game.num_players :]),
            )
        )
    defaults = tuple((p.name, format_value(p.default)) for p in registration.game_type.parameters)
    return SweepResult(
        sweep, tuple(points), seeds, tuple(reports), interrupted, where, failure, defaults
    )


# ---------------------------------------------------------------------------------------------
# The result


@dataclass(frozen=True, slots=True)
class SweepResult:
    """The reports of every point, in point order, and how the sweep ran: ``interrupted`` by
    Ctrl-C, or stopped by a cluster's ``failure`` (a line), on ``where``."""

    sweep: Sweep
    points: tuple[Point, ...]
    seeds: tuple[int, ...]
    reports: tuple[PlayReport, ...]
    interrupted: bool
    where: str = "local"
    failure: str | None = None
    defaults: tuple[tuple[str, str], ...] = ()
    """Each parameter's default as text: the value of a point that does not set it."""
    figures: tuple[tuple[Figure, ...], ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.figures:
            made = tuple(tuple(point_figures(play)) for play in self.reports)
            object.__setattr__(self, "figures", made)

    @property
    def complete(self) -> bool:
        """Whether every game of every point was played."""
        return all(play.games == self.sweep.games for play in self.reports)

    @property
    def games(self) -> int:
        """The games played."""
        return sum(play.games for play in self.reports)

    def coordinates(self) -> list[dict[str, str]]:
        """Each point's value of each varying name (a point that does not set a parameter has
        its default), ``bots`` as ``greedy+random``."""
        defaults = dict(self.defaults)
        out = []
        for point, play in zip(self.points, self.reports, strict=True):
            values = dict(point.values)
            row = {}
            for name in self.sweep.varying:
                if name == "bots":
                    row[name] = "+".join(play.bots)
                else:
                    row[name] = values.get(name, defaults.get(name, "default"))
            out.append(row)
        return out

    def columns(self) -> list[Column]:
        """Every column of the points' figures, in first-seen order."""
        return columns_of(self.figures)

    def rows(self) -> list[dict[str, Any]]:
        """One row per point: the varying parameters, the point's seed and its figures."""
        out = []
        for coordinate, seed, figures in zip(
            self.coordinates(), self.seeds, self.figures, strict=True
        ):
            row: dict[str, Any] = {**coordinate, "seed": seed}
            for figure in figures:
                row |= figure.flat()
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
            "failure": self.failure,
            "complete": self.complete,
            "columns": [column.to_json() for column in self.columns()],
            "points": [
                {
                    "point": dict(point.values),
                    "bots": list(play.bots),
                    "seed": seed,
                    "metrics": {k: v for f in figures for k, v in f.flat().items()},
                    "report": play.to_json(),
                }
                for point, seed, play, figures in zip(
                    self.points, self.seeds, self.reports, self.figures, strict=True
                )
            ],
        }

    def csv(self) -> str:
        """The rows as CSV: every column of every point, in first-seen order (a figure a point
        does not have, such as a bot it does not play, is left empty)."""
        rows = self.rows()
        buffer = io.StringIO()
        if rows:
            names = list(dict.fromkeys(name for row in rows for name in row))
            writer = csv.DictWriter(buffer, fieldnames=names, lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        return buffer.getvalue()

    def charts(self) -> dict[str, bytes]:
        """A chart of every rate and mean, by file name (PNG and SVG): a line over one varying
        name, heatmaps over two, a panel for each value of every further one
        (:func:`~runarch_gen.play.charts.sweep_charts`)."""
        from runarch_gen.play.charts import sweep_charts

        dimensions = list(self.sweep.varying)
        coordinates = self.coordinates()
        # Listed points that agree on every varying name (the same point twice, with its own
        # seed each) are told apart by a dimension of their own rather than drawn over each
        # other.
        seen: dict[tuple[str, ...], int] = {}
        copies = []
        for coordinate in coordinates:
            key = tuple(coordinate[d] for d in dimensions)
            seen[key] = seen.get(key, 0) + 1
            copies.append(str(seen[key]))
        if any(c != "1" for c in copies):
            dimensions.append("copy")
            coordinates = [c | {"copy": n} for c, n in zip(coordinates, copies, strict=True)]
        return sweep_charts(
            dimensions,
            coordinates,
            [{f.column.name: f for f in figures} for figures in self.figures],
            self.columns(),
            title=f"{self.sweep.game}, {self.sweep.games} games per point",
        )

    def table(self) -> str:
        """The points as an aligned text table: the varying names, then each figure with its
        interval (win rates of a line-up together); the game's own numbers are in the CSV and
        the JSON."""
        varying = list(self.sweep.varying)
        shown: list[Column] = []
        groups: dict[str, str] = {}
        for column in self.columns():
            if column.name.startswith("win_seat_"):
                groups[column.name] = "seats"
            elif column.name.startswith("win_"):
                groups[column.name] = "wins"
            elif column.name.startswith("mean_") or column.kind == "p":
                continue
            else:
                shown.append(column)
        head = [*varying, *(c.title for c in shown)]
        extra = list(dict.fromkeys(groups.values()))
        head += extra
        lines = []
        for coordinate, figures in zip(self.coordinates(), self.figures, strict=True):
            by_name = {f.column.name: f for f in figures}
            cells = [coordinate[name] for name in varying]
            cells += [by_name[c.name].text() if c.name in by_name else "-" for c in shown]
            for group in extra:
                parts = [
                    f"{f.column.label.removesuffix(' wins').removeprefix('seat ')} {f.text()}"
                    for f in figures
                    if groups.get(f.column.name) == group
                ]
                cells.append("; ".join(parts) or "-")
            lines.append(cells)
        widths = [max(len(h), *(len(c[i]) for c in lines)) for i, h in enumerate(head)]
        out = ["  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)).rstrip()]
        out += [
            "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()
            for cells in lines
        ]
        status = ""
        if self.failure:
            status = " (stopped: the cluster failed)"
        elif self.interrupted:
            status = " (interrupted)"
        played = f"{self.games:,} of {len(self.points) * self.sweep.games:,} games"
        out.insert(
            0,
            f"sweep of {self.sweep.game}: {len(self.points)}"
            f" point{'s' if len(self.points) != 1 else ''} × {self.sweep.games} games"
            f" ({played}), seed {self.sweep.seed}, ran on {self.where}{status}",
        )
        return "\n".join(out)
