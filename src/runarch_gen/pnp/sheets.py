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


@dataclass(frozen=True, slots=True)
class SheetSpec:
    """How components go on a sheet: the paper, margins, a footer band for the calibration
    square and notes, gaps, crop-mark geometry and the colour model of the PDF."""

    paper: Paper
    margin: float = 6.0
    footer: float = 12.0
    gutter: float = 0.0
    block_gap: float = 10.0
    mark_length: float = 4.0
    mark_offset: float = 1.0
    mark_width: float = 0.2
    calibration: float = 10.0
    max_duplex_offset: float = 5.0
    colour_model: str = "rgb"

    @property
    def usable(self) -> Box:
        """Where components may go (their bleed boxes included)."""
        p = self.paper
        return Box(
            self.margin,
            self.margin,
            p.width - 2 * self.margin,
            p.height - 2 * self.margin - self.footer,
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
        """Printed pages, backs included."""
        return sum(1 + (page.backs is not None) for page in self.pages)


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
    groups: list[list[Item]] = []
    for item in items:
        if groups and groups[-1][0].kind == item.kind:
            groups[-1].append(item)
        else:
            groups.append([item])

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
        out.append(Page(tuple(placements), tuple(marks), backs, kinds))
    return Imposition(spec, bleed, duplex, offset, tuple(out))


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
    ``mark_offset`` beyond the block's bleed edge, so no mark touches a component."""
    left = min(p.bleed.x for p in block)
    right = max(p.bleed.right for p in block)
    top = min(p.bleed.y for p in block)
    bottom = max(p.bleed.bottom for p in block)
    xs = sorted({round(x, 4) for p in block for x in (p.cut.x, p.cut.right)})
    ys = sorted({round(y, 4) for p in block for y in (p.cut.y, p.cut.bottom)})
    o, n = spec.mark_offset, spec.mark_length
    marks: list[CropMark] = []
    for x in xs:
        marks.append(CropMark((x, top - o - n), (x, top - o)))
        marks.append(CropMark((x, bottom + o), (x, bottom + o + n)))
    for y in ys:
        marks.append(CropMark((left - o - n, y), (left - o, y)))
        marks.append(CropMark((right + o, y), (right + o + n, y)))
    page = Box(0.0, 0.0, spec.paper.width, spec.paper.height).inset(0.5)
    clipped = (_clipped(m, page) for m in marks)
    return [m for m in clipped if m is not None]


def _clipped(mark: CropMark, page: Box) -> CropMark | None:
    (x0, y0), (x1, y1) = mark.start, mark.end

    def clamp(v: float, lo: float, hi: float) -> float:
        return min(max(v, lo), hi)

    x0, x1 = clamp(x0, page.x, page.right), clamp(x1, page.x, page.right)
    y0, y1 = clamp(y0, page.y, page.bottom), clamp(y1, page.y, page.bottom)
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
    """(printed page number from 1, printed page count, is back page, kinds) → label."""


def draw_placement(surface: Surface, placement: Placement, draw: DrawItem) -> None:
    """Draw one placed item through its callback, moved and turned into place."""
    with surface.transformed(translate=placement.origin(), quarter_turns=placement.quarter_turns):
        draw(surface, placement.item, placement.bleed_width)


def draw_marks(surface: Surface, page: Page, spec: SheetSpec) -> None:
    stroke = Stroke(BLACK, spec.mark_width)
    for mark in page.marks:
        surface.line(mark.start, mark.end, stroke)


def draw_furniture(
    surface: Surface, spec: SheetSpec, furniture: Furniture, label: str, footer: Box
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
        TextStyle(font="semibold", size=6.5, min_size=3),
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
        furniture.note,
        TextStyle(font="semibold", size=8, paint=BLACK, align="left", min_size=4.5),
    )
    surface.text(label_box, label, TextStyle(size=8, paint=grey, align="right", min_size=4.5))


def _page_labels(imposition: Imposition, furniture: Furniture) -> list[tuple[str, str | None]]:
    total = imposition.page_count
    out: list[tuple[str, str | None]] = []
    number_ = 1
    for page in imposition.pages:
        front = furniture.page_label(number_, total, False, page.kinds)
        number_ += 1
        back = None
        if page.backs is not None:
            back = furniture.page_label(number_, total, True, page.kinds)
            number_ += 1
        out.append((front, back))
    return out


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
    fonts: Any = None,
) -> bytes:
    """The whole imposition as PDF bytes: each front page, then its back page if it has one."""
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
    )
    labels = _page_labels(imposition, furniture)
    first = True
    for page, (front_label, back_label) in zip(imposition.pages, labels, strict=True):
        if not first:
            pdf.next_page()
        first = False
        draw_front_page(pdf, imposition, page, draw_front, furniture, front_label)
        if page.backs is not None and back_label is not None:
            pdf.next_page()
            draw_back_page(pdf, imposition, page, draw_back, furniture, back_label)
    return pdf.finish()


def draw_front_page(
    surface: Surface,
    imposition: Imposition,
    page: Page,
    draw: DrawItem,
    furniture: Furniture,
    label: str,
) -> None:
    spec = imposition.spec
    for placement in page.placements:
        draw_placement(surface, placement, draw)
    draw_marks(surface, page, spec)
    draw_furniture(surface, spec, furniture, label, spec.footer_box)


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
    page = imposition.pages[page_index]
    front_label, back_label = labels[page_index]
    if back:
        draw_back_page(surface, imposition, page, draw, furniture, back_label or "")
    else:
        draw_front_page(surface, imposition, page, draw, furniture, front_label)
    return surface.png()
