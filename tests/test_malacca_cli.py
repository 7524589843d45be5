"""``runarch-gen malacca``: resolve (rounds from JSON, for scripts), game, simulate, rules; the
round reader fuzzed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.cli import run
from runarch_gen.errors import InputError
from runarch_gen.malacca.script import read_round

EXAMPLE_2 = {
    "cargo": 7,
    "captain": 0,
    "players": [
        {"name": "Anna", "money": 11, "card": "attack", "stake": 3},
        {"money": 5, "card": "trade", "stake": 4},
        {"money": 5, "card": "defence", "stake": 1},
        {"money": 5, "card": "defence"},
    ],
}


def write(tmp_path: Path, data: object, name: str = "round.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_resolve_prints_each_players_change_and_its_parts(tmp_path, capsys) -> None:
    assert run(["malacca", "resolve", write(tmp_path, EXAMPLE_2)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "ship 7: attack 1 against defence 2 — defended"
    assert out[2].split()[:6] == ["Anna", "attack", "3", "11", "-7", "4"]
    assert "penalty -4" in out[2]
    assert "draws a special card (defence)" in out[4]


def test_resolve_json_gives_the_parts_the_cards_and_the_bank(tmp_path, capsys) -> None:
    assert run(["malacca", "resolve", write(tmp_path, EXAMPLE_2), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["captured"] is False
    assert [p["change"] for p in report["players"]] == [-7, 4, 2, 1]
    assert report["players"][0]["parts"]["penalty"] == -4
    assert report["players"][2]["parts"]["share"] == 2
    assert [p["special_cards"] for p in report["players"]] == [0, 0, 1, 1]
    assert (report["from_ship"], report["from_bank"], report["to_bank"]) == (0, 4, 4)


def test_resolve_reads_characters_equipment_wait_choices_and_options(tmp_path, capsys) -> None:
    data = {
        "cargo": 5,
        "captain": 1,
        "rules": {"share": "even", "zheng_stake": True},
        "players": [
            {"money": 6, "card": "wait-ad", "stake": 2, "choice": "attack", "character": "zheng"},
            {"money": 3, "card": "defence", "character": "sayyida", "equipment": ["defence"]},
            {"money": 9, "card": "attack2", "stake": 1, "equipment": {"attack": 1}},
        ],
    }
    assert run(["malacca", "resolve", write(tmp_path, data), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["captured"] is True and (report["attack"], report["defence"]) == (3, 1)
    zheng, sayyida, attacker = report["players"]
    assert zheng["role"] == "attack" and zheng["change"] == 2  # 5 silver, 2 each, 1 to the bank
    assert sayyida["special_cards"] == 1 and sayyida["looks_at"] == 2  # a tragic hero
    assert sayyida["why_card"] == "tragic hero"
    assert attacker["change"] == 2 + 3  # and better attack
    assert report["to_bank"] == 1


def test_resolve_reads_standard_input(monkeypatch, capsys) -> None:
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(EXAMPLE_2).encode())))
    assert run(["malacca", "resolve", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"][1]["change"] == 4


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("{", "round.json:1:2: not JSON"),
        ([], "a JSON object"),
        ({"cargo": 3}, "needs 'cargo' and 'players'"),
        ({"cargo": -1, "players": []}, "cargo: 0 to"),
        ({"cargo": 3, "players": [{"money": 1, "card": "trade"}]}, "2 to 8 players"),
        (
            {
                "cargo": 3,
                "players": [
                    {"money": 1, "card": "trade", "stake": 2},
                    {"money": 0, "card": "attack"},
                ],
            },
            r"players\[0\]\.stake: 0 to 1",
        ),
        (
            {
                "cargo": 3,
                "players": [{"money": 1, "card": "sword"}, {"money": 0, "card": "attack"}],
            },
            r"players\[0\]: a card is one of",
        ),
        (
            {
                "cargo": 3,
                "players": [{"money": 1, "card": "wait-ad"}, {"money": 0, "card": "attack"}],
            },
            "wait-ad chooses attack or defence",
        ),
        (
            {"cargo": 3, "colour": 1, "players": []},
            "unknown field 'colour'",
        ),
        (
            {"cargo": 3, "captain": 5, "players": [{"money": 1, "card": "trade"}] * 2},
            "captain: 0 to 1",
        ),
        (
            {
                "cargo": 3,
                "players": [{"money": 1, "card": "trade", "character": "zheng"}] * 2,
            },
            "each character is at most one player's",
        ),
    ],
)
def test_bad_rounds_fail_with_one_line_naming_the_file_and_field(
    tmp_path, capsys, data: object, message: str
) -> None:
    assert run(["malacca", "resolve", write(tmp_path, data)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "round.json" in err
    import re

    assert re.search(message, err), err


def test_a_missing_file_is_named(tmp_path, capsys) -> None:
    assert run(["malacca", "resolve", str(tmp_path / "none.json")]) == 2
    assert "none.json: no such file" in capsys.readouterr().err


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 50) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELD = st.sampled_from(["money", "card", "stake", "choice", "character", "equipment", "name"])
PLAYER = st.dictionaries(FIELD, JSONISH | st.sampled_from(["trade", "wait-dt", "zheng", "attack"]))


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(max_size=60),
        JSONISH.map(json.dumps),
        st.fixed_dictionaries(
            {"cargo": JSONISH, "players": st.lists(PLAYER, max_size=9)},
            optional={"captain": JSONISH, "rules": JSONISH},
        ).map(json.dumps),
    )
)
def test_the_round_reader_fails_only_with_an_input_error(text: str) -> None:
    try:
        read_round(text, "fuzz.json")
    except InputError as exc:
        assert str(exc).startswith("fuzz.json")


def test_game_prints_a_record_and_the_same_seed_gives_the_same_bytes(capsys) -> None:
    args = ["malacca", "game", "--rules", "players=4,characters=random,equipment=on"]
    assert run([*args, "--bots", "morgan,random", "--seed", "5"]) == 0
    first = capsys.readouterr().out
    assert run([*args, "--bots", "morgan,random", "--seed", "5"]) == 0
    assert capsys.readouterr().out == first
    assert first.count("round ") == 12 and "final money" in first
    assert run([*args, "--bots", "morgan", "--seed", "5", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert len(record["rounds"]) == 12 and len(record["money"]) == 4


def test_game_refuses_unknown_bots(capsys) -> None:
    assert run(["malacca", "game", "--bots", "blackbeard"]) == 2
    assert "unknown bot 'blackbeard'" in capsys.readouterr().err


def test_simulate_reports_win_rates_by_character_and_position(capsys) -> None:
    args = ["malacca", "simulate", "-n", "24", "--seed", "2", "-j", "1", "--bots", "morgan"]
    assert run([*args, "--rules", "players=5,characters=random,equipment=on", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 24
    by_value = report["wins"]["by_value"]
    assert sum(row["sides"] for row in by_value["character"].values()) == 24 * 5
    assert set(by_value["position"]) == {f"captain+{i}" for i in range(5)}
    assert "ships captured" in report["statistics"]["numbers"]


def test_rules_prints_the_rules_document(capsys) -> None:
    assert run(["malacca", "rules"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("# Malacca") and "[M-13]" in text
