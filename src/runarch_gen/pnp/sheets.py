"""Sheet imposition: components packed on paper with bleed and crop marks, backs mirrored on
the following page for double-sided printing, and the page furniture every sheet carries (a
10 mm calibration square and the "print at 100 %" note).

Imposition is pure geometry (:func:`impose`); :func:`render_pdf` and :func:`render_page_png`
draw the result through the component drawing callbacks, so both outputs share one layout.

>>> spec = SheetSpec(paper=PAPERS["a4"])
>>> items = [Item("chip", f"chip-{i}", 30, 30) for i in range(40)]
>>> imposition = impose(items, spec, bleed=3)
>>> [len(page.placements) for page in imposition.pages]
[35, 5]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from runarch_gen.errors import InputError
from runarch_gen.pnp.geometry import Box, Point
from runarch_gen.pnp.layout import number
from runarch_gen.pnp.paint import BLACK, WHITE, Paint
from runarch_gen.pnp.surface import Stroke, Surface
from runarch_gen.pnp.text import TextStyle

Duplex = Literal["long", "short", "none"]
DUPLEX_MODES: tuple[Duplex, ...] = ("long", "short", "none")


@dataclass(frozen=True, slots=True)
class Paper:
    """A paper size in mm, portrait."""

    name: str
    width: float
    height: float


PAPERS: dict[str, Paper] = {
    "a4": Paper("a4", 210.0, 297.0),
    "letter": Paper("letter", 215.9, 279.4),
}


FOOTER_GAP = 1.0
"""Between the lowest component and the footer band, so a crop mark beside the last row never
touches the calibration square."""


@dataclass(frozen=True, slots=True)
class SheetSpec:
    """How components go on a sheet: the paper, margins, a footer band for the calibration
    square and notes, gaps, crop-mark geometry and the colour model of the PDF."""

    paper: Paper
    margin: float = 9.5
    footer: float = 10.0
    """The band at the foot of every page (calibration square, notes, label): no crop mark
    enters it."""
    gutter: float = 0.0
    block_gap: float = 8.0
    mark_length: float = 3.0
    mark_offset: float = 0.5
    mark_width: float = 0.2
    calibration: float = 10.0
    max_duplex_offset: float = 5.0
    colour_model: str = "rgb"
    ink_free: float = 6.0
    """No ink within this many mm of a paper edge: home printers lose it (marks are cut
    back to this line, and ``margin`` must leave room for them)."""

    @property
    def usable(self) -> Box:
        """Where components may go (their bleed boxes included)."""
        p = self.paper
        return Box(
            self.margin,
            self.margin,
            p.width - 2 * self.margin,
            p.height - 2 * self.margin - self.footer - FOOTER_GAP,
        )

    @property
    def footer_box(self) -> Box:
        p = self.paper
        return Box(
            self.margin,
            p.height - self.margin - self.footer,
            p.width - 2 * self.margin,
            self.footer,
        )

    @staticmethod
    def from_tables(
        sheet: Mapping[str, Any], papers: Mapping[str, Any], paper_name: str
    ) -> SheetSpec:
        """Read ``[sheet]`` and ``[papers.NAME]`` tables of a template."""
        if paper_name not in papers:
            known = ", ".join(sorted(papers))
            raise InputError(f"unknown paper {paper_name!r}: expected one of {known}")
        p = papers[paper_name]
        where = f"paper '{paper_name}'"
        paper = Paper(
            paper_name,
            number(p, "width", where, positive=True),
            number(p, "height", where, positive=True),
        )
        values = {}
        for key in (
            "margin",
            "footer",
            "gutter",
            "block_gap",
            "mark_length",
            "mark_offset",
            "mark_width",
            "calibration",
            "max_duplex_offset",
            "ink_free",
        ):
            if key in sheet:
                values[key] = number(sheet, key, "[sheet]")
        model = sheet.get("colour_model", "rgb")
        if model not in ("rgb", "cmyk"):
            raise InputError(f'[sheet]: \'colour_model\' must be "rgb" or "cmyk", not {model!r}')
        spec = SheetSpec(paper, colour_model=model, **values)
        usable = spec.usable
        if usable.width <= 0 or usable.height <= 0:
            raise InputError(f"[sheet]: margins and footer leave no room on {paper_name}")
        if spec.margin < spec.ink_free:
            raise InputError(
                f"[sheet]: 'margin' {spec.margin:g} must be at least 'ink_free' {spec.ink_free:g}"
            )
        return spec


@dataclass(frozen=True, slots=True)
class Item:
    """One physical component to place: a ``kind``, a unique ``key``, its cut size, whether it
    has a back, whether it may be turned 90° to pack better, its own bleed if it differs from
    the sheet's, and a payload the drawing callbacks use."""

    kind: str
    key: str
    width: float
    height: float
    double_sided: bool = False
    rotatable: bool = True
    bleed: float | None = None
    alone: bool = False
    """Printed on a page of its own (a rules sheet, a board sheet)."""
    payload: Any = field(default=None, compare=False, hash=False)
    round: bool = False
    """Cut along a circle: the sheet draws a thin cut circle on the cut line."""
    booklet: bool = False
    """A page of a booklet (``alone`` and never cut): in double-sided printing the next such
    page is printed on its back instead of a blank."""
    outlined: bool = False
    """Cut along the outline the piece draws itself (a die net): no crop marks."""


