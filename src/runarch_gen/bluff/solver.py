"""The solver of small games of Bluff: one round, two players, one or two dice each.

The game (``docs/rules/bluff.md`` §6; the engine's ``bluff(players=2,single=on,cap=on,first=1)``
with the dice of each player): both roll, player 1 opens, they raise in turn until one doubts,
and whoever was right wins (+1) while the other loses (−1). Bids are public and only rise, so a
bid history is a *set* of the game's ``B`` allowed bids — a bit mask, its highest bit the bid
standing — and each player knows only their own hand. Everything is computed over masks and
hands at once with numpy, in the mask order, where the history ``n`` followed by bid ``j`` is
``n + 2**j``: all the children by bid ``j`` of the histories ``0 … 2**j − 1`` are the contiguous
rows ``2**j … 2**(j+1) − 1``, so a pass over the tree is ``B`` vectorised slices.

- :func:`solve` runs CFR+ (regret matching+, alternating updates, linearly weighted averages;
  Tammelin 2014) on the whole tree (perfect recall) and measures the average strategy by an
  exact best response; for one die each it reaches exploitability 10⁻⁴ in seconds.
- :func:`solve_window` runs the same CFR+ on an *abstraction of the bid history*: a player
  remembers only the last ``window`` bids (and whose turn it is), so histories that end alike
  share a strategy (imperfect recall, as in Lanctot et al. 2012). The states form a graph, not
  a tree; each state carries the expected return for every pair of hands. It is for the game
  whose whole tree does not fit (two dice each: 2²⁴ histories × 21 hands); its strategy is
  measured in the full game by :mod:`.best_response`.
- :func:`solve_lp` solves the one-die game exactly by the sequence-form linear program
  (Koller, Megiddo and von Stengel 1996) with OR-Tools' GLOP; :func:`solve_lp_states` builds the
  same program from the engine's own states and observations (slow, tiny games: an oracle).

>>> game = SmallGame(BluffRules(faces=2, scale=parse_scale("1\\n*1\\n2")), (1, 1))
>>> game.bids, [str(b) for b in game.bid_list], game.hand_counts
(5, ['1×1', '1×2', '1×★', '2×1', '2×2'], (3, 3))
>>> result = solve(game, target=1e-4, check_every=10)
>>> round(result.value, 3), result.exploitability < 1e-4, round(solve_lp(game), 9)
(0.333, True, 0.333333333)
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from runarch_gen.bluff.engine import BluffGame, BluffObservation, BluffState, Phase
from runarch_gen.bluff.rules import Bid, BluffRules, ExactHit, Opener, parse_scale
from runarch_gen.bluff.strategy import (
    Strategy,
    action_count,
    one_blas_thread,
    popcount,
    top_bit,
)
from runarch_gen.errors import InputError, check_stop

__all__ = [
    "MAX_TREE_BIDS",
    "SmallGame",
    "SolveResult",
    "bot_strategy",
    "parse_scale",
    "prune",
    "small_rules",
    "solve",
    "solve_lp",
    "solve_lp_states",
    "solve_window",
]

Array = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
MAX_TREE_BIDS = 20
"""The most bids :func:`solve` handles on the whole tree (2²⁰ histories × hands per array):
one die each has 12 bids, one against two 18, two each 24 (use :func:`solve_window`)."""
WINDOW_DOUBLE = 1 << 22
"""States × hand pairs up to which :func:`solve_window` computes in double precision."""
MAX_WINDOW_STATES = 600_000
"""The most states :func:`solve_window` builds (bounded memory)."""


def small_rules(rules: BluffRules, dice: tuple[int, int]) -> BluffRules:
    """The one-round game of ``rules`` for two players with ``dice`` (the opener's first),
    player 1 opening, bids capped at the dice in play [L-09, L-16]. The die and the scale
    carry over; the exact-hit rule, the next opener and the round limit do not matter in one
    round (the bidder wins an exact hit under every rule [L-11]) and take their defaults.
    Show and re-roll [L-13] changes the game once a player holds two dice: not solved."""
    if rules.reroll and max(dice) >= 2:
        raise InputError(
            "the solver has no show and re-roll (reroll=on) for a player with two dice"
        )
    return replace(
        rules,
        players=2,
        dice=max(dice),
        single=True,
        cap=True,
        first=1,
        exact=ExactHit.GIVE,
        opener=Opener.WINNER,
        reroll=False,
        limit=BluffRules().limit,
    )


class SmallGame:
    """The small game's bids, hands and payoffs (see the module)."""

    def __init__(self, rules: BluffRules, dice: tuple[int, int]) -> None:
        if not all(1 <= d <= 9 for d in dice):
            raise InputError("each player of the small game has 1 to 9 dice")
        self.rules = small_rules(rules, dice)
        self.dice = dice
        total = sum(dice)
        every = self.rules.bids
        ranks = [r for r, b in enumerate(every) if b.quantity <= total]  # [L-09]
        self.ranks: tuple[int, ...] = tuple(ranks or range(len(every)))
        self.bid_list: tuple[Bid, ...] = tuple(every[r] for r in self.ranks)
        sides = self.rules.sides
        star = self.rules.star
        self.hands: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(itertools.combinations_with_replacement(range(1, sides + 1), d)) for d in dice
        )
        priors = []
        for hands, size in zip(self.hands, dice, strict=True):
            prior = np.empty(len(hands))
            for i, hand in enumerate(hands):
                ways = math.factorial(size)
                for _, group in itertools.groupby(hand):
                    ways //= math.factorial(len(list(group)))
                prior[i] = ways / sides**size
            priors.append(prior)
        self.prior: tuple[Array, Array] = (priors[0], priors[1])
        counts = [
            np.array(
                [
                    [
                        sum(1 for d in h if d == f or (f != star and d == star))
                        for f in range(1, sides + 1)
                    ]
                    for h in hands
                ]
            )
            for hands in self.hands
        ]
        self.face_counts: tuple[IntArray, IntArray] = (counts[0], counts[1])
        """``face_counts[p][hand, f − 1]``: the dice of the hand that count for a bid on f."""
        holds = np.empty((len(self.bid_list), len(self.hands[0]), len(self.hands[1])))
        for j, bid in enumerate(self.bid_list):
            together = counts[0][:, bid.face - 1][:, None] + counts[1][:, bid.face - 1][None, :]
            holds[j] = np.where(together >= bid.quantity, 1.0, -1.0)
        self.holds: Array = holds
        """``holds[j, h0, h1]``: +1 when bid ``j`` holds for these hands, −1 when it fails."""

    @property
    def bids(self) -> int:
        return len(self.bid_list)

    @property
    def hand_counts(self) -> tuple[int, int]:
        return (len(self.hands[0]), len(self.hands[1]))

    def game_string(self) -> str:
        return str(BluffGame(self.rules))

    def action_to_engine(self, action: int) -> int:
        """The engine's action of a small-game action (−1 doubt, else a bid index)."""
        return 0 if action < 0 else 1 + self.ranks[action]


