"""The counts of RunArch's rules that several parts of the tool need, defined once (RULES.md):
the deck checker, the engine, the bots and the validation read them from here.

>>> CARDS_TO_END, OFFER_SIZE, HAND_SIZE, SIMPLE_HAND, MILESTONES
(10, 4, 2, 2, (25, 50, 75))
"""

from __future__ import annotations

__all__ = [
    "CARDS_TO_END",
    "DRAWS_PER_PLAYER",
    "HAND_SIZE",
    "MILESTONES",
    "OFFER_SIZE",
    "SIMPLE_HAND",
]

CARDS_TO_END = 10
"""§5: the complex game's last round begins when a player places their 10th card into the
archives; so a goal is met by at most this many archived cards (§7)."""
OFFER_SIZE = 4
"""§3 step 5: the cards laid out face up as the offer."""
HAND_SIZE = 2
"""§4.4: a hand holds at most 2 cards."""
SIMPLE_HAND = 2
"""§5.1: the simple game's hand."""
MILESTONES = (25, 50, 75)
"""[R-16] the totals at which bonus-action tokens are handed over and movement phases open."""
DRAWS_PER_PLAYER = 10
"""§9.1: a deck must leave at least 10 draws per player after setup."""
