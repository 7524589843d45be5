"""Bonus-action tokens (RULES.md §1.4): the minimum card scores on their backs, as data.

The set is data: ``tokens.toml`` in this package holds the default values (D 5/6/7, X 7/8/9,
F 9/10/11, N 11/12/13). The rules option ``tokens`` carries a set as values, written inline
(``D5/6/7 X7/8/9 F9/10/11 N11/12/13``); on the command line (and in a rules file) it may also
name a TOML file of the same form as the package's, which is read once into values. The
symbols and their roles are rules (D, X and F are handed over at the milestones and open the
opponent's movement phases 2–4, N never leaves); the values are the designer's.

>>> tokens = default_tokens()
>>> tokens.text
'D 5/6/7, X 7/8/9, F 9/10/11, N 11/12/13'
>>> tokens.values_of("F"), len(tokens.stacks())
((9, 10, 11), 81)
>>> tokens.inline
'D5/6/7 X7/8/9 F9/10/11 N11/12/13'
>>> parse_tokens_inline("d5/6 x7 f9 n11/12").text
'D 5/6, X 7, F 9, N 11/12'
"""

from __future__ import annotations

import functools
import itertools
import os
import re
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources

from runarch_gen.errors import ParseError
from runarch_gen.fileio import display_name, read_text
from runarch_gen.textdata import loads_toml

TOKEN_SYMBOLS = "DXFN"  # §1.4 stacked in this order, D on top


def opens_phase(symbol: str) -> int | None:
    """The movement phase a token opens for the player who receives it [R-16]: D 2, X 3,
    F 4; N never leaves its owner (``None``).

    >>> [opens_phase(s) for s in TOKEN_SYMBOLS]
    [2, 3, 4, None]
    """
    index = TOKEN_SYMBOLS.index(symbol)
    return index + 2 if index < len(TOKEN_SYMBOLS) - 1 else None


MAX_TOKEN_VALUE = 100
MAX_VALUES_PER_SYMBOL = 4
"""At most 4 values per symbol (256 stacks): the static checks weigh every stack (§9.1)."""
MAX_TOKENS_FILE = 64 * 1024


@dataclass(frozen=True, slots=True)
class BonusTokens:
    """The back values of each symbol's tokens, in stack order D, X, F, N.

    A player draws one token of each symbol uniformly at random (§1.4); :meth:`stacks` lists
    every stack a player can draw with its probability.
    """

    values: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        if len(self.values) != len(TOKEN_SYMBOLS) or not all(self.values):
            raise ValueError(f"one or more values for each of {', '.join(TOKEN_SYMBOLS)}")

    def values_of(self, symbol: str) -> tuple[int, ...]:
        return self.values[TOKEN_SYMBOLS.index(symbol)]

    @property
    def text(self) -> str:
        """``D 5/6/7, X 7/8/9, F 9/10/11, N 11/12/13``"""
        return ", ".join(
            f"{symbol} {'/'.join(map(str, values))}"
            for symbol, values in zip(TOKEN_SYMBOLS, self.values, strict=True)
        )

    def stacks(self) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
        """Every stack a player can draw (values top to bottom) with its probability."""
        chance = Fraction(1)
        for values in self.values:
            chance /= len(values)
        return tuple((stack, chance) for stack in itertools.product(*self.values))

    def allows(self, stack: tuple[int, ...]) -> bool:
        """Whether ``stack`` is one value of each symbol, in order."""
        return len(stack) == len(self.values) and all(
            value in values for value, values in zip(stack, self.values, strict=True)
        )

    @property
    def inline(self) -> str:
        """The set as the rules option ``tokens`` writes it: ``D5/6/7 X7/8/9 F9/10/11 …``."""
        return " ".join(
            f"{symbol}{'/'.join(map(str, values))}"
            for symbol, values in zip(TOKEN_SYMBOLS, self.values, strict=True)
        )

    def to_json(self) -> dict[str, list[int]]:
        return {
            symbol: list(values) for symbol, values in zip(TOKEN_SYMBOLS, self.values, strict=True)
        }


