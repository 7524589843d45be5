"""Fuzzing every reader with mutated versions of files the tool itself writes.

Each reader gets documents the tool wrote (a board in text, JSON and JSON Lines; a deck in JSON
and CSV; a game record; a rules string; token and condition sets; a tally; a sweep file; a kit
manifest), mutated by hypothesis: spans replaced with troublesome text (huge numbers, deep
nesting, separators only, superscript digits, U+2028, NULs, quotes), lines dropped or doubled.
Whatever the input, the reader either returns or raises the package's own error
(:class:`~runarch_gen.errors.RunArchError`, which the command line prints as one line with exit
code 2) — never another exception. A slice of the same inputs goes through the real command
line, asserting the exit code, one line on stderr, no traceback and nothing written.

The cases that once crashed are kept as files in ``tests/fuzz_corpus/`` and run every time.
"""

from __future__ import annotations

import functools
import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runarch_gen.errors import RunArchError

CORPUS = Path(__file__).parent / "fuzz_corpus"

NASTY = [
    "9" * 5000,
    "99999999999999999999",
    "-1",
    "0",
    "1e999",
    "NaN",
    "²",
    "\u2028",
    "\x00",
    ",,,,",
    ";;;;",
    "[" * 400,
    "{" * 400,
    '"',
    "'",
    "\\",
    "(",
    ")",
    "=",
    "|",
    "·",
    "\n",
    "\r\n",
    " ",
    "",
    "..",
    "/etc/passwd",
    "sample(30000000)",
    "ž",
    "true",
    "null",
    "[]",
    "{}",
    "#",
    "*",
]


@functools.cache
def documents() -> dict[str, str]:
    """Files as the tool writes them, one per reader."""
    from runarch_gen.runarch.boards.io import format_board, format_boards
    from runarch_gen.runarch.decks.io import deck_to_csv, deck_to_json
    from runarch_gen.runarch.engine.sample import sample_board, sample_deck
    from tests.test_record import played

    board, deck = sample_board(), sample_deck(40)
    return {
        "board.txt": format_board(board, "text"),
        "board.json": format_board(board, "json"),
        "boards.jsonl": format_boards([board, board], "jsonl"),
        "deck.json": deck_to_json(deck),
        "deck.csv": deck_to_csv(deck),
        "record.txt": played(stall=12),
        "rules": "complex(deal=4,match_bonus=line,tokens=D5/6 X7 F9 N11,conditions=1·1·1|total 5)",
        "tokens.toml": "[tokens]\nD = [5, 6, 7]\nX = [7, 8, 9]\nF = [9, 10, 11]\nN = [11, 12]\n",
        "conditions.toml": 'conditions = ["1·1·1", "2·1·0 any order", "*·3·*", "total 5"]\n',
        "tally.json": json.dumps(
            {
                "rules": "complex(archive_order=article)",
                "best": 13,
                "opponent_best": 11,
                "archives": [["0B", "6B", "6R"], 2, 5],
                "bets": [
                    {"token": "gold", "archive": "left", "cards": 3},
                    {"token": "silver", "goal": "red>=2", "reward": 4},
                ],
                "secret_goal": {"goal": "colours>=4", "reward": 3},
            }
        ),
        "sweep.toml": (
            'game = "runarch(set=sample)"\ngames = 2\nbots = ["random"]\n'
            '[grid]\nvariant = ["simple", "complex"]\n'
        ),
        "game": "runarch(variant=classic,deal=4,set=sample)",
    }


def _record(text: str) -> Any:
    from runarch_gen.runarch.engine.record import replay

    return replay(text, source="record.txt")


def _tally(text: str) -> Any:
    from runarch_gen.runarch.engine.tally import tally_from_json

    return tally_from_json(text, source="tally.json")


def _sweep(text: str) -> Any:
    from runarch_gen.play.sweep import parse_sweep

    return parse_sweep(text, "sweep.toml")


def _game(text: str) -> Any:
    from runarch_gen.games import find_game

    return find_game(text, "--rules")


def _boards(text: str) -> Any:
    from runarch_gen.runarch.boards.io import parse_boards

    return parse_boards(text, source="boards")


def _deck(text: str) -> Any:
    from runarch_gen.runarch.decks.io import parse_deck

    return parse_deck(text, source="deck")


def _rules(text: str) -> Any:
    from runarch_gen.runarch.rules import parse_rules

    return parse_rules(text, source="--rules")


def _tokens(text: str) -> Any:
    from runarch_gen.runarch.engine.tokens import parse_tokens

    return parse_tokens(text, source="tokens.toml")


def _conditions(text: str) -> Any:
    from runarch_gen.runarch.engine.conditions import parse_condition_set

    return parse_condition_set(text, source="conditions.toml")


READERS: dict[str, Callable[[str], Any]] = {
    "board.txt": _boards,
    "board.json": _boards,
    "boards.jsonl": _boards,
    "deck.json": _deck,
    "deck.csv": _deck,
    "record.txt": _record,
    "rules": _rules,
    "tokens.toml": _tokens,
    "conditions.toml": _conditions,
    "tally.json": _tally,
    "sweep.toml": _sweep,
    "game": _game,
}


