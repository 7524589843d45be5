"""Pieces as files for print services and virtual tables, drawn by the same callbacks as the
kit's sheets.

- ``images/``: one 300-dpi PNG per piece with the kit's bleed, (cut + 2 × bleed) × 300 / 25.4
  pixels, the resolution written in the file; a back per double-sided piece (one per kind where
  all its backs are alike); round pieces transparent outside their bleed circle.
- ``tts/``: Tabletop Simulator deck sheets (10 × 7 cards, at most 4096 px wide; TTS shows the
  last slot as the hidden card, so a sheet holds 69), the backs, and ``tts/GAME.json``, a saved
  object with one ``CustomDeck`` per kind of card pointing at the sheets and backs in the kit
  folder (``file://`` addresses), ready to load from the Saved Objects folder.
- ``--preset mpc`` / ``tgc``: one portrait PNG per card at the service's size — a poker card is
  822 × 1122 px (MakePlayingCards) or 825 × 1125 px (The Game Crafter), 300 dpi, the bleed
  being what lies beyond 63.5 × 88.9 mm; ``--preset pdf``: ``print-cards.pdf``, one card per
  page, front then back, its TrimBox the card and its BleedBox the card with its bleed.

>>> px_size(88.9, 63.5, 3.0)
(1121, 821)
>>> preset_bleed("mpc"), preset_bleed("tgc")
(3.048, 3.175)
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Container, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runarch_gen.pnp.raster import RasterSurface
from runarch_gen.pnp.sheets import Item
from runarch_gen.pnp.surface import Surface

if TYPE_CHECKING:
    from runarch_gen.pnp.kit import ExportKinds, PlannedKit

DPI = 300
PX_PER_MM = DPI / 25.4
TTS_COLUMNS, TTS_ROWS = 10, 7
TTS_MAX_WIDTH = 4096
TTS_CARDS_PER_SHEET = TTS_COLUMNS * TTS_ROWS - 1
POKER_MM = (63.5, 88.9)
PRESET_PX: dict[str, tuple[int, int]] = {"mpc": (822, 1122), "tgc": (825, 1125)}
"""A poker card's portrait image with bleed at each print service, in pixels at 300 dpi."""

DrawItem = Callable[[Surface, Item, float], None]


def px_size(width_mm: float, height_mm: float, bleed: float) -> tuple[int, int]:
    """The pixel size of a piece's image: its cut size plus bleed on every side at 300 dpi."""
    return (round((width_mm + 2 * bleed) * PX_PER_MM), round((height_mm + 2 * bleed) * PX_PER_MM))


def preset_bleed(preset: str) -> float:
    """The bleed (mm, each side) a service's poker-card image carries beyond the card."""
    w_px, _ = PRESET_PX[preset]
    return round((w_px / PX_PER_MM - POKER_MM[0]) / 2, 3)


def piece_surface(
    fonts: Any, item: Item, bleed: float, draw: DrawItem, *, turned: bool = False
) -> RasterSurface:
    """One piece drawn at 300 dpi with its bleed (turned a quarter clockwise if ``turned``)."""
    w, h = (item.height, item.width) if turned else (item.width, item.height)
    surface = RasterSurface(w + 2 * bleed, h + 2 * bleed, PX_PER_MM, fonts)
    if turned:
        with surface.transformed(translate=(bleed + w, bleed), quarter_turns=1):
            draw(surface, item, bleed)
    else:
        with surface.transformed(translate=(bleed, bleed)):
            draw(surface, item, bleed)
    return surface


def _items(plan: PlannedKit, kinds: Iterable[str]) -> list[Item]:
    wanted = set(kinds)
    return [i for i in plan.items if i.kind in wanted]


def _back_name(item: Item, shared: Sequence[str]) -> str:
    return f"{item.kind.replace('_', '-')}-back" if item.kind in shared else f"{item.key}-back"


class _Encoder:
    """PNG encoding (zlib, outside the GIL) on a second thread while the next piece is drawn;
    at most a few drawn images wait, so memory stays small. The bytes are the same."""

    def __init__(self, pool: ThreadPoolExecutor) -> None:
        self.pool = pool
        self.window: list[Future[bytes]] = []
        self.pending: dict[str, Future[bytes]] = {}

    def add(self, name: str, encode: Callable[[], bytes]) -> None:
        if name in self.pending:
            return
        if len(self.window) >= 4:
            self.window.pop(0).result()
        future = self.pool.submit(encode)
        self.window.append(future)
        self.pending[name] = future

    def results(self) -> dict[str, bytes]:
        return {name: future.result() for name, future in self.pending.items()}


