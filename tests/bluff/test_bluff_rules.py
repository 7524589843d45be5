"""The die, the betting scale and the raise order [L-03, L-04, L-07, L-08, L-09]."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.bluff.engine import DOUBT, BluffGame
from runarch_gen.bluff.rules import (
    BluffRules,
    Field,
    default_scale,
    parse_scale,
    read_scale,
)
from runarch_gen.errors import InputError, ParseError
from runarch_gen.play.game import IllegalActionError
from tests.bluff.helpers import table


def test_the_default_scale_is_the_published_board_of_30_fields() -> None:  # L-04
    scale = default_scale()
    assert len(scale.fields) == 30
    numbers = [f.quantity for f in scale.fields if not f.star]
    stars = [f.quantity for f in scale.fields if f.star]
    assert numbers == list(range(1, 21)) and stars == list(range(1, 11))
    for k in range(1, 11):  # ★k lies between the fields 2k−1 and 2k
        at = scale.fields.index(Field(k, True))
        assert scale.fields[at - 1] == Field(2 * k - 1, False)
        assert scale.fields[at + 1] == Field(2 * k, False)


def test_a_die_is_five_numbers_and_a_star() -> None:  # L-03
    rules = BluffRules()
    assert rules.faces == 5 and rules.star == 6 and rules.sides == 6
    assert rules.face_text(6) == "★" and rules.face_text(2) == "2"


def test_six_dice_each_and_five_with_six_players() -> None:  # L-02
    assert [BluffRules(players=n).dice_per_player for n in range(2, 7)] == [6, 6, 6, 6, 5]
    assert BluffRules(players=6, dice=3).dice_per_player == 3


def _key(text: str) -> tuple[int, int]:
    """An independent reading of the raise order: the field's place, then the number."""
    order = "1 ★1 2 3 ★2 4 5 ★3 6 7 ★4 8 9 ★5 10 11 ★6 12 13 ★7 14 15 ★8 16 17 ★9 18 19 ★10 20"
    fields = order.split()
    quantity, face = text.split("×")
    field = f"★{quantity}" if face == "★" else quantity
    return fields.index(field), 0 if face == "★" else int(face)


def test_the_bids_in_order_match_an_independent_reading_of_the_scale() -> None:  # L-07
    texts = [str(b) for b in BluffRules().bids]
    assert len(texts) == 20 * 5 + 10 and texts == sorted(texts, key=_key)
    assert texts[:8] == ["1×1", "1×2", "1×3", "1×4", "1×5", "1×★", "2×1", "2×2"]
    assert texts[-1] == "20×5" and texts.index("10×★") == texts.index("19×5") + 1


LEGAL_SEQUENCES = [
    ["1×1", "1×2", "1×★", "2×1"],
    ["3×5", "2×★", "4×1"],  # ★2 lies between 3 and 4
    ["11×3", "11×4", "6×★", "12×1"],
    ["4×★", "9×1"],  # ★4 lies between 7 and 8
    ["2×3", "20×5"],  # any jump
]
ILLEGAL_RAISES = [
    (["11×3"], "11×3"),  # the same bid
    (["11×3"], "11×2"),  # a lower number on the same field
    (["11×3"], "10×5"),  # an earlier field
    (["4×1"], "2×★"),  # ★2 lies before 4
    (["1×★"], "1×5"),
    (["6×★"], "11×5"),  # ★6 lies after 11
]


@pytest.mark.parametrize("bids", LEGAL_SEQUENCES, ids=" ".join)
def test_each_raise_of_a_legal_sequence_is_allowed(bids: list[str]) -> None:
    state = table(["1,2", "3,4", "5,★"], bids)
    assert [BluffGame(state.game.rules).bids[r].__str__() for _, r in state.bids] == bids


@pytest.mark.parametrize(("before", "raise_"), ILLEGAL_RAISES)
def test_a_raise_that_is_not_higher_is_refused(before: list[str], raise_: str) -> None:
    state = table(["1,2", "3,4", "5,★"], before)
    with pytest.raises(IllegalActionError, match="not higher"):
        state.apply_text(raise_)


def test_the_opener_may_not_doubt_and_a_star_field_takes_only_the_star() -> None:  # L-06
    state = table(["1,2", "3,4"])
    assert DOUBT not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="no bid to doubt"):
        state.apply_text("doubt")
    with pytest.raises(IllegalActionError, match="not a bid of the scale"):
        state.apply_text("21×3")
    with pytest.raises(IllegalActionError, match="not a bid of the scale"):
        state.apply_text("11×★")  # there is no star field ★11


def test_after_the_last_bid_of_the_scale_only_a_doubt_is_left() -> None:  # L-08
    state = table(["1,2", "3,4"], ["20×5"])
    assert list(state.legal_actions()) == [DOUBT]