@st.composite
def mutated(draw: st.DrawFn, kind: str) -> str:
    text = documents()[kind]
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    for _ in range(draw(st.integers(1, 4))):
        choice = rng.random()
        lines = text.split("\n")
        if choice < 0.6 and text:
            start = rng.randrange(len(text))
            end = min(len(text), start + rng.choice([0, 1, 2, 5, 20]))
            text = text[:start] + rng.choice(NASTY) + text[end:]
        elif choice < 0.75 and len(lines) > 1:
            del lines[rng.randrange(len(lines))]
            text = "\n".join(lines)
        elif choice < 0.9 and lines:
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
            text = "\n".join(lines)
        else:
            text = text[: rng.randrange(len(text) + 1)]
    return text


def assert_reads_or_refuses(kind: str, text: str) -> None:
    try:
        READERS[kind](text)
    except RunArchError as error:
        message = str(error)
        assert "\n" not in message.strip() or kind == "never", message
        assert len(message) < 400, message


@pytest.mark.parametrize("kind", sorted(READERS))
@settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_every_reader_reads_or_refuses_mutated_input(kind: str, data: st.DataObject) -> None:
    assert_reads_or_refuses(kind, data.draw(mutated(kind)))


def corpus_cases() -> list[tuple[str, Path]]:
    return [
        (path.name.split("--")[0], path)
        for path in sorted(CORPUS.iterdir())
        if "--" in path.name and path.name.split("--")[0] in READERS
    ]


@pytest.mark.parametrize(("kind", "path"), corpus_cases(), ids=lambda v: getattr(v, "name", v))
def test_corpus_of_inputs_that_once_crashed(kind: str, path: Path) -> None:
    assert_reads_or_refuses(kind, path.read_text("utf-8"))


def _command(kind: str, path: Path) -> list[str] | None:
    if kind.startswith(("board", "deck")):
        return ["check", str(path)]
    if kind == "record.txt":
        return ["replay", str(path)]
    if kind == "tally.json":
        return ["tally", str(path)]
    if kind == "sweep.toml":
        return ["sweep", str(path), "--workers", "1"]
    if kind in ("tokens.toml", "conditions.toml"):
        option = "--" + kind.split(".", maxsplit=1)[0]
        return ["kit", "--seed", "1", option, str(path), "--only", "rules", "--out", "out"]
    if kind == "rules":
        return ["simulate", "--variant", path.read_text("utf-8"), "--games", "1", "--workers", "1"]
    return None


@pytest.mark.parametrize(("kind", "path"), corpus_cases(), ids=lambda v: getattr(v, "name", v))
def test_the_command_line_gives_one_line_and_writes_nothing(
    kind: str, path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    from runarch_gen.cli import run

    args = _command(kind, path)
    if args is None:
        pytest.skip(f"{kind} has no command of its own")
    monkeypatch.chdir(tmp_path)
    code = run(args)
    err = capsys.readouterr().err
    assert code in (0, 1, 2), err
    if code == 2:
        assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "kind", ["board.txt", "boards.jsonl", "deck.csv", "deck.json", "record.txt"]
)
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_mutated_files_through_the_command_line(
    kind: str, data: st.DataObject, capsys: pytest.CaptureFixture[str]
) -> None:
    import tempfile

    from runarch_gen.cli import run

    text = data.draw(mutated(kind))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / kind
        path.write_text(text, encoding="utf-8")
        args = _command(kind, path)
        assert args is not None
        capsys.readouterr()
        code = run(args)
        err = capsys.readouterr().err
        assert code in (0, 1, 2) and "Traceback" not in err
        if code == 2:
            assert len(err.strip().splitlines()) == 1, err
        assert sorted(p.name for p in Path(folder).iterdir()) == [kind]


# -- the workshop's forms: every field of every job, whatever a client sends ---------------------

_JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from(NASTY)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
_FORM_FIELDS = {
    "deck": ["cards", "seed", "calibrate", "calibrate_games", "lang"],
    "kit": [
        "seed",
        "paper",
        "lang",
        "bleed",
        "duplex",
        "duplex_offset",
        "print_friendly",
        "only",
        "validate",
        "board",
        "deck",
    ],
    "playtest": ["game", "rules", "bots", "games", "seed"],
}


@pytest.mark.parametrize("kind", sorted(_FORM_FIELDS))
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_job_form_accepts_or_refuses_in_one_line(kind: str, data: st.DataObject) -> None:
    """A form either becomes a job's options (everything the job needs, checked) or is refused
    with the package's own error, whose message is one line; never another exception."""
    from runarch_gen.web.app import JOB_FORMS

    names = data.draw(st.lists(st.sampled_from(_FORM_FIELDS[kind]), max_size=4, unique=True))
    body = {name: data.draw(_JSON_VALUES) for name in names}
    try:
        options = JOB_FORMS[kind](body)
    except RunArchError as exc:
        assert "\n" not in str(exc).strip()
        return
    assert isinstance(options["seed"], int) and 0 <= options["seed"] < 2**63
    json.dumps(options)  # what the worker reads back
