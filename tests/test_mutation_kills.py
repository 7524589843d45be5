"""Tests written from the rules that kill mutants the older tests let live (``bench/mutation.py``).

Every expected value here is written out by hand from RULES.md (docs/rules/runarch.md) or the
documented report formats, never taken from the code under test.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest

from runarch_gen.errors import ConstraintError, InputError, ParseError
from runarch_gen.pnp.geometry import Box
from runarch_gen.pnp.sheets import (
    PAPERS,
    CropMark,
    Imposition,
    Item,
    Page,
    Paper,
    Placement,
    SheetSpec,
    _clipped,
    duplex_test_marks,
    impose,
)
from runarch_gen.runarch.analysis.best_score import ScoreWitness
from runarch_gen.runarch.archives import ArchiveRule
from runarch_gen.runarch.atoms import PIECES, Colour, Direction, Piece, Shape, parse_piece
from runarch_gen.runarch.boards import cpsat
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.boards.check import check_board, check_board_text, is_valid_board
from runarch_gen.runarch.boards.generate import (
    BoardConstraints,
    count_boards,
    enumerate_boards,
    generate_board,
    generate_boards,
    generation_meta,
    iter_generated_boards,
    resolve_engine,
    sample_boards,
)
from runarch_gen.runarch.decks.cards import Card, Deck, Pattern, parse_goal, parse_pattern
from runarch_gen.runarch.decks.check import (
    DeckReport,
    Differences,
    Figure,
    GoalCheck,
    Violation,
    check_deck,
    check_deck_text,
)
from runarch_gen.runarch.decks.goals import Witness
from runarch_gen.runarch.decks.io import deck_to_json
from runarch_gen.runarch.engine.conditions import parse_condition
from runarch_gen.runarch.engine.sample import sample_deck
from runarch_gen.runarch.engine.scoring import (
    ArchiveBet,
    FinalPosition,
    GoalBet,
    settle,
    settle_automa,
    solo_winners,
    winners,
)
from runarch_gen.runarch.engine.tally import tally, tally_from_json
from runarch_gen.runarch.engine.tokens import BonusTokens
from runarch_gen.runarch.rules import parse_rules
from runarch_gen.runarch.validation.validate import (
    Check,
    Failure,
    _board_check,
    _cards_check,
    _deck_size_check,
    _goals_check,
    _minimums_check,
    _patterns_check,
    _stones_check,
    _violation_failure,
    find_condition_witness,
)

# Board checker (RULES §2, B-1/B-2) ----------------------------------------------------------------

# Colour (row + column) mod 5, shape (row + 2 * column) mod 5: two orthogonal Latin squares, so
# every row and column holds each colour and each shape once and all 25 tiles differ (B-1). On d2
# (e1 -> a5) row + column = 4 throughout: all five stones are violet, so B-2 fails there only;
# on d1 colour 2i and shape 3i mod 5 are all different.
LATIN = [
    ["0R", "4B", "6G", "3Y", "5V"],
    ["3B", "5G", "0Y", "4V", "6R"],
    ["4G", "6Y", "3V", "5R", "0B"],
    ["5Y", "0V", "4R", "6B", "3G"],
    ["6V", "3R", "5B", "0G", "4Y"],
]
D2 = ["e1", "d2", "c3", "b4", "a5"]
D2_VIOLET = f"diagonal d2 repeats colour V (violet) on {', '.join(D2)}"


def text(rows: list[list[str]]) -> str:
    return "\n".join(" ".join(row) for row in rows) + "\n"


def test_B2_is_valid_board_reads_the_long_diagonals_only_when_asked() -> None:
    board = Board.from_codes(LATIN)
    assert is_valid_board(board)
    assert not is_valid_board(board, diagonals=True)
    assert [f.message for f in check_board(board, diagonals=True)] == [D2_VIOLET]


def test_B2_a_file_is_checked_with_the_diagonals_when_asked() -> None:
    plain = check_board_text(text(LATIN), source="one.txt")
    assert (plain.exit_code, plain.summary()) == (0, "one.txt: 1 board, valid (B-1)")
    both = check_board_text(text(LATIN), source="one.txt", diagonals=True)
    assert both.exit_code == 1
    assert both.lines() == [f"one.txt:1: {D2_VIOLET}", "one.txt: 1 board, not valid (B-1 and B-2)"]


def test_B1_a_missing_tile_is_named_with_no_squares() -> None:
    rows = [row[:] for row in LATIN]
    rows[0][0] = "4B"  # a1 takes b1's tile: 4B twice, 0R nowhere
    findings = {f.kind: f for f in check_board(Board.from_codes(rows))}
    missing, duplicate = findings["missing-tile"], findings["duplicate-tile"]
    assert missing.to_json() == {
        "kind": "missing-tile",
        "line": None,
        "value": "0R",
        "squares": [],
        "message": "tile 0R is missing",
    }
    assert duplicate.to_json() == {
        "kind": "duplicate-tile",
        "line": None,
        "value": "4B",
        "squares": ["a1", "b1"],
        "message": "tile 4B appears 2 times, on a1, b1",
    }


def test_board_file_report_counts_each_verdict_and_says_where() -> None:
    # Board 1 valid (lines 1-5), board 2 invalid (lines 7-11: a1 holds b1's tile 4B), board 3
    # unreadable (an unknown code on line 13).
    bad = [row[:] for row in LATIN]
    bad[0][0] = "4B"
    source = text(LATIN) + "\n" + text(bad) + "\n" + "0R 3B 4G 5Y QQ\n" + text(LATIN[1:])
    report = check_board_text(source, source="f.txt")
    data = report.to_json()
    assert {k: v for k, v in data.items() if k != "results"} == {
        "source": "f.txt",
        "rules": "B-1",
        "boards": 3,
        "valid": 1,
        "invalid": 1,
        "unreadable": 1,
        "exit_code": 2,
    }
    first, second, third = data["results"]
    assert first == {
        "number": 1,
        "line": 1,
        "status": "valid",
        "tiles": LATIN,
        "errors": [],
        "findings": [],
    }
    assert (second["number"], second["line"], second["status"], second["tiles"]) == (
        2,
        7,
        "invalid",
        bad,
    )
    # 4B on a1 and b1: row 1 repeats blue and square; column a: a1 4B and a2 3B are both blue,
    # a1 4B and a3 4G both squares; then the tile count.
    assert [(f["kind"], f["line"], f["value"], f["squares"]) for f in second["findings"]] == [
        ("repeated-colour", "r1", "B", ["a1", "b1"]),
        ("repeated-shape", "r1", "4", ["a1", "b1"]),
        ("repeated-colour", "ca", "B", ["a1", "a2"]),
        ("repeated-shape", "ca", "4", ["a1", "a3"]),
        ("missing-tile", None, "0R", []),
        ("duplicate-tile", None, "4B", ["a1", "b1"]),
    ]
    assert third["number"] == 3 and third["line"] == 13 and third["status"] == "unreadable"
    assert third["tiles"] is None and third["findings"] == []
    assert [(e["line"], e["column"]) for e in third["errors"]] == [(13, 13)]
    assert "QQ" in third["errors"][0]["message"]
    lines = report.lines()
    assert lines[0] == "f.txt:7: board 2: row 1 repeats colour B (blue) on a1, b1"
    assert lines[-2].startswith("f.txt:13:13: board 3: unknown code 'QQ'")
    assert lines[-1] == "f.txt: 3 boards: 1 valid, 1 not valid (B-1), 1 could not be read"


def test_a_single_unreadable_board_is_reported_as_such() -> None:
    report = check_board_text("0R 3B\n", source="short.txt")
    assert report.summary() == "short.txt: could not be read"
    assert report.exit_code == 2


# Board generator (RULES §2) -----------------------------------------------------------------------

# Two boards only: B-2, a1 = 0R, b1 = 3B, c1 = 4G and a2 = 5G (CP-SAT lists both in 0.3 s).
TWO = BoardConstraints.parse(diagonals=True, fixes=["a1=0R", "b1=3B", "c1=4G", "a2=5G"])


def every_square_fixed(board: Board) -> BoardConstraints:
    rows = board.codes()
    fixes = [f"{'abcde'[c]}{r + 1}={rows[r][c]}" for r in range(5) for c in range(5)]
    return BoardConstraints.parse(fixes=fixes)


@pytest.mark.parametrize(
    ("asked", "runs"), [("auto", "exact"), ("exact", "exact"), ("cpsat", "cpsat")]
)
def test_the_engine_names_resolve(asked: str, runs: str) -> None:
    assert resolve_engine(asked) == runs


def test_an_unknown_engine_is_refused_naming_the_choices() -> None:
    with pytest.raises(InputError) as caught:
        resolve_engine("fast")
    assert str(caught.value) == "unknown engine 'fast': expected one of auto, exact, cpsat"


def test_generation_meta_records_seed_engine_and_constraints() -> None:
    assert generation_meta(7, "auto", TWO) == {
        "seed": 7,
        "engine": "exact",
        "constraints": {
            "diagonals": True,
            "fix": ["a1=0R", "b1=3B", "c1=4G", "a2=5G"],
            "forbid": [],
        },
    }
    assert generation_meta(7, "cpsat", TWO)["engine"] == "cpsat"


def test_the_cpsat_engine_really_runs_cp_sat(monkeypatch: pytest.MonkeyPatch) -> None:
    # The two-way counts of test_boardgen are only independent if engine="cpsat" is CP-SAT.
    calls: list[str] = []
    solutions, distinct = cpsat.enumerate_solutions, cpsat.generate_distinct

    def spy_solutions(*args, **kwargs):
        calls.append("enumerate")
        return solutions(*args, **kwargs)

    def spy_distinct(*args, **kwargs):
        calls.append("generate")
        return distinct(*args, **kwargs)

    monkeypatch.setattr(cpsat, "enumerate_solutions", spy_solutions)
    monkeypatch.setattr(cpsat, "generate_distinct", spy_distinct)
    assert count_boards(TWO, engine="cpsat") == 2
    assert len(enumerate_boards(TWO, engine="cpsat")) == 2
    assert len(generate_boards(2, TWO, seed=1, engine="cpsat")) == 2
    assert calls == ["enumerate", "enumerate", "generate"]
    calls.clear()
    assert count_boards(TWO) == 2 and len(enumerate_boards(TWO)) == 2
    assert len(generate_boards(2, TWO, seed=1)) == 2
    assert calls == []


def test_progress_is_reported_in_steps_of_4096_and_adds_up_to_the_count() -> None:
    steps: list[int] = []
    boards = generate_boards(5000, seed=3, on_progress=steps.append)
    assert len(set(boards)) == 5000
    assert steps == [4096, 5000 - 4096]
    few: list[int] = []
    generate_boards(3, seed=3, on_progress=few.append)
    assert few == [3]
    one_by_one: list[int] = []
    generate_boards(2, TWO, seed=3, engine="cpsat", on_progress=one_by_one.append)
    assert sum(one_by_one) == 2


def test_the_default_engine_is_the_exact_one() -> None:
    assert list(iter_generated_boards(3, seed=9)) == generate_boards(3, seed=9, engine="exact")


def test_a_board_count_below_one_is_refused() -> None:
    with pytest.raises(InputError, match=r"^the number of boards must be at least 1, not 0$"):
        next(iter_generated_boards(0, seed=1))


def test_asking_for_more_boards_than_exist_names_both_numbers() -> None:
    with pytest.raises(ConstraintError) as caught:
        generate_boards(3, TWO, seed=1)
    assert str(caught.value).startswith("3 distinct boards asked for, but only 2 boards meet")


def test_the_only_board_meeting_constraints_is_generated() -> None:
    board = Board.from_codes(LATIN)
    assert generate_board(every_square_fixed(board), seed=4) == board


def test_sampling_zero_boards_gives_none_and_a_negative_count_is_refused() -> None:
    assert sample_boards(0, seed=1) == []
    with pytest.raises(InputError, match=r"^the number of boards must not be negative, not -1$"):
        sample_boards(-1, seed=1)


def test_samples_depend_on_the_seed_only() -> None:
    assert sample_boards(4, seed=5) == sample_boards(4, seed=5)
    assert sample_boards(4, seed=5) != sample_boards(4, seed=6)
    assert all(is_valid_board(b, diagonals=True) for b in sample_boards(6, TWO, seed=2))


# Deck checker (RULES §1.3, §7, §9.1, R-01, R-23) -------------------------------------------------


def deck_with(changes: dict[int, dict[str, object]], size: int = 40) -> Deck:
    """``sample_deck(size)`` with some cards' fields replaced (by position in the deck)."""
    cards = list(sample_deck(size).cards)
    for position, fields in changes.items():
        cards[position] = replace(cards[position], **fields)  # type: ignore[arg-type]
    return replace(sample_deck(size), cards=tuple(cards))


