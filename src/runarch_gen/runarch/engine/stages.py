"""The stages of a RunArch position — choosing the setup, playing turns, placing a gained bet
token (§6.2, at once), the end — and the ways a game ends."""

from __future__ import annotations

from runarch_gen.play.game import Termination

SETUP_STAGE, PLAY, BET, OVER = 0, 1, 2, 3


class RunArchTermination(Termination):
    """Why a RunArch game ended.

    >>> [t.value for t in RunArchTermination if t.stalled]
    ['stalled', 'deadlock']
    """

    TARGET = "target"
    """§5 the simple game: a total passed the target [R-17]."""
    TENTH_CARD = "tenth-card"
    """§5 the complex game: a 10th card went into the archives, and the round was finished."""
    PILE_EMPTY = "pile-empty"
    """[R-25] the solo game: the draw pile was empty at the start of the automa's turn."""
    STALLED = "stalled"
    """[R-18] the stall guard: the turn limit passed."""
    DEADLOCK = "deadlock"
    """Our reading of [R-18]: neither side can ever score again, so the game cannot end."""

    @property
    def stalled(self) -> bool:
        return self in (RunArchTermination.STALLED, RunArchTermination.DEADLOCK)

    @property
    def deadlock(self) -> bool:
        """A proven deadlock (the verdicts count it apart from the stalls the guard ends)."""
        return self is RunArchTermination.DEADLOCK


__all__ = ["BET", "OVER", "PLAY", "SETUP_STAGE", "RunArchTermination"]
