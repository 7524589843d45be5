"""Boards in and out of files: text, JSON and JSON Lines.

Formats (documented in docs/guide/boards.md):

- **text**: a board is 5 lines of 5 codes separated by spaces (commas also work); boards are
  separated by blank lines; lines starting with ``#`` are comments.
- **JSON**: one board object ``{"tiles": [[5 codes] × 5 rows], ...}``, or a list of them. Keys
  other than ``tiles`` (``seed``, ``engine``, ``constraints``, ``index``) describe how the board
  was made and are ignored when reading.
- **JSON Lines**: one board object per line.

:func:`scan_boards` reads leniently — every board, readable or not, with every problem located
by line and column — for the checker. :func:`read_boards` is strict: the first problem raises a
:class:`ParseError` naming file, line and column.

>>> [b.at(0).code for b in parse_boards('{"tiles": [["0R","3B","4G","5Y","6V"]]}', source="x")]
Traceback (most recent call last):
...
runarch_gen.errors.ParseError: x:1:11: tiles has 1 row, expected 5
"""

from __future__ import annotations

import json
import json.scanner
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from runarch_gen.errors import InputError, ParseError
from runarch_gen.fileio import atomic_write, display_name, read_text
from runarch_gen.runarch.atoms import PIECES, SIZE, Piece, parse_piece
from runarch_gen.runarch.boards.board import Board
from runarch_gen.textdata import loads_json

__all__ = [
    "BoardRecord",
    "TextFormat",
    "board_json",
    "detect_format",
    "format_board",
    "format_boards",
    "parse_boards",
    "read_board",
    "read_boards",
    "scan_boards",
    "write_boards",
]

TextFormat = Literal["text", "json", "jsonl"]

# Every accepted spelling of every code, upper-cased: a dict lookup instead of a parse per tile.
_PIECE_BY_TEXT: dict[str, Piece] = {
    spelling: piece
    for piece in PIECES
    for spelling in (piece.code, piece.colour.letter + piece.shape.digit)
}


# Codes of the 25 canonical pieces by object identity: writing thousands of boards spends most
# of its time naming pieces, and the `code` property is slow in comparison. Other Piece objects
# (equal but not identical) fall back to the property.
_CODE_BY_ID: dict[int, str] = {id(piece): piece.code for piece in PIECES}


def _codes(board: Board) -> list[str]:
    """The 25 codes in reading order."""
    try:
        return list(map(_CODE_BY_ID.__getitem__, map(id, board.tiles)))
    except KeyError:
        return [piece.code for piece in board.tiles]


def _rows(board: Board) -> list[list[str]]:
    codes = _codes(board)
    return [codes[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)]


def _piece(text: str) -> Piece:
    piece = _PIECE_BY_TEXT.get(text.strip().upper())
    return piece if piece is not None else parse_piece(text)  # parse_piece raises the error


@dataclass(frozen=True, slots=True)
class BoardRecord:
    """One board as read from a file: the board, or the problems that kept it from being read.

    ``line`` is the line where the board starts; ``errors`` are located :class:`ParseError`\\ s.
    """

    source: str
    line: int
    board: Board | None
    errors: tuple[ParseError, ...] = ()


# ---------------------------------------------------------------------------------------------
# Reading


def detect_format(text: str) -> TextFormat:
    """``text`` unless the text starts with ``{`` or ``[``; then ``jsonl`` when there are
    several non-blank lines and the first is a JSON value by itself, else ``json``."""
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    if not lines or lines[0][0] not in "{[":
        return "text"
    if len(lines) > 1:
        try:
            loads_json(lines[0])
        except ParseError:
            return "json"  # a document spread over several lines
        return "jsonl"
    return "json"


def scan_boards(text: str, *, source: str = "<string>") -> list[BoardRecord]:
    """Every board in ``text`` (any of the three formats), each with its problems located.

    A file-level problem (no board at all, a JSON syntax error in a JSON document) is a record
    without a board.
    """
    fmt = detect_format(text)
    if fmt == "text":
        records = _scan_text(text, source)
    elif fmt == "jsonl":
        records = []
        for number, line in enumerate(text.split("\n"), start=1):  # JSON Lines: \n only
            if line.strip():
                records.extend(_scan_json(line, source, first_line=number))
    else:
        records = _scan_json(text, source, first_line=1)
    if not records:
        error = ParseError("no board found: expected 5 lines of 5 codes, or JSON", source=source)
        records = [BoardRecord(source, 1, None, (error,))]
    return records


def parse_boards(text: str, *, source: str = "<string>") -> list[Board]:
    """The boards in ``text``; the first problem raises a located :class:`ParseError`."""
    boards: list[Board] = []
    for record in scan_boards(text, source=source):
        if record.errors:
            raise record.errors[0]
        assert record.board is not None
        boards.append(record.board)
    return boards


