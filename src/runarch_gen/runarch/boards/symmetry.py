"""The symmetry behind the exact board engine: the 432 normalised boards and, for pins and bans,
masks of the relabellings that meet them (see :mod:`.generate` for why this is exact).

Every valid board is one normalised board R relabelled by one colour permutation σ and one
shape permutation τ. A pin (``--fix``) or a ban (``--forbid``) of tile P on square q holds on
(R, σ, τ) when the relabelling sends R's tile on q to P (or, for a ban, does not): which
(σ, τ) those are depends only on P and R's tile there, so the 25 × 25 sets are made once, as
14,400-bit masks packed into 225 words. The counter (:mod:`.generate`) and the conflict
explainer (:mod:`.explain`) both work on them.

>>> len(normalised_boards()), len(_diagonal_boards())
(432, 4)
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from runarch_gen.runarch.atoms import N_SQUARES, PIECES, SIZE
from runarch_gen.runarch.boards.constraints import Placement

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "PERMUTATIONS",
    "meets",
    "meets_masks",
    "normalised_boards",
    "relabelling_table",
]

PERMUTATIONS = 120  # 5!


# ---------------------------------------------------------------------------------------------
# The normalised boards


def _reduced_boards() -> list[tuple[int, ...]]:
    """Boards with row 1 = (colour i, shape i) and column a's colours 0, 1, 2, 3, 4 in order.

    A depth-first fill in reading order with bit masks for the colours and shapes used in each
    row and column and for the pieces used; pieces are ``colour * 5 + shape``.
    """
    found: list[tuple[int, ...]] = []
    cells = [0] * N_SQUARES
    row_colours = [0] * SIZE
    row_shapes = [0] * SIZE
    col_colours = [0] * SIZE
    col_shapes = [0] * SIZE
    used = 0
    for k in range(SIZE):
        cells[k] = k * SIZE + k
        row_colours[0] |= 1 << k
        row_shapes[0] |= 1 << k
        col_colours[k] |= 1 << k
        col_shapes[k] |= 1 << k
        used |= 1 << (k * SIZE + k)
    full = (1 << SIZE) - 1

    def fill(sq: int, used: int) -> None:
        if sq == N_SQUARES:
            found.append(tuple(cells))
            return
        row, col = divmod(sq, SIZE)
        colours = (1 << row) if col == 0 else ~(row_colours[row] | col_colours[col]) & full
        shapes = ~(row_shapes[row] | col_shapes[col]) & full
        while colours:
            colour_bit = colours & -colours
            colours ^= colour_bit
            colour = colour_bit.bit_length() - 1
            left = shapes
            while left:
                shape_bit = left & -left
                left ^= shape_bit
                piece = colour * SIZE + shape_bit.bit_length() - 1
                if used >> piece & 1:
                    continue
                cells[sq] = piece
                row_colours[row] |= colour_bit
                col_colours[col] |= colour_bit
                row_shapes[row] |= shape_bit
                col_shapes[col] |= shape_bit
                fill(sq + 1, used | 1 << piece)
                row_colours[row] ^= colour_bit
                col_colours[col] ^= colour_bit
                row_shapes[row] ^= shape_bit
                col_shapes[col] ^= shape_bit

    fill(SIZE, used)
    return found


@functools.cache
def normalised_boards() -> tuple[tuple[int, ...], ...]:
    """Every valid board whose row 1 is (colour i, shape i) in column i, as piece indices.

    Every valid board is exactly one of these relabelled by one colour permutation and one
    shape permutation.
    """
    boards: list[tuple[int, ...]] = []
    for reduced in _reduced_boards():
        rows = [reduced[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)]
        for order in itertools.permutations(rows[1:]):
            boards.append(rows[0] + tuple(piece for row in order for piece in row))
    return tuple(boards)


def _meets_diagonals(board: tuple[int, ...]) -> bool:
    # B-2: no colour and no shape twice on d1 (a1→e5) or d2 (e1→a5).
    for squares in (range(0, 25, 6), range(4, 21, 4)):
        pieces = [board[sq] for sq in squares]
        if len({p // SIZE for p in pieces}) < SIZE or len({p % SIZE for p in pieces}) < SIZE:
            return False
    return True


@functools.cache
def _permutations() -> tuple[tuple[int, ...], ...]:
    """The 120 permutations of 0–4; ``perm[i]`` is the image of ``i``."""
    return tuple(itertools.permutations(range(SIZE)))


@functools.cache
def _diagonal_boards() -> tuple[int, ...]:
    """Indices of the normalised boards that meet B-2 (relabelling keeps B-2 either way)."""
    return tuple(k for k, board in enumerate(normalised_boards()) if _meets_diagonals(board))


# Counting with pins and bans. A pin (fix) or a ban (forbid) of tile P on square q holds on
# (R, σ, τ) when the relabelling sends R's tile on q to P (or, for a ban, does not): which
# (σ, τ) those are depends only on P and on R's tile there, so the 25 × 25 sets are made once,
# as 14,400-bit masks packed into 225 words. The pins and bans of one square are ANDed into one
# mask per normalised tile, however many there are; a normalised board's valid relabellings are
# the AND of its squares' masks, and their number a popcount. Any number of bans costs what
# 25 squares cost: a few milliseconds.

_WORDS = PERMUTATIONS * PERMUTATIONS // 64


@functools.cache
def _relabelling_masks() -> NDArray[np.uint64]:
    """``masks[P, p]``: the (σ, τ) that send normalised piece ``p`` to piece ``P``, as bits
    ``σ * 120 + τ`` (little-endian within each byte) packed into 225 words."""
    import numpy as np

    perms = np.array(_permutations(), dtype=np.int64)  # perms[σ, c] = σ(c)
    # to[C, c, σ]: σ sends c to C.
    to = perms.T[None, :, :] == np.arange(SIZE)[:, None, None]
    bits = to[:, None, :, None, :, None] & to[None, :, None, :, None, :]  # [C, S, c, s, σ, τ]
    flat = bits.reshape(len(PIECES), len(PIECES), PERMUTATIONS * PERMUTATIONS)
    packed = np.packbits(flat, axis=-1, bitorder="little")
    return np.ascontiguousarray(packed).view(np.uint64)


@functools.cache
def _board_array() -> NDArray[np.int64]:
    import numpy as np

    return np.array(normalised_boards(), dtype=np.int64)


@functools.cache
def _popcounts() -> NDArray[np.int64]:
    import numpy as np

    return np.array([bin(b).count("1") for b in range(256)], dtype=np.int64)


def _square_masks(
    fixes: Iterable[Placement], forbids: Iterable[Placement]
) -> dict[int, NDArray[np.uint64]]:
    """Per constrained square, ``mask[p]``: the relabellings that meet every pin and ban of
    that square when the normalised board has piece ``p`` there."""
    import numpy as np

    masks = _relabelling_masks()
    out: dict[int, NDArray[np.uint64]] = {}
    for placement, is_fix in itertools.chain(
        ((f, True) for f in fixes), ((f, False) for f in forbids)
    ):
        lands = masks[placement.piece.index]
        mask = lands if is_fix else ~lands
        held = out.get(placement.square)
        out[placement.square] = mask if held is None else np.bitwise_and(held, mask)
    return out


def _valid_relabellings(
    candidates: Sequence[int], squares: dict[int, NDArray[np.uint64]]
) -> NDArray[np.uint64]:
    """``valid[i]``: the relabellings of normalised board ``candidates[i]`` that meet the
    squares' masks (packed bits, as in :func:`_relabelling_masks`)."""
    import numpy as np

    boards = _board_array()[np.asarray(candidates, dtype=np.int64)]
    valid = np.full((len(candidates), _WORDS), np.uint64(2**64 - 1), dtype=np.uint64)
    for square, mask in squares.items():
        valid &= mask[boards[:, square]]
    return valid


