"""Domain atoms: every notation round-trips and bad text raises a ParseError naming it."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from runarch_gen.errors import ParseError
from runarch_gen.runarch.atoms import (
    COLUMNS,
    DIAGONALS,
    LINES,
    PIECES,
    ROWS,
    SQUARE_NAMES,
    Colour,
    Direction,
    Shape,
    parse_colour,
    parse_direction,
    parse_line,
    parse_piece,
    parse_shape,
    parse_square,
    square,
    square_name,
)

pieces = st.sampled_from(PIECES)


def test_code_is_shape_digit_then_colour_letter() -> None:
    # RULES §1.1: "5Y" is the yellow star, "0R" the red circle, "6V" the violet hexagon.
    assert parse_piece("5Y") == PIECES[Colour.YELLOW * 5 + Shape.STAR]
    assert parse_piece("0R").code == "0R"
    assert parse_piece("6V").colour is Colour.VIOLET
    assert parse_piece("6V").shape is Shape.HEXAGON


@given(pieces, st.booleans(), st.booleans())
def test_piece_parses_in_either_order_and_any_case(piece, swap, lower) -> None:
    text = piece.colour.letter + piece.shape.digit if swap else piece.code
    text = text.lower() if lower else text
    assert parse_piece(text) == piece
    assert parse_piece(text).code == piece.code


def test_piece_indices_cover_all_25() -> None:
    assert [p.index for p in PIECES] == list(range(25))
    assert len({p.code for p in PIECES}) == 25


@pytest.mark.parametrize("bad", ["", "5", "5Q", "7Y", "YY", "55", "5Y5", "a1"])
def test_unknown_code_is_a_parse_error_naming_it(bad: str) -> None:
    with pytest.raises(ParseError, match="unknown code"):
        parse_piece(bad)


def test_colour_and_shape_by_letter_digit_or_name() -> None:
    assert parse_colour("b") is parse_colour("Blue") is Colour.BLUE
    assert parse_shape("3") is parse_shape("TRIANGLE") is Shape.TRIANGLE
    with pytest.raises(ParseError):
        parse_colour("pink")
    with pytest.raises(ParseError):
        parse_shape("1")


def test_squares_read_like_chess_with_row_one_on_top() -> None:
    assert parse_square("a1") == 0
    assert parse_square("E1") == 4
    assert parse_square("a2") == 5
    assert parse_square("e5") == 24
    assert square(2, 2) == parse_square("c3")


@given(st.sampled_from(SQUARE_NAMES))
def test_square_names_round_trip(name: str) -> None:
    assert square_name(parse_square(name)) == name


@pytest.mark.parametrize("bad", ["a0", "f1", "a6", "", "11"])
def test_unknown_square_is_a_parse_error(bad: str) -> None:
    with pytest.raises(ParseError, match="unknown square"):
        parse_square(bad)


def test_lines_read_in_their_direction() -> None:
    # RULES §2: rows left→right, columns top→bottom, d1 a1→e5, d2 e1→a5.
    assert parse_line("r1").squares == tuple(
        parse_square(n) for n in ("a1", "b1", "c1", "d1", "e1")
    )
    assert parse_line("cb").squares == tuple(
        parse_square(n) for n in ("b1", "b2", "b3", "b4", "b5")
    )
    assert parse_line("d1").squares == tuple(
        parse_square(n) for n in ("a1", "b2", "c3", "d4", "e5")
    )
    assert parse_line("d2").squares == tuple(
        parse_square(n) for n in ("e1", "d2", "c3", "b4", "a5")
    )
    assert [line.name for line in LINES] == [
        *(f"r{i}" for i in range(1, 6)),
        *(f"c{f}" for f in "abcde"),
        "d1",
        "d2",
    ]
    assert len(ROWS) == len(COLUMNS) == 5
    assert len(DIAGONALS) == 2


@given(st.sampled_from(LINES))
def test_line_names_round_trip(line) -> None:
    assert parse_line(line.name.upper()) == line


def test_directions_step_on_the_board() -> None:
    c3 = parse_square("c3")
    assert square_name(Direction.N.step(c3) or 0) == "c2"
    assert square_name(Direction.SE.step(c3) or 0) == "d4"
    assert Direction.N.step(parse_square("a1")) is None
    assert Direction.W.step(parse_square("a3")) is None
    assert parse_direction("nw") is Direction.NW
    with pytest.raises(ParseError):
        parse_direction("up")
