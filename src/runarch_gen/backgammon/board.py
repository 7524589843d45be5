"""The board and the whole move rule: both dice, doubles four times, the bar first, the
maximum-dice rule, the higher-die rule, bearing off with the higher-point rule, hits.

A **side** is a tuple of 26 ints seen from its owner: index 0 holds the checkers borne off,
1 … 24 the points numbered from the owner's home (its 1-point is its innermost), 25 the bar.
A position is two sides, the mover's first; the mover's point ``p`` is the opponent's point
``25 - p``. A checker moves from a higher number to a lower one (rule [V-02]).

A **play** is everything a player does with one roll: up to four :class:`Step` values. Legal
plays are listed one per distinct resulting position ([V-10]), each with one canonical step
sequence (the first the generator finds, which is deterministic).

The generator is built for speed: a position is one integer (each side packed a byte a point,
the opponent's above the mover's), a step adds a precomputed change to it (a hit included),
and plays are told apart by that key. Most rolls take a short path where a step's legality is
the opponent's blocks alone (no checker on the bar, too many checkers outside the home board
to bear off, or a bar entry followed by free steps), others a depth-first search over the
dice; both list the same plays in the same order with the same steps.

>>> plays = legal_plays(START, START, 6, 5)
>>> sorted(format_steps(p.steps) for p in plays)[:3]
['13/2', '13/7 8/3', '13/8 13/7']
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
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
    "pack_position",
    "pip_count",
    "play_code",
    "replay_code",
    "unpack_position",
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


class Play(NamedTuple):
    """A legal play: the position after it packed in one integer (:func:`pack_position`), its
    steps' code (:func:`play_code`) and the position before it. The sides and the steps are
    unpacked when they are asked for.

    >>> play = next(p for p in legal_plays(START, START, 3, 1) if p.mover[5] == 2)
    >>> format_steps(play.steps), play.code, play.other == START
    ('8/5 6/5', 4726, True)
    """

    after: int
    """The position after the play, the mover's side first (:func:`pack_position`)."""
    code: int
    """The steps' (start, die) pairs as one number (see :func:`play_code`)."""
    before: tuple[Side, Side]

    @property
    def mover(self) -> Side:
        return tuple((self.after & _LOW).to_bytes(26, "little"))

    @property
    def other(self) -> Side:
        return tuple((self.after >> _SHIFT).to_bytes(26, "little"))

    @property
    def key(self) -> tuple[Side, Side]:
        """The position after the play: (mover, other)."""
        packed = self.after.to_bytes(52, "little")
        return tuple(packed[:26]), tuple(packed[26:])

    @property
    def steps(self) -> tuple[Step, ...]:
        return replay_code(self.before[0], self.before[1], self.code)


def pack_position(mover: Side, other: Side) -> int:
    """A position as one integer: the mover's side a byte a point (point ``p`` in bits ``8p``
    to ``8p + 7``), the other side's above it (bits ``208 + 8p`` …).

    >>> unpack_position(pack_position(START, START)) == (START, START)
    True
    """
    return int.from_bytes(bytes(mover + other), "little")


def unpack_position(value: int) -> tuple[Side, Side]:
    """The two sides of a packed position (:func:`pack_position`)."""
    packed = value.to_bytes(52, "little")
    return tuple(packed[:26]), tuple(packed[26:])


def replay_code(mover: Side, other: Side, code: int) -> tuple[Step, ...]:
    """The steps of a play's code (see :func:`play_code`) played from the position before it,
    with their ends and hits.

    >>> replay_code(START, START, 4726)
    (Step(start=8, die=3, end=5, hit=False), Step(start=6, die=1, end=5, hit=False))
    """
    you = list(other)
    steps: list[Step] = []
    while code:
        code, digit = divmod(code, CODE_BASE)
        start, die = (digit - 1) // 6 + 1, (digit - 1) % 6 + 1
        end = max(start - die, OFF)
        hit = end != OFF and you[BAR - end] == 1
        if hit:
            you[BAR - end] = 0
        steps.append(Step(start, die, end, hit))
    return tuple(steps)


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


