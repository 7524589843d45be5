"""The Vrhcáby print-and-play kit on the generic pnp layer: the board tiled over A4/Letter
pages with overlap and alignment marks and as one A3 sheet, 2 × 15 checkers, two dice nets and
the doubling cube net (2 … 64), a match score tracker with a Crawford marker, setup cards for the
standard, Nackgammon and Hypergammon starts, a reference card (the probability tables computed
by :mod:`.odds`, the pip count, Thorp's count) and the rules (English; the Czech card carries
the summary). Drawing is a pure function of the page; the same options give the same bytes.

>>> files = build_kit("a4")
>>> sorted(files)
['board-a3.pdf', 'board-tiles.pdf', 'components.pdf', 'rules.pdf']
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from runarch_gen.backgammon.board import BAR, START, Side
from runarch_gen.backgammon.odds import HIT_CHANCE, REACH_CHANCE, SEED_DISTANCES, enter_table
from runarch_gen.backgammon.rules import STARTS
from runarch_gen.pnp.geometry import Box
from runarch_gen.pnp.paint import BLACK, WHITE, Paint
from runarch_gen.pnp.pdf import PdfSurface
from runarch_gen.pnp.sheets import PAPERS
from runarch_gen.pnp.surface import Stroke, Surface
from runarch_gen.pnp.text import TextStyle

__all__ = ["BOARD_HEIGHT", "BOARD_WIDTH", "build_kit", "draw_board"]

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


def _alignment_mark(surface: Surface, x: float, y: float) -> None:
    surface.circle((x, y), 3.0, stroke=LINE)
    surface.line((x - 5, y), (x + 5, y), LINE)
    surface.line((x, y - 5), (x, y + 5), LINE)


def _tiles(paper_w: float, paper_h: float) -> list[tuple[float, float, float, float]]:
    """Rectangles of the board (x, y, w, h) that fit one page each, overlapping by OVERLAP."""
    usable_w, usable_h = paper_w - 2 * MARGIN, paper_h - 2 * MARGIN - 8
    columns = 1
    while columns * usable_w - (columns - 1) * OVERLAP < BOARD_WIDTH:
        columns += 1
    rows = 1
    while rows * usable_h - (rows - 1) * OVERLAP < BOARD_HEIGHT:
        rows += 1
    step_x = (BOARD_WIDTH - usable_w) / (columns - 1) if columns > 1 else 0.0
    step_y = (BOARD_HEIGHT - usable_h) / (rows - 1) if rows > 1 else 0.0
    return [
        (c * step_x, r * step_y, min(usable_w, BOARD_WIDTH), min(usable_h, BOARD_HEIGHT))
        for r in range(rows)
        for c in range(columns)
    ]


def board_tiles_pdf(paper: str) -> bytes:
    """The board over pages of ``paper`` (landscape), overlapping, with alignment marks in the
    overlaps and each page's place (row, column) printed."""
    size = PAPERS[paper]
    width, height = size.height, size.width  # landscape
    tiles = _tiles(width, height)
    surface = PdfSurface(width, height, title="Vrhcáby — board tiles", creator="runarch-gen")
    columns = sum(1 for t in tiles if t[1] == tiles[0][1])
    marks = _mark_points(tiles)
    for index, (x, y, w, h) in enumerate(tiles):
        if index:
            surface.next_page()
        row, column = divmod(index, columns)
        surface.text(
            Box(MARGIN, 2, width - 2 * MARGIN, 7),
            f"Vrhcáby board / hrací deska — page {index + 1} of {len(tiles)}: row {row + 1},"
            f" column {column + 1}; trim one page at its dashed line and glue it over the"
            " next so that the ⊕ marks meet",
            TextStyle(size=8, align="left"),
        )
        with surface.transformed(translate=(MARGIN - x, MARGIN + 8 - y)):
            clip = Box(x, y, w, h)
            _draw_clipped(surface, clip)
            for mx, my in marks:
                if x <= mx <= x + w and y <= my <= y + h:
                    _alignment_mark(surface, mx, my)
        surface.rect(Box(MARGIN, MARGIN + 8, w, h), stroke=Stroke(GREY, 0.2, (2.0, 2.0)))
    return surface.finish()


