"""Balanced decks from one CP-SAT model (RULES.md §1.3, §7, §9.2).

:func:`build_deck_model` builds the model and returns it with its variables;
:func:`solve_deck_model` solves it and reads the solution; :func:`assemble_deck` deals the
solution out onto cards, sets the goals' rewards and :func:`generate_deck` does all three and
finds each goal's witness.

**Patterns.** Two patterns *share* position i when the same stone stands there in both; they
*differ* in the other positions. The model chooses the deck's patterns from a seeded *candidate
pool* and maximises the smallest difference between two chosen patterns: for every pair of
candidates that differ in fewer positions than the best possible value, choosing both caps the
objective at their difference.

The best possible value is 4 for more than 25 cards: 25 stones cannot fill position 1 of 26
cards without a repeat, and those two cards share a position (pigeonhole). The pool is the
*affine design* — colour_i = a + b·i, shape_i = c + d·i (mod 5, b and d not 0), 400 patterns,
any two sharing at most one position — with colours, shapes and positions renamed by the seed.
Every selection from it reaches 4, so the optimum is proven as soon as the model is feasible;
what the solver searches for is a selection that meets every balance target. (A pool with random
patterns as well makes the conflicts real but the balanced selection far harder to find:
measured, no feasible deck within 20 deterministic seconds with 100 random extras.)

Meeting the stone and position targets together is the hard part of that search (each alone
takes milliseconds; together, seconds, with a heavy tail). The design has *balanced blocks*: five
patterns (a, b, k·a + e, d), a = 0–4, with k neither 0 nor d/b, show every colour and every shape
once at each position and every stone once. A deck of N cards is therefore built from ⌊N/5⌋
disjoint blocks plus N mod 5 further patterns, and the model says so with a variable per block.
That restricts the search, not the rules: every target is still a constraint on the chosen
patterns, and blocks leave room for every size (the N mod 5 patterns can be part of an unused
block). Measured on sizes 30–100, it cuts the search to a fraction of a deterministic second.

**Balance** [§9.2], each target "as far as divisibility allows": every count of a target lies
between the floor and the ceiling of its share, or equals it exactly when asked
(:data:`BALANCE_TARGETS`). Match areas, goals and arrows do not interact with patterns, so the
model counts them per kind (how many cards get match ``5Y``, goal ``blue>=3``, arrows ``N,SE``)
instead of per card; :func:`assemble_deck` deals them out at random with the seed.

**Determinism.** CP-SAT runs with one worker (sequential search) and ``random_seed`` from the
deck seed, stopped only by a deterministic-time limit: same seed, options and package versions,
same deck, on any machine.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from runarch_gen.errors import ConstraintError, InputError
from runarch_gen.runarch.atoms import (
    COLOURS,
    DIRECTIONS,
    PIECES,
    SHAPES,
    SIZE,
    Colour,
    Direction,
    Piece,
    Shape,
)
from runarch_gen.runarch.decks.cards import Card, Deck, Goal, GoalKind, Pattern
from runarch_gen.runarch.decks.goals import (
    GoalOdds,
    RandomArchiveOdds,
    Witness,
    find_witness,
    rewarded,
)
from runarch_gen.solver import solve

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

MIN_CARDS = 30
MAX_CARDS = 100
DEFAULT_CARDS = 50  # every match combination exactly twice
DEFAULT_DETERMINISTIC_TIME = 60.0
"""CP-SAT's work limit in deterministic seconds (about a second each on a fast machine). Decks of
30–100 cards need well under one; the limit only bounds a pathological search."""

ARROWS_PER_CARD = 2

# ---------------------------------------------------------------------------------------------
# The pattern design and the bound on the smallest difference


def affine_patterns() -> tuple[Pattern, ...]:
    """The 400 patterns colour_i = a + b·i, shape_i = c + d·i (mod 5, b ≠ 0, d ≠ 0), i = 0–4.

    Two of them share a position only where both their colours and their shapes agree. Colours
    of different slope b agree at exactly one i, of equal slope at none or all; likewise shapes.
    So two different patterns share at most one position and differ in at least 4.
    """
    patterns = []
    for a, b, c, d in itertools.product(range(SIZE), range(1, SIZE), range(SIZE), range(1, SIZE)):
        patterns.append(
            Pattern(
                tuple(
                    Piece(Colour((a + b * i) % SIZE), Shape((c + d * i) % SIZE))
                    for i in range(SIZE)
                )
            )
        )
    return tuple(patterns)


def renamed(
    patterns: Iterable[Pattern],
    colours: Sequence[Colour],
    shapes: Sequence[Shape],
    positions: Sequence[int],
) -> tuple[Pattern, ...]:
    """``patterns`` with colour k renamed ``colours[k]``, shape k ``shapes[k]``, and position i
    moved to ``positions[i]``. Renaming keeps which positions two patterns share."""
    out = []
    for pattern in patterns:
        pieces: list[Piece | None] = [None] * len(pattern)
        for i, piece in enumerate(pattern):
            pieces[positions[i]] = Piece(colours[piece.colour], shapes[piece.shape])
        out.append(Pattern(tuple(p for p in pieces if p is not None)))
    return tuple(out)


def affine_blocks() -> tuple[tuple[int, ...], ...]:
    """The 240 balanced blocks of the affine design, as indices into :func:`affine_patterns`.

    Block (b, d, k, e) is the five patterns (a, b, k·a + e, d), a = 0–4, for k ≠ 0 and
    k ≠ d/b (mod 5). At position i their colours a + b·i run over all five, their shapes
    k·a + e + d·i too (k ≠ 0), and stone (x, y) stands at position i of pattern a exactly when
    a = x − b·i and (d − k·b)·i = y − k·x − e: one i, as d − k·b ≠ 0 — every stone once.
    """
    index = {
        params: n
        for n, params in enumerate(
            itertools.product(range(SIZE), range(1, SIZE), range(SIZE), range(1, SIZE))
        )
    }
    blocks = []
    for b, d in itertools.product(range(1, SIZE), repeat=2):
        clash = d * pow(b, -1, SIZE) % SIZE
        for k in range(1, SIZE):
            if k == clash:
                continue
            for e in range(SIZE):
                blocks.append(tuple(index[(a, b, (k * a + e) % SIZE, d)] for a in range(SIZE)))
    return tuple(blocks)


@dataclass(frozen=True, slots=True)
class CandidatePool:
    """The patterns a deck is chosen from, and its balanced blocks (index tuples) if known."""

    patterns: tuple[Pattern, ...]
    blocks: tuple[tuple[int, ...], ...] = ()


def candidate_pool(seed: int) -> CandidatePool:
    """The affine design and its blocks, renamed and ordered at random by ``seed``."""
    rng = random.Random(f"{seed}:pool")
    colours, shapes, positions = list(COLOURS), list(SHAPES), list(range(SIZE))
    rng.shuffle(colours)
    rng.shuffle(shapes)
    rng.shuffle(positions)
    design = renamed(affine_patterns(), colours, shapes, positions)
    order = list(range(len(design)))
    rng.shuffle(order)
    place = {old: new for new, old in enumerate(order)}
    return CandidatePool(
        tuple(design[old] for old in order),
        tuple(tuple(place[k] for k in block) for block in affine_blocks()),
    )


def shared_positions(first: Pattern, second: Pattern) -> int:
    """In how many positions the same stone stands in both patterns."""
    return sum(a == b for a, b in zip(first, second, strict=True))


@dataclass(frozen=True, slots=True)
class DifferenceBound:
    """The best possible smallest difference between two patterns of a deck, and why."""

    value: int
    reason: str


def best_possible_difference(cards: int) -> DifferenceBound:
    """The largest smallest difference a deck of ``cards`` patterns can have.

    >>> best_possible_difference(50).value
    4
    """
    stones = len(PIECES)
    if cards <= stones:
        return DifferenceBound(
            SIZE,
            f"{cards} cards can show {cards} different stones at every position"
            " (the affine design has such a set)",
        )
    return DifferenceBound(
        SIZE - 1,
        f"{cards} cards must repeat one of the {stones} stones at position 1 (pigeonhole), and"
        " the two cards with it share that position; the affine design reaches 4",
    )


# ---------------------------------------------------------------------------------------------
# Balance targets


@dataclass(frozen=True, slots=True)
class BalanceTarget:
    """A balance target of RULES.md §9.2: counts that should be equal.

    When the total is fixed by the deck size, ``counted`` names what is counted, in ``groups``
    groups of an equal share of ``cards * per_card``; such a target can be asked to hold
    exactly. ``groups`` is ``None`` for targets whose totals depend on how many goals of each
    kind there are: those are always spread as evenly as possible.
    """

    name: str
    description: str
    groups: int | None = None
    per_card: int = 1
    counted: str = ""

    def share(self, cards: int) -> Fraction | None:
        if self.groups is None:
            return None
        return Fraction(cards * self.per_card, self.groups)


BALANCE_TARGETS: dict[str, BalanceTarget] = {
    t.name: t
    for t in (
        BalanceTarget(
            "stones",
            "each of the 25 stones equally often over all patterns",
            25,
            5,
            "each of the 25 stones over all patterns",
        ),
        BalanceTarget(
            "positions",
            "each colour and each shape equally often at each position",
            5,
            1,
            "each colour and shape at each position",
        ),
        BalanceTarget(
            "matches",
            "each colour×shape match area equally often [R-01], so each match colour and shape",
            25,
            1,
            "each of the 25 match areas",
        ),
        BalanceTarget(
            "goal-kinds", "each of the 5 goal kinds equally often", 5, 1, "each of the 5 goal kinds"
        ),
        BalanceTarget(
            "goal-colours", "the colours goals name evenly, overall and within each goal kind"
        ),
        BalanceTarget(
            "goal-shapes", "the shapes goals name evenly, overall and within each goal kind"
        ),
        BalanceTarget("goal-pairs", "colour+shape goals evenly over the 25 colour×shape pairs"),
        BalanceTarget(
            "goal-thresholds", "within each goal kind, each of its thresholds equally often"
        ),
        BalanceTarget(
            "arrow-directions",
            "each of the 8 directions equally often as first arrow, as second arrow and overall",
            8,
            1,
            "each of the 8 directions as first (and as second) arrow",
        ),
        BalanceTarget(
            "arrow-pairs",
            "each of the 56 ordered pairs of different directions equally often",
            56,
            1,
            "each of the 56 arrow pairs",
        ),
    )
}


def check_exact_targets(cards: int, exact: Iterable[str]) -> frozenset[str]:
    """The targets asked to hold exactly, after checking each can for ``cards`` cards.

    Raises :class:`InputError` for an unknown target or one that is always spread evenly, and
    :class:`ConstraintError` (naming the closest sizes where it holds) for one whose share is
    not a whole number.

    >>> check_exact_targets(50, ["matches"])
    frozenset({'matches'})
    >>> check_exact_targets(52, ["matches"])
    Traceback (most recent call last):
    ...
    runarch_gen.errors.ConstraintError: exact matches: 52 cards cannot give each of the 25 \
