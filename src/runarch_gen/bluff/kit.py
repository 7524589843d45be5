"""Bluff's print-and-play kit: the betting scale board, dice stickers and nets, player screens,
the odds reference page and cards, and the rules in Czech and English, as one PDF with PNG previews.

Every page is drawn once on a :class:`~runarch_gen.pnp.surface.Surface` (vector PDF pages, and
raster previews of the same drawing). The board prints the rules' own scale (a ``scale=FILE``
board prints that file), the dice the rules' faces, the odds card the exact odds of
:mod:`.odds`. The texts are data: ``templates/bluff/texts.toml``. Nothing is random, so the same
options give the same bytes.

>>> pages = kit_pages(BluffRules(), "en")
>>> [p.name for p in pages][:4]
['board', 'odds', 'cards', 'stickers']
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from runarch_gen import __version__
from runarch_gen.bluff.odds import odds_table
from runarch_gen.bluff.rules import BluffRules
from runarch_gen.errors import InputError
from runarch_gen.pnp.geometry import Box, Point
from runarch_gen.pnp.kitfolder import (
    check_kit_folder,
    file_entries,
    owned_kit,
    write_kit_folder,
)
from runarch_gen.pnp.layout import read_toml, templates_dir
from runarch_gen.pnp.pages import Document, Draw, Page, footer_label
from runarch_gen.pnp.paint import BLACK, WHITE, Paint
from runarch_gen.pnp.stock import STANDARD_DIE, DieNet, draw_pips, draw_screen, star_points
from runarch_gen.pnp.surface import Stroke, Surface
from runarch_gen.pnp.text import TextStyle

__all__ = ["PAPERS", "kit_document", "kit_pages", "kit_texts", "make_kit"]

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN = 10.0
PLAYER_COLOURS = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#CC79A7")
"""Okabe–Ito, colour-blind safe: one per seat."""
BID_COLOUR = Paint.hex("#D55E00")
STAR_FIELD = Paint.hex("#FFF1C1")
GREY = Paint.hex("#9A9A9A")
LIGHT = Paint.hex("#E6E6E6")
CUT = Stroke(BLACK, 0.3)
FOLD = Stroke(GREY, 0.3, (2.0, 1.5))
THIN = Stroke(GREY, 0.2)


def kit_texts(lang: str) -> dict[str, Any]:
    """The kit's texts in ``lang`` (``cs`` or ``en``) from ``templates/bluff/texts.toml``."""
    table = read_toml(templates_dir() / "bluff" / "texts.toml")
    if lang not in table:
        raise InputError(f"--lang: one of {', '.join(sorted(table))}, not {lang[:20]!r}")
    return dict(table[lang])


# -- shapes ------------------------------------------------------------------------------------


def draw_face(surface: Surface, box: Box, face: int, star: int, ink: Paint = BLACK) -> None:
    """One die face: pips for a number, a drawn star for the star."""
    if face == star:
        surface.polygon(star_points(box.centre, box.width * 0.36), fill=ink)
        return
    draw_pips(surface, box, face, ink)


def _text(surface: Surface, box: Box, text: str, size: float, **style: Any) -> None:
    surface.text(box, text, TextStyle(size=size, **style))


# -- the board ---------------------------------------------------------------------------------


def ring_cells(count: int, area: Box) -> tuple[list[Box], float]:
    """``count`` square cells clockwise round the edge of ``area`` from its top-left corner,
    and their size."""
    cols = max(3, math.ceil(count / 3))
    rows = max(3, math.ceil((count - 2 * cols) / 2) + 2)
    size = min(area.width / cols, area.height / rows)
    x0 = area.x + (area.width - cols * size) / 2
    y0 = area.y + (area.height - rows * size) / 2
    path = [(c, 0) for c in range(cols)]
    path += [(cols - 1, r) for r in range(1, rows - 1)]
    path += [(c, rows - 1) for c in range(cols - 1, -1, -1)]
    path += [(0, r) for r in range(rows - 2, 0, -1)]
    return [Box(x0 + c * size, y0 + r * size, size, size) for c, r in path[:count]], size