@dataclass(frozen=True, slots=True)
class Placement:
    """An item on a page: its cut box and bleed box in page mm, and its clockwise quarter
    turns (1 means the item's top edge runs down the page's right side)."""

    item: Item
    cut: Box
    bleed: Box
    quarter_turns: int

    @property
    def bleed_width(self) -> float:
        return self.cut.x - self.bleed.x

    def origin(self) -> Point:
        """Where the item's own top-left corner lands on the page."""
        c, q = self.cut, self.quarter_turns % 4
        return ((c.x, c.y), (c.right, c.y), (c.right, c.bottom), (c.x, c.bottom))[q]


@dataclass(frozen=True, slots=True)
class CropMark:
    start: Point
    end: Point


@dataclass(frozen=True, slots=True)
class Page:
    """A front page and, when it holds double-sided items, the back page printed after it."""

    placements: tuple[Placement, ...]
    marks: tuple[CropMark, ...]
    backs: tuple[Placement, ...] | None
    kinds: tuple[str, ...]
    booklet: bool = False


Side = Literal["front", "back", "blank"]


@dataclass(frozen=True, slots=True)
class PrintedPage:
    """One page of the PDF: the ``front`` or ``back`` of imposed page ``page``, or the
    ``blank`` back of it (double-sided printing: a page with nothing behind it)."""

    page: int
    side: Side


@dataclass(frozen=True, slots=True)
class Imposition:
    """Every page of a kit on one paper."""

    spec: SheetSpec
    bleed: float
    duplex: Duplex
    offset: Point
    pages: tuple[Page, ...]

    @property
    def page_count(self) -> int:
        """Printed pages, backs and blank backs included."""
        return len(self.printed)

    @property
    def printed(self) -> tuple[PrintedPage, ...]:
        """The PDF's pages in order. For double-sided printing (``long``/``short``) every
        odd page is the front of a sheet and the page after it its back: a front without
        components on the back gets a blank back, except that consecutive booklet pages
        (a rulebook) share sheets. For ``none`` (single-sided), fronts and their back pages
        follow each other with no blanks."""
        out: list[PrintedPage] = []
        pages = self.pages
        i = 0
        while i < len(pages):
            page = pages[i]
            out.append(PrintedPage(i, "front"))
            if page.backs is not None:
                out.append(PrintedPage(i, "back"))
            elif self.duplex != "none":
                if page.booklet and i + 1 < len(pages) and pages[i + 1].booklet:
                    out.append(PrintedPage(i + 1, "front"))
                    i += 1
                else:
                    out.append(PrintedPage(i, "blank"))
            i += 1
        return tuple(out)

    def numbers(self) -> list[tuple[int, int | None]]:
        """(printed front page number, printed back page number or None) per imposed page,
        counting from 1."""
        front: dict[int, int] = {}
        back: dict[int, int] = {}
        for n, p in enumerate(self.printed, start=1):
            if p.side == "front":
                front[p.page] = n
            elif p.side == "back":
                back[p.page] = n
        return [(front[i], back.get(i)) for i in range(len(self.pages))]


