"""Bluff's components and rules options: the die, the betting scale, bids and their raise order.

The vocabulary of the game (``docs/rules/bluff.md``): a die has the numbers ``1…faces`` and a
star (:func:`star_of`); a :class:`Field` of the :class:`Scale` is a number field or a star field;
a :class:`Bid` is a field's quantity and a face; :class:`BluffRules` gathers the options.

>>> scale = default_scale()
>>> len(scale.fields), str(scale)[:22]
(30, '1 ★1 2 3 ★2 4 5 ★3 6 7')
>>> rules = BluffRules()
>>> [str(b) for b in rules.bids[:7]]
['1×1', '1×2', '1×3', '1×4', '1×5', '1×★', '2×1']
>>> rules.dice_per_player, len(rules.bids)
(6, 110)
"""

from __future__ import annotations

import enum
import os
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from runarch_gen.errors import InputError, ParseError
from runarch_gen.fileio import display_name, read_text
from runarch_gen.play.parameters import check_bounds, param

__all__ = [
    "MAX_FIELDS",
    "MAX_QUANTITY",
    "STAR_TEXT",
    "Bid",
    "BluffRules",
    "ExactHit",
    "Field",
    "Opener",
    "Scale",
    "default_scale",
    "is_inline_scale",
    "parse_scale",
    "parse_scale_inline",
    "read_scale",
    "scale_of",
    "scale_option",
    "scale_value",
]

STAR_TEXT = "★"
MAX_FIELDS = 200
MAX_QUANTITY = 99
MAX_SCALE_BYTES = 64 * 1024


class ExactHit(enum.Enum):
    """What an exact hit costs [L-11]."""

    GIVE = "give"
    """The doubter gives the bidder one die (capped at the bidder's starting dice)."""
    ALL = "all"
    """Variant 1: everyone but the bidder gives up a die."""
    ALL_LAST = "all-last"
    """Variant 1 with the Endless Games limit: bystanders keep their last die."""


class Opener(enum.Enum):
    """Who opens the next round [L-12]."""

    WINNER = "winner"
    LOSER = "loser"


@dataclass(frozen=True, slots=True)
class Field:
    """One field of the betting scale: a quantity, on a star field or a number field."""

    quantity: int
    star: bool

    def __str__(self) -> str:
        return f"{STAR_TEXT}{self.quantity}" if self.star else str(self.quantity)


@dataclass(frozen=True, slots=True)
class Scale:
    """The betting scale: its fields in raise order [L-04]."""

    fields: tuple[Field, ...]
    name: str = "default"

    def __str__(self) -> str:
        return " ".join(str(f) for f in self.fields)


def default_scale() -> Scale:
    """The published board: number fields 1–20 with ★k between 2k−1 and 2k [L-04]."""
    fields: list[Field] = []
    for k in range(1, 11):
        fields += [Field(2 * k - 1, False), Field(k, True), Field(2 * k, False)]
    return Scale(tuple(fields))


_FIELD = re.compile(r"(?P<star>[★*sS])?\s*(?P<quantity>[0-9]{1,6})\Z")