# -- the whole tree ----------------------------------------------------------------------------


class _Tree:
    """CFR+ over every history of the small game, in two halves: the histories of even length
    (player 1 acts; the root first) and of odd length (player 2 acts), each in mask order.
    The children by bid ``j`` of the histories below ``2**j`` keep that order and change
    parity, so for ``j ≥ 1`` the rows ``2**(j−1) … 2**j − 1`` of each half are the children of
    the rows ``0 … 2**(j−1) − 1`` of the other half (for ``j = 0``, the odd row 0 is the root's
    child). A player's regrets and strategy live only on the rows where that player chooses:
    the doubts at their own histories and the bids into the other half."""

    def __init__(self, game: SmallGame, dtype: type[np.floating[Any]] = np.float32) -> None:
        if game.bids > MAX_TREE_BIDS:
            raise InputError(
                f"the small game has {game.bids} bids: the whole tree is solved up to"
                f" {MAX_TREE_BIDS} (use an abstraction: --window)"
            )
        self.game = game
        self.dtype = dtype
        self.B = B = game.bids
        self.half = 1 << (B - 1)
        self.H = game.hand_counts
        # the rows of block j (histories whose bid standing is j) in each half, and their
        # parents' rows in the other half
        self.spans: list[tuple[slice, slice]] = [(slice(0, 1), slice(0, 1))]
        for j in range(1, B):
            self.spans.append((slice(1 << (j - 1), 1 << j), slice(0, 1 << (j - 1))))
        masks = np.arange(1 << B, dtype=np.int64)
        parity = popcount(masks) & 1
        self.masks = (masks[parity == 0], masks[parity == 1])
        self.tops = (top_bit(self.masks[0]), top_bit(self.masks[1]))
        self.uniform = tuple((1.0 / action_count(t, B)).astype(dtype)[:, None] for t in self.tops)
        self.holds = game.holds.astype(dtype)
        self.prior = (game.prior[0].astype(dtype), game.prior[1].astype(dtype))
        # holds[t] turned to multiply the other player's reach: (theirs × p's hands)
        self.oriented = (
            [np.ascontiguousarray(h.T) for h in self.holds],
            [np.ascontiguousarray(h) for h in self.holds],
        )

    def zeros(self, p: int) -> Array:
        return np.zeros((self.half, self.H[p]), dtype=self.dtype)

    def children(self, half: int) -> list[tuple[slice, slice]]:
        """(child rows in the other half, parent rows in ``half``) per bid j."""
        return [(dst, src) for j, (dst, src) in enumerate(self.spans) if half == 0 or j > 0]

    def match(self, reg_in: Array, reg_d: Array, p: int) -> tuple[Array, Array]:
        """Regret matching+ for player ``p``: the chances of the bids into the other half
        (rows of that half) and of the doubt (rows of ``p``'s half)."""
        sig_d = np.maximum(reg_d, 0.0)
        if p == 0:
            sig_d[0] = 0.0  # no doubt at the root
        sig_in = np.maximum(reg_in, 0.0)
        total = sig_d.copy()
        for dst, src in self.children(p):
            total[src] += sig_in[dst]
        empty = total < 1e-30  # (and no overflow in float32)
        np.divide(1.0, total, out=total, where=~empty)
        total[empty] = 0.0
        sig_d *= total
        uniform = self.uniform[p]
        np.copyto(sig_d, uniform, where=empty)
        if p == 0:
            sig_d[0] = 0.0
        for dst, src in self.children(p):
            part = sig_in[dst]
            part *= total[src]
            np.copyto(part, uniform[src], where=empty[src])
        return sig_in, sig_d

    def reach(self, q: int, sig_in: Array) -> tuple[Array, Array]:
        """Player ``q``'s own chance of playing into each history (both halves), the hand's
        prior in: ``q``'s bids multiply, the other's pass it on."""
        reach = (self.zeros(q), self.zeros(q))
        reach[0][0] = self.prior[q]
        for j, (dst, src) in enumerate(self.spans):
            # bids into the odd half are player 1's, into the even half player 2's
            if q == 0:
                np.multiply(reach[0][src], sig_in[dst], out=reach[1][dst])
            else:
                reach[1][dst] = reach[0][src]
            if j == 0:
                continue
            if q == 1:
                np.multiply(reach[1][src], sig_in[dst], out=reach[0][dst])
            else:
                reach[0][dst] = reach[1][src]
        return reach

    def doubt_values(
        self, p: int, reach_o: tuple[Array, Array], sig_d_o: Array
    ) -> tuple[Array, Array]:
        """``p``'s counterfactual value of the doubt at each history of both halves (the
        other player's reach, and their doubt where they act, in)."""
        o = 1 - p
        out = (self.zeros(p), self.zeros(p))
        for t, (rows, _) in enumerate(self.spans):
            holds = self.oriented[p][t]
            for half in (0, 1):
                if t == 0 and half == 0:
                    continue  # the root: no bid to doubt
                weights = reach_o[half][rows]
                if half == o:
                    weights = weights * sig_d_o[rows]
                # the player at a history of ``half`` doubts; the other one bid
                sign = -1.0 if half == p else 1.0
                # numpy's own loop, not BLAS: the same sums in the same order on every CPU,
                # so a solve gives the same bytes everywhere
                np.multiply(np.einsum("rk,kh->rh", weights, holds), sign, out=out[half][rows])
        return out

    def values(
        self, p: int, doubt: tuple[Array, Array], sig_in: Array, sig_d: Array
    ) -> tuple[Array, Array]:
        """``p``'s counterfactual value of each history under ``p``'s strategy."""
        values = (doubt[0].copy(), doubt[1].copy())
        values[p][...] *= sig_d
        for j in range(self.B - 1, -1, -1):
            dst, src = self.spans[j]
            # player 1's bid j from the even half into the odd one, then player 2's
            if p == 0:
                values[0][src] += values[1][dst] * sig_in[dst]
            else:
                values[0][src] += values[1][dst]
            if j == 0:
                continue
            if p == 1:
                values[1][src] += values[0][dst] * sig_in[dst]
            else:
                values[1][src] += values[0][dst]
        return values

    def regrets(
        self,
        p: int,
        doubt: tuple[Array, Array],
        values: tuple[Array, Array],
        reg_in: Array,
        reg_d: Array,
    ) -> None:
        """Add ``p``'s instant regrets and clip at 0 (CFR+)."""
        o = 1 - p
        reg_d += doubt[p] - values[p]
        if p == 0:
            reg_d[0] = 0.0
        for dst, src in self.children(p):
            reg_in[dst] += values[o][dst] - values[p][src]
        np.maximum(reg_d, 0.0, out=reg_d)
        np.maximum(reg_in, 0.0, out=reg_in)

    def best(self, p: int, sig_in_o: Array, sig_d_o: Array) -> float:
        """What a best response of ``p`` wins against the other's strategy (float64)."""
        o = 1 - p
        reach = self.reach(o, sig_in_o)
        doubt = self.doubt_values(p, reach, sig_d_o)
        mine, other = doubt[p].astype(np.float64), doubt[o].astype(np.float64)
        if p == 0:
            mine[0] = -np.inf
        merged = {p: mine, o: other}
        for j in range(self.B - 1, -1, -1):
            dst, src = self.spans[j]
            # even rows take their odd children, then odd rows their even children
            if p == 0:
                np.maximum(merged[0][src], merged[1][dst], out=merged[0][src])
            else:
                merged[0][src] += merged[1][dst]
            if j == 0:
                continue
            if p == 1:
                np.maximum(merged[1][src], merged[0][dst], out=merged[1][src])
            else:
                merged[1][src] += merged[0][dst]
        root = merged[0][0]
        return float(self.prior[p].astype(np.float64) @ root)

    def value(self, average: list[tuple[Array, Array]]) -> float:
        """Player 1's expected return when both play ``average``."""
        doubt = self.doubt_values(0, self.reach(1, average[1][0]), average[1][1])
        values = self.values(0, doubt, *average[0])
        return float(self.prior[0].astype(np.float64) @ values[0][0].astype(np.float64))

    def strategy(self, profile: list[tuple[Array, Array]]) -> Strategy:
        """The profile as a :class:`~.strategy.Strategy` (perfect recall)."""
        keys: list[IntArray] = []
        probs: list[Array] = []
        for p in (0, 1):
            sig_in, sig_d = profile[p]
            nodes, tops = self.masks[p], self.tops[p]
            counts = action_count(tops, self.B)
            starts = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
            table = np.empty((int(counts.sum()), self.H[p]))
            has_doubt = tops >= 0
            table[starts[has_doubt]] = sig_d[has_doubt]
            rows = np.arange(self.half)
            for j, (dst, _) in enumerate(self.spans):
                if j == 0 and p == 1:
                    continue
                below = rows[: dst.stop - dst.start]  # parents: the first rows of p's half
                column = has_doubt[below].astype(np.int64) + j - tops[below] - 1
                table[starts[below] + column] = sig_in[dst]
            keys.append((nodes << 1) | p)
            probs.append(table)
        return Strategy(
            self.game.game_string(),
            self.game.dice,
            0,
            self.B,
            self.H,
            (keys[0], keys[1]),
            (probs[0], probs[1]),
        )