def back_box(box: Box, paper: Paper, duplex: Duplex, offset: Point = (0.0, 0.0)) -> Box:
    """Where a front-page box lies on the back page: mirrored across the vertical centre line
    for a long-edge flip (and for gluing back to back), across the horizontal one for a
    short-edge flip, then shifted by the duplex ``offset`` correction."""
    if duplex == "short":
        mirrored = Box(box.x, paper.height - box.bottom, box.width, box.height)
    else:
        mirrored = Box(paper.width - box.right, box.y, box.width, box.height)
    return mirrored.moved(*offset)


def impose(
    items: Sequence[Item],
    spec: SheetSpec,
    *,
    bleed: float,
    duplex: Duplex = "long",
    offset: Point = (0.0, 0.0),
) -> Imposition:
    """Pack ``items`` (in order, grouped by kind) onto pages.

    Each kind forms blocks: rows and columns of touching bleed boxes (``gutter`` apart), turned
    90° when that fits more on a page. Blocks stack down the page ``block_gap`` apart; a block
    goes on the first page with room for at least one of its rows (first fit), never mixing
    single- and double-sided items on a page, and ``alone`` items get a page each. Raises
    :class:`InputError` when an item cannot fit on the paper at all.
    """
    if bleed < 0:
        raise InputError(f"--bleed must be zero or more, not {bleed:g}")
    if max(abs(offset[0]), abs(offset[1])) > spec.max_duplex_offset:
        raise InputError(
            f"--duplex-offset {offset[0]:g},{offset[1]:g} is more than"
            f" {spec.max_duplex_offset:g} mm: measure the shift again"
        )
    usable = spec.usable
    # Runs of one kind, each split into blocks of one size (in order of first appearance).
    groups: list[list[Item]] = []
    run: list[list[Item]] = []
    for item in items:
        if run and run[0][0].kind != item.kind:
            groups += run
            run = []
        home = next((g for g in run if _same_block(g[0], item)), None)
        if home is None:
            run.append([item])
        else:
            home.append(item)
    groups += run

    pages: list[_PageFill] = []
    for group in groups:
        first = group[0]
        b = bleed if first.bleed is None else first.bleed
        quarter, cols, _, bw, bh = _best_grid(first, b, spec)
        if cols == 0:
            raise InputError(
                f"a {first.kind.replace('_', ' ')} ({first.width:g} × {first.height:g} mm with"
                f" {b:g} mm bleed) does not fit on {spec.paper.name} paper:"
                " use a smaller --bleed or another paper"
            )
        remaining = list(group)
        while remaining:
            # First fit: the earliest page of the same sidedness with room for a row.
            page = None
            rows_fit = 0
            if not first.alone:
                for candidate in pages:
                    if candidate.alone or candidate.double_sided != first.double_sided:
                        continue
                    top = candidate.cursor + (spec.block_gap if candidate.placements else 0.0)
                    rows_fit = _count(usable.bottom - top, bh, spec.gutter)
                    if rows_fit:
                        page = candidate
                        break
            if page is None:
                page = _PageFill(
                    double_sided=first.double_sided, alone=first.alone, cursor=usable.y
                )
                pages.append(page)
                top = usable.y
                rows_fit = _count(usable.height, bh, spec.gutter)
            else:
                top = page.cursor + (spec.block_gap if page.placements else 0.0)
            n = min(len(remaining), rows_fit * cols, 1 if first.alone else len(remaining))
            rows = math.ceil(n / cols)
            used_cols = min(cols, n)
            block_w = used_cols * bw + (used_cols - 1) * spec.gutter
            left = usable.x + (usable.width - block_w) / 2
            block: list[Placement] = []
            for i, item in enumerate(remaining[:n]):
                r, c = divmod(i, cols)
                bleed_box = Box(left + c * (bw + spec.gutter), top + r * (bh + spec.gutter), bw, bh)
                ib = bleed if item.bleed is None else item.bleed
                block.append(Placement(item, bleed_box.inset(ib), bleed_box, quarter))
            page.placements.extend(block)
            if not (first.booklet or first.outlined):  # not cut, or cut along its outline
                page.marks.extend(_block_marks(block, spec))
            remaining = remaining[n:]
            page.cursor = top + rows * bh + (rows - 1) * spec.gutter

    out: list[Page] = []
    for fill in pages:
        placements, marks = fill.placements, fill.marks
        backs = None
        if any(p.item.double_sided for p in placements):
            backs = tuple(
                Placement(
                    p.item,
                    back_box(p.cut, spec.paper, duplex, offset),
                    back_box(p.bleed, spec.paper, duplex, offset),
                    p.quarter_turns,
                )
                for p in placements
                if p.item.double_sided
            )
        kinds = tuple(dict.fromkeys(p.item.kind for p in placements))
        booklet = bool(placements) and all(p.item.booklet for p in placements)
        out.append(Page(tuple(placements), tuple(marks), backs, kinds, booklet))
    return Imposition(spec, bleed, duplex, offset, tuple(out))


