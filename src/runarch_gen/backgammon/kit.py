"""Vrhcáby's print-and-play kit on the generic kit pipeline (:mod:`runarch_gen.pnp.kit`).

Components, in print order (:data:`KINDS`): the rulebook (:class:`BackgammonRulebook`), the
board tiled over pages with overlap and alignment marks (:mod:`runarch_gen.pnp.tiling`; the
whole board also comes on one A3 sheet, ``board-a3.pdf``), 2 × 15 checkers, two dice and the
doubling cube to fold, the match score track with a marker per player and the Crawford marker,
setup cards (standard, Nackgammon, Hypergammon) and a reference card. The board's geometry is
data (``templates/backgammon/kit.toml``): a point is as long as a stack of five checkers and
room to grab the top one, and as wide as a checker and a little more. The odds printed are
exact (:mod:`.odds`); the worked hit and bear-off are played by the move rules (:mod:`.board`).

>>> from runarch_gen.pnp.kit import KitOptions, KitRequest
>>> plan = KIT.plan(KitRequest(KitOptions()))
>>> plan.counts()["checkers"], plan.counts()["setups"]
(30, 3)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from runarch_gen import __version__
from runarch_gen.backgammon.board import BAR, OFF, Side, apply_step, format_steps, legal_plays
from runarch_gen.backgammon.board import side_from_points as side_of
from runarch_gen.backgammon.odds import HIT_CHANCE, REACH_CHANCE, SEED_DISTANCES, enter_table
from runarch_gen.backgammon.rules import STARTS, Rules
from runarch_gen.pnp.components import Component, ComponentRegistry
from runarch_gen.pnp.fonts import default_fonts
from runarch_gen.pnp.geometry import Box, Point
from runarch_gen.pnp.kit import (
    ExportKinds,
    KitDefinition,
    KitPlan,
    KitRequest,
    KitTemplates,
    Texts,
    load_templates,
    plan_sheets,
)
from runarch_gen.pnp.paint import BLACK, WHITE, Paint, ink_on
from runarch_gen.pnp.rulebook import FlowBook, Picture, draw_pictures, pictures_height
from runarch_gen.pnp.sheets import Item, SheetSpec
from runarch_gen.pnp.stock import (
    DOUBLING_CUBE,
    TEXT_GREY,
    DieNet,
    draw_checker,
    pip_face,
    text_face,
)
from runarch_gen.pnp.surface import Stroke, Surface
from runarch_gen.pnp.text import text_style
from runarch_gen.pnp.tiling import TilePlan, draw_mark, plan_tiles

__all__ = ["KINDS", "KIT", "BackgammonPainter", "BoardGeometry", "plan_kit"]

KINDS = ("rules", "board", "checkers", "dice", "score", "setups", "reference")
"""Component kinds in print order; ``--only`` names some of them."""
EXPORTS = ExportKinds(
    cards=("setups", "reference"),
    pieces=("checkers", "score"),
    shared_backs=(),
)
CAPTION = 8.0
"""The band above a board tile that says where the page goes."""
OVERLAP = 12.0


# -- the board ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BoardGeometry:
    """The board in mm: a point's width and length, the checker, the bar, the frame and the
    gap between the point tips. A point holds a stack of five checkers and ``grab`` mm more."""

    point_width: float = 26.0
    checker: float = 23.0
    grab: float = 6.0
    bar: float = 20.0
    frame: float = 8.0
    middle: float = 16.0

    @property
    def point_length(self) -> float:
        return 5 * self.checker + self.grab

    @property
    def width(self) -> float:
        return 2 * self.frame + 12 * self.point_width + self.bar

    @property
    def height(self) -> float:
        return 2 * (self.frame + self.point_length) + self.middle

    @property
    def bar_x(self) -> float:
        return self.frame + 6 * self.point_width

    def point_box(self, point: int) -> Box:
        """White's ``point`` (1–24): 1–12 along the near (bottom) edge from right to left,
        13–24 along the far edge from left to right; the box of its triangle."""
        if point <= 12:
            index = 12 - point
            y = self.height - self.frame - self.point_length
        else:
            index = point - 13
            y = self.frame
        x = self.frame + index * self.point_width + (self.bar if index >= 6 else 0.0)
        return Box(x, y, self.point_width, self.point_length)

    def stack(self, point: int, k: int) -> Point:
        """The centre of the ``k``-th checker (from 0) of a stack on white's ``point``."""
        box = self.point_box(point)
        r = self.checker / 2
        if point <= 12:
            return (box.centre[0], box.bottom - r - k * self.checker)
        return (box.centre[0], box.y + r + k * self.checker)


