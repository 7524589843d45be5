"""The games of the family: the registry's lookups, and what the command line and the web
need around them (a game's rules document, the parameter values of a ``--rules`` option).

The games themselves are found through the entry-point group ``runarch_gen.games``
(:mod:`runarch_gen.play.registry`): the four built-in games are declared in this package's
``pyproject.toml`` like any plug-in. Nothing in ``play/`` or ``pnp/`` imports this module.

>>> [g.game_type.short_name for g in registered_games()]
['runarch', 'bluff', 'malacca', 'backgammon']
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path
from typing import Any

from runarch_gen.errors import InputError
from runarch_gen.play import registry
from runarch_gen.play.registry import (
    Registration,
    find_game,
    find_registration,
    registered_games,
)


def rules_document(name: str) -> str:
    """The rules document of a game as runarch-gen implements it: a built-in game's
    ``docs/rules/NAME.md`` from the installed package (a wheel carries it as
    ``runarch_gen/rules/``) or the source tree; a plug-in's beside the module of its game.
    """
    registration = find_registration(name)
    file = registration.rules_document
    if file is None:
        raise InputError(f"{registration.game_type.short_name} has no rules document")
    installed = resources.files("runarch_gen") / "rules" / file
    if installed.is_file():
        return installed.read_text("utf-8")
    source = Path(__file__).resolve().parents[2] / "docs" / "rules" / file
    if source.is_file():
        return source.read_text("utf-8")
    module = sys.modules.get(registration.module)
    beside = Path(module.__file__).parent / file if module and module.__file__ else None
    if beside is not None and beside.is_file():
        return beside.read_text("utf-8")
    raise InputError(f"the rules document {file} is missing: reinstall the game's package")


def game_values(
    name: str, rules: str, where: str = "--rules", *, files: bool = False
) -> tuple[Registration, dict[str, Any]]:
    """The registration of game ``name`` and the parameter values of ``rules``: a game string
    of this game (``bluff(players=4)``) or only its parameters (``players=4``). With
    ``files`` (the user typed ``rules`` on the command line) a parameter that takes a file
    (``Parameter.from_file``) has it read into values.

    >>> game_values("runarch", "variant=simple")[1]["variant"]
    'simple'
    """
    registration = find_registration(name)
    text = rules.strip()
    if "=" in text and "(" not in text:
        text = f"{name}({text})"
    named, given = registry.read_game_string(text or name, where)
    if named is not registration:
        given_name = registry.parse_game_string(text, where)[0]
        raise InputError(f"{where}: {given_name!r} is not {registration.name}")
    if files:
        for key, value in list(given.items()):
            parameter = next((p for p in registration.game_type.parameters if p.name == key), None)
            if parameter is not None and parameter.from_file is not None:
                given[key] = parameter.from_file(value)
    return registration, registration.game_type.parse_parameters(given, where)


__all__ = [
    "find_game",
    "find_registration",
    "game_values",
    "registered_games",
    "rules_document",
]
