"""The bots' filing, drawing and betting estimates against the straightforward computation.

:mod:`~runarch_gen.runarch.bots.planning` reads archives through per-rule tables indexed by the
colours and shapes an archive holds, and tallies archived colours and shapes once per
question; here every answer is recomputed from the archive rules (§4.3, [R-14]) and the goal
kinds (§7) card by card, and must agree exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.runarch.archives import ArchiveRule
from runarch_gen.runarch.bots.greedy import EVALUATIONS, GreedyBot
from runarch_gen.runarch.bots.planning import (
    SideView,
    accept_mask,
    choose_bet,
    goal_shortfall,
    helpful_mask,
    knowledge,
    playable_cards,
)
from runarch_gen.runarch.counts import CARDS_TO_END
from runarch_gen.runarch.decks.cards import Goal, GoalKind
from runarch_gen.runarch.engine import RunArchGame
from runarch_gen.runarch.engine.actions import (
    BET_BASE,
    EVAL_BASE,
    SWAP_BASE,
    decode_evaluation,
    encode_evaluation,
)
from runarch_gen.runarch.engine.observation import RunArchObservation
from runarch_gen.runarch.engine.sample import sample_board, sample_deck
from runarch_gen.runarch.rules import parse_rules

DECK = sample_deck(50)
GOALS = sorted({card.goal for card in DECK.cards}, key=lambda goal: goal.text)


def fits(rule: str, areas: Sequence[int]) -> bool:
    """§4.3: whether match areas may lie together in an archive with ``rule``."""
    colours = [m // 5 for m in areas]
    shapes = [m % 5 for m in areas]
    if rule == "same":
        return len(set(colours)) <= 1 or len(set(shapes)) <= 1
    if rule == "shapes":
        return len(set(shapes)) == len(shapes)
    return len(set(colours)) == len(colours)


def takes(rule: str, held: Sequence[int], capacity: int, area: int) -> bool:
    return len(held) < capacity and fits(rule, [*held, area])


def filled(rule: str, areas: Sequence[int], capacity: int) -> list[int]:
    """An archive filled with those of ``areas`` it takes, in turn."""
    held: list[int] = []
    for m in areas:
        if takes(rule, held, capacity, m):
            held.append(m)
    return held


archives_filled = st.tuples(
    st.sampled_from([rule.value for rule in ArchiveRule]),
    st.lists(st.integers(0, 24), max_size=12),
    st.integers(1, 5),
)


@settings(max_examples=300, deadline=None)
@given(archives_filled)
def test_accept_mask_is_what_the_archive_rule_allows(case: tuple[str, list[int], int]) -> None:
    rule, areas, capacity = case
    held = filled(rule, areas, capacity)
    mask = accept_mask(rule, held, capacity)
    assert [mask >> m & 1 == 1 for m in range(25)] == [
        takes(rule, held, capacity, m) for m in range(25)
    ]


def colour_part(goal: Goal, archived: Sequence[int]) -> int:
    if goal.kind is GoalKind.COLOURS:
        return max(0, goal.colour_count - len({m // 5 for m in archived}))
    if goal.colour is None:
        return 0
    return max(0, goal.colour_count - sum(m // 5 == goal.colour for m in archived))


def shape_part(goal: Goal, archived: Sequence[int]) -> int:
    if goal.kind is GoalKind.SHAPES:
        return max(0, goal.shape_count - len({m % 5 for m in archived}))
    if goal.shape is None:
        return 0
    return max(0, goal.shape_count - sum(m % 5 == goal.shape for m in archived))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(GOALS), st.lists(st.integers(0, 24), max_size=15))
def test_goal_shortfall_and_the_areas_that_lower_it(goal: Goal, archived: list[int]) -> None:
    """The shortfall is the larger of the colour and the shape part (§7: both must be met);
    a helpful match area lowers one of the parts."""
    short = max(colour_part(goal, archived), shape_part(goal, archived))
    assert goal_shortfall(goal, archived) == short
    lowers = [
        colour_part(goal, [*archived, m]) < colour_part(goal, archived)
        or shape_part(goal, [*archived, m]) < shape_part(goal, archived)
        for m in range(25)
    ]
    mask = helpful_mask(goal, archived)
    assert [mask >> m & 1 == 1 for m in range(25)] == lowers


def test_evaluation_table_is_the_decoding() -> None:
    assert len(EVALUATIONS) == SWAP_BASE - EVAL_BASE
    for action in range(EVAL_BASE, SWAP_BASE):
        target, archive, draw = EVALUATIONS[action - EVAL_BASE]
        assert (*target, archive, draw) == decode_evaluation(action)


# -- the side's view, read from observations of played games -------------------------------


class Reference:
    """SideView's estimates written out from the observation, card by card."""

    def __init__(self, observation: RunArchObservation) -> None:
        game = observation.game
        me = observation.player
        tables = game.tables
        self.areas = [
            [tables.match_colour[k] * 5 + tables.match_shape[k] for k in held]
            for held in observation.archives[me]
        ]
        self.rules = [rule.value for rule in game.config.archive_rules]
        self.capacity = game.config.capacity
        bets = observation.bets[me]
        self.wanted = [
            [count for count in range(2, 6) if bets[a * 4 + count - 2] >= 0] for a in range(3)
        ]
        self.goals = [game.cards[observation.secret].goal] if observation.secret >= 0 else []
        self.goals += [
            game.cards[card].goal
            for g, card in enumerate(observation.public_goals)
            if bets[12 + g] >= 0
        ]

    def taken(self, areas: Sequence[Sequence[int]]) -> list[bool]:
        return [
            any(
                takes(rule, held, self.capacity, m)
                for rule, held in zip(self.rules, areas, strict=True)
            )
            for m in range(25)
        ]

    def filing_value(self, match: int, archive: int) -> float:
        after = [list(held) for held in self.areas]
        after[archive].append(match)
        value = 0.0
        for a in range(3):
            for count in self.wanted[a]:
                if len(after[a]) > count:
                    value -= 30
                elif len(after[a]) == count:
                    value += 2
                elif a == archive:
                    value += 1
        remaining = max(0, CARDS_TO_END - sum(len(held) for held in after))
        if remaining:
            value += sum(self.taken(after)) / 5
            free = sum(
                max(0, min([*self.wanted[a], self.capacity]) - len(after[a])) for a in range(3)
            )
            if free < remaining:
                value -= 3 * (remaining - free)
        return value

    def match_values(self) -> list[float]:
        archived = [m for held in self.areas for m in held]
        taken = self.taken(self.areas)
        values = []
        for m in range(25):
            helping = 0
            for goal in self.goals:
                helping += colour_part(goal, [*archived, m]) < colour_part(
                    goal, archived
                ) or shape_part(goal, [*archived, m]) < shape_part(goal, archived)
            values.append((1.0 if taken[m] else -2.0) + 1.5 * helping)
        return values

    def bet_value(self, spot: int, gold: bool, best_card: int, goal: Goal | None) -> float:
        stake = max(best_card, 9)
        win = stake if gold else (stake + 1) // 2
        remaining = max(0, CARDS_TO_END - sum(len(held) for held in self.areas))
        if goal is None:
            archive, count = divmod(spot, 4)
            count += 2
            held = len(self.areas[archive])
            if count < held or count - held > remaining or count > self.capacity:
                return -stake
            if self.wanted[archive]:
                chance = 0.15
            elif count == held:
                room = sum(self.capacity - len(self.areas[a]) for a in range(3) if a != archive)
                chance = 0.75 if room >= remaining else 0.2
            else:
                chance = 0.6 if count - held <= max(1, remaining // 2) else 0.35
            return chance * (win + count) - (1 - chance) * stake
        archived = [m for held in self.areas for m in held]
        short = max(colour_part(goal, archived), shape_part(goal, archived))
        if short == 0:
            chance = 1.0
        elif short > remaining:
            chance = 0.0
        else:
            chance = max(0.05, 0.8 - 0.6 * short / max(1, remaining))
        return chance * (win + goal.reward) - (1 - chance) * stake


def observations(variant: str, seed: int) -> list[RunArchObservation]:
    """Both sides' observations of states along a game of greedy bots (archives filled, bets
    placed) that now and then play a random action instead."""
    game = RunArchGame(parse_rules(variant), sample_board(), DECK, deck_name="s")
    rng = random.Random(seed)
    state = game.new_initial_state(rng)
    bots = [GreedyBot(random.Random(seed)), GreedyBot(random.Random(seed + 1))]
    seen = []
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_actions()
        if rng.random() < 0.1 and state.stage > 0:
            copy = state.copy()
            seen += [copy.observation(0), copy.observation(1)]
        if rng.random() < 0.2:
            state.apply(rng.choice(list(legal)))
        else:
            state.apply(bots[player].step(state.observation(player), legal))
    return seen


@pytest.mark.parametrize(
    ("variant", "seed"),
    [("complex", 1), ("complex(archive_order=article)", 2), ("classic", 3)],
)
def test_side_view_is_the_straightforward_reading(variant: str, seed: int) -> None:
    for observation in observations(variant, seed):
        view = SideView(observation)
        reference = Reference(observation)
        game = observation.game
        known = knowledge(game)
        me = observation.player
        hand = observation.hand
        assert playable_cards(known, observation.archives[me], hand) == [
            reference.taken(reference.areas)[known.match_area[k]] for k in hand
        ]
        assert view.match_values() == reference.match_values()
        for match in range(25):
            for archive, (rule, held) in enumerate(
                zip(reference.rules, reference.areas, strict=True)
            ):
                if takes(rule, held, reference.capacity, match):  # a legal filing
                    assert view.filing_value(match, archive) == reference.filing_value(
                        match, archive
                    )
        for spot in range(12):
            for gold in (False, True):
                assert view.bet_value(spot, gold, 11, None) == reference.bet_value(
                    spot, gold, 11, None
                )
        for goal in GOALS[::3]:
            assert view.bet_value(12, True, 7, goal) == reference.bet_value(12, True, 7, goal)
        # file_and_draw: the archive filing_value likes best (the lowest on a tie), then the
        # draw whose match area is most welcome after filing, the pile at its average value.
        if hand:
            match = known.match_area[hand[0]]
            options = {
                a: [0, 1, 2, 5]
                for a, (rule, held) in enumerate(zip(reference.rules, reference.areas, strict=True))
                if takes(rule, held, reference.capacity, match)
            }
            if options:
                archive = max(options, key=lambda a: (reference.filing_value(match, a), -a))
                reference.areas[archive].append(match)
                values = reference.match_values()
                offer = observation.offer
                draws = {0: sum(values) / 25, 5: -5.0}
                for code in (1, 2):
                    draws[code] = values[offer[code - 1]] if code <= len(offer) else -5.0
                draw = 0
                for code in options[archive]:
                    if draws[code] > draws[draw] + 1e-9:
                        draw = code
                assert GreedyBot.file_and_draw(observation, 0, 0, options) == encode_evaluation(
                    0, 0, archive, draw
                )
                reference.areas[archive].pop()
        # choose_bet: the free spot worth most (more than 1e-9 above those before it).
        bets = observation.bets[me]
        public = observation.public_goals
        free = [s for s in range(12 + len(public)) if bets[s] < 0]
        gold = bool(observation.pending_bets and observation.pending_bets[0] == 1)
        values = [
            reference.bet_value(
                s, gold, observation.bests[me], None if s < 12 else game.cards[public[s - 12]].goal
            )
            for s in free
        ]
        best = 0
        for i, value in enumerate(values):
            if value > values[best] + 1e-9:
                best = i
        assert choose_bet(observation, [BET_BASE + s for s in free]) == BET_BASE + free[best]
