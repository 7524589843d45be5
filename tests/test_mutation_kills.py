"""Tests written from the rules that kill mutants the older tests let live (``bench/mutation.py``).

Every expected value here is written out by hand from RULES.md (docs/rules/runarch.md) or the
documented report formats, never taken from the code under test.
"""

from __future__ import annotations

import pytest

from runarch_gen.errors import ConstraintError, InputError
from runarch_gen.runarch.boards import cpsat
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.boards.check import check_board, check_board_text, is_valid_board
from runarch_gen.runarch.boards.generate import (
    BoardConstraints,
    count_boards,
    enumerate_boards,
    generate_board,
    generate_boards,
    generation_meta,
    iter_generated_boards,
    resolve_engine,
    sample_boards,
)

# Board checker (RULES §2, B-1/B-2) ----------------------------------------------------------------

# Colour (row + column) mod 5, shape (row + 2 * column) mod 5: two orthogonal Latin squares, so
# every row and column holds each colour and each shape once and all 25 tiles differ (B-1). On d2
# (e1 -> a5) row + column = 4 throughout: all five stones are violet, so B-2 fails there only;
# on d1 colour 2i and shape 3i mod 5 are all different.
LATIN = [
    ["0R", "4B", "6G", "3Y", "5V"],
    ["3B", "5G", "0Y", "4V", "6R"],
    ["4G", "6Y", "3V", "5R", "0B"],
    ["5Y", "0V", "4R", "6B", "3G"],
    ["6V", "3R", "5B", "0G", "4Y"],
]
D2 = ["e1", "d2", "c3", "b4", "a5"]
D2_VIOLET = f"diagonal d2 repeats colour V (violet) on {', '.join(D2)}"


def text(rows: list[list[str]]) -> str:
    return "\n".join(" ".join(row) for row in rows) + "\n"


def test_B2_is_valid_board_reads_the_long_diagonals_only_when_asked() -> None:
    board = Board.from_codes(LATIN)
    assert is_valid_board(board)
    assert not is_valid_board(board, diagonals=True)
    assert [f.message for f in check_board(board, diagonals=True)] == [D2_VIOLET]


def test_B2_a_file_is_checked_with_the_diagonals_when_asked() -> None:
    plain = check_board_text(text(LATIN), source="one.txt")
    assert (plain.exit_code, plain.summary()) == (0, "one.txt: 1 board, valid (B-1)")
    both = check_board_text(text(LATIN), source="one.txt", diagonals=True)
    assert both.exit_code == 1
    assert both.lines() == [f"one.txt:1: {D2_VIOLET}", "one.txt: 1 board, not valid (B-1 and B-2)"]


def test_B1_a_missing_tile_is_named_with_no_squares() -> None:
    rows = [row[:] for row in LATIN]
    rows[0][0] = "4B"  # a1 takes b1's tile: 4B twice, 0R nowhere
    findings = {f.kind: f for f in check_board(Board.from_codes(rows))}
    missing, duplicate = findings["missing-tile"], findings["duplicate-tile"]
    assert missing.to_json() == {
        "kind": "missing-tile",
        "line": None,
        "value": "0R",
        "squares": [],
        "message": "tile 0R is missing",
    }
    assert duplicate.to_json() == {
        "kind": "duplicate-tile",
        "line": None,
        "value": "4B",
        "squares": ["a1", "b1"],
        "message": "tile 4B appears 2 times, on a1, b1",
    }


def test_board_file_report_counts_each_verdict_and_says_where() -> None:
    # Board 1 valid (lines 1-5), board 2 invalid (lines 7-11: a1 holds b1's tile 4B), board 3
    # unreadable (an unknown code on line 13).
    bad = [row[:] for row in LATIN]
    bad[0][0] = "4B"
    source = text(LATIN) + "\n" + text(bad) + "\n" + "0R 3B 4G 5Y QQ\n" + text(LATIN[1:])
    report = check_board_text(source, source="f.txt")
    data = report.to_json()
    assert {k: v for k, v in data.items() if k != "results"} == {
        "source": "f.txt",
        "rules": "B-1",
        "boards": 3,
        "valid": 1,
        "invalid": 1,
        "unreadable": 1,
        "exit_code": 2,
    }
    first, second, third = data["results"]
    assert first == {
        "number": 1,
        "line": 1,
        "status": "valid",
        "tiles": LATIN,
        "errors": [],
        "findings": [],
    }
    assert (second["number"], second["line"], second["status"], second["tiles"]) == (
        2,
        7,
        "invalid",
        bad,
    )
    # 4B on a1 and b1: row 1 repeats blue and square; column a: a1 4B and a2 3B are both blue,
    # a1 4B and a3 4G both squares; then the tile count.
    assert [(f["kind"], f["line"], f["value"], f["squares"]) for f in second["findings"]] == [
        ("repeated-colour", "r1", "B", ["a1", "b1"]),
        ("repeated-shape", "r1", "4", ["a1", "b1"]),
        ("repeated-colour", "ca", "B", ["a1", "a2"]),
        ("repeated-shape", "ca", "4", ["a1", "a3"]),
        ("missing-tile", None, "0R", []),
        ("duplicate-tile", None, "4B", ["a1", "b1"]),
    ]
    assert third["number"] == 3 and third["line"] == 13 and third["status"] == "unreadable"
    assert third["tiles"] is None and third["findings"] == []
    assert [(e["line"], e["column"]) for e in third["errors"]] == [(13, 13)]
    assert "QQ" in third["errors"][0]["message"]
    lines = report.lines()
    assert lines[0] == "f.txt:7: board 2: row 1 repeats colour B (blue) on a1, b1"
    assert lines[-2].startswith("f.txt:13:13: board 3: unknown code 'QQ'")
    assert lines[-1] == "f.txt: 3 boards: 1 valid, 1 not valid (B-1), 1 could not be read"


