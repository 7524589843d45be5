"""Cube decisions from win and gammon chances: Janowski's cubeful equity in money play, and a
match equity table that the program computes, for match play; Thorp's count for races.

**Janowski** (rule [V-37]). With cubeless chance ``p`` of winning, average value ``W`` of a win
and ``L`` of a loss (gammons included), the dead-cube equity is ``p·W − (1 − p)·L``. With a
perfectly efficient ("live") cube the taker's take point is ``TP = (L − ½) / (W + L + ½)`` and
the cash point ``CP = (L + 1) / (W + L + ½)``; the live equity is the straight line through
(0, −L), (TP, −1), (CP, +1), (1, W) — cut at TP for a cube the opponent owns, at CP for one the
player owns. The cubeful equity is ``(1 − x)·dead + x·live`` with cube efficiency ``x = 0.68``.

**Match equity** (rule [V-44]): ``met(n)[a][b]`` is the chance that the player who needs ``a``
points wins against one who needs ``b``, computed by the standard recursion over one game
(each side wins with ½; a win is a gammon with the gammon rate ``g``, a backgammon with ``bg``),
with the Crawford game played without the cube and after it the trailer doubling at once.

>>> table = met(5)
>>> round(table[1][1], 3), round(table[2][2], 3)
(0.5, 0.5)
>>> table[1][2] > table[2][2] > table[2][1]
True
"""

from __future__ import annotations

from functools import cache

__all__ = [
    "CUBE_EFFICIENCY",
    "GAMMON_RATE",
    "cubeful_equity",
    "met",
    "money_cube_action",
    "thorp_count",
]

CUBE_EFFICIENCY = 0.68
GAMMON_RATE = 0.26
BACKGAMMON_RATE = 0.01


def _line(p: float, a: tuple[float, float], b: tuple[float, float]) -> float:
    (x0, y0), (x1, y1) = a, b
    if x1 == x0:
        return y1
    return y0 + (y1 - y0) * (p - x0) / (x1 - x0)


def cubeful_equity(
    p: float, win: float, loss: float, owner: int, x: float = CUBE_EFFICIENCY
) -> float:
    """Janowski's cubeful equity per unit of cube for the player with win chance ``p``;
    ``owner`` is 0 (the player owns the cube), 1 (the opponent) or −1 (the middle).

    >>> abs(cubeful_equity(0.5, 1.0, 1.0, -1)) < 1e-12
    True
    >>> cubeful_equity(0.9, 1.0, 1.0, 0) > cubeful_equity(0.9, 1.0, 1.0, 1)
    True
    """
    win, loss = max(win, 1.0), max(loss, 1.0)
    dead = p * win - (1.0 - p) * loss
    take = (loss - 0.5) / (win + loss + 0.5)
    cash = (loss + 1.0) / (win + loss + 0.5)
    low, high = (0.0, -loss), (1.0, win)
    if owner == 1:  # the opponent owns it: no cash point for us
        live = _line(p, low, (take, -1.0)) if p < take else _line(p, (take, -1.0), high)
    elif owner == 0:  # we own it: no take point for the opponent to double us out at
        live = _line(p, low, (cash, 1.0)) if p < cash else _line(p, (cash, 1.0), high)
    elif p < take:
        live = _line(p, low, (take, -1.0))
    elif p < cash:
        live = _line(p, (take, -1.0), (cash, 1.0))
    else:
        live = _line(p, (cash, 1.0), high)
    return (1.0 - x) * dead + x * live


def money_cube_action(
    p: float, win: float, loss: float, owner: int, jacoby_centered: bool = False
) -> tuple[bool, bool]:
    """(double?, would the opponent take?) for the player on roll with cubeless chances
    (``p`` to win, ``win``/``loss`` average values) and cube ``owner`` (0 own, −1 middle)."""
    if jacoby_centered:
        nodouble = cubeful_equity(p, 1.0, 1.0, owner)
    else:
        nodouble = cubeful_equity(p, win, loss, owner)
    after_take = 2.0 * cubeful_equity(p, win, loss, 1)
    take = after_take < 1.0
    return min(after_take, 1.0) > nodouble, take