_ONE: tuple[int, ...] = tuple(1 << (8 * point) for point in range(27))
"""One checker on each point of the mover, packed (:func:`pack_position`)."""
_SHIFT = 8 * 26
_LOW = (1 << _SHIFT) - 1
_HIT: tuple[int, ...] = tuple((_ONE[BAR] - _ONE[BAR - point]) << _SHIFT for point in range(26))
"""The change of a position's key when the opponent's blot on the mover's point is hit: a key
is the position packed (:func:`pack_position`)."""


def _plays(out: dict[int, int], before: tuple[Side, Side]) -> list[Play]:
    """The plays of the keys found (the position after each) with their codes, made in one
    pass of C loops."""
    count = len(out)
    return list(
        map(
            tuple.__new__,
            repeat(Play, count),
            zip(out, out.values(), repeat(before, count), strict=True),
        )
    )


def _steps_of(
    c: list[int], starts: Sequence[int], die: int, rev: Side, home: bool, egyptian: bool
) -> list[tuple[int, int, int]]:
    """The legal steps of one die on the counts ``c``: ``(start, end, change of the packed
    key)`` from each of ``starts`` (the highest first) that holds a checker; the bar first
    ([V-03]), blocked points ([V-05]), bearing off from home only, exactly or from the highest
    point with a larger die ([V-07]), the Egyptian cap ([V-15])."""
    one, hit = _ONE, _HIT
    if c[BAR]:
        end = BAR - die
        if rev[end] >= 2 or (egyptian and c[end] >= MAX_STACK_EGYPTIAN):
            return []
        change = one[end] - one[BAR] + (hit[end] if rev[end] == 1 and not c[end] else 0)
        return [(BAR, end, change)]
    found: list[tuple[int, int, int]] = []
    for start in starts:
        if not c[start]:
            continue
        end = start - die
        if end <= 0:
            if home and (end == 0 or not any(c[start + 1 : HOME + 1])):
                found.append((start, OFF, one[OFF] - one[start]))
            continue
        blockers = rev[end]
        if blockers >= 2 or (egyptian and c[end] >= MAX_STACK_EGYPTIAN):
            continue
        change = one[end] - one[start]
        if blockers == 1 and not c[end]:
            change += hit[end]
        found.append((start, end, change))
    return found


def _general_pair(mover: Side, other: Side, high: int, low: int, egyptian: bool) -> list[Play]:
    """A non-double in any position: the high die first, then the low die first, each step
    on the counts as the earlier step left them."""
    c = list(mover)
    rev = other[::-1]
    outside = sum(mover[7:])
    m = int.from_bytes(bytes(mover + other), "little")
    occupied = [p for p in range(BAR, 0, -1) if mover[p]]
    out: dict[int, int] = {}
    best = 0
    singles: dict[int, int] = {}
    for first, second in ((high, low), (low, high)):
        steps = _steps_of(c, occupied, first, rev, outside == 0, egyptian)
        for s1, e1, change1 in steps:
            c[s1] -= 1
            c[e1] += 1
            left = outside - (s1 > HOME >= e1)
            starts = occupied
            if e1 and c[e1] == 1:
                starts = sorted({*occupied, e1}, reverse=True)
            then = _steps_of(c, starts, second, rev, left == 0, egyptian)
            c[s1] += 1
            c[e1] -= 1
            code1 = (s1 - 1) * 6 + first
            key1 = m + change1
            if not then:
                if best < 2:
                    best = 1
                    singles.setdefault(key1, code1)
                continue
            best = 2
            for s2, _e2, change2 in then:
                key = key1 + change2
                if key not in out:
                    out[key] = code1 + ((s2 - 1) * 6 + second) * CODE_BASE
    before = (mover, other)
    if best == 2:
        return _plays(out, before)
    if best == 0:
        return []
    plays = _plays(singles, before)
    higher = [p for p in plays if p.code % 6 == high % 6]  # [V-09] the higher die
    return higher or plays


