"""Standard move notation both ways (rule [V-20]): the roll first, then the moves from the
mover's point of view: ``31: 8/5 6/5``, ``bar/22``, ``6/off`` (also ``6/0``, ``6/ven``),
``13/11*/5`` for a hit on the way, ``19/17(2)`` for equal moves, ``25`` for the bar.

Reading a play does not need the dice used for each part: the text is played out checker by
checker on the board (hitting a lone checker wherever a move stops) and the result must be the
position after one of the legal plays of the roll — a play *is* its resulting position [V-10].
Bad syntax raises :class:`NotationError`; a well-formed play that is not legal raises
:class:`IllegalPlayError` saying why.

>>> from runarch_gen.backgammon.board import START
>>> parse_dice("31")
(3, 1)
>>> play = parse_play("8/5 6/5", START, START, (3, 1))
>>> format_play((3, 1), play.steps)
'31: 8/5 6/5'
"""

from __future__ import annotations

import itertools
import re

from runarch_gen.backgammon.board import (
    BAR,
    OFF,
    Play,
    Side,
    format_steps,
    legal_plays,
    pack_position,
)
from runarch_gen.backgammon.errors import IllegalPlayError, NotationError

__all__ = ["format_play", "parse_dice", "parse_play", "parse_segments"]

MAX_NOTATION = 200
_MOVE = re.compile(r"([^\s(]+)(?:\((\d)\))?\Z")


def parse_dice(text: str, source: str | None = None) -> tuple[int, int]:
    """A roll written as two digits 1–6 (``31``, ``3-1``, ``3 1``); the first die first.

    >>> parse_dice("6-6")
    (6, 6)
    """
    digits = re.sub(r"[\s,-]", "", text.strip())
    if not re.fullmatch(r"[1-6][1-6]", digits):
        raise NotationError(
            f"a roll is two digits 1-6 such as 31, not {text.strip()[:20]!r}", source=source
        )
    return int(digits[0]), int(digits[1])


def format_play(dice: tuple[int, int], steps: tuple[object, ...] | list[object]) -> str:
    """``31: 8/5 6/5``; a roll that cannot be played is just ``31:``.

    >>> format_play((6, 6), [])
    '66:'
    """
    roll = f"{dice[0]}{dice[1]}:"
    text = format_steps(steps)  # type: ignore[arg-type]
    return f"{roll} {text}" if text else roll


def _point(word: str, source: str | None) -> int:
    lowered = word.lower()
    if lowered in ("bar", "b", "25"):
        return BAR
    if lowered in ("off", "out", "ven", "o", "0"):
        return OFF
    if re.fullmatch(r"\d{1,2}", word) and 1 <= int(word) <= 24:
        return int(word)
    raise NotationError(
        f"a point is 1-24, bar (25) or off (0, ven), not {word[:20]!r}", source=source
    )


def parse_segments(text: str, source: str | None = None) -> list[list[tuple[int, bool]]]:
    """The moves of a play's text: per checker move its points in order with a hit flag,
    repeated for ``(n)``. The roll prefix (``31:``) is dropped if present.

    >>> parse_segments("13/11*/5 24/22(2)")
    [[(13, False), (11, True), (5, False)], [(24, False), (22, False)], [(24, False), (22, False)]]
    """
    body = text.strip()
    if len(body) > MAX_NOTATION:
        raise NotationError(f"a play is at most {MAX_NOTATION} characters", source=source)
    body = re.sub(r"^\s*[1-6][1-6]\s*:", "", body).replace(",", " ")
    moves: list[list[tuple[int, bool]]] = []
    for word in body.split():
        match = _MOVE.match(word)
        if match is None:
            raise NotationError(f"expected FROM/TO or FROM/TO(n), not {word[:20]!r}", source=source)
        parts = match.group(1).split("/")
        if len(parts) < 2 or any(not part for part in parts):
            raise NotationError(f"expected FROM/TO, not {word[:20]!r}", source=source)
        points = [(_point(p.rstrip("*"), source), p.endswith("*")) for p in parts]
        if points[0][1]:
            raise NotationError(f"a move cannot hit where it starts: {word[:20]!r}", source=source)
        for (a, _), (b, _) in itertools.pairwise(points):
            if b >= a:
                raise NotationError(
                    f"{word[:20]!r} must move down, from the higher point to the lower",
                    source=source,
                )
        repeat = int(match.group(2) or 1)
        if not 1 <= repeat <= 4:
            raise NotationError(f"a move repeats 1-4 times, not {repeat}", source=source)
        moves.extend([list(points)] * repeat)
    if len(moves) > 4:
        raise NotationError("a play moves at most four times", source=source)
    return moves


def _play_out(
    mover: Side, other: Side, moves: list[list[tuple[int, bool]]]
) -> tuple[Side, Side] | None:
    me, you = list(mover), list(other)
    for points in moves:
        for (start, _), (end, _) in itertools.pairwise(points):
            if me[start] == 0:
                return None
            me[start] -= 1
            if end == OFF:
                me[OFF] += 1
                continue
            me[end] += 1
            across = BAR - end
            if you[across] == 1:
                you[across] = 0
                you[BAR] += 1
    return tuple(me), tuple(you)


def parse_play(
    text: str,
    mover: Side,
    other: Side,
    dice: tuple[int, int],
    egyptian: bool = False,
    source: str | None = None,
) -> Play:
    """The legal play of ``dice`` that ``text`` writes; an empty text is the play of a roll
    that cannot be played."""
    moves = parse_segments(text, source)
    plays = legal_plays(mover, other, dice[0], dice[1], egyptian)
    shown = text.strip()[:60] or "(no move)"
    if not moves:
        if plays:
            raise IllegalPlayError(shown, f"the roll {dice[0]}{dice[1]} can be played")
        return Play(pack_position(mover, other), 0, (mover, other))
    if not plays:
        raise IllegalPlayError(shown, f"the roll {dice[0]}{dice[1]} cannot be played at all")
    result = _play_out(mover, other, moves)
    if result is not None:
        for play in plays:
            if play.key == result:
                return play
    most = max(len(p.steps) for p in plays)
    raise IllegalPlayError(
        shown,
        f"not a legal play of {dice[0]}{dice[1]} here (a legal play uses {most} "
        f"{'die' if most == 1 else 'dice'}, e.g. {format_steps(plays[0].steps)})",
    )
