"""Games are declared, then registered, then found by a string (OpenSpiel's ``GameType``,
``register_game`` and ``load_game``; python-chess's ``find_variant``).

A game package declares a :class:`GameType` — its short name (and aliases, a Czech name),
players, chance and information, and its :class:`Parameter` list with defaults — and calls
:func:`register_game` with a factory that turns parameter values into a :class:`~.game.Game`,
the bots that play it, and the games the conformance suite plays. The command line, the
simulation runner, the reports and the conformance suite read the declaration, never a game's
code. A game is then found by a string: ``bluff``, ``bluff(players=4)``,
``backgammon(cube=on,match=7)``.

Nothing here imports a game: :mod:`runarch_gen.games` imports the built-in game packages,
whose modules register themselves.

>>> spec = GameType(
...     short_name="coin", long_name="Coin", czech_name="Mince", min_players=1, max_players=1,
...     chance_mode=ChanceMode.EXPLICIT, information=Information.PERFECT,
...     parameters=(Parameter("flips", 3, "how many flips", minimum=1, maximum=9),),
... )
>>> spec.parse_parameters({"flips": "5"})
{'flips': 5}
>>> parse_game_string("backgammon(cube=on, match=7)")
('backgammon', {'cube': 'on', 'match': '7'})
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from runarch_gen.errors import InputError, ParseError
from runarch_gen.play.bot import Bot
from runarch_gen.play.game import ChanceMode, Game, Information

__all__ = [
    "BotFactory",
    "GameType",
    "Parameter",
    "Registration",
    "find_game",
    "find_registration",
    "parse_game_string",
    "register_game",
    "registered_games",
]

Value = bool | int | float | str
BotFactory = Callable[..., Bot[Any]]
"""``factory(rng)``: a bot with its own seeded generator."""

_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}
_NAME = re.compile(r"[a-z][a-z0-9_-]*\Z")
MAX_GAME_STRING = 1000
"""The longest game string read (longer ones are refused before parsing)."""


@dataclass(frozen=True, slots=True)
class Parameter:
    """One parameter of a game: its name, default (whose type is the parameter's type), a
    line of help, and the allowed values (``choices`` for text, ``minimum``/``maximum`` for
    numbers)."""

    name: str
    default: Value
    help: str
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    values: str = ""
    """Words for the allowed values, where ``choices`` and the bounds do not say it."""
    default_text: str = ""
    """Words for the default, where its value does not say it."""
    from_file: Callable[[str], str] | None = field(default=None, compare=False, repr=False)
    """For a parameter whose value may be a file the user names on the command line: the
    value as typed → the value to use (the file read into inline values). Game strings from
    anywhere else never read files."""

    @property
    def kind(self) -> str:
        """``bool``, ``int``, ``float`` or ``str``."""
        return type(self.default).__name__

    def parse(self, text: str, where: str) -> Value:
        """The value of ``text`` for this parameter; a :class:`ParseError` names ``where``."""
        raw = text.strip()
        value: Value
        if isinstance(self.default, bool):
            if raw.lower() in _TRUE:
                return True
            if raw.lower() in _FALSE:
                return False
            raise ParseError(f"{self.name} is on or off, not {raw[:40]!r}", source=where)
        if isinstance(self.default, int):
            if not re.fullmatch(r"[+-]?\d{1,18}", raw):
                raise ParseError(f"{self.name} is a whole number, not {raw[:40]!r}", source=where)
            value = int(raw)
        elif isinstance(self.default, float):
            try:
                value = float(raw)
            except ValueError:
                raise ParseError(
                    f"{self.name} is a number, not {raw[:40]!r}", source=where
                ) from None
            if not math.isfinite(value):
                raise ParseError(f"{self.name} must be a finite number", source=where)
        else:
            value = raw
            if self.choices and value.lower() not in self.choices:
                raise ParseError(
                    f"{self.name} is one of {', '.join(self.choices)}, not {raw[:40]!r}",
                    source=where,
                )
            return value.lower() if self.choices else value
        if self.minimum is not None and value < self.minimum:
            raise ParseError(f"{self.name} is at least {_num(self.minimum)}", source=where)
        if self.maximum is not None and value > self.maximum:
            raise ParseError(f"{self.name} is at most {_num(self.maximum)}", source=where)
        return value

    def describe(self) -> str:
        """``players: 2-6 (default 2) — how many players``"""
        if self.values:
            allowed = self.values
        elif self.choices:
            allowed = "|".join(self.choices)
        elif isinstance(self.default, bool):
            allowed = "on|off"
        elif self.minimum is not None or self.maximum is not None:
            low = _num(self.minimum) if self.minimum is not None else ""
            high = _num(self.maximum) if self.maximum is not None else ""
            allowed = f"{low}-{high}"
        else:
            allowed = self.kind
        default = self.default_text or format_value(self.default)
        return f"{self.name}: {allowed} (default {default}) — {self.help}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "type": self.kind, "default": self.default}
        if self.choices:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        out["help"] = self.help
        return out


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def format_value(value: Value) -> str:
    """A parameter value as a game string writes it (``on``/``off`` for flags)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


@dataclass(frozen=True, slots=True)
class GameType:
    """The declaration of a kind of game (OpenSpiel's ``GameType``).

    ``variants`` names parameter presets (``nackgammon`` → ``{"start": "nackgammon"}``) that a
    game string selects with ``variant=NAME`` when the game declares a ``variant`` parameter,
    and that ``runarch-gen games`` lists.
    """

    short_name: str
    long_name: str
    czech_name: str
    min_players: int
    max_players: int
    chance_mode: ChanceMode
    information: Information
    parameters: tuple[Parameter, ...] = ()
    variants: Mapping[str, str] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()

    def parameter(self, name: str) -> Parameter:
        for parameter in self.parameters:
            if parameter.name == name:
                return parameter
        known = ", ".join(p.name for p in self.parameters) or "none"
        raise ParseError(
            f"{self.short_name} has no parameter {name[:40]!r} (its parameters: {known})"
        )

    def parse_parameters(
        self, given: Mapping[str, str], where: str | None = None
    ) -> dict[str, Value]:
        """Every parameter's value: the defaults with ``given`` (texts) laid over them."""
        source = where or self.short_name
        values: dict[str, Value] = {p.name: p.default for p in self.parameters}
        for name, text in given.items():
            values[name] = self.parameter(name).parse(text, source)
        return values

    def game_string(self, values: Mapping[str, Value]) -> str:
        """The short string of ``values``: only what differs from the defaults.

        >>> GameType("x", "X", "X", 2, 2, ChanceMode.DETERMINISTIC, Information.PERFECT,
        ...          (Parameter("cube", True, "the cube"), Parameter("match", 0, "points"))
        ...          ).game_string({"cube": False, "match": 0})
        'x(cube=off)'
        """
        changed = [
            f"{p.name}={format_value(values[p.name])}"
            for p in self.parameters
            if p.name in values and values[p.name] != p.default
        ]
        return f"{self.short_name}({','.join(changed)})" if changed else self.short_name

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.short_name,
            "long_name": self.long_name,
            "czech_name": self.czech_name,
            "aliases": list(self.aliases),
            "players": {"min": self.min_players, "max": self.max_players},
            "chance": self.chance_mode.value,
            "information": self.information.value,
            "parameters": [p.to_json() for p in self.parameters],
            "variants": dict(self.variants),
        }