def _mark_points(tiles: list[tuple[float, float, float, float]]) -> list[tuple[float, float]]:
    """Marks in the middle of every overlap strip, at a few places along it."""
    points: set[tuple[float, float]] = set()
    xs = sorted({t[0] for t in tiles})
    ys = sorted({t[1] for t in tiles})
    w, h = tiles[0][2], tiles[0][3]
    for before, left in itertools.pairwise(xs):
        mid = (left + before + w) / 2  # between this tile's left and the previous one's right
        for frac in (0.2, 0.5, 0.8):
            points.add((round(mid, 2), round(BOARD_HEIGHT * frac, 2)))
    for before, top in itertools.pairwise(ys):
        mid = (top + before + h) / 2
        for frac in (0.15, 0.5, 0.85):
            points.add((round(BOARD_WIDTH * frac, 2), round(mid, 2)))
    return sorted(points)


def _draw_clipped(surface: Surface, clip: Box) -> None:
    # The PDF and raster backends clip to the page; drawing the whole board and letting the
    # page edge cut it is enough: the tile's window is where the page shows.
    del clip
    draw_board(surface)


def board_a3_pdf() -> bytes:
    """The whole board on one A3 sheet (landscape)."""
    width, height = 420.0, 297.0
    surface = PdfSurface(width, height, title="Vrhcáby — board A3", creator="runarch-gen")
    with surface.transformed(translate=((width - BOARD_WIDTH) / 2, (height - BOARD_HEIGHT) / 2)):
        draw_board(surface)
    return surface.finish()


PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)],
}
# A cross net: the cells of faces in a 4 × 3 grid (opposite faces sum to 7)
NET = [(1, 0), (0, 1), (1, 1), (2, 1), (3, 1), (1, 2)]
DIE_FACES = [2, 4, 1, 3, 6, 5]  # opposite pairs: 1-6, 2-5, 3-4
CUBE_FACES = ["2", "4", "8", "64", "16", "32"]


def _net(
    surface: Surface, x: float, y: float, side: float, face: Callable[[Box, int], None]
) -> None:
    for index, (cx, cy) in enumerate(NET):
        box = Box(x + cx * side, y + cy * side, side, side)
        surface.rect(box, fill=WHITE, stroke=LINE)
        face(box, index)
    # glue tabs on the free edges of the top and bottom faces
    for cx, cy, top in ((1, 0, True), (1, 2, False)):
        bx, by = x + cx * side, y + cy * side
        if top:
            surface.polygon(
                [
                    (bx - 0.0, by),
                    (bx - side * 0.25, by + side * 0.2),
                    (bx - side * 0.25, by + side * 0.8),
                    (bx, by + side),
                ],
                stroke=Stroke(GREY, 0.2, (1.5, 1.5)),
            )
        else:
            surface.polygon(
                [
                    (bx + side, by),
                    (bx + side * 1.25, by + side * 0.2),
                    (bx + side * 1.25, by + side * 0.8),
                    (bx + side, by + side),
                ],
                stroke=Stroke(GREY, 0.2, (1.5, 1.5)),
            )


def _die_face(surface: Surface) -> Callable[[Box, int], None]:
    def face(box: Box, index: int) -> None:
        for fx, fy in PIPS[DIE_FACES[index]]:
            surface.circle(
                (box.x + fx * box.width, box.y + fy * box.height), box.width * 0.08, fill=BLACK
            )

    return face


def _cube_face(surface: Surface) -> Callable[[Box, int], None]:
    def face(box: Box, index: int) -> None:
        surface.text(box.inset(2), CUBE_FACES[index], TextStyle(font="bold", size=20, paint=DARK))

    return face


def _diagram(surface: Surface, box: Box, white: Side, black: Side) -> None:
    scale = box.width / BOARD_WIDTH
    with surface.transformed(translate=(box.x, box.y), scale=scale):
        draw_board(surface, (white, black))