@pytest.mark.parametrize(
    ("size", "warned"),
    # §9.1: setup takes 2 × deal + 4 cards (14 with deal 5, 12 with deal 4) and 2 × 10 draws
    # must remain: 34 cards are enough for both deals, 33 only for deal 4, 31 for neither.
    [(34, []), (33, ["5"]), (32, ["5"]), (31, ["5", "4"])],
)
def test_9_1_draw_warning_at_exactly_the_needed_deck_size(size: int, warned: list[str]) -> None:
    setup = {"5": 14, "4": 12}
    expected = [
        f"with deal {deal} [R-04] setup takes {setup[deal]} cards and leaves {size - setup[deal]}"
        " draws, fewer than 10 per player (§9.1)"
        for deal in warned
    ]
    warnings = check_deck(sample_deck(size)).warnings
    assert [w for w in warnings if w.startswith("with deal")] == expected


def test_9_1_a_deck_smaller_than_setup_leaves_no_draws_not_a_negative_number() -> None:
    warnings = check_deck(sample_deck(10)).warnings
    assert "setup takes 14 cards and leaves 0 draws" in warnings[0]
    assert "setup takes 12 cards and leaves 0 draws" in warnings[1]


def test_R01_deck_size_message_names_the_range() -> None:
    report = check_deck(sample_deck(29), source="small.json")
    assert [v.text for v in report.violations] == ["deck: 29 cards; a deck has 30 to 100 [R-01]"]
    assert report.violations[0].to_json() == {
        "card": None,
        "field": "deck",
        "rule": "R-01",
        "message": "29 cards; a deck has 30 to 100",
    }
    assert report.summary() == "small.json: 29 cards, not valid, 1 violation, not balanced (§9.2)"
    assert report.to_json()["source"] == "small.json"


def test_deck_report_source_defaults_to_deck() -> None:
    assert check_deck(sample_deck(30)).source == "<deck>"


def test_R23_a_threshold_of_one_asks_something_and_zero_asks_nothing() -> None:
    one = check_deck(deck_with({1: {"goal": parse_goal("blue>=1", 4)}}))
    assert not [v for v in one.violations if v.rule == "R-23"]
    zero = check_deck(deck_with({1: {"goal": parse_goal("blue>=0", 4)}}))
    card_id = sample_deck(40).cards[1].id
    assert [v.text for v in zero.violations if v.rule == "R-23"] == [
        f"card {card_id}, goal: blue>=0: a threshold below 1 asks nothing [R-23]"
    ]


def test_R23_a_reward_outside_3_to_12_names_the_range() -> None:
    report = check_deck(deck_with({2: {"goal": parse_goal("blue>=2", 13)}}))
    card_id = sample_deck(40).cards[2].id
    assert [v.text for v in report.violations] == [
        f"card {card_id}, reward: 13 points; rewards are 3 to 12 [R-23]"
    ]


@pytest.mark.parametrize(
    ("pattern", "messages"),
    [
        ("0R,3R,4G,5Y,6V", ["colour R (red) twice, at positions 1 and 2"]),
        ("0R,3R,4R,5Y,6V", ["colour R (red) three times, at positions 1, 2 and 3"]),
        ("0R,3R,4R,5R,6V", ["colour R (red) four times, at positions 1, 2, 3 and 4"]),
        ("0R,3R,4R,5R,6R", ["colour R (red) five times, at positions 1, 2, 3, 4 and 5"]),
        ("0R,0B,4G,5Y,0V", ["shape 0 (circle) three times, at positions 1, 2 and 5"]),
    ],
)
def test_1_3_repeated_colours_and_shapes_in_a_pattern_are_counted_in_words(
    pattern: str, messages: list[str]
) -> None:
    deck = deck_with({0: {"pattern": parse_pattern(pattern)}})
    card_id = deck.cards[0].id
    found = [v.text for v in check_deck(deck).violations if v.field == "pattern"]
    # (the deck's other cards may share the pattern; only the repeat findings are compared)
    assert [t for t in found if "time" in t or "twice" in t] == [
        f"card {card_id}, pattern: {m} [§1.3]" for m in messages
    ]


def test_1_3_a_pattern_of_four_stones_is_a_violation() -> None:
    four = Pattern(parse_pattern("0R,3B,4G,5Y,6V").pieces[:4])
    deck = deck_with({3: {"pattern": four}})
    card_id = deck.cards[3].id
    found = [v.to_json() for v in check_deck(deck).violations]
    assert found == [
        {
            "card": card_id,
            "field": "pattern",
            "rule": "§1.3",
            "message": "4 stones; a pattern has 5",
        }
    ]


def test_duplicate_card_ids_are_named() -> None:
    deck = sample_deck(40)
    deck = deck_with({5: {"id": deck.cards[4].id}})
    card_id = deck.cards[4].id
    assert [v.text for v in check_deck(deck).violations if v.field == "id"] == [
        f"card {card_id}, id: 2 cards have id {card_id} [deck]"
    ]


def test_R14_archive_capacity_reaches_the_file_check() -> None:
    # blue>=6 in three archives of 5: the SAME archive alone holds 5 blue cards and the
    # SHAPES archive more. With archives of 2 at most 2 + 2 + 1 (COLOURS holds one blue) = 5.
    deck = deck_with({2: {"goal": parse_goal("blue>=6", 9)}})
    text = deck_to_json(deck)
    card_id = deck.cards[2].id
    assert check_deck_text(text, source="d.json").valid
    small = check_deck_text(text, source="d.json", capacity=2)
    unmet = [v.text for v in small.violations if v.card == card_id]
    assert unmet == [
        f"card {card_id}, goal: blue>=6 cannot be met: no 10 or fewer cards of this deck fit"
        " the archives and meet it [§7]"
    ]
    assert small.summary().startswith("d.json: 40 cards, not valid, ")


NO_PAIRS = Differences(None, None, (), 5, "")


def hand_made_report() -> DeckReport:
    """A deck report built field by field, so that its text and JSON can be written out."""
    witness = Witness(
        ((ArchiveRule.SAME, (3, 7)), (ArchiveRule.SHAPES, (12,)), (ArchiveRule.COLOURS, ()))
    )
    return DeckReport(
        source="h.json",
        cards=31,
        violations=(Violation(4, "arrows", "R-03", "N,N: the two directions must differ"),),
        warnings=("a warning",),
        figures=(
            Figure("positions", "colours at position 1", (("R", 7), ("B", 6), ("G", 6))),
            Figure("match", "match colours", (("R", 8), ("B", 5), ("G", 6))),
        ),
        differences=Differences(3, (2, 9), ((3, 1), (4, 10)), 5, "because"),
        goals=(
            GoalCheck(parse_goal("blue>=2", 5), (1, 2), (5, 6), Fraction(1, 8), witness),
            GoalCheck(parse_goal("red>=9", 12), (3,), (12,), Fraction(0), None),
        ),
    )


def test_deck_report_lines_for_people() -> None:
    assert hand_made_report().lines() == [
        "h.json: card 4, arrows: N,N: the two directions must differ [R-03]",
        "h.json: warning: a warning",
        "smallest difference between two patterns: 3 (cards 2 and 9); best possible 5: because",
        "  1 pairs differ in 3, 10 pairs differ in 4",
        "balance (§9.2):",
        # 19 over 3 values: 6 or 7 each; 7, 6, 6 is even
        "  colours at position 1: R: 7, B: 6, G: 6",
        "  match colours: R: 8, B: 5, G: 6 — uneven, expected 6 or 7 each",
        "goals: 2 different, 1 cannot be met",
        "  blue>=2 — cards 1, 2; reward 5/6; chance 12.5%; witness same: 3, 7; shapes: 12;"
        " colours: -",
        "  red>=9 — cards 3; reward 12; chance 0.0%; CANNOT BE MET",
        "h.json: 31 cards, not valid, 1 violation, not balanced (§9.2)",
    ]


def test_deck_report_json() -> None:
    data = hand_made_report().to_json()
    assert data == {
        "source": "h.json",
        "kind": "deck",
        "cards": 31,
        "valid": False,
        "balanced": False,
        "exit_code": 1,
        "violations": [
            {
                "card": 4,
                "field": "arrows",
                "rule": "R-03",
                "message": "N,N: the two directions must differ",
            }
        ],
        "warnings": ["a warning"],
        "differences": {
            "smallest": 3,
            "pair": [2, 9],
            "pairs_by_difference": {"3": 1, "4": 10},
            "best_possible": 5,
            "reason": "because",
        },
        "balance": [
            {
                "target": "positions",
                "name": "colours at position 1",
                "counts": {"R": 7, "B": 6, "G": 6},
                "expected": [6, 7],
                "even": True,
            },
            {
                "target": "match",
                "name": "match colours",
                "counts": {"R": 8, "B": 5, "G": 6},
                "expected": [6, 7],
                "even": False,
            },
        ],
        "goals": [
            {
                "goal": "blue>=2",
                "cards": [1, 2],
                "rewards": [5, 6],
                "chance": 0.125,
                "achievable": True,
                "witness": {"same": [3, 7], "shapes": [12], "colours": []},
            },
            {
                "goal": "red>=9",
                "cards": [3],
                "rewards": [12],
                "chance": 0.0,
                "achievable": False,
                "witness": None,
            },
        ],
    }


def test_a_valid_balanced_report_says_so_in_the_singular() -> None:
    one = DeckReport(
        "o.csv", 1, (), (), (Figure("t", "f", (("R", 2), ("B", 2))),), NO_PAIRS, goals=()
    )
    assert one.lines() == [
        "balance (§9.2):",
        "  f: 2 each (all 2)",
        "goals: 0 different, all achievable",
        "o.csv: 1 card, valid, balanced (§9.2)",
    ]
    assert one.exit_code == 0
    two = replace(one, violations=(Violation(None, "deck", "R-01", "x"),) * 2)
    assert two.summary() == "o.csv: 1 card, not valid, 2 violations, balanced (§9.2)"


def test_long_even_figures_name_the_exceptions_and_uneven_ones_the_expected_share() -> None:
    # 12 counts, eleven 2s and one 3: total 25, share 25/12 -> 2 or 3 each: even.
    counts = tuple((f"k{i}", 3 if i == 5 else 2) for i in range(12))
    assert Figure("t", "pairs", counts).text == "pairs: 2 each, 3 for k5"
    # 10 + 10 + 13 = 33 over 3: 11 each exactly, so 10 and 13 are uneven.
    uneven = Figure("t", "f", (("a", 10), ("b", 10), ("c", 13)))
    assert uneven.text == "f: a: 10, b: 10, c: 13 — uneven, expected 11 each"


