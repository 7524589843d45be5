"""The printed rulebook: the whole game of RULES.md over several pages, in the kit's language.

Text is data (``[LANG.rulebook]`` in ``templates/runarch/texts.toml``): sections of a heading,
paragraphs and named figures. The figures are drawn here from the same component code as the
sheets (a tile in the components list is the tile the sheets print), and every number in them
is computed: the worked card example by the engine's evaluation, the bet cases by its
settlement, the automa example by the automa's own rule, the options from the kit's
:class:`~runarch_gen.runarch.rules.RulesConfig` of each variant.

Layout: two columns per page, flowing from page to page; a heading always stays with what
follows it, a paragraph or figure is never split. Body text is 9 pt, nothing is set below
:data:`MIN_PT` and small text is dark (:data:`~runarch_gen.runarch.kit.components.DARK_GREY`
or darker on white).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from runarch_gen.pnp.geometry import Box, Point
from runarch_gen.pnp.paint import WHITE, Paint
from runarch_gen.pnp.rulebook import (
    MIN_PT,
    Block,
    FlowBook,
    Placed,
    RulebookPage,
    draw_pictures,
    pictures_height,
)
from runarch_gen.pnp.sheets import Item
from runarch_gen.pnp.surface import Stroke, Surface
from runarch_gen.pnp.text import TextStyle
from runarch_gen.runarch.atoms import COLOURS, DIRECTIONS, PIECES, SHAPES
from runarch_gen.runarch.engine.conditions import Condition
from runarch_gen.runarch.engine.evaluation import evaluate_card
from runarch_gen.runarch.engine.scoring import settle_archive_bet
from runarch_gen.runarch.engine.tokens import TOKEN_SYMBOLS, BonusTokens, opens_phase
from runarch_gen.runarch.kit.components import BonusToken, FramePart, Marker, ink_on
from runarch_gen.runarch.kit.icons import arrow, draw_rune, draw_shape, draw_stone
from runarch_gen.runarch.kit.schema import FIGURES, PLACEHOLDERS
from runarch_gen.runarch.rules import OPTIONS, RulesConfig, Variant, parse_rules

if TYPE_CHECKING:
    from runarch_gen.runarch.boards.board import Board
    from runarch_gen.runarch.decks.cards import Card, Deck
    from runarch_gen.runarch.kit.components import KitPainter
    from runarch_gen.runarch.validation.validate import ValidationReport

BODY_PT = 9.0
STEP_INDENT = 5.0

# RULES §6.3 worked cases (M = 13): (gold?, bet on n, archive holds) per bet.
BET_CASES: tuple[tuple[tuple[bool, int, int], ...], ...] = (
    ((True, 3, 3), (False, 2, 2), (True, 5, 5)),
    ((True, 4, 3), (False, 2, 2), (True, 5, 5)),
    ((True, 4, 4), (False, 3, 4), (True, 3, 4), (False, 4, 4), (True, 4, 2), (False, 3, 2)),
    ((True, 4, 3), (False, 3, 3)),
)
BET_BEST = 13


@dataclass(frozen=True, slots=True)
class RulebookInputs:
    """What the rulebook describes: the set, the rules of each variant, the kit's counts."""

    board: Board
    deck: Deck
    tokens: BonusTokens
    conditions: tuple[Condition, ...]
    configs: tuple[RulesConfig, ...]
    counts: Mapping[str, int] = field(hash=False, compare=False)
    validation: ValidationReport | None = None
    house: tuple[RulesConfig, ...] = ()  # variants to try (kit --variant)


def kit_configs(archive_order: str, tokens: str, conditions: str) -> tuple[RulesConfig, ...]:
    """The rules of every variant a kit is made for: simple, complex, classic and solo, with
    the kit's archive order, bonus-token values and condition tokens."""
    from runarch_gen.runarch.validation.validate import default_variants

    configs = [parse_rules(v) for v in default_variants(archive_order, tokens, conditions)]
    complex_ = next(c for c in configs if c.variant is Variant.COMPLEX)
    classic = parse_rules("classic").with_options(
        archive_order=complex_.archive_order, tokens=complex_.tokens
    )
    order = {Variant.SIMPLE: 0, Variant.COMPLEX: 1, Variant.CLASSIC: 2, Variant.SOLO: 3}
    return tuple(sorted([*configs, classic], key=lambda c: order[c.variant]))


