"""Bots for Vrhcáby: ``random``, ``heuristic`` (pip count, blots, points, primes, race
awareness; Thorp's count for the cube in a race), ``td`` (the learned evaluator at 1-ply,
cube by Janowski in money play and by the computed match equity table in match play) and
``td2`` (the same evaluator looking one roll deeper).

Every bot sees only its :class:`~.engine.View` and the legal actions.

>>> import random
>>> from runarch_gen.backgammon.engine import BackgammonGame
>>> from runarch_gen.play.bot import play_out
>>> state = BackgammonGame().new_initial_state()
>>> outcome = play_out(state, [HeuristicBot(random.Random(1)), RandomBot(random.Random(2))],
...                    random.Random(3))
>>> outcome.termination.value in ("single", "gammon", "backgammon", "dropped")
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from runarch_gen.backgammon.board import BAR, OFF, Play, Side, legal_plays
from runarch_gen.backgammon.cube import match_winning_chance, money_cube_action, thorp_count
from runarch_gen.backgammon.engine import (
    ACCEPT,
    BEAVER,
    DOUBLE,
    DROP,
    RACCOON,
    REJECT,
    ROLL,
    TAKE,
    Phase,
    View,
)
from runarch_gen.backgammon.evaluator import contact, equity, load_network
from runarch_gen.backgammon.odds import HIT_CHANCE
from runarch_gen.play.bot import Bot
from runarch_gen.play.registry import BotFactory

if TYPE_CHECKING:
    from runarch_gen.backgammon.cube import CubeContext

__all__ = [
    "BOTS",
    "HeuristicBot",
    "NeuralBot",
    "NeuralDeepBot",
    "RandomBot",
    "TDBot",
    "TDDeepBot",
    "heuristic_score",
]


def _plays_by_action(view: View, legal: Sequence[int]) -> list[tuple[int, Play]]:
    if len(view.legal) == len(legal):
        return list(view.legal)
    wanted = set(legal)
    return [(a, p) for a, p in view.legal if a in wanted]


class _CubeBot(Bot[View]):
    """Shared flow: cube and resignation nodes go to :meth:`cube`, plays to :meth:`choose`."""

    def step(self, observation: View, legal_actions: Sequence[int]) -> int:
        phase = observation.phase
        if phase is Phase.MOVE:
            pairs = _plays_by_action(observation, legal_actions)
            return pairs[self.choose(observation, [p for _, p in pairs])][0]
        if phase is Phase.RESIGNED:
            return REJECT if REJECT in legal_actions else legal_actions[0]
        decision = self.cube(observation, legal_actions)
        return decision if decision in legal_actions else legal_actions[0]

    def choose(self, view: View, plays: list[Play]) -> int:
        raise NotImplementedError

    def cube(self, view: View, legal: Sequence[int]) -> int:
        if view.phase is Phase.PRE_ROLL:
            return ROLL
        return TAKE


class RandomBot(_CubeBot):
    """Any legal play at random; never doubles or resigns, takes every double."""

    name = "random"

    def choose(self, view: View, plays: list[Play]) -> int:
        return self.rng.randrange(len(plays))


def _shot_chance(me: Side, you: Side, point: int) -> float:
    """Rough chance that the opponent hits my blot on my ``point``: the best single shooter."""
    target = BAR - point  # the opponent's numbering
    best = 0.0
    for start in range(target + 1, BAR + 1):
        if you[start]:
            distance = start - target
            if distance <= 24:
                best = max(best, HIT_CHANCE.get(distance, 0.0))
    return best


def heuristic_score(me: Side, you: Side) -> float:
    """How good a position is for ``me`` just after my play (the opponent to roll)."""
    if not contact(me, you):
        # race: fewer pips, more checkers off, no checkers stacked far back
        pips = sum(p * n for p, n in enumerate(me))
        return -pips + 2.0 * me[OFF] - 0.5 * sum(me[7:])
    score = 0.0
    my_pips = sum(p * n for p, n in enumerate(me))
    your_pips = sum(p * n for p, n in enumerate(you))
    score += 0.08 * (your_pips - my_pips)
    score += 3.0 * you[BAR]
    for point in range(1, 25):
        count = me[point]
        if count >= 2:
            weight = 2.0 if point <= 6 else (1.5 if point in (7, 8, 9) else 0.6)
            if point in (5, 7, 4):
                weight += 1.0
            if point >= 19:
                weight = 1.2  # an anchor in the opponent's home board
            score += weight
            score -= 0.15 * max(count - 3, 0)
        elif count == 1:
            score -= 4.0 * _shot_chance(me, you, point) * (0.5 + point / 24.0)
    run = best = 0
    for point in range(1, 13):
        run = run + 1 if me[point] >= 2 else 0
        best = max(best, run)
    score += 0.8 * best * best / 2.0
    return score


class HeuristicBot(_CubeBot):
    """Pip count, blots at risk, points made (home, bar and golden points), primes, anchors;
    a pure race plays to bear off fastest. Doubles, takes and drops in a race by Thorp's count;
    in contact never doubles and always takes."""

    name = "heuristic"

    def choose(self, view: View, plays: list[Play]) -> int:
        scores = [heuristic_score(p.mover, p.other) for p in plays]
        return max(range(len(plays)), key=lambda i: (scores[i], -i))

    def cube(self, view: View, legal: Sequence[int]) -> int:
        if contact(view.me, view.you):
            return ROLL if view.phase is Phase.PRE_ROLL else TAKE
        if view.phase is Phase.PRE_ROLL:
            # Thorp: double when the leader's count is at most 2 above the trailer's (a
            # redouble: 1)
            mine = thorp_count(view.me, leader=True)
            theirs = thorp_count(view.you, leader=False)
            limit = 2 if view.cube_owner == -1 else 1
            return DOUBLE if mine - theirs <= limit else ROLL
        # as taker: the doubler is the opponent, the leader
        theirs = thorp_count(view.you, leader=True)
        mine = thorp_count(view.me, leader=False)
        return TAKE if theirs - mine >= -2 else DROP


MATCH_WINDOW = 0.04
"""How close to his take point the opponent must be before the learned bot doubles in a match."""


class TDBot(_CubeBot):
    """The learned evaluator at 1-ply: every play's resulting position is evaluated from the
    opponent's side and the play best for the mover (cubeless equity) is chosen. Cube
    decisions by Janowski's cubeful equity in money play [V-37], by the computed match
    equity table in match play [V-44]."""

    name = "td"

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.net = load_network()

    def choose(self, view: View, plays: list[Play]) -> int:
        if len(plays) == 1:
            return 0
        out = self.net.evaluate([(p.other, p.mover) for p in plays])
        return int(np.argmax(-equity(out)))

    def _chances(self, mover: Side, other: Side) -> tuple[float, float, float]:
        """(win, extra points from wins, extra points from losses) per game: a gammon adds
        one point, a backgammon two."""
        win, wg, wbg, lg, lbg = (float(v) for v in self.net.evaluate([(mover, other)])[0])
        return win, min(wg + wbg, 2 * win), min(lg + lbg, 2 * (1.0 - win))

    def cube(self, view: View, legal: Sequence[int]) -> int:
        if view.phase is Phase.PRE_ROLL:
            if DOUBLE not in legal:
                return ROLL
            p, wg, lg = self._chances(view.me, view.you)
            return DOUBLE if self._should_double(view, (p, wg, lg)) else ROLL
        # answering: the opponent doubled and is on roll
        q, wg, lg = self._chances(view.you, view.me)
        mine = (1.0 - q, lg, wg)
        if view.phase is Phase.DOUBLED:
            take = self._should_take(view, mine)
            if take and BEAVER in legal and self._money_equity(mine, view, owner=0) > 0.0:
                return BEAVER
            return TAKE if take else DROP
        if view.phase is Phase.BEAVERED:
            if RACCOON in legal and self._money_equity(mine, view, owner=1) > 0.0:
                return RACCOON
            return TAKE
        return ACCEPT if ACCEPT in legal else legal[0]

    @staticmethod
    def _values(chances: tuple[float, float, float]) -> tuple[float, float, float]:
        p, wg, lg = chances
        win = 1.0 + (wg / p if p > 1e-9 else 0.0)
        loss = 1.0 + (lg / (1.0 - p) if p < 1.0 - 1e-9 else 0.0)
        return p, win, loss

    def _money_equity(self, chances: tuple[float, float, float], view: View, owner: int) -> float:
        from runarch_gen.backgammon.cube import cubeful_equity

        p, win, loss = self._values(chances)
        return cubeful_equity(p, win, loss, owner)

    def _should_double(self, view: View, chances: tuple[float, float, float]) -> bool:
        if view.match:
            away = (view.match - view.score[0], view.match - view.score[1])
            keep = match_winning_chance(chances, away, view.cube, view.match)
            taken = match_winning_chance(chances, away, 2 * view.cube, view.match)
            from runarch_gen.backgammon.cube import met

            table = met(view.match)
            dropped = 1.0 if away[0] - view.cube <= 0 else table[away[0] - view.cube][away[1]]
            # The table is cubeless: it sees no value in keeping the cube, so alone it would
            # double at any edge. Double only near the opponent's take point (his take worth
            # less than MATCH_WINDOW of match winning chance over his drop), as a live cube
            # would ([V-44]).
            return min(taken, dropped) > keep and dropped - taken < MATCH_WINDOW
        p, win, loss = self._values(chances)
        jacoby = view.rules.jacoby_applies and view.cube_owner == -1
        double, _ = money_cube_action(p, win, loss, view.cube_owner, jacoby)
        return double

    def _should_take(self, view: View, mine: tuple[float, float, float]) -> bool:
        if view.match:
            away = (view.match - view.score[0], view.match - view.score[1])
            taken = match_winning_chance(mine, away, 2 * view.cube, view.match)
            from runarch_gen.backgammon.cube import met

            table = met(view.match)
            dropped = 0.0 if away[1] - view.cube <= 0 else table[away[0]][away[1] - view.cube]
            return taken >= dropped
        _p, _win, _loss = self._values(mine)
        return 2.0 * self._money_equity(mine, view, owner=0) >= -1.0


class TDDeepBot(TDBot):
    """The learned evaluator at 2-ply: the best few plays at 1-ply are looked at again by
    averaging, over the opponent's 21 rolls, the position after the opponent's best reply
    (chosen at 1-ply), weighted by the rolls' chances."""

    name = "td2"
    candidates = 3

    def choose(self, view: View, plays: list[Play]) -> int:
        if len(plays) == 1:
            return 0
        first = -equity(self.net.evaluate([(p.other, p.mover) for p in plays]))
        order = sorted(range(len(plays)), key=lambda i: -first[i])[: self.candidates]
        best, best_value = order[0], -np.inf
        for index in order:
            play = plays[index]
            value = self._after_replies(play.other, play.mover)
            if value > best_value:
                best, best_value = index, value
        return best

    def _after_replies(self, opponent: Side, me: Side) -> float:
        """My expected cubeless equity once the opponent (on roll) has played his best."""
        total = 0.0
        for high in range(1, 7):
            for low in range(1, high + 1):
                weight = (1 if high == low else 2) / 36
                replies = legal_plays(opponent, me, high, low, self.rules_egyptian)
                if not replies:
                    total += weight * float(equity(self.net.evaluate([(me, opponent)]))[0])
                    continue
                # the opponent picks the reply that is worst for me (I am on roll after it)
                values = equity(self.net.evaluate([(r.other, r.mover) for r in replies]))
                total += weight * float(values.min())
        return total

    rules_egyptian = False

    def step(self, observation: View, legal_actions: Sequence[int]) -> int:
        self.rules_egyptian = observation.rules.egyptian
        return super().step(observation, legal_actions)