@dataclass(frozen=True, slots=True)
class Registration:
    """A registered game: its declaration, its factory, its bots and what the conformance
    suite plays (game strings, e.g. ``bluff(players=2)`` … ``bluff(players=6)``).

    For simulation reports a game may add ``statistics(state)`` — its own per-game figures by
    name (a number, a text, or a tuple of either with one value per side, such as each seat's
    character) — ``length(state)``, a game's length in ``length_unit`` (default: the actions
    taken, chance included), and ``first(state)``, the side that moved first (default 0), for
    the first player's edge. ``checks(values)`` lists the game's own static checks
    (:class:`~runarch_gen.play.verdict.Check` objects) for ``validate``, and
    ``suggestions(values, finding)`` the changes of parameters to try, smallest first, against
    a balance finding (:mod:`runarch_gen.play.balance`), for ``validate --suggest``.
    """

    game_type: GameType
    factory: Callable[[Mapping[str, Value]], Game[Any]]
    bots: Mapping[str, BotFactory]
    conformance: tuple[str, ...]
    rules_document: str | None = None
    statistics: Callable[[Any], Mapping[str, Any]] | None = None
    length: Callable[[Any], int] | None = None
    length_unit: str = "actions"
    first: Callable[[Any], int] | None = None
    checks: Callable[[Mapping[str, Value]], Sequence[Any]] | None = None
    suggestions: Callable[[Mapping[str, Value], Any], Sequence[Mapping[str, str]]] | None = None
    kit: Callable[[], Any] | None = None
    """The game's print-and-play kit: returns its :class:`~runarch_gen.pnp.kit.KitDefinition`
    (imported when first asked for); ``runarch-gen GAME kit`` and the workshop make kits with it."""

    def load(self, values: Mapping[str, Value]) -> Game[Any]:
        return self.factory(values)


