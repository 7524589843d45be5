"""Design metrics over game traces: each metric checked on games built by hand, the online
lead follower against a plain reading of the whole standing sequence, and the traced play loop
against the plain one (the same games)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.play.bot import play_out
from runarch_gen.play.metrics import METRICS, Trace, _Lead, compute_metrics, play_traced
from runarch_gen.play.playtest import playtest
from runarch_gen.play.report import GameResult
from runarch_gen.play.stats import wilson_interval
from tests.toy_game import PIG, HoldAt, PigGame, PigRules

NAMES = (
    "completion",
    "balance",
    "first_player_edge",
    "deadlock_rate",
    "stall_rate",
    "duration_mean",
    "duration_sd",
    "decisiveness",
    "drama",
    "lead_changes",
    "branching_factor",
    "decision_moves",
    "skill_trace",
)


def game(index: int, winners: tuple[int, ...], first: int = 0, **extra: object) -> GameResult:
    return GameResult(index, ("a", "a"), first, 10, "end", False, winners, (0, 0), (0, 0), **extra)  # type: ignore[arg-type]


def test_every_design_metric_is_registered_with_its_formula() -> None:
    assert tuple(METRICS) == NAMES
    assert all(METRICS[name].formula and METRICS[name].title for name in NAMES)


def test_completion_counts_games_won_alone_by_the_rules() -> None:
    games = [game(0, (0,)), game(1, (0, 1)), game(2, ())]
    games.append(GameResult(3, ("a", "a"), 0, 99, "limit", True, (), (0, 0), (0, 0)))
    value = compute_metrics(games, ("w", "b"))["completion"]
    assert value is not None and value.value == 0.25 and value.n == 4
    interval = wilson_interval(1, 4)
    assert (value.low, value.high) == (round(interval.low, 4), round(interval.high, 4))


def test_balance_is_one_minus_the_largest_gap_between_positions() -> None:
    # Three players; by position from the first mover: 50, 30, 20 of 100 games.
    games = [
        game(i, ((i % 3 + (0 if i < 50 else 1 if i < 80 else 2)) % 3,), first=i % 3)
        for i in range(100)
    ]
    games = [
        GameResult(g.index, ("a",) * 3, g.first, 10, "end", False, g.winners, (0,) * 3, (0,) * 3)
        for g in games
    ]
    value = compute_metrics(games, ("x", "y", "z"))["balance"]
    assert value is not None and value.value == pytest.approx(0.7)
    assert value.low is not None and value.high is not None
    assert value.low < 0.7 < value.high <= 1


def test_first_player_edge_and_the_endings() -> None:
    games = [game(i, (0,) if i < 60 else (1,)) for i in range(100)]
    games[0] = GameResult(
        0, ("a", "a"), 0, 10, "deadlock", True, (), (0, 0), (0, 0), deadlocked=True
    )
    games[1] = GameResult(1, ("a", "a"), 0, 10, "stalled", True, (), (0, 0), (0, 0))
    metrics = compute_metrics(games, ("w", "b"))
    edge = metrics["first_player_edge"]
    assert edge is not None and edge.value == pytest.approx(58 / 98 - 0.5, abs=1e-4)
    assert metrics["deadlock_rate"].value == 0.01  # type: ignore[union-attr]
    assert metrics["stall_rate"].value == 0.01  # type: ignore[union-attr]


def test_duration_mean_and_sd_with_their_intervals() -> None:
    games = [
        GameResult(i, ("a", "a"), 0, length, "end", False, (0,), (0, 0), (0, 0))
        for i, length in enumerate([2, 4, 4, 4, 5, 5, 7, 9])
    ]
    metrics = compute_metrics(games, ("w", "b"), length_unit="rounds")
    mean, sd = metrics["duration_mean"], metrics["duration_sd"]
    assert mean is not None and mean.value == 5.0 and mean.low is not None
    assert sd is not None and sd.value == pytest.approx(2.1381, abs=1e-4)
    assert metrics.to_json()["duration_mean"]["unit"] == "rounds"


def test_trace_metrics_read_the_traces() -> None:
    won_by_0 = Trace(10, 5, 40, 3, (0.5, 0.2), (7, 10), points=11)
    won_by_1 = Trace(10, 10, 20, 1, (0.0, 0.3), (10, 2), points=11)
    games = [game(0, (0,), trace=won_by_0), game(1, (1,), trace=won_by_1)]
    metrics = compute_metrics(games, ("w", "b"))
    assert metrics["decisiveness"].value == pytest.approx((8 / 11 + 3 / 11) / 2, abs=1e-4)  # type: ignore[union-attr]
    assert metrics["drama"].value == pytest.approx((0.5 + 0.3) / 2)  # type: ignore[union-attr]
    assert metrics["lead_changes"].value == 2.0  # type: ignore[union-attr]
    assert metrics["branching_factor"].value == 3.0  # type: ignore[union-attr]
    assert metrics["decision_moves"].value == 0.75  # type: ignore[union-attr]
    assert metrics["skill_trace"] is None  # measured apart, by games of its own


def reference(standings: Sequence[Sequence[float]]) -> tuple[int, list[float], list[int]]:
    """Lead changes, largest gaps and last points behind, read off the whole sequence."""
    sides = len(standings[0])
    leaders = []
    for row in standings:
        top = max(row)
        tops = [s for s in range(sides) if row[s] >= top - 1e-9]
        leaders.append(tops[0] if len(tops) == 1 else None)
    sole = [x for x in leaders if x is not None]
    changes = sum(1 for a, b in itertools.pairwise(sole) if a != b)
    gaps = [max(max(row) - row[s] for row in standings) for s in range(sides)]
    last = [max((i for i, x in enumerate(leaders) if x != s), default=-1) for s in range(sides)]
    return changes, gaps, last


@given(
    st.integers(2, 4).flatmap(
        lambda n: st.lists(
            st.lists(st.integers(0, 6).map(lambda x: x / 6), min_size=n, max_size=n),
            min_size=1,
            max_size=40,
        )
    )
)
@settings(max_examples=150)
def test_the_lead_follower_agrees_with_a_reading_of_the_whole_sequence(
    standings: list[list[float]],
) -> None:
    lead = _Lead()
    for row in standings:
        lead.see(row)
    changes, gaps, last = reference(standings)
    assert lead.changes == changes
    assert lead.deficits == pytest.approx(gaps)
    assert lead.last_behind == last and lead.point == len(standings)


def test_traced_play_is_the_same_game_as_plain_play() -> None:
    for seed in range(20):
        game = PigGame(PigRules(players=3, target=30))
        a, b = game.new_initial_state(), game.new_initial_state()
        bots = [HoldAt(random.Random(seed)) for _ in range(3)]
        plain = play_out(a, bots, random.Random(seed))
        traced, trace = play_traced(
            b,
            [HoldAt(random.Random(seed)) for _ in range(3)],
            random.Random(seed),
            lambda s: tuple(x / 30 for x in s.banked),
        )
        assert plain == traced and a.history() == b.history()
        assert trace.decisions > 0 and trace.choices == trace.decisions  # roll or hold
        assert trace.points >= 2 and len(trace.deficits) == 3


def test_a_simulation_report_carries_the_metrics() -> None:
    values = PIG.game_type.parse_parameters({"target": "30"})
    played = playtest(PIG, values, ["hold12", "cautious"], games=40, seed=3, workers=1)
    data = played.to_json()["metrics"]
    assert set(data) == set(NAMES)
    assert data["branching_factor"]["value"] == 2.0  # roll or hold
    assert data["decision_moves"]["value"] == 1.0
    assert data["drama"]["value"] is None  # the toy declares no standing
    assert "design metrics" in played.summary()