def naive_figures(deck: Deck) -> list[tuple[str, str, dict[str, int]]]:
    """§9.2's balance figures counted plainly: (target, name, {label: count}) in report order."""
    colours = [c.letter for c in Colour]
    shapes = [s.digit for s in Shape]
    codes = [s + c for c in colours for s in shapes]  # 0R 3R 4R 5R 6R 0B ...
    directions = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]

    def tally(labels: list[str], seen: list[str]) -> dict[str, int]:
        return {label: seen.count(label) for label in labels}

    cards = deck.cards
    patterns = [[p.code for p in card.pattern] for card in cards]
    goals = [card.goal for card in cards]
    kinds = {
        "colour": "one-colour goals",
        "shape": "one-shape goals",
        "colour+shape": "colour+shape goals",
        "colours": "different-colours goals",
        "shapes": "different-shapes goals",
    }
    out = [("stones", "stones", tally(codes, [code for p in patterns for code in p]))]
    for i in range(5):
        out.append(
            (
                "positions",
                f"colours at position {i + 1}",
                tally(colours, [p[i][1] for p in patterns]),
            )
        )
        out.append(
            ("positions", f"shapes at position {i + 1}", tally(shapes, [p[i][0] for p in patterns]))
        )
    matches = [card.match.code for card in cards]
    out.append(("matches", "match areas", tally(codes, matches)))
    out.append(("matches", "match colours", tally(colours, [m[1] for m in matches])))
    out.append(("matches", "match shapes", tally(shapes, [m[0] for m in matches])))
    out.append(("goal-kinds", "goal kinds", tally(list(kinds), [g.kind.value for g in goals])))
    for plural, single, labels in (("colours", "colour", colours), ("shapes", "shape", shapes)):

        def value(goal: object, single: str = single) -> str:
            attribute = getattr(goal, single)
            return str(attribute.letter if single == "colour" else attribute.digit)

        asking = [g for g in goals if g.kind.value in (single, "colour+shape")]
        out.append((f"goal-{plural}", f"goal {plural}", tally(labels, [value(g) for g in asking])))
        for kind in (single, "colour+shape"):
            of_kind = [value(g) for g in goals if g.kind.value == kind]
            out.append((f"goal-{plural}", f"{plural} of {kinds[kind]}", tally(labels, of_kind)))
    pairs = [
        g.shape.digit + g.colour.letter  # type: ignore[union-attr]
        for g in goals
        if g.kind.value == "colour+shape"
    ]
    out.append(("goal-pairs", "colour×shape pairs of colour+shape goals", tally(codes, pairs)))
    for kind, name in kinds.items():
        levels = [
            f"{g.colour_count}&{g.shape_count}"
            if kind == "colour+shape"
            else f">={max(g.colour_count, g.shape_count)}"
            for g in goals
            if g.kind.value == kind
        ]
        if levels:
            ordered = sorted(set(levels), key=lambda t: [int(x) for x in t.strip(">=").split("&")])
            out.append(("goal-thresholds", f"thresholds of {name}", tally(ordered, levels)))
    arrows = [[d.name for d in card.arrows] for card in cards]
    out.append(("arrow-directions", "first arrows", tally(directions, [a[0] for a in arrows])))
    out.append(("arrow-directions", "second arrows", tally(directions, [a[1] for a in arrows])))
    every = [d for a in arrows for d in a]
    out.append(("arrow-directions", "all arrows", tally(directions, every)))
    pair_labels = [f"{a}→{b}" for a in directions for b in directions if a != b]
    out.append(("arrow-pairs", "arrow pairs", tally(pair_labels, [f"{a}→{b}" for a, b in arrows])))
    return out


@pytest.mark.parametrize(("size", "seed"), [(30, 0), (40, 1), (57, 2)])
def test_9_2_balance_figures_agree_with_a_plain_count(size: int, seed: int) -> None:
    deck = sample_deck(size, seed)
    figures = [(f.target, f.name, dict(f.counts)) for f in check_deck(deck).figures]
    expected = naive_figures(deck)
    assert [name for _, name, _ in figures] == [name for _, name, _ in expected]
    for got, want in zip(figures, expected, strict=True):
        assert got == want, want[1]
        assert list(got[2]) == list(want[2]), want[1]  # the labels in the same order


def test_9_2_balance_figures_skip_malformed_patterns_and_arrows() -> None:
    four = Pattern(parse_pattern("0R,3B,4G,5Y,6V").pieces[:4])
    deck = deck_with({0: {"pattern": four}, 1: {"arrows": (Direction.N,)}})
    figures = {f.name: dict(f.counts) for f in check_deck(deck).figures}
    assert sum(figures["stones"].values()) == 5 * 39
    assert sum(figures["colours at position 1"].values()) == 39
    assert sum(figures["first arrows"].values()) == 39
    assert sum(figures["all arrows"].values()) == 2 * 39


def test_pattern_differences_of_three_hand_made_cards() -> None:
    deck = deck_with(
        {
            0: {"id": 101, "pattern": parse_pattern("0R,3B,4G,5Y,6V")},
            1: {"id": 102, "pattern": parse_pattern("0R,3B,4G,6Y,5V")},  # 2 from 101
            2: {"id": 103, "pattern": parse_pattern("3R,0B,6G,5Y,4V")},  # 4 from 101, 5 from 102
        },
        size=30,
    )
    three = replace(deck, cards=deck.cards[:3])
    d = check_deck(three).differences
    assert (d.smallest, d.pair, d.histogram) == (2, (101, 102), ((2, 1), (4, 1), (5, 1)))
    assert (d.best_possible, d.reason) == (5, "3 cards can show different stones at every position")


def test_pigeonhole_reason_names_the_first_two_cards_sharing_a_first_stone() -> None:
    deck = sample_deck(26, 3)
    seen: dict[str, int] = {}
    for card in deck.cards:  # the first card whose first stone an earlier card already has
        code = card.pattern[0].code
        if code in seen:
            first, second, stone = seen[code], card.id, code
            break
        seen[code] = card.id
    d = check_deck(deck).differences
    assert d.best_possible == 4
    assert d.reason == (
        "26 cards cannot all show different stones at position 1, there are only 25"
        f" (pigeonhole), so two of them share it; here cards {first} and {second} both have"
        f" {stone}"
    )


def goal_check(text: str, reward: int, chance: Fraction) -> GoalCheck:
    return GoalCheck(parse_goal(text, reward), (1,), (reward,), chance, None)


def test_R23_reward_order_warning_counts_pairs_where_the_harder_goal_pays_less() -> None:
    from runarch_gen.runarch.decks.check import _reward_order_warnings

    hard = goal_check("blue>=4", 5, Fraction(1, 10))
    easy = goal_check("blue>=2", 6, Fraction(1, 2))
    fair = goal_check("red>=4", 9, Fraction(1, 10))
    assert _reward_order_warnings([fair, easy]) == []
    assert _reward_order_warnings([hard, easy, fair]) == [
        "1 pair of goals pay less for the harder goal [R-23], e.g. blue>=4 (chance 10.0%,"
        " reward 5) and blue>=2 (chance 50.0%, reward 6)"
    ]
    harder = goal_check("blue>=5", 4, Fraction(1, 20))
    assert _reward_order_warnings([hard, easy, harder])[0].startswith(
        "3 pairs of goals pay less for the harder goal [R-23], e.g. blue>=4"
    )
    same_chance = goal_check("red>=2", 6, Fraction(1, 10))
    assert _reward_order_warnings([hard, same_chance]) == []  # equally likely: no order


# Static validation of a set (§9.1, B-1/B-2, §1.3, §7, R-09, R-10) -------------------------------


@pytest.mark.parametrize(
    ("variant", "cards", "summary", "message", "arithmetic"),
    [
        (
            "complex",
            33,
            "33 cards, 34 needed",
            "19 draws, fewer than 20 in the complex game",
            "33 cards: setup takes 14 (2 players × 5 dealt [R-04] + 4 in the offer), leaving 19"
            " draws; 2 × 10 draws are needed, so at least 34 cards",
        ),
        (
            "solo(deal=4)",
            17,
            "17 cards, 18 needed",
            "9 draws, fewer than 10 in the solo game",
            "17 cards: setup takes 8 (1 player × 4 dealt [R-04] + 4 in the offer), leaving 9"
            " draws; 1 × 10 draws are needed, so at least 18 cards",
        ),
        (
            "simple",
            3,
            "3 cards, 24 needed",
            "too small to set up in the simple game",
            "3 cards: setup takes 4 (2 hands of 2, §5.1), leaving 0 draws; 2 × 10 draws are"
            " needed, so at least 24 cards",
        ),
    ],
)
def test_9_1_deck_size_check_shows_its_arithmetic(
    variant: str, cards: int, summary: str, message: str, arithmetic: str
) -> None:
    config = parse_rules(variant)
    check = _deck_size_check(sample_deck(cards), config)
    needed = int(summary.split(", ")[1].split(maxsplit=1)[0])
    assert check.to_json() == {
        "check": "deck size",
        "rules": [variant],
        "ok": False,
        "summary": summary,
        "failures": [
            {"component": "deck", "rule": "§9.1", "message": message, "proof": arithmetic}
        ],
        "proofs": {"cards": cards, "needed": needed},
    }
    enough = _deck_size_check(sample_deck(needed), config)
    assert enough.ok and enough.proofs == {"cards": needed, "needed": needed}
    assert enough.summary.startswith(f"{needed} cards: setup takes ")


def test_B1_B2_board_check_names_the_rule_and_the_squares() -> None:
    board = Board.from_codes(LATIN)
    plain = _board_check(board, diagonals=False)
    assert plain.ok and plain.summary == (
        "B-1 holds: no row or column repeats a colour or a shape; the 25 tiles are distinct"
    )
    assert plain.proofs == {"tiles": LATIN}
    both = _board_check(board, diagonals=True)
    assert both.summary == "1 violation of B-1 and B-2"
    assert [f.to_json() for f in both.failures] == [
        {
            "component": "board",
            "rule": "B-2",
            "message": D2_VIOLET,
            "proof": f"squares {', '.join(D2)}",
        }
    ]
    b2 = generate_board(BoardConstraints(diagonals=True), seed=2)
    assert _board_check(b2, diagonals=True).summary == (
        "B-1 and B-2 holds: no row, column or diagonal repeats a colour or a shape; the 25 tiles"
        " are distinct"
    )
    rows = [row[:] for row in LATIN]
    rows[0][0] = "4B"
    broken = _board_check(Board.from_codes(rows), diagonals=False)
    assert (broken.name, broken.rules, broken.summary) == ("board", (), "6 violations of B-1")
    missing = [f for f in broken.failures if "missing" in f.message]
    assert [(f.rule, f.proof) for f in missing] == [("B-1", "")]


def test_the_stones_are_the_25_colour_shape_pairs() -> None:
    check = _stones_check()
    assert check.ok and check.summary == "25 distinct stones, one of each colour × shape (§1.2)"


def test_1_2_a_stone_set_that_repeats_or_lacks_a_pair_fails() -> None:
    from runarch_gen.runarch.atoms import PIECES

    # 25 stones with the first one twice: 24 distinct, one colour × shape pair missing.
    repeated = _stones_check([PIECES[0], *PIECES[:-1]])
    assert not repeated.ok and repeated.summary.startswith("24 distinct stones")
    assert [(f.component, f.rule, f.message) for f in repeated.failures] == [
        ("stones", "§1.2", "25 stones, 24 distinct: 1 colour × shape missing")
    ]
    # 24 stones, all distinct: too few, the same failure with its numbers.
    short = _stones_check(PIECES[:-1])
    assert not short.ok
    assert short.failures[0].message == "24 stones, 24 distinct: 1 colour × shape missing"


