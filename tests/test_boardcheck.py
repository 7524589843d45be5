"""The board checker (RULES.md §2, B-1 and B-2) on hand-made boards: one test per rule."""

import subprocess
import sys

from runarch_gen.errors import EXIT_INVALID, EXIT_OK, EXIT_USAGE
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.boards.check import check_board, check_board_text, is_valid_board

# A valid board written out by hand: colour (c + 2r) mod 5 and shape (c + 3r) mod 5 in row r,
# column c (colours R B G Y V, shapes 0 3 4 5 6). Rows and columns step through all five
# values, the two formulas never repeat a pair, and both diagonals step by non-zero amounts,
# so it meets B-1 and B-2.
VALID = """\
0R 3B 4G 5Y 6V
5G 6Y 0V 3R 4B
3V 4R 5B 6G 0Y
6B 0G 3Y 4V 5R
4Y 5V 6R 0B 3G
"""
# A board that meets B-1 but repeats on the diagonals (the cyclic square r + c, 2r + c).
NO_DIAGONALS = """\
0R 3B 4G 5Y 6V
4B 5G 6Y 0V 3R
6G 0Y 3V 4R 5B
3Y 4V 5R 6B 0G
5V 6R 0B 3G 4Y
"""


def board(text: str) -> Board:
    return Board.from_codes([line.split() for line in text.splitlines()])


def swap(text: str, a: str, b: str) -> str:
    """The board with the tiles on squares ``a`` and ``b`` exchanged."""
    rows = [line.split() for line in text.splitlines()]
    (ca, ra), (cb, rb) = ((ord(s[0]) - 97, int(s[1]) - 1) for s in (a, b))
    rows[ra][ca], rows[rb][cb] = rows[rb][cb], rows[ra][ca]
    return "".join(" ".join(row) + "\n" for row in rows)


def replace(text: str, square: str, code: str) -> str:
    rows = [line.split() for line in text.splitlines()]
    rows[int(square[1]) - 1][ord(square[0]) - 97] = code
    return "".join(" ".join(row) + "\n" for row in rows)


def messages(text: str, diagonals: bool = False) -> list[str]:
    return [f.message for f in check_board(board(text), diagonals=diagonals)]


def test_hand_made_valid_boards_pass() -> None:
    assert check_board(board(VALID), diagonals=True) == []
    assert check_board(board(NO_DIAGONALS)) == []


def test_b1_row_repeating_a_colour_is_reported_with_its_squares() -> None:
    # Swapping a1 (0R) and a2 (5G) inside column a keeps the column fine; row 1 now holds
    # 5G next to 4G, and row 2 holds 0R next to 3R.
    found = check_board(board(swap(VALID, "a1", "a2")))
    by_line = {(f.kind, f.line): f for f in found}
    assert by_line["repeated-colour", "r1"].squares == ("a1", "c1")
    assert by_line["repeated-colour", "r1"].value == "G"
    assert "row 1 repeats colour G (green) on a1, c1" in [f.message for f in found]
    assert by_line["repeated-colour", "r2"].squares == ("a2", "d2")


def test_b1_column_repeating_a_shape_is_reported() -> None:
    # Swapping a1 (0R) and b1 (3B) inside row 1 puts 3B above 3V in column a.
    found = messages(swap(VALID, "a1", "b1"))
    assert "column a repeats shape 3 (triangle) on a1, a3" in found
    assert "column b repeats shape 0 (circle) on b1, b4" in found


def test_b1_every_violation_is_reported_not_only_the_first() -> None:
    found = check_board(board(swap(VALID, "a1", "b1")))
    kinds = {(f.kind, f.line) for f in found}
    assert ("repeated-shape", "ca") in kinds
    assert ("repeated-shape", "cb") in kinds
    assert ("repeated-colour", "ca") in kinds
    assert ("repeated-colour", "cb") in kinds


def test_b1_duplicate_and_missing_tiles() -> None:
    text = replace(VALID, "e5", "0R")  # 0R twice, 3G gone
    found = check_board(board(text))
    duplicate = [f for f in found if f.kind == "duplicate-tile"]
    missing = [f for f in found if f.kind == "missing-tile"]
    assert [(f.value, f.squares) for f in duplicate] == [("0R", ("a1", "e5"))]
    assert [f.value for f in missing] == ["3G"]
    assert "tile 0R appears 2 times, on a1, e5" in [f.message for f in found]


