"""The backgammon commands: moves (single, JSON, batch), show, odds, met, record and replay,
simulate; one-line errors with exit code 2; records byte-identical per seed."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import numpy as np
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
        io.TextIOWrapper(
            io.BytesIO(b"4HPwATDgc/ABMA 31\n4HPwATDgc/ABMA\nzz 31\n4HPwATDgc/ABMA 66\n")
        ),
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


def test_show_prints_the_ids_and_jacoby(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["backgammon", "show", "4HPwATDgc/ABMA:MIEuAAAAAAAE", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["position_id"] == "4HPwATDgc/ABMA"
    assert shown["match_id"] == "MIEuAAAAAAAE" and shown["jacoby"] is False
    assert run(["backgammon", "show", "4HPwATDgc/ABMA:cAkAAAAAAAAA"]) == 0
    out = capsys.readouterr().out
    assert "Match ID: cAkAAAAAAAAA" in out and "Jacoby on" in out


def test_hint_ranks_every_play(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["backgammon", "hint", "4HPwATDgc/ABMA", "--dice", "31", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    plays = report["plays"]
    assert len(plays) == 16 and plays[0]["play"] == "8/5 6/5"
    assert all(len(p["position"]) == 14 for p in plays)
    assert {"equity", "win", "win_gammon", "win_backgammon", "lose_gammon"} <= set(plays[0])
    assert plays[0]["difference"] == 0.0


def test_hint_with_a_match_id_gives_match_winning_chances(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # a 1-point match, 53 to play (the dice come from the Match ID)
    assert (
        run(["backgammon", "hint", "4HPwATDgc/ABMA:MIEuAAAAAAAE", "--bot", "neural", "--json"]) == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert report["dice"] == [5, 3]
    top = report["plays"][0]
    # double match point: the match winning chance is the chance to win the game
    assert top["match_winning_chance"] == pytest.approx(top["win"], abs=1e-3)


def test_cube_hint_before_the_roll(capsys: pytest.CaptureFixture[str]) -> None:
    from runarch_gen.backgammon.board import side_from_points
    from runarch_gen.backgammon.ids import position_id

    # far ahead in a race: double and the opponent passes
    me = side_from_points({6: 2, 5: 3, 4: 3, 3: 3, 2: 2, 1: 2})
    you = side_from_points({18: 5, 15: 5, 12: 5})
    assert run(["backgammon", "hint", position_id(me, you), "--json"]) == 0
    cube = json.loads(capsys.readouterr().out)["cube"]
    assert cube["action"] in ("double/pass", "too good") and not cube["take"]
    assert run(["backgammon", "hint", "4HPwATDgc/ABMA"]) == 0
    assert "no double" in capsys.readouterr().out


def test_hint_batch_goes_on_past_a_bad_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        "sys.stdin",
        io.TextIOWrapper(io.BytesIO(b"4HPwATDgc/ABMA 31\nnot-an-id 31\n4HPwATDgc/ABMA\n")),
    )
    assert run(["backgammon", "hint", "--batch", "-", "--bot", "neural"]) == 1
    captured = capsys.readouterr()
    rows = [json.loads(line) for line in captured.out.splitlines()]
    assert "plays" in rows[0] and rows[1]["line"] == 2 and "cube" in rows[2]
    assert "<stdin>:2" in captured.err


def test_hint_refuses_an_unknown_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["backgammon", "hint", "start", "--dice", "31", "--bot", "heuristic"]) == 2
    assert "--bot" in capsys.readouterr().err


def test_analyze_reports_error_rates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.mat"
    path.write_text(write_match(play_game(Rules(match=1), ("heuristic", "random"), 4)))
    assert run(["backgammon", "analyze", str(path), "--bot", "neural", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    white, black = report["players"]
    assert white["moves"] > 5 and black["moves"] > 5
    # the random bot errs far more than the heuristic one
    assert black["move_error_mp"] > white["move_error_mp"]
    assert black["rating"] in ("beginner", "awful") and black["blunders"]
    blunder = black["blunders"][0]
    assert blunder["played"] != blunder["best"] and blunder["error"] >= 0.08


@pytest.mark.parametrize(
    ("text", "line"),
    [("", 1), ("hello world\n", 1), ("\n\n; comment\nhello\n", 4)],
)
def test_replay_refuses_what_is_not_a_record(
    text: str, line: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "x.mat"
    path.write_text(text)
    assert run(["backgammon", "replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{path}:{line}:" in err


def test_replay_refuses_a_system_file(capsys: pytest.CaptureFixture[str]) -> None:
    if not Path("/etc/passwd").is_file():
        pytest.skip("no /etc/passwd here")
    assert run(["backgammon", "replay", "/etc/passwd"]) == 2
    assert "/etc/passwd:1:" in capsys.readouterr().err


def test_a_match_gnubg_exported_replays_and_is_written_back_the_same() -> None:
    # gnubg 1.07's export of a 5-point match (its date line, columns, move order, a drop's
    # win on the drop's row): read, replayed, and written again line for line
    text = (Path(__file__).parent / "gnubg_export.mat").read_text()
    (state,) = read_match(text, "gnubg_export.mat")
    assert state.is_terminal() and max(state.score) >= 5
    theirs = [line.rstrip() for line in text.splitlines() if "EventDate" not in line]
    while theirs and not theirs[0]:
        theirs.pop(0)
    ours = [line.rstrip() for line in write_match(state, ("white", "black")).splitlines()]
    assert ours == theirs


def test_train_writes_reproducible_weights_and_averages_starts(tmp_path: Path) -> None:
    from runarch_gen.backgammon.nets import Evaluator

    small = ["--hidden", "4", "--race-hidden", "3", "--games", "2"]
    paths = [tmp_path / f"{name}.npz" for name in ("a", "again", "b", "mean")]
    for path, seed in zip(paths[:3], ("1", "1", "2"), strict=True):
        assert run(["backgammon", "train", *small, "--seed", seed, "-o", str(path)]) == 0
    a, again, b = (Evaluator.load(path) for path in paths[:3])
    assert np.array_equal(a.contact.w1, again.contact.w1)
    assert not np.array_equal(a.contact.w1, b.contact.w1)
    starts = ["--start", str(paths[0]), "--start", str(paths[2])]
    assert run(["backgammon", "train", "--games", "0", *starts, "-o", str(paths[3])]) == 0
    mean = Evaluator.load(paths[3])
    # the weights are written in single precision
    assert np.allclose(mean.contact.w1, (a.contact.w1 + b.contact.w1) / 2, atol=1e-6)


def test_train_with_cross_entropy_is_another_run(tmp_path: Path) -> None:
    from runarch_gen.backgammon.nets import Evaluator

    small = ["--hidden", "4", "--race-hidden", "3", "--games", "2", "--seed", "3"]
    plain, entropy = tmp_path / "plain.npz", tmp_path / "entropy.npz"
    assert run(["backgammon", "train", *small, "-o", str(plain)]) == 0
    assert run(["backgammon", "train", *small, "--cross-entropy", "-o", str(entropy)]) == 0
    assert not np.array_equal(Evaluator.load(plain).contact.w2, Evaluator.load(entropy).contact.w2)


def test_train_refuses_a_missing_start(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.npz"
    assert run(["backgammon", "train", "--start", str(missing), "--games", "0"]) == 2
    err = capsys.readouterr().err
    assert "missing.npz" in err and len(err.strip().splitlines()) == 1


def test_train_every_writes_the_weights_of_a_shorter_run(tmp_path: Path) -> None:
    from runarch_gen.backgammon.nets import Evaluator

    small = ["--hidden", "4", "--race-hidden", "3", "--seed", "4"]
    long_run, short_run = tmp_path / "long.npz", tmp_path / "short.npz"
    assert run(["backgammon", "train", *small, "--games", "4", "--every", "2",
                "-o", str(long_run)]) == 0  # fmt: skip
    assert run(["backgammon", "train", *small, "--games", "2", "-o", str(short_run)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long-2.npz", "long.npz", "short.npz"]
    checkpoint, short = Evaluator.load(tmp_path / "long-2.npz"), Evaluator.load(short_run)
    assert np.array_equal(checkpoint.contact.w1, short.contact.w1)
    assert not np.array_equal(checkpoint.contact.w1, Evaluator.load(long_run).contact.w1)


def test_train_widens_a_start_to_more_hidden_units(tmp_path: Path) -> None:
    from runarch_gen.backgammon.nets import Evaluator

    small, wide = tmp_path / "small.npz", tmp_path / "wide.npz"
    common = ["--race-hidden", "3", "--seed", "2"]
    assert run(["backgammon", "train", *common, "--hidden", "4", "--games", "1",
                "-o", str(small)]) == 0  # fmt: skip
    assert run(["backgammon", "train", *common, "--hidden", "6", "--games", "0",
                "--start", str(small), "-o", str(wide)]) == 0  # fmt: skip
    narrow, widened = Evaluator.load(small), Evaluator.load(wide)
    assert widened.contact.w1.shape[1] == 6
    assert np.array_equal(widened.contact.w1[:, :4], narrow.contact.w1)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p.write_text("root:x:0:0\n"), "not an .npz archive"),
        (lambda p: np.savez(p, version=np.array([])), "without a feature-set version"),
        (lambda p: np.savez(p, version=np.array([7.0])), "another feature set"),
        (os.mkfifo, "not a regular file"),
    ],
)
def test_train_refuses_a_start_that_is_not_weights(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Any, message: str
) -> None:
    start = tmp_path / "start.npz"
    make(start)
    output = tmp_path / "out.npz"
    assert run(["backgammon", "train", "--games", "0", "--start", str(start),
                "-o", str(output)]) == 2  # fmt: skip
    err = capsys.readouterr().err
    assert message in err and "start.npz" in err and len(err.strip().splitlines()) == 1
    assert not output.exists()


def test_train_refuses_weights_whose_shapes_do_not_fit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from runarch_gen.backgammon.nets import Evaluator

    good = tmp_path / "good.npz"
    Evaluator.fresh(4, 3, 1).save(good)
    with np.load(good) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["contact_w2"] = arrays["contact_w2"][:2]  # 2 rows for 4 hidden units
    bad = tmp_path / "bad.npz"
    np.savez(bad, **arrays)
    assert run(["backgammon", "train", "--games", "0", "--start", str(bad)]) == 2
    assert "contact network's weights do not fit together" in capsys.readouterr().err


def test_a_weights_file_that_unpacks_too_large_is_refused(tmp_path: Path) -> None:
    import zipfile

    from runarch_gen.backgammon.nets import Evaluator
    from runarch_gen.fileio import MAX_INPUT_BYTES

    bomb = tmp_path / "bomb.npz"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("contact_w1.npy", bytes(MAX_INPUT_BYTES + 1))
    assert bomb.stat().st_size < 1024 * 1024
    with pytest.raises(InputError, match="bytes unpacked"):
        Evaluator.load(bomb)


def test_train_refuses_averaging_or_narrowing_other_sizes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from runarch_gen.backgammon.nets import Evaluator

    four, five = tmp_path / "four.npz", tmp_path / "five.npz"
    Evaluator.fresh(4, 3, 1).save(four)
    Evaluator.fresh(5, 3, 1).save(five)
    starts = ["--start", str(four), "--start", str(five)]
    assert run(["backgammon", "train", "--games", "0", *starts]) == 2
    assert "five.npz has networks of another size than" in capsys.readouterr().err
    assert run(["backgammon", "train", "--games", "0", "--start", str(five), "--hidden", "4"]) == 2
    assert "widened, not narrowed" in capsys.readouterr().err
