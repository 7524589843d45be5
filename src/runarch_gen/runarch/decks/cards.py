"""Cards, their patterns and goals, and decks (RULES.md §1.3, §7).

These are plain values: a :class:`Card` may hold an invalid pattern (a checker reports it), so
that a designer's deck can be read whole and every fault named at once.

>>> p = parse_pattern("0R,3B,4G,5Y,6V")
>>> p.text, p.is_valid()
('0R,3B,4G,5Y,6V', True)
>>> g = parse_goal("blue>=3 & triangle>=2", reward=6)
>>> g.text, g.is_met([parse_piece(c) for c in ("0B", "3B", "4B", "3R", "3G")])
('blue>=3 & triangle>=2', True)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum

from runarch_gen.errors import ParseError
from runarch_gen.runarch.atoms import (
    SIZE,
    Colour,
    Direction,
    Piece,
    Shape,
    parse_colour,
    parse_piece,
    parse_shape,
)

PATTERN_LENGTH = SIZE
MIN_REWARD = 3
MAX_REWARD = 12


@dataclass(frozen=True, slots=True)
class Pattern:
    """Five stones in a row; valid when no two share a colour and no two share a shape."""

    pieces: tuple[Piece, ...]

    def __iter__(self) -> Iterator[Piece]:
        return iter(self.pieces)

    def __len__(self) -> int:
        return len(self.pieces)

    def __getitem__(self, i: int) -> Piece:
        return self.pieces[i]

    @property
    def text(self) -> str:
        """Codes joined by commas: ``0R,3B,4G,5Y,6V``."""
        return ",".join(piece.code for piece in self.pieces)

    def is_valid(self) -> bool:
        return (
            len(self.pieces) == PATTERN_LENGTH
            and len({p.colour for p in self.pieces}) == PATTERN_LENGTH
            and len({p.shape for p in self.pieces}) == PATTERN_LENGTH
        )

    def __str__(self) -> str:
        return self.text


def parse_pattern(text: str) -> Pattern:
    """A pattern from five codes separated by commas or spaces; must be exactly five."""
    codes = [c for c in re.split(r"[,\s]+", text.strip()) if c]
    if len(codes) != PATTERN_LENGTH:
        raise ParseError(f"a pattern has {PATTERN_LENGTH} codes, {text!r} has {len(codes)}")
    return Pattern(tuple(parse_piece(code) for code in codes))


class GoalKind(Enum):
    """The goal kinds of RULES.md §7 [R-23]."""

    COLOUR = "colour"  # at least `colour_count` cards of `colour`
    SHAPE = "shape"  # at least `shape_count` cards of `shape`
    COLOUR_AND_SHAPE = "colour+shape"  # both of the above
    COLOURS = "colours"  # at least `colour_count` different colours
    SHAPES = "shapes"  # at least `shape_count` different shapes


@dataclass(frozen=True, slots=True)
class Goal:
    """A long-term task read from the match areas of the cards in a player's archives.

    ``colour_count`` is the threshold on ``colour`` (kinds COLOUR, COLOUR_AND_SHAPE) or on the
    number of different colours (COLOURS); ``shape_count`` likewise for shapes.
    """

    kind: GoalKind
    reward: int
    colour: Colour | None = None
    colour_count: int = 0
    shape: Shape | None = None
    shape_count: int = 0

    def __post_init__(self) -> None:
        needs_colour = self.kind in (GoalKind.COLOUR, GoalKind.COLOUR_AND_SHAPE)
        needs_shape = self.kind in (GoalKind.SHAPE, GoalKind.COLOUR_AND_SHAPE)
        if needs_colour != (self.colour is not None) or needs_shape != (self.shape is not None):
            raise ValueError(
                f"goal kind {self.kind.value} with colour={self.colour} shape={self.shape}"
            )
        if self.kind is GoalKind.SHAPES and self.colour_count:
            raise ValueError("a 'shapes' goal counts shapes only")
        if self.kind is GoalKind.COLOURS and self.shape_count:
            raise ValueError("a 'colours' goal counts colours only")

    @property
    def text(self) -> str:
        """Canonical text: ``blue>=3``, ``triangle>=2``, ``blue>=3 & triangle>=2``,
        ``colours>=4``, ``shapes>=4``."""
        kind = self.kind
        if kind is GoalKind.COLOURS:
            return f"colours>={self.colour_count}"
        if kind is GoalKind.SHAPES:
            return f"shapes>={self.shape_count}"
        parts = []
        if self.colour is not None:
            parts.append(f"{self.colour.english}>={self.colour_count}")
        if self.shape is not None:
            parts.append(f"{self.shape.english}>={self.shape_count}")
        return " & ".join(parts)

    def is_met(self, matches: Iterable[Piece]) -> bool:
        """Whether the match areas ``matches`` (the cards in all three archives) meet the goal."""
        pieces = list(matches)
        kind = self.kind
        if kind is GoalKind.COLOURS:
            return len({p.colour for p in pieces}) >= self.colour_count
        if kind is GoalKind.SHAPES:
            return len({p.shape for p in pieces}) >= self.shape_count
        colour, shape = self.colour, self.shape
        if colour is not None and [p.colour for p in pieces].count(colour) < self.colour_count:
            return False
        return shape is None or [p.shape for p in pieces].count(shape) >= self.shape_count

    def __str__(self) -> str:
        return self.text


_TERM = re.compile(r"^\s*([A-Za-z0-9]+)\s*>=\s*(\d+)\s*$")


def parse_goal(text: str, reward: int) -> Goal:
    """A goal from its text (see :attr:`Goal.text`; letters and digits work for names too)."""
    parsed: list[tuple[str, int]] = []
    for term in text.split("&"):
        m = _TERM.match(term)
        if m is None:
            raise ParseError(
                f"bad goal {text!r}: expected e.g. 'blue>=3', 'triangle>=2',"
                " 'blue>=3 & triangle>=2', 'colours>=4' or 'shapes>=4'"
            )
        if len(m.group(2)) > 2:
            raise ParseError(f"bad goal {text[:40]!r}: a count is at most 5")
        parsed.append((m.group(1).lower(), int(m.group(2))))
    if len(parsed) == 1 and parsed[0][0] in ("colours", "colors"):
        return Goal(GoalKind.COLOURS, reward, colour_count=parsed[0][1])
    if len(parsed) == 1 and parsed[0][0] == "shapes":
        return Goal(GoalKind.SHAPES, reward, shape_count=parsed[0][1])
    colour: tuple[Colour, int] | None = None
    shape: tuple[Shape, int] | None = None
    for name, count in parsed:
        attribute = _colour_or_shape(name)
        if attribute is None:
            raise ParseError(f"bad goal {text!r}: {name!r} is not a colour or a shape")
        if isinstance(attribute, Colour) and colour is None:
            colour = (attribute, count)
        elif isinstance(attribute, Shape) and shape is None:
            shape = (attribute, count)
        else:
            raise ParseError(f"bad goal {text!r}: at most one colour and one shape")
    if colour and shape:
        return Goal(GoalKind.COLOUR_AND_SHAPE, reward, colour[0], colour[1], shape[0], shape[1])
    if colour:
        return Goal(GoalKind.COLOUR, reward, colour=colour[0], colour_count=colour[1])
    assert shape is not None
    return Goal(GoalKind.SHAPE, reward, shape=shape[0], shape_count=shape[1])


def _colour_or_shape(name: str) -> Colour | Shape | None:
    for parse in (parse_colour, parse_shape):
        try:
            return parse(name)
        except ParseError:
            continue
    return None


@dataclass(frozen=True, slots=True)
class Card:
    """A RunArch card (RULES.md §1.3).

    ``match`` is the match area's colour and shape; ``arrows`` the automa's ordered compass
    directions [R-03]. The bet area has no data: it is one spot per player colour on every card.
    """

    id: int
    pattern: Pattern
    match: Piece
    goal: Goal
    arrows: tuple[Direction, ...]


@dataclass(frozen=True, slots=True)
class Calibration:
    """How a deck's goal rewards were set from simulated play (``deck --calibrate``): the
    rules variant, the bots, the games and seed, the board played on, and per goal text the
    measured rate as ``(times met, players counted)`` [R-23]."""

    variant: str
    bots: tuple[str, ...]
    games: int
    seed: int
    board: str
    rates: tuple[tuple[str, int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Deck:
    """An ordered collection of cards; ``calibration`` says how the rewards were calibrated
    from play, when they were."""

    cards: tuple[Card, ...]
    calibration: Calibration | None = None

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def by_id(self, card_id: int) -> Card:
        for card in self.cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)