def _general_double(mover: Side, other: Side, die: int, egyptian: bool) -> list[Play]:
    """A double in any position: four steps, none starting above the one before (any play
    can be reordered so), as many as can be played ([V-08], [V-12]); the bar first
    ([V-03]), bearing off from home only ([V-07]), the Egyptian cap ([V-15])."""
    c = list(mover)
    rev = other[::-1]
    one, hit = _ONE, _HIT
    m = int.from_bytes(bytes(mover + other), "little")
    reach: set[int] = set()
    for start in range(BAR, 0, -1):
        if mover[start]:
            for k in range(4):
                if start - k * die <= 0:
                    break
                reach.add(start - k * die)
    points = sorted(reach, reverse=True)
    count = len(points)
    found: list[dict[int, int]] = [{}, {}, {}, {}, {}]
    outside = [sum(mover[7:])]
    enter = BAR - die
    cap = MAX_STACK_EGYPTIAN if egyptian else 16

    def search(level: int, first: int, key: int, code: int) -> None:
        if level < 4:
            power = _POWERS[level]
            if c[BAR]:
                if rev[enter] < 2 and c[enter] < cap:
                    change = one[enter] - one[BAR]
                    if rev[enter] == 1 and not c[enter]:
                        change += hit[enter]
                    c[BAR] -= 1
                    c[enter] += 1
                    search(level + 1, 0, key + change, code + ((BAR - 1) * 6 + die) * power)
                    c[BAR] += 1
                    c[enter] -= 1
                    return
            else:
                moved = False
                for i in range(first, count):
                    start = points[i]
                    if not c[start]:
                        continue
                    end = start - die
                    if end <= 0:
                        if outside[0] or (end and any(c[start + 1 : HOME + 1])):
                            continue
                        end = OFF
                        change = 1 - one[start]
                    else:
                        if rev[end] >= 2 or c[end] >= cap:
                            continue
                        change = one[end] - one[start]
                        if rev[end] == 1 and not c[end]:
                            change += hit[end]
                    moved = True
                    home = start > HOME >= end
                    c[start] -= 1
                    c[end] += 1
                    outside[0] -= home
                    search(level + 1, i, key + change, code + ((start - 1) * 6 + die) * power)
                    outside[0] += home
                    c[start] += 1
                    c[end] -= 1
                if moved:
                    return
        if key not in found[level]:
            found[level][key] = code

    search(0, 0, m, 0)
    most = max(i for i in range(5) if found[i] or i == 0)
    if most == 0:
        return []
    return _plays(found[most], (mover, other))


def _simple_pair(mover: Side, other: Side, high: int, low: int) -> list[Play] | None:
    """A non-double with no checker on the bar and at least two outside the home board (no
    bearing off in either order), the Egyptian rule off: a step's legality is the opponent's
    blocks alone. ``None`` when not both dice can be played (the general search decides)."""
    rev = other[::-1]
    one, hit = _ONE, _HIT
    m = int.from_bytes(bytes(mover + other), "little")
    starts = [p for p in range(24, 0, -1) if mover[p]]
    # per start: the change of the key by the high die / the low die, a hit included
    highs = [
        (s, s - high, one[s - high] - one[s] + (hit[s - high] if rev[s - high] else 0))
        for s in starts
        if s > high and rev[s - high] < 2
    ]
    base = CODE_BASE
    lows = [
        (
            s,
            one[s - low] - one[s] + (hit[s - low] if rev[s - low] else 0),
            ((s - 1) * 6 + low) * base,
        )
        for s in starts
        if s > low and rev[s - low] < 2
    ]
    if not highs or not lows:
        return None
    out: dict[int, int] = {}
    for s1, e1, change1 in highs:
        key1 = m + change1
        code1 = (s1 - 1) * 6 + high
        skip = s1 if mover[s1] == 1 else -1
        # a low step onto the point just hit hits nothing
        rehit = e1 + low if rev[e1] else -1
        # the checker moved may go on with the low die from a point that was empty
        if not mover[e1] and e1 > low and rev[e1 - low] < 2:
            e3 = e1 - low
            more = (
                e1,
                one[e3] - one[e1] + (hit[e3] if rev[e3] else 0),
                ((e1 - 1) * 6 + low) * base,
            )
            at = 0
            for s2, _, _ in lows:
                if s2 < e1:
                    break
                at += 1
            seconds = [*lows[:at], more, *lows[at:]]
        else:
            seconds = lows
        for s2, change2, code2 in seconds:
            key = key1 + change2
            if s2 in (skip, rehit):
                if s2 == skip:
                    continue
                key -= hit[e1]
            if key not in out:
                out[key] = code1 + code2
    # the low die first adds only a checker going on from a point that was empty, which the
    # high die first may have found blocked (or that hits elsewhere on the way)
    for s1, change1, _ in lows:
        e1 = s1 - low
        if mover[e1] or e1 <= high or rev[e1 - high] >= 2:
            continue
        e2 = e1 - high
        key = m + change1 + one[e2] - one[e1] + (hit[e2] if rev[e2] else 0)
        if key not in out:
            out[key] = (s1 - 1) * 6 + low + ((e1 - 1) * 6 + high) * base
    return _plays(out, (mover, other))


