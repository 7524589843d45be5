"""The CP-SAT model of a board: B-1 always; B-2, pins and bans as switchable options.

One function builds the model and returns it with its variables (:func:`build_board_model`);
solving (:func:`solve_board`), enumerating (:func:`enumerate_solutions`) and explaining
infeasibility (:func:`explain_infeasibility`) are separate steps with explicit parameters.
Every user option — ``--diagonals``, each ``--fix``, each ``--forbid`` — is enforced by a
literal of its own that is passed to CP-SAT as an assumption, so when no board meets the options
``sufficient_assumptions_for_infeasibility`` names a subset of them, which is then shrunk to a
minimal one and put into words.

OR-Tools is imported inside the functions: the command line starts without it.

>>> from runarch_gen.runarch.boards.constraints import BoardConstraints
>>> why = explain_infeasibility(BoardConstraints.parse(fixes=["a1=5Y", "a2=5R"]))
>>> why.reason
'--fix a1=5Y and --fix a2=5R put two 5s in column a'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from runarch_gen.errors import ConstraintError
from runarch_gen.runarch.atoms import (
    COLUMNS,
    DIAGONALS,
    N_SQUARES,
    PIECES,
    ROWS,
    Line,
    square_name,
)
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.boards.constraints import BoardConstraints, Placement
from runarch_gen.runarch.boards.explain import Infeasibility, reason_for
from runarch_gen.solver import solve

if TYPE_CHECKING:
    from ortools.sat.python.cp_model import CpModel, CpSolver, IntVar


__all__ = [
    "BoardModel",
    "Infeasibility",
    "ModelOption",
    "build_board_model",
    "enumerate_solutions",
    "explain_infeasibility",
    "generate_distinct",
    "solve_board",
]


@dataclass(frozen=True, slots=True)
class ModelOption:
    """One user option in the model: its text, its kind and the literal that switches it on."""

    text: str
    kind: str  # "diagonals", "fix" or "forbid"
    placement: Placement | None
    literal: IntVar


@dataclass(frozen=True, slots=True)
class BoardModel:
    """A CP-SAT model of a board with its variables.

    ``holds[sq][p]`` is true when piece ``p`` lies on square ``sq``; ``options`` are the
    switchable user options, all assumed true.
    """

    model: CpModel
    holds: tuple[tuple[IntVar, ...], ...]
    options: tuple[ModelOption, ...]

    def read(self, solution: Sequence[int]) -> Board:
        """The board in a solution (the values of all variables, by variable index)."""
        # The holds variables are the model's first 625, square by square (see the builder).
        values = list(solution)
        return Board.from_indices(
            [
                values.index(1, sq * len(PIECES), (sq + 1) * len(PIECES)) % len(PIECES)
                for sq in range(N_SQUARES)
            ]
        )


def build_board_model(constraints: BoardConstraints) -> BoardModel:
    """The CP-SAT model of the boards meeting B-1 and ``constraints`` (RULES.md §2)."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    holds = tuple(
        tuple(model.new_bool_var(f"{square_name(sq)}={piece.code}") for piece in PIECES)
        for sq in range(N_SQUARES)
    )
    assert holds[-1][-1].index == N_SQUARES * len(PIECES) - 1  # BoardModel.read relies on it
    for sq in range(N_SQUARES):
        model.add_exactly_one(holds[sq])
    for p in range(len(PIECES)):  # B-1: each of the 25 tiles once
        model.add_exactly_one(holds[sq][p] for sq in range(N_SQUARES))
    for line in ROWS + COLUMNS:  # B-1: no colour and no shape twice in a row or column
        for terms in _attribute_groups(holds, line):
            model.add_at_most_one(terms)

    options: list[ModelOption] = []
    if constraints.diagonals:  # B-2, optional
        literal = model.new_bool_var("--diagonals")
        for line in DIAGONALS:
            for terms in _attribute_groups(holds, line):
                model.add(sum(terms) <= 1).only_enforce_if(literal)
        options.append(ModelOption("--diagonals", "diagonals", None, literal))
    for kind, placements in (("fix", constraints.fixes), ("forbid", constraints.forbids)):
        for placement in placements:
            text = f"--{kind} {placement}"
            literal = model.new_bool_var(text)
            tile = holds[placement.square][placement.piece.index]
            model.add_implication(literal, tile if kind == "fix" else ~tile)
            options.append(ModelOption(text, kind, placement, literal))
    model.add_assumptions([option.literal for option in options])
    return BoardModel(model, holds, tuple(options))


def _attribute_groups(holds: tuple[tuple[IntVar, ...], ...], line: Line) -> list[list[IntVar]]:
    """Per colour and per shape, the literals that put a piece of it on ``line``."""
    groups: list[list[IntVar]] = []
    for attribute in ("colour", "shape"):
        for value in range(5):
            groups.append(
                [
                    holds[sq][piece.index]
                    for sq in line.squares
                    for piece in PIECES
                    if getattr(piece, attribute) == value
                ]
            )
    return groups


def _solver(*, seed: int = 0, time_limit: float | None = None) -> CpSolver:
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    # One worker: assumptions need it, and it keeps every result reproducible.
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = seed % 2**31
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    return solver


