"""A RunArch position and the turn structure of RULES.md §3–8 (the engine's hot path).

The state is a handful of small int lists (stones, hands, archives, scores) plus the place in
the turn. Legal actions come from precomputed per-phase tuples plus the card evaluations that
pass; a swap rewrites two ints (the hands' validity masks) and nothing else. Decisions taken here,
each quoted where it shows:

- Actions are atomic: each evaluation (card, line, archive, draw source), each swap, the end of
  the turn, each bet placement, each setup choice. An evaluation that would fail changes nothing
  (§4.2: the card goes back to the hand), so it is not an action; applying one raises
  :class:`IllegalActionError` saying why.
- The move is mandatory: ``end`` is legal only once the move is complete (§4.1 "passing is never
  allowed"). In phase 3+ a first adjacent swap is a complete move and may be followed by a
  second one (a double swap, [R-06] never the first swap again); a jump swap is a whole move.
- [R-04] Dealing: which dealt cards go public, secret or to the hand is one setup action per
  player, the first player choosing first (the other sees those public goals).
- [R-15] The offer is open from movement phase 2 on; in phase 1 with an empty pile there is no
  draw. The draw source is chosen with the evaluation (nothing new is seen in between).
- [R-16] One token per milestone passed, several at once; the N token never leaves.
- §6.2/[R-21] Bet tokens gained are placed at once, one bet action each, before anything else;
  a token with no free spot is discarded.
- [R-18] The stall guard counts every turn: both players' and, in the solo game, the automa's.
- §8: if both of the automa's arrows lead off the board, it swaps in the first direction
  clockwise after the second arrow that stays on the board (it never passes either); its best
  line is the first of the highest-scoring lines in the order r1–r5, ca–ce, d1, d2.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import reduce
from operator import or_
from typing import TYPE_CHECKING, Final

from runarch_gen.errors import ParseError
from runarch_gen.play.game import TERMINAL_PLAYER, IllegalActionError, Outcome, State
from runarch_gen.runarch.atoms import (
    N_SQUARES,
    PIECES,
    SIZE,
    SQUARE_NAMES,
    parse_line,
    parse_square,
)
from runarch_gen.runarch.counts import CARDS_TO_END, MILESTONES
from runarch_gen.runarch.engine.actions import (
    ARCHIVE_LETTERS,
    BET_BASE,
    BET_RE,
    BET_SPOT_COUNTS,
    DRAW_PILE,
    END,
    EVAL_BASE,
    EVALUATION_RE,
    EXPECTED_ACTION,
    N_ARCHIVE_SPOTS,
    N_BET_SPOTS,
    NO_ARCHIVE,
    NO_DRAW,
    NUM_DISTINCT_ACTIONS,
    SETUP_CHOICES,
    SETUP_RE,
    SWAP_BASE,
    SWAP_RE,
    archive_spot,
    decode_evaluation,
    encode_evaluation,
    evaluation_text,
    goal_spot,
    spot_archive,
    swap_text,
)
from runarch_gen.runarch.engine.observation import RunArchObservation
from runarch_gen.runarch.engine.scoring import (
    ArchiveBet,
    FinalPosition,
    GoalBet,
    Settlement,
    settle,
    settle_automa,
    solo_winners,
    winners,
)
from runarch_gen.runarch.engine.setup import FRAME_COVER, Setup, frame_space
from runarch_gen.runarch.engine.stages import BET, OVER, PLAY, SETUP_STAGE, RunArchTermination
from runarch_gen.runarch.engine.tables import (
    ALL_LINES,
    BLOCK,
    COLOUR_BITS,
    FIELD,
    JUMP,
    LINE_NAMES,
    LINE_SQUARES,
    LINES_OF_MASK,
    MAX_PATTERN_POINTS,
    N_LINES,
    N_PAIRS,
    N_STRAIGHT,
    NEIGHBOUR,
    PAIR_A,
    PAIR_B,
    PAIR_INDEX,
    PAIR_KIND,
    SECOND_SWAPS,
    SHAPE_BITS,
    STRAIGHT_LINES,
    SWAPS_BY_PHASE,
    Tables,
)
from runarch_gen.runarch.rules import MatchBonus

if TYPE_CHECKING:
    from runarch_gen.runarch.engine.game import RunArchGame

# Where the move stands in the current turn.
NOT_MOVED, MAY_DOUBLE, MOVED = 0, 1, 2

PASSABLE_TOKENS: Final = 3  # D, X, F pass on milestones; N never leaves
AUTOMA: Final = 1  # the automa's side in the solo game
# by automa level: cards revealed, and the share of a line's matches that a card valid
# nowhere scores (0: nothing, 2: half, 1: all).
AUTOMA_LEVELS: Final = {1: (1, 0), 2: (1, 2), 3: (1, 1), 4: (2, 1), 5: (3, 1)}

# Precomputed legal move actions (ints, ascending).
_SWAP_ACTIONS: Final[dict[int, tuple[int, ...]]] = {
    phase: tuple(SWAP_BASE + p for p in pairs) for phase, pairs in SWAPS_BY_PHASE.items()
}
# Per phase and pair, where a first swap leaves the move: MOVED, MAY_DOUBLE (§4.1 phase 3+: an
# adjacent swap may be followed by a second one), or NOT_MOVED when the phase does not allow it.
_AFTER_FIRST_SWAP: Final[dict[int, bytes]] = {
    phase: bytes(
        NOT_MOVED if p not in pairs else MOVED if PAIR_KIND[p] == JUMP or phase < 3 else MAY_DOUBLE
        for p in range(N_PAIRS)
    )
    for phase, pairs in SWAPS_BY_PHASE.items()
}
_SECOND_OR_END: Final[tuple[tuple[int, ...], ...]] = tuple(
    (*(SWAP_BASE + p for p in seconds), END) for seconds in SECOND_SWAPS
)
_END_ONLY: Final[tuple[int, ...]] = (END,)
_NO_ACTIONS: Final[tuple[int, ...]] = ()
_PHASE_MOVES: Final = {
    0: "the simple game allows one adjacent swap, orthogonal or diagonal",
    1: "movement phase 1 allows one orthogonal swap",
    2: "movement phase 2 allows one adjacent swap, orthogonal or diagonal",
}


# Lines (12-bit sets) to bits of a whole hand's AND-ed validity mask (see tables.BLOCK).
_ALL_BLOCK_LINES: Final = sum(ALL_LINES << (block * BLOCK) for block in range(4))
_STRAIGHT_BLOCK_LINES: Final = sum(STRAIGHT_LINES << (block * BLOCK) for block in range(4))
_TWO_FIELDS, _FOUR_FIELDS = 2 * FIELD, 4 * FIELD
# The fields of a state. copy(), equality and pickling read this list rather than
# ``__slots__``: a class compiled with mypyc (the optional compiled build) has none.
_FIELDS: Final = (
    "_history",
    "_legal",
    "archives",
    "automa_log",
    "bests",
    "bets",
    "condition_tokens",
    "current",
    "dealt",
    "discard",
    "discarded_bets",
    "final_round",
    "first_swap",
    "frame_tokens",
    "game",
    "given",
    "hand_tables",
    "hands",
    "masks",
    "offer",
    "pending",
    "pile",
    "placed",
    "public",
    "received",
    "scored",
    "secret",
    "setup",
    "stage",
    "stones",
    "swaps",
    "termination",
    "totals",
    "turn",
    "views",
)
# Derived from the other fields (or caches): left out of equality.
_DERIVED: Final = frozenset({"_legal", "game", "masks", "hand_tables", "views"})
_KEY_FIELDS: Final = tuple(name for name in _FIELDS if name not in _DERIVED)
# Pickled (for worker processes): all but the observation views, which are rebuilt.
_PICKLED_FIELDS: Final = tuple(name for name in _FIELDS if name not in ("game", "views"))


class RunArchState(State["RunArchObservation"]):
    """A position of a RunArch game; see the module docstring for the turn structure.

    Sides are 0 and 1 (white and black, or the solo player and the automa). Cards are
    positions in the game's deck (``game.cards[k]``); their printed ``id`` appears in texts.
    """

    __slots__ = _FIELDS

    def __init__(self, game: RunArchGame, setup: Setup | None = None) -> None:
        super().__init__()
        self.game = game
        if setup is None:  # a blank state for copy() and unpickling to fill in
            return
        config = game.config
        self.setup = setup
        self.stones: list[int] = list(setup.stones)
        order = setup.order
        self.hands: list[list[int]] = [[], []]
        self.dealt: list[list[int]] = [[], []]
        self.public: list[int] = []
        self.secret: list[int] = [-1, -1]
        self.offer: list[int] = []
        cards = game.cards
        if game.token_games:
            deal = config.deal
            for side in range(game.num_players):
                dealt = order[side * deal : (side + 1) * deal]
                self.dealt[side] = sorted(dealt, key=lambda k: cards[k].id)
            position = game.num_players * deal
            self.offer = list(order[position : position + 4])  # §3 step 5
            position += 4
        else:
            self.hands = [list(order[0:2]), list(order[2:4])]  # §5.1
            position = 4
        self.pile: list[int] = list(reversed(order[position:]))  # the top card is last
        # Per side, the hand's validity mask and its two slots' contribution tables (see
        # tables.SQUARE_KEEP; an empty slot has a table of zeros).
        self.masks: list[int] = [0, 0]
        self.hand_tables: list[tuple[Sequence[int], Sequence[int]]] = [_NO_HAND, _NO_HAND]
        self.views: list[RunArchObservation | None] = [None, None]
        for side in (0, 1):
            self._refresh_hand(side)
        self.discard: list[int] = []
        self.totals = [0, 0]
        self.bests = [0, 0]
        self.given = [0, 0]  # bonus tokens handed over (the own stack's top is stacks[given])
        self.received = [0, 0]  # bonus tokens received: movement phase = 1 + received
        self.archives: list[list[list[int]]] = [[[], [], []], [[], [], []]]
        self.placed = [0, 0]
        self.bets: list[list[int]] = [[-1] * N_BET_SPOTS, [-1] * N_BET_SPOTS]
        self.condition_tokens: list[int] = [colour for _, colour in setup.conditions]
        self.frame_tokens: list[int] = [colour for _, colour in setup.frame_bets]
        self.pending: list[int] = []
        self.discarded_bets = 0
        self.scored: list[list[tuple[int, int]]] = [[], []]
        self.automa_log: list[tuple[int, int, int, int, int, int]] = []
        self.turn = 0  # completed turns, the automa's included
        self.swaps = NOT_MOVED
        self.first_swap = -1
        self.final_round = False
        self.termination: RunArchTermination | None = None
        self._legal: Sequence[int] | None = None
        if game.token_games:
            self.stage = SETUP_STAGE
            self.current = 0 if game.solo else setup.first
        else:
            self.stage = PLAY
            self.current = setup.first

    # ------------------------------------------------------------------------------------
    # Reading the position

    def phase(self, side: int) -> int:
        """§4.1 movement phase 1–4 from the tokens ``side`` received; 0 in the simple game."""
        return 1 + self.received[side] if self.game.token_games else 0

    def minimum(self, side: int) -> int:
        """§4.2 the value on top of the side's own stack; [R-10] fixed in the simple game."""
        if self.game.token_games:
            return self.setup.stacks[side][self.given[side]]
        return self.game.config.minimum

    def current_player(self) -> int:
        return TERMINAL_PLAYER if self.stage == OVER else self.current

    def is_terminal(self) -> bool:
        return self.stage == OVER

    def observation(self, player: int) -> RunArchObservation:
        view = self.views[player]
        if view is None:
            view = self.views[player] = RunArchObservation(self, player)
        return view

    def observation_string(self, player: int) -> str:
        """Everything ``player``'s observation shows, as text (for comparisons and logs)."""
        view = self.observation(player)
        fields = (
            "to_move", "stage", "turn", "stones", "hand", "dealt", "opponent_hand_size",
            "secret", "public_goals", "phases", "minimums", "totals", "bests", "archives",
            "bets", "stacks", "offer", "pile_size", "conditions", "frame_bets", "pending_bets",
            "swaps", "first_swap",
        )  # fmt: skip
        return "\n".join(f"{name}: {getattr(view, name)!r}" for name in fields)

    def resample_from_infostate(self, player: int, rng: random.Random) -> RunArchState:
        """A state ``player`` cannot tell from this one: the cards they cannot see — the other
        side's hand, secret goal and (during setup) dealt cards, the draw pile — dealt anew
        at random, and each offer slot refilled with a card of the same match area (only
        the match areas of the offer show, §3 step 5)."""
        new = self.copy()
        other = 1 - player
        hidden_hand = not self.game.solo
        pool = list(self.pile) + list(self.offer)
        if hidden_hand:
            pool += self.hands[other] + self.dealt[other]
            pool += [self.secret[other]] if self.secret[other] >= 0 else []
        rng.shuffle(pool)
        tables = self.game.tables
        for slot, card in enumerate(self.offer):
            area = (tables.match_colour[card], tables.match_shape[card])
            pick = next(
                i
                for i, k in enumerate(pool)
                if (tables.match_colour[k], tables.match_shape[k]) == area
            )
            new.offer[slot] = pool.pop(pick)
        if hidden_hand:
            for cards in (new.hands[other], new.dealt[other]):
                for i in range(len(cards)):
                    cards[i] = pool.pop()
            new.dealt[other].sort(key=self.card_id)
            if new.secret[other] >= 0:
                new.secret[other] = pool.pop()
        new.pile[:] = pool
        new.views = [None, None]
        new.recompute()
        return new

    def card_id(self, card: int) -> int:
        return self.game.cards[card].id

    # ------------------------------------------------------------------------------------
    # Legal actions

    def legal_actions(self) -> Sequence[int]:
        legal = self._legal
        if legal is not None:
            return legal
        stage = self.stage
        if stage == PLAY:
            side = self.current
            phase = 1 + self.received[side] if self.game.token_games else 0
            swaps = self.swaps
            if swaps == NOT_MOVED:
                legal = _SWAP_ACTIONS[phase]
            elif swaps == MAY_DOUBLE:
                legal = _SECOND_OR_END[self.first_swap]
            else:
                legal = _END_ONLY
            mask = self.masks[side]
            if mask:
                # AND the five fields of every block (see tables.BLOCK) into its first field:
                # the lines where a card in hand is valid. Usually none, and then no
                # evaluation is legal. Fields 0&1 and 2&3 first, so three ANDs do it (the
                # other fields are left with partial ANDs that nothing reads).
                pairs = mask & mask >> FIELD
                ok = pairs & pairs >> _TWO_FIELDS & mask >> _FOUR_FIELDS
                if ok & (_ALL_BLOCK_LINES if phase == 4 else _STRAIGHT_BLOCK_LINES):
                    evaluations = self._evaluations(side, phase, ok)
                    if evaluations:
                        legal = evaluations + legal
        elif stage == BET:
            legal = tuple(BET_BASE + spot for spot in self._free_spots(self.current))
        elif stage == SETUP_STAGE:
            legal = tuple(range(len(SETUP_CHOICES[self.game.config.deal])))
        else:
            legal = _NO_ACTIONS
        self._legal = legal
        return legal

    def _evaluations(self, side: int, phase: int, ok: int) -> tuple[int, ...]:
        """Every evaluation that passes: valid line, minimum reached, an archive takes it.

        ``ok`` is the hand's validity mask with its fields ANDed (see :meth:`legal_actions`).
        """
        minimum = self.minimum(side)
        if phase != 4 and minimum > MAX_PATTERN_POINTS:
            return _NO_ACTIONS  # pattern points alone can never reach it before phase 4
        lines = ALL_LINES if phase == 4 else STRAIGHT_LINES  # diagonals in phase 4 only
        tables = self.game.tables
        reversible, stride = tables.reversible, tables.card_stride
        found: list[tuple[int, int, int]] = []
        s = self.stones
        points_of = tables.points
        for slot, card in enumerate(self.hands[side]):
            shift = slot * stride
            valid = ok >> shift
            if reversible:  # valid either way
                valid |= ok >> (shift + BLOCK)
            t0, t1, t2, t3, t4 = points_of[card]
            for line in LINES_OF_MASK[valid & lines]:
                if not reversible:  # valid in the reading direction: just add the points up
                    q0, q1, q2, q3, q4 = LINE_SQUARES[line]
                    points = t0[s[q0]] + t1[s[q1]] + t2[s[q2]] + t3[s[q3]] + t4[s[q4]]
                else:
                    points = self.pattern_points(card, line)
                if phase == 4:
                    points += self._match_bonus(card, line)  # phase 4 checks the score
                if points >= minimum:
                    found.append((slot, line, card))
        if not found:
            return _NO_ACTIONS
        draws = self._draw_codes(side, phase)
        actions: list[int] = []
        shelves: dict[int, tuple[int, ...]] = {}
        for slot, line, card in found:
            archives = shelves.get(card)
            if archives is None:
                archives = shelves[card] = self._archives_taking(side, card)
            for archive in archives:
                actions.extend(map(encode_evaluation(slot, line, archive, 0).__add__, draws))
        return tuple(actions)

    def _reversed_points(self, card: int, line: int) -> int:
        # option reversible: the pattern laid against the line read backwards.
        r0, r1, r2, r3, r4 = self.game.tables.reversed_points[card]
        s = self.stones
        q0, q1, q2, q3, q4 = LINE_SQUARES[line]
        if r0[s[q0]] and r1[s[q1]] and r2[s[q2]] and r3[s[q3]] and r4[s[q4]]:
            return r0[s[q0]] + r1[s[q1]] + r2[s[q2]] + r3[s[q3]] + r4[s[q4]]
        return 0

    def pattern_points(self, card: int, line: int) -> int:
        """§4.2 pattern points of ``card`` on ``line`` now (0 when not valid), [R-08] included."""
        t0, t1, t2, t3, t4 = self.game.tables.points[card]
        s = self.stones
        q0, q1, q2, q3, q4 = LINE_SQUARES[line]
        p0, p1, p2, p3, p4 = t0[s[q0]], t1[s[q1]], t2[s[q2]], t3[s[q3]], t4[s[q4]]
        points = p0 + p1 + p2 + p3 + p4 if p0 and p1 and p2 and p3 and p4 else 0
        if self.game.tables.reversible:
            points = max(points, self._reversed_points(card, line))
        return points

    def _match_bonus(self, card: int, line: int) -> int:
        option = self.game.config.match_bonus
        if option is MatchBonus.BOARD:
            return self.game.tables.match_bonus_board(self.stones, card)
        if option is MatchBonus.LINE:
            return self.game.tables.match_bonus_line(self.stones, card, line)
        return 0

    def card_score(self, card: int, line: int, side: int) -> tuple[int, int]:
        """``(pattern points, match bonus)`` of ``card`` on ``line`` for ``side`` now."""
        points = self.pattern_points(card, line)
        bonus = self._match_bonus(card, line) if points and self.phase(side) == 4 else 0
        return points, bonus

    def _archives_taking(self, side: int, card: int) -> tuple[int, ...]:
        """§4.3 the archives that may take ``card`` (the simple game discards: §5.1)."""
        if not self.game.token_games:
            return (NO_ARCHIVE,)
        accepts = self.archive_accepts
        return tuple([a for a in range(3) if accepts(side, a, card)])

    def archive_accepts(self, side: int, archive: int, card: int) -> bool:
        """Whether ``side``'s ``archive`` (0–2) may take ``card``: its rule and [R-14] capacity."""
        held = self.archives[side][archive]
        game = self.game
        if len(held) >= game.capacity:
            return False
        if not held:
            return True  # every rule takes a first card
        bits = game.tables.match_bits
        # The colours and shapes the archive holds, as bits (see Tables.match_bits).
        present = reduce(or_, map(bits.__getitem__, held))
        own = bits[card]
        rule = game.archive_rule_values[archive]
        if rule == "same":  # all one colour, or all one shape; the cards placed decide which
            return present & COLOUR_BITS == own & COLOUR_BITS or (
                present & SHAPE_BITS == own & SHAPE_BITS
            )
        if rule == "shapes":
            return not present & own & SHAPE_BITS
        return not present & own & COLOUR_BITS

    def _draw_codes(self, side: int, phase: int) -> tuple[int, ...]:
        """§4.4 the draw sources open to ``side``: pile, offer slots from phase 2 [R-15]."""
        codes: tuple[int, ...] = (DRAW_PILE,) if self.pile else ()
        if phase >= 2 and self.offer:
            codes += tuple(range(1, len(self.offer) + 1))
        return codes or (NO_DRAW,)

    def _free_spots(self, side: int) -> list[int]:
        """§6.2 the free betting opportunities of ``side``: archive spots and public goals."""
        bets = self.bets[side]
        spots = [spot for spot in range(N_ARCHIVE_SPOTS) if bets[spot] < 0]
        spots += [goal_spot(g) for g in range(len(self.public)) if bets[goal_spot(g)] < 0]
        return spots

    # ------------------------------------------------------------------------------------
    # Applying actions

    def _apply(self, action: int) -> None:
        stage = self.stage
        if stage == PLAY:
            if SWAP_BASE <= action < END:
                self._swap(action - SWAP_BASE)
            elif action == END:
                self._end_turn()
            elif EVAL_BASE <= action < SWAP_BASE:
                self._evaluate(action)
            else:
                raise self._illegal(action, "not a move of the play: swap, evaluate or end")
        elif stage == BET:
            self._place_bet(action)
        elif stage == SETUP_STAGE:
            self._choose_setup(action)
        else:
            raise self._illegal(action, "the game is over")
        self._legal = None

    def _illegal(self, action: int, reason: str) -> IllegalActionError:
        return IllegalActionError(self.action_to_string(action), reason)

    def _swap(self, pair: int) -> None:
        side = self.current
        swaps = self.swaps
        if swaps == NOT_MOVED:
            phase = 1 + self.received[side] if self.game.token_games else 0
            after = _AFTER_FIRST_SWAP[phase][pair]
            if after == NOT_MOVED:
                reason = _PHASE_MOVES.get(phase, "")
                raise self._illegal(SWAP_BASE + pair, reason)
            self.swaps = after
            if after == MAY_DOUBLE:
                self.first_swap = pair  # §4.1 phase 3: a second adjacent swap may follow
        elif swaps == MAY_DOUBLE:
            if PAIR_KIND[pair] == JUMP:
                raise self._illegal(
                    SWAP_BASE + pair,
                    "a double swap is two adjacent swaps; a jump swap is a whole move",
                )
            if pair == self.first_swap:
                raise self._illegal(
                    SWAP_BASE + pair,
                    "[R-06] the second swap may not be the first one again (a pass)",
                )
            self.swaps = MOVED
        else:
            raise self._illegal(
                SWAP_BASE + pair, "the move is complete: evaluate cards or end the turn"
            )
        s = self.stones
        a, b = PAIR_A[pair], PAIR_B[pair]
        s[a], s[b] = s[b], s[a]
        self._update_masks(a, b, self.game.tables.pair_keep[pair])

    def _update_masks(self, a: int, b: int, keep: int | None = None) -> None:
        """Rewrite the validity bits of squares ``a`` and ``b`` in both hands' masks; ``keep``
        clears the bits the two squares decide (see tables.SQUARE_KEEP), worked out if not
        given."""
        if keep is None:
            square_keep = self.game.tables.square_keep
            keep = square_keep[a] & square_keep[b]
        s = self.stones
        ia, ib = a * N_SQUARES + s[a], b * N_SQUARES + s[b]
        stride = self.game.tables.card_stride
        masks = self.masks
        (t0, t1), (u0, u1) = self.hand_tables  # both hand slots of each side
        masks[0] = masks[0] & keep | t0[ia] | t0[ib] | (t1[ia] | t1[ib]) << stride
        masks[1] = masks[1] & keep | u0[ia] | u0[ib] | (u1[ia] | u1[ib]) << stride

    def recompute(self) -> None:
        """Rebuild derived data after fields were edited directly (hand-built positions)."""
        for side in (0, 1):
            self._refresh_hand(side)
        self._legal = None

    def _refresh_hand(self, side: int) -> None:
        """Rebuild a side's contribution tables and mask after its hand changed."""
        tables = self.game.tables
        hand = self.hands[side]
        self.hand_tables[side] = _slot_tables(tables, hand)
        self.masks[side] = tables.hand_mask(hand, self.stones)

    def _replace_card(self, side: int, slot: int, drawn: int) -> None:
        """Update a side's mask and contribution tables once the card in hand ``slot`` has left
        and ``drawn`` (-1: none) has joined the hand at its end: the blocks of the cards after
        ``slot`` move down one card, and only the drawn card is read against the stones."""
        tables = self.game.tables
        stride = tables.card_stride
        low = slot * stride
        mask = self.masks[side]
        mask = mask & ((1 << low) - 1) | mask >> (low + stride) << low
        hand = self.hands[side]
        if drawn >= 0:
            mask |= tables.card_mask(drawn, self.stones) << ((len(hand) - 1) * stride)
        self.masks[side] = mask
        self.hand_tables[side] = _slot_tables(tables, hand)

    def _end_turn(self) -> None:
        if self.swaps == NOT_MOVED:
            raise self._illegal(END, "passing is never allowed: make the move first (§4.1)")
        self.swaps = NOT_MOVED
        self.first_swap = -1
        self.turn += 1
        if self._game_ends():
            return
        if self.game.solo:
            self._automa_turn()
        else:
            self.current = 1 - self.current

    def _game_ends(self) -> bool:
        """After a turn (counted in ``turn``): end the game when its round or the stall guard
        says so."""
        if self.final_round and self.turn % 2 == 0:
            # §5 the round is finished: both sides have had the same number of turns.
            self._end(
                RunArchTermination.TENTH_CARD
                if self.game.token_games
                else RunArchTermination.TARGET
            )
            return True
        if not self.game.solo and self._scored_this_turn() and self.deadlocked():
            self._end(RunArchTermination.DEADLOCK)  # our reading of, see deadlocked()
            return True
        if self.turn >= self.game.config.stall:
            self._end(RunArchTermination.STALLED)
            return True
        return False

    def _scored_this_turn(self) -> bool:
        # Only a scored card changes what can be scored (minimums, phases, hands, archives), so
        # the deadlock test runs after such turns only. The history's tail is this turn's
        # actions: back to the previous end of turn, or to the setup.
        for action in reversed(self._history):
            if action == END:
                return False
            if EVAL_BASE <= action < SWAP_BASE:
                return True
        return False

    def can_score_again(self, side: int) -> bool:
        """Whether ``side`` could ever score a card again if the other side never did.

        False when the hand is empty, when the side's minimum exceeds the highest score its
        movement phase allows (10 pattern points in phases 1–3; in phase 4 10 plus the most
        the [R-09] match bonus can add on this board), or when no archive takes any card in
        hand [R-11]. Only a scored card changes any of these, so a side that cannot score now
        stays so until the other side scores.
        """
        hand = self.hands[side]
        if not hand:
            return False
        if not self.game.token_games:
            return True  # the simple game's fixed minimum is at most 10 pattern points
        if self.minimum(side) > self.game.max_card_score[self.phase(side)]:
            return False
        accepts = self.archive_accepts
        for card in hand:
            for archive in range(3):
                if accepts(side, archive, card):
                    return True
        return False

    def deadlocked(self) -> bool:
        """[R-18] as the engine reads it: the game can only stall when neither side can ever
        score again (:meth:`can_score_again`), since movement phases change only when a side
        scores. The classic case: both sides past 50 with an F token of 11, which no line
        reaches before phase 4, and phase 4 needs the other side past 75. Such a game ends at
        once (termination ``deadlock``, reported as stalled): its final scores are those the
        stall guard would give, as nothing that scores can change any more. The solo game
        never deadlocks: the automa plays on until the pile runs out [R-25].
        """
        if self.game.solo or self.stage == OVER or self.final_round:
            return False
        return not self.can_score_again(0) and not self.can_score_again(1)

    def _end(self, termination: RunArchTermination) -> None:
        self.stage = OVER
        self.termination = termination

    def _evaluate(self, action: int) -> None:
        slot, line, archive, draw = decode_evaluation(action)
        side = self.current
        hand = self.hands[side]
        if slot >= len(hand):
            raise self._illegal(action, f"there is no card in hand slot {slot + 1}")
        card = hand[slot]
        phase = self.phase(side)
        if line >= N_STRAIGHT and phase != 4:
            raise self._illegal(action, "cards are evaluated on the diagonals in phase 4 only")
        points, bonus = self.card_score(card, line, side)
        if not points:
            raise self._illegal(action, self._why_not_valid(card, line))
        score = points + bonus
        minimum = self.minimum(side)
        if (score if phase == 4 else points) < minimum:
            what = "card score" if phase == 4 else "pattern points"
            raise self._illegal(
                action, f"{what} {score if phase == 4 else points} below the minimum {minimum}"
            )
        game = self.game
        if game.token_games:
            if archive == NO_ARCHIVE:
                raise self._illegal(action, "a scored card goes into an archive (§4.3)")
            if not self.archive_accepts(side, archive, card):
                raise self._illegal(action, self._why_archive_refuses(side, archive, card))
        elif archive != NO_ARCHIVE:
            raise self._illegal(action, "the simple game has no archives (§5.1)")
        if draw not in self._draw_codes(side, phase):
            raise self._illegal(action, self._why_no_draw(draw, phase))
        # The card passes: score it, file it, draw, hand over tokens, take bet tokens (§4.2).
        old = self.totals[side]
        new = old + score
        self.totals[side] = new
        self.bests[side] = max(self.bests[side], score)
        self.scored[side].append((card, score))
        del hand[slot]
        if game.token_games:
            self.archives[side][archive].append(card)
            self.placed[side] += 1
            if self.placed[side] == CARDS_TO_END:
                self.final_round = True
        else:
            self.discard.append(card)
            if new > game.config.target:
                self.final_round = True
        drawn = -1
        if draw != NO_DRAW:
            if draw == DRAW_PILE:
                drawn = self.pile.pop()
            else:
                drawn = self.offer.pop(draw - 1)
                if self.pile:
                    self.offer.append(self.pile.pop())  # the pile's top joins the offer
            hand.append(drawn)
        self._replace_card(side, slot, drawn)
        self._pass_milestones(side, old, new)
        if game.bets:
            self._take_bet_tokens(side)

    def _pass_milestones(self, side: int, old: int, new: int) -> None:
        if not self.game.token_games:
            return
        for milestone in MILESTONES:
            # from ≤ m to > m: one token per milestone, several at once.
            if old <= milestone < new and self.given[side] < PASSABLE_TOKENS:
                self.given[side] += 1
                self.received[1 - side] += 1

    def _take_bet_tokens(self, side: int) -> None:
        setup = self.setup
        met = self.game.conditions_met(tuple(map(len, self.archives[side])))
        if met:  # (no condition met: no token to take)
            for j, (condition, _) in enumerate(setup.conditions):
                colour = self.condition_tokens[j]
                # a face-up condition the counts now meet, still carrying its bet token
                if colour >= 0 and condition in met:
                    self.pending.append(colour)
                    self.condition_tokens[j] = -1
        space = frame_space(self.totals[side])
        for j, (start, _) in enumerate(setup.frame_bets):
            if start <= space < start + FRAME_COVER:  # §6.1 frame tokens
                colour = self.frame_tokens[j]
                if colour >= 0:
                    self.pending.append(colour)
                    self.frame_tokens[j] = -1
        self._settle_pending(side)

    def _settle_pending(self, side: int) -> None:
        # §6.2 tokens are placed at once; with no free opportunity a token is discarded.
        pending = self.pending
        while pending and not self._free_spots(side):
            pending.pop(0)
            self.discarded_bets += 1
        self.stage = BET if pending else PLAY

    def _place_bet(self, action: int) -> None:
        spot = action - BET_BASE
        side = self.current
        if not 0 <= spot < N_BET_SPOTS:
            raise self._illegal(action, "a bet token must be placed first (§6.2: no hoarding)")
        if spot >= N_ARCHIVE_SPOTS and spot - N_ARCHIVE_SPOTS >= len(self.public):
            raise self._illegal(action, "there is no such public goal")
        if self.bets[side][spot] >= 0:
            raise self._illegal(action, "that betting opportunity already holds your token")
        self.bets[side][spot] = self.pending.pop(0)
        self._settle_pending(side)

    def _choose_setup(self, action: int) -> None:
        side = self.current
        choices = SETUP_CHOICES[self.game.config.deal]
        if not 0 <= action < len(choices):
            raise self._illegal(action, "choose your public goals and secret goal first [R-04]")
        public, secret = choices[action]
        dealt = self.dealt[side]
        self.public.extend(dealt[i] for i in public)
        self.secret[side] = dealt[secret]
        self.hands[side] = [card for i, card in enumerate(dealt) if i not in public and i != secret]
        self._refresh_hand(side)
        self.dealt[side] = []
        other = 1 - side
        if not self.game.solo and self.dealt[other]:
            self.current = other
            return
        self.stage = PLAY
        self.current = 0 if self.game.solo else self.setup.first
        if self.game.solo and self.setup.first == AUTOMA:
            self._automa_turn()

    # ------------------------------------------------------------------------------------
    # The automa (§8, [R-24], [R-25])

    def _automa_turn(self) -> None:
        if not self.pile:
            self._end(RunArchTermination.PILE_EMPTY)
            return
        game = self.game
        reveals, divisor = AUTOMA_LEVELS[game.config.automa]
        revealed = [self.pile.pop() for _ in range(min(reveals, len(self.pile)))]
        best: tuple[int, int, int, int, int] | None = None  # score, card, origin, target, line
        for card in revealed:  # the first revealed wins a tie
            candidate = self._automa_option(card, divisor)
            if best is None or candidate[0] > best[0]:
                best = candidate
        assert best is not None
        score, card, origin, target, best_line = best
        # the cards revealed but not played go under the pile, in the order revealed.
        self.pile[:0] = [k for k in reversed(revealed) if k != card]
        s = self.stones
        s[origin], s[target] = s[target], s[origin]
        self._update_masks(origin, target)
        self.discard.append(card)
        if score:
            old = self.totals[AUTOMA]
            self.totals[AUTOMA] = old + score
            self.bests[AUTOMA] = max(self.bests[AUTOMA], score)
            self.scored[AUTOMA].append((card, score))
            self._pass_milestones(AUTOMA, old, old + score)
        self.turn += 1
        self.automa_log.append((self.turn, card, origin, target, best_line, score))
        self._game_ends()
        self.current = 0

    def _automa_option(self, card: int, divisor: int) -> tuple[int, int, int, int, int]:
        """§8 what the automa would do with ``card``: its swap, then its best line (rows and
        columns, the diagonals too in its phase 4) for pattern points only, no minimum. A card
        valid nowhere scores nothing, or with ``divisor`` [R-28] its best line's matches (a
        point per colour and per shape that agree) divided by it, rounded down. The stones are
        left as they were. Returns ``(score, card, origin, target, line)``; line -1 when the
        card scores nothing."""
        game = self.game
        tables = game.tables
        s = self.stones
        origin = s.index(tables.match_piece[card])
        target = _automa_target(origin, game.arrows[card])
        s[origin], s[target] = s[target], s[origin]
        n_lines = N_LINES if self.phase(AUTOMA) == 4 else N_STRAIGHT
        best_line, best_score = -1, 0
        # Only the lines where the card is valid score (their validity from the card's mask);
        # taken in order, a later line must score more to replace an earlier one.
        valid = tables.valid_lines(tables.card_mask(card, s), 0)
        for line in LINES_OF_MASK[valid & ((1 << n_lines) - 1)]:
            points = self.pattern_points(card, line)
            if points > best_score:
                best_line, best_score = line, points
        if not best_score and divisor:
            table = tables.points[card]
            for line in range(n_lines):
                matches = sum(table[p][s[sq]] for p, sq in enumerate(LINE_SQUARES[line]))
                if matches // divisor > best_score:
                    best_line, best_score = line, matches // divisor
        s[origin], s[target] = s[target], s[origin]
        return best_score, card, origin, target, best_line

    # ------------------------------------------------------------------------------------
    # Texts

    def action_to_string(self, action: int) -> str:
        if 0 <= action < EVAL_BASE:
            return self._setup_text(action)
        if action < SWAP_BASE:
            slot, line, archive, draw = decode_evaluation(action)
            hand = self.hands[self.current]
            card = str(self.card_id(hand[slot])) if slot < len(hand) else f"slot{slot + 1}"
            return evaluation_text(card, line, archive, draw)
        if action < END:
            return swap_text(action - SWAP_BASE)
        if action == END:
            return "end"
        if action < NUM_DISTINCT_ACTIONS:
            spot = action - BET_BASE
            if spot < N_ARCHIVE_SPOTS:
                archive, count = spot_archive(spot)
                return f"${ARCHIVE_LETTERS[archive]}{count}"
            goal = spot - N_ARCHIVE_SPOTS
            return (
                f"${self.card_id(self.public[goal])}"
                if goal < len(self.public)
                else f"$goal{goal + 1}"
            )
        return f"#{action}"

    def _setup_text(self, action: int) -> str:
        dealt = self.dealt[self.current] if self.stage == SETUP_STAGE else []
        choices = SETUP_CHOICES[self.game.config.deal]
        if action >= len(choices) or len(dealt) != self.game.config.deal:
            return f"setup#{action}"
        public, secret = choices[action]
        ids = ",".join(str(self.card_id(dealt[i])) for i in public)
        return f"setup:{ids}/{self.card_id(dealt[secret])}"

    def string_to_action(self, text: str) -> int:
        """Parse an action's text in this state (see :mod:`.actions` for the notation).

        Raises :class:`IllegalActionError` for text that is no action or names cards, squares or
        lines that do not fit the state; legality itself is checked by :meth:`apply`.
        """
        action, _ = self.parse_action(text)
        return action

    def parse_action(self, text: str) -> tuple[int, int | None]:
        """The action of ``text`` and the score annotation (``17@r3=9``) if there is one."""
        word = text.strip()
        if word.lower() == "end":
            return END, None
        match = SWAP_RE.match(word)
        if match is not None:
            a, b = parse_square(match.group("a")), parse_square(match.group("b"))
            pair = PAIR_INDEX.get((min(a, b), max(a, b)))
            if pair is None:
                raise IllegalActionError(word, "the two stones are not adjacent and no jump apart")
            return SWAP_BASE + pair, None
        match = EVALUATION_RE.match(word)
        if match is not None:
            return self._parse_evaluation(word, match.groupdict())
        match = BET_RE.match(word)
        if match is not None:
            if match.group("archive"):
                archive = ARCHIVE_LETTERS.index(match.group("archive").upper())
                return BET_BASE + archive_spot(archive, int(match.group("cards"))), None
            goal_card = self._card_of(word, int(match.group("goal")))
            if goal_card not in self.public:
                raise IllegalActionError(word, f"card {match.group('goal')} is not a public goal")
            return BET_BASE + goal_spot(self.public.index(goal_card)), None
        match = SETUP_RE.match(word)
        if match is not None:
            return self._parse_setup(word, match.group("public"), match.group("secret")), None
        raise IllegalActionError(word, EXPECTED_ACTION)

    def _card_of(self, word: str, card_id: int) -> int:
        card = self.game.card_index.get(card_id)
        if card is None:
            raise IllegalActionError(word, f"the deck has no card {card_id}")
        return card

    def _parse_evaluation(self, word: str, parts: dict[str, str | None]) -> tuple[int, int | None]:
        card = self._card_of(word, int(parts["card"] or 0))
        hand = self.hands[self.current]
        if card not in hand:
            raise IllegalActionError(
                word, f"card {parts['card']} is not in the hand of {self._side_name()}"
            )
        try:
            line = LINE_NAMES.index(parse_line(parts["line"] or "").name)
        except ParseError as exc:
            raise IllegalActionError(word, exc.message) from None
        archive = (
            NO_ARCHIVE
            if parts["archive"] is None
            else ARCHIVE_LETTERS.index(parts["archive"].upper())
        )
        draw_text = (parts["draw"] or "").lower()
        draw = NO_DRAW if not draw_text else DRAW_PILE if draw_text == "p" else int(draw_text[1:])
        score = None if parts["score"] is None else int(parts["score"])
        return encode_evaluation(hand.index(card), line, archive, draw), score

    def _parse_setup(self, word: str, public_text: str, secret_text: str) -> int:
        if self.stage != SETUP_STAGE:
            raise IllegalActionError(word, "the setup is over")
        dealt = self.dealt[self.current]
        try:
            public = tuple(
                sorted(dealt.index(self._card_of(word, int(c))) for c in public_text.split(","))
            )
            secret = dealt.index(self._card_of(word, int(secret_text)))
        except ValueError:
            ids = ", ".join(str(self.card_id(k)) for k in dealt)
            raise IllegalActionError(word, f"{self._side_name()} was dealt {ids}") from None
        choices = SETUP_CHOICES[self.game.config.deal]
        if (public, secret) not in choices:
            raise IllegalActionError(
                word,
                f"[R-04] choose {len(choices[0][0])} public goal(s) and a different secret goal",
            )
        return choices.index((public, secret))

    def _side_name(self) -> str:
        return self.game.sides[self.current] if self.current >= 0 else "nobody"

    def _why_not_valid(self, card: int, line: int) -> str:
        table = self.game.tables.points[card]
        for position, sq in enumerate(LINE_SQUARES[line]):
            if not table[position][self.stones[sq]]:
                stone = PIECES[self.stones[sq]].code
                return (
                    f"card {self.card_id(card)} is not valid on {LINE_NAMES[line]}: position"
                    f" {position + 1} ({stone} on {SQUARE_NAMES[sq]}) earns 0"
                )
        return f"card {self.card_id(card)} is not valid on {LINE_NAMES[line]}"

    def _why_archive_refuses(self, side: int, archive: int, card: int) -> str:
        rule = self.game.config.archive_rules[archive].value.upper()
        held = len(self.archives[side][archive])
        if held >= self.game.config.capacity:
            return f"the {ARCHIVE_LETTERS[archive]} archive ({rule}) is full [R-14]"
        match = PIECES[
            self.game.tables.match_colour[card] * SIZE + self.game.tables.match_shape[card]
        ]
        return (
            f"the {ARCHIVE_LETTERS[archive]} archive ({rule}) does not take a {match.code} card"
            " [R-11]"
        )

    def _why_no_draw(self, draw: int, phase: int) -> str:
        if draw == NO_DRAW:
            return "a card must be drawn while the pile or the offer holds one (§4.4)"
        if draw == DRAW_PILE:
            return "the draw pile is empty (§4.4)"
        if phase < 2:
            return "[R-15] the offer opens in movement phase 2"
        return f"the offer has no slot {draw}"

    # ------------------------------------------------------------------------------------
    # The end

    def outcome(self) -> Outcome | None:
        if self.stage != OVER:
            return None
        termination = self.termination or RunArchTermination.STALLED
        settlements = self.settlements()
        scores = tuple(s.score() for s in settlements)
        totals = tuple(s.total for s in settlements)
        if self.game.solo:
            won = solo_winners(totals[0], totals[AUTOMA])
        else:
            won = winners(totals, self.bests)
        return Outcome(
            termination, won, scores, self.game.sides
        )  # stalls: see RunArchTermination

    def settlements(self) -> tuple[Settlement, ...]:
        """The final scoring of each side as it stands now (§5), item by item."""
        return tuple(self._settle_side(side) for side in range(2))

    def final_position(self, side: int) -> FinalPosition:
        """What final scoring reads of ``side`` (shared with ``runarch-gen tally``)."""
        game = self.game
        cards = game.cards
        archives = tuple(tuple(cards[k].match for k in archive) for archive in self.archives[side])
        bets = self.bets[side]
        archive_bets = tuple(
            ArchiveBet(archive, count, bets[archive_spot(archive, count)] == 1)
            for archive in range(3)
            for count in BET_SPOT_COUNTS
            if bets[archive_spot(archive, count)] >= 0
        )
        goal_bets = tuple(
            GoalBet(cards[card].goal, bets[goal_spot(g)] == 1, cards[card].id)
            for g, card in enumerate(self.public)
            if bets[goal_spot(g)] >= 0
        )
        secret = cards[self.secret[side]].goal if self.secret[side] >= 0 else None
        return FinalPosition(
            card_points=self.totals[side],
            best=self.bests[side],
            opponent_bests=(self.bests[1 - side],),
            archives=archives if game.token_games else (),
            archive_bets=archive_bets,
            goal_bets=goal_bets,
            secret=secret,
        )

    def _settle_side(self, side: int) -> Settlement:
        if self.game.solo and side == AUTOMA:
            return settle_automa(self.totals[AUTOMA], self.bests[AUTOMA], self.bests[0])
        return settle(self.final_position(side), self.game.config)

    # ------------------------------------------------------------------------------------
    # Copies, equality, text

    # ------------------------------------------------------------------------------------
    # What a simulation report reads

    def length(self) -> int:
        """The turns played (the automa's included)."""
        return self.turn

    def first(self) -> int:
        """The side that moved first."""
        return self.setup.first

    def statistics(self) -> dict[str, tuple[int, ...]]:
        """The generic report's and the sweep's figures (``runarch-gen simulate`` has the
        full report): cards scored, best card, and with archives the secret goal met, bets
        placed and won, per side."""
        out = {
            "cards scored": tuple(len(scored) for scored in self.scored),
            "best card": tuple(self.bests),
        }
        game = self.game
        if not game.token_games:
            return out
        secret: list[int] = []
        placed: list[int] = []
        won: list[int] = []
        for side in range(game.num_players):  # the players (not the automa)
            position = self.final_position(side)
            matches = [piece for archive in position.archives for piece in archive]
            if position.secret is not None:
                secret.append(int(position.secret.is_met(matches)))
            counts = [len(archive) for archive in position.archives]
            placed.append(len(position.archive_bets) + len(position.goal_bets))
            won.append(
                sum(counts[bet.archive] == bet.cards for bet in position.archive_bets)
                + sum(bet.goal.is_met(matches) for bet in position.goal_bets)
            )
        out["secret goal met"] = tuple(secret)
        if game.bets:
            out["bets placed"] = tuple(placed)
            out["bets won"] = tuple(won)
        return out

    def copy(self) -> RunArchState:
        new = RunArchState(self.game)  # blank (a compiled class cannot skip __init__)
        new.setup = self.setup
        new.stones = self.stones[:]
        new.hands = [self.hands[0][:], self.hands[1][:]]
        new.masks = self.masks[:]
        new.hand_tables = self.hand_tables[:]
        new.views = [None, None]
        new.dealt = [self.dealt[0][:], self.dealt[1][:]]
        new.public = self.public[:]
        new.secret = self.secret[:]
        new.offer = self.offer[:]
        new.pile = self.pile[:]
        new.discard = self.discard[:]
        new.totals = self.totals[:]
        new.bests = self.bests[:]
        new.given = self.given[:]
        new.received = self.received[:]
        new.archives = [[a[:] for a in self.archives[0]], [a[:] for a in self.archives[1]]]
        new.placed = self.placed[:]
        new.bets = [self.bets[0][:], self.bets[1][:]]
        new.condition_tokens = self.condition_tokens[:]
        new.frame_tokens = self.frame_tokens[:]
        new.pending = self.pending[:]
        new.discarded_bets = self.discarded_bets
        new.scored = [self.scored[0][:], self.scored[1][:]]
        new.automa_log = self.automa_log[:]
        new.turn = self.turn
        new.swaps = self.swaps
        new.first_swap = self.first_swap
        new.final_round = self.final_round
        new.termination = self.termination
        new.stage = self.stage
        new.current = self.current
        new._history = self._history[:]
        new._legal = self._legal  # immutable tuples, safe to share
        return new

    def _key(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in _KEY_FIELDS)

    def __reduce__(self) -> tuple[object, ...]:
        # Explicit, so a state pickles the same whether this class is compiled or not.
        return _unpickle_state, (self.game, tuple(getattr(self, n) for n in _PICKLED_FIELDS))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RunArchState):
            return NotImplemented
        return self.game == other.game and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable


def _unpickle_state(game: RunArchGame, values: tuple[object, ...]) -> RunArchState:
    state = RunArchState(game)
    for name, value in zip(_PICKLED_FIELDS, values, strict=True):
        setattr(state, name, value)
    state.views = [None, None]
    return state


_NO_CARD: Final[tuple[int, ...]] = (0,) * (N_SQUARES * N_SQUARES)  # an empty hand slot's table
_NO_HAND: Final = (_NO_CARD, _NO_CARD)


def _slot_tables(tables: Tables, hand: Sequence[int]) -> tuple[Sequence[int], Sequence[int]]:
    """The contribution tables of a hand's two slots (at most two cards: HAND_SIZE and
    SIMPLE_HAND), :data:`_NO_CARD` for an empty slot."""
    if len(hand) > 2:
        raise AssertionError("a hand holds two cards at most")
    found: list[Sequence[int]] = [tables.contributions(card) for card in hand]
    found += [_NO_CARD] * (2 - len(found))
    return found[0], found[1]


def _automa_target(origin: int, arrows: tuple[int, ...]) -> int:
    """§8 the square the automa swaps with: the first arrow that stays on the board; if none
    does, the first direction clockwise after the last arrow that does (a decision of ours)."""
    for direction in arrows:
        target = NEIGHBOUR[origin][direction]
        if target >= 0:
            return target
    start = arrows[-1] if arrows else 7
    for step in range(1, 9):
        target = NEIGHBOUR[origin][(start + step) % 8]
        if target >= 0:
            return target
    raise AssertionError("every square has a neighbour")