def _bar_pair(mover: Side, other: Side, high: int, low: int) -> list[Play] | None:
    """A non-double with checkers on the bar, the Egyptian rule off: they enter first
    ([V-03]); after one checker has entered it stands outside the home board, so the other
    die's step is legal by the opponent's blocks alone. ``None`` when not both dice can be
    played (the general search decides)."""
    rev = other[::-1]
    one, hit = _ONE, _HIT
    m = int.from_bytes(bytes(mover + other), "little")
    enter_high, enter_low = BAR - high, BAR - low
    high_open, low_open = rev[enter_high] < 2, rev[enter_low] < 2
    out: dict[int, int] = {}
    base = CODE_BASE
    if mover[BAR] >= 2:
        if not (high_open and low_open):
            return None
        key = m - 2 * one[BAR] + one[enter_high] + one[enter_low]
        key += hit[enter_high] if rev[enter_high] else 0
        key += hit[enter_low] if rev[enter_low] else 0
        out[key] = (BAR - 1) * 6 + high + ((BAR - 1) * 6 + low) * base
        return _plays(out, (mover, other))
    starts = [p for p in range(24, 0, -1) if mover[p]]
    for first, second, entry, is_open in (
        (high, low, enter_high, high_open),
        (low, high, enter_low, low_open),
    ):
        if not is_open:
            continue
        hits = rev[entry] == 1
        key1 = m - one[BAR] + one[entry] + (hit[entry] if hits else 0)
        code1 = (BAR - 1) * 6 + first
        rehit = entry + second if hits else -1
        # the entered checker may go on from a point that was empty
        extra = entry if (not mover[entry] and rev[entry - second] < 2) else 0
        for s2 in starts:
            if extra > s2:
                e3 = extra - second
                key = key1 + one[e3] - one[extra] + (hit[e3] if rev[e3] else 0)
                if key not in out:
                    out[key] = code1 + ((extra - 1) * 6 + second) * base
                extra = 0
            e2 = s2 - second
            if e2 <= 0 or rev[e2] >= 2:
                continue
            key = key1 + one[e2] - one[s2]
            if rev[e2] and s2 != rehit:
                key += hit[e2]
            if key not in out:
                out[key] = code1 + ((s2 - 1) * 6 + second) * base
        if extra:
            e3 = extra - second
            key = key1 + one[e3] - one[extra] + (hit[e3] if rev[e3] else 0)
            if key not in out:
                out[key] = code1 + ((extra - 1) * 6 + second) * base
    if not out:
        return None
    return _plays(out, (mover, other))