def piece_images(
    plan: PlannedKit, exports: ExportKinds, keys: Container[str] | None = None
) -> dict[str, bytes]:
    """``images/KEY.png`` for every card and piece of the exported kinds (``-back`` for a
    double-sided one's back, once per kind where the backs are shared); only the pieces of
    these ``keys`` if given."""
    bleed = plan.imposition.bleed
    with ThreadPoolExecutor(max_workers=2) as pool:
        encoder = _Encoder(pool)
        for item in _items(plan, (*exports.cards, *exports.pieces)):
            if keys is not None and item.key not in keys:
                continue
            b = bleed if item.bleed is None else item.bleed
            front = piece_surface(plan.fonts, item, b, plan.front)
            encoder.add(f"images/{item.key}.png", partial(front.png, dpi=DPI, round_=item.round))
            if item.double_sided:
                name = f"images/{_back_name(item, exports.shared_backs)}.png"
                if name not in encoder.pending:
                    back = piece_surface(plan.fonts, item, b, plan.back)
                    encoder.add(name, partial(back.png, dpi=DPI, round_=item.round))
        return encoder.results()


def preset_files(plan: PlannedKit, exports: ExportKinds, preset: str) -> dict[str, bytes]:
    """A print service's files for every card (:data:`PRESET_PX`, or a PDF)."""
    cards = _items(plan, exports.cards)
    if not cards:
        return {}
    if preset == "pdf":
        return {"print-cards.pdf": preset_pdf(plan, cards, exports.shared_backs)}
    bleed = preset_bleed(preset)
    with ThreadPoolExecutor(max_workers=2) as pool:
        encoder = _Encoder(pool)
        for item in cards:
            turned = item.width > item.height  # services take portrait images
            front = piece_surface(plan.fonts, item, bleed, plan.front, turned=turned)
            encoder.add(f"{preset}/{item.key}.png", partial(front.png, dpi=DPI))
            if item.double_sided:
                name = f"{preset}/{_back_name(item, exports.shared_backs)}.png"
                if name not in encoder.pending:
                    back = piece_surface(plan.fonts, item, bleed, plan.back, turned=turned)
                    encoder.add(name, partial(back.png, dpi=DPI))
        return encoder.results()


def preset_pdf(plan: PlannedKit, cards: Sequence[Item], shared: Sequence[str]) -> bytes:
    """One card per page (its size with the kit's bleed, at least 3 mm), front then back: the
    TrimBox is the card, the BleedBox the card with its bleed."""
    from runarch_gen import __version__
    from runarch_gen.pnp.pdf import PdfSurface

    bleed = max(3.0, plan.imposition.bleed)
    first = cards[0]
    pdf = PdfSurface(
        first.width + 2 * bleed,
        first.height + 2 * bleed,
        plan.fonts,
        title=f"{plan.texts['game']} — cards for a print service",
        author="runarch-gen",
        creator=f"runarch-gen {__version__}",
    )
    pages = 0
    for item in cards:
        sides: list[DrawItem] = [plan.front]
        if item.double_sided:
            sides.append(plan.back)
        for draw in sides:
            if pages:
                pdf.next_page(item.width + 2 * bleed, item.height + 2 * bleed)
            with pdf.transformed(translate=(bleed, bleed)):
                draw(pdf, item, bleed)
            pdf.set_page_boxes(
                trim=(bleed, bleed, item.width, item.height),
                bleed=(0.0, 0.0, item.width + 2 * bleed, item.height + 2 * bleed),
            )
            pages += 1
    return pdf.finish()


# -- Tabletop Simulator ------------------------------------------------------------------------


def tts_cell(item: Item) -> tuple[int, int]:
    """The pixel size of one card on a Tabletop Simulator sheet (cut size, no bleed)."""
    w = TTS_MAX_WIDTH // TTS_COLUMNS
    return w, round(w * item.height / item.width)


def _sheet(plan: PlannedKit, chunk: Sequence[Item], draw: DrawItem) -> bytes:
    w, h = tts_cell(chunk[0])
    k = w / chunk[0].width
    surface = RasterSurface(TTS_COLUMNS * w / k, TTS_ROWS * h / k, k, plan.fonts, supersample=1)
    for i, item in enumerate(chunk):
        r, c = divmod(i, TTS_COLUMNS)
        with surface.transformed(translate=(c * w / k, r * h / k)):
            draw(surface, item, 0.0)
    return surface.png()