def geometry(templates: KitTemplates) -> BoardGeometry:
    table = templates.data.get("board", {})
    return BoardGeometry(**{k: float(v) for k, v in table.items()})


class BackgammonPainter:
    """Draws every Vrhcáby component, in the kit's language and style."""

    def __init__(
        self, rules: Rules, templates: KitTemplates, texts: Texts, *, friendly: bool
    ) -> None:
        self.rules = rules
        self.t = texts
        self.friendly = friendly
        self.fonts = default_fonts()
        self.g = geometry(templates)
        self.layouts = {n: templates.layout(n) for n in ("setup", "reference", "marker")}
        inks = templates.data.get("inks", {})
        suffix = "_friendly" if friendly else ""

        def ink(name: str) -> Paint:
            return Paint.hex(inks.get(name + suffix, inks[name]))

        self.wood = ink("wood")
        self.felt = ink("felt")
        self.dark_point = ink("dark_point")
        self.light_point = ink("light_point")
        self.white = Paint.hex(inks["white_checker"])
        self.black = ink("black_checker")
        self.die_size = float(templates.data.get("dice", {}).get("size", 16.0))
        self.components: ComponentRegistry[BackgammonContents] = ComponentRegistry(
            [
                Component("board", self._board_items, self.draw_tile_item),
                Component("checkers", self._checker_items, self.draw_checker_item),
                Component("dice", self._dice_items, self.draw_net),
                Component("score", self._score_items, self.draw_score_item),
                Component("setups", self._setup_items, self.draw_setup),
                Component(
                    "reference",
                    self._reference_items,
                    self.draw_reference,
                    self.draw_reference_back,
                    "reference",
                ),
            ]
        )

    # -- the board ---------------------------------------------------------------------------------
    def draw_board(
        self, s: Surface, setup: tuple[Side, Side] | None = None, *, numbers: bool = True
    ) -> None:
        """The board at (0, 0): frame, bar, 24 points numbered from white's side (1–24 along
        the near edge from the right, black's numbers beside them in smaller type), and
        optionally the checkers of a position (white's side, black's side)."""
        g = self.g
        s.rect(Box(0, 0, g.width, g.height), self.wood)
        s.rect(Box(g.frame, g.frame, g.width - 2 * g.frame, g.height - 2 * g.frame), self.felt)
        s.rect(Box(g.bar_x, 0, g.bar, g.height), self.wood)
        label_ink = ink_on(self.wood)
        for point in range(1, 25):
            box = g.point_box(point)
            paint = self.dark_point if point % 2 else self.light_point
            near = point <= 12
            if near:
                tip = [(box.x, box.bottom), (box.right, box.bottom), (box.centre[0], box.y)]
                label = Box(box.x, g.height - g.frame, box.width, g.frame)
            else:
                tip = [(box.x, box.y), (box.right, box.y), (box.centre[0], box.bottom)]
                label = Box(box.x, 0, box.width, g.frame)
            s.polygon(tip, paint, Stroke(label_ink, 0.2))
            if numbers:
                s.text(
                    Box(label.x, label.y, label.width * 0.55, label.height),
                    str(point),
                    text_style(9, label_ink, font="bold", align="right"),
                )
                s.text(
                    Box(label.x + label.width * 0.6, label.y, label.width * 0.4, label.height),
                    str(25 - point),
                    text_style(6.5, label_ink, align="left"),
                )
        if setup is not None:
            white, black = setup
            self._checkers(s, white, self.white, mirror=False)
            self._checkers(s, black, self.black, mirror=True)

    def _checkers(self, s: Surface, side: Side, paint: Paint, mirror: bool) -> None:
        g = self.g
        r = g.checker / 2
        ring = ink_on(paint)
        for own in range(1, 25):
            count = side[own]
            point = 25 - own if mirror else own
            for k in range(min(count, 5)):
                draw_checker(
                    s, g.stack(point, k), r, fill=paint, ring=ring, edge=Stroke(TEXT_GREY, 0.4)
                )
            if count > 5:
                s.text(
                    Box(*_corner(g.stack(point, 4), r), 2 * r, 2 * r),
                    str(count),
                    text_style(14, ring, font="bold"),
                )
        for k in range(side[BAR]):
            cy = g.height / 2 + (r + 2 + k * g.checker) * (1 if mirror else -1)
            draw_checker(
                s, (g.bar_x + g.bar / 2, cy), min(r, g.bar / 2 - 0.5), fill=paint, ring=ring
            )

    def tile_plan(self, window: tuple[float, float]) -> TilePlan:
        return plan_tiles(
            self.g.width,
            self.g.height,
            window[0],
            window[1],
            overlap=OVERLAP,
            along=(0.15, 0.35, 0.85),  # not on the middle band
        )

    def _board_items(self, c: BackgammonContents) -> list[Item]:
        usable = c.spec.usable
        width, height = max(usable.width, usable.height), min(usable.width, usable.height)
        plan = self.tile_plan((width, height - CAPTION))
        return [
            Item(
                "board",
                f"board-{t.row + 1}-{t.column + 1}",
                width,
                height,
                bleed=0.0,
                alone=True,
                payload=(plan, t),
            )
            for t in plan.tiles
        ]

    def draw_tile_item(self, s: Surface, item: Item, bleed: float) -> None:
        """One page of the board: its window of the board, white outside, the alignment
        marks in its overlaps, a dashed trim line, and where the page goes."""
        plan, tile = item.payload
        w = tile.window
        oy = CAPTION
        with s.transformed(translate=(-w.x, oy - w.y)), s.showing(w):
            self.draw_board(s)
        big = 2000.0
        for cover in (
            Box(-big, -big, 2 * big, big + oy),
            Box(-big, oy + w.height, 2 * big, big),
            Box(-big, oy, big, w.height),
            Box(w.width, oy, big, w.height),
        ):
            s.rect(cover, WHITE)
        with s.transformed(translate=(-w.x, oy - w.y)):
            for mark in plan.marks_in(tile):
                draw_mark(s, mark)
        s.rect(Box(0, oy, w.width, w.height), None, Stroke(TEXT_GREY, 0.2, (2.0, 2.0)))
        caption = str(self.t["board_caption"]).format(
            page=tile.row * plan.columns + tile.column + 1,
            pages=len(plan.tiles),
            row=tile.row + 1,
            column=tile.column + 1,
        )
        s.text(Box(0, 0, w.width, oy - 1), caption, text_style(8, align="left"))

    # -- pieces ------------------------------------------------------------------------------------
    def _checker_items(self, c: BackgammonContents) -> list[Item]:
        d = self.g.checker
        per = c.rules.checkers
        return [
            Item("checkers", f"{colour}-{i + 1}", d, d, payload=colour, round=True)
            for colour in ("white", "black")
            for i in range(per)
        ]

    def draw_checker_item(self, s: Surface, item: Item, bleed: float) -> None:
        r = item.width / 2
        paint = self.white if item.payload == "white" else self.black
        s.circle((r, r), r + bleed, paint)
        draw_checker(s, (r, r), r, fill=paint, ring=ink_on(paint), edge=Stroke(TEXT_GREY, 0.3))

    def nets(self) -> list[tuple[str, DieNet]]:
        side = self.die_size
        return [
            ("die-1", DieNet(side)),
            ("die-2", DieNet(side)),
            ("cube", DieNet(side * 1.1, DOUBLING_CUBE)),
        ]

    def _dice_items(self, c: BackgammonContents) -> list[Item]:
        out = []
        for key, net in self.nets():
            b = net.bounds((0, 0))
            out.append(
                Item(
                    "dice",
                    key,
                    b.width,
                    b.height,
                    bleed=2.5,
                    rotatable=False,
                    payload=net,
                    outlined=True,
                )
            )
        return out

    def draw_net(self, s: Surface, item: Item, bleed: float) -> None:
        net: DieNet = item.payload
        face = text_face(text_style(15, font="bold")) if net.faces == DOUBLING_CUBE else pip_face()
        net.draw(s, (0.0, net.side * net.tab), face)

    # the match score track and its markers
    TRACK = 26
    """Scores 0–25 on the track."""

    def track_cell(self) -> float:
        return float(self.layouts["marker"].width) + 1.5

    def _score_items(self, c: BackgammonContents) -> list[Item]:
        cell = self.track_cell()
        per_row = 13
        w, h = per_row * cell + 2, 2 * (2 * cell + 7) + 2
        marker = self.layouts["marker"]
        return [
            Item("score", "score-track", w, h, rotatable=True),
            *(
                Item("score", f"marker-{who}", marker.width, marker.height, payload=who, round=True)
                for who in ("white", "black", "crawford")
            ),
        ]

    def draw_score_item(self, s: Surface, item: Item, bleed: float) -> None:
        if item.key == "score-track":
            self.draw_track(s, Box(0, 0, item.width, item.height), bleed)
        else:
            self.draw_marker(s, item.width / 2, item.payload, bleed)

    def draw_marker(self, s: Surface, r: float, who: str, bleed: float = 0.0) -> None:
        paint = {"white": self.white, "black": self.black}.get(who, self.light_point)
        ink = ink_on(paint)
        s.circle((r, r), r + bleed, paint)
        s.circle((r, r), r, paint, Stroke(TEXT_GREY, 0.3))
        label = "C" if who == "crawford" else str(self.t["players"][0 if who == "white" else 1])[0]
        s.text(Box(0, 0, 2 * r, 2 * r).inset(r * 0.35), label, text_style(14, ink, font="bold"))

    def draw_track(self, s: Surface, box: Box, bleed: float) -> None:
        s.rect(box.inset(-bleed), WHITE)
        cell = self.track_cell()
        per_row = 13
        names = self.t["players"]
        for player in range(2):
            top = box.y + 1 + player * (2 * cell + 7)
            s.text(
                Box(box.x + 1, top, box.width - 2, 6),
                str(self.t["score_row"]).format(player=names[player]),
                text_style(8, font="semibold", align="left"),
            )
            for value in range(self.TRACK):
                r, col = divmod(value, per_row)
                cb = Box(box.x + 1 + col * cell, top + 6.5 + r * cell, cell, cell)
                s.rect(cb, None, Stroke(BLACK, 0.3))
                s.text(cb.inset(1.5), str(value), text_style(10, TEXT_GREY))

    def _setup_items(self, c: BackgammonContents) -> list[Item]:
        lay = self.layouts["setup"]
        return [
            Item("setups", f"setup-{name}", lay.width, lay.height, payload=name) for name in STARTS
        ]

    def draw_setup(self, s: Surface, item: Item, bleed: float) -> None:
        """A setup card: the start drawn as numbers of checkers on the 24 points, white's
        numbers along the edges."""
        name: str = item.payload
        cut = Box(0, 0, item.width, item.height)
        s.rect(cut.inset(-bleed), WHITE)
        inner = cut.inset(self.layouts["setup"].safe)
        s.text(
            Box(inner.x, inner.y, inner.width, 6),
            str(self.t["starts"][name]),
            text_style(9, font="bold"),
        )
        start = STARTS[name]
        self.mini_board(s, Box(inner.x, inner.y + 7, inner.width, inner.height - 7), start, start)

    def mini_board(self, s: Surface, box: Box, white: Side, black: Side) -> None:
        """A small board: the 24 points with white's numbers, and each stack as a disc with
        its count (white discs white, black discs dark)."""
        bar = 4.0
        pw = (box.width - bar) / 12
        half = (box.height - 8) / 2
        s.rect(box, self.felt if not self.friendly else WHITE, Stroke(BLACK, 0.3))
        s.rect(Box(box.x + 6 * pw, box.y, bar, box.height), self.wood)
        for point in range(1, 25):
            near = point <= 12
            index = 12 - point if near else point - 13
            x = box.x + index * pw + (bar if index >= 6 else 0)
            if near:
                tip = [
                    (x, box.bottom - 4),
                    (x + pw, box.bottom - 4),
                    (x + pw / 2, box.bottom - 4 - half * 0.8),
                ]
                label = Box(x, box.bottom - 4, pw, 4)
            else:
                tip = [(x, box.y + 4), (x + pw, box.y + 4), (x + pw / 2, box.y + 4 + half * 0.8)]
                label = Box(x, box.y, pw, 4)
            paint = self.dark_point if point % 2 else self.light_point
            s.polygon(tip, paint)
            s.rect(label, WHITE)
            s.text(label, str(point), text_style(6, BLACK))
            for count, colour in ((white[point], self.white), (black[25 - point], self.black)):
                if not count:
                    continue
                cy = box.bottom - 4 - pw * 0.6 if near else box.y + 4 + pw * 0.6
                r = pw * 0.45
                s.circle((x + pw / 2, cy), r, colour, Stroke(TEXT_GREY, 0.25))
                s.text(
                    Box(x + pw / 2 - r, cy - r, 2 * r, 2 * r),
                    str(count),
                    text_style(7, ink_on(colour), font="bold"),
                )

    # the reference card
    def _reference_items(self, c: BackgammonContents) -> list[Item]:
        lay = self.layouts["reference"]
        return [Item("reference", "reference", lay.width, lay.height, True, rotatable=False)]

    def odds_tables(self, s: Surface, box: Box, size: float = 7.5) -> None:
        t = self.t
        s.text(
            Box(box.x, box.y, box.width, 5), str(t["hit_title"]), text_style(size + 1, font="bold")
        )
        heads = [str(h) for h in t["hit_heads"]]
        rows: list[tuple[str, ...]] = [
            (str(d), _percent(HIT_CHANCE[d], t), _percent(REACH_CHANCE[d], t))
            for d in SEED_DISTANCES
        ]
        y = self._table(s, Box(box.x, box.y + 6, box.width, 0), heads, rows, size)
        s.text(
            Box(box.x, y + 3, box.width, 5),
            str(t["enter_title"]),
            text_style(size + 1, font="bold"),
        )
        heads = [str(h) for h in t["enter_heads"]]
        rows = [
            (str(k), _percent(a, t), _percent(b, t), _percent(c, t)) for k, a, b, c in enter_table()
        ]
        self._table(s, Box(box.x, y + 9, box.width, 0), heads, rows, size)

    def _table(
        self, s: Surface, box: Box, heads: list[str], rows: Sequence[tuple[str, ...]], size: float
    ) -> float:
        cols = len(heads)
        cw = box.width / cols
        rh = size * 0.5
        y = box.y
        for c, head in enumerate(heads):
            s.text(
                Box(box.x + c * cw, y, cw, rh * 2),
                head,
                text_style(size - 0.5, font="semibold", leading=1.0),
            )
        y += rh * 2
        for r, row in enumerate(rows):
            if r % 2 == 0:
                s.rect(Box(box.x, y, box.width, rh), Paint.hex("#EDEDED"))
            for c, value in enumerate(row):
                s.text(Box(box.x + c * cw, y, cw, rh), value, text_style(size))
            y += rh
        return y

    def draw_reference(self, s: Surface, item: Item, bleed: float) -> None:
        cut = Box(0, 0, item.width, item.height)
        s.rect(cut.inset(-bleed), WHITE)
        self.odds_tables(s, cut.inset(self.layouts["reference"].safe), 7.0)

    def draw_reference_back(self, s: Surface, item: Item, bleed: float) -> None:
        cut = Box(0, 0, item.width, item.height)
        s.rect(cut.inset(-bleed), WHITE)
        box = cut.inset(self.layouts["reference"].safe)
        t = self.t
        s.text(Box(box.x, box.y, box.width, 6), str(t["notes_title"]), text_style(9, font="bold"))
        text = "\n\n".join(str(n).format(start=_pips(STARTS["standard"])) for n in t["notes"])
        s.text(
            Box(box.x, box.y + 7, box.width, box.height - 7),
            text,
            text_style(7.5, align="left", valign="top", leading=1.2),
        )


