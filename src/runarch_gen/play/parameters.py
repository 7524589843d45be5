"""A game's parameters, declared once: on the fields of its rules dataclass.

A game's options live in one frozen dataclass (``BluffRules``, ``MalaccaRules`` …). Each field
that is a parameter of the game string says so with :func:`param`: its line of help, its rule
tag, its bounds or choices, and — for a value that is not a plain ``bool``, ``int``, ``str`` or
enumeration — how it is written in a game string and read back. Everything else is derived:

- :func:`parameters_of` — the registry's :class:`Parameter` list (names, types, defaults, help,
  bounds, choices) that ``runarch-gen games`` lists and game strings are parsed with;
- :func:`rules_of` — the rules of parameter values (defaults for the missing ones);
- :func:`values_of` — its inverse, the parameter values of some rules (so a game's string is
  ``game_type.game_string(values_of(rules))``);
- :func:`check_bounds` — the declared bounds checked on rules built directly in Python.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class CoinRules:
...     flips: int = param(3, "how many flips", tag="C-01", minimum=1, maximum=9)
...     fair: bool = param(True, "a fair coin")
>>> [p.describe() for p in parameters_of(CoinRules)]
['flips: 1-9 (default 3) — how many flips [C-01]', 'fair: on|off (default on) — a fair coin']
>>> rules_of(CoinRules, {"flips": 5}), values_of(CoinRules(flips=4))
(CoinRules(flips=5, fair=True), {'flips': 4, 'fair': True})
"""

from __future__ import annotations

import dataclasses
import enum
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, TypeVar

from runarch_gen.errors import InputError, ParseError

__all__ = [
    "PARAMETER",
    "Parameter",
    "ParameterSpec",
    "Value",
    "check_bounds",
    "format_value",
    "param",
    "parameters_of",
    "rules_of",
    "values_of",
]

Value = bool | int | float | str
"""A parameter's value: the type of its default."""

PARAMETER = "runarch_gen.parameter"
"""The key of a dataclass field's metadata that makes the field a game parameter."""

RulesT = TypeVar("RulesT")

_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}


@dataclass(frozen=True, slots=True)
class Parameter:
    """One parameter of a game: its name, default (whose type is the parameter's type), a
    line of help, and the allowed values (``choices`` for text, ``minimum``/``maximum`` for
    numbers); ``tag`` is the rule decision it stands for (``L-02``)."""

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
    tag: str = ""

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
            if not re.fullmatch(r"[+-]?[0-9]{1,18}", raw):
                raise ParseError(
                    f"{self.name} is a whole number of at most 18 digits, not {raw[:40]!r}",
                    source=where,
                )
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
        if self.tag:
            out["rule"] = self.tag
        return out


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def format_value(value: Value) -> str:
    """A parameter value as a game string writes it (``on``/``off`` for flags)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


@dataclass(frozen=True, slots=True)
class ParameterSpec:
    """What :func:`param` stores in a rules field's metadata (see there)."""

    help: str
    tag: str = ""
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    values: str = ""
    default_text: str = ""
    write: Callable[[Any], Value] | None = None
    read: Callable[[Value], Any] | None = None
    from_file: Callable[[str], str] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


def param(
    default: Any = MISSING,
    help: str = "",
    *,
    tag: str = "",
    minimum: float | None = None,
    maximum: float | None = None,
    choices: tuple[str, ...] = (),
    values: str = "",
    default_text: str = "",
    write: Callable[[Any], Value] | None = None,
    read: Callable[[Value], Any] | None = None,
    from_file: Callable[[str], str] | None = None,
    default_factory: Callable[[], Any] | None = None,
    **extra: Any,
) -> Any:
    """A rules dataclass field that is a game parameter (:func:`dataclasses.field` with the
    parameter's declaration in its metadata).

    ``help`` is one line, ``tag`` the rule decision (``"L-02"``); ``minimum``/``maximum`` bound
    a number, ``choices`` a text (an enumeration's values are its choices by default);
    ``values`` and ``default_text`` are words for the allowed values and the default where those
    do not say it. A field whose type is not ``bool``, ``int``, ``float``, ``str`` or an
    enumeration gives ``write`` (field value → parameter value) and ``read`` (the inverse).
    ``from_file`` reads a file the user named on the command line into the inline value.
    ``extra`` keeps a game's own facts about the option (e.g. the variants it applies to).
    """
    spec = ParameterSpec(
        help,
        tag,
        minimum,
        maximum,
        choices,
        values,
        default_text,
        write,
        read,
        from_file,
        extra,
    )
    metadata = {PARAMETER: spec}
    if default_factory is not None:
        return field(default_factory=default_factory, metadata=metadata)
    return field(default=default, metadata=metadata)