match areas the same count (52/25 = 2.08 each); it holds for 50 or 75 cards, or without exact \
each count is 2 or 3
    """
    chosen = frozenset(exact)
    for name in sorted(chosen):
        target = BALANCE_TARGETS.get(name)
        if target is None:
            raise InputError(
                f"exact {name}: unknown balance target; expected one of"
                f" {', '.join(BALANCE_TARGETS)}"
            )
        share = target.share(cards)
        if share is None or target.groups is None:
            exactable = [t.name for t in BALANCE_TARGETS.values() if t.groups is not None]
            raise InputError(
                f"exact {name}: this target depends on the goal kinds and is always spread"
                f" evenly; targets that can be exact: {', '.join(exactable)}"
            )
        if share.denominator != 1:
            holds = [
                n
                for n in range(MIN_CARDS, MAX_CARDS + 1)
                if Fraction(n * target.per_card, target.groups).denominator == 1
            ]
            below = [n for n in holds if n < cards]
            above = [n for n in holds if n > cards]
            closest = [str(n) for n in (below[-1:] + above[:1])]
            where = (
                f"it holds for {' or '.join(closest)} cards"
                if closest
                else f"it holds for no size from {MIN_CARDS} to {MAX_CARDS}"
            )
            low, high = math.floor(share), math.ceil(share)
            raise ConstraintError(
                f"exact {name}: {cards} cards cannot give {target.counted} the same count"
                f" ({cards * target.per_card}/{target.groups} = {float(share):.3g} each);"
                f" {where}, or without exact each count is {low} or {high}"
            )
    return chosen


# ---------------------------------------------------------------------------------------------
# Goals the generator prints

GOAL_THRESHOLDS: dict[GoalKind, tuple[tuple[int, int], ...]] = {
    # (colour count, shape count) per level; every level is achievable in every balanced deck of
    # 30 or more cards (each colour and shape has at least 6 cards), and the witness proves it.
    GoalKind.COLOUR: ((2, 0), (3, 0), (4, 0), (5, 0)),
    GoalKind.SHAPE: ((0, 2), (0, 3), (0, 4), (0, 5)),
    GoalKind.COLOUR_AND_SHAPE: ((2, 2), (3, 2), (2, 3), (3, 3)),
    GoalKind.COLOURS: ((4, 0), (5, 0)),
    GoalKind.SHAPES: ((0, 4), (0, 5)),
}


def goal_choices() -> tuple[Goal, ...]:
    """Every goal the generator may print, with reward 0 (rewards come later)."""
    goals: list[Goal] = []
    for kind, levels in GOAL_THRESHOLDS.items():
        colours: Sequence[Colour | None] = (
            COLOURS if kind in (GoalKind.COLOUR, GoalKind.COLOUR_AND_SHAPE) else (None,)
        )
        shapes: Sequence[Shape | None] = (
            SHAPES if kind in (GoalKind.SHAPE, GoalKind.COLOUR_AND_SHAPE) else (None,)
        )
        for colour, shape, (colour_count, shape_count) in itertools.product(
            colours, shapes, levels
        ):
            goals.append(Goal(kind, 0, colour, colour_count, shape, shape_count))
    return tuple(goals)


ARROW_PAIRS: tuple[tuple[Direction, Direction], ...] = tuple(
    (first, second) for first in DIRECTIONS for second in DIRECTIONS if first != second
)
"""The 56 ordered pairs of different directions a card may show [R-03]."""


# ---------------------------------------------------------------------------------------------
# The model


@dataclass
class DeckModel:
    """The CP-SAT model of a deck and its variables.

    ``chosen[k]`` says whether ``pool[k]`` is in the deck, ``blocks[j]`` whether the pool's j-th
    balanced block is; ``matches``, ``goals`` and ``arrows`` count the cards with each match
    area, goal and arrow pair.
    """

    model: cp_model.CpModel
    cards: int
    exact: frozenset[str]
    pool: tuple[Pattern, ...]
    chosen: tuple[cp_model.IntVar, ...]
    blocks: tuple[cp_model.IntVar, ...]
    smallest_difference: cp_model.IntVar
    bound: DifferenceBound
    conflicts: int
    matches: dict[Piece, cp_model.IntVar]
    goals: dict[Goal, cp_model.IntVar]
    arrows: dict[tuple[Direction, Direction], cp_model.IntVar]


def build_deck_model(
    cards: int,
    pool: CandidatePool | Sequence[Pattern],
    *,
    exact: Iterable[str] = (),
    targets: Iterable[str] | None = None,
) -> DeckModel:
    """The model of a deck of ``cards`` cards whose patterns come from ``pool``.

    It holds every rule of RULES.md §1.3 (patterns valid and pairwise distinct — the pool holds
    only valid, distinct patterns —, arrows two different directions), the balance targets
    ``targets`` (default: all of :data:`BALANCE_TARGETS`; ``exact`` ones with equal counts), and
    maximises the smallest difference between two chosen patterns. When the pool knows its
    balanced blocks, the deck is ⌊cards/5⌋ disjoint blocks plus the rest.
    """
    from ortools.sat.python import cp_model

    candidates = pool if isinstance(pool, CandidatePool) else CandidatePool(tuple(pool))
    pool = candidates.patterns

    exact_targets = check_exact_targets(cards, exact)
    active = set(BALANCE_TARGETS if targets is None else targets)
    if unknown := active - set(BALANCE_TARGETS):
        raise InputError(f"unknown balance targets: {', '.join(sorted(unknown))}")
    if len(set(pool)) != len(pool) or not all(p.is_valid() for p in pool):
        raise ValueError("a candidate pool holds valid, distinct patterns")
    if len(pool) < cards:
        raise ValueError(f"a pool of {len(pool)} patterns cannot fill {cards} cards")
    model = cp_model.CpModel()

    def spread(name: str, counts: Sequence[cp_model.LinearExprT], total: int | None = None) -> None:
        """The ``counts`` as equal as divisibility allows: each the floor or the ceiling of
        ``total / len(counts)`` (exactly equal for an exact target), or, when the total is not
        fixed by the size, at most one apart."""
        if name not in active:
            return
        if total is not None:
            share = Fraction(total, len(counts))
            low, high = math.floor(share), math.ceil(share)
            if name in exact_targets:
                assert low == high, "check_exact_targets lets only whole shares through"
            for count in counts:
                model.add_linear_constraint(count, low, high)
        else:
            low_var = model.new_int_var(0, cards, f"{name}-low")
            for count in counts:
                model.add(count >= low_var)
                model.add(count <= low_var + 1)

    # Patterns [§1.3]: choose `cards` of the pool, ⌊cards/5⌋ disjoint blocks among them.
    chosen = tuple(model.new_bool_var(f"pattern{k}") for k in range(len(pool)))
    model.add(sum(chosen) == cards)
    blocks = tuple(model.new_bool_var(f"block{j}") for j in range(len(candidates.blocks)))
    if blocks:
        covering: list[list[cp_model.IntVar]] = [[] for _ in pool]
        for block, members in zip(blocks, candidates.blocks, strict=True):
            for k in members:
                covering[k].append(block)
        for k, covers in enumerate(covering):
            if covers:
                model.add(sum(covers) <= chosen[k])
        model.add(sum(blocks) == cards // SIZE)

    # The smallest difference, capped by the pigeonhole bound and by every chosen pair [§9.2].
    bound = best_possible_difference(cards)
    smallest = model.new_int_var(0, bound.value, "smallest-difference")
    conflicts = 0
    stones_of = [tuple(p.index for p in pattern) for pattern in pool]
    for k, stones in enumerate(stones_of):
        for m in range(k + 1, len(stones_of)):
            difference = SIZE - sum(a == b for a, b in zip(stones, stones_of[m], strict=True))
            if difference < bound.value:
                model.add(smallest <= difference).only_enforce_if([chosen[k], chosen[m]])
                conflicts += 1
    model.maximize(smallest)

    # Stones overall and colours and shapes at each position [§9.2].
    spread(
        "stones",
        [
            sum(chosen[k] for k, stones in enumerate(stones_of) if piece.index in stones)
            for piece in PIECES
        ],
        SIZE * cards,
    )
    for i in range(SIZE):
        spread(
            "positions",
            [sum(chosen[k] for k, p in enumerate(pool) if p[i].colour == c) for c in COLOURS],
            cards,
        )
        spread(
            "positions",
            [sum(chosen[k] for k, p in enumerate(pool) if p[i].shape == s) for s in SHAPES],
            cards,
        )

    # Match areas [R-01, §9.2].
    matches = {piece: model.new_int_var(0, cards, f"match-{piece.code}") for piece in PIECES}
    model.add(sum(matches.values()) == cards)
    spread("matches", list(matches.values()), cards)
    # ... and so each match colour and each match shape too (N/5 each).
    spread("matches", [sum(matches[p] for p in PIECES if p.colour == c) for c in COLOURS], cards)
    spread("matches", [sum(matches[p] for p in PIECES if p.shape == s) for s in SHAPES], cards)

    # Goals [§7, §9.2]: kinds, colours, shapes, colour×shape pairs and thresholds.
    goals = {goal: model.new_int_var(0, cards, f"goal-{goal.text}") for goal in goal_choices()}
    model.add(sum(goals.values()) == cards)

    def goals_where(
        kind: GoalKind | None = None,
        colour: Colour | None = None,
        shape: Shape | None = None,
        level: tuple[int, int] | None = None,
    ) -> cp_model.LinearExprT:
        """How many goals have the given kind, colour, shape and (colour, shape) threshold."""
        return sum(
            count
            for goal, count in goals.items()
            if (kind is None or goal.kind is kind)
            and (colour is None or goal.colour == colour)
            and (shape is None or goal.shape == shape)
            and (level is None or (goal.colour_count, goal.shape_count) == level)
        )

    spread("goal-kinds", [goals_where(kind) for kind in GoalKind], cards)
    spread("goal-colours", [goals_where(colour=c) for c in COLOURS])
    spread("goal-shapes", [goals_where(shape=s) for s in SHAPES])
    for kind in (GoalKind.COLOUR, GoalKind.COLOUR_AND_SHAPE):
        spread("goal-colours", [goals_where(kind, colour=c) for c in COLOURS])
    for kind in (GoalKind.SHAPE, GoalKind.COLOUR_AND_SHAPE):
        spread("goal-shapes", [goals_where(kind, shape=s) for s in SHAPES])
    spread(
        "goal-pairs",
        [goals_where(GoalKind.COLOUR_AND_SHAPE, c, s) for c in COLOURS for s in SHAPES],
    )
    for kind, levels in GOAL_THRESHOLDS.items():
        spread("goal-thresholds", [goals_where(kind, level=level) for level in levels])

    # Automa arrows [R-03, §9.2]: two different directions, in order.
    arrows = {
        pair: model.new_int_var(0, cards, f"arrows-{pair[0].name}-{pair[1].name}")
        for pair in ARROW_PAIRS
    }
    model.add(sum(arrows.values()) == cards)
    first = [sum(n for (a, _), n in arrows.items() if a is d) for d in DIRECTIONS]
    second = [sum(n for (_, b), n in arrows.items() if b is d) for d in DIRECTIONS]
    spread("arrow-directions", first, cards)
    spread("arrow-directions", second, cards)
    spread("arrow-directions", [f + s for f, s in zip(first, second, strict=True)], 2 * cards)
    spread("arrow-pairs", list(arrows.values()), cards)

    return DeckModel(
        model=model,
        cards=cards,
        exact=exact_targets,
        pool=tuple(pool),
        chosen=chosen,
        blocks=blocks,
        smallest_difference=smallest,
        bound=bound,
        conflicts=conflicts,
        matches=matches,
        goals=goals,
        arrows=arrows,
    )


# ---------------------------------------------------------------------------------------------
# Solving and reading the solution


@dataclass(frozen=True, slots=True)
class DeckSolution:
    """What the solver chose: the patterns, and how many cards get each match area, goal (with
    reward 0) and arrow pair — expanded into one entry per card, in a fixed order."""

    status: str
    patterns: tuple[Pattern, ...]
    matches: tuple[Piece, ...]
    goals: tuple[Goal, ...]
    arrows: tuple[tuple[Direction, Direction], ...]
    smallest_difference: int
    objective_bound: int
    wall_seconds: float
    deterministic_seconds: float


def solver_parameters(seed: int, max_deterministic_time: float) -> dict[str, Any]:
    """CP-SAT's parameters: one worker (a sequential, hence deterministic, search), the seed,
    and a deterministic-time limit (never a wall-clock one, whose results depend on the
    machine). The model is highly symmetric (the goal and arrow counts); finding those
    symmetries costs more wall time than they save, so the solver does not look for them."""
    return {
        "num_workers": 1,
        "random_seed": seed % (2**31 - 1),
        "max_deterministic_time": max_deterministic_time,
        "symmetry_level": 0,
    }


def solve_deck_model(
    deck_model: DeckModel,
    seed: int,
    *,
    max_deterministic_time: float = DEFAULT_DETERMINISTIC_TIME,
) -> DeckSolution:
    """Solve the model; raise :class:`ConstraintError` when no deck was found."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    for name, value in solver_parameters(seed, max_deterministic_time).items():
        setattr(solver.parameters, name, value)
    started = time.perf_counter()
    status = solve(solver, deck_model.model)
    wall = time.perf_counter() - started
    if status == cp_model.INFEASIBLE:
        raise ConstraintError(
            f"no deck of {deck_model.cards} cards meets every balance target"
            + (f" with exact {', '.join(sorted(deck_model.exact))}" if deck_model.exact else "")
        )
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise ConstraintError(
            f"no deck of {deck_model.cards} cards found within {max_deterministic_time:g}"
            " deterministic seconds; try another seed"
        )

    def expand(counts: dict[Any, cp_model.IntVar]) -> list[Any]:
        return [key for key, count in counts.items() for _ in range(solver.value(count))]

    return DeckSolution(
        status=solver.status_name(status),
        patterns=tuple(
            p for p, x in zip(deck_model.pool, deck_model.chosen, strict=True) if solver.value(x)
        ),
        matches=tuple(expand(deck_model.matches)),
        goals=tuple(expand(deck_model.goals)),
        arrows=tuple(expand(deck_model.arrows)),
        smallest_difference=solver.value(deck_model.smallest_difference),
        objective_bound=round(solver.best_objective_bound),
        wall_seconds=wall,
        deterministic_seconds=solver.deterministic_time,
    )


