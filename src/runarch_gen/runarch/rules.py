"""The rules configuration: which game (simple, complex, classic, solo) and every [R-nn] option.

A :class:`RulesConfig` is immutable. It reads from a short string in the manner of OpenSpiel's
game strings and from TOML, and prints back in one canonical form: the variant, then the options
that differ from the variant's defaults, in the order of their R-numbers.

>>> config = parse_rules("complex(match_bonus=line,deal=4)")
>>> str(config), config.deal, config.match_bonus.value
('complex(deal=4,match_bonus=line)', 4, 'line')
>>> str(parse_rules("classic")), parse_rules("classic").capacity
('classic', 4)
>>> parse_rules("simple(deal=4)")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
runarch_gen.runarch.rules.UnknownOptionError: option 'deal' does not apply to the simple game: ...
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from enum import Enum
from pathlib import Path
from typing import Any

from runarch_gen.errors import ParseError
from runarch_gen.fileio import display_name, read_text, shorten
from runarch_gen.play.parameters import PARAMETER, param
from runarch_gen.runarch.archives import ARCHIVE_CAPACITY, ARCHIVE_ORDERS, ArchiveRule
from runarch_gen.textdata import loads_toml, toml_error

__all__ = [
    "OPTIONS",
    "ArchiveOrder",
    "LineDirection",
    "MatchBonus",
    "OptionError",
    "OptionSpec",
    "OptionValueError",
    "RulesConfig",
    "UnknownOptionError",
    "UnknownVariantError",
    "Variant",
    "data_option",
    "load_rules",
    "parse_rules",
    "rules_from_toml",
    "toml_error",
]


class Variant(Enum):
    """The four games of RULES.md: §5.1 simple, §3–6 complex, §5.2 classic [R-27], §8 solo."""

    SIMPLE = "simple"
    COMPLEX = "complex"
    CLASSIC = "classic"
    SOLO = "solo"


class LineDirection(Enum):
    """[R-08] How a pattern is laid along a line."""

    READING = "reading"  # default: the line's reading direction only
    REVERSIBLE = "reversible"  # either direction, the better counts


class MatchBonus(Enum):
    """[R-09] The phase-4 match bonus."""

    BOARD = "board"  # default: matching stones anywhere on the board (0–10)
    LINE = "line"  # only inside the evaluated line (0–2)
    OFF = "off"


class ArchiveOrder(Enum):
    """[R-13] The archives of a player board, left to right."""

    OVERVIEW = "overview"  # default: SAME, SHAPES, COLOURS
    ARTICLE = "article"  # the betting article: COLOURS, SHAPES, SAME

    @property
    def rules(self) -> tuple[ArchiveRule, ...]:
        return ARCHIVE_ORDERS[self.value]


class UnknownVariantError(ParseError):
    """A rules string or file names a game that does not exist."""


class OptionError(ParseError):
    """A problem with one named option of a rules string or file; ``option`` names it."""

    def __init__(self, message: str, *, option: str, **where: Any) -> None:
        self.option = option
        super().__init__(message, **where)

    def located(
        self, source: str | None = None, line: int | None = None, column: int | None = None
    ) -> ParseError:
        return type(self)(
            self.message,
            option=self.option,
            source=self.source if self.source is not None else source,
            line=self.line if self.line is not None else line,
            column=self.column if self.column is not None else column,
        )


class UnknownOptionError(OptionError):
    """An option that does not exist, or does not apply to the chosen variant."""


class OptionValueError(OptionError):
    """A known option with a value it cannot take."""


ALL_VARIANTS = frozenset(Variant)
_WITH_ARCHIVES = frozenset({Variant.COMPLEX, Variant.CLASSIC, Variant.SOLO})
_WITH_BETS = frozenset({Variant.COMPLEX, Variant.SOLO})


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of the rules string: its name, R-tag, the variants it applies to, its values."""

    name: str
    tag: str
    variants: frozenset[Variant]
    values: str  # human description of the allowed values, for messages and --help
    convert: Callable[[str], Any]
    help: str

    def parse(self, text: str) -> Any:
        try:
            return self.convert(text)
        except ValueError:
            raise OptionValueError(
                f"option {self.name} ({self.tag}) cannot be {text!r}: expected {self.values}",
                option=self.name,
            ) from None


def _int_in(low: int, high: int) -> Callable[[str], int]:
    def convert(text: str) -> int:
        value = int(text.strip())
        if not low <= value <= high:
            raise ValueError(text)
        return value

    return convert


def _choice(enum: type[Enum]) -> Callable[[str], Any]:
    def convert(text: str) -> Any:
        return enum(text.strip().lower())

    return convert


def _deal(text: str) -> int:
    value = int(text.strip())
    if value not in (4, 5):
        raise ValueError(text)
    return value