def read_boards(path: str | os.PathLike[str]) -> list[Board]:
    """The boards in the file at ``path`` (``-`` is stdin), in any of the three formats.

    Boards are read as arrangements, valid or not (the tiles of a board and the stones lying
    on it are read alike); :mod:`runarch_gen.runarch.boards.check` says whether they are valid.
    Raises :class:`InputError` for an unreadable file, :class:`ParseError` (with file, line and
    column) for text that is not boards.
    """
    return parse_boards(read_text(path), source=display_name(path))


def read_board(path: str | os.PathLike[str]) -> Board:
    """The one board in the file at ``path``; more than one is an :class:`InputError`."""
    boards = read_boards(path)
    if len(boards) != 1:
        raise InputError(f"{display_name(path)}: holds {len(boards)} boards, expected one")
    return boards[0]


_TOKEN = re.compile(r"[^\s,;]+")


def _scan_text(text: str, source: str) -> list[BoardRecord]:
    records: list[BoardRecord] = []
    block: list[tuple[int, str]] = []
    lines = text.splitlines()
    for number, line in enumerate([*lines, ""], start=1):
        stripped = line.strip()
        if stripped.startswith("#"):
            continue
        if stripped:
            block.append((number, line))
        elif block:
            records.append(_text_board(block, source))
            block = []
    return records


def _text_board(block: list[tuple[int, str]], source: str) -> BoardRecord:
    errors: list[ParseError] = []
    rows: list[list[Piece]] = []
    first = block[0][0]
    if len(block) != SIZE:
        hint = " (separate boards with a blank line)" if len(block) > SIZE else ""
        errors.append(
            ParseError(
                f"board has {_plural(len(block), 'row')}, expected {SIZE}{hint}",
                source=source,
                line=first,
                column=1,
            )
        )
    for number, line in block:
        tokens = list(_TOKEN.finditer(line))
        row: list[Piece] = []
        for match in tokens:
            try:
                row.append(_piece(match.group()))
            except ParseError as exc:
                errors.append(exc.located(source, number, match.start() + 1))
        if len(tokens) != SIZE:
            # Point at the first code too many, or at the row's first code when some are missing.
            column = tokens[SIZE if len(tokens) > SIZE else 0].start() + 1 if tokens else 1
            errors.append(
                ParseError(
                    f"row has {_plural(len(tokens), 'code')}, expected {SIZE}",
                    source=source,
                    line=number,
                    column=column,
                )
            )
        rows.append(row)
    if errors:
        return BoardRecord(source, first, None, tuple(errors))
    return BoardRecord(source, first, Board.from_rows(rows))


# JSON with positions: a decoder that wraps every value inside a list or an object in an
# `_At(value, pos)`, used only to locate a problem once the fast C decoder has found one.


@dataclass(frozen=True, slots=True)
class _At:
    value: Any
    pos: int


class _LocatingDecoder(json.JSONDecoder):
    def __init__(self) -> None:
        super().__init__()
        context: Any = self  # the decoder's parse_* hooks are untyped attributes
        parse_array, parse_object = context.parse_array, context.parse_object

        def locating(scan: Any) -> Any:
            def scan_once(text: str, idx: int) -> tuple[_At, int]:
                value, end = scan(text, idx)
                return _At(value, idx), end

            return scan_once

        def located_array(state: tuple[str, int], scan: Any) -> tuple[Any, int]:
            return parse_array(state, locating(scan))  # type: ignore[no-any-return]

        def located_object(state: tuple[str, int], strict: bool, scan: Any, *rest: Any) -> Any:
            return parse_object(state, strict, locating(scan), *rest)

        context.parse_array = located_array
        context.parse_object = located_object
        context.scan_once = json.scanner.py_make_scanner(self)  # type: ignore[attr-defined]

    def decode_located(self, text: str) -> _At:
        start = len(text) - len(text.lstrip())
        return _At(self.decode(text), start)


def _unwrap(value: Any) -> tuple[Any, int | None]:
    return (value.value, value.pos) if isinstance(value, _At) else (value, None)


def _line_column(text: str, pos: int, first_line: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos)
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return first_line + line, column


def _scan_json(text: str, source: str, *, first_line: int) -> list[BoardRecord]:
    try:
        document: Any = loads_json(text, source, first_line=first_line)
    except ParseError as error:
        return [BoardRecord(source, error.line or first_line, None, (error,))]
    items = document if isinstance(document, list) else [document]
    records = [_json_board(item, None, source, first_line) for item in items]
    if any(record.errors for record in records):
        # Read again with positions, so that every problem gets its line and column.
        located = _LocatingDecoder().decode_located(text)
        items = located.value if isinstance(located.value, list) else [located]
        records = [_json_board(item, text, source, first_line) for item in items]
    return records


