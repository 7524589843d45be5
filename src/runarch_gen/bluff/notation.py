"""Bluff's notation: bids (``11×3``, ``4×★``), ``doubt`` and lists of faces (``1,3,★``).

Every reader comes with its writer (python-chess's ``parse_san``/``san``): :func:`parse_bid`
reads what :class:`~.rules.Bid` prints, :func:`parse_faces` what :func:`format_faces` prints.
Malformed text raises :class:`InvalidBidError` (a :class:`~runarch_gen.errors.ParseError`);
whether a well-formed bid is allowed is the engine's question.

>>> parse_bid("11x3", 5), parse_bid(" 4×★ ", 5), parse_bid("2xS", 5)
((11, 3), (4, 6), (2, 6))
>>> format_faces((1, 3, 6), 5), parse_faces("★, 3,1", 5)
('1,3,★', (1, 3, 6))
"""

from __future__ import annotations

import re

from runarch_gen.bluff.rules import STAR_TEXT
from runarch_gen.errors import ParseError

__all__ = [
    "DOUBT_WORDS",
    "InvalidBidError",
    "format_faces",
    "parse_bid",
    "parse_face",
    "parse_faces",
]

DOUBT_WORDS = frozenset({"doubt", "nevěřím", "neverim", "challenge"})
"""Words read as a doubt; ``doubt`` is printed."""

_STARS = frozenset({"★", "*", "s"})
_BID = re.compile(r"\s*([0-9]{1,3})\s*[x×]\s*(\S{1,3})\s*\Z", re.IGNORECASE)
MAX_TEXT = 200


class InvalidBidError(ParseError):
    """Text that is not a bid, a face or a list of faces."""


def parse_face(text: str, faces: int) -> int:
    """A face: a number ``1…faces`` or the star (``★``, ``*``, ``s``), which is ``faces + 1``."""
    word = text.strip().lower()
    if word in _STARS:
        return faces + 1
    if re.fullmatch(r"[0-9]{1,2}", word) and 1 <= int(word) <= faces:
        return int(word)
    raise InvalidBidError(f"a face is 1 to {faces} or {STAR_TEXT}, not {text.strip()[:20]!r}")


def parse_bid(text: str, faces: int) -> tuple[int, int]:
    """``(quantity, face)`` of a bid written ``Q×F`` (or ``QxF``); the star is ``faces + 1``."""
    if len(text) > MAX_TEXT:
        raise InvalidBidError("a bid is a short text such as 11×3")
    match = _BID.match(text)
    if match is None:
        raise InvalidBidError(f"expected a bid like 11×3 or 4×★, not {text.strip()[:40]!r}")
    return int(match.group(1)), parse_face(match.group(2), faces)


def format_faces(hand: tuple[int, ...], faces: int) -> str:
    """Faces as ``1,3,★`` (the star is ``faces + 1``); ``-`` for none."""
    if not hand:
        return "-"
    return ",".join(STAR_TEXT if f == faces + 1 else str(f) for f in hand)


def parse_faces(text: str, faces: int) -> tuple[int, ...]:
    """The sorted faces of a list written ``1,3,★`` (spaces allowed; ``-`` for none)."""
    if len(text) > MAX_TEXT:
        raise InvalidBidError("a list of faces is a short text such as 1,3,★")
    body = text.strip()
    if body in ("", "-"):
        return ()
    parts = [p for p in re.split(r"[,\s]+", body) if p]
    return tuple(sorted(parse_face(p, faces) for p in parts))
