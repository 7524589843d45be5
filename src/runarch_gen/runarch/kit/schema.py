"""The schema of the kit templates (``kit.toml``, ``texts.toml`` and a ``--template`` laid over
them): every value's type and range, and the placeholders each format string may use, checked
before any work starts. An error names the file and the key, e.g.
``my.toml: [papers.a4] 'width' must be a number from 50 to 1000 (mm), not 20000``.

>>> def error(check, *args):
...     try:
...         check(*args)
...     except InputError as exc:
...         return str(exc)
>>> error(check_kit_data, {"papers": {"a4": {"width": 20000, "height": 297}}}, "my.toml")
"my.toml: [papers.a4] 'width' must be a number from 50 to 1000 (mm), not 20000"
>>> print(error(check_texts, {"en": {"page_label": "{page:>1000000000}"}}, "my.toml"))
... # doctest: +NORMALIZE_WHITESPACE
my.toml: [texts.en] 'page_label' '{page:>1000000000}' may not format a placeholder
(':' or '!'); write {page}
"""

from __future__ import annotations

import math
import re
import string
from collections.abc import Mapping, Sequence
from typing import Any

from runarch_gen.errors import InputError

FIGURES = ("components", "legend", "setup", "phases", "example", "bets", "automa", "options")
"""The figures a rulebook section may name (``figures = [...]``), drawn by
:mod:`~runarch_gen.runarch.kit.rulebook`."""

PLACEHOLDERS = (
    "deal",
    "public",
    "capacity",
    "classic_capacity",
    "archive_bonus",
    "target",
    "stall",
    "stall_rounds",
    "minimum",
    "automa",
    "condition_faceup",
    "archive_rules",
)
"""The placeholders rulebook paragraphs may use (filled from the kit's rules)."""


MAX_MM = 1000.0
"""No length in a template exceeds a metre."""
MAX_STRING = 5000
MAX_LIST = 200

# (low, high) per [sheet] key, in mm unless said.
SHEET_RANGES: dict[str, tuple[float, float]] = {
    "margin": (0.0, 100.0),
    "footer": (0.0, 100.0),
    "gutter": (0.0, 50.0),
    "block_gap": (0.0, 100.0),
    "mark_length": (0.0, 30.0),
    "mark_offset": (0.0, 30.0),
    "mark_width": (0.0, 5.0),
    "calibration": (1.0, 50.0),
    "max_duplex_offset": (0.0, 20.0),
    "ink_free": (0.0, 50.0),
}
PAPER_RANGE = (50.0, MAX_MM)

# Component values beyond the common keys: (low, high, integer?).
COMPONENT_VALUES: dict[str, tuple[float, float, bool]] = {
    "outline_scale": (0.1, 1.0, False),
    "label_band": (0.5, 50.0, False),
    "card_step": (5.0, 100.0, False),
    "parts": (1, 25, True),
    "foot": (1.0, 100.0, False),
    "small_scale": (0.2, 1.0, False),
}
COMMON = {"width", "height", "shape", "safe", "corner_radius", "double_sided", "areas"}

HEX = re.compile(r"#[0-9A-Fa-f]{6}")

# The placeholders each format string may use (others: none, and braces are literal).
_GOAL = {"n", "colour", "shape", "a", "b", "cards", "cards_b", "different_colours"} | {
    "different_shapes"
}
FORMATS: dict[str, set[str]] = {
    "page_label": {"game", "contents", "page", "pages"},
    "player_board_title": {"player"},
    "archive_capacity": {"n"},
    "frame_part": {"first", "last", "part", "parts"},
    "bonus_phase": {"phase"},
    "card_number": {"number"},
    "board_title": {"game"},
    "goal_colour": _GOAL,
    "goal_shape": _GOAL,
    "goal_colour_and_shape": _GOAL,
    "goal_colours": _GOAL,
    "goal_shapes": _GOAL,
    "duplex_note_long": {"pages"},
    "duplex_note_short": {"pages"},
    "duplex_note_none": {"pages"},
    "duplex_test_front": {"flip"},
    "rules.playtest_intro": {"games", "bots", "seed"},
    "rules.playtest_variant": {"variant", "ended", "games", "turns", "first"},
    "rules.playtest_first": {"rate"},
    "rules.playtest_deadlock": {"variant", "count", "rate", "tokens", "theory"},
    "rulebook.figure_example": {"card", "line", "phase"},
    "rulebook.example_phase": {"phase"},
    "rulebook.example_position": {"i", "stone", "pattern", "colour", "shape", "points"},
    "rulebook.example_total": {"points"},
    "rulebook.example_bonus": {"bonus", "score"},
    "rulebook.bet_line": {"kind", "n", "held", "points"},
    "rulebook.automa_example": {
        "card",
        "match",
        "arrows",
        "square",
        "direction",
        "other",
        "result",
    },
    "rulebook.automa_result_valid": {"line", "points"},
    "rulebook.options_intro": {"variants"},
    "rulebook.house_variant": {"variant", "option", "name", "value", "instead"},
}


