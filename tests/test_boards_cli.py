"""The board commands as a user and a script see them: outputs, exit codes, one-line errors,
no partial files."""

import io
import json
from pathlib import Path

import pytest

from runarch_gen.cli import run
from runarch_gen.runarch.boards.check import is_valid_board
from runarch_gen.runarch.boards.generate import BoardConstraints, count_boards
from runarch_gen.runarch.boards.io import parse_boards, read_boards

VALID = "0R 3B 4G 5Y 6V\n5G 6Y 0V 3R 4B\n3V 4R 5B 6G 0Y\n6B 0G 3Y 4V 5R\n4Y 5V 6R 0B 3G\n"


def stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def test_board_prints_five_lines_of_five_codes_and_reports_a_fresh_seed(capsys) -> None:
    assert run(["board"]) == 0
    out, err = capsys.readouterr()
    (board,) = parse_boards(out)
    assert len(out.splitlines()) == 5 and all(len(line.split()) == 5 for line in out.splitlines())
    assert is_valid_board(board)
    seed = int(err.split("--seed ")[1].rstrip(")\n"))
    assert run(["board", "--seed", str(seed)]) == 0
    assert capsys.readouterr().out == out


def test_board_json_records_seed_and_constraints(capsys) -> None:
    args = ["board", "--seed", "4", "--diagonals", "--fix", "c3=y5", "--forbid", "a1=0R"]
    assert run([*args, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seed"] == 4
    assert data["engine"] == "exact"
    assert data["constraints"] == {"diagonals": True, "fix": ["c3=5Y"], "forbid": ["a1=0R"]}
    assert data["tiles"][2][2] == "5Y" and data["tiles"][0][0] != "0R"
    (board,) = parse_boards(json.dumps(data))
    assert is_valid_board(board, diagonals=True)


def test_board_output_format_follows_the_file_extension(tmp_path: Path, capsys) -> None:
    for name in ("b.txt", "b.json"):
        assert run(["board", "--seed", "1", "-o", str(tmp_path / name)]) == 0
    assert "wrote" in capsys.readouterr().err
    assert read_boards(tmp_path / "b.txt") == read_boards(tmp_path / "b.json")
    assert json.loads((tmp_path / "b.json").read_text())["seed"] == 1


def test_board_png(tmp_path: Path) -> None:
    from PIL import Image

    path = tmp_path / "board.png"
    assert run(["board", "--seed", "1", "-o", str(path)]) == 0
    with Image.open(path) as image:
        assert image.format == "PNG"
        assert image.width == image.height > 400


def test_board_text_on_stdout_with_a_png_beside(tmp_path: Path, capsys) -> None:
    from PIL import Image

    path = tmp_path / "out" / "board.png"
    assert run(["board", "--seed", "8", "--png", str(path)]) == 0
    out, err = capsys.readouterr()
    assert is_valid_board(parse_boards(out)[0])
    assert f"wrote {path} (seed 8)" in err
    with Image.open(path) as image:
        assert image.format == "PNG"


def test_boards_writes_distinct_json_lines(capsys) -> None:
    assert run(["boards", "--count", "50", "--seed", "2", "--diagonals"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 50
    records = [json.loads(line) for line in lines]
    assert [r["index"] for r in records] == list(range(50))
    assert {r["seed"] for r in records} == {2}
    boards = parse_boards("\n".join(lines))
    assert len(set(boards)) == 50
    assert all(is_valid_board(b, diagonals=True) for b in boards)


def test_same_seed_same_bytes(tmp_path: Path) -> None:
    outputs = []
    for name in ("a.jsonl", "b.jsonl"):
        path = tmp_path / name
        assert run(["boards", "-n", "500", "--seed", "9", "--fix", "b2=4G", "-o", str(path)]) == 0
        outputs.append(path.read_bytes())
    assert outputs[0] == outputs[1]


def test_boards_text_format_round_trips_through_check(tmp_path: Path, capsys) -> None:
    path = tmp_path / "boards.txt"
    assert run(["boards", "-n", "20", "--seed", "3", "-o", str(path)]) == 0
    assert len(read_boards(path)) == 20
    assert run(["check", str(path)]) == 0
    assert "20 boards: 20 valid" in capsys.readouterr().out


def test_count_prints_the_exact_number(capsys) -> None:
    # Relabelling colours and shapes keeps B-1 and B-2 and takes any tile to any other, so each
    # of the 25 tiles lies on a1 in exactly 1/25 of the boards: 6,220,800 / 25 = 248,832 under
    # B-1 (the total is counted two ways in test_boardgen) and 57,600 / 25 = 2,304 under B-2.
    def count(*options: str) -> int:
        assert run(["count", "--json", *options]) == 0
        return int(json.loads(capsys.readouterr().out)["count"])

    assert count() == 6_220_800 and count("--diagonals") == 57_600
    assert run(["count", "--diagonals", "--fix", "a1=0R"]) == 0
    assert capsys.readouterr().out.strip() == str(57_600 // 25)
    pinned = count("--fix", "a1=0R")
    assert pinned == 6_220_800 // 25
    # A forbidden tile leaves the boards without it: the pinned ones minus those that have it.
    both = count("--fix", "a1=0R", "--fix", "b2=3B")
    assert 0 < both < pinned
    assert count("--fix", "a1=0R", "--forbid", "b2=3B") == pinned - both


def test_count_of_contradictory_options_is_an_error_naming_them(capsys) -> None:
    assert run(["count", "--json", "--fix", "a1=5Y", "--fix", "a2=5R"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert "--fix a1=5Y and --fix a2=5R put two 5s in column a" in err


# ---------------------------------------------------------------------------------------------
# check


def test_check_exit_codes(tmp_path: Path, monkeypatch, capsys) -> None:
    path = tmp_path / "b.txt"
    path.write_text(VALID)
    assert run(["check", str(path)]) == 0
    assert capsys.readouterr().out == f"{path}: 1 board, valid (B-1)\n"
    stdin(monkeypatch, VALID.replace("0R 3B", "3B 0R", 1))
    assert run(["check", "-"]) == 1
    out = capsys.readouterr().out
    assert "<stdin>:1: column a repeats shape 3 (triangle) on a1, a3" in out
    stdin(monkeypatch, VALID.replace("6V", "6Z"))
    assert run(["check", "-"]) == 2
    assert "<stdin>:1:13: unknown code '6Z'" in capsys.readouterr().out


def test_check_json_report(tmp_path: Path, capsys) -> None:
    path = tmp_path / "b.jsonl"
    assert run(["boards", "-n", "3", "--seed", "1", "-o", str(path)]) == 0
    with path.open("a") as handle:
        handle.write('{"tiles": "no"}\n')
    capsys.readouterr()
    assert run(["check", "--json", "--diagonals", str(path)]) == 2
    data = json.loads(capsys.readouterr().out)
    assert data["boards"] == 4 and data["unreadable"] == 1
    assert data["results"][3]["errors"][0]["line"] == 4
    assert data["exit_code"] == 2


# ---------------------------------------------------------------------------------------------
# Bad input: one line on stderr, exit 2, no output file


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["board", "--fix", "z9=5Y"], "--fix z9=5Y: unknown square 'z9'"),
        (["board", "--fix", "a1=9Q"], "--fix a1=9Q: unknown code '9Q'"),
        (["board", "--forbid", "a1"], "--forbid a1: expected SQUARE=CODE"),
        (["board", "--fix", "a1=5Y", "--fix", "a1=0R"], "both fix square a1"),
        (
            ["board", "--fix", "a1=5Y", "--fix", "a2=5R"],
            "--fix a1=5Y and --fix a2=5R put two 5s in column a",
        ),
        (["boards", "--count", "0"], "--count"),
        (["boards", "--count", "-3"], "--count"),
        (["board", "--format", "pdf"], "--format"),
        (["board", "--engine", "fast"], "--engine"),
    ],
)
def test_bad_options(args: list[str], expected: str, tmp_path: Path, capsys) -> None:
    out = tmp_path / "out.txt"
    assert run([*args, "-o", str(out)]) == 2
    assert expected in one_line_error(capsys)
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_more_boards_than_exist_says_how_many(tmp_path: Path, capsys) -> None:
    fixes = ["a1=0R", "b1=3B", "c1=4G", "d1=5Y", "e1=6V"]
    total = count_boards(BoardConstraints.parse(fixes=fixes, diagonals=True))
    options = [arg for fix in fixes for arg in ("--fix", fix)]
    out = tmp_path / "b.jsonl"
    args = ["boards", "-n", str(total + 1), "--diagonals", *options, "-o", str(out)]
    assert run(args) == 2
    assert f"only {total} boards meet" in one_line_error(capsys)
    assert not out.exists()


def test_unreadable_files_and_unwritable_paths(tmp_path: Path, capsys) -> None:
    assert run(["check", str(tmp_path / "missing.txt")]) == 2
    assert "missing.txt: no such file" in one_line_error(capsys)
    assert run(["check", str(tmp_path)]) == 2
    assert "is a folder" in one_line_error(capsys)
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert run(["board", "-o", str(blocker / "board.txt")]) == 2
    assert "cannot write" in one_line_error(capsys)


def test_check_of_unreadable_boards_reports_on_stdout_and_errs_one_line(
    tmp_path: Path, capsys
) -> None:
    path = tmp_path / "b.txt"
    path.write_text(VALID.replace("0R", "Q5", 1))
    assert run(["check", str(path)]) == 2
    out, err = capsys.readouterr()
    assert "unknown code 'Q5'" in out
    assert err == f"runarch-gen: error: {path}: could not be read (see the report)\n"


@pytest.mark.parametrize("fmt", ["jsonl", "text"])
def test_many_boards_are_streamed_in_parts_into_the_same_file(tmp_path, fmt) -> None:
    from runarch_gen.runarch.boards.generate import generate_boards
    from runarch_gen.runarch.boards.io import format_boards

    out = tmp_path / f"b.{fmt}"
    assert run(["boards", "-n", "20000", "--seed", "4", "--format", fmt, "-o", str(out)]) == 0
    meta = {
        "seed": 4,
        "engine": "exact",
        "constraints": {"diagonals": False, "fix": [], "forbid": []},
    }
    whole = format_boards(generate_boards(20000, seed=4), fmt, meta if fmt == "jsonl" else None)
    assert out.read_text() == whole
    assert [p.name for p in tmp_path.iterdir()] == [out.name]
