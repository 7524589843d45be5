"""Games are declared, then registered, then found by a string (OpenSpiel's ``GameType``,
``register_game`` and ``load_game``; python-chess's ``find_variant``).

A game's :class:`~.game.Game` class carries its :class:`GameType` — short name (and aliases, a
Czech name), players, chance and information, its :class:`~.parameters.Parameter` list (derived
from the fields of its rules dataclass, :mod:`.parameters`) and its named variants (parameter
presets). :func:`register_game` reads the type off the class and records the bots that play the
game, the default one, and the games the conformance suite plays. The command line, the
simulation runner, the sweeps, the reports, the web pages and the conformance suite read the
registration, never a game's code. A game is then found by a string: ``bluff``,
``bluff(players=4)``, ``backgammon(cube=on,match=7)``, a variant's name (``nackgammon``) or a
preset (``bluff(variant=original)``).

**Games are plug-ins.** Every game, the built-in ones included, is found through the entry-point
group ``runarch_gen.games`` (:data:`ENTRY_POINTS`): a package declares
``[project.entry-points."runarch_gen.games"] NAME = "package.module:REGISTRATION"`` and, once
installed, its game is listed by ``runarch-gen games``, gets its command group, and can be
simulated, validated, swept and played on the web. Entry points are loaded on first use, one
at a time where a name says which; nothing here imports a game.

>>> spec = GameType(
...     short_name="coin", long_name="Coin", czech_name="Mince", min_players=1, max_players=1,
...     chance_mode=ChanceMode.EXPLICIT, information=Information.PERFECT,
...     parameters=(Parameter("flips", 3, "how many flips", minimum=1, maximum=9),),
...     variants={"short": {"flips": "1"}},
... )
>>> spec.parse_parameters({"flips": "5"}), spec.parse_parameters({"variant": "short"})
({'flips': 5}, {'flips': 1})
>>> parse_game_string("backgammon(cube=on, match=7)")
('backgammon', {'cube': 'on', 'match': '7'})
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from runarch_gen.errors import InputError, ParseError
from runarch_gen.play.bot import BotFactory, RandomBot
from runarch_gen.play.game import ChanceMode, Game, Information
from runarch_gen.play.parameters import Parameter, Value, format_value, rules_of

if TYPE_CHECKING:
    from importlib import metadata

__all__ = [
    "ENTRY_POINTS",
    "BotFactory",
    "BotTable",
    "GameType",
    "Parameter",
    "Registration",
    "RulesFactory",
    "Value",
    "find_game",
    "find_registration",
    "format_value",
    "parse_game_string",
    "plugin_errors",
    "preset_parameter",
    "read_game_string",
    "register_game",
    "registered_games",
    "resolve_game_string",
]

ENTRY_POINTS = "runarch_gen.games"
"""The entry-point group through which games are found; each entry point names a
:class:`Registration` (``package.module:REGISTRATION``), its name is the game's short name."""

_NAME = re.compile(r"[a-z][a-z0-9_-]*\Z")
MAX_GAME_STRING = 1000
"""The longest game string read (longer ones are refused before parsing)."""

Preset = Mapping[str, str]
"""A variant: parameter texts laid over the defaults (``{"variant": "nackgammon"}``)."""


@dataclass(frozen=True, slots=True)
class GameType:
    """The declaration of a kind of game (OpenSpiel's ``GameType``).

    ``rules`` is the game's rules dataclass, whose fields declare its parameters
    (:mod:`.parameters`). ``variants`` names parameter presets (``nackgammon`` →
    ``{"variant": "nackgammon"}``, ``original`` → ``{"exact": "all", "opener": "loser"}``): a
    variant's name is a game string of its own (``nackgammon``, ``classic(deal=4)``), and a
    game string selects one with ``variant=NAME`` — the parameters given beside it win.
    """

    short_name: str
    long_name: str
    czech_name: str
    min_players: int
    max_players: int
    chance_mode: ChanceMode
    information: Information
    parameters: tuple[Parameter, ...] = ()
    variants: Mapping[str, Preset] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()
    rules: type | None = None

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
        """Every parameter's value: the defaults, a variant's preset named by ``variant=``
        over them, and ``given`` (texts) over both."""
        source = where or self.short_name
        values: dict[str, Value] = {p.name: p.default for p in self.parameters}
        preset = self.variants.get(str(given.get("variant", "")).strip().lower())
        for name, text in {**(preset or {}), **given}.items():
            if name == "variant" and preset is not None and name not in values:
                continue  # a preset named where the game has no parameter of that name
            values[name] = self.parameter(name).parse(text, source)
        return values

    def rules_of(self, values: Mapping[str, Any]) -> Any:
        """The rules (an instance of :attr:`rules`) of parameter ``values``: defaults for the
        missing ones, and the preset of a ``variant`` that names one under those given."""
        preset = self.variants.get(str(values.get("variant", "")).strip().lower(), {})
        under = {
            key: self.parameter(key).parse(text, self.short_name) for key, text in preset.items()
        }
        if self.rules is None:
            raise TypeError(f"{self.short_name} declares no rules dataclass")
        return rules_of(self.rules, {**under, **values})

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

    def variant_string(self, name: str) -> str:
        """The game string of variant ``name``: its preset written out (``bluff(exact=all)``,
        ``backgammon(variant=nackgammon)``)."""
        preset = self.variants[name]
        inner = ",".join(f"{key}={text}" for key, text in preset.items())
        return f"{self.short_name}({inner})" if inner else self.short_name

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
            "variants": {name: self.variant_string(name) for name in self.variants},
        }