_REGISTRY: dict[str, Registration] = {}
_ALIASES: dict[str, str] = {}


def register_game(
    game_type: GameType,
    factory: Callable[[Mapping[str, Value]], Game[Any]],
    *,
    bots: Mapping[str, BotFactory],
    conformance: Sequence[str],
    rules_document: str | None = None,
    statistics: Callable[[Any], Mapping[str, Any]] | None = None,
    length: Callable[[Any], int] | None = None,
    length_unit: str = "actions",
    first: Callable[[Any], int] | None = None,
    checks: Callable[[Mapping[str, Value]], Sequence[Any]] | None = None,
    suggestions: Callable[[Mapping[str, Value], Any], Sequence[Mapping[str, str]]] | None = None,
    kit: Callable[[], Any] | None = None,
) -> Registration:
    """Register a kind of game under its short name and aliases (a second registration of
    the same name replaces the first, so reloading a module is harmless)."""
    if not _NAME.match(game_type.short_name):
        raise ValueError(f"bad game name {game_type.short_name!r}")
    registration = Registration(
        game_type,
        factory,
        bots,
        tuple(conformance),
        rules_document,
        statistics,
        length,
        length_unit,
        first,
        checks,
        suggestions,
        kit,
    )
    _REGISTRY[game_type.short_name] = registration
    for alias in (game_type.short_name, *game_type.aliases):
        _ALIASES[alias.lower()] = game_type.short_name
    return registration


def registered_games() -> tuple[Registration, ...]:
    """Every registered game, in the order registered."""
    return tuple(_REGISTRY.values())


def find_registration(name: str) -> Registration:
    """The registration of ``name`` or one of its aliases (any case)."""
    short = _ALIASES.get(name.strip().lower())
    if short is None:
        known = ", ".join(_REGISTRY) or "none"
        raise InputError(f"unknown game {name.strip()[:40]!r}: expected one of {known}")
    return _REGISTRY[short]


_GAME_STRING = re.compile(r"\s*([A-Za-z][\w-]*)\s*(?:\((.*)\))?\s*\Z", re.DOTALL)


def parse_game_string(text: str, where: str | None = None) -> tuple[str, dict[str, str]]:
    """``NAME`` or ``NAME(key=value, …)`` split into the name and the texts of the values."""
    if len(text) > MAX_GAME_STRING:
        raise ParseError(f"a game string is at most {MAX_GAME_STRING} characters", source=where)
    match = _GAME_STRING.match(text)
    if match is None:
        raise ParseError(f"expected NAME or NAME(key=value, ...), not {text[:40]!r}", source=where)
    name, inner = match.group(1), match.group(2)
    values: dict[str, str] = {}
    if inner is not None and inner.strip():
        for item in inner.split(","):
            key, sep, value = item.partition("=")
            key = key.strip().lower()
            if not sep or not key:
                raise ParseError(f"expected key=value, not {item.strip()[:40]!r}", source=where)
            if key in values:
                raise ParseError(f"{key} is given twice", source=where)
            values[key] = value.strip()
    return name.lower(), values


def find_game(text: str, where: str | None = None) -> Game[Any]:
    """The game a string names: ``bluff``, ``bluff(players=4)``; defaults fill the rest."""
    name, given = parse_game_string(text, where)
    registration = find_registration(name)
    values = registration.game_type.parse_parameters(given, where)
    return registration.load(values)
