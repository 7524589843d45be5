"""Condition tokens [R-02]: archive counts that win a bet token (RULES.md §6.1).

The set is data: ``conditions.toml`` in this package holds the default 12. The rules option
``conditions`` carries a set as values, written inline and separated by ``|``
(``1·1·1|2·1·0 any order|total 5``); on the command line (and in a rules file) it may also name a
TOML file of the same form as the package's, which is read once into values.

>>> c = parse_condition("2·1·0 any order")
>>> c.text, c.is_met((0, 1, 2)), c.is_met((2, 2, 0))
('2·1·0 any order', True, False)
>>> parse_condition("*.3.*").text, parse_condition("total 5").is_met((2, 2, 1))
('*·3·*', True)
>>> conditions_inline(parse_conditions_inline("1.1.1 | total 5"))
'1·1·1|total 5'

"""

from __future__ import annotations

import functools
import itertools
import os
import re
from dataclasses import dataclass
from importlib import resources

from runarch_gen.errors import ParseError
from runarch_gen.fileio import display_name, read_text
from runarch_gen.textdata import loads_toml

ARCHIVES = 3
MAX_COUNT = 10
"""A count per archive is at most 10 (the largest archive capacity [R-14]); a total at most 30."""
MAX_CONDITIONS = 200
MAX_CONDITIONS_FILE = 64 * 1024
_COUNTS = re.compile(
    r"\s*([0-9]+|\*)\s*[·.]\s*([0-9]+|\*)\s*[·.]\s*([0-9]+|\*)\s*(any order)?\s*\Z"
)
_TOTAL = re.compile(r"\s*total\s+([0-9]+)\s*\Z")


@dataclass(frozen=True, slots=True)
class Condition:
    """Counts per archive (``None`` = any), optionally in any order; or a total count."""

    counts: tuple[int | None, int | None, int | None] | None = None
    any_order: bool = False
    total: int | None = None

    def __reduce__(self) -> tuple[object, ...]:
        # Through the constructor, as Setup: the same whether this class is compiled or not.
        return Condition, (self.counts, self.any_order, self.total)

    def __post_init__(self) -> None:
        if (self.counts is None) == (self.total is None):
            raise ValueError("a condition has either archive counts or a total")

    @property
    def text(self) -> str:
        """Canonical text: ``1·1·1``, ``2·1·0 any order``, ``*·3·*``, ``total 5``."""
        if self.counts is None:
            return f"total {self.total}"
        body = "·".join("*" if n is None else str(n) for n in self.counts)
        return body + (" any order" if self.any_order else "")

    def is_met(self, counts: tuple[int, int, int]) -> bool:
        """Whether archive counts (left, middle, right) meet the condition."""
        if self.counts is None:
            return sum(counts) == self.total
        orders = itertools.permutations(counts) if self.any_order else (counts,)
        return any(
            all(want is None or want == have for want, have in zip(self.counts, order, strict=True))
            for order in orders
        )

    def __str__(self) -> str:
        return self.text


def parse_condition(text: str) -> Condition:
    """A condition from its text (see :attr:`Condition.text`); ``.`` may replace ``·``."""
    match = _COUNTS.match(text)
    if match is not None:
        a, b, c = (None if g == "*" else _bounded(g, MAX_COUNT, text) for g in match.group(1, 2, 3))
        return Condition(counts=(a, b, c), any_order=match.group(4) is not None)
    match = _TOTAL.match(text)
    if match is not None:
        return Condition(total=_bounded(match.group(1), ARCHIVES * MAX_COUNT, text))
    raise ParseError(
        f"bad condition {text!r}: expected e.g. '1·1·1', '2·1·0 any order', '*·3·*' or 'total 5'"
    )


def _bounded(digits: str, most: int, text: str) -> int:
    if len(digits) > 3 or int(digits) > most:
        raise ParseError(f"bad condition {text[:40]!r}: a count is at most {most}")
    return int(digits)


def parse_condition_set(text: str, source: str | None = None) -> tuple[Condition, ...]:
    """Conditions from TOML text with a list ``conditions = ["1·1·1", ...]``."""
    data = loads_toml(text, source)
    items = data.get("conditions")
    if not isinstance(items, list) or not items:
        raise ParseError('expected a non-empty list: conditions = ["1·1·1", ...]', source=source)
    if len(items) > MAX_CONDITIONS:
        raise ParseError(f"at most {MAX_CONDITIONS} conditions, not {len(items)}", source=source)
    out: list[Condition] = []
    for i, item in enumerate(items):
        if not isinstance(item, str):
            raise ParseError(f"condition {i + 1} is not a string", source=source)
        try:
            out.append(parse_condition(item))
        except ParseError as exc:
            raise ParseError(f"condition {i + 1}: {exc.message}", source=source) from None
    return tuple(out)


@functools.cache
def default_conditions() -> tuple[Condition, ...]:
    """The 12 condition tokens of RULES.md §6.1, read from the package's data file."""
    text = resources.files(__package__).joinpath("conditions.toml").read_text("utf-8")
    return parse_condition_set(text, source="conditions.toml")


def is_inline_conditions(text: str) -> bool:
    """Whether ``text`` is a condition set written inline (rather than a file's name): every
    part between ``|`` has the form of a condition (its numbers are checked when parsed)."""
    return all(_COUNTS.match(part) or _TOTAL.match(part) for part in text.split("|"))


def parse_conditions_inline(text: str, source: str | None = None) -> tuple[Condition, ...]:
    """A condition set written inline, conditions separated by ``|``."""
    parts = text.split("|")
    if len(parts) > MAX_CONDITIONS:
        raise ParseError(f"at most {MAX_CONDITIONS} conditions, not {len(parts)}", source=source)
    try:
        return tuple(parse_condition(part) for part in parts)
    except ParseError as exc:
        raise ParseError(f"conditions: {exc.message}", source=source) from None


def conditions_inline(conditions: tuple[Condition, ...]) -> str:
    """The rules option's inline form of ``conditions``: ``1·1·1|2·1·0 any order|…``."""
    return "|".join(condition.text for condition in conditions)


@functools.cache
def load_conditions(spec: str) -> tuple[Condition, ...]:
    """The condition set of the rules option [R-02]: ``default`` or conditions written inline.
    (A file is read once by :func:`read_conditions_file`, where the user names it.)"""
    if spec == "default":
        return default_conditions()
    return parse_conditions_inline(spec, source="conditions")


def read_conditions_file(path: str | os.PathLike[str]) -> tuple[Condition, ...]:
    """The condition set of a TOML file the user named (at most 64 KiB)."""
    return parse_condition_set(
        read_text(path, limit=MAX_CONDITIONS_FILE), source=display_name(path)
    )


def conditions_value(conditions: tuple[Condition, ...]) -> str:
    """The rules option's value for ``conditions``: ``default`` for the default set."""
    return "default" if conditions == default_conditions() else conditions_inline(conditions)