def preset_parameter(
    variants: Mapping[str, Preset], default: str, help: str = "a preset of the options below"
) -> Parameter:
    """The ``variant`` parameter of a game whose variants are presets of its other parameters
    (not a rules field of its own): ``default`` (no preset) or a variant's name. Its help lists
    what each preset sets.

    >>> preset_parameter({"fast": {"rounds": "3"}}, "seed").describe()
    'variant: seed|fast (default seed) — a preset of the options below: fast (rounds=3)'
    """
    listed = ", ".join(
        f"{name} ({', '.join(f'{k}={v}' for k, v in preset.items())})"
        for name, preset in variants.items()
    )
    return Parameter("variant", default, f"{help}: {listed}", choices=(default, *variants))


@dataclass(frozen=True, slots=True)
class Imported:
    """A callable that returns the object at ``"package.module:attribute"``, imported when first
    called (a registration's ``kit`` hook named by its path)."""

    path: str

    def __call__(self) -> Any:
        module, _, attribute = self.path.partition(":")
        return getattr(importlib.import_module(module), attribute)


class BotTable(Mapping[str, BotFactory]):
    """A game's bots named by the mapping at ``"package.module:attribute"``, imported when first
    used — so listing a game, or its command group's help, does not load its bots (and what
    they import). A table without a ``random`` bot gets the uniform one under that name."""

    __slots__ = ("_bots", "path")

    def __init__(self, path: str) -> None:
        self.path = path
        self._bots: dict[str, BotFactory] | None = None

    def _table(self) -> dict[str, BotFactory]:
        if self._bots is None:
            module, _, attribute = self.path.partition(":")
            found = dict(getattr(importlib.import_module(module), attribute))
            self._bots = found if "random" in found else {**found, "random": RandomBot}
        return self._bots

    def __getitem__(self, name: str) -> BotFactory:
        return self._table()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())

    def __reduce__(self) -> tuple[type[BotTable], tuple[str]]:
        return BotTable, (self.path,)

    def __repr__(self) -> str:
        return f"BotTable({self.path!r})"


@dataclass(frozen=True, slots=True)
class RulesFactory:
    """The factory of a game made from its rules alone: ``game(rules_of(rules, values))``
    (picklable, so worker processes and cluster workers can make the game too)."""

    game: type[Game[Any]]

    def __call__(self, values: Mapping[str, Value]) -> Game[Any]:
        return self.game(self.game.game_type.rules_of(values))  # type: ignore[call-arg]