def _same_block(a: Item, b: Item) -> bool:
    """Items share a block only with items of their kind, size, sidedness and bleed, so every
    cell of a block is that item's own bleed box and its marks continue its own edges."""
    return (
        a.kind == b.kind
        and abs(a.width - b.width) < 1e-6
        and abs(a.height - b.height) < 1e-6
        and a.double_sided == b.double_sided
        and a.bleed == b.bleed
        and a.rotatable == b.rotatable
        and a.outlined == b.outlined
    )


@dataclass(slots=True)
class _PageFill:
    """A page being filled: what is on it and how far down the blocks reach."""

    double_sided: bool
    alone: bool
    cursor: float
    placements: list[Placement] = field(default_factory=list)
    marks: list[CropMark] = field(default_factory=list)


def _count(space: float, size: float, gap: float) -> int:
    if space < size - 1e-9:
        return 0
    return int((space + gap + 1e-9) // (size + gap))


def _best_grid(item: Item, bleed: float, spec: SheetSpec) -> tuple[int, int, int, float, float]:
    """(quarter turns, columns, rows on an empty page, bleed-box width, height) for the
    orientation that fits the most items on a page (unturned on a tie)."""
    usable = spec.usable
    best = (0, 0, 0, 0.0, 0.0)
    options = (0, 1) if item.rotatable else (0,)
    for quarter in options:
        w, h = (item.width, item.height) if quarter == 0 else (item.height, item.width)
        bw, bh = w + 2 * bleed, h + 2 * bleed
        cols = _count(usable.width, bw, spec.gutter)
        rows = _count(usable.height, bh, spec.gutter)
        if cols * rows > best[1] * best[2]:
            best = (quarter, cols, rows, bw, bh)
    return best


def _block_marks(block: Sequence[Placement], spec: SheetSpec) -> list[CropMark]:
    """Crop marks for a block: short lines continuing every cut line outwards, starting
    ``mark_offset`` beyond the bleed edge of the outermost piece on that line (a column's
    lowest piece, a row's last), so no mark touches a component and each one continues an
    edge that is really cut. Marks are cut back to the ink-free band along the paper edges."""
    o, n = spec.mark_offset, spec.mark_length
    marks: list[CropMark] = []
    columns: dict[float, list[Placement]] = {}
    rows: dict[float, list[Placement]] = {}
    for p in block:
        columns.setdefault(round(p.bleed.x, 4), []).append(p)
        rows.setdefault(round(p.bleed.y, 4), []).append(p)
    for col in columns.values():
        top = min(p.bleed.y for p in col)
        bottom = max(p.bleed.bottom for p in col)
        for x in sorted({round(v, 4) for p in col for v in (p.cut.x, p.cut.right)}):
            marks.append(CropMark((x, top - o - n), (x, top - o)))
            marks.append(CropMark((x, bottom + o), (x, bottom + o + n)))
    for row in rows.values():
        left = min(p.bleed.x for p in row)
        right = max(p.bleed.right for p in row)
        for y in sorted({round(v, 4) for p in row for v in (p.cut.y, p.cut.bottom)}):
            marks.append(CropMark((left - o - n, y), (left - o, y)))
            marks.append(CropMark((right + o, y), (right + o + n, y)))
    # Marks stay clear of the ink-free band along the edges and of the footer (calibration
    # square, notes): a column's bottom marks are cut short there, its top marks remain.
    page = Box(0.0, 0.0, spec.paper.width, spec.paper.height).inset(spec.ink_free + spec.mark_width)
    page = Box(page.x, page.y, page.width, spec.footer_box.y - spec.mark_width - page.y)
    clipped = (_clipped(m, page) for m in marks)
    return [m for m in clipped if m is not None]


def _clipped(mark: CropMark, page: Box) -> CropMark | None:
    """The part of a mark inside ``page``: a vertical mark cut to its height, a horizontal
    one to its width; a mark whose line lies outside is dropped, never moved."""
    (x0, y0), (x1, y1) = mark.start, mark.end

    def clamp(v: float, lo: float, hi: float) -> float:
        return min(max(v, lo), hi)

    if abs(x0 - x1) < 1e-9:
        if not page.x <= x0 <= page.right:
            return None
        y0, y1 = clamp(y0, page.y, page.bottom), clamp(y1, page.y, page.bottom)
    else:
        if not page.y <= y0 <= page.bottom:
            return None
        x0, x1 = clamp(x0, page.x, page.right), clamp(x1, page.x, page.right)
    if math.hypot(x1 - x0, y1 - y0) < 0.5:
        return None
    return CropMark((x0, y0), (x1, y1))


# ---------------------------------------------------------------------------------------------
# Drawing

DrawItem = Callable[[Surface, Item, float], None]
"""Draws an item in its own mm coordinates (cut line from (0, 0) to (width, height)), given the
bleed to fill around it."""


@dataclass(frozen=True, slots=True)
class Furniture:
    """The texts every page carries: the print-at-100 % note, the calibration square's label,
    and a label per page (e.g. the kit name, what is on it, the page number)."""

    note: str
    square_label: str
    page_label: Callable[[int, int, bool, tuple[str, ...]], str]
    """(printed page number from 1, printed page count, is back page, kinds) → label; a blank
    back page has no kinds."""
    first_note: str | None = None
    """Printed instead of ``note`` on page 1 (how to print the whole file)."""


def draw_placement(surface: Surface, placement: Placement, draw: DrawItem) -> None:
    """Draw one placed item through its callback, moved and turned into place."""
    with surface.transformed(translate=placement.origin(), quarter_turns=placement.quarter_turns):
        draw(surface, placement.item, placement.bleed_width)


def draw_marks(surface: Surface, page: Page, spec: SheetSpec) -> None:
    stroke = Stroke(BLACK, spec.mark_width)
    for mark in page.marks:
        surface.line(mark.start, mark.end, stroke)


def draw_furniture(
    surface: Surface,
    spec: SheetSpec,
    furniture: Furniture,
    label: str,
    footer: Box,
    note: str | None = None,
) -> None:
    """The calibration square and notes, in ``footer`` (a band of the page)."""
    side = spec.calibration
    sq = Box(footer.x, footer.y + (footer.height - side) / 2, side, side)
    surface.rect(sq, fill=None, stroke=Stroke(BLACK, 0.2))
    # Tick marks at 5 mm help check the scale by eye as well as with a ruler.
    surface.line(
        (sq.x + side / 2, sq.bottom), (sq.x + side / 2, sq.bottom - 1.2), Stroke(BLACK, 0.15)
    )
    surface.line((sq.x, sq.y + side / 2), (sq.x + 1.2, sq.y + side / 2), Stroke(BLACK, 0.15))
    surface.text(
        Box(sq.x + 0.8, sq.y + 0.8, side - 1.6, side - 1.6),
        furniture.square_label,
        TextStyle(font="semibold", size=6.5, min_size=6),
    )
    text_box = Box(sq.right + 3, footer.y, footer.width - side - 3, footer.height)
    # The note, the longer text, gets three fifths of the band; the page label the rest.
    gap = 4.0
    note_width = (text_box.width - gap) * 0.6
    note_box = Box(text_box.x, text_box.y, note_width, text_box.height)
    label_box = Box(
        note_box.right + gap, text_box.y, text_box.width - note_width - gap, text_box.height
    )
    grey = Paint((60, 60, 60))
    surface.text(
        note_box,
        furniture.note if note is None else note,
        TextStyle(font="semibold", size=8, paint=BLACK, align="left", min_size=6),
    )
    surface.text(label_box, label, TextStyle(size=8, paint=grey, align="right", min_size=6))


def _page_labels(imposition: Imposition, furniture: Furniture) -> list[str]:
    """The label of every printed page, in order."""
    total = imposition.page_count
    out = []
    for n, p in enumerate(imposition.printed, start=1):
        kinds = () if p.side == "blank" else imposition.pages[p.page].kinds
        out.append(furniture.page_label(n, total, p.side == "back", kinds))
    return out


CUT_CIRCLE = Paint((128, 128, 128))
"""The cut circle of round pieces: mid grey, seen on light and dark fills alike."""


def render_pdf(
    imposition: Imposition,
    draw_front: DrawItem,
    draw_back: DrawItem,
    furniture: Furniture,
    *,
    title: str = "",
    author: str = "",
    subject: str = "",
    creator: str = "",
    keywords: str = "",
    fonts: Any = None,
) -> bytes:
    """The whole imposition as PDF bytes, page by page as :attr:`Imposition.printed` says.
    A sheet page's TrimBox and BleedBox are drawn round its pieces (:func:`page_boxes`)."""
    from runarch_gen.pnp.pdf import PdfSurface

    spec = imposition.spec
    pdf = PdfSurface(
        spec.paper.width,
        spec.paper.height,
        fonts,
        colour_model="cmyk" if spec.colour_model == "cmyk" else "rgb",
        title=title,
        author=author,
        subject=subject,
        creator=creator,
        keywords=keywords,
    )
    labels = _page_labels(imposition, furniture)
    for n, (printed, label) in enumerate(zip(imposition.printed, labels, strict=True)):
        if n:
            pdf.next_page()
        page = imposition.pages[printed.page]
        note = furniture.first_note if n == 0 and furniture.first_note else furniture.note
        if printed.side == "front":
            draw_front_page(pdf, imposition, page, draw_front, furniture, label, note)
            placed: tuple[Placement, ...] = page.placements
        elif printed.side == "back":
            draw_back_page(pdf, imposition, page, draw_back, furniture, label)
            placed = page.backs or ()
        else:
            draw_blank_page(pdf, imposition, furniture, label)
            placed = ()
        boxes = page_boxes(placed)
        if boxes is not None:
            pdf.set_page_boxes(*boxes)
    return pdf.finish()


Rect = tuple[float, float, float, float]


def page_boxes(placements: Sequence[Placement]) -> tuple[Rect, Rect] | None:
    """A sheet page's TrimBox (round every piece's cut line) and BleedBox (round every
    piece's bleed), ``(x, y, width, height)`` in page mm; ``None`` for a page that is not cut
    (a blank back, a rulebook page), whose boxes are the paper."""
    cut = [p for p in placements if not p.item.booklet]
    if not cut:
        return None

    def union(boxes: Sequence[Box]) -> Rect:
        x0, y0 = min(b.x for b in boxes), min(b.y for b in boxes)
        x1, y1 = max(b.right for b in boxes), max(b.bottom for b in boxes)
        return (x0, y0, x1 - x0, y1 - y0)

    return union([p.cut for p in cut]), union([p.bleed for p in cut])


def draw_front_page(
    surface: Surface,
    imposition: Imposition,
    page: Page,
    draw: DrawItem,
    furniture: Furniture,
    label: str,
    note: str | None = None,
) -> None:
    spec = imposition.spec
    for placement in page.placements:
        draw_placement(surface, placement, draw)
    draw_cut_circles(surface, page.placements)
    draw_marks(surface, page, spec)
    draw_furniture(surface, spec, furniture, label, spec.footer_box, note)


def draw_cut_circles(surface: Surface, placements: Sequence[Placement]) -> None:
    """A thin circle on the cut line of every round piece (the straight marks only show
    its bounding square)."""
    stroke = Stroke(CUT_CIRCLE, 0.18)
    for p in placements:
        if p.item.round:
            surface.circle(p.cut.centre, p.cut.width / 2, None, stroke)


def draw_back_page(
    surface: Surface,
    imposition: Imposition,
    page: Page,
    draw: DrawItem,
    furniture: Furniture,
    label: str,
) -> None:
    spec = imposition.spec
    assert page.backs is not None
    for placement in page.backs:
        draw_placement(surface, placement, draw)
    # The footer band mirrored like the components, so it stays clear of them.
    footer = back_box(spec.footer_box, spec.paper, imposition.duplex, imposition.offset)
    draw_furniture(surface, spec, furniture, label, footer)


def draw_blank_page(
    surface: Surface, imposition: Imposition, furniture: Furniture, label: str
) -> None:
    """The back of a sheet with nothing on its back: only its label, where a back page's
    footer goes."""
    spec = imposition.spec
    footer = back_box(spec.footer_box, spec.paper, imposition.duplex, imposition.offset)
    grey = Paint((60, 60, 60))
    surface.text(footer, label, TextStyle(size=8, paint=grey, align="right", min_size=6))


def render_page_png(
    imposition: Imposition,
    page_index: int,
    draw: DrawItem,
    furniture: Furniture,
    *,
    back: bool = False,
    px_per_mm: float = 3.0,
    fonts: Any = None,
) -> bytes:
    """One page (front, or its back) as a PNG preview."""
    from runarch_gen.pnp.raster import RasterSurface

    spec = imposition.spec
    surface = RasterSurface(spec.paper.width, spec.paper.height, px_per_mm, fonts, background=WHITE)
    labels = _page_labels(imposition, furniture)
    side = "back" if back else "front"
    n = next(i for i, p in enumerate(imposition.printed) if p.page == page_index and p.side == side)
    page = imposition.pages[page_index]
    if back:
        draw_back_page(surface, imposition, page, draw, furniture, labels[n])
    else:
        note = furniture.first_note if n == 0 and furniture.first_note else None
        draw_front_page(surface, imposition, page, draw, furniture, labels[n], note)
    return surface.png()


# ---------------------------------------------------------------------------------------------
# The duplex test page


@dataclass(frozen=True, slots=True)
class DuplexTestTexts:
    """The duplex test sheet's words: a title, what to do (front), how to read (back)."""

    title: str
    front: str
    back: str


DUPLEX_SCALE_MM = 5.0
"""The test page's scales read shifts up to this many mm each way (``max_duplex_offset``)."""


def duplex_test_marks(spec: SheetSpec, duplex: Duplex) -> tuple[Point, Point]:
    """(the front's cross centre, where a perfect printer puts it on the back page) in mm."""
    paper = spec.paper
    front = (paper.width / 2, paper.height / 2)
    if duplex == "short":
        return front, (front[0], paper.height - front[1])
    return front, (paper.width - front[0], front[1])


def render_duplex_test(
    spec: SheetSpec,
    duplex: Duplex,
    texts: DuplexTestTexts,
    furniture: Furniture,
    *,
    fonts: Any = None,
    title: str = "",
    creator: str = "",
) -> bytes:
    """A two-page PDF that measures a printer's duplex shift. The front carries a cross of
    two long lines; the back, at the place a perfect printer puts the cross, two scales
    labelled in mm. Held against the light, the front's lines cross each scale at the value to
    pass as ``--duplex-offset X,Y``: the number is the correction itself (a back printed 1 mm
    too far right reads -1, and ``-1`` moves the backs 1 mm left), X to the right and Y down
    as seen looking at the back page."""
    from runarch_gen.pnp.pdf import PdfSurface

    paper = spec.paper
    pdf = PdfSurface(
        paper.width, paper.height, fonts, title=title, author="runarch-gen", creator=creator
    )
    (fx, fy), (bx, by) = duplex_test_marks(spec, duplex)
    line = Stroke(BLACK, 0.2)
    head = TextStyle("bold", 14, BLACK, "left", "top", 1.1, 10)
    body = TextStyle("regular", 10, BLACK, "left", "top", 1.25, 7)
    usable = spec.usable
    pdf.text(Box(usable.x, usable.y, usable.width, 8.0), texts.title, head)
    pdf.text(Box(usable.x, usable.y + 10.0, usable.width, 40.0), texts.front, body)
    reach = 30.0
    pdf.line((fx, fy - reach), (fx, fy + reach), line)
    pdf.line((fx - reach, fy), (fx + reach, fy), line)
    labels = _page_labels_plain(furniture, 2)
    draw_furniture(pdf, spec, furniture, labels[0], spec.footer_box)
    pdf.next_page()
    pdf.text(Box(usable.x, usable.y, usable.width, 8.0), texts.title, head)
    pdf.text(Box(usable.x, usable.y + 10.0, usable.width, 40.0), texts.back, body)
    _scale(pdf, (bx, by), horizontal=True)
    _scale(pdf, (bx, by), horizontal=False)
    footer = back_box(spec.footer_box, paper, duplex)
    draw_furniture(pdf, spec, furniture, labels[1], footer)
    return pdf.finish()


def _page_labels_plain(furniture: Furniture, pages: int) -> list[str]:
    return [furniture.page_label(n, pages, n == 2, ("duplex_test",)) for n in range(1, pages + 1)]


def _scale(surface: Surface, centre: Point, *, horizontal: bool) -> None:
    """A scale through ``centre``: ticks every 0.5 mm from -5 to +5 mm; the tick of u lies
    u mm right of (below) the centre. Whole millimetres are labelled, the labels staggered in
    three rows with a thin leader each so they never touch. The scale stands 8 mm off the
    cross, so the front's line crosses it away from the other scale."""
    cx, cy = centre
    small = TextStyle("semibold", 6.5, BLACK, "centre", "middle", 1.0, 6)
    leader = Stroke(Paint((110, 110, 110)), 0.1)
    n = int(DUPLEX_SCALE_MM * 2)
    for k in range(-n, n + 1):
        u = k / 2
        whole = k % 2 == 0
        length = 4.0 if whole else 2.2
        width = 0.25 if k else 0.45
        row = (k // 2) % 3
        reach = length + 0.8 + row * 3.2
        if horizontal:
            x, y = cx + u, cy - 8.0
            surface.line((x, y), (x, y - length), Stroke(BLACK, width))
            if whole:
                surface.line((x, y - length), (x, y - reach), leader)
                surface.text(Box(x - 2.5, y - reach - 3.0, 5.0, 3.0), _mm(u), small)
        else:
            x, y = cx + 8.0, cy + u
            surface.line((x, y), (x + length, y), Stroke(BLACK, width))
            if whole:
                far = length + 0.8 + row * 5.5
                surface.line((x + length, y), (x + far, y), leader)
                surface.text(Box(x + far + 0.3, y - 1.5, 5.0, 3.0), _mm(u), small)


def _mm(u: float) -> str:
    return "0" if u == 0 else f"{u:+.0f}".replace("-", "−")
