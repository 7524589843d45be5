"""Decks in and out of files: JSON and CSV (documented in docs/guide/decks.md).

**JSON** — one object, a format marker and version, then one card per line::

    {
      "format": "runarch-deck",
      "version": 1,
      "cards": [
        {"id": 1, "pattern": ["0R", "3B", "4G", "5Y", "6V"], "match": "5Y",
         "goal": {"kind": "colour", "colour": "blue", "colour_count": 3, "reward": 6},
         "arrows": ["N", "SE"]},
        ...
      ]
    }

Goal kinds are ``colour``, ``shape``, ``colour+shape``, ``colours`` and ``shapes``; ``colour``
and ``colour_count`` appear when the kind counts colours, ``shape`` and ``shape_count`` when it
counts shapes (the fields of :class:`~runarch_gen.runarch.decks.cards.Goal`).

**CSV** — one row per card under the header :data:`CSV_COLUMNS`, so that a designer can sort and
edit a deck in a spreadsheet; ``goal`` is the goal's text (``blue>=3 & triangle>=2``,
``colours>=4``). Commas or semicolons separate the cells.

Reading is strict: the first problem raises a :class:`ParseError` naming the file, the line and
column, and the JSON field or CSV column. Content that parses but breaks a rule (a pattern that
repeats a colour, two equal patterns, one arrow instead of two) is read as it is, for
:mod:`~runarch_gen.runarch.decks.check` to report.

>>> deck = parse_deck_csv("id,p1,p2,p3,p4,p5,match,goal,reward,arrow1,arrow2\\n"
...                       "1,0R,3B,4G,5Y,6V,5Y,blue>=3,6,N,SE\\n", source="x.csv")
>>> deck.cards[0].goal.text, deck_to_csv(deck).splitlines()[1]
('blue>=3', '1,0R,3B,4G,5Y,6V,5Y,blue>=3,6,N,SE')
>>> parse_deck_csv("id,p1,p2,p3,p4,p5,match,goal,reward,arrow1,arrow2\\n"
...                "1,0R,3B,4G,5Q,6V,5Y,blue>=3,6,N,SE\\n", source="x.csv")
Traceback (most recent call last):
...
runarch_gen.errors.ParseError: x.csv:2:5: column p4: unknown code '5Q': expected a shape digit \
(0 3 4 5 6) and a colour letter (R B G Y V), e.g. 5Y
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from json import decoder as json_decoder
from json import scanner as json_scanner
from typing import Any, Literal, TypeVar

from runarch_gen.errors import InputError, ParseError
from runarch_gen.fileio import atomic_write, display_name, read_text
from runarch_gen.runarch.atoms import (
    Direction,
    parse_colour,
    parse_direction,
    parse_piece,
    parse_shape,
)
from runarch_gen.runarch.decks.cards import (
    PATTERN_LENGTH,
    Calibration,
    Card,
    Deck,
    Goal,
    GoalKind,
    Pattern,
    parse_goal,
)
from runarch_gen.textdata import loads_json

__all__ = [
    "CSV_COLUMNS",
    "FORMAT_MARKER",
    "FORMAT_VERSION",
    "DeckFormat",
    "calibration_json",
    "card_json",
    "deck_format_for_path",
    "deck_json",
    "deck_to_csv",
    "deck_to_json",
    "goal_json",
    "parse_deck",
    "parse_deck_csv",
    "parse_deck_json",
    "read_deck",
    "sniff_deck",
    "write_deck",
]

DeckFormat = Literal["json", "csv"]
MAX_READ_CARDS = 1000
"""The most cards a deck file may hold; a deck plays with 30 to 100 [R-01]."""
FORMAT_MARKER = "runarch-deck"
FORMAT_VERSION = 1
PATTERN_COLUMNS = tuple(f"p{i + 1}" for i in range(PATTERN_LENGTH))
CSV_COLUMNS: tuple[str, ...] = (
    "id",
    *PATTERN_COLUMNS,
    "match",
    "goal",
    "reward",
    "arrow1",
    "arrow2",
)
"""The CSV header, in the order written: card id, the pattern's five codes, the match area's
code, the goal's text and reward, the two automa arrows [R-03]."""

