"""Final scoring: the worked bet cases of RULES.md §6.3, through the library, a played position
and ``runarch-gen tally``; the settlement rules one by one."""

from __future__ import annotations

import json

import pytest

from runarch_gen.cli import run
from runarch_gen.errors import ParseError
from runarch_gen.runarch.atoms import parse_piece
from runarch_gen.runarch.engine.scoring import (
    ArchiveBet,
    FinalPosition,
    settle,
    settle_archive_bet,
    settle_goal_bet,
)
from runarch_gen.runarch.engine.setup import GOLD, SILVER
from runarch_gen.runarch.engine.stages import OVER, RunArchTermination
from runarch_gen.runarch.engine.tally import tally, tally_from_json
from runarch_gen.runarch.rules import RulesConfig, parse_rules
from tests.test_engine_helpers import make_game, position

M = 13
# (archive counts left, middle, right), bets (archive, cards, gold), result — RULES.md §6.3.
WORKED = {
    "article example 1": ((3, 2, 5), [(0, 3, True), (1, 2, False), (2, 5, True)], 43),
    "article example 2": ((3, 2, 5), [(0, 4, True), (1, 2, False), (2, 5, True)], 14),
    "article example 3": (
        (4, 4, 2),
        [(0, 4, True), (0, 3, False), (1, 3, True), (1, 4, False), (2, 4, True), (2, 3, False)],
        -24,
    ),
    "hedge": ((3, 0, 0), [(0, 4, True), (0, 3, False)], -3),
}
NAMES = ("left", "middle", "right")


@pytest.mark.parametrize("case", WORKED)
def test_worked_bet_cases_through_the_library(case: str) -> None:
    counts, bets, expected = WORKED[case]
    position_ = FinalPosition(
        card_points=0,
        best=M,
        archives=tuple((parse_piece("0R"),) * n for n in counts),  # bets read counts only
        archive_bets=tuple(ArchiveBet(a, n, g) for a, n, g in bets),
    )
    assert settle(position_, RulesConfig()).score().part("archive_bets") == expected


@pytest.mark.parametrize("case", WORKED)
def test_worked_bet_cases_through_a_played_position(case: str) -> None:
    counts, bets, expected = WORKED[case]
    game = make_game("complex", size=40)
    state = position(game)
    cards = iter(range(len(game.cards)))
    state.archives[0] = [[next(cards) for _ in range(n)] for n in counts]
    for archive, cards_bet, gold in bets:
        state.bets[0][archive * 4 + cards_bet - 2] = GOLD if gold else SILVER
    state.bests = [M, M]
    state.stage, state.termination = OVER, RunArchTermination.TENTH_CARD
    outcome = state.outcome()
    assert outcome is not None and outcome.scores[0].part("archive_bets") == expected


def tally_json(case: str) -> dict[str, object]:
    counts, bets, _ = WORKED[case]
    return {
        "best": M,
        "archives": list(counts),
        "bets": [
            {"token": "gold" if g else "silver", "archive": NAMES[a], "cards": n}
            for a, n, g in bets
        ],
    }


