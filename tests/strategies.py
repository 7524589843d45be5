"""Hypothesis strategies shared by the tests."""

from __future__ import annotations

from hypothesis import strategies as st

from runarch_gen.runarch.atoms import COLOURS, SHAPES
from runarch_gen.runarch.decks.cards import Goal, GoalKind


def goals(
    counts: tuple[int, int] = (1, 10),
    distinct: tuple[int, int] = (1, 5),
    rewards: tuple[int, int] = (3, 12),
) -> st.SearchStrategy[Goal]:
    """Goals of every kind with thresholds and rewards drawn from the given inclusive ranges:
    ``counts`` on one colour or shape, ``distinct`` on the number of different ones."""
    return _goals(st.integers(*counts), st.integers(*distinct), st.integers(*rewards))


def _goals(
    counts: st.SearchStrategy[int],
    distinct: st.SearchStrategy[int],
    rewards: st.SearchStrategy[int],
) -> st.SearchStrategy[Goal]:
    return st.one_of(
        st.builds(
            lambda c, n, r: Goal(GoalKind.COLOUR, r, colour=c, colour_count=n),
            st.sampled_from(COLOURS),
            counts,
            rewards,
        ),
        st.builds(
            lambda s, n, r: Goal(GoalKind.SHAPE, r, shape=s, shape_count=n),
            st.sampled_from(SHAPES),
            counts,
            rewards,
        ),
        st.builds(
            lambda c, a, s, b, r: Goal(GoalKind.COLOUR_AND_SHAPE, r, c, a, s, b),
            st.sampled_from(COLOURS),
            counts,
            st.sampled_from(SHAPES),
            counts,
            rewards,
        ),
        st.builds(lambda k, r: Goal(GoalKind.COLOURS, r, colour_count=k), distinct, rewards),
        st.builds(lambda k, r: Goal(GoalKind.SHAPES, r, shape_count=k), distinct, rewards),
    )