class NeuralBot(_CubeBot):
    """The strong evaluator (contact and race networks, the bear-off database) choosing the
    play best at 1-ply; cube decisions from its chances before the roll (averaged over the
    21 rolls): Janowski's cubeful equity in money play [V-37], the match equity table's
    cubeful match winning chances in match play [V-44]."""

    name = "neural"
    plies = 1

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        from runarch_gen.backgammon.nets import load_evaluator

        self.evaluator = load_evaluator()

    def choose(self, view: View, plays: list[Play]) -> int:
        if len(plays) == 1:
            return 0
        from runarch_gen.backgammon.search import rank_plays

        ranked = rank_plays(
            self.evaluator, view.me, view.you, view.dice, self.plies, view.rules.egyptian
        )
        best = ranked[0].play.key
        return next(i for i, p in enumerate(plays) if p.key == best)

    def _context(self, view: View, doubler_is_me: bool) -> CubeContext:
        from runarch_gen.backgammon.cube import CubeContext

        owner = (
            view.cube_owner
            if doubler_is_me
            else (-1 if view.cube_owner < 0 else 1 - view.cube_owner)
        )
        mine = (view.match - view.score[0], view.match - view.score[1]) if view.match else (0, 0)
        away = mine if doubler_is_me else (mine[1], mine[0])
        return CubeContext(
            cube=view.cube,
            owner=owner,
            match=view.match,
            away=away,
            crawford=view.crawford,
            jacoby=view.rules.jacoby_applies and view.cube_owner == -1,
        )

    def cube(self, view: View, legal: Sequence[int]) -> int:
        from runarch_gen.backgammon.cube import cube_decision
        from runarch_gen.backgammon.search import position_chances

        egyptian = view.rules.egyptian
        if view.phase is Phase.PRE_ROLL:
            if DOUBLE not in legal:
                return ROLL
            chances = position_chances(self.evaluator, view.me, view.you, 1, egyptian)
            decision = cube_decision(chances, self._context(view, doubler_is_me=True))
            return DOUBLE if decision.double else ROLL
        if view.phase is Phase.DOUBLED:
            # the doubler (the opponent) is on roll: his decision tells whether to take
            chances = position_chances(self.evaluator, view.you, view.me, 1, egyptian)
            decision = cube_decision(chances, self._context(view, doubler_is_me=False))
            if not decision.take:
                return DROP
            if BEAVER in legal and decision.double_take < 0.0:
                return BEAVER  # [V-33] the taker is the favourite after the take
            return TAKE
        if view.phase is Phase.BEAVERED:
            return TAKE
        return ACCEPT if ACCEPT in legal else legal[0]


class NeuralDeepBot(NeuralBot):
    """:class:`NeuralBot` with the 2-ply search (the opponent's 21 replies to the best plays
    at 1-ply): the bot ``hint`` and ``analyze`` use by default."""

    name = "neural2"
    plies = 2


BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "td": TDBot,
    "td2": TDDeepBot,
    "neural": NeuralBot,
    "neural2": NeuralDeepBot,
}
"""The registered bots by name."""