def parse_scale(text: str, source: str = "<scale>") -> Scale:
    """A scale from its text: one field per line (``7`` or ``★4``; ``*4`` and ``s4`` too),
    ``#`` comments and blank lines skipped; :class:`ParseError` names the line and column.

    >>> str(parse_scale("1\\n*1  # a star field\\n2\\n"))
    '1 ★1 2'
    """
    fields: list[Field] = []
    seen: dict[Field, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        column = raw.index(line[0]) + 1
        match = _FIELD.match(line)
        if match is None:
            raise ParseError(
                f"expected a field like '7' or '★4', not {line[:40]!r}",
                source=source,
                line=number,
                column=column,
            )
        quantity = int(match.group("quantity"))
        if not 1 <= quantity <= MAX_QUANTITY:
            raise ParseError(
                f"a quantity is 1 to {MAX_QUANTITY}, not {quantity}",
                source=source,
                line=number,
                column=column,
            )
        item = Field(quantity, match.group("star") is not None)
        if item in seen:
            raise ParseError(
                f"field {item} is already on line {seen[item]}",
                source=source,
                line=number,
                column=column,
            )
        seen[item] = number
        fields.append(item)
        if len(fields) > MAX_FIELDS:
            raise ParseError(f"a scale has at most {MAX_FIELDS} fields", source=source, line=number)
    if not fields:
        raise ParseError("a scale needs at least one field", source=source)
    return Scale(tuple(fields), name=source)


_INLINE = re.compile(r"\s*[★*sS]?\s*[0-9]{1,6}\s*(?:/\s*[★*sS]?\s*[0-9]{1,6}\s*)*\Z")


def is_inline_scale(text: str) -> bool:
    """Whether ``text`` is a scale written inline: fields separated by ``/``."""
    return bool(_INLINE.match(text))


def parse_scale_inline(text: str, source: str = "scale") -> Scale:
    """A scale written inline, its fields separated by ``/`` (``1/★1/2``), as the game string's
    ``scale`` parameter takes it.

    >>> str(parse_scale_inline("1/*1/2/3/*2/4"))
    '1 ★1 2 3 ★2 4'
    """
    if not is_inline_scale(text):
        raise ParseError(
            f"expected 'default' or fields such as 1/★1/2/3/★2/4, not {text[:40]!r}"
            " (a scale file may be named only on the command line)",
            source=source,
        )
    scale = parse_scale("\n".join(text.split("/")), source=source)
    return Scale(scale.fields, name=scale_value(scale))


def scale_value(scale: Scale) -> str:
    """The ``scale`` parameter's value for ``scale``: ``default`` or its fields inline."""
    if scale.fields == default_scale().fields:
        return "default"
    return "/".join(str(f) for f in scale.fields)


def scale_of(value: str) -> Scale:
    """The scale of the ``scale`` parameter: ``default`` or fields inline (never a file)."""
    if value.strip().lower() == "default":
        return default_scale()
    return parse_scale_inline(value)


def scale_option(value: str) -> str:
    """The ``scale`` value of a rules string the user typed on the command line: ``default``
    and inline fields as they are; anything else names a scale file, read once into its
    values."""
    if value.strip().lower() == "default" or is_inline_scale(value):
        return value
    return scale_value(read_scale(value))


def read_scale(path: str | os.PathLike[str]) -> Scale:
    """The scale in file ``path`` (see :func:`parse_scale`); ``default`` is the published one."""
    if str(path).strip().lower() == "default":
        return default_scale()
    name = display_name(path)
    try:
        size = Path(path).stat().st_size if str(path) != "-" else 0
    except OSError:
        size = 0  # read_text reports a missing or unreadable file
    if size > MAX_SCALE_BYTES:
        raise InputError(f"{name}: a scale file is at most {MAX_SCALE_BYTES} bytes")
    return parse_scale(read_text(path, limit=MAX_SCALE_BYTES), source=name)


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid: at least ``quantity`` dice show ``face`` or a star, or (``face`` is the star)
    at least ``quantity`` stars [L-06]. ``star`` is the star's face number."""

    quantity: int
    face: int
    star: int

    @property
    def is_star(self) -> bool:
        return self.face == self.star

    def __str__(self) -> str:
        return f"{self.quantity}×{STAR_TEXT if self.is_star else self.face}"


@dataclass(frozen=True, slots=True)
class BluffRules:
    """Every rules option of Bluff, defaults from the seed (see ``docs/rules/bluff.md``).

    Each field is a parameter of the game string, declared with its help, bounds and rule tag
    (:func:`~runarch_gen.play.parameters.param`)."""

    players: int = param(4, "players at the table", tag="L-01", minimum=2, maximum=6)
    dice: int = param(
        0,
        "dice per player",
        tag="L-02",
        minimum=0,
        maximum=9,
        default_text="0: 6, or 5 each with six players",
    )
    """Dice per player; 0 is the seed's rule: 6, or 5 with six players [L-02]."""
    faces: int = param(5, "numbers on a die besides the star", tag="L-03", minimum=2, maximum=8)
    """Numbers on a die; the star is one more face [L-03]."""
    scale: Scale = param(
        help="the betting scale: default, its fields inline (1/★1/2/…) or, on the command"
        " line, a scale file",
        tag="L-04",
        values="default|1/★1/2/…|FILE",
        write=scale_value,
        read=lambda value: scale_of(str(value)),
        from_file=scale_option,
        default_factory=default_scale,
    )
    exact: ExactHit = param(
        ExactHit.GIVE,
        "the exact hit: the doubter gives the bidder a die, or everyone but the bidder"
        " loses one (all-last: bystanders keep their last die)",
        tag="L-11",
    )
    opener: Opener = param(Opener.WINNER, "who opens the next round", tag="L-12")
    reroll: bool = param(False, "variant 2: show some dice and re-roll the rest", tag="L-13")
    cap: bool = param(False, "no bid above the dice in play", tag="L-09")
    single: bool = param(False, "one round only; its winner wins", tag="L-16")
    first: int = param(
        0,
        "the starting seat",
        tag="L-05",
        minimum=0,
        maximum=6,
        default_text="0: drawn at random",
    )
    """The starting seat, 1-based; 0 draws it at random [L-05]."""
    limit: int = param(
        400, "rounds before the game stops as stalled", tag="L-15", minimum=1, maximum=100_000
    )

    def __post_init__(self) -> None:
        check_bounds(self, "bluff")
        if not 0 <= self.first <= self.players:
            raise InputError(f"bluff: first is 0 (drawn) or a seat 1 to {self.players}")

    @property
    def dice_per_player(self) -> int:
        """The dice each player starts with [L-02]."""
        if self.dice:
            return self.dice
        return 5 if self.players == 6 else 6

    @property
    def total_dice(self) -> int:
        """The dice in play at the start of a game: every player's [L-02]."""
        return self.players * self.dice_per_player

    def bid_rank(self, quantity: int, face: int) -> int | None:
        """The rank of the bid ``quantity × face`` in the raise order, ``None`` when the scale
        has no such bid (a number on a star field, a quantity not on the scale) [L-06]."""
        return _ranks(self.scale, self.faces).get((quantity, face))

    @property
    def star(self) -> int:
        """The star's face number: one above the numbers."""
        return self.faces + 1

    @property
    def sides(self) -> int:
        return self.faces + 1

    @property
    def bids(self) -> tuple[Bid, ...]:
        """Every bid in raise order [L-07]: by field, then by number on a number field."""
        return _bids(self.scale, self.faces)

    def face_text(self, face: int) -> str:
        return STAR_TEXT if face == self.star else str(face)


@cache
def _bids(scale: Scale, faces: int) -> tuple[Bid, ...]:
    star = faces + 1
    out: list[Bid] = []
    for item in scale.fields:
        if item.star:
            out.append(Bid(item.quantity, star, star))
        else:
            out += [Bid(item.quantity, f, star) for f in range(1, faces + 1)]
    return tuple(out)


@cache
def _ranks(scale: Scale, faces: int) -> dict[tuple[int, int], int]:
    return {(b.quantity, b.face): r for r, b in enumerate(_bids(scale, faces))}