class Rulebook(FlowBook):
    """Lays out and draws the rulebook of one kit."""

    def __init__(self, painter: KitPainter, inputs: RulebookInputs) -> None:
        book: Mapping[str, Any] = painter.t["rulebook"]
        super().__init__(
            painter.fonts,
            title=str(book["title"]),
            subtitle=str(book["subtitle"]),
            ink=painter.style.ink,
            accent=painter.style.accent,
        )
        self.painter = painter
        self.inputs = inputs
        self.t = painter.t
        self.book = book

    # -- the text ----------------------------------------------------------------------------
    def config(self, variant: Variant) -> RulesConfig:
        return next(c for c in self.inputs.configs if c.variant is variant)

    def values(self) -> dict[str, str]:
        """What the placeholders of the paragraphs stand for, from the kit's rules."""
        full = self.config(Variant.COMPLEX)
        simple = self.config(Variant.SIMPLE)
        classic = self.config(Variant.CLASSIC)
        solo = self.config(Variant.SOLO)
        t = self.t
        rules = ", ".join(
            f"{t['archive_names'][i]} ({str(t['archive_rules'][rule.value]).lower()})"
            for i, rule in enumerate(full.archive_rules)
        )
        from runarch_gen.runarch.engine.setup import FACE_UP_CONDITIONS

        return {
            "deal": str(full.deal),
            "public": "2" if full.deal == 5 else "1",
            "capacity": str(full.capacity),
            "classic_capacity": str(classic.capacity),
            "archive_bonus": str(classic.archive_bonus),
            "target": str(simple.target),
            "stall": str(full.stall),
            "stall_rounds": str(full.stall // 2),
            "minimum": str(simple.minimum),
            "automa": str(solo.automa),
            "condition_faceup": str(FACE_UP_CONDITIONS),
            "archive_rules": rules,
        }

    def blocks(self) -> list[Block]:
        out = self.text_blocks(self.book["sections"], self.values())
        validation = self.inputs.validation
        if validation is not None and validation.dynamic:
            from runarch_gen.runarch.kit.rules_page import playtest_section

            head, text = playtest_section(self.t, validation)
            out.append(Block("heading", head))
            out += [Block("para", p) for p in text.split("\n")]
        return out

    def _caption_h(self, text: str, width: float, style: TextStyle | None = None) -> float:
        return self.caption_height(text, width, style)

    # components ------------------------------------------------------------------------------
    def _component_entries(self) -> list[tuple[str, float, float, Callable[[Surface], None]]]:
        """(caption, width, height, draw in own mm) per kind of piece, from the painter."""
        p = self.painter
        lay = p.layouts
        t = self.t
        counts = self.inputs.counts
        deck = self.inputs.deck
        out: list[tuple[str, float, float, Callable[[Surface], None]]] = []

        def caption(kind: str) -> str:
            return f"{counts.get(kind, 0)} × {t.kind(kind)}"

        def item(kind: str, w: float, h: float, payload: Any) -> Item:
            return Item(kind, kind, w, h, payload=payload)

        tile, stone, card = lay["tile"], lay["stone"], lay["card"]
        piece = PIECES[17]
        out.append(
            (caption("tiles"), tile.width, tile.height, lambda s: p.draw_tile(s, piece, 0.0))
        )
        out.append(
            (
                caption("stones"),
                stone.width,
                stone.height,
                lambda s: p.front(s, item("stones", stone.width, stone.height, piece), 0.0),
            )
        )
        if len(deck):
            first = next(iter(deck))
            out.append(
                (
                    caption("cards"),
                    card.width,
                    card.height,
                    lambda s: p.draw_card_front(s, first, 0.0),
                )
            )
            out.append(
                (
                    f"{t.kind('cards')} ({t['back_suffix']})",
                    card.width,
                    card.height,
                    lambda s: p.draw_card_back(s, 0.0),
                )
            )
        board = self.inputs.board
        side = 5 * tile.width + 2 * float(lay["board"].value("label_band", 7.0))
        out.append(
            (
                f"1 × {t.kind('board')}",
                side,
                side,
                lambda s: p.draw_board(s, board, side),
            )
        )
        pb = lay["player_board"]
        out.append(
            (
                caption("player_boards"),
                pb.width,
                pb.height,
                lambda s: p.front(s, item("player_boards", pb.width, pb.height, 0), 0.0),
            )
        )
        seg = lay["frame_segment"]
        space = p.config.frame_space()
        part = FramePart(2, 0, 2, 51, 56, space)
        out.append(
            (
                f"{t.kind('frame')} (4 × 25)",
                6 * space,
                seg.height,
                lambda s: p.front(s, item("frame", 6 * space, seg.height, part), 0.0),
            )
        )
        mk = lay["marker"]
        fit = min(1.0, (space - 0.4) / mk.width)
        mw, mh = mk.width * fit, mk.height * fit
        out.append(
            (
                caption("markers"),
                mw,
                mh,
                lambda s: p.front(s, item("markers", mw, mh, Marker(0, "total")), 0.0),
            )
        )
        bt = lay["bonus_token"]
        values = self.inputs.tokens
        tokens = [
            BonusToken(0, sym, opens_phase(sym), values.values_of(sym)[0]) for sym in TOKEN_SYMBOLS
        ]
        gap = 2.0
        row_w = 4 * bt.width + 3 * gap

        def bonus(s: Surface) -> None:
            for k, tok in enumerate(tokens):
                with s.transformed(translate=(k * (bt.width + gap), 0)):
                    p.front(s, item("bonus_tokens", bt.width, bt.height, tok), 0.0)

        out.append((caption("bonus_tokens"), row_w, bt.height, bonus))
        ct = lay["condition_token"]
        if self.inputs.conditions:
            cond = self.inputs.conditions[0]
            out.append(
                (
                    caption("condition_tokens"),
                    ct.width,
                    ct.height,
                    lambda s: p.front(s, item("condition_tokens", ct.width, ct.height, cond), 0.0),
                )
            )
        bet = lay["bet_token"]

        def bets(s: Surface) -> None:
            p.front(s, item("bet_tokens", bet.width, bet.height, 0), 0.0)
            with s.transformed(translate=(bet.width + gap, 0)):
                p.back(s, item("bet_tokens", bet.width, bet.height, 0), 0.0)

        out.append((caption("bet_tokens"), 2 * bet.width + gap, bet.height, bets))
        plate_w = 3 * space
        out.append(
            (
                caption("bet_plates"),
                plate_w,
                seg.height,
                lambda s: p.front(s, item("bet_plates", plate_w, seg.height, 0), 0.0),
            )
        )
        return out

    def _h_components(self, width: float) -> float:
        entries = self._component_entries()
        return pictures_height(self, entries, str(self.book["figure_components"]), width)

    def _d_components(self, s: Surface, box: Box) -> None:
        entries = self._component_entries()
        draw_pictures(self, s, box, entries, str(self.book["figure_components"]))

    # legend ----------------------------------------------------------------------------------
    def _h_legend(self, width: float) -> float:
        return 5 * 7.0

    def _d_legend(self, s: Surface, box: Box) -> None:
        st = self.painter.style
        t = self.t
        half = box.split_columns(2, gap=3.0)
        for k, (colour, shape) in enumerate(zip(COLOURS, SHAPES, strict=True)):
            y = box.y + k * 7.0
            sq = Box(half[0].x, y + 0.5, 6.0, 6.0)
            s.rounded_rect(sq, 0.8, st.colour(colour), Stroke(st.ink, 0.3))
            # Black or white, whichever reads better (the kit's ink on red or blue falls short
            # of 4.5:1).
            s.text(sq, colour.letter, TextStyle("bold", 8, ink_on(st.colour(colour))))
            s.text(
                Box(sq.right + 2, y, half[0].width - 8, 7.0),
                f"{colour.letter} · {t['colours'][colour]}",
                TextStyle("regular", 8, st.ink, "left"),
            )
            sh = Box(half[1].x, y + 0.5, 6.0, 6.0)
            draw_shape(s, shape, sh, WHITE, Stroke(st.ink, 0.35))
            draw_rune(s, shape, Box(sh.right + 1.0, y + 1.5, 4.0, 4.0), st.ink)
            s.text(
                Box(sh.right + 6.5, y, half[1].width - 12.5, 7.0),
                f"{shape.digit} · {t['shapes'][shape]} · {shape.rune_name}",
                TextStyle("regular", 8, st.ink, "left", min_size=MIN_PT),
            )

    # setup -----------------------------------------------------------------------------------
    def _h_setup(self, width: float) -> float:
        labels = self.book["setup_labels"]
        legend = self._caption_h(
            "\n".join(f"{i + 1} {x}" for i, x in enumerate(labels)), width, self.small
        )
        return self._caption_h(str(self.book["figure_setup"]), width, self.small) + width + legend

    def _d_setup(self, s: Surface, box: Box) -> None:
        """A plan of the table: board in its frame, plates on the frame, the players' boards
        above and below, offer and draw pile, public goals, condition tokens with bet tokens,
        the bonus stacks and each player's secret goal and hand; numbered as the steps."""
        p = self.painter
        st = p.style
        title = str(self.book["figure_setup"])
        th = self._caption_h(title, box.width, self.small)
        s.text(Box(box.x, box.y, box.width, th), title, self.small)
        area = Box(box.x, box.y + th, box.width, box.width)
        s.rounded_rect(area, 2.0, st.paper.mix(st.frame, 0.5), Stroke(st.line, 0.3))
        u = area.width / 100  # plan units
        ox, oy = area.x, area.y
        numbers: list[tuple[int, Point]] = []

        def at(x: float, y: float) -> Point:
            return (ox + x * u, oy + y * u)

        def rect(x: float, y: float, w: float, h: float) -> Box:
            return Box(ox + x * u, oy + y * u, w * u, h * u)

        # the frame and the board
        frame = rect(30, 25, 50, 50)
        s.rect(frame, st.frame, Stroke(st.ink, 0.3))
        inner = frame.inset(3.2 * u)
        board = self.inputs.board
        stones = self.example()[1] if len(self.inputs.deck) else tuple(range(25))
        with s.transformed(translate=(inner.x, inner.y), scale=inner.width / (5 * 50.0)):
            for sq, piece in enumerate(board.tiles):
                r, c = divmod(sq, 5)
                with s.transformed(translate=(c * 50.0, r * 50.0)):
                    p.draw_tile(s, piece, 0.0)
                draw_stone(s, PIECES[stones[sq]], (c * 50.0 + 25.0, r * 50.0 + 25.0), 15.0, st)
        numbers.append((1, (inner.centre[0], inner.centre[1])))
        numbers.append((2, (frame.x + 1.6 * u, frame.y + 1.6 * u)))
        # frame bet plates: two on the right side (51–75), two on the bottom (76–100)
        plate = Stroke(st.ink, 0.3)
        for k, y in enumerate((40, 58)):
            b = rect(76.8, y, 3.2, 9)
            s.rect(b, st.gold if k == 0 else st.silver, plate)
        for k, x in enumerate((62, 40)):
            b = rect(x, 71.8, 9, 3.2)
            s.rect(b, st.silver if k == 0 else st.gold, plate)
        numbers.append((3, at(84, 56)))
        # the player boards
        for k, y in enumerate((80, 2)):
            fill, _ = st.players[0 if k == 0 else 1]
            b = rect(33, y, 44, 17)
            s.rounded_rect(b, 1.0, fill, Stroke(st.ink, 0.3))
            for j in range(3):
                s.rect(rect(35, y + 2 + j * 5, 36, 4), None, Stroke(st.line, 0.2))
        numbers.append((4, at(80, 88)))

        def card(x: float, y: float, face_up: bool = True) -> None:
            b = rect(x, y, 12, 8.6)
            s.rounded_rect(b, 0.6, st.paper if face_up else st.card_back, Stroke(st.ink, 0.25))
            if face_up:
                s.rect(rect(x + 9.8, y, 2.2, 8.6), st.field(COLOURS[int(x) % 5]))

        # the offer and the draw pile, left of the board
        for k in (3, 2, 1, 0):  # each lies on the next, whose match area stays in view
            card(3 + k * 2.6, 30)
        for k in range(3):
            card(3 + k * 0.3, 30 - k * 0.4, face_up=False)
        numbers.append((5, at(3, 43)))
        # public goals
        for k in range(4):
            card(3 + (k % 2) * 13.5, 50 + (k // 2) * 10.5)
        numbers.append((6, at(3, 73)))
        # condition tokens with bet tokens
        for k in range(6):
            b = rect(84 + (k % 2) * 7.5, 24 + (k // 2) * 8, 6, 6)
            s.rect(b, st.paper, Stroke(st.ink, 0.25))
            s.circle(b.centre, 1.7 * u, st.gold if k % 3 else st.silver, Stroke(st.ink, 0.2))
        numbers.append((7, at(91.5, 20)))
        # bonus stacks and secret goals with hands
        for k, (sx, sy) in enumerate(((22.0, 84.0), (22.0, 4.0))):
            fill, _ = st.players[k]
            for j in range(4):
                s.circle(at(sx, sy + 4 - j * 0.6), 3.2 * u, fill, Stroke(st.ink, 0.25))
        numbers.append((8, at(15, 92)))
        for gy in (83.0, 3.0):
            card(82, gy, face_up=False)
            card(84.5, gy + 2.5)
        numbers.append((9, at(93, 96)))
        for n, (cx, cy) in numbers:
            rad = 2.3
            s.circle((cx, cy), rad, st.ink)
            s.text(Box(cx - rad, cy - rad, 2 * rad, 2 * rad), str(n), TextStyle("bold", 7, WHITE))
        labels = self.book["setup_labels"]
        text = "\n".join(f"{i + 1} {x}" for i, x in enumerate(labels))
        s.text(
            Box(box.x, area.bottom + 1.0, box.width, box.bottom - area.bottom - 1.0),
            text,
            self.small,
        )

    # phases ----------------------------------------------------------------------------------
    def _h_phases(self, width: float) -> float:
        cell_w = (width - 3.0) / 2
        caps = self.book["figure_phases"]
        cap = max(self._caption_h(str(c), cell_w) for c in caps)
        return 2 * (cell_w * 0.8 + cap + 2.0)

    def _d_phases(self, s: Surface, box: Box) -> None:
        st = self.painter.style
        cell_w = (box.width - 3.0) / 2
        caps = [str(c) for c in self.book["figure_phases"]]
        cap = max(self._caption_h(c, cell_w) for c in caps)
        for k in range(4):
            r, c = divmod(k, 2)
            panel = Box(
                box.x + c * (cell_w + 3.0),
                box.y + r * (cell_w * 0.8 + cap + 2.0),
                cell_w,
                cell_w * 0.8,
            )
            n = 5 if k == 3 else 3 if k < 2 else 4
            side = panel.height
            grid = Box(panel.x + (panel.width - side) / 2, panel.y, side, side)
            step = side / n
            rng = random.Random(k)
            stones = rng.sample(PIECES, n * n)
            for i in range(n * n):
                rr, cc = divmod(i, n)
                cell = Box(grid.x + cc * step, grid.y + rr * step, step, step)
                s.rect(cell, st.paper, Stroke(st.line, 0.2))
                draw_stone(s, stones[i], cell.centre, step * 0.36, st)
            ink = st.ink

            def centre(rr: int, cc: int, grid: Box = grid, step: float = step) -> Point:
                return (grid.x + (cc + 0.5) * step, grid.y + (rr + 0.5) * step)

            def swap(
                a: tuple[int, int], b: tuple[int, int], paint: Paint = ink, step: float = step
            ) -> None:
                arrow(s, centre(*a), centre(*b), paint, 0.6, step * 0.22, both=True)

            if k == 0:
                for d in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                    swap((1, 1), (1 + d[0], 1 + d[1]))
            elif k == 1:
                for dr in (-1, 0, 1):
                    for dc in (-1, 0, 1):
                        if dr or dc:
                            swap((1, 1), (1 + dr, 1 + dc))
            elif k == 2:
                swap((0, 0), (0, 1))
                swap((0, 1), (1, 1), st.accent)
                s.text(Box(*centre(0, 0), step * 0.5, step * 0.4), "1", TextStyle("bold", 7, ink))
                s.text(Box(*centre(1, 1), step * 0.5, step * 0.4), "2", TextStyle("bold", 7, ink))
                swap((3, 0), (3, 2), st.accent)
                swap((1, 3), (3, 3))
            else:
                for i in range(5):
                    for a in ((i, i), (i, 4 - i)):
                        s.rect(
                            Box(grid.x + a[1] * step, grid.y + a[0] * step, step, step),
                            None,
                            Stroke(st.accent, 0.7),
                        )
            s.text(Box(panel.x, panel.bottom + 1.0, panel.width, cap), caps[k], self.caption)

    # the worked card example -------------------------------------------------------------------
    def example(self) -> tuple[Card, tuple[int, ...], str, list[int]]:
        """(card, stones, line, points per position): the first stone layout (seeds 0, 1, …)
        on which some card of the deck is valid on a row or column, and the best such card."""
        from runarch_gen.runarch.engine.tables import LINE_SQUARES

        deck = list(self.inputs.deck)
        for seed in range(200):
            stones = tuple(random.Random(seed).sample(range(25), 25))
            best: tuple[int, Card, str] | None = None
            for card in deck:
                scores = evaluate_card(stones, card.pattern)
                if scores and (best is None or scores[0].pattern_points > best[0]):
                    best = (scores[0].pattern_points, card, scores[0].line)
            if best is not None:
                _, card, line = best
                squares = LINE_SQUARES[_line_index(line)]
                points = [
                    (PIECES[stones[sq]].colour == pc.colour)
                    + (PIECES[stones[sq]].shape == pc.shape)
                    for sq, pc in zip(squares, card.pattern, strict=True)
                ]
                return card, stones, line, points
        # Seldom reached: the first card's own pattern laid on row 1 (valid, 10 points).
        card = deck[0]
        first = [p.index for p in card.pattern]
        stones = (*first, *(i for i in range(25) if i not in first))
        return card, stones, "r1", [2] * 5

    def _example_lines(self) -> list[str]:
        if not len(self.inputs.deck):
            return []
        from runarch_gen.runarch.engine.tables import LINE_SQUARES

        card, stones, line, points = self.example()
        b = self.book
        squares = LINE_SQUARES[_line_index(line)]
        lines = [
            str(b["figure_example"]).format(
                card=self.t.format("card_number", number=f"{card.id:02d}"),
                line=line,
                phase=str(b["example_phase"]).format(phase=1),
            )
        ]
        for i, (sq, pc) in enumerate(zip(squares, card.pattern, strict=True)):
            stone = PIECES[stones[sq]]
            lines.append(
                str(b["example_position"]).format(
                    i=i + 1,
                    stone=stone.code,
                    pattern=pc.code,
                    colour=int(stone.colour == pc.colour),
                    shape=int(stone.shape == pc.shape),
                    points=points[i],
                )
            )
        lines.append(str(b["example_total"]).format(points=sum(points)))
        four = evaluate_card(
            stones,
            card.pattern,
            phase=4,
            tiles=self.inputs.board,
            match=card.match,
            config=self.config(Variant.COMPLEX),
        )
        on_line = next((x for x in four if x.line == line), None)
        if on_line is not None:
            lines.append(
                str(b["example_bonus"]).format(bonus=on_line.match_bonus, score=on_line.card_score)
            )
        return lines

    def _h_example(self, width: float) -> float:
        if not len(self.inputs.deck):
            return 0.0
        text = "\n".join(self._example_lines())
        return width * 0.5 + 2.0 + self._caption_h(text, width, self.small)

    def _d_example(self, s: Surface, box: Box) -> None:
        if not len(self.inputs.deck):
            return
        from runarch_gen.runarch.engine.tables import LINE_SQUARES

        p = self.painter
        st = p.style
        card, stones, line, _ = self.example()
        side = box.width * 0.5
        grid = Box(box.x, box.y, side, side)
        step = side / 5
        for sq in range(25):
            r, c = divmod(sq, 5)
            cell = Box(grid.x + c * step, grid.y + r * step, step, step)
            with s.transformed(translate=(cell.x, cell.y), scale=step / 50.0):
                p.draw_tile(s, self.inputs.board.tiles[sq], 0.0)
            draw_stone(s, PIECES[stones[sq]], cell.centre, step * 0.3, st)
        for sq in LINE_SQUARES[_line_index(line)]:
            r, c = divmod(sq, 5)
            s.rect(Box(grid.x + c * step, grid.y + r * step, step, step), None, Stroke(st.ink, 0.8))
        cw = box.width - side - 3.0
        lay = p.layouts["card"]
        scale = cw / lay.width
        with s.transformed(
            translate=(grid.right + 3.0, box.y + (side - lay.height * scale) / 2), scale=scale
        ):
            p.draw_card_front(s, card, 0.0)
        text = "\n".join(self._example_lines())
        s.text(
            Box(box.x, grid.bottom + 2.0, box.width, box.bottom - grid.bottom - 2.0),
            text,
            self.small,
        )

    # bets --------------------------------------------------------------------------------------
    def bet_rows(self) -> list[tuple[str, list[str], int]]:
        """(case, one line per bet, total) for RULES §6.3's worked cases, settled by the
        engine with M = 13."""
        b = self.book
        t = self.t
        out = []
        for name, case in zip(b["bets_cases"], BET_CASES, strict=True):
            lines = []
            total = 0
            for gold, n, held in case:
                pts = settle_archive_bet(gold=gold, bet_on=n, held=held, best=BET_BEST)
                total += pts
                lines.append(
                    str(b["bet_line"]).format(
                        kind=t["bet_gold"] if gold else t["bet_silver"],
                        n=n,
                        held=held,
                        points=_signed(pts),
                    )
                )
            out.append((str(name), lines, total))
        return out

    def _bet_layout(self, width: float) -> tuple[float, float, float]:
        return width * 0.22, width * 0.6, width * 0.18

    def _h_bets(self, width: float) -> float:
        bw = self._bet_layout(width)[1]
        h = 5.0
        for _, lines, _ in self.bet_rows():
            h += self._caption_h("\n".join(lines), bw, self.small) + 1.6
        return h

    def _d_bets(self, s: Surface, box: Box) -> None:
        st = self.painter.style
        a, bw, c = self._bet_layout(box.width)
        head = [str(x) for x in self.book["bets_table_heading"]]
        bold = TextStyle("bold", 7.5, st.ink, "left", "top", 1.2, 7.5)
        xs = (box.x, box.x + a, box.x + a + bw)
        for x, w, text in zip(xs, (a, bw, c), head, strict=True):
            s.text(Box(x, box.y, w, 4.5), text, bold)
        y = box.y + 5.0
        s.line((box.x, y - 0.5), (box.right, y - 0.5), Stroke(st.ink, 0.3))
        for name, lines, total in self.bet_rows():
            text = "\n".join(lines)
            h = self._caption_h(text, bw, self.small)
            s.text(Box(xs[0], y, a, h), name, self.small)
            s.text(Box(xs[1], y, bw, h), text, self.small)
            s.text(Box(xs[2], y, c, h), _signed(total), bold)
            y += h + 1.6
            s.line((box.x, y - 0.8), (box.right, y - 0.8), Stroke(st.line, 0.2))

    # automa ------------------------------------------------------------------------------------
    def automa_text(self) -> str:
        """The automa's turn with the deck's first card on the example's stones (§8)."""
        from runarch_gen.runarch.engine.tables import LINE_NAMES

        deck = list(self.inputs.deck)
        if not deck:
            return ""
        _, stones, _, _ = self.example()
        card = deck[0]
        origin = list(stones).index(card.match.index)
        target = None
        chosen = None
        for d in card.arrows:
            target = d.step(origin)
            if target is not None:
                chosen = d
                break
        if target is None or chosen is None:  # both arrows lead off the board
            last = DIRECTIONS.index(card.arrows[-1])
            for k in range(1, 9):
                chosen = DIRECTIONS[(last + k) % 8]
                target = chosen.step(origin)
                if target is not None:
                    break
        assert target is not None and chosen is not None
        moved = list(stones)
        moved[origin], moved[target] = moved[target], moved[origin]
        scores = evaluate_card(moved, card.pattern)
        b = self.book
        if scores:
            best = max(scores, key=lambda x: (x.pattern_points, -LINE_NAMES.index(x.line)))
            result = str(b["automa_result_valid"]).format(
                line=best.line, points=best.pattern_points
            )
        else:
            result = str(b["automa_result_none"])
        return str(b["automa_example"]).format(
            card=self.t.format("card_number", number=f"{card.id:02d}"),
            match=card.match.code,
            arrows=" ".join(str(self.t["directions"][d.name]) for d in card.arrows),
            square=_square(origin),
            direction=str(self.t["directions"][chosen.name]),
            other=f"{PIECES[stones[target]].code} ({_square(target)})",
            result=result,
        )

    def _h_automa(self, width: float) -> float:
        text = self.automa_text()
        return self._caption_h(text, width, self.small) if text else 0.0

    def _d_automa(self, s: Surface, box: Box) -> None:
        s.text(box, self.automa_text(), self.small)

    # options -----------------------------------------------------------------------------------
    def option_rows(self) -> list[tuple[str, str, str]]:
        """(tag, description, value in force) for every rules option, the value per variant
        where variants differ, e.g. ``5 · classic 4``."""
        names = self.book.get("options", {})
        variants = self.t["rules"]["playtest_variants"]
        out = []
        for spec in OPTIONS:
            seen: dict[str, list[str]] = {}
            for config in self.inputs.configs:
                if config.variant not in spec.variants:
                    continue
                # In the players' words: token and condition sets as their values
                # (``D5/6/7 X7/8/9 …``), choices as the rulebook names them.
                text = self.option_value(spec.name, getattr(config, spec.name))
                seen.setdefault(text, []).append(str(variants.get(config.name, config.name)))
            if not seen:
                continue
            if len(seen) == 1:
                shown = next(iter(seen))
            else:
                shown = " · ".join(f"{v}: {', '.join(who)}" for v, who in seen.items())
            out.append((spec.tag, str(names.get(spec.name, spec.help)), shown))
        return out

    def option_value(self, name: str, value: object) -> str:
        """An option's value as the rulebook prints it."""
        text = _option_text(name, value)
        text = str(self.book.get("values", {}).get(text, text))
        for word, words in self.book.get("words", {}).items():
            text = text.replace(word, str(words))
        return text

    def house_rows(self) -> list[str]:
        """One line per changed option of each variant to try (``kit --variant``)."""
        names = self.book.get("options", {})
        variants = self.t["rules"]["playtest_variants"]
        out = []
        for config in self.inputs.house:
            base = self.config(config.variant)
            for spec in OPTIONS:
                old, new = getattr(base, spec.name), getattr(config, spec.name)
                if old == new:
                    continue
                out.append(
                    str(self.book["house_variant"]).format(
                        variant=variants.get(config.name, config.name),
                        option=names.get(spec.name, spec.help),
                        name=spec.name,
                        value=self.option_value(spec.name, new),
                        instead=self.option_value(spec.name, old),
                    )
                )
        return out

    def _house_h(self, width: float) -> float:
        rows = self.house_rows()
        if not rows:
            return 0.0
        h = 2.0 + self._caption_h(str(self.book["house_heading"]), width, self.small) + 0.8
        return h + sum(self._caption_h(row, width, self.small) + 0.8 for row in rows)

    def _options_intro(self) -> str:
        return str(self.book["options_intro"]).format(
            variants=", ".join(str(c) for c in self.inputs.configs)
        )

    def _h_options(self, width: float) -> float:
        h = self._caption_h(self._options_intro(), width, self.small) + 2.0
        for _tag, text, value in self.option_rows():
            h += (
                max(
                    self._caption_h(text, width * 0.55, self.small),
                    self._caption_h(value, width * 0.43, self.small),
                )
                + 0.8
            )
        return h + self._house_h(width)

    def _d_options(self, s: Surface, box: Box) -> None:
        st = self.painter.style
        intro = self._options_intro()
        ih = self._caption_h(intro, box.width, self.small)
        s.text(Box(box.x, box.y, box.width, ih), intro, self.small)
        y = box.y + ih + 2.0
        bold = TextStyle("bold", 7.5, st.ink, "left", "top", 1.2, 7.5)
        for _tag, text, value in self.option_rows():
            left = text
            h = max(
                self._caption_h(left, box.width * 0.55, self.small),
                self._caption_h(value, box.width * 0.43, self.small),
            )
            s.text(Box(box.x, y, box.width * 0.55, h), left, self.small)
            s.text(Box(box.x + box.width * 0.57, y, box.width * 0.43, h), value, bold)
            y += h + 0.8
            s.line((box.x, y - 0.4), (box.right, y - 0.4), Stroke(st.line, 0.2))
        rows = self.house_rows()
        if rows:
            y += 2.0
            heading = str(self.book["house_heading"])
            h = self._caption_h(heading, box.width, self.small)
            s.text(Box(box.x, y, box.width, h), heading, bold)
            y += h + 0.8
            for row in rows:
                h = self._caption_h(row, box.width, self.small)
                s.text(Box(box.x, y, box.width, h), row, self.small)
                y += h + 0.8


def _option_text(name: str, value: object) -> str:
    """An option's value as printed; the token and condition sets as their values, also when
    they are the defaults."""
    from runarch_gen.runarch.engine.conditions import conditions_inline, load_conditions
    from runarch_gen.runarch.engine.tokens import load_tokens

    if name == "tokens":
        return load_tokens(str(value)).inline
    if name == "conditions":
        return conditions_inline(load_conditions(str(value)))
    return str(getattr(value, "value", value))


def _line_index(name: str) -> int:
    from runarch_gen.runarch.engine.tables import LINE_NAMES

    return list(LINE_NAMES).index(name)


def _square(sq: int) -> str:
    r, c = divmod(sq, 5)
    return f"{'abcde'[c]}{r + 1}"


def _signed(points: int) -> str:
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"


__all__ = [
    "FIGURES",
    "MIN_PT",
    "PLACEHOLDERS",
    "Block",
    "Placed",
    "Rulebook",
    "RulebookInputs",
    "RulebookPage",
    "kit_configs",
]
