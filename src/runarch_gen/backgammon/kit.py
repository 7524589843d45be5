"""The Vrhcáby print-and-play kit on the generic pnp layer: the board tiled over A4/Letter
pages with overlap and alignment marks (:mod:`runarch_gen.pnp.tiling`) and as one A3 sheet,
2 × 15 checkers, two dice nets and the doubling cube net (2 … 64), a match score track with a
Crawford marker (:mod:`runarch_gen.pnp.stock`), setup cards for the standard, Nackgammon and
Hypergammon starts, a reference card (the probability tables computed by :mod:`.odds`, the pip
count, Thorp's count) and the rules (English; the Czech card carries the summary), written as
one kit folder with previews and a manifest (:mod:`runarch_gen.pnp.kitfolder`). Drawing is a
pure function of the page; the same options give the same bytes.

>>> files = build_kit("a4")
>>> sorted(files)
['board-a3.pdf', 'board-tiles.pdf', 'components.pdf', 'rules.pdf']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from runarch_gen import __version__
from runarch_gen.backgammon.board import BAR, START, Side
from runarch_gen.backgammon.odds import HIT_CHANCE, REACH_CHANCE, SEED_DISTANCES, enter_table
from runarch_gen.backgammon.rules import STARTS
from runarch_gen.errors import InputError
from runarch_gen.pnp.geometry import Box
from runarch_gen.pnp.kitfolder import check_kit_folder, file_entries, owned_kit, write_kit_folder
from runarch_gen.pnp.layout import read_toml, templates_dir
from runarch_gen.pnp.pages import Document, Page, footer_label
from runarch_gen.pnp.paint import BLACK, WHITE, Paint
from runarch_gen.pnp.pdf import PdfSurface
from runarch_gen.pnp.sheets import PAPERS
from runarch_gen.pnp.stock import (
    DOUBLING_CUBE,
    DieNet,
    draw_checker,
    draw_score_track,
    draw_track_marker,
    pip_face,
    text_face,
)
from runarch_gen.pnp.surface import Stroke, Surface
from runarch_gen.pnp.text import TextStyle
from runarch_gen.pnp.tiling import TilePlan, draw_tile, plan_tiles

__all__ = [
    "BOARD_HEIGHT",
    "BOARD_WIDTH",
    "board_tiles",
    "build_kit",
    "components_document",
    "draw_board",
    "make_kit",
]

BOARD_WIDTH = 400.0
BOARD_HEIGHT = 280.0
BAR_WIDTH = 20.0
FRAME = 8.0
OVERLAP = 12.0
MARGIN = 8.0
DARK = Paint.hex("#7a3b2e")
LIGHT = Paint.hex("#e8c98f")
FELT = Paint.hex("#2f5d3a")
WOOD = Paint.hex("#5b3a1e")
GREY = Paint.hex("#9a9a9a")
CHECKER_DARK = Paint.hex("#222222")
LINE = Stroke(BLACK, 0.3)
THIN = Stroke(GREY, 0.2)


def _texts() -> dict[str, Any]:
    """The kit's printed words: ``templates/backgammon/texts.toml``."""
    return read_toml(templates_dir() / "backgammon" / "texts.toml")


TEXTS = _texts()
NOTE = str(TEXTS["note"])
CREATOR = f"runarch-gen {__version__}"


def _point_box(point: int) -> tuple[float, float, bool]:
    """Left x of white's ``point`` (1-24) and whether it hangs from the top edge."""
    width = (BOARD_WIDTH - 2 * FRAME - BAR_WIDTH) / 12
    if point <= 12:  # bottom row, 1 at the right (white's home board bottom right)
        index = 12 - point
        top = False
    else:
        index = point - 13
        top = True
    x = FRAME + index * width + (BAR_WIDTH if index >= 6 else 0.0)
    return x, width, top