@dataclass(frozen=True, slots=True)
class SolveResult:
    """What a solve found: the average strategy, its value and exploitability."""

    value: float
    """Player 1's (the opener's) expected return when both play the strategy."""
    exploitability: float
    """Half the sum of what a best response to each side wins (0 at an equilibrium), in the
    full game."""
    iterations: int
    seconds: float
    strategy: Strategy
    history: tuple[tuple[int, float], ...]
    """(iteration, exploitability) at each check."""
    method: str = "cfr+"

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "window": self.strategy.window,
            "value": round(self.value, 6),
            "exploitability": round(self.exploitability, 6),
            "iterations": self.iterations,
            "seconds": round(self.seconds, 3),
            "history": [{"iteration": i, "exploitability": round(e, 6)} for i, e in self.history],
        }


def solve(
    game: SmallGame,
    *,
    target: float = 0.001,
    max_iterations: int = 20_000,
    check_every: int = 25,
    on_check: Callable[[int, float], None] | None = None,
) -> SolveResult:
    """CFR+ on the whole tree until the average strategy's exploitability (by an exact best
    response) is below ``target``, or ``max_iterations``; deterministic."""
    with one_blas_thread():
        return _solve(game, target, max_iterations, check_every, on_check)


def _solve(
    game: SmallGame,
    target: float,
    max_iterations: int,
    check_every: int,
    on_check: Callable[[int, float], None] | None,
) -> SolveResult:
    started = time.perf_counter()
    tree = _Tree(game)
    reg_in = [tree.zeros(p) for p in (0, 1)]
    reg_d = [tree.zeros(p) for p in (0, 1)]
    avg_in = [tree.zeros(p) for p in (0, 1)]
    avg_d = [tree.zeros(p) for p in (0, 1)]
    current = [tree.match(reg_in[p], reg_d[p], p) for p in (0, 1)]
    reach = [tree.reach(p, current[p][0]) for p in (0, 1)]
    average = current
    history: list[tuple[int, float]] = []
    gap = (tree.best(0, *average[1]) + tree.best(1, *average[0])) / 2
    iteration = 0
    while iteration < max_iterations and gap >= target:
        check_stop()
        iteration += 1
        for p in (0, 1):
            o = 1 - p
            doubt = tree.doubt_values(p, reach[o], current[o][1])
            values = tree.values(p, doubt, *current[p])
            tree.regrets(p, doubt, values, reg_in[p], reg_d[p])
            weight = float(iteration)
            avg_in[p] += weight * reach[p][o]
            played = reach[p][p] * current[p][1]
            played *= weight
            avg_d[p] += played
            current[p] = tree.match(reg_in[p], reg_d[p], p)
            reach[p] = tree.reach(p, current[p][0])
        if iteration % check_every == 0 or iteration == max_iterations:
            average = [tree.match(avg_in[p], avg_d[p], p) for p in (0, 1)]
            gap = (tree.best(0, *average[1]) + tree.best(1, *average[0])) / 2
            history.append((iteration, gap))
            if on_check is not None:
                on_check(iteration, gap)
    return SolveResult(
        tree.value(average),
        gap,
        iteration,
        time.perf_counter() - started,
        tree.strategy(average),
        tuple(history),
    )