def tts_files(
    plan: PlannedKit, exports: ExportKinds, game: str, folder: Path | None = None
) -> dict[str, bytes]:
    """``tts/KIND-N.png`` sheets of every card kind, their backs (``tts/KIND-back.png``, or a
    back sheet ``tts/KIND-backs-N.png`` where backs differ) and ``tts/GAME.json``, whose
    addresses point into ``folder`` (the kit folder as it will be)."""
    out: dict[str, bytes] = {}
    decks: list[dict[str, Any]] = []
    base = (folder.resolve().as_uri() + "/") if folder is not None else ""
    deck_id = 0
    for position, kind in enumerate(exports.tts if exports.tts is not None else exports.cards):
        cards = _items(plan, (kind,))
        if not cards:
            continue
        name = kind.replace("_", "-")
        unique = any(c.double_sided for c in cards) and kind not in exports.shared_backs
        backs: dict[int, str] = {}
        shared_back = ""
        if not unique:
            w, h = tts_cell(cards[0])
            k = w / cards[0].width
            back = RasterSurface(w / k, h / k, k, plan.fonts)
            draw = plan.back if cards[0].double_sided else _plain_back(plan)
            draw(back, cards[0], 0.0)
            shared_back = f"tts/{name}-back.png"
            out[shared_back] = back.png()
        sheets: list[tuple[int, str, str, int]] = []
        for n in range(math.ceil(len(cards) / TTS_CARDS_PER_SHEET)):
            chunk = cards[n * TTS_CARDS_PER_SHEET : (n + 1) * TTS_CARDS_PER_SHEET]
            deck_id += 1
            face = f"tts/{name}-{n + 1}.png"
            out[face] = _sheet(plan, chunk, plan.front)
            back_name = shared_back
            if unique:
                back_name = f"tts/{name}-backs-{n + 1}.png"
                out[back_name] = _sheet(plan, chunk, plan.back)
            backs[deck_id] = back_name
            sheets.append((deck_id, face, back_name, len(chunk)))
        decks.append(_tts_deck(plan.texts.kind(kind), cards, sheets, base, unique, position))
    if decks:
        saved = {
            "SaveName": f"{plan.texts['game']}",
            "GameMode": "",
            "Date": "",
            "Table": "",
            "Sky": "",
            "Note": "",
            "Rules": "",
            "XmlUI": "",
            "LuaScript": "",
            "LuaScriptState": "",
            "ObjectStates": decks,
            "TabStates": {},
            "VersionNumber": "",
        }
        out[f"tts/{game}.json"] = (json.dumps(saved, indent=2, ensure_ascii=False) + "\n").encode()
    return out


def _plain_back(plan: PlannedKit) -> DrawItem:
    """A single-sided piece's back in Tabletop Simulator: plain paper."""
    from runarch_gen.pnp.geometry import Box
    from runarch_gen.pnp.paint import WHITE

    def draw(surface: Surface, item: Item, bleed: float) -> None:
        surface.rect(Box(-bleed, -bleed, item.width + 2 * bleed, item.height + 2 * bleed), WHITE)

    return draw


def _transform(x: float) -> dict[str, float]:
    return {
        "posX": x,
        "posY": 1.0,
        "posZ": 0.0,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0,
        "scaleX": 1.0,
        "scaleY": 1.0,
        "scaleZ": 1.0,
    }


def _tts_deck(
    nickname: str,
    cards: Sequence[Item],
    sheets: Sequence[tuple[int, str, str, int]],
    base: str,
    unique: bool,
    position: int,
) -> dict[str, Any]:
    """A ``DeckCustom`` (or a ``CardCustom`` for a single card) of ``cards`` on ``sheets``."""
    custom = {
        str(deck): {
            "FaceURL": base + face,
            "BackURL": base + back,
            "NumWidth": TTS_COLUMNS,
            "NumHeight": TTS_ROWS,
            "BackIsHidden": True,
            "UniqueBack": unique,
            "Type": 0,
        }
        for deck, face, back, _ in sheets
    }
    ids = [deck * 100 + i for deck, _, _, count in sheets for i in range(count)]
    sideways = cards[0].width > cards[0].height
    contained = [
        {
            "Name": "Card",
            "Transform": _transform(3.0 * position),
            "Nickname": item.key,
            "CardID": card_id,
            "SidewaysCard": sideways,
            "CustomDeck": {str(card_id // 100): custom[str(card_id // 100)]},
        }
        for item, card_id in zip(cards, ids, strict=True)
    ]
    if len(contained) == 1:
        return {**contained[0], "Name": "CardCustom", "Nickname": nickname}
    return {
        "Name": "DeckCustom",
        "Transform": _transform(3.0 * position),
        "Nickname": nickname,
        "SidewaysCard": sideways,
        "DeckIDs": ids,
        "CustomDeck": custom,
        "ContainedObjects": contained,
    }
