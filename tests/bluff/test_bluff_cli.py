"""``runarch-gen bluff``: rules, odds, solve, simulate; one-line errors and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runarch_gen.cli import run


def test_rules_prints_the_tagged_document(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["bluff", "rules"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("# Bluff") and "[L-11]" in text and "★k between" in text


def test_odds_table_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["bluff", "odds", "--hidden", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["need"] for r in data["rows"]] == [0, 1, 2, 3]
    assert data["rows"][3]["number_exact"] == "1/27" and data["rows"][3]["star_exact"] == "1/216"


def test_odds_of_one_bid_counts_the_dice_you_see(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["bluff", "odds", "--hidden", "4", "--hand", "3,★", "--bid", "3x3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] == "65/81" and data["bid"] == "3×3"
    assert run(["bluff", "odds", "--hidden", "4", "--bid", "2x★"]) == 0
    assert "2×★ holds with chance 0.1319 (19/144)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bid", "11xq"], "--bid: a face is 1 to 5"),
        (["--hand", "1,7"], "--hand: a face is 1 to 5"),
        (["--hidden", "500"], "--hidden"),
        (["--rules", "faces=99"], "faces is at most 8"),
        (["--bid", "0x3"], "--bid: 0×3 is not on the scale"),
        (["--bid", "11x*"], "--bid: 11×★ is not on the scale"),
        (["--bid", "21x3"], "--bid: 21×3 is not on the scale"),
        (["--bid", "2x★", "--rules", "scale=1/2/3"], "--bid: 2×★ is not on the scale"),
        (["--hand", ",".join(["3"] * 40)], "--hand: 40 dice, but the game has 24 in play"),
        (["--hand", "3,3", "--hidden", "23"], "make 25 dice, but the game has 24 in play"),
        (["--rules", "players=2", "--hidden", "13"], "the game has 12 in play"),
    ],
)
def test_odds_errors_are_one_line_and_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["bluff", "odds", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_odds_default_hides_every_die_you_do_not_see(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(["bluff", "odds", "--rules", "players=6", "--hand", "3,★", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["hidden"] == 28  # six players, five dice each
    assert run(["bluff", "odds", "--bid", "20x5", "--hidden", "24", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["exact"] == "187361/282429536481"  # P(B(24,1/3)≥20)


def test_solve_reports_value_and_bots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scale = tmp_path / "tiny.txt"
    scale.write_text("1\n*1\n2\n", "utf-8")
    args = ["bluff", "solve", "--rules", f"faces=2,scale={scale}", "--target", "0.001"]
    assert run([*args, "--json", "--lp"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exploitability"] < 0.001
    assert data["value"] == pytest.approx(data["lp_value"], abs=0.002)
    assert set(data["bots"]) == {"random", "odds", "bayes"}
    assert all(row["exploitability"] >= 0 for row in data["bots"].values())


def test_solve_saves_a_strategy_that_check_measures_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "s.npz"
    args = ["bluff", "solve", "--rules", "faces=2,scale=1/★1/2/3", "--bots", "cfr"]
    assert run([*args, "--save", str(path), "--json"]) == 0
    solved = json.loads(capsys.readouterr().out)
    assert solved["saved"]["file"] == str(path) and path.stat().st_size > 0
    assert run(["bluff", "solve", "--check", str(path), "--json"]) == 0
    checked = json.loads(capsys.readouterr().out)
    assert checked["exploitability"] == solved["saved"]["exploitability"]
    assert checked["dice"] == [1, 1] and checked["window"] == 0
    path.write_bytes(b"PK\x03\x04 not a strategy")
    assert run(["bluff", "solve", "--check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "s.npz: not a strategy file" in err


def test_solve_with_a_window_measures_in_the_full_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["bluff", "solve", "--rules", "faces=2,scale=1/★1/2/3", "--bots", ""]
    assert run([*args, "--window", "2", "--iterations", "30", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["window"] == 2 and data["iterations"] == 30
    assert data["method"] == "cfr+ on the last 2 bids" and data["exploitability"] > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--dice", "1"], "--dice: two counts"),
        (["--dice", "3,1"], "--dice: each player has 1 or 2 dice"),
        (["--dice", "2,2", "--window", "0"], "24 bids: the whole tree is solved up to 20"),
        (["--dice", "1,2", "--lp"], "--lp: the linear program is for up to 14 bids, not 18"),
        (["--dice", "1,2", "--rules", "reroll=on"], "no show and re-roll"),
        (["--bots", "oracle"], "unknown bot 'oracle'"),
        (["--rules", "scale=/no/such/scale"], "no such file"),
        (["--check", "/no/such/strategy.npz"], "no such file"),
    ],
)
def test_solve_errors_are_one_line_and_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["bluff", "solve", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_simulate_reports_bluffs_figures_the_same_for_one_and_two_workers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["bluff", "simulate", "-n", "12", "--rules", "players=3,exact=all", "--seed", "4"]
    assert run([*args, "--bots", "random,odds", "--json", "--workers", "1"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert run([*args, "--bots", "random,odds", "--json", "--workers", "2"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert one == two and one["games"] == 12
    text = json.dumps(one)
    for figure in ("dice lost per challenge", "doubts right", "exact hits", "bids", "rounds"):
        assert figure in text


def test_a_bad_scale_file_names_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scale = tmp_path / "bad.txt"
    scale.write_text("1\n2\n2\n", "utf-8")
    assert run(["bluff", "simulate", "-n", "2", "--rules", f"scale={scale}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{scale}:3:1: field 2 is already on line 2" in err


def test_validate_fails_a_scale_whose_every_bid_is_false_at_the_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scale = tmp_path / "high.txt"
    scale.write_text("3\n4\n*3\n", "utf-8")
    assert run(["bluff", "validate", "-n", "0", "--seed", "1", "--rules", f"scale={scale}"]) == 1
    assert "cannot bid anything true [L-04]" in capsys.readouterr().out
    assert run(["bluff", "validate", "-n", "10", "--seed", "1", "--rules", "players=3"]) == 0
    assert "PLAYABLE" in capsys.readouterr().out
