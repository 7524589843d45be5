"""The board: a 5×5 arrangement of pieces (RULES.md §2).

A :class:`Board` holds any arrangement, valid or not: generators make only valid ones, checkers
report what is wrong with the others, and the rules engine plays on whatever it is given. The
same type describes the tiles of a board and the stones lying on it.

>>> b = Board.from_codes([["0R", "3B", "4G", "5Y", "6V"]] * 5)
>>> b.at(1).code, len(b.rows())
('3B', 5)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from runarch_gen.runarch.atoms import N_SQUARES, PIECES, SIZE, Piece, parse_piece

__all__ = ["Board"]


@dataclass(frozen=True, slots=True)
class Board:
    """25 pieces in reading order: ``a1 b1 … e1`` (row 1, the top), then row 2, … ``e5``."""

    tiles: tuple[Piece, ...]

    def __post_init__(self) -> None:
        if len(self.tiles) != N_SQUARES:
            raise ValueError(f"a board has {N_SQUARES} squares, not {len(self.tiles)}")

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[Piece]]) -> Board:
        if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
            raise ValueError(f"a board is {SIZE} rows of {SIZE}")
        return cls(tuple(piece for row in rows for piece in row))

    @classmethod
    def from_codes(cls, rows: Sequence[Sequence[str]]) -> Board:
        """A board from rows of codes; raises :class:`~runarch_gen.errors.ParseError`."""
        return cls.from_rows([[parse_piece(code) for code in row] for row in rows])

    @classmethod
    def from_indices(cls, indices: Sequence[int]) -> Board:
        """A board from 25 piece indices (``colour * 5 + shape``) in reading order."""
        return cls(tuple(PIECES[i] for i in indices))

    def at(self, square: int) -> Piece:
        return self.tiles[square]

    def rows(self) -> tuple[tuple[Piece, ...], ...]:
        return tuple(self.tiles[r * SIZE : (r + 1) * SIZE] for r in range(SIZE))

    def codes(self) -> list[list[str]]:
        """Rows of canonical codes, the JSON form of the board."""
        return [[piece.code for piece in row] for row in self.rows()]

    def indices(self) -> tuple[int, ...]:
        return tuple(piece.index for piece in self.tiles)

    def text(self) -> str:
        """Five lines of five codes, the text form of the board."""
        return "".join(" ".join(row) + "\n" for row in self.codes())

    def __str__(self) -> str:
        return self.text()
