"""Board generation and counting (RULES.md §2): every board passes the independent checker,
counts agree between the exact engine and CP-SAT, draws are uniform, seeds reproduce."""

import math
from collections import Counter
from collections.abc import Hashable, Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.errors import ConstraintError, InputError
from runarch_gen.runarch.atoms import PIECES, parse_square
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.boards.check import check_board, is_valid_board
from runarch_gen.runarch.boards.generate import (
    BoardConstraints,
    Placement,
    count_boards,
    enumerate_boards,
    generate_board,
    generate_boards,
    parse_placement,
    sample_boards,
)

UNCONSTRAINED = BoardConstraints()
DIAGONALS = BoardConstraints(diagonals=True)
# Row 1 pinned to (colour i, shape i): exactly one board per relabelling class (see below).
FIRST_ROW = ("a1=0R", "b1=3B", "c1=4G", "d1=5Y", "e1=6V")
# A constrained case small enough for CP-SAT to list every board.
CONSTRAINED = BoardConstraints.parse(
    diagonals=True, fixes=["a1=0R", "c3=5Y"], forbids=["e5=6V", "b2=4G"]
)


def meets(board: Board, constraints: BoardConstraints) -> bool:
    return (
        is_valid_board(board, diagonals=constraints.diagonals)
        and all(board.at(p.square) == p.piece for p in constraints.fixes)
        and all(board.at(p.square) != p.piece for p in constraints.forbids)
    )


# ---------------------------------------------------------------------------------------------
# Chi-square without scipy: the statistic and a critical value from the Wilson–Hilferty
# approximation, at z = 4 (one-sided p ≈ 3e-5). Seeds are fixed, so the tests are deterministic;
# the threshold only says how unlucky a fair sampler would have to be to fail.


def chi_square(observed: Counter[Hashable], expected: dict[Hashable, float]) -> float:
    assert set(observed) <= set(expected), "a draw outside the support"
    return sum((observed.get(k, 0) - e) ** 2 / e for k, e in expected.items())


def critical(df: int, z: float = 4.0) -> float:
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def assert_uniform(draws: Iterable[Hashable], support: Iterable[Hashable]) -> None:
    observed = Counter(draws)
    keys = list(support)
    n = sum(observed.values())
    stat = chi_square(observed, {k: n / len(keys) for k in keys})
    assert stat < critical(len(keys) - 1), (stat, critical(len(keys) - 1))


def normalised(board: Board) -> tuple[int, ...]:
    """The board relabelled so that row 1 reads (colour i, shape i): the relabelling class."""
    colour_map = {board.tiles[i].colour: i for i in range(5)}
    shape_map = {board.tiles[i].shape: i for i in range(5)}
    return tuple(colour_map[t.colour] * 5 + shape_map[t.shape] for t in board.tiles)


# ---------------------------------------------------------------------------------------------
# Validity


def test_every_generated_board_passes_the_independent_checker() -> None:
    for constraints in (UNCONSTRAINED, DIAGONALS, CONSTRAINED):
        n = min(300, count_boards(constraints))
        for board in generate_boards(n, constraints, seed=11):
            assert check_board(board, diagonals=constraints.diagonals) == []
            assert meets(board, constraints)


placements = st.tuples(st.integers(0, 24), st.sampled_from(PIECES)).map(lambda t: Placement(*t))


@settings(max_examples=25, deadline=None)
@given(
    st.lists(placements, max_size=4, unique_by=lambda p: p.square),
    st.lists(placements, max_size=4),
    st.booleans(),
    st.integers(0, 2**31 - 1),
)
def test_boards_meet_any_constraints_or_the_conflict_is_named(
    fixes: list[Placement], forbids: list[Placement], diagonals: bool, seed: int
) -> None:
    constraints = BoardConstraints(diagonals, tuple(fixes), tuple(forbids))
    try:
        boards = generate_boards(5, constraints, seed=seed)
    except ConstraintError as exc:
        message = str(exc)
        assert message.startswith("contradictory options") or "only" in message
        assert count_boards(constraints) < 5
        return
    assert len(set(boards)) == 5
    assert all(meets(b, constraints) for b in boards)


# ---------------------------------------------------------------------------------------------
# Counting, two ways