def _data(text: str) -> str:
    # Already made canonical by `_data_value` when the rules string was parsed.
    if not text.strip():
        raise ValueError(text)
    return text.strip()


def _default_capacity(variant: Variant) -> int:
    return 4 if variant is Variant.CLASSIC else ARCHIVE_CAPACITY  # [R-27] / [R-14]


@dataclass(frozen=True, slots=True)
class RulesConfig:
    """A variant and every option of RULES.md; build with :func:`parse_rules` or directly.

    ``capacity=0`` means the variant's default (5, or 4 in the classic game); it is replaced by
    the actual number on construction. Options that do not apply to the variant must keep their
    defaults (a :class:`UnknownOptionError` says which).
    """

    variant: Variant = param(Variant.COMPLEX, "the game of RULES.md")
    conditions: str = param(
        "default",
        "the condition tokens that win bet tokens",
        tag="R-02",
        values="'default', conditions inline ('1·1·1|2·1·0 any order|total 5') or, on the"
        " command line, a condition-set TOML file",
        variants=_WITH_BETS,
        convert=_data,
    )
    deal: int = param(
        5,
        "cards dealt to each player: 5 = 2 public goals, 1 secret, 2 in hand; 4 = 1, 1, 2",
        tag="R-04",
        values="4 or 5",
        variants=_WITH_ARCHIVES,
        convert=_deal,
    )
    direction: LineDirection = param(
        LineDirection.READING,
        "a pattern is compared in the line's reading direction, or either way (the better counts)",
        tag="R-08",
        values="reading or reversible",
        variants=ALL_VARIANTS,
        convert=_choice(LineDirection),
    )
    match_bonus: MatchBonus = param(
        MatchBonus.BOARD,
        "the phase-4 bonus: matching stones on the whole board, in the line only, or none",
        tag="R-09",
        values="board, line or off",
        variants=_WITH_ARCHIVES,
        convert=_choice(MatchBonus),
    )
    minimum: int = param(
        5,
        "the fixed minimum pattern points of the simple game",
        tag="R-10",
        values="an integer 5-10",
        variants=frozenset({Variant.SIMPLE}),
        convert=_int_in(5, 10),
    )
    archive_order: ArchiveOrder = param(
        ArchiveOrder.OVERVIEW,
        "archives left to right: SAME, SHAPES, COLOURS (overview) or COLOURS, SHAPES, SAME",
        tag="R-13",
        values="overview or article",
        variants=_WITH_ARCHIVES,
        convert=_choice(ArchiveOrder),
    )
    capacity: int = param(
        0,
        "cards an archive holds (classic: 4 [R-27]); 3 archives must hold 10 cards",
        tag="R-14",
        values="an integer 4-10",
        variants=_WITH_ARCHIVES,
        convert=_int_in(4, 10),
    )
    target: int = param(
        75,
        "the simple game ends after the round in which a total exceeds this",
        tag="R-17",
        values="an integer 1-1000",
        variants=frozenset({Variant.SIMPLE}),
        convert=_int_in(1, 1000),
    )
    stall: int = param(
        500,
        "turns (both players' and the automa's counted) after which a game ends as stalled",
        tag="R-18",
        values="an integer 1-100000",
        variants=ALL_VARIANTS,
        convert=_int_in(1, 100_000),
    )
    archive_bonus: int = param(
        10,
        "points for each full archive at the end of the classic game",
        tag="R-27",
        values="an integer 0-100",
        variants=frozenset({Variant.CLASSIC}),
        convert=_int_in(0, 100),
    )
    automa: int = param(
        1,
        "the automa's strength: 1 as §8 says; 2 a card valid nowhere scores half its best"
        " line's matches; 3 all of them; 4 as 3, the better of two revealed cards; 5 of three",
        tag="R-28",
        values="an integer 1-5",
        variants=frozenset({Variant.SOLO}),
        convert=_int_in(1, 5),
    )
    tokens: str = param(
        "default",
        "the minimum card scores on the backs of the bonus-action tokens D, X, F, N",
        tag="§1.4",
        values="'default', values inline ('D5/6/7 X7/8/9 F9/10/11 N11/12/13') or, on the"
        " command line, a bonus-token TOML file",
        variants=_WITH_ARCHIVES,
        convert=_data,
    )

    def __post_init__(self) -> None:
        if self.capacity == 0:
            object.__setattr__(self, "capacity", _default_capacity(self.variant))
        defaults = _defaults(self.variant)
        for spec in OPTIONS:
            value = getattr(self, spec.name)
            if self.variant not in spec.variants and value != getattr(defaults, spec.name):
                raise _not_applicable(spec.name, self.variant)
            if isinstance(value, int) and not isinstance(value, bool):
                spec.parse(str(value))  # range check with the same message as the parser

    # -- what the variant has -------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.variant.value

    @property
    def has_archives(self) -> bool:
        """Archives, goals, the offer and bonus-action tokens: every game but the simple one."""
        return self.variant is not Variant.SIMPLE

    @property
    def has_bets(self) -> bool:
        """Condition and bet tokens: the complex and solo games (not classic [R-27])."""
        return self.variant in _WITH_BETS

    @property
    def has_automa(self) -> bool:
        return self.variant is Variant.SOLO

    @property
    def archive_rules(self) -> tuple[ArchiveRule, ...]:
        """[R-13] The archive rules left to right."""
        return self.archive_order.rules

    # -- text forms -----------------------------------------------------------------------
    def options(self) -> dict[str, str]:
        """The options that differ from the variant's defaults, in R-number order, as text."""
        defaults = _defaults(self.variant)
        out: dict[str, str] = {}
        for spec in OPTIONS:
            value = getattr(self, spec.name)
            if value != getattr(defaults, spec.name):
                out[spec.name] = value.value if isinstance(value, Enum) else str(value)
        return out

    def __str__(self) -> str:
        """The canonical rules string, e.g. ``complex(deal=4,match_bonus=line)``."""
        options = self.options()
        if not options:
            return self.variant.value
        inner = ",".join(f"{name}={_quote(value)}" for name, value in options.items())
        return f"{self.variant.value}({inner})"

    def to_toml(self) -> str:
        """The configuration as TOML that :func:`rules_from_toml` reads back."""
        lines = [f'variant = "{self.variant.value}"']
        for name, value in self.options().items():
            spec = _OPTION_BY_NAME[name]
            is_number = spec.values.startswith(("an integer", "4 or 5"))
            lines.append(f"{name} = {value}" if is_number else f"{name} = {_toml_string(value)}")
        return "\n".join(lines) + "\n"

    def with_options(self, **options: Any) -> RulesConfig:
        """A copy with some options changed (validated like the constructor)."""
        return replace(self, **options)