# -- the abstraction: the last bids only ------------------------------------------------------


class _Window:
    """The states of the history abstraction that remembers the last ``window`` bids and whose
    turn it is; the graph of their actions, in blocks of (player to act, bid standing)."""

    def __init__(self, game: SmallGame, window: int) -> None:
        if window < 1:
            raise InputError("a window remembers at least 1 bid")
        B = game.bids
        self.game, self.window, self.B = game, window, B
        masks = [
            sum(1 << b for b in combo)
            for size in range(min(window, B) + 1)
            for combo in itertools.combinations(range(B), size)
        ]
        if 2 * len(masks) > MAX_WINDOW_STATES:
            raise InputError(
                f"a window of {window} bids makes about {2 * len(masks):,} states, over"
                f" {MAX_WINDOW_STATES:,}"
            )
        w = np.array(masks, dtype=np.int64)
        made = popcount(w)
        parity = made & 1
        full = made == window
        # a full window is reached after more bids, by either player, if a bid lies below it
        other = full & ((w & 1) == 0)
        w = np.concatenate((w, w[other]))
        parity = np.concatenate((parity, 1 - parity[other]))
        top = top_bit(w)
        order = np.lexsort((w, top, parity))
        self.masks, self.parity, self.top = w[order], parity[order], top[order]
        self.keys = (self.masks << 1) | self.parity
        self.n = len(self.keys)
        # the returns for every pair of hands at every state: single precision when large
        cells = self.n * game.hand_counts[0] * game.hand_counts[1]
        self.dtype: type[np.floating[Any]] = np.float64 if cells <= WINDOW_DOUBLE else np.float32
        counts = action_count(self.top, B)
        self.offsets = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
        state = np.repeat(np.arange(self.n), counts)
        local = np.arange(int(self.offsets[-1])) - self.offsets[state]
        tops = self.top[state]
        self.edge_state = state
        self.edge_bid = np.where(tops >= 0, np.where(local == 0, -1, tops + local), local)
        child = self.masks[state] | np.left_shift(1, np.maximum(self.edge_bid, 0))
        over = popcount(child) > window
        child = np.where(over, child & (child - 1), child)
        child_keys = (child << 1) | (1 - self.parity[state])
        sorter = np.argsort(self.keys)
        found = np.searchsorted(self.keys, child_keys, sorter=sorter)
        found = sorter[np.minimum(found, self.n - 1)]
        bid_edge = self.edge_bid >= 0
        if np.any(self.keys[found[bid_edge]] != child_keys[bid_edge]):  # pragma: no cover
            raise AssertionError("a child state is missing from the window graph")
        self.edge_child = np.where(bid_edge, found, -1)
        # blocks of states: (player, bid standing), contiguous in this order
        self.blocks: dict[tuple[int, int], tuple[int, int]] = {}
        for p in (0, 1):
            for t in range(-1, B):
                chosen = np.nonzero((self.parity == p) & (self.top == t))[0]
                if len(chosen):
                    self.blocks[(p, t)] = (int(chosen[0]), int(chosen[-1]) + 1)
        # each player's edges are contiguous: their rows in that player's tables
        self.player_states = [
            (
                int(np.searchsorted(self.parity, p, "left")),
                int(np.searchsorted(self.parity, p, "right")),
            )
            for p in (0, 1)
        ]
        self.edge_base = [int(self.offsets[self.player_states[p][0]]) for p in (0, 1)]
        self.H = game.hand_counts

    def edges(self, p: int) -> int:
        lo, hi = self.player_states[p]
        return int(self.offsets[hi] - self.offsets[lo])

    def match(self, regrets: Array, p: int) -> Array:
        """Regret matching+ over each state's actions (uniform where no regret is positive)."""
        lo, hi = self.player_states[p]
        starts = self.offsets[lo:hi] - self.edge_base[p]
        positive = np.maximum(regrets, 0.0)
        sums = np.add.reduceat(positive, starts, axis=0) if len(starts) else positive[:0]
        counts = np.diff(self.offsets[lo : hi + 1])
        sums_e = np.repeat(sums, counts, axis=0)
        uniform = np.repeat(1.0 / counts, counts)[:, None]
        return np.where(sums_e > 0, positive / np.where(sums_e > 0, sums_e, 1.0), uniform)

    def reach(self, sigma: list[Array]) -> list[Array]:
        """Each player's reach of each state, summed over the histories it stands for."""
        reach = [np.zeros((self.n, self.H[p])) for p in (0, 1)]
        root = self.blocks[(0, -1)][0]
        for p in (0, 1):
            reach[p][root] = self.game.prior[p]
        for t in range(-1, self.B):
            for actor in (0, 1):
                if (actor, t) not in self.blocks:
                    continue
                lo, hi = self.blocks[(actor, t)]
                e_lo, e_hi = int(self.offsets[lo]), int(self.offsets[hi])
                child = self.edge_child[e_lo:e_hi]
                moving = child >= 0
                parent = self.edge_state[e_lo:e_hi][moving]
                base = self.edge_base[actor]
                for p in (0, 1):
                    flow = reach[p][parent]
                    if p == actor:
                        flow = flow * sigma[actor][e_lo - base : e_hi - base][moving]
                    np.add.at(reach[p], child[moving], flow)
        return reach

    def sweep(
        self, sigma: list[Array], reach: list[Array] | None, p: int | None
    ) -> tuple[Array, Array | None]:
        """The expected return of player 1 from each state for every pair of hands, under
        ``sigma``; with ``p`` (and the reaches), the instant regrets of ``p``'s actions. The
        states of a block share their bid standing, so they have the same number of actions:
        a block is an array (states × actions × hands × hands)."""
        game = self.game
        H0, H1 = self.H
        values = np.zeros((self.n, H0, H1), dtype=self.dtype)
        gains = None if p is None else np.zeros((self.edges(p), self.H[p]), dtype=self.dtype)
        for t in range(self.B - 1, -2, -1):
            for actor in (0, 1):
                if (actor, t) not in self.blocks:
                    continue
                lo, hi = self.blocks[(actor, t)]
                e_lo, e_hi = int(self.offsets[lo]), int(self.offsets[hi])
                states, actions = hi - lo, (e_hi - e_lo) // (hi - lo)
                child = self.edge_child[e_lo:e_hi].reshape(states, actions)
                q = np.empty((states, actions, H0, H1), dtype=self.dtype)
                first = 0
                if t >= 0:
                    # the actor doubts the other's bid t: player 1 wins if it holds and player
                    # 1 bid it (player 2 doubts)
                    q[:, 0] = game.holds[t] if actor == 1 else -game.holds[t]
                    first = 1
                q[:, first:] = values[child[:, first:]]
                base = self.edge_base[actor]
                weights = sigma[actor][e_lo - base : e_hi - base].reshape(states, actions, -1)
                weights = weights.astype(self.dtype, copy=False)
                if actor == 0:
                    values[lo:hi] = np.einsum("snab,sna->sab", q, weights)
                else:
                    values[lo:hi] = np.einsum("snab,snb->sab", q, weights)
                if p is not None and p == actor and reach is not None and gains is not None:
                    other = reach[1 - p][lo:hi].astype(self.dtype, copy=False)
                    if p == 0:
                        edge = np.einsum("snab,sb->sna", q, other)
                        node = np.einsum("sab,sb->sa", values[lo:hi], other)
                    else:
                        edge = np.einsum("snab,sa->snb", q, other)
                        node = np.einsum("sab,sa->sb", values[lo:hi], other)
                    # player 2's return is minus player 1's
                    sign = 1.0 if p == 0 else -1.0
                    delta = (edge - node[:, None, :]) * sign
                    gains[e_lo - base : e_hi - base] = delta.reshape(e_hi - e_lo, -1)
        return values, gains

    def strategy(self, sigma: list[Array]) -> Strategy:
        keys: list[IntArray] = []
        probs: list[Array] = []
        for p in (0, 1):
            lo, hi = self.player_states[p]
            order = np.argsort(self.keys[lo:hi])
            counts = np.diff(self.offsets[lo : hi + 1])
            starts = self.offsets[lo:hi] - self.edge_base[p]
            rows = (
                np.concatenate([np.arange(starts[s], starts[s] + counts[s]) for s in order]).astype(
                    np.int64
                )
                if len(order)
                else np.zeros(0, dtype=np.int64)
            )
            keys.append(self.keys[lo:hi][order])
            probs.append(sigma[p][rows])
        return Strategy(
            self.game.game_string(),
            self.game.dice,
            self.window,
            self.B,
            self.H,
            (keys[0], keys[1]),
            (probs[0], probs[1]),
        )