def assemble_deck(
    solution: DeckSolution,
    seed: int,
    *,
    odds: Callable[[Sequence[Piece]], GoalOdds] | None = None,
) -> Deck:
    """Deal the solution out onto cards, at random with ``seed``, and set each goal's reward
    from its chance under ``odds`` (default: :class:`RandomArchiveOdds` of the deck).

    Patterns, match areas, goals and arrows are independent of one another, so any pairing
    keeps every balance target; cards are then numbered 1… in order of match area and pattern.
    """
    rng = random.Random(f"{seed}:cards")
    patterns, matches = list(solution.patterns), list(solution.matches)
    goals, arrows = list(solution.goals), list(solution.arrows)
    for items in (patterns, matches, goals, arrows):
        rng.shuffle(items)
    goal_odds = (odds or (lambda m: RandomArchiveOdds(tuple(m))))(matches)
    rewards = {goal: rewarded(goal, goal_odds) for goal in set(goals)}
    dealt = sorted(
        zip(matches, patterns, goals, arrows, strict=True),
        key=lambda card: (card[0].index, [p.index for p in card[1]]),
    )
    return Deck(
        tuple(
            Card(number, pattern, match, rewards[goal], pair)
            for number, (match, pattern, goal, pair) in enumerate(dealt, start=1)
        )
    )