@dataclass(frozen=True, slots=True)
class Registration:
    """A registered game: its declaration, its factory, its bots (and the one to use when none
    is named; a game that names no ``random`` bot gets the uniform
    :class:`~runarch_gen.play.bot.RandomBot` under that name), and what the conformance suite
    plays (game strings, e.g. ``bluff(players=2)`` … ``bluff(players=6)``).

    What a simulation reports of each game comes from the state itself
    (:meth:`~.game.State.length`, :meth:`~.game.State.first`, :meth:`~.game.State.statistics`).
    ``checks(values)`` lists the game's own static checks
    (:class:`~runarch_gen.play.verdict.Check` objects) for ``validate``, and
    ``suggestions(values, finding)`` the changes of parameters to try, smallest first, against
    a balance finding (:mod:`runarch_gen.play.balance`), for ``validate --suggest``.
    ``description`` is the line that introduces the game's command group, and ``commands``
    (``"package.module:attribute"``, a Typer app) the game's own commands in it. ``order``
    places the game in listings (lower first, then by name).
    """

    game_type: GameType
    factory: Callable[[Mapping[str, Value]], Game[Any]]
    bots: Mapping[str, BotFactory]
    conformance: tuple[str, ...]
    default_bot: str = ""
    rules_document: str | None = None
    checks: Callable[[Mapping[str, Value]], Sequence[Any]] | None = None
    suggestions: Callable[[Mapping[str, Value], Any], Sequence[Mapping[str, str]]] | None = None
    description: str = ""
    commands: str = ""
    order: int = 100
    module: str = ""
    """The module that defines the game (where a plug-in's rules document lies)."""
    kit: Callable[[], Any] | None = None
    """The game's print-and-play kit: returns its :class:`~runarch_gen.pnp.kit.KitDefinition`
    (imported when first asked for); ``runarch-gen GAME kit`` and the workshop make kits with it."""

    def __post_init__(self) -> None:
        if isinstance(self.bots, BotTable):
            if not self.default_bot:
                raise ValueError(f"{self.game_type.short_name}: name the default bot")
            return  # checked when the bots are first used
        if "random" not in self.bots:  # every game can be played at random
            object.__setattr__(self, "bots", {**self.bots, "random": RandomBot})
        if not self.default_bot:
            object.__setattr__(self, "default_bot", next(iter(self.bots), ""))
        if self.default_bot not in self.bots:
            raise ValueError(
                f"{self.game_type.short_name}: the default bot {self.default_bot!r} is not one"
                f" of its bots ({', '.join(self.bots) or 'none'})"
            )

    @classmethod
    def of(
        cls,
        game: type[Game[Any]],
        *,
        bots: Mapping[str, BotFactory] | str,
        default_bot: str,
        conformance: Sequence[str],
        factory: Callable[[Mapping[str, Value]], Game[Any]] | None = None,
        rules_document: str | None = None,
        checks: Callable[[Mapping[str, Value]], Sequence[Any]] | None = None,
        suggestions: Callable[[Mapping[str, Value], Any], Sequence[Mapping[str, str]]]
        | None = None,
        description: str = "",
        commands: str = "",
        order: int = 100,
        kit: Callable[[], Any] | str | None = None,
    ) -> Registration:
        """The registration of the game class ``game``: its type read off the class
        (``game.game_type``). Without a ``factory`` the game is made from its rules,
        ``game(game_type.rules_of(values))``. ``bots`` may name the mapping of bots by
        ``"package.module:attribute"`` (a :class:`BotTable`, imported when first used). A
        ``rules_document`` is found among the package's
        rules documents or beside ``game``'s module; a ``commands`` app named without a module
        (``":commands"``) is looked up in ``game``'s module. The entry point of a game names
        such a registration; nothing is registered until the registry loads it."""
        if commands.startswith(":"):
            commands = f"{game.__module__}{commands}"
        return cls(
            game.game_type,
            factory or RulesFactory(game),
            BotTable(bots) if isinstance(bots, str) else bots,
            tuple(conformance),
            default_bot,
            rules_document,
            checks,
            suggestions,
            description,
            commands,
            order,
            game.__module__,
            Imported(kit) if isinstance(kit, str) else kit,
        )

    @property
    def name(self) -> str:
        return self.game_type.short_name

    def load(self, values: Mapping[str, Value]) -> Game[Any]:
        return self.factory(values)

    def to_json(self) -> dict[str, Any]:
        """The declaration as ``runarch-gen games --json`` lists it."""
        return {
            **self.game_type.to_json(),
            "bots": sorted(self.bots),
            "default_bot": self.default_bot,
        }


_REGISTRY: dict[str, Registration] = {}
_ALIASES: dict[str, str] = {}
_LOADED: set[str] = set()
_FAILED: dict[str, str] = {}


def register_game(
    game: type[Game[Any]],
    *,
    bots: Mapping[str, BotFactory] | str,
    default_bot: str,
    conformance: Sequence[str],
    factory: Callable[[Mapping[str, Value]], Game[Any]] | None = None,
    rules_document: str | None = None,
    checks: Callable[[Mapping[str, Value]], Sequence[Any]] | None = None,
    suggestions: Callable[[Mapping[str, Value], Any], Sequence[Mapping[str, str]]] | None = None,
    description: str = "",
    commands: str = "",
    order: int = 100,
    kit: Callable[[], Any] | str | None = None,
) -> Registration:
    """Register the game class ``game`` under its type's short name and aliases (see
    :meth:`Registration.of`) and return the registration. A second registration of the same
    name replaces the first, so reloading a module is harmless."""
    registration = Registration.of(
        game,
        bots=bots,
        default_bot=default_bot,
        conformance=conformance,
        factory=factory,
        rules_document=rules_document,
        checks=checks,
        suggestions=suggestions,
        description=description,
        commands=commands,
        order=order,
        kit=kit,
    )
    _add(registration)
    return registration