def test_b2_diagonals_checked_only_when_asked() -> None:
    assert check_board(board(NO_DIAGONALS)) == []
    found = check_board(board(NO_DIAGONALS), diagonals=True)
    assert found and {f.line for f in found} == {"d2"}
    # d1 = a1 b2 c3 d4 e5 = 0R 5G 3V 6B 4Y: shapes 0 5 3 6 4 fine, colours R G V B Y fine.
    # d2 = e1 d2 c3 b4 a5 = 6V 0V 3V 4V 5V: one colour five times.
    assert "diagonal d2 repeats colour V (violet) on e1, d2, c3, b4, a5" in [
        f.message for f in found
    ]
    assert is_valid_board(board(VALID), diagonals=True)


def test_file_of_valid_boards_exits_0() -> None:
    report = check_board_text(VALID + "\n" + NO_DIAGONALS, source="boards.txt")
    assert report.exit_code == EXIT_OK
    assert report.count("valid") == 2
    assert report.lines() == [
        "boards.txt: 2 boards: 2 valid, 0 not valid (B-1), 0 could not be read"
    ]


def test_file_with_an_invalid_board_exits_1_and_names_board_and_line() -> None:
    report = check_board_text(VALID + "\n" + swap(VALID, "a1", "b1"), source="b.txt")
    assert report.exit_code == EXIT_INVALID
    assert "b.txt:7: board 2: column a repeats shape 3 (triangle) on a1, a3" in report.lines()


def test_unknown_code_exits_2_with_line_and_column() -> None:
    text = VALID + "\n" + VALID.replace("3V 4R", "3V Q9", 1)
    report = check_board_text(text, source="b.txt")
    assert report.exit_code == EXIT_USAGE
    assert report.boards[0].status == "valid"  # the readable board is still checked
    (error,) = report.boards[1].errors
    assert (error.line, error.column) == (9, 4)
    assert "unknown code 'Q9'" in error.message


def test_wrong_sizes_exit_2() -> None:
    four_rows = "\n".join(VALID.splitlines()[:4]) + "\n"
    report = check_board_text(four_rows, source="b.txt")
    assert report.exit_code == EXIT_USAGE
    assert "board has 4 rows, expected 5" in report.boards[0].errors[0].message
    short_row = VALID.replace("0R 3B 4G 5Y 6V", "0R 3B 4G 5Y")
    report = check_board_text(short_row, source="b.txt")
    assert [(e.line, e.message) for e in report.boards[0].errors] == [
        (1, "row has 4 codes, expected 5")
    ]


def test_invalid_and_unreadable_together_exit_2_and_report_both() -> None:
    text = swap(VALID, "a1", "b1") + "\n" + "0R 3B\n"
    report = check_board_text(text, source="b.txt")
    assert report.exit_code == EXIT_USAGE
    assert [b.status for b in report.boards] == ["invalid", "unreadable"]


def test_json_report_lists_findings_and_errors() -> None:
    text = '{"tiles": [["0R","3B","4G","5Y","6V"],["0R","3B","4G","5Y","6V"]]}'
    data = check_board_text(text, source="b.json", diagonals=True).to_json()
    assert data["exit_code"] == EXIT_USAGE
    assert data["rules"] == "B-1 and B-2"
    assert data["results"][0]["status"] == "unreadable"
    assert data["results"][0]["errors"][0] == {
        "line": 1,
        "column": 11,
        "message": "tiles has 2 rows, expected 5",
    }
    valid = check_board_text(VALID, source="b.txt").to_json()
    assert valid["results"][0]["tiles"][0] == ["0R", "3B", "4G", "5Y", "6V"]
    assert valid["results"][0]["findings"] == []


def test_empty_input_cannot_be_read() -> None:
    report = check_board_text("\n# only a comment\n", source="empty.txt")
    assert report.exit_code == EXIT_USAGE
    assert report.summary() == "empty.txt: could not be read"


def test_the_checker_shares_no_code_with_the_generators() -> None:
    # Importing the checker must not load either generator module.
    code = (
        "import sys, runarch_gen.runarch.boards.check as c; "
        "print(sorted(m for m in sys.modules if m.endswith(('boardgen', 'boardsat'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
