"""The generic playtest runner and report, on a small dice game (tests/toy_game.py)."""

from __future__ import annotations

import pytest

from runarch_gen.errors import InputError
from runarch_gen.play.conformance import check_random_games
from runarch_gen.play.playtest import playtest, seat_bots
from runarch_gen.play.registry import Value
from runarch_gen.play.report import first_player, head_to_head
from tests.toy_game import PIG, PigGame, PigRules


def values(**given: str) -> dict[str, Value]:
    return PIG.game_type.parse_parameters(given)


def test_the_toy_game_passes_the_conformance_suite() -> None:
    report = check_random_games(PigGame(PigRules(3, 15)), games=5, seed=2)
    assert report.games == 5 and report.chance_nodes > 0


def test_the_same_seed_gives_the_same_report_for_one_and_two_workers() -> None:
    one = playtest(PIG, values(), ["hold12", "cautious"], games=60, seed=4, workers=1)
    two = playtest(PIG, values(), ["hold12", "cautious"], games=60, seed=4, workers=2)
    assert one.to_json() == two.to_json() and one.summary() == two.summary()
    other = playtest(PIG, values(), ["hold12", "cautious"], games=60, seed=5, workers=1)
    assert other.to_json() != one.to_json()


def test_bots_take_every_seat_equally_often() -> None:
    seats = [seat_bots(["a", "b", "c"], i, 3) for i in range(6)]
    for seat in range(3):
        assert sorted(s[seat] for s in seats) == ["a", "a", "b", "b", "c", "c"]


def test_the_report_counts_wins_by_bot_and_by_seat_value() -> None:
    report = playtest(PIG, values(players="3"), ["hold12", "reckless"], games=90, seed=1, workers=1)
    data = report.to_json()
    rows = data["wins"]["by_bot"]
    # three seats, two bots: over 90 games each bot fills 135 seats (filled a, b, a, turned)
    assert rows["hold12"]["sides"] + rows["reckless"]["sides"] == 270
    assert sum(r["wins"] for r in rows.values()) + sum(r["shared"] for r in rows.values()) > 0
    by_seat = data["wins"]["by_value"]["seat"]
    assert set(by_seat) == {"s0", "s1", "s2"} and all(r["sides"] == 90 for r in by_seat.values())
    assert data["length"]["unit"] == "actions" and data["games"] == 90
    assert "turn total left" in data["statistics"]["numbers"]


def test_a_stronger_bot_wins_the_head_to_head_clearly() -> None:
    # Holding at 12 is near the best fixed threshold for Pig; holding at 4 banks too little.
    report = playtest(PIG, values(), ["hold12", "cautious"], games=300, seed=3, workers=1)
    head = head_to_head(report.results)
    assert head is not None and head["wins"]["hold12"] > head["wins"]["cautious"]
    assert head["p_value"] < 0.01


def test_the_first_player_test_uses_a_fair_share_for_the_number_of_sides() -> None:
    report = playtest(PIG, values(players="4"), ["hold12"], games=200, seed=6, workers=1)
    first = first_player(report.results, 4)
    assert first["first_wins"] + first["second_wins"] + first["shared"] == 200
    assert 0 <= first["p_value"] <= 1


def test_bad_bots_and_game_counts_are_refused() -> None:
    with pytest.raises(InputError, match="unknown bot 'nobody'"):
        playtest(PIG, values(), ["nobody"], games=5, seed=1)
    with pytest.raises(InputError, match="at most 2 bots"):
        playtest(PIG, values(), ["hold12", "cautious", "reckless"], games=5, seed=1)
    with pytest.raises(InputError, match="games must be 1 to"):
        playtest(PIG, values(), ["hold12"], games=0, seed=1)
