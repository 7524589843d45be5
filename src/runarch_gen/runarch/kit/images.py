"""RunArch's pieces as files for print services and virtual tables, through the generic
exports (:mod:`runarch_gen.pnp.exports`): a 300-dpi PNG with bleed per card, tile, stone and
token (``images/``), Tabletop Simulator sheets of the cards and tiles with a saved object
(``tts/``), and a print service's card files (``--preset``).

>>> px_size(88.9, 63.5, 3.0)
(1121, 821)
"""

from __future__ import annotations

from collections.abc import Container
from pathlib import Path
from typing import TYPE_CHECKING

from runarch_gen.pnp import exports
from runarch_gen.pnp.exports import (
    PX_PER_MM,
    TTS_CARDS_PER_SHEET,
    TTS_COLUMNS,
    TTS_MAX_WIDTH,
    TTS_ROWS,
    px_size,
)
from runarch_gen.pnp.kit import ExportKinds

if TYPE_CHECKING:
    from runarch_gen.runarch.kit.build import KitPlan

__all__ = [
    "EXPORTS",
    "PX_PER_MM",
    "TTS_CARDS_PER_SHEET",
    "TTS_COLUMNS",
    "TTS_MAX_WIDTH",
    "TTS_ROWS",
    "px_size",
    "render_images",
    "render_tts",
    "tts_cell",
]

EXPORTS = ExportKinds(
    cards=("cards",),
    pieces=("tiles", "stones", "bonus_tokens", "condition_tokens", "bet_tokens"),
    shared_backs=("cards", "condition_tokens"),
    tts=("cards", "tiles"),
)
"""What RunArch exports: the cards to services and Tabletop Simulator (the tiles too, as a deck
to deal out), a PNG of every other piece; cards and condition tokens share one back each."""

IMAGE_KINDS = (*EXPORTS.cards, *EXPORTS.pieces)
"""The kinds drawn one PNG per piece."""


def render_images(plan: KitPlan, keys: Container[str] | None = None) -> dict[str, bytes]:
    """``images/KEY.png`` for every card front, tile, stone and token (``-back`` for the back
    of a double-sided one, once per kind when every back is the same); only the pieces of
    these ``keys`` if given."""
    return exports.piece_images(plan, EXPORTS, keys)


def render_tts(plan: KitPlan, folder: Path | None = None) -> dict[str, bytes]:
    """``tts/cards-N.png`` (10 × 7 card fronts, ≤ 4096 px wide), ``tts/cards-back.png``, the
    tiles likewise, and ``tts/runarch.json`` (addresses into ``folder``)."""
    return exports.tts_files(plan, EXPORTS, "runarch", folder)


def tts_cell(plan: KitPlan) -> tuple[int, int]:
    """The pixel size of one card on a Tabletop Simulator sheet (cut size, no bleed)."""
    card = next(i for i in plan.items if i.kind == "cards")
    return exports.tts_cell(card)
