"""The words printed in Malacca's kit, in Czech and English: card texts, the reference card and
the rules booklet (a summary of ``docs/rules/malacca.md`` with its decisions). They are data,
``templates/malacca/texts.toml``, read once; a missing key is named with the file.

>>> CARD_NAMES[Card.TRADE2]
('Obchod', 'Trade', '×2')
>>> BOOKLET["en"][0][0], REFERENCE["cs"][1][0]
('title', ('', 'Loď dobyta', 'Loď ubráněna'))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from runarch_gen.errors import InputError
from runarch_gen.malacca.rules import Card, Character, Equipment
from runarch_gen.pnp.layout import read_toml, templates_dir

__all__ = [
    "BOOKLET",
    "CARD_NAMES",
    "CHARACTER_TEXT",
    "EQUIPMENT_TEXT",
    "LANGUAGES",
    "REFERENCE",
    "SPECIAL_NOTE",
]

LANGUAGES = ("cs", "en")
Block = tuple[str, str]
"""(style: ``title``, ``heading`` or ``body``; text)."""

_SOURCE = "templates/malacca/texts.toml"


def _texts() -> dict[str, Any]:
    return read_toml(templates_dir() / "malacca" / "texts.toml")


def _get(table: Mapping[str, Any], *keys: str) -> Any:
    value: Any = table
    for key in keys:
        if not isinstance(value, Mapping) or key not in value:
            raise InputError(f"{_SOURCE}: [{'.'.join(keys[:-1])}] has no '{keys[-1]}'")
        value = value[key]
    return value


def _text(table: Mapping[str, Any], *keys: str) -> str:
    value = _get(table, *keys)
    if not isinstance(value, str):
        raise InputError(f"{_SOURCE}: '{'.'.join(keys)}' must be text")
    return value


_DATA = _texts()

CARD_NAMES: Mapping[Card, tuple[str, str, str]] = {
    # (Czech, English, the value printed large)
    card: tuple(_text(_DATA, "cards", card.name, key) for key in ("cs", "en", "value"))  # type: ignore[misc]
    for card in Card
    if card.name in _get(_DATA, "cards")
}

SPECIAL_NOTE: tuple[str, str] = (
    str(_get(_DATA, "special_note")[0]),
    str(_get(_DATA, "special_note")[1]),
)

CHARACTER_TEXT: Mapping[Character, tuple[str, str]] = {
    character: (
        _text(_DATA, "characters", character.name, "cs"),
        _text(_DATA, "characters", character.name, "en"),
    )
    for character in Character
}

EQUIPMENT_TEXT: Mapping[Equipment, tuple[str, str, str, str]] = {
    kind: tuple(  # type: ignore[misc]
        _text(_DATA, "equipment", kind.name, key) for key in ("cs_name", "en_name", "cs", "en")
    )
    for kind in Equipment
}

REFERENCE: Mapping[str, tuple[str, tuple[tuple[str, str, str], ...], str]] = {
    # language: (title, rows of (role, captured, defended), footnote)
    lang: (
        _text(_DATA, "reference", lang, "title"),
        tuple(
            (str(row[0]), str(row[1]), str(row[2]))
            for row in _get(_DATA, "reference", lang, "rows")
        ),
        _text(_DATA, "reference", lang, "note"),
    )
    for lang in LANGUAGES
}

BOOKLET: Mapping[str, tuple[Block, ...]] = {
    lang: tuple((str(block["style"]), str(block["text"])) for block in _get(_DATA, "booklet", lang))
    for lang in LANGUAGES
}