def test_pattern_card_and_goal_checks_of_a_deck() -> None:
    four = Pattern(parse_pattern("0R,3B,4G,5Y,6V").pieces[:4])
    deck = deck_with(
        {
            0: {"pattern": four},
            1: {"arrows": (Direction.N, Direction.N)},
            2: {"goal": parse_goal("blue>=6", 9)},
            3: {"goal": parse_goal("blue>=6", 9)},
        }
    )
    ids = [card.id for card in deck.cards[:4]]
    report = check_deck(deck, capacity=2)
    patterns = _patterns_check(report)
    assert patterns.summary == "1 pattern violation"
    assert [f.to_json() for f in patterns.failures] == [
        {
            "component": f"card {ids[0]}",
            "rule": "§1.3",
            "message": "4 stones; a pattern has 5",
            "proof": "",
        }
    ]
    assert (patterns.name, patterns.rules) == ("patterns", ())
    cards = _cards_check(report)
    assert (cards.name, cards.rules, cards.summary) == ("cards", (), "1 violation")
    assert [(f.component, f.rule, f.message) for f in cards.failures] == [
        (f"card {ids[1]} arrows", "R-03", "N,N: the two directions must differ")
    ]
    goals = _goals_check(report, ("complex",), 2)
    assert goals.rules == ("complex",)
    unmet = sum(1 for g in report.goals if g.witness is None)
    assert goals.summary == f"{unmet} of {len(report.goals)} goals cannot be met"
    blue = [f for f in goals.failures if f.message.startswith("blue>=6")]
    assert [(f.component, f.rule) for f in blue] == [(f"cards {ids[2]}, {ids[3]}, goal", "§7")]
    assert blue[0].proof == (
        "CP-SAT proved that no 10 or fewer cards of this deck fit the archives (SAME, SHAPES,"
        " COLOURS, 2 cards each [R-14]) and meet it"
    )
    assert goals.proofs["blue>=6"] is None

    clean = check_deck(sample_deck(40))
    assert _patterns_check(clean).summary == (
        "40 patterns, each with 5 colours and 5 shapes, none repeated (§1.3)"
    )
    clean_cards = _cards_check(clean)
    assert (clean_cards.name, clean_cards.rules) == ("cards", ())
    assert clean_cards.summary == "40 cards: ids, match areas, arrows and rewards valid"
    all_met = _goals_check(clean, ("complex",), 5)
    assert all_met.ok and all_met.summary == (
        f"{len(clean.goals)} goals, each met by a witness of at most 10 cards in archives of 5"
    )
    assert all(all_met.proofs[g.goal.text] for g in clean.goals)


def test_a_deck_violation_and_a_card_field_name_their_component() -> None:
    assert _violation_failure(Violation(None, "deck", "R-01", "m")).component == "deck"
    assert _violation_failure(Violation(7, "pattern", "§1.3", "m")).component == "card 7"
    assert _violation_failure(Violation(7, "reward", "R-23", "m"), "p").to_json() == {
        "component": "card 7 reward",
        "rule": "R-23",
        "message": "m",
        "proof": "p",
    }


BEST_7 = ScoreWitness(card=1, line="r1", pattern_points=7, match_bonus=0, stones=tuple(range(25)))


def test_R10_fixed_minimum_out_of_reach_names_the_best() -> None:
    config = parse_rules("simple(minimum=8)")
    check = _minimums_check(config, ("simple(minimum=8)",), None, BEST_7, None)
    assert check.summary == "the fixed minimum cannot be reached"
    assert [f.to_json() for f in check.failures] == [
        {
            "component": "minimum 8",
            "rule": "R-10",
            "message": "cannot be reached: the best is 7 pattern points",
            "proof": "card 1 on r1: 7 pattern points",
        }
    ]
    reached = _minimums_check(parse_rules("simple(minimum=7)"), (), None, BEST_7, None)
    assert reached.summary == (
        "the fixed minimum 7 [R-10] is within reach: best 7 pattern points (card 1 on r1: 7"
        " pattern points)"
    )
    assert reached.proofs == {"best_pattern_points": BEST_7.to_json()}
    nothing = _minimums_check(config, (), None, None, None)
    assert [(f.component, f.rule) for f in nothing.failures] == [("deck", "§1.3")]


def test_R09_each_token_above_the_best_card_score_fails() -> None:
    phase4 = ScoreWitness(
        card=2, line="d1", pattern_points=8, match_bonus=3, stones=tuple(range(25))
    )
    tokens = BonusTokens(((5, 6, 7), (7, 8, 11), (9, 12), (11, 12, 13)))
    config = parse_rules("complex")
    check = _minimums_check(config, ("complex",), tokens, BEST_7, phase4)
    # best card score 8 + 3 = 11: X 11 and N 11 are reachable, F 12, N 12 and N 13 are not.
    assert [f.component for f in check.failures] == ["token F 12", "token N 12", "token N 13"]
    assert check.failures[0].message == (
        "a minimum of 12 cannot be reached with match_bonus=board: the best possible card score"
        " is 11"
    )
    assert check.failures[0].proof.startswith("card 2 on d1: ")
    assert check.summary == (
        "3 minimums out of reach: D 5/6/7, X 7/8/11, F 9/12, N 11/12/13: best 7 pattern points"
        f" in phases 1–3, best card score 11 in phase 4 with match_bonus=board ({phase4.text})"
    )
    assert check.proofs["tokens"] == tokens.to_json()
    fine = _minimums_check(config, (), BonusTokens(((5,), (7,), (9,), (11,))), BEST_7, phase4)
    assert fine.ok and fine.summary.startswith("every minimum can be reached: D 5, X 7, F 9, N 11")


# Final scoring (RULES §5-§7, R-19, R-20, R-22, R-24, R-27) --------------------------------------


def pieces(codes: str) -> tuple[Piece, ...]:
    return tuple(parse_piece(code) for code in codes.split()) if codes else ()


def test_6_3_R22_R19_settlement_worked_example_of_the_complex_game() -> None:
    # M = 13 (best card), the opponent's best 11: the duel pays 13 again.
    # Archive bets (§6.3): gold on 3 in the left archive holding 3: 13 + 3 = 16; silver on 2 in
    # the middle holding 2: ceil(13/2) = 7, + 2 = 9; gold on 4 in the right holding 0: -13.
    # Goal bets: gold on blue>=3 (5), met by the three blue cards: 13 + 5 = 18; silver on
    # red>=2 (4), one red card only: -13. Secret goal colours>=3 (6): blue, red, green: 6.
    position = FinalPosition(
        card_points=70,
        best=13,
        opponent_bests=(11,),
        archives=(pieces("0B 3B 4B"), pieces("5R 6G"), ()),
        archive_bets=(ArchiveBet(0, 3, True), ArchiveBet(1, 2, False), ArchiveBet(2, 4, True)),
        goal_bets=(
            GoalBet(parse_goal("blue>=3", 5), True, card=7),
            GoalBet(parse_goal("red>=2", 4), False),
        ),
        secret=parse_goal("colours>=3", 6),
    )
    settlement = settle(position, parse_rules("complex"))
    assert [(i.part, i.what, i.points) for i in settlement.items] == [
        ("cards", "card points on the frame", 70),
        ("duel", "best-card duel [R-19]", 13),
        ("archive_bets", "gold on 3 in the left archive, holds 3", 16),
        ("archive_bets", "silver on 2 in the middle archive, holds 2", 9),
        ("archive_bets", "gold on 4 in the right archive, holds 0", -13),
        ("goal_bets", "gold on card 7: blue>=3 (5), met", 18),
        ("goal_bets", "silver on red>=2 (4), not met", -13),
        ("secret_goal", "secret goal colours>=3 (6), met", 6),
    ]
    assert settlement.total == 70 + 13 + 16 + 9 - 13 + 18 - 13 + 6 == 106
    assert settlement.score().parts == (
        ("cards", 70),
        ("duel", 13),
        ("archive_bets", 12),
        ("goal_bets", 5),
        ("secret_goal", 6),
    )


def test_6_3_an_archive_bet_on_fewer_cards_than_held_is_lost_without_subtracting_n() -> None:
    # Four cards in the left archive, a silver bet on 3 there: not exactly 3, so -M = -9.
    position = FinalPosition(
        card_points=0,
        best=9,
        archives=(pieces("0B 3B 4B 5B"), (), ()),
        archive_bets=(ArchiveBet(0, 3, False),),
    )
    items = settle(position, parse_rules("complex")).items
    assert [(i.what, i.points) for i in items if i.part == "archive_bets"] == [
        ("silver on 3 in the left archive, holds 4", -9)
    ]
    # A silver win on an odd best rounds up: ceil(9/2) = 5, + 4 cards.
    won = replace(position, archive_bets=(ArchiveBet(0, 4, False),))
    assert settle(won, parse_rules("complex")).score().part("archive_bets") == 5 + 4


def test_nothing_bet_and_no_secret_are_named_and_score_nothing() -> None:
    items = settle(FinalPosition(card_points=40, best=8), parse_rules("complex")).items
    assert [(i.part, i.what, i.points) for i in items] == [
        ("cards", "card points on the frame", 40),
        ("duel", "best-card duel [R-19]", 0),  # no opponent: no duel
        ("archive_bets", "no archive bets", 0),
        ("goal_bets", "no goal bets [R-22]", 0),
        ("secret_goal", "no secret goal", 0),
    ]
    # With no archives at all a bet finds 0 cards there.
    bet = FinalPosition(card_points=0, best=8, archive_bets=(ArchiveBet(2, 2, True),))
    assert settle(bet, parse_rules("complex")).total == -8


def test_5_1_the_simple_game_scores_card_points_and_the_duel_only() -> None:
    position = FinalPosition(
        card_points=80,
        best=10,
        opponent_bests=(10,),  # equal bests: no duel
        archive_bets=(ArchiveBet(0, 2, True),),
        secret=parse_goal("blue>=1", 3),
    )
    items = settle(position, parse_rules("simple")).items
    assert [(i.part, i.points) for i in items] == [("cards", 80), ("duel", 0)]


def test_R27_classic_full_archives_score_the_bonus_each() -> None:
    position = FinalPosition(
        card_points=50,
        best=7,
        opponent_bests=(6,),
        archives=(pieces("0B 3B 4B 5B"), pieces("0R 3G 4Y"), pieces("0V 3V 4V 5V")),
        secret=parse_goal("blue>=5", 9),
    )
    items = settle(position, parse_rules("classic(archive_bonus=7)")).items
    assert [(i.part, i.what, i.points) for i in items] == [
        ("cards", "card points on the frame", 50),
        ("duel", "best-card duel [R-19]", 7),
        ("secret_goal", "secret goal blue>=5 (9), not met", 0),
        ("full_archives", "left archive holds 4 of 4 [R-27]", 7),
        ("full_archives", "middle archive holds 3 of 4 [R-27]", 0),
        ("full_archives", "right archive holds 4 of 4 [R-27]", 7),
    ]


def test_R24_the_automa_scores_its_cards_and_the_duel() -> None:
    assert [(i.part, i.points) for i in settle_automa(30, 9, 8).items] == [
        ("cards", 30),
        ("duel", 9),
    ]
    assert settle_automa(30, 9, 9).total == 30
    assert solo_winners(41, 40) == (0,)
    assert solo_winners(40, 40) == (1,)  # only a strictly higher total wins
    assert solo_winners(39, 40) == (1,)


@pytest.mark.parametrize(
    ("totals", "bests", "won"),
    [
        ([60, 58], [5, 9], (0,)),
        ([58, 60], [9, 5], (1,)),
        ([60, 60], [8, 9], (1,)),  # tie on totals: the higher best card
        ([60, 60], [9, 9], (0, 1)),  # then a shared win
        ([5, 7, 7], [9, 3, 2], (1,)),  # the best card only decides among the tied
    ],
)
def test_R20_winners(totals: list[int], bests: list[int], won: tuple[int, ...]) -> None:
    assert winners(totals, bests) == won


# Sheet imposition and crop marks (pnp/sheets.py) --------------------------------------------------

A4 = SheetSpec(PAPERS["a4"])


def test_a4_usable_area_and_footer_band() -> None:
    # Margins 9.5 on every side, a 10 mm footer and 1 mm between it and the components:
    # 210 - 19 = 191 wide, 297 - 19 - 10 - 1 = 267 high; the footer starts at 297 - 9.5 - 10.
    assert A4.usable == Box(9.5, 9.5, 191.0, 267.0)
    assert A4.footer_box == Box(9.5, 277.5, 191.0, 10.0)


