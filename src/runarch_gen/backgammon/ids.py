"""GNU Backgammon's Position ID and Match ID, in and out (implemented from gnubg's manual,
"A technical description of the Position ID" and "… of the Match ID").

**Position ID.** For each of the two players in turn, for each of its points 1 … 24 and then
its bar, as many 1-bits as it has checkers there followed by a 0-bit: at most 80 bits, packed
little-endian (bit *i* of the key is bit *i* mod 8 of byte *i* div 8) into 10 bytes, written in
Base64 without the trailing ``==``: 14 characters. As gnubg's programs do, the player **not** on
roll comes first and the player on roll second (the manual's prose says the opposite; the
programs are what users paste from).

**Match ID.** 66 bits in 9 bytes, little-endian the same way, Base64 in 12 characters: the
cube's log2 (4 bits), cube owner (2: 0, 1, or 3 for the middle), the player on roll (1), the
Crawford flag (1), the game state (3), whose decision it is (1), a double offered (1), a
resignation offered (2), the dice (3 + 3), the match length (15) and both scores (15 + 15);
as gnubg writes it, bit 66 is set when the Jacoby rule is *not* in use (match play, or a
money game without it).

>>> from runarch_gen.backgammon.board import START
>>> position_id(START, START)
'4HPwATDgc/ABMA'
>>> parse_position_id('4HPwATDgc/ABMA') == (START, START)
True
>>> m = parse_match_id('QYkqASAAIAAA')
>>> (m.cube, m.cube_owner, m.on_roll, m.dice, m.length, m.scores)
(2, 0, 1, (5, 2), 9, (2, 4))
>>> match_id(m)
'QYkqASAAIAAA'
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

from runarch_gen.backgammon.board import BAR, Side
from runarch_gen.backgammon.errors import InvalidIdError

__all__ = [
    "MatchInfo",
    "match_id",
    "parse_match_id",
    "parse_position_id",
    "position_id",
]

POSITION_ID_LENGTH = 14
MATCH_ID_LENGTH = 12
MAX_CHECKERS = 15
_B64 = re.compile(r"[A-Za-z0-9+/]+\Z")


def _encode_bits(bits: list[int], size: int) -> str:
    data = bytearray(size)
    for index, bit in enumerate(bits):
        if bit:
            data[index // 8] |= 1 << (index % 8)
    return base64.b64encode(bytes(data)).decode("ascii").rstrip("=")


def _decode_bits(text: str, length: int, what: str, source: str | None) -> list[int]:
    raw = text.strip()
    if len(raw) != length or not _B64.match(raw):
        raise InvalidIdError(
            f"a {what} is {length} Base64 characters (A-Z a-z 0-9 + /), not {raw[:40]!r}",
            source=source,
        )
    padded = raw + "=" * (-len(raw) % 4)
    try:
        data = base64.b64decode(padded, validate=True)
    except binascii.Error:
        raise InvalidIdError(f"{raw!r} is not Base64", source=source) from None
    return [(data[i // 8] >> (i % 8)) & 1 for i in range(len(data) * 8)]


def position_id(mover: Side, other: Side) -> str:
    """The gnubg Position ID of the position with ``mover`` on roll."""
    key = 0
    shift = 0
    for side in (other, mover):  # gnubg: the player not on roll first
        for point in range(1, BAR + 1):
            count = side[point]
            if count:
                key |= ((1 << count) - 1) << shift
            shift += count + 1
    if shift > 80:
        raise InvalidIdError("a Position ID holds at most 15 checkers a side")
    return base64.b64encode(key.to_bytes(10, "little")).decode("ascii")[:POSITION_ID_LENGTH]


def parse_position_id(text: str, source: str | None = None) -> tuple[Side, Side]:
    """The position (mover, other) of a gnubg Position ID; the number of checkers borne off
    is what is missing of 15. :class:`InvalidIdError` for text that is not a position.

    >>> parse_position_id('4HPwATDgc/ABUA')[0][25]
    1
    """
    bits = _decode_bits(text, POSITION_ID_LENGTH, "Position ID", source)
    sides: list[list[int]] = [[0] * 26, [0] * 26]
    which, point, index = 0, 1, 0
    while which < 2 and index < len(bits):
        if bits[index]:
            sides[which][point] += 1
        else:
            point += 1
            if point > BAR:
                which, point = which + 1, 1
        index += 1
    if which < 2:
        raise InvalidIdError(f"{text.strip()!r} does not describe two sides", source=source)
    if any(bits[index:]):
        raise InvalidIdError(f"{text.strip()!r} has bits set after both sides", source=source)
    for side in sides:
        on_board = sum(side)
        if on_board > MAX_CHECKERS:
            raise InvalidIdError(
                f"{text.strip()!r} has {on_board} checkers of one side (at most 15)",
                source=source,
            )
        side[0] = MAX_CHECKERS - on_board
    other, mover = tuple(sides[0]), tuple(sides[1])
    for point in range(1, 25):
        if mover[point] and other[25 - point]:
            raise InvalidIdError(
                f"{text.strip()!r} puts both sides on the on-roll player's point {point}",
                source=source,
            )
    return mover, other


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """What a Match ID holds. ``cube_owner`` is 0, 1 or -1 (the middle); ``game_state`` 0 no
    game, 1 playing, 2 over, 3 resigned, 4 ended by a dropped cube; ``resign`` 0 none, 1 single,
    2 gammon, 3 backgammon; ``dice`` (0, 0) before the roll; ``length`` 0 for money play."""

    cube: int = 1
    cube_owner: int = -1
    on_roll: int = 0
    crawford: bool = False
    game_state: int = 1
    turn: int = 0
    doubled: bool = False
    resign: int = 0
    dice: tuple[int, int] = (0, 0)
    length: int = 0
    scores: tuple[int, int] = (0, 0)
    jacoby: bool = True
    """Whether the Jacoby rule is in use (gnubg's bit 66, set when it is not)."""


_FIELDS = (4, 2, 1, 1, 3, 1, 1, 2, 3, 3, 15, 15, 15)
MAX_CUBE_LOG = 15
MAX_SCORE = 2**15 - 1


def match_id(info: MatchInfo) -> str:
    """The gnubg Match ID of ``info``.

    >>> match_id(MatchInfo(on_roll=1, turn=1))
    'cAkAAAAAAAAA'
    >>> match_id(MatchInfo(on_roll=1, turn=1, jacoby=False))
    'cAkAAAAAAAAE'
    """
    log = info.cube.bit_length() - 1
    if info.cube < 1 or 1 << log != info.cube or log > MAX_CUBE_LOG:
        raise InvalidIdError(f"a Match ID holds a cube of 1 … 32768, not {info.cube}")
    values = (
        log,
        3 if info.cube_owner < 0 else info.cube_owner,
        info.on_roll,
        int(info.crawford),
        info.game_state,
        info.turn,
        int(info.doubled),
        info.resign,
        info.dice[0],
        info.dice[1],
        info.length,
        info.scores[0],
        info.scores[1],
    )
    bits: list[int] = []
    for value, width in zip(values, _FIELDS, strict=True):
        if not 0 <= value < 1 << width:
            raise InvalidIdError(f"{value} does not fit a Match ID field of {width} bits")
        bits.extend((value >> i) & 1 for i in range(width))
    bits.append(0 if info.jacoby else 1)  # bit 66: the Jacoby rule not in use
    return _encode_bits(bits, 9)


def parse_match_id(text: str, source: str | None = None) -> MatchInfo:
    """The match state of a gnubg Match ID (bit 66 the Jacoby rule not in use; the 5 spare
    bits after it are ignored, as gnubg does)."""
    bits = _decode_bits(text, MATCH_ID_LENGTH, "Match ID", source)
    values: list[int] = []
    index = 0
    for width in _FIELDS:
        values.append(sum(bits[index + i] << i for i in range(width)))
        index += width
    (log, owner, on_roll, crawford, state, turn, doubled, resign, d1, d2, length, s0, s1) = values
    where = text.strip()
    if owner == 2:
        raise InvalidIdError(
            f"{where!r}: cube owner 2 is not a player or the middle", source=source
        )
    if state > 4:
        raise InvalidIdError(f"{where!r}: game state {state} is not 0-4", source=source)
    if (d1 == 0) != (d2 == 0) or d1 > 6 or d2 > 6:
        raise InvalidIdError(f"{where!r}: dice {d1}{d2} are not a roll", source=source)
    if length and (s0 >= length or s1 >= length) and state != 2:
        raise InvalidIdError(f"{where!r}: a score reaches the match length", source=source)
    return MatchInfo(
        cube=1 << log,
        cube_owner=-1 if owner == 3 else owner,
        on_roll=on_roll,
        crawford=bool(crawford),
        game_state=state,
        turn=turn,
        doubled=bool(doubled),
        resign=resign,
        dice=(d1, d2),
        length=length,
        scores=(s0, s1),
        jacoby=not bits[66],
    )
