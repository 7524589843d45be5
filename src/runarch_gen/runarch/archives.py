"""The three archives of a player board and what each accepts (RULES.md §4.3).

This is the rule's definition, written for clarity; hot code (the rules engine, the deck
generator's search) keeps its own fast form and is tested against this one.

>>> from runarch_gen.runarch.atoms import parse_piece as p
>>> accepts(ArchiveRule.SAME, [p("0R"), p("3R")], p("5R"))
True
>>> accepts(ArchiveRule.SAME, [p("0R"), p("3R")], p("0B"))
False
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from runarch_gen.runarch.atoms import Piece


class ArchiveRule(Enum):
    """What an archive accepts; a card's colour and shape are those of its match area."""

    SAME = "same"  # all cards share one colour, or all share one shape
    SHAPES = "shapes"  # all cards have different shapes
    COLOURS = "colours"  # all cards have different colours


ARCHIVE_ORDERS: dict[str, tuple[ArchiveRule, ...]] = {
    # default: the overview's order, left to right.
    "overview": (ArchiveRule.SAME, ArchiveRule.SHAPES, ArchiveRule.COLOURS),
    # option: the betting article's order.
    "article": (ArchiveRule.COLOURS, ArchiveRule.SHAPES, ArchiveRule.SAME),
}
ARCHIVE_CAPACITY = 5  # the classic game without bets uses 4


def fits(rule: ArchiveRule, cards: Sequence[Piece]) -> bool:
    """Whether ``cards`` (match areas) may lie together in an archive with ``rule``."""
    if rule is ArchiveRule.SAME:
        return len({c.colour for c in cards}) <= 1 or len({c.shape for c in cards}) <= 1
    if rule is ArchiveRule.SHAPES:
        return len({c.shape for c in cards}) == len(cards)
    return len({c.colour for c in cards}) == len(cards)


def accepts(
    rule: ArchiveRule, held: Sequence[Piece], card: Piece, capacity: int = ARCHIVE_CAPACITY
) -> bool:
    """Whether an archive with ``rule`` holding ``held`` may take ``card``."""
    return len(held) < capacity and fits(rule, [*held, card])
