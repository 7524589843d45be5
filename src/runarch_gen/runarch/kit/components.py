"""Every RunArch component drawn from its layout, once, on any surface (PDF or PNG).

:class:`KitPainter` holds the layouts, texts and style of one kit; ``front`` and ``back`` draw
an imposed :class:`~runarch_gen.pnp.sheets.Item` in its own millimetres (cut line from (0, 0))
with ``bleed`` millimetres of background beyond the cut line and nothing further out, through
the component objects of :mod:`.parts` (one per kind: layout, items, front, back).
"""

from __future__ import annotations

import math
from typing import Any

from runarch_gen.pnp.fonts import default_fonts
from runarch_gen.pnp.geometry import Box
from runarch_gen.pnp.layout import ComponentLayout
from runarch_gen.pnp.paint import WHITE, Paint, contrast, ink_on
from runarch_gen.pnp.sheets import Item
from runarch_gen.pnp.surface import Stroke, Surface
from runarch_gen.pnp.text import Align, TextStyle, VAlign
from runarch_gen.runarch.archives import ArchiveRule
from runarch_gen.runarch.atoms import COLOURS, SHAPES, Colour, Piece, Shape
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.decks.cards import Card, Goal, GoalKind
from runarch_gen.runarch.engine.conditions import Condition
from runarch_gen.runarch.kit import parts
from runarch_gen.runarch.kit.config import COMPONENT_NAMES, KitConfig, Texts
from runarch_gen.runarch.kit.icons import (
    draw_bonus_symbol,
    draw_direction,
    draw_rune,
    draw_shape,
    draw_stone,
    star_points,
)
from runarch_gen.runarch.kit.parts import runarch_components
from runarch_gen.runarch.kit.style import Style

FramePart = parts.FramePart
Marker = parts.Marker
BonusToken = parts.BonusToken
"""The payloads of frame parts, markers and bonus tokens (defined with their components)."""
__all__ = ["DARK_GREY", "KitPainter", "contrast", "ink_on", "plural_form"]

LIGHT_GREY = Paint((242, 242, 242))
MID_GREY = Paint((150, 150, 150))
DARK_GREY = Paint((95, 95, 95))
"""Grey for small text: at least 4.5:1 against white paper."""


def plural_form(n: int) -> int:
    """Which of three word forms a count takes: 1, 2–4, or 5 and more (as Czech needs;
    English lists the plural twice)."""
    return 0 if n == 1 else 1 if 2 <= n <= 4 else 2


def style_text(
    size: float,
    paint: Paint,
    *,
    font: str = "regular",
    align: Align = "centre",
    valign: VAlign = "middle",
    min_size: float = 3.5,
    leading: float = 1.12,
) -> TextStyle:
    return TextStyle(font, size, paint, align, valign, leading, min_size)


