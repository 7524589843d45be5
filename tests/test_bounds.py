"""Bounds on work: inputs that would make a command run for minutes or fill the memory are
refused up front, with one line and exit 2, before any real work (well within a second; the
limit asserted here is loose so that a busy machine does not fail it)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from runarch_gen.cli import run
from runarch_gen.runarch.decks.io import deck_to_csv, deck_to_json
from runarch_gen.runarch.engine.sample import sample_deck

QUICK = 5.0  # seconds: a refusal comes before the work, not after it


def refused(args: list[str], capsys: pytest.CaptureFixture[str], message: str) -> None:
    started = time.perf_counter()
    code = run(args)
    elapsed = time.perf_counter() - started
    err = capsys.readouterr().err
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], err
    assert elapsed < QUICK, f"refused only after {elapsed:.1f} s"


@pytest.fixture
def decks(tmp_path: Path) -> Path:
    cards = deck_to_csv(sample_deck(50)).splitlines()
    (tmp_path / "dup.csv").write_text("\n".join([*cards[:3], cards[2], *cards[4:]]) + "\n")
    data = json.loads(deck_to_json(sample_deck(50)))
    data["cards"][0]["arrows"] = ["N"] * 50
    (tmp_path / "fifty-arrows.json").write_text(json.dumps(data))
    data["cards"][0]["arrows"] = ["N", "E", "S"]
    (tmp_path / "three-arrows.json").write_text(json.dumps(data))
    big = json.loads(deck_to_json(sample_deck(100)))
    big["cards"] = [dict(card, id=i + 1) for i, card in enumerate(big["cards"] * 5)]
    (tmp_path / "500.json").write_text(json.dumps(big))
    big["cards"] = big["cards"] * 3
    (tmp_path / "1500.json").write_text(json.dumps(big))
    return tmp_path


@pytest.mark.parametrize(
    ("command", "deck", "message"),
    [
        ("validate", "dup.csv", "card id 2 appears twice"),
        ("kit", "dup.csv", "card id 2 appears twice"),
        ("simulate", "dup.csv", "card id 2 appears twice"),
        ("kit", "fifty-arrows.json", "at most 8 arrows"),
        ("kit", "three-arrows.json", "card 1 has 3 arrows; a card shows 2"),
        ("kit", "500.json", "500 cards; a deck has 30 to 100"),
        ("validate", "1500.json", "more than 1000 cards"),
    ],
)
def test_decks_that_cannot_be_played_are_refused_before_the_work(
    decks: Path, command: str, deck: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    extra = {
        "kit": ["--out", str(decks / "out"), "--only", "cards"],
        "validate": ["--static"],
        "simulate": ["--games", "2"],
    }[command]
    refused([command, "--deck", str(decks / deck), "--seed", "1", *extra], capsys, message)
    assert not (decks / "out").exists()


@pytest.mark.parametrize(
    ("variant", "message"),
    [
        ("complex(tokens=D1/2/3/4/5/6 X7 F9 N11)", "at most 4 values per symbol"),
        ("complex(tokens=D99999999999 X7 F9 N11)", "values are whole numbers from 1 to 100"),
        ("complex(conditions=99999999999999999999·1·1)", "a count is at most 10"),
        ("complex(conditions=" + "|".join(["total 5"] * 201) + ")", "at most 200 conditions"),
        ("complex(stall=100000000000)", "stall"),
    ],
)
def test_rules_values_are_bounded(
    variant: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    refused(["simulate", "--variant", variant, "--games", "1", "--seed", "1"], capsys, message)


def test_counts_beyond_what_exists_are_refused_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    refused(["boards", "-n", "6220801", "--seed", "1"], capsys, "only 6220800 boards meet")
    refused(["simulate", "--games", "100000000", "--seed", "1"], capsys, "--games")


def test_a_charts_folder_that_cannot_be_written_is_refused_before_the_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "charts"
    blocker.write_text("a file, not a folder")
    args = ["simulate", "--games", "5000", "--seed", "1", "--plots", str(blocker)]
    refused(args, capsys, "cannot make the charts folder")
    refused(["runarch", "simulate", *args[1:]], capsys, "cannot make the charts folder")
    assert blocker.read_text() == "a file, not a folder"


def _die() -> None:
    import os
    import signal

    os.kill(os.getpid(), signal.SIGKILL)


def test_a_background_child_that_dies_is_one_clear_error() -> None:
    from runarch_gen.background import Forked
    from runarch_gen.errors import RunArchError

    job = Forked(_die, what="the kit's checks")
    with pytest.raises(
        RunArchError,
        match="the kit's checks stopped without a result: its process was killed by SIGKILL",
    ):
        job.result()
