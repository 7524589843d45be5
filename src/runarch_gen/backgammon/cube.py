"""Cube decisions from win and gammon chances: Janowski's cubeful equity in money play, and a
match equity table that the program computes, for match play; Thorp's count for races.

**Janowski** (rule [V-37]). With cubeless chance ``p`` of winning, average value ``W`` of a win
and ``L`` of a loss (gammons included), the dead-cube equity is ``p·W − (1 − p)·L``. With a
perfectly efficient ("live") cube the taker's take point is ``TP = (L − ½) / (W + L + ½)`` and
the cash point ``CP = (L + 1) / (W + L + ½)``; the live equity is the straight line through
(0, −L), (TP, −1), (CP, +1), (1, W) — cut at TP for a cube the opponent owns, at CP for one the
player owns. The cubeful equity is ``(1 − x)·dead + x·live`` with cube efficiency ``x = 0.68``.

**Match equity** (rule [V-44]): ``met(n)[a][b]`` is the chance that the player who needs ``a``
points wins against one who needs ``b``, computed as the published tables are made: a
gammon-rate model with the cube in play. In a game before the Crawford game the winning
chance ``p`` of a player moves continuously; a player doubles at his opponent's take point and
the opponent takes there (a live cube), so between those points the match winning chance is a
straight line in ``p``, its ends the scores after a drop; the take points come from the same
lines one cube level up (recursively, until a double can gain nothing). A win is a gammon with
the rate :data:`GAMMON_RATE`; the live line is mixed with the dead-cube line (the cube never
turned again) by the cube efficiency :data:`MET_CUBE_EFFICIENCY`. The Crawford game is played
without the cube; after it the trailer doubles at once and the leader drops when dropping is
free (post-Crawford gammon rate :data:`POST_CRAWFORD_GAMMON_RATE`). With these three numbers
every cell to 11-away lies within 0.003 of Kazaross-XG2 (the tests check a handful of them).

>>> table = met(5)
>>> round(table[1][1], 3), round(table[2][2], 3)
(0.5, 0.5)
>>> table[1][2] > table[2][2] > table[2][1]
True
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from runarch_gen.backgammon.ids import MatchInfo
from runarch_gen.backgammon.rules import MAX_CUBE

__all__ = [
    "CUBE_EFFICIENCY",
    "GAMMON_RATE",
    "MET_CUBE_EFFICIENCY",
    "POST_CRAWFORD_GAMMON_RATE",
    "CubeContext",
    "CubeDecision",
    "MatchEquity",
    "cube_decision",
    "cubeful_equity",
    "match_cube_decision",
    "match_equity",
    "match_winning_chance",
    "met",
    "money_cube_action",
    "money_cube_decision",
    "post_crawford_table",
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


MET_CUBE_EFFICIENCY = 0.9
"""[V-44] The share of the live cube in the match equity table's game values."""
POST_CRAWFORD_GAMMON_RATE = 0.28
"""[V-44] Gammons per win in the Crawford and post-Crawford games (the trailer plays for them)."""
MAX_MET_LENGTH = 64

Line = tuple[float, float, float, float]
"""A live-cube line: from (p0, v0) to (p1, v1); flat outside."""


def _on_line(line: Line, p: float) -> float:
    p0, v0, p1, v1 = line
    if p <= p0:
        return v0
    if p >= p1:
        return v1
    return v0 + (v1 - v0) * (p - p0) / (p1 - p0)