def _specs(rules_type: type) -> list[tuple[dataclasses.Field[Any], ParameterSpec]]:
    return [(f, f.metadata[PARAMETER]) for f in fields(rules_type) if PARAMETER in f.metadata]


def _default(item: dataclasses.Field[Any]) -> Any:
    if item.default is not MISSING:
        return item.default
    if item.default_factory is not MISSING:
        return item.default_factory()
    raise TypeError(f"the parameter {item.name} has no default")


def _write(spec: ParameterSpec, value: Any) -> Value:
    if spec.write is not None:
        return spec.write(value)
    if isinstance(value, enum.Enum):
        out: Value = value.value
        return out
    if isinstance(value, bool | int | float | str):
        return value
    raise TypeError(f"a parameter of type {type(value).__name__} needs write= and read=")


def parameters_of(rules_type: type) -> tuple[Parameter, ...]:
    """The :class:`Parameter` of every field of ``rules_type`` declared with :func:`param`,
    in field order; the help ends with the rule tag in brackets."""
    out = []
    for item, spec in _specs(rules_type):
        default = _default(item)
        choices = spec.choices
        if not choices and isinstance(default, enum.Enum):
            choices = tuple(str(member.value) for member in type(default))
        out.append(
            Parameter(
                item.name,
                _write(spec, default),
                f"{spec.help} [{spec.tag}]" if spec.tag else spec.help,
                choices,
                spec.minimum,
                spec.maximum,
                spec.values,
                spec.default_text,
                spec.from_file,
                spec.tag,
            )
        )
    return tuple(out)


def rules_of(rules_type: type[RulesT], values: Mapping[str, Any]) -> RulesT:
    """The rules of parameter ``values`` (defaults for those missing; names that are not
    parameters of ``rules_type`` — a preset's name, a game's set — are left to the caller)."""
    given: dict[str, Any] = {}
    for item, spec in _specs(rules_type):
        if item.name not in values:
            continue
        value = values[item.name]
        if spec.read is not None:
            given[item.name] = spec.read(value)
            continue
        default = _default(item)
        if isinstance(default, enum.Enum):
            given[item.name] = type(default)(str(value))
        elif isinstance(default, bool):
            given[item.name] = bool(value)
        elif isinstance(default, int):
            given[item.name] = int(str(value))
        elif isinstance(default, float):
            given[item.name] = float(value)
        else:
            given[item.name] = str(value)
    return rules_type(**given)


def values_of(rules: object) -> dict[str, Value]:
    """The parameter values of ``rules`` (the inverse of :func:`rules_of`)."""
    return {
        item.name: _write(spec, getattr(rules, item.name)) for item, spec in _specs(type(rules))
    }


def check_bounds(rules: object, game: str) -> None:
    """Raise :class:`InputError` for a field of ``rules`` outside its declared bounds (rules
    built in Python bypass the game-string parser, which checks them on the way in)."""
    for item, spec in _specs(type(rules)):
        value = getattr(rules, item.name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        low, high = spec.minimum, spec.maximum
        if (low is not None and value < low) or (high is not None and value > high):
            lowest = _num(low) if low is not None else "…"
            highest = _num(high) if high is not None else "…"
            span = f"{lowest} to {highest}"
            raise InputError(f"{game}: {item.name} is {span}, not {value}")
