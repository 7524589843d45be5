"""RunArch's vocabulary: colours, shapes, pieces (tiles and stones), squares, lines, directions.

Every notation comes as a parse/format pair (RULES.md §1.1, §2):

>>> parse_piece("y5"), parse_piece("5Y").code
(Piece(colour=<Colour.YELLOW: 3>, shape=<Shape.STAR: 3>), '5Y')
>>> square_name(parse_square("c3")), parse_line("ca").squares
('c3', (0, 5, 10, 15, 20))

Squares are ints 0–24, ``row * 5 + col``, with row 0 the top row ``1`` and col 0 column ``a``:
``a1`` is 0 (top-left), ``e5`` is 24. Pieces have an ``index`` 0–24, ``colour * 5 + shape``, so
hot code (the rules engine, the samplers) can work on small ints.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Final

from runarch_gen.errors import ParseError

SIZE: Final = 5
N_SQUARES: Final = SIZE * SIZE


class Colour(IntEnum):
    """The five colours, in the order of RULES.md §1.1."""

    RED = 0
    BLUE = 1
    GREEN = 2
    YELLOW = 3
    VIOLET = 4

    @property
    def letter(self) -> str:
        """The code letter: ``R B G Y V``."""
        return "RBGYV"[self]

    @property
    def english(self) -> str:
        return self.name.lower()

    @property
    def czech(self) -> str:
        return ("červená", "modrá", "zelená", "žlutá", "fialová")[self]


class Shape(IntEnum):
    """The five shapes, in the order of RULES.md §1.1. ``digit`` is the code digit."""

    CIRCLE = 0
    TRIANGLE = 1
    SQUARE = 2
    STAR = 3
    HEXAGON = 4

    @property
    def digit(self) -> str:
        """The code digit: ``0 3 4 5 6`` (the number of corners; a circle has none)."""
        return "03456"[self]

    @property
    def english(self) -> str:
        return ("circle", "triangle", "square", "star", "hexagon")[self]

    @property
    def czech(self) -> str:
        return ("kruh", "trojúhelník", "čtverec", "hvězda", "šestiúhelník")[self]

    @property
    def rune_name(self) -> str:
        """The decorative rune that belongs to the shape (it carries no rule)."""
        return ("Dagaz", "Teiwaz", "Uruz", "Othala", "Jera")[self]

    @property
    def rune(self) -> str:
        """The rune as a Unicode character (for text; the kit draws runes as paths)."""
        return "ᛞᛏᚢᛟᛃ"[self]


COLOURS: tuple[Colour, ...] = tuple(Colour)
SHAPES: tuple[Shape, ...] = tuple(Shape)
_COLOUR_BY_LETTER = {c.letter: c for c in Colour}
_SHAPE_BY_DIGIT = {s.digit: s for s in Shape}


def parse_colour(text: str) -> Colour:
    """A colour from its letter (``B``) or English name (``blue``), any case."""
    key = text.strip().upper()
    if key in _COLOUR_BY_LETTER:
        return _COLOUR_BY_LETTER[key]
    for colour in Colour:
        if key.lower() == colour.english:
            return colour
    raise ParseError(f"unknown colour {text!r}: expected one of R, B, G, Y, V")


def parse_shape(text: str) -> Shape:
    """A shape from its digit (``3``) or English name (``triangle``), any case."""
    key = text.strip().lower()
    if key in _SHAPE_BY_DIGIT:
        return _SHAPE_BY_DIGIT[key]
    for shape in Shape:
        if key == shape.english:
            return shape
    raise ParseError(f"unknown shape {text!r}: expected one of 0, 3, 4, 5, 6")


@dataclass(frozen=True, slots=True, order=True)
class Piece:
    """A colour×shape combination: the face of a tile or of a stone. Its text is its code."""

    colour: Colour
    shape: Shape

    @property
    def index(self) -> int:
        """0–24, ``colour * 5 + shape``."""
        return self.colour * SIZE + self.shape

    @property
    def code(self) -> str:
        """Canonical code: shape digit then colour letter, e.g. ``5Y`` (RULES.md §1.1)."""
        return self.shape.digit + self.colour.letter

    def __str__(self) -> str:
        return self.code


PIECES: tuple[Piece, ...] = tuple(Piece(c, s) for c in Colour for s in Shape)
"""All 25 pieces, ``PIECES[i].index == i``."""

_PIECE_BY_KEY = {(p.shape.digit, p.colour.letter): p for p in PIECES}


def parse_piece(text: str) -> Piece:
    """A piece from its code in either order and any case: ``5Y``, ``y5``, ``Y5``."""
    key = text.strip().upper()
    if len(key) == 2:
        for digit, letter in ((key[0], key[1]), (key[1], key[0])):
            piece = _PIECE_BY_KEY.get((digit, letter))
            if piece is not None:
                return piece
    raise ParseError(
        f"unknown code {text!r}: expected a shape digit (0 3 4 5 6) and a colour letter"
        " (R B G Y V), e.g. 5Y"
    )


def piece_from_index(index: int) -> Piece:
    return PIECES[index]


# ---------------------------------------------------------------------------------------------
# Squares

SQUARES = range(N_SQUARES)
FILES = "abcde"
SQUARE_NAMES: tuple[str, ...] = tuple(f"{FILES[sq % SIZE]}{sq // SIZE + 1}" for sq in SQUARES)
_SQUARE_BY_NAME = {name: sq for sq, name in enumerate(SQUARE_NAMES)}


def square(col: int, row: int) -> int:
    """The square in column ``col`` (0 = a) and row ``row`` (0 = the top row, ``1``)."""
    if not (0 <= col < SIZE and 0 <= row < SIZE):
        raise ValueError(f"no square at column {col}, row {row}")
    return row * SIZE + col


def square_row(sq: int) -> int:
    return sq // SIZE


def square_col(sq: int) -> int:
    return sq % SIZE


def square_name(sq: int) -> str:
    return SQUARE_NAMES[sq]


def parse_square(text: str) -> int:
    """A square from its name, ``a1`` (top-left) to ``e5``, any case."""
    sq = _SQUARE_BY_NAME.get(text.strip().lower())
    if sq is None:
        raise ParseError(f"unknown square {text!r}: expected a1 to e5")
    return sq


# ---------------------------------------------------------------------------------------------
# Lines


class LineKind(Enum):
    ROW = "row"
    COLUMN = "column"
    DIAGONAL = "diagonal"


@dataclass(frozen=True, slots=True)
class Line:
    """A row, column or long diagonal, with its squares in reading order (RULES.md §2)."""

    name: str
    kind: LineKind
    squares: tuple[int, ...]

    def __str__(self) -> str:
        return self.name

    @property
    def label(self) -> str:
        """Human wording: ``row 1``, ``column a``, ``diagonal d1``."""
        if self.kind is LineKind.ROW:
            return f"row {self.name[1]}"
        if self.kind is LineKind.COLUMN:
            return f"column {self.name[1]}"
        return f"diagonal {self.name}"


ROWS: tuple[Line, ...] = tuple(
    Line(f"r{r + 1}", LineKind.ROW, tuple(square(c, r) for c in range(SIZE))) for r in range(SIZE)
)
COLUMNS: tuple[Line, ...] = tuple(
    Line(f"c{FILES[c]}", LineKind.COLUMN, tuple(square(c, r) for r in range(SIZE)))
    for c in range(SIZE)
)
DIAGONALS: tuple[Line, ...] = (
    Line("d1", LineKind.DIAGONAL, tuple(square(i, i) for i in range(SIZE))),
    Line("d2", LineKind.DIAGONAL, tuple(square(SIZE - 1 - i, i) for i in range(SIZE))),
)
LINES: tuple[Line, ...] = ROWS + COLUMNS + DIAGONALS
"""All 12 lines: r1–r5, ca–ce, d1, d2, in that order."""

_LINE_BY_NAME = {line.name: line for line in LINES}


def parse_line(text: str) -> Line:
    """A line from its name: ``r1``–``r5``, ``ca``–``ce``, ``d1``, ``d2``, any case."""
    line = _LINE_BY_NAME.get(text.strip().lower())
    if line is None:
        raise ParseError(f"unknown line {text!r}: expected r1-r5, ca-ce, d1 or d2")
    return line


# ---------------------------------------------------------------------------------------------
# Directions (automa arrows, RULES.md §1.3 and §8)


class Direction(Enum):
    """A compass direction on the board; north is towards row 1 (the top)."""

    N = (-1, 0)
    NE = (-1, 1)
    E = (0, 1)
    SE = (1, 1)
    S = (1, 0)
    SW = (1, -1)
    W = (0, -1)
    NW = (-1, -1)

    @property
    def d_row(self) -> int:
        return self.value[0]

    @property
    def d_col(self) -> int:
        return self.value[1]

    def step(self, sq: int) -> int | None:
        """The neighbouring square in this direction, or ``None`` off the board."""
        row, col = square_row(sq) + self.d_row, square_col(sq) + self.d_col
        if 0 <= row < SIZE and 0 <= col < SIZE:
            return row * SIZE + col
        return None


DIRECTIONS: tuple[Direction, ...] = tuple(Direction)


def parse_direction(text: str) -> Direction:
    """A direction from its compass name, ``N`` … ``NW``, any case."""
    try:
        return Direction[text.strip().upper()]
    except KeyError:
        raise ParseError(
            f"unknown direction {text!r}: expected one of N, NE, E, SE, S, SW, W, NW"
        ) from None