def solve_window(
    game: SmallGame,
    window: int,
    *,
    iterations: int = 1000,
    check_every: int = 0,
    measure: Callable[[Strategy], float] | None = None,
    on_check: Callable[[int, float], None] | None = None,
) -> SolveResult:
    """CFR+ on the abstraction that remembers the last ``window`` bids (see the module), for
    ``iterations``; every ``check_every`` iterations (and at the end) ``measure`` gives the
    average strategy's exploitability in the full game (default :func:`.best_response.
    exploitability`). Deterministic."""
    from runarch_gen.bluff.best_response import exploitability as full_exploitability

    def default(strategy: Strategy) -> float:
        return full_exploitability(strategy).exploitability

    measure = measure or default
    started = time.perf_counter()
    with one_blas_thread():
        return _solve_window(game, window, iterations, check_every, measure, on_check, started)


def _solve_window(
    game: SmallGame,
    window: int,
    iterations: int,
    check_every: int,
    measure: Callable[[Strategy], float],
    on_check: Callable[[int, float], None] | None,
    started: float,
) -> SolveResult:
    graph = _Window(game, window)
    regrets = [np.zeros((graph.edges(p), graph.H[p])) for p in (0, 1)]
    totals = [np.zeros_like(r) for r in regrets]
    sigma = [graph.match(regrets[p], p) for p in (0, 1)]
    history: list[tuple[int, float]] = []
    for iteration in range(1, iterations + 1):
        check_stop()
        for p in (0, 1):
            reach = graph.reach(sigma)
            _, gains = graph.sweep(sigma, reach, p)
            assert gains is not None
            np.maximum(regrets[p] + gains, 0.0, out=regrets[p])
            lo, hi = graph.player_states[p]
            state = graph.edge_state[graph.offsets[lo] : graph.offsets[hi]]
            totals[p] += iteration * reach[p][state] * sigma[p]
            sigma[p] = graph.match(regrets[p], p)
        if check_every and iteration % check_every == 0 and iteration < iterations:
            gap = measure(graph.strategy([graph.match(totals[p], p) for p in (0, 1)]))
            history.append((iteration, gap))
            if on_check is not None:
                on_check(iteration, gap)
    average = [graph.match(totals[p], p) for p in (0, 1)]
    strategy = graph.strategy(average)
    values, _ = graph.sweep(average, None, None)
    root = graph.blocks[(0, -1)][0]
    value = float(game.prior[0] @ values[root] @ game.prior[1])
    gap = measure(strategy)
    history.append((iterations, gap))
    if on_check is not None:
        on_check(iterations, gap)
    return SolveResult(
        value,
        gap,
        iterations,
        time.perf_counter() - started,
        strategy,
        tuple(history),
        method=f"cfr+ on the last {window} bids",
    )


