"""The exact solver of small games of Bluff: one round, two players, a few dice each.

The game (``docs/rules/bluff.md`` §6, the engine's ``bluff(players=2,single=on,cap=on,first=1)``
with ``dice`` per player): the players roll, player 1 opens, they raise in turn until one
doubts, and whoever was right wins (+1) and the other loses (−1). Bids are public, so the game
is a **public tree** of bid sequences in which each player knows only their own hand.
:func:`solve` runs CFR+ (regret matching+ with alternating updates and linearly weighted
averages; Tammelin 2014) on that tree with every hand of a player handled at once (numpy
vectors per node), and reports the game value and the exploitability of the average strategy
— half the sum of what a best response to each side wins, 0 exactly at an equilibrium.
:func:`exploitability` measures any policy the same way, a bot's included
(:func:`bot_strategy`).

:func:`solve_lp` solves the same game independently: the sequence-form linear program
(Koller, Megiddo and von Stengel 1996) over the engine's own states and observations, with
OR-Tools' GLOP. The two values agree, which the tests check on tiny games.

>>> tree = PublicTree(BluffRules(players=2, dice=1, faces=2, scale=parse_scale("1\\n*1\\n2")))
>>> tree.decision_nodes, tree.hands[0]
(32, ((1,), (2,), (3,)))
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from runarch_gen.bluff.engine import DOUBT, BluffGame, BluffObservation, BluffState, Phase
from runarch_gen.bluff.rules import BluffRules, parse_scale
from runarch_gen.errors import InputError

__all__ = [
    "MAX_NODES",
    "PublicTree",
    "SolveResult",
    "bot_strategy",
    "exploitability",
    "parse_scale",
    "small_rules",
    "solve",
    "solve_lp",
]

Array = npt.NDArray[np.float64]
MAX_NODES = 1 << 18
"""The largest public tree solved (bounded work): two players with one die each and the
default scale have 4,096 decision nodes (12 bids); one and two dice 262,144 (18 bids)."""


def small_rules(rules: BluffRules, dice: tuple[int, int]) -> BluffRules:
    """The one-round game of ``rules`` for two players with ``dice`` each, player 1 opening,
    bids capped at the dice in play [L-09, L-16]."""
    return replace(rules, players=2, dice=max(dice), single=True, cap=True, first=1)


def _hands(size: int, sides: int) -> tuple[tuple[tuple[int, ...], ...], Array]:
    hands = tuple(itertools.combinations_with_replacement(range(1, sides + 1), size))
    prior = np.empty(len(hands))
    for i, hand in enumerate(hands):
        ways = math.factorial(size)
        for _, group in itertools.groupby(hand):
            ways //= math.factorial(len(list(group)))
        prior[i] = ways / sides**size
    return hands, prior


class PublicTree:
    """Every bid sequence of the small game, in layers by depth (the player to act at depth d
    is d mod 2), with each layer's edges grouped by parent; terminals are doubts."""

    def __init__(self, rules: BluffRules, dice: tuple[int, int] | None = None) -> None:
        sizes = dice or (rules.dice_per_player, rules.dice_per_player)
        self.rules = rules
        self.dice = sizes
        sides = rules.sides
        self.hands: list[tuple[tuple[int, ...], ...]] = []
        self.prior: list[Array] = []
        for size in sizes:
            hands, prior = _hands(size, sides)
            self.hands.append(hands)
            self.prior.append(prior)
        total = sum(sizes)
        self.bids = list(rules.bids)
        allowed = [r for r, b in enumerate(self.bids) if b.quantity <= total] or list(
            range(len(self.bids))
        )
        if len(allowed) > 18:
            raise InputError(
                f"the small game has {len(allowed)} bids to choose from: at most 18 are solved"
                f" (2^18 bid sequences)"
            )
        # holds[r][h0, h1]: whether bid r holds for these hands
        star = rules.star
        count = [
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
        self.holds: dict[int, Array] = {}
        for r in allowed:
            bid = self.bids[r]
            c0 = count[0][:, bid.face - 1][:, None]
            c1 = count[1][:, bid.face - 1][None, :]
            self.holds[r] = np.where(c0 + c1 >= bid.quantity, 1.0, -1.0)
        # nodes: the bid sequence of each decision node, by layer
        self.layers: list[list[tuple[int, ...]]] = [[()]]
        while True:
            nxt: list[tuple[int, ...]] = []
            for seq in self.layers[-1]:
                last = seq[-1] if seq else -1
                nxt += [(*seq, r) for r in allowed if r > last]
            if not nxt:
                break
            self.layers.append(nxt)
        self.decision_nodes = sum(len(layer) for layer in self.layers)
        if self.decision_nodes > MAX_NODES:
            raise InputError(f"the small game has {self.decision_nodes} nodes, over {MAX_NODES}")
        # edges of layer d: parent index in layer d, the action (DOUBT or 1 + rank), and the
        # child index in layer d + 1 (−1 for a doubt)
        self.edges: list[tuple[npt.NDArray[np.int64], list[int], npt.NDArray[np.int64]]] = []
        self.starts: list[npt.NDArray[np.int64]] = []
        self.doubts: list[tuple[npt.NDArray[np.int64], list[int]]] = []
        for depth, layer in enumerate(self.layers):
            index = (
                {seq: i for i, seq in enumerate(self.layers[depth + 1])}
                if depth + 1 < len(self.layers)
                else {}
            )
            parents: list[int] = []
            actions: list[int] = []
            children: list[int] = []
            starts: list[int] = []
            doubt_edges: list[int] = []
            doubt_ranks: list[int] = []
            for i, seq in enumerate(layer):
                starts.append(len(parents))
                last = seq[-1] if seq else -1
                if seq:
                    doubt_edges.append(len(parents))
                    doubt_ranks.append(last)
                    parents.append(i)
                    actions.append(DOUBT)
                    children.append(-1)
                for r in allowed:
                    if r > last:
                        parents.append(i)
                        actions.append(1 + r)
                        children.append(index[(*seq, r)])
            self.edges.append((np.array(parents), actions, np.array(children)))
            self.starts.append(np.array(starts))
            self.doubts.append((np.array(doubt_edges, dtype=np.int64), doubt_ranks))

    @property
    def edge_count(self) -> int:
        return sum(len(e[1]) for e in self.edges)

    def uniform(self) -> list[Array]:
        """The uniform strategy: per layer, per edge, per hand of the player to act."""
        out = []
        for depth, (parents, _, _) in enumerate(self.edges):
            sizes = np.diff(np.append(self.starts[depth], len(parents)))
            share = 1.0 / sizes[parents]
            out.append(np.repeat(share[:, None], len(self.hands[depth % 2]), axis=1))
        return out

    def reaches(self, strategy: Sequence[Array]) -> list[list[Array]]:
        """``reach[p][d][node, hand]``: each player's own chance of playing to each node of
        layer d, their hand's prior included."""
        reach: list[list[Array]] = [
            [self.prior[0][None, :].copy()],
            [self.prior[1][None, :].copy()],
        ]
        for depth in range(len(self.layers) - 1):
            parents, _, children = self.edges[depth]
            moving = children >= 0
            actor = depth % 2
            for p in (0, 1):
                parent_reach = reach[p][depth][parents[moving]]
                if p == actor:
                    parent_reach = parent_reach * strategy[depth][moving]
                nxt = np.zeros((len(self.layers[depth + 1]), len(self.hands[p])))
                nxt[children[moving]] = parent_reach  # one edge per child in a tree
                reach[p].append(nxt)
        return reach

    def values(
        self, player: int, strategy: Sequence[Array], reach_other: Sequence[Array], best: bool
    ) -> list[Array]:
        """Counterfactual values of ``player``'s hands at every node (per layer), against the
        other's reach; at ``player``'s own nodes the strategy's mix, or with ``best`` the best
        action per hand (a best response)."""
        values: list[Array] = [np.zeros(0)] * len(self.layers)
        for depth in range(len(self.layers) - 1, -1, -1):
            actor = depth % 2
            edge_values = self.edge_values(player, values, reach_other, depth, strategy)
            starts = self.starts[depth]
            if actor == player and best:
                values[depth] = np.maximum.reduceat(edge_values, starts, axis=0)
            elif actor == player:
                values[depth] = np.add.reduceat(edge_values * strategy[depth], starts, axis=0)
            else:
                values[depth] = np.add.reduceat(edge_values, starts, axis=0)
        return values

    def edge_values(
        self,
        player: int,
        values: Sequence[Array],
        reach_other: Sequence[Array],
        depth: int,
        strategy: Sequence[Array],
    ) -> Array:
        """The values of the edges of layer ``depth`` for ``player`` (children's values, or the
        doubt's payoff; the other player's reach includes their own doubt)."""
        parents, _, children = self.edges[depth]
        out = np.zeros((len(parents), len(self.hands[player])))
        moving = children >= 0
        if depth + 1 < len(self.layers):
            out[moving] = values[depth + 1][children[moving]]
        doubt_edges, ranks = self.doubts[depth]
        if len(doubt_edges):
            other = reach_other[depth][parents[doubt_edges]]
            if depth % 2 != player:
                other = other * strategy[depth][doubt_edges]
            holds = np.stack([self.holds[r] for r in ranks])
            sign = 1.0 if (1 - depth % 2) == player else -1.0
            if player == 0:
                out[doubt_edges] = sign * np.einsum("kab,kb->ka", holds, other)
            else:
                out[doubt_edges] = sign * np.einsum("kab,ka->kb", holds, other)
        return out


def _regret_matching(
    regret: Array, parents: npt.NDArray[np.int64], starts: npt.NDArray[np.int64]
) -> Array:
    positive = np.maximum(regret, 0.0)
    sums = np.add.reduceat(positive, starts, axis=0)[parents]
    counts = np.diff(np.append(starts, len(parents)))[parents][:, None]
    return np.where(sums > 0, positive / np.where(sums > 0, sums, 1.0), 1.0 / counts)


def exploitability(tree: PublicTree, strategy: Sequence[Array]) -> tuple[float, float]:
    """``(value, exploitability)`` of a strategy profile: player 1's expected return when both
    sides play it, and half the sum of what a best response to each side gains (≥ 0; 0 only
    at an equilibrium)."""
    reach = tree.reaches(strategy)
    value0 = float(tree.values(0, strategy, reach[1], best=False)[0][0] @ tree.prior[0])
    best0 = float(tree.values(0, strategy, reach[1], best=True)[0][0] @ tree.prior[0])
    best1 = float(tree.values(1, strategy, reach[0], best=True)[0][0] @ tree.prior[1])
    return value0, (best0 + best1) / 2


@dataclass(frozen=True, slots=True)
class SolveResult:
    """What :func:`solve` found."""

    value: float
    """Player 1's (the opener's) expected return at the average strategy."""
    exploitability: float
    iterations: int
    seconds: float
    strategy: tuple[Array, ...]
    history: tuple[tuple[int, float], ...]
    """(iteration, exploitability) at each check."""

    def to_json(self) -> dict[str, Any]:
        return {
            "value": round(self.value, 6),
            "exploitability": round(self.exploitability, 6),
            "iterations": self.iterations,
            "seconds": round(self.seconds, 3),
            "history": [{"iteration": i, "exploitability": round(e, 6)} for i, e in self.history],
        }


def solve(
    tree: PublicTree,
    *,
    target: float = 0.001,
    max_iterations: int = 20_000,
    check_every: int = 50,
    on_check: Callable[[int, float], None] | None = None,
) -> SolveResult:
    """CFR+ until the average strategy's exploitability is below ``target`` (or
    ``max_iterations``); deterministic."""
    started = time.perf_counter()
    regrets = [np.zeros_like(s) for s in tree.uniform()]
    totals = [np.zeros_like(s) for s in regrets]
    history: list[tuple[int, float]] = []
    average = tree.uniform()
    value, gap = exploitability(tree, average)
    iteration = 0
    while iteration < max_iterations and gap >= target:
        iteration += 1
        for player in (0, 1):
            strategy = [
                _regret_matching(regrets[d], tree.edges[d][0], tree.starts[d])
                for d in range(len(tree.layers))
            ]
            reach = tree.reaches(strategy)
            values = tree.values(player, strategy, reach[1 - player], best=False)
            for depth in range(player, len(tree.layers), 2):
                parents = tree.edges[depth][0]
                gain = (
                    tree.edge_values(player, values, reach[1 - player], depth, strategy)
                    - values[depth][parents]
                )
                regrets[depth] = np.maximum(regrets[depth] + gain, 0.0)
                totals[depth] += iteration * reach[player][depth][parents] * strategy[depth]
        if iteration % check_every == 0 or iteration == max_iterations:
            average = [_normalise(totals[d], tree, d) for d in range(len(tree.layers))]
            value, gap = exploitability(tree, average)
            history.append((iteration, gap))
            if on_check is not None:
                on_check(iteration, gap)
    return SolveResult(
        value, gap, iteration, time.perf_counter() - started, tuple(average), tuple(history)
    )


def _normalise(total: Array, tree: PublicTree, depth: int) -> Array:
    parents, starts = tree.edges[depth][0], tree.starts[depth]
    sums = np.add.reduceat(total, starts, axis=0)[parents]
    counts = np.diff(np.append(starts, len(parents)))[parents][:, None]
    return np.where(sums > 0, total / np.where(sums > 0, sums, 1.0), 1.0 / counts)


def bot_strategy(tree: PublicTree, make_bot: Callable[[random.Random], Any]) -> list[Array]:
    """A bot's policy (its ``policy(observation, legal)``) at every node of ``tree`` for every
    hand, as a strategy of the tree; the bot sees what its player would see."""
    rules = tree.rules
    bot = make_bot(random.Random(0))
    strategy = []
    for depth, layer in enumerate(tree.layers):
        actor = depth % 2
        parents, actions, _ = tree.edges[depth]
        starts = [*list(tree.starts[depth]), len(parents)]
        out = np.zeros((len(parents), len(tree.hands[actor])))
        for i, seq in enumerate(layer):
            lo, hi = starts[i], starts[i + 1]
            legal = actions[lo:hi]
            bids = tuple((k % 2, r) for k, r in enumerate(seq))
            for h, hand in enumerate(tree.hands[actor]):
                seen = BluffObservation(
                    actor,
                    rules,
                    tree.dice,
                    hand,
                    ((), ()),
                    bids,
                    (False, False),
                    Phase.BID,
                    actor,
                    0,
                    1,
                    (),
                )
                chances = dict(bot.policy(seen, legal))
                out[lo:hi, h] = [chances.get(a, 0.0) for a in legal]
        strategy.append(out)
    return strategy


def solve_lp(rules: BluffRules) -> float:
    """The value for player 1 of the small game ``rules`` (see :func:`small_rules`), by the
    sequence-form linear program over the engine's states; infosets are the engine's
    observation strings. Meant for tiny games (it walks every state)."""
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
    # q: one free variable per constraint row of player 2's plan (the root and each infoset)
    rows1 = [None, *infosets[1]]
    q = [solver.NumVar(-solver.infinity(), solver.infinity(), f"q{i}") for i in range(len(rows1))]
    solver.Add(x[0] == 1.0)
    actions_of: dict[str, list[Any]] = {}
    for key, i in sequences[0].items():
        if key is not None:
            actions_of.setdefault(key[0], []).append(x[i])
    for info, parent in infosets[0].items():
        solver.Add(sum(actions_of[info]) == x[sequences[0][parent]])
    # F^T q <= A^T x, one row per sequence of player 2
    column: dict[int, list[tuple[int, float]]] = {}
    for (s0, s1), value in payoff.items():
        column.setdefault(s1, []).append((s0, value))
    row_of = {info: k for k, info in enumerate(rows1)}
    for s1_key, s1 in sequences[1].items():
        terms: list[Any] = []
        if s1_key is None:
            terms.append(q[0])  # the root row: y(root) = 1
        else:
            terms.append(q[row_of[s1_key[0]]])  # the row of the infoset it leaves
        for info, parent in infosets[1].items():
            if parent == s1_key:
                terms.append(-q[row_of[info]])  # rows of the infosets it leads to
        solver.Add(sum(terms) <= sum(v * x[s0] for s0, v in column.get(s1, [])))
    solver.Maximize(q[0])
    if solver.Solve() != pywraplp.Solver.OPTIMAL:  # pragma: no cover
        raise RuntimeError("the linear program has no optimal solution")
    return float(solver.Objective().Value())
