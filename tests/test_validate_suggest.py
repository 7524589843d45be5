"""Balance findings of RunArch's simulated games and ``validate --suggest``: a planted finding
(token values that deadlock, a solo automa that cannot win) gets a change of the rules that
removes it, and the figures it reports are those of the games it played — checked here by
playing the proposed rules again, apart from the search."""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf
import pytest

from runarch_gen.cli import run
from runarch_gen.errors import InputError
from runarch_gen.play.balance import Finding
from runarch_gen.runarch.analysis.simulation import playtest_set, simulate
from runarch_gen.runarch.analysis.token_analysis import analyse_tokens, token_candidates
from runarch_gen.runarch.engine.tokens import parse_tokens_inline
from runarch_gen.runarch.rules import parse_rules
from runarch_gen.runarch.validation.balance import (
    DEADLOCK_SHARE,
    candidates,
    changed_options,
    run_findings,
)
from runarch_gen.runarch.validation.validate import suggest_fixes, validate_set

SEED = 1
GAMES = 60


@pytest.fixture(scope="module")
def chosen() -> object:
    return playtest_set(SEED)


def test_token_candidates_end_every_game_and_are_readable() -> None:
    # F 11/12/13 and X 11: both out of reach of the 10 points of phases 1-3.
    tokens = parse_tokens_inline("D5/6/7 X7/8/11 F11/12/13 N11/12/13")
    found = token_candidates(tokens, best_pattern=10, best_phase4=20)
    assert found, "a change must be found"
    for candidate in found:
        again = analyse_tokens(candidate, best_pattern=10, best_phase4=20)
        assert not again.deadlock and not again.possible
        # What the tool proposes it can read back (no value repeated).
        assert parse_tokens_inline(candidate.inline) == candidate
        assert candidate.values[3] == tokens.values[3]  # N opens phase 4: left alone
    # Smallest first: one symbol changed before both; a shift keeps the number of tokens.
    first = found[0]
    assert [len(v) for v in first.values] == [len(v) for v in tokens.values]


def test_a_planted_token_deadlock_gets_a_token_change_that_removes_it(chosen: object) -> None:
    board, deck = chosen.board, chosen.deck  # type: ignore[attr-defined]
    planted = parse_rules('complex(tokens="D5/6/7 X7/8/9 F10/11/12 N11/12/13")')
    report = validate_set(board, deck, [planted], games=GAMES, seed=SEED, workers=1)
    notes = [n for n in report.balance if n.finding.kind == "deadlock"]
    assert len(notes) == 1 and notes[0].finding.measure > DEADLOCK_SHARE
    fixed = suggest_fixes(report, board, deck, games=GAMES, seed=SEED, workers=1)
    note = next(n for n in fixed.balance if n.finding.kind == "deadlock")
    assert note.suggestion is not None and note.suggestion.found
    assert set(note.suggestion.change) == {"tokens"}
    assert note.fixed is not None
    # Played again apart from the search: the reported figure, and the finding gone.
    again = simulate(
        rules=parse_rules(note.fixed),
        board=board,
        deck=deck,
        bots=["greedy"],
        games=GAMES,
        seed=SEED,
        workers=1,
    )
    assert again.deadlocks / again.games == note.suggestion.after
    assert again.deadlocks <= DEADLOCK_SHARE * again.games
    assert note.suggestion.after is not None and note.suggestion.after < note.suggestion.before
    assert "deadlock" not in {f.kind for f in run_findings(again)}


def test_a_one_sided_solo_game_gets_the_automa_level_nearest_even(chosen: object) -> None:
    board, deck = chosen.board, chosen.deck  # type: ignore[attr-defined]
    report = validate_set(board, deck, ["solo"], games=GAMES, seed=SEED, workers=1)
    one_sided = [n for n in report.balance if n.finding.kind == "solo"]
    assert one_sided and one_sided[0].finding.subject == "player"
    assert one_sided[0].finding.measure > 0.9 and one_sided[0].finding.is_finding
    fixed = suggest_fixes(report, board, deck, games=GAMES, seed=SEED, workers=1)
    note = next(n for n in fixed.balance if n.finding.kind == "solo")
    assert note.suggestion is not None and note.suggestion.found
    # The whole ladder of levels was played, nearest the validated level first ...
    assert [label for label, _ in note.suggestion.tried] == [f"automa={k}" for k in (2, 3, 4, 5)]
    rates = {int(label[-1]): m for label, m in note.suggestion.tried}
    # ... and the level proposed is the one whose win rate is nearest 50 %.
    level = int(note.suggestion.change["automa"])
    assert abs(rates[level] - 0.5) == min(abs(m - 0.5) for m in rates.values())
    ladder = note.automa_ladder()
    assert ladder.startswith("1 100.0% (validated) · 2 ") and ladder.count("·") == 4
    again = simulate(
        rules=parse_rules(f"solo(automa={level})"),
        board=board,
        deck=deck,
        bots=["greedy"],
        games=GAMES,
        seed=SEED,
        workers=1,
    )
    assert again.wins_by_seat()["player"].rate == note.suggestion.after
    # The kit command rebuilds the validated set (generated from the seed) with the change.
    assert note.kit == f"runarch-gen kit --seed {SEED} --variant 'solo(automa={level})'"