OPTIONS: tuple[OptionSpec, ...] = tuple(
    OptionSpec(
        item.name,
        item.metadata[PARAMETER].tag,
        item.metadata[PARAMETER].extra["variants"],
        item.metadata[PARAMETER].values,
        item.metadata[PARAMETER].extra["convert"],
        item.metadata[PARAMETER].help,
    )
    for item in fields(RulesConfig)
    if item.name != "variant"
)
"""Every option of the rules string, in R-number order: read off :class:`RulesConfig`'s fields."""
_OPTION_BY_NAME = {spec.name: spec for spec in OPTIONS}


def _defaults(variant: Variant) -> RulesConfig:
    return _DEFAULTS[variant]


def _not_applicable(name: str, variant: Variant) -> UnknownOptionError:
    takes = ", ".join(spec.name for spec in OPTIONS if variant in spec.variants)
    return UnknownOptionError(
        f"option {name!r} does not apply to the {variant.value} game: it takes {takes}",
        option=name,
    )


_DEFAULTS: dict[Variant, RulesConfig] = {}
for _variant in Variant:
    _config = object.__new__(RulesConfig)
    for _field in fields(RulesConfig):
        object.__setattr__(_config, _field.name, _field.default)
    object.__setattr__(_config, "variant", _variant)
    object.__setattr__(_config, "capacity", _default_capacity(_variant))
    _DEFAULTS[_variant] = _config

_SAFE_VALUE = re.compile(r"[A-Za-z0-9_./\-]+\Z")


def _quote(value: str) -> str:
    return value if _SAFE_VALUE.match(value) else '"' + value + '"'


def _toml_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ---------------------------------------------------------------------------------------------
# Parsing

_HEAD = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*\Z", re.DOTALL)
_ITEM = re.compile(r'\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*("([^"]*)"|[^,"]*?)\s*(?:,|\Z)')