# ---------------------------------------------------------------------------------------------
# All together


@dataclass(frozen=True, slots=True)
class GenerationReport:
    """How a deck was made and what it reached."""

    cards: int
    seed: int
    exact: frozenset[str]
    smallest_difference: int
    best_possible: DifferenceBound
    solver_status: str
    pool_size: int
    blocks: int
    conflicts: int
    variables: int
    constraints: int
    solve_seconds: float
    deterministic_seconds: float
    max_deterministic_time: float
    total_seconds: float
    witnesses: tuple[tuple[str, Witness], ...] = field(default=())

    @property
    def proven(self) -> bool:
        """Whether the smallest difference is proven best: it reaches the proven bound."""
        return self.smallest_difference >= self.best_possible.value

    def lines(self) -> list[str]:
        proof = (
            "proven optimal"
            if self.proven
            else f"not proven optimal (solver: {self.solver_status.lower()})"
        )
        exact = f", exact {', '.join(sorted(self.exact))}" if self.exact else ""
        return [
            f"deck: {self.cards} cards, seed {self.seed}{exact}",
            f"smallest difference between two patterns: {self.smallest_difference}"
            f" (best possible {self.best_possible.value}: {self.best_possible.reason}); {proof}",
            f"model: {self.pool_size} candidate patterns in {self.blocks} balanced blocks,"
            f" {self.conflicts} conflicting pairs,"
            f" {self.variables} variables, {self.constraints} constraints;"
            f" solved in {self.solve_seconds:.2f} s ({self.deterministic_seconds:.2f}"
            " deterministic), one worker",
            f"goals: {len(self.witnesses)} different goals, each met by a witness"
            " (cards per archive)",
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": self.cards,
            "seed": self.seed,
            "exact": sorted(self.exact),
            "smallest_difference": self.smallest_difference,
            "best_possible": self.best_possible.value,
            "best_possible_reason": self.best_possible.reason,
            "proven_optimal": self.proven,
            "solver": {
                "status": self.solver_status,
                "parameters": solver_parameters(self.seed, self.max_deterministic_time),
                "pool_size": self.pool_size,
                "blocks": self.blocks,
                "conflicts": self.conflicts,
                "variables": self.variables,
                "constraints": self.constraints,
                "solve_seconds": round(self.solve_seconds, 3),
                "deterministic_seconds": round(self.deterministic_seconds, 3),
            },
            "total_seconds": round(self.total_seconds, 3),
            "witnesses": [
                {"goal": text, "archives": witness.to_json()} for text, witness in self.witnesses
            ],
        }


