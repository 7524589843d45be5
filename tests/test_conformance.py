"""The family's conformance suite: every registered game, every declared configuration.

Random games checked at every step (see :mod:`runarch_gen.play.conformance`); the suite is
written once and parametrised by the registry, so a game passes it on arrival.
"""

from __future__ import annotations

import random

import pytest

from runarch_gen.games import find_game, registered_games
from runarch_gen.play.conformance import ConformanceError, check_random_games, check_state
from runarch_gen.play.game import ChanceMode

CASES = [(r.game_type.short_name, text) for r in registered_games() for text in r.conformance]


@pytest.mark.parametrize(("name", "text"), CASES, ids=[text for _, text in CASES])
def test_random_games_keep_every_promise_of_the_interface(name: str, text: str) -> None:
    game = find_game(text)
    assert game.game_type.short_name == name
    report = check_random_games(game, games=3, seed=1, deep_every=7)
    assert report.games == 3 and report.states > 3
    if game.game_type.chance_mode is ChanceMode.EXPLICIT:
        assert report.chance_nodes > 0


@pytest.mark.parametrize("registration", registered_games(), ids=lambda r: r.game_type.short_name)
def test_every_game_declares_players_parameters_and_bots(registration: object) -> None:
    from runarch_gen.play.registry import Registration

    assert isinstance(registration, Registration)
    spec = registration.game_type
    assert 1 <= spec.min_players <= spec.max_players
    assert registration.bots and registration.conformance
    defaults = spec.parse_parameters({})
    assert spec.game_string(defaults) == spec.short_name
    for parameter in spec.parameters:
        assert parameter.describe().startswith(parameter.name)


def test_a_copy_that_differs_fails_the_suite_with_its_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from runarch_gen.runarch.engine.state import RunArchState

    game = find_game("runarch(variant=simple,set=sample)")
    state = game.new_initial_state(random.Random(3))
    honest = RunArchState.copy

    def sloppy(self: RunArchState) -> RunArchState:
        other = honest(self)
        other.totals[0] += 1
        return other

    monkeypatch.setattr(RunArchState, "copy", sloppy)
    with pytest.raises(ConformanceError, match=r"seed 0, after 0 actions.*copy\(\) differs"):
        check_state(game, state, random.Random(0))


def test_a_leaking_observation_fails_the_suite(monkeypatch: pytest.MonkeyPatch) -> None:
    from runarch_gen.runarch.engine.state import RunArchState

    game = find_game("runarch(variant=complex,set=sample)")
    state = game.new_initial_state(random.Random(5))
    while state.current_player() != 0 or not state.hands[1]:
        state.apply(state.legal_actions()[0])
    check_state(game, state, random.Random(0))
    honest = RunArchState.observation_string

    def leaky(self: RunArchState, player: int) -> str:
        return honest(self, player) + repr(self.hands[1 - player])  # the other side's hand

    monkeypatch.setattr(RunArchState, "observation_string", leaky)
    with pytest.raises(ConformanceError, match="cannot see"):
        check_state(game, state, random.Random(0))


@pytest.mark.parametrize("registration", registered_games(), ids=lambda r: r.game_type.short_name)
def test_the_same_seed_gives_the_same_report_for_one_and_two_workers(
    registration: object,
) -> None:
    from runarch_gen.play.playtest import playtest
    from runarch_gen.play.registry import Registration, parse_game_string

    assert isinstance(registration, Registration)
    _, given = parse_game_string(registration.conformance[0])
    values = registration.game_type.parse_parameters(given)
    bots = sorted(registration.bots)[:2]
    one = playtest(registration, values, bots, games=8, seed=11, workers=1)
    two = playtest(registration, values, bots, games=8, seed=11, workers=2)
    assert one.games == 8 and one.to_json() == two.to_json()