def test_all_boards_are_14400_relabellings_of_the_first_row_class() -> None:
    # Colour and shape relabellings (120 × 120) keep B-1 and B-2, and exactly one of them turns
    # a board's first row into (colour i, shape i). So the number of boards is 14,400 times the
    # number with that first row, which CP-SAT can list.
    first_row = BoardConstraints.parse(fixes=FIRST_ROW)
    listed = count_boards(first_row, engine="cpsat")
    assert listed == count_boards(first_row)
    assert count_boards() == 120 * 120 * listed
    first_row_b2 = BoardConstraints.parse(fixes=FIRST_ROW, diagonals=True)
    listed_b2 = count_boards(first_row_b2, engine="cpsat")
    assert listed_b2 == count_boards(first_row_b2)
    assert count_boards(DIAGONALS) == 120 * 120 * listed_b2


def test_exact_and_cpsat_list_the_same_boards() -> None:
    exact = enumerate_boards(CONSTRAINED)
    cpsat = enumerate_boards(CONSTRAINED, engine="cpsat")
    assert len(exact) == len(set(exact)) == count_boards(CONSTRAINED)
    assert set(exact) == set(cpsat)
    assert all(meets(b, CONSTRAINED) for b in exact)


@settings(max_examples=12, deadline=None)
@given(
    st.lists(placements, min_size=3, max_size=6, unique_by=lambda p: p.square),
    st.lists(placements, max_size=3),
    st.booleans(),
)
def test_fast_count_equals_cpsat_enumeration(
    fixes: list[Placement], forbids: list[Placement], diagonals: bool
) -> None:
    constraints = BoardConstraints(diagonals, tuple(fixes), tuple(forbids))
    assert count_boards(constraints) == count_boards(constraints, engine="cpsat")


def test_counts_partition_by_the_tile_on_a_square() -> None:
    # Every board has exactly one tile on c3: the counts with each tile fixed there add up.
    for base in (UNCONSTRAINED, DIAGONALS):
        total = count_boards(base)
        parts = [
            count_boards(BoardConstraints(base.diagonals, (Placement(12, piece),)))
            for piece in PIECES
        ]
        assert sum(parts) == total
        forbid = BoardConstraints(base.diagonals, (), (Placement(12, PIECES[0]),))
        assert count_boards(forbid) == total - parts[0]


# ---------------------------------------------------------------------------------------------
# Uniformity


@pytest.mark.parametrize("constraints", [UNCONSTRAINED, DIAGONALS], ids=["b1", "b2"])
def test_tile_at_a1_is_uniform(constraints: BoardConstraints) -> None:
    # By relabelling symmetry every tile is equally likely on any one square.
    draws = sample_boards(10_000, constraints, seed=1)
    assert_uniform((b.at(0).code for b in draws), (p.code for p in PIECES))


@pytest.mark.parametrize("constraints", [UNCONSTRAINED, DIAGONALS], ids=["b1", "b2"])
def test_pair_of_tiles_at_a1_b1_is_uniform(constraints: BoardConstraints) -> None:
    # a1 and b1 share row 1, so their tiles differ in colour and in shape; relabelling maps any
    # such ordered pair to any other, so the 25 × 16 pairs are equally likely.
    support = [
        (p.code, q.code)
        for p in PIECES
        for q in PIECES
        if p.colour != q.colour and p.shape != q.shape
    ]
    draws = sample_boards(40_000, constraints, seed=2)
    assert_uniform(((b.at(0).code, b.at(1).code) for b in draws), support)


@pytest.mark.parametrize("diagonals", [False, True], ids=["b1", "b2"])
def test_relabelling_classes_are_uniform(diagonals: bool) -> None:
    # The marginals above are uniform for any mix of classes; the class itself must be uniform
    # too. The classes are the boards with row 1 = (colour i, shape i), listed by CP-SAT.
    classes = enumerate_boards(
        BoardConstraints.parse(fixes=FIRST_ROW, diagonals=diagonals), engine="cpsat"
    )
    support = [b.indices() for b in classes]
    draws = sample_boards(50 * len(support), BoardConstraints(diagonals), seed=3)
    assert_uniform((normalised(b) for b in draws), support)


def test_constrained_draws_are_uniform_over_the_cpsat_list() -> None:
    support = enumerate_boards(CONSTRAINED, engine="cpsat")
    draws = sample_boards(60 * len(support), CONSTRAINED, seed=4)
    assert_uniform(draws, support)
    # And the tile on a free square follows the listed boards' own distribution.
    square = parse_square("d2")
    listed = Counter(b.at(square).code for b in support)
    observed = Counter(b.at(square).code for b in draws)
    n = len(draws)
    expected = {code: n * k / len(support) for code, k in listed.items()}
    stat = chi_square(observed, expected)  # type: ignore[arg-type]
    assert stat < critical(len(expected) - 1)


