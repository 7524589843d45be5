"""Malacca as its seed has it: the components' counts bound every table read, a useless defence
needs a defender, and the tragic hero's card is the player's choice ("může si … vzít")."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.cli import run
from runarch_gen.errors import InputError
from runarch_gen.malacca.bots import BOTS
from runarch_gen.malacca.engine import DECLINE, TAKE, MalaccaGame, MalaccaState, Phase
from runarch_gen.malacca.resolve import RoundInput, Seat, resolve_round
from runarch_gen.malacca.rules import SPECIAL_DECK, Card, MalaccaRules
from runarch_gen.malacca.script import read_round


def table(*cards: str, equipment: tuple[int, int, int] = (0, 0, 0)) -> RoundInput:
    seats = tuple(
        Seat(5, Card.parse(c), 0, Card.parse(c).choices[0] if Card.parse(c).role is None else None)
        for c in cards
    )
    seats = (Seat(5, seats[0].card, 0, seats[0].choice, None, equipment), *seats[1:])
    return RoundInput(7, 0, seats)


# -- M-27: the seed's deck bounds every table ------------------------------------------------


@pytest.mark.parametrize("card", sorted(c.label for c in SPECIAL_DECK))
def test_a_table_holds_at_most_the_special_cards_the_deck_has(card: str) -> None:
    count = SPECIAL_DECK[Card.parse(card)]
    resolve_round(table(*[card] * count, "trade"))  # the whole deck of that card: fine
    with pytest.raises(InputError, match=f"{count + 1} {card} cards on the table"):
        resolve_round(table(*[card] * (count + 1), "trade"))


def test_the_issue_tables_are_refused_five_better_attack_three_wait_cards() -> None:
    five = {
        "cargo": 4,
        "players": [
            {"money": 5, "card": "attack", "equipment": {"attack": 3}},
            {"money": 5, "card": "trade", "equipment": ["attack", "attack"]},
        ],
    }
    with pytest.raises(InputError, match="5 better attack equipment cards at the table"):
        read_round(json.dumps(five), "five.json")
    three = {"cargo": 4, "players": [{"money": 5, "card": "wait-ad", "choice": "attack"}] * 3}
    with pytest.raises(InputError, match="3 wait-ad cards on the table: the special deck has 2"):
        read_round(json.dumps(three), "three.json")


def test_basic_cards_are_every_players_own_and_never_run_out() -> None:
    resolve_round(RoundInput(7, 0, tuple(Seat(5, Card.ATTACK) for _ in range(8))))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_every_round_a_game_plays_is_a_table_the_components_can_make(data: st.DataObject) -> None:
    rules = MalaccaRules(
        players=data.draw(st.integers(2, 8)),
        characters=(),
        equipment=True,
        rounds=data.draw(st.integers(1, 12)),
    )
    state = MalaccaGame(rules).new_initial_state()
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    while not state.is_terminal():
        state.apply(rng.choice(list(state.legal_actions())))
        if state.last_round is not None:
            state.last_round[1].check_components()


# -- M-13: a useless defence needs a defender -------------------------------------------------


def test_nobody_defending_is_no_useless_defence() -> None:
    text = (
        '{"cargo":4,"players":[{"money":5,"card":"trade","stake":2},'
        '{"money":5,"card":"trade","stake":1}]}'
    )
    round_, _ = read_round(text, "issue.json")
    result = resolve_round(round_)
    assert not result.captured and not result.useless
    assert result.changes == (2, 1)


def test_a_defence_nobody_attacked_is_useless() -> None:
    result = resolve_round(table("trade", "defence"))
    assert result.useless and result.seats[1].cards == 0


def test_resolve_reports_useless_defence_only_with_a_defender(tmp_path: Path, capsys) -> None:
    path = tmp_path / "r.json"
    path.write_text(
        '{"cargo":4,"players":[{"money":5,"card":"trade","stake":2},'
        '{"money":5,"card":"trade","stake":1}]}'
    )
    assert run(["malacca", "resolve", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["useless_defence"] is False
    assert run(["malacca", "resolve", str(path)]) == 0
    assert "useless" not in capsys.readouterr().out


# -- M-12: the tragic hero may take a special card --------------------------------------------


def _hero_position(**options: object) -> MalaccaState:
    """Three players; p1 and p2 attack, p3 defends alone: the ship is captured."""
    state = MalaccaGame(MalaccaRules(players=3, **options)).new_initial_state()  # type: ignore[arg-type]
    for text in ("captain p1", "ship 7", "attack 0", "attack 0", "defence 1"):
        state.apply_text(text)
    return state


def test_the_tragic_hero_is_asked_and_may_take_the_card() -> None:
    state = _hero_position()
    assert state.phase is Phase.HERO and state.current_player() == 2
    assert list(state.legal_actions()) == [DECLINE, TAKE]
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["decline", "take"]
    deck = sum(state.deck)
    state.apply_text("take")
    state.apply(state.chance_outcomes()[0][0])  # the card drawn
    assert sum(state.hands[2]) == 1 and sum(state.deck) == deck - 1


def test_the_tragic_hero_may_decline_and_the_deck_stays_whole() -> None:
    state = _hero_position()
    deck = sum(state.deck)
    state.apply_text("decline")
    assert sum(state.hands[2]) == 0 and sum(state.deck) == deck
    assert state.round == 1 and state.phase is Phase.SHIP  # the next round began


def test_with_hero_take_the_card_is_drawn_without_asking() -> None:
    state = _hero_position(hero="take")
    assert state.phase is Phase.DRAW and state.is_chance_node()


def test_the_thinking_bots_take_the_card_and_the_random_bot_may_not() -> None:
    state = _hero_position()
    for name in ("morgan", "reader"):
        bot = BOTS[name](random.Random(0))
        assert bot.step(state.observation(2), state.legal_actions()) == TAKE
    chosen = {
        BOTS["random"](random.Random(seed)).step(state.observation(2), state.legal_actions())
        for seed in range(20)
    }
    assert chosen == {DECLINE, TAKE}


def test_resolve_says_the_tragic_heros_card_is_optional(tmp_path: Path, capsys) -> None:
    path = tmp_path / "hero.json"
    players = [{"money": 5, "card": "attack"}] * 2 + [{"money": 5, "card": "defence"}]
    path.write_text(json.dumps({"cargo": 7, "players": players}))
    assert run(["malacca", "resolve", str(path), "--json"]) == 0
    hero = json.loads(capsys.readouterr().out)["players"][2]
    assert hero["why_card"] == "tragic hero" and hero["card_optional"] is True
    assert run(["malacca", "resolve", str(path)]) == 0
    assert "may take a special card (tragic hero)" in capsys.readouterr().out


# -- bounded input ----------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["cargo", "money", "stake", "captain", "scrub"])
def test_a_five_thousand_digit_number_is_one_line_exit_2(
    tmp_path: Path, capsys, where: str
) -> None:
    big = "9" * 5000
    players = '[{"money":5,"card":"trade"},{"money":5,"card":"attack"}]'
    texts = {
        "cargo": f'{{"cargo":{big},"players":{players}}}',
        "money": f'{{"cargo":4,"players":[{{"money":{big},"card":"trade"}},'
        f'{{"money":5,"card":"attack"}}]}}',
        "stake": f'{{"cargo":4,"players":[{{"money":5,"card":"trade","stake":-{big}}},'
        f'{{"money":5,"card":"attack"}}]}}',
        "captain": f'{{"cargo":4,"captain":{big},"players":{players}}}',
        "scrub": f'{{"cargo":4,"rules":{{"scrub":{big}}},"players":{players}}}',
    }
    path = tmp_path / "big.json"
    path.write_text(texts[where])
    assert run(["malacca", "resolve", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "big.json" in err and "5000 digits" in err


NASTY = [
    "9" * 5000,
    "-" + "9" * 30,
    "1e999",
    "NaN",
    "Infinity",
    "[" * 400,
    "{" * 400,
    '"',
    "\x00",
    "",
]
ROUND = json.dumps(
    {
        "cargo": 7,
        "captain": 1,
        "rules": {"share": "even", "scrub": 3, "hero": "take"},
        "players": [
            {"name": "A", "money": 11, "card": "attack2", "stake": 3, "equipment": ["attack"]},
            {"money": 5, "card": "wait-dt", "choice": "trade", "character": "zheng"},
            {"money": 4, "card": "defence", "stake": 1, "equipment": {"defence": 4}},
        ],
    }
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, len(ROUND)), st.integers(0, 6), st.sampled_from(NASTY)),
        min_size=1,
        max_size=4,
    )
)
def test_a_mutated_round_file_reads_or_is_one_error(edits: list[tuple[int, int, str]]) -> None:
    text = ROUND
    for at, width, piece in edits:
        text = text[:at] + piece + text[at + width :]
    try:
        round_, _ = read_round(text, "r.json")
    except InputError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("r.json")
        return
    result = resolve_round(round_)
    assert sum(result.changes) == result.from_ship + result.from_bank - result.to_bank
