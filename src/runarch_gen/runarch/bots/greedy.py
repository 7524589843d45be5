"""The greedy bot: scores the best card it can now, otherwise builds the line that is cheapest
to complete, one swap at a time.

Each decision, in the order the turn offers them:

- **score** whenever an evaluation passes: the highest card score, filed where it keeps
  archive bets alive and leaves room for later cards, then the draw whose match area helps
  most (:class:`~.planning.SideView`);
- **move** otherwise: among the cards in hand and the lines open to it, the target with the
  lowest *potential* (stone steps to reach the minimum, :mod:`.planning`), and the swap that
  lowers it most among the swaps that bring a wanted stone closer; in movement phase 3+ a
  second adjacent swap when it lowers it further (planned with the first);
- **bet** on the spot with the best expected value; **set up** by keeping the two cards that
  are cheapest to score on the starting stones, and as secret goal the likeliest-paying goal.

It looks one swap ahead and never at the opponent: cheap (a fraction of a millisecond per
turn) and able to finish a complex game, which random play never does.
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import Final

from runarch_gen.runarch.bots.base import RunArchBot, mypyc_attr
from runarch_gen.runarch.bots.planning import (
    FAR,
    Position,
    SideView,
    Target,
    choose_bet,
    goal_chance_guess,
    knowledge,
    pairs_mask,
    playable_cards,
)
from runarch_gen.runarch.engine.actions import (
    BET_BASE,
    END,
    EVAL_BASE,
    SETUP_CHOICES,
    SWAP_BASE,
    decode_evaluation,
    encode_evaluation,
)
from runarch_gen.runarch.engine.observation import RunArchObservation
from runarch_gen.runarch.engine.tables import (
    N_PAIRS,
    PAIR_A,
    PAIR_B,
    PAIR_KIND,
    SWAPS_BY_PHASE,
)

JUMP: Final = 2
RESCAN_TURNS: Final = 3  # own turns a target is kept before all targets are compared again
KEEP_TOLERANCE: Final = 1  # a kept target may have grown this much harder (the opponent moved)
MAY_DOUBLE: Final = 1  # the observation's ``swaps`` after a first adjacent swap in phase 3+
# §4.1 the second swap of a double swap is adjacent, and not the first one again.
_JUMPS: Final = frozenset(p for p in range(N_PAIRS) if PAIR_KIND[p] == JUMP)
NOT_SECOND: Final[tuple[frozenset[int], ...]] = tuple(_JUMPS | {p} for p in range(N_PAIRS))
NOT_SECOND_MASK: Final[tuple[int, ...]] = tuple(pairs_mask(pairs) for pairs in NOT_SECOND)
# Per evaluation action (from EVAL_BASE on): ((hand slot, line), archive, draw code).
EVALUATIONS: Final[tuple[tuple[tuple[int, int], int, int], ...]] = tuple(
    ((slot, line), archive, draw)
    for slot, line, archive, draw in map(decode_evaluation, range(EVAL_BASE, SWAP_BASE))
)


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyBot(RunArchBot):
    """One swap ahead towards the cheapest scoring line; see the module docstring."""

    name = "greedy"

    def __init__(self, rng: object) -> None:
        super().__init__(rng)  # type: ignore[arg-type]
        # The second swap planned with the first: (turn, stones after the first, hand, pair).
        self._plan: tuple[int, tuple[int, ...], tuple[int, ...], int] | None = None
        # First swaps played from each position this bot began a turn in: when the opponent
        # puts the stones back, playing the same swap again would only loop.
        self._played: dict[tuple[int, ...], set[int]] = {}
        # The planning position kept from turn to turn (updated square by square) with what
        # it was built for, and the target being built with its potential then.
        self._position: Position | None = None
        self._context: tuple[object, ...] = ()
        self._target: Target | None = None
        self._turns_on_target = 0

    def step(self, observation: RunArchObservation, legal_actions: Sequence[int]) -> int:
        first = legal_actions[0]
        if first < EVAL_BASE:
            return self.set_up(observation, legal_actions)
        if first >= BET_BASE:
            return choose_bet(observation, legal_actions)
        if first < SWAP_BASE:  # legal actions ascend: the evaluations come first
            return self.score(observation, self.evaluations(legal_actions))
        if first == END:
            return END
        return self.move(observation, legal_actions)

    # -- scoring ---------------------------------------------------------------------------
    def score(self, observation: RunArchObservation, evaluations: Sequence[int]) -> int:
        """The best card score now, filed and drawn as :class:`SideView` advises."""
        # Per (hand slot, line), per archive, the draw codes.
        options: dict[tuple[int, int], dict[int, list[int]]] = {}
        for action in evaluations:
            target, archive, draw = EVALUATIONS[action - EVAL_BASE]
            archives = options.get(target)
            if archives is None:
                options[target] = {archive: [draw]}
            elif archive in archives:
                archives[archive].append(draw)
            else:
                archives[archive] = [draw]
        if len(options) == 1:  # one card on one line: nothing to compare
            (((slot, line), archives),) = options.items()
            return self.file_and_draw(observation, slot, line, archives)
        me = observation.player
        hand = observation.hand
        phase = observation.phases[me]
        known = knowledge(observation.game)
        stones = observation.stones if phase == 4 else ()
        best_key, best_score = None, -1
        for slot, line in options:
            card = hand[slot]
            points = observation.pattern_points(card, line)
            if phase == 4:
                points += known.match_bonus(stones, card, line)
            if points > best_score:
                best_key, best_score = (slot, line), points
        assert best_key is not None
        slot, line = best_key
        return self.file_and_draw(observation, slot, line, options[best_key])

    @staticmethod
    def file_and_draw(
        observation: RunArchObservation, slot: int, line: int, archives: dict[int, list[int]]
    ) -> int:
        """The evaluation of the card in ``slot`` on ``line``: the archive (of ``archives``,
        each with its draw codes) that :meth:`SideView.filing_value` likes best, lowest first
        on a tie, and the draw :meth:`SideView.choose_draw` picks after filing."""
        archive, draws = next(iter(archives.items()))
        if len(archives) == 1 and len(draws) == 1:  # nothing to choose
            return encode_evaluation(slot, line, archive, draws[0])
        view = SideView(observation)
        match = knowledge(observation.game).match_area[observation.hand[slot]]
        if len(archives) > 1:
            best_key: tuple[float, int] | None = None
            for a in archives:  # the archive filing_value likes best, the lowest on a tie
                key = (view.filing_value(match, a) if a < 3 else 0.0, -a)
                if best_key is None or key > best_key:
                    archive, best_key = a, key
            draws = archives[archive]
        if archive < 3:
            view.archives[archive].append(match)  # draw as if filed already
            view.placed += 1
        return encode_evaluation(slot, line, archive, view.choose_draw(draws, observation.offer))

    # -- moving ----------------------------------------------------------------------------
    def move(self, observation: RunArchObservation, legal_actions: Sequence[int]) -> int:
        """A swap towards the cheapest target, or the end of the turn."""
        stones = observation.stones
        hand = observation.hand
        if observation.swaps == MAY_DOUBLE:
            plan = self._plan
            self._plan = None
            if plan is not None and plan[:3] == (observation.turn, stones, hand):
                action = SWAP_BASE + plan[3]
                if action in legal_actions:
                    return action
            return END
        position = self.position(observation)
        # Before the move every swap of the phase is legal (§4.1), and these are what
        # PAIRS_AT lists; only swaps played from this very position before are left out.
        played = self._played.setdefault(stones, set())
        if len(self._played) > 64:
            self._played = {stones: played}
        pair, target = self.choose_swap(position, played)
        played.add(pair)
        if position.phase >= 3 and PAIR_KIND[pair] != JUMP and target is not None:
            position.swap(PAIR_A[pair], PAIR_B[pair])
            second = self.choose_second(position, pair, target)
            if second is not None:
                self._plan = (observation.turn, tuple(position.stones), hand, second)
        return SWAP_BASE + pair

    def position(self, observation: RunArchObservation) -> Position:
        """The observer's planning position: stones, hand, phase, minimum, and which cards in
        hand an archive takes; kept from the last turn and updated when nothing but the
        stones changed."""
        me = observation.player
        hand = observation.hand
        known = knowledge(observation.game)
        # Archives change only when a card is scored, which changes the hand too.
        context = (hand, observation.phases[me], observation.minimums[me])
        position = self._position
        if position is not None and context == self._context:
            position.update(observation.stones)
            return position
        playable = None
        if observation.game.token_games:
            playable = playable_cards(known, observation.archives[me], hand)
        position = Position(known, observation.stones, hand, context[1], context[2], playable)
        self._position, self._context, self._target = position, context, None
        return position

    @staticmethod
    def improve(
        position: Position, target: Target, excluded: AbstractSet[int] | int
    ) -> tuple[int, int] | None:
        """``(potential after, pair)`` of the swap that lowers the target's potential most,
        or ``None`` when no swap lowers it. ``excluded``: swaps not to play (a set of pairs
        or a mask of them)."""
        _, slot, line, squares = target
        found = position.best_swap(slot, line, squares, excluded)
        return None if found is None else (found[1], found[2])

    def choose_swap(self, position: Position, excluded: set[int]) -> tuple[int, Target | None]:
        """The swap that lowers the potential of a cheap target most, and that target; a
        harmless swap (and no target) when none lowers it.

        The target being built is kept, while it is no harder than the last move left it
        (the opponent may have moved), for at most a few turns in a row; then, or when no
        swap lowers it, all targets are looked at again (a cheaper one may have come up)."""
        excluded_mask = pairs_mask(excluded)
        kept = self._target
        # The kept target when no swap lowers it, and the highest potential at which that is
        # known (above the limit best_swap does not look at the swaps).
        failed: tuple[int, int, tuple[int, ...]] | None = None
        failed_limit = -1
        if kept is not None and self._turns_on_target < RESCAN_TURNS:
            cost, slot, line, squares = kept
            found = position.best_swap(slot, line, squares, excluded_mask, cost + KEEP_TOLERANCE)
            if found is not None:
                self._target = (found[1], slot, line, squares)
                self._turns_on_target += 1
                return found[2], (found[0], slot, line, squares)
            failed, failed_limit = (slot, line, squares), cost + KEEP_TOLERANCE
        targets = position.best_targets()
        for target in targets[:3]:
            if target[0] <= failed_limit and target[1:] == failed:
                continue  # the same search as the kept target's just now, and as fruitless
            improved = self.improve(position, target, excluded_mask)
            if improved is not None:
                self._target = (improved[0], *target[1:])
                self._turns_on_target = 0
                return improved[1], target
        self._target = None
        legal = set(SWAPS_BY_PHASE[position.phase])
        legal = legal - excluded or legal
        return self.harmless_swap(position, legal, targets[0] if targets else None), None

    def choose_second(self, position: Position, first: int, target: Target) -> int | None:
        """After a first adjacent swap (applied to ``position``), a second one that lowers
        the target's potential further, if any: an adjacent swap, [R-06] not the first one
        again."""
        _, slot, line, squares = target
        found = position.best_swap(slot, line, squares, NOT_SECOND_MASK[first])
        return None if found is None else found[2]

    def harmless_swap(
        self,
        position: Position,
        legal: set[int],
        target: tuple[int, int, int, tuple[int, ...]] | None,
    ) -> int:
        """A legal swap that does not raise the target's potential (the move is mandatory)."""
        pairs = sorted(legal)
        if target is None:
            return pairs[int(self.rng.random() * len(pairs))]
        cost, slot, line, squares = target
        start = int(self.rng.random() * len(pairs))
        pairs = pairs[start:] + pairs[:start]
        costs = position.swap_costs(slot, line, squares, pairs)
        for after, pair in costs:
            if after <= cost:
                return pair
        return min(costs)[1]

    # -- setup -----------------------------------------------------------------------------
    def set_up(self, observation: RunArchObservation, legal_actions: Sequence[int]) -> int:
        """[R-04] keep the two dealt cards cheapest to score now; the secret goal is the one
        with the best reward times a rough chance; the rest go public."""
        dealt = observation.dealt
        known = knowledge(observation.game)
        me = observation.player
        position = Position(known, observation.stones, dealt, 1, observation.minimums[me])
        cost = [FAR] * len(dealt)
        for potential, slot, _, _ in position.best_targets():
            cost[slot] = min(cost[slot], potential)
        keep = sorted(range(len(dealt)), key=lambda i: (cost[i], i))[:2]
        rest = [i for i in range(len(dealt)) if i not in keep]
        cards = observation.game.cards
        secret = max(
            rest,
            key=lambda i: (
                cards[dealt[i]].goal.reward * goal_chance_guess(cards[dealt[i]].goal),
                -i,
            ),
        )
        public = tuple(sorted(i for i in rest if i != secret))
        choices = SETUP_CHOICES[len(dealt)]
        wanted = choices.index((public, secret))
        return legal_actions[wanted] if wanted < len(legal_actions) else legal_actions[0]