def prune(strategy: Strategy, threshold: float = 1e-3, least: float = 0.0) -> Strategy:
    """The strategy with chances below ``threshold`` set to 0 (the rest renormalised) and
    only the states its own player still plays into kept — with some hand whose own chance of
    getting there is at least ``least`` — what a file or a bot needs. A hand that does not
    play into a kept state has all its chance on the first action there. The result is a
    different strategy; measure it again."""
    keys: list[IntArray] = []
    probs: list[Array] = []
    for p in (0, 1):
        table = np.where(strategy.probs[p] < threshold, 0.0, strategy.probs[p])
        offsets = strategy.offsets(p)
        counts = np.diff(offsets)
        sums = np.repeat(np.add.reduceat(table, offsets[:-1], axis=0), counts, axis=0)
        table = np.where(sums > 0, table / np.where(sums > 0, sums, 1.0), strategy.probs[p])
        keys.append(strategy.keys[p])
        probs.append(table)
    cleaned = replace(strategy, probs=(probs[0], probs[1]))
    kept, hands = _played_states(cleaned, least)
    out_keys: list[IntArray] = []
    out_probs: list[Array] = []
    for p in (0, 1):
        offsets = cleaned.offsets(p)
        # a hand that never plays into a state never uses its chances there: all on the
        # first action (nothing changes, and the file compresses)
        idle = np.repeat(~hands[p], np.diff(offsets), axis=0)
        first = np.zeros(len(idle), dtype=bool)
        first[offsets[:-1]] = True
        cleaned.probs[p][idle] = np.broadcast_to(first[:, None], idle.shape)[idle]
        rows = (
            np.concatenate(
                [np.arange(offsets[s], offsets[s + 1]) for s in np.nonzero(kept[p])[0]]
            ).astype(np.int64)
            if np.any(kept[p])
            else np.zeros(0, dtype=np.int64)
        )
        out_keys.append(cleaned.keys[p][kept[p]])
        out_probs.append(cleaned.probs[p][rows])
    return replace(cleaned, keys=(out_keys[0], out_keys[1]), probs=(out_probs[0], out_probs[1]))