def test_the_cap_keeps_bids_within_the_dice_in_play() -> None:  # L-09
    state = table(["1,2", "3,4"], cap=True)
    texts = [state.action_to_string(a) for a in state.legal_actions()]
    # ★3 and ★4 lie after the number fields 5 and 7, yet name only 3 and 4 dice
    assert texts[-3:] == ["4×5", "3×★", "4×★"] and len(texts) == 24
    with pytest.raises(IllegalActionError, match="more dice than the 4 in play"):
        state.apply_text("5×1")


def test_a_scale_file_is_read_in_raise_order(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "short.txt"
    path.write_text("# a short scale\n1\n*1\n2\n\ns2  # stars\n3\n", "utf-8")
    scale = read_scale(path)
    assert str(scale) == "1 ★1 2 ★2 3"
    rules = BluffRules(scale=scale, faces=2)
    assert [str(b) for b in rules.bids] == ["1×1", "1×2", "1×★", "2×1", "2×2", "2×★", "3×1", "3×2"]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("1\n2\nzz\n", ":3:1: expected a field"),
        ("1\n  ★0\n", ":2:3: a quantity is 1 to 99"),
        ("1\n★1\n1\n", ":3:1: field 1 is already on line 1"),
        ("# nothing\n", "a scale needs at least one field"),
    ],
)
def test_a_bad_scale_names_its_line_and_column(text: str, where: str) -> None:
    with pytest.raises(ParseError, match=where):
        parse_scale(text, source="s.txt")


def test_a_missing_or_huge_scale_file_is_one_clear_error(tmp_path: object) -> None:
    from pathlib import Path

    with pytest.raises(InputError, match="no such file"):
        read_scale(Path(str(tmp_path)) / "none.txt")
    big = Path(str(tmp_path)) / "big.txt"
    big.write_text("1\n" * 40_000, "utf-8")
    with pytest.raises(InputError, match="at most 65536 bytes"):
        read_scale(big)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_the_scale_reader_never_fails_otherwise(text: str) -> None:
    try:
        scale = parse_scale(text)
    except ParseError:
        return
    assert 1 <= len(scale.fields) <= 200
    assert parse_scale("\n".join(str(f) for f in scale.fields)).fields == scale.fields


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 99), st.booleans()), min_size=1, max_size=40, unique=True))
def test_the_raise_order_is_the_order_of_the_fields(fields: list[tuple[int, bool]]) -> None:
    text = "\n".join(f"★{q}" if star else str(q) for q, star in fields)
    rules = BluffRules(scale=parse_scale(text), faces=3)
    places = {(q, star): i for i, (q, star) in enumerate(fields)}
    keys = [(places[(b.quantity, b.is_star)], b.face) for b in rules.bids]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert len(rules.bids) == sum(1 if star else 3 for _, star in fields)


def test_rules_out_of_range_are_refused() -> None:
    for options in ({"players": 7}, {"players": 1}, {"dice": 10}, {"faces": 1}, {"first": 5}):
        with pytest.raises(InputError):
            BluffRules(**options)  # type: ignore[arg-type]


def test_named_variants_fill_the_options_left_at_their_defaults() -> None:  # L-11, L-12
    from runarch_gen.games import find_game

    assert str(find_game("bluff(variant=original)")) == "bluff(exact=all)"
    assert str(find_game("bluff(variant=endless)")) == "bluff(exact=all-last)"
    assert str(find_game("bluff(variant=reroll,players=3)")) == "bluff(players=3,reroll=on)"
    # an option given besides the variant wins; the original game with the loser opening
    assert str(find_game("bluff(variant=original,exact=all-last)")) == "bluff(exact=all-last)"
    assert str(find_game("bluff(variant=original,opener=loser)")) == (
        "bluff(exact=all,opener=loser)"
    )
    with pytest.raises(InputError, match="variant is one of seed, original, endless, reroll"):
        find_game("bluff(variant=classic)")


def test_a_game_string_takes_the_scale_inline_and_never_reads_a_file(tmp_path: Path) -> None:
    from runarch_gen.bluff.engine import rules_from_values, rules_values
    from runarch_gen.bluff.rules import scale_option, scale_value
    from runarch_gen.errors import ParseError as Refused
    from runarch_gen.games import find_game, game_values

    inline = "1/★1/2/3/★2/4"
    assert str(find_game(f"bluff(scale={inline})")) == f"bluff(scale={inline})"
    file = tmp_path / "s.txt"
    file.write_text("1\n*1\n2\n3\n*2\n4\n")
    # A game string from anywhere but the command line names no file ...
    with pytest.raises(Refused, match="only on the command line"):
        find_game(f"bluff(scale={file})")
    # ... while the command line reads it once into the same inline values.
    _, values = game_values("bluff", f"scale={file}", files=True)
    assert values["scale"] == inline
    assert scale_option(inline) == inline and scale_option("default") == "default"
    rules = rules_from_values(values)
    assert rules_values(rules)["scale"] == scale_value(rules.scale) == inline
    assert scale_value(rules_from_values({}).scale) == "default"
