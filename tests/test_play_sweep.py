"""Rule sweeps: points from a grid and from lists, one limit of points checked before any game,
reports equal to simulating each point alone, the columns a designer reads, files read once
beside a sweep file, a journal that continues a stopped sweep to the same table, and charts
that show every dimension."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.errors import InputError, ParseError
from runarch_gen.play.playtest import playtest
from runarch_gen.play.registry import Registration
from runarch_gen.play.report import GameResult, PlayReport
from runarch_gen.play.sweep import (
    MAX_POINTS,
    Journal,
    Sweep,
    parse_sweep,
    read_files,
    read_journal,
    run_sweep,
)
from runarch_gen.play.sweep_columns import point_figures
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
    assert len(points) == sweep.count == 4 and sweep.varying == ("target", "bots")
    assert [dict(p.values)["target"] for p in points] == ["15", "15", "25", "25"]
    assert points[1].bots == ("hold12", "cautious")
    assert parse_sweep(sweep.to_toml()) == sweep


def test_listed_points_are_crossed_with_the_grid_and_vary_only_where_they_differ() -> None:
    sweep = parse_sweep(
        'game = "pig"\n[grid]\ntarget = [10, 20]\n'
        "[[points]]\nplayers = 2\nlimit = 50\n[[points]]\nplayers = 3\nlimit = 50\n"
        "[[points]]\nplayers = 4\n"
    )
    assert sweep.count == 6 and len(sweep.points()) == 6
    # limit is 50 in two points and unset (its default) in the third: it varies
    assert sweep.varying == ("target", "players", "limit")
    assert [dict(p.values) for p in sweep.points()][:2] == [
        {"players": "2", "limit": "50", "target": "10"},
        {"players": "2", "limit": "50", "target": "20"},
    ]
    assert parse_sweep(sweep.to_toml()) == sweep


def test_one_point_limit_for_grids_and_files_checked_without_making_the_points() -> None:
    # 1,400 points from the command line's grid and from a file: the same refusal
    inline = Sweep(
        "pig",
        grid=(("target", tuple(map(str, range(1, 15)))), ("limit", tuple(map(str, range(1, 101))))),
    )
    assert inline.count == 1400
    with pytest.raises(InputError, match=f"1,400 points: a sweep has at most {MAX_POINTS:,}"):
        inline.check()
    with pytest.raises(InputError, match="1,400 points"):
        run_sweep(PIG, inline, workers=1)
    text = inline.to_toml()
    with pytest.raises(ParseError, match="1,400 points"):
        parse_sweep(text)
    # a grid of 10^40 points is refused at once: the points are counted, never made
    huge = Sweep("pig", grid=tuple((f"p{i}", tuple(map(str, range(10)))) for i in range(40)))
    with pytest.raises(InputError, match="points: a sweep has at most"):
        huge.check()
    with pytest.raises(InputError, match="games: a sweep plays at most"):
        Sweep("pig", games=10_000_000, grid=(("target", ("1", "2")),)).check()
    with pytest.raises(InputError, match="target is given twice"):
        Sweep("pig", fixed=(("target", "5"),), grid=(("target", ("1", "2")),)).check()


def test_each_point_reports_what_simulating_it_alone_with_its_seed_reports() -> None:
    result = run_sweep(PIG, parse_sweep(SWEEP), workers=2)
    assert not result.interrupted and result.complete and len(result.reports) == 4
    for point, seed, report in zip(result.points, result.seeds, result.reports, strict=True):
        values = PIG.game_type.parse_parameters(dict(point.values))
        alone = playtest(PIG, values, point.bots, games=30, seed=seed, workers=1)
        assert report.to_json() == alone.to_json()
    rows = result.rows()
    assert [r["target"] for r in rows] == ["15", "15", "25", "25"]
    assert rows[0]["stall_rate"] == 0 and rows[0]["games"] == 30
    head = result.csv().splitlines()[0].split(",")
    assert head[:7] == [
        "target",
        "bots",
        "seed",
        "games",
        "deadlock_rate",
        "deadlock_rate_low",
        "deadlock_rate_high",
    ]
    assert "first player" in result.table()


def test_one_and_two_workers_give_the_same_table() -> None:
    one = run_sweep(PIG, parse_sweep(SWEEP), workers=1)
    two = run_sweep(PIG, parse_sweep(SWEEP), workers=2)
    assert one.to_json() == two.to_json() and one.table() == two.table()


# ---------------------------------------------------------------------------------------------
# On a Dask cluster

REPO = Path(__file__).resolve().parents[1]
LONG = SWEEP.replace("games = 30", "games = 600").replace("[15, 25]", "[60, 90]")


@contextlib.contextmanager
def _processes() -> Iterator[list[subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []
    try:
        yield started
    finally:
        for process in started:
            process.kill()
            process.wait()


def _worker(address: str, processes: list[subprocess.Popen[bytes]]) -> subprocess.Popen[bytes]:
    """A Dask worker with no nanny, in a process of its own: killed, it is gone for good."""
    command = [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1"]
    command += ["--no-nanny", "--no-dashboard"]
    process = subprocess.Popen(
        command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    processes.append(process)
    return process


def _wait_for_workers(address: str, count: int) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.Client(address, set_as_default=False) as client:
        client.wait_for_workers(count, timeout=60)


@pytest.mark.slow
def test_a_worker_killed_mid_sweep_loses_nothing_and_the_table_is_the_local_one() -> None:
    distributed = pytest.importorskip("distributed")
    plan = parse_sweep(LONG)
    local = run_sweep(PIG, plan, workers=2)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        _processes() as processes,
    ):
        address = cluster.scheduler_address
        doomed = _worker(address, processes)
        _wait_for_workers(address, 2)
        chunks: list[int] = []

        def kill_after_two_chunks(n: int) -> None:
            chunks.append(n)
            if len(chunks) == 2:
                doomed.kill()  # SIGKILL: no goodbye, its chunks in flight are lost with it

        remote = run_sweep(PIG, plan, scheduler=address, on_progress=kill_after_two_chunks)
        assert doomed.wait(timeout=10) == -signal.SIGKILL
    assert remote.failure is None and not remote.interrupted and remote.complete
    assert remote.where.startswith("dask tcp://")
    assert {**remote.to_json(), "ran_on": "local"} == local.to_json()
    assert remote.csv() == local.csv()


@pytest.mark.slow
def test_ctrl_c_on_a_cluster_reports_the_games_that_finished() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        seen: list[int] = []

        def ctrl_c_after_two_chunks(n: int) -> None:
            seen.append(n)
            if len(seen) == 2:
                raise KeyboardInterrupt

        big = parse_sweep(SWEEP.replace("games = 30", "games = 2000"))
        stopped = run_sweep(
            PIG, big, scheduler=cluster.scheduler_address, on_progress=ctrl_c_after_two_chunks
        )
    assert stopped.interrupted and stopped.failure is None
    assert 0 < stopped.games < 4 * 2000


@pytest.mark.slow
def test_a_scheduler_that_goes_away_stops_the_sweep_and_it_resumes_to_the_same_table() -> None:
    pytest.importorskip("distributed")
    plan = parse_sweep(LONG)
    local = run_sweep(PIG, plan, workers=2)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    kept: dict[int, dict[int, GameResult]] = {}
    with _processes() as processes:
        command = [sys.executable, "-m", "distributed.cli.dask_scheduler", "--port", str(port)]
        scheduler = subprocess.Popen(
            [*command, "--dashboard-address", ":0"],
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        processes.append(scheduler)
        for _ in range(2):
            _worker(address, processes)
        _wait_for_workers(address, 2)
        killed: list[float] = []

        def kill_the_scheduler(n: int) -> None:
            if not killed:
                scheduler.kill()
                killed.append(time.monotonic())

        def keep(point: int, games: Sequence[GameResult]) -> None:
            kept.setdefault(point, {}).update({g.index: g for g in games})

        stopped = run_sweep(
            PIG, plan, scheduler=address, on_progress=kill_the_scheduler, on_games=keep, timeout=5
        )
        assert time.monotonic() - killed[0] < 20
    assert stopped.failure is not None and "lost the Dask scheduler" in stopped.failure
    assert "\n" not in stopped.failure and 0 < stopped.games < 2400
    assert sum(len(g) for g in kept.values()) == stopped.games
    resumed = run_sweep(PIG, plan, workers=2, done=kept)
    assert resumed.to_json() == local.to_json() and resumed.csv() == local.csv()


def test_a_scheduler_without_workers_is_given_up_on_within_the_timeout() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=0, processes=True, dashboard_address=None) as cluster:
        started = time.monotonic()
        result = run_sweep(PIG, parse_sweep(SWEEP), scheduler=cluster.scheduler_address, timeout=2)
        waited = time.monotonic() - started
    assert result.failure is not None and "no Dask worker joined the scheduler within 2 s" in (
        result.failure
    )
    assert 2 <= waited < 20 and result.games == 0 and not result.complete


# ---------------------------------------------------------------------------------------------
# Columns


def _game(
    index: int,
    termination: str = "target",
    stalled: bool = False,
    *,
    first: int = 0,
    winner: int | None = 0,
    bots: tuple[str, str] = ("a", "a"),
    totals: tuple[float, float] = (10.0, 4.0),
    length: int = 20,
) -> GameResult:
    return GameResult(
        index,
        bots,
        first,
        length,
        termination,
        stalled,
        () if winner is None else (winner,),
        totals,
        (1.0, -1.0),
        sides=("white", "black"),
        deadlocked=termination == "deadlock",  # as play_game sets it from the Termination
    )


def _report(games: list[GameResult]) -> PlayReport:
    return PlayReport(
        "toy", ("a",), 1, len(games), ("white", "black"), "rounds", False, tuple(games)
    )


def _figures(games: list[GameResult]) -> dict[str, Any]:
    return {f.column.name: f for f in point_figures(_report(games))}


def test_deadlocks_and_stalls_are_counted_apart_with_their_intervals() -> None:
    games = [_game(i) for i in range(14)]
    games += [_game(14 + i, "deadlock", True, winner=None) for i in range(4)]
    games += [_game(18 + i, "limit", True, winner=None) for i in range(2)]
    figures = _figures(games)
    assert figures["deadlock_rate"].value == 4 / 20 and figures["stall_rate"].value == 2 / 20
    low, high = figures["deadlock_rate"].low, figures["deadlock_rate"].high
    assert low is not None and high is not None and low < 0.2 < high
    assert figures["deadlock_rate"].flat() == {
        "deadlock_rate": 0.2,
        "deadlock_rate_low": round(low, 4),
        "deadlock_rate_high": round(high, 4),
    }


def test_length_and_margin_have_units_and_the_interval_of_their_mean() -> None:
    games = [_game(i, length=10 + i % 5, totals=(10.0 + i % 3, 4.0)) for i in range(40)]
    figures = _figures(games)
    length, margin = figures["length"], figures["margin"]
    assert length.column.unit == "rounds" and margin.column.unit == "points"
    assert length.column.title == "length (rounds)"
    mean = sum(10 + i % 5 for i in range(40)) / 40
    assert length.value == pytest.approx(mean)
    assert length.low is not None and length.high is not None
    assert length.low < mean < length.high and length.high - length.low < 1.5


def test_win_rates_appear_only_where_they_mean_something() -> None:
    selfplay = [_game(i, first=i % 2, winner=i % 2) for i in range(10)]
    names = set(_figures(selfplay))
    assert not {n for n in names if n.startswith("win_") and not n.startswith("win_seat_")}
    # the first mover changes game to game: each seat has its rate
    assert {"win_seat_white", "win_seat_black"} <= names
    lineup = [_game(i, bots=("a", "b") if i % 2 else ("b", "a")) for i in range(10)]
    figures = _figures(lineup)
    assert figures["win_a"].value == 0.5 and figures["win_a"].column.fair == 0.5
    # always the same seat first: the seat's rate would only repeat the first player's
    assert not any(n.startswith("win_seat_") for n in figures)


def test_metrics_the_report_gives_become_columns_and_replace_the_sweeps_own() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Measured(PlayReport):
        def to_json(self) -> dict[str, Any]:
            return {
                **PlayReport.to_json(self),
                "metrics": {
                    "drama": {"mean": 0.3, "low": 0.25, "high": 0.35},
                    "stall_rate": {"rate": 0.5, "low": 0.4, "high": 0.6},
                    "lead_changes": 2.5,
                    "not_a_figure": ["x"],
                },
            }

    games = [_game(i) for i in range(10)]
    plain = Measured("toy", ("a",), 1, 10, ("white", "black"), "rounds", False, tuple(games))
    figures = point_figures(plain)
    names = [f.column.name for f in figures]
    assert names.index("stall_rate") == 2  # replaced in place
    by_name = {f.column.name: f for f in figures}
    assert by_name["stall_rate"].value == 0.5
    assert by_name["drama"].flat() == {"drama": 0.3, "drama_low": 0.25, "drama_high": 0.35}
    assert by_name["lead_changes"].value == 2.5 and "not_a_figure" not in by_name


# ---------------------------------------------------------------------------------------------
# Files


def _reader_registration(calls: list[str]) -> Registration:
    """Pig whose target may be read from a file (a parameter that takes files)."""

    def read(text: str) -> str:
        calls.append(text)
        return Path(text).read_text().strip() if not text.strip().isdigit() else text

    parameters = tuple(
        dataclasses.replace(p, from_file=read) if p.name == "target" else p
        for p in PIG.game_type.parameters
    )
    return dataclasses.replace(
        PIG, game_type=dataclasses.replace(PIG.game_type, parameters=parameters)
    )


def test_files_beside_a_sweep_file_are_read_once_and_travel_with_the_saved_sweep(
    tmp_path: Path,
) -> None:
    calls: list[str] = []
    game = _reader_registration(calls)
    (tmp_path / "sets").mkdir()
    (tmp_path / "sets" / "t.txt").write_text("12\n")
    (tmp_path / "outside.txt").write_text("13\n")
    sweep_file = tmp_path / "sets" / "plan.toml"
    sweep_file.write_text(
        'game = "pig"\ngames = 4\n[grid]\ntarget = ["t.txt", "./t.txt", "9"]\n'
        "[[points]]\nplayers = 2\n[[points]]\nplayers = 3\n"
    )
    plan = read_files(game, parse_sweep(sweep_file.read_text()), str(sweep_file))
    assert calls == [str(tmp_path / "sets" / "t.txt")]  # once, for two names of one file
    assert dict(plan.files) == {"t.txt": "12", "./t.txt": "12"}
    result = run_sweep(game, plan, workers=1)
    assert [r["target"] for r in result.rows()][:3] == ["t.txt", "./t.txt", "9"]
    assert result.reports[0].game == "pig(target=12)"
    # the saved sweep needs no file: it carries what was read
    again = parse_sweep(plan.to_toml())
    assert read_files(game, again, str(tmp_path / "elsewhere.toml")) == again == plan
    assert len(calls) == 1
    # a name reaching out of the sweep file's folder is never read, only passed on
    outside = parse_sweep('game = "pig"\n[fixed]\ntarget = "../outside.txt"\n')
    assert read_files(game, outside, str(sweep_file)).files == ()
    with pytest.raises(InputError, match=r"point 1 .*target is a whole number"):
        run_sweep(game, read_files(game, outside, str(sweep_file)), workers=1)
    assert len(calls) == 1


# ---------------------------------------------------------------------------------------------
# The journal


def test_a_stopped_sweep_continues_from_its_journal_to_the_same_table(tmp_path: Path) -> None:
    plan = parse_sweep(SWEEP)
    whole = run_sweep(PIG, plan, workers=2)
    path = tmp_path / "j.jsonl"
    seen: list[int] = []

    def stop_after_three_chunks(n: int) -> None:
        seen.append(n)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with Journal(path, plan) as journal:
        stopped = run_sweep(
            PIG, plan, workers=1, on_progress=stop_after_three_chunks, on_games=journal.add
        )
    assert stopped.interrupted and not stopped.complete and 0 < stopped.games < 120
    kept = read_journal(path)
    assert kept.sweep == plan and kept.keep
    assert sum(len(g) for g in kept.done.values()) == stopped.games
    with Journal(path, kept.sweep, resume=True) as journal:
        resumed = run_sweep(PIG, kept.sweep, workers=2, done=kept.done, on_games=journal.add)
    assert resumed.complete and resumed.to_json() == whole.to_json()
    assert resumed.csv() == whole.csv() and resumed.table() == whole.table()
    everything = read_journal(path).done
    assert {p: len(g) for p, g in everything.items()} == dict.fromkeys(range(4), 30)
    with pytest.raises(InputError, match="exists already: continue that sweep with --resume"):
        Journal(path, plan)


def test_the_local_pool_keeps_finished_points_batch_by_batch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from runarch_gen.play import sweep as module

    runs = [(0, 0, 30), (1, 0, 10), (1, 20, 30), (2, 0, 5)]
    assert [len(b) for b in module._batches(runs, 15)] == [1, 2, 1]  # whole points only
    assert [len(b) for b in module._batches(runs, 25)] == [1, 3]
    monkeypatch.setattr(module, "LOCAL_BATCH", 50)
    told: list[tuple[int, int]] = []
    result = run_sweep(
        PIG, parse_sweep(SWEEP), workers=2, on_games=lambda p, g: told.append((p, len(g)))
    )
    # 4 points of 30 games in batches of two points: each told once, batch by batch
    assert told == [(0, 30), (1, 30), (2, 30), (3, 30)]
    assert result.to_json() == run_sweep(PIG, parse_sweep(SWEEP), workers=1).to_json()


def test_a_journal_cut_off_by_a_crash_loses_only_its_last_line(tmp_path: Path) -> None:
    plan = parse_sweep(SWEEP)
    path = tmp_path / "j.jsonl"
    with Journal(path, plan) as journal:
        run_sweep(PIG, plan, workers=1, on_games=journal.add)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2])
    kept = read_journal(path)
    assert sorted(kept.done) == [0, 1, 2] and len(kept.done[2]) == 30


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda lines: ["{}\n"], "not a sweep journal"),
        (
            lambda lines: [lines[0].replace('"version":"', '"version":"0.0.0-'), *lines[1:]],
            r"kept by runarch-gen '0\.0\.0-",
        ),
        (lambda lines: [lines[0], '{"point": 9, "games": []}\n'], r"j\.jsonl:2: expected a point"),
        (lambda lines: [lines[0], lines[1].replace("[0,", "[99,", 1)], r":2: game number 99"),
        (
            lambda lines: [lines[0], lines[1], lines[1].replace("hold12", "cautious")],
            r":3: .*given twice, differently",
        ),
        (lambda lines: [lines[0], "[[[[\n", "{}\n"], r"j\.jsonl:2:"),
    ],
)
def test_bad_journals_are_refused_naming_the_line(tmp_path: Path, edit: Any, message: str) -> None:
    plan = parse_sweep(SWEEP)
    path = tmp_path / "j.jsonl"
    with Journal(path, plan) as journal:
        run_sweep(PIG, plan, workers=1, on_games=journal.add)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(edit(lines)))
    with pytest.raises(InputError, match=message):
        read_journal(path)


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_after_a_journal_header_are_read_or_refused_in_one_line(
    tmp_path_factory: pytest.TempPathFactory, junk: bytes
) -> None:
    path = tmp_path_factory.mktemp("j") / "j.jsonl"
    header = {
        "format": "runarch-gen sweep journal",
        "keep": False,
        "sweep": SWEEP,
        "version": __import__("runarch_gen").__version__,
    }
    path.write_bytes(json.dumps(header).encode() + b"\n" + junk)
    try:
        kept = read_journal(path)
    except InputError as exc:
        assert "\n" not in str(exc)
    else:
        assert all(0 <= p < 4 for p in kept.done)


# ---------------------------------------------------------------------------------------------
# Charts


def _svg_texts(svg: bytes) -> str:
    return " ".join(re.findall(r">([^<>]+)<", svg.decode()))


def test_charts_show_every_dimension_bots_included(tmp_path: Path) -> None:
    plan = parse_sweep(
        'game = "pig"\ngames = 6\nbots = [["hold12"], ["hold12", "cautious"]]\n'
        "[grid]\ntarget = [10, 20, 30]\nlimit = [60, 400]\nplayers = [2, 3]\n"
    )
    charts = run_sweep(PIG, plan, workers=1).charts()
    assert {"stall_rate.png", "deadlock_rate.svg", "length.svg", "first_player_rate.svg"} <= set(
        charts
    )
    texts = _svg_texts(charts["first_player_rate.svg"])
    # heatmaps over target × the next largest; a panel for every value of the others
    for panel in ("bots=hold12", "bots=hold12+cautious", "players=2", "players=3"):
        assert panel in texts
    # the colour scale is centred on the fair value: here each point's own (the players vary)
    assert "first player wins less each point's fair share" in texts
    one = run_sweep(PIG, parse_sweep(SWEEP.replace("games = 30", "games = 6")), workers=1)
    two = _svg_texts(one.charts()["length.svg"])  # two dimensions: a heatmap, both shown
    assert all(word in two for word in ("hold12+cautious", "bots", "target", "25"))


def test_a_points_list_is_charted_by_what_varies_and_missing_values_are_defaults() -> None:
    plan = parse_sweep(
        'game = "pig"\ngames = 6\n[[points]]\ntarget = 10\n[[points]]\ntarget = 20\nlimit = 50\n'
    )
    result = run_sweep(PIG, plan, workers=1)
    assert [(r["target"], r["limit"]) for r in result.rows()] == [("10", "400"), ("20", "50")]
    assert result.csv().splitlines()[0].startswith("target,limit,seed,")
    assert "limit" in _svg_texts(result.charts()["length.svg"])


def test_a_flat_map_says_so() -> None:
    plan = parse_sweep('game = "pig"\ngames = 40\n[grid]\nlimit = [1000, 2000]\n')
    charts = run_sweep(PIG, plan, workers=1).charts()
    assert "flat: every point 0.0 %" in _svg_texts(charts["stall_rate.svg"])
    assert "flat: no point differs beyond its 95 % interval" in _svg_texts(
        charts["first_player_rate.svg"]
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('game = "pig"\ncolour = 1\n', "unknown key 'colour'"),
        ("games = 3\n", "game: name the game"),
        ('game = "pig"\ngames = 0\n', "games: 1 to"),
        ('game = "pig"\n[grid]\ntarget = []\n', "grid.target: a non-empty list"),
        ('game = "pig"\n[grid]\ntarget = [1, 1]\n', "grid.target: a value is listed twice"),
        (
            'game = "pig"\n[grid]\na = [1,2,3,4,5,6,7,8,9,10]\nb = [1,2,3,4,5,6,7,8,9,10]\n'
            "c = [1,2,3,4,5,6,7,8,9,10,11]\n",
            "1,100 points: a sweep has at most 1,000",
        ),
        ('game = "pig"\nbots = [1]\n', "bots: a list of bot names"),
        ('game = "pig"\n[grid]\nx = [[1]]\n', "grid.x: expected a number"),
        ('game = "pig"\nboard = "a"\n[fixed]\nboard = "b"\n', "board is given twice"),
        ('game = "pig"\n[files]\nx = 1\n', "files: a table of file name"),
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
