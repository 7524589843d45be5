"""What RunArch bots know and estimate: how far each card in hand is from scoring on each
line (the *potential*), where to file a scored card, where to place a bet token, what to draw.

**Potential.** Scoring a card needs a line whose five stones each share the colour or the shape
of the pattern stone at their position (1 point) and, to reach a minimum *m*, ``m − 5`` of them
*are* that pattern stone (2 points). The potential of a card on a line is the number of stone
steps that bring this about, counted independently per position and with the phase's step
(orthogonal in movement phase 1, any adjacent square later): for each position the distance
from its square to the nearest stone earning 1 point there, plus, for the ``m − 5`` positions
where it is cheapest, the extra distance of the exact stone. It ignores that two positions may
want the same stone, so it is a heuristic, but it is exact for a single missing stone and cheap:
stones are tracked as square bitmasks, and a swap changes only two squares. In movement phase 4
the match bonus [R-09] counts towards the minimum, so the pattern needs that much less; a
minimum above 10 pattern points adds a penalty per missing point (the bonus must grow).

Everything here reads only the observation and the game's public data (deck, board, rules).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from itertools import repeat
from typing import TYPE_CHECKING, Final

from runarch_gen.runarch.archives import ArchiveRule
from runarch_gen.runarch.atoms import N_SQUARES, SIZE
from runarch_gen.runarch.counts import CARDS_TO_END
from runarch_gen.runarch.decks.cards import Goal, GoalKind
from runarch_gen.runarch.engine.actions import (
    BET_BASE,
    DRAW_PILE,
    N_ARCHIVE_SPOTS,
    NO_DRAW,
    spot_archive,
)
from runarch_gen.runarch.engine.tables import (
    LINE_SQUARES,
    N_LINES,
    N_STRAIGHT,
    PAIR_A,
    PAIR_B,
    SWAPS_BY_PHASE,
)
from runarch_gen.runarch.rules import MatchBonus

if TYPE_CHECKING:
    from runarch_gen.runarch.engine.game import RunArchGame
    from runarch_gen.runarch.engine.observation import RunArchObservation

# Potential per point of match bonus still missing above 10 pattern points.
BONUS_STEP_COST: Final = 2
FAR: Final = 99

# ---------------------------------------------------------------------------------------------
# Distances between squares under each phase's step


def _distance(a: int, b: int, orthogonal: bool) -> int:
    dr, dc = abs(a // SIZE - b // SIZE), abs(a % SIZE - b % SIZE)
    return dr + dc if orthogonal else max(dr, dc)


def _balls(distances: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    # Per square, the squares within distance r (bitmasks), r = 0 … 8, from the distance
    # table: each square's bit joins its ring, and the rings add up into balls.
    out = []
    for q in range(N_SQUARES):
        rings = [0] * 9
        for b in range(N_SQUARES):
            rings[distances[q * N_SQUARES + b]] |= 1 << b
        ball, balls = 0, []
        for ring in rings:
            ball |= ring
            balls.append(ball)
        out.append(tuple(balls))
    return tuple(out)


ORTHOGONAL_DIST: Final = tuple(
    _distance(a, b, True) for a in range(N_SQUARES) for b in range(N_SQUARES)
)
KING_DIST: Final = tuple(_distance(a, b, False) for a in range(N_SQUARES) for b in range(N_SQUARES))
ORTHOGONAL_BALLS: Final = _balls(ORTHOGONAL_DIST)
KING_BALLS: Final = _balls(KING_DIST)
# The distance tables cut into one row per square ([False] orthogonal, [True] king's moves).
DIST_ROWS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(table[a * N_SQUARES : (a + 1) * N_SQUARES] for a in range(N_SQUARES))
    for table in (ORTHOGONAL_DIST, KING_DIST)
)


def metric(phase: int) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """``(distance table [a * 25 + b], balls [square][radius])`` for a movement phase: phase 1
    swaps orthogonally only, the simple game (0) and phases 2–4 also diagonally (§4.1)."""
    return (ORTHOGONAL_DIST, ORTHOGONAL_BALLS) if phase == 1 else (KING_DIST, KING_BALLS)


# Per phase and square, the first swaps (pair indices) that move the stone on that square.
def _pairs_at(phase: int) -> tuple[tuple[int, ...], ...]:
    at: list[list[int]] = [[] for _ in range(N_SQUARES)]
    for p in SWAPS_BY_PHASE[phase]:  # ascending
        at[PAIR_A[p]].append(p)
        at[PAIR_B[p]].append(p)
    return tuple(tuple(pairs) for pairs in at)


PAIRS_AT: Final[dict[int, tuple[tuple[int, ...], ...]]] = {
    phase: _pairs_at(phase) for phase in range(5)
}


def _closer_masks(phase: int) -> tuple[int, ...]:
    # [here * 25 + there]: the swaps of the phase that move the stone on `here` closer to
    # `there` (in the phase's own distance), as a mask of pairs (bit p for pair p).
    dist = metric(phase)[0]
    out = [0] * (N_SQUARES * N_SQUARES)
    for pair in SWAPS_BY_PHASE[phase]:
        bit = 1 << pair
        row_a, row_b = PAIR_A[pair] * N_SQUARES, PAIR_B[pair] * N_SQUARES
        for there in range(N_SQUARES):
            to_a, to_b = dist[row_a + there], dist[row_b + there]
            if to_b < to_a:  # the stone on a goes to b
                out[row_a + there] |= bit
            elif to_a < to_b:
                out[row_b + there] |= bit
    return tuple(out)


def pairs_mask(pairs: Iterable[int]) -> int:
    """A set of pairs (swaps) as a mask: bit p for pair p.

    >>> bin(pairs_mask({3, 0, 5})), sorted(mask_pairs(pairs_mask({3, 0, 64})))
    ('0b101001', [0, 3, 64])
    """
    mask = 0
    for pair in pairs:
        mask |= 1 << pair
    return mask


def mask_pairs(mask: int) -> set[int]:
    """The pairs of a mask (:func:`pairs_mask` undone)."""
    return set(pairs_of_mask(mask))


def pairs_of_mask(mask: int) -> list[int]:
    """The pairs of a mask in ascending order."""
    pairs = []
    while mask:
        low = mask & -mask
        mask ^= low
        pairs.append(low.bit_length() - 1)
    return pairs


# Per phase, the swaps that bring a stone closer to a square (see _closer_masks), to collect
# candidate swaps with one OR each; phases with the same swaps and steps share one table.
_CLOSER_BY_MOVES: Final = {
    (SWAPS_BY_PHASE[phase], metric(phase)[0] is KING_DIST): _closer_masks(phase)
    for phase in (1, 2, 3)
}
CLOSER_MASKS: Final[dict[int, tuple[int, ...]]] = {
    phase: _CLOSER_BY_MOVES.get((SWAPS_BY_PHASE[phase], metric(phase)[0] is KING_DIST))
    or _closer_masks(phase)
    for phase in range(5)
}
ADJACENT_AT: Final[tuple[tuple[int, ...], ...]] = _pairs_at(2)
# Per pair, its two squares as a mask.
PAIR_BITS: Final[tuple[int, ...]] = tuple(
    1 << a | 1 << b for a, b in zip(PAIR_A, PAIR_B, strict=True)
)
JUMP: Final = 2


_POSITIONS_OF_SET: Final = tuple(
    tuple(i for i in range(SIZE) if bits >> i & 1) for bits in range(32)
)
Trade = tuple[tuple[int, ...], int, int]
"""What changes for a card when two stones ``x`` and ``y`` trade squares: the pattern positions
where exactly one of them earns a point (the distance to a point may change there), and the
position where ``x`` (then ``y``) is the exact stone, -1 for none (the exact stone's distance
changes there)."""


# ---------------------------------------------------------------------------------------------
# What a bot knows of a game (built once per game object, shared by every bot of the process)


class Knowledge:
    """Per card of the deck: its exact stone and the stones earning a point at each pattern
    position; the targets (lines, read in either direction under [R-08] ``reversible``); and
    the match-bonus data of the board."""

    __slots__ = (
        "_trades",
        "archive_rules",
        "bonus",
        "capacity",
        "exact",
        "exact_position",
        "game",
        "match_area",
        "match_colour",
        "match_shape",
        "positions_of",
        "qualifying",
        "qualifying_bits",
        "reversible",
        "targets",
        "targets_in_phase",
        "tile_colour",
        "tile_shape",
    )

    def __init__(self, game: RunArchGame) -> None:
        tables = game.tables
        self.game = game
        self.exact: tuple[tuple[int, ...], ...] = tuple(
            tuple(card.pattern[i].index for i in range(SIZE)) for card in game.cards
        )
        # Per card and stone, the pattern position where it is the exact stone, else -1.
        self.exact_position: tuple[tuple[int, ...], ...] = tuple(
            tuple(exact.index(s) if s in exact else -1 for s in range(N_SQUARES))
            for exact in self.exact
        )
        self.qualifying: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(tuple(s for s in range(N_SQUARES) if row[s]) for row in points)
            for points in tables.points
        )
        self.qualifying_bits: tuple[tuple[int, ...], ...] = tuple(
            tuple(sum(1 << s for s in stones) for stones in card) for card in self.qualifying
        )
        # Per card and stone, the pattern positions where the stone earns a point (1 or 2 of
        # them: the pattern shows each colour and each shape once).
        self.positions_of: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(tuple(i for i in range(SIZE) if s in card[i]) for s in range(N_SQUARES))
            for card in self.qualifying
        )
        self._trades: list[tuple[Trade, ...] | None] = [None] * len(game.cards)
        self.reversible = tables.reversible
        # A target is (line, its five squares in the order of the pattern's positions).
        targets = [(line, LINE_SQUARES[line]) for line in range(N_LINES)]
        if self.reversible:
            targets += [(line, LINE_SQUARES[line][::-1]) for line in range(N_LINES)]
        self.targets: tuple[tuple[int, tuple[int, ...]], ...] = tuple(targets)
        # [False] rows and columns only (movement phases 1–3), [True] the diagonals too.
        self.targets_in_phase = (
            tuple(t for t in self.targets if t[0] < N_STRAIGHT),
            self.targets,
        )
        self.match_colour = tables.match_colour
        self.match_shape = tables.match_shape
        # Per card, its match area (piece index colour * 5 + shape).
        self.match_area = tables.match_piece
        self.tile_colour = tables.tile_colour
        self.tile_shape = tables.tile_shape
        self.bonus = game.config.match_bonus
        self.capacity = game.config.capacity
        self.archive_rules = tuple(rule.value for rule in game.config.archive_rules)

    def trades(self, card: int) -> tuple[Trade, ...]:
        """``[x * 25 + y]``: what changes for ``card`` when stones ``x`` and ``y`` trade
        squares (see :data:`Trade`); built on first use and kept."""
        table = self._trades[card]
        if table is None:
            exact = self.exact_position[card]
            # Per stone, the positions where it earns a point as a 5-bit set.
            where = [sum(1 << i for i in positions) for positions in self.positions_of[card]]
            rows: list[Trade] = []
            flips = _POSITIONS_OF_SET.__getitem__
            for x in range(N_SQUARES):  # the row of x, y = 0 … 24, built by C-level maps
                rows += zip(map(flips, map(where[x].__xor__, where)), repeat(exact[x]), exact)
            table = self._trades[card] = tuple(rows)
        return table

    def bonus_on(self, stones: Sequence[int], card: int, squares: Sequence[int]) -> int:
        """[R-09] the match bonus of ``card``, counted over ``squares``."""
        colour, shape = self.match_colour[card], self.match_shape[card]
        tc, ts = self.tile_colour, self.tile_shape
        return sum(
            (stones[q] // SIZE == colour == tc[q]) + (stones[q] % SIZE == shape == ts[q])
            for q in squares
        )

    def bonus_change(self, card: int, x: int, y: int, a: int, b: int) -> int:
        """How the [R-09] ``board`` bonus of ``card`` changes when stone ``x`` on ``a`` and
        stone ``y`` on ``b`` trade squares."""
        colour, shape = self.match_colour[card], self.match_shape[card]
        tc, ts = self.tile_colour, self.tile_shape

        def on(stone: int, q: int) -> int:
            return (stone // SIZE == colour == tc[q]) + (stone % SIZE == shape == ts[q])

        return on(x, b) + on(y, a) - on(x, a) - on(y, b)

    def match_bonus(self, stones: Sequence[int], card: int, line: int) -> int:
        if self.bonus is MatchBonus.BOARD:
            return self.bonus_on(stones, card, range(N_SQUARES))
        if self.bonus is MatchBonus.LINE:
            return self.bonus_on(stones, card, LINE_SQUARES[line])
        return 0


_KNOWLEDGE: Final[dict[int, tuple[weakref.ref[RunArchGame], Knowledge]]] = {}


def knowledge(game: RunArchGame) -> Knowledge:
    """The :class:`Knowledge` of ``game``, built on first use."""
    entry = _KNOWLEDGE.get(id(game))
    if entry is not None and entry[0]() is game:
        return entry[1]
    known = Knowledge(game)
    if len(_KNOWLEDGE) > 64:
        _KNOWLEDGE.clear()
    _KNOWLEDGE[id(game)] = (weakref.ref(game), known)
    return known


# ---------------------------------------------------------------------------------------------
# Potentials


Target = tuple[int, int, int, tuple[int, ...]]
Prepared = tuple[int, int, Sequence[int], list[int], list[int], int]
"""A target ready for :meth:`Position.cost_after`: ``(slot, line, squares, distances to a
point per position, extra distances to the exact stone, pattern points needed)``."""
"""A scoring target and its potential: ``(potential, hand slot, line, the line's squares in
the order of the pattern's positions)``."""


class Position:
    """One side's view of the stones for planning: where each stone is, and for each card in
    hand and pattern position the squares holding a stone that earns a point there.

    A planning position may be changed with :meth:`swap` (bots try moves on it); the game's
    state is never touched.

    A card's masks (``near_masks[slot]``) and exact stones' squares (``exact_at[slot]``) are
    brought up to date when a method reads them: a move or an update marks every card's as
    stale (bit ``slot`` of ``stale``), and a turn mostly looks at one card. :meth:`refresh`
    brings all of them up to date, for a caller that reads the lists itself.
    """

    __slots__ = (
        "balls",
        "colour_squares",
        "dist",
        "exact_at",
        "hand",
        "known",
        "minimum",
        "near_masks",
        "phase",
        "playable",
        "shape_squares",
        "stale",
        "stone_at",
        "stones",
        "targets",
    )

    def __init__(
        self,
        known: Knowledge,
        stones: Sequence[int],
        hand: Sequence[int],
        phase: int,
        minimum: int,
        playable: Sequence[bool] | None = None,
    ) -> None:
        self.known = known
        self.stones = list(stones)
        # stone -> square: the stones are a permutation of the pieces, so sorting the squares
        # by their stone lists each stone's square.
        at = sorted(range(N_SQUARES), key=stones.__getitem__)
        # A stone earns a point at a position when it has the colour or the shape of the
        # pattern's stone there: the squares of each colour and of each shape, as masks.
        bits = [1 << sq for sq in at]  # per stone, its square's bit
        colour_squares = [
            bits[c] | bits[c + 1] | bits[c + 2] | bits[c + 3] | bits[c + 4]
            for c in range(0, N_SQUARES, SIZE)
        ]
        shape_squares = [
            bits[s] | bits[s + 5] | bits[s + 10] | bits[s + 15] | bits[s + 20] for s in range(SIZE)
        ]
        self.stone_at = at
        self.colour_squares, self.shape_squares = colour_squares, shape_squares
        self.hand = tuple(hand)
        # Cards no archive takes cannot be scored: they are nobody's target.
        self.playable = tuple(playable) if playable is not None else (True,) * len(self.hand)
        self.phase = phase
        self.minimum = minimum
        self.dist, self.balls = metric(phase)
        # Filled in by _refresh when first read.
        self.near_masks: list[list[int]] = [[0] * SIZE for _ in self.hand]
        self.exact_at: list[list[int]] = [[0] * SIZE for _ in self.hand]
        self.stale = (1 << len(self.hand)) - 1
        # The lines a card may be scored on now: rows and columns, diagonals in phase 4.
        self.targets = known.targets_in_phase[phase == 4]

    def update(self, stones: Sequence[int]) -> None:
        """Bring the position to ``stones``, changing only the squares that differ (a turn
        moves a few stones; rebuilding everything would cost far more)."""
        mine = self.stones
        # The squares that differ: the nonzero bytes of the two layouts XORed (one int op).
        diff = int.from_bytes(bytes(mine), "little") ^ int.from_bytes(bytes(stones), "little")
        if not diff:
            return
        at = self.stone_at
        colour_squares, shape_squares = self.colour_squares, self.shape_squares
        while diff:
            q = ((diff & -diff).bit_length() - 1) >> 3
            diff &= ~(0xFF << (q << 3))
            old, new = mine[q], stones[q]
            mine[q] = new
            at[new] = q
            bit = 1 << q  # leaves the old stone's colour and shape, joins the new one's
            colour_squares[old // SIZE] ^= bit
            colour_squares[new // SIZE] ^= bit
            shape_squares[old % SIZE] ^= bit
            shape_squares[new % SIZE] ^= bit
        self.stale = (1 << len(self.hand)) - 1

    def _refresh(self, slot: int) -> None:
        """Bring ``hand[slot]``'s masks and exact stones' squares up to date (from the squares
        of each colour and shape, and each stone's square)."""
        colour_squares, shape_squares, at = self.colour_squares, self.shape_squares, self.stone_at
        e0, e1, e2, e3, e4 = self.known.exact[self.hand[slot]]
        self.near_masks[slot][:] = (
            colour_squares[e0 // SIZE] | shape_squares[e0 % SIZE],
            colour_squares[e1 // SIZE] | shape_squares[e1 % SIZE],
            colour_squares[e2 // SIZE] | shape_squares[e2 % SIZE],
            colour_squares[e3 // SIZE] | shape_squares[e3 % SIZE],
            colour_squares[e4 // SIZE] | shape_squares[e4 % SIZE],
        )
        self.exact_at[slot][:] = (at[e0], at[e1], at[e2], at[e3], at[e4])
        self.stale &= ~(1 << slot)

    def refresh(self) -> None:
        """Bring every card's ``near_masks`` and ``exact_at`` up to date."""
        for slot in range(len(self.hand)):
            if self.stale >> slot & 1:
                self._refresh(slot)

    def needed(self, slot: int, line: int) -> int:
        """Pattern points ``hand[slot]`` needs on ``line``: the minimum, less the match bonus
        in phase 4 [R-09]."""
        if self.phase != 4:
            return self.minimum
        return self.minimum - self.known.match_bonus(self.stones, self.hand[slot], line)

    def cost(self, slot: int, squares: Sequence[int], need: int) -> int:
        """The potential of ``hand[slot]`` on a line's ``squares`` needing ``need`` pattern
        points (see the module docstring)."""
        if self.stale >> slot & 1:
            self._refresh(slot)
        return _cost(
            self.dist, self.balls, self.near_masks[slot], self.exact_at[slot], squares, need
        )

    def terms(self, slot: int, squares: Sequence[int]) -> tuple[list[int], list[int]]:
        """Per pattern position of ``hand[slot]`` on ``squares``: the distance to the nearest
        stone earning a point, and the exact stone's extra distance."""
        balls = self.balls
        if self.stale >> slot & 1:
            self._refresh(slot)
        m0, m1, m2, m3, m4 = self.near_masks[slot]
        q0, q1, q2, q3, q4 = squares
        nears = [
            0 if m0 >> q0 & 1 else _near(m0, q0, balls),
            0 if m1 >> q1 & 1 else _near(m1, q1, balls),
            0 if m2 >> q2 & 1 else _near(m2, q2, balls),
            0 if m3 >> q3 & 1 else _near(m3, q3, balls),
            0 if m4 >> q4 & 1 else _near(m4, q4, balls),
        ]
        dist = self.dist
        x0, x1, x2, x3, x4 = self.exact_at[slot]
        n0, n1, n2, n3, n4 = nears
        extras = [
            dist[x0 * N_SQUARES + q0] - n0,
            dist[x1 * N_SQUARES + q1] - n1,
            dist[x2 * N_SQUARES + q2] - n2,
            dist[x3 * N_SQUARES + q3] - n3,
            dist[x4 * N_SQUARES + q4] - n4,
        ]
        return nears, extras

    def best_targets(self) -> list[Target]:
        """Every target of the playable cards in hand, cheapest first."""
        out: list[Target] = []
        known = self.known
        line_bonus = self.phase == 4 and known.bonus is MatchBonus.LINE
        for slot in range(len(self.hand)):
            if not self.playable[slot]:
                continue
            if line_bonus:  # the need depends on the line
                for line, squares in self.targets:
                    need = self.needed(slot, line)
                    out.append((self.cost(slot, squares, need), slot, line, squares))
                continue
            need = self.minimum
            if self.phase == 4:  # the board's match bonus: the same for every line
                need -= known.match_bonus(self.stones, self.hand[slot], 0)
            self.costs_into(out, slot, need)
        out.sort()
        return out

    def costs_into(self, out: list[Target], slot: int, need: int) -> None:
        """Append ``(potential, slot, line, squares)`` for every target of ``hand[slot]``
        needing ``need`` pattern points: :func:`_cost` for every target, written out with
        what stays the same for the card (its masks, the distances from its exact stones,
        the need) taken out of the loop."""
        balls = self.balls
        rows = DIST_ROWS[self.dist is KING_DIST]
        if self.stale >> slot & 1:
            self._refresh(slot)
        m0, m1, m2, m3, m4 = self.near_masks[slot]
        x0, x1, x2, x3, x4 = self.exact_at[slot]
        r0, r1, r2, r3, r4 = rows[x0], rows[x1], rows[x2], rows[x3], rows[x4]
        append = out.append
        need_exact = need - SIZE
        penalty = BONUS_STEP_COST * (need_exact - SIZE)
        if need_exact >= SIZE:
            # Every extra counts: the distances to a point cancel out of nears + extras, so
            # the potential is the exact stones' distances (none of the nears is needed).
            for line, squares in self.targets:
                q0, q1, q2, q3, q4 = squares
                append((r0[q0] + r1[q1] + r2[q2] + r3[q3] + r4[q4] + penalty, slot, line, squares))
            return
        for line, squares in self.targets:
            q0, q1, q2, q3, q4 = squares
            if m0 >> q0 & 1:
                n0 = 0
            else:
                b = balls[q0]
                n0 = 1 if m0 & b[1] else 2 if m0 & b[2] else _far(m0, b)
            if m1 >> q1 & 1:
                n1 = 0
            else:
                b = balls[q1]
                n1 = 1 if m1 & b[1] else 2 if m1 & b[2] else _far(m1, b)
            if m2 >> q2 & 1:
                n2 = 0
            else:
                b = balls[q2]
                n2 = 1 if m2 & b[1] else 2 if m2 & b[2] else _far(m2, b)
            if m3 >> q3 & 1:
                n3 = 0
            else:
                b = balls[q3]
                n3 = 1 if m3 & b[1] else 2 if m3 & b[2] else _far(m3, b)
            if m4 >> q4 & 1:
                n4 = 0
            else:
                b = balls[q4]
                n4 = 1 if m4 & b[1] else 2 if m4 & b[2] else _far(m4, b)
            total = n0 + n1 + n2 + n3 + n4
            if need_exact > 0:
                if need_exact == 1:
                    total += min(r0[q0] - n0, r1[q1] - n1, r2[q2] - n2, r3[q3] - n3, r4[q4] - n4)
                else:
                    extras = sorted(
                        (r0[q0] - n0, r1[q1] - n1, r2[q2] - n2, r3[q3] - n3, r4[q4] - n4)
                    )
                    total += extras[0] + extras[1]
                    if need_exact > 2:
                        total += extras[2]
                        if need_exact > 3:
                            total += extras[3]
            append((total, slot, line, squares))

    def swap_costs(
        self, slot: int, line: int, squares: Sequence[int], pairs: Sequence[int]
    ) -> list[tuple[int, int]]:
        """``(potential after the swap, pair)`` for each swap of ``pairs`` on the target."""
        target = self.prepare(slot, line, squares)
        return [(self.cost_after(target, pair), pair) for pair in pairs]

    def prepare(self, slot: int, line: int, squares: Sequence[int]) -> Prepared:
        """A target's per-position terms and needed points, for :meth:`cost_after`."""
        nears, extras = self.terms(slot, squares)
        return slot, line, squares, nears, extras, self.needed(slot, line)

    def cost_after(self, target: Prepared, pair: int) -> int:
        """The potential of a prepared target once ``pair``'s two stones trade squares,
        without moving them: only the pattern positions where one of the two stones earns a
        point are recomputed (a stone earns one at 1 or 2 positions)."""
        slot, line, squares, nears, extras, need = target
        stones, dist = self.stones, self.dist
        a, b = PAIR_A[pair], PAIR_B[pair]
        x, y = stones[a], stones[b]
        card = self.hand[slot]
        known = self.known
        positions = known.positions_of[card]
        qualifying_bits = known.qualifying_bits[card]
        if self.stale >> slot & 1:
            self._refresh(slot)
        masks, exact_at = self.near_masks[slot], self.exact_at[slot]
        balls = self.balls
        bits = 1 << a | 1 << b
        total = sum(nears)
        new_extras = extras[:]
        for i in positions[x] + positions[y]:
            q = squares[i]
            q_bits = qualifying_bits[i]
            if (q_bits >> x ^ q_bits >> y) & 1:
                mask = masks[i] ^ bits
                if mask >> q & 1:
                    near = 0
                else:
                    ball = balls[q]
                    near = 1
                    while not mask & ball[near]:
                        near += 1
            else:
                near = nears[i]
            total += near - nears[i]
            sq = exact_at[i]
            sq = b if sq == a else a if sq == b else sq
            new_extras[i] = dist[sq * N_SQUARES + q] - near
        if self.phase == 4:  # the swap may change the match bonus, so the need
            if known.bonus is MatchBonus.BOARD:
                need -= known.bonus_change(card, x, y, a, b)
            else:
                stones[a], stones[b] = y, x
                need = self.needed(slot, line)
                stones[a], stones[b] = x, y
        need_exact = need - SIZE
        if need_exact > 0:
            if need_exact >= SIZE:
                total += sum(new_extras) + BONUS_STEP_COST * (need_exact - SIZE)
            else:
                new_extras.sort()
                total += sum(new_extras[:need_exact])
        return total

    def terms_after(self, target: Prepared, pair: int) -> tuple[list[int], list[int], int]:
        """A prepared target's terms and needed points once ``pair``'s two stones trade
        squares (as :meth:`cost_after`, for a caller that weighs several levels)."""
        slot, line, squares, nears, extras, need = target
        stones, dist = self.stones, self.dist
        a, b = PAIR_A[pair], PAIR_B[pair]
        x, y = stones[a], stones[b]
        card = self.hand[slot]
        known = self.known
        if self.stale >> slot & 1:
            self._refresh(slot)
        masks = self.near_masks[slot]
        bits = 1 << a | 1 << b
        new_nears, new_extras = nears[:], extras[:]
        flip, ix, iy = known.trades(card)[x * N_SQUARES + y]  # see best_swap
        for i in flip:
            near = _near(masks[i] ^ bits, squares[i], self.balls)
            new_nears[i] = near
            new_extras[i] = extras[i] + nears[i] - near  # the exact stone's distance, less
        # An exact stone that moved: its distance changes (x goes to b, y to a).
        if ix >= 0:
            new_extras[ix] += dist[b * N_SQUARES + squares[ix]] - dist[a * N_SQUARES + squares[ix]]
        if iy >= 0:
            new_extras[iy] += dist[a * N_SQUARES + squares[iy]] - dist[b * N_SQUARES + squares[iy]]
        if self.phase == 4:
            if known.bonus is MatchBonus.BOARD:
                need -= known.bonus_change(card, x, y, a, b)
            else:
                stones[a], stones[b] = y, x
                need = self.needed(slot, line)
                stones[a], stones[b] = x, y
        return new_nears, new_extras, need

    def totals_after(self, target: Prepared, pair: int) -> tuple[int, list[int], int]:
        """:meth:`terms_after` with the distances to a point summed: ``(their sum, extra
        distances, needed points)``."""
        slot, line, squares, nears, extras, need = target
        stones, dist, balls = self.stones, self.dist, self.balls
        a, b = PAIR_A[pair], PAIR_B[pair]
        x, y = stones[a], stones[b]
        card = self.hand[slot]
        known = self.known
        if self.stale >> slot & 1:
            self._refresh(slot)
        masks = self.near_masks[slot]
        total = nears[0] + nears[1] + nears[2] + nears[3] + nears[4]
        new_extras = extras[:]
        flip, ix, iy = known.trades(card)[x * N_SQUARES + y]  # see best_swap
        for i in flip:
            q = squares[i]
            mask = masks[i] ^ (1 << a | 1 << b)
            if mask >> q & 1:
                near = 0
            else:
                ball = balls[q]
                near = 1
                while not mask & ball[near]:
                    near += 1
            total += near - nears[i]
            new_extras[i] = extras[i] + nears[i] - near  # the exact stone's distance, less
        # An exact stone that moved: its distance changes (x goes to b, y to a).
        if ix >= 0:
            new_extras[ix] += dist[b * N_SQUARES + squares[ix]] - dist[a * N_SQUARES + squares[ix]]
        if iy >= 0:
            new_extras[iy] += dist[a * N_SQUARES + squares[iy]] - dist[b * N_SQUARES + squares[iy]]
        if self.phase == 4:
            if known.bonus is MatchBonus.BOARD:
                need -= known.bonus_change(card, x, y, a, b)
            else:
                stones[a], stones[b] = y, x
                need = self.needed(slot, line)
                stones[a], stones[b] = x, y
        return total, new_extras, need

    def best_swap(
        self,
        slot: int,
        line: int,
        squares: Sequence[int],
        excluded: AbstractSet[int] | int,
        limit: int = FAR * SIZE * SIZE,
    ) -> tuple[int, int, int] | None:
        """``(potential now, potential after, pair)`` for the swap that lowers the target's
        potential most, or ``None`` when no swap among :meth:`candidate_swaps` lowers it, or
        when the potential now is above ``limit``. Swaps in ``excluded`` (pair indices, or a
        mask of them: bit p for pair p) are not played; ties go to the lowest pair index.

        This is :meth:`terms`, :func:`combine`, :meth:`candidate_mask` and :meth:`cost_after`
        for every candidate in ascending order, written out in one function (the hot path of
        the greedy bot's moves)."""
        if self.phase != 4 and self.minimum >= 2 * SIZE:
            return self.best_exact_swap(slot, squares, excluded, limit)
        balls = self.balls
        if self.stale >> slot & 1:
            self._refresh(slot)
        masks, exact_at = self.near_masks[slot], self.exact_at[slot]
        q0, q1, q2, q3, q4 = squares
        # terms(): the distance to a point per position, then the exact stone's extra.
        n0, n1, n2, n3, n4 = _nears(masks, squares, balls)
        x0, x1, x2, x3, x4 = exact_at
        rows = DIST_ROWS[self.dist is KING_DIST]
        # Each exact stone's distance, and its extra over the distance to a point.
        dists = d0, d1, d2, d3, d4 = (
            rows[x0][q0],
            rows[x1][q1],
            rows[x2][q2],
            rows[x3][q3],
            rows[x4][q4],
        )
        e0, e1, e2, e3, e4 = d0 - n0, d1 - n1, d2 - n2, d3 - n3, d4 - n4
        extras = [e0, e1, e2, e3, e4]
        nears = (n0, n1, n2, n3, n4)
        base_total = n0 + n1 + n2 + n3 + n4
        need = self.minimum if self.phase != 4 else self.needed(slot, line)
        # combine() and the threshold of candidate_mask(): the need − 5 cheapest extras count.
        need_exact = need - SIZE
        if need_exact <= 0:
            cost, threshold = base_total, -1  # no exact stone is wanted
        elif need_exact >= SIZE:
            cost = base_total + e0 + e1 + e2 + e3 + e4 + BONUS_STEP_COST * (need_exact - SIZE)
            threshold = FAR
        else:
            ordered = sorted(extras)
            threshold = ordered[need_exact - 1]
            cost = base_total + sum(ordered[:need_exact])
        if cost > limit:
            return None
        # candidate_mask(): swaps bringing a wanted exact stone, or a nearest stone earning a
        # point where the square has none, closer.
        closer = CLOSER_MASKS[self.phase]
        candidates = 0
        if 0 < e0 <= threshold:
            candidates |= closer[x0 * N_SQUARES + q0]
        if 0 < e1 <= threshold:
            candidates |= closer[x1 * N_SQUARES + q1]
        if 0 < e2 <= threshold:
            candidates |= closer[x2 * N_SQUARES + q2]
        if 0 < e3 <= threshold:
            candidates |= closer[x3 * N_SQUARES + q3]
        if 0 < e4 <= threshold:
            candidates |= closer[x4 * N_SQUARES + q4]
        if base_total:  # the nearest stones earning a point where a square has none
            for i in range(SIZE):
                near = nears[i]
                if near:
                    q = squares[i]
                    ball = balls[q]
                    ring = masks[i] & ball[near] & ~ball[near - 1]
                    while ring:
                        low = ring & -ring
                        ring ^= low
                        candidates |= closer[(low.bit_length() - 1) * N_SQUARES + q]
        if not isinstance(excluded, int):
            excluded = pairs_mask(excluded)
        candidates &= ~excluded
        if not candidates:
            return None
        stones = self.stones
        card = self.hand[slot]
        known = self.known
        trades = known.trades(card)
        phase4 = self.phase == 4
        board_bonus = known.bonus is MatchBonus.BOARD
        best_after, best_pair = cost, -1
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            pair = low.bit_length() - 1
            a, b = PAIR_A[pair], PAIR_B[pair]
            bits = PAIR_BITS[pair]
            x, y = stones[a], stones[b]
            flip, ix, iy = trades[x * N_SQUARES + y]
            total = base_total
            new_extras = extras[:]
            # The positions where one of x and y earns a point and the other does not: the
            # nearest stone earning a point may change there, and so the extra distance.
            for i in flip:
                q = squares[i]
                mask = masks[i] ^ bits
                if mask >> q & 1:
                    near = 0
                else:
                    ball = balls[q]
                    near = 1
                    while not mask & ball[near]:
                        near += 1
                total += near - nears[i]
                new_extras[i] = dists[i] - near
            # An exact stone that moved: its distance changes (x goes to b, y to a).
            if ix >= 0:
                new_extras[ix] += rows[b][squares[ix]] - dists[ix]
            if iy >= 0:
                new_extras[iy] += rows[a][squares[iy]] - dists[iy]
            after_need = need
            if phase4:  # the swap may change the match bonus, so the need
                if board_bonus:
                    after_need -= known.bonus_change(card, x, y, a, b)
                else:
                    stones[a], stones[b] = y, x
                    after_need = self.needed(slot, line)
                    stones[a], stones[b] = x, y
            need_exact = after_need - SIZE
            if need_exact > 0:
                if need_exact == 1:
                    total += min(new_extras)
                elif need_exact == SIZE - 1:
                    total += sum(new_extras) - max(new_extras)
                elif need_exact >= SIZE:
                    total += sum(new_extras) + BONUS_STEP_COST * (need_exact - SIZE)
                else:
                    new_extras.sort()
                    total += new_extras[0] + new_extras[1]
                    if need_exact == 3:
                        total += new_extras[2]
            if total < best_after:
                best_after, best_pair = total, pair
        return None if best_pair < 0 else (cost, best_after, best_pair)

    def best_exact_swap(
        self,
        slot: int,
        squares: Sequence[int],
        excluded: AbstractSet[int] | int,
        limit: int = FAR * SIZE * SIZE,
    ) -> tuple[int, int, int] | None:
        """:meth:`best_swap` when every position needs its exact stone (a minimum of 10 or
        more, outside movement phase 4, where the need is the same after any swap).

        Then each position's distance to a point cancels out of the potential (it is that
        distance plus the exact stone's extra over it): the potential is the exact stones'
        distances plus the penalty, and a swap lowers it only by bringing an exact stone
        closer. Those swaps are all among :meth:`candidate_mask`'s (an exact stone as close
        as the nearest point is one of the nearest stones), and every other candidate leaves
        the potential as high or higher, so the result is :meth:`best_swap`'s."""
        rows = DIST_ROWS[self.dist is KING_DIST]
        if self.stale >> slot & 1:
            self._refresh(slot)
        x0, x1, x2, x3, x4 = self.exact_at[slot]
        q0, q1, q2, q3, q4 = squares
        dists = d0, d1, d2, d3, d4 = (
            rows[x0][q0],
            rows[x1][q1],
            rows[x2][q2],
            rows[x3][q3],
            rows[x4][q4],
        )
        cost = d0 + d1 + d2 + d3 + d4 + BONUS_STEP_COST * (self.minimum - 2 * SIZE)
        if cost > limit:
            return None
        closer = CLOSER_MASKS[self.phase]
        candidates = (
            closer[x0 * N_SQUARES + q0]
            | closer[x1 * N_SQUARES + q1]
            | closer[x2 * N_SQUARES + q2]
            | closer[x3 * N_SQUARES + q3]
            | closer[x4 * N_SQUARES + q4]
        )
        if not isinstance(excluded, int):
            excluded = pairs_mask(excluded)
        candidates &= ~excluded
        stones = self.stones
        exact_position = self.known.exact_position[self.hand[slot]]
        best_after, best_pair = cost, -1
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            pair = low.bit_length() - 1
            a, b = PAIR_A[pair], PAIR_B[pair]
            total = cost
            i = exact_position[stones[a]]  # the stone on a goes to b
            if i >= 0:
                total += rows[b][squares[i]] - dists[i]
            i = exact_position[stones[b]]
            if i >= 0:
                total += rows[a][squares[i]] - dists[i]
            if total < best_after:
                best_after, best_pair = total, pair
        return None if best_pair < 0 else (cost, best_after, best_pair)

    def candidate_swaps(
        self,
        slot: int,
        squares: Sequence[int],
        nears: Sequence[int],
        extras: Sequence[int],
        need: int,
    ) -> set[int]:
        """The swaps (pair indices) of the phase that bring a stone the target wants closer to
        its square: the exact stones of the positions that count (the ``need − 5`` cheapest),
        and the nearest stones earning a point at positions whose square has none."""
        return mask_pairs(self.candidate_mask(slot, squares, nears, extras, need))

    def candidate_mask(
        self,
        slot: int,
        squares: Sequence[int],
        nears: Sequence[int],
        extras: Sequence[int],
        need: int,
    ) -> int:
        """:meth:`candidate_swaps` as a mask of pairs (bit p for pair p)."""
        need_exact = need - SIZE
        if need_exact <= 0:
            threshold = -1  # no exact stone is wanted
        elif need_exact >= SIZE:
            threshold = FAR
        else:
            threshold = sorted(extras)[need_exact - 1]
        closer = CLOSER_MASKS[self.phase]
        if self.stale >> slot & 1:
            self._refresh(slot)
        exact_at, masks, balls = self.exact_at[slot], self.near_masks[slot], self.balls
        candidates = 0
        for i in range(SIZE):
            q = squares[i]
            if 0 < extras[i] <= threshold:
                candidates |= closer[exact_at[i] * N_SQUARES + q]
            near = nears[i]
            if near:
                # The squares of the nearest stones earning a point: the mask's squares at
                # distance ``near`` from q, lowest square first.
                ball = balls[q]
                ring = masks[i] & ball[near] & ~ball[near - 1]
                while ring:
                    low = ring & -ring
                    ring ^= low
                    candidates |= closer[(low.bit_length() - 1) * N_SQUARES + q]
        return candidates

    def swap(self, a: int, b: int) -> None:
        """Swap the stones on ``a`` and ``b`` in this planning position."""
        stones, at = self.stones, self.stone_at
        x, y = stones[a], stones[b]
        stones[a], stones[b] = y, x
        at[x], at[y] = b, a
        bits = 1 << a | 1 << b
        # A colour (shape) that only one of the two stones has moves between the squares.
        self.colour_squares[x // SIZE] ^= bits
        self.colour_squares[y // SIZE] ^= bits
        self.shape_squares[x % SIZE] ^= bits
        self.shape_squares[y % SIZE] ^= bits
        self.stale = (1 << len(self.hand)) - 1


def _near(mask: int, q: int, balls: Sequence[Sequence[int]]) -> int:
    # The distance from square q to the nearest square of mask (mask is never empty).
    if mask >> q & 1:
        return 0
    ball = balls[q]
    if mask & ball[1]:
        return 1
    if mask & ball[2]:
        return 2
    r = 3
    while not mask & ball[r]:
        r += 1
    return r


def combine(nears: Sequence[int], extras: Sequence[int], need: int) -> int:
    """The potential from per-position terms (:meth:`Position.terms`) for ``need`` pattern
    points: every position's distance to a point, plus the ``need − 5`` cheapest extra
    distances to an exact stone, plus a penalty per point beyond 10.

    >>> combine([0, 1, 0, 0, 2], [1, 0, 3, 2, 1], 7)  # 3 steps to points, 0 + 1 to two exacts
    4
    """
    return combine_total(sum(nears), extras, need)


def combine_total(total: int, extras: Sequence[int], need: int) -> int:
    """:func:`combine` from the sum of the distances to a point (``total``)."""
    need_exact = need - SIZE
    if need_exact <= 0:
        return total
    if need_exact >= SIZE:
        return total + sum(extras) + BONUS_STEP_COST * (need_exact - SIZE)
    return total + sum(sorted(extras)[:need_exact])


def _far(mask: int, ball: Sequence[int]) -> int:
    # The distance from a square to the nearest square of mask, known to be 3 or more.
    r = 3
    while not mask & ball[r]:
        r += 1
    return r


def _nears(
    masks: Sequence[int], squares: Sequence[int], balls: Sequence[Sequence[int]]
) -> tuple[int, int, int, int, int]:
    """Per pattern position, the distance from its square to the nearest stone earning a point
    there (``masks``), unrolled over the five positions: nearly every one is 0 or 1.
    :meth:`Position.costs_into` writes the same out inline, once per target."""
    q0, q1, q2, q3, q4 = squares
    m0, m1, m2, m3, m4 = masks
    if m0 >> q0 & 1:
        n0 = 0
    else:
        b = balls[q0]
        n0 = 1 if m0 & b[1] else 2 if m0 & b[2] else _far(m0, b)
    if m1 >> q1 & 1:
        n1 = 0
    else:
        b = balls[q1]
        n1 = 1 if m1 & b[1] else 2 if m1 & b[2] else _far(m1, b)
    if m2 >> q2 & 1:
        n2 = 0
    else:
        b = balls[q2]
        n2 = 1 if m2 & b[1] else 2 if m2 & b[2] else _far(m2, b)
    if m3 >> q3 & 1:
        n3 = 0
    else:
        b = balls[q3]
        n3 = 1 if m3 & b[1] else 2 if m3 & b[2] else _far(m3, b)
    if m4 >> q4 & 1:
        n4 = 0
    else:
        b = balls[q4]
        n4 = 1 if m4 & b[1] else 2 if m4 & b[2] else _far(m4, b)
    return n0, n1, n2, n3, n4


def _cost(
    dist: Sequence[int],
    balls: Sequence[Sequence[int]],
    masks: Sequence[int],
    exact_at: Sequence[int],
    squares: Sequence[int],
    need: int,
) -> int:
    # combine(terms(...)) in one pass, unrolled over the five positions: the hot path of
    # target selection. Nearly every distance to a point is 0 or 1.
    q0, q1, q2, q3, q4 = squares
    n0, n1, n2, n3, n4 = _nears(masks, squares, balls)
    total = n0 + n1 + n2 + n3 + n4
    need_exact = need - SIZE
    if need_exact <= 0:
        return total
    x0, x1, x2, x3, x4 = exact_at
    e0 = dist[x0 * N_SQUARES + q0] - n0
    e1 = dist[x1 * N_SQUARES + q1] - n1
    e2 = dist[x2 * N_SQUARES + q2] - n2
    e3 = dist[x3 * N_SQUARES + q3] - n3
    e4 = dist[x4 * N_SQUARES + q4] - n4
    if need_exact == 1:
        return total + min(e0, e1, e2, e3, e4)
    if need_exact >= SIZE:
        return total + e0 + e1 + e2 + e3 + e4 + BONUS_STEP_COST * (need_exact - SIZE)
    extras = sorted((e0, e1, e2, e3, e4))
    if need_exact == 2:
        return total + extras[0] + extras[1]
    if need_exact == 3:
        return total + extras[0] + extras[1] + extras[2]
    return total + extras[0] + extras[1] + extras[2] + extras[3]


# ---------------------------------------------------------------------------------------------
# Filing, betting, drawing. Match areas are piece indices (colour * 5 + shape); a set of them
# is a 25-bit mask, so "which match areas does this archive still take" is one int.

ALL_MATCHES: Final = (1 << N_SQUARES) - 1
COLOUR_ROW: Final = tuple(sum(1 << (c * SIZE + s) for s in range(SIZE)) for c in range(SIZE))
SHAPE_COLUMN: Final = tuple(sum(1 << (c * SIZE + s) for c in range(SIZE)) for s in range(SIZE))


# Per match area, its colour and its shape as one 10-bit set: bit c for colour c, bit 5 + s for
# shape s. OR-ed over the cards of an archive, it is all §4.3 needs to know of them.
AREA_SIGNATURE: Final = tuple(1 << m // SIZE | 1 << SIZE + m % SIZE for m in range(N_SQUARES))


def _accepts(rule: ArchiveRule, signature: int) -> int:
    # The match areas an archive with `rule` takes when the OR of its cards' signatures is
    # `signature` (0: empty), capacity aside.
    if not signature:
        return ALL_MATCHES
    colours = [c for c in range(SIZE) if signature >> c & 1]
    shapes = [s for s in range(SIZE) if signature >> SIZE + s & 1]
    mask = 0
    if rule is ArchiveRule.SAME:  # one colour throughout, or one shape throughout
        if len(colours) == 1:
            mask |= COLOUR_ROW[colours[0]]
        if len(shapes) == 1:
            mask |= SHAPE_COLUMN[shapes[0]]
        return mask
    mask = ALL_MATCHES  # no shape (colour) twice
    for s in shapes if rule is ArchiveRule.SHAPES else ():
        mask &= ~SHAPE_COLUMN[s]
    for c in colours if rule is ArchiveRule.COLOURS else ():
        mask &= ~COLOUR_ROW[c]
    return mask


# Per rule (its text) and signature of the cards held, the match areas an archive takes;
# each filled in when first asked for (-1 until then: a game asks for few of the 1,024).
ACCEPTS: Final[dict[str, list[int]]] = {rule.value: [-1] * (1 << 2 * SIZE) for rule in ArchiveRule}


def accept_mask(rule: str, held: Sequence[int], capacity: int) -> int:
    """§4.3 the match areas an archive with ``rule`` holding ``held`` (match areas) takes,
    [R-14] capacity included, as a 25-bit mask.

    >>> bin(accept_mask("same", [0, 1], 5)).count("1")  # two red cards: red only
    5
    >>> bin(accept_mask("colours", [0], 5)).count("1")  # anything but red
    20
    """
    if len(held) >= capacity:
        return 0
    signature = 0
    for m in held:
        signature |= AREA_SIGNATURE[m]
    row = ACCEPTS[rule]
    mask = row[signature]
    if mask < 0:
        mask = row[signature] = _accepts(ArchiveRule(rule), signature)
    return mask


def playable_cards(
    known: Knowledge, archives: Sequence[Sequence[int]], hand: Sequence[int]
) -> list[bool]:
    """Per card in ``hand``: whether one of the ``archives`` (cards, left to right) takes it
    now [R-11]."""
    area = known.match_area
    taken = 0
    for rule, held in zip(known.archive_rules, archives, strict=True):
        taken |= accept_mask(rule, [area[k] for k in held], known.capacity)
    return [bool(taken >> area[k] & 1) for k in hand]


# The goal kinds counting different colours and different shapes (members looked up once).
_COLOURS, _SHAPES = GoalKind.COLOURS, GoalKind.SHAPES


def _tally(archives: Iterable[Sequence[int]]) -> tuple[list[int], list[int]]:
    """Per colour and per shape, how many of the match areas in ``archives`` show it."""
    colours, shapes = [0] * SIZE, [0] * SIZE
    for held in archives:
        for m in held:
            colours[m // SIZE] += 1
            shapes[m % SIZE] += 1
    return colours, shapes


def _shortfall(goal: Goal, colours: Sequence[int], shapes: Sequence[int]) -> int:
    # goal_shortfall from the tally of the archived match areas.
    kind = goal.kind
    if kind is _COLOURS:
        return max(0, goal.colour_count - (SIZE - colours.count(0)))
    if kind is _SHAPES:
        return max(0, goal.shape_count - (SIZE - shapes.count(0)))
    missing = 0
    if goal.colour is not None:
        missing = max(missing, goal.colour_count - colours[goal.colour])
    if goal.shape is not None:
        missing = max(missing, goal.shape_count - shapes[goal.shape])
    return missing


def _helpful(goal: Goal, colours: Sequence[int], shapes: Sequence[int]) -> int:
    # helpful_mask from the tally of the archived match areas.
    kind = goal.kind
    if kind is _COLOURS or kind is _SHAPES:
        if _shortfall(goal, colours, shapes) == 0:
            return 0
        mask = ALL_MATCHES
        if kind is _COLOURS:
            for c in range(SIZE):
                if colours[c]:
                    mask &= ~COLOUR_ROW[c]
        else:
            for s in range(SIZE):
                if shapes[s]:
                    mask &= ~SHAPE_COLUMN[s]
        return mask
    mask = 0
    if goal.colour is not None and colours[goal.colour] < goal.colour_count:
        mask |= COLOUR_ROW[goal.colour]
    if goal.shape is not None and shapes[goal.shape] < goal.shape_count:
        mask |= SHAPE_COLUMN[goal.shape]
    return mask


def goal_shortfall(goal: Goal, archived: Sequence[int]) -> int:
    """How many more archived cards (at least) ``goal`` needs, given the match areas
    ``archived``."""
    return _shortfall(goal, *_tally((archived,)))


def helpful_mask(goal: Goal, archived: Sequence[int]) -> int:
    """The match areas that would lower ``goal``'s shortfall, as a 25-bit mask."""
    return _helpful(goal, *_tally((archived,)))


def _bit_indices(mask: int) -> list[int]:
    """The match areas of a mask, in ascending order."""
    return [m for m in range(N_SQUARES) if mask >> m & 1]


# Per archive bet spot, ``(archive, cards)`` (:func:`spot_archive`).
SPOT_ARCHIVE: Final = tuple(spot_archive(spot) for spot in range(N_ARCHIVE_SPOTS))
# [taken][helpful]: for the five match areas of a colour (five bits of two masks of match
# areas), how welcome a drawn card with each is: 1 when some archive takes it, else -2, and 1.5
# more when it helps a goal.
_ROW_WELCOME: Final = tuple(
    tuple(
        tuple((1.0 if taken >> s & 1 else -2.0) + 1.5 * (helpful >> s & 1) for s in range(SIZE))
        for helpful in range(32)
    )
    for taken in range(32)
)


class SideView:
    """What filing, betting and drawing read of the observer's side: archives as match areas,
    the goals that pay it (secret, and public ones carrying its bet), its archive bets.

    ``archives`` and ``placed`` may be changed (a card filed in thought); everything else is
    read from them when asked."""

    __slots__ = ("archives", "capacity", "goals", "placed", "rules", "wanted_counts")

    def __init__(self, observation: RunArchObservation) -> None:
        game = observation.game
        known = knowledge(game)
        me = observation.player
        area = known.match_area
        self.archives: list[list[int]] = [
            [area[k] for k in held] for held in observation.archives[me]
        ]
        self.placed = sum(map(len, self.archives))
        self.capacity = known.capacity
        self.rules = known.archive_rules
        bets = observation.bets[me]
        cards = game.cards
        goals = [cards[observation.secret].goal] if observation.secret >= 0 else []
        goals += [
            cards[card].goal
            for g, card in enumerate(observation.public_goals)
            if bets[N_ARCHIVE_SPOTS + g] >= 0  # only goals with a bet pay
        ]
        self.goals = goals
        wanted: dict[int, list[int]] = {}  # archive -> card counts this side bet on
        for spot in range(N_ARCHIVE_SPOTS):
            if bets[spot] >= 0:
                archive, count = SPOT_ARCHIVE[spot]
                wanted.setdefault(archive, []).append(count)
        self.wanted_counts = wanted

    def taken(self, archives: Sequence[Sequence[int]] | None = None) -> int:
        """The match areas some archive takes now, as a mask."""
        mask = 0
        for rule, held in zip(self.rules, archives or self.archives, strict=True):
            mask |= accept_mask(rule, held, self.capacity)
        return mask

    def playable(self, known: Knowledge, hand: Sequence[int]) -> list[bool]:
        """Per card in ``hand``: whether some archive takes it now [R-11]."""
        taken = self.taken()
        return [bool(taken >> known.match_area[k] & 1) for k in hand]

    def remaining(self) -> int:
        return max(0, CARDS_TO_END - self.placed)

    def filing_value(self, match: int, archive: int) -> float:
        """How good filing a card with match area ``match`` into ``archive`` (which takes it)
        is: archive bets kept alive and reached, and room left for the cards still to come."""
        archives = self.archives
        wanted = self.wanted_counts
        value = 0.0
        for a, counts in wanted.items():
            held = len(archives[a]) + (a == archive)  # the card filed
            for count in counts:
                if held > count:
                    value -= 30  # the bet is lost for sure
                elif held == count:
                    value += 2
                elif a == archive:
                    value += 1
        remaining = max(0, CARDS_TO_END - self.placed - 1)
        if remaining:
            # What the archives take after filing, and the places left where no bet forbids
            # them: beyond a bet's count a card loses it.
            capacity = self.capacity
            taken = free = 0
            for a, (rule, cards) in enumerate(zip(self.rules, archives, strict=True)):
                after = [*cards, match] if a == archive else cards
                taken |= accept_mask(rule, after, capacity)
                bet_counts = wanted.get(a)
                limit = min(*bet_counts, capacity) if bet_counts else capacity
                free += max(0, limit - len(after))
            value += taken.bit_count() / 5
            if free < remaining:
                value -= 3 * (remaining - free)
        return value

    def match_values(self) -> list[float]:
        """Per match area: how welcome a drawn card with it is — some archive takes it, and
        it helps the goals that pay this side."""
        taken = self.taken()
        helpful, more = 0, []  # the match areas helping the first goal, the others'
        if self.goals:
            colours, shapes = _tally(self.archives)
            helpful, *more = [_helpful(goal, colours, shapes) for goal in self.goals]
        welcome = _ROW_WELCOME
        values = [
            *welcome[taken & 31][helpful & 31],
            *welcome[taken >> 5 & 31][helpful >> 5 & 31],
            *welcome[taken >> 10 & 31][helpful >> 10 & 31],
            *welcome[taken >> 15 & 31][helpful >> 15 & 31],
            *welcome[taken >> 20 & 31][helpful >> 20 & 31],
        ]
        for mask in more:
            for m in _bit_indices(mask):  # each further goal helped adds 1.5 (sums stay exact)
                values[m] += 1.5
        return values

    def choose_draw(self, draws: Sequence[int], offer: Sequence[int]) -> int:
        """The draw code to use among ``draws``: the offer card with the most welcome match
        area when it beats an average card from the pile [R-15]."""
        if len(draws) == 1:
            return draws[0]
        values = self.match_values()
        pile_value = sum(values) / N_SQUARES
        best, best_value = draws[0], -1e9
        for draw in draws:
            if draw == NO_DRAW:
                value = -5.0
            elif draw == DRAW_PILE:
                value = pile_value
            else:
                value = values[offer[draw - 1]] if draw - 1 < len(offer) else -5.0
            if value > best_value + 1e-9:
                best, best_value = draw, value
        return best

    def bet_value(self, spot: int, gold: bool, best_card: int, goal: Goal | None) -> float:
        """The expected points of a bet token on ``spot`` (§6.3) from a rough chance of
        winning it; ``goal`` is the public goal of a goal spot."""
        stake = max(best_card, 9)
        win = stake if gold else (stake + 1) // 2
        remaining = self.remaining()
        if goal is None:
            archive, count = SPOT_ARCHIVE[spot]
            chance = self.archive_bet_chance(archive, count, remaining)
            if chance is None:
                return -stake
            return chance * (win + count) - (1 - chance) * stake
        chance = goal_bet_chance(_shortfall(goal, *_tally(self.archives)), remaining)
        return chance * (win + goal.reward) - (1 - chance) * stake

    def archive_bet_chance(self, archive: int, count: int, remaining: int) -> float | None:
        """A rough chance that ``archive`` ends with ``count`` cards when ``remaining`` more
        are to be archived; ``None`` when it cannot."""
        held = len(self.archives[archive])
        capacity = self.capacity
        if count < held or count - held > remaining or count > capacity:
            return None
        if self.wanted_counts.get(archive):
            return 0.15  # another bet on this archive already wants another count
        if count == held:
            room = 0
            for a, cards in enumerate(self.archives):
                if a != archive:
                    room += capacity - len(cards)
            return 0.75 if room >= remaining else 0.2
        return 0.6 if count - held <= max(1, remaining // 2) else 0.35


def goal_bet_chance(short: int, remaining: int) -> float:
    """A rough chance of meeting a goal ``short`` archived cards away with ``remaining`` more
    to be archived."""
    if short == 0:
        return 1.0  # goals count "at least": met once, met for good
    if short > remaining:
        return 0.0
    return max(0.05, 0.8 - 0.6 * short / max(1, remaining))


def choose_bet(observation: RunArchObservation, legal_actions: Sequence[int]) -> int:
    """The bet spot with the best expected value for the token to place now (§6.2), as
    :meth:`SideView.bet_value` estimates it."""
    view = SideView(observation)
    pending = observation.pending_bets
    gold = bool(pending and pending[0] == 1)
    best_card = observation.bests[observation.player]
    public = observation.public_goals
    cards = observation.game.cards
    best, best_value = legal_actions[0], -1e9
    for action in legal_actions:
        spot = action - BET_BASE
        goal = cards[public[spot - N_ARCHIVE_SPOTS]].goal if spot >= N_ARCHIVE_SPOTS else None
        value = view.bet_value(spot, gold, best_card, goal)
        if value > best_value + 1e-9:
            best, best_value = action, value
    return best


_VARIETY_CHANCE: Final = {3: 0.95, 4: 0.8, 5: 0.5}  # per count of different colours (shapes) needed


def goal_chance_guess(goal: Goal) -> float:
    """A rough chance of meeting ``goal`` from its thresholds alone (for setup choices)."""
    kind = goal.kind
    if kind is _COLOURS or kind is _SHAPES:
        need = goal.colour_count or goal.shape_count
        return _VARIETY_CHANCE.get(need, 0.3)
    need = goal.colour_count + goal.shape_count
    if kind is GoalKind.COLOUR_AND_SHAPE:
        need += 1
    return max(0.05, 1.0 - 0.17 * need)