def _fail(source: str, table: str, key: str, message: str) -> InputError:
    where = f"[{table}] " if table else ""
    return InputError(f"{source}: {where}'{key}' {message}")


def _number(
    value: Any,
    source: str,
    table: str,
    key: str,
    low: float,
    high: float,
    *,
    integer: bool = False,
    unit: str = "",
) -> None:
    kind = "a whole number" if integer else "a number"
    ok = (
        not isinstance(value, bool)
        and isinstance(value, int | float)
        and math.isfinite(value)
        and low <= value <= high
        and (not integer or isinstance(value, int))
    )
    if not ok:
        suffix = f" ({unit})" if unit else ""
        raise _fail(
            source, table, key, f"must be {kind} from {low:g} to {high:g}{suffix}, not {value!r}"
        )


def _table(value: Any, source: str, name: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InputError(f"{source}: [{name}] must be a table, not {type(value).__name__}")
    return value


def check_kit_data(data: Mapping[str, Any], source: str) -> None:
    """Check the layout tables (``[sheet]``, ``[papers.*]``, ``[players]``, ``[inks]``,
    ``[components.*]``, ``[bet_tokens]``); raises :class:`InputError` at the first bad key."""
    known = {"sheet", "papers", "players", "inks", "components", "bet_tokens"}
    for key in data:
        if key not in known:
            raise InputError(
                f"{source}: unknown table [{key}]: expected {', '.join(sorted(known))} or texts"
            )
    sheet = _table(data.get("sheet", {}), source, "sheet")
    for key, value in sheet.items():
        if key == "colour_model":
            if value not in ("rgb", "cmyk"):
                raise _fail(source, "sheet", key, f'must be "rgb" or "cmyk", not {value!r}')
        elif key in SHEET_RANGES:
            _number(value, source, "sheet", key, *SHEET_RANGES[key], unit="mm")
        else:
            raise _fail(source, "sheet", key, "is not a sheet setting")
    for name, raw in _table(data.get("papers", {}), source, "papers").items():
        paper = _table(raw, source, f"papers.{name}")
        for key in ("width", "height"):
            if key not in paper:
                raise _fail(source, f"papers.{name}", key, "is missing")
            _number(paper[key], source, f"papers.{name}", key, *PAPER_RANGE, unit="mm")
    players = _table(data.get("players", {}), source, "players")
    for key in ("colours", "inks"):
        if key in players:
            value = players[key]
            if not (isinstance(value, list) and len(value) == 2):
                raise _fail(source, "players", key, "must list two colours like #RRGGBB")
            for v in value:
                _colour(v, source, "players", key)
    for key, value in _table(data.get("inks", {}), source, "inks").items():
        _colour(value, source, "inks", key)
    for name, comp in _table(data.get("components", {}), source, "components").items():
        _component(_table(comp, source, f"components.{name}"), source, f"components.{name}")
    bets = _table(data.get("bet_tokens", {}), source, "bet_tokens")
    for key, value in bets.items():
        if key == "count":
            _number(value, source, "bet_tokens", key, 1, 50, integer=True)
        elif key == "frame":
            _number(value, source, "bet_tokens", key, 0, 10, integer=True)
        else:
            raise _fail(source, "bet_tokens", key, "is not a bet-token setting")
    if int(bets.get("frame", 4)) > int(bets.get("count", 10)):
        raise _fail(source, "bet_tokens", "frame", "may not exceed 'count'")


def _colour(value: Any, source: str, table: str, key: str) -> None:
    if not (isinstance(value, str) and HEX.fullmatch(value)):
        raise _fail(source, table, key, f"must be a colour like #RRGGBB, not {value!r}")


def _component(comp: Mapping[str, Any], source: str, table: str) -> None:
    for key, value in comp.items():
        if key in ("width", "height"):
            _number(value, source, table, key, 0.5, MAX_MM, unit="mm")
        elif key in ("safe", "corner_radius"):
            _number(value, source, table, key, 0.0, 100.0, unit="mm")
        elif key == "shape":
            if value not in ("rect", "circle"):
                raise _fail(source, table, key, f'must be "rect" or "circle", not {value!r}')
        elif key == "double_sided":
            if not isinstance(value, bool):
                raise _fail(source, table, key, f"must be true or false, not {value!r}")
        elif key == "areas":
            for area, raw in _table(value, source, f"{table}.areas").items():
                box = _table(raw, source, f"{table}.areas.{area}")
                for k in ("x", "y", "width", "height"):
                    if k not in box:
                        raise _fail(source, f"{table}.areas.{area}", k, "is missing")
                    _number(box[k], source, f"{table}.areas.{area}", k, 0.0, MAX_MM, unit="mm")
        elif key in COMPONENT_VALUES:
            low, high, integer = COMPONENT_VALUES[key]
            _number(value, source, table, key, low, high, integer=integer)
        else:
            raise _fail(source, table, key, "is not a component setting")


def check_texts(text_data: Mapping[str, Any], source: str) -> None:
    """Check every language table: strings and lists of strings of bounded length, and the
    placeholders of every format string (only the names its key allows, never a format
    spec or conversion, which could make a string of any size)."""
    for lang, raw in text_data.items():
        where = f"texts.{lang}"
        table = _table(raw, source, where)
        _walk(table, source, where, "")
        book = table.get("rulebook")
        if book is None:
            continue
        book = _table(book, source, f"{where}.rulebook")
        sections = book.get("sections", [])
        if not isinstance(sections, list) or len(sections) > MAX_LIST:
            raise _fail(source, f"{where}.rulebook", "sections", "must be a list of tables")
        for i, raw_section in enumerate(sections):
            here = f"{where}.rulebook.sections {i + 1}"
            section = _table(raw_section, source, here)
            for key in section:
                if key not in ("heading", "text", "figures"):
                    raise _fail(source, here, key, "is not a section key (heading, text, figures)")
            if not isinstance(section.get("heading"), str):
                raise _fail(source, here, "heading", "must be a string")
            _placeholders(str(section.get("text", "")), set(PLACEHOLDERS), source, here, "text")
            figures = section.get("figures", [])
            if not isinstance(figures, list) or any(f not in FIGURES for f in figures):
                raise _fail(
                    source,
                    here,
                    "figures",
                    f"must list some of {', '.join(FIGURES)}, not {figures!r}",
                )


def _walk(value: Any, source: str, table: str, path: str) -> None:
    if isinstance(value, str):
        if len(value) > MAX_STRING:
            raise _fail(source, table, path, f"is longer than {MAX_STRING} characters")
        allowed = FORMATS.get(path)
        if allowed is not None:
            _placeholders(value, allowed, source, table, path)
        return
    if isinstance(value, Mapping):
        if path == "rulebook":
            value = {k: v for k, v in value.items() if k != "sections"}
        for k, v in value.items():
            _walk(v, source, table, f"{path}.{k}" if path else str(k))
        return
    if isinstance(value, Sequence):
        if len(value) > MAX_LIST:
            raise _fail(source, table, path, f"has more than {MAX_LIST} entries")
        for v in value:
            _walk(v, source, table, path)
        return
    raise _fail(source, table, path, f"must be text, not {value!r}")


def _placeholders(text: str, allowed: set[str], source: str, table: str, key: str) -> None:
    try:
        fields = list(string.Formatter().parse(text))
    except ValueError as exc:
        raise _fail(source, table, key, f"is not a valid format string: {exc}") from None
    for _, name, spec, conversion in fields:
        if name is None:
            continue
        if spec or conversion:
            raise _fail(
                source,
                table,
                key,
                f"{text[:40]!r} may not format a placeholder (':' or '!'); write {{{name}}}",
            )
        if name not in allowed:
            names = ", ".join(f"{{{n}}}" for n in sorted(allowed)) or "none"
            raise _fail(source, table, key, f"uses {{{name}}}: the placeholders here are {names}")