def components_pdf(paper: str) -> bytes:
    """Checkers, dice and cube nets, the score tracker, setup cards and the reference card."""
    size = PAPERS[paper]
    w, h = size.width, size.height
    surface = PdfSurface(w, h, title="Vrhcáby — components", creator="runarch-gen")
    head = TextStyle(font="bold", size=13, align="left")
    body = TextStyle(size=9, align="left", valign="top")
    # page 1: checkers
    surface.text(
        Box(MARGIN, MARGIN, w - 2 * MARGIN, 8),
        "Checkers / kameny: 15 white, 15 black — cut out",
        head,
    )
    diameter = 28.0
    for index in range(30):
        row, column = divmod(index, 6)
        cx = MARGIN + 10 + diameter / 2 + column * (diameter + 3)
        cy = MARGIN + 20 + diameter / 2 + row * (diameter + 3)
        paint, ring = (WHITE, GREY) if index < 15 else (CHECKER_DARK, WHITE)
        surface.circle((cx, cy), diameter / 2, fill=paint, stroke=LINE)
        surface.circle((cx, cy), diameter / 2 - 3, stroke=Stroke(ring, 0.4))
    # page 2: dice, cube, score tracker
    surface.next_page()
    surface.text(
        Box(MARGIN, MARGIN, w - 2 * MARGIN, 8),
        "Dice and the doubling cube / kostky a sázecí kostka — fold, glue",
        head,
    )
    side = 16.0
    _net(surface, MARGIN + 8, MARGIN + 16, side, _die_face(surface))
    _net(surface, MARGIN + 8 + 4.8 * side, MARGIN + 16, side, _die_face(surface))
    _net(surface, MARGIN + 8, MARGIN + 22 + 3 * side, side * 1.2, _cube_face(surface))
    top = MARGIN + 22 + 6.6 * side + 10
    surface.text(
        Box(MARGIN, top, w - 2 * MARGIN, 8),
        "Match score / skóre zápasu (marker on the score; C = Crawford game)",
        head,
    )
    cell = (w - 2 * MARGIN - 20) / 13
    for player, name in enumerate(("White / bílý", "Black / černý")):
        y = top + 12 + player * 2 * (cell + 4)
        surface.text(Box(MARGIN, y, w - 2 * MARGIN, 6), name, body)
        for row in range(2):
            for index in range(13):
                value = row * 13 + index
                box = Box(MARGIN + index * cell, y + 6 + row * cell, cell, cell)
                surface.rect(box, stroke=LINE)
                surface.text(box.inset(1), str(value), TextStyle(size=10))
    crawford = Box(w - MARGIN - 18, top + 12, 16, 16)
    surface.rounded_rect(crawford, 3, fill=LIGHT, stroke=LINE)
    surface.text(crawford, "C", TextStyle(font="bold", size=16))
    # page 3: setup cards
    surface.next_page()
    surface.text(
        Box(MARGIN, MARGIN, w - 2 * MARGIN, 8),
        "Setup cards / rozestavení (white moves 24 → 1, black the other way)",
        head,
    )
    card_h = (h - 2 * MARGIN - 16) / 3
    for index, (name, start) in enumerate(STARTS.items()):
        y = MARGIN + 12 + index * card_h
        surface.text(
            Box(MARGIN, y, w - 2 * MARGIN, 6), f"{name.capitalize()}: " + _describe(start), body
        )
        diagram_w = min(w - 2 * MARGIN, (card_h - 10) * BOARD_WIDTH / BOARD_HEIGHT)
        _diagram(surface, Box(MARGIN, y + 7, diagram_w, 0), start, start)
    # page 4: reference card
    surface.next_page()
    _reference(surface, w, h)
    return surface.finish()


def _describe(start: Side) -> str:
    parts = [f"{start[p]} on {p}" for p in range(24, 0, -1) if start[p]]
    return (
        ", ".join(parts) + f" ({sum(start)} checkers, {sum(p * n for p, n in enumerate(start))}"
        " pips)"
    )


def _reference(surface: Surface, w: float, h: float) -> None:
    head = TextStyle(font="bold", size=13, align="left")
    body = TextStyle(size=9, align="left", valign="top", leading=1.25)
    surface.text(
        Box(MARGIN, MARGIN, w - 2 * MARGIN, 8),
        "Reference card / přehled — computed by runarch-gen",
        head,
    )
    lines = ["Distance  p(hit)  p(total ≥)   /  vzdálenost  p(zásah)  p(součet min.)"]
    for d in SEED_DISTANCES:
        lines.append(f"{d:>2}: {HIT_CHANCE[d]:6.1%}   {REACH_CHANCE[d]:6.1%}")
    lines.append("")
    lines.append("Closed points: all of 1 / 2 / 3-4 checkers enter  (obsazených polí)")
    for k, one, two, more in enter_table():
        lines.append(f"{k}: {one:6.1%}  {two:6.1%}  {more:6.1%}")
    surface.text(
        Box(MARGIN, MARGIN + 12, (w - 2 * MARGIN) / 2, h - 2 * MARGIN - 12), "\n".join(lines), body
    )
    notes = (
        f"Pip count / počet ok: the sum over your checkers of their point numbers (bar = 25);"
        f" the start is {sum(p * n for p, n in enumerate(START))} pips each.\n\n"
        "Thorp's count / Thorpova hodnota (races): pips + 2 per checker on the board + 1 per"
        " checker on your 1-point − 1 per home point held; the leader adds a tenth if over 30."
        " The leader doubles when his count exceeds the trailer's by at most 2 (redoubles: 1);"
        " the trailer takes if the leader's count is at least his own minus 2.\n\n"
        "Scoring / bodování: single 1, gammon 2 (loser bore off none), backgammon 3 (and a"
        " checker on the bar or in the winner's home board), times the cube.\n\n"
        "Cube / kostka: double before your roll if the cube is yours or in the middle; take"
        " (the game goes on at twice the stake, the cube is yours) or drop (lose the current"
        " stake). Crawford: no doubling in the first game a player needs one point.\n\n"
        "Notation / zápis: 31: 8/5 6/5 · bar/22 · 6/off (ven) · 13/11*/5 · 19/17(2)."
    )
    surface.text(Box(w / 2 + 2, MARGIN + 12, w / 2 - MARGIN - 2, h - 2 * MARGIN - 12), notes, body)


