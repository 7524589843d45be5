"""The registry and what it derives: parameters declared once on a rules dataclass, variants as
presets found by name, one ``find_game``, entry points, default bots, and the base classes'
bookkeeping."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from importlib import metadata
from typing import Any

import pytest

from runarch_gen.errors import InputError, ParseError
from runarch_gen.play import registry
from runarch_gen.play.bot import PolicyBot, RandomBot
from runarch_gen.play.game import IllegalActionError
from runarch_gen.play.parameters import (
    Parameter,
    check_bounds,
    param,
    parameters_of,
    rules_of,
    values_of,
)
from runarch_gen.play.registry import (
    Registration,
    RulesFactory,
    find_game,
    find_registration,
    registered_games,
    resolve_game_string,
)
from tests.toy_game import PIG, PigGame, PigRules

GAMES = registered_games()
RULES_GAMES = [r for r in GAMES if isinstance(r.factory, RulesFactory)]


def test_the_built_in_games_are_entry_points_in_their_order() -> None:
    names = {ep.name for ep in metadata.entry_points(group=registry.ENTRY_POINTS)}
    assert {"runarch", "bluff", "malacca", "backgammon"} <= names
    assert [r.name for r in GAMES][:4] == ["runarch", "bluff", "malacca", "backgammon"]
    assert registry.plugin_errors() == {}


@pytest.mark.parametrize("registration", RULES_GAMES, ids=lambda r: r.name)
def test_a_games_parameters_are_its_rules_fields(registration: Registration) -> None:
    spec = registration.game_type
    assert spec.rules is not None
    declared = parameters_of(spec.rules)
    assert declared and set(declared) <= set(spec.parameters)
    for parameter in declared:
        assert parameter.tag and parameter.help.endswith(f"[{parameter.tag}]")
    defaults = spec.rules()
    assert values_of(defaults) == {p.name: p.default for p in declared}
    assert rules_of(spec.rules, values_of(defaults)) == defaults


@pytest.mark.parametrize(
    ("name", "text"),
    [(r.name, text) for r in RULES_GAMES for text in r.conformance],
    ids=[text for r in RULES_GAMES for text in r.conformance],
)
def test_a_games_string_names_the_same_game_again(name: str, text: str) -> None:
    game = find_game(text)
    again = find_game(str(game))
    assert again.rules == game.rules and str(again) == str(game)
    assert again.game_type.short_name == name


def test_runarchs_string_is_its_variants_name_with_options() -> None:
    game = find_game("runarch(variant=classic,deal=4,set=sample)")
    assert str(game) == "classic(deal=4)"
    registration, values = resolve_game_string("classic(deal=4,set=sample)")
    assert registration.name == "runarch"
    assert (values["variant"], values["deal"], values["set"]) == ("classic", "4", "sample")


def test_a_variants_name_is_a_game_string() -> None:
    assert str(find_game("nackgammon")) == "backgammon(variant=nackgammon)"
    assert str(find_game("hypergammon(match=5)")) == "backgammon(variant=hypergammon,match=5)"
    assert str(find_game("original(players=3)")) == "bluff(players=3,exact=all)"


def test_variant_names_a_preset_and_the_options_given_win() -> None:
    assert str(find_game("bluff(variant=original)")) == "bluff(exact=all)"
    given = find_game("bluff(variant=original,exact=give,opener=loser)")
    assert str(given) == "bluff(opener=loser)"
    assert str(find_game("backgammon(variant=nackgammon)")) == "backgammon(variant=nackgammon)"


def test_unknown_names_and_parameters_are_one_clear_error() -> None:
    with pytest.raises(InputError, match="unknown game 'chess': expected one of runarch, bluff"):
        find_game("chess")
    with pytest.raises(ParseError, match="bluff has no parameter 'colour'"):
        find_game("bluff(colour=red)")
    with pytest.raises(ParseError, match="players is at most 6"):
        find_game("bluff(players=7)")


def test_aliases_find_the_game_but_are_not_its_name() -> None:
    assert find_registration("Vrhcáby") is find_registration("backgammon")
    assert str(find_game("liars-dice(players=2)")) == "bluff(players=2)"


@pytest.mark.parametrize("registration", GAMES, ids=lambda r: r.name)
def test_every_game_declares_a_default_bot_and_can_be_played_at_random(
    registration: Registration,
) -> None:
    assert registration.default_bot in registration.bots
    assert "random" in registration.bots
    assert registration.to_json()["default_bot"] == registration.default_bot


def test_a_game_that_names_no_random_bot_gets_the_uniform_one() -> None:
    assert PIG.bots["random"] is RandomBot
    with pytest.raises(ValueError, match="default bot 'nobody'"):
        dataclasses.replace(PIG, default_bot="nobody")


def test_the_uniform_bot_has_a_policy_and_draws_from_it() -> None:
    bot = RandomBot(random.Random(5))
    assert isinstance(bot, PolicyBot)
    assert bot.policy(None, [1, 4, 9]) == [(1, 1 / 3), (4, 1 / 3), (9, 1 / 3)]
    drawn = {bot.step(None, [1, 4, 9]) for _ in range(60)}
    assert drawn == {1, 4, 9}


def test_the_base_state_records_the_history_around_apply() -> None:
    state = PigGame(PigRules(players=2, target=5)).new_initial_state()
    state.apply(0)  # roll
    state.apply(3)  # chance: a three
    assert list(state.history()) == [0, 3] and state.length() == 2
    with pytest.raises(IllegalActionError):
        state.apply(7)
    assert list(state.history()) == [0, 3]  # an illegal action is not recorded
    assert state.first() == 0 and state.statistics()["turn total left"] == 3


def test_the_game_string_and_players_come_from_the_rules() -> None:
    game = PigGame(PigRules(players=3, target=30))
    assert str(game) == "pig(players=3,target=30)" and game.num_players == 3
    assert PIG.load({"players": 4}).num_players == 4


@dataclass(frozen=True)
class _Rules:
    size: int = param(3, "size", tag="T-01", minimum=1, maximum=9)
    name: str = param("a", "name", choices=("a", "b"))


def test_the_declared_bounds_hold_for_rules_built_in_python() -> None:
    check_bounds(_Rules(size=9), "toy")
    with pytest.raises(InputError, match="toy: size is 1 to 9, not 10"):
        check_bounds(_Rules(size=10), "toy")
    assert parameters_of(_Rules) == (
        Parameter("size", 3, "size [T-01]", minimum=1, maximum=9, tag="T-01"),
        Parameter("name", "a", "name", choices=("a", "b")),
    )


def test_a_broken_plug_in_is_skipped_and_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = metadata.EntryPoint("broken", "no_such_module_here:GAME", registry.ENTRY_POINTS)
    found = registry._entry_points()
    monkeypatch.setattr(registry, "_entry_points", lambda: [*found, broken])
    monkeypatch.setattr(registry, "_FAILED", {})
    monkeypatch.setattr(registry, "_LOADED", set(registry._LOADED))
    names = [r.name for r in registry.registered_games()]
    assert "broken" not in names and "bluff" in names
    assert "ModuleNotFoundError" in registry.plugin_errors()["broken"]


def test_a_registration_made_in_python_joins_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    registry.registered_games()  # every installed game loaded before the registry is copied
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    monkeypatch.setattr(registry, "_ALIASES", dict(registry._ALIASES))
    registry._add(PIG)
    assert [r.name for r in registered_games()][-1] == "pig"
    game: Any = find_game("quick(players=1)")
    assert str(game) == "pig(players=1,target=10)"


@pytest.mark.parametrize("text", ["9" * 19, "٣", "²", "1_000", "0x10"])
def test_a_whole_number_parameter_takes_ascii_digits_and_at_most_18(text: str) -> None:
    with pytest.raises(ParseError, match=r"target is a whole number of at most 18 digits"):
        PIG.game_type.parse_parameters({"target": text})