def _corner(centre: Point, r: float) -> Point:
    return (centre[0] - r, centre[1] - r)


def _percent(x: float, t: Texts) -> str:
    return f"{100 * x:.1f}".replace(".", str(t["decimal"])) + " %"


def _pips(side: Side) -> int:
    return sum(p * n for p, n in enumerate(side))


@dataclass(frozen=True, slots=True)
class BackgammonContents:
    rules: Rules
    spec: SheetSpec


# -- the rulebook --------------------------------------------------------------------------------


class BackgammonRulebook(FlowBook):
    """The rulebook: text from ``[LANG.rulebook]``, figures drawn with the kit's pieces and
    worked positions played by the move rules."""

    def __init__(self, painter: BackgammonPainter, counts: dict[str, int]) -> None:
        book = painter.t["rulebook"]
        rules = painter.rules
        super().__init__(
            painter.fonts,
            title=str(book["title"]),
            subtitle=str(book["subtitle"]),
            accent=painter.dark_point,
            sections=book["sections"],
            values={
                "checkers": str(rules.checkers),
                "pips": str(_pips(STARTS["standard"])),
            },
        )
        self.p = painter
        self.book = book
        self.counts = counts

    def pictures(self) -> list[Picture]:
        p, t = self.p, self.p.t
        g = p.g
        marker = p.layouts["marker"]
        setup = p.layouts["setup"]
        ref = p.layouts["reference"]
        die = DieNet(p.die_size).bounds((0, 0))

        def count(kind: str) -> str:
            return f"{self.counts.get(kind, 0)} × {t.kind(kind)}"

        def item(kind: str, w: float, h: float, payload: Any = None) -> Item:
            return Item(kind, kind, w, h, payload=payload)

        return [
            (
                str(self.book["board_picture"]),
                g.width,
                g.height,
                lambda s: p.draw_board(s, numbers=False),
            ),
            (
                count("checkers"),
                2 * g.checker + 2,
                g.checker,
                self._two_checkers,
            ),
            (
                count("dice"),
                die.width,
                die.height,
                lambda s: p.draw_net(
                    s, item("dice", die.width, die.height, DieNet(p.die_size)), 0.0
                ),
            ),
            (
                count("score"),
                3 * marker.width + 4,
                marker.height,
                self._markers,
            ),
            (
                count("setups"),
                setup.width,
                setup.height,
                lambda s: p.draw_setup(
                    s, item("setups", setup.width, setup.height, "standard"), 0.0
                ),
            ),
            (
                count("reference"),
                ref.width,
                ref.height,
                lambda s: p.draw_reference(s, item("reference", ref.width, ref.height), 0.0),
            ),
        ]

    def _two_checkers(self, s: Surface) -> None:
        d = self.p.g.checker
        for k, who in enumerate(("white", "black")):
            with s.transformed(translate=(k * (d + 2), 0)):
                self.p.draw_checker_item(s, Item("checkers", "c", d, d, payload=who), 0.0)

    def _markers(self, s: Surface) -> None:
        w = self.p.layouts["marker"].width
        for k, who in enumerate(("white", "black", "crawford")):
            with s.transformed(translate=(k * (w + 2), 0)):
                self.p.draw_marker(s, w / 2, who)

    def _h_components(self, width: float) -> float:
        return pictures_height(self, self.pictures(), str(self.book["figure_components"]), width)

    def _d_components(self, s: Surface, box: Box) -> None:
        draw_pictures(self, s, box, self.pictures(), str(self.book["figure_components"]))

    # positions on the board
    def _board_h(self, width: float, caption: str) -> float:
        g = self.p.g
        return width * g.height / g.width + 1.5 + self.text_height(caption, width)

    def _board_d(self, s: Surface, box: Box, white: Side, black: Side, caption: str) -> None:
        g = self.p.g
        scale = box.width / g.width
        with s.transformed(translate=(box.x, box.y), scale=scale):
            self.p.draw_board(s, (white, black), numbers=False)
        top = box.y + g.height * scale + 1.5
        s.text(Box(box.x, top, box.width, box.bottom - top), caption, self.small)

    def _h_setup(self, width: float) -> float:
        return self._board_h(width, str(self.book["figure_setup"]))

    def _d_setup(self, s: Surface, box: Box) -> None:
        start = self.p.rules.start
        self._board_d(s, box, start, start, str(self.book["figure_setup"]))

    # the hit
    def hit(self) -> tuple[Side, Side, Side, Side, str]:
        """White (to move) rolls 6–3 with a black blot 6 pips in front of the 13-point:
        white plays 13/7*, and the move rules put the black checker on the bar."""
        white = side_of({24: 2, 13: 5, 8: 3, 6: 5})
        black = side_of({24: 2, 13: 5, 8: 3, 6: 4, 18: 1})  # black's 18 is white's 7
        step = apply_step(white, black, 13, 6)
        assert step is not None
        after_w, after_b, first = step
        step2 = apply_step(after_w, after_b, 24, 3)
        assert step2 is not None
        after_w, after_b, second = step2
        return white, black, after_w, after_b, format_steps([first, second])

    def hit_caption(self) -> str:
        _, _, _, after_b, play = self.hit()
        return str(self.book["figure_hit"]).format(play=play, bar=after_b[BAR])

    def _h_hit(self, width: float) -> float:
        return self._board_h(width, self.hit_caption())

    def _d_hit(self, s: Surface, box: Box) -> None:
        _, _, white, black, _ = self.hit()
        self._board_d(s, box, white, black, self.hit_caption())

    # the bear-off
    def bear_off(self) -> tuple[Side, Side, str]:
        """White with every checker home rolls 6–5: the rules' own legal plays."""
        white = side_of({6: 1, 4: 2, 2: 3, OFF: 9})
        black = side_of({6: 4, 5: 3, 3: 2, OFF: 6})
        plays = legal_plays(white, black, 6, 5)
        return white, black, " · ".join(sorted(format_steps(p.steps) for p in plays))

    def bear_caption(self) -> str:
        _, _, plays = self.bear_off()
        return str(self.book["figure_bear"]).format(plays=plays)

    def _h_bear(self, width: float) -> float:
        return self._board_h(width, self.bear_caption())

    def _d_bear(self, s: Surface, box: Box) -> None:
        white, black, _ = self.bear_off()
        self._board_d(s, box, white, black, self.bear_caption())

    # the double
    def double_text(self) -> str:
        example = self.book["double"]
        cube = 1
        lines = []
        for step in example["steps"]:
            cube *= 2
            lines.append(str(step).format(cube=cube))
        kind = int(example["kind"])
        lines.append(str(example["result"]).format(cube=cube, kind=kind, points=kind * cube))
        return "\n".join(lines)

    def _h_double(self, width: float) -> float:
        return 14.0 + self.text_height(self.double_text(), width)

    def _d_double(self, s: Surface, box: Box) -> None:
        net = DieNet(4.0, DOUBLING_CUBE)
        cube = 1
        for k, _ in enumerate(self.book["double"]["steps"]):
            cube *= 2
            x = box.x + k * 16
            s.rounded_rect(Box(x, box.y, 11, 11), 1.5, WHITE, Stroke(BLACK, 0.35))
            s.text(Box(x, box.y, 11, 11), str(cube), text_style(11, font="bold"))
        del net
        s.text(
            Box(box.x, box.y + 14, box.width, box.bottom - box.y - 14),
            self.double_text(),
            self.small,
        )

    # the variants' starts
    def _h_variants(self, width: float) -> float:
        return (
            2 * (width * 0.5 * self.p.layouts["setup"].height / self.p.layouts["setup"].width) + 4
        )

    def _d_variants(self, s: Surface, box: Box) -> None:
        setup = self.p.layouts["setup"]
        w = box.width * 0.5
        scale = w / setup.width
        for k, name in enumerate(("nackgammon", "hypergammon")):
            with s.transformed(translate=(box.x + k * (w + 1), box.y), scale=scale):
                self.p.draw_setup(
                    s, Item("setups", name, setup.width, setup.height, payload=name), 0.0
                )

    # the one-page reference
    def _h_reference(self, width: float) -> float:
        return 100.0

    def _d_reference(self, s: Surface, box: Box) -> None:
        cols = box.split_columns(2, gap=7)
        s.text(
            Box(box.x, box.y, box.width, 10),
            str(self.book["reference_title"]),
            text_style(16, font="bold", align="left"),
        )
        left = Box(cols[0].x, box.y + 13, cols[0].width, box.height - 13)
        s.text(
            left,
            "\n".join(str(line) for line in self.book["reference"]),
            text_style(8.5, align="left", valign="top", leading=1.3),
        )
        right = Box(cols[1].x, box.y + 13, cols[1].width, box.height * 0.62)
        self.p.odds_tables(s, right, 8.0)
        notes = Box(cols[1].x, right.bottom + 2, cols[1].width, box.bottom - right.bottom - 2)
        text = "\n\n".join(
            str(n).format(start=_pips(STARTS["standard"])) for n in self.p.t["notes"][:2]
        )
        s.text(notes, text, text_style(7.5, align="left", valign="top", leading=1.2))


