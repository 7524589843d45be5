"""Card values: pattern validity, goal text round trips and the goal rule of RULES §7."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from runarch_gen.errors import ParseError
from runarch_gen.runarch.atoms import PIECES, parse_piece
from runarch_gen.runarch.decks.cards import Goal, GoalKind, parse_goal, parse_pattern
from tests import strategies


def test_pattern_with_repeated_colour_or_shape_is_invalid() -> None:
    assert parse_pattern("0R 3B 4G 5Y 6V").is_valid()
    assert not parse_pattern("0R,3R,4G,5Y,6V").is_valid()  # two reds
    assert not parse_pattern("0R,0B,4G,5Y,6V").is_valid()  # two circles


def test_pattern_must_have_five_codes() -> None:
    with pytest.raises(ParseError, match="5 codes"):
        parse_pattern("0R,3B,4G,5Y")


def test_seed_example_goal_three_blue_and_two_triangles() -> None:
    # RULES §1.3: "at least 3 blue and at least 2 triangle cards in your archives — 6 points".
    goal = parse_goal("blue>=3 & triangle>=2", reward=6)
    assert goal.kind is GoalKind.COLOUR_AND_SHAPE
    cards = [parse_piece(c) for c in ("0B", "4B", "5B", "3R")]
    assert not goal.is_met(cards)  # three blue, but one triangle
    assert goal.is_met([*cards, parse_piece("3G")])


def test_distinct_goals_count_different_colours_and_shapes() -> None:
    cards = [parse_piece(c) for c in ("0R", "0B", "3B", "4G")]
    assert parse_goal("colours>=3", 5).is_met(cards)
    assert not parse_goal("colours>=4", 5).is_met(cards)
    assert parse_goal("shapes>=3", 5).is_met(cards)
    assert not parse_goal("shapes>=4", 5).is_met(cards)


goals = strategies.goals()


@given(goals)
def test_goal_text_round_trips(goal: Goal) -> None:
    assert parse_goal(goal.text, goal.reward) == goal


@given(goals, st.lists(st.sampled_from(PIECES), max_size=10))
def test_goal_is_met_agrees_with_a_direct_count(goal: Goal, cards) -> None:
    colours = [p.colour for p in cards]
    shapes = [p.shape for p in cards]
    expected = {
        GoalKind.COLOUR: lambda: colours.count(goal.colour) >= goal.colour_count,
        GoalKind.SHAPE: lambda: shapes.count(goal.shape) >= goal.shape_count,
        GoalKind.COLOUR_AND_SHAPE: lambda: (
            colours.count(goal.colour) >= goal.colour_count
            and shapes.count(goal.shape) >= goal.shape_count
        ),
        GoalKind.COLOURS: lambda: len(set(colours)) >= goal.colour_count,
        GoalKind.SHAPES: lambda: len(set(shapes)) >= goal.shape_count,
    }[goal.kind]()
    assert goal.is_met(cards) == expected


@pytest.mark.parametrize("bad", ["blue>3", "pink>=2", "red>=1 & blue>=2", ">=3", ""])
def test_bad_goal_text_is_a_parse_error(bad: str) -> None:
    with pytest.raises(ParseError):
        parse_goal(bad, 5)