def test_cards_turn_when_turned_more_fit_and_crop_marks_continue_every_cut_line() -> None:
    # 63 × 88 with 3 mm bleed: 69 × 94 upright fits 2 × 2 (191 // 69, 267 // 94); turned,
    # 94 × 69 fits 2 × 3 (267 // 69 = 3): six a page, turned. The block is 188 wide, centred:
    # left edge 9.5 + (191 - 188) / 2 = 11.
    items = [Item("card", f"c{i}", 63.0, 88.0) for i in range(7)]
    imposition = impose(items, A4, bleed=3.0, duplex="none")
    first, second = imposition.pages
    assert [p.quarter_turns for p in first.placements] == [1] * 6
    assert [p.bleed for p in first.placements] == [
        Box(11.0 + 94 * c, 9.5 + 69 * r, 94.0, 69.0) for r in range(3) for c in range(2)
    ]
    assert [p.cut for p in first.placements] == [
        Box(14.0 + 94 * c, 12.5 + 69 * r, 88.0, 63.0) for r in range(3) for c in range(2)
    ]
    assert first.placements[0].bleed_width == 3.0
    # The seventh card alone on page 2, centred: 9.5 + (191 - 94) / 2 = 58.
    assert [p.bleed for p in second.placements] == [Box(58.0, 9.5, 94.0, 69.0)]
    # Marks start 0.5 beyond the block's bleed edge and are 3 long; the ink-free band (6 mm,
    # plus the 0.2 mm line) cuts the top ones to start at 6.2 instead of 6.0.
    vertical = [
        ((x, 6.2), (x, 9.0)) if top else ((x, 217.0), (x, 220.0))
        for x in (14.0, 102.0, 108.0, 196.0)
        for top in (True, False)
    ]
    horizontal = [
        ((7.5, y), (10.5, y)) if left else ((199.5, y), (202.5, y))
        for y in (12.5, 75.5, 81.5, 144.5, 150.5, 213.5)
        for left in (True, False)
    ]
    marks = [
        tuple(tuple(round(v, 6) for v in point) for point in (m.start, m.end)) for m in first.marks
    ]
    assert marks == vertical + horizontal


def test_marks_are_cut_at_the_footer_and_dropped_when_their_line_is_outside() -> None:
    # One 180 × 266 sheet (no bleed), centred: left edge 9.5 + (191 - 180) / 2 = 15, right
    # 195; it reaches 9.5 + 266 = 275.5. Its bottom marks would run from 276 to 279, but the
    # marks' page ends 0.2 above the footer (277.5): cut to 276-277.3. The top ones from 6 to 9
    # are cut to 6.2 (ink-free band); the side ones (11.5-14.5, 195.5-198.5) stay whole.
    big = impose([Item("map", "m", 180.0, 266.0, rotatable=False)], A4, bleed=0.0)
    marks = [
        tuple(tuple(round(v, 6) for v in point) for point in (m.start, m.end))
        for m in big.pages[0].marks
    ]
    assert marks == [
        ((15.0, 6.2), (15.0, 9.0)),
        ((15.0, 276.0), (15.0, 277.3)),
        ((195.0, 6.2), (195.0, 9.0)),
        ((195.0, 276.0), (195.0, 277.3)),
        ((11.5, 9.5), (14.5, 9.5)),
        ((195.5, 9.5), (198.5, 9.5)),
        ((11.5, 275.5), (14.5, 275.5)),
        ((195.5, 275.5), (198.5, 275.5)),
    ]
    # A mark on a line outside the page box is dropped, one inside is clipped, never moved.
    page = Box(6.2, 6.2, 197.6, 271.1)
    assert _clipped(CropMark((5.0, 100.0), (5.0, 103.0)), page) is None
    assert _clipped(CropMark((100.0, 280.0), (103.0, 280.0)), page) is None
    assert _clipped(CropMark((100.0, 5.0), (100.0, 8.0)), page) == CropMark(
        (100.0, 6.2), (100.0, 8.0)
    )
    assert _clipped(CropMark((5.0, 100.0), (8.0, 100.0)), page) == CropMark(
        (6.2, 100.0), (8.0, 100.0)
    )
    assert _clipped(CropMark((100.0, 6.0), (100.0, 6.5)), page) is None  # 0.3 mm left: dropped


def test_only_items_of_one_kind_size_sides_bleed_and_turning_share_a_block() -> None:
    items = [
        Item("card", "a", 63.0, 88.0),
        Item("card", "b", 63.0, 88.0, rotatable=False),
        Item("card", "c", 63.0, 88.0, bleed=0.0),
        Item("card", "d", 63.0, 87.0),
        Item("card", "e", 63.0, 88.0),
    ]
    pages = impose(items, A4, bleed=3.0).pages
    # a and e share the first block (turned, side by side); b stands upright in its own block.
    page_of = {p.item.key: n for n, page in enumerate(pages) for p in page.placements}
    assert page_of == {"a": 0, "e": 0, "b": 0, "c": 0, "d": 1}
    by_key = {p.item.key: p for page in pages for p in page.placements}
    assert by_key["a"].bleed.y == by_key["e"].bleed.y and by_key["e"].bleed.x > by_key["a"].bleed.x
    assert by_key["b"].quarter_turns == 0 and by_key["a"].quarter_turns == 1
    assert by_key["c"].bleed == by_key["c"].cut  # its own bleed of 0
    # Page 1 stacks a+e (turned, 69 high, 9.5-78.5), b (upright, 94 high, from 78.5 + 8 = 86.5
    # to 180.5) and c (no bleed: upright 3 × 3 = 9 beat turned 2 × 4; 88 high, 188.5-276.5,
    # the usable bottom). d, 1 mm shorter, is another block: turned 93 × 69, on page 2, centred
    # at 9.5 + (191 - 93) / 2 = 58.5.
    assert by_key["c"].quarter_turns == 0 and by_key["c"].bleed.bottom == 276.5
    assert by_key["d"].bleed == Box(58.5, 9.5, 93.0, 69.0) and by_key["d"].quarter_turns == 1


def test_double_sided_and_alone_items_get_their_own_pages() -> None:
    items = [
        Item("card", "single", 63.0, 88.0),
        Item("token", "double", 30.0, 30.0, double_sided=True),
        Item("rules", "r", 150.0, 200.0, alone=True),
        Item("rules", "s", 150.0, 200.0, alone=True),
    ]
    pages = impose(items, A4, bleed=3.0, duplex="long").pages
    assert [[p.item.key for p in page.placements] for page in pages] == [
        ["single"],
        ["double"],
        ["r"],
        ["s"],
    ]
    assert [page.backs is not None for page in pages] == [False, True, False, False]
    assert [page.kinds for page in pages] == [("card",), ("token",), ("rules",), ("rules",)]


def test_impose_refuses_bad_options_in_words() -> None:
    with pytest.raises(InputError, match=r"^--bleed must be zero or more, not -1$"):
        impose([Item("chip", "c", 20, 20)], A4, bleed=-1)
    with pytest.raises(InputError) as caught:
        impose([Item("chip", "c", 20, 20)], A4, bleed=3, offset=(0.0, -6.0))
    assert str(caught.value) == ("--duplex-offset 0,-6 is more than 5 mm: measure the shift again")
    assert impose([Item("chip", "c", 20, 20)], A4, bleed=3, offset=(5.0, -5.0)).offset == (
        5.0,
        -5.0,
    )
    with pytest.raises(InputError) as too_big:
        impose([Item("big_board", "b", 300, 150)], A4, bleed=2)
    assert str(too_big.value) == (
        "a big board (300 × 150 mm with 2 mm bleed) does not fit on a4 paper: use a smaller"
        " --bleed or another paper"
    )


def page(*, backs: bool = False, booklet: bool = False) -> Page:
    return Page((), (), () if backs else None, (), booklet)


def test_printed_pages_pair_booklet_pages_and_give_blank_backs_when_duplex() -> None:
    pages = (page(booklet=True), page(booklet=True), page(booklet=True), page(), page(backs=True))
    long = Imposition(A4, 3.0, "long", (0.0, 0.0), pages)
    assert [(p.page, p.side) for p in long.printed] == [
        (0, "front"),
        (1, "front"),  # the next booklet page on the back of the first
        (2, "front"),
        (2, "blank"),
        (3, "front"),
        (3, "blank"),
        (4, "front"),
        (4, "back"),
    ]
    assert long.page_count == 8
    assert long.numbers() == [(1, None), (2, None), (3, None), (5, None), (7, 8)]
    single = replace(long, duplex="none")
    assert [(p.page, p.side) for p in single.printed] == [
        (0, "front"),
        (1, "front"),
        (2, "front"),
        (3, "front"),
        (4, "front"),
        (4, "back"),
    ]
    assert single.numbers() == [(1, None), (2, None), (3, None), (4, None), (5, 6)]


def test_an_items_own_corner_follows_its_quarter_turns() -> None:
    cut = Box(10.0, 20.0, 30.0, 40.0)
    corners = [Placement(Item("k", "k", 30, 40), cut, cut, q).origin() for q in range(5)]
    assert corners == [(10.0, 20.0), (40.0, 20.0), (40.0, 60.0), (10.0, 60.0), (10.0, 20.0)]


def test_duplex_test_marks_mirror_the_front_cross() -> None:
    letter = SheetSpec(PAPERS["letter"])
    assert duplex_test_marks(letter, "long") == ((107.95, 139.7), (215.9 - 107.95, 139.7))
    assert duplex_test_marks(letter, "short") == ((107.95, 139.7), (107.95, 279.4 - 139.7))


PAPER_TABLES = {"a4": {"width": 210, "height": 297}, "letter": {"width": 215.9, "height": 279.4}}


def test_sheet_spec_from_template_tables() -> None:
    spec = SheetSpec.from_tables(
        {"margin": 12, "gutter": 1.5, "mark_length": 4, "colour_model": "cmyk"}, PAPER_TABLES, "a4"
    )
    assert (spec.paper, spec.margin, spec.gutter, spec.mark_length, spec.colour_model) == (
        Paper("a4", 210, 297),
        12,
        1.5,
        4,
        "cmyk",
    )
    assert spec.footer == 10.0 and spec.ink_free == 6.0  # the defaults stay
    assert SheetSpec.from_tables({}, PAPER_TABLES, "letter").colour_model == "rgb"


@pytest.mark.parametrize(
    ("sheet", "paper", "message"),
    [
        ({}, "a3", "unknown paper 'a3': expected one of a4, letter"),
        (
            {"colour_model": "hsv"},
            "a4",
            "[sheet]: 'colour_model' must be \"rgb\" or \"cmyk\", not 'hsv'",
        ),
        ({"margin": 105}, "a4", "[sheet]: margins and footer leave no room on a4"),
        ({"margin": 140, "footer": 0}, "a4", "[sheet]: margins and footer leave no room on a4"),
        ({"margin": 5}, "a4", "[sheet]: 'margin' 5 must be at least 'ink_free' 6"),
    ],
)
def test_sheet_spec_errors_name_the_setting(
    sheet: dict[str, object], paper: str, message: str
) -> None:
    with pytest.raises(InputError) as caught:
        SheetSpec.from_tables(sheet, PAPER_TABLES, paper)
    assert str(caught.value) == message


def witness(
    same: tuple[int, ...] = (), shapes: tuple[int, ...] = (), colours: tuple[int, ...] = ()
) -> Witness:
    return Witness(
        ((ArchiveRule.SAME, same), (ArchiveRule.SHAPES, shapes), (ArchiveRule.COLOURS, colours))
    )


