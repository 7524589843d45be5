"""A printed rulebook: headings, paragraphs, numbered steps and figures flowed down two columns
per page, each page drawn in the frame of a kit page (an ``alone`` booklet item).

The text is data — a game's ``[LANG.rulebook]`` table in its ``texts.toml``: a ``title``, a
``subtitle`` and ``[[LANG.rulebook.sections]]``, each a ``heading``, a ``text`` (paragraphs
separated by a blank line; one starting ``1.``, ``2.`` … is a numbered step) and the names of
its ``figures``. A game draws its figures (:class:`FlowBook` subclasses give ``_h_NAME`` and
``_d_NAME``: the height at a column width, and the drawing into a box), from the same component
code as its sheets, so a picture of a piece is the piece as printed.

Layout: a heading always stays with what follows it, a paragraph or figure is never split; a
``reference`` figure takes a page of its own (the one-page summary at the end). Body text is
9 pt and nothing is set below :data:`MIN_PT`.

>>> from runarch_gen.pnp.fonts import default_fonts
>>> book = FlowBook(default_fonts(), title="Game", subtitle="Rules")
>>> book.text_blocks([{"heading": "Setup", "text": "1. Shuffle.\\n\\n2. Deal."}])[2:]
[Block(kind='step', text='Shuffle.', number='1.'), Block(kind='step', text='Deal.', number='2.')]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from runarch_gen.errors import InputError
from runarch_gen.pnp.fonts import FontSet
from runarch_gen.pnp.geometry import Box
from runarch_gen.pnp.paint import BLACK, Paint
from runarch_gen.pnp.sheets import Item, SheetSpec
from runarch_gen.pnp.surface import Stroke, Surface
from runarch_gen.pnp.text import TextStyle, layout_text

__all__ = [
    "MIN_PT",
    "Block",
    "FlowBook",
    "Picture",
    "Placed",
    "RulebookPage",
    "draw_pictures",
    "pictures_height",
    "rulebook_items",
]

MIN_PT = 6.0
"""No text of a rulebook is smaller than this (figures drop what would be)."""

BODY_PT = 9.0
HEADING_PT = 12.0
COLUMN_GAP = 7.0
PARA_GAP = 1.8
HEADING_GAP = 1.2
SECTION_GAP = 4.0
FIGURE_GAP = 2.5
TITLE_H = 24.0
STEP_INDENT = 5.0
LABEL_GREY = Paint((95, 95, 95))
"""The page label's grey: 6.4:1 on white."""


@dataclass(frozen=True, slots=True)
class Block:
    """One piece of the flow: ``title``, ``heading``, ``para``, ``step`` (a numbered
    paragraph), ``figure`` (``text`` names it) or ``reference`` (a figure on a page of its
    own)."""

    kind: str
    text: str
    number: str = ""


@dataclass(frozen=True, slots=True)
class Placed:
    block: Block
    box: Box


@dataclass(frozen=True, slots=True)
class RulebookPage:
    """A page of the rulebook: its number (from 1), the page count, and what goes where."""

    number: int
    pages: int
    placed: tuple[Placed, ...]


Picture = tuple[str, float, float, Callable[[Surface], None]]
"""(caption, width, height, draw in its own mm from (0, 0)): a piece shown in a figure."""


