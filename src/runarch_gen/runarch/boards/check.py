"""The board checker: RULES.md §2 written out plainly, sharing no code with the generators.

B-1: in every row and every column no two tiles share a colour and no two share a shape, and each
of the 25 tiles appears once. B-2 (asked for with ``diagonals=True``): the same on both long
diagonals. :func:`check_board` reports *every* violation; :func:`check_board_text` checks every
board of a file (text, JSON or JSON Lines), including those that could not be read.

This module deliberately does not import the generators (:mod:`boardgen`, :mod:`boardsat`) nor
their line tables, so that tests can hold every generated board against it.

>>> from runarch_gen.runarch.boards.board import Board
>>> board = Board.from_codes([["0R", "3B", "4G", "5Y", "6V"]] * 5)
>>> check_board(board)[0].message
'column a repeats colour R (red) on a1, a2, a3, a4, a5'
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from runarch_gen.errors import EXIT_INVALID, EXIT_OK, EXIT_USAGE, ParseError
from runarch_gen.runarch.atoms import PIECES, Colour, Shape, square_name
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.boards.io import scan_boards

__all__ = [
    "BoardCheck",
    "CheckReport",
    "Finding",
    "check_board",
    "check_board_text",
    "is_valid_board",
]

FindingKind = Literal["repeated-colour", "repeated-shape", "duplicate-tile", "missing-tile"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One violation: its kind, the line it is on (``r1``, ``ca``, ``d1``; none for tile
    counts), the attribute or tile concerned and the squares involved."""

    kind: FindingKind
    message: str
    line: str | None
    squares: tuple[str, ...]
    value: str  # the colour letter, shape digit or tile code

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "line": self.line,
            "value": self.value,
            "squares": list(self.squares),
            "message": self.message,
        }


@functools.cache
def _lines(diagonals: bool) -> tuple[tuple[str, str, tuple[int, ...]], ...]:
    """(name, label, squares) of the lines a rule covers; square = row * 5 + column."""
    files = "abcde"
    lines = [(f"r{r + 1}", f"row {r + 1}", tuple(r * 5 + c for c in range(5))) for r in range(5)]
    lines += [
        (f"c{files[c]}", f"column {files[c]}", tuple(r * 5 + c for r in range(5))) for c in range(5)
    ]
    if diagonals:
        lines.append(("d1", "diagonal d1", tuple(i * 5 + i for i in range(5))))  # a1 → e5
        lines.append(("d2", "diagonal d2", tuple(i * 5 + (4 - i) for i in range(5))))  # e1 → a5
    return tuple(lines)


def check_board(board: Board, *, diagonals: bool = False) -> list[Finding]:
    """Every violation of B-1 (and of B-2 with ``diagonals``) on ``board``; empty when valid."""
    colours = [tile.colour for tile in board.tiles]
    shapes = [tile.shape for tile in board.tiles]
    findings: list[Finding] = []
    for name, label, squares in _lines(diagonals):
        if len({colours[sq] for sq in squares}) < len(squares):
            findings.extend(_repeats(name, label, squares, colours, "colour"))
        if len({shapes[sq] for sq in squares}) < len(squares):
            findings.extend(_repeats(name, label, squares, shapes, "shape"))
    tiles = list(zip(colours, shapes, strict=True))
    if len(set(tiles)) < len(PIECES):
        squares_of: dict[tuple[Colour, Shape], list[int]] = defaultdict(list)
        for sq, tile in enumerate(tiles):
            squares_of[tile].append(sq)
        for piece in PIECES:
            where = squares_of.get((piece.colour, piece.shape), [])
            names = tuple(square_name(sq) for sq in where)
            if len(where) > 1:
                findings.append(
                    Finding(
                        "duplicate-tile",
                        f"tile {piece.code} appears {len(where)} times, on {', '.join(names)}",
                        None,
                        names,
                        piece.code,
                    )
                )
            elif not where:
                findings.append(
                    Finding("missing-tile", f"tile {piece.code} is missing", None, (), piece.code)
                )
    return findings


