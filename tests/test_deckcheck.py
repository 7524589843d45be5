"""The independent deck checker: it shares no code with the generator, accepts generated decks
(see test_deckgen) and rejects hand-made bad decks of every kind, naming card and field."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import pytest

from runarch_gen.errors import ParseError
from runarch_gen.runarch.atoms import Direction, parse_piece
from runarch_gen.runarch.decks.cards import Card, Deck, parse_goal, parse_pattern
from runarch_gen.runarch.decks.check import DeckReport, check_deck, check_deck_text
from runarch_gen.runarch.decks.io import CSV_COLUMNS, deck_to_csv
from tests.test_deckgen import generated


def good_deck() -> Deck:
    return generated(30, 1)[0]


def with_card(deck: Deck, index: int, **changes: object) -> Deck:
    cards = list(deck.cards)
    cards[index] = replace(cards[index], **changes)  # type: ignore[arg-type]
    return Deck(tuple(cards))


def violations(report: DeckReport) -> list[tuple[int | None, str, str]]:
    return [(v.card, v.field, v.rule) for v in report.violations]


def test_checker_does_not_import_the_generator() -> None:
    code = (
        "import sys, runarch_gen.runarch.decks.check as c; "
        "print(sorted(m for m in sys.modules if m.endswith('deckgen')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_good_deck_is_valid_and_exit_code_0() -> None:
    report = check_deck(good_deck())
    assert report.valid and report.exit_code == 0
    assert report.differences.smallest == 4


def test_repeated_colour_in_a_pattern_is_named_by_card_and_positions() -> None:
    deck = with_card(good_deck(), 4, pattern=parse_pattern("0R,3R,4G,5Y,6V"))
    card_id = deck.cards[4].id
    report = check_deck(deck)
    assert (card_id, "pattern", "§1.3") in violations(report)
    assert any("colour R (red) twice, at positions 1 and 2" in v.message for v in report.violations)
    assert report.exit_code == 1


def test_repeated_shape_in_a_pattern() -> None:
    deck = with_card(good_deck(), 0, pattern=parse_pattern("0R,0B,0G,5Y,6V"))
    report = check_deck(deck)
    assert any(
        v.card == deck.cards[0].id
        and "shape 0 (circle) three times, at positions 1, 2 and 3" in v.message
        for v in report.violations
    )


def test_duplicate_pattern_names_the_first_card_with_it() -> None:
    deck = good_deck()
    deck = with_card(deck, 9, pattern=deck.cards[2].pattern)
    report = check_deck(deck)
    assert [v.text for v in report.violations] == [
        f"card {deck.cards[9].id}, pattern: the same pattern as card {deck.cards[2].id} [§1.3]"
    ]
    assert report.differences.smallest == 0


def test_unknown_code_is_a_parse_error_naming_file_row_and_column() -> None:
    text = deck_to_csv(good_deck()).replace("\n1,", "\n1,9Q", 1)
    first_row = text.splitlines()[1].split(",")
    with pytest.raises(ParseError) as caught:
        check_deck_text(text, source="bad.csv")
    assert str(caught.value).startswith("bad.csv:2:2: column p1: unknown code")
    assert first_row[1].startswith("9Q")


def test_unachievable_goal_is_named_for_every_card_showing_it() -> None:
    # 30 balanced cards have 6 of each colour: blue>=7 cannot be met; colours>=6 never can.
    deck = with_card(good_deck(), 3, goal=parse_goal("blue>=7", 12))
    deck = with_card(deck, 5, goal=parse_goal("colours>=6", 12))
    report = check_deck(deck)
    assert (deck.cards[3].id, "goal", "§7") in violations(report)
    assert (deck.cards[5].id, "goal", "§7") in violations(report)
    unmet = {g.goal.text for g in report.goals if g.witness is None}
    assert unmet == {"blue>=7", "colours>=6"}


@pytest.mark.parametrize(
    ("arrows", "message"),
    [
        ((Direction.N, Direction.N), "N,N: the two directions must differ"),
        ((Direction.N,), "N: 1 direction, a card shows 2"),
        ((), "none: 0 directions, a card shows 2"),
        ((Direction.N, Direction.E, Direction.S), "N,E,S: 3 directions, a card shows 2"),
    ],
)
def test_bad_arrows_r03(arrows: tuple[Direction, ...], message: str) -> None:
    deck = with_card(good_deck(), 7, arrows=arrows)
    report = check_deck(deck)
    assert [v.text for v in report.violations] == [
        f"card {deck.cards[7].id}, arrows: {message} [R-03]"
    ]


def test_reward_outside_3_to_12_and_empty_threshold_r23() -> None:
    deck = with_card(good_deck(), 1, goal=parse_goal("blue>=2", 13))
    deck = with_card(deck, 2, goal=parse_goal("shapes>=0", 3))
    report = check_deck(deck)
    assert (deck.cards[1].id, "reward", "R-23") in violations(report)
    assert (deck.cards[2].id, "goal", "R-23") in violations(report)


def test_duplicate_ids_and_size_out_of_range() -> None:
    deck = good_deck()
    short = Deck(deck.cards[:29])
    assert violations(check_deck(short)) == [(None, "deck", "R-01")]
    twice = with_card(deck, 1, id=deck.cards[0].id)
    assert (deck.cards[0].id, "id", "deck") in violations(check_deck(twice))


def test_every_violation_is_reported_at_once() -> None:
    deck = with_card(good_deck(), 0, pattern=parse_pattern("0R,3R,4G,5Y,6V"))
    deck = with_card(deck, 1, arrows=(Direction.W, Direction.W))
    deck = with_card(deck, 2, goal=parse_goal("red>=9", 12))
    kinds = {(v.field, v.rule) for v in check_deck(deck).violations}
    assert kinds == {("pattern", "§1.3"), ("arrows", "R-03"), ("goal", "§7")}


def test_small_decks_warn_that_setup_leaves_fewer_than_ten_draws_each() -> None:
    # §9.1 wants setup (deal + offer of 4) plus 10 draws per player; R-01 allows 30 cards.
    warnings = check_deck(good_deck()).warnings
    assert warnings == (
        "with deal 5 [R-04] setup takes 14 cards and leaves 16 draws, fewer than 10 per"
        " player (§9.1)",
        "with deal 4 [R-04] setup takes 12 cards and leaves 18 draws, fewer than 10 per"
        " player (§9.1)",
    )


def test_figures_and_differences_of_a_hand_made_deck() -> None:
    goal = parse_goal("red>=2", 4)
    rows = [("0R,3B,4G,5Y,6V", "0R"), ("0R,4B,5G,6Y,3V", "0R"), ("3B,0R,6G,4Y,5V", "3B")]
    deck = Deck(
        tuple(
            Card(i, parse_pattern(p), parse_piece(m), goal, (Direction.N, Direction.S))
            for i, (p, m) in enumerate(rows, start=1)
        )
    )
    report = check_deck(deck)
    d = report.differences
    assert (d.smallest, d.pair) == (4, (1, 2))  # both start with 0R
    assert dict(d.histogram) == {4: 1, 5: 2}
    figures = {f.name: f for f in report.figures}
    assert dict(figures["colours at position 1"].counts) == {"R": 2, "B": 1, "G": 0, "Y": 0, "V": 0}
    assert not figures["colours at position 1"].even
    assert figures["first arrows"].expected == (0, 1)
    assert dict(figures["goal kinds"].counts)["colour"] == 3
    assert not report.balanced
    # The report names the uneven figures and what was expected.
    assert (
        "  colours at position 1: R: 2, B: 1, G: 0, Y: 0, V: 0 — uneven, expected 0 or 1 each"
        in (report.lines())
    )


def test_json_report_holds_violations_figures_and_witnesses() -> None:
    deck = with_card(good_deck(), 7, arrows=(Direction.N,))
    data = check_deck(deck, source="d.json").to_json()
    assert data["kind"] == "deck" and data["exit_code"] == 1
    assert data["violations"] == [
        {
            "card": deck.cards[7].id,
            "field": "arrows",
            "rule": "R-03",
            "message": "N: 1 direction, a card shows 2",
        }
    ]
    assert data["differences"]["smallest"] == 4
    assert all(goal["achievable"] and goal["witness"] for goal in data["goals"])
    assert {f["target"] for f in data["balance"]} >= {"stones", "positions", "matches"}
    assert CSV_COLUMNS[0] == "id"
