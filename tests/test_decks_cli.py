"""``runarch-gen deck`` and ``runarch-gen check`` on decks: output, reports, exit codes, and bad
input as one line on stderr with nothing half-written."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from runarch_gen.cli import run
from runarch_gen.runarch.decks.io import CSV_COLUMNS, deck_to_csv, deck_to_json, read_deck
from tests.test_deckgen import generated


def one_line(err: str) -> str:
    assert err.count("\n") == 1, err
    return err.strip()


def test_deck_writes_json_or_csv_by_extension_and_reports_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "deck.csv"
    assert run(["deck", "--cards", "30", "--seed", "1", "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "smallest difference between two patterns: 4 (best possible 4:" in captured.err
    assert "proven optimal" in captured.err
    assert out.read_text().splitlines()[0] == ",".join(CSV_COLUMNS)
    # The same deck as the library makes with the same seed, byte for byte (the command adds
    # nothing and loses nothing) ...
    assert out.read_text() == deck_to_csv(generated(30, 1)[0])
    # ... and what it wrote is right by the independent deck checker: 30 cards, no violation.
    from runarch_gen.runarch.decks.check import check_deck_text

    checked = check_deck_text(out.read_text(), source=str(out))
    assert checked.cards == 30 and checked.violations == ()


def test_deck_json_report_goes_to_stdout_and_the_deck_to_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "deck.json"
    assert run(["deck", "-n", "30", "--seed", "1", "-o", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["smallest_difference"] == report["best_possible"] == 4
    assert report["proven_optimal"] is True
    assert report["solver"]["parameters"]["num_workers"] == 1
    assert report["witnesses"] and report["output"] == str(out)
    assert out.read_text() == deck_to_json(generated(30, 1)[0])


def test_check_reads_a_generated_deck_in_either_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = generated(30, 1)[0]
    for name, text in (("d.json", deck_to_json(deck)), ("d.csv", deck_to_csv(deck))):
        path = tmp_path / name
        path.write_text(text)
        assert run(["check", str(path)]) == 0
        out = capsys.readouterr().out
        assert out.splitlines()[-1] == f"{path}: 30 cards, valid, balanced (§9.2)"
        assert "smallest difference between two patterns: 4" in out
        assert run(["check", str(path), "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["kind"] == "deck" and data["valid"] and data["balanced"]


def test_check_of_a_bad_deck_exits_1_naming_card_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = generated(30, 1)[0]
    lines = deck_to_csv(deck).splitlines()
    cells = lines[3].split(",")
    cells[-1] = cells[-2]  # both arrows the same
    lines[3] = ",".join(cells)
    path = tmp_path / "bad.csv"
    path.write_text("\n".join(lines) + "\n")
    assert run(["check", str(path)]) == 1
    out = capsys.readouterr().out
    card = cells[0]
    assert (
        f"{path}: card {card}, arrows: {cells[-1]},{cells[-1]}: the two directions must differ"
        in (out)
    )


def test_check_of_an_unreadable_deck_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = deck_to_csv(generated(30, 1)[0]).replace("\n1,", "\n1,9Q", 1)
    path = tmp_path / "bad.csv"
    path.write_text(text)
    assert run(["check", str(path)]) == 2
    err = one_line(capsys.readouterr().err)
    assert f"{path}:2:2: column p1: unknown code" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--cards", "20"], "--cards 20: a deck has 30 to 100 cards [R-01]"),
        (["--cards", "101"], "--cards 101: a deck has 30 to 100 cards [R-01]"),
        (["--cards", "52", "--exact", "matches"], "--exact matches: 52 cards cannot give each"),
        (
            ["--exact", "colours"],
            "--exact colours: unknown balance target; expected one of stones,",
        ),
        (["--json"], "--json prints the report on stdout: give -o FILE"),
        (["--format", "xml"], "Invalid value for '--format'"),
        (["--cards", "many"], "Invalid value for '--cards'"),
    ],
)
def test_bad_options_exit_2_with_one_line_and_no_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    out = tmp_path / "deck.json"
    output = [] if "--json" in args else ["-o", str(out)]
    assert run(["deck", "--seed", "1", *output, *args]) == 2
    assert message in one_line(capsys.readouterr().err)
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_unwritable_output_exits_2_and_leaves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert run(["deck", "-n", "30", "--seed", "1", "-o", str(blocker / "deck.json")]) == 2
    assert "cannot write" in one_line(capsys.readouterr().err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_deck_to_stdout_without_a_seed_reports_the_seed_and_runs_as_a_program() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "runarch_gen", "deck", "-n", "30", "--format", "csv"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(",".join(CSV_COLUMNS))
    seed = done.stderr.strip().splitlines()[-1].rsplit("--seed ", 1)[1].rstrip(")")
    again = subprocess.run(
        [
            sys.executable,
            "-m",
            "runarch_gen",
            "deck",
            "-n",
            "30",
            "--format",
            "csv",
            "--seed",
            seed,
        ],
        capture_output=True,
        text=True,
    )
    assert again.stdout == done.stdout


def test_a_written_deck_reads_back(tmp_path: Path) -> None:
    out = tmp_path / "deck.json"
    assert run(["deck", "-n", "30", "--seed", "1", "-o", str(out)]) == 0
    assert read_deck(out) == generated(30, 1)[0]
