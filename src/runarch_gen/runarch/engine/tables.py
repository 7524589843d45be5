"""Precomputed tables the engine reads in its hot path: lines, swap pairs per phase, and per-card
scoring tables (RULES.md §2, §4.1, §4.2).

Everything here is built once per game (board + deck + rules) and shared by all its states.
Squares are ints 0–24 and stones are piece indices 0–24 (``colour * 5 + shape``).

>>> len(PAIRS), sum(k == ORTHOGONAL for k in PAIR_KIND), sum(k == JUMP for k in PAIR_KIND)
(120, 40, 48)
>>> [len(SWAPS_BY_PHASE[p]) for p in (1, 2, 3, 4)]
[40, 72, 120, 120]
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from operator import add
from typing import Final

from runarch_gen.runarch.atoms import LINES, N_SQUARES, SIZE
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.decks.cards import Card

N_LINES: Final = len(LINES)  # r1–r5, ca–ce, d1, d2
N_STRAIGHT: Final = 10  # rows and columns; the diagonals d1 and d2 are lines 10 and 11
MAX_PATTERN_POINTS: Final = 10  # §4.2: 2 points at each of 5 positions
LINE_SQUARES: Final[tuple[tuple[int, ...], ...]] = tuple(line.squares for line in LINES)
LINE_NAMES: Final[tuple[str, ...]] = tuple(line.name for line in LINES)
LINES_THROUGH: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(index for index, squares in enumerate(LINE_SQUARES) if sq in squares)
    for sq in range(N_SQUARES)
)

# Swap pairs (a, b), a < b, in ascending order; their kind decides the phase that allows them.
ORTHOGONAL, DIAGONAL, JUMP = 0, 1, 2


def _pair_kind(a: int, b: int) -> int | None:
    dr, dc = abs(a // SIZE - b // SIZE), abs(a % SIZE - b % SIZE)
    if dr + dc == 1:
        return ORTHOGONAL
    if dr == dc == 1:
        return DIAGONAL
    # §4.1 jump swap: on one row, column or diagonal with exactly one stone between.
    if (dr, dc) in ((0, 2), (2, 0), (2, 2)):
        return JUMP
    return None


PAIRS: Final[tuple[tuple[int, int], ...]] = tuple(
    (a, b)
    for a in range(N_SQUARES)
    for b in range(a + 1, N_SQUARES)
    if _pair_kind(a, b) is not None
)
PAIR_A: Final[tuple[int, ...]] = tuple(a for a, _ in PAIRS)
PAIR_B: Final[tuple[int, ...]] = tuple(b for _, b in PAIRS)
PAIR_KIND: Final[tuple[int, ...]] = tuple(_pair_kind(a, b) or 0 for a, b in PAIRS)
PAIR_INDEX: Final[dict[tuple[int, int], int]] = {pair: i for i, pair in enumerate(PAIRS)}
N_PAIRS: Final = len(PAIRS)


def _pairs_of(*kinds: int) -> tuple[int, ...]:
    return tuple(i for i, kind in enumerate(PAIR_KIND) if kind in kinds)


# §4.1: the first (or only) swap a phase allows. Phase 0 stands for the simple game (§5.1).
SWAPS_BY_PHASE: Final[dict[int, tuple[int, ...]]] = {
    0: _pairs_of(ORTHOGONAL, DIAGONAL),
    1: _pairs_of(ORTHOGONAL),
    2: _pairs_of(ORTHOGONAL, DIAGONAL),
    3: _pairs_of(ORTHOGONAL, DIAGONAL, JUMP),
    4: _pairs_of(ORTHOGONAL, DIAGONAL, JUMP),
}
ADJACENT_PAIRS: Final[tuple[int, ...]] = _pairs_of(ORTHOGONAL, DIAGONAL)
# the second swap of a double swap: any adjacent swap but the first one again.
SECOND_SWAPS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(p for p in ADJACENT_PAIRS if p != first) for first in range(N_PAIRS)
)

# §8 the automa: neighbour of a square in a compass direction (-1 off the board), N..NW order.
COMPASS: Final[tuple[tuple[int, int], ...]] = (
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
)


def _step(sq: int, d: int) -> int:
    row, col = sq // SIZE + COMPASS[d][0], sq % SIZE + COMPASS[d][1]
    return row * SIZE + col if 0 <= row < SIZE and 0 <= col < SIZE else -1


NEIGHBOUR: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_step(sq, d) for d in range(8)) for sq in range(N_SQUARES)
)


# Validity masks. For a card in hand the engine keeps bits ``i*12 + l``: the stone now on line
# l's i-th square earns a point at pattern position i; with [R-08] ``reversible`` a second
# block of 60 bits says the same for the line read backwards. The card is valid on line l
# exactly when bit l survives ANDing the five 12-bit fields of a block. The cards of a hand sit
# side by side in one int per player (block after block), so one AND chain tests the whole hand,
# and a swap rewrites only the bits of its two squares (``SQUARE_KEEP`` clears them, the hand's
# contribution table sets them): no line is ever rescanned to know whether a card can score.
FIELD: Final = N_LINES
BLOCK: Final = 5 * FIELD
ALL_LINES: Final = (1 << N_LINES) - 1
STRAIGHT_LINES: Final = (1 << N_STRAIGHT) - 1
MAX_BLOCKS: Final = 4  # two cards in hand, two reading directions
_INCIDENCE: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(
    tuple((line, squares.index(sq)) for line, squares in enumerate(LINE_SQUARES) if sq in squares)
    for sq in range(N_SQUARES)
)


def _square_bits(sq: int, reversible: bool) -> int:
    bits = 0
    for block in range(MAX_BLOCKS):
        backward = reversible and block % 2 == 1
        for line, j in _INCIDENCE[sq]:
            i = SIZE - 1 - j if backward else j
            bits |= 1 << (block * BLOCK + i * FIELD + line)
    return bits


# Per square, the mask that keeps every validity bit but those the square's stone decides:
# forward blocks hold position j of the square on each line; backward blocks position 4 - j.
SQUARE_KEEP: Final[dict[bool, tuple[int, ...]]] = {
    reversible: tuple(~_square_bits(sq, reversible) for sq in range(N_SQUARES))
    for reversible in (False, True)
}
# Per swap pair (see PAIRS), the same for both of its squares at once.
PAIR_KEEP: Final[dict[bool, tuple[int, ...]]] = {
    reversible: tuple(keep[a] & keep[b] for a, b in PAIRS)
    for reversible, keep in SQUARE_KEEP.items()
}


def _lines_of_masks() -> tuple[tuple[int, ...], ...]:
    # Per mask of lines, its lines in ascending order, built by doubling: the masks with line
    # k set are those below 2**k, each with k added at the end.
    out: list[tuple[int, ...]] = [()]
    for line in range(N_LINES):
        out += [(*lines, line) for lines in out]
    return tuple(out)


LINES_OF_MASK: Final[tuple[tuple[int, ...], ...]] = _lines_of_masks()


def stone_points(pattern_stone: int, stone: int) -> int:
    """§4.2: 1 point for the same colour, 1 for the same shape (0–2)."""
    return (pattern_stone // SIZE == stone // SIZE) + (pattern_stone % SIZE == stone % SIZE)


def points_table(pattern: Sequence[int]) -> tuple[bytes, ...]:
    """Per pattern position, the points (0–2) each of the 25 stones earns there."""
    return tuple(bytes(stone_points(p, s) for s in range(N_SQUARES)) for p in pattern)


_ROWS: Final = tuple(sq * N_SQUARES for sq in range(N_SQUARES))  # contribution table row offsets
COLOUR_BITS: Final = (1 << SIZE) - 1  # the colour half of ``Tables.match_bits``
SHAPE_BITS: Final = COLOUR_BITS << SIZE  # and its shape half


@lru_cache(maxsize=512)
def contribution_table(points: tuple[bytes, ...], reversible: bool) -> tuple[int, ...]:
    """The contribution table (see :meth:`Tables.contributions`) of a card whose scoring table
    is ``points``. It depends on the pattern alone, not on the board, so the games of one
    process share it (the automa reads every card of the deck once; a new game object for the
    same deck builds nothing again). Bounded: 512 tables of some 16–23 kB each."""
    table = [0] * (N_SQUARES * N_SQUARES)
    # Per pattern position, the stones earning a point there.
    earning = [[s for s in range(N_SQUARES) if row[s]] for row in points]
    for line, squares in enumerate(LINE_SQUARES):
        for i, sq in enumerate(squares):
            forward = 1 << (i * FIELD + line)
            for stone in earning[i]:
                table[sq * N_SQUARES + stone] |= forward
            if reversible:
                backward = 1 << (BLOCK + (SIZE - 1 - i) * FIELD + line)
                for stone in earning[SIZE - 1 - i]:
                    table[sq * N_SQUARES + stone] |= backward
    return tuple(table)


class Tables:
    """Per-game tables: the board's tiles and, per card (by deck position), the scoring table.

    ``points[k][i][stone]`` is what ``stone`` earns at position ``i`` of card ``k``'s pattern;
    ``reversed_points[k]`` is the same read backwards ([R-08] option ``reversible``).
    """

    __slots__ = (
        "_contributions",
        "card_stride",
        "match_bits",
        "match_colour",
        "match_piece",
        "match_shape",
        "pair_keep",
        "points",
        "reversed_points",
        "reversible",
        "square_keep",
        "squares_of_colour",
        "squares_of_shape",
        "tile_colour",
        "tile_shape",
    )

    def __init__(self, board: Board, cards: Sequence[Card], reversible: bool = False) -> None:
        self._contributions: list[tuple[int, ...] | None] = [None] * len(cards)
        self.reversible = reversible
        self.square_keep = SQUARE_KEEP[reversible]
        self.pair_keep = PAIR_KEEP[reversible]
        self.card_stride = BLOCK * (2 if reversible else 1)
        tiles = board.indices()
        self.tile_colour: tuple[int, ...] = tuple(t // SIZE for t in tiles)
        self.tile_shape: tuple[int, ...] = tuple(t % SIZE for t in tiles)
        self.squares_of_colour: tuple[tuple[int, ...], ...] = tuple(
            tuple(sq for sq in range(N_SQUARES) if self.tile_colour[sq] == c) for c in range(SIZE)
        )
        self.squares_of_shape: tuple[tuple[int, ...], ...] = tuple(
            tuple(sq for sq in range(N_SQUARES) if self.tile_shape[sq] == s) for s in range(SIZE)
        )
        self.points: tuple[tuple[bytes, ...], ...] = tuple(
            points_table([p.index for p in card.pattern]) for card in cards
        )
        self.reversed_points: tuple[tuple[bytes, ...], ...] = tuple(t[::-1] for t in self.points)
        self.match_colour: tuple[int, ...] = tuple(int(card.match.colour) for card in cards)
        self.match_shape: tuple[int, ...] = tuple(int(card.match.shape) for card in cards)
        self.match_piece: tuple[int, ...] = tuple(
            int(card.match.colour) * SIZE + int(card.match.shape) for card in cards
        )  # the match area's piece index
        # Per card, its match area as two bits: colour c is bit c, shape s bit SIZE + s. ORed
        # over an archive's cards they say at once which colours and shapes it holds.
        self.match_bits: tuple[int, ...] = tuple(
            1 << int(card.match.colour) | 1 << (SIZE + int(card.match.shape)) for card in cards
        )

    @property
    def blocks_per_card(self) -> int:
        return 2 if self.reversible else 1

    def contributions(self, card: int) -> tuple[int, ...]:
        """``[square * 25 + stone]``: the validity bits that ``stone`` on ``square`` sets for
        ``card`` (its forward block, then its backward one with [R-08] ``reversible``); built
        on first use and kept for the game."""
        table = self._contributions[card]
        if table is None:
            table = self._contributions[card] = contribution_table(
                self.points[card], self.reversible
            )
        return table

    def card_mask(self, card: int, stones: Sequence[int]) -> int:
        """The validity bits of ``card`` alone on ``stones`` (``blocks_per_card`` blocks), from
        scratch: a hand's mask holds them shifted by ``card_stride`` times the card's slot."""
        # OR of table[sq * 25 + stones[sq]] over the squares, the loop run by map and sum: each
        # bit is decided by one square only (its line and position), so adding ORs.
        return sum(map(self.contributions(card).__getitem__, map(add, _ROWS, stones)))

    def hand_mask(self, hand: Sequence[int], stones: Sequence[int]) -> int:
        """The validity mask of a whole hand on ``stones``, from scratch: card after card,
        ``blocks_per_card`` blocks each."""
        stride = self.card_stride
        mask = 0
        for k, card in enumerate(hand):
            mask |= self.card_mask(card, stones) << (k * stride)
        return mask

    def mask_after_swap(
        self, hand: Sequence[int], mask: int, stones: Sequence[int], a: int, b: int
    ) -> int:
        """The validity mask of ``hand`` (now ``mask`` on ``stones``) once the stones on ``a``
        and ``b`` are swapped, without swapping them: what a searching bot asks per move."""
        keep = self.square_keep[a] & self.square_keep[b]
        ia, ib = a * N_SQUARES + stones[b], b * N_SQUARES + stones[a]
        mask &= keep
        for k, card in enumerate(hand):
            table = self.contributions(card)
            mask |= (table[ia] | table[ib]) << (k * self.card_stride)
        return mask

    def valid_lines(self, mask: int, slot: int) -> int:
        """The lines (a 12-bit set, bit l = line l of ``LINES``) on which the card in hand
        ``slot`` is valid, read from a hand's validity mask ([R-08] included)."""
        shift = slot * self.card_stride
        ok = mask >> shift
        ok &= ok >> FIELD & ok >> 2 * FIELD & ok >> 3 * FIELD & ok >> 4 * FIELD
        if self.reversible:
            ok |= ok >> BLOCK
        return ok & ALL_LINES

    def match_bonus_board(self, stones: Sequence[int], card: int) -> int:
        """[R-09] ``board``: stones of the card's match colour on tiles of that colour, plus
        stones of its match shape on tiles of that shape, anywhere on the board (0–10)."""
        colour, shape = self.match_colour[card], self.match_shape[card]
        return sum(stones[sq] // SIZE == colour for sq in self.squares_of_colour[colour]) + sum(
            stones[sq] % SIZE == shape for sq in self.squares_of_shape[shape]
        )

    def match_bonus_line(self, stones: Sequence[int], card: int, line: int) -> int:
        """[R-09] ``line``: the same count inside the evaluated line only (0–2 on a valid board)."""
        colour, shape = self.match_colour[card], self.match_shape[card]
        tile_colour, tile_shape = self.tile_colour, self.tile_shape
        return sum(
            (stones[sq] // SIZE == colour == tile_colour[sq])
            + (stones[sq] % SIZE == shape == tile_shape[sq])
            for sq in LINE_SQUARES[line]
        )


def pattern_points(table: Sequence[bytes], stones: Sequence[int], line: int) -> int:
    """§4.2 pattern points of a card (its points table) on a line, 0 when it is not valid there.

    >>> from runarch_gen.runarch.atoms import parse_piece
    >>> t = points_table([parse_piece(c).index for c in ("0R", "3B", "4G", "5Y", "6V")])
    >>> pattern_points(t, list(range(25)), 0)  # r1 holds 0R 3R 4R 5R 6R
    6
    """
    total = 0
    for position, sq in enumerate(LINE_SQUARES[line]):
        earned = table[position][stones[sq]]
        if not earned:
            return 0
        total += earned
    return total
