"""Game records: the tag header, the move lines, replay, and every way a record can be wrong."""

from __future__ import annotations

import json
import random
import re

import pytest

from runarch_gen.cli import run
from runarch_gen.errors import ParseError
from runarch_gen.play.bot import play_out
from runarch_gen.play.record import format_record, format_tag, split_record
from runarch_gen.runarch.bots import RandomBot
from runarch_gen.runarch.engine import RunArchGame
from runarch_gen.runarch.engine.record import board_text, parse_board_text, replay, write_record
from runarch_gen.runarch.engine.sample import sample_board, sample_deck
from runarch_gen.runarch.rules import parse_rules


def played(variant: str = "complex", seed: int = 4, stall: int = 40) -> str:
    game = RunArchGame(
        parse_rules(variant).with_options(stall=stall),
        sample_board(),
        sample_deck(),
        deck_name="sample(50)",
    )
    state = game.new_initial_state(random.Random(seed))
    play_out(state, [RandomBot(random.Random(1)), RandomBot(random.Random(2))])
    return write_record(state, seed=seed, players=["random", "random"])


def edit_line(text: str, number: int, new: str) -> str:
    lines = text.splitlines()
    lines[number - 1] = new
    return "\n".join(lines) + "\n"


def body_line(text: str, prefix: str) -> int:
    """The 1-based number of the first line starting with ``prefix``."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(prefix))


# The generic tag layer (runarch_gen.play.record) ------------------------------------------------


def test_tags_escape_quotes_and_backslashes_and_read_back() -> None:
    text = format_record(
        [("Event", 'a "quoted" \\ name'), ("Seed", "1")], ["1. white b1-c1 ; a comment"]
    )
    assert '[Event "a \\"quoted\\" \\\\ name"]' in text
    record = split_record(text)
    assert record.tags == {"Event": 'a "quoted" \\ name', "Seed": "1"}
    assert record.body == [(4, "1. white b1-c1")]


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ('[Event "x"]\n[Event "y"]\n', "tag Event repeats", 2),
        ("[Event x]\n", "malformed tag", 1),
        ('1. white a1-b1\n[Event "x"]\n', "header tag after the moves", 2),
    ],
)
def test_malformed_headers_name_their_line(text: str, message: str, line: int) -> None:
    with pytest.raises(ParseError, match=message) as caught:
        split_record(text, source="g.txt")
    assert caught.value.line == line and str(caught.value).startswith(f"g.txt:{line}:")


def test_tag_names_and_values_are_checked_when_written() -> None:
    with pytest.raises(ValueError):
        format_tag("bad name", "x")
    with pytest.raises(ValueError):
        format_tag("Event", "two\nlines")


# RunArch records --------------------------------------------------------------------------------


def test_board_text_round_trips_and_accepts_spaced_codes() -> None:
    pieces = tuple(sample_board().indices())
    assert parse_board_text(board_text(pieces)) == pieces
    spaced = " / ".join(" ".join(re.findall("..", row)) for row in board_text(pieces).split("/"))
    assert parse_board_text(spaced) == pieces
    with pytest.raises(ParseError):
        parse_board_text("0R3B/")


def test_record_header_carries_variant_seed_board_deck_and_setup() -> None:
    text = played("complex(deal=4)")
    tags = split_record(text).tags
    assert tags["Variant"] == "complex(deal=4,stall=40)"
    assert tags["Seed"] == "4" and tags["White"] == tags["Black"] == "random"
    assert tags["Deck"] == "sample(50)" and tags["DeckDigest"].startswith("sha256:")
    for name in (
        "Board",
        "Stones",
        "Order",
        "Stacks",
        "Conditions",
        "FrameBets",
        "First",
        "Result",
    ):
        assert name in tags
    body = [line for _, line in split_record(text).body]
    assert body[0].startswith("0. ") and "setup:" in body[0]
    assert all(re.match(r"\d+\. (white|black) ", line) for line in body)


@pytest.mark.parametrize("variant", ["simple", "complex", "classic", "solo"])
def test_replay_reproduces_the_final_state(variant: str) -> None:
    text = played(variant)
    state = replay(text)
    assert write_record(state, seed=4, players=["random", "random"]) == text


def test_replay_from_the_seed_alone_deals_the_same_setup() -> None:
    text = played("complex")
    stripped = "".join(
        line + "\n"
        for line in text.splitlines()
        if not re.match(r"\[(Stones|Order|Stacks|Conditions|FrameBets|First) ", line)
    )
    assert replay(stripped) == replay(text)


def test_a_turn_in_progress_ends_with_dots() -> None:
    game = RunArchGame(parse_rules("simple"), sample_board(), sample_deck(), deck_name="sample(50)")
    state = game.new_initial_state(random.Random(2))
    state.apply_text("a1-b1")
    text = write_record(state)
    assert text.rstrip().endswith("a1-b1 ...") and split_record(text).tags["Result"] == "*"
    again = replay(text)
    assert again == state and not again.is_terminal()


def test_score_annotations_are_checked() -> None:
    text = played("simple", seed=1, stall=200)
    number = body_line_with(text, "@")
    line = text.splitlines()[number - 1]
    wrong = re.sub(r"=(\d+)", lambda m: f"={int(m.group(1)) + 1}", line, count=1)
    with pytest.raises(ParseError, match=r"the card scores \d+, not \d+") as caught:
        replay(edit_line(text, number, wrong))
    assert caught.value.line == number


def body_line_with(text: str, fragment: str) -> int:
    for i, line in enumerate(text.splitlines(), 1):
        if re.match(r"\d+\. ", line) and fragment in line and not line.startswith("0."):
            return i
    raise AssertionError(f"no move line with {fragment!r}")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda line: line.split(" ")[0] + " " + line.split(" ")[1] + " a1-c3",
            "illegal action 'a1-c3'",
        ),
        (
            lambda line: line.split(" ")[0] + " " + line.split(" ")[1] + " b1-b2 zz9",
            r"expected an evaluation like 17@r3>L\+p",
        ),
        (lambda line: "99. " + " ".join(line.split(" ")[1:]), "expected turn"),
        (
            lambda line: line.split(" ")[0] + " green " + " ".join(line.split(" ")[2:]),
            "turn, not green's",
        ),
        (lambda line: line.split(" ")[0] + " " + line.split(" ")[1], "passing is never allowed"),
        (lambda line: "the moves", "expected 'N. side actions"),
    ],
)
def test_a_bad_line_names_its_number_and_why(change, message: str) -> None:
    text = played("complex")
    number = body_line(text, "1. ")
    bad = edit_line(text, number, change(text.splitlines()[number - 1]))
    with pytest.raises(ParseError, match=message) as caught:
        replay(bad, source="game.txt")
    assert caught.value.line == number
    assert str(caught.value).startswith(f"game.txt:{number}:")


def test_moves_after_the_end_are_refused() -> None:
    text = played("complex", stall=6)
    last = text.splitlines()[-1]
    side = "white" if " black " in last else "black"
    with pytest.raises(ParseError, match="already over"):
        replay(text + f"7. {side} a1-b1\n")


def test_automa_turns_are_checked() -> None:
    text = played("solo", seed=3)
    number = body_line_with(text, "automa")
    line = text.splitlines()[number - 1]
    wrong = (
        re.sub(r":([a-e][1-5])-", ":a1-", line)
        if ":a1-" not in line
        else line.replace(":a1-", ":e5-")
    )
    with pytest.raises(ParseError, match="the automa played") as caught:
        replay(edit_line(text, number, wrong))
    assert caught.value.line == number
    with pytest.raises(ParseError, match="lacks the automa's turn"):
        replay(edit_line(text, number, "; removed"))


@pytest.mark.parametrize(
    ("tag", "value", "message"),
    [
        ("Variant", "complex(foo=1)", "unknown option 'foo'"),
        ("Variant", "chess", "unknown variant"),
        ("Board", "0R3B", "5 rows"),
        ("Deck", "nowhere.json", "cannot find the deck"),
        ("DeckDigest", "sha256:0000", "not the one played"),
        ("Stacks", "D6 X9 / D5", "expected e.g."),
        ("Order", "1 2 3", "deck order|orders 3 cards"),
        ("First", "green", "expected white or black"),
        ("Result", "1-0", "the moves give"),
        ("Turns", "3", "the moves make"),
        ("Conditions", "0 9·9·9 gold", "is not"),
    ],
)
def test_a_bad_header_names_the_tag(tag: str, value: str, message: str) -> None:
    text = played("complex")
    if tag == "Result":
        actual = split_record(text).tags["Result"]
        value = "0-1" if actual != "0-1" else "1-0"
    bad = re.sub(rf'^\[{tag} "[^\n]*"\]$', f'[{tag} "{value}"]', text, count=1, flags=re.MULTILINE)
    assert bad != text
    with pytest.raises(ParseError, match=message):
        replay(bad)


def test_a_record_needs_a_setup_or_a_seed() -> None:
    text = played("complex")
    stripped = "".join(
        line + "\n"
        for line in text.splitlines()
        if not re.match(r"\[(Stones|Order|Stacks|Conditions|FrameBets|First|Seed) ", line)
    )
    with pytest.raises(ParseError, match="neither the setup tags"):
        replay(stripped)


def test_replay_command_prints_the_position_and_outcome(tmp_path, capsys) -> None:
    path = tmp_path / "game.txt"
    path.write_text(played("complex"), encoding="utf-8")
    assert run(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "1  " in out and "(stalled)" in out and "white:" in out
    assert run(["replay", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["termination"] == "stalled" and report["stalled"] is True
    assert set(report["scores"]) == {"white", "black"}


def test_replay_command_names_the_first_bad_line(tmp_path, capsys) -> None:
    text = played("complex")
    number = body_line(text, "1. ")
    path = tmp_path / "bad.txt"
    path.write_text(
        edit_line(text, number, text.splitlines()[number - 1] + " a1-c3"), encoding="utf-8"
    )
    assert run(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"bad.txt:{number}:" in err and "illegal action" in err


def test_replay_reads_the_deck_file_the_record_names(tmp_path, capsys) -> None:
    from runarch_gen.runarch.decks.io import write_deck

    write_deck(sample_deck(40, 2), tmp_path / "deck.json")
    game = RunArchGame(
        parse_rules("complex(stall=30)"), sample_board(), sample_deck(40, 2), deck_name="deck.json"
    )
    state = game.new_initial_state(random.Random(8))
    play_out(state, [RandomBot(random.Random(1)), RandomBot(random.Random(2))])
    (tmp_path / "games").mkdir()
    record = tmp_path / "games" / "g.txt"
    record.write_text(
        write_record(state).replace('[Deck "deck.json"]', '[Deck "../deck.json"]'), encoding="utf-8"
    )
    # A record names only a file beside it: '../deck.json' is refused, the same deck beside
    # the record is read.
    assert run(["replay", str(record), "--json"]) == 2
    assert "may name only a file beside it, not '../deck.json'" in capsys.readouterr().err
    write_deck(sample_deck(40, 2), tmp_path / "games" / "deck.json")
    record.write_text(write_record(state), encoding="utf-8")
    assert run(["replay", str(record), "--json"]) == 0  # the Deck tag, from the record's folder
    assert json.loads(capsys.readouterr().out)["turns"] == 30
    assert run(["replay", str(record), "--deck", str(tmp_path / "deck.json"), "--json"]) == 0
    capsys.readouterr()
    write_deck(sample_deck(40, 3), tmp_path / "other.json")
    assert run(["replay", str(record), "--deck", str(tmp_path / "other.json")]) == 2
    assert "DeckDigest" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("0 1·1·1 silver", "11 total 5 silver", "a condition token lies face up twice"),
        (", 10 *·*·3 gold", "", "5 condition tokens face up; §3 step 7 lays 6"),
        ("53 silver, 60 gold", "53 silver, 55 gold", "two frame bet tokens share a space"),
        ("53 silver, 60 gold, 97 gold", "53 silver, 60 gold, 70 gold", "not 3 and 1"),
        ("53 silver, 60 gold, 97 gold, 86 gold", "53 silver, 60 gold, 97 gold", "not 2 and 1"),
    ],
)
def test_a_setup_that_section_3_cannot_deal_is_refused(old: str, new: str, message: str) -> None:
    text = played(stall=12)
    assert old in text
    with pytest.raises(ParseError, match=message):
        replay(text.replace(old, new, 1))
