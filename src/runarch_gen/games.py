"""The games of the family, registered: RunArch and its sibling betting games.

Each game package registers itself when its ``register`` module is imported
(:mod:`runarch_gen.play.registry`); this module imports them, so that the command line, the
simulation runner and the conformance suite see every game. Nothing in ``play/`` or ``pnp/``
imports this module.

>>> [g.game_type.short_name for g in registered_games()][:1]
['runarch']
"""

from __future__ import annotations

import importlib
from importlib import resources
from pathlib import Path
from typing import Any

from runarch_gen.errors import InputError
from runarch_gen.play import registry
from runarch_gen.play.game import Game
from runarch_gen.play.registry import Registration

GAME_MODULES: tuple[str, ...] = (
    "runarch_gen.runarch.register",
    "runarch_gen.bluff.register",
    "runarch_gen.malacca.register",
    "runarch_gen.backgammon.register",
)
"""The modules that register the built-in games, in the order ``runarch-gen games`` lists them."""


def registered_games() -> tuple[Registration, ...]:
    """Every built-in game's registration, in the order of :data:`GAME_MODULES` (whichever
    module happened to be imported first), other registered games after them."""
    for module in GAME_MODULES:
        importlib.import_module(module)

    def place(registration: Registration) -> int:
        module = getattr(registration.factory, "__module__", "") or ""
        for index, name in enumerate(GAME_MODULES):
            if module.startswith(name.rsplit(".", 1)[0] + "."):
                return index
        return len(GAME_MODULES)

    return tuple(sorted(registry.registered_games(), key=place))


def find_registration(name: str) -> Registration:
    """A built-in game's registration by name or alias."""
    registered_games()
    return registry.find_registration(name)


def rules_document(name: str) -> str:
    """The rules document of a game as runarch-gen implements it (``docs/rules/NAME.md``): from
    the installed package (a wheel carries it as ``runarch_gen/rules/``), else the source tree.
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
    raise InputError(f"the rules document {file} is missing: reinstall runarch-gen")


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
    given_name, given = registry.parse_game_string(text or name, where)
    if find_registration(given_name) is not registration:
        raise InputError(f"{where}: {given_name!r} is not {registration.game_type.short_name}")
    if files:
        for key, text in list(given.items()):
            parameter = next((p for p in registration.game_type.parameters if p.name == key), None)
            if parameter is not None and parameter.from_file is not None:
                given[key] = parameter.from_file(text)
    return registration, registration.game_type.parse_parameters(given, where)


def find_game(text: str, where: str | None = None) -> Game[Any]:
    """The game a string names, e.g. ``runarch(variant=simple)`` or ``bluff(players=4)``."""
    registered_games()
    return registry.find_game(text, where)


__all__ = [
    "GAME_MODULES",
    "find_game",
    "find_registration",
    "game_values",
    "registered_games",
    "rules_document",
]