def _bit_counts(valid: NDArray[np.uint64]) -> NDArray[np.int64]:
    import numpy as np

    counts: NDArray[np.int64] = _popcounts()[valid.view(np.uint8)].sum(axis=1)
    return counts


def meets(diagonals: bool, fixes: Sequence[Placement], forbids: Sequence[Placement]) -> bool:
    """Whether some valid board meets the options (the counter's test, without a plan)."""
    return meets_masks(diagonals, _square_masks(fixes, forbids))


@functools.cache
def _off_diagonals() -> NDArray[np.int64]:
    """The normalised boards that break B-2."""
    import numpy as np

    keep = set(_diagonal_boards())
    return np.array([k for k in range(len(normalised_boards())) if k not in keep], dtype=np.int64)


def relabelling_table(
    diagonals: bool, squares: dict[int, NDArray[np.uint64]]
) -> NDArray[np.uint64]:
    """``table[k]``: the relabellings of every normalised board ``k`` that meet the square
    masks (and B-2 with ``diagonals``: boards that break it have none). Tables AND together:
    the table of two sets of options is the AND of theirs, which a conflict's explanation
    uses to test a set grown by a few options at the cost of those few."""
    import numpy as np

    boards = _board_array()
    table = np.full((len(boards), _WORDS), np.uint64(2**64 - 1), dtype=np.uint64)
    if diagonals:
        table[_off_diagonals()] = 0
    for square, mask in squares.items():
        np.bitwise_and(table, np.take(mask, boards[:, square], axis=0), out=table)
    return table


def meets_masks(diagonals: bool, squares: dict[int, NDArray[np.uint64]]) -> bool:
    """Whether some valid board (meeting B-2 too, with ``diagonals``) meets the square masks
    (:func:`_square_masks`). The normalised boards left with no valid relabelling are dropped
    as the squares are applied, so a conflict is usually found before the last square."""
    import numpy as np

    candidates = _diagonal_boards() if diagonals else tuple(range(len(normalised_boards())))
    if not squares or not candidates:
        return bool(candidates)
    boards = _board_array()[np.asarray(candidates, dtype=np.int64)]
    valid: NDArray[np.uint64] | None = None
    for step, (square, mask) in enumerate(squares.items()):
        here = np.take(mask, boards[:, square], axis=0)
        if valid is None:
            valid = here
        else:
            np.bitwise_and(valid, here, out=valid)
        if step % 2:
            alive = np.bitwise_or.reduce(valid, axis=1) != 0
            if not alive.all():
                if not alive.any():
                    return False
                valid, boards = valid[alive], boards[alive]
    return valid is None or bool(valid.any())
