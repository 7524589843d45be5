"""The first move generator, kept as it was written (a depth-first search over the dice that
moves checkers in place and undoes them): the faster generator in ``board.py`` must give
exactly its list (the same plays, steps, codes and order) on every position, which a
hypothesis property checks."""

from __future__ import annotations

from collections.abc import Sequence

from runarch_gen.backgammon.board import (
    _POWERS,
    BAR,
    HOME,
    MAX_STACK_EGYPTIAN,
    OFF,
    Play,
    Side,
    Step,
    pack_position,
    replay_code,
)


class _Search:
    """Depth-first search over the dice, moving checkers in place and undoing them; leaves go
    into ``out`` keyed by position, only those using the most dice found so far ([V-08])."""

    __slots__ = ("before", "best", "egyptian", "me", "out", "steps", "you")

    def __init__(self, mover: Side, other: Side, egyptian: bool) -> None:
        self.before = (mover, other)
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
            # the steps as found: the code must replay to them
            assert replay_code(*self.before, code) == tuple(Step(*s) for s in self.steps)
            self.out[key] = Play(pack_position(*key), code, self.before)


def old_legal_plays(
    mover: Side, other: Side, die1: int, die2: int, egyptian: bool = False
) -> list[Play]:
    """The legal plays as the first generator listed them."""
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