def test_findings_that_are_not_a_matter_of_the_rules_get_no_candidates(chosen: object) -> None:
    board, deck = chosen.board, chosen.deck  # type: ignore[attr-defined]
    goals = Finding("goals", "2 goals never met", 0.1, "never met")
    stronger = Finding("dominant", "bot lookahead wins 70 %", 0.7, "bot lookahead")
    for finding in (goals, stronger):
        assert candidates(parse_rules("complex"), finding, board, deck.cards) == []
    # A seat edge is tried against options with few values, each changing one option.
    seat = Finding("seat", "the first player has an edge", 0.6, "first")
    tries = candidates(parse_rules("complex"), seat, board, deck.cards)
    assert tries and all(len(changed_options(parse_rules("complex"), t)) == 1 for t in tries)


def test_validate_suggest_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["validate", "--seed", str(SEED), "-n", str(GAMES), "-j", "1", "--variant", "solo"]
    assert run([*args, "--suggest", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    one_sided = next(b for b in report["balance"] if b["kind"] == "solo")
    assert one_sided["suggestion"]["change"]["automa"] in {"2", "3", "4", "5"}
    assert one_sided["fixed_rules"].startswith("solo(automa=")
    assert one_sided["kit_command"].startswith(f"runarch-gen kit --seed {SEED} --variant ")
    assert len(one_sided["suggestion"]["tried"]) == 4
    assert run(args) == 0  # without --suggest: the finding, no search
    out = capsys.readouterr().out
    assert "balance findings (not failures):" in out
    assert "solo: solo: the player against the automa won" in out
    assert "suggestion:" not in out


def test_the_kit_prints_a_variant_to_try(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["kit", "--seed", "3", "-o", str(tmp_path), "--only", "rules"]
    assert run([*args, "--variant", "solo(automa=3)", "--name", "k"]) == 0
    capsys.readouterr()
    doc = pymupdf.open(tmp_path / "k" / "kit.pdf")
    text = "".join(doc[i].get_text() for i in range(doc.page_count))
    assert "Variants to try" in text
    assert "the automa's level (solo game): 3 instead of 1" in " ".join(text.split())
    manifest = json.loads((tmp_path / "k" / "manifest.json").read_text())
    assert manifest["options"]["variants"] == ["solo(automa=3)"]
    # A variant that changes nothing is refused in one line, nothing written.
    assert run([*args, "--variant", "solo", "--name", "none"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--variant solo: changes none" in err
    assert not (tmp_path / "none").exists()


def test_kit_options_refuse_too_many_variants() -> None:
    from runarch_gen.runarch.kit.build import MAX_VARIANTS, KitOptions

    many = tuple(f"solo(automa={1 + k % 4 + 1})" for k in range(MAX_VARIANTS + 1))
    with pytest.raises(InputError, match="at most"):
        KitOptions(variants=many).checked()


def test_runarch_reports_goal_and_bet_figures_to_sweeps() -> None:
    from runarch_gen.games import game_values
    from runarch_gen.play.playtest import playtest

    registration, values = game_values("runarch", "variant=complex,set=sample")
    played = playtest(registration, values, ["greedy"], games=6, seed=2, workers=1)
    for result in played.results:
        figures = dict(result.statistics)
        placed, won = figures["bets placed"], figures["bets won"]
        assert isinstance(placed, tuple) and isinstance(won, tuple) and len(placed) == 2
        assert all(0 <= w <= p for w, p in zip(won, placed, strict=True))  # type: ignore[operator]
        assert set(figures["secret goal met"]) <= {0, 1}  # type: ignore[arg-type]
    # The simple game has neither goals nor bets.
    registration, values = game_values("runarch", "variant=simple,set=sample")
    simple = playtest(registration, values, ["greedy"], games=2, seed=2, workers=1)
    assert "bets won" not in dict(simple.results[0].statistics)


def test_a_search_cut_short_reports_no_suggestion_and_keeps_the_verdict(chosen: object) -> None:
    board, deck = chosen.board, chosen.deck  # type: ignore[attr-defined]
    report = validate_set(board, deck, ["solo"], games=GAMES, seed=SEED, workers=1)

    def stop(done: int) -> None:
        raise KeyboardInterrupt  # Ctrl-C during the first candidate's games

    cut = suggest_fixes(report, board, deck, games=GAMES, seed=SEED, workers=1, advance=stop)
    assert cut.interrupted and cut.exit_code == 130
    assert all(note.suggestion is None for note in cut.balance)
    lines = cut.lines()
    assert any(line.startswith("verdict: PLAYABLE") for line in lines)
    assert lines[-1] == "interrupted while searching for suggestions: the verdict stands"
    assert not any("suggestion:" in line for line in lines)
