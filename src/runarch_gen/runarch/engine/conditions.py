"""Condition tokens [R-02]: archive counts that win a bet token (RULES.md §6.1).

The set is data: ``conditions.toml`` in this package holds the default 12, and the rules option
``conditions=PATH`` points to another file of the same form.

>>> c = parse_condition("2·1·0 any order")
>>> c.text, c.is_met((0, 1, 2)), c.is_met((2, 2, 0))
('2·1·0 any order', True, False)
>>> parse_condition("*.3.*").text, parse_condition("total 5").is_met((2, 2, 1))
('*·3·*', True)
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from importlib import resources

from runarch_gen.errors import ParseError
from runarch_gen.fileio import read_text
from runarch_gen.textdata import loads_toml

ARCHIVES = 3
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
        a, b, c = (None if g == "*" else int(g) for g in match.group(1, 2, 3))
        return Condition(counts=(a, b, c), any_order=match.group(4) is not None)
    match = _TOTAL.match(text)
    if match is not None:
        return Condition(total=int(match.group(1)))
    raise ParseError(
        f"bad condition {text!r}: expected e.g. '1·1·1', '2·1·0 any order', '*·3·*' or 'total 5'"
    )


def parse_condition_set(text: str, source: str | None = None) -> tuple[Condition, ...]:
    """Conditions from TOML text with a list ``conditions = ["1·1·1", ...]``."""
    data = loads_toml(text, source)
    items = data.get("conditions")
    if not isinstance(items, list) or not items:
        raise ParseError('expected a non-empty list: conditions = ["1·1·1", ...]', source=source)
    out: list[Condition] = []
    for i, item in enumerate(items):
        if not isinstance(item, str):
            raise ParseError(f"condition {i + 1} is not a string", source=source)
        try:
            out.append(parse_condition(item))
        except ParseError as exc:
            raise ParseError(f"condition {i + 1}: {exc.message}", source=source) from None
    return tuple(out)


def default_conditions() -> tuple[Condition, ...]:
    """The 12 condition tokens of RULES.md §6.1, read from the package's data file."""
    text = resources.files(__package__).joinpath("conditions.toml").read_text("utf-8")
    return parse_condition_set(text, source="conditions.toml")


def load_conditions(spec: str) -> tuple[Condition, ...]:
    """The condition set named by the rules option [R-02]: ``default`` or a file path."""
    if spec == "default":
        return default_conditions()
    return parse_condition_set(read_text(spec), source=spec)