class MatchEquity:
    """The match equity table of one set of model numbers, and the cubeful match winning
    chance of a game at any score, cube and owner (see the module's text)."""

    def __init__(
        self,
        gammon: float = GAMMON_RATE,
        post_gammon: float = POST_CRAWFORD_GAMMON_RATE,
        efficiency: float = MET_CUBE_EFFICIENCY,
    ) -> None:
        self.gammon = gammon
        self.post_gammon = post_gammon
        self.efficiency = efficiency
        self._table: dict[tuple[int, int], float] = {}
        self._post: dict[int, float] = {}
        self._lines: dict[tuple[int, int, int, int], Line] = {}
        self._filling = False

    def post_crawford(self, trailer: int) -> float:
        """The trailer's chance after the Crawford game, needing ``trailer`` points against 1."""
        if trailer <= 0:
            return 1.0
        if trailer == 1:
            return 0.5
        trailer = min(trailer, MAX_MET_LENGTH)
        if trailer not in self._post:
            for shorter in range(2, trailer):
                self.post_crawford(shorter)
            g = self.post_gammon
            # the trailer doubles at once; the leader takes unless dropping costs him nothing
            take = 0.5 * (
                (1 - g) * self.post_crawford(trailer - 2) + g * self.post_crawford(trailer - 4)
            )
            self._post[trailer] = min(self.post_crawford(trailer - 1), take)
        return self._post[trailer]

    def value(self, a: int, b: int) -> float:
        """The chance that the player needing ``a`` beats the one needing ``b`` at the start of
        a game (the Crawford game when one needs 1 and the other more). Scores further than
        :data:`MAX_MET_LENGTH` away count as that far, as gnubg's tables end there."""
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        a, b = min(a, MAX_MET_LENGTH), min(b, MAX_MET_LENGTH)
        if a == 1 and b == 1:
            return 0.5
        if b == 1:
            return 1.0 - self.value(b, a)
        key = (a, b)
        if key not in self._table and a + b > 8 and not self._filling:
            # fill the cells below first, nearest the end first, so that the recursion
            # through the cube levels stays shallow
            self._filling = True
            try:
                for total in range(4, a + b):
                    for first in range(2, min(a, total - 2) + 1):
                        if 2 <= total - first <= b:
                            self.value(first, total - first)
            finally:
                self._filling = False
        if key not in self._table:
            if a == 1:  # [V-42] the Crawford game: no cube; a win ends the match
                g = self.post_gammon
                lose = (1 - g) * (1 - self.post_crawford(b - 1)) + g * (
                    1 - self.post_crawford(b - 2)
                )
                self._table[key] = 0.5 + 0.5 * lose
            else:
                self._table[key] = self.cubeful(a, b, 1, -1, 0.5)
        return self._table[key]

    def _end_values(self, a: int, b: int, cube: int) -> tuple[float, float]:
        g = self.gammon
        win = (1 - g) * self.value(a - cube, b) + g * self.value(a - 2 * cube, b)
        loss = (1 - g) * self.value(a, b - cube) + g * self.value(a, b - 2 * cube)
        return win, loss

    def live_line(
        self, a: int, b: int, cube: int, owner: int, ends: tuple[float, float] | None = None
    ) -> Line:
        """The live-cube line of the player needing ``a`` (``owner`` 0 he owns the cube, 1 the
        opponent, −1 the middle); ``ends`` (his values of a win and a loss played out at this
        cube) default to the model's gammon rate."""
        key = (a, b, cube, owner)
        if ends is None and key in self._lines:
            return self._lines[key]
        win, loss = ends if ends is not None else self._end_values(a, b, cube)
        p0, v0, p1, v1 = 0.0, loss, 1.0, win
        if owner in (0, -1) and cube < a and cube < MAX_CUBE:
            # he doubles at the opponent's take point, where taking is worth a drop
            v1 = self.value(a - cube, b)
            p1 = self._solve(a, b, 2 * cube, 1, v1)
        if owner in (1, -1) and cube < b and cube < MAX_CUBE:
            v0 = self.value(a, b - cube)
            p0 = self._solve(a, b, 2 * cube, 0, v0)
        line = (p0, v0, p1, v1)
        if ends is None:
            self._lines[key] = line
        return line

    def cubeful(
        self,
        a: int,
        b: int,
        cube: int,
        owner: int,
        p: float,
        ends: tuple[float, float] | None = None,
    ) -> float:
        """The match winning chance at game winning chance ``p``: the live line mixed with the
        dead cube's by the cube efficiency."""
        win, loss = ends if ends is not None else self._end_values(a, b, cube)
        live = _on_line(self.live_line(a, b, cube, owner, ends), p)
        dead = p * win + (1 - p) * loss
        return self.efficiency * live + (1 - self.efficiency) * dead

    def _solve(self, a: int, b: int, cube: int, owner: int, target: float) -> float:
        """The winning chance where the cubeful value at ``cube`` reaches ``target``: the
        value is piecewise linear in the winning chance (the live line's two corners), so each
        piece is solved exactly."""
        p0, _, p1, _ = self.live_line(a, b, cube, owner)
        corners = sorted({0.0, min(max(p0, 0.0), 1.0), min(max(p1, 0.0), 1.0), 1.0})
        values = [self.cubeful(a, b, cube, owner, p) for p in corners]
        if values[-1] <= target:
            return 1.0
        if values[0] >= target:
            return 0.0
        for (left, f_left), (right, f_right) in itertools.pairwise(
            zip(corners, values, strict=True)
        ):
            if f_left <= target <= f_right and f_right > f_left:
                return left + (right - left) * (target - f_left) / (f_right - f_left)
        return 1.0