def _home_pair(mover: Side, other: Side, high: int, low: int) -> list[Play]:
    """A non-double with every checker in the home board, the Egyptian rule off: a step bears
    off exactly, or from the highest point with a larger die ([V-07]), or moves inside the
    home board onto a point the opponent has not made."""
    rev = other[::-1]
    one, hit = _ONE, _HIT
    m = int.from_bytes(bytes(mover + other), "little")
    occupied = [p for p in range(HOME, 0, -1) if mover[p]]
    if not occupied:
        return []
    top = occupied[0]
    c = list(mover[: HOME + 1])
    out: dict[int, int] = {}
    singles: dict[int, int] = {}
    base = CODE_BASE
    two = False
    for first, second in ((high, low), (low, high)):
        for s1 in occupied:
            e1 = s1 - first
            if e1 > 0:
                if rev[e1] >= 2:
                    continue
                key1 = m + one[e1] - one[s1] + (hit[e1] if rev[e1] and not c[e1] else 0)
            elif e1 < 0 and s1 != top:
                continue
            else:
                e1 = 0
                key1 = m + 1 - one[s1]
            c[s1] -= 1
            c[e1] += 1
            # the second step on the counts after the first
            code1 = (s1 - 1) * 6 + first
            found = False
            high2 = 0
            for s2 in range(top, 0, -1):
                if not c[s2]:
                    continue
                if not high2:
                    high2 = s2
                e2 = s2 - second
                if e2 > 0:
                    if rev[e2] >= 2:
                        continue
                    key = key1 + one[e2] - one[s2] + (hit[e2] if rev[e2] and not c[e2] else 0)
                elif e2 < 0 and s2 != high2:
                    continue
                else:
                    key = key1 + 1 - one[s2]
                found = True
                if key not in out:
                    out[key] = code1 + ((s2 - 1) * 6 + second) * base
            c[s1] += 1
            c[e1] -= 1
            if found:
                two = True
            elif not two and key1 not in singles:
                singles[key1] = code1
    before = (mover, other)
    if two:
        return _plays(out, before)
    if not singles:
        return []
    plays = _plays(singles, before)
    higher = [p for p in plays if p.code % 6 == high % 6]  # [V-09] the higher die
    return higher or plays


def _bar_double(mover: Side, other: Side, die: int) -> list[Play] | None:
    """A double with checkers on the bar, the Egyptian rule off: up to four enter first
    ([V-03]); the steps left are legal by the opponent's blocks alone (a checker that has
    just entered is outside the home board until its last step, so nothing bears off).
    ``None`` when not all four steps can be played."""
    rev = other[::-1]
    enter = BAR - die
    if rev[enter] >= 2:
        return None
    one, hit = _ONE, _HIT
    m = int.from_bytes(bytes(mover + other), "little")
    entering = min(mover[BAR], 4)
    key = m + entering * (one[enter] - one[BAR]) + (hit[enter] if rev[enter] else 0)
    code = sum(((BAR - 1) * 6 + die) * _POWERS[i] for i in range(entering))
    out: dict[int, int] = {}
    if entering < 4:
        c = list(mover)
        c[BAR] -= entering
        c[enter] += entering
        reach: set[int] = set()
        for start in range(24, die, -1):
            if c[start]:
                point = start
                for _ in range(4 - entering):
                    if point <= die or rev[point - die] >= 2:
                        break
                    reach.add(point)
                    point -= die
        points = sorted(reach, reverse=True)
        count = len(points)
        plain = [0] * 25
        hitting = [0] * 25
        for p in points:
            plain[p] = one[p - die] - one[p]
            hitting[p] = plain[p] + hit[p - die] if rev[p - die] == 1 else plain[p]

        def search(level: int, first: int, key: int, code: int) -> None:
            power = _POWERS[level]
            for i in range(first, count):
                s = points[i]
                if not c[s]:
                    continue
                e = s - die
                step_key = key + (plain[s] if c[e] else hitting[s])
                step_code = code + ((s - 1) * 6 + die) * power
                if level == 3:
                    if step_key not in out:
                        out[step_key] = step_code
                    continue
                c[s] -= 1
                c[e] += 1
                search(level + 1, i, step_key, step_code)
                c[s] += 1
                c[e] -= 1

        search(entering, 0, key, code)
        if not out:
            return None
    else:
        out[key] = code
    return _plays(out, (mover, other))