def test_a_single_unreadable_board_is_reported_as_such() -> None:
    report = check_board_text("0R 3B\n", source="short.txt")
    assert report.summary() == "short.txt: could not be read"
    assert report.exit_code == 2


# Board generator (RULES §2) -----------------------------------------------------------------------

# Two boards only: B-2, a1 = 0R, b1 = 3B, c1 = 4G and a2 = 5G (CP-SAT lists both in 0.3 s).
TWO = BoardConstraints.parse(diagonals=True, fixes=["a1=0R", "b1=3B", "c1=4G", "a2=5G"])


def every_square_fixed(board: Board) -> BoardConstraints:
    rows = board.codes()
    fixes = [f"{'abcde'[c]}{r + 1}={rows[r][c]}" for r in range(5) for c in range(5)]
    return BoardConstraints.parse(fixes=fixes)


@pytest.mark.parametrize(
    ("asked", "runs"), [("auto", "exact"), ("exact", "exact"), ("cpsat", "cpsat")]
)
def test_the_engine_names_resolve(asked: str, runs: str) -> None:
    assert resolve_engine(asked) == runs


def test_an_unknown_engine_is_refused_naming_the_choices() -> None:
    with pytest.raises(InputError) as caught:
        resolve_engine("fast")
    assert str(caught.value) == "unknown engine 'fast': expected one of auto, exact, cpsat"


def test_generation_meta_records_seed_engine_and_constraints() -> None:
    assert generation_meta(7, "auto", TWO) == {
        "seed": 7,
        "engine": "exact",
        "constraints": {
            "diagonals": True,
            "fix": ["a1=0R", "b1=3B", "c1=4G", "a2=5G"],
            "forbid": [],
        },
    }
    assert generation_meta(7, "cpsat", TWO)["engine"] == "cpsat"


def test_the_cpsat_engine_really_runs_cp_sat(monkeypatch: pytest.MonkeyPatch) -> None:
    # The two-way counts of test_boardgen are only independent if engine="cpsat" is CP-SAT.
    calls: list[str] = []
    solutions, distinct = cpsat.enumerate_solutions, cpsat.generate_distinct

    def spy_solutions(*args, **kwargs):
        calls.append("enumerate")
        return solutions(*args, **kwargs)

    def spy_distinct(*args, **kwargs):
        calls.append("generate")
        return distinct(*args, **kwargs)

    monkeypatch.setattr(cpsat, "enumerate_solutions", spy_solutions)
    monkeypatch.setattr(cpsat, "generate_distinct", spy_distinct)
    assert count_boards(TWO, engine="cpsat") == 2
    assert len(enumerate_boards(TWO, engine="cpsat")) == 2
    assert len(generate_boards(2, TWO, seed=1, engine="cpsat")) == 2
    assert calls == ["enumerate", "enumerate", "generate"]
    calls.clear()
    assert count_boards(TWO) == 2 and len(enumerate_boards(TWO)) == 2
    assert len(generate_boards(2, TWO, seed=1)) == 2
    assert calls == []


def test_progress_is_reported_in_steps_of_4096_and_adds_up_to_the_count() -> None:
    steps: list[int] = []
    boards = generate_boards(5000, seed=3, on_progress=steps.append)
    assert len(set(boards)) == 5000
    assert steps == [4096, 5000 - 4096]
    few: list[int] = []
    generate_boards(3, seed=3, on_progress=few.append)
    assert few == [3]
    one_by_one: list[int] = []
    generate_boards(2, TWO, seed=3, engine="cpsat", on_progress=one_by_one.append)
    assert sum(one_by_one) == 2


def test_the_default_engine_is_the_exact_one() -> None:
    assert list(iter_generated_boards(3, seed=9)) == generate_boards(3, seed=9, engine="exact")


def test_a_board_count_below_one_is_refused() -> None:
    with pytest.raises(InputError, match=r"^the number of boards must be at least 1, not 0$"):
        next(iter_generated_boards(0, seed=1))


def test_asking_for_more_boards_than_exist_names_both_numbers() -> None:
    with pytest.raises(ConstraintError) as caught:
        generate_boards(3, TWO, seed=1)
    assert str(caught.value).startswith("3 distinct boards asked for, but only 2 boards meet")


def test_the_only_board_meeting_constraints_is_generated() -> None:
    board = Board.from_codes(LATIN)
    assert generate_board(every_square_fixed(board), seed=4) == board


def test_sampling_zero_boards_gives_none_and_a_negative_count_is_refused() -> None:
    assert sample_boards(0, seed=1) == []
    with pytest.raises(InputError, match=r"^the number of boards must not be negative, not -1$"):
        sample_boards(-1, seed=1)


def test_samples_depend_on_the_seed_only() -> None:
    assert sample_boards(4, seed=5) == sample_boards(4, seed=5)
    assert sample_boards(4, seed=5) != sample_boards(4, seed=6)
    assert all(is_valid_board(b, diagonals=True) for b in sample_boards(6, TWO, seed=2))
