"""Generic game records (play/gamerecord.py): every action, chance included, replays with no
seed; a record that does not fit its game is refused naming the line; the reader is fuzzed."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runarch_gen.cli import run
from runarch_gen.errors import InputError, ParseError
from runarch_gen.games import find_game
from runarch_gen.play.gamerecord import replay_record, write_record

GAMES = ("bluff(players=2)", "bluff(players=4,reroll=on)", "malacca(players=3)", "malacca")


def random_game(text: str, seed: int) -> tuple[object, object]:
    game = find_game(text)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(list(state.legal_actions())))
    return game, state


@pytest.mark.parametrize("text", GAMES)
def test_a_record_replays_to_the_same_game(text: str) -> None:
    for seed in range(3):
        game, state = random_game(text, seed)
        record = write_record(game, state, tags=[("Seed", str(seed))])  # type: ignore[arg-type]
        replayed = replay_record(record, find_game)
        assert list(replayed.state.history()) == list(state.history())  # type: ignore[attr-defined]
        assert replayed.state.outcome() == state.outcome()  # type: ignore[attr-defined]
        assert replayed.actions == len(state.history())  # type: ignore[attr-defined]
        assert replayed.tags["Seed"] == str(seed)


def test_a_wrong_line_is_named_with_what_was_legal() -> None:
    game, state = random_game("bluff(players=2)", 1)
    lines = write_record(game, state).splitlines()  # type: ignore[arg-type]
    first_bid = next(i for i, line in enumerate(lines) if ". p" in line)
    number = lines[first_bid].split(".")[0]
    who = lines[first_bid].split()[1]
    bad = [*lines]
    bad[first_bid] = f"{number}. {who} 99×★"
    with pytest.raises(ParseError, match=rf"r.txt:{first_bid + 1}: '99×★' is not legal"):
        replay_record("\n".join(bad), find_game, source="r.txt")
    other = "p2" if who == "p1" else "p1"
    bad[first_bid] = f"{number}. {other} {lines[first_bid].split(maxsplit=2)[2]}"
    with pytest.raises(ParseError, match=f"{other} acts here, but it is {who}'s turn"):
        replay_record("\n".join(bad), find_game)


def test_the_result_tag_must_be_what_the_actions_give() -> None:
    game, state = random_game("malacca(players=3)", 2)
    text = write_record(game, state)  # type: ignore[arg-type]
    result = state.outcome().result()  # type: ignore[attr-defined]
    wrong = "1-0-0" if result != "1-0-0" else "0-1-0"
    with pytest.raises(ParseError, match=f"says {wrong}"):
        replay_record(text.replace(f'[Result "{result}"]', f'[Result "{wrong}"]'), find_game)


def test_a_record_names_no_file_and_no_sampled_game(tmp_path: Path) -> None:
    secret = tmp_path / "scale.txt"
    secret.write_text("1\n*1\n2\n")
    with pytest.raises(ParseError, match="only on the command line"):
        replay_record(f'[Game "bluff(scale={secret})"]\n\n', find_game)
    with pytest.raises(ParseError, match="format of their own"):
        replay_record('[Game "runarch(variant=simple)"]\n\n', find_game)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mangled_records_are_refused_cleanly(data: st.DataObject) -> None:
    game, state = random_game("bluff(players=3)", 5)
    text = write_record(game, state)  # type: ignore[arg-type]
    at = data.draw(st.integers(0, len(text)))
    cut = data.draw(st.integers(0, 20))
    junk = data.draw(st.text(max_size=12))
    mangled = text[:at] + junk + text[at + cut :]
    try:
        replay_record(mangled, find_game, source="m.txt")
    except InputError as exc:
        assert "\n" not in str(exc)


def test_record_and_replay_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "g.rec"
    args = ["bluff", "record", "--rules", "players=3", "--bots", "odds", "--seed", "4"]
    assert run([*args, "-o", str(out)]) == 0
    assert run([*args]) == 0
    assert capsys.readouterr().out == out.read_text()  # same seed, same record
    assert run(["bluff", "replay", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("bluff(players=3): ") and "every one legal" in lines[0]
    assert run(["malacca", "replay", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a record of bluff, not of malacca" in err
