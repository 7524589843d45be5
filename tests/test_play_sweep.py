"""Rule sweeps: points from a grid, reports equal to simulating each point alone, the same
table from the local pool and from a real Dask cluster, bounds, and Ctrl-C."""

from __future__ import annotations

import pytest

from runarch_gen.errors import ParseError
from runarch_gen.play.playtest import playtest
from runarch_gen.play.sweep import parse_sweep, run_sweep
from tests.toy_game import PIG

SWEEP = """
game = "pig"
games = 30
seed = 5
bots = [["hold12"], ["hold12", "cautious"]]

[fixed]
players = 2

[grid]
target = [15, 25]
"""


def test_the_grid_crossed_with_the_bot_lists_gives_every_point() -> None:
    sweep = parse_sweep(SWEEP)
    points = sweep.points()
    assert len(points) == 4 and sweep.varying == ("target", "bots")
    assert [dict(p.values)["target"] for p in points] == ["15", "15", "25", "25"]
    assert points[1].bots == ("hold12", "cautious")
    assert parse_sweep(sweep.to_toml()) == sweep


def test_each_point_reports_what_simulating_it_alone_with_its_seed_reports() -> None:
    result = run_sweep(PIG, parse_sweep(SWEEP), workers=2)
    assert not result.interrupted and len(result.reports) == 4
    for point, seed, report in zip(result.points, result.seeds, result.reports, strict=True):
        values = PIG.game_type.parse_parameters(dict(point.values))
        alone = playtest(PIG, values, point.bots, games=30, seed=seed, workers=1)
        assert report.to_json() == alone.to_json()
    rows = result.rows()
    assert [r["target"] for r in rows] == ["15", "15", "25", "25"]
    assert rows[0]["stall_rate"] == 0 and rows[0]["games"] == 30
    assert result.csv().splitlines()[0].startswith("target,bots,seed,games,stall_rate")
    assert "first player" in result.table()


def test_one_and_two_workers_give_the_same_table() -> None:
    one = run_sweep(PIG, parse_sweep(SWEEP), workers=1)
    two = run_sweep(PIG, parse_sweep(SWEEP), workers=2)
    assert one.to_json() == two.to_json() and one.table() == two.table()


@pytest.mark.slow
def test_a_dask_cluster_gives_the_identical_table_and_stops_on_ctrl_c() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        local = run_sweep(PIG, parse_sweep(SWEEP), workers=2)
        remote = run_sweep(PIG, parse_sweep(SWEEP), scheduler=cluster.scheduler_address)
        assert remote.where.startswith("dask tcp://")
        assert {**remote.to_json(), "ran_on": "local"} == local.to_json()
        assert remote.csv() == local.csv()

        seen: list[int] = []

        def ctrl_c_after_two_chunks(n: int) -> None:
            seen.append(n)
            if len(seen) == 2:
                raise KeyboardInterrupt

        big = parse_sweep(SWEEP.replace("games = 30", "games = 2000"))
        stopped = run_sweep(
            PIG, big, scheduler=cluster.scheduler_address, on_progress=ctrl_c_after_two_chunks
        )
        assert stopped.interrupted
        finished = sum(r.games for r in stopped.reports)
        assert 0 < finished < 4 * 2000


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('game = "pig"\ncolour = 1\n', "unknown key 'colour'"),
        ("games = 3\n", "game: name the game"),
        ('game = "pig"\ngames = 0\n', "games: 1 to"),
        ('game = "pig"\n[grid]\ntarget = []\n', "grid.target: a non-empty list"),
        (
            'game = "pig"\n[grid]\na = [1,2,3,4,5,6,7,8,9,10]\nb = [1,2,3,4,5,6,7,8,9,10]\n'
            "c = [1,2,3,4,5,6,7,8,9,10,11]\n",
            "points: a sweep has at most 1000",
        ),
        ('game = "pig"\nbots = [1]\n', "bots: a list of bot names"),
        ('game = "pig"\n[grid]\nx = [[1]]\n', "grid.x: expected a number"),
        ("game = [", "malformed TOML"),
    ],
)
def test_bad_sweep_files_are_refused_naming_the_key(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_sweep(text)


def test_a_bad_point_is_named_before_any_game() -> None:
    sweep = parse_sweep('game = "pig"\n[grid]\ntarget = [10, 500]\n')
    with pytest.raises(ParseError, match=r"target=500.*target is at most 100"):
        run_sweep(PIG, sweep, workers=1)
