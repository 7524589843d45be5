"""The board and the whole move rule: both dice, doubles four times, the bar first, the
maximum-dice rule, the higher-die rule, bearing off with the higher-point rule, hits.

A **side** is a tuple of 26 ints seen from its owner: index 0 holds the checkers borne off,
1 … 24 the points numbered from the owner's home (its 1-point is its innermost), 25 the bar.
A position is two sides, the mover's first; the mover's point ``p`` is the opponent's point
``25 - p``. A checker moves from a higher number to a lower one (rule [V-02]).

A **play** is everything a player does with one roll: up to four :class:`Step` values. Legal
plays are listed one per distinct resulting position ([V-10]), each with one canonical step
sequence (the first the generator finds, which is deterministic).

>>> plays = legal_plays(START, START, 6, 5)
>>> sorted(format_steps(p.steps) for p in plays)[:3]
['13/2', '13/7 8/3', '13/8 13/7']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

__all__ = [
    "BAR",
    "OFF",
    "START",
    "Play",
    "Side",
    "Step",
    "apply_step",
    "flip",
    "format_steps",
    "legal_plays",
    "pip_count",
    "play_code",
]

Side = tuple[int, ...]
BAR = 25
OFF = 0
HOME = 6
MAX_STACK_EGYPTIAN = 5


def side_from_points(points: dict[int, int]) -> Side:
    """A side with ``points[p]`` checkers on point ``p`` (25 = bar, 0 = off).

    >>> side_from_points({6: 5, 8: 3, 13: 5, 24: 2}) == START
    True
    """
    cells = [0] * 26
    for point, count in points.items():
        cells[point] += count
    return tuple(cells)


START: Side = side_from_points({24: 2, 13: 5, 8: 3, 6: 5})  # [V-01]
NACKGAMMON: Side = side_from_points({24: 2, 23: 2, 13: 4, 8: 3, 6: 4})  # [V-16]
HYPERGAMMON: Side = side_from_points({24: 1, 23: 1, 22: 1})  # [V-17]


class Step(NamedTuple):
    """One die's worth of a play: a checker from ``start`` to ``end`` (0 = off) with ``die``;
    ``hit`` when it lands on a lone opposing checker."""

    start: int
    die: int
    end: int
    hit: bool


@dataclass(frozen=True, slots=True)
class Play:
    """A legal play: its steps in the order played and the position after it (mover first)."""

    steps: tuple[Step, ...]
    mover: Side
    other: Side
    code: int = 0
    """The steps' (start, die) pairs as one number (see :func:`play_code`)."""

    @property
    def key(self) -> tuple[Side, Side]:
        return (self.mover, self.other)


def flip(mover: Side, other: Side) -> tuple[Side, Side]:
    """The same position with the other side first."""
    return (other, mover)


def pip_count(side: Side) -> int:
    """Pips the side needs to bear every checker off (the bar counts 25).

    >>> pip_count(START)
    167
    """
    return sum(point * count for point, count in enumerate(side))


def checkers(side: Side) -> int:
    return sum(side)


def all_home(side: Side) -> bool:
    """Whether every checker left on the board is in the home board (points 1–6)."""
    return not any(side[7:])


def apply_step(
    mover: Side, other: Side, start: int, die: int, egyptian: bool = False
) -> tuple[Side, Side, Step] | None:
    """The position after moving one checker of ``mover`` from ``start`` by ``die``, or
    ``None`` when the rules forbid it ([V-03] bar first, [V-05] blocked points, [V-07] bearing
    off, [V-15] the Egyptian rule)."""
    if mover[start] == 0 or (mover[BAR] and start != BAR):
        return None
    end = start - die
    if end <= 0:
        if not all_home(mover):
            return None
        # [V-07] bearing off: exactly, or from the highest occupied point with a higher die
        if end < 0 and any(mover[start + 1 : HOME + 1]):
            return None
        cells = list(mover)
        cells[start] -= 1
        cells[OFF] += 1
        return tuple(cells), other, Step(start, die, OFF, False)
    across = BAR - end
    if other[across] >= 2:
        return None
    if egyptian and mover[end] >= MAX_STACK_EGYPTIAN:
        return None
    cells = list(mover)
    cells[start] -= 1
    cells[end] += 1
    if other[across] == 1:
        opp = list(other)
        opp[across] = 0
        opp[BAR] += 1
        return tuple(cells), tuple(opp), Step(start, die, end, True)
    return tuple(cells), other, Step(start, die, end, False)


CODE_BASE = 151
_POWERS = (1, CODE_BASE, CODE_BASE**2, CODE_BASE**3)


def play_code(steps: Sequence[Step]) -> int:
    """The steps' (start, die) pairs in base 151 (digit ``6 × (start − 1) + die``).

    >>> play_code([Step(8, 3, 5, False), Step(6, 1, 5, False)])
    4726
    """
    return sum(((s.start - 1) * 6 + s.die) * _POWERS[i] for i, s in enumerate(steps))