class FlowBook:
    """Lays out and draws a rulebook. Subclasses give :meth:`blocks` (or pass ``sections``)
    and their figures as ``_h_NAME(width)`` and ``_d_NAME(surface, box)`` methods."""

    def __init__(
        self,
        fonts: FontSet,
        *,
        title: str,
        subtitle: str = "",
        ink: Paint = BLACK,
        accent: Paint = BLACK,
        sections: Sequence[Mapping[str, Any]] = (),
        values: Mapping[str, str] | None = None,
    ) -> None:
        self.fonts = fonts
        self.title = title
        self.subtitle = subtitle
        self.ink = ink
        self.accent = accent
        self.sections = tuple(sections)
        self.placeholders = dict(values or {})
        self.body = TextStyle("regular", BODY_PT, ink, "left", "top", 1.25, BODY_PT)
        self.heading = TextStyle("bold", HEADING_PT, ink, "left", "top", 1.1, HEADING_PT)
        self.small = TextStyle("regular", 7.5, ink, "left", "top", 1.2, 7.5)
        self.caption = TextStyle("semibold", 7.0, ink, "centre", "top", 1.15, 7.0)
        self.bold_small = TextStyle("bold", 7.5, ink, "left", "top", 1.2, 7.5)

    # -- the text ----------------------------------------------------------------------------
    def text_blocks(
        self, sections: Sequence[Mapping[str, Any]], values: Mapping[str, str] | None = None
    ) -> list[Block]:
        """The title, then each section's heading, paragraphs (``{name}`` filled from
        ``values``), numbered steps and figures."""
        values = dict(values or {})
        out = [Block("title", self.title)]
        for section in sections:
            out.append(Block("heading", str(section["heading"])))
            for raw in str(section.get("text", "")).split("\n\n"):
                para = " ".join(raw.split())
                if not para:
                    continue
                text = para.format(**values) if values else para
                head, _, rest = text.partition(" ")
                if head[:-1].isdigit() and head.endswith("."):
                    out.append(Block("step", rest, head))
                else:
                    out.append(Block("para", text))
            out += [Block("figure", str(name)) for name in section.get("figures", [])]
            if section.get("reference"):
                out.append(Block("reference", str(section["reference"])))
        return out

    def blocks(self) -> list[Block]:
        return self.text_blocks(self.sections, self.placeholders)

    # -- measuring and flowing -----------------------------------------------------------------
    def height(self, block: Block, width: float) -> float:
        if block.kind == "title":
            return TITLE_H
        if block.kind == "heading":
            return layout_text(block.text, width, 10_000.0, self.heading, self.fonts).height
        if block.kind == "para":
            return layout_text(block.text, width, 10_000.0, self.body, self.fonts).height
        if block.kind == "step":
            w = width - STEP_INDENT
            return layout_text(block.text, w, 10_000.0, self.body, self.fonts).height
        return self.figure_height(block.text, width)

    def paginate(self, page: Box) -> list[RulebookPage]:
        """Flow every block down two columns per page; headings stay with the next block; a
        reference block fills a page of its own."""
        blocks = self.blocks()
        columns = page.split_columns(2, gap=COLUMN_GAP)
        width = columns[0].width
        pages: list[list[Placed]] = [[]]
        col = 0
        first_top = page.y
        y = first_top

        def next_column() -> None:
            nonlocal col, y
            col += 1
            if col == 2:
                pages.append([])
                col = 0
            y = columns[col].y

        i = 0
        while i < len(blocks):
            block = blocks[i]
            if block.kind == "title":
                box = Box(page.x, page.y, page.width, TITLE_H)
                pages[-1].append(Placed(block, box))
                y = box.bottom + SECTION_GAP
                columns = [Box(c.x, y, c.width, page.bottom - y) for c in columns]
                i += 1
                continue
            if block.kind == "reference":
                if pages[-1]:
                    pages.append([])
                pages[-1].append(Placed(block, page))
                pages.append([])
                col = 0
                columns = [Box(c.x, page.y, c.width, page.height) for c in columns]
                y = page.y
                i += 1
                continue
            gap = 0.0
            if y > columns[col].y + 1e-6:
                gap = {"heading": SECTION_GAP, "figure": FIGURE_GAP}.get(block.kind, PARA_GAP)
            h = self.height(block, width)
            need = gap + h
            if block.kind == "heading" and i + 1 < len(blocks):
                # A heading stays with what follows it, that block's own gap included.
                after = blocks[i + 1]
                follow = FIGURE_GAP if after.kind == "figure" else PARA_GAP
                need += HEADING_GAP + follow + self.height(after, width)
            if y + need > columns[col].bottom + 1e-6 and y > columns[col].y + 1e-6:
                next_column()
                if len(pages) > 1 or col == 1:
                    columns = [Box(c.x, page.y, c.width, page.height) for c in columns]
                    if col == 0:
                        y = page.y
                gap = 0.0
            if h > columns[col].bottom - y + 1e-6:
                raise InputError(
                    f"the rulebook does not fit this paper: {block.text[:40]!r} is taller than"
                    " a column (use a larger paper or smaller margins)"
                )
            top = y + gap
            pages[-1].append(Placed(block, Box(columns[col].x, top, width, h)))
            y = top + h + (HEADING_GAP if block.kind == "heading" else 0.0)
            i += 1
        if not pages[-1] and len(pages) > 1:
            pages.pop()
        n = len(pages)
        return [RulebookPage(k + 1, n, tuple(p)) for k, p in enumerate(pages)]

    # -- drawing -------------------------------------------------------------------------------
    def draw_page(self, s: Surface, page: RulebookPage, box: Box) -> None:
        for placed in page.placed:
            b, block = placed.box, placed.block
            if block.kind == "title":
                s.text(
                    Box(b.x, b.y, b.width, 13.0),
                    block.text,
                    TextStyle("bold", 28, self.ink, "left", "middle", 1.0, 20),
                )
                s.text(
                    Box(b.x, b.y + 13.5, b.width, 6.0),
                    self.subtitle,
                    TextStyle("semibold", 11, self.ink, "left", "middle", 1.0, 9),
                )
                s.line(
                    (b.x + 0.5, b.bottom - 1.5),
                    (b.right - 0.5, b.bottom - 1.5),
                    Stroke(self.accent, 0.8),
                )
            elif block.kind == "heading":
                s.text(b, block.text, self.heading)
            elif block.kind == "para":
                s.text(b, block.text, self.body)
            elif block.kind == "step":
                s.text(Box(b.x, b.y, STEP_INDENT, b.height), block.number, self.body)
                s.text(
                    Box(b.x + STEP_INDENT, b.y, b.width - STEP_INDENT, b.height),
                    block.text,
                    self.body,
                )
            elif block.kind == "reference":
                with s.minimum_text(MIN_PT):
                    self.draw_figure(s, block.text, Box(b.x, b.y, b.width, b.height - 5.0))
            else:
                with s.minimum_text(MIN_PT):
                    self.draw_figure(s, block.text, b)
        label = f"{self.title} · {page.number}/{page.pages}"
        s.text(
            Box(box.x, box.bottom - 4.0, box.width, 4.0),
            label,
            TextStyle("regular", 7, LABEL_GREY, "right", "bottom", 1.0, 7),
        )

    # -- figures -------------------------------------------------------------------------------
    def figure_height(self, name: str, width: float) -> float:
        measure = getattr(self, f"_h_{name}", None)
        if measure is None:
            raise ValueError(f"unknown rulebook figure {name!r}")
        return float(measure(width))

    def draw_figure(self, s: Surface, name: str, box: Box) -> None:
        getattr(self, f"_d_{name}")(s, box)

    def caption_height(self, text: str, width: float, style: TextStyle | None = None) -> float:
        return layout_text(text, width, 10_000.0, style or self.caption, self.fonts).height

    def text_height(self, text: str, width: float) -> float:
        """The height of ``text`` set in the figures' small style."""
        return self.caption_height(text, width, self.small)

    def draw_rules_page(self, s: Surface, item: Item, bleed: float) -> None:
        """Draw a rulebook page item (its payload: this book and the page)."""
        del bleed
        _, page = item.payload
        self.draw_page(s, page, Box(0, 0, item.width, item.height).inset(1.0))