def _add(registration: Registration) -> None:
    game_type = registration.game_type
    if not _NAME.match(game_type.short_name):
        raise ValueError(f"bad game name {game_type.short_name!r}")
    _REGISTRY[game_type.short_name] = registration
    for alias in (game_type.short_name, *game_type.aliases):
        _ALIASES[alias.lower()] = game_type.short_name


def _entry_points() -> list[metadata.EntryPoint]:
    """The group's entry points by name (one per name: the first found)."""
    from importlib import metadata  # here: it costs a command that needs no game 20 ms

    out: dict[str, metadata.EntryPoint] = {}
    for ep in sorted(metadata.entry_points(group=ENTRY_POINTS), key=lambda ep: ep.name):
        out.setdefault(ep.name, ep)
    return list(out.values())


def entry_point_names() -> tuple[str, ...]:
    """The names of the games installed as entry points, without loading any of them."""
    return tuple(ep.name for ep in _entry_points())


def _load(ep: metadata.EntryPoint) -> None:
    if ep.name in _LOADED:
        return
    _LOADED.add(ep.name)
    try:
        loaded = ep.load()
    except Exception as exc:  # a broken plug-in must not take every command down with it
        _FAILED[ep.name] = f"{ep.value}: {type(exc).__name__}: {exc}"
        return
    if not isinstance(loaded, Registration):
        _FAILED[ep.name] = f"{ep.value} is not a Registration"
        return
    _add(loaded)


def _load_all() -> None:
    for ep in _entry_points():
        _load(ep)


def plugin_errors() -> dict[str, str]:
    """The entry points that could not be loaded, by name, with why (``runarch-gen games``
    says so on stderr)."""
    _load_all()
    return dict(_FAILED)


def registered_games() -> tuple[Registration, ...]:
    """Every registered game — every one installed as an entry point, and any registered
    directly by :func:`register_game` — by its ``order``, then by name."""
    _load_all()
    return tuple(sorted(_REGISTRY.values(), key=lambda r: (r.order, r.name)))


def find_registration(name: str) -> Registration:
    """The registration of ``name`` or one of its aliases (any case)."""
    wanted = name.strip().lower()
    if wanted not in _ALIASES:
        # an entry point of that name first (loads one game), else every one (for aliases)
        for ep in _entry_points():
            if ep.name == wanted:
                _load(ep)
        if wanted not in _ALIASES:
            _load_all()
    short = _ALIASES.get(wanted)
    if short is None:
        known = ", ".join(r.name for r in registered_games()) or "none"
        if not _REGISTRY:
            known += " (no game is installed: reinstall runarch-gen)"
        raise InputError(f"unknown game {name.strip()[:40]!r}: expected one of {known}")
    return _REGISTRY[short]


def _variant_owner(name: str) -> Registration | None:
    """The game that has a variant called ``name`` (none when no game, or several, do)."""
    owners = [r for r in registered_games() if name in r.game_type.variants]
    return owners[0] if len(owners) == 1 else None


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


def read_game_string(text: str, where: str | None = None) -> tuple[Registration, dict[str, str]]:
    """The registration a game string names and the texts of its parameters: a game's name or
    alias with parameters, or a variant's name with parameters (``nackgammon``,
    ``classic(deal=4)``: the variant's preset, the parameters given over it)."""
    name, given = parse_game_string(text, where)
    try:
        return find_registration(name), given
    except InputError:
        owner = _variant_owner(name)
        if owner is None:
            raise
        return owner, {**owner.game_type.variants[name], **given}


def resolve_game_string(
    text: str, where: str | None = None
) -> tuple[Registration, dict[str, Value]]:
    """The registration and the parameter values a game string names (see
    :func:`read_game_string`)."""
    registration, given = read_game_string(text, where)
    return registration, registration.game_type.parse_parameters(given, where)


def find_game(text: str, where: str | None = None) -> Game[Any]:
    """The game a string names: ``bluff``, ``bluff(players=4)``, ``bluff(variant=original)``,
    ``nackgammon``; defaults fill the rest.

    >>> str(find_game("nackgammon(match=5)")), str(find_game("bluff(variant=original)"))
    ('backgammon(variant=nackgammon,match=5)', 'bluff(exact=all)')
    """
    registration, values = resolve_game_string(text, where)
    return registration.load(values)
