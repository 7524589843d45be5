"""The lookahead bot: greedy's knowledge, but it searches its whole move, values targets by
points per turn, weighs what a scored card brings besides its points, and bets and draws
for the public goals.

- **Points per turn.** Greedy builds the cheapest line to the minimum. This bot values each
  of the cheapest few targets of each card in hand at every level it could be built to (from
  the minimum to 10 pattern points): the card score over one plus the potential at that
  level, each step taken to cost :attr:`LookaheadBot.STEP` turns — so it builds a 9 or a 10
  when that costs little more than a 6.
- **The whole move.** It tries every swap that brings a stone one of those targets wants
  closer; in movement phase 3+ also, after each of the best first swaps, every second
  adjacent swap [R-06]: double swaps and jump swaps are judged as whole moves, by the best
  target value after them.
- **What a card brings.** Among the evaluations that pass it weighs, besides the card score:
  the bet tokens it wins at once — a face-up condition the new archive counts meet [R-02], a
  frame token under the new total (§6.1) —, where the card is filed, and whether a milestone
  passed now raises the minimum beyond what the current movement phase can reach (which would
  stop this side from scoring until the opponent moves on, [R-16]).
- **Bets on goals.** A bet token goes where its expected value is best (§6.3), with the
  chance of meeting a public goal estimated from the match areas still missing: a binomial
  tail for a colour or a shape count, the product of both for a goal with the two, a short
  chain for different colours or shapes. Draws favour every public goal still open to a bet,
  not only those it bet on — a token won later pays most on a goal already met —, but never a
  match area no archive takes.

In the simple game it clearly beats greedy by its moves. In the complex game moves matter
less — both bots score about as many cards — and its edge comes mostly from the bets on
public goals: it won 58.4 % and 59.9 % of 1,000 games against greedy on the sets of seeds 5
and 7 (sign test p < 1e-7; see docs/guide/playtesting.md). It costs a few times more
per turn than greedy.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

from runarch_gen.runarch.atoms import SIZE
from runarch_gen.runarch.bots.base import mypyc_attr
from runarch_gen.runarch.bots.greedy import JUMP, NOT_SECOND_MASK, GreedyBot
from runarch_gen.runarch.bots.planning import (
    Position,
    Prepared,
    SideView,
    Target,
    combine_total,
    goal_shortfall,
    knowledge,
    pairs_mask,
    pairs_of_mask,
)
from runarch_gen.runarch.counts import CARDS_TO_END, MILESTONES
from runarch_gen.runarch.decks.cards import Goal, GoalKind
from runarch_gen.runarch.engine.actions import (
    BET_BASE,
    N_ARCHIVE_SPOTS,
    decode_evaluation,
    encode_evaluation,
)
from runarch_gen.runarch.engine.observation import RunArchObservation
from runarch_gen.runarch.engine.setup import FRAME_COVER, GOLD, frame_space
from runarch_gen.runarch.engine.tables import MAX_PATTERN_POINTS, PAIR_A, PAIR_B, PAIR_KIND

_LEVELS_ABOVE_5 = tuple(range(SIZE + 1, MAX_PATTERN_POINTS + 1))  # 6 … 10 pattern points
UNPLAYABLE = -2.0  # how welcome a drawn card is that no archive takes


class GoalView(SideView):
    """A :class:`SideView` that never draws for a goal with a card no archive takes: the
    archives only ever take fewer match areas [R-11], so such a card stays in hand for good."""

    __slots__ = ()

    def match_values(self) -> list[float]:
        taken = self.taken()
        return [
            value if taken >> m & 1 else UNPLAYABLE
            for m, value in enumerate(super().match_values())
        ]


@mypyc_attr(allow_interpreted_subclasses=True)
class LookaheadBot(GreedyBot):
    """Searches whole moves and values scored cards fully; see the module docstring."""

    name = "lookahead"
    WATCHED_PER_CARD = 3  # targets watched per card in hand
    BEAM = 4  # first swaps tried with every second swap
    TOKEN_GOLD = 8.0  # what a gold bet token is worth, in points
    TOKEN_SILVER = 5.0
    STUCK_PENALTY = 15.0  # a milestone whose minimum no line reaches in this phase
    FILING_WEIGHT = 0.5
    STEP = 2.0  # turns one step of potential is taken to cost, when weighing levels
    HELP_RATE = 1.25  # how much likelier a card helping a goal is archived (chosen draws)

    def __init__(self, rng: object) -> None:
        super().__init__(rng)
        self._second: int | None = None

    def step(self, observation: RunArchObservation, legal_actions: Sequence[int]) -> int:
        """Greedy's step, with this bot's own bet placement."""
        if legal_actions[0] >= BET_BASE:
            return self.choose_bet(observation, legal_actions)
        return super().step(observation, legal_actions)

    # -- betting ---------------------------------------------------------------------------
    def choose_bet(self, observation: RunArchObservation, legal_actions: Sequence[int]) -> int:
        """The bet spot with the best expected value (§6.2, §6.3): archive spots as greedy
        values them, public goals from :meth:`goal_chance`."""
        view = SideView(observation)
        pending = observation.pending_bets
        gold = bool(pending and pending[0] == 1)
        stake = max(observation.bests[observation.player], 9)
        win = stake if gold else (stake + 1) // 2
        archived = [m for held in view.archives for m in held]
        cards = observation.game.cards
        best, best_value = legal_actions[0], -1e9
        for action in legal_actions:
            spot = action - BET_BASE
            if spot < N_ARCHIVE_SPOTS:
                value = view.bet_value(spot, gold, stake, None)
            else:
                goal = cards[observation.public_goals[spot - N_ARCHIVE_SPOTS]].goal
                chance = self.goal_chance(goal, archived, view.remaining())
                value = chance * (win + goal.reward) - (1 - chance) * stake
            if value > best_value + 1e-9:
                best, best_value = action, value
        return best

    def goal_chance(self, goal: Goal, archived: Sequence[int], remaining: int) -> float:
        """The chance of meeting ``goal`` (§7) with ``remaining`` more archived cards, each
        taken to help with :attr:`HELP_RATE` times the share of match areas that help: for a
        colour and a shape count the product of their chances (:meth:`count_chance`), for
        different colours or shapes :meth:`variety_chance`."""
        short = goal_shortfall(goal, archived)
        if short == 0:
            return 1.0  # goals count "at least": met once, met for good
        if short > remaining:
            return 0.0
        if goal.kind is GoalKind.COLOURS or goal.kind is GoalKind.SHAPES:
            colours = goal.kind is GoalKind.COLOURS
            had = {m // SIZE if colours else m % SIZE for m in archived}
            return self.variety_chance(SIZE - len(had), short, remaining)
        chance = 1.0  # a colour count and a shape count: both must be met
        if goal.colour is not None:
            have = sum(m // SIZE == goal.colour for m in archived)
            chance *= self.count_chance(goal.colour_count - have, remaining)
        if goal.shape is not None:
            have = sum(m % SIZE == goal.shape for m in archived)
            chance *= self.count_chance(goal.shape_count - have, remaining)
        return chance

    def count_chance(self, short: int, remaining: int) -> float:
        """The chance that ``remaining`` cards bring ``short`` more of one colour (or shape):
        each does with :attr:`HELP_RATE` times its share of the match areas (a binomial tail)."""
        q = min(0.95, self.HELP_RATE / SIZE)
        miss = sum(comb(remaining, k) * q**k * (1 - q) ** (remaining - k) for k in range(short))
        return 1.0 - miss

    def variety_chance(self, missing: int, short: int, remaining: int) -> float:
        """The chance that ``remaining`` cards bring ``short`` new colours (or shapes) when
        ``missing`` are not archived yet: each card brings a new one with :attr:`HELP_RATE`
        times the share of match areas showing one, a share that shrinks as they come."""
        reach = [1.0] + [0.0] * short  # reach[j]: chance of j new ones so far
        for _ in range(remaining):
            for j in range(short - 1, -1, -1):
                q = min(0.95, self.HELP_RATE * (missing - j) / SIZE)
                reach[j + 1] += reach[j] * q
                reach[j] *= 1 - q
        return reach[short]

    # -- moving ----------------------------------------------------------------------------
    def choose_swap(self, position: Position, excluded: set[int]) -> tuple[int, Target | None]:
        """The first swap of the best whole move (the second, if any, is kept for
        :meth:`choose_second`); greedy's choice when no searched move improves the value."""
        self._second = None
        watched = self.watched(position)
        if not watched:
            return super().choose_swap(position, excluded)
        prepared = [position.prepare(slot, line, squares) for _, slot, line, squares in watched]
        base = max(self.value(position, t[3], t[4], t[5]) for t in prepared)
        firsts = pairs_of_mask(self.candidates(position, prepared) & ~pairs_mask(excluded))
        ranked = sorted((-self.value_after(position, prepared, pair), pair) for pair in firsts)
        if not ranked:
            return super().choose_swap(position, excluded)
        best_value, best_first = -ranked[0][0], ranked[0][1]
        best_second = None
        if position.phase >= 3:
            for _, pair in ranked[: self.BEAM]:
                if PAIR_KIND[pair] == JUMP:
                    continue  # a jump swap is a whole move (§4.1)
                a, b = PAIR_A[pair], PAIR_B[pair]
                position.swap(a, b)
                after = [position.prepare(t[0], t[1], t[2]) for t in prepared]
                seconds = self.candidates(position, after[:2]) & ~NOT_SECOND_MASK[pair]
                for second in pairs_of_mask(seconds):
                    value = self.value_after(position, after, second)
                    if value > best_value:
                        best_value, best_first, best_second = value, pair, second
                position.swap(a, b)
        if best_value <= base:
            return super().choose_swap(position, excluded)
        self._second = best_second
        return best_first, watched[0]

    def choose_second(self, position: Position, first: int, target: Target) -> int | None:
        return self._second

    def value(self, position: Position, nears: list[int], extras: list[int], need: int) -> float:
        """What a target is worth: the best, over the pattern points it could be built to
        (from the minimum up to 10), of the card score per turn it takes — the score over one
        plus the potential at that level, each step costing :attr:`STEP` turns."""
        return self.value_of(position, sum(nears), extras, need)

    def value_of(self, position: Position, near_total: int, extras: list[int], need: int) -> float:
        """:meth:`value` from the sum of the distances to a point (``near_total``)."""
        bonus = position.minimum - need if position.phase == 4 else 0
        if need > MAX_PATTERN_POINTS:  # no level reaches the minimum yet: only get closer
            return position.minimum / (1 + self.STEP * combine_total(near_total, extras, need))
        # combine() at every level at once: the k cheapest extras for k exact stones.
        potential = near_total
        step = self.STEP
        best = 0.0
        if need <= SIZE:
            best = max(best, (SIZE + bonus) / (1 + step * potential))
        for level, extra in zip(_LEVELS_ABOVE_5, sorted(extras), strict=True):
            potential += extra
            if level >= need:
                value = (level + bonus) / (1 + step * potential)
                best = max(best, value)
        return best

    def value_after(self, position: Position, prepared: Sequence[Prepared], pair: int) -> float:
        """The best watched target's value once ``pair``'s stones trade squares."""
        best = 0.0
        for target in prepared:
            near_total, extras, need = position.totals_after(target, pair)
            value = self.value_of(position, near_total, extras, need)
            best = max(best, value)
        return best

    def watched(self, position: Position) -> list[Target]:
        """The cheapest few targets of each card in hand, cheapest first."""
        watched: list[Target] = []
        per_card: dict[int, int] = {}
        for target in position.best_targets():
            slot = target[1]
            if per_card.get(slot, 0) < self.WATCHED_PER_CARD:
                watched.append(target)
                per_card[slot] = per_card.get(slot, 0) + 1
        return watched

    @staticmethod
    def candidates(position: Position, targets: Sequence[Prepared]) -> int:
        """Every swap that brings a stone one of ``targets`` wants closer, were it built to 10
        pattern points, as a mask of pairs (bit p for pair p)."""
        out = 0
        for slot, _, squares, nears, extras, _ in targets:
            out |= position.candidate_mask(slot, squares, nears, extras, MAX_PATTERN_POINTS)
        return out

    # -- scoring ---------------------------------------------------------------------------
    @staticmethod
    def side_view(observation: RunArchObservation) -> SideView:
        """A :class:`GoalView`: greedy's :class:`SideView`, but drawing for every public goal
        still open to a bet too, as a token won later is worth most on a goal already met
        (§6.3)."""
        view = GoalView(observation)
        bets = observation.bets[observation.player]
        cards = observation.game.cards
        view.goals += [
            cards[card].goal
            for g, card in enumerate(observation.public_goals)
            if bets[N_ARCHIVE_SPOTS + g] < 0
        ]
        return view

    def score(self, observation: RunArchObservation, evaluations: Sequence[int]) -> int:
        """The evaluation worth most: card score, bet tokens won at once, filing, and no
        milestone that would stop this side from scoring (see the module docstring)."""
        me = observation.player
        hand = observation.hand
        phase = observation.phases[me]
        game = observation.game
        known = knowledge(game)
        stones = observation.stones
        view = self.side_view(observation)
        total = observation.totals[me]
        stack = observation.stacks[me] if game.token_games else ()
        passed_before = sum(total > m for m in MILESTONES)
        last_card = view.placed + 1 >= CARDS_TO_END
        options: dict[tuple[int, int, int], list[int]] = {}
        for action in evaluations:
            slot, line, archive, draw = decode_evaluation(action)
            options.setdefault((slot, line, archive), []).append(draw)
        scores: dict[tuple[int, int], int] = {}
        best_key, best_value = next(iter(options)), -1e9
        for key in options:
            slot, line, archive = key
            card = hand[slot]
            if (slot, line) not in scores:
                points = observation.pattern_points(card, line)
                if phase == 4:
                    points += known.match_bonus(stones, card, line)
                scores[slot, line] = points
            points = scores[slot, line]
            value = float(points)
            after = total + points
            if archive < 3:
                match = known.match_colour[card] * SIZE + known.match_shape[card]
                value += self.FILING_WEIGHT * view.filing_value(match, archive)
                counts = [len(held) for held in view.archives]
                counts[archive] += 1
                for condition, colour in observation.conditions:
                    if colour >= 0 and condition.is_met((counts[0], counts[1], counts[2])):
                        value += self.TOKEN_GOLD if colour == GOLD else self.TOKEN_SILVER
            space = frame_space(after)
            for start, colour in observation.frame_bets:  # §6.1 frame tokens
                if colour >= 0 and start <= space < start + FRAME_COVER:
                    value += self.TOKEN_GOLD if colour == GOLD else self.TOKEN_SILVER
            passed = sum(after > m for m in MILESTONES)
            if game.token_games and not last_card and passed > passed_before:
                minimum = stack[min(passed, len(stack) - 1)]
                if minimum > game.max_card_score[phase]:
                    value -= self.STUCK_PENALTY
            if value > best_value:
                best_key, best_value = key, value
        slot, line, archive = best_key
        if archive < 3:
            card = hand[slot]
            view.archives[archive].append(known.match_colour[card] * SIZE + known.match_shape[card])
            view.placed += 1
        draw = view.choose_draw(options[best_key], observation.offer)
        return encode_evaluation(slot, line, archive, draw)