def _played_states(
    strategy: Strategy, least: float
) -> tuple[list[npt.NDArray[np.bool_]], list[npt.NDArray[np.bool_]]]:
    """Which states each player reaches with some hand by their own strategy, whatever the
    other player does, and with which hands: the player's own chance of playing into the
    state (summed over the histories it stands for) at least ``least`` (walked by bid
    standing: a state's parents stand on lower bids)."""
    B, window = strategy.bids, strategy.window
    played: list[npt.NDArray[np.bool_]] = []
    hands: list[npt.NDArray[np.bool_]] = []
    floor = max(least, 1e-300)
    for p in (0, 1):
        offsets = strategy.offsets(p)
        index_of = {int(k): i for i, k in enumerate(strategy.keys[p])}
        layers: list[dict[int, Array]] = [{} for _ in range(B + 1)]
        layers[0][0] = np.ones(strategy.hands[p])
        mark = np.zeros(strategy.states(p), dtype=bool)
        with_hands = np.zeros((strategy.states(p), strategy.hands[p]), dtype=bool)

        def add(
            layers: list[dict[int, Array]], mask: int, bid: int, parity: int, own: Array
        ) -> None:
            child = mask | (1 << bid)
            if window and bin(child).count("1") > window:
                child &= child - 1  # forget the oldest bid
            key = (child << 1) | parity
            layer = layers[bid + 1]
            layer[key] = layer[key] + own if key in layer else own

        for t in range(-1, B):
            for key, own in layers[t + 1].items():
                mask, parity = key >> 1, key & 1
                if parity != p:
                    for bid in range(t + 1, B):
                        add(layers, mask, bid, 1 - parity, own)
                    continue
                index = index_of.get(key)
                alive = own >= floor
                if index is None or not alive.any():
                    continue
                mark[index] = True
                with_hands[index] |= alive
                rows = strategy.probs[p][offsets[index] + (1 if t >= 0 else 0) : offsets[index + 1]]
                for bid, row in zip(range(t + 1, B), rows, strict=True):
                    nxt = own * row
                    if nxt.max() >= floor:
                        add(layers, mask, bid, 1 - parity, nxt)
        played.append(mark)
        hands.append(with_hands)
    return played, hands


# -- bots as strategies -------------------------------------------------------------------------


def bot_strategy(game: SmallGame, make_bot: Callable[[random.Random], Any]) -> Strategy:
    """A bot's policy (its ``policy(observation, legal)``) at every history for every hand, as
    a strategy with perfect recall; the bot sees what its player would see. For games of up
    to 18 bids (one die each, one against two: 262,144 histories, a few minutes)."""
    if game.bids > 18:
        raise InputError(f"a bot is read at every history up to 18 bids, not {game.bids}")
    bot = make_bot(random.Random(0))
    B = game.bids
    masks = np.arange(1 << B, dtype=np.int64)
    parity = popcount(masks) & 1
    keys: list[IntArray] = []
    probs: list[Array] = []
    for p in (0, 1):
        nodes = masks[parity == p]
        counts = action_count(top_bit(nodes), B)
        table = np.zeros((int(counts.sum()), game.hand_counts[p]))
        row = 0
        for mask, count in zip(nodes.tolist(), counts.tolist(), strict=True):
            made = [b for b in range(B) if mask >> b & 1]
            actions = ([-1] if made else []) + list(range(made[-1] + 1 if made else 0, B))
            legal = [game.action_to_engine(a) for a in actions]
            bids = tuple((k % 2, game.ranks[b]) for k, b in enumerate(made))
            for h, hand in enumerate(game.hands[p]):
                seen = BluffObservation(
                    p,
                    game.rules,
                    game.dice,
                    hand,
                    ((), ()),
                    bids,
                    (False, False),
                    Phase.BID,
                    p,
                    0,
                    1,
                    (),
                )
                chances = dict(bot.policy(seen, legal))
                table[row : row + count, h] = [chances.get(a, 0.0) for a in legal]
            row += count
        keys.append((nodes << 1) | p)
        probs.append(table)
    return Strategy(
        game.game_string(),
        game.dice,
        0,
        B,
        game.hand_counts,
        (keys[0], keys[1]),
        (probs[0], probs[1]),
    )


# -- the linear programs ------------------------------------------------------------------------