def draw_board(rules: BluffRules, texts: dict[str, Any]) -> Draw:
    def draw(surface: Surface, page: Box) -> None:
        fields = rules.scale.fields
        cells, size = ring_cells(len(fields), page)
        for index, (field, cell) in enumerate(zip(fields, cells, strict=True)):
            inner = cell.inset(0.8)
            surface.rounded_rect(inner, 2.0, fill=STAR_FIELD if field.star else WHITE, stroke=CUT)
            if field.star:
                surface.polygon(
                    star_points(
                        (inner.x + inner.width * 0.3, inner.y + inner.height * 0.3),
                        inner.width * 0.2,
                    ),
                    fill=BID_COLOUR,
                )
                _text(
                    surface,
                    inner.moved(inner.width * 0.15, inner.height * 0.15),
                    str(field.quantity),
                    size * 1.2,
                    font="bold",
                    paint=BLACK,
                )
            else:
                _text(surface, inner, str(field.quantity), size * 1.5, font="bold")
            _text(
                surface,
                Box(inner.x, inner.bottom - 4, inner.width - 1.5, 3.5),
                f"{index + 1}",
                6,
                align="right",
                paint=GREY,
            )
        # the centre: title, legend and the slots for dice out of play
        rows = max(3, math.ceil((len(fields) - 2 * max(3, math.ceil(len(fields) / 3))) / 2) + 2)
        cols = max(3, math.ceil(len(fields) / 3))
        left = page.x + (page.width - cols * size) / 2 + size + 4
        top = page.y + (page.height - rows * size) / 2 + size + 4
        centre = Box(left, top, cols * size - 2 * size - 8, rows * size - 2 * size - 8)
        _text(surface, Box(centre.x, centre.y, centre.width, 16), texts["title"], 34, font="bold")
        _text(surface, Box(centre.x, centre.y + 16, centre.width, 7), texts["subtitle"], 11)
        slots = rules.players * rules.dice_per_player if rules.dice else 30
        per_row = min(10, slots)
        lines = math.ceil(slots / per_row)
        slot = min(
            15.0,
            (centre.width - 2 * (per_row - 1)) / per_row,
            (centre.height - 48 - 2 * (lines - 1)) / max(1, lines),
        )
        width = per_row * slot + (per_row - 1) * 2
        sx = centre.x + (centre.width - width) / 2
        sy = centre.y + 27
        _text(surface, Box(centre.x, sy, centre.width, 5), texts["board_out"], 9, paint=GREY)
        for k in range(slots):
            box = Box(
                sx + (k % per_row) * (slot + 2), sy + 6 + (k // per_row) * (slot + 2), slot, slot
            )
            surface.rounded_rect(box, 1.5, fill=LIGHT, stroke=THIN)
        legend = sy + 8 + lines * (slot + 2)
        _text(surface, Box(centre.x, legend, centre.width, 6), "→ " + texts["board_raise"], 10)
        surface.polygon(star_points((centre.x + 6, legend + 10), 3), fill=BID_COLOUR)
        _text(
            surface,
            Box(centre.x + 11, legend + 7, centre.width - 11, 6),
            texts["board_star"],
            10,
            align="left",
        )

    return draw


# -- the odds card -----------------------------------------------------------------------------


def odds_rows(faces: int, hidden: Sequence[int], needs: int) -> dict[str, list[list[str]]]:
    """The chance in per cent that at least N of H hidden dice count, for N = 1 … ``needs``,
    as printed: ``–`` impossible, ``<1`` and ``99+`` at the ends, else rounded."""
    out: dict[str, list[list[str]]] = {"number": [], "star": []}
    for h in hidden:
        rows = odds_table(h, faces)
        for kind in ("number", "star"):
            values = []
            for n in range(1, needs + 1):
                chance = 100 * float(getattr(rows[n], kind)) if n <= h else -1.0
                if chance < 0:
                    values.append("–")
                elif chance < 0.5:
                    values.append("<1")
                elif chance >= 99.5:
                    values.append("99+")
                else:
                    values.append(str(round(chance)))
            out[kind].append(values)
    return out


def _strong(value: str) -> bool:
    return value == "99+" or (value.isdigit() and int(value) >= 50)


def draw_odds(rules: BluffRules, texts: dict[str, Any]) -> Draw:
    def draw(surface: Surface, page: Box) -> None:
        _text(surface, Box(page.x, page.y, page.width, 12), texts["odds_title"], 20, font="bold")
        _text(surface, Box(page.x, page.y + 12, page.width, 12), texts["odds_how"], 9)
        hidden = list(range(2, 31, 2))
        half = (page.height - 30) / 2
        for block, (kind, needs) in enumerate((("number", 14), ("star", 8))):
            table = odds_rows(rules.faces, hidden, needs)[kind]
            top = page.y + 28 + block * half
            _text(
                surface,
                Box(page.x, top, page.width, 7),
                texts["odds_numbers" if kind == "number" else "odds_stars"],
                11,
                font="semibold",
                align="left",
            )
            cols = needs + 1
            cw = page.width / cols
            rh = min(7.5, (half - 12) / (len(hidden) + 1))
            for c in range(cols):
                label = "H \\ N" if c == 0 else str(c)
                _text(surface, Box(page.x + c * cw, top + 8, cw, rh), label, 8, font="bold")
            for r, h in enumerate(hidden):
                y = top + 8 + (r + 1) * rh
                if r % 2 == 0:
                    surface.rect(Box(page.x, y, page.width, rh), fill=LIGHT)
                _text(surface, Box(page.x, y, cw, rh), str(h), 8, font="bold")
                for c, value in enumerate(table[r], start=1):
                    shade = BLACK if _strong(value) else GREY
                    _text(surface, Box(page.x + c * cw, y, cw, rh), value, 8, paint=shade)

    return draw


CARD = (88.9, 63.5)
"""A reference card: poker size, landscape, in mm."""


def draw_card(surface: Surface, box: Box, rules: BluffRules, texts: dict[str, Any]) -> None:
    """One reference card: the odds of number bids and of star bids for 4–28 hidden dice,
    side by side."""
    surface.rounded_rect(box, 3.0, fill=WHITE, stroke=CUT)
    inner = box.inset(3.5)
    _text(surface, Box(inner.x, inner.y, inner.width, 6), texts["odds_title"], 9, font="bold")
    hidden = [4, 8, 12, 16, 20, 24, 28]
    rh = 4.0
    half = (inner.width - 3) / 2
    for block, (kind, needs, label) in enumerate(
        (("number", 8, "odds_numbers"), ("star", 5, "odds_stars"))
    ):
        table = odds_rows(rules.faces, hidden, needs)[kind]
        left = inner.x + block * (half + 3)
        top = inner.y + 7
        _text(surface, Box(left, top, half, 6), texts[label], 5.5, font="semibold", valign="top")
        cw = half / (needs + 1)
        head = top + 7
        for c in range(needs + 1):
            label_text = "H\\N" if c == 0 else str(c)
            _text(surface, Box(left + c * cw, head, cw, rh), label_text, 5, font="bold")
        for r, h in enumerate(hidden):
            y = head + (r + 1) * rh
            if r % 2 == 0:
                surface.rect(Box(left, y, half, rh), fill=LIGHT)
            _text(surface, Box(left, y, cw, rh), str(h), 5, font="bold")
            for c, value in enumerate(table[r], start=1):
                paint = BLACK if _strong(value) else GREY
                _text(surface, Box(left + c * cw, y, cw, rh), value, 5, paint=paint)
    bottom = inner.y + 14 + (len(hidden) + 1) * rh + 1
    _text(
        surface,
        Box(inner.x, bottom, inner.width, inner.bottom - bottom),
        texts["odds_how"],
        5,
        valign="top",
    )


def draw_cards(rules: BluffRules, texts: dict[str, Any]) -> Draw:
    def draw(surface: Surface, page: Box) -> None:
        width, height = CARD
        gap = 5.0
        x0 = page.x + (page.width - 2 * width - gap) / 2
        for k in range(6):
            col, row = k % 2, k // 2
            box = Box(x0 + col * (width + gap), page.y + row * (height + gap), width, height)
            draw_card(surface, box, rules, texts)

    return draw


# -- dice ----------------------------------------------------------------------------------------


def draw_stickers(rules: BluffRules, texts: dict[str, Any]) -> Draw:
    def draw(surface: Surface, page: Box) -> None:
        _text(
            surface,
            Box(page.x, page.y, page.width, 10),
            texts["stickers_title"],
            11,
            font="semibold",
        )
        dice, gap = 31, 2.0
        per_row = 2 * rules.sides  # two dice a row
        rows = math.ceil(dice * rules.sides / per_row)
        pitch = min((page.width + gap) / per_row, (page.height - 14 + gap) / rows, 18.0)
        side = pitch - gap
        for k in range(dice * rules.sides):
            die, face = divmod(k, rules.sides)
            box = Box(
                page.x + (k % per_row) * pitch, page.y + 14 + (k // per_row) * pitch, side, side
            )
            bid = die == dice - 1
            surface.rounded_rect(box, 2.0, fill=BID_COLOUR if bid else WHITE, stroke=CUT)
            draw_face(surface, box, face + 1, rules.star, WHITE if bid else BLACK)

    return draw


def _net_faces(sides: int) -> tuple[int, ...]:
    # a six-sided die is the standard die (opposite faces sum to 7: 2|5, 1|★, 3|4)
    if sides == 6:
        return STANDARD_DIE
    return tuple(((k % sides) + 1) for k in range(6))


def draw_net(surface: Surface, origin: Point, side: float, rules: BluffRules, bid: bool) -> None:
    """A cross net of one die with glue tabs: 3 × 4 faces of ``side`` mm."""
    ink = WHITE if bid else BLACK
    net = DieNet(side, _net_faces(rules.sides), fill=BID_COLOUR if bid else WHITE, fold=FOLD)

    def face(surface: Surface, box: Box, value: int) -> None:
        draw_face(surface, box, value, rules.star, ink)

    net.draw(surface, origin, face)


NETS_PER_PAGE = 9
"""Nets on a page: 3 across, 3 down, 15 mm faces (A4 and Letter)."""


def draw_nets(rules: BluffRules, texts: dict[str, Any], first: int, count: int) -> Draw:
    def draw(surface: Surface, page: Box) -> None:
        _text(surface, Box(page.x, page.y, page.width, 8), texts["nets_title"], 10, font="semibold")
        side = 15.0
        cell_w, cell_h = 3 * side + 16, 4 * side + 8
        for k in range(count):
            col, row = k % 3, k // 3
            origin = (page.x + 7 + col * cell_w, page.y + 14 + row * cell_h)
            draw_net(surface, origin, side, rules, bid=first + k == 30)

    return draw


# -- screens and rules ---------------------------------------------------------------------------


def draw_screens(rules: BluffRules, texts: dict[str, Any], seats: Sequence[int]) -> Draw:
    def draw(surface: Surface, page: Box) -> None:
        panel_h = min(82.0, (page.height - 12) / 3 - 6)
        hidden = [4, 8, 12, 16, 20, 24, 28]
        table = odds_rows(rules.faces, hidden, 10)["number"]
        for k, seat in enumerate(seats):
            top = page.y + k * (panel_h + 6)
            colour = Paint.hex(PLAYER_COLOURS[seat % len(PLAYER_COLOURS)])

            def name(
                surface: Surface, panel: Box, seat: int = seat, colour: Paint = colour
            ) -> None:
                left = panel.inset(3)
                surface.rounded_rect(left, 3.0, fill=colour)
                _text(surface, left.inset(3), f"{texts['player']} {seat + 1}", 26, font="bold")

            def odds(surface: Surface, panel: Box) -> None:
                middle = panel.inset(3)
                rh = middle.height / (len(hidden) + 2)
                cw = middle.width / 11
                _text(
                    surface,
                    Box(middle.x, middle.y, middle.width, rh),
                    texts["odds_title"],
                    8,
                    font="semibold",
                )
                for c in range(11):
                    _text(
                        surface,
                        Box(middle.x + c * cw, middle.y + rh, cw, rh),
                        "H\\N" if c == 0 else str(c),
                        6,
                        font="bold",
                    )
                for r, h in enumerate(hidden):
                    y = middle.y + (r + 2) * rh
                    _text(surface, Box(middle.x, y, cw, rh), str(h), 6, font="bold")
                    for c, value in enumerate(table[r], start=1):
                        _text(
                            surface,
                            Box(middle.x + c * cw, y, cw, rh),
                            value,
                            6,
                            paint=BLACK if _strong(value) else GREY,
                        )

            def summary(surface: Surface, panel: Box) -> None:
                _text(
                    surface,
                    panel.inset(4),
                    "\n".join(f"• {line}" for line in texts["screen_rules"]),
                    8,
                    align="left",
                    valign="top",
                )

            draw_screen(
                surface,
                Box(page.x, top, page.width, panel_h),
                (name, odds, summary),
                cut=CUT,
                fold=FOLD,
            )
        _text(
            surface,
            Box(page.x, page.bottom - 8, page.width, 6),
            texts["screen_note"],
            8,
            paint=GREY,
        )

    return draw


def draw_rules(texts: dict[str, Any]) -> Draw:
    def draw(surface: Surface, page: Box) -> None:
        _text(surface, Box(page.x, page.y, page.width, 12), texts["rules_title"], 18, font="bold")
        body = "\n\n".join(texts["rules"])
        _text(
            surface,
            Box(page.x, page.y + 16, page.width, page.height - 20),
            body,
            11,
            align="left",
            valign="top",
        )

    return draw


# -- the kit -------------------------------------------------------------------------------------


def kit_pages(rules: BluffRules, lang: str) -> list[Page]:
    """Every page of the kit, in print order."""
    texts = kit_texts(lang)
    note = str(texts["print_note"])
    pages = [
        Page("board", draw_board(rules, texts), True, note),
        Page("odds", draw_odds(rules, texts), False, note),
        Page("cards", draw_cards(rules, texts), False, note),
        Page("stickers", draw_stickers(rules, texts), False, note),
    ]
    for n, first in enumerate(range(0, 31, NETS_PER_PAGE), start=1):
        count = min(NETS_PER_PAGE, 31 - first)
        pages.append(Page(f"nets-{n}", draw_nets(rules, texts, first, count), False, note))
    for n, first in enumerate(range(0, 6, 3), start=1):
        seats = range(first, first + 3)
        pages.append(Page(f"screens-{n}", draw_screens(rules, texts, seats), False, note))
    for language in ("cs", "en"):
        own = kit_texts(language)
        pages.append(Page(f"rules-{language}", draw_rules(own), False, str(own["print_note"])))
    return pages


def kit_document(rules: BluffRules, lang: str, paper: str = "a4") -> Document:
    """The kit's pages on ``paper``, each with its footer (scale square, name, n/N, note)."""
    if paper not in PAPERS:
        raise InputError(f"--paper: one of {', '.join(PAPERS)}, not {paper[:20]!r}")
    pages = tuple(kit_pages(rules, lang))
    label = footer_label("Bluff", f"runarch-gen {__version__}")
    return Document(pages, PAPERS[paper], label, margin=MARGIN)


replaceable_kit = owned_kit(
    lambda manifest: manifest["game"] == "bluff", "a Bluff kit folder", "; choose another --out"
)
"""Whether a folder may be replaced: it holds a Bluff kit (``manifest.json`` of game ``bluff``)
and nothing but the files its manifest lists."""


def make_kit(
    rules: BluffRules,
    out: str | Path,
    *,
    paper: str = "a4",
    lang: str = "en",
    previews: Sequence[str] = (
        "board",
        "odds",
        "cards",
        "stickers",
        "nets-1",
        "screens-1",
        "rules-cs",
    ),
) -> dict[str, Any]:
    """Write ``kit.pdf``, PNG previews and ``manifest.json`` into the folder ``out`` (built
    aside and moved into place); return the manifest."""
    document = kit_document(rules, lang, paper)
    target = check_kit_folder(out, replaceable_kit)  # a folder not ours is refused at once
    files = {"kit.pdf": document.pdf(title="Bluff", creator=f"runarch-gen {__version__}")}
    files.update(document.previews(previews))
    manifest = {
        "game": "bluff",
        "version": __version__,
        "paper": paper,
        "lang": lang,
        "scale": str(rules.scale),
        "faces": rules.faces,
        "pages": [p.name for p in document.pages],
        "files": file_entries(files),
    }
    write_kit_folder(target, files, replaceable_kit, manifest)
    return manifest
