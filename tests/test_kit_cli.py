"""``runarch-gen kit``: the folder it writes, its manifest, options, and bad input (one line,
exit 2, nothing half-written)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pymupdf
import pytest

from runarch_gen.cli import run
from runarch_gen.runarch.decks.cards import Card, Deck
from runarch_gen.runarch.kit.inputs import board_document, deck_document
from runarch_gen.runarch.kit.samples import sample_board, sample_deck


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("inputs")
    board, deck = folder / "board.json", folder / "deck.json"
    board.write_text(board_document(sample_board()))
    deck.write_text(deck_document(sample_deck(30)))
    return board, deck


def kit_args(board: Path, deck: Path, out: Path | str, *more: str) -> list[str]:
    """``runarch-gen kit`` with a board and a deck file, into ``out``."""
    return ["kit", "--board", str(board), "--deck", str(deck), "--out", str(out), *more]


@pytest.fixture(scope="module")
def kit_folder(inputs, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("out")
    board, deck = inputs
    assert run(kit_args(board, deck, out, "--name", "k", "--lang", "cs")) == 0
    return Path(out / "k")


def test_the_kit_folder_holds_pdf_previews_inputs_and_manifest(kit_folder: Path, inputs) -> None:
    names = {p.name for p in kit_folder.iterdir()}
    assert {
        "kit.pdf",
        "board.json",
        "deck.json",
        "manifest.json",
        "preview-board.png",
        "preview-cards.png",
    } <= names
    assert any(n.startswith("preview-page-") and "tiles" in n for n in names)
    manifest = json.loads((kit_folder / "manifest.json").read_text())
    for name, entry in manifest["files"].items():
        data = (kit_folder / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]
    for name, path in zip(("board", "deck"), inputs, strict=True):
        source = manifest["inputs"][name]
        assert source["file"] == path.name
        assert source["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert manifest["seed"] is None  # nothing was generated
    assert (kit_folder / "board.json").read_text() == inputs[0].read_text()
    doc = pymupdf.open(kit_folder / "kit.pdf")
    assert manifest["pages"] == len(doc) == manifest["pages_per_paper"]["a4"]
    assert manifest["pages_per_paper"]["letter"] > 0
    kinds = {c["kind"]: c["count"] for c in manifest["components"]}
    assert kinds["cards"] == 30 and kinds["tiles"] == 25
    frame = next(c for c in manifest["components"] if c["kind"] == "frame")
    assert frame["segments"] == 4 and frame["count"] == 8
    assert manifest["generator"]["name"] == "runarch-gen"
    assert manifest["options"]["lang"] == "cs" and manifest["paper"]["name"] == "a4"


def test_the_same_inputs_give_a_byte_identical_kit_in_another_process(kit_folder, inputs, tmp_path):
    board, deck = inputs
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "runarch_gen",
            *kit_args(board, deck, tmp_path, "--name", "again", "--lang", "cs"),
        ],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    for name in os.listdir(kit_folder):
        assert (tmp_path / "again" / name).read_bytes() == (kit_folder / name).read_bytes(), name


def test_json_report(inputs, tmp_path, capsys) -> None:
    board, deck = inputs
    code = run(
        kit_args(
            board,
            deck,
            tmp_path,
            "--name",
            "j",
            "--only",
            "tiles,bet-tokens",
            "--paper",
            "letter",
            "--json",
        )
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["folder"].endswith("j")
    assert [c["kind"] for c in report["components"]] == ["tiles", "bet_tokens"]
    assert report["paper"]["name"] == "letter"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--paper", "a5"], "unknown paper 'a5'"),
        (["--lang", "de"], "unknown language 'de'"),
        (["--bleed", "40"], "does not fit on a4 paper"),
        (["--bleed", "-1"], "--bleed"),
        (["--duplex", "sideways"], "unknown duplex 'sideways'"),
        (["--duplex-offset", "1"], "--duplex-offset: expected X,Y"),
        (["--duplex-offset", "20,0"], "--duplex-offset 20,0 is more than 5 mm"),
        (["--only", "tiles,dragons"], "unknown component 'dragons'"),
    ],
)
def test_bad_options_are_one_line_exit_2_and_write_nothing(inputs, tmp_path, capsys, args, message):
    board, deck = inputs
    code = run(kit_args(board, deck, tmp_path, "--name", "bad", *args))
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and message in err, err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("which", "text", "message"),
    [
        ("board", '{"tiles": [["0R"]]', "board.json:1:"),
        ("board", '{"tiles": [["0R","3B","4G","5Y","QQ"]]}', "board.json"),
        ("board", "0R 3B 4G 5Y 6V\n" * 5, "board.json: not a valid board: column a repeats"),
        ("deck", '{"cards": [{"id": 1}]}', "deck.json:1:1: missing field 'format'"),
        ("deck", "", "deck.json"),
    ],
)
def test_bad_board_or_deck_files_are_exit_2(inputs, tmp_path, capsys, which, text, message):
    board, deck = inputs
    bad = tmp_path / f"{which}.json"
    bad.write_text(text)
    paths = {"board": board, "deck": deck, which: bad}
    out = tmp_path / "out"
    code = run(kit_args(paths["board"], paths["deck"], out, "--name", "bad"))
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and message in err, err
    assert not out.exists()


def test_an_invalid_deck_is_exit_2_with_the_checkers_findings(inputs, tmp_path, capsys) -> None:
    board, _ = inputs
    cards = sample_deck(30).cards
    twin = Card(30, cards[0].pattern, cards[1].match, cards[1].goal, cards[1].arrows)
    deck = tmp_path / "twins.json"
    deck.write_text(deck_document(Deck((*cards[:29], twin))))
    code = run(kit_args(board, deck, tmp_path / "o"))
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "twins.json: not a valid deck: card 30, pattern: the same pattern as card 1" in err
    assert not (tmp_path / "o").exists()


def test_a_missing_file_is_named(inputs, tmp_path, capsys) -> None:
    _, deck = inputs
    code = run(kit_args(tmp_path / "nope.json", deck, tmp_path))
    assert code == 2 and "nope.json: no such file" in capsys.readouterr().err


def test_an_unwritable_folder_is_exit_2_and_an_old_kit_survives(inputs, tmp_path, capsys):
    board, deck = inputs
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    code = run(kit_args(board, deck, blocker, "--name", "k", "--only", "bet-tokens"))
    assert code == 2 and "cannot write" in capsys.readouterr().err
    # A failing run leaves an existing kit folder as it was.
    old = tmp_path / "out" / "k"
    old.mkdir(parents=True)
    (old / "kit.pdf").write_text("old")
    code = run(kit_args(board, deck, old.parent, "--name", "k", "--bleed", "40"))
    assert code == 2
    assert (old / "kit.pdf").read_text() == "old"
    assert sorted(p.name for p in old.parent.iterdir()) == ["k"]


def test_a_template_overrides_layouts_and_texts(inputs, tmp_path, capsys) -> None:
    board, deck = inputs
    template = tmp_path / "mine.toml"
    template.write_text(
        "[components.tile]\nwidth = 55.0\nheight = 55.0\n\n"
        '[texts.en]\nprint_note = "Scale 100 percent, please"\n'
    )
    code = run(
        kit_args(
            board,
            deck,
            tmp_path,
            "--name",
            "t",
            "--only",
            "tiles",
            "--template",
            str(template),
            "--json",
        )
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["components"][0]["sizes_mm"] == [[55.0, 55.0]]
    doc = pymupdf.open(tmp_path / "t" / "kit.pdf")
    # Page 1 says how to print the whole file; the template's note is on every other front.
    assert "Scale 100 percent, please" in doc[2].get_text()


def test_a_broken_template_names_the_file(inputs, tmp_path, capsys) -> None:
    board, deck = inputs
    template = tmp_path / "broken.toml"
    template.write_text("[components.card]\nwidth = -3\n")
    code = run(kit_args(board, deck, tmp_path, "--name", "t", "--template", str(template)))
    err = capsys.readouterr().err
    assert (
        code == 2 and "broken.toml" in err and "[components.card] 'width' must be a number" in err
    )
