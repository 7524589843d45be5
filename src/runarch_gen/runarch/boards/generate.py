"""Valid boards, exactly: counting, uniform sampling and the generation facade (RULES.md §2).

Why this is fast. The valid boards (B-1) are closed under relabelling: applying a colour
permutation σ and a shape permutation τ to every tile of a valid board gives a valid board, and
keeps B-2 (both long diagonals) too. A board's first row holds five different colours and five
different shapes, so exactly one relabelling (σ, τ) turns it into a board whose first row is
(colour i, shape i) in column i — its *normalised* form. So every board is exactly one triple
(R, σ, τ), R a normalised board, and there are 120 × 120 boards per normalised board.

The normalised boards are enumerated once per process: a backtracking search fills rows 2–5
with those rows ordered by their first tile's colour (permuting rows 2–5 keeps row 1 and B-1),
then the 24 orders of those rows are added back. B-2 is checked after that expansion, since
reordering rows moves tiles off the diagonals.

Constraints. ``--fix a1=5Y`` holds on (R, σ, τ) exactly when σ(colour of R at a1) = Y and
τ(shape of R at a1) = 5; ``--forbid`` is its negation. Normalised boards that agree on the
constrained squares share one 120 × 120 boolean mask of valid (σ, τ), so counting is a sum over a
few hundred masks, and the boards that meet the constraints can be *numbered*: board k is the
k-th valid (σ, τ) of the normalised board whose running count passes k. A uniform board is a
uniform number; N distinct uniform boards are N distinct uniform numbers, drawn with
``random.Random(seed)``. numpy builds the masks, and is imported only when there are pins or bans.

>>> constraints = BoardConstraints.parse(diagonals=True, fixes=["c3=5Y"])
>>> board = generate_board(constraints, seed=7)
>>> board.at(12).code
'5Y'
>>> count_boards() == 120 * 120 * len(normalised_boards())
True
"""

from __future__ import annotations

import bisect
import functools
import itertools
import random
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, get_args

from runarch_gen.errors import ConstraintError, InputError
from runarch_gen.runarch.atoms import (
    PIECES,
    SIZE,
)
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.boards.constraints import (
    UNCONSTRAINED,
    BoardConstraints,
    Placement,
    parse_placement,
)
from runarch_gen.runarch.boards.explain import EXPLAIN_SECONDS
from runarch_gen.runarch.boards.symmetry import (
    PERMUTATIONS,
    _bit_counts,
    _diagonal_boards,
    _permutations,
    _square_masks,
    _valid_relabellings,
    normalised_boards,
)

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "ENGINES",
    "BoardConstraints",
    "Engine",
    "Placement",
    "count_boards",
    "enumerate_boards",
    "generate_board",
    "generate_boards",
    "generation_meta",
    "normalised_boards",
    "parse_placement",
    "resolve_engine",
    "sample_boards",
]

Engine = Literal["auto", "exact", "cpsat"]
ENGINES: tuple[Engine, ...] = get_args(Engine)

Progress = Callable[[int], None]


def resolve_engine(engine: str) -> Literal["exact", "cpsat"]:
    """The engine that runs for ``engine``: ``auto`` is the exact engine, which handles every
    constraint :class:`BoardConstraints` can express."""
    if engine in ("auto", "exact"):
        return "exact"
    if engine == "cpsat":
        return "cpsat"
    raise InputError(f"unknown engine {engine!r}: expected one of {', '.join(ENGINES)}")


@dataclass(frozen=True)
class _Plan:
    """The boards meeting some constraints, numbered 0 … total-1.

    Numbers ``ends[k] - counts[k]`` to ``ends[k] - 1`` are the normalised board ``reps[k]``
    relabelled by its valid (σ, τ), written ``σ * 120 + τ`` in increasing order: all 14,400
    when ``masks`` is ``None``, else those whose bit is set in ``masks[k]`` (see
    :func:`_relabelling_masks`).
    """

    reps: tuple[int, ...]
    counts: tuple[int, ...]
    ends: tuple[int, ...]
    masks: NDArray[np.uint64] | None = None
    _pairs: dict[int, NDArray[np.int64]] = field(default_factory=dict, compare=False)

    @property
    def total(self) -> int:
        return self.ends[-1] if self.ends else 0

    def pair(self, k: int, offset: int) -> int:
        """The ``offset``-th valid relabelling ``σ * 120 + τ`` of ``reps[k]``."""
        if self.masks is None:
            return offset
        pairs = self._pairs.get(k)
        if pairs is None:
            import numpy as np

            bits = np.unpackbits(self.masks[k].view(np.uint8), bitorder="little")
            pairs = self._pairs[k] = np.flatnonzero(bits).astype(np.int64)
        return int(pairs[offset])