@cache
def match_equity() -> MatchEquity:
    """The model with the documented numbers (shared, it caches what it computes)."""
    return MatchEquity()


@cache
def met(length: int) -> tuple[tuple[float, ...], ...]:
    """The match equity table to ``length`` points: ``met[a][b]`` for 0 ≤ a, b ≤ length
    (``a`` or ``b`` 0 means that side has won) at the start of a game; a row or column 1 is the
    Crawford game (see the module's text)."""
    if not 1 <= length <= MAX_MET_LENGTH:
        raise ValueError(f"a match equity table is 1 to {MAX_MET_LENGTH} points long")
    model = match_equity()
    return tuple(tuple(model.value(a, b) for b in range(length + 1)) for a in range(length + 1))


def post_crawford_table(length: int) -> tuple[float, ...]:
    """The trailer's chances after the Crawford game, needing 0 … ``length`` points."""
    model = match_equity()
    return tuple(model.post_crawford(n) for n in range(length + 1))


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


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """A cube decision before the roll with the equities behind it: money equity per unit of
    the current cube (money play) or match winning chance (match play) of the player on roll
    if he does not double, doubles and is taken, doubles and is passed; ``action`` is one of
    ``no double``, ``double/take``, ``double/pass``, ``too good`` and ``take`` tells the
    opponent's right answer to a double."""

    no_double: float
    double_take: float
    double_pass: float
    action: str
    take: bool
    match: bool

    @property
    def double(self) -> bool:
        return self.action in ("double/take", "double/pass")


def _decide(nd: float, dt: float, dp: float, match: bool) -> CubeDecision:
    take = dt <= dp
    if not take:
        action = "too good" if nd >= dp else "double/pass"
    else:
        action = "double/take" if dt > nd else "no double"
    return CubeDecision(nd, dt, dp, action, take, match)


def _win_loss_values(chances: tuple[float, ...]) -> tuple[float, float, float]:
    """(p, average value of a win, of a loss) from the five chances."""
    p, wg, wbg, lg, lbg = (float(c) for c in chances)
    win = 1.0 + ((wg + wbg) / p if p > 1e-9 else 0.0)
    loss = 1.0 + ((lg + lbg) / (1.0 - p) if p < 1.0 - 1e-9 else 0.0)
    return p, win, loss


def money_cube_decision(
    chances: tuple[float, ...], owner: int, jacoby: bool = False, x: float = CUBE_EFFICIENCY
) -> CubeDecision:
    """The cube decision in money play by Janowski's cubeful equity ([V-37]) from the five
    cubeless chances of the player on roll; ``owner`` 0 he owns the cube, −1 the middle;
    ``jacoby`` when gammons do not count before the cube is turned.

    >>> money_cube_decision((0.5, 0.1, 0.0, 0.1, 0.0), -1).action
    'no double'
    >>> money_cube_decision((0.75, 0.0, 0.0, 0.0, 0.0), -1).action
    'double/take'
    >>> money_cube_decision((0.9, 0.0, 0.0, 0.0, 0.0), -1).action
    'double/pass'
    """
    p, win, loss = _win_loss_values(chances)
    if jacoby and owner == -1:
        nd = cubeful_equity(p, 1.0, 1.0, owner, x)
    else:
        nd = cubeful_equity(p, win, loss, owner, x)
    dt = 2.0 * cubeful_equity(p, win, loss, 1, x)
    return _decide(nd, dt, 1.0, match=False)