_CARD_KEYS = ("id", "pattern", "match", "goal", "arrows")
_GOAL_KEYS = ("kind", "colour", "colour_count", "shape", "shape_count", "reward")


# ---------------------------------------------------------------------------------------------
# Writing


def goal_json(goal: Goal) -> dict[str, Any]:
    """A goal as the JSON object of the deck format."""
    out: dict[str, Any] = {"kind": goal.kind.value}
    if goal.colour is not None:
        out["colour"] = goal.colour.english
    if goal.colour is not None or goal.kind is GoalKind.COLOURS:
        out["colour_count"] = goal.colour_count
    if goal.shape is not None:
        out["shape"] = goal.shape.english
    if goal.shape is not None or goal.kind is GoalKind.SHAPES:
        out["shape_count"] = goal.shape_count
    out["reward"] = goal.reward
    return out


def card_json(card: Card) -> dict[str, Any]:
    return {
        "id": card.id,
        "pattern": [piece.code for piece in card.pattern],
        "match": card.match.code,
        "goal": goal_json(card.goal),
        "arrows": [direction.name for direction in card.arrows],
    }


def calibration_json(calibration: Calibration) -> dict[str, Any]:
    """How the rewards were calibrated, as the deck format's ``calibration`` object."""
    return {
        "variant": calibration.variant,
        "bots": list(calibration.bots),
        "games": calibration.games,
        "seed": calibration.seed,
        "board": calibration.board,
        "rates": {goal: [met, players] for goal, met, players in calibration.rates},
    }


def deck_json(deck: Deck) -> dict[str, Any]:
    """The deck as the JSON document of the deck format (a dict)."""
    document: dict[str, Any] = {"format": FORMAT_MARKER, "version": FORMAT_VERSION}
    if deck.calibration is not None:
        document["calibration"] = calibration_json(deck.calibration)
    document["cards"] = [card_json(card) for card in deck]
    return document


def deck_to_json(deck: Deck) -> str:
    """The deck as JSON text: one card per line, so that files diff well."""
    cards = ",\n".join("    " + json.dumps(card_json(card)) for card in deck)
    body = f"\n{cards}\n  " if cards else ""
    calibration = ""
    if deck.calibration is not None:
        calibration = f'  "calibration": {json.dumps(calibration_json(deck.calibration))},\n'
    return (
        "{\n"
        f'  "format": {json.dumps(FORMAT_MARKER)},\n'
        f'  "version": {FORMAT_VERSION},\n'
        f"{calibration}"
        f'  "cards": [{body}]\n'
        "}\n"
    )