@functools.lru_cache(maxsize=32)
def _plan(constraints: BoardConstraints) -> _Plan:
    candidates = (
        _diagonal_boards() if constraints.diagonals else tuple(range(len(normalised_boards())))
    )
    if not constraints.fixes and not constraints.forbids:
        # Every relabelling is valid: no masks, and no numpy to import.
        counts = (PERMUTATIONS * PERMUTATIONS,) * len(candidates)
        return _Plan(candidates, counts, tuple(itertools.accumulate(counts)))
    return _constrained_plan(candidates, constraints)


def _constrained_plan(candidates: tuple[int, ...], constraints: BoardConstraints) -> _Plan:
    import numpy as np

    valid = _valid_relabellings(candidates, _square_masks(constraints.fixes, constraints.forbids))
    counts = _bit_counts(valid)
    keep = np.flatnonzero(counts)
    kept = [int(c) for c in counts[keep]]
    return _Plan(
        tuple(candidates[i] for i in keep),
        tuple(kept),
        tuple(itertools.accumulate(kept)),
        np.ascontiguousarray(valid[keep]),
    )


@functools.cache
def _relabel_tables() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """For each permutation k and piece p: the colour part (``σ(colour) * 5``) and the shape
    part (``τ(shape)``) of p's image, so a relabelled piece is one addition."""
    colour_part = tuple(
        tuple(perm[p // SIZE] * SIZE for p in range(25)) for perm in _permutations()
    )
    shape_part = tuple(tuple(perm[p % SIZE] for p in range(25)) for perm in _permutations())
    return colour_part, shape_part


def _board_number(plan: _Plan, number: int) -> Board:
    """Board ``number`` of the plan's numbering."""
    k = bisect.bisect_right(plan.ends, number)
    offset = number - (plan.ends[k] - plan.counts[k])
    sigma, tau = divmod(plan.pair(k, offset), PERMUTATIONS)
    colour_part, shape_part = _relabel_tables()
    colours, shapes = colour_part[sigma], shape_part[tau]
    return Board(tuple([PIECES[colours[p] + shapes[p]] for p in normalised_boards()[plan.reps[k]]]))


def _distinct_numbers(rng: random.Random, total: int, count: int) -> list[int]:
    """``count`` distinct numbers drawn uniformly from ``range(total)``, in draw order."""
    if 2 * count >= total:  # a large share: sampling without replacement beats rejection
        return rng.sample(range(total), count)
    chosen: dict[int, None] = {}
    while len(chosen) < count:
        chosen.setdefault(rng.randrange(total))
    return list(chosen)


# ---------------------------------------------------------------------------------------------
# The facade


def _exact_plan(constraints: BoardConstraints) -> _Plan:
    plan = _plan(constraints)
    if plan.total == 0:
        raise contradiction(constraints)
    return plan


def generation_meta(seed: int, engine: str, constraints: BoardConstraints) -> dict[str, object]:
    """What a generated board's JSON records beside its tiles: seed, engine, constraints.

    >>> generation_meta(7, "auto", BoardConstraints(diagonals=True))["engine"]
    'exact'
    """
    return {"seed": seed, "engine": resolve_engine(engine), "constraints": constraints.to_json()}


def contradiction(
    constraints: BoardConstraints,
    *,
    lang: str = "en",
    time_limit: float | None = EXPLAIN_SECONDS,
    cancel: threading.Event | None = None,
) -> ConstraintError:
    """The error for constraints that no board meets, naming a minimal set of conflicting
    options (:mod:`.explain`) — or, when that takes over ``time_limit`` seconds, saying only
    that no board meets them. Raises :class:`~.explain.Cancelled` when ``cancel`` is set."""
    from runarch_gen.runarch.boards.explain import conflict_message

    message = conflict_message(constraints, lang=lang, time_limit=time_limit, cancel=cancel)
    if message is None:  # the counter and the explainer disagree: a bug, not a user error
        raise AssertionError(f"no board found, but one meets {constraints.options}")
    return ConstraintError(message)


def count_boards(constraints: BoardConstraints = UNCONSTRAINED, *, engine: str = "auto") -> int:
    """The exact number of valid boards that meet ``constraints``; 0 when they contradict.

    ``engine="cpsat"`` enumerates every board with CP-SAT instead (slow unless the
    constraints leave few boards; the tests use it as a second, independent count).

    >>> count_boards(BoardConstraints(diagonals=True)) <= count_boards()
    True
    """
    if resolve_engine(engine) == "cpsat":
        from runarch_gen.runarch.boards.cpsat import build_board_model, enumerate_solutions

        return enumerate_solutions(build_board_model(constraints))
    return _plan(constraints).total


def generate_boards(
    count: int,
    constraints: BoardConstraints = UNCONSTRAINED,
    *,
    seed: int,
    engine: str = "auto",
    on_progress: Progress | None = None,
    time_limit: float | None = None,
) -> list[Board]:
    """``count`` distinct valid boards meeting ``constraints``; the same seed gives the same list.

    With the exact engine (``auto``) the list is a uniformly random set of distinct boards in
    random order, so each board is uniform over all boards meeting the constraints. With
    ``cpsat`` each board comes from a randomised CP-SAT search: valid and distinct, but not
    uniform. Raises :class:`ConstraintError` naming the conflicting
    options, or saying how many boards exist when fewer than ``count`` do.

    >>> boards = generate_boards(3, seed=1)
    >>> len(set(boards))
    3
    """
    return list(
        iter_generated_boards(
            count,
            constraints,
            seed=seed,
            engine=engine,
            on_progress=on_progress,
            time_limit=time_limit,
        )
    )


def iter_generated_boards(
    count: int,
    constraints: BoardConstraints = UNCONSTRAINED,
    *,
    seed: int,
    engine: str = "auto",
    on_progress: Progress | None = None,
    time_limit: float | None = None,
) -> Iterator[Board]:
    """The boards of :func:`generate_boards`, one at a time: all six million boards can be
    written out without holding them (the constraints are checked before the first).
    ``time_limit`` bounds each CP-SAT solve (``engine="cpsat"``); the exact engine needs none.
    """
    if count < 1:
        raise InputError(f"the number of boards must be at least 1, not {count}")
    if resolve_engine(engine) == "cpsat":
        from runarch_gen.runarch.boards.cpsat import generate_distinct

        yield from generate_distinct(
            count, constraints, seed=seed, on_progress=on_progress, time_limit=time_limit
        )
        return
    plan = _exact_plan(constraints)
    if count > plan.total:
        raise _too_many(count, plan.total, constraints)
    numbers = _distinct_numbers(random.Random(seed), plan.total, count)
    for done, number in enumerate(numbers, start=1):
        yield _board_number(plan, number)
        if on_progress is not None and (done % 4096 == 0 or done == count):
            on_progress(4096 if done % 4096 == 0 else done % 4096)


def _too_many(count: int, total: int, constraints: BoardConstraints) -> ConstraintError:
    return ConstraintError(
        f"{count} distinct boards asked for, but only {total} boards meet {constraints.describe()}"
    )


def generate_board(
    constraints: BoardConstraints = UNCONSTRAINED, *, seed: int, engine: str = "auto"
) -> Board:
    """One valid board meeting ``constraints`` (uniform with the exact engine).

    >>> generate_board(seed=3) == generate_board(seed=3)
    True
    """
    return generate_boards(1, constraints, seed=seed, engine=engine)[0]


def sample_boards(
    count: int, constraints: BoardConstraints = UNCONSTRAINED, *, seed: int
) -> list[Board]:
    """``count`` independent uniform draws (repeats possible) from the boards meeting
    ``constraints``: the sampler behind :func:`generate_boards`, for statistics."""
    if count < 0:
        raise InputError(f"the number of boards must not be negative, not {count}")
    plan = _exact_plan(constraints)
    rng = random.Random(seed)
    return [_board_number(plan, rng.randrange(plan.total)) for _ in range(count)]


def enumerate_boards(
    constraints: BoardConstraints = UNCONSTRAINED, *, engine: str = "auto"
) -> list[Board]:
    """Every valid board meeting ``constraints``, in the engine's order.

    Meant for constraints that leave few boards: unconstrained there are millions.
    """
    if resolve_engine(engine) == "cpsat":
        from runarch_gen.runarch.boards.cpsat import build_board_model, enumerate_solutions

        found: list[Board] = []
        enumerate_solutions(build_board_model(constraints), on_board=found.append)
        return found
    plan = _plan(constraints)
    return [_board_number(plan, number) for number in range(plan.total)]