def draw_board(surface: Surface, setup: tuple[Side, Side] | None = None) -> None:
    """The board at (0, 0), ``BOARD_WIDTH`` × ``BOARD_HEIGHT`` mm: frame, bar, 24 points
    numbered from white's side (1–24 along the near edge right to left, black's numbers in
    small type beside them), and optionally checkers of a position (white, black)."""
    surface.rect(Box(0, 0, BOARD_WIDTH, BOARD_HEIGHT), fill=WOOD)
    inner = Box(FRAME, FRAME, BOARD_WIDTH - 2 * FRAME, BOARD_HEIGHT - 2 * FRAME)
    surface.rect(inner, fill=FELT)
    bar_x = FRAME + 6 * (BOARD_WIDTH - 2 * FRAME - BAR_WIDTH) / 12
    surface.rect(Box(bar_x, 0, BAR_WIDTH, BOARD_HEIGHT), fill=WOOD)
    depth = (BOARD_HEIGHT - 2 * FRAME) * 0.42
    label = TextStyle(font="bold", size=9, paint=WHITE)
    small = TextStyle(size=6, paint=LIGHT)
    for point in range(1, 25):
        x, width, top = _point_box(point)
        paint = DARK if point % 2 else LIGHT
        if top:
            tip = FRAME + depth
            surface.polygon([(x, FRAME), (x + width, FRAME), (x + width / 2, tip)], fill=paint)
            surface.text(Box(x, 0, width, FRAME * 0.62), str(point), label)
            surface.text(Box(x, FRAME * 0.55, width, FRAME * 0.45), str(25 - point), small)
        else:
            base = BOARD_HEIGHT - FRAME
            surface.polygon(
                [(x, base), (x + width, base), (x + width / 2, base - depth)], fill=paint
            )
            surface.text(Box(x, base + FRAME * 0.38, width, FRAME * 0.62), str(point), label)
            surface.text(Box(x, base, width, FRAME * 0.45), str(25 - point), small)
    surface.text(Box(bar_x, BOARD_HEIGHT / 2 - 6, BAR_WIDTH, 12), "BAR", label)
    if setup is not None:
        white, black = setup
        _checkers(surface, white, WHITE, CHECKER_DARK, mirror=False)
        _checkers(surface, black, CHECKER_DARK, WHITE, mirror=True)


def _checkers(surface: Surface, side: Side, paint: Paint, ink: Paint, mirror: bool) -> None:
    for own in range(1, 25):
        count = side[own]
        if not count:
            continue
        point = 25 - own if mirror else own
        x, width, top = _point_box(point)
        radius = min(width * 0.45, (BOARD_HEIGHT / 2 - FRAME - 4) / 10)
        for index in range(min(count, 5)):
            offset = FRAME + radius + index * 2 * radius
            cy = offset if top else BOARD_HEIGHT - offset
            surface.circle((x + width / 2, cy), radius, fill=paint, stroke=Stroke(GREY, 0.4))
        if count > 5:
            offset = FRAME + radius + 4 * 2 * radius
            cy = offset if top else BOARD_HEIGHT - offset
            surface.text(
                Box(x, cy - radius, width, 2 * radius),
                str(count),
                TextStyle(font="bold", size=10, paint=ink),
            )
    if side[BAR]:
        bar_x = FRAME + 6 * (BOARD_WIDTH - 2 * FRAME - BAR_WIDTH) / 12
        cy = BOARD_HEIGHT / 2 + (20 if mirror else -20)
        surface.circle((bar_x + BAR_WIDTH / 2, cy), 8, fill=paint, stroke=Stroke(GREY, 0.4))


def board_tiles(paper: str) -> tuple[tuple[float, float], TilePlan]:
    """The landscape page of ``paper`` and how the board is tiled over such pages: windows of
    the page less its margins (and an 8 mm band for the caption), overlapping by 12 mm."""
    size = PAPERS[paper]
    width, height = size.height, size.width  # landscape
    plan = plan_tiles(
        BOARD_WIDTH,
        BOARD_HEIGHT,
        width - 2 * MARGIN,
        height - 2 * MARGIN - 8,
        overlap=OVERLAP,
        along=(0.15, 0.35, 0.85),  # not on the bar's label in the middle
    )
    return (width, height), plan


def _tile_page(surface: Surface, plan: TilePlan, index: int) -> None:
    tile = plan.tiles[index]
    caption = plan.place(tile, str(TEXTS["board_caption"]))
    draw_tile(surface, plan, tile, (MARGIN, MARGIN + 8), draw_board, caption=caption)


def board_tiles_pdf(paper: str) -> bytes:
    """The board over pages of ``paper`` (landscape), overlapping, with alignment marks in the
    overlaps and each page's place (row, column) printed."""
    (width, height), plan = board_tiles(paper)
    surface = PdfSurface(width, height, title="Vrhcáby — board tiles", creator=CREATOR)
    for index in range(len(plan.tiles)):
        if index:
            surface.next_page()
        _tile_page(surface, plan, index)
    return surface.finish()


def board_a3_pdf() -> bytes:
    """The whole board on one A3 sheet (landscape)."""
    width, height = 420.0, 297.0
    surface = PdfSurface(width, height, title="Vrhcáby — board A3", creator=CREATOR)
    with surface.transformed(translate=((width - BOARD_WIDTH) / 2, (height - BOARD_HEIGHT) / 2)):
        draw_board(surface)
    return surface.finish()


HEAD = TextStyle(font="bold", size=13, align="left")
BODY = TextStyle(size=9, align="left", valign="top")