@cache
def met(
    length: int, gammon: float = GAMMON_RATE, backgammon: float = BACKGAMMON_RATE
) -> tuple[tuple[float, ...], ...]:
    """The match equity table to ``length`` points: ``met[a][b]`` for 0 ≤ a, b ≤ length
    (``a`` or ``b`` 0 means that side has won), pre-Crawford; see the module's text."""
    single = 1.0 - gammon - backgammon
    n = length
    # post-Crawford: the leader needs 1, the trailer doubles at once (a 2-point game)
    post = [[0.0] * (n + 1) for _ in range(n + 1)]

    def post_value(a: int, b: int) -> float:
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        return post[a][b]

    for b in range(1, n + 1):
        # leader needs 1 (a = 1); a win ends it; a loss at the 2-cube costs 2, 4 or 6
        losing = (
            single * post_value(1, b - 2)
            + gammon * post_value(1, b - 4)
            + backgammon * (post_value(1, b - 6))
        )
        post[1][b] = 0.5 + 0.5 * (losing if b > 1 else 0.0)
        post[b][1] = 1.0 - post[1][b]
    table = [[0.0] * (n + 1) for _ in range(n + 1)]

    def value(a: int, b: int) -> float:
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        return table[a][b]

    def crawford(a: int, b: int) -> float:
        # the Crawford game: one side needs 1, no cube; after it post-Crawford
        if a == 1:
            lose = single * post_value(1, b - 1) + gammon * post_value(1, b - 2)
            lose += backgammon * post_value(1, b - 3)
            return 0.5 + 0.5 * lose
        return 1.0 - crawford(b, a)

    for total in range(2, 2 * n + 1):
        for a in range(1, n + 1):
            b = total - a
            if not 1 <= b <= n:
                continue
            if a == 1 and b == 1:
                table[a][b] = 0.5
            elif a == 1 or b == 1:
                table[a][b] = crawford(a, b)
            else:
                win = single * value(a - 1, b) + gammon * value(a - 2, b)
                win += backgammon * value(a - 3, b)
                lose = single * value(a, b - 1) + gammon * value(a, b - 2)
                lose += backgammon * value(a, b - 3)
                table[a][b] = 0.5 * win + 0.5 * lose
    for a in range(n + 1):
        table[a][0] = 0.0
        table[0][a] = 1.0
    return tuple(tuple(row) for row in table)


def match_winning_chance(
    probabilities: tuple[float, float, float], away: tuple[int, int], cube: int, length: int
) -> float:
    """The player's chance to win the match if this game is played out with ``cube`` (no more
    doubling), from cubeless (win, win gammon, lose gammon) and points away (mine, theirs)."""
    table = met(max(length, 1))

    def m(a: int, b: int) -> float:
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        return table[min(a, length)][min(b, length)]

    win, wg, lg = probabilities
    wg, lg = min(wg, win), min(lg, 1.0 - win)  # backgammons counted as gammons here
    mine, theirs = away
    single_win, single_loss = win - wg, (1.0 - win) - lg
    return (
        single_win * m(mine - cube, theirs)
        + wg * m(mine - 2 * cube, theirs)
        + single_loss * m(mine, theirs - cube)
        + lg * m(mine, theirs - 2 * cube)
    )


def thorp_count(mover: tuple[int, ...], leader: bool) -> float:
    """Thorp's count of a side in a race: pips, plus 2 per checker on the board, plus 1 per
    checker on the 1-point, minus 1 per home point held; the leader's count over 30 grows by
    a tenth.

    >>> from runarch_gen.backgammon.board import side_from_points
    >>> thorp_count(side_from_points({6: 2, 5: 2, 0: 11}), leader=True)
    28.0
    """
    pips = sum(point * count for point, count in enumerate(mover) if point)
    on_board = sum(mover[1:])
    count = float(pips + 2 * on_board + mover[1] - sum(1 for p in range(1, 7) if mover[p]))
    if leader and count > 30:
        count += count / 10
    return count
