"""Deck files: JSON and CSV round trips, and every kind of bad input located by file, line,
column and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.errors import InputError, ParseError
from runarch_gen.runarch.atoms import DIRECTIONS, PIECES
from runarch_gen.runarch.decks.cards import Card, Deck, Pattern
from runarch_gen.runarch.decks.io import (
    CSV_COLUMNS,
    deck_to_csv,
    deck_to_json,
    parse_deck,
    parse_deck_csv,
    parse_deck_json,
    read_deck,
    sniff_deck,
    write_deck,
)
from tests import strategies

HEADER = ",".join(CSV_COLUMNS)
ROW = "1,0R,3B,4G,5Y,6V,5Y,blue>=3 & triangle>=2,6,N,SE"

goals = strategies.goals(counts=(0, 12), distinct=(0, 7), rewards=(-5, 20))
# Cards as a designer might write them, faults included: any five stones, any arrows.
cards = st.builds(
    Card,
    st.integers(1, 10_000),
    st.builds(Pattern, st.lists(st.sampled_from(PIECES), min_size=5, max_size=5).map(tuple)),
    st.sampled_from(PIECES),
    goals,
    st.lists(st.sampled_from(DIRECTIONS), max_size=2).map(tuple),
)
decks = st.lists(cards, max_size=12).map(lambda cs: Deck(tuple(cs)))


@settings(max_examples=60)
@given(decks)
def test_json_deck_json_is_the_identity(deck: Deck) -> None:
    text = deck_to_json(deck)
    again = parse_deck_json(text, source="x.json")
    assert again == deck
    assert deck_to_json(again) == text
    assert json.loads(text)["format"] == "runarch-deck"


@settings(max_examples=60)
@given(decks)
def test_csv_deck_csv_is_the_identity(deck: Deck) -> None:
    text = deck_to_csv(deck)
    again = parse_deck_csv(text, source="x.csv")
    assert again == deck
    assert deck_to_csv(again) == text


def test_files_are_told_apart_by_content_and_written_whole(tmp_path: Path) -> None:
    deck = parse_deck_csv(f"{HEADER}\n{ROW}\n")
    for name in ("deck.json", "deck.csv", "deck.txt"):
        write_deck(deck, tmp_path / name)
        assert read_deck(tmp_path / name) == deck
    assert (tmp_path / "deck.csv").read_text().startswith(HEADER)
    assert (tmp_path / "deck.txt").read_text().startswith("{")  # JSON unless told otherwise
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.csv", "deck.json", "deck.txt"]


def test_csv_reads_any_column_order_any_case_and_semicolons() -> None:
    reordered = (
        "ARROW2;Arrow1;reward;goal;match;p5;p4;p3;p2;p1;id\nSE;N;6;blue>=3;5Y;6V;5Y;4G;3B;0R;1\n"
    )
    deck = parse_deck_csv(reordered)
    assert deck == parse_deck_csv(f"{HEADER}\n1,0R,3B,4G,5Y,6V,5Y,blue>=3,6,N,SE\n")


def test_csv_skips_empty_rows_and_takes_codes_in_either_order() -> None:
    deck = parse_deck_csv(f"{HEADER}\n,,,,,,,,,,\n1,r0,b3,g4,y5,v6,y5,blue>=3,6,n,se\n\n")
    assert deck.cards[0].pattern.text == "0R,3B,4G,5Y,6V"


def test_sniff_deck_recognises_both_formats_and_nothing_else() -> None:
    assert sniff_deck(deck_to_json(Deck(()))) == "json"
    assert sniff_deck(f"{HEADER}\n{ROW}\n") == "csv"
    assert sniff_deck("0R 3B 4G 5Y 6V\n" * 5) is None
    assert sniff_deck('{"tiles": [["0R"]]}') is None


@pytest.mark.parametrize(
    ("row", "where", "message"),
    [
        ("1,0R,3B,4G,5Q,6V,5Y,blue>=3,6,N,SE", "x.csv:2:5:", "column p4: unknown code '5Q'"),
        ("1,0R,3B,4G,5Y,6V,9Z,blue>=3,6,N,SE", "x.csv:2:7:", "column match: unknown code"),
        ("1,0R,3B,4G,5Y,6V,5Y,pink>=3,6,N,SE", "x.csv:2:8:", "column goal: bad goal 'pink>=3'"),
        ("1,0R,3B,4G,5Y,6V,5Y,blue>=3,six,N,SE", "x.csv:2:9:", "column reward: 'six' is not"),
        ("1,0R,3B,4G,5Y,6V,5Y,blue>=3,6,N,UP", "x.csv:2:11:", "column arrow2: unknown direction"),
        ("0,0R,3B,4G,5Y,6V,5Y,blue>=3,6,N,SE", "x.csv:2:1:", "column id: card id 0"),
        ("1,0R,,4G,5Y,6V,5Y,blue>=3,6,N,SE", "x.csv:2:3:", "column p2: empty cell"),
        ("1,0R,3B,4G,5Y,6V,5Y,blue>=3,6,N,SE,X", "x.csv:2:12:", "12 cells, the header has 11"),
    ],
)
def test_malformed_csv_row_names_file_row_and_column(row: str, where: str, message: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_deck_csv(f"{HEADER}\n{row}\n", source="x.csv")
    text = str(caught.value)
    assert text.startswith(where), text
    assert message in text
    assert "\n" not in text


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ("id,p1,p2,p3,p4,p5,match,goal,reward,arrow1", "x.csv:1: missing column arrow2"),
        (HEADER + ",notes", "x.csv:1:12: unknown column 'notes'"),
        (HEADER.replace("p3", "p1"), "x.csv:1:4: column p1 twice"),
    ],
)
def test_bad_csv_header_is_named(header: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_deck_csv(f"{header}\n", source="x.csv")


def _json_with(card: str) -> str:
    return (
        '{\n  "format": "runarch-deck",\n  "version": 1,\n  "cards": [\n    ' + card + "\n  ]\n}\n"
    )


GOOD_CARD = (
    '{"id": 1, "pattern": ["0R", "3B", "4G", "5Y", "6V"], "match": "5Y",'
    ' "goal": {"kind": "colour", "colour": "blue", "colour_count": 3, "reward": 6},'
    ' "arrows": ["N", "SE"]}'
)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('"5Y", "6V"]', '"5Q", "6V"]', "x.json:5:45: cards[0].pattern[3]: unknown code '5Q'"),
        ('"arrows"', '"arows"', "x.json:5:160: cards[0].arows: unknown field 'arows'"),
        ('"match": "5Y"', '"match": 5', "cards[0].match: expected a string, found number 5"),
        ('"kind": "colour"', '"kind": "hue"', "cards[0].goal.kind: unknown goal kind 'hue'"),
        ('"colour": "blue"', '"colour": "pink"', "cards[0].goal.colour: unknown colour 'pink'"),
        ('"reward": 6', '"reward": "6"', "cards[0].goal.reward: expected a whole number"),
        ('"colour_count": 3, ', "", "cards[0].goal: a 'colour' goal needs 'colour_count'"),
        ('"id": 1', '"id": true', "cards[0].id: expected a whole number, found true/false"),
        ('["N", "SE"]', '["N", "UP"]', "cards[0].arrows[1]: unknown direction 'UP'"),
        ('"4G", "5Y", ', "", "cards[0].pattern: a pattern has 5 codes, found 3"),
    ],
)
def test_malformed_json_field_names_file_line_column_and_field(
    old: str, new: str, message: str
) -> None:
    assert old in GOOD_CARD
    with pytest.raises(ParseError) as caught:
        parse_deck_json(_json_with(GOOD_CARD.replace(old, new)), source="x.json")
    text = str(caught.value)
    assert message in text, text
    assert text.startswith("x.json:5:")


def test_json_syntax_errors_version_and_marker_are_named() -> None:
    with pytest.raises(ParseError, match=r"x.json:5:6: malformed JSON"):
        parse_deck_json(_json_with("{,}"), source="x.json")
    with pytest.raises(ParseError, match=r"x.json:3:14: version: deck format version 2"):
        parse_deck_json(
            _json_with(GOOD_CARD).replace('"version": 1', '"version": 2'), source="x.json"
        )
    with pytest.raises(ParseError, match=r"format: not a RunArch deck"):
        parse_deck_json(
            _json_with(GOOD_CARD).replace("runarch-deck", "runarch-board"), source="x.json"
        )
    with pytest.raises(ParseError, match=r"x.json:1:1: missing field 'cards'"):
        parse_deck_json('{"format": "runarch-deck", "version": 1}', source="x.json")
    assert parse_deck(_json_with(GOOD_CARD)).cards[0].goal.text == "blue>=3"


def test_a_deck_with_three_arrows_cannot_be_written_as_csv() -> None:
    deck = parse_deck_json(_json_with(GOOD_CARD.replace('["N", "SE"]', '["N", "SE", "W"]')))
    assert len(deck.cards[0].arrows) == 3  # read as it is, for the checker to report
    with pytest.raises(InputError, match="3 arrows"):
        deck_to_csv(deck)


def test_missing_file_is_one_line_naming_it(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        read_deck(tmp_path / "nope.csv")