def _checkers_page(surface: Surface, frame: Box) -> None:
    surface.text(
        Box(frame.x, frame.y, frame.width, 8),
        str(TEXTS["checkers"]),
        HEAD,
    )
    diameter, gap = 28.0, 3.0
    left = frame.x + (frame.width - 6 * diameter - 5 * gap) / 2
    for index in range(30):
        row, column = divmod(index, 6)
        cx = left + diameter / 2 + column * (diameter + gap)
        cy = frame.y + 14 + diameter / 2 + row * (diameter + gap)
        paint, ring = (WHITE, GREY) if index < 15 else (CHECKER_DARK, WHITE)
        draw_checker(surface, (cx, cy), diameter / 2, fill=paint, ring=ring, edge=LINE)


def _dice_page(surface: Surface, frame: Box) -> None:
    surface.text(
        Box(frame.x, frame.y, frame.width, 8),
        str(TEXTS["dice"]),
        HEAD,
    )
    side = 16.0
    top = frame.y + 16
    die = DieNet(side, cut=LINE)
    die.draw(surface, (frame.x + 4, top), pip_face())
    die.draw(surface, (frame.x + 4 + 3 * side + 12, top), pip_face())
    cube = DieNet(side * 1.2, DOUBLING_CUBE, cut=LINE)
    cube.draw(
        surface,
        (frame.x + 4 + 6 * side + 24, top),
        text_face(TextStyle(font="bold", size=20, paint=DARK)),
    )
    top += 4 * side * 1.2 + 12
    surface.text(
        Box(frame.x, top, frame.width, 8),
        str(TEXTS["score"]),
        HEAD,
    )
    cell = (frame.width - 20) / 13
    for player, name in enumerate(str(n) for n in TEXTS["players"][:2]):
        y = top + 12 + player * 2 * (cell + 4)
        surface.text(Box(frame.x, y, frame.width, 6), name, BODY)
        draw_score_track(surface, (frame.x, y + 6), cell, range(26), 13, stroke=LINE)
    draw_track_marker(
        surface, Box(frame.right - 16, top + 12, 16, 16), "C", fill=LIGHT, stroke=LINE
    )


def _setup_page(surface: Surface, frame: Box) -> None:
    surface.text(
        Box(frame.x, frame.y, frame.width, 8),
        str(TEXTS["setups"]),
        HEAD,
    )
    card_h = (frame.height - 12) / 3
    for index, (name, start) in enumerate(STARTS.items()):
        y = frame.y + 12 + index * card_h
        surface.text(
            Box(frame.x, y, frame.width, 6), f"{name.capitalize()}: " + _describe(start), BODY
        )
        diagram_w = min(frame.width, (card_h - 10) * BOARD_WIDTH / BOARD_HEIGHT)
        _diagram(surface, Box(frame.x, y + 7, diagram_w, 0), start, start)


def components_document(paper: str) -> Document:
    """Checkers, dice and cube nets with the score track, setup cards and the reference card,
    each page with its footer (scale square, name, n/N)."""
    pages = (
        Page("checkers", _checkers_page, note=NOTE),
        Page("dice", _dice_page, note=NOTE),
        Page("setups", _setup_page, note=NOTE),
        Page("reference", _reference, note=NOTE),
    )
    size = PAPERS[paper]
    return Document(pages, (size.width, size.height), footer_label("Vrhcáby", CREATOR))


def components_pdf(paper: str) -> bytes:
    return components_document(paper).pdf(title="Vrhcáby — components", creator=CREATOR)


def _diagram(surface: Surface, box: Box, white: Side, black: Side) -> None:
    scale = box.width / BOARD_WIDTH
    with surface.transformed(translate=(box.x, box.y), scale=scale):
        draw_board(surface, (white, black))


def _describe(start: Side) -> str:
    parts = [f"{start[p]} on {p}" for p in range(24, 0, -1) if start[p]]
    return (
        ", ".join(parts) + f" ({sum(start)} checkers, {sum(p * n for p, n in enumerate(start))}"
        " pips)"
    )


def _reference(surface: Surface, frame: Box) -> None:
    body = TextStyle(size=9, align="left", valign="top", leading=1.25)
    surface.text(
        Box(frame.x, frame.y, frame.width, 8),
        str(TEXTS["reference"]),
        HEAD,
    )
    lines = [str(TEXTS["distance_head"])]
    for d in SEED_DISTANCES:
        lines.append(f"{d:>2}: {HIT_CHANCE[d]:6.1%}   {REACH_CHANCE[d]:6.1%}")
    lines.append("")
    lines.append(str(TEXTS["closed_head"]))
    for k, one, two, more in enter_table():
        lines.append(f"{k}: {one:6.1%}  {two:6.1%}  {more:6.1%}")
    half = frame.width / 2
    surface.text(Box(frame.x, frame.y + 12, half - 2, frame.height - 12), "\n".join(lines), body)
    start = sum(p * n for p, n in enumerate(START))
    notes = "\n\n".join(
        [str(TEXTS["pip_count"]).format(start=start), *(str(n) for n in TEXTS["notes"])]
    )
    surface.text(Box(frame.x + half + 2, frame.y + 12, half - 2, frame.height - 12), notes, body)