def parse_rules(text: str, *, source: str | None = None, files: Path | None = None) -> RulesConfig:
    """A :class:`RulesConfig` from a rules string ``variant(option=value,...)``.

    Names and values are case-insensitive, spaces are allowed, values with commas or spaces
    go in double quotes. The data options ``tokens`` and ``conditions`` take values written
    inline; only where the user typed the string (``files`` is then the folder that relative
    names start from) may they name a file, which is read here, once, into values. A rules
    string from a record, a manifest or a game string never reads a file. Raises
    :class:`UnknownVariantError`, :class:`UnknownOptionError`
    (naming the option) or :class:`OptionValueError`, all :class:`ParseError` subclasses.
    """
    head = _HEAD.match(text)
    if head is None:
        raise ParseError(
            f"bad rules string {shorten(text, 40)!r}:"
            " expected variant or variant(option=value,...)",
            source=source,
        )
    variant = _parse_variant(head.group(1), source)
    options: dict[str, str] = {}
    inner = head.group(2)
    if inner is not None and inner.strip():
        pos = 0
        while pos < len(inner):
            item = _ITEM.match(inner, pos)
            if item is None or item.end() == pos:
                raise ParseError(
                    f"bad option list {inner!r} at {inner[pos:]!r}: expected name=value",
                    source=source,
                )
            name = item.group(1).lower()
            value = item.group(3) if item.group(3) is not None else item.group(2)
            if name in options:
                raise UnknownOptionError(f"option {name!r} given twice", option=name, source=source)
            options[name] = value
            pos = item.end()
    return _build(variant, options, source, files)


def _parse_variant(text: str, source: str | None) -> Variant:
    try:
        return Variant(text.strip().lower())
    except ValueError:
        names = ", ".join(v.value for v in Variant)
        raise UnknownVariantError(
            f"unknown variant {text!r}: expected one of {names}", source=source
        ) from None


def _build(
    variant: Variant, options: Mapping[str, str], source: str | None, files: Path | None = None
) -> RulesConfig:
    values: dict[str, Any] = {}
    for name, text in options.items():
        spec = _OPTION_BY_NAME.get(name)
        if spec is None:
            known = ", ".join(s.name for s in OPTIONS)
            raise UnknownOptionError(
                f"unknown option {name!r}: the options are {known}", option=name, source=source
            )
        if variant not in spec.variants:
            raise _not_applicable(name, variant).located(source)
        try:
            given = _data_value(name, text, files) if name in _PATH_OPTIONS else text
            values[name] = spec.parse(given)
        except ParseError as exc:
            raise exc.located(source) from None
    return RulesConfig(variant=variant, **values)


def data_option(name: str, text: str, *, source: str, files: Path = Path(".")) -> str:
    """The value of the data option ``name`` (``tokens`` or ``conditions``) that the user gave
    as ``text`` (``default``, the values inline, or a file): ``default`` or the values inline.
    """
    try:
        return _data_value(name, text, files)
    except ParseError as exc:
        raise exc.located(source) from None


def _data_value(name: str, text: str, files: Path | None) -> str:
    """The canonical value of a data option: ``default`` or the set written inline."""
    from runarch_gen.runarch.engine import conditions, tokens

    text = text.strip()
    if text.lower() == "default":
        return "default"
    if name == "tokens" and tokens.is_inline_tokens(text):
        return tokens.tokens_value(tokens.parse_tokens_inline(text))
    if name == "conditions" and ("|" in text or conditions.is_inline_conditions(text)):
        return conditions.conditions_value(conditions.parse_conditions_inline(text))
    if files is None:
        raise OptionValueError(
            f"{name}: a file may be named only on the command line or in a rules file;"
            f" here give the values inline (not {shorten(text, 40)!r})",
            option=name,
        )
    path = Path(text) if Path(text).is_absolute() else files / text
    if name == "tokens":
        return tokens.tokens_value(tokens.read_tokens_file(path))
    return conditions.conditions_value(conditions.read_conditions_file(path))


_PATH_OPTIONS = ("conditions", "tokens")  # data files; relative paths start at the TOML file


def rules_from_toml(
    text: str, *, source: str | None = None, base: Path | None = None
) -> RulesConfig:
    """A :class:`RulesConfig` from TOML: ``variant = "complex"`` and one key per option, at the
    top level or in a ``[rules]`` table. A relative ``conditions`` or ``tokens`` path is taken
    from ``base``.

    >>> str(rules_from_toml('variant = "complex"\\ndeal = 4\\nmatch_bonus = "line"\\n'))
    'complex(deal=4,match_bonus=line)'
    """
    data = loads_toml(text, source)
    table = data.get("rules", data)
    if not isinstance(table, dict):
        raise ParseError("[rules] must be a table", source=source)
    if "variant" not in table:
        raise ParseError('missing key "variant" (simple, complex, classic or solo)', source=source)
    variant = _parse_variant(str(table["variant"]), source)
    options: dict[str, str] = {}
    for key, value in table.items():
        if key == "variant":
            continue
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise OptionValueError(
                f"option {key} must be a number or a string, not {type(value).__name__}",
                option=key,
                source=source,
            )
        options[key.lower()] = str(value)
    return _build(variant, options, source, base)


def load_rules(path: str | os.PathLike[str]) -> RulesConfig:
    """Read a rules TOML file (``-`` for stdin); errors name the file."""
    base = Path(path).parent if str(path) != "-" else Path(".")
    return rules_from_toml(read_text(path), source=display_name(path), base=base)