def test_7_a_goal_witness_is_checked_by_the_archive_rules() -> None:
    from runarch_gen.runarch.decks.check import _witness_problem

    # Cards 1-12 with hand-chosen match areas: 1-6 blue (shapes 0 3 4 5 6 0), 7 red 0, 8 green 3.
    matches = ["0B", "3B", "4B", "5B", "6B", "0B", "0R", "3G", "4Y", "5V", "6R", "3R"]
    cards = [
        replace(sample_deck(30).cards[0], id=k + 1, match=parse_piece(m))
        for k, m in enumerate(matches)
    ]
    blue3 = parse_goal("blue>=3", 5)
    assert _witness_problem(blue3, witness(same=(1, 2, 3)), cards, 5) is None
    assert _witness_problem(blue3, witness(same=(1, 2), shapes=(2,)), cards, 5) == (
        "a card is used twice"
    )
    many = witness(same=(1, 2, 3, 4, 5), shapes=(7, 8, 9, 10, 12), colours=(11,))
    assert _witness_problem(blue3, many, cards, 5) == "11 cards, more than 10"
    ten = witness(same=(1, 2, 3, 4, 5), shapes=(7, 8, 9, 10), colours=(11,))
    assert _witness_problem(blue3, ten, cards, 5) is None  # exactly 10 is allowed
    assert _witness_problem(blue3, witness(same=(1, 2, 99)), cards, 5) == (
        "a card that is not in the deck"
    )
    # SHAPES takes different shapes only: 1 (0B) and 6 (0B) share shape 0.
    assert _witness_problem(blue3, witness(shapes=(1, 6), same=(2,)), cards, 5) == (
        "archive shapes cannot hold 0B, 0B"
    )
    # Three fitting cards in an archive of capacity 2.
    assert _witness_problem(blue3, witness(same=(1, 2, 3)), cards, 2) == (
        "archive same cannot hold 0B, 3B, 4B"
    )
    assert _witness_problem(blue3, witness(same=(1, 2), colours=(7,)), cards, 5) == (
        "the cards do not meet the goal"
    )


def test_1_3_more_than_five_repeats_are_counted_in_figures() -> None:
    six = Pattern(tuple(parse_piece(code) for code in ("0R", "3R", "4R", "5R", "6R", "0R")))
    deck = deck_with({0: {"pattern": six}})
    texts = [v.message for v in check_deck(deck).violations if v.card == deck.cards[0].id]
    assert "6 stones; a pattern has 5" in texts
    assert "colour R (red) 6 times, at positions 1, 2, 3, 4, 5 and 6" in texts


def test_goal_counts_and_rounding_in_the_report() -> None:
    met = Witness(((ArchiveRule.SAME, (1,)),))
    report = DeckReport(
        "g.json",
        30,
        (),
        (),
        (),
        NO_PAIRS,
        (
            GoalCheck(parse_goal("blue>=1", 3), (1,), (3,), Fraction(1, 3), met),
            GoalCheck(parse_goal("red>=1", 3), (2,), (3,), Fraction(2, 3), met),
        ),
    )
    assert "goals: 2 different, all achievable" in report.lines()
    assert report.to_json()["goals"][0]["chance"] == 0.333333
    assert report.to_json()["differences"]["pair"] is None


def test_R01_a_one_card_deck_is_named_in_the_singular() -> None:
    one = replace(sample_deck(30), cards=sample_deck(30).cards[:1])
    differences = check_deck(one).differences
    assert (differences.smallest, differences.pair, differences.histogram) == (None, None, ())
    assert "deck: 1 card; a deck has 30 to 100 [R-01]" in [
        v.text for v in check_deck(one).violations
    ]