def solve_lp(game: SmallGame) -> float:
    """Player 1's value of the small game by the sequence-form linear program over the
    histories (masks) and hands, solved by GLOP's dual simplex. Player 1's realisation plan
    ``x`` has a variable per bid or doubt and hand; player 2's side one free variable per row
    of player 2's plan (each history where player 2 acts, per hand, and the empty sequence
    per hand). For up to 14 bids (one die each has 12)."""
    from ortools.linear_solver import pywraplp

    B = game.bids
    if B > 14:
        raise InputError(f"the linear program is built for up to 14 bids, not {B}")
    H0, H1 = game.hand_counts
    N = 1 << B
    parity = [bin(n).count("1") & 1 for n in range(N)]
    tops = [n.bit_length() - 1 for n in range(N)]
    solver = pywraplp.Solver.CreateSolver("GLOP")
    if solver is None:  # pragma: no cover - GLOP ships with OR-Tools
        raise RuntimeError("OR-Tools has no GLOP solver")
    solver.SetSolverSpecificParametersAsString("use_dual_simplex: true")
    inf = solver.infinity()
    # player 1's sequences: the bid into an odd history c (chosen at its even parent) and the
    # doubt at an even history n, for each hand
    x_in: dict[int, list[Any]] = {}
    x_d: dict[int, list[Any]] = {}
    for n in range(1, N):
        (x_in if parity[n] else x_d)[n] = [solver.NumVar(0.0, 1.0, "") for _ in range(H0)]
    for n in range(0, N, 1):
        if parity[n]:
            continue
        for h in range(H0):
            row = solver.Constraint(0.0 if n else 1.0, 0.0 if n else 1.0)
            for j in range(tops[n] + 1, B):
                row.SetCoefficient(x_in[n + (1 << j)][h], 1.0)
            if n:
                row.SetCoefficient(x_d[n][h], 1.0)
                row.SetCoefficient(x_in[n - (1 << tops[n])][h], -1.0)
    # player 2's side: q_root per hand, q per odd history and hand
    q_root = [solver.NumVar(-inf, inf, "") for _ in range(H1)]
    q = {m: [solver.NumVar(-inf, inf, "") for _ in range(H1)] for m in range(1, N) if parity[m]}
    chance = game.prior[0][:, None] * game.prior[1][None, :]
    for h in range(H1):
        row = solver.Constraint(-inf, 0.0)
        row.SetCoefficient(q_root[h], 1.0)
        for j in range(B):
            row.SetCoefficient(q[1 << j][h], -1.0)
    for n in range(1, N):
        payoff = chance * game.holds[tops[n]]
        if parity[n]:
            # player 2 doubts at odd n: player 1 bid it (x_in[n]) and wins if it holds
            for h in range(H1):
                row = solver.Constraint(-inf, 0.0)
                row.SetCoefficient(q[n][h], 1.0)
                for g in range(H0):
                    row.SetCoefficient(x_in[n][g], -float(payoff[g, h]))
        else:
            # player 2's bid into even n, chosen at its odd parent: q[parent] − Σ q[children]
            # ≤ player 1's return when player 1 doubts at n
            parent = n - (1 << tops[n])
            for h in range(H1):
                row = solver.Constraint(-inf, 0.0)
                row.SetCoefficient(q[parent][h], 1.0)
                for j in range(tops[n] + 1, B):
                    row.SetCoefficient(q[n + (1 << j)][h], -1.0)
                for g in range(H0):
                    row.SetCoefficient(x_d[n][g], float(payoff[g, h]))
    objective = solver.Objective()
    for variable in q_root:
        objective.SetCoefficient(variable, 1.0)
    objective.SetMaximization()
    if solver.Solve() != pywraplp.Solver.OPTIMAL:  # pragma: no cover
        raise RuntimeError("the linear program has no optimal solution")
    return float(objective.Value())


def solve_lp_states(rules: BluffRules) -> float:
    """The value for player 1 of the small game ``rules`` (see :func:`small_rules`), by the
    sequence-form linear program over the engine's states; infosets are the engine's
    observation strings. Shares nothing with the solvers above; for tiny games (it walks
    every state)."""
    from ortools.linear_solver import pywraplp

    game = BluffGame(rules)
    sequences: list[dict[tuple[str, int] | None, int]] = [{None: 0}, {None: 0}]
    infosets: list[dict[str, tuple[str, int] | None]] = [{}, {}]
    payoff: dict[tuple[int, int], float] = {}

    def walk(state: BluffState, chance: float, seq: tuple[tuple[str, int] | None, ...]) -> None:
        if state.is_terminal():
            outcome = state.outcome()
            assert outcome is not None
            key = (sequences[0][seq[0]], sequences[1][seq[1]])
            payoff[key] = payoff.get(key, 0.0) + chance * outcome.returns[0]
            return
        if state.is_chance_node():
            for action, p in state.chance_outcomes():
                child = state.copy()
                child.apply(action)
                walk(child, chance * p, seq)
            return
        player = state.current_player()
        info = state.observation_string(player)
        infosets[player].setdefault(info, seq[player])
        for action in state.legal_actions():
            mine = (info, action)
            sequences[player].setdefault(mine, len(sequences[player]))
            child = state.copy()
            child.apply(action)
            walk(child, chance, (mine, seq[1]) if player == 0 else (seq[0], mine))

    walk(game.new_initial_state(), 1.0, (None, None))
    solver = pywraplp.Solver.CreateSolver("GLOP")
    if solver is None:  # pragma: no cover - GLOP ships with OR-Tools
        raise RuntimeError("OR-Tools has no GLOP solver")
    x = [solver.NumVar(0.0, 1.0, f"x{i}") for i in range(len(sequences[0]))]
    rows1 = [None, *infosets[1]]
    q = [solver.NumVar(-solver.infinity(), solver.infinity(), f"q{i}") for i in range(len(rows1))]
    solver.Add(x[0] == 1.0)
    actions_of: dict[str, list[Any]] = {}
    for key, i in sequences[0].items():
        if key is not None:
            actions_of.setdefault(key[0], []).append(x[i])
    for info, parent in infosets[0].items():
        solver.Add(sum(actions_of[info]) == x[sequences[0][parent]])
    column: dict[int, list[tuple[int, float]]] = {}
    for (s0, s1), value in payoff.items():
        column.setdefault(s1, []).append((s0, value))
    row_of = {info: k for k, info in enumerate(rows1)}
    for s1_key, s1 in sequences[1].items():
        terms: list[Any] = []
        if s1_key is None:
            terms.append(q[0])
        else:
            terms.append(q[row_of[s1_key[0]]])
        for info, parent in infosets[1].items():
            if parent == s1_key:
                terms.append(-q[row_of[info]])
        solver.Add(sum(terms) <= sum(v * x[s0] for s0, v in column.get(s1, [])))
    solver.Maximize(q[0])
    if solver.Solve() != pywraplp.Solver.OPTIMAL:  # pragma: no cover
        raise RuntimeError("the linear program has no optimal solution")
    return float(solver.Objective().Value())
