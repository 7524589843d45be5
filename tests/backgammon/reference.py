"""An independent checker of the move rule, sharing no code with the engine: a board is one
list of 26 signed counts in white's numbering (white > 0 moves 24 → 1, black < 0 moves 1 → 24,
index 0 white's bar, index 25 black's bar, borne-off counts kept apart), every permutation of
the dice is tried with every checker, and the rules are applied as the rules document words
them: bar first, closed points, hits, bearing off with the higher-point rule, then the
maximum-dice and the higher-die rules on the finished sequences."""

from __future__ import annotations

from itertools import permutations

Board = tuple[tuple[int, ...], int, int]  # points 0..25 signed, white off, black off


def from_sides(white: tuple[int, ...], black: tuple[int, ...]) -> Board:
    """White on roll: white's side in its numbering; black's side in black's numbering."""
    cells = [0] * 26
    for p in range(1, 25):
        cells[p] += white[p]
        cells[25 - p] -= black[p]
    cells[0] = white[25]  # white's bar kept at index 0 (a count, positive)
    cells[25] = -black[25]
    return tuple(cells), white[0], black[0]


def to_sides(board: Board) -> tuple[tuple[int, ...], tuple[int, ...]]:
    cells, white_off, black_off = board
    white = [0] * 26
    black = [0] * 26
    for p in range(1, 25):
        if cells[p] > 0:
            white[p] = cells[p]
        elif cells[p] < 0:
            black[25 - p] = -cells[p]
    white[25] = cells[0]
    black[25] = -cells[25]
    white[0], black[0] = white_off, black_off
    return tuple(white), tuple(black)


def _single(board: Board, source: int, die: int) -> Board | None:
    """White moves one checker from ``source`` (25 = bar) by ``die``."""
    cells, off, black_off = list(board[0]), board[1], board[2]
    bar = cells[0]
    if bar > 0 and source != 25:
        return None
    if source == 25:
        if bar == 0:
            return None
    elif cells[source] <= 0:
        return None
    target = source - die
    if target < 1:
        outside = bar > 0 or any(cells[p] > 0 for p in range(7, 25))
        if outside:
            return None
        if target < 0:
            higher = any(cells[p] > 0 for p in range(source + 1, 7))
            if higher:
                return None
        cells[source] -= 1
        return tuple(cells), off + 1, black_off
    if cells[target] <= -2:
        return None
    if source == 25:
        cells[0] -= 1
    else:
        cells[source] -= 1
    if cells[target] == -1:
        cells[target] = 0
        cells[25] -= 1
    cells[target] += 1
    return tuple(cells), off, black_off


def reference_plays(board: Board, d1: int, d2: int) -> set[Board]:
    """Every position white can reach with the roll, by the rules; empty if none."""
    dice_orders = {(d1,) * 4} if d1 == d2 else set(permutations((d1, d2)))
    finished: list[tuple[int, tuple[int, ...], Board]] = []

    def walk(current: Board, remaining: tuple[int, ...], used: tuple[int, ...]) -> None:
        moved = False
        if remaining:
            for source in range(1, 26):
                nxt = _single(current, source, remaining[0])
                if nxt is not None:
                    moved = True
                    walk(nxt, remaining[1:], (*used, remaining[0]))
        if not moved:
            finished.append((len(used), used, current))

    for order in dice_orders:
        walk(board, order, ())
    most = max(n for n, _, _ in finished)
    if most == 0:
        return set()
    kept = [(used, b) for n, used, b in finished if n == most]
    if d1 != d2 and most == 1:
        high = max(d1, d2)
        with_high = [(used, b) for used, b in kept if used[0] == high]
        if with_high:
            kept = with_high
    return {b for _, b in kept}