class KitPainter:
    """Draws RunArch components; ``front``/``back`` draw any item through the registry of
    component objects (:func:`~runarch_gen.runarch.kit.parts.runarch_components`)."""

    def __init__(
        self, config: KitConfig, texts: Texts, style: Style, archive_order: tuple[ArchiveRule, ...]
    ) -> None:
        self.config = config
        self.t = texts
        self.style = style
        self.archive_order = archive_order
        self.layouts: dict[str, ComponentLayout] = {n: config.layout(n) for n in COMPONENT_NAMES}
        self.fonts = default_fonts()
        self.components = runarch_components(self)
        """Every component kind (layout, items, front, back), in print order."""

    # -- dispatch ------------------------------------------------------------------------------
    def front(self, s: Surface, item: Item, bleed: float) -> None:
        """Draw ``item``'s front: its kind's component in :attr:`components` does."""
        self.components.front(s, item, bleed)

    def back(self, s: Surface, item: Item, bleed: float) -> None:
        self.components.back(s, item, bleed)

    def _bleed_fill(self, s: Surface, item: Item, bleed: float, paint: Paint, round_: bool) -> None:
        if round_:
            s.circle((item.width / 2, item.height / 2), item.width / 2 + bleed, paint)
        else:
            s.rect(Box(-bleed, -bleed, item.width + 2 * bleed, item.height + 2 * bleed), paint)

    # -- tiles and stones ------------------------------------------------------------------------
    def draw_tile_item(self, s: Surface, item: Item, bleed: float) -> None:
        self.draw_tile(s, item.payload, bleed)

    def draw_tile(self, s: Surface, piece: Piece, bleed: float) -> None:
        """A tile: colour field, a large outline of its shape around the stone's seat, shape and
        rune in the corners, the code at the top and bottom."""
        lay = self.layouts["tile"]
        st = self.style
        cut = lay.cut
        s.rect(cut.inset(-bleed), st.field(piece.colour))
        if st.friendly:
            s.rect(cut.inset(1.6), None, Stroke(st.colour(piece.colour), 2.2))
        big = cut.square_in_centre(cut.width * float(lay.value("outline_scale", 0.82)))
        draw_shape(s, piece.shape, big, None, Stroke(st.shade(piece.colour), 1.1))
        code_ink = ink_on(st.field(piece.colour))
        for turns in (0, 2):
            with s.turned_about(cut.centre, turns):
                draw_shape(s, piece.shape, lay.area("shape"), WHITE, Stroke(st.ink, 0.45))
                draw_rune(s, piece.shape, lay.area("rune").inset(1.0), st.ink)
                s.text(lay.area("code"), piece.code, style_text(9, code_ink, font="bold"))

    def draw_stone_item(self, s: Surface, item: Item, bleed: float) -> None:
        piece: Piece = item.payload
        lay = self.layouts["stone"]
        st = self.style
        r = lay.width / 2
        c = (r, r)
        self._bleed_fill(s, item, bleed, st.field(piece.colour), True)
        ring = st.colour(piece.colour) if st.friendly else st.shade(piece.colour)
        s.circle(c, r - 0.9, None, Stroke(ring, 1.0 if st.friendly else 0.6))
        draw_shape(s, piece.shape, lay.area("shape"), WHITE, Stroke(st.ink, 0.5))
        draw_rune(s, piece.shape, lay.area("rune").square_in_centre(), st.ink)
        s.text(
            lay.area("code"), piece.code, style_text(8, ink_on(st.field(piece.colour)), font="bold")
        )

    # -- the board on one sheet --------------------------------------------------------------------
    def draw_board_item(self, s: Surface, item: Item, bleed: float) -> None:
        del bleed
        self.draw_board(s, item.payload, item.width)

    def draw_board(self, s: Surface, board: Board, side: float, *, labels: bool = True) -> None:
        """The 5×5 board scaled to ``side`` mm, with column letters and row numbers around it
        (or only a narrow margin without ``labels``)."""
        lay = self.layouts["board"]
        st = self.style
        band = float(lay.value("label_band", 7.0)) if labels else 1.0
        grid = Box(band, band, side - 2 * band, side - 2 * band)
        cell = grid.width / 5
        tile = self.layouts["tile"].width
        s.rect(Box(0, 0, side, side), st.paper)
        label = style_text(11, st.ink, font="bold")
        for i in range(5 if labels else 0):
            x = grid.x + i * cell
            y = grid.y + i * cell
            letter, number = "abcde"[i], str(i + 1)
            s.text(Box(x, 0, cell, band), letter, label)
            s.text(Box(x, grid.bottom, cell, band), letter, label)
            s.text(Box(0, y, band, cell), number, label)
            s.text(Box(grid.right, y, band, cell), number, label)
        for sq, piece in enumerate(board.tiles):
            row, col = divmod(sq, 5)
            with s.transformed(
                translate=(grid.x + col * cell, grid.y + row * cell), scale=cell / tile
            ):
                self.draw_tile(s, piece, 0.0)
        gap = Stroke(st.paper, 0.5)
        for i in range(1, 5):
            s.line((grid.x + i * cell, grid.y), (grid.x + i * cell, grid.bottom), gap)
            s.line((grid.x, grid.y + i * cell), (grid.right, grid.y + i * cell), gap)
        s.rect(grid, None, Stroke(st.ink, 0.4))

    # -- cards -----------------------------------------------------------------------------------
    def draw_card_item(self, s: Surface, item: Item, bleed: float) -> None:
        self.draw_card_front(s, item.payload, bleed)

    def draw_card_front(self, s: Surface, card: Card, bleed: float) -> None:
        """A card front: goal (top), pattern (largest), bet spots and automa arrows (bottom),
        the match area as a strip down the right side in the match colour."""
        lay = self.layouts["card"]
        st = self.style
        cut = lay.cut
        s.rect(cut.inset(-bleed), st.paper)
        self._goal(s, card.goal, lay.area("goal"))
        self._pattern(s, card, lay.area("pattern"))
        self._card_bets(s, lay.area("bets"))
        self._arrows(s, card, lay.area("arrows"))
        s.text(
            lay.area("number"),
            self.t.format("card_number", number=f"{card.id:02d}"),
            style_text(6.5, DARK_GREY, align="right", valign="bottom"),
        )
        # The match area: one colour and one shape, visible when cards overlap in the offer.
        m = lay.area("match")
        strip = Box(m.x, -bleed, cut.right + bleed - m.x, cut.height + 2 * bleed)
        s.rect(strip, st.field(card.match.colour))
        if st.friendly:
            s.line((m.x, 0.6), (m.x, cut.height - 0.6), Stroke(st.colour(card.match.colour), 1.2))
        inner = Box(m.x + 1.2, lay.safe, m.width - 1.2 - lay.safe, m.height - 2 * lay.safe)
        side = min(inner.width, 12.0)
        shape_box = Box(inner.x + (inner.width - side) / 2, inner.y + 1.0, side, side)
        draw_shape(s, card.match.shape, shape_box, WHITE, Stroke(st.ink, 0.5))
        rune = Box(inner.x + (inner.width - 7) / 2, shape_box.bottom + 3.0, 7.0, 7.0)
        draw_rune(s, card.match.shape, rune, st.ink)
        on_strip = ink_on(st.field(card.match.colour))
        s.text(
            Box(inner.x, rune.bottom + 2.0, inner.width, 5.0),
            card.match.code,
            style_text(10, on_strip, font="bold"),
        )
        with s.transformed(translate=(inner.centre[0], inner.bottom - 12), quarter_turns=3):
            s.text(
                Box(-12, -inner.width / 2, 24, inner.width),
                self._colour_name(card.match.colour),
                style_text(8, on_strip, font="semibold"),
            )

    def _colour_name(self, colour: Colour) -> str:
        return str(self.t["colours"][colour])

    def _shape_name(self, shape: Shape) -> str:
        return str(self.t["shapes"][shape])

    def _pattern(self, s: Surface, card: Card, area: Box) -> None:
        st = self.style
        cells = area.split_columns(5, gap=0.8)
        number_h, code_h = 3.2, 3.8
        for i, (cell, piece) in enumerate(zip(cells, card.pattern, strict=False)):
            s.text(Box(cell.x, cell.y, cell.width, number_h), str(i + 1), style_text(6, DARK_GREY))
            disc = Box(cell.x, cell.y + number_h, cell.width, cell.height - number_h - code_h)
            r = min(disc.width, disc.height) / 2 - 0.2
            draw_stone(s, piece, disc.centre, r, st)
            s.text(
                Box(cell.x, disc.bottom, cell.width, code_h),
                piece.code,
                style_text(7, st.ink, font="semibold"),
            )
        # A rule under the numbers shows the reading direction, left to right.
        y = area.y + number_h - 0.2
        s.line((area.x + 1, y), (area.right - 1, y), Stroke(LIGHT_GREY.mix(MID_GREY, 0.3), 0.25))

    def goal_text(self, goal: Goal) -> str:
        """The goal in words, in the kit's language (RULES §7, [R-23])."""
        t = self.t
        cz = t.lang == "cs"

        form = plural_form
        kind = goal.kind
        colour = goal.colour
        shape = goal.shape
        if kind is GoalKind.COLOURS:
            extra = (
                {"different_colours": t["different_colours_forms"][form(goal.colour_count)]}
                if cz
                else {}
            )
            text = t.format("goal_colours", n=goal.colour_count, **extra)
        elif kind is GoalKind.SHAPES:
            extra = (
                {"different_shapes": t["different_shapes_forms"][form(goal.shape_count)]}
                if cz
                else {}
            )
            text = t.format("goal_shapes", n=goal.shape_count, **extra)
        else:
            values: dict[str, Any] = {}
            if colour is not None:
                n = goal.colour_count
                values["colour"] = (
                    t[f"colour_cards_{(1, 2, 5)[form(n)]}"][colour] if cz else t["colours"][colour]
                )
            if shape is not None:
                n = goal.shape_count
                values["shape"] = t["shapes_with"][shape] if cz else t["shapes"][shape]
                values["cards"] = values["cards_b"] = t["cards_forms"][form(n)] if cz else ""
            if kind is GoalKind.COLOUR:
                text = t.format("goal_colour", n=goal.colour_count, **values)
            elif kind is GoalKind.SHAPE:
                text = t.format("goal_shape", n=goal.shape_count, **values)
            else:
                text = t.format(
                    "goal_colour_and_shape", a=goal.colour_count, b=goal.shape_count, **values
                )
        return text + str(t["goal_suffix"])

    def _goal(self, s: Surface, goal: Goal, area: Box) -> None:
        st = self.style
        if st.friendly:
            s.rounded_rect(area, 2.0, None, Stroke(MID_GREY, 0.3))
        else:
            s.rounded_rect(area, 2.0, LIGHT_GREY)
        badge_d = min(area.height - 2.0, 14.0)
        badge = Box(
            area.right - badge_d - 1.2, area.y + (area.height - badge_d) / 2, badge_d, badge_d
        )
        body = Box(area.x + 1.5, area.y + 1.0, badge.x - area.x - 3.0, area.height - 2.0)
        icons = Box(body.x, body.y, body.width, body.height * 0.56)
        caption = Box(body.x, icons.bottom + 0.3, body.width, body.bottom - icons.bottom - 0.3)
        self._goal_icons(s, goal, icons)
        s.text(caption, self.goal_text(goal), style_text(7, st.ink, min_size=4.5))
        # The reward, a gold medal.
        c = badge.centre
        s.circle(c, badge_d / 2, st.gold, Stroke(st.ink, 0.35))
        s.text(
            Box(badge.x, badge.y + 1.2, badge.width, badge.height * 0.55),
            str(goal.reward),
            style_text(14, st.ink, font="bold"),
        )
        s.text(
            Box(
                badge.x + 1.5, badge.y + badge.height * 0.6, badge.width - 3.0, badge.height * 0.25
            ),
            str(self.t["points_forms"][plural_form(goal.reward)]),
            style_text(6, st.ink, min_size=6),
        )

    def _goal_icons(self, s: Surface, goal: Goal, box: Box) -> None:
        """The goal as symbols: "≥ n" then a colour swatch, a shape, or all five of either."""
        st = self.style
        h = box.height
        parts: list[tuple[str, Any, float]] = []
        number_w = h * 0.95
        gap = h * 0.25
        if goal.kind in (GoalKind.COLOUR, GoalKind.COLOUR_AND_SHAPE):
            parts += [("text", f"≥{goal.colour_count}", number_w), ("swatch", goal.colour, h)]
        if goal.kind is GoalKind.COLOUR_AND_SHAPE:
            parts.append(("text", "+", h * 0.5))
        if goal.kind in (GoalKind.SHAPE, GoalKind.COLOUR_AND_SHAPE):
            parts += [("text", f"≥{goal.shape_count}", number_w), ("shape", goal.shape, h)]
        if goal.kind is GoalKind.COLOURS:
            parts += [("text", f"≥{goal.colour_count}", number_w), ("colours", None, h * 3.2)]
        if goal.kind is GoalKind.SHAPES:
            parts += [("text", f"≥{goal.shape_count}", number_w), ("shapes", None, h * 3.2)]
        total = sum(w for _, _, w in parts) + gap * (len(parts) - 1)
        x = box.x + max(0.0, (box.width - total) / 2)
        for kind, value, w in parts:
            cell = Box(x, box.y, w, h)
            if kind == "text":
                s.text(cell, value, style_text(13, st.ink, font="bold"))
            elif kind == "swatch":
                sq = cell.square_in_centre(h * 0.86)
                s.rounded_rect(sq, 1.0, st.colour(value), Stroke(st.ink, 0.3))
                s.text(sq, value.letter, style_text(8, ink_on(st.colour(value)), font="bold"))
            elif kind == "shape":
                draw_shape(s, value, cell.square_in_centre(h * 0.95), WHITE, Stroke(st.ink, 0.45))
            elif kind == "colours":
                for i, sub in enumerate(cell.split_columns(5, gap=0.5)):
                    s.rounded_rect(
                        sub.square_in_centre(min(sub.width, h * 0.7)),
                        0.6,
                        st.colour(COLOURS[i]),
                        Stroke(st.ink, 0.2),
                    )
            else:
                for i, sub in enumerate(cell.split_columns(5, gap=0.5)):
                    draw_shape(
                        s,
                        SHAPES[i],
                        sub.square_in_centre(min(sub.width, h * 0.8)),
                        WHITE,
                        Stroke(st.ink, 0.3),
                    )
            x += w + gap

    def _card_bets(self, s: Surface, area: Box) -> None:
        """One bet spot per player colour, for a public goal."""
        st = self.style
        spots = area.split_columns(2, gap=2.0)
        names = self.t["card_bets"]
        for i, spot in enumerate(spots):
            fill, ink = st.players[i]
            d = min(spot.width, spot.height)
            c = spot.centre
            s.circle(c, d / 2, fill, Stroke(st.ink, 0.4))
            s.circle(c, d / 2 - 1.2, None, Stroke(ink, 0.25, (0.8, 0.8)))
            s.text(
                Box(c[0] - d / 2 + 2, c[1] - 2, d - 4, 4),
                str(names[i]),
                style_text(6, ink, font="semibold", min_size=6),
            )

    def _arrows(self, s: Surface, card: Card, area: Box) -> None:
        """The automa's two directions in order [R-03], each in a numbered square."""
        st = self.style
        label_w = 3.2
        with s.transformed(translate=(area.x, area.bottom), quarter_turns=3):
            s.text(
                Box(0, 0, area.height, label_w),
                str(self.t["automa"]),
                style_text(6, DARK_GREY, min_size=6),
            )
        area = Box(area.x + label_w + 0.8, area.y, area.width - label_w - 0.8, area.height)
        n = max(1, len(card.arrows))
        cells = area.split_columns(n, gap=1.5)
        for i, (cell, direction) in enumerate(zip(cells, card.arrows, strict=False)):
            sq = cell.square_in_centre()
            s.rounded_rect(sq, 1.5, None, Stroke(st.ink, 0.35))
            draw_direction(s, direction, sq.inset(1.6), st.ink)
            s.text(
                Box(sq.x + 0.5, sq.y + 0.3, 3.0, 3.2),
                str(i + 1),
                style_text(6, st.ink, font="bold", align="left", valign="top"),
            )

    def draw_card_back_item(self, s: Surface, item: Item, bleed: float) -> None:
        self.draw_card_back(s, bleed)

    def draw_card_back(self, s: Surface, bleed: float) -> None:
        lay = self.layouts["card"]
        st = self.style
        cut = lay.cut
        s.rect(cut.inset(-bleed), st.card_back)
        frame_paint = st.line if st.friendly else st.accent
        s.rounded_rect(cut.inset(4.0), 2.0, None, Stroke(frame_paint, 0.6))
        s.rounded_rect(cut.inset(5.2), 1.4, None, Stroke(frame_paint, 0.25))
        cx, cy = cut.centre
        ring = 17.0
        for i, colour in enumerate(COLOURS):
            a = -math.pi / 2 + 2 * math.pi * i / 5
            px, py = cx + ring * math.cos(a), cy + ring * math.sin(a)
            box = Box(px - 4.5, py - 4.5, 9.0, 9.0)
            if st.friendly:
                draw_shape(s, SHAPES[i], box, None, Stroke(st.colour(colour), 0.6))
            else:
                draw_shape(s, SHAPES[i], box, st.colour(colour), Stroke(WHITE, 0.35))
        title = st.ink if st.friendly else st.accent
        s.text(
            Box(cx - 14, cy - 4.5, 28, 9),
            str(self.t["card_back_title"]),
            style_text(15, title, font="bold"),
        )

    # -- player boards ---------------------------------------------------------------------------
    def draw_player_board(self, s: Surface, item: Item, bleed: float) -> None:
        player: int = item.payload
        lay = self.layouts["player_board"]
        st = self.style
        cut = lay.cut
        fill, ink = st.players[player]
        s.rect(cut.inset(-bleed), st.paper)
        # A band in the player's colour round the edge tells the two boards apart at a glance.
        band = 2.0
        s.rounded_rect(cut.inset(band / 2 + 0.4), lay.corner_radius, None, Stroke(fill, band))
        s.rounded_rect(cut.inset(0.4), lay.corner_radius + band / 2, None, Stroke(st.ink, 0.35))
        s.rounded_rect(cut.inset(band + 0.4), lay.corner_radius, None, Stroke(st.ink, 0.35))
        title = lay.area("title")
        s.rounded_rect(title, 2.0, fill, Stroke(st.ink, 0.4))
        name, note = title.inset(3, 0.8).split_columns(2, gap=4.0)
        s.text(
            name,
            self.t.format("player_board_title", player=self.t["players"][player]),
            style_text(13, ink, font="bold", align="left", min_size=6),
        )
        s.text(note, str(self.t["bet_spots"]), style_text(8, ink, align="right", min_size=6))
        for i, rule in enumerate(self.archive_order):
            self._archive(s, lay.area(f"archive_{i + 1}"), i, rule)

    def archive_parts(self, area: Box) -> tuple[Box, Box, Box]:
        """(heading, cards, bet spots) of an archive: the heading across the top, room for
        5 real cards overlapping right to left ``card_step`` apart, and the bet spots 2–5 in
        a column beside the cards (never under them)."""
        card = self.layouts["card"]
        step = float(self.layouts["player_board"].value("card_step", 17.0))
        heading = Box(area.x + 2.0, area.y + 1.0, area.width - 4.0, 5.6)
        cards = Box(area.x + 1.5, heading.bottom + 0.9, card.width + 4 * step, card.height)
        spots = Box(cards.right + 1.5, cards.y, area.right - cards.right - 3.0, cards.height)
        return heading, cards, spots

    def _archive(self, s: Surface, area: Box, index: int, rule: ArchiveRule) -> None:
        st = self.style
        t = self.t
        card = self.layouts["card"]
        step = float(self.layouts["player_board"].value("card_step", 17.0))
        heading, cards, spots = self.archive_parts(area)
        s.rounded_rect(area, 2.5, None, Stroke(st.line, 0.4))
        name_w = 34.0
        icons_w = 30.0
        s.text(
            Box(heading.x, heading.y, name_w, heading.height),
            str(t["archive_names"][index]),
            style_text(10, st.ink, font="bold", align="left", min_size=6),
        )
        self._archive_icons(
            s, rule, Box(heading.x + name_w, heading.y + 0.3, icons_w, heading.height - 0.6)
        )
        rest = Box(
            heading.x + name_w + icons_w + 2.0,
            heading.y,
            heading.width - name_w - icons_w - 2.0,
            heading.height,
        )
        s.text(
            rest,
            f"{t['archive_rules'][rule.value]} · {t.format('archive_capacity', n=5)}",
            style_text(8, st.ink, font="semibold", align="left", min_size=6),
        )
        # Where the cards go: the first at the right, each next one a step further left.
        dash = Stroke(MID_GREY, 0.35, (1.5, 1.2))
        for k in range(5):
            x = cards.right - card.width - k * step
            slot = Box(x, cards.y, card.width, card.height)
            if k == 0:
                s.rounded_rect(slot, card.corner_radius, None, dash)
            else:
                s.line((x, cards.y + 1.5), (x, cards.bottom - 1.5), dash)
            s.text(
                Box(x + 1.0, cards.bottom - 5.0, 5.0, 4.0),
                str(k + 1),
                style_text(8, DARK_GREY, font="bold", align="left"),
            )
        first = Box(cards.right - card.width, cards.y, card.width, card.height)
        s.text(first.inset(10, 14), str(t["archive_slot"]), style_text(8, DARK_GREY, min_size=6))
        cells = spots.split_rows(4, gap=1.0)
        for n, cell in zip(range(2, 6), cells, strict=True):
            d = min(cell.width, cell.height)
            s.circle(cell.centre, d / 2, st.paper, Stroke(st.ink, 0.45))
            s.text(cell.square_in_centre(d * 0.6), str(n), style_text(14, DARK_GREY, font="bold"))

    def _archive_icons(self, s: Surface, rule: ArchiveRule, box: Box) -> None:
        h = box.height
        if rule is ArchiveRule.SAME:
            left, mid, right = box.x, box.centre[0], box.right
            same_colour = [
                Piece(Colour.BLUE, sh) for sh in (Shape.CIRCLE, Shape.SQUARE, Shape.STAR)
            ]
            same_shape = [
                Piece(c, Shape.TRIANGLE) for c in (Colour.RED, Colour.GREEN, Colour.YELLOW)
            ]
            group_w = 3 * h * 0.8
            self._mini_cards(
                s, same_colour, Box(left + (mid - left - group_w) / 2 - 2, box.y, group_w, h)
            )
            self._mini_cards(
                s, same_shape, Box(mid + (right - mid - group_w) / 2 + 2, box.y, group_w, h)
            )
            s.text(Box(mid - 4, box.y, 8, h), "/", style_text(14, DARK_GREY, font="bold"))
        elif rule is ArchiveRule.SHAPES:
            pieces = [
                Piece(c, sh)
                for c, sh in zip(
                    (Colour.RED, Colour.RED, Colour.BLUE, Colour.GREEN, Colour.RED),
                    SHAPES,
                    strict=True,
                )
            ]
            self._mini_cards(s, pieces, box.square_in_centre(h).inset(-h * 1.5, 0))
        else:
            pieces = [
                Piece(c, sh)
                for c, sh in zip(
                    COLOURS,
                    (Shape.CIRCLE, Shape.CIRCLE, Shape.STAR, Shape.CIRCLE, Shape.SQUARE),
                    strict=True,
                )
            ]
            self._mini_cards(s, pieces, box.square_in_centre(h).inset(-h * 1.5, 0))

    def _mini_cards(self, s: Surface, pieces: list[Piece], box: Box) -> None:
        st = self.style
        cells = box.split_columns(len(pieces), gap=1.0)
        for cell, piece in zip(cells, pieces, strict=True):
            sq = cell.square_in_centre()
            s.rounded_rect(sq, 0.8, st.field(piece.colour), Stroke(st.ink, 0.25))
            draw_shape(s, piece.shape, sq.inset(sq.width * 0.18), WHITE, Stroke(st.ink, 0.25))

    # -- score frame -----------------------------------------------------------------------------
    def draw_frame_part(self, s: Surface, item: Item, bleed: float) -> None:
        part: FramePart = item.payload
        st = self.style
        w, h = item.width, item.height
        s.rect(Box(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed), st.frame)
        label_h = 3.6
        u = part.space
        for j, number in enumerate(range(part.first, part.last + 1)):
            x = j * u
            space = Box(x, 0, u, h - label_h)
            if number in (25, 50, 75):
                s.rect(Box(x, 0, u, h - label_h), st.milestone)
            if j:
                s.line((x, 0.8), (x, h - label_h), Stroke(st.line, 0.3))
            bold = number % 5 == 0
            if number == 100:
                s.text(space.inset(0.6, 1.2), "100\n= 0", style_text(8, st.ink, font="bold"))
            else:
                s.text(
                    space.inset(0.6, 1.5),
                    str(number),
                    style_text(11 if bold else 9, st.ink, font="bold" if bold else "regular"),
                )
        s.line((0.15, h - label_h), (w - 0.15, h - label_h), Stroke(st.line, 0.25))
        label = self.t.format(
            "frame_part", first=part.first, last=part.last, part=part.part + 1, parts=part.parts
        )
        s.text(
            Box(1.0, h - label_h, w - 2.0, label_h),
            label,
            style_text(6, st.ink, align="left", min_size=6),
        )

    # -- markers ---------------------------------------------------------------------------------
    def draw_marker(self, s: Surface, item: Item, bleed: float) -> None:
        marker: Marker = item.payload
        lay = self.layouts["marker"]
        scale = item.width / lay.width
        # The fold word and the role name go where they fit at 6 pt or more (the small
        # best-card marker shows its star only); the rulebook names both symbols.
        with s.transformed(scale=scale), s.minimum_text(6.0):
            self._standee(s, marker, lay, bleed / scale)

    def _standee(self, s: Surface, marker: Marker, lay: ComponentLayout, bleed: float) -> None:
        st = self.style
        fill, ink = st.players[marker.player]
        w, h = lay.width, lay.height
        foot = float(lay.value("foot", 10.0))
        fig_h = (h - 2 * foot) / 2
        s.rect(Box(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed), st.paper)
        for y0 in (-bleed, h - foot):
            s.rect(Box(-bleed, y0, w + 2 * bleed, foot + bleed), fill)
        fold = Stroke(MID_GREY, 0.25, (1.0, 0.8))
        for y in (foot, h / 2, h - foot):
            s.line((0.15, y), (w - 0.15, y), fold)
        s.text(
            Box(1, h - foot + 1, w - 2, foot - 2),
            str(self.t["fold"]),
            style_text(6.5, ink, min_size=6.5),
        )
        with s.turned_about((w / 2, foot + fig_h / 2), 2):
            self._figure(s, marker, Box(0, foot, w, fig_h), fill, ink)
        self._figure(s, marker, Box(0, h / 2, w, fig_h), fill, ink)
        s.rect(Box(0, 0, w, h).inset(0.15), None, Stroke(st.ink, 0.3))

    def _figure(self, s: Surface, marker: Marker, box: Box, fill: Paint, ink: Paint) -> None:
        st = self.style
        cx = box.centre[0]
        head_r = box.width * 0.2
        head_c = (cx, box.y + 2.0 + head_r)
        body_top = head_c[1] + head_r * 0.8
        body = [
            (cx - box.width * 0.2, body_top),
            (cx + box.width * 0.2, body_top),
            (cx + box.width * 0.38, box.bottom - 5.5),
            (cx - box.width * 0.38, box.bottom - 5.5),
        ]
        outline = Stroke(st.ink, 0.35)
        s.polygon(body, fill, outline)
        s.circle(head_c, head_r, fill, outline)
        sym_c = (cx, (body_top + box.bottom - 5.5) / 2 + 0.5)
        if marker.role == "total":
            s.text(Box(cx - 4, sym_c[1] - 3, 8, 6), "Σ", style_text(11, ink, font="bold"))
        else:
            s.polygon(star_points(sym_c[0], sym_c[1], 2.8, 1.2), ink)
        key = "marker_total" if marker.role == "total" else "marker_best"
        s.text(
            Box(box.x + 0.5, box.bottom - 5.0, box.width - 1.0, 4.5),
            str(self.t[key]),
            style_text(6, st.ink, font="semibold"),
        )

    # -- tokens ----------------------------------------------------------------------------------
    def draw_bonus_token(self, s: Surface, item: Item, bleed: float) -> None:
        token: BonusToken = item.payload
        st = self.style
        fill, ink = st.players[token.player]
        r = item.width / 2
        self._bleed_fill(s, item, bleed, fill, True)
        s.circle((r, r), r - 1.0, None, Stroke(st.ink if st.friendly else ink, 0.35))
        draw_bonus_symbol(s, token.symbol, Box(r - 6.5, r - 7.5, 13, 13), ink)
        caption = (
            self.t.format("bonus_phase", phase=token.phase)
            if token.phase is not None
            else str(self.t["bonus_never"])
        )
        s.text(
            Box(r - 7.5, 2 * r - 6.4, 15, 3.8),
            caption,
            style_text(6, ink, font="semibold", min_size=6),
        )

    def draw_bonus_token_back(self, s: Surface, item: Item, bleed: float) -> None:
        token: BonusToken = item.payload
        st = self.style
        fill, ink = st.players[token.player]
        r = item.width / 2
        self._bleed_fill(s, item, bleed, fill, True)
        s.circle((r, r), r - 1.0, None, Stroke(st.ink if st.friendly else ink, 0.35))
        s.text(Box(r - 8, r - 6.5, 16, 10), f"≥{token.value}", style_text(18, ink, font="bold"))
        s.text(
            Box(r - 7, r + 4.0, 14, 3.6),
            str(self.t["bonus_minimum"]),
            style_text(6, ink, font="semibold", min_size=6),
        )

    def draw_condition_token(self, s: Surface, item: Item, bleed: float) -> None:
        cond: Condition = item.payload
        lay = self.layouts["condition_token"]
        st = self.style
        cut = lay.cut
        s.rect(cut.inset(-bleed), st.paper if st.friendly else Paint((246, 241, 228)))
        s.rounded_rect(cut.inset(1.0), lay.corner_radius, None, Stroke(st.ink, 0.35))
        boxes = Box(cut.x + 3.0, 4.0, cut.width - 6.0, 9.0).split_columns(3, gap=1.5)
        caption = ""
        known = [] if cond.counts is None else [n is not None for n in cond.counts]
        if cond.counts is None:
            for b in boxes:
                self._archive_box(s, b, "", False)
            s.text(
                Box(3, 13.0, cut.width - 6, 4.8),
                f"Σ = {cond.total}",
                style_text(11, st.ink, font="bold"),
            )
            caption = str(self.t["condition_total"])
        elif cond.any_order and sum(known) == 1:  # some archive holds exactly n
            wanted = next(n for n in cond.counts if n is not None)
            self._archive_box(s, boxes[1], str(wanted), True)
            s.text(boxes[0], "?", style_text(10, DARK_GREY, font="bold"))
            s.text(boxes[2], "?", style_text(10, DARK_GREY, font="bold"))
            caption = str(self.t["condition_any_archive"])
        else:  # counts in these archives ("*": any count), perhaps in any order
            for b, n in zip(boxes, cond.counts, strict=True):
                self._archive_box(s, b, "" if n is None else str(n), n is not None)
            if cond.any_order:
                caption = str(self.t["condition_any_order"])
        if caption and cond.total is None:
            s.text(
                Box(2.5, 14.0, cut.width - 5, 7.5), caption, style_text(7, st.ink, font="semibold")
            )
        elif caption:
            s.text(Box(2.0, 17.8, cut.width - 4, 5.2), caption, style_text(6, st.ink, min_size=6))

    def _archive_box(self, s: Surface, box: Box, label: str, strong: bool) -> None:
        st = self.style
        stroke = Stroke(st.ink, 0.4) if strong else Stroke(MID_GREY, 0.3, (0.7, 0.6))
        s.rounded_rect(box, 0.8, WHITE if strong else None, stroke)
        if label:
            s.text(box.inset(0.4), label, style_text(11, st.ink, font="bold"))

    def draw_condition_token_back(self, s: Surface, item: Item, bleed: float) -> None:
        lay = self.layouts["condition_token"]
        st = self.style
        cut = lay.cut
        s.rect(cut.inset(-bleed), st.card_back)
        accent = st.line if st.friendly else st.accent
        s.rounded_rect(cut.inset(1.8), lay.corner_radius, None, Stroke(accent, 0.4))
        for b in Box(4.0, 6.0, cut.width - 8.0, 7.0).split_columns(3, gap=1.5):
            s.rounded_rect(b, 0.6, None, Stroke(accent, 0.4))
        s.text(
            Box(2.5, 15.0, cut.width - 5, 4.5),
            str(self.t["condition_back"]),
            style_text(7, st.ink if st.friendly else accent, font="semibold"),
        )

    def draw_bet_token(self, s: Surface, item: Item, bleed: float) -> None:
        self._bet_face(s, item, bleed, self.style.gold, str(self.t["bet_gold"]))

    def draw_bet_token_back(self, s: Surface, item: Item, bleed: float) -> None:
        self._bet_face(s, item, bleed, self.style.silver, str(self.t["bet_silver"]))

    def _bet_face(self, s: Surface, item: Item, bleed: float, paint: Paint, label: str) -> None:
        st = self.style
        r = item.width / 2
        self._bleed_fill(s, item, bleed, paint, True)
        s.circle((r, r), r - 0.9, None, Stroke(paint.mix(Paint((0, 0, 0)), 0.35), 0.5))
        s.polygon(star_points(r, r - 2.0, 2.8, 1.2), paint.mix(Paint((0, 0, 0)), 0.3))
        s.text(
            Box(r - 5.2, r + 0.6, 10.4, 3.0),
            label,
            style_text(6, st.ink, font="semibold", min_size=6),
        )

    def draw_bet_plate(self, s: Surface, item: Item, bleed: float) -> None:
        """A plate covering 3 consecutive spaces of the frame [R-05]; a bet token sits on it."""
        st = self.style
        w, h = item.width, item.height
        s.rect(Box(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed), st.frame.mix(st.gold, 0.35))
        for j in range(1, 3):
            s.line((j * w / 3, 0.8), (j * w / 3, h - 0.8), Stroke(st.line, 0.3, (0.8, 0.6)))
        s.circle((w / 2, h / 2), self.layouts["bet_token"].width / 2, None, Stroke(st.ink, 0.35))
        s.rect(Box(0, 0, w, h).inset(0.3), None, Stroke(st.ink, 0.3))

    # -- rules reference ---------------------------------------------------------------------------
    def draw_rules_page(self, s: Surface, item: Item, bleed: float) -> None:
        """A rulebook page: the payload is (the kit's
        :class:`~runarch_gen.runarch.kit.rulebook.Rulebook`, the page), laid out already."""
        del bleed
        book, page = item.payload
        book.draw_page(s, page, Box(0, 0, item.width, item.height).inset(1.0))