def deck_to_csv(deck: Deck) -> str:
    """The deck as CSV text, one row per card under :data:`CSV_COLUMNS`."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for card in deck:
        arrows = [direction.name for direction in card.arrows]
        if len(arrows) > 2:
            raise InputError(f"card {card.id}: {len(arrows)} arrows do not fit the CSV columns")
        arrows += [""] * (2 - len(arrows))
        writer.writerow(
            [
                card.id,
                *(piece.code for piece in card.pattern),
                card.match.code,
                card.goal.text,
                card.goal.reward,
                *arrows,
            ]
        )
    return out.getvalue()


def deck_format_for_path(path: str | os.PathLike[str], default: DeckFormat = "json") -> DeckFormat:
    """``csv`` for a ``.csv`` file, ``json`` for ``.json``, else ``default``."""
    suffix = os.path.splitext(str(path))[1].lower()
    return {".csv": "csv", ".json": "json"}.get(suffix, default)  # type: ignore[return-value]


def write_deck(deck: Deck, path: str | os.PathLike[str], fmt: DeckFormat | None = None) -> None:
    """Write ``deck`` to ``path`` (``-`` is stdout) through a temporary file and a rename."""
    chosen = fmt or deck_format_for_path(path)
    atomic_write(path, deck_to_csv(deck) if chosen == "csv" else deck_to_json(deck))


# ---------------------------------------------------------------------------------------------
# Reading


def read_deck(path: str | os.PathLike[str]) -> Deck:
    """The deck in the JSON or CSV file ``path`` (``-`` is stdin), told apart by content.

    Raises :class:`ParseError` naming file, line, column and field at the first problem.
    """
    return require_unique_ids(parse_deck(read_text(path), source=display_name(path)), path)


def require_unique_ids(deck: Deck, source: str | os.PathLike[str]) -> Deck:
    """``deck``, unless two of its cards share an id: a deck to play or print needs each card
    once (``runarch-gen check`` reports this and every other problem of a deck file)."""
    seen: set[int] = set()
    for card in deck.cards:
        if card.id in seen:
            raise InputError(
                f"{display_name(source)}: card id {card.id} appears twice"
                f" (runarch-gen check {display_name(source)} lists every problem)"
            )
        seen.add(card.id)
    return deck


def parse_deck(text: str, *, source: str = "<deck>") -> Deck:
    """A deck from JSON or CSV text (JSON when the text starts with ``{``)."""
    if text.lstrip().startswith("{"):
        return parse_deck_json(text, source=source)
    return parse_deck_csv(text, source=source)


_JSON_MARKER = re.compile(r'"format"\s*:\s*"' + re.escape(FORMAT_MARKER) + '"')


def sniff_deck(text: str) -> DeckFormat | None:
    """``json`` or ``csv`` when ``text`` looks like a deck file (the JSON format marker, or a CSV
    header with the deck's columns), else ``None``. Used to tell decks from other files."""
    stripped = text.lstrip()
    if stripped.startswith("{") and _JSON_MARKER.search(stripped[:4096]):
        return "json"
    first = next((line for line in stripped.splitlines() if line.strip()), "")
    cells = {cell.strip().strip('"').lower() for cell in re.split(r"[,;]", first)}
    if {"id", "p1", "match", "goal"} <= cells:
        return "csv"
    return None


# CSV


def parse_deck_csv(text: str, *, source: str = "<deck>") -> Deck:
    """A deck from CSV text with the header :data:`CSV_COLUMNS` (any order, any case)."""
    lines = text.splitlines()
    header_line = next((line for line in lines if line.strip()), None)
    if header_line is None:
        raise ParseError(
            "empty file: expected a CSV header " + ",".join(CSV_COLUMNS), source=source
        )
    delimiter = ";" if header_line.count(";") > header_line.count(",") else ","
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    column_of: dict[str, int] = {}
    cards: list[Card] = []
    try:
        for row in rows:
            if not any(cell.strip() for cell in row):
                continue
            line = rows.line_num
            if not column_of:
                column_of = _csv_header(row, source, line)
                continue
            if len(cards) == MAX_READ_CARDS:
                raise ParseError(
                    f"more than {MAX_READ_CARDS} cards (a deck has 30 to 100 [R-01])",
                    source=source,
                    line=line,
                )
            cards.append(_csv_card(row, column_of, source, line))
    except csv.Error as exc:
        raise ParseError(f"malformed CSV: {exc}", source=source, line=rows.line_num) from None
    return Deck(tuple(cards))


def _csv_header(row: list[str], source: str, line: int) -> dict[str, int]:
    column_of: dict[str, int] = {}
    for index, cell in enumerate(row):
        name = cell.strip().lower()
        if name not in CSV_COLUMNS:
            raise ParseError(
                f"unknown column {cell.strip()!r}: a deck has the columns {','.join(CSV_COLUMNS)}",
                source=source,
                line=line,
                column=index + 1,
            )
        if name in column_of:
            raise ParseError(f"column {name} twice", source=source, line=line, column=index + 1)
        column_of[name] = index
    missing = [name for name in CSV_COLUMNS if name not in column_of]
    if missing:
        raise ParseError(
            f"missing column{'s' if len(missing) > 1 else ''} {', '.join(missing)}:"
            f" a deck has the columns {','.join(CSV_COLUMNS)}",
            source=source,
            line=line,
        )
    return column_of


T = TypeVar("T")


def _csv_card(row: list[str], column_of: Mapping[str, int], source: str, line: int) -> Card:
    def cell(name: str) -> str:
        index = column_of[name]
        return row[index].strip() if index < len(row) else ""

    def read(name: str, parse: Callable[[str], T]) -> T:
        text = cell(name)
        try:
            if not text:
                raise ParseError("empty cell")
            return parse(text)
        except ParseError as exc:
            raise ParseError(
                f"column {name}: {exc.message}",
                source=source,
                line=line,
                column=column_of[name] + 1,
            ) from None

    if len(row) > len(column_of):
        raise ParseError(
            f"{len(row)} cells, the header has {len(column_of)}",
            source=source,
            line=line,
            column=len(column_of) + 1,
        )
    card_id = read("id", _card_id)
    pattern = Pattern(tuple(read(name, parse_piece) for name in PATTERN_COLUMNS))
    match = read("match", parse_piece)
    goal = read("goal", lambda text: parse_goal(text, 0))
    goal = replace(goal, reward=read("reward", _integer))
    arrows = tuple(read(name, parse_direction) for name in ("arrow1", "arrow2") if cell(name))
    return Card(card_id, pattern, match, goal, arrows)


def _integer(text: str) -> int:
    if not re.fullmatch(r"[+-]?[0-9]{1,9}", text):
        raise ParseError(f"{text[:20]!r} is not a whole number of at most 9 digits")
    return int(text)


def _card_id(text: str) -> int:
    value = _integer(text)
    if value < 1:
        raise ParseError(f"card id {value}: ids are whole numbers from 1")
    return value


# JSON


@dataclass(frozen=True, slots=True)
class _At:
    """A JSON value and the offset in the text where it starts."""

    value: Any
    pos: int


def _located_decoder() -> json.JSONDecoder:
    """A decoder that wraps every array element and object value in an :class:`_At`."""
    decoder = json.JSONDecoder()
    hooks: Any = decoder  # parse_object, parse_array and scan_once are untyped attributes

    def located(scan_once: Any) -> Any:
        def scan(text: str, index: int) -> tuple[_At, int]:
            value, end = scan_once(text, index)
            return _At(value, index), end

        return scan

    hooks.parse_object = lambda state, strict, scan_once, *rest: json_decoder.JSONObject(  # type: ignore[attr-defined]
        state, strict, located(scan_once), *rest
    )
    hooks.parse_array = lambda state, scan_once: json_decoder.JSONArray(  # type: ignore[attr-defined]
        state, located(scan_once)
    )
    hooks.scan_once = json_scanner.py_make_scanner(decoder)  # type: ignore[attr-defined]
    return decoder


class _JsonReader:
    """Walks a located JSON document, raising errors that name the field and its place."""

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source

    def fail(self, message: str, path: str, at: _At) -> ParseError:
        line = self.text.count("\n", 0, at.pos) + 1
        column = at.pos - (self.text.rfind("\n", 0, at.pos) + 1) + 1
        prefix = f"{path}: " if path else ""
        return ParseError(prefix + message, source=self.source, line=line, column=column)

    def object(
        self, at: _At, path: str, keys: tuple[str, ...], required: tuple[str, ...]
    ) -> dict[str, _At]:
        if not isinstance(at.value, dict):
            raise self.fail(f"expected an object, found {_json_kind(at.value)}", path, at)
        fields: dict[str, _At] = at.value
        for key, value in fields.items():
            if key not in keys:
                raise self.fail(
                    f"unknown field {key!r}: expected {', '.join(keys)}", _join(path, key), value
                )
        for key in required:
            if key not in fields:
                raise self.fail(f"missing field {key!r}", path, at)
        return fields

    def list(self, at: _At, path: str) -> list[_At]:
        if not isinstance(at.value, list):
            raise self.fail(f"expected a list, found {_json_kind(at.value)}", path, at)
        items: list[_At] = at.value
        return items

    def string(self, at: _At, path: str) -> str:
        if not isinstance(at.value, str):
            raise self.fail(f"expected a string, found {_json_kind(at.value)}", path, at)
        return at.value

    def integer(self, at: _At, path: str) -> int:
        if isinstance(at.value, bool) or not isinstance(at.value, int):
            raise self.fail(f"expected a whole number, found {_json_kind(at.value)}", path, at)
        return at.value

    def parsed(self, at: _At, path: str, parse: Callable[[str], T]) -> T:
        text = self.string(at, path)
        try:
            return parse(text)
        except ParseError as exc:
            raise self.fail(exc.message, path, at) from None


def parse_deck_json(text: str, *, source: str = "<deck>") -> Deck:
    """A deck from the JSON deck format (see the module docstring)."""
    loads_json(text, source)  # the fast decoder finds syntax errors and reports them well
    try:
        document: _At = _located_decoder().decode(text)
    except json.JSONDecodeError as exc:
        raise ParseError(
            f"malformed JSON: {exc.msg}", source=source, line=exc.lineno, column=exc.colno
        ) from None
    start = len(text) - len(text.lstrip())
    root = _At(document, start) if not isinstance(document, _At) else document
    return _deck_from_located(_JsonReader(text, source), root)


def _deck_from_located(reader: _JsonReader, root: _At) -> Deck:
    fields = reader.object(
        root, "", ("format", "version", "calibration", "cards"), ("format", "version", "cards")
    )
    marker = fields["format"]
    if marker.value != FORMAT_MARKER:
        raise reader.fail(f"not a RunArch deck: format must be {FORMAT_MARKER!r}", "format", marker)
    version = reader.integer(fields["version"], "version")
    if version != FORMAT_VERSION:
        raise reader.fail(
            f"deck format version {version}: this runarch-gen reads version {FORMAT_VERSION}",
            "version",
            fields["version"],
        )
    items = reader.list(fields["cards"], "cards")
    if len(items) > MAX_READ_CARDS:
        raise reader.fail(
            f"more than {MAX_READ_CARDS} cards (a deck has 30 to 100 [R-01])",
            "cards",
            fields["cards"],
        )
    cards = [_json_card(reader, item, f"cards[{index}]") for index, item in enumerate(items)]
    calibration = None
    if "calibration" in fields:
        calibration = _json_calibration(reader, fields["calibration"], "calibration")
    return Deck(tuple(cards), calibration)


def _json_calibration(reader: _JsonReader, at: _At, path: str) -> Calibration:
    keys = ("variant", "bots", "games", "seed", "board", "rates")
    fields = reader.object(at, path, keys, keys[:5])
    games = reader.integer(fields["games"], _join(path, "games"))
    if games < 1:
        raise reader.fail("must be at least 1", _join(path, "games"), fields["games"])
    rates: list[tuple[str, int, int]] = []
    if "rates" in fields:
        table = fields["rates"]
        if not isinstance(table.value, dict):
            raise reader.fail(
                f"expected an object, found {_json_kind(table.value)}", _join(path, "rates"), table
            )
        for goal, pair in table.value.items():
            where = f"{_join(path, 'rates')}[{goal!r}]"
            items = reader.list(pair, where)
            if len(items) != 2:
                raise reader.fail("expected [times met, players counted]", where, pair)
            met, players = (reader.integer(item, where) for item in items)
            if not 0 <= met <= players:
                raise reader.fail("expected 0 <= times met <= players counted", where, pair)
            rates.append((goal, met, players))
    return Calibration(
        variant=reader.string(fields["variant"], _join(path, "variant")),
        bots=tuple(
            reader.string(item, f"{_join(path, 'bots')}[{i}]")
            for i, item in enumerate(reader.list(fields["bots"], _join(path, "bots")))
        ),
        games=games,
        seed=reader.integer(fields["seed"], _join(path, "seed")),
        board=reader.string(fields["board"], _join(path, "board")),
        rates=tuple(rates),
    )


def _json_card(reader: _JsonReader, at: _At, path: str) -> Card:
    fields = reader.object(at, path, _CARD_KEYS, _CARD_KEYS)
    card_id = reader.integer(fields["id"], _join(path, "id"))
    if card_id < 1:
        raise reader.fail(
            f"card id {card_id}: ids are whole numbers from 1", _join(path, "id"), fields["id"]
        )
    pattern_path = _join(path, "pattern")
    stones = reader.list(fields["pattern"], pattern_path)
    if len(stones) != PATTERN_LENGTH:
        raise reader.fail(
            f"a pattern has {PATTERN_LENGTH} codes, found {len(stones)}",
            pattern_path,
            fields["pattern"],
        )
    pattern = Pattern(
        tuple(
            reader.parsed(stone, f"{pattern_path}[{i}]", parse_piece)
            for i, stone in enumerate(stones)
        )
    )
    match = reader.parsed(fields["match"], _join(path, "match"), parse_piece)
    goal = _json_goal(reader, fields["goal"], _join(path, "goal"))
    arrows_path = _join(path, "arrows")
    arrow_items = reader.list(fields["arrows"], arrows_path)
    if len(arrow_items) > 8:
        raise reader.fail("at most 8 arrows (a card shows 2 [R-03])", arrows_path, fields["arrows"])
    arrows: tuple[Direction, ...] = tuple(
        reader.parsed(item, f"{arrows_path}[{i}]", parse_direction)
        for i, item in enumerate(arrow_items)
    )
    return Card(card_id, pattern, match, goal, arrows)


_KIND_FIELDS: dict[GoalKind, tuple[str, ...]] = {
    GoalKind.COLOUR: ("colour", "colour_count"),
    GoalKind.SHAPE: ("shape", "shape_count"),
    GoalKind.COLOUR_AND_SHAPE: ("colour", "colour_count", "shape", "shape_count"),
    GoalKind.COLOURS: ("colour_count",),
    GoalKind.SHAPES: ("shape_count",),
}


def _json_goal(reader: _JsonReader, at: _At, path: str) -> Goal:
    fields = reader.object(at, path, _GOAL_KEYS, ("kind", "reward"))
    kind_text = reader.string(fields["kind"], _join(path, "kind"))
    kinds = {kind.value: kind for kind in GoalKind}
    kind = kinds.get(kind_text)
    if kind is None:
        raise reader.fail(
            f"unknown goal kind {kind_text!r}: expected {', '.join(kinds)}",
            _join(path, "kind"),
            fields["kind"],
        )
    needed = _KIND_FIELDS[kind]
    for key in ("colour", "colour_count", "shape", "shape_count"):
        if key in fields and key not in needed:
            raise reader.fail(
                f"a {kind.value!r} goal has no {key!r}", _join(path, key), fields[key]
            )
        if key in needed and key not in fields:
            raise reader.fail(f"a {kind.value!r} goal needs {key!r}", path, at)
    colour = (
        reader.parsed(fields["colour"], _join(path, "colour"), parse_colour)
        if "colour" in fields
        else None
    )
    shape = (
        reader.parsed(fields["shape"], _join(path, "shape"), parse_shape)
        if "shape" in fields
        else None
    )
    colour_count = (
        reader.integer(fields["colour_count"], _join(path, "colour_count"))
        if "colour_count" in fields
        else 0
    )
    shape_count = (
        reader.integer(fields["shape_count"], _join(path, "shape_count"))
        if "shape_count" in fields
        else 0
    )
    reward = reader.integer(fields["reward"], _join(path, "reward"))
    return Goal(kind, reward, colour, colour_count, shape, shape_count)


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _json_kind(value: Any) -> str:
    if isinstance(value, _At):
        value = value.value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return f"number {value}"
    if isinstance(value, str):
        return f"string {value!r}"
    if isinstance(value, list):
        return "a list"
    return "an object"