RULES_CS = """Vrhcáby — pravidla ve zkratce (podrobně v angličtině na dalších stranách; [V-nn] jsou
rozhodnutí pravidel runarch-gen)

Výbava: deska s 24 poli, 15 kamenů pro každého hráče, dvě kostky, sázecí kostka 2–64.

Rozestavení [V-01]: každý hráč má 2 kameny na svém poli 24, 5 na 13, 3 na 8 a 5 na 6. Bílý táhne
od 24 k 1, černý opačně. Varianty: Nackgammon (2 na 24, 2 na 23, 4 na 13, 3 na 8, 4 na 6) a
Hypergammon (po jednom kameni na 24, 23, 22).

Začátek [V-04]: každý hodí jednou kostkou; vyšší hod začíná a hraje obě čísla. Při shodě se hází
znovu (automatické zdvojení jen podle dohody [V-36]).

Tah: hod dvěma kostkami, každé číslo je samostatný posun kamene; dvojice se hraje čtyřikrát
[V-12]. Kámen smí skončit na prázdném poli, na svém poli nebo na poli s jediným soupeřovým
kamenem, který tím vyhodí na bar [V-05, V-06]. Kameny z baru se musí nasadit dřív než cokoli jiného
[V-03]. Musí se zahrát co nejvíc čísel [V-08]; lze-li zahrát jen jedno z nich, tedy vyšší [V-09].

Vyvádění [V-07]: až jsou všechny kameny v domácí ohradě (pole 1–6); číslo vyšší než nejvzdálenější
kámen vyvádí nejvzdálenější kámen.

Výhra [V-21]: kdo první vyvede všechny kameny. Gammon (soupeř nevyvedl nic) = 2×, backgammon
(a má kámen na baru nebo v ohradě vítěze) = 3× hodnota sázecí kostky.

Sázecí kostka [V-30–V-35]: před hodem smí zdvojnásobit ten, u koho kostka je (nebo kdokoli, je-li
uprostřed); soupeř přijme (hraje se o dvojnásobek, kostka je jeho) nebo odmítne a prohraje
dosavadní sázku. Jacobyho pravidlo (hra o peníze): bez zdvojení se gammony počítají jednoduše.
Bobr a mýval jen podle dohody. Crawfordovo pravidlo (zápas) [V-42]: v první hře, kdy jednomu
chybí jediný bod, se nezdvojuje.

Zápis [V-51]: 31: 8/5 6/5 · bar/22 · 6/ven · 13/11*/5 · 19/17(2).
"""


def rules_pdf(paper: str, rules_text: str) -> bytes:
    """The rules as a booklet: a Czech summary page, then the rules document (English), one
    or more pages per section."""
    size = PAPERS[paper]
    w, h = size.width, size.height
    surface = PdfSurface(w, h, title="Vrhcáby — rules", creator="runarch-gen")
    czech = "\n\n".join(part.replace("\n", " ") for part in RULES_CS.split("\n\n"))
    sections = [czech, *_sections(rules_text)]
    style = TextStyle(size=9, align="left", valign="top", leading=1.25, min_size=7)
    for index, section in enumerate(sections):
        if index:
            surface.next_page()
        surface.text(
            Box(MARGIN + 5, MARGIN + 5, w - 2 * MARGIN - 10, h - 2 * MARGIN - 10), section, style
        )
    return surface.finish()


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
    """Every file of the kit by name."""
    if rules_text is None:
        rules_text = "Vrhcáby — see runarch-gen backgammon rules"
    return {
        "board-tiles.pdf": board_tiles_pdf(paper),
        "board-a3.pdf": board_a3_pdf(),
        "components.pdf": components_pdf(paper),
        "rules.pdf": rules_pdf(paper, rules_text),
    }
