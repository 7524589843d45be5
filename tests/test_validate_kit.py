"""Validation in the kit: `kit` records the static verdict in manifest.json, `kit --validate`
prints the simulated games' key figures on the rules page, in both languages."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pymupdf
import pytest

from runarch_gen.cli import run
from runarch_gen.errors import InputError
from runarch_gen.runarch.kit.build import KitOptions, plan_kit, render_kit_pdf
from runarch_gen.runarch.kit.config import load_kit_config
from runarch_gen.runarch.kit.inputs import KitChecks, KitInputs, deck_document, kit_inputs
from runarch_gen.runarch.kit.rules_page import playtest_section
from runarch_gen.runarch.kit.samples import sample_board, sample_deck
from runarch_gen.runarch.rules import data_option
from runarch_gen.runarch.validation.validate import ValidationReport, validate_set


@functools.cache
def played(tokens: Path) -> ValidationReport:
    """A few simulated games, as `kit --validate` plays them; in the second variant every
    player draws an F of 11, so every game deadlocks."""
    variants = [
        "complex",
        f"complex(tokens={data_option('tokens', str(tokens), source='t')})",
        "solo",
    ]
    return validate_set(sample_board(), sample_deck(50), variants, games=6, seed=3, workers=1)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> ValidationReport:
    path = tmp_path_factory.mktemp("tokens") / "f11.toml"
    path.write_text("[tokens]\nD = [5, 6, 7]\nX = [7, 8, 9]\nF = [11]\nN = [11, 12, 13]\n")
    return played(path)


def test_kit_records_the_static_verdict_and_the_rules_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["kit", "--seed", "7", "--out", str(tmp_path), "--only", "rules"]) == 0
    err = capsys.readouterr().err
    assert "validation (static checks): playable in simple, complex, solo" in err
    assert "rules finding: complex: 1 game in 9 (11.1%) cannot end (deadlock)" in err
    folder = tmp_path / "kit-7"
    validation = json.loads((folder / "manifest.json").read_text())["validation"]
    assert validation["verdict"] == "playable" and validation["dynamic"] is None
    assert validation["variants"] == ["simple", "complex", "solo"]
    assert validation["playable"] == {"simple": True, "complex": True, "solo": True}
    (finding,) = validation["rules_findings"]
    assert finding["probability"] == "1/9" and finding["condition_values"] == {"F": [11]}
    assert {c["check"] for c in validation["checks"]} >= {"board", "goals", "minimums"}
    # validate reads the kit back: the same set, the same variants, the same verdict.
    assert run(["validate", str(folder), "--static", "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert [v["rules"] for v in again["variants"]] == validation["variants"]
    assert again["set"]["seed"] == 7


def test_kit_tokens_are_printed_and_validated_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tokens = tmp_path / "no-f11.toml"
    tokens.write_text("[tokens]\nD = [5, 6, 7]\nX = [7, 8, 9]\nF = [9, 10]\nN = [11, 12, 13]\n")
    args = ["kit", "--seed", "7", "--out", str(tmp_path), "--only", "bonus-tokens"]
    assert run([*args, "--tokens", str(tokens), "--json"]) == 0
    manifest = json.loads(capsys.readouterr().out)
    assert manifest["options"]["tokens"] == "D5/6/7 X7/8/9 F9/10 N11/12/13"
    assert {c["kind"]: c["count"] for c in manifest["components"]}["bonus_tokens"] == 22
    validation = manifest["validation"]
    assert validation["verdict"] == "playable" and validation["rules_findings"] == []
    assert all("tokens=" in v for v in validation["variants"] if v != "simple")


def test_a_bad_token_file_stops_the_kit_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tokens = tmp_path / "bad.toml"
    tokens.write_text("[tokens]\nD = [5]\nX = [7]\nF = [9]\n")
    out = tmp_path / "out"
    assert run(["kit", "--seed", "7", "--out", str(out), "--tokens", str(tokens)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "bad.toml" in err and "N:" in err
    assert not out.exists()


def test_the_checks_beside_the_drawing_give_the_same_report(tmp_path: Path) -> None:
    board, deck = sample_board(), sample_deck(50)
    inputs = KitInputs(board, deck, "", "", {})
    checks = KitChecks(inputs, ["complex"])
    try:
        checks.confirm()  # no deck file to check
        report = checks.validation()
    finally:
        checks.close()
    assert (
        report.to_json() == validate_set(board, deck, ["complex"], simulate_games=False).to_json()
    )


def test_a_deck_file_is_checked_beside_the_drawing_before_anything_is_written(
    tmp_path: Path,
) -> None:
    data = json.loads(deck_document(sample_deck(50)))
    data["cards"][0]["pattern"] = ["0R", "3R", "4G", "5Y", "6V"]  # red twice
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    inputs = kit_inputs(None, path, seed=1, check_later=True)
    assert inputs.unchecked_deck == str(path)
    checks = KitChecks(inputs, ["complex"])
    try:
        with pytest.raises(InputError, match=r"bad\.json: not a valid deck: card 1"):
            checks.confirm()
        assert not checks.validation().playable
    finally:
        checks.close()


@pytest.mark.parametrize(
    ("lang", "heading", "pieces"),
    [
        (
            "en",
            "Playtested",
            [
                "6 games of each variant were played out",
                "Full game: ",
                "the first player won",
                "Full game: 6 games (100.0 %) could not end: both players had drawn F 11",
                "(by the rules 100.0 % of games)",
                "Solo game: 6 of 6 games ended by the rules",
            ],
        ),
        (
            "cs",
            "Vyzkoušeno",
            [
                "odehrálo 6 her každé varianty",
                "Plná hra: her dohraných podle pravidel",
                "začínající hráč vyhrál",
                "Plná hra: 100,0 % her (6) nemohlo skončit: oba hráči si vylosovali F 11",
                "Sólo hra: her dohraných podle pravidel 6 z 6",
            ],
        ),
    ],
)
def test_the_key_figures_are_printed_in_the_kits_language(
    lang: str, heading: str, pieces: list[str], report: ValidationReport
) -> None:
    texts = load_kit_config().texts(lang)
    title, text = playtest_section(texts, report)
    assert title == heading
    for piece in pieces:
        assert piece in text
    # The introduction, a line per variant, and the deadlocks of the second.
    assert len(text.splitlines()) == 5


def test_the_rulebook_carries_the_figures_only_with_simulated_games(
    report: ValidationReport,
) -> None:
    def rulebook_text(validation: ValidationReport | None) -> str:
        plan = plan_kit(
            sample_board(),
            sample_deck(50),
            KitOptions(only=("rules",)),
            validation=validation,
        )
        doc = pymupdf.open(stream=render_kit_pdf(plan), filetype="pdf")
        return "".join(str(doc[i].get_text()) for i in range(len(doc)))

    with_games = rulebook_text(report)
    assert "Playtested" in with_games and "games of each variant" in with_games
    static_only = validate_set(sample_board(), sample_deck(50), simulate_games=False)
    assert "Playtested" not in rulebook_text(static_only)
    assert "Playtested" not in rulebook_text(None)