def test_7_a_witness_that_does_not_hold_is_a_violation_not_a_proof(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The witness search and the plain check are independent; should the search ever return
    # a witness the archive rules refuse, the goal is not proven and the deck fails.
    import runarch_gen.runarch.decks.check as deck_check

    deck = sample_deck(30)
    first = deck.cards[0]
    twice = Witness(((ArchiveRule.SAME, (first.id, first.id)),))
    monkeypatch.setattr(deck_check, "find_witness", lambda goal, cards, capacity: twice)
    report = deck_check.check_deck(deck)
    goal = first.goal.text
    found = [v.to_json() for v in report.violations if v.card == first.id]
    assert found == [
        {
            "card": first.id,
            "field": "goal",
            "rule": "§7",
            "message": f"{goal}: witness does not hold: a card is used twice",
        }
    ]


HAND = {1: "0B", 2: "3B", 3: "4B", 4: "0R", 5: "0G", 6: "3R"}


def archive_holds(rule: str, codes: list[str]) -> bool:
    """§4.3 written out: SAME one colour or one shape, SHAPES and COLOURS all different."""
    colours, shapes = [c[1] for c in codes], [c[0] for c in codes]
    if rule == "same":
        return len(set(colours)) <= 1 or len(set(shapes)) <= 1
    if rule == "shapes":
        return len(set(shapes)) == len(shapes)
    return len(set(colours)) == len(colours)


@pytest.mark.parametrize(
    ("condition", "capacity", "fewest"),
    [
        ("3·*·*", 5, 3),  # three blue (1, 2, 3) or three circles (1, 4, 5) on the left
        ("3·*·*", 2, None),  # an archive of 2 cannot hold 3
        ("*·*·4", 5, None),  # only three colours (B, R, G) in the hand-made deck
        ("*·*·3", 5, 3),
        ("1·1·1", 5, 3),
        ("0·2·0", 5, 2),
        ("2·0·0 any order", 5, 2),
        ("0·0·0", 5, None),  # a condition is checked after a card is archived: at least one
        ("total 4", 5, 4),
    ],
)
def test_R02_condition_witnesses_fit_the_archives_and_use_the_fewest_cards(
    condition: str, capacity: int, fewest: int | None
) -> None:
    cards = [
        replace(sample_deck(30).cards[0], id=card_id, match=parse_piece(code))
        for card_id, code in HAND.items()
    ]
    rules = (ArchiveRule.SAME, ArchiveRule.SHAPES, ArchiveRule.COLOURS)
    parsed = parse_condition(condition)
    found = find_condition_witness(parsed, cards, rules, capacity=capacity)
    if fewest is None:
        assert found is None
        return
    assert found is not None
    ids = [card_id for archive in found for card_id in archive]
    assert len(ids) == len(set(ids)) == fewest
    for rule, archive in zip(("same", "shapes", "colours"), found, strict=True):
        assert len(archive) <= capacity and archive_holds(rule, [HAND[i] for i in archive])
    assert parsed.is_met((len(found[0]), len(found[1]), len(found[2])))


def test_a_check_concerns_its_variants_or_the_whole_set() -> None:
    whole = Check("board", "s", rules=())
    some = Check("goals", "s", (Failure("deck", "§7", "m", "p"),), rules=("complex", "solo"))
    assert whole.ok and whole.concerns("simple")
    assert not some.ok and some.concerns("solo") and not some.concerns("simple")
    assert some.failures[0].text == "deck: m [§7]"
    assert whole.to_json() == {
        "check": "board",
        "rules": [],
        "ok": True,
        "summary": "s",
        "failures": [],
        "proofs": {},
    }


def test_sheet_spec_reads_every_setting_and_names_the_paper_in_errors() -> None:
    keys = (
        "margin",
        "footer",
        "gutter",
        "block_gap",
        "mark_length",
        "mark_offset",
        "mark_width",
        "calibration",
        "max_duplex_offset",
        "ink_free",
    )
    sheet = {key: 7.0 + n for n, key in enumerate(keys)}
    sheet["ink_free"] = 6.5  # at most the margin (7)
    spec = SheetSpec.from_tables(sheet, PAPER_TABLES, "a4")
    assert {key: getattr(spec, key) for key in keys} == sheet
    for bad, message in (
        ({"width": 0, "height": 297}, "paper 'odd': 'width' must be positive, not 0"),
        ({"width": 210, "height": 0}, "paper 'odd': 'height' must be positive, not 0"),
        ({"height": 297}, "paper 'odd': missing 'width'"),
    ):
        with pytest.raises(InputError) as caught:
            SheetSpec.from_tables({}, {"odd": bad}, "odd")
        assert str(caught.value) == message


def test_gutters_space_the_cells_and_the_next_block_starts_below() -> None:
    # A 2 mm gutter: turned cards 94 × 69, 2 columns (94 + 2 + 94 = 190 <= 191), 3 rows
    # (3 · 69 + 2 · 2 = 211 <= 267): the block is 190 wide, left edge 9.5 + 0.5 = 10; the rows
    # at 9.5, 80.5, 151.5; it ends at 9.5 + 211 = 220.5. Chips (20 + 6 = 26 square) follow
    # 8 mm lower, at 228.5 (their block is not turned: rotatable=False).
    spec = SheetSpec(PAPERS["a4"], gutter=2.0)
    items = [Item("card", f"c{i}", 63.0, 88.0) for i in range(6)]
    items += [Item("chip", f"x{i}", 20.0, 20.0, rotatable=False) for i in range(6)]
    placements = impose(items, spec, bleed=3.0).pages[0].placements
    cards = [p.bleed for p in placements if p.item.kind == "card"]
    assert cards == [
        Box(10.0 + 96 * c, 9.5 + 71 * r, 94.0, 69.0) for r in range(3) for c in range(2)
    ]
    chips = [p.bleed for p in placements if p.item.kind == "chip"]
    # 6 chips: 6 · 26 + 5 · 2 = 166 wide, left edge 9.5 + (191 - 166) / 2 = 22
    assert chips == [Box(22.0 + 28 * c, 228.5, 26.0, 26.0) for c in range(6)]


def test_cells_are_counted_with_the_gutter_between_them_only() -> None:
    from runarch_gen.pnp.sheets import _count

    assert _count(69.0, 69.0, 0.0) == 1 and _count(137.5, 69.0, 0.0) == 1
    assert _count(138.0, 69.0, 0.0) == 2
    assert _count(190.0, 94.0, 2.0) == 2 and _count(189.9, 94.0, 2.0) == 1
    assert _count(10.0, 69.0, 0.0) == 0


def test_a_tie_between_upright_and_turned_keeps_the_item_upright() -> None:
    # 90 × 150, no bleed: upright 2 columns × 1 row, turned 1 column × 2 rows: a tie.
    page = impose([Item("panel", "p", 90.0, 150.0)], A4, bleed=0.0).pages[0]
    assert page.placements[0].quarter_turns == 0


def test_marks_of_a_partial_last_row_and_a_full_width_block() -> None:
    # Five turned cards: rows of 2, 2 and 1; column b (bleed x 105) holds only two cards, so
    # its bottom marks are 69 higher, and row 3's right marks follow its single card.
    first = impose([Item("card", f"c{i}", 63.0, 88.0) for i in range(5)], A4, bleed=3.0)
    marks = {
        tuple(tuple(round(v, 6) for v in point) for point in (m.start, m.end))
        for m in first.pages[0].marks
    }
    assert ((108.0, 148.0), (108.0, 151.0)) in marks  # column b ends at 9.5 + 2 · 69 = 147.5
    assert ((14.0, 217.0), (14.0, 220.0)) in marks  # column a ends at 216.5
    assert ((105.5, 150.5), (108.5, 150.5)) in marks  # row 3 ends at 11 + 94 = 105
    assert ((199.5, 150.5), (202.5, 150.5)) not in marks
    # A block the full usable width (191): its left marks would start at 9.5 - 3.5 = 6, cut
    # to the ink-free band at 6.2.
    wide = impose([Item("strip", "s", 191.0, 50.0, rotatable=False)], A4, bleed=0.0)
    starts = {m.start for m in wide.pages[0].marks if m.start[1] == m.end[1]}
    assert (6.2, 9.5) in starts


def test_marks_on_the_edge_of_the_allowed_area_stay() -> None:
    page = Box(6.0, 6.0, 100.0, 100.0)
    assert _clipped(CropMark((6.0, 50.0), (6.0, 53.0)), page) is not None
    assert _clipped(CropMark((106.0, 50.0), (106.0, 53.0)), page) is not None
    assert _clipped(CropMark((50.0, 6.0), (53.0, 6.0)), page) is not None
    assert _clipped(CropMark((50.0, 106.0), (53.0, 106.0)), page) is not None
    assert _clipped(CropMark((50.0, 5.0), (50.0, 6.5)), page) == CropMark((50.0, 6.0), (50.0, 6.5))


def test_items_differing_in_width_do_not_share_a_block() -> None:
    items = [Item("card", "a", 63.0, 88.0), Item("card", "b", 62.0, 88.0)]
    a, b = impose(items, A4, bleed=3.0).pages[0].placements
    assert a.bleed.y != b.bleed.y


def test_first_fit_skips_pages_of_the_other_sidedness() -> None:
    items = [
        Item("token", "t", 30.0, 30.0, double_sided=True),
        Item("card", "c", 63.0, 88.0),
        Item("chip", "x", 20.0, 20.0),
    ]
    pages = impose(items, A4, bleed=3.0).pages
    assert [[p.item.key for p in page.placements] for page in pages] == [["t"], ["c", "x"]]


def test_alone_items_keep_their_page_to_themselves() -> None:
    items = [
        Item("rules", "r1", 50.0, 50.0, alone=True),
        Item("rules", "r2", 50.0, 50.0, alone=True),
        Item("chip", "x", 20.0, 20.0),
    ]
    pages = impose(items, A4, bleed=3.0).pages
    assert [[p.item.key for p in page.placements] for page in pages] == [["r1"], ["r2"], ["x"]]


def test_backs_carry_the_item_its_mirrored_boxes_and_turns() -> None:
    # Long-edge flip with a (1, -2) correction: x -> 210 - right + 1, y -> y - 2.
    token = Item("token", "t", 30.0, 30.0, double_sided=True, rotatable=False)
    imposition = impose([token], A4, bleed=3.0, duplex="long", offset=(1.0, -2.0))
    front = imposition.pages[0].placements[0]
    assert imposition.pages[0].backs is not None
    (back,) = imposition.pages[0].backs
    assert back.item == token and back.quarter_turns == front.quarter_turns == 0
    f = front.bleed
    assert back.bleed == Box(210.0 - f.right + 1.0, f.y - 2.0, 36.0, 36.0)
    assert back.cut == Box(210.0 - front.cut.right + 1.0, front.cut.y - 2.0, 30.0, 30.0)
    short = impose([token], A4, bleed=3.0, duplex="short").pages[0].backs
    assert short is not None and short[0].bleed == Box(f.x, 297.0 - f.bottom, 36.0, 36.0)


def test_imposition_records_its_options_and_booklet_pages() -> None:
    booklet = Item("rulebook", "p1", 150.0, 200.0, alone=True, booklet=True)
    imposition = impose([booklet, Item("card", "c", 63.0, 88.0)], A4, bleed=2.0)
    assert (imposition.spec, imposition.bleed, imposition.duplex) == (A4, 2.0, "long")
    assert [page.booklet for page in imposition.pages] == [True, False]
    assert imposition.pages[0].marks == ()  # a booklet page is not cut


@pytest.mark.parametrize(
    ("sheet", "paper", "message"),
    [
        ({"margin": -1}, "a4", "[sheet]: 'margin' must be zero or more, not -1"),
        (
            {"footer": 79.0, "margin": 10.0},
            "wide",
            "[sheet]: margins and footer leave no room on wide",
        ),
        ({"margin": 104.5}, "a4", None),  # 1 mm wide: room enough
        ({"footer": 78.0, "margin": 10.0}, "wide", None),  # 1 mm high
        ({"margin": 6.0}, "a4", None),  # the margin may equal the ink-free band
    ],
)
def test_sheet_spec_boundaries(sheet: dict[str, float], paper: str, message: str | None) -> None:
    papers = {**PAPER_TABLES, "wide": {"width": 300, "height": 100}}
    if message is None:
        SheetSpec.from_tables(sheet, papers, paper)
        return
    with pytest.raises(InputError) as caught:
        SheetSpec.from_tables(sheet, papers, paper)
    assert str(caught.value) == message


def test_R24_automa_items_are_named() -> None:
    assert [(i.part, i.what, i.points) for i in settle_automa(30, 9, 8).items] == [
        ("cards", "card points on the frame", 30),
        ("duel", "best-card duel [R-19]", 9),
    ]


def test_R27_a_classic_position_without_archives_holds_nothing() -> None:
    items = settle(FinalPosition(card_points=10, best=5), parse_rules("classic")).items
    assert [(i.what, i.points) for i in items if i.part == "full_archives"] == [
        ("left archive holds 0 of 4 [R-27]", 0),
        ("middle archive holds 0 of 4 [R-27]", 0),
        ("right archive holds 0 of 4 [R-27]", 0),
    ]


# runarch-gen tally (engine/tally.py): every refusal names the key --------------------------------

GOLD_LEFT_3 = {"token": "gold", "archive": "left", "cards": 3}


@pytest.mark.parametrize(
    ("description", "message"),
    [
        (
            {"best": 13, "colour": 1},
            "unknown key 'colour': expected archives, best, bets, card_points, opponent_best,"
            " rules, secret_goal",
        ),
        (
            {"rules": "simple", "best": 9, "bets": []},
            "the simple game has no archives, bets or goals",
        ),
        (
            {"rules": "simple", "best": 9, "archives": [0, 0, 0]},
            "the simple game has no archives, bets or goals",
        ),
        (
            {"rules": "simple", "best": 9, "secret_goal": {}},
            "the simple game has no archives, bets or goals",
        ),
        ({}, "best: missing"),
        ({"best": True}, "best: expected an integer, not true"),
        ({"best": 13.5}, "best: expected an integer, not 13.5"),
        ({"best": -1}, "best: cannot be negative"),
        ({"best": 13, "card_points": "x"}, 'card_points: expected an integer, not "x"'),
        ({"best": 13, "opponent_best": -2}, "opponent_best: cannot be negative"),
        ({"best": 13, "archives": [1, 1]}, "archives: expected a list of 3 (left, middle, right)"),
        ({"best": 13, "archives": "3,3,3"}, "archives: expected a list of 3 (left, middle, right)"),
        (
            {"best": 13, "archives": [1, "x", 1]},
            "archives[1] (middle): expected a list of codes or a count",
        ),
        (
            {"best": 13, "archives": [1, True, 1]},
            "archives[1] (middle): expected a list of codes or a count",
        ),
        (
            {"best": 13, "archives": [1, 1, 6]},
            "archives[2] (right): holds at most 5 cards [R-14], not 6",
        ),
        (
            {"best": 13, "archives": [-1, 1, 1]},
            "archives[0] (left): holds at most 5 cards [R-14], not -1",
        ),
        (
            {"best": 13, "archives": [[], ["0R", "0B"], []]},
            "archives[1] (middle): a SHAPES archive cannot hold 0R 0B (§4.3)",
        ),
        ({"best": 13, "archives": [[], [], ["Q9"]]}, "archives[2] (right): unknown code 'Q9': "),
        ({"best": 13, "bets": {}}, "bets: expected a list"),
        (
            {"rules": "classic", "best": 13, "bets": [GOLD_LEFT_3]},
            "the classic game has no bets [R-27]",
        ),
        ({"best": 13, "bets": [3]}, "bets[0]: expected an object"),
        (
            {"best": 13, "bets": [{"archive": "left", "cards": 3}]},
            "bets[0].token: expected gold or silver, not None",
        ),
        (
            {"best": 13, "bets": [{"token": "gold", "archive": 3, "cards": 3}]},
            "bets[0].archive: expected left, middle or right, not 3",
        ),
        (
            {"best": 13, "bets": [{"token": "gold", "archive": True, "cards": 3}]},
            "bets[0].archive: expected left, middle or right, not True",
        ),
        ({"best": 13, "bets": [{"token": "gold", "archive": "left"}]}, "bets[0].cards: missing"),
        (
            {"best": 13, "bets": [{"token": "gold", "archive": "left", "cards": 1}]},
            "bets[0].cards: a bet spot is for 2 to 5 cards, not 1",
        ),
        (
            {"best": 13, "bets": [{"token": "gold"}]},
            "bets[0]: expected 'archive' and 'cards', or 'goal' and 'reward'",
        ),
        (
            {"best": 13, "bets": [GOLD_LEFT_3, {**GOLD_LEFT_3, "token": "silver"}]},
            "bets: one token per archive bet spot (§6.2)",
        ),
        (
            {"best": 13, "archives": [[], [], []], "secret_goal": {"reward": 3}},
            "secret_goal: expected an object with 'goal' and 'reward'",
        ),
        (
            {"best": 13, "archives": [[], [], []], "secret_goal": {"goal": "blue>=2"}},
            "secret_goal.reward: missing",
        ),
        (
            {"best": 13, "archives": [[], [], []], "secret_goal": {"goal": "pink>=2", "reward": 3}},
            "secret_goal.goal: ",
        ),
        (
            {"best": 13, "secret_goal": {"goal": "blue>=2", "reward": 3}},
            "archives: goals read the cards' match areas, so list their codes",
        ),
    ],
)
def test_tally_refusals_name_the_key(description: dict[str, object], message: str) -> None:
    with pytest.raises(ParseError) as caught:
        tally(description)
    if message.endswith(": "):
        assert caught.value.message.startswith(message)
    else:
        assert caught.value.message == message


def test_tally_reads_archive_names_tokens_and_counts_in_every_spelling() -> None:
    settlement, config = tally(
        {
            "best": 10,
            "card_points": 40,
            "opponent_best": 9,
            "archives": [2, 3, 4],
            "bets": [
                {"token": "GOLD", "archive": "l", "cards": 2},  # holds 2: 10 + 2
                {"token": "silver", "archive": "M", "cards": 3},  # holds 3: 5 + 3
                {"token": "silver", "archive": 2, "cards": 5},  # holds 4: -10
            ],
        }
    )
    assert str(config) == "complex"
    assert [(i.part, i.what, i.points) for i in settlement.items] == [
        ("cards", "card points on the frame", 40),
        ("duel", "best-card duel [R-19]", 10),
        ("archive_bets", "gold on 2 in the left archive, holds 2", 12),
        ("archive_bets", "silver on 3 in the middle archive, holds 3", 8),
        ("archive_bets", "silver on 5 in the right archive, holds 4", -10),
        ("goal_bets", "no goal bets [R-22]", 0),
        ("secret_goal", "no secret goal", 0),
    ]
    # No archives given: all three empty, and no opponent: no duel.
    alone, _ = tally({"best": 7, "bets": [{"token": "gold", "archive": "right", "cards": 2}]})
    assert [i.points for i in alone.items] == [0, 0, -7, 0, 0]
    # Listed codes: a goal bet and the secret goal read them.
    listed, _ = tally(
        {
            "best": 8,
            "archives": [["0B", "3B"], ["4G"], []],
            "bets": [{"token": "silver", "goal": "blue>=2", "reward": 5}],
            "secret_goal": {"goal": "colours>=2", "reward": 6},
        }
    )
    assert [(i.what, i.points) for i in listed.items[2:]] == [
        ("no archive bets", 0),
        ("silver on blue>=2 (5), met", 4 + 5),
        ("secret goal colours>=2 (6), met", 6),
    ]


def test_tally_from_json_names_the_source() -> None:
    with pytest.raises(ParseError) as caught:
        tally_from_json('{"best": -1}', source="t.json")
    assert str(caught.value).startswith("t.json") and "best: cannot be negative" in str(
        caught.value
    )
    with pytest.raises(ParseError) as option:
        tally_from_json('{"best": 1, "rules": "complex(deal=9)"}', source="u.json")
    assert str(option.value).startswith("u.json")
    settlement, _ = tally_from_json('{"best": 4, "card_points": 3}', source="v.json")
    assert settlement.total == 3


def test_progress_is_reported_after_the_boards_it_counts() -> None:
    yielded: list[Board] = []
    log: list[tuple[int, int]] = []

    def progress(n: int) -> None:
        log.append((len(yielded), n))

    yielded.extend(iter_generated_boards(3, seed=1, on_progress=progress))
    assert log == [(3, 3)]


def test_tally_reads_archive_zero_a_zero_best_gold_goal_bets_and_empty_classic_archives() -> None:
    settlement, _ = tally(
        {
            "best": 0,
            "archives": [["0B", "3B"], [], []],
            "bets": [
                {"token": "gold", "archive": 0, "cards": 2},  # left by number: 0 + 2
                {"token": "gold", "goal": "blue>=2", "reward": 4},  # gold, met: 0 + 4
            ],
        }
    )
    assert [(i.what, i.points) for i in settlement.items[2:4]] == [
        ("gold on 2 in the left archive, holds 2", 2),
        ("gold on blue>=2 (4), met", 4),
    ]
    classic, _ = tally({"rules": "classic", "best": 3})
    assert [i.what for i in classic.items if i.part == "full_archives"] == [
        "left archive holds 0 of 4 [R-27]",
        "middle archive holds 0 of 4 [R-27]",
        "right archive holds 0 of 4 [R-27]",
    ]


LINE_NAMES_BY_SQUARES = [[f"{c}{r}" for c in "abcde"] for r in "12345"] + [
    [f"{c}{r}" for r in "12345"] for c in "abcde"
]
LINE_NAMES_BY_SQUARES += [["a1", "b2", "c3", "d4", "e5"], ["e1", "d2", "c3", "b4", "a5"]]


@pytest.mark.parametrize("seed", range(3))
def test_4_2_pattern_points_agree_with_the_rule_on_every_line(seed: int) -> None:
    # §4.2: each position earns 1 for the colour and 1 for the shape; any position earning 0
    # makes the card invalid there (0 points); else the sum, 5 to 10.
    from runarch_gen.runarch.engine.tables import pattern_points, points_table

    rng = random.Random(seed)
    for card in sample_deck(40, seed).cards[:10]:
        table = points_table([piece.index for piece in card.pattern])
        for _ in range(20):
            stones = list(range(25))
            rng.shuffle(stones)
            # Lay the pattern itself on a random line now and then, so valid lines occur.
            line = rng.randrange(12)
            for k, name in enumerate(LINE_NAMES_BY_SQUARES[line]):
                square = "abcde".index(name[0]) + 5 * (int(name[1]) - 1)
                other = stones.index(card.pattern[k].index)
                stones[square], stones[other] = stones[other], stones[square]
            for n, names in enumerate(LINE_NAMES_BY_SQUARES):
                earned = []
                for k, name in enumerate(names):
                    stone = PIECES[stones["abcde".index(name[0]) + 5 * (int(name[1]) - 1)]]
                    want = card.pattern[k]
                    earned.append((stone.colour == want.colour) + (stone.shape == want.shape))
                expected = sum(earned) if all(earned) else 0
                assert pattern_points(table, stones, n) == expected


def hand_cards() -> list[Card]:
    return [
        replace(sample_deck(30).cards[0], id=card_id, match=parse_piece(code))
        for card_id, code in HAND.items()
    ]


def test_R02_a_condition_witness_is_checked_by_the_archive_rules() -> None:
    from runarch_gen.runarch.validation.validate import _condition_witness_problem

    rules = (ArchiveRule.SAME, ArchiveRule.SHAPES, ArchiveRule.COLOURS)
    cards = hand_cards()
    one_each = parse_condition("1·1·1")

    def problem(placement: list[list[int]], capacity: int = 5) -> str | None:
        return _condition_witness_problem(one_each, placement, cards, rules, capacity)

    assert problem([[1], [2], [4]]) is None
    assert problem([[1], [1], [4]]) == "a card used twice or not in the deck"
    assert problem([[1], [2], [99]]) == "a card used twice or not in the deck"
    assert problem([[], [], []]) == "0 cards"
    assert problem([[1], [4, 5], [2]]) == "archive shapes cannot hold 0R, 0G"  # both circles
    assert problem([[1], [2], [4, 6]]) == "archive colours cannot hold 0R, 3R"  # both red
    assert problem([[1, 2], [4], [5]], capacity=1) == "archive same cannot hold 0B, 3B"
    assert problem([[1, 2], [4], [5]]) == "counts (2, 1, 1) do not meet it"
    many = parse_condition("total 11")
    assert _condition_witness_problem(many, [list(range(1, 12)), [], []], cards, rules, 11) == (
        "a card used twice or not in the deck"  # ids 7-11 are not in the hand-made deck
    )


def test_R02_conditions_check_names_each_token_that_cannot_be_met() -> None:
    from runarch_gen.runarch.validation.validate import _conditions_check

    config = parse_rules("complex(capacity=4,conditions=1·1·1|4·4·4|*·3·*)")
    check = _conditions_check(config, ("complex",), hand_cards())
    # 4·4·4 needs 12 cards (the deck has 6); *·3·* needs three shapes in SHAPES: 0, 3, 4. ok.
    assert check.summary == "1 of 3 condition tokens cannot be met"
    assert [f.to_json() for f in check.failures] == [
        {
            "component": "condition 4·4·4",
            "rule": "R-02",
            "message": "cannot be met under the archive rules",
            "proof": "CP-SAT proved that no 1 to 10 cards of this deck fit the archives (SAME,"
            " SHAPES, COLOURS [R-13], 4 each [R-14]) with these counts",
        }
    ]
    assert check.proofs["4·4·4"] is None
    one_each = check.proofs["1·1·1"]
    assert sorted(one_each) == ["colours", "same", "shapes"]
    assert [len(one_each[k]) for k in ("same", "shapes", "colours")] == [1, 1, 1]
    assert len(check.proofs["*·3·*"]["shapes"]) == 3
    met = _conditions_check(
        parse_rules("complex(conditions=1·1·1,archive_order=article)"), (), hand_cards()
    )
    assert met.ok and met.summary == (
        "1 condition tokens, each met by a witness (archives COLOURS, SHAPES, SAME)"
    )


# minimums: every branch's whole check written out ------------------------------------


def _witness(points: int, bonus: int = 0, card: int = 7) -> ScoreWitness:
    return ScoreWitness(card, "r1", points, bonus, tuple(range(25)))


def test_1_3_no_valid_pattern_means_no_card_can_score() -> None:
    check = _minimums_check(parse_rules("simple"), ("simple",), None, None, None)
    assert (check.name, check.rules, check.summary) == (
        "minimums",
        ("simple",),
        "no card can score",
    )
    assert [(f.component, f.rule, f.message) for f in check.failures] == [
        ("deck", "§1.3", "no card has a valid pattern: no card can score")
    ]


def test_R10_the_fixed_minimum_out_of_reach_names_the_best_and_its_witness() -> None:
    # minimum 5, best 4 pattern points: the simple game cannot be played.
    check = _minimums_check(parse_rules("simple"), ("simple",), None, _witness(4), None)
    assert (check.name, check.rules) == ("minimums", ("simple",))
    assert check.summary == "the fixed minimum cannot be reached"
    assert [(f.component, f.rule, f.message, f.proof) for f in check.failures] == [
        (
            "minimum 5",
            "R-10",
            "cannot be reached: the best is 4 pattern points",
            "card 7 on r1: 4 pattern points",
        )
    ]
    assert check.proofs == {"best_pattern_points": _witness(4).to_json()}
    # Exactly the minimum is within reach (<=, not <).
    ok = _minimums_check(parse_rules("simple"), ("simple",), None, _witness(5), None)
    assert ok.ok and ok.summary == (
        "the fixed minimum 5 [R-10] is within reach: best 5 pattern points"
        " (card 7 on r1: 5 pattern points)"
    )


def test_R09_every_minimum_within_reach_names_both_bests_and_keeps_the_proofs() -> None:
    tokens = BonusTokens(((5,), (7,), (9,), (12,)))
    check = _minimums_check(
        parse_rules("complex"), ("complex",), tokens, _witness(10), _witness(10, 2, card=3)
    )
    assert (check.name, check.rules, check.ok) == ("minimums", ("complex",), True)
    assert check.summary == (
        "every minimum can be reached: D 5, X 7, F 9, N 12: best 10 pattern points in phases"
        " 1–3, best card score 12 in phase 4 with match_bonus=board (card 3 on r1: 10 pattern"
        " points + 2 match bonus)"
    )
    assert check.proofs == {
        "best_pattern_points": _witness(10).to_json(),
        "best_phase4_score": _witness(10, 2, card=3).to_json(),
        "tokens": tokens.to_json(),
    }


def test_R09_minimums_out_of_reach_each_fail_with_the_phase4_witness() -> None:
    # Best 12 in phase 4 (10 + 2): the N tokens of 13 and 14 are out of reach, in the singular
    # and plural as counted; the witness is the phase-4 one even when both bests are equal.
    tokens = BonusTokens(((5,), (7,), (9,), (12, 13, 14)))
    check = _minimums_check(
        parse_rules("complex"), ("complex",), tokens, _witness(10), _witness(10, 2, card=3)
    )
    assert (check.name, check.rules) == ("minimums", ("complex",))
    assert check.summary.startswith("2 minimums out of reach: D 5, X 7, F 9, N 12/13/14: best 10")
    assert [f.component for f in check.failures] == ["token N 13", "token N 14"]
    first = check.failures[0]
    assert first.rule == "R-09"
    assert first.message == (
        "a minimum of 13 cannot be reached with match_bonus=board: the best possible card"
        " score is 12"
    )
    assert first.proof == (
        "card 3 on r1: 10 pattern points + 2 match bonus; this is the optimum over every card,"
        " line and arrangement of the stones (an assignment of the 25 stones to the squares,"
        " solved exactly)"
    )
    one = _minimums_check(
        parse_rules("complex"),
        ("complex",),
        BonusTokens(((5,), (7,), (9,), (11,))),
        _witness(10, card=1),
        _witness(10, card=2),
    )
    assert one.summary.startswith("1 minimum out of reach:")
    assert one.failures[0].proof.startswith("card 2 on r1")  # equal bests: the phase-4 witness
    assert check.proofs["best_phase4_score"] == _witness(10, 2, card=3).to_json()


def test_9_1_the_static_checks_advance_one_step_each() -> None:
    from runarch_gen.runarch.engine.sample import sample_board
    from runarch_gen.runarch.validation.validate import STATIC_STEPS, check_set

    steps: list[int] = []
    check_set(sample_board(), sample_deck(50), [parse_rules("complex")], advance=steps.append)
    assert steps == [1] * STATIC_STEPS


def test_9_1_check_set_reads_R10_for_the_simple_game_and_R09_for_the_others() -> None:
    from runarch_gen.runarch.engine.sample import sample_board
    from runarch_gen.runarch.validation.validate import check_set

    report = check_set(sample_board(), sample_deck(50), [parse_rules("simple"), "complex"])
    minimums = {c.rules: c.summary for c in report.checks if c.name == "minimums"}
    # The simple game has no tokens: its fixed minimum; the complex game its tokens.
    assert minimums[("simple",)].startswith("the fixed minimum 5 [R-10] is within reach")
    assert minimums[("complex",)].startswith("every minimum can be reached: D 5/6/7")


def test_1_3_a_deck_that_cannot_score_fails_the_minimums_without_a_token_analysis() -> None:
    from runarch_gen.runarch.engine.sample import sample_board
    from runarch_gen.runarch.validation.validate import check_set

    # Five reds in every pattern: no card has a valid pattern (§1.3), so no best score exists
    # and the token analysis (which needs one) must not run.
    reds = Pattern(parse_pattern("0R,3R,4R,5R,6R").pieces)
    base = sample_deck(40)
    deck = replace(base, cards=tuple(replace(card, pattern=reds) for card in base.cards))
    report = check_set(sample_board(), deck, [parse_rules("complex"), parse_rules("simple")])
    minimums = [(c.rules, c.summary) for c in report.checks if c.name == "minimums"]
    assert minimums == [(("complex",), "no card can score"), (("simple",), "no card can score")]
    assert report.findings == ()


def test_R02_any_order_tries_the_orders_smallest_first() -> None:
    # "2·1·0 any order": every order of the counts is a way to meet it; the witness search
    # tries them in ascending order, so the reported witness is the first feasible one:
    # (0, 1, 2) — nothing in SAME, one card in SHAPES, two different colours in COLOURS.
    cards = [
        replace(sample_deck(30).cards[0], id=card_id, match=parse_piece(code))
        for card_id, code in HAND.items()
    ]
    rules = (ArchiveRule.SAME, ArchiveRule.SHAPES, ArchiveRule.COLOURS)
    found = find_condition_witness(parse_condition("2·1·0 any order"), cards, rules, capacity=5)
    assert found is not None
    assert tuple(len(archive) for archive in found) == (0, 1, 2)
