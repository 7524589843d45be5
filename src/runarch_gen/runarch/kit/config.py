"""The kit's data: component layouts, sheet settings, inks, token sets and texts, read from
``templates/runarch/kit.toml`` and ``templates/runarch/texts.toml`` with an optional designer
override laid over both (``--template FILE``).

>>> cfg = load_kit_config()
>>> cfg.layout("card").width, cfg.texts("cs").kind("tiles")
(88.9, 'podložky')
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from runarch_gen.errors import InputError
from runarch_gen.pnp.kit import LANGUAGES, Texts, load_templates
from runarch_gen.pnp.layout import ComponentLayout
from runarch_gen.pnp.paint import Paint
from runarch_gen.pnp.sheets import SheetSpec

KIT_TEMPLATE = "runarch/kit.toml"
TEXTS_TEMPLATE = "runarch/texts.toml"
__all__ = ["LANGUAGES", "KitConfig", "Texts", "load_kit_config"]
COMPONENT_NAMES = (
    "tile",
    "stone",
    "board",
    "card",
    "player_board",
    "frame_segment",
    "marker",
    "bonus_token",
    "condition_token",
    "bet_token",
    "rules",
)


@dataclass(frozen=True, slots=True)
class KitConfig:
    """Everything the kit reads from its templates."""

    data: Mapping[str, Any] = field(hash=False, compare=False)
    text_data: Mapping[str, Any] = field(hash=False, compare=False)
    source: str = "built-in templates"

    def layout(self, name: str) -> ComponentLayout:
        table = self.data.get("components", {}).get(name)
        if table is None:
            raise InputError(f"{self.source}: no [components.{name}] table")
        return ComponentLayout.from_table(name, table)

    def sheet(self, paper: str) -> SheetSpec:
        return SheetSpec.from_tables(self.data.get("sheet", {}), self.data.get("papers", {}), paper)

    @property
    def papers(self) -> tuple[str, ...]:
        return tuple(self.data.get("papers", {}))

    def ink(self, name: str) -> Paint:
        return _paint(self.data.get("inks", {}), name, "[inks]")

    def player_paints(self) -> list[tuple[Paint, Paint]]:
        """(fill, ink on it) for each player colour."""
        players = self.data.get("players", {})
        fills, inks = players.get("colours", []), players.get("inks", [])
        if len(fills) != 2 or len(inks) != 2:
            raise InputError(f"{self.source}: [players] needs two 'colours' and two 'inks'")
        return [
            (_hex(f, "[players] colours"), _hex(i, "[players] inks"))
            for f, i in zip(fills, inks, strict=True)
        ]

    def frame_space(self) -> float:
        """The width of one space of the score frame: a segment (five tiles and the frame's
        width) holds 25 spaces."""
        seg = self.layout("frame_segment")
        return (5 * self.layout("tile").width + seg.height) / 25

    def bet_token_count(self) -> int:
        return int(self.data.get("bet_tokens", {}).get("count", 10))

    def frame_bet_count(self) -> int:
        """Bet tokens lying on the frame at setup, each on a plate of 3 spaces [R-05]."""
        return int(self.data.get("bet_tokens", {}).get("frame", 4))

    def texts(self, lang: str) -> Texts:
        if lang not in self.text_data:
            raise InputError(f"unknown language {lang!r}: expected one of {', '.join(LANGUAGES)}")
        return Texts(lang, self.text_data[lang])


def _hex(value: Any, where: str) -> Paint:
    try:
        return Paint.hex(str(value))
    except ValueError:
        raise InputError(f"{where}: {value!r} is not a colour like #RRGGBB") from None


def _paint(table: Mapping[str, Any], name: str, where: str) -> Paint:
    if name not in table:
        raise InputError(f"{where}: missing '{name}'")
    return _hex(table[name], f"{where} {name}")


def load_kit_config(override: str | os.PathLike[str] | None = None) -> KitConfig:
    """The bundled kit templates (the shared ones with RunArch's laid over them), with
    ``override`` (a TOML file) laid over them: its tables may hold kit keys (``[sheet]``,
    ``[components.card]``, …) and texts (``[texts.cs]``)."""
    from runarch_gen.runarch.kit.schema import check_kit_data, check_texts

    def check(data: Mapping[str, Any], text_data: Mapping[str, Any], source: str) -> None:
        check_kit_data(data, source)
        check_texts(text_data, source)

    templates = load_templates("runarch", override, check)
    config = KitConfig(templates.data, templates.text_data, templates.source)
    try:
        for name in COMPONENT_NAMES:
            config.layout(name)
    except InputError as exc:
        raise InputError(f"{templates.source}: {exc}") from None
    return config
