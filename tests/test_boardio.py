"""Board files: text, JSON and JSON Lines in and out; problems located by file, line, column."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.errors import InputError, ParseError
from runarch_gen.runarch.atoms import PIECES
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.boards.io import (
    detect_format,
    format_board,
    format_boards,
    parse_boards,
    read_board,
    read_boards,
    scan_boards,
    write_boards,
)

# Any arrangement of 25 pieces (valid or not: files carry stones as well as tiles).
boards = st.lists(st.sampled_from(PIECES), min_size=25, max_size=25).map(
    lambda pieces: Board(tuple(pieces))
)
META = {"seed": 12, "engine": "exact", "constraints": {"diagonals": False, "fix": ["a1=5Y"]}}


@settings(max_examples=40)
@given(boards)
def test_text_and_json_forms_round_trip(board: Board) -> None:
    for fmt in ("text", "json", "jsonl"):
        assert parse_boards(format_board(board, fmt, META)) == [board]


@settings(max_examples=20)
@given(st.lists(boards, min_size=1, max_size=5))
def test_many_boards_round_trip(many: list[Board]) -> None:
    for fmt in ("text", "jsonl"):
        assert parse_boards(format_boards(many, fmt, META)) == many


def test_json_lines_are_what_json_dumps_writes() -> None:
    board = Board.from_indices(range(25))
    (line,) = format_boards([board], "jsonl", META).splitlines()
    expected = json.dumps({"tiles": board.codes(), **META, "index": 0})
    assert line == expected


def test_json_board_has_tiles_rows_and_the_meta_beside() -> None:
    board = Board.from_indices(range(25))
    data = json.loads(format_board(board, "json", META))
    assert data["tiles"] == board.codes()
    assert data["seed"] == 12
    assert data["constraints"]["fix"] == ["a1=5Y"]


def test_text_reader_accepts_any_order_and_case_commas_and_comments() -> None:
    text = "# a board\n" + "y5, r0 3b 4G 6v\n" * 5
    (board,) = parse_boards(text)
    assert [p.code for p in board.tiles[:5]] == ["5Y", "0R", "3B", "4G", "6V"]


def test_format_detection() -> None:
    assert detect_format("0R 3B 4G 5Y 6V\n") == "text"
    assert detect_format('{"tiles": []}') == "json"
    assert detect_format('{\n  "tiles": []\n}\n') == "json"
    assert detect_format('{"tiles": []}\n{"tiles": []}\n') == "jsonl"
    assert detect_format("[\n]") == "json"


def test_unknown_code_error_names_file_line_and_column() -> None:
    text = "0R 3B 4G 5Y 6V\n" * 2 + "0R 3B 4G 9Y 6V\n" + "0R 3B 4G 5Y 6V\n" * 2
    with pytest.raises(ParseError) as caught:
        parse_boards(text, source="b.txt")
    assert str(caught.value).startswith("b.txt:3:10: unknown code '9Y'")


def test_json_problems_are_located_inside_the_document() -> None:
    text = (
        '{\n  "tiles": [\n    ["0R", "3B", "4G", "5Y", "6V"],\n'
        '    ["0R", "3B", "XX", 4, "6V"]\n  ]\n}'
    )
    (record,) = scan_boards(text, source="b.json")
    located = [(e.line, e.column, e.message) for e in record.errors]
    assert located[0] == (2, 12, "tiles has 2 rows, expected 5")
    assert located[1][:2] == (4, 18)
    assert "unknown code 'XX'" in located[1][2]
    assert located[2] == (4, 24, "a tile must be a code like 5Y, found the number 4")


def test_malformed_json_line_is_located_and_other_lines_still_read() -> None:
    good = format_board(Board.from_indices(range(25)), "jsonl")
    records = scan_boards(good + '{"tiles": [}\n' + good, source="b.jsonl")
    assert [r.board is not None for r in records] == [True, False, True]
    (error,) = records[1].errors
    assert (error.line, error.column) == (2, 12)
    assert error.message.startswith("malformed JSON")


def test_json_without_tiles_or_of_the_wrong_kind() -> None:
    (record,) = scan_boards('{"board": 1}', source="b.json")
    assert record.errors[0].message == 'board object has no "tiles"'
    (record,) = scan_boards('["5Y"]', source="b.json")
    assert "found the string '5Y'" in record.errors[0].message


def test_read_boards_from_a_file_and_stdin_name(tmp_path: Path) -> None:
    board = Board.from_indices(range(25))
    path = tmp_path / "b.jsonl"
    write_boards(path, [board, board], "jsonl", META)
    assert read_boards(path) == [board, board]
    with pytest.raises(InputError, match="holds 2 boards, expected one"):
        read_board(path)
    single = tmp_path / "one.txt"
    single.write_text(board.text())
    assert read_board(single) == board


def test_read_boards_errors() -> None:
    with pytest.raises(InputError, match=r"no-such\.txt: no such file"):
        read_boards("no-such.txt")
    with pytest.raises(ParseError, match="no board found"):
        parse_boards("\n\n", source="empty.txt")
