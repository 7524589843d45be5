"""What one side may see of a RunArch position (the bots' only window on the game).

Hidden: the other side's hand and secret goal, the patterns of the offer's cards (only their
match areas show, §3 step 5) and the order of the draw pile. Everything else is public — the
stones, scores, archives, bets, bonus-token stacks (their values lie face up), condition and
frame tokens. An observation is a live view: it reads the state when asked, so it costs nothing
to make, and is valid until the state changes.

Bots that search need fast evaluation: ``game.tables`` holds the per-card scoring tables
(``points[card][position][stone]``), the validity-mask tables the engine itself uses
(``contributions``, ``hand_mask``; see :mod:`.tables`), and
:meth:`RunArchObservation.pattern_points` scores a card on any arrangement of stones.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from runarch_gen.runarch.engine.tables import pattern_points

if TYPE_CHECKING:
    from runarch_gen.runarch.engine.conditions import Condition
    from runarch_gen.runarch.engine.game import RunArchGame
    from runarch_gen.runarch.engine.state import RunArchState


class RunArchObservation:
    """``player``'s view of a state. Cards are positions in ``game.cards`` (public: the deck
    list is known to everyone, only where each card lies is hidden)."""

    __slots__ = ("_state", "player")

    def __init__(self, state: RunArchState, player: int) -> None:
        if player not in (0, 1):
            raise ValueError(f"no side {player}")
        self._state = state
        self.player = player

    @property
    def game(self) -> RunArchGame:
        return self._state.game

    @property
    def to_move(self) -> int:
        """The side to act (the observer may watch the other side's turn)."""
        return self._state.current

    @property
    def stage(self) -> int:
        """0 setup, 1 play, 2 placing a bet token, 3 over (see :mod:`.state`)."""
        return self._state.stage

    @property
    def turn(self) -> int:
        """Completed turns so far (the stall guard's count, [R-18])."""
        return self._state.turn

    @property
    def stones(self) -> tuple[int, ...]:
        """The stone (piece index) on each square, reading order."""
        return tuple(self._state.stones)

    @property
    def hand(self) -> tuple[int, ...]:
        """The observer's hand, in hand-slot order (the slot an evaluation action names)."""
        return tuple(self._state.hands[self.player])

    @property
    def validity_mask(self) -> int:
        """The observer's hand's validity mask on the stones now (see :mod:`.tables`): with
        ``game.tables.mask_after_swap`` and ``valid_lines`` a bot scans moves cheaply."""
        return self._state.masks[self.player]

    @property
    def dealt(self) -> tuple[int, ...]:
        """During setup, the observer's dealt cards in the order setup choices count them."""
        return tuple(self._state.dealt[self.player])

    @property
    def opponent_hand_size(self) -> int:
        return len(self._state.hands[1 - self.player])

    @property
    def secret(self) -> int:
        """The observer's secret goal card, -1 when none."""
        return self._state.secret[self.player]

    @property
    def public_goals(self) -> tuple[int, ...]:
        return tuple(self._state.public)

    @property
    def phases(self) -> tuple[int, int]:
        """Each side's movement phase (§4.1); 0 in the simple game."""
        return self._state.phase(0), self._state.phase(1)

    @property
    def minimums(self) -> tuple[int, int]:
        """Each side's minimum for scoring a card (§4.2)."""
        return self._state.minimum(0), self._state.minimum(1)

    @property
    def totals(self) -> tuple[int, int]:
        return self._state.totals[0], self._state.totals[1]

    @property
    def bests(self) -> tuple[int, int]:
        return self._state.bests[0], self._state.bests[1]

    @property
    def archives(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """Per side, the cards in the left, middle and right archive."""
        first, second = self._state.archives
        return tuple(map(tuple, first)), tuple(map(tuple, second))

    @property
    def bets(self) -> tuple[tuple[int, ...], ...]:
        """Per side, per bet spot: -1 free, 1 a gold token, 0 a silver one (see :mod:`.actions`)."""
        return tuple(tuple(side) for side in self._state.bets)

    @property
    def stacks(self) -> tuple[tuple[int, ...], ...]:
        """Per side, the D, X, F, N token values (face up since setup)."""
        return self._state.setup.stacks

    @property
    def offer(self) -> tuple[int, ...]:
        """The match areas (piece indices) of the offer's cards, slot 1 first; never the cards."""
        return tuple(map(self._state.game.tables.match_piece.__getitem__, self._state.offer))

    @property
    def pile_size(self) -> int:
        return len(self._state.pile)

    @property
    def conditions(self) -> tuple[tuple[Condition, int], ...]:
        """The face-up condition tokens with their bet token's colour, -1 once taken."""
        state = self._state
        return tuple(
            (state.game.conditions[index], state.condition_tokens[j])
            for j, (index, _) in enumerate(state.setup.conditions)
        )

    @property
    def frame_bets(self) -> tuple[tuple[int, int], ...]:
        """The frame bet tokens: first covered space and colour, -1 once taken."""
        state = self._state
        return tuple(
            (start, state.frame_tokens[j]) for j, (start, _) in enumerate(state.setup.frame_bets)
        )

    @property
    def pending_bets(self) -> tuple[int, ...]:
        """Bet tokens the side to move has gained and must place now (colours)."""
        return tuple(self._state.pending) if self._state.current == self.player else ()

    @property
    def swaps(self) -> int:
        """Where the move of the current turn stands: 0 not moved, 1 may double, 2 moved."""
        return self._state.swaps

    @property
    def first_swap(self) -> int:
        """The pair index of a first swap that a second one may follow, else -1."""
        return self._state.first_swap

    def pattern_points(self, card: int, line: int, stones: Sequence[int] | None = None) -> int:
        """§4.2 pattern points of ``card`` on ``line`` (0 when not valid), [R-08] included,
        for ``stones`` (default: the stones now)."""
        tables = self._state.game.tables
        stones = self._state.stones if stones is None else stones
        points = pattern_points(tables.points[card], stones, line)
        if tables.reversible:
            points = max(points, pattern_points(tables.reversed_points[card], stones, line))
        return points
