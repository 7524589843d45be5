"""One verdict everywhere, the same families in every game, each game's own findings, and the
metrics in every game's ``validate --json``."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pymupdf
import pytest

from runarch_gen.cli import run
from runarch_gen.games import find_registration, game_values, registered_games
from runarch_gen.play.balance import FINDING
from runarch_gen.play.design import design_of
from runarch_gen.play.report import GameResult
from runarch_gen.play.verdict import judge, validate_game
from runarch_gen.runarch.validation.validate import load_set, validate_set

GAMES = ("runarch", "bluff", "malacca", "backgammon")


# ---------------------------------------------------------------------------------------------
# One verdict


@pytest.mark.parametrize("seed", [1, 7])
def test_the_workshop_the_kit_and_the_command_line_agree_on_a_set(seed: int) -> None:
    # The workshop plays RunArch through its registration; `validate` and the kit through the
    # set's own validation. The same set, rules, bots, games and seed: the same games (stalls
    # and proven deadlocks alike) and the same verdict. The complex game deadlocks in about one
    # game in nine with the default tokens: counted as stalls these failed the workshop alone.
    registration, values = game_values("runarch", f"variant=complex,set={seed}")
    workshop = validate_game(registration, values, games=40, seed=seed, workers=1, skill=False)
    chosen = load_set(seed=seed)
    kit = validate_set(
        chosen.board, chosen.deck, ["complex"], games=40, seed=seed, workers=1, skill_games=0
    )
    (a,), (b,) = workshop.dynamic, kit.dynamic
    assert (a.games, a.stalls, a.deadlocks) == (b.games, b.stalls, b.deadlocks)
    assert a.deadlocks > 0
    assert workshop.verdict == kit.verdict == "playable"
    assert workshop.exit_code == kit.exit_code == 0
    # the same static checks, and the token analysis's rules finding as a check that fails
    # only when strict
    assert {c.name for c in kit.checks} < {c.name for c in workshop.checks}
    finding = next(c for c in workshop.checks if c.strict_only)
    assert finding.failures and workshop.playable


def test_the_web_playtest_reports_the_verdict_of_validate(tmp_path: Path) -> None:
    import os

    from runarch_gen.web.worker import playtest_task

    options = {"game": "bluff", "rules": "players=2", "bots": [], "games": 30, "seed": 4}
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = playtest_task(options, Path())
    finally:
        os.chdir(here)
    registration, values = game_values("bluff", "players=2")
    verdict = validate_game(registration, values, games=30, seed=4, workers=1)
    assert result["verdict"]["verdict"] == verdict.verdict
    assert result["verdict"]["metrics"] == verdict.to_json()["metrics"]
    assert result["verdict"]["balance"] == verdict.to_json()["balance"]
    assert any(line.startswith("design metrics") for line in result["verdict_lines"])


def test_judge_counts_deadlocks_apart_and_strict_fails_them() -> None:
    assert judge([], [("g", 100, 9, 9)]).playable
    assert not judge([], [("g", 100, 9, 3)]).playable  # 6 stalls without a proof: > 5 %
    strict = judge([], [("g", 100, 9, 9)], strict=True)
    assert not strict.playable and strict.reasons == ("g: 9 of 100 games deadlocked (strict)",)
    assert judge([], [("g", 100, 0, 0)], interrupted=True).exit_code == 130


# ---------------------------------------------------------------------------------------------
# Every game: a ladder, a line-up, a standing, and metrics in validate --json


@pytest.mark.parametrize("name", GAMES)
def test_every_game_declares_a_ladder_from_random_and_a_line_up_on_it(name: str) -> None:
    registration = find_registration(name)
    design = design_of(name)
    assert len(design.ladder) >= 3 and design.ladder[0] == "random"
    assert set(design.ladder) <= set(registration.bots)
    _, values = game_values(name, "")
    lineup = design.lineup(values)
    assert lineup and all(bot in design.ladder for bot in lineup) and design.lineup_note
    assert design.strongest(lineup) != design.bottom


@pytest.mark.parametrize("name", GAMES)
def test_every_standing_gives_each_side_an_equal_start_on_one_scale(name: str) -> None:
    import random

    registration, values = game_values(name, "set=sample" if name == "runarch" else "")
    game = registration.load(values)
    design = design_of(name)
    assert design.standing is not None
    from runarch_gen.play.game import sample_chance

    rng = random.Random(1)
    state = game.new_initial_state(rng)
    while state.is_chance_node():  # the opening rolls and deals
        state.apply(sample_chance(state, rng))
    start = design.standing(state)
    assert len(start) >= 2 and len(set(start)) == 1 and all(0 <= x <= 1 for x in start)


@pytest.mark.parametrize(
    ("name", "rules"),
    [
        ("bluff", "players=2"),
        ("malacca", "players=3,characters=random,equipment=on"),
        ("backgammon", ""),
    ],
)
def test_validate_json_has_the_metrics_the_line_up_and_each_findings_figures(
    name: str, rules: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [name, "validate", "-n", "40", "--seed", "3", "-j", "1", "--json"]
    assert run([*args, "--rules", rules] if rules else args) in (0, 1)
    data = json.loads(capsys.readouterr().out)
    metrics = data["metrics"]
    assert set(metrics) >= {"completion", "balance", "drama", "skill_trace", "decision_moves"}
    assert all(
        m["value"] is None or (m["low"] is None or m["low"] <= m["value"] <= m["high"])
        for m in metrics.values()
    )
    assert metrics["skill_trace"]["value"] is not None and data["skill"]["strong"]
    assert "default line-up" in data["lineup"]
    for finding in data["balance"]:
        assert finding["level"] in ("finding", "note")
        if finding["p_value"] is not None:
            assert finding["effect"]["low"] is not None and finding["p_adjusted"] is not None


def test_runarch_validate_json_has_one_metrics_object_per_variant(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        run(["validate", "--seed", "2", "-n", "20", "--skill-games", "10", "-j", "1", "--json"])
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert list(data["metrics"]) == ["simple", "complex", "solo"]
    assert data["metrics"]["solo"]["first_player_edge"]["value"] is None  # one player
    assert data["metrics"]["complex"]["deadlock_rate"]["unit"] == "share of games"
    simulated = data["dynamic"][1]["simulation"]["metrics"]  # the games alone: no skill trace
    assert simulated == {**data["metrics"]["complex"], "skill_trace": simulated["skill_trace"]}
    assert data["metrics"]["complex"]["skill_trace"]["value"] is not None


# ---------------------------------------------------------------------------------------------
# Each game's own findings


def played(results: list[GameResult]) -> Any:
    return SimpleNamespace(results=results, sides=("a", "b"), exclude=(), interrupted=False)


def test_bluff_star_fields_priced_unlike_number_fields_are_a_scale_finding() -> None:
    from runarch_gen.bluff.design import bluff_findings

    figures = (
        ("star bids doubted", 4),
        ("star bids held", 1),
        ("number bids doubted", 10),
        ("number bids held", 6),
    )
    games = [
        GameResult(i, ("x", "x"), 0, 9, "end", False, (0,), (0, 0), (0, 0), figures)
        for i in range(100)
    ]
    (finding,) = bluff_findings(played(games), {})
    assert finding.kind == "scale" and finding.level == FINDING
    assert finding.measure == 0.25 and finding.fair == 0.6
    even = (
        ("star bids doubted", 4),
        ("star bids held", 2),
        ("number bids doubted", 10),
        ("number bids held", 5),
    )
    fair = [
        GameResult(i, ("x", "x"), 0, 9, "end", False, (0,), (0, 0), (0, 0), even)
        for i in range(100)
    ]
    assert bluff_findings(played(fair), {}) == []


def test_bluff_variants_are_played_against_the_seeds_rules() -> None:
    registration, values = game_values("bluff", "players=4,variant=original")
    verdict = validate_game(registration, values, games=80, seed=5, workers=1, skill=False)
    variant = [f for f in verdict.findings if f.kind == "variant"]
    length = next(f for f in variant if f.subject == "length")
    # the seed calls variant 1 "a little faster": its games are shorter
    assert length.effect is not None and length.effect.value < 0 and length.unit == "rounds"
    plain = validate_game(
        *game_values("bluff", "players=3"), games=20, seed=5, workers=1, skill=False
    )
    assert not [f for f in plain.findings if f.kind == "variant"]


def test_malacca_equipment_worth_more_than_its_price_is_a_finding() -> None:
    from runarch_gen.malacca.design import malacca_findings

    games = [
        GameResult(
            i,
            ("m",) * 2,
            0,
            12,
            "last ship",
            False,
            (i % 2,),
            (0, 0),
            (0, 0),
            (
                ("better trade net, bought in round 02", (4 + i % 3, 2)),
                ("better attack net, bought in round 03", (i % 5 - 2,)),
            ),
        )
        for i in range(60)
    ]
    found = {f.subject: f for f in malacca_findings(played(games), {})}
    assert set(found) == {"better trade"}  # the attack card nets about nothing
    trade = found["better trade"]
    assert trade.level == FINDING and trade.unit == "silver" and trade.tests == 2
    assert trade.measure == pytest.approx((5 * 60 + 2 * 60) / 120)


def test_vrhcaby_gammons_and_the_cube() -> None:
    from runarch_gen.backgammon.design import backgammon_findings

    def session(i: int) -> GameResult:
        first_wins = i % 2 == 0
        gammon = 1.0 if (first_wins and i % 4 == 0) else 0.0
        end = "dropped" if i % 10 < 6 else ("gammon" if gammon else "single")
        return GameResult(
            i,
            ("td", "td"),
            0,
            40,
            end,
            False,
            (0 if first_wins else 1,),
            (1, 0),
            (1, -1),
            (("games", 1.0), ("gammon", gammon)),
        )

    found = {f.kind: f for f in backgammon_findings(played([session(i) for i in range(400)]), {})}
    assert found["gammons"].measure == 0.5 and found["gammons"].fair == 0.0
    assert found["cube"].measure == 0.6 and found["cube"].level == FINDING


def test_every_registered_game_gets_the_common_families() -> None:
    # A family every game has, seen in each: the second bot of the ladder against random is
    # a dominant bot in 40 games — except in Malacca, where morgan gains little over random
    # (its skill trace says so) and the bot family is only checked to be there.
    for registration in registered_games():
        name = registration.game_type.short_name
        if name not in GAMES:
            continue
        if name == "malacca":
            from runarch_gen.play.balance import bot_tests
            from runarch_gen.play.playtest import playtest

            reg, values = game_values(name, "")
            games = playtest(reg, values, ["morgan", "random"], games=20, seed=2, workers=1)
            (test,) = bot_tests(games.results, games.sides)  # two bots: one test
            assert test.subject in ("morgan", "random") and test.fair == 0.25
            continue
        design = design_of(name)
        strong = design.strongest(design.ladder[1:2])
        rules = "variant=simple,set=sample" if name == "runarch" else ""
        reg, values = game_values(name, rules)
        verdict = validate_game(
            reg, values, bots=[str(strong), "random"], games=40, seed=2, workers=1, skill=False
        )
        bot = [f for f in verdict.findings if f.kind == "bot" and f.is_finding]
        assert bot and bot[0].subject == strong, name


# ---------------------------------------------------------------------------------------------
# The kit prints the suggested token values


def test_a_kit_with_a_token_variant_prints_its_values_on_the_tokens(tmp_path: Path) -> None:
    tokens = "D5/6/7 X7/8/9 F8/9/10 N11/12/13"
    args = ["kit", "--seed", "1", "-o", str(tmp_path), "--only", "bonus-tokens", "--name", "k"]
    assert run([*args, "--variant", f'complex(tokens="{tokens}")']) == 0
    manifest = json.loads((tmp_path / "k" / "manifest.json").read_text())
    assert manifest["options"]["tokens"] == "default"
    assert manifest["options"]["printed_tokens"] == tokens
    doc = pymupdf.open(tmp_path / "k" / "kit.pdf")
    backs = " ".join(doc[doc.page_count - 1].get_text().split())
    # both colours: X 7/8/9, F 8/9/10 and N 11/12/13 (the default F is 9/10/11)
    assert backs.count("≥8") == 4 and backs.count("≥10") == 2 and backs.count("≥11") == 2


def test_the_kit_command_rebuilds_the_set_from_its_files_or_its_seed() -> None:
    from runarch_gen.runarch.validation.balance import kit_command

    files = {"board": {"file": "my board.json"}, "deck": {"file": "deck.csv"}, "seed": 3}
    assert kit_command(files, 'complex(tokens="D5 X7 F8 N11")') == (
        "runarch-gen kit --board 'my board.json' --deck deck.csv"
        " --variant 'complex(tokens=\"D5 X7 F8 N11\")'"
    )
    half = {"board": {"file": "b.json"}, "deck": {"generated": True}, "seed": 9}
    assert kit_command(half, "solo(automa=4)") == (
        "runarch-gen kit --board b.json --seed 9 --variant 'solo(automa=4)'"
    )
