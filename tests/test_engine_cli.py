"""``runarch-gen evaluate``: a card scored on every line of a position, from board files."""

from __future__ import annotations

import json

import pytest

from runarch_gen.cli import run
from runarch_gen.runarch.atoms import PIECES
from runarch_gen.runarch.engine.sample import sample_board
from tests.test_engine_helpers import IDENTITY

P = "0R,3B,4G,5Y,6V"


def write_board(path, pieces) -> str:
    rows = [" ".join(PIECES[pieces[r * 5 + c]].code for c in range(5)) for r in range(5)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return str(path)


@pytest.fixture
def files(tmp_path) -> tuple[str, str]:
    return write_board(tmp_path / "stones.txt", IDENTITY), write_board(
        tmp_path / "tiles.txt", sample_board().indices()
    )


def test_evaluate_lists_every_valid_line_best_first(files, capsys) -> None:
    stones, _ = files
    assert run(["evaluate", "--stones", stones, "--card", P]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["line", "pattern", "bonus", "score"]
    assert [line.split()[0] for line in lines[1:]] == [
        "r1",
        "r2",
        "r3",
        "r4",
        "r5",
        "ca",
        "cb",
        "cc",
        "cd",
        "ce",
    ]


def test_evaluate_in_phase_4_with_the_board_adds_diagonals_and_the_match_bonus(
    files, capsys
) -> None:
    stones, tiles = files
    args = ["evaluate", "--stones", stones, "--card", P, "--phase", "4", "--board", tiles]
    assert run([*args, "--match", "5Y", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    best = report["lines"][0]
    assert (best["line"], best["pattern_points"], best["match_bonus"], best["card_score"]) == (
        "d1",
        10,
        2,
        12,
    )
    assert len(report["lines"]) == 12
    assert run([*args, "--match", "5Y", "--rules", "complex(match_bonus=line)", "--json"]) == 0
    by_line = {
        row["line"]: row["match_bonus"] for row in json.loads(capsys.readouterr().out)["lines"]
    }
    assert by_line["d1"] == 0 and by_line["r4"] == 1  # the yellow 0Y stone on the yellow tile a4


def test_evaluate_says_when_a_pattern_is_valid_nowhere(files, capsys) -> None:
    stones, _ = files
    assert run(["evaluate", "--stones", stones, "--card", "3B,4G,5Y,6V,0R"]) == 0
    assert "valid on no line" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--card", "0R,3B,4G,5Q,6V"], "--card: unknown code '5Q'"),
        (["--card", "0R,3B,4G"], "--card: a pattern has 5 codes"),
        (["--card", "0R,3R,4G,5Y,6V"], "--card: 0R,3R,4G,5Y,6V repeats a colour or a shape"),
        (["--card", "0R,0B,4G,5Y,6V"], "repeats a colour or a shape"),
        (["--card", P, "--phase", "4", "--rules", "simple"], "the simple game scores rows"),
        (["--card", P, "--phase", "4"], "give --board"),
        (["--card", P, "--phase", "5"], "--phase"),
        (["--card", P, "--rules", "complex(foo=1)"], "--rules: unknown option 'foo'"),
        (
            ["--card", P, "--phase", "4", "--board", "missing.txt", "--match", "5Y"],
            "missing.txt: no such file",
        ),
        (
            ["--card", P, "--phase", "4", "--board", "STONES", "--match", "9Z"],
            "--match: unknown code",
        ),
    ],
)
def test_evaluate_bad_input_is_one_line_and_exit_2(files, capsys, extra, message) -> None:
    stones, _ = files
    extra = [stones if word == "STONES" else word for word in extra]
    assert run(["evaluate", "--stones", stones, *extra]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_evaluate_names_the_bad_line_of_a_stones_file(tmp_path, capsys) -> None:
    path = tmp_path / "stones.txt"
    path.write_text(
        "0R 3R 4R 5R 6R\n0B 3B XX 5B 6B\n0G 3G 4G 5G 6G\n0Y 3Y 4Y 5Y 6Y\n0V 3V 4V 5V 6V\n"
    )
    assert run(["evaluate", "--stones", str(path), "--card", P]) == 2
    assert f"{path}:2:" in capsys.readouterr().err


def test_evaluate_refuses_a_stone_lying_twice(tmp_path, capsys) -> None:
    path = tmp_path / "stones.txt"
    path.write_text(
        "0R 3R 4R 5R 6R\n0B 3B 4B 5B 6B\n0G 3G 4G 5G 6G\n0Y 3Y 4Y 5Y 6Y\n0V 3V 4V 5V 0R\n"
    )
    assert run(["evaluate", "--stones", str(path), "--card", P]) == 2
    assert "a stone lies twice" in capsys.readouterr().err


def test_evaluate_puts_the_best_line_first(tmp_path, capsys) -> None:
    # Row 3 holds the pattern itself: 2 points at each of its 5 positions (§4.2), 10 in all;
    # every other line scores less, so r3 must come first and the scores must not rise.
    pattern = [PIECES.index(next(p for p in PIECES if p.code == code)) for code in P.split(",")]
    rest = [i for i in IDENTITY if i not in pattern]
    stones = rest[:10] + pattern + rest[10:]
    path = write_board(tmp_path / "stones.txt", stones)
    assert run(["evaluate", "--stones", path, "--card", P, "--json"]) == 0
    lines = json.loads(capsys.readouterr().out)["lines"]
    assert lines[0]["line"] == "r3" and lines[0]["pattern_points"] == 10
    scores = [line["card_score"] for line in lines]
    assert scores == sorted(scores, reverse=True) and scores[-1] < 10
