"""``bluff replay`` reads actions by the notation's grammar (docs/rules/bluff.md §4): every
spelling the docs advertise replays, and a malformed line is told from an illegal one."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runarch_gen.cli import run
from runarch_gen.errors import InputError, ParseError
from runarch_gen.games import find_game
from runarch_gen.play.game import sample_chance
from runarch_gen.play.gamerecord import replay_record, write_record


def _record(game_text: str, seed: int) -> tuple[str, list[int]]:
    game = find_game(game_text)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(sample_chance(state, rng))
        else:
            state.apply(rng.choice(list(state.legal_actions())))
    return write_record(game, state), list(state.history())


def _respell(line: str) -> str:
    """Another spelling of a body line the notation reads: ``11x3``, ``4x*``, ``nevěřím``,
    ``SHOW 3,s``, upper case."""
    head, _, text = line.partition(" ")
    who, _, action = text.partition(" ")
    action = action.replace("×", "x").replace("★", "*")
    if action == "doubt":
        action = "nevěřím"
    elif action.startswith("show "):
        action = "SHOW " + action[5:].replace("*", "s")
    elif re.fullmatch(r"[0-9]+x.", action):
        action = action.upper()
    return f"{head} {who} {action}"


@pytest.mark.parametrize("game", ["bluff(players=3)", "bluff(players=4,reroll=on,dice=3)"])
def test_every_advertised_spelling_replays(game: str) -> None:
    text, history = _record(game, 5)
    lines = text.splitlines()
    respelled = [_respell(line) if re.match(r"[0-9]+\. p", line) else line for line in lines]
    assert respelled != lines
    replayed = replay_record("\n".join(respelled), find_game)
    assert list(replayed.state.history()) == history


def _first_bid_line(lines: list[str]) -> int:
    return next(i for i, line in enumerate(lines) if re.match(r"[0-9]+\. p[0-9] [0-9]+×", line))


def test_a_malformed_action_and_an_illegal_one_are_different_errors() -> None:
    text, _ = _record("bluff(players=2)", 7)
    lines = text.splitlines()
    at = _first_bid_line(lines)
    number, who, _ = lines[at].split(maxsplit=2)
    for bad, message in [
        ("11y3", r"'11y3' is malformed: expected a bid like 11×3"),
        ("3×9", r"'3×9' is malformed: a face is 1 to 5"),
        ("21x3", rf"'21x3' is not legal for {who} here: not a bid of the scale"),
        ("doubt", rf"'doubt' is not legal for {who} here: there is no bid to doubt yet"),
    ]:
        broken = [*lines]
        broken[at] = f"{number} {who} {bad}"
        with pytest.raises(ParseError, match=rf"r\.txt:{at + 1}: {message}"):
            replay_record("\n".join(broken), find_game, source="r.txt")


def test_replay_on_the_command_line_accepts_the_spellings(tmp_path: Path, capsys) -> None:
    text, _ = _record("bluff(players=2,dice=2)", 11)
    path = tmp_path / "game.txt"
    lines = [
        _respell(line) if re.match(r"[0-9]+\. p", line) else line for line in text.splitlines()
    ]
    path.write_text("\n".join(lines), "utf-8")
    assert run(["bluff", "replay", str(path)]) == 0
    assert "every one legal" in capsys.readouterr().out
    at = _first_bid_line(text.splitlines())
    number, who, _ = lines[at].split(maxsplit=2)
    lines[at] = f"{number} {who} 11 times 3"
    path.write_text("\n".join(lines), "utf-8")
    assert run(["bluff", "replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is malformed" in err and "game.txt" in err


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 40), st.text(max_size=40))
def test_any_line_replays_or_is_refused_with_one_error(cut: int, junk: str) -> None:
    text, _ = _record("bluff(players=3,reroll=on,dice=2)", 13)
    lines = text.splitlines()
    body = [i for i, line in enumerate(lines) if re.match(r"[0-9]+\. ", line)]
    at = body[min(cut, len(body) - 1)]
    number, who, _ = lines[at].split(maxsplit=2)
    lines[at] = f"{number} {who} {junk}"
    try:
        replay_record("\n".join(lines), find_game, source="f.txt")
    except InputError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("f.txt")
