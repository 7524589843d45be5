"""The backgammon commands: moves (single, JSON, batch), show, odds, met, record and replay,
simulate; one-line errors with exit code 2; records byte-identical per seed."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from runarch_gen.backgammon.record import read_match, write_match
from runarch_gen.backgammon.rules import Rules
from runarch_gen.backgammon.tools import play_game
from runarch_gen.cli import run
from runarch_gen.errors import InputError


def test_moves_json_lists_every_play_with_its_position(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["backgammon", "moves", "4HPwATDgc/ABUA", "--dice", "31", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["position"] == "4HPwATDgc/ABUA" and data["dice"] == [3, 1]
    notations = [row["notation"] for row in data["plays"]]
    assert "bar/21" in notations and all(n.startswith("bar/") for n in notations)
    assert all(len(row["position"]) == 14 for row in data["plays"])


def test_moves_of_the_start(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["backgammon", "moves", "start", "--dice", "31"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 16 and any("8/5 6/5" in line for line in lines)


def test_moves_batch_writes_one_object_a_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    closed = "4HPwATDgc/ABUA"
    monkeypatch.setattr(
        "sys.stdin",
        io.TextIOWrapper(io.BytesIO(f"4HPwATDgc/ABMA 31\n# note\n{closed} 66\n".encode())),
    )
    assert run(["backgammon", "moves", "--batch", "-"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert next(len(r["plays"]) for r in rows) == 16 and rows[1]["dice"] == [6, 6]


def test_a_roll_with_no_play_gives_an_empty_list(capsys: pytest.CaptureFixture[str]) -> None:
    from runarch_gen.backgammon.board import side_from_points
    from runarch_gen.backgammon.ids import position_id

    mover = side_from_points({25: 2, 13: 5, 8: 3, 6: 5})
    other = side_from_points({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
    assert run(["backgammon", "moves", position_id(mover, other), "-d", "55", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["plays"] == []


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["backgammon", "moves", "nonsense", "--dice", "31"], "Position ID"),
        (["backgammon", "moves", "start", "--dice", "71"], "roll"),
        (["backgammon", "moves", "start"], "--dice"),
        (["backgammon", "show", "4HPwATDgc/ABMA:zzz"], "Match ID"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    args: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err


def test_a_bad_batch_line_is_named(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        "sys.stdin",
        io.TextIOWrapper(io.BytesIO(b"4HPwATDgc/ABMA 31\n4HPwATDgc/ABMA\nzz 31\n4HPwATDgc/ABMA 66\n")),
    )
    assert run(["backgammon", "moves", "--batch", "-"]) == 1  # a line failed: exit 1 at the end
    captured = capsys.readouterr()
    assert "<stdin>:2" in captured.err and "<stdin>:3" in captured.err
    rows = [json.loads(line) for line in captured.out.splitlines()]
    # every line answered in order: the bad ones as errors, the batch went on after them
    assert [("error" in row) for row in rows] == [False, True, True, False]
    assert rows[1]["line"] == 2 and rows[3]["dice"] == [6, 6]


def test_show_odds_and_met(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["backgammon", "show", "4HPwATDgc/ABMA:QYkqASAAIAAA", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["match"]["length"] == 9 and shown["match"]["dice"] == [5, 2]
    assert run(["backgammon", "odds", "--json"]) == 0
    odds = json.loads(capsys.readouterr().out)
    assert round(odds["distance"][5]["hit"] * 100, 1) == 47.2
    assert run(["backgammon", "met", "--length", "5", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)["table"]
    assert table[0][0] == 0.5 and all(row[i] < row[i + 1] for row in table for i in range(4))


def test_records_are_the_same_for_the_same_seed_and_replay(tmp_path: Path) -> None:
    rules = Rules(match=3)
    names = ("heuristic", "random")
    first = write_match(play_game(rules, names, 9), names)
    assert first == write_match(play_game(rules, names, 9), names)
    path = tmp_path / "m.mat"
    assert (
        run(
            [
                "backgammon",
                "record",
                "--bots",
                "heuristic,random",
                "--rules",
                "match=3",
                "--seed",
                "9",
                "-o",
                str(path),
            ]
        )
        == 0
    )
    assert path.read_text() == first
    assert run(["backgammon", "replay", str(path), "--json"]) == 0


def test_money_records_with_cube_actions_replay() -> None:
    for seed in range(4):
        state = play_game(Rules(beaver=True, autodoubles=2), ("td", "td"), seed)
        again = read_match(write_match(state))[-1]
        assert again.games == state.games and again.score == state.score


def test_a_tampered_record_is_refused_with_its_line() -> None:
    text = write_match(play_game(Rules(match=1), ("heuristic", "heuristic"), 3))
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if line.strip().startswith("2)"))
    lines[index] = lines[index].replace(":", ": 24/1", 1)
    with pytest.raises(InputError, match=rf"record:{index + 1}:"):
        read_match("\n".join(lines))


@pytest.mark.parametrize(
    "junk",
    [
        "",
        "garbage\n",
        " 3 point match\n Game 1\n  1) 99: 1/2\n",
        " 1 point match\n Game 1\n  1) 31: 8/5 6/5    Takes\n",
    ],
)
def test_junk_records_are_refused_or_empty(junk: str) -> None:
    try:
        states = read_match(junk)
    except InputError:
        return
    assert states and not states[0].games


def test_simulate_reports_cube_statistics(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        run(
            [
                "backgammon",
                "simulate",
                "-n",
                "6",
                "--bots",
                "heuristic,random",
                "--seed",
                "2",
                "--workers",
                "1",
                "--json",
            ]
        )
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 6
    text = json.dumps(report)
    assert "gammon" in text and "final cube" in text


def test_a_record_in_another_programs_layout_replays() -> None:
    text = (
        '; [Variation "Backgammon"]\n\n 0 point match\n\n Game 1\n'
        " Ken : 0                              XG : 0\n"
        "  1) 41: 13/9 24/23                   Doubles => 2\n"
        "  2)  Takes                           61: 13/7 8/7\n"
        "  3) 44: 13/9 13/9 9/5 9/5            31: 8/5 6/5\n"
        "  4)  Doubles => 4                    Drops\n"
        "      Wins 2 points\n"
    )
    (state,) = read_match(text, "xg.mat")
    assert state.is_terminal() and state.score == [2, 0] and state.games[-1].drops == 1