def _repeats(
    name: str,
    label: str,
    squares: tuple[int, ...],
    values: Sequence[Colour] | Sequence[Shape],
    attribute: Literal["colour", "shape"],
) -> list[Finding]:
    """A finding for each colour (or shape) that occurs more than once on the line."""
    where: dict[Colour | Shape, list[int]] = defaultdict(list)
    for sq in squares:
        where[values[sq]].append(sq)
    findings = []
    for value, at in sorted(where.items()):
        if len(at) < 2:
            continue
        names = tuple(square_name(sq) for sq in at)
        if isinstance(value, Colour):
            kind: FindingKind = "repeated-colour"
            symbol = value.letter
        else:
            kind = "repeated-shape"
            symbol = value.digit
        findings.append(
            Finding(
                kind,
                f"{label} repeats {attribute} {symbol} ({value.english}) on {', '.join(names)}",
                name,
                names,
                symbol,
            )
        )
    return findings


def is_valid_board(board: Board, *, diagonals: bool = False) -> bool:
    """Whether ``board`` meets B-1 (and B-2 with ``diagonals``)."""
    return not check_board(board, diagonals=diagonals)


# ---------------------------------------------------------------------------------------------
# Files of boards


@dataclass(frozen=True, slots=True)
class BoardCheck:
    """The verdict on one board of a file: its number (from 1), where it starts, and either the
    problems that kept it from being read or its violations."""

    number: int
    source: str
    line: int
    board: Board | None
    errors: tuple[ParseError, ...]
    findings: tuple[Finding, ...]

    @property
    def status(self) -> Literal["valid", "invalid", "unreadable"]:
        if self.board is None:
            return "unreadable"
        return "invalid" if self.findings else "valid"

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "line": self.line,
            "status": self.status,
            "tiles": self.board.codes() if self.board is not None else None,
            "errors": [
                {"line": e.line, "column": e.column, "message": e.message} for e in self.errors
            ],
            "findings": [f.to_json() for f in self.findings],
        }


@dataclass(frozen=True, slots=True)
class CheckReport:
    """The verdict on a file of boards. ``exit_code``: 0 all valid; 1 all read but some invalid;
    2 some board (or the file) could not be read."""

    source: str
    diagonals: bool
    boards: tuple[BoardCheck, ...]

    def count(self, status: str) -> int:
        return sum(1 for b in self.boards if b.status == status)

    @property
    def exit_code(self) -> int:
        if self.count("unreadable"):
            return EXIT_USAGE
        return EXIT_INVALID if self.count("invalid") else EXIT_OK

    @property
    def rules(self) -> str:
        return "B-1 and B-2" if self.diagonals else "B-1"

    def summary(self) -> str:
        n = len(self.boards)
        if n == 1:
            verdict = {
                "valid": f"valid ({self.rules})",
                "invalid": f"not valid ({self.rules})",
            }.get(self.boards[0].status)
            if verdict is None:
                return f"{self.source}: could not be read"
            return f"{self.source}: 1 board, {verdict}"
        return (
            f"{self.source}: {n} boards: {self.count('valid')} valid, {self.count('invalid')}"
            f" not valid ({self.rules}), {self.count('unreadable')} could not be read"
        )

    def lines(self) -> list[str]:
        """The report for people: one line per problem, then the summary."""
        out: list[str] = []
        for check in self.boards:
            which = f"board {check.number}: " if len(self.boards) > 1 else ""
            for error in check.errors:
                where = ":".join(
                    str(part)
                    for part in (error.source or self.source, error.line, error.column)
                    if part is not None
                )
                out.append(f"{where}: {which}{error.message}")
            for finding in check.findings:
                out.append(f"{check.source}:{check.line}: {which}{finding.message}")
        out.append(self.summary())
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "rules": self.rules,
            "boards": len(self.boards),
            "valid": self.count("valid"),
            "invalid": self.count("invalid"),
            "unreadable": self.count("unreadable"),
            "exit_code": self.exit_code,
            "results": [b.to_json() for b in self.boards],
        }


def check_board_text(text: str, *, source: str, diagonals: bool = False) -> CheckReport:
    """Read every board in ``text`` (text, JSON or JSON Lines) and check each one.

    >>> report = check_board_text("0R 3B 4G 5Y 6V\\n" * 5, source="x.txt")
    >>> report.exit_code, report.summary()
    (1, 'x.txt: 1 board, not valid (B-1)')
    """
    checks = []
    for number, record in enumerate(scan_boards(text, source=source), start=1):
        findings = (
            tuple(check_board(record.board, diagonals=diagonals))
            if record.board is not None
            else ()
        )
        checks.append(
            BoardCheck(number, source, record.line, record.board, record.errors, findings)
        )
    return CheckReport(source, diagonals, tuple(checks))
