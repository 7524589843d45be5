"""Options mean the same in every command of every game: ``-o`` is always ``--output``, ``-n``
always says how many (games, boards, cards), ``-j`` always ``--workers``, and every command
that plays a game takes its rules string as ``--rules``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import typer

import runarch_gen.cli  # noqa: F401  (registers every command)
from runarch_gen.cli._app import app

HOW_MANY = {"--games", "--count", "--cards"}


def commands() -> Iterator[tuple[str, Any]]:
    def walk(command: Any, path: list[str]) -> Iterator[tuple[str, Any]]:
        if hasattr(command, "commands"):
            # the games' groups are built when asked for: list them as --help does
            for name in command.list_commands(None):
                yield from walk(command.get_command(None, name), [*path, name])
        else:
            yield " ".join(path), command

    yield from walk(typer.main.get_command(app), [])


def options(command: Any) -> list[list[str]]:
    return [
        list(p.opts) + list(p.secondary_opts)
        for p in command.params
        if getattr(p, "param_type_name", "") == "option"
    ]


def test_short_options_have_one_meaning_everywhere() -> None:
    seen = 0
    for path, command in commands():
        for names in options(command):
            longs = {n for n in names if n.startswith("--")}
            if "-o" in names:
                assert "--output" in longs, (path, names)
            if "-n" in names:
                assert longs & HOW_MANY, (path, names)
            if "-j" in names:
                assert longs == {"--workers"}, (path, names)
            seen += 1
    assert seen > 100  # every command was walked


def test_every_output_file_or_folder_is_named_output() -> None:
    for path, command in commands():
        for names in options(command):
            if "--out" in names:  # an alias, or RunArch's kit's parent folder (before --name)
                parent = path.split()[-1] == "kit" and names == ["--out"]
                assert parent or ("--output" in names and "-o" in names), (path, names)


def test_every_command_that_plays_takes_a_rules_string_as_rules() -> None:
    checked = []
    for path, command in commands():
        if path.split()[-1] in ("simulate", "validate"):
            flat = {n for names in options(command) for n in names}
            assert "--rules" in flat, path
            checked.append(path)
    assert {"simulate", "validate", "bluff simulate", "malacca validate"} <= set(checked)