def match_cube_decision(
    chances: tuple[float, ...],
    away: tuple[int, int],
    cube: int,
    owner: int,
    crawford: bool = False,
) -> CubeDecision:
    """The cube decision in match play from the match equity table ([V-44]): the cubeful
    match winning chance of the player on roll (his position's own gammon chances at this
    cube, the table's model above it) without a double, after a take and after a pass.
    ``away`` is (his points to go, the opponent's); in the Crawford game the cube is dead.

    >>> match_cube_decision((0.5, 0.1, 0.0, 0.1, 0.0), (5, 5), 1, -1).action
    'no double'
    """
    model = match_equity()
    a, b = away
    p, wg, wbg, lg, lbg = (float(c) for c in chances)

    def ends(c: int) -> tuple[float, float]:
        single_w, single_l = max(p - wg, 0.0), max(1.0 - p - lg, 0.0)
        win = (
            single_w * model.value(a - c, b)
            + (wg - wbg) * model.value(a - 2 * c, b)
            + wbg * model.value(a - 3 * c, b)
        )
        loss = (
            single_l * model.value(a, b - c)
            + (lg - lbg) * model.value(a, b - 2 * c)
            + lbg * model.value(a, b - 3 * c)
        )
        # per unit of the chances to win and to lose
        return (win / p if p > 1e-9 else 1.0), (loss / (1 - p) if p < 1 - 1e-9 else 0.0)

    if crawford:
        win, loss = ends(cube)
        dead = p * win + (1 - p) * loss
        return CubeDecision(dead, dead, model.value(a - cube, b), "no double", True, True)
    nd = model.cubeful(a, b, cube, owner, p, ends(cube))
    dt = model.cubeful(a, b, 2 * cube, 1, p, ends(2 * cube))
    dp = model.value(a - cube, b)
    return _decide(nd, dt, dp, match=True)


@dataclass(frozen=True, slots=True)
class CubeContext:
    """The cube and score from the side of the player on roll: ``owner`` 0 his, 1 the
    opponent's, −1 the middle; ``away`` points to go (his, the opponent's) in a match."""

    cube: int = 1
    owner: int = -1
    match: int = 0
    away: tuple[int, int] = (0, 0)
    crawford: bool = False
    jacoby: bool = False
    may_double: bool = True

    @classmethod
    def from_match(cls, info: MatchInfo) -> CubeContext:
        me = info.on_roll
        owner = -1 if info.cube_owner < 0 else (0 if info.cube_owner == me else 1)
        away = (
            (info.length - info.scores[me], info.length - info.scores[1 - me])
            if info.length
            else (0, 0)
        )
        return cls(
            cube=info.cube,
            owner=owner,
            match=info.length,
            away=away,
            crawford=info.crawford,
            jacoby=info.jacoby and not info.length,
            may_double=owner != 1 and not info.crawford,
        )

    def opponent(self) -> CubeContext:
        owner = -1 if self.owner < 0 else 1 - self.owner
        return CubeContext(
            self.cube,
            owner,
            self.match,
            (self.away[1], self.away[0]),
            self.crawford,
            self.jacoby,
            owner != 1 and not self.crawford,
        )


def cube_decision(chances: Iterable[float], context: CubeContext) -> CubeDecision:
    """The cube decision of the player on roll with these cubeless chances."""
    values = tuple(float(c) for c in chances)
    if context.match:
        return match_cube_decision(
            values, context.away, context.cube, context.owner, crawford=context.crawford
        )
    return money_cube_decision(values, context.owner, context.jacoby)