def test_generate_board_over_many_seeds_is_uniform() -> None:
    support = enumerate_boards(CONSTRAINED)
    draws = [generate_board(CONSTRAINED, seed=s) for s in range(40 * len(support))]
    assert_uniform(draws, support)


# ---------------------------------------------------------------------------------------------
# Reproducibility and distinctness


@pytest.mark.parametrize("engine", ["exact", "cpsat"])
def test_same_seed_same_boards_different_seeds_different_boards(engine: str) -> None:
    n = 200 if engine == "exact" else 2
    first = generate_boards(n, seed=5, engine=engine)
    assert generate_boards(n, seed=5, engine=engine) == first
    assert generate_boards(n, seed=6, engine=engine) != first
    assert generate_board(seed=5, engine=engine) == first[0]
    assert generate_board(seed=6, engine=engine) != first[0]


def test_boards_are_distinct_even_when_asking_for_nearly_all() -> None:
    total = count_boards(CONSTRAINED)
    everything = generate_boards(total, CONSTRAINED, seed=9)
    assert set(everything) == set(enumerate_boards(CONSTRAINED))
    most = generate_boards(total - 1, CONSTRAINED, seed=9)
    assert len(set(most)) == total - 1


def test_asking_for_more_boards_than_exist_says_how_many_exist() -> None:
    total = count_boards(CONSTRAINED)
    with pytest.raises(ConstraintError, match=f"only {total} boards meet B-1 and B-2"):
        generate_boards(total + 1, CONSTRAINED, seed=1)


def test_cpsat_engine_boards_are_valid_distinct_and_meet_constraints() -> None:
    boards = generate_boards(4, CONSTRAINED, seed=3, engine="cpsat")
    assert len(set(boards)) == 4
    assert all(meets(b, CONSTRAINED) for b in boards)
    few = BoardConstraints.parse(fixes=FIRST_ROW, diagonals=True)
    with pytest.raises(ConstraintError, match=f"only {count_boards(few)} boards"):
        generate_boards(count_boards(few) + 1, few, seed=1, engine="cpsat")


# ---------------------------------------------------------------------------------------------
# Options and contradictions


def test_placement_parsing_names_the_option() -> None:
    assert parse_placement("C3=y5", "--forbid").text == "c3=5Y"
    with pytest.raises(InputError, match="--fix z9=5Y: unknown square 'z9'"):
        parse_placement("z9=5Y")
    with pytest.raises(InputError, match="--forbid a1-5Y: expected SQUARE=CODE"):
        parse_placement("a1-5Y", "--forbid")
    with pytest.raises(InputError, match="unknown code 'Q9'"):
        parse_placement("a1=Q9")


def test_two_fixes_on_one_square_are_refused() -> None:
    with pytest.raises(InputError, match="--fix a1=5Y and --fix a1=0R both fix square a1"):
        BoardConstraints.parse(fixes=["a1=5Y", "a1=0R"])


@pytest.mark.parametrize(
    ("fixes", "forbids", "diagonals", "reason"),
    [
        (["a1=5Y", "a2=5R"], [], False, "--fix a1=5Y and --fix a2=5R put two 5s in column a"),
        (["a1=5Y", "c1=0Y"], [], False, "--fix a1=5Y and --fix c1=0Y put two Ys in row 1"),
        (
            ["a1=5Y", "b2=5R"],
            [],
            True,
            "--diagonals with --fix a1=5Y and --fix b2=5R puts two 5s on diagonal d1",
        ),
        (["a1=5Y", "c3=5Y"], [], False, "--fix a1=5Y and --fix c3=5Y both place tile 5Y"),
        (["a1=5Y"], ["a1=5Y"], False, "--fix a1=5Y and --forbid a1=5Y contradict each other"),
        ([], [f"e5={p.code}" for p in PIECES], False, "rule out all 25 tiles on e5"),
    ],
)
def test_contradictions_name_the_conflicting_options(
    fixes: list[str], forbids: list[str], diagonals: bool, reason: str
) -> None:
    # Unrelated options beside the conflict must not be named.
    constraints = BoardConstraints.parse(
        diagonals=diagonals, fixes=[*fixes, "d4=6G"], forbids=[*forbids, "b3=4B"]
    )
    assert count_boards(constraints) == 0
    with pytest.raises(ConstraintError) as caught:
        generate_board(constraints, seed=1)
    message = str(caught.value)
    assert message.startswith("contradictory options: ")
    assert reason in message
    assert "d4=6G" not in message and "b3=4B" not in message


def test_b2_without_diagonals_option_is_no_conflict() -> None:
    assert count_boards(BoardConstraints.parse(fixes=["a1=5Y", "b2=5R"])) > 0
