"""Pictures of single pieces for print-on-demand services and virtual tables.

- ``images/``: one PNG per card front (named by card id) and one per kind of back, per tile,
  stone and token, at 300 dpi with the kit's bleed: (cut + 2 × bleed) × 300 / 25.4 pixels, the
  size a print-on-demand service asks for. Drawn by the same painter as ``kit.pdf``.
- ``tts/``: Tabletop Simulator deck sheets, a 10 × 7 grid of card fronts at most 4096 px wide
  (70 slots; TTS shows the last as the hidden card, so a sheet holds 69 cards), with the back
  as a separate image.

>>> px_size(88.9, 63.5, 3.0)
(1121, 821)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Container
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

from runarch_gen.pnp.raster import RasterSurface
from runarch_gen.pnp.sheets import Item
from runarch_gen.pnp.surface import Surface

if TYPE_CHECKING:
    from runarch_gen.runarch.kit.build import KitPlan

DPI = 300
PX_PER_MM = DPI / 25.4
TTS_COLUMNS, TTS_ROWS = 10, 7
TTS_MAX_WIDTH = 4096
TTS_CARDS_PER_SHEET = TTS_COLUMNS * TTS_ROWS - 1

IMAGE_KINDS = ("cards", "tiles", "stones", "bonus_tokens", "condition_tokens", "bet_tokens")
"""The kinds drawn one PNG per piece."""


def px_size(width_mm: float, height_mm: float, bleed: float) -> tuple[int, int]:
    """The pixel size of a piece's image: its cut size plus bleed on every side at 300 dpi."""
    return (round((width_mm + 2 * bleed) * PX_PER_MM), round((height_mm + 2 * bleed) * PX_PER_MM))


def piece_surface(
    plan: KitPlan, item: Item, bleed: float, draw: Callable[[Surface, Item, float], None]
) -> RasterSurface:
    """One piece drawn at 300 dpi, its bleed included (white beyond a round piece's bleed)."""
    surface = RasterSurface(
        item.width + 2 * bleed, item.height + 2 * bleed, PX_PER_MM, plan.painter.fonts
    )
    with surface.transformed(translate=(bleed, bleed)):
        draw(surface, item, bleed)
    return surface


def piece_png(
    plan: KitPlan, item: Item, bleed: float, draw: Callable[[Surface, Item, float], None]
) -> bytes:
    """One piece at 300 dpi as PNG bytes."""
    return piece_surface(plan, item, bleed, draw).png()


def render_images(plan: KitPlan, keys: Container[str] | None = None) -> dict[str, bytes]:
    """``images/KEY.png`` for every card front, tile, stone and token (``-back`` for the back
    of a double-sided one, once per kind when every back is the same); only the pieces of
    these ``keys`` if given."""
    painter = plan.painter
    bleed = plan.options.bleed
    pending: dict[str, Future[bytes]] = {}
    # PNG encoding (zlib, outside the GIL) runs on a second thread while the next piece is
    # drawn; at most a few drawn images wait, so memory stays small. Bytes are the same.
    with ThreadPoolExecutor(max_workers=2) as pool:
        window: list[Future[bytes]] = []

        def encode(name: str, surface: RasterSurface) -> None:
            if len(window) >= 4:
                window.pop(0).result()
            future = pool.submit(surface.png)
            window.append(future)
            pending[name] = future

        for item in plan.items:
            if item.kind not in IMAGE_KINDS or (keys is not None and item.key not in keys):
                continue
            b = bleed if item.bleed is None else item.bleed
            encode(f"images/{item.key}.png", piece_surface(plan, item, b, painter.front))
            if item.double_sided:
                # Card and condition-token backs are all alike: one image each.
                shared = item.kind in ("cards", "condition_tokens")
                name = f"images/{item.kind.replace('_', '-')}-back.png" if shared else None
                key = name or f"images/{item.key}-back.png"
                if key not in pending:
                    encode(key, piece_surface(plan, item, b, painter.back))
        return {name: future.result() for name, future in pending.items()}


def tts_cell(plan: KitPlan) -> tuple[int, int]:
    """The pixel size of one card on a Tabletop Simulator sheet (cut size, no bleed)."""
    card = plan.painter.layouts["card"]
    w = TTS_MAX_WIDTH // TTS_COLUMNS
    return w, round(w * card.height / card.width)


def render_tts(plan: KitPlan) -> dict[str, bytes]:
    """``tts/cards-N.png`` (10 × 7 card fronts, ≤ 4096 px wide) and ``tts/card-back.png``."""
    painter = plan.painter
    card = painter.layouts["card"]
    cards = [i for i in plan.items if i.kind == "cards"]
    if not cards:
        return {}
    w, h = tts_cell(plan)
    k = w / card.width
    out: dict[str, bytes] = {}
    sheets = math.ceil(len(cards) / TTS_CARDS_PER_SHEET)
    for n in range(sheets):
        chunk = cards[n * TTS_CARDS_PER_SHEET : (n + 1) * TTS_CARDS_PER_SHEET]
        surface = RasterSurface(
            TTS_COLUMNS * w / k, TTS_ROWS * h / k, k, painter.fonts, supersample=1
        )
        for i, item in enumerate(chunk):
            r, c = divmod(i, TTS_COLUMNS)
            with surface.transformed(translate=(c * w / k, r * h / k)):
                painter.draw_card_front(surface, item.payload, 0.0)
        out[f"tts/cards-{n + 1}.png"] = surface.png()
    back = RasterSurface(w / k, h / k, k, painter.fonts)
    painter.draw_card_back(back, 0.0)
    out["tts/card-back.png"] = back.png()
    return out
