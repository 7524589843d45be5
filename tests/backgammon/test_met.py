"""The match equity table computed with the cube before Crawford (rule [V-44]) against cells
of the published Kazaross-XG2 table (the oracle: typed here, never shipped), its symmetry and
order, the post-Crawford row, and cube decisions in money and match play."""

from __future__ import annotations

import pytest

from runarch_gen.backgammon.cube import (
    MatchEquity,
    match_cube_decision,
    met,
    money_cube_decision,
    post_crawford_table,
)

# Kazaross-XG2, pre-Crawford: (needs, opponent needs) -> the first player's match equity
KAZAROSS_XG2 = {
    (1, 2): 0.67736,
    (2, 3): 0.59947,
    (3, 5): 0.64795,
    (2, 4): 0.66870,
    (4, 7): 0.69924,
    (5, 3): 0.35205,
    (6, 9): 0.66787,
    (7, 11): 0.700209,
    (9, 4): 0.21201,
    (11, 10): 0.451453,
    (1, 11): 0.966442,
    (8, 8): 0.5,
}
KAZAROSS_POST_CRAWFORD = {2: 0.48803, 3: 0.32264, 4: 0.31002, 5: 0.19012, 7: 0.11559}


@pytest.mark.parametrize(("cell", "published"), sorted(KAZAROSS_XG2.items()))
def test_the_table_is_within_two_percent_of_kazaross_xg2(
    cell: tuple[int, int], published: float
) -> None:  # V-44
    a, b = cell
    assert met(11)[a][b] == pytest.approx(published, abs=0.02)


def test_the_cube_matters_before_crawford() -> None:
    # the seed: 3-away against 5-away is about 65 %; without the cube the table said 69 %
    assert met(7)[3][5] == pytest.approx(0.65, abs=0.01)


@pytest.mark.parametrize(("trailer", "published"), sorted(KAZAROSS_POST_CRAWFORD.items()))
def test_post_crawford_trailer(trailer: int, published: float) -> None:
    assert post_crawford_table(11)[trailer] == pytest.approx(published, abs=0.02)


def test_the_table_is_symmetric_and_ordered() -> None:
    table = met(11)
    for a in range(1, 12):
        for b in range(1, 12):
            assert table[a][b] + table[b][a] == pytest.approx(1.0, abs=1e-9)
            if b < 11:
                assert table[a][b] < table[a][b + 1]
    assert table[0][3] == 1.0 and table[3][0] == 0.0


def test_more_gammons_make_the_leader_weaker() -> None:
    # with more gammons the trailer's extra points come sooner
    low, high = MatchEquity(gammon=0.15), MatchEquity(gammon=0.35)
    assert high.value(2, 5) < low.value(2, 5)


def test_money_cube_decisions_at_clear_chances() -> None:  # V-37
    assert money_cube_decision((0.5, 0.1, 0.0, 0.1, 0.0), -1).action == "no double"
    assert money_cube_decision((0.75, 0.0, 0.0, 0.0, 0.0), -1).action == "double/take"
    assert money_cube_decision((0.9, 0.0, 0.0, 0.0, 0.0), -1).action == "double/pass"
    too_good = money_cube_decision((0.95, 0.7, 0.1, 0.0, 0.0), -1)
    assert too_good.action == "too good" and not too_good.take
    # a pass is worth the cube; a take at 25 % or more for the taker
    assert money_cube_decision((0.78, 0.0, 0.0, 0.0, 0.0), 0).take


def test_match_cube_decisions() -> None:  # V-44
    assert match_cube_decision((0.5, 0.1, 0.0, 0.1, 0.0), (5, 5), 1, -1).action == "no double"
    strong = match_cube_decision((0.85, 0.1, 0.0, 0.02, 0.0), (5, 5), 1, -1)
    assert strong.double and not strong.take
    # in the Crawford game the cube is dead
    assert match_cube_decision((0.9, 0.1, 0.0, 0.0, 0.0), (2, 1), 1, -1, crawford=True).action == (
        "no double"
    )
    # the trailer at 2-away/4-away... : a pass costs what the table says
    decision = match_cube_decision((0.7, 0.1, 0.0, 0.05, 0.0), (5, 3), 1, -1)
    assert decision.double_pass == pytest.approx(met(5)[4][3])


def test_far_scores_count_as_64_away_and_stay_bounded() -> None:
    # a Match ID may name a 30,000-point match: the table ends at 64-away, as gnubg's does
    model = MatchEquity()
    assert model.value(30_000, 20_000) == model.value(64, 64) == pytest.approx(0.5)
    decision = match_cube_decision((0.7, 0.1, 0.0, 0.05, 0.0), (30_000, 3), 1, -1)
    assert 0.0 <= decision.no_double <= 1.0