def generate_deck(
    cards: int = DEFAULT_CARDS,
    seed: int = 0,
    *,
    exact: Iterable[str] = (),
    max_deterministic_time: float = DEFAULT_DETERMINISTIC_TIME,
    advance: Callable[[int], None] | None = None,
    on_total: Callable[[int], None] | None = None,
) -> tuple[Deck, GenerationReport]:
    """A balanced deck of ``cards`` cards (30–100 [R-01]) and how it was made.

    ``advance`` (optional) is called with 1 after the solve and after each goal's witness, out
    of ``2 + distinct goals`` steps in all — for a progress bar; ``on_total`` (optional) is
    told that number once the goals are chosen (a bar of the deck's own can show it).

    >>> deck, report = generate_deck(30, seed=1)
    >>> len(deck), report.smallest_difference, report.proven
    (30, 4, True)
    """
    started = time.perf_counter()
    if not MIN_CARDS <= cards <= MAX_CARDS:
        raise InputError(f"deck size {cards} is outside {MIN_CARDS}–{MAX_CARDS} [R-01]")
    step = advance or (lambda n: None)
    deck_model = build_deck_model(cards, candidate_pool(seed), exact=exact)
    step(1)
    solution = solve_deck_model(deck_model, seed, max_deterministic_time=max_deterministic_time)
    step(1)
    deck = assemble_deck(solution, seed)
    witnesses = []
    goals = sorted({card.goal.text: card.goal for card in deck}.items())
    if on_total is not None:  # the steps are known now that the goals are
        on_total(2 + len(goals))
    for text, goal in goals:
        witness = find_witness(goal, deck.cards)
        if witness is None:  # the thresholds are chosen so that this cannot happen
            raise ConstraintError(f"goal {text} cannot be met in the generated deck")
        witnesses.append((text, witness))
        step(1)
    proto = deck_model.model.proto
    report = GenerationReport(
        cards=cards,
        seed=seed,
        exact=deck_model.exact,
        smallest_difference=solution.smallest_difference,
        best_possible=deck_model.bound,
        solver_status=solution.status,
        pool_size=len(deck_model.pool),
        blocks=len(deck_model.blocks),
        conflicts=deck_model.conflicts,
        variables=len(proto.variables),
        constraints=len(proto.constraints),
        solve_seconds=solution.wall_seconds,
        deterministic_seconds=solution.deterministic_seconds,
        max_deterministic_time=max_deterministic_time,
        total_seconds=time.perf_counter() - started,
        witnesses=tuple(witnesses),
    )
    return deck, report
