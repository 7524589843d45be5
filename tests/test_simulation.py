"""The simulation report: the same for any number of workers, consistent with its games,
interruptible, and strict about its input."""

from __future__ import annotations

import json

import pytest
from PIL import Image

from runarch_gen.errors import InputError
from runarch_gen.runarch.analysis.charts import CHARTS, write_charts
from runarch_gen.runarch.analysis.simulation import AUTOMA, SimulationReport, seat_bots, simulate
from runarch_gen.runarch.engine.sample import sample_board, sample_deck
from runarch_gen.runarch.rules import parse_rules

DECK = sample_deck(50)


def run(
    variant: str = "complex", bots: tuple[str, ...] = ("greedy",), **options
) -> SimulationReport:
    settings = {"games": 16, "seed": 3, "workers": 1} | options
    return simulate(
        rules=parse_rules(variant), board=sample_board(), deck=DECK, bots=bots, **settings
    )


@pytest.fixture(scope="module")
def complex_report() -> SimulationReport:
    return run(bots=("greedy", "random"), games=24)


@pytest.mark.parametrize("variant", ["complex", "solo"])
def test_same_seed_and_options_same_report_for_one_and_two_workers(variant: str) -> None:
    one = run(variant, games=20, workers=1)
    two = run(variant, games=20, workers=2)
    assert one.to_json() == two.to_json() and one.summary() == two.summary()


def test_seats_alternate_so_each_bot_plays_both_sides(complex_report: SimulationReport) -> None:
    seats = [g.bots for g in complex_report.summaries]
    assert seats[0] == ("greedy", "random") and seats[1] == ("random", "greedy")
    assert seat_bots(["greedy"], 5, solo=True) == ("greedy", AUTOMA)


def test_report_counts_add_up(complex_report: SimulationReport) -> None:
    r = complex_report
    data = r.to_json()
    json.dumps(data)  # JSON-ready
    assert sum(data["endings"].values()) == r.games == data["games"] == 24
    assert r.stalls == sum(g.stalled for g in r.summaries) >= r.deadlocks
    assert data["stall_rate"]["count"] == r.stalls
    wins = data["wins"]["by_bot"]
    assert sum(row["sides"] for row in wins.values()) == 2 * r.games
    for row in wins.values():
        assert row["wins"] + row["shared"] + row["losses"] == row["sides"]
    first = data["first_player"]
    assert first["first_wins"] + first["second_wins"] + first["shared"] == r.games
    scored = sum(len(g.scored[s]) for g in r.summaries for s in (0, 1))
    assert sum(row["scored"] for row in data["cards"]) == scored
    assert [row["card"] for row in data["cards"]] == [c.id for c in DECK]
    placed = sum(row["placed"] for row in data["bets"])
    assert placed == sum(len(g.bets[s]) for g in r.summaries for s in (0, 1))
    assert data["length"]["rounds"]["max"] == -(-data["length"]["turns"]["max"] // 2)


def test_a_goal_asking_for_more_is_never_met_more_often(complex_report: SimulationReport) -> None:
    rates = complex_report.goal_rates()
    texts = {c.goal.text: c.goal for c in DECK}
    pairs = [
        (a, b)
        for a in rates
        for b in rates
        if texts[a].kind is texts[b].kind
        and texts[a].colour == texts[b].colour
        and texts[a].shape == texts[b].shape
        and texts[a].colour_count <= texts[b].colour_count
        and texts[a].shape_count <= texts[b].shape_count
        and a != b
    ]
    assert pairs
    assert all(rates[a] >= rates[b] for a, b in pairs)


def test_summary_names_every_part(complex_report: SimulationReport) -> None:
    text = complex_report.summary()
    for part in (
        "stalled",
        "deadlocked",
        "turns",
        "rounds",
        "final score",
        "margin",
        "wins",
        "first player",
        "bets",
        "goals",
        "cards scored per game",
        "greedy against random",
    ):
        assert part in text


def test_ctrl_c_reports_the_games_finished() -> None:
    calls = 0

    def stop(n: int) -> None:
        nonlocal calls
        calls += n
        if calls >= 3:
            raise KeyboardInterrupt

    report = run(games=40, on_progress=stop)
    assert report.interrupted and 3 <= report.games < 40 and report.requested == 40
    assert "(interrupted)" in report.summary() and report.to_json()["finished_games"]


@pytest.mark.parametrize(
    ("bots", "games", "workers", "message"),
    [
        (("clever",), 4, 1, "unknown bot 'clever'"),
        (("greedy",), 0, 1, "games must be at least 1"),
        (("greedy", "random", "greedy"), 4, 1, "one or two bots"),
        (("greedy",), 4, 0, "workers must be at least 1"),
    ],
)
def test_bad_input_is_named(bots: tuple[str, ...], games: int, workers: int, message: str) -> None:
    with pytest.raises(InputError, match=message):
        run(bots=bots, games=games, workers=workers)


def test_a_deck_too_small_to_set_up_is_refused() -> None:
    with pytest.raises(InputError, match="needs at least 14 cards"):
        simulate(
            rules=parse_rules("complex"),
            board=sample_board(),
            deck=sample_deck(10),
            bots=["greedy"],
            games=2,
            seed=1,
            workers=1,
        )


def test_solo_reports_the_player_against_the_automa() -> None:
    report = run("solo", bots=("greedy", "random"), games=6)
    assert report.sides == ("player", AUTOMA)
    assert {g.bots for g in report.summaries} == {("greedy", AUTOMA), ("random", AUTOMA)}
    assert set(report.endings()) <= {"tenth-card", "pile-empty", "stalled"}


def test_solo_with_two_bots_reports_games_the_automa_won() -> None:
    # Two bots take turns against the automa: they never meet, so there is no head-to-head,
    # and a game the automa wins is counted for the automa (this used to crash the report).
    report = run("solo", bots=("greedy", "random"), games=20)
    automa_wins = sum(g.winners == (1,) for g in report.summaries)
    assert automa_wins > 0
    assert report.head_to_head() is None
    assert report.wins_by_bot()[AUTOMA]["wins"] == automa_wins
    assert f"{AUTOMA}" in report.summary() and "against" not in report.summary()


def test_charts_are_pngs_of_the_report(complex_report: SimulationReport, tmp_path) -> None:
    written = write_charts(complex_report, tmp_path / "plots")
    assert sorted(p.name for p in written) == sorted(CHARTS)
    for path in written:
        with Image.open(path) as image:
            assert image.format == "PNG" and image.size == (1200, 675)
    again = write_charts(complex_report, tmp_path / "again")
    assert [p.read_bytes() for p in written] == [p.read_bytes() for p in again]