class _Search:
    """Depth-first search over the dice, moving checkers in place and undoing them; leaves go
    into ``out`` keyed by position, only those using the most dice found so far ([V-08])."""

    __slots__ = ("best", "egyptian", "me", "out", "steps", "you")

    def __init__(self, mover: Side, other: Side, egyptian: bool) -> None:
        self.me = list(mover)
        self.you = list(other)
        self.egyptian = egyptian
        self.out: dict[tuple[Side, Side], Play] = {}
        self.best = 0
        self.steps: list[tuple[int, int, int, bool]] = []

    def run(
        self, dice: Sequence[int], index: int, ceiling: int, doubles: bool, code: int = 0
    ) -> None:
        me, you = self.me, self.you
        if index < len(dice):
            die = dice[index]
            moved = False
            starts: Sequence[int] = (BAR,) if me[BAR] else range(min(ceiling, 24), 0, -1)
            home = not any(me[7:])
            power = _POWERS[index]
            for start in starts:
                if not me[start]:
                    continue
                end = start - die
                if end <= 0:
                    if not home:
                        continue
                    if end < 0 and any(me[start + 1 : HOME + 1]):
                        continue
                    me[start] -= 1
                    me[OFF] += 1
                    self.steps.append((start, die, OFF, False))
                    moved = True
                    self.run(
                        dice,
                        index + 1,
                        start if doubles else BAR,
                        doubles,
                        code + ((start - 1) * 6 + die) * power,
                    )
                    self.steps.pop()
                    me[OFF] -= 1
                    me[start] += 1
                    continue
                across = BAR - end
                blockers = you[across]
                if blockers >= 2 or (self.egyptian and me[end] >= MAX_STACK_EGYPTIAN):
                    continue
                moved = True
                me[start] -= 1
                me[end] += 1
                if blockers == 1:
                    you[across] = 0
                    you[BAR] += 1
                self.steps.append((start, die, end, blockers == 1))
                self.run(
                    dice,
                    index + 1,
                    start if doubles else BAR,
                    doubles,
                    code + ((start - 1) * 6 + die) * power,
                )
                self.steps.pop()
                if blockers == 1:
                    you[BAR] -= 1
                    you[across] = 1
                me[end] -= 1
                me[start] += 1
            if moved:
                return
        used = len(self.steps)
        if used < self.best:
            return
        if used > self.best:
            self.best = used
            self.out.clear()
        key = (tuple(me), tuple(you))
        if key not in self.out:
            steps = tuple(Step(*step) for step in self.steps)
            self.out[key] = Play(steps, key[0], key[1], code)


def legal_plays(
    mover: Side, other: Side, die1: int, die2: int, egyptian: bool = False
) -> list[Play]:
    """Every legal play of the roll ``die1``-``die2``, one per distinct resulting position.

    The maximum-dice rule [V-08] keeps only plays that use as many dice as possible; when only
    one die of a non-double can be played, the higher-die rule [V-09] keeps the plays of the
    higher die if there are any. An empty list means the roll cannot be played at all.

    >>> len(legal_plays(START, START, 1, 1)), len(legal_plays(START, START, 6, 6))
    (42, 11)
    """
    search = _Search(mover, other, egyptian)
    if die1 == die2:
        # With doubles a later step never starts above an earlier one: any play can be
        # reordered so, and this prunes the permutations.
        search.run((die1,) * 4, 0, BAR, True)
        return list(search.out.values()) if search.best else []
    high, low = max(die1, die2), min(die1, die2)
    search.run((high, low), 0, BAR, False)
    search.run((low, high), 0, BAR, False)
    plays = list(search.out.values())
    if search.best == 0:
        return []
    if search.best == 1:
        higher = [p for p in plays if p.steps[0].die == high]
        if higher:
            return higher
    return plays


def format_steps(steps: Sequence[Step]) -> str:
    """Standard notation of a play's steps (the roll not included) as gnubg writes it: the
    moves sorted by starting point (then ending point) from the highest, the moves of one
    checker joined (``13/5``; ``13/11*/5`` when it hits on the way), each hit starred once
    (the first move that reaches the point), equal moves counted (``bar/20*(2)``). An empty
    play is ``""``.

    >>> format_steps([Step(13, 6, 7, False), Step(7, 1, 6, False)])
    '13/6'
    >>> format_steps([Step(13, 2, 11, True), Step(11, 6, 5, False)])
    '13/11*/5'
    >>> format_steps([Step(6, 1, 5, False), Step(8, 3, 5, False)])
    '8/5 6/5'
    >>> format_steps([Step(25, 5, 20, True), Step(25, 5, 20, False)])
    'bar/20*(2)'
    """
    # the points where an opposing blot stood before the play: where some step hit
    blots = {step.end for step in steps if step.hit}
    moves = sorted(((s.start, s.end) for s in steps), key=lambda m: (-m[0], -m[1]))
    chains: list[list[int] | None] = [[start, end] for start, end in moves]
    for i, chain in enumerate(chains):
        for j in range(i + 1, len(chains)):
            other = chains[j]
            if chain is None or other is None or chain[-1] != other[0]:
                continue
            if chain[-1] in blots:
                chain.append(other[1])  # a hit on the way: the point stays visible
            else:
                chain[-1] = other[1]
            chains[j] = None
    joined = [chain for chain in chains if chain is not None]
    counted: list[tuple[list[int], int]] = []
    for chain in joined:
        for index, (seen, count) in enumerate(counted):
            if seen == chain:
                counted[index] = (seen, count + 1)
                break
        else:
            counted.append((chain, 1))
    starred: set[int] = set()
    texts: list[str] = []
    for chain, count in counted:
        parts = [_point_name(chain[0])]
        for point in chain[1:-1]:
            parts.append(f"{point}*")
            starred.add(point)
        last = chain[-1]
        text = _point_name(last)
        if last != OFF and last in blots and last not in starred:
            text += "*"
            starred.add(last)
        parts.append(text)
        texts.append("/".join(parts) + (f"({count})" if count > 1 else ""))
    return " ".join(texts)


def _point_name(point: int) -> str:
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)
