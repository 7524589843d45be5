"""Evaluating one card on a position, as ``runarch-gen evaluate`` does (RULES.md §4.2)."""

from __future__ import annotations

import pytest

from runarch_gen.errors import InputError
from runarch_gen.runarch.atoms import parse_piece
from runarch_gen.runarch.decks.cards import parse_pattern
from runarch_gen.runarch.engine.evaluation import evaluate_card
from runarch_gen.runarch.engine.sample import sample_board
from runarch_gen.runarch.rules import parse_rules
from tests.test_engine_helpers import IDENTITY

P = parse_pattern("0R,3B,4G,5Y,6V")


def test_every_valid_line_best_first_rows_and_columns_before_phase_4() -> None:
    scores = evaluate_card(IDENTITY, P)
    assert [s.line for s in scores] == ["r1", "r2", "r3", "r4", "r5", "ca", "cb", "cc", "cd", "ce"]
    assert {(s.pattern_points, s.match_bonus) for s in scores} == {(6, 0)}


def test_phase_4_adds_the_diagonals_and_the_match_bonus() -> None:
    board = sample_board()
    scores = evaluate_card(IDENTITY, P, phase=4, tiles=board, match=parse_piece("0R"))
    assert scores[0].line == "d1" and (scores[0].pattern_points, scores[0].match_bonus) == (10, 2)
    assert scores[0].card_score == 12 and len(scores) == 12


@pytest.mark.parametrize(("option", "bonus"), [("board", 2), ("line", 0), ("off", 0)])
def test_match_bonus_follows_R09(option: str, bonus: int) -> None:
    config = parse_rules(f"complex(match_bonus={option})")
    tiles = sample_board() if option != "off" else None
    match = parse_piece("3B") if option != "off" else None
    scores = evaluate_card(IDENTITY, P, phase=4, tiles=tiles, match=match, config=config)
    assert {s.line: s.match_bonus for s in scores}["d1"] == bonus


def test_reversible_reads_either_way_and_says_so() -> None:
    backwards = parse_pattern("6V,5Y,4G,3B,0R")
    reading = evaluate_card(
        IDENTITY, backwards, phase=4, config=parse_rules("complex(match_bonus=off)")
    )
    assert "d1" not in [s.line for s in reading]
    config = parse_rules("complex(direction=reversible,match_bonus=off)")
    scores = evaluate_card(IDENTITY, backwards, phase=4, config=config)
    assert scores[0].line == "d1" and scores[0].reversed and scores[0].pattern_points == 10


def test_a_pattern_valid_nowhere_gives_no_lines() -> None:
    assert evaluate_card(IDENTITY, parse_pattern("3B,4G,5Y,6V,0R"), phase=3) == []


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"phase": 5}, "phase is 1 to 4"),
        ({"phase": 4}, "give the board's tiles and the card's match"),
    ],
)
def test_bad_requests_say_what_is_missing(kwargs, message: str) -> None:
    with pytest.raises(InputError, match=message):
        evaluate_card(IDENTITY, P, **kwargs)
    with pytest.raises(InputError, match="25 pieces"):
        evaluate_card(IDENTITY[:24], P)
