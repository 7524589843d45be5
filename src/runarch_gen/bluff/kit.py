"""Bluff's print-and-play kit on the generic kit pipeline (:mod:`runarch_gen.pnp.kit`).

Components, in print order (:data:`KINDS`): the rulebook (:class:`BluffRulebook`), the betting
scale board — the rules' own scale round the edge, clockwise, star fields tinted, and in the
middle one slot per die that can leave play, each the die's size and 1 mm more — six odds cards
(number bids on the front, star bids on the back), six fold-up screens (the player's odds and a
round in brief inside, the seat's colour, number and pattern outside), stickers for ordinary
16 mm dice (the bid die in its own colour) and dice nets to fold and glue. Sizes and colours
are data: ``templates/bluff/kit.toml``; every word: ``templates/bluff/texts.toml``. The odds
are exact (:mod:`.odds`); the worked challenge is played by the engine.

>>> from runarch_gen.pnp.kit import KitOptions, KitRequest
>>> plan = KIT.plan(KitRequest(KitOptions(lang="cs")))
>>> plan.counts()["odds_cards"], plan.counts()["screens"]
(6, 6)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from runarch_gen.bluff.odds import odds_table
from runarch_gen.bluff.rules import Bid, BluffRules, Field
from runarch_gen.errors import InputError
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
from runarch_gen.pnp.stock import STANDARD_DIE, TEXT_GREY, DieNet, draw_pips, star_points
from runarch_gen.pnp.surface import Stroke, Surface
from runarch_gen.pnp.text import text_style

__all__ = ["KINDS", "KIT", "BluffPainter", "odds_rows", "plan_kit", "ring_cells"]

KINDS = ("rules", "board", "odds_cards", "screens", "stickers", "dice")
"""Component kinds in print order; ``--only`` names some of them."""
SEATS = 6
NET_MARGIN = 2.5
"""White paper round each die net (its items' bleed), so neighbouring nets never share a cut."""
EXPORTS = ExportKinds(cards=("odds_cards",), pieces=("stickers",))


# -- geometry shared by the board and its pictures ----------------------------------------------


def _ring_shape(count: int, least: tuple[int, int]) -> tuple[int, int]:
    cols = max(least[0], math.ceil(count / 3))
    rows = max(least[1], math.ceil((count - 2 * cols) / 2) + 2)
    return cols, rows


def ring_cells(count: int, area: Box, least: tuple[int, int] = (3, 3)) -> tuple[list[Box], float]:
    """``count`` square cells clockwise round the edge of ``area`` from its top-left corner
    (a ring of at least ``least`` columns and rows), and their size."""
    cols, rows = _ring_shape(count, least)
    size = min(area.width / cols, area.height / rows)
    x0 = area.x + (area.width - cols * size) / 2
    y0 = area.y + (area.height - rows * size) / 2
    path = [(c, 0) for c in range(cols)]
    path += [(cols - 1, r) for r in range(1, rows - 1)]
    path += [(c, rows - 1) for c in range(cols - 1, -1, -1)]
    path += [(0, r) for r in range(rows - 2, 0, -1)]
    return [Box(x0 + c * size, y0 + r * size, size, size) for c, r in path[:count]], size


BOARD_RING = (8, 6)
"""The board's ring is at least this many fields across and down, so that a short scale
still leaves room for the slots in the middle."""


def _ring_inside(count: int, area: Box) -> Box:
    cols, rows = _ring_shape(count, BOARD_RING)
    _, size = ring_cells(count, area, BOARD_RING)
    x0 = area.x + (area.width - cols * size) / 2
    y0 = area.y + (area.height - rows * size) / 2
    return Box(x0 + size + 4, y0 + size + 4, (cols - 2) * size - 8, (rows - 2) * size - 8)


def max_dice(rules: BluffRules) -> int:
    """The most dice a table can hold under ``rules`` (every table size 2–6)."""
    return max(
        players * (rules.dice or (5 if players == 6 else 6)) for players in range(2, SEATS + 1)
    )


def odds_rows(faces: int, hidden: Sequence[int], needs: int) -> dict[str, list[list[str]]]:
    """The chance in per cent that at least N of H hidden dice count, for N = 1 … ``needs``,
    as printed: ``–`` impossible, ``<1`` and ``99+`` at the ends, else rounded."""
    return _odds_rows(faces, tuple(hidden), needs)


@functools.cache
def _odds_rows(faces: int, hidden: tuple[int, ...], needs: int) -> dict[str, list[list[str]]]:
    # Exact fractions are slow and the kit prints the same tables many times: computed once.
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


def bid_text(bid: Bid) -> str:
    """A bid as printed: ``11×3``, and ``4×*`` for four stars (the font has no ★; the
    rulebook says that * is the star)."""
    return f"{bid.quantity}×{'*' if bid.is_star else bid.face}"


def _strong(value: str) -> bool:
    return value == "99+" or (value.isdigit() and int(value) >= 50)


# -- the painter ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sticker:
    die: int
    face: int
    bid: bool


@dataclass(frozen=True, slots=True)
class BluffContents:
    rules: BluffRules
    spec: SheetSpec


class BluffPainter:
    """Draws every Bluff component from its layout, in the kit's language and style."""

    def __init__(
        self, rules: BluffRules, templates: KitTemplates, texts: Texts, *, friendly: bool
    ) -> None:
        self.rules = rules
        self.t = texts
        self.friendly = friendly
        self.fonts = default_fonts()
        self.layouts = {n: templates.layout(n) for n in ("odds_card", "screen", "sticker")}
        dice = templates.data.get("dice", {})
        self.die = float(dice.get("size", 16.0))
        self.play = float(dice.get("play", 1.0))
        inks = templates.data.get("inks", {})
        self.bid = Paint.hex(inks.get("bid", "#C4470C"))
        self.star_field = Paint.hex(inks.get("star_field_friendly" if friendly else "star_field"))
        self.slot = Paint.hex(inks.get("slot", "#E6E6E6"))
        self.row = Paint.hex(inks.get("row", "#EBEBEB"))
        players = templates.data.get("players", {})
        self.seats = [Paint.hex(c) for c in players.get("friendly" if friendly else "colours", [])]
        if len(self.seats) < SEATS:
            raise InputError(f"{templates.source}: [players] needs {SEATS} 'colours'")
        self.components: ComponentRegistry[BluffContents] = ComponentRegistry(
            [
                Component("board", self._board_items, self.draw_board_item, layout="board"),
                Component(
                    "odds_cards",
                    self._card_items,
                    self.draw_card_front,
                    self.draw_card_back,
                    layout="odds_card",
                ),
                Component(
                    "screens",
                    self._screen_items,
                    self.draw_screen_inside,
                    self.draw_screen_outside,
                    layout="screen",
                ),
                Component("stickers", self._sticker_items, self.draw_sticker, layout="sticker"),
                Component("dice", self._net_items, self.draw_net),
            ]
        )

    # -- items -----------------------------------------------------------------------------------
    def _board_items(self, c: BluffContents) -> list[Item]:
        usable = c.spec.usable
        width, height = max(usable.width, usable.height), min(usable.width, usable.height)
        return [Item("board", "board", width, height, bleed=0.0, alone=True)]

    def _card_items(self, c: BluffContents) -> list[Item]:
        lay = self.layouts["odds_card"]
        return [
            Item("odds_cards", f"odds-card-{k + 1}", lay.width, lay.height, True)
            for k in range(SEATS)
        ]

    def _screen_items(self, c: BluffContents) -> list[Item]:
        lay = self.layouts["screen"]
        return [
            Item("screens", f"screen-{k + 1}", lay.width, lay.height, True, payload=k)
            for k in range(SEATS)
        ]

    def _sticker_items(self, c: BluffContents) -> list[Item]:
        lay = self.layouts["sticker"]
        dice = max_dice(c.rules) + 1  # and the bid die
        return [
            Item(
                "stickers",
                f"sticker-{d + 1}-{f + 1}",
                lay.width,
                lay.height,
                bleed=0.0,
                payload=Sticker(d, f + 1, d == dice - 1),
            )
            for d in range(dice)
            for f in range(c.rules.sides)
        ]

    def net(self, bid: bool) -> DieNet:
        faces = (
            STANDARD_DIE
            if self.rules.sides == 6
            else tuple((k % self.rules.sides) + 1 for k in range(6))
        )
        return DieNet(self.die, faces, fill=self.bid if bid else WHITE)

    def _net_items(self, c: BluffContents) -> list[Item]:
        dice = max_dice(c.rules) + 1
        bounds = self.net(False).bounds((0.0, 0.0))
        return [
            Item(
                "dice",
                f"die-{d + 1}",
                bounds.width,
                bounds.height,
                bleed=NET_MARGIN,
                rotatable=False,
                payload=d == dice - 1,
                outlined=True,
            )
            for d in range(dice)
        ]

    # -- faces -----------------------------------------------------------------------------------
    def draw_face(self, s: Surface, box: Box, face: int, ink: Paint = BLACK) -> None:
        """One die face: pips for a number, a star for the star."""
        if face == self.rules.star:
            s.polygon(star_points(box.centre, box.width * 0.36), fill=ink)
        elif face <= 8:
            draw_pips(s, box, face, ink)
        else:
            s.text(box.inset(1), str(face), text_style(box.height * 2, ink, font="bold"))

    def draw_die(self, s: Surface, box: Box, face: int, *, bid: bool = False) -> None:
        """A die seen from above showing ``face``."""
        fill = self.bid if bid else WHITE
        s.rounded_rect(box, box.width * 0.16, fill, Stroke(BLACK, 0.3))
        self.draw_face(s, box.inset(box.width * 0.06), face, WHITE if bid else BLACK)

    # -- the board -------------------------------------------------------------------------------
    def draw_board_item(self, s: Surface, item: Item, bleed: float) -> None:
        self.draw_board(s, Box(0, 0, item.width, item.height))

    def slot_layout(self, area: Box) -> tuple[list[Box], float]:
        """The slots for dice out of play in ``area``: one per die, ``play`` mm larger than the
        die, 2 mm apart, at most 10 a row; and where the slots end."""
        count = max_dice(self.rules)
        side = self.die + self.play
        per_row = max(1, min(10, count, int((area.width + 2.0) // (side + 2.0))))
        rows = math.ceil(count / per_row)
        width = per_row * side + (per_row - 1) * 2.0
        if width > area.width or rows * (side + 2.0) > area.height:
            raise InputError(
                f"the board has no room for {count} dice of {self.die:g} mm on this paper"
            )
        x0 = area.x + (area.width - width) / 2
        boxes = [
            Box(
                x0 + (k % per_row) * (side + 2.0),
                area.y + (k // per_row) * (side + 2.0),
                side,
                side,
            )
            for k in range(count)
        ]
        return boxes, area.y + rows * (side + 2.0)

    def draw_board(self, s: Surface, page: Box, *, numbers: bool = True) -> None:
        fields = self.rules.scale.fields
        cells, _ = ring_cells(len(fields), page, BOARD_RING)
        for index, (field, cell) in enumerate(zip(fields, cells, strict=True)):
            self.draw_field(s, cell.inset(0.8), field, index + 1 if numbers else None)
        # clockwise arrows between the first fields
        centre = _ring_inside(len(fields), page)
        t = self.t
        s.text(
            Box(centre.x, centre.y, centre.width, 14), str(t["game"]), text_style(32, font="bold")
        )
        s.text(
            Box(centre.x, centre.y + 14, centre.width, 6),
            str(t["board_subtitle"]),
            text_style(10),
        )
        label = Box(centre.x, centre.y + 22, centre.width, 5)
        s.text(label, str(t["board_out"]), text_style(9, TEXT_GREY))
        slots, bottom = self.slot_layout(
            Box(centre.x, label.bottom + 1.5, centre.width, centre.bottom - label.bottom - 14)
        )
        for box in slots:
            s.rounded_rect(box, 1.5, self.slot, Stroke(TEXT_GREY, 0.2))
        legend = bottom + 1.0
        s.text(
            Box(centre.x, legend, centre.width, 5.5), "→ " + str(t["board_raise"]), text_style(9)
        )
        s.polygon(star_points((centre.x + 10, legend + 9.2), 2.6), fill=self.bid)
        s.text(
            Box(centre.x + 15, legend + 6.5, centre.width - 15, 5.5),
            str(t["board_star"]),
            text_style(9, align="left"),
        )

    def draw_field(self, s: Surface, box: Box, field: Field, order: int | None) -> None:
        """One field of the scale: its quantity, a star on a star field, its place in the
        raise order."""
        size = box.width
        fill = self.star_field if field.star else WHITE
        s.rounded_rect(box, 2.0, fill, Stroke(BLACK, 0.35))
        if field.star:
            s.polygon(
                star_points((box.x + size * 0.21, box.y + size * 0.22), size * 0.15),
                fill=self.bid,
            )
            s.text(
                Box(box.x + size * 0.3, box.y + size * 0.2, size * 0.62, size * 0.62),
                str(field.quantity),
                text_style(size * 1.4, font="bold"),
            )
        else:
            s.text(box.inset(size * 0.1), str(field.quantity), text_style(size * 1.6, font="bold"))
        if order is not None:
            s.text(
                Box(box.x, box.bottom - 4.2, box.width - 1.5, 3.6),
                str(order),
                text_style(6.5, TEXT_GREY, align="right"),
            )

    # -- odds cards ------------------------------------------------------------------------------
    HIDDEN = (3, 6, 9, 12, 15, 18, 21, 24, 27, 30)

    def draw_card_front(self, s: Surface, item: Item, bleed: float) -> None:
        self._odds_card(s, item, bleed, "number")

    def draw_card_back(self, s: Surface, item: Item, bleed: float) -> None:
        self._odds_card(s, item, bleed, "star")

    def _odds_card(self, s: Surface, item: Item, bleed: float, kind: str) -> None:
        lay = self.layouts["odds_card"]
        cut = lay.cut
        t = self.t
        s.rect(cut.inset(-bleed), WHITE)
        band = self.bid if kind == "star" else Paint.hex("#1F1F1F")
        s.rect(Box(-bleed, -bleed, cut.width + 2 * bleed, 9.0 + bleed), band)
        inner = cut.inset(lay.safe)
        title = t["odds_numbers" if kind == "number" else "odds_stars"]
        s.text(
            Box(inner.x, 1.0, inner.width, 7.0),
            str(title),
            text_style(9, ink_on(band), font="bold"),
        )
        needs = 10 if kind == "number" else 8
        table = Box(inner.x, 10.5, inner.width, inner.bottom - 10.5 - 7.0)
        self.odds_grid(s, table, kind, self.HIDDEN, needs)
        s.text(
            Box(inner.x, inner.bottom - 6.5, inner.width, 6.5),
            str(t["odds_how"]),
            text_style(6, valign="top", leading=1.1),
        )

    def odds_grid(
        self, s: Surface, box: Box, kind: str, hidden: Sequence[int], needs: int, size: float = 6.5
    ) -> None:
        """A table: a row per number of hidden dice, a column per dice the bid still needs,
        the chance in per cent in each cell (50 % or more in bold)."""
        table = odds_rows(self.rules.faces, hidden, needs)[kind]
        t = self.t
        head_h = 7.0
        rh = (box.height - head_h) / len(hidden)
        first = max(box.width * 0.17, 12.0)
        cw = (box.width - first) / needs
        s.text(
            Box(box.x, box.y, first, head_h),
            str(t["odds_hidden"]),
            text_style(6.0, font="semibold", leading=1.0),
        )
        s.text(
            Box(box.x + first, box.y, box.width - first, head_h * 0.5),
            str(t["odds_need"]),
            text_style(6.0, font="semibold"),
        )
        for c in range(needs):
            s.text(
                Box(box.x + first + c * cw, box.y + head_h * 0.5, cw, head_h * 0.5),
                str(c + 1),
                text_style(size, font="bold"),
            )
        for r, h in enumerate(hidden):
            y = box.y + head_h + r * rh
            if r % 2 == 0:
                s.rect(Box(box.x, y, box.width, rh), self.row)
            s.text(Box(box.x, y, first, rh), str(h), text_style(size, font="bold"))
            for c, value in enumerate(table[r]):
                strong = _strong(value)
                s.text(
                    Box(box.x + first + c * cw, y, cw, rh),
                    value,
                    text_style(
                        size, BLACK if strong else TEXT_GREY, font="bold" if strong else "regular"
                    ),
                )

    # -- screens -------------------------------------------------------------------------------
    def seat_paint(self, seat: int) -> Paint:
        return self.seats[seat % len(self.seats)]

    def draw_seat_mark(self, s: Surface, box: Box, seat: int) -> None:
        """The seat's colour with its number and a pattern of as many dots, so seats differ
        without colour too."""
        fill = self.seat_paint(seat)
        ink = ink_on(fill)
        s.rounded_rect(box, 3.0, fill, Stroke(BLACK, 0.35))
        s.text(
            box.inset(3, box.height * 0.18),
            str(seat + 1),
            text_style(box.height * 1.6, ink, font="bold"),
        )
        r = min(box.width, box.height) * 0.045
        for k in range(seat + 1):
            s.circle((box.x + 5 + k * 3.2 * r * 1.4, box.bottom - 4), r, ink)

    def draw_screen_inside(self, s: Surface, item: Item, bleed: float) -> None:
        """The player's side: the seat's mark, the odds of number bids, a round in brief."""
        seat: int = item.payload
        t = self.t
        cut = Box(0, 0, item.width, item.height)
        s.rect(cut.inset(-bleed), WHITE)
        panels = cut.split_columns(3)
        for k in (1, 2):
            x = panels[k].x
            s.line((x, 0), (x, cut.height), Stroke(TEXT_GREY, 0.3, (2.0, 1.5)))
        left = panels[0].inset(4)
        self.draw_seat_mark(s, Box(left.x, left.y, left.width, 26), seat)
        s.text(
            Box(left.x, left.y + 28, left.width, left.height - 28),
            str(t["screen_fold"]),
            text_style(7, valign="top", align="left"),
        )
        middle = panels[1].inset(3)
        s.text(
            Box(middle.x, middle.y, middle.width, 5),
            str(t["odds_numbers"]),
            text_style(7.5, font="bold"),
        )
        self.odds_grid(
            s,
            Box(middle.x, middle.y + 5.5, middle.width, middle.height - 5.5),
            "number",
            (3, 6, 9, 12, 15, 18, 21, 24),
            8,
            6.0,
        )
        right = panels[2].inset(4)
        s.text(
            Box(right.x, right.y, right.width, 5),
            str(t["screen_title"]),
            text_style(7.5, font="bold"),
        )
        s.text(
            Box(right.x, right.y + 6, right.width, right.height - 6),
            "\n".join(f"• {line}" for line in t["screen_rules"]),
            text_style(8, align="left", valign="top", leading=1.2),
        )

    def draw_screen_outside(self, s: Surface, item: Item, bleed: float) -> None:
        """The side the others see: the seat's colour, number and dots on every panel."""
        seat: int = item.payload
        cut = Box(0, 0, item.width, item.height)
        s.rect(cut.inset(-bleed), WHITE)
        for panel in cut.split_columns(3):
            self.draw_seat_mark(s, panel.inset(4), seat)

    # -- stickers and nets -------------------------------------------------------------------------
    def draw_sticker(self, s: Surface, item: Item, bleed: float) -> None:
        sticker: Sticker = item.payload
        box = Box(0, 0, item.width, item.height).inset(0.4)
        fill = self.bid if sticker.bid else WHITE
        s.rounded_rect(box, 1.6, fill, Stroke(TEXT_GREY, 0.2))
        self.draw_face(s, box.inset(0.6), sticker.face, WHITE if sticker.bid else BLACK)

    def draw_net(self, s: Surface, item: Item, bleed: float) -> None:
        bid: bool = item.payload
        net = self.net(bid)
        ink = WHITE if bid else BLACK

        def face(surface: Surface, box: Box, value: int) -> None:
            self.draw_face(surface, box, value, ink)

        net.draw(s, (0.0, self.die * net.tab), face)


# -- the rulebook --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Challenge:
    """A challenge as the engine resolves it: the hands revealed, the bid, who doubted, the
    dice counted and who lost how many."""

    hands: tuple[tuple[int, ...], ...]
    bid: str
    bidder: int
    doubter: int
    counted: int
    loser: int
    lost: int
    gained: int
    face: int


def play_challenge(rules: BluffRules, hands: Sequence[str], bids: Sequence[str]) -> Challenge:
    """Play one round with the engine: seat 1 opens, the seats roll ``hands`` (``"1,3,3,★"``),
    bid ``bids`` in turn, and the next player doubts. The engine says who loses what."""
    from dataclasses import replace

    from runarch_gen.bluff.engine import BluffGame

    table = replace(rules, players=len(hands), first=1)
    game = BluffGame(table)
    state = game.new_initial_state()
    for hand in hands:
        dice = hand.split(",")[: table.dice_per_player]
        state.apply(state.string_to_action(f"roll {','.join(dice)}"))
    for bid in bids:
        state.apply(state.string_to_action(bid))
        if rules.reroll:
            state.apply(state.string_to_action("keep"))
    state.apply(state.string_to_action("doubt"))
    result = state.results[-1]
    return Challenge(
        result.hands,
        str(result.bid),
        result.bidder,
        result.doubter,
        result.counted,
        result.loser,
        result.lost[result.loser],
        result.gained,
        result.bid.face,
    )


class BluffRulebook(FlowBook):
    """The rulebook: text from ``[LANG.rulebook]``, figures drawn with the kit's pieces."""

    def __init__(self, painter: BluffPainter, counts: dict[str, int]) -> None:
        book = painter.t["rulebook"]
        rules = painter.rules
        super().__init__(
            painter.fonts,
            title=str(book["title"]),
            subtitle=str(book["subtitle"]),
            accent=painter.bid,
            sections=book["sections"],
            values={
                "dice": str(rules.dice_per_player),
                "dice_six": "5" if not rules.dice else str(rules.dice),
                "faces": str(rules.faces),
                "fields": str(len(rules.scale.fields)),
                "top": str(rules.scale.fields[-1].quantity),
                "slots": str(max_dice(rules)),
                "play": f"{painter.play:g}",
                "die": f"{painter.die:g}",
            },
        )
        self.p = painter
        self.book = book
        self.counts = counts

    # components
    def pictures(self) -> list[Picture]:
        p, t = self.p, self.p.t
        card = p.layouts["odds_card"]
        screen = p.layouts["screen"]
        sticker = p.layouts["sticker"]
        net = p.net(False).bounds((0, 0))

        def count(kind: str) -> str:
            return f"{self.counts.get(kind, 0)} × {t.kind(kind)}"

        def item(kind: str, w: float, h: float, payload: Any = None) -> Item:
            return Item(kind, kind, w, h, payload=payload)

        board_w, board_h = 270.0, 190.0
        return [
            (
                f"1 × {t.kind('board')}",
                board_w,
                board_h,
                lambda s: p.draw_board(s, Box(0, 0, board_w, board_h), numbers=False),
            ),
            (
                count("odds_cards"),
                card.width,
                card.height,
                lambda s: p.draw_card_front(s, item("odds_cards", card.width, card.height), 0.0),
            ),
            (
                count("screens"),
                screen.width,
                screen.height,
                lambda s: p.draw_screen_outside(
                    s, item("screens", screen.width, screen.height, 2), 0.0
                ),
            ),
            (
                count("stickers"),
                6 * sticker.width + 5,
                sticker.height,
                lambda s: self._sticker_row(s, sticker.width),
            ),
            (
                count("dice"),
                net.width,
                net.height,
                lambda s: p.draw_net(s, item("dice", net.width, net.height, False), 0.0),
            ),
            (
                str(self.book["bid_die"]),
                p.die,
                p.die,
                lambda s: p.draw_die(s, Box(0, 0, p.die, p.die), p.rules.star, bid=True),
            ),
        ]

    def _sticker_row(self, s: Surface, w: float) -> None:
        for k in range(6):
            sticker = Item(
                "stickers", "s", w, w, payload=Sticker(0, k % self.p.rules.sides + 1, False)
            )
            with s.transformed(translate=(k * (w + 1), 0)):
                self.p.draw_sticker(s, sticker, 0.0)

    def _h_components(self, width: float) -> float:
        return pictures_height(self, self.pictures(), str(self.book["figure_components"]), width)

    def _d_components(self, s: Surface, box: Box) -> None:
        draw_pictures(self, s, box, self.pictures(), str(self.book["figure_components"]))

    # the table after setup
    def _h_setup(self, width: float) -> float:
        return width * 0.72 + 1.5 + self.text_height(str(self.book["figure_setup"]), width)

    def _d_setup(self, s: Surface, box: Box) -> None:
        """Four players round the table: the board in the middle with the bid die beside it,
        each player's screen with their dice behind it."""
        p = self.p
        table = Box(box.x, box.y, box.width, box.width * 0.72)
        s.rounded_rect(table, 4.0, Paint.hex("#E9F1E6"), Stroke(TEXT_GREY, 0.3))
        board = Box(0, 0, 270.0, 190.0)
        scale = table.width * 0.42 / board.width
        bw, bh = board.width * scale, board.height * scale
        bx, by = table.centre[0] - bw / 2, table.centre[1] - bh / 2
        with s.transformed(translate=(bx, by), scale=scale):
            p.draw_board(s, board, numbers=False)
        die = table.width * 0.035
        p.draw_die(s, Box(bx + bw + 2, by + bh - die, die, die), 3, bid=True)
        screen_w, screen_h = table.width * 0.24, table.width * 0.035
        seats = (
            (table.centre[0], table.bottom - 4, 0),
            (table.x + 4, table.centre[1], 1),
            (table.centre[0], table.y + 4, 2),
            (table.right - 4, table.centre[1], 3),
        )
        for cx, cy, seat in seats:
            turns = (0, 1, 2, 3)[seat]
            with s.turned_about((cx, cy), turns):
                bar = Box(cx - screen_w / 2, cy - screen_h - 1, screen_w, screen_h)
                fill = p.seat_paint(seat)
                s.rect(bar, fill, Stroke(TEXT_GREY, 0.25))
                d = screen_h * 0.8
                for k in range(6):
                    x = cx - 3 * (d + 0.8) + k * (d + 0.8)
                    p.draw_die(s, Box(x, bar.y - d - 1.5, d, d), 1 + (k * 5 + seat) % 6)
        top = table.bottom + 1.5
        s.text(
            Box(box.x, top, box.width, box.bottom - top), str(self.book["figure_setup"]), self.small
        )

    # a bid on the scale
    def _h_bid(self, width: float) -> float:
        cell = min(width / 5 - 2, width * 0.3)
        return cell * 1.55 + 2 + self.text_height(str(self.book["figure_bid"]), width)

    def _d_bid(self, s: Surface, box: Box) -> None:
        fields = list(self.p.rules.scale.fields)
        start = next((k for k, f in enumerate(fields) if f.quantity == 9 and not f.star), 0)
        shown = fields[start : start + 5] or fields[:5]
        cell = min(box.width / 5 - 2, box.width * 0.3)
        y = box.y
        for k, field in enumerate(shown):
            x = box.x + k * (cell + 2)
            self.p.draw_field(s, Box(x, y, cell, cell), field, None)
        target = max((k for k, f in enumerate(shown) if not f.star), default=0)
        die = cell * 0.45
        x = box.x + target * (cell + 2) + (cell - die) / 2
        s.polygon(
            [
                (x + die / 2, y + cell + 0.8),
                (x + die / 2 - 2, y + cell + 3),
                (x + die / 2 + 2, y + cell + 3),
            ],
            fill=TEXT_GREY,
        )
        self.p.draw_die(s, Box(x, y + cell + 3.5, die, die), 3, bid=True)
        text = str(self.book["figure_bid"]).format(quantity=shown[target].quantity, face=3)
        top = y + cell * 1.55 + 2
        s.text(Box(box.x, top, box.width, box.bottom - top), text, self.small)

    # the raise order
    def raise_text(self) -> str:
        bids = [bid_text(b) for b in self.p.rules.bids[:14]]
        return " < ".join(bids) + " < …  " + str(self.book["star_note"])

    def _h_raise(self, width: float) -> float:
        return self.text_height(self.raise_text(), width)

    def _d_raise(self, s: Surface, box: Box) -> None:
        s.text(box, self.raise_text(), self.small)

    # the worked challenges
    def challenge(self, which: str) -> Challenge | None:
        """The worked example ``which`` played by the engine: the texts' hands and bids, or,
        where the kit's scale lacks those bids, the scale's own (``None`` if it has none)."""
        from runarch_gen.errors import InputError
        from runarch_gen.play.game import IllegalActionError

        example = self.book["examples"][which]
        hands = list(example["hands"])
        try:
            return play_challenge(self.p.rules, hands, example["bids"])
        except (InputError, IllegalActionError):
            pass
        face = int(str(example["bids"][-1]).split("×")[1])
        counted = sum(1 for h in hands for d in h.split(",") if d in (str(face), "★"))
        number_bids = [b for b in self.p.rules.bids if b.face == face]
        wanted = [
            b
            for b in number_bids
            if (b.quantity == counted if which == "exact" else b.quantity > counted)
        ]
        if not wanted or number_bids[0] == wanted[0]:
            return None
        bids = [bid_text(number_bids[0]), bid_text(wanted[0])]
        try:
            return play_challenge(self.p.rules, hands, bids)
        except (InputError, IllegalActionError):
            return None

    def challenge_lines(self, which: str) -> list[str]:
        c = self.challenge(which)
        if c is None:
            return []
        book = self.book
        star = self.p.rules.star
        seats = book["seats"]
        quantity = int(c.bid.split("×")[0])
        lines = [
            str(book["example_bid"]).format(
                bidder=seats[c.bidder], doubter=seats[c.doubter], bid=c.bid
            )
        ]
        for seat, hand in enumerate(c.hands):
            n = sum(1 for d in hand if d == c.face or (c.face != star and d == star))
            lines.append(str(book["example_hand"]).format(seat=seats[seat], n=n))
        if c.counted == quantity:
            key = "example_exact_gain" if c.gained else "example_exact"
        elif c.counted > quantity:
            key = "example_more"
        else:
            key = "example_fewer"
        forms = book["dice_forms"]
        lines.append(
            str(book[key]).format(
                counted=c.counted,
                quantity=quantity,
                loser=seats[c.loser],
                lost=c.lost,
                lost_dice=f"{c.lost} {forms[0 if c.lost == 1 else 1 if c.lost < 5 else 2]}",
                bidder=seats[c.bidder],
                doubter=seats[c.doubter],
            )
        )
        return lines

    def _challenge_h(self, which: str, width: float) -> float:
        c = self.challenge(which)
        if c is None:
            return 0.0
        rows = len(c.hands)
        return rows * 9.0 + 2 + self.text_height("\n".join(self.challenge_lines(which)), width)

    def _challenge_d(self, which: str, s: Surface, box: Box) -> None:
        c = self.challenge(which)
        if c is None:
            return
        star = self.p.rules.star
        seats = self.book["seats"]
        die = 7.0
        for seat, hand in enumerate(c.hands):
            y = box.y + seat * 9.0
            label = str(self.book["player"]).format(seat=seats[seat])
            s.text(Box(box.x, y, 18, die), label, text_style(7.5, font="semibold", align="left"))
            for k, face in enumerate(hand):
                counts = face == c.face or (c.face != star and face == star)
                x = box.x + 19 + k * (die + 1.5)
                self.p.draw_die(s, Box(x, y, die, die), face)
                if counts:
                    s.rounded_rect(
                        Box(x - 0.7, y - 0.7, die + 1.4, die + 1.4),
                        1.6,
                        None,
                        Stroke(self.p.bid, 0.7),
                    )
        text = "\n".join(self.challenge_lines(which))
        top = box.y + len(c.hands) * 9.0 + 2
        s.text(Box(box.x, top, box.width, box.bottom - top), text, self.small)

    def _h_challenge(self, width: float) -> float:
        return self._challenge_h("challenge", width)

    def _d_challenge(self, s: Surface, box: Box) -> None:
        self._challenge_d("challenge", s, box)

    def _h_exact(self, width: float) -> float:
        return self._challenge_h("exact", width)

    def _d_exact(self, s: Surface, box: Box) -> None:
        self._challenge_d("exact", s, box)

    # reading the odds card
    def _h_odds(self, width: float) -> float:
        card = self.p.layouts["odds_card"]
        return (
            width * card.height / card.width
            + 2
            + self.text_height(str(self.book["figure_odds"]), width)
        )

    def _d_odds(self, s: Surface, box: Box) -> None:
        card = self.p.layouts["odds_card"]
        scale = box.width / card.width
        with s.transformed(translate=(box.x, box.y), scale=scale):
            self.p.draw_card_front(s, Item("odds_cards", "c", card.width, card.height), 0.0)
        h = card.height * scale
        s.text(
            Box(box.x, box.y + h + 2, box.width, box.bottom - box.y - h - 2),
            str(self.book["figure_odds"]),
            self.small,
        )

    # the one-page reference
    def _h_reference(self, width: float) -> float:
        return 100.0

    def _d_reference(self, s: Surface, box: Box) -> None:
        book = self.book
        s.text(
            Box(box.x, box.y, box.width, 10),
            str(book["reference_title"]),
            text_style(16, font="bold", align="left"),
        )
        cols = box.split_columns(2, gap=6)
        left = Box(cols[0].x, box.y + 13, cols[0].width, box.height - 13)
        s.text(
            left,
            "\n".join(str(line).format(**self.placeholders) for line in book["reference"]),
            text_style(8.5, align="left", valign="top", leading=1.3),
        )
        right = Box(cols[1].x, box.y + 13, cols[1].width, box.height - 13)
        half = (right.height - 12) / 2
        hidden = tuple(range(2, 31, 2))
        s.text(
            Box(right.x, right.y, right.width, 5),
            str(self.p.t["odds_numbers"]),
            text_style(8.5, font="bold"),
        )
        self.p.odds_grid(
            s, Box(right.x, right.y + 6, right.width, half - 6), "number", hidden, 12, 6.5
        )
        s.text(
            Box(right.x, right.y + half + 4, right.width, 5),
            str(self.p.t["odds_stars"]),
            text_style(8.5, font="bold"),
        )
        self.p.odds_grid(
            s, Box(right.x, right.y + half + 10, right.width, half - 6), "star", hidden, 8, 6.5
        )
        s.text(
            Box(right.x, right.bottom - 10, right.width, 10),
            str(self.p.t["odds_how"]),
            text_style(7, valign="top"),
        )


# -- the kit -------------------------------------------------------------------------------------


def plan_kit(request: KitRequest) -> KitPlan:
    """Lay out Bluff's kit for ``request`` (its values: Bluff's rules parameters)."""
    from runarch_gen.bluff.engine import rules_from_values, rules_values

    options = request.options
    rules = rules_from_values(dict(request.values)) if request.values else BluffRules()
    templates = load_templates("bluff", options.template)
    texts = templates.texts(options.lang)
    painter = BluffPainter(rules, templates, texts, friendly=options.print_friendly)
    spec = templates.sheet(options.paper)
    contents = BluffContents(rules, spec)
    counts = {
        kind: len(painter.components[kind].items(contents)) for kind in painter.components.kinds
    }
    book = BluffRulebook(painter, counts)
    from runarch_gen.bluff.engine import BLUFF_TYPE

    return plan_sheets(
        game="bluff",
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
        manifest_options={"rules": BLUFF_TYPE.game_string(rules_values(rules))},
    )


KIT = KitDefinition("bluff", KINDS, plan_kit)
"""Bluff's kit, as its registration's ``kit`` hook gives it."""

Draw = Callable[[Surface, Box], None]
Origin = Point