# -- the kit -------------------------------------------------------------------------------------


def board_a3_pdf(painter: BackgammonPainter) -> bytes:
    """The whole board on one A3 sheet (landscape), centred."""
    from runarch_gen.pnp.pdf import PdfSurface

    width, height = 420.0, 297.0
    g = painter.g
    surface = PdfSurface(
        width,
        height,
        painter.fonts,
        title=f"{painter.t['game']} — board (A3)",
        author="runarch-gen",
        creator=f"runarch-gen {__version__}",
    )
    x, y = (width - g.width) / 2, (height - g.height) / 2
    with surface.transformed(translate=(x, y)):
        painter.draw_board(surface)
    surface.set_page_boxes(trim=(x, y, g.width, g.height), bleed=(x, y, g.width, g.height))
    return surface.finish()


def plan_kit(request: KitRequest) -> KitPlan:
    """Lay out Vrhcáby's kit for ``request`` (its values: the game's rules parameters; the
    rulebook describes the variant and the options in force)."""
    from runarch_gen.backgammon.rules import BACKGAMMON_TYPE, rules_from_values

    options = request.options
    rules = rules_from_values(request.values)
    templates = load_templates("backgammon", options.template)
    texts = templates.texts(options.lang)
    painter = BackgammonPainter(rules, templates, texts, friendly=options.print_friendly)
    spec = templates.sheet(options.paper)
    contents = BackgammonContents(rules, spec)
    counts = {
        kind: len(painter.components[kind].items(contents)) for kind in painter.components.kinds
    }
    book = BackgammonRulebook(painter, counts)
    values = {**BACKGAMMON_TYPE.parse_parameters({}), **request.values}
    extra = {}
    if options.only is None or "board" in options.only:
        extra["board-a3.pdf"] = board_a3_pdf(painter)
    return plan_sheets(
        game="backgammon",
        options=options,
        templates=templates,
        texts=texts,
        fonts=painter.fonts,
        components=painter.components,
        contents=contents,
        book=book,
        kinds=KINDS,
        exports=EXPORTS,
        painter=painter,
        extra_files=extra,
        manifest_options={"rules": BACKGAMMON_TYPE.game_string(values)},
    )


KIT = KitDefinition("backgammon", KINDS, plan_kit)
"""Vrhcáby's kit, as its registration's ``kit`` hook gives it."""

Draw = Callable[[Surface, Box], None]