def _with_options_on(board_model: BoardModel) -> CpModel:
    """A copy of the model with every option switched on for good rather than assumed: presolve
    can then use the options (assumptions are invisible to it), which makes search much faster.
    """
    model = board_model.model.clone()
    model.clear_assumptions()
    if board_model.options:
        model.add_bool_and([option.literal for option in board_model.options])
    return model


def solve_board(
    board_model: BoardModel, *, seed: int, time_limit: float | None = None
) -> Board | None:
    """One board of the model (every option on), or ``None`` when it has none.

    CP-SAT's search is randomised by ``seed`` (variable order and branch polarity), so seeds
    give different boards — valid, but not uniformly drawn. ``board_model`` is unchanged.
    """
    from ortools.sat.python import cp_model

    solver = _solver(seed=seed, time_limit=time_limit)
    solver.parameters.randomize_search = True
    solver.parameters.permute_variable_randomly = True
    solver.parameters.random_polarity_ratio = 0.5
    status = solve(solver, _with_options_on(board_model))
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return board_model.read(solver.response_proto.solution)
    if status == cp_model.INFEASIBLE:
        return None
    raise ConstraintError(f"CP-SAT stopped without an answer ({solver.status_name(status)})")


def enumerate_solutions(
    board_model: BoardModel,
    *,
    on_board: Callable[[Board], None] | None = None,
    limit: int | None = None,
) -> int:
    """Count the model's boards (every option switched on), passing each to ``on_board``.

    Stops after ``limit`` boards when given. Works on a copy: ``board_model`` is unchanged.
    """
    from ortools.sat.python import cp_model

    model = _with_options_on(board_model)
    # A plain depth-first search in reading order: several times faster than CP-SAT's default
    # search at listing every solution of this model.
    model.add_decision_strategy(
        [literal for row in board_model.holds for literal in row],
        cp_model.CHOOSE_FIRST,
        cp_model.SELECT_MAX_VALUE,
    )

    class Collector(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.count = 0

        def on_solution_callback(self) -> None:
            self.count += 1
            if on_board is not None:
                on_board(board_model.read(self.response_proto.solution))
            if limit is not None and self.count >= limit:
                self.stop_search()

    solver = _solver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.search_branching = cp_model.FIXED_SEARCH
    collector = Collector()
    status = solve(solver, model, collector)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE):
        raise ConstraintError(f"CP-SAT stopped without an answer ({solver.status_name(status)})")
    return collector.count


def generate_distinct(
    count: int,
    constraints: BoardConstraints,
    *,
    seed: int,
    on_progress: Callable[[int], None] | None = None,
    time_limit: float | None = None,
) -> list[Board]:
    """``count`` distinct boards from successive CP-SAT solves, each excluding the boards
    found before it and randomised by its own seed (valid, not uniform); each solve stops
    after ``time_limit`` seconds when given (a :class:`ConstraintError` then)."""
    rng = random.Random(seed)
    found: list[Board] = []
    for _ in range(count):
        board_model = build_board_model(constraints)
        for board in found:  # no-good: not this board again
            board_model.model.add_bool_or(
                [~board_model.holds[sq][piece.index] for sq, piece in enumerate(board.tiles)]
            )
        next_board = solve_board(board_model, seed=rng.randrange(2**31), time_limit=time_limit)
        if next_board is None:
            if not found:
                from runarch_gen.runarch.boards.explain import conflict_message

                raise ConstraintError(conflict_message(constraints) or "no board meets them")
            raise ConstraintError(
                f"{count} distinct boards asked for, but only {len(found)} boards meet"
                f" {constraints.describe()}"
            )
        found.append(next_board)
        if on_progress is not None:
            on_progress(1)
    return found


# ---------------------------------------------------------------------------------------------
# Explaining contradictions


def explain_infeasibility(constraints: BoardConstraints) -> Infeasibility | None:
    """``None`` when some board meets ``constraints``; otherwise a minimal set of options that
    together admit no board, with a reason in words.

    CP-SAT's core (``sufficient_assumptions_for_infeasibility``) is shrunk by dropping one option
    at a time while the rest stays infeasible, so every option named is needed.
    """
    from ortools.sat.python import cp_model

    board_model = build_board_model(constraints)
    by_index = {option.literal.index: option for option in board_model.options}

    def infeasible(options: Sequence[ModelOption]) -> tuple[bool, list[ModelOption]]:
        board_model.model.clear_assumptions()
        board_model.model.add_assumptions([option.literal for option in options])
        solver = _solver()
        status = solve(solver, board_model.model)
        if status != cp_model.INFEASIBLE:
            return False, []
        core = [by_index[i] for i in solver.sufficient_assumptions_for_infeasibility()]
        return True, core or list(options)

    failed, core = infeasible(board_model.options)
    if not failed:
        return None
    for option in list(core):
        if option not in core:
            continue
        trial = [o for o in core if o is not option]
        still, smaller = infeasible(trial)
        if still:
            core = [o for o in trial if o in smaller] if smaller else trial
    core.sort(key=board_model.options.index)
    return Infeasibility(tuple(o.text for o in core), reason_for(core))
