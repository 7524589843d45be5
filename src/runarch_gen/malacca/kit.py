"""Malacca's print-and-play kit on the generic :mod:`runarch_gen.pnp` layer.

Components (cut sizes in mm, :data:`SIZES`): 12 ship cards, 40 action cards with one common back
(24 basic, 16 special — a laid card must not give itself away [M-05]), the captain card, 8
character cards, 12 equipment cards, 15 chest cards printed 10 and 20 on their two sides, 40
silver and 20 gold coins as round tokens, a reference card of the resolution table (Czech on the
front, English on the back) and the rules booklet in Czech and English. Everything is drawn in
each component's own millimetres; :func:`build_kit_pdf` imposes them on A4 or Letter.

>>> items = kit_items()
>>> counts = {kind: sum(1 for i in items if i.kind == kind) for kind in ("action", "coin")}
>>> counts
{'action': 40, 'coin': 60}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from runarch_gen import __version__
from runarch_gen.errors import InputError
from runarch_gen.malacca.kit_texts import (
    BOOKLET,
    CARD_NAMES,
    CHARACTER_TEXT,
    EQUIPMENT_TEXT,
    REFERENCE,
    SPECIAL_NOTE,
)
from runarch_gen.malacca.rules import (
    EQUIPMENT_COST,
    EQUIPMENT_COUNT,
    SPECIAL_DECK,
    Card,
    Character,
    Equipment,
    MalaccaRules,
)
from runarch_gen.pnp.fonts import PT, default_fonts
from runarch_gen.pnp.geometry import Box
from runarch_gen.pnp.kitfolder import check_kit_folder, file_entries, owned_kit, write_kit_folder
from runarch_gen.pnp.paint import WHITE, Paint
from runarch_gen.pnp.sheets import (
    PAPERS,
    Duplex,
    Furniture,
    Imposition,
    Item,
    SheetSpec,
    impose,
    render_page_png,
    render_pdf,
)
from runarch_gen.pnp.stock import draw_card_back, draw_coin
from runarch_gen.pnp.surface import Stroke, Surface
from runarch_gen.pnp.text import TextStyle, layout_text

__all__ = ["SIZES", "build_kit_pdf", "kit_items", "kit_previews", "make_kit", "plan_kit"]


class Look:
    """The kit's colours: red attack, blue defence, green trade (each card also says its
    name, so colour is never the only cue)."""

    attack = Paint.hex("#C0392B")
    defence = Paint.hex("#1F5FA8")
    trade = Paint.hex("#2E8B57")
    back = Paint.hex("#1B2631")
    sea = Paint.hex("#2E6F8E")
    parchment = Paint.hex("#F4E9D2")
    ink = Paint.hex("#2B1D0E")
    silver = Paint.hex("#C9CED6")
    gold = Paint.hex("#E1B530")
    wood = Paint.hex("#8B5A2B")


LOOK = Look()
SIZES: Mapping[str, tuple[float, float]] = {
    "ship": (63.0, 88.0),
    "action": (63.0, 88.0),
    "captain": (63.0, 88.0),
    "character": (63.0, 88.0),
    "equipment": (63.0, 88.0),
    "chest": (44.0, 63.0),
    "coin": (22.0, 22.0),
    "reference": (105.0, 148.0),
}
"""Cut sizes in mm: poker cards, mini cards for chests, coins in 22 mm squares (cut the circle)."""
GOLD_COINS, SILVER_COINS, CHESTS = 20, 40, 15
BOOKLET_ROOM = 6.0
"""Millimetres kept free around a booklet page (room for up to that much bleed)."""


def _role_paint(card: Card) -> Paint:
    role = card.choices[0].value
    return {"attack": LOOK.attack, "defence": LOOK.defence, "trade": LOOK.trade}[role]


def kit_items(rules: MalaccaRules | None = None, page: Box | None = None) -> list[Item]:
    """Every component of the kit as an imposable item (the booklet's pages sized to
    ``page``, the usable area of the paper; A4's by default)."""
    rules = rules or MalaccaRules()
    items: list[Item] = []

    def add(
        kind: str, key: str, payload: Any, *, back: bool = True, rotatable: bool = True
    ) -> None:
        w, h = SIZES[kind]
        items.append(Item(kind, key, w, h, back, rotatable, payload=payload))

    for i, cargo in enumerate(rules.ships):
        add("ship", f"ship-{i + 1}", cargo)
    basic = [Card.ATTACK, Card.DEFENCE, Card.TRADE]
    for seat in range(8):
        for card in basic:
            add("action", f"{card.label}-{seat + 1}", card)
    for card, count in SPECIAL_DECK.items():
        for i in range(count):
            add("action", f"{card.label}-{i + 1}", card)
    add("captain", "captain", None)
    for character in Character:
        add("character", character.key, character)
    for kind in Equipment:
        for i in range(EQUIPMENT_COUNT):
            add("equipment", f"better-{kind.label}-{i + 1}", kind)
    for i in range(CHESTS):
        add("chest", f"chest-{i + 1}", i)
    for i in range(SILVER_COINS):
        add("coin", f"silver-{i + 1}", 1, back=False)
    for i in range(GOLD_COINS):
        add("coin", f"gold-{i + 1}", 5, back=False)
    add("reference", "reference", None, rotatable=False)
    # A booklet page is the paper's usable area less a bleed's room on each side.
    area = (page or SheetSpec(PAPERS["a4"]).usable).inset(BOOKLET_ROOM)
    for n, blocks in enumerate(booklet_pages(area.width, area.height)):
        items.append(
            Item(
                "rules",
                f"rules-{n + 1}",
                area.width,
                area.height,
                False,
                False,
                alone=True,
                payload=blocks,
            )
        )
    return items


# -- the booklet ------------------------------------------------------------------------------

STYLES = {
    "title": TextStyle(font="bold", size=15, align="left", valign="top", min_size=15),
    "heading": TextStyle(font="semibold", size=11.5, align="left", valign="top", min_size=11.5),
    "body": TextStyle(font="regular", size=9.5, align="left", valign="top", min_size=9.5),
}
GAP = {"title": 4.0, "heading": 1.5, "body": 3.0}


def _height(text: str, style: TextStyle, width: float) -> float:
    layout = layout_text(text, width, 10_000.0, style, default_fonts())
    n = len(layout.lines)
    em = layout.size * PT
    return (0.9 + 0.25) * em + (n - 1) * style.leading * em


def booklet_pages(width: float, height: float) -> list[tuple[tuple[str, str, float], ...]]:
    """The booklet's blocks, Czech then English, split into pages of ``width`` × ``height``
    mm: each page a tuple of (style, text, top)."""
    pages: list[tuple[tuple[str, str, float], ...]] = []
    for lang in ("cs", "en"):
        current: list[tuple[str, str, float]] = []
        y = 0.0
        for style, text in BOOKLET[lang]:
            h = _height(text, STYLES[style], width)
            if current and (y + h > height or (style == "heading" and y + h + 20 > height)):
                pages.append(tuple(current))
                current, y = [], 0.0
            current.append((style, text, y))
            y += h + GAP[style]
        pages.append(tuple(current))
    return pages


# -- drawing --------------------------------------------------------------------------------


def _fill(surface: Surface, item: Item, bleed: float, paint: Paint) -> Box:
    cut = Box(0, 0, item.width, item.height)
    surface.rect(cut.inset(-bleed), fill=paint)
    return cut


def _frame(surface: Surface, cut: Box, paint: Paint, inset: float = 3.0) -> Box:
    inner = cut.inset(inset)
    surface.rounded_rect(inner, 2.5, fill=None, stroke=Stroke(paint, 0.6))
    return inner


def _ship_picture(surface: Surface, box: Box) -> None:
    x, y, w, h = box.x, box.y, box.width, box.height
    hull = [
        (x, y + 0.62 * h),
        (x + w, y + 0.62 * h),
        (x + 0.82 * w, y + 0.9 * h),
        (x + 0.14 * w, y + 0.9 * h),
    ]
    surface.polygon(hull, fill=LOOK.wood)
    surface.rect(Box(x + 0.48 * w, y + 0.05 * h, 0.035 * w, 0.58 * h), fill=LOOK.ink)
    surface.polygon(
        [
            (x + 0.2 * w, y + 0.15 * h),
            (x + 0.46 * w, y + 0.12 * h),
            (x + 0.46 * w, y + 0.55 * h),
            (x + 0.14 * w, y + 0.55 * h),
        ],
        fill=WHITE,
    )
    surface.polygon(
        [
            (x + 0.54 * w, y + 0.2 * h),
            (x + 0.8 * w, y + 0.25 * h),
            (x + 0.86 * w, y + 0.55 * h),
            (x + 0.54 * w, y + 0.55 * h),
        ],
        fill=WHITE,
    )
    for i in range(6):
        surface.line(
            (x + 0.05 * w + i * 0.16 * w, y + 0.96 * h),
            (x + 0.13 * w + i * 0.16 * w, y + 0.96 * h),
            Stroke(WHITE, 0.5),
        )


def _coin(
    surface: Surface, centre: tuple[float, float], r: float, value: int, label: str = ""
) -> None:
    paint = LOOK.gold if value == 5 else LOOK.silver
    draw_coin(surface, centre, r, label or str(value), fill=paint, ink=LOOK.ink)


def _two_lang(
    surface: Surface, box: Box, cs: str, en: str, paint: Paint, size: float = 8.0
) -> None:
    half = box.height / 2
    surface.text(
        Box(box.x, box.y, box.width, half), cs, TextStyle(size=size, paint=paint, min_size=4)
    )
    surface.text(
        Box(box.x, box.y + half, box.width, half),
        en,
        TextStyle(font="italic", size=size, paint=paint, min_size=4),
    )


def draw_front(surface: Surface, item: Item, bleed: float) -> None:
    """Draw ``item``'s front in its own mm (cut box from (0, 0))."""
    kind = item.kind
    if kind == "ship":
        cut = _fill(surface, item, bleed, LOOK.sea)
        inner = _frame(surface, cut, WHITE)
        surface.text(
            Box(inner.x, inner.y + 2, inner.width, 8),
            "LOĎ · SHIP",
            TextStyle(font="bold", size=11, paint=WHITE),
        )
        _ship_picture(surface, Box(inner.x + 6, inner.y + 13, inner.width - 12, 36))
        _coin(surface, (cut.width / 2, inner.bottom - 16), 12, 1, str(item.payload))
        return
    if kind == "action":
        draw_action(surface, item, bleed)
        return
    if kind == "rules":
        for style, text, top in item.payload:
            surface.text(Box(0, top, item.width, item.height - top), text, STYLES[style])
        return
    cut = _fill(surface, item, bleed, LOOK.parchment)
    inner = _frame(surface, cut, LOOK.ink)
    ink = LOOK.ink
    if kind == "captain":
        surface.text(
            Box(inner.x, inner.y + 4, inner.width, 12),
            "KAPITÁN",
            TextStyle(font="bold", size=16, paint=ink),
        )
        surface.text(
            Box(inner.x, inner.y + 15, inner.width, 8),
            "CAPTAIN",
            TextStyle(font="italic", size=11, paint=ink),
        )
        _ship_picture(surface, Box(inner.x + 8, inner.y + 26, inner.width - 16, 24))
        _two_lang(
            surface,
            Box(inner.x + 2, inner.y + 54, inner.width - 4, 24),
            "Sází první. Po kole se posune po směru hodin.",
            "Lays first. Moves on clockwise after each round.",
            ink,
        )
    elif kind == "character":
        character: Character = item.payload
        surface.text(
            Box(inner.x, inner.y + 3, inner.width, 10),
            character.title,
            TextStyle(font="bold", size=13, paint=ink),
        )
        money = "počet hráčů" if character is Character.CAESAR else str(character.starting_money(5))
        money_en = (
            "one per player" if character is Character.CAESAR else str(character.starting_money(5))
        )
        start = "N" if character is Character.CAESAR else str(character.starting_money(5))
        _coin(surface, (cut.width / 2, inner.y + 25), 8, 1, start)
        surface.text(
            Box(inner.x, inner.y + 34, inner.width, 9),
            f"začíná s: {money} · starts with: {money_en}",
            TextStyle(size=7.5, paint=ink, min_size=4),
        )
        cs, en = CHARACTER_TEXT[character]
        _two_lang(surface, Box(inner.x + 2, inner.y + 44, inner.width - 4, 36), cs, en, ink, 8.5)
    elif kind == "equipment":
        kind_: Equipment = item.payload
        cs_name, en_name, cs, en = EQUIPMENT_TEXT[kind_]
        paint = (LOOK.attack, LOOK.defence, LOOK.trade)[kind_]
        surface.rect(Box(inner.x, inner.y, inner.width, 22), fill=paint)
        surface.text(
            Box(inner.x, inner.y + 2, inner.width, 10),
            cs_name,
            TextStyle(font="bold", size=13, paint=WHITE),
        )
        surface.text(
            Box(inner.x, inner.y + 12, inner.width, 8),
            en_name,
            TextStyle(font="italic", size=10, paint=WHITE),
        )
        surface.text(
            Box(inner.x, inner.y + 25, inner.width, 18),
            f"+{kind_.bonus}",
            TextStyle(font="bold", size=34, paint=paint, min_size=8),
        )
        _two_lang(surface, Box(inner.x + 2, inner.y + 45, inner.width - 4, 22), cs, en, ink)
        surface.text(
            Box(inner.x, inner.bottom - 12, inner.width, 9),
            f"cena · price {EQUIPMENT_COST}",
            TextStyle(font="semibold", size=8, paint=ink),
        )
    elif kind == "chest":
        _chest(surface, cut, 10)
    elif kind == "coin":
        cut = Box(0, 0, item.width, item.height)
        surface.rect(cut.inset(-bleed), fill=WHITE)
        _coin(surface, (cut.width / 2, cut.height / 2), cut.width / 2, int(item.payload))
    elif kind == "reference":
        _reference(surface, inner, "cs")


def _chest(surface: Surface, cut: Box, value: int) -> None:
    inner = _frame(surface, cut, LOOK.ink, 2.5)
    box = Box(inner.x + 6, inner.y + 12, inner.width - 12, inner.height - 28)
    surface.rect(box, fill=LOOK.wood, stroke=Stroke(LOOK.ink, 0.5))
    surface.rounded_rect(
        Box(box.x, box.y - 5, box.width, 9), 3, fill=LOOK.wood, stroke=Stroke(LOOK.ink, 0.5)
    )
    surface.rect(Box(box.x + box.width / 2 - 3, box.y + 2, 6, 6), fill=LOOK.gold)
    surface.text(
        Box(inner.x, box.y + 8, inner.width, box.height - 8),
        str(value),
        TextStyle(font="bold", size=28, paint=WHITE, min_size=8),
    )
    surface.text(
        Box(inner.x, inner.bottom - 12, inner.width, 10),
        f"truhla · chest = {value} stříbrňáků · silver",
        TextStyle(size=6.5, paint=LOOK.ink, min_size=3.5),
    )


def _reference(surface: Surface, box: Box, lang: str) -> None:
    title, rows, note = REFERENCE[lang]
    ink = LOOK.ink
    surface.text(
        Box(box.x, box.y, box.width, 12),
        title,
        TextStyle(font="bold", size=9.5, paint=ink, min_size=5),
    )
    y = box.y + 14
    col = (box.width * 0.22, box.width * 0.39, box.width * 0.39)
    heights = (8.0, 32.0, 32.0, 32.0)
    paints = (None, LOOK.trade, LOOK.attack, LOOK.defence)
    for row, h, paint in zip(rows, heights, paints, strict=True):
        x = box.x
        for i, (text, w) in enumerate(zip(row, col, strict=True)):
            cell = Box(x, y, w, h)
            if i == 0 and paint is not None:
                surface.rect(cell.inset(0.5), fill=paint)
                surface.text(
                    cell.inset(1.5), text, TextStyle(font="bold", size=8.5, paint=WHITE, min_size=4)
                )
            else:
                font = "bold" if paint is None else "regular"
                surface.rect(cell, fill=None, stroke=Stroke(ink, 0.2))
                surface.text(
                    cell.inset(1.2), text, TextStyle(font=font, size=7.5, paint=ink, min_size=3.5)
                )
            x += w
        y += h
    surface.text(
        Box(box.x, y + 2, box.width, box.bottom - y - 2),
        note,
        TextStyle(size=7, paint=ink, min_size=3.5),
    )


def draw_action(surface: Surface, item: Item, bleed: float) -> None:
    card: Card = item.payload
    cut = Box(0, 0, item.width, item.height)
    cs, en, value = CARD_NAMES[card]
    if card.role is None:  # a wait card: its two colours side by side
        first, second = (_role_paint(card), LOOK.trade if card is Card.WAIT_DT else LOOK.defence)
        outer = cut.inset(-bleed)
        surface.polygon(
            [(outer.x, outer.y), (outer.right, outer.y), (outer.x, outer.bottom)], fill=first
        )
        surface.polygon(
            [(outer.right, outer.y), (outer.right, outer.bottom), (outer.x, outer.bottom)],
            fill=second,
        )
    else:
        _fill(surface, item, bleed, _role_paint(card))
    inner = _frame(surface, cut, WHITE)
    surface.text(
        Box(inner.x, inner.y + 3, inner.width, 11),
        cs.upper(),
        TextStyle(font="bold", size=15, paint=WHITE),
    )
    surface.text(
        Box(inner.x, inner.y + 13, inner.width, 8),
        en.upper(),
        TextStyle(font="italic", size=10, paint=WHITE),
    )
    big = TextStyle(font="bold", size=54 if card.role is not None else 11, paint=WHITE, min_size=6)
    surface.text(Box(inner.x + 2, inner.y + 24, inner.width - 4, 34), value, big)
    if card.is_special:
        _two_lang(
            surface,
            Box(inner.x + 3, inner.bottom - 20, inner.width - 6, 16),
            *SPECIAL_NOTE,
            WHITE,
            6.5,
        )


def draw_back(surface: Surface, item: Item, bleed: float) -> None:
    """Draw ``item``'s back: one back for all action cards [M-05], one per other card kind."""
    kind = item.kind
    if kind == "chest":
        cut = _fill(surface, item, bleed, LOOK.parchment)
        _chest(surface, cut, 20)
        return
    if kind == "reference":
        cut = _fill(surface, item, bleed, LOOK.parchment)
        _reference(surface, cut.inset(3), "en")
        return
    paint = {"ship": LOOK.sea, "action": LOOK.back}.get(kind, LOOK.wood)
    sub = {
        "ship": "loď · ship",
        "action": "",
        "captain": "kapitán · captain",
        "character": "postava · character",
        "equipment": "vybavení · equipment",
    }.get(kind, "")
    cut = Box(0, 0, item.width, item.height)
    draw_card_back(surface, cut, bleed, fill=paint, accent=LOOK.gold, title="MALACCA", subtitle=sub)


# -- the kit ---------------------------------------------------------------------------------


def _furniture() -> Furniture:
    def label(page: int, pages: int, back: bool, kinds: tuple[str, ...]) -> str:
        side = "rub · back" if back else "líc · front"
        return f"Malacca · {', '.join(kinds)} · {side} · {page}/{pages}"

    return Furniture(
        "Tiskněte ve 100 % (bez přizpůsobení). Print at 100 % (no fit to page).",
        "10 mm",
        label,
    )


def plan_kit(
    rules: MalaccaRules | None = None,
    *,
    paper: str = "a4",
    bleed: float = 2.0,
    duplex: Duplex = "long",
    only: tuple[str, ...] | None = None,
) -> Imposition:
    """Impose the kit's components on ``paper`` (``only`` some kinds, by name)."""
    if paper not in PAPERS:
        raise InputError(f"--paper is one of {', '.join(PAPERS)}, not {paper!r}")
    spec = SheetSpec(PAPERS[paper])
    items = kit_items(rules, spec.usable)
    if only is not None:
        known = sorted({i.kind for i in items})
        for kind in only:
            if kind not in known:
                raise InputError(f"--only: unknown component {kind!r} (known: {', '.join(known)})")
        items = [i for i in items if i.kind in only]
    return impose(items, spec, bleed=bleed, duplex=duplex)


def build_kit_pdf(imposition: Imposition) -> bytes:
    """The kit as PDF bytes (the same bytes for the same options)."""
    return render_pdf(
        imposition,
        draw_front,
        draw_back,
        _furniture(),
        title="Malacca — print and play",
        author="runarch-gen",
        subject="Malacca kit",
        creator="runarch-gen",
    )


def kit_previews(imposition: Imposition, px_per_mm: float = 2.0) -> dict[str, bytes]:
    """Every printed page as PNG, by file name (``page-01.png``, ``page-01-back.png`` …)."""
    out: dict[str, bytes] = {}
    for index, page in enumerate(imposition.pages):
        out[f"page-{index + 1:02d}.png"] = render_page_png(
            imposition, index, draw_front, _furniture(), px_per_mm=px_per_mm
        )
        if page.backs is not None:
            draw: Callable[[Surface, Item, float], None] = draw_back
            out[f"page-{index + 1:02d}-back.png"] = render_page_png(
                imposition, index, draw, _furniture(), back=True, px_per_mm=px_per_mm
            )
    return out


replaceable_kit = owned_kit(
    lambda manifest: manifest["game"] == "malacca",
    "a Malacca kit folder",
    "; choose another --output",
)
"""Whether a folder may be replaced: a Malacca kit (``manifest.json`` of game ``malacca``)
holding nothing but the files its manifest lists."""


def make_kit(
    out: str | Path,
    rules: MalaccaRules | None = None,
    *,
    paper: str = "a4",
    bleed: float = 2.0,
    duplex: Duplex = "long",
    only: tuple[str, ...] | None = None,
    previews: bool = True,
) -> dict[str, Any]:
    """Write the kit folder ``out`` (built aside, moved into place once complete):
    ``kit.pdf``, a PNG preview of every printed page unless ``previews`` is false, and
    ``manifest.json``; return the manifest."""
    imposition = plan_kit(rules, paper=paper, bleed=bleed, duplex=duplex, only=only)
    target = check_kit_folder(out, replaceable_kit)  # a folder not ours is refused at once
    files = {"kit.pdf": build_kit_pdf(imposition)}
    if previews:
        files.update({f"preview-{n}": png for n, png in kit_previews(imposition).items()})
    counts: dict[str, int] = {}
    for page in imposition.pages:
        for placement in page.placements:
            counts[placement.item.kind] = counts.get(placement.item.kind, 0) + 1
    manifest = {
        "game": "malacca",
        "version": __version__,
        "paper": paper,
        "bleed_mm": bleed,
        "duplex": duplex,
        "only": list(only) if only is not None else None,
        "pages": imposition.page_count,
        "components": counts,
        "files": file_entries(files),
    }
    write_kit_folder(target, files, replaceable_kit, manifest)
    return manifest
