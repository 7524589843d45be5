"""``runarch-gen validate``: a kit folder, files or a seed; the verdict as exit code; JSON; bad
input as one line on stderr with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runarch_gen.cli import run
from runarch_gen.runarch.boards.generate import generate_board
from runarch_gen.runarch.boards.io import format_board
from runarch_gen.runarch.decks.io import deck_to_json
from tests.test_deckgen import generated

SEED = 7


def one_line(err: str) -> str:
    assert err.count("\n") == 1, err
    return err.strip()


@pytest.fixture
def kit(tmp_path: Path) -> Path:
    """A folder laid out as `runarch-gen kit --seed 7` writes it (board, deck, manifest)."""
    folder = tmp_path / "kit-7"
    folder.mkdir()
    (folder / "board.json").write_text(format_board(generate_board(seed=SEED), "json"))
    (folder / "deck.json").write_text(deck_to_json(generated(50, SEED)[0]))
    (folder / "manifest.json").write_text(json.dumps({"seed": SEED, "pages": 1}))
    return folder


def test_a_kit_folder_passes_the_static_checks_with_the_rules_finding(
    kit: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["validate", str(kit), "--static"]) == 0
    out = capsys.readouterr()
    lines = out.out.splitlines()
    assert lines[0] == "static checks (RULES §9.1):"
    assert any(line.startswith("RULES FINDING — complex: 1 game in 9 (11.1%)") for line in lines)
    assert lines[-1] == (
        "verdict: PLAYABLE — the set can be played in simple, complex, solo (1 rules finding above)"
    )
    assert out.err == ""  # the seed came from the manifest


def test_strict_makes_the_rules_finding_fail_the_set(
    kit: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["validate", str(kit), "--static", "--strict", "--variant", "complex"]) == 1
    out = capsys.readouterr().out
    assert "verdict: NOT PLAYABLE" in out and "rules finding (strict): complex:" in out


def test_the_manifest_names_the_variants_and_the_seed(
    kit: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = {"seed": 11, "validation": {"variants": ["complex(stall=6)"]}}
    (kit / "manifest.json").write_text(json.dumps(manifest))
    assert run(["validate", str(kit), "--games", "2", "--workers", "1", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["variants"] == [{"rules": "complex(stall=6)", "playable": False}]
    assert report["set"]["seed"] == 11 and report["set"]["kit"] == str(kit)
    assert report["dynamic"][0]["seed"] == 11 and report["dynamic"][0]["stalls"] == 2


def test_the_stall_tolerance_is_an_option(kit: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["validate", str(kit), "--games", "2", "--workers", "1", "--variant", "complex(stall=6)"]
    assert run([*args, "--stall-tolerance", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["stall_tolerance"] == 1 and report["dynamic"][0]["unexplained_stalls"] == 2
    assert run([*args, "--stall-tolerance", "1.5"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--stall-tolerance" in err[0]


def test_files_replace_the_kits_own_and_a_broken_deck_fails(
    kit: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads((kit / "deck.json").read_text())
    data["cards"][0]["goal"] = {
        "kind": "colour",
        "colour": "blue",
        "colour_count": 11,
        "reward": 12,
    }
    deck = tmp_path / "broken.json"
    deck.write_text(json.dumps(data))
    code = run(["validate", str(kit), "--deck", str(deck), "--static", "--variant", "solo"])
    assert code == 1
    out = capsys.readouterr().out
    # The number of different goals, counted from the file: a goal is its kind, colour,
    # shape and thresholds (not its reward); the new blue>=11 is one of them.
    different = {
        tuple(sorted((k, v) for k, v in card["goal"].items() if k != "reward"))
        for card in data["cards"]
    }
    assert f"  FAIL  goals (solo): 1 of {len(different)} goals cannot be met" in out
    assert "card 1, goal: blue>=11 cannot be met" in out and "verdict: NOT PLAYABLE" in out


def test_a_seed_generates_the_set_and_a_line_bonus_fails_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = run(["validate", "--seed", "7", "--static", "--variant", "complex(match_bonus=line)"])
    assert code == 1
    out = capsys.readouterr().out
    assert "token N 13: a minimum of 13 cannot be reached with match_bonus=line" in out


def test_the_help_names_the_defaults_the_library_uses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from runarch_gen.runarch.validation.validate import DEFAULT_BOTS, DEFAULT_GAMES

    assert run(["validate", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.replace("│", " ").split())
    assert f"(default {DEFAULT_GAMES})" in text and f"Default: {','.join(DEFAULT_BOTS)}." in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["validate", "no-such-folder"], "no-such-folder: not a kit folder (no such directory)"),
        (["validate", "{tmp}"], "not a kit folder: no board.json"),
        (["validate", "--board", "{tmp}/missing.json", "--static"], "missing.json"),
        (["validate", "--deck", "{tmp}/bad.json", "--static"], "bad.json:1"),
        (["validate", "--variant", "complex(deal=3)", "--static"], "option deal (R-04)"),
        (["validate", "--variant", "chess", "--static"], "unknown variant 'chess'"),
        (["validate", "--bots", "wizard", "--games", "1"], "unknown bot 'wizard'"),
        (["validate", "--games", "0"], "--games"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bad.json").write_text('{"format": "runarch-deck", "cards": [')
    board = tmp_path / "board.txt"  # not a kit's board.json: the folder stays no kit
    board.write_text(format_board(generate_board(seed=SEED), "json"))
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    if "--deck" in args:
        args += ["--board", str(board)]
    assert run(args) == 2
    captured = capsys.readouterr()
    assert message in one_line(captured.err) and captured.out == ""


def test_a_malformed_manifest_is_bad_input(kit: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (kit / "manifest.json").write_text("{")
    assert run(["validate", str(kit), "--static"]) == 2
    assert "manifest.json:1:2: malformed JSON" in one_line(capsys.readouterr().err)
