"""Hand-built Bluff positions for the tests."""

from __future__ import annotations

from collections.abc import Sequence

from runarch_gen.bluff.engine import BluffGame, BluffState
from runarch_gen.bluff.rules import BluffRules


def table(
    hands: Sequence[str], bids: Sequence[str] = (), *, first: int = 1, **options: object
) -> BluffState:
    """A game whose first round deals ``hands`` (texts such as ``3,3,★``; the players roll in
    seat order from ``first``) and then plays ``bids`` (texts such as ``11×3`` or ``doubt``)."""
    dice = max(len(h.split(",")) for h in hands)
    rules = BluffRules(players=len(hands), dice=dice, first=first, **options)  # type: ignore[arg-type]
    state = BluffGame(rules).new_initial_state()
    players = len(hands)
    for k in range(players):
        seat = (first - 1 + k) % players
        state.apply_text(f"roll {hands[seat]}")
    for text in bids:
        state.apply_text(text)
    return state
