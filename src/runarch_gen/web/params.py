"""Reading request values by the grammar: the one place where the API turns text (a query
parameter, a JSON field) into numbers, booleans and choices.

A whole number is ``-?[0-9]+`` in ASCII and at most 20 digits: ``²``, ``٣``, ``1_000``, ``+5``,
`` 7`` and ``1e3`` are refused before any conversion, with the command line's one-line message
(an :class:`~runarch_gen.errors.InputError` naming the option). A JSON number that is already
an integer is taken as one; a float is a float only where a float is expected; seeds travel as
strings (a JSON number above 2^53 is rounded by every browser).

>>> parse_int("cards", "42", 30, 100)
42
>>> parse_int("seed", "²", 0, 10)
Traceback (most recent call last):
...
runarch_gen.errors.InputError: --seed '²': expected a whole number
>>> field_int({"games": "12"}, "games", 1, 100, default=5)
12
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from runarch_gen.errors import InputError

__all__ = [
    "MAX_CALIBRATE_GAMES",
    "MAX_PLAYTEST_GAMES",
    "MAX_SEED",
    "field_bool",
    "field_float",
    "field_int",
    "field_seed",
    "field_str",
    "parse_bool",
    "parse_float",
    "parse_int",
    "parse_seed",
]

MAX_SEED = 2**63 - 1
MAX_PLAYTEST_GAMES = 100_000
"""The most games one playtest job plays (a web limit beside the command line's)."""
MAX_CALIBRATE_GAMES = 10_000
_INT = re.compile(r"-?[0-9]{1,20}", re.ASCII)
_FLOAT = re.compile(r"-?[0-9]{1,9}(\.[0-9]{1,9})?", re.ASCII)
TRUE = ("1", "true", "yes", "on", "")
FALSE = ("0", "false", "no", "off")


def _shown(value: object) -> str:
    return repr(value if isinstance(value, str) else str(value))[:42]


def parse_int(name: str, value: str, low: int, high: int) -> int:
    """``value`` as a whole number from ``low`` to ``high`` (ASCII digits only)."""
    text = value.strip(" ")
    if not _INT.fullmatch(text):
        raise InputError(f"--{name} {_shown(value)}: expected a whole number")
    number = int(text)
    if not low <= number <= high:
        raise InputError(f"--{name} {number}: expected {low} to {high}")
    return number


def parse_float(name: str, value: str, low: float, high: float) -> float:
    """``value`` as a decimal number (``-?D.D``, ASCII digits) from ``low`` to ``high``."""
    text = value.strip(" ")
    if not _FLOAT.fullmatch(text):
        raise InputError(f"--{name} {_shown(value)}: expected a number such as 2.5")
    number = float(text)
    if not low <= number <= high:
        raise InputError(f"--{name} {number:g}: expected {low:g} to {high:g}")
    return number


def parse_bool(name: str, value: str | None) -> bool:
    """``true``/``false`` (also ``1``/``0``, ``yes``/``no``, ``on``/``off``; empty is true)."""
    if value is None:
        return False
    text = value.strip(" ").lower()
    if text in TRUE:
        return True
    if text in FALSE:
        return False
    raise InputError(f"--{name} {_shown(value)}: expected true or false")


def parse_seed(value: str | None) -> int | None:
    """A seed (0 to 2^63-1), or ``None`` when empty."""
    if value is None or not value.strip(" "):
        return None
    return parse_int("seed", value, 0, MAX_SEED)


# ---------------------------------------------------------------------------------------------
# JSON fields: the same grammar for a value that is a JSON number, string or boolean


def _option(name: str) -> str:
    return name.replace("_", "-")


def field_int(body: Mapping[str, Any], name: str, low: int, high: int, *, default: int) -> int:
    value = body.get(name)
    if value is None:
        return default
    if isinstance(value, bool):
        raise InputError(f"--{_option(name)} {_shown(value)}: expected a whole number")
    if isinstance(value, int):
        value = str(value)
    if not isinstance(value, str):
        raise InputError(f"--{_option(name)} {_shown(value)}: expected a whole number")
    return parse_int(_option(name), value, low, high)


def field_float(
    body: Mapping[str, Any], name: str, low: float, high: float, *, default: float
) -> float:
    value = body.get(name)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise InputError(f"--{_option(name)} {_shown(value)}: expected a number")
    if isinstance(value, str):
        return parse_float(_option(name), value, low, high)
    number = float(value)
    if not math.isfinite(number) or not low <= number <= high:
        raise InputError(f"--{_option(name)} {number:g}: expected {low:g} to {high:g}")
    return number


def field_bool(body: Mapping[str, Any], name: str, *, default: bool) -> bool:
    value = body.get(name)
    if value is None:
        return default
    if isinstance(value, bool):
        return value
    raise InputError(f"--{_option(name)} {_shown(value)}: expected true or false")


def field_str(body: Mapping[str, Any], name: str, *, default: str, limit: int = 400) -> str:
    value = body.get(name)
    if value is None:
        return default
    if not isinstance(value, str):
        raise InputError(f"--{_option(name)} {_shown(value)}: expected text")
    if len(value) > limit:
        raise InputError(f"--{_option(name)}: over {limit:,} characters")
    return value


def field_seed(body: Mapping[str, Any]) -> int | None:
    """The ``seed`` field: a string of digits (or a JSON integer), ``None`` when absent."""
    value = body.get("seed")
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise InputError(f"--seed {_shown(value)}: expected a whole number")
    return parse_seed(str(value))