@pytest.mark.parametrize("case", WORKED)
def test_worked_bet_cases_through_tally(case: str, tmp_path, capsys) -> None:
    path = tmp_path / "tally.json"
    path.write_text(json.dumps(tally_json(case)), encoding="utf-8")
    assert run(["tally", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["parts"]["archive_bets"] == report["total"] == WORKED[case][2]


def test_tally_of_the_article_example_with_its_cards(capsys, tmp_path) -> None:
    # Example 1 as the article draws it: its left archive (COLOURS in the article's order)
    # holds three colours with two hexagons; the right (SAME) five triangles.
    description = {
        "rules": "complex(archive_order=article)",
        "best": 13,
        "archives": [["6B", "6R", "0G"], ["0R", "4R"], ["3R", "3B", "3G", "3Y", "3V"]],
        "bets": tally_json("article example 1")["bets"],
    }
    path = tmp_path / "ex1.json"
    path.write_text(json.dumps(description), encoding="utf-8")
    assert run(["tally", str(path)]) == 0
    out = capsys.readouterr().out
    assert "gold on 3 in the left archive, holds 3" in out
    assert out.strip().splitlines()[-1].split() == ["total", "43"]


def test_archive_bet_settles_by_the_rule() -> None:
    assert settle_archive_bet(gold=True, bet_on=4, held=4, best=13) == 17
    assert settle_archive_bet(gold=False, bet_on=4, held=4, best=13) == 11  # ⌈13/2⌉ + 4
    assert settle_archive_bet(gold=False, bet_on=4, held=2, best=13) == -13  # n not subtracted
    assert settle_archive_bet(gold=False, bet_on=2, held=2, best=12) == 8


def test_R22_goal_bet_settles_by_the_rule() -> None:
    assert settle_goal_bet(gold=True, met=True, reward=6, best=13) == 19
    assert settle_goal_bet(gold=False, met=True, reward=6, best=13) == 13
    assert settle_goal_bet(gold=False, met=False, reward=6, best=13) == -13


def test_tally_goals_read_the_match_areas_of_all_archives() -> None:
    settlement, _ = tally(
        {
            "best": 10,
            "card_points": 60,
            "opponent_best": 9,
            "archives": [["3B", "3R"], ["0B"], ["4B", "5G"]],
            "bets": [{"token": "silver", "goal": "blue>=3 & triangle>=2", "reward": 6}],
            "secret_goal": {"goal": "colours>=4", "reward": 5},
        }
    )
    parts = dict(settlement.score().parts)
    assert parts == {
        "cards": 60,
        "duel": 10,
        "archive_bets": 0,
        "goal_bets": 5 + 6,
        "secret_goal": 0,  # three colours only
    }
    assert settlement.total == 81


def test_tally_classic_scores_full_archives_and_has_no_bets() -> None:
    settlement, config = tally({"rules": "classic", "best": 9, "archives": [4, 4, 2]})
    assert config == parse_rules("classic")
    assert settlement.score().part("full_archives") == 20
    with pytest.raises(ParseError, match="no bets"):
        tally(
            {
                "rules": "classic",
                "best": 9,
                "archives": [4, 4, 2],
                "bets": [{"token": "gold", "archive": "left", "cards": 4}],
            }
        )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "malformed JSON"),
        ("[]", "expected a JSON object"),
        ('{"best": 13, "colour": 1}', "unknown key 'colour'"),
        ('{"archives": [1, 1, 1]}', "best: missing"),
        ('{"best": "13"}', "best: expected an integer"),
        ('{"best": 13, "archives": [1, 1]}', "a list of 3"),
        ('{"best": 13, "archives": [6, 0, 0]}', "at most 5"),
        ('{"best": 13, "archives": [["0R", "3B"], [], []]}', "SAME archive cannot hold 0R 3B"),
        ('{"best": 13, "archives": [["Q9"], [], []]}', "unknown code 'Q9'"),
        (
            '{"best": 13, "bets": [{"token": "bronze", "archive": "left", "cards": 3}]}',
            "gold or silver",
        ),
        (
            '{"best": 13, "bets": [{"token": "gold", "archive": "top", "cards": 3}]}',
            "left, middle or right",
        ),
        ('{"best": 13, "bets": [{"token": "gold", "archive": "left", "cards": 6}]}', "2 to 5"),
        (
            '{"best": 13, "bets": [{"token": "gold", "goal": "blue>=3", "reward": 4}]}',
            "list their codes",
        ),
        ('{"best": 13, "rules": "complex(foo=1)"}', "unknown option 'foo'"),
    ],
)
def test_tally_bad_input_names_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message) as caught:
        tally_from_json(text, source="t.json")
    assert str(caught.value).startswith("t.json")


def test_tally_cli_bad_file_is_one_line_and_exit_2(tmp_path, capsys) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"best": 13,\n "archives": [1, 2\n', encoding="utf-8")
    assert run(["tally", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.json:3" in err
    assert run(["tally", str(tmp_path / "missing.json")]) == 2
    assert "no such file" in capsys.readouterr().err