def _json_board(item: Any, text: str | None, source: str, first_line: int) -> BoardRecord:
    errors: list[ParseError] = []

    def where(pos: int | None) -> tuple[int, int | None]:
        if text is None or pos is None:
            return first_line, None
        return _line_column(text, pos, first_line)

    def fail(message: str, pos: int | None) -> None:
        line, column = where(pos)
        errors.append(ParseError(message, source=source, line=line, column=column))

    board, board_pos = _unwrap(item)
    start = where(board_pos)[0]
    if not isinstance(board, dict):
        fail(f'expected a board object {{"tiles": [...]}}, found {_json_kind(board)}', board_pos)
        return BoardRecord(source, start, None, tuple(errors))
    if "tiles" not in board:
        fail('board object has no "tiles"', board_pos)
        return BoardRecord(source, start, None, tuple(errors))
    tiles, tiles_pos = _unwrap(board["tiles"])
    if not isinstance(tiles, list):
        fail(f'"tiles" must be a list of 5 rows, found {_json_kind(tiles)}', tiles_pos)
        return BoardRecord(source, start, None, tuple(errors))
    if len(tiles) != SIZE:
        fail(f"tiles has {_plural(len(tiles), 'row')}, expected {SIZE}", tiles_pos)
    rows: list[list[Piece]] = []
    for wrapped_row in tiles:
        row, row_pos = _unwrap(wrapped_row)
        if not isinstance(row, list):
            fail(f"a row must be a list of 5 codes, found {_json_kind(row)}", row_pos)
            continue
        if len(row) != SIZE:
            fail(f"row has {_plural(len(row), 'code')}, expected {SIZE}", row_pos)
        pieces: list[Piece] = []
        for wrapped_code in row:
            code, code_pos = _unwrap(wrapped_code)
            if not isinstance(code, str):
                fail(f"a tile must be a code like 5Y, found {_json_kind(code)}", code_pos)
                continue
            try:
                pieces.append(_piece(code))
            except ParseError as exc:
                fail(exc.message, code_pos)
        rows.append(pieces)
    if errors:
        return BoardRecord(source, start, None, tuple(errors))
    return BoardRecord(source, start, Board.from_rows(rows))


def _json_kind(value: Any) -> str:
    if isinstance(value, str):
        return f"the string {str(value)!r}"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


# ---------------------------------------------------------------------------------------------
# Writing


def board_json(board: Board, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The JSON object of a board: ``{"tiles": rows of codes, **meta}``."""
    return {"tiles": _rows(board), **(meta or {})}


def format_board(board: Board, fmt: TextFormat, meta: Mapping[str, Any] | None = None) -> str:
    """One board as text (5 lines of 5 codes), JSON (indented, a row per line) or one JSON
    line; ``meta`` goes beside ``tiles`` in the JSON forms."""
    if fmt == "text":
        return "".join(" ".join(row) + "\n" for row in _rows(board))
    if fmt == "jsonl":
        return json.dumps(board_json(board, meta), ensure_ascii=False) + "\n"
    rows = ",\n".join(f"    {json.dumps(row)}" for row in _rows(board))
    parts = [f'  "tiles": [\n{rows}\n  ]']
    parts.extend(
        f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
        for key, value in (meta or {}).items()
    )
    return "{\n" + ",\n".join(parts) + "\n}\n"


def format_boards(
    boards: Sequence[Board],
    fmt: Literal["text", "jsonl"],
    meta: Mapping[str, Any] | None = None,
    *,
    start: int = 0,
) -> str:
    """Many boards: text blocks separated by blank lines, or JSON Lines with ``index`` (the
    board's place in the list, from ``start``) after ``meta``. Boards written in parts, with
    ``start`` counting on, join into the same text (a text part after the first begins with
    the blank line that separates it from the part before)."""
    if fmt == "text":
        text = "\n".join(format_board(board, "text") for board in boards)
        return "\n" + text if start and text else text
    # Written out by hand rather than by json.dumps per board (codes need no escaping), in
    # exactly the form json.dumps gives: ten thousand boards take a few hundredths of a second.
    meta_json = json.dumps(dict(meta or {}), ensure_ascii=False)[1:-1]
    meta_part = f", {meta_json}" if meta_json else ""
    lines = []
    for index, board in enumerate(boards, start=start):
        codes = _codes(board)
        rows = ", ".join(
            '["' + '", "'.join(codes[r * SIZE : (r + 1) * SIZE]) + '"]' for r in range(SIZE)
        )
        lines.append(f'{{"tiles": [{rows}]{meta_part}, "index": {index}}}\n')
    return "".join(lines)


def write_boards(
    path: str | os.PathLike[str],
    boards: Iterable[Board],
    fmt: Literal["text", "jsonl"] = "jsonl",
    meta: Mapping[str, Any] | None = None,
) -> None:
    """Write boards to ``path`` (``-`` is stdout) through a temporary file and a rename."""
    atomic_write(path, format_boards(list(boards), fmt, meta))