RULES_CS = str(TEXTS["rules_cs"])


def rules_document(paper: str, rules_text: str) -> Document:
    """The rules as a booklet: a Czech summary page, then the rules document (English), one
    or more pages per section, numbered."""
    czech = "\n\n".join(part.replace("\n", " ") for part in RULES_CS.split("\n\n"))
    sections = [czech, *_sections(rules_text)]
    style = TextStyle(size=9, align="left", valign="top", leading=1.25, min_size=7)

    def section(text: str) -> Callable[[Surface, Box], None]:
        def draw(surface: Surface, frame: Box) -> None:
            surface.text(frame.inset(3), text, style)

        return draw

    pages = tuple(Page(f"rules-{n}", section(text)) for n, text in enumerate(sections, 1))
    size = PAPERS[paper]
    return Document(pages, (size.width, size.height), footer_label("Vrhcáby", CREATOR))


def rules_pdf(paper: str, rules_text: str) -> bytes:
    return rules_document(paper, rules_text).pdf(title="Vrhcáby — rules", creator=CREATOR)


def _sections(text: str, limit: int = 3800) -> list[str]:
    plain = text.replace("**", "").replace("`", "")
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    for paragraph in plain.split("\n\n"):
        starts = paragraph.startswith("## ")
        if current and (starts or size + len(paragraph) > limit):
            chunks.append("\n\n".join(current))
            current, size = [], 0
        current.append(paragraph.replace("\n", " ").lstrip("# "))
        size += len(paragraph)
    if current:
        chunks.append("\n\n".join(current))
    return chunks


def build_kit(paper: str = "a4", rules_text: str | None = None) -> dict[str, bytes]:
    """Every PDF of the kit by name."""
    if paper not in PAPERS:
        raise InputError(f"--paper: one of {', '.join(PAPERS)}, not {paper[:20]!r}")
    if rules_text is None:
        rules_text = "Vrhcáby — see runarch-gen backgammon rules"
    return {
        "board-tiles.pdf": board_tiles_pdf(paper),
        "board-a3.pdf": board_a3_pdf(),
        "components.pdf": components_pdf(paper),
        "rules.pdf": rules_pdf(paper, rules_text),
    }


def kit_previews(paper: str, px_per_mm: float = 2.0) -> dict[str, bytes]:
    """PNG previews: the first board tile and every components page."""
    from runarch_gen.pnp.raster import RasterSurface

    (width, height), plan = board_tiles(paper)
    raster = RasterSurface(width, height, px_per_mm=px_per_mm)
    _tile_page(raster, plan, 0)
    out = {"preview-board-tile-1.png": raster.png()}
    document = components_document(paper)
    previews = document.previews([p.name for p in document.pages], px_per_mm)
    out.update(
        {name.replace("preview-", "preview-components-"): png for name, png in previews.items()}
    )
    return out


replaceable_kit = owned_kit(
    lambda manifest: manifest["game"] == "backgammon",
    "a Vrhcáby kit folder",
    "; choose another --output",
)
"""Whether a folder may be replaced: a Vrhcáby kit (``manifest.json`` of game ``backgammon``)
holding nothing but the files its manifest lists."""


def make_kit(
    out: str | Path,
    *,
    paper: str = "a4",
    rules_text: str | None = None,
    previews: bool = True,
) -> dict[str, Any]:
    """Write the kit folder ``out`` (built aside, moved into place once complete): the PDFs,
    PNG previews and ``manifest.json``; return the manifest."""
    if paper not in PAPERS:
        raise InputError(f"--paper: one of {', '.join(PAPERS)}, not {paper[:20]!r}")
    target = check_kit_folder(out, replaceable_kit)  # a folder not ours is refused at once
    files = build_kit(paper, rules_text)
    if previews:
        files.update(kit_previews(paper))
    pages: dict[str, Sequence[str]] = {
        "board-tiles.pdf": [
            f"tile-{t.row + 1}-{t.column + 1}" for t in board_tiles(paper)[1].tiles
        ],
        "board-a3.pdf": ["board"],
        "components.pdf": [p.name for p in components_document(paper).pages],
    }
    manifest = {
        "game": "backgammon",
        "version": __version__,
        "paper": paper,
        "pages": {name: list(names) for name, names in pages.items()},
        "files": file_entries(files),
    }
    write_kit_folder(target, files, replaceable_kit, manifest)
    return manifest
