"""Parsing JSON and TOML from untrusted text: every failure is a :class:`ParseError` that names
where, never a ``RecursionError`` from deep nesting or a ``ValueError`` from a huge integer.

>>> loads_json('{"a": [1, 2]}', "x.json")
{'a': [1, 2]}
>>> loads_json("[" * 500 + "]" * 500, "x.json")
Traceback (most recent call last):
...
runarch_gen.errors.ParseError: x.json: nested more than 64 levels deep
>>> loads_toml("a = 1\\nb = ]", "x.toml")
Traceback (most recent call last):
...
runarch_gen.errors.ParseError: x.toml:2:5: malformed TOML: Invalid value
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

from runarch_gen.errors import ParseError

MAX_DEPTH = 64
"""The deepest nesting of arrays and tables a JSON or TOML input may have."""

MAX_DIGITS = 30
"""The most digits a number in an input may have (a seed has 19, every count far fewer)."""

_TOML_WHERE = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*\Z")
# A run of digits that stands alone: one inside a word (a digest, a position ID) is no number.
_LONG_NUMBER = re.compile(rf"(?<![0-9A-Za-z])[0-9]{{{MAX_DIGITS + 1},}}")


def toml_error(exc: tomllib.TOMLDecodeError, source: str | None) -> ParseError:
    """A :class:`ParseError` with the line and column tomllib puts in its message."""
    message = str(exc)
    where = _TOML_WHERE.search(message)
    if where is None:
        return ParseError(f"malformed TOML: {message}", source=source)
    return ParseError(
        f"malformed TOML: {message[: where.start()]}",
        source=source,
        line=int(where.group(1)),
        column=int(where.group(2)),
    )


def _depth_check(text: str, source: str | None, openers: str, closers: str) -> None:
    # A cheap upper bound of the nesting depth: brackets outside strings are not told apart
    # from those inside, so a string full of brackets may be refused; such a file is no
    # board, deck or template anyway.
    depth = 0
    for char in text:
        if char in openers:
            depth += 1
            if depth > MAX_DEPTH:
                raise ParseError(f"nested more than {MAX_DEPTH} levels deep", source=source)
        elif char in closers and depth:
            depth -= 1


def check_numbers(text: str, source: str | None) -> None:
    """Refuse ``text`` when a number in it has more than :data:`MAX_DIGITS` digits, before any
    reader converts it (Python refuses 4,301 digits with a ``ValueError``; far fewer are
    already no count or seed).

    >>> check_numbers("seed 1\\nid " + "9" * 40, "g.txt")
    Traceback (most recent call last):
    ...
    runarch_gen.errors.ParseError: g.txt:2:4: a number of 40 digits (at most 30)
    """
    match = _LONG_NUMBER.search(text)
    if match is not None:
        line = text.count("\n", 0, match.start()) + 1
        column = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
        digits = match.end() - match.start()
        raise ParseError(
            f"a number of {digits} digits (at most {MAX_DIGITS})",
            source=source,
            line=line,
            column=column,
        )


def loads_json(text: str, source: str | None = None, *, first_line: int = 1) -> Any:
    """The JSON value of ``text``; errors name ``source`` and the line (counted from
    ``first_line``)."""
    _depth_check(text, source, "[{", "]}")
    check_numbers(text, source)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(
            f"malformed JSON: {exc.msg}",
            source=source,
            line=first_line + exc.lineno - 1,
            column=exc.colno,
        ) from None
    except (RecursionError, ValueError) as exc:  # pragma: no cover - guarded above
        raise ParseError(f"malformed JSON: {str(exc)[:60]}", source=source) from None


def loads_toml(text: str, source: str | None = None) -> dict[str, Any]:
    """The TOML document of ``text``; errors name ``source``, line and column. Nesting is
    bounded however it is written: brackets, or dotted keys (``a.b.c = 1``) that make no
    bracket at all.

    >>> loads_toml(".".join(["k"] * 100) + " = 1", "t.toml")
    Traceback (most recent call last):
    ...
    runarch_gen.errors.ParseError: t.toml: nested more than 64 levels deep
    """
    _depth_check(text, source, "[{", "]}")
    check_numbers(text, source)
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise toml_error(exc, source) from None
    except (RecursionError, ValueError) as exc:  # pragma: no cover - guarded above
        raise ParseError(f"malformed TOML: {str(exc)[:60]}", source=source) from None
    _value_depth_check(document, source)
    return document


def _value_depth_check(value: Any, source: str | None) -> None:
    """Refuse a parsed value nested deeper than :data:`MAX_DEPTH` (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ParseError(f"nested more than {MAX_DEPTH} levels deep", source=source)
        if isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)


__all__ = ["MAX_DEPTH", "MAX_DIGITS", "check_numbers", "loads_json", "loads_toml", "toml_error"]