def rulebook_items(book: FlowBook | None, spec: SheetSpec, kind: str = "rules") -> list[Item]:
    """The pages of ``book`` laid out on the paper of ``spec``, as booklet items (alone on
    their page, never cut; double-sided printing puts the next page on the back)."""
    if book is None:
        return []
    usable = spec.usable
    page = Box(0.0, 0.0, usable.width, usable.height).inset(1.0)  # strokes stay inside
    return [
        Item(
            kind,
            f"{kind}-{p.number}",
            usable.width,
            usable.height,
            rotatable=False,
            bleed=0.0,
            alone=True,
            payload=(book, p),
            booklet=True,
        )
        for p in book.paginate(page)
    ]


# -- a grid of pictures (the components figure) -------------------------------------------------


def _grid(width: float, cols: int) -> tuple[float, float]:
    cell_w = (width - (cols - 1) * 2.0) / cols
    return cell_w, cell_w * 0.78


def pictures_height(
    book: FlowBook, pictures: Sequence[Picture], title: str, width: float, cols: int = 3
) -> float:
    """The height of :func:`draw_pictures` at ``width``."""
    cell_w, pic_h = _grid(width, cols)
    rows = -(-len(pictures) // cols)
    cap = max(book.caption_height(p[0], cell_w) for p in pictures)
    th = book.caption_height(title, width, book.small)
    return th + 1.5 + rows * (pic_h + cap + 2.5)


def draw_pictures(
    book: FlowBook,
    s: Surface,
    box: Box,
    pictures: Sequence[Picture],
    title: str,
    cols: int = 3,
) -> None:
    """A title, then each picture scaled into a cell of a ``cols``-column grid with its caption
    below (every piece of a kit, drawn as printed)."""
    cell_w, pic_h = _grid(box.width, cols)
    cap = max(book.caption_height(p[0], cell_w) for p in pictures)
    th = book.caption_height(title, box.width, book.small)
    s.text(Box(box.x, box.y, box.width, th), title, book.small)
    y0 = box.y + th + 1.5
    for k, (text, w, h, draw) in enumerate(pictures):
        r, c = divmod(k, cols)
        cell = Box(box.x + c * (cell_w + 2.0), y0 + r * (pic_h + cap + 2.5), cell_w, pic_h)
        scale = min(cell.width / w, cell.height / h)
        x = cell.x + (cell.width - w * scale) / 2
        y = cell.y + (cell.height - h * scale) / 2
        with s.transformed(translate=(x, y), scale=scale):
            draw(s)
        s.text(Box(cell.x, cell.bottom + 0.6, cell.width, cap), text, book.caption)
