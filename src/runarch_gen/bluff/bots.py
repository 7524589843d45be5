"""Bluff's bots. Each one states its policy — the chance of each legal action given what its
player sees — so the exact solver can measure how far it is from equilibrium
(:mod:`.solver`); ``step`` draws from that policy with the bot's own generator.

- :class:`RandomBot` (``random``): every legal action alike.
- :class:`OddsBot` (``odds``): the chance that each bid holds from the binomial of the dice it
  cannot see (:mod:`.odds`); it doubts when the standing bid is less likely to hold than its
  best raise, and otherwise makes the lowest raise within :attr:`OddsBot.margin` of its best.
- :class:`BayesBot` (``bayes``): the same decisions, with each opponent's hidden hand weighed
  by the bids that opponent made (an opponent who bid a face more likely holds it).
- :class:`CfrBot` (``cfr``): when two players are left with dice the solver covers (one or
  two each), it plays the solved strategy of that one-round game (:mod:`.solver`); elsewhere
  it plays as ``bayes``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from functools import cache
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from runarch_gen.bluff.engine import DOUBT, REROLL, SHOW_BASE, BluffObservation, Phase
from runarch_gen.bluff.odds import tail_table
from runarch_gen.bluff.rules import BluffRules
from runarch_gen.play.bot import PolicyBot
from runarch_gen.play.bot import RandomBot as UniformBot
from runarch_gen.play.registry import BotFactory

__all__ = ["BOTS", "BayesBot", "BluffBot", "CfrBot", "OddsBot", "RandomBot", "solved_strategy"]

Policy = list[tuple[int, float]]


class BluffBot(PolicyBot[BluffObservation]):
    """A bot with an explicit policy: ``policy(observation, legal)`` lists (action, chance)."""

    def policy(self, observation: BluffObservation, legal: Sequence[int]) -> Policy:
        raise NotImplementedError


def reveal_matching(observation: BluffObservation, legal: Sequence[int]) -> int:
    """After its own bid (variant 2, [L-13]): reveal the hidden dice that count for the bid and
    re-roll the others, each of which may then count too; ``keep`` when every hidden die counts
    or none does."""
    rules = observation.rules
    face = rules.bids[observation.last].face
    star = rules.star
    counting = [d for d in observation.own if d == face or (face != star and d == star)]
    code = sum(int(10 ** (d - 1)) for d in counting)
    action = SHOW_BASE + code
    if counting and len(counting) < len(observation.own) and action in legal:
        return action
    return SHOW_BASE


def rank_face(rules: BluffRules, rank: int) -> int:
    """The face of the bid of ``rank``."""
    return _bid_lists(rules)[0][rank]


class RandomBot(UniformBot, BluffBot):
    """Every legal action with the same chance (the family's random bot), drawn with one
    ``rng.random()`` as Bluff's recorded games were."""

    def step(self, observation: BluffObservation, legal_actions: Sequence[int]) -> int:
        return legal_actions[int(self.rng.random() * len(legal_actions))]


class OddsBot(BluffBot):
    """Bids and doubts by the odds of what it sees."""

    name: ClassVar[str] = "odds"
    margin: ClassVar[float] = 0.05
    """Raises this close to the best one count as good enough; the lowest of them is made."""
    bluff: ClassVar[float] = 0.1
    """The share of decisions spread over every good-enough raise instead of the lowest."""

    def tails(self, observation: BluffObservation) -> dict[int, Sequence[float]]:
        """For each face, ``t[k]``: the chance that at least k hidden dice count for it."""
        rules = observation.rules
        hidden = observation.hidden_from_me
        number = tail_table(hidden, rules.faces, False)
        star = tail_table(hidden, rules.faces, True)
        return {f: (star if f == rules.star else number) for f in range(1, rules.sides + 1)}

    def reveal(self, observation: BluffObservation, legal: Sequence[int]) -> int:
        """What to reveal after its own bid: see :func:`reveal_matching`."""
        return reveal_matching(observation, legal)

    def face_tables(
        self, observation: BluffObservation, seen: Sequence[int], top: int
    ) -> list[list[float]]:
        """``t[f][q]``: the chance that the bid q × f holds, for q = 0 … ``top``, given the
        dice seen (``seen[f]`` count for f) and :meth:`tails`. The odds bot's tables depend
        only on the counts, so they are kept (at most :data:`TABLES_KEPT` of them)."""
        key = (id(observation.rules), observation.hidden_from_me, tuple(seen), top)
        kept = _TABLES.get(key)
        if kept is not None and kept[0] is observation.rules:
            return kept[1]
        tables = _face_tables(self.tails(observation), seen, top, observation.rules.sides)
        if len(_TABLES) >= TABLES_KEPT:
            _TABLES.clear()
        _TABLES[key] = (observation.rules, tables)
        return tables

    def policy(self, observation: BluffObservation, legal: Sequence[int]) -> Policy:
        if observation.phase == Phase.SHOW:
            return [(self.reveal(observation, legal), 1.0)]
        if observation.phase == Phase.CHOOSE:
            # [L-17] it revealed the dice backing its bid: the others are re-rolled, each may
            # come up counting
            return [(REROLL, 1.0)]
        rules = observation.rules
        faces, quantities, top = _bid_lists(rules)
        star = rules.star
        counts = [0] * (rules.sides + 1)
        for die in observation.visible():
            counts[die] += 1
        seen = [counts[f] + (counts[star] if f != star else 0) for f in range(rules.sides + 1)]
        by_face = self.face_tables(observation, seen, top)
        bids = [a for a in legal if a != DOUBT]
        if not bids:
            return [(DOUBT, 1.0)]
        first = bids[0] - 1
        if bids[-1] - bids[0] == len(bids) - 1:  # a run of ranks: read them in one sweep
            chances = [
                by_face[f][q]
                for f, q in zip(faces[first:], quantities[first : first + len(bids)], strict=False)
            ]
        else:
            chances = [by_face[faces[a - 1]][quantities[a - 1]] for a in bids]
        best = max(chances)
        last = observation.last
        if last >= 0 and 1.0 - by_face[faces[last]][quantities[last]] > best:
            return [(DOUBT, 1.0)]
        floor = best - self.margin
        good = [a for a, p in zip(bids, chances, strict=True) if p >= floor]
        lowest = good[0]
        if len(good) == 1 or self.bluff <= 0:
            return [(lowest, 1.0)]
        spread = self.bluff / len(good)
        return [(a, spread + (1.0 - self.bluff if a == lowest else 0.0)) for a in good]


TABLES_KEPT = 4096
_TABLES: dict[tuple[int, int, tuple[int, ...], int], tuple[BluffRules, list[list[float]]]] = {}


def _face_tables(
    tails: dict[int, Sequence[float]], seen: Sequence[int], top: int, sides: int
) -> list[list[float]]:
    tables: list[list[float]] = [[]]
    for f in range(1, sides + 1):
        table, have = tails[f], seen[f]
        size = len(table)
        tables.append(
            [
                1.0 if q <= have else (table[q - have] if q - have < size else 0.0)
                for q in range(top + 1)
            ]
        )
    return tables


_BID_LISTS: dict[int, tuple[BluffRules, list[int], list[int], int]] = {}


def _bid_lists(rules: BluffRules) -> tuple[list[int], list[int], int]:
    """Each bid's face and quantity in raise order, and the largest quantity (kept per rules
    object)."""
    entry = _BID_LISTS.get(id(rules))
    if entry is None or entry[0] is not rules:
        bids = rules.bids
        quantities = [b.quantity for b in bids]
        entry = (rules, [b.face for b in bids], quantities, max(quantities))
        _BID_LISTS[id(rules)] = entry
    return entry[1], entry[2], entry[3]


@cache
def _hand_table(size: int, sides: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Every sorted hand of ``size`` dice: its prior chance, and its count for each face
    (``counts[h, f-1]``: dice showing f or a star; for the star, stars only)."""
    hands = list(itertools.combinations_with_replacement(range(1, sides + 1), size))
    prior = np.empty(len(hands))
    counts = np.zeros((len(hands), sides), dtype=np.int64)
    for i, hand in enumerate(hands):
        ways = math.factorial(size)
        for _, group in itertools.groupby(hand):
            ways //= math.factorial(len(list(group)))
        prior[i] = ways / sides**size
        for f in range(1, sides + 1):
            counts[i, f - 1] = sum(1 for d in hand if d == f or (f != sides and d == sides))
    return prior, counts


class BayesBot(OddsBot):
    """Weighs each opponent's hidden hand by that opponent's bids before taking the odds."""

    name: ClassVar[str] = "bayes"
    weight: ClassVar[float] = 2.0
    """How much likelier a bid on a face is per die of that face the bidder holds."""
    kept: ClassVar[float] = 0.25
    """With show and re-roll: how likely a hand with some but not all dice backing a bid is,
    against one with none or all, when its bidder revealed nothing."""

    def face_tables(
        self, observation: BluffObservation, seen: Sequence[int], top: int
    ) -> list[list[float]]:
        # the tables depend on every opponent's bids: computed afresh
        return _face_tables(self.tails(observation), seen, top, observation.rules.sides)

    def tails(self, observation: BluffObservation) -> dict[int, Sequence[float]]:
        rules = observation.rules
        sides = rules.sides
        total: npt.NDArray[np.float64] = np.zeros((sides, 1))
        total[:, 0] = 1.0
        for q, held in enumerate(observation.dice):
            if q == observation.player or not held:
                continue
            size = held - len(observation.shown[q])
            if size <= 0:
                continue
            prior, counts = _hand_table(size, sides)
            weights = prior.copy()
            for bidder, rank in observation.bids:
                # an opponent who re-rolled: their bids no longer speak of the dice they now
                # hide [L-17]
                if bidder != q or observation.rerolled[q]:
                    continue
                column = counts[:, rank_face(rules, rank) - 1]
                if rules.reroll and size >= 2:
                    # [L-13] a bidder who could reveal the dice backing the bid and did not
                    # most likely holds none of them (or only them)
                    weights *= np.where((column == 0) | (column == size), 1.0, self.kept)
                else:
                    weights *= 1.0 + self.weight * column
            weights /= weights.sum()
            dist = np.zeros((sides, size + 1))
            for f in range(sides):
                dist[f] = np.bincount(counts[:, f], weights=weights, minlength=size + 1)
            total = np.array([np.convolve(total[f], dist[f]) for f in range(sides)])
        out: dict[int, Sequence[float]] = {}
        for f in range(sides):
            tail = np.cumsum(total[f][::-1])[::-1]
            out[f + 1] = [*tail.tolist(), 0.0]
        return out


SOLVED_DICE = ((1, 1), (1, 2), (2, 1), (2, 2))
"""The games of two players whose solved strategies ship with the package (default die and
scale): the opener's dice first."""
ON_DEMAND_BIDS = 14
"""Other rules: the one-die game is solved when first needed, if it has at most this many
bids (a second at most)."""
_SOLVED: dict[tuple[str, tuple[int, int]], tuple[Any, Any] | None] = {}


def solved_strategy(rules: BluffRules, dice: tuple[int, int]) -> tuple[Any, Any] | None:
    """``(small game, strategy)`` for two players with ``dice`` (opener first) under
    ``rules``: the strategy shipped in ``bluff/data`` (written by ``bluff solve --save``) when
    its game is this one, or for one die each a solve on first use; ``None`` otherwise. Kept
    for the process."""
    from runarch_gen.bluff.solver import SmallGame, solve

    game = SmallGame(rules, dice)
    key = (game.game_string(), dice)
    if key in _SOLVED:
        return _SOLVED[key]
    found: tuple[Any, Any] | None = None
    shipped = _shipped(dice)
    if shipped is not None and shipped.game == key[0] and shipped.dice == dice:
        found = (game, shipped)
    elif dice == (1, 1) and game.bids <= ON_DEMAND_BIDS:
        found = (game, solve(game, target=1e-3).strategy)
    _SOLVED[key] = found
    return found


def _shipped(dice: tuple[int, int]) -> Any:
    from importlib.resources import files

    from runarch_gen.bluff.strategy import strategy_from_bytes

    resource = files("runarch_gen.bluff") / "data" / f"cfr-{dice[0]}-{dice[1]}.npz"
    if not resource.is_file():
        return None
    return strategy_from_bytes(resource.read_bytes(), str(resource))


class CfrBot(BayesBot):
    """The solved strategy of the one-round game where two players are left with the dice it
    covers (:data:`SOLVED_DICE`); ``bayes`` elsewhere. A bid above the dice in play (a game
    without ``cap``) is doubted: it cannot hold."""

    name: ClassVar[str] = "cfr"

    def policy(self, observation: BluffObservation, legal: Sequence[int]) -> Policy:
        plan = self.solved(observation, legal)
        return plan if plan is not None else super().policy(observation, legal)

    def solved(self, observation: BluffObservation, legal: Sequence[int]) -> Policy | None:
        """The solved strategy's chances here, or ``None`` where it does not apply."""
        rules = observation.rules
        alive = [p for p, n in enumerate(observation.dice) if n]
        if observation.phase != Phase.BID or len(alive) != 2:
            return None
        if rules.reroll and max(observation.dice) >= 2:
            return None  # [L-13] the solved game has no show and re-roll
        opener = observation.opener
        other = alive[1] if alive[0] == opener else alive[0]
        dice = (observation.dice[opener], observation.dice[other])
        if dice not in SOLVED_DICE and dice != (1, 1):
            return None
        solved = solved_strategy(rules, dice)
        if solved is None:
            return None
        game, strategy = solved
        index = {rank: j for j, rank in enumerate(game.ranks)}
        made = [index.get(rank) for _, rank in observation.bids]
        if made and made[-1] is None:
            return [(DOUBT, 1.0)] if DOUBT in legal else None  # more dice than in play
        if any(j is None for j in made):
            return None
        mask = sum(1 << j for j in made if j is not None)
        role = 0 if observation.player == opener else 1
        if len(made) % 2 != role:
            return None
        hand = tuple(sorted(observation.own))
        try:
            hand_index = game.hands[role].index(hand)
        except ValueError:
            return None
        found = strategy.policy(role, mask, hand_index)
        if found is None:
            return None
        actions, chances = found
        plan = [
            (game.action_to_engine(a), float(c))
            for a, c in zip(actions, chances, strict=True)
            if c > 0
        ]
        plan = [(a, c) for a, c in plan if a in legal]
        total = sum(c for _, c in plan)
        if total <= 0:
            return None
        return [(a, c / total) for a, c in plan]


BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "odds": OddsBot,
    "bayes": BayesBot,
    "cfr": CfrBot,
}
"""The bots by name, as the registry lists them."""