def parse_tokens(text: str, source: str | None = None) -> BonusTokens:
    """A token set from TOML text with a table ``[tokens]`` of ``D = [5, 6, 7]`` … ``N = […]``."""
    data = loads_toml(text, source)
    table = data.get("tokens")
    if not isinstance(table, dict):
        raise ParseError("expected a table [tokens] with D, X, F and N", source=source)
    unknown = sorted(set(table) - set(TOKEN_SYMBOLS))
    if unknown:
        raise ParseError(
            f"unknown token symbol {unknown[0]!r}: the symbols are D, X, F and N (§1.4)",
            source=source,
        )
    values: list[tuple[int, ...]] = []
    for symbol in TOKEN_SYMBOLS:
        items = table.get(symbol)
        if not isinstance(items, list) or not items:
            raise ParseError(f"{symbol}: expected a non-empty list of values", source=source)
        if not all(
            isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= MAX_TOKEN_VALUE
            for v in items
        ):
            raise ParseError(
                f"{symbol}: values must be whole numbers from 1 to {MAX_TOKEN_VALUE}",
                source=source,
            )
        values.append(_checked(symbol, items, source))
    return BonusTokens(tuple(values))


def _checked(symbol: str, items: list[int], source: str | None) -> tuple[int, ...]:
    if len(items) > MAX_VALUES_PER_SYMBOL:
        raise ParseError(
            f"{symbol}: at most {MAX_VALUES_PER_SYMBOL} values per symbol, not {len(items)}",
            source=source,
        )
    if len(set(items)) != len(items):
        raise ParseError(f"{symbol}: a value is given twice", source=source)
    return tuple(items)


_INLINE_ITEM = re.compile(r"\s*([DXFN])\s*([0-9]+(?:\s*/\s*[0-9]+)*)\s*[;]?", re.IGNORECASE)
_INLINE = re.compile(rf"(?:{_INLINE_ITEM.pattern})+\s*\Z", re.IGNORECASE)


def is_inline_tokens(text: str) -> bool:
    """Whether ``text`` is a token set written inline (rather than a file's name)."""
    return _INLINE.match(text) is not None


def parse_tokens_inline(text: str, source: str | None = None) -> BonusTokens:
    """A token set written inline, each symbol with its values: ``D5/6/7 X7/8/9 F9/10/11 N11``."""
    if not is_inline_tokens(text):
        raise ParseError(
            f"tokens: expected e.g. 'D5/6/7 X7/8/9 F9/10/11 N11/12/13', not {text[:40]!r}",
            source=source,
        )
    table: dict[str, list[int]] = {}
    for match in _INLINE_ITEM.finditer(text):
        symbol = match.group(1).upper()
        if symbol in table:
            raise ParseError(f"tokens: {symbol} is given twice", source=source)
        digits = [v.strip() for v in match.group(2).split("/")]
        if any(len(v) > 3 for v in digits):  # bounded before int(): no 5,000-digit numbers
            raise ParseError(
                f"tokens: {symbol}: values are whole numbers from 1 to {MAX_TOKEN_VALUE}",
                source=source,
            )
        table[symbol] = [int(v) for v in digits]
    missing = [s for s in TOKEN_SYMBOLS if s not in table]
    if missing:
        raise ParseError(f"tokens: no values for {', '.join(missing)}", source=source)
    values: list[tuple[int, ...]] = []
    for symbol in TOKEN_SYMBOLS:
        items = table[symbol]
        if not all(1 <= v <= MAX_TOKEN_VALUE for v in items):
            raise ParseError(
                f"tokens: {symbol}: values are whole numbers from 1 to {MAX_TOKEN_VALUE}",
                source=source,
            )
        values.append(_checked(symbol, items, source))
    return BonusTokens(tuple(values))


@functools.cache
def default_tokens() -> BonusTokens:
    """The bonus-action tokens of RULES.md §1.4, read from the package's data file."""
    text = resources.files(__package__).joinpath("tokens.toml").read_text("utf-8")
    return parse_tokens(text, source="tokens.toml")


@functools.cache
def load_tokens(spec: str) -> BonusTokens:
    """The token set of the rules option ``tokens``: ``default`` or values written inline.
    (A file is read once by :func:`read_tokens_file`, where the user names it.)"""
    if spec == "default":
        return default_tokens()
    return parse_tokens_inline(spec, source="tokens")


def read_tokens_file(path: str | os.PathLike[str]) -> BonusTokens:
    """The token set of a TOML file the user named (at most 64 KiB)."""
    return parse_tokens(read_text(path, limit=MAX_TOKENS_FILE), source=display_name(path))


def tokens_value(tokens: BonusTokens) -> str:
    """The rules option's value for ``tokens``: ``default`` when they are the default set."""
    return "default" if tokens == default_tokens() else tokens.inline