def _simple_double(mover: Side, other: Side, die: int) -> list[Play] | None:
    """A double with no checker on the bar and at least four outside the home board, the
    Egyptian rule off. ``None`` when not all four steps can be played."""
    rev = other[::-1]
    # the points a step may start from: occupied now or reached by earlier steps
    reach: set[int] = set()
    for start in range(24, die, -1):
        if mover[start]:
            point = start
            for _ in range(4):
                if point <= die or rev[point - die] >= 2:
                    break
                reach.add(point)
                point -= die
    if not reach:
        return None
    points = sorted(reach, reverse=True)
    c = list(mover)
    m = int.from_bytes(bytes(mover + other), "little")
    one, hit = _ONE, _HIT
    # per point: the change of the key by a step from it, without and with a hit
    plain = [0] * 25
    hitting = [0] * 25
    for p in points:
        plain[p] = one[p - die] - one[p]
        hitting[p] = plain[p] + hit[p - die] if rev[p - die] == 1 else plain[p]
    digit = [(p - 1) * 6 + die for p in range(25)]
    out: dict[int, int] = {}
    for i1, s1 in enumerate(points):
        if not c[s1]:
            continue
        e1 = s1 - die
        key1 = m + (plain[s1] if c[e1] else hitting[s1])
        c[s1] -= 1
        c[e1] += 1
        k1 = digit[s1]
        for i2, s2 in enumerate(points[i1:], i1):
            if not c[s2]:
                continue
            e2 = s2 - die
            key2 = key1 + (plain[s2] if c[e2] else hitting[s2])
            c[s2] -= 1
            c[e2] += 1
            k2 = k1 + digit[s2] * 151
            for i3, s3 in enumerate(points[i2:], i2):
                if not c[s3]:
                    continue
                e3 = s3 - die
                key3 = key2 + (plain[s3] if c[e3] else hitting[s3])
                c[s3] -= 1
                c[e3] += 1
                k3 = k2 + digit[s3] * 22801
                for s4 in points[i3:]:
                    if c[s4]:
                        key = key3 + (plain[s4] if c[s4 - die] else hitting[s4])
                        if key not in out:
                            out[key] = k3 + digit[s4] * 3442951
                c[s3] += 1
                c[e3] -= 1
            c[s2] += 1
            c[e2] -= 1
        c[s1] += 1
        c[e1] -= 1
    if not out:
        return None
    return _plays(out, (mover, other))


def legal_plays(
    mover: Side, other: Side, die1: int, die2: int, egyptian: bool = False
) -> list[Play]:
    """Every legal play of the roll ``die1``-``die2``, one per distinct resulting position.

    The maximum-dice rule [V-08] keeps only plays that use as many dice as possible; when only
    one die of a non-double can be played, the higher-die rule [V-09] keeps the plays of the
    higher die if there are any. An empty list means the roll cannot be played at all.

    Plays come in the order of a depth-first search over the dice (starts from the highest
    point down; a non-double's higher die first, then its lower die first; a double's steps
    never starting above the step before), each position with the first step sequence found
    for it; positions are told apart by a packed key.

    >>> len(legal_plays(START, START, 1, 1)), len(legal_plays(START, START, 6, 6))
    (42, 11)
    """
    found: list[Play] | None = None
    if die1 == die2:
        if egyptian:
            pass
        elif mover[BAR]:
            found = _bar_double(mover, other, die1)
        elif sum(mover[7:]) >= 4:
            found = _simple_double(mover, other, die1)
        return found if found is not None else _general_double(mover, other, die1, egyptian)
    high, low = (die1, die2) if die1 > die2 else (die2, die1)
    if not egyptian:
        if mover[BAR]:
            found = _bar_pair(mover, other, high, low)
        else:
            outside = sum(mover[7:])
            if outside >= 2:
                found = _simple_pair(mover, other, high, low)
            elif not outside:
                return _home_pair(mover, other, high, low)
    return found if found is not None else _general_pair(mover, other, high, low, egyptian)


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
