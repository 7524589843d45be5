"""Malacca's print-and-play kit on the generic kit pipeline (:mod:`runarch_gen.pnp.kit`).

Components, in print order (:data:`KINDS`): the rulebook (:class:`MalaccaRulebook`), the ship
cards (the rules' cargo values), 40 action cards with one common back [M-05] — each role in its
colour, told apart also by its symbol (a sword, a shield, a coin stack) and its name — the
captain card, 8 character cards, 12 equipment cards, 15 chests (10 on one side, 20 on the
other), 40 silver and 20 gold coins, and a reference card (the payouts on the front, a round in
order on the back). Sizes and colours: ``templates/malacca/kit.toml``; every word:
``templates/malacca/texts.toml``, one language per kit. The worked round is resolved by
:func:`~runarch_gen.malacca.resolve.resolve_round`.

>>> from runarch_gen.pnp.kit import KitOptions, KitRequest
>>> plan = KIT.plan(KitRequest(KitOptions()))
>>> plan.counts()["actions"], plan.counts()["coins"], plan.counts()["chests"]
(40, 60, 15)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from runarch_gen.malacca.rules import (
    EQUIPMENT_COST,
    EQUIPMENT_COUNT,
    SPECIAL_DECK,
    STARTING_MONEY,
    Card,
    Character,
    Equipment,
    MalaccaRules,
    Role,
)
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
from runarch_gen.pnp.stock import draw_card_back, draw_coin
from runarch_gen.pnp.surface import Stroke, Surface
from runarch_gen.pnp.text import text_style

__all__ = ["KINDS", "KIT", "MalaccaPainter", "plan_kit", "role_symbol"]

KINDS = (
    "rules",
    "ships",
    "actions",
    "captain",
    "characters",
    "equipment",
    "chests",
    "coins",
    "reference",
)
"""Component kinds in print order; ``--only`` names some of them."""
SETS = 8
"""Sets of basic action cards, one per seat [M-03]."""
GOLD_COINS, SILVER_COINS, CHESTS = 20, 40, 15
EXPORTS = ExportKinds(
    cards=("ships", "actions", "captain", "characters", "equipment", "chests"),
    pieces=("coins",),
    shared_backs=("ships", "actions", "captain", "characters", "equipment"),
)
ROLES = (Role.ATTACK, Role.DEFENCE, Role.TRADE)
TABLE_ROLES = (Role.TRADE, Role.ATTACK, Role.DEFENCE)
"""The payout table's rows (the texts' ``reference.rows`` after the heading)."""


# -- symbols ----------------------------------------------------------------------------------


def role_symbol(s: Surface, role: Role, box: Box, ink: Paint) -> None:
    """A role's symbol, so that roles differ without their colours: a sword (attack), a
    shield (defence), a stack of coins (trade)."""
    x, y, w, h = box.x, box.y, box.width, box.height
    if role is Role.ATTACK:
        blade = [
            (x + 0.5 * w, y),
            (x + 0.58 * w, y + 0.12 * h),
            (x + 0.58 * w, y + 0.66 * h),
            (x + 0.42 * w, y + 0.66 * h),
            (x + 0.42 * w, y + 0.12 * h),
        ]
        s.polygon(blade, ink)
        s.rect(Box(x + 0.2 * w, y + 0.66 * h, 0.6 * w, 0.08 * h), ink)
        s.rect(Box(x + 0.45 * w, y + 0.74 * h, 0.1 * w, 0.18 * h), ink)
        s.circle((x + 0.5 * w, y + 0.95 * h), 0.06 * w, ink)
    elif role is Role.DEFENCE:
        shield = [
            (x + 0.12 * w, y + 0.08 * h),
            (x + 0.5 * w, y),
            (x + 0.88 * w, y + 0.08 * h),
            (x + 0.82 * w, y + 0.6 * h),
            (x + 0.5 * w, y + h),
            (x + 0.18 * w, y + 0.6 * h),
        ]
        s.polygon(shield, ink)
        inner = [(x + 0.5 * w, y + 0.12 * h), (x + 0.5 * w, y + 0.86 * h)]
        s.polyline(inner, Stroke(ink_on(ink), 0.08 * w))
    else:
        for k in range(3):
            coin = Box(x + 0.12 * w, y + h * (0.62 - 0.24 * k), 0.76 * w, 0.26 * h)
            s.rounded_rect(coin, coin.height / 2, ink, Stroke(ink_on(ink), 0.04 * w))


def _ship_picture(s: Surface, box: Box, wood: Paint, sail: Paint, ink: Paint) -> None:
    x, y, w, h = box.x, box.y, box.width, box.height
    hull = [
        (x, y + 0.62 * h),
        (x + w, y + 0.62 * h),
        (x + 0.82 * w, y + 0.9 * h),
        (x + 0.14 * w, y + 0.9 * h),
    ]
    s.polygon(hull, wood)
    s.rect(Box(x + 0.48 * w, y + 0.05 * h, 0.035 * w, 0.58 * h), ink)
    s.polygon(
        [
            (x + 0.2 * w, y + 0.15 * h),
            (x + 0.46 * w, y + 0.12 * h),
            (x + 0.46 * w, y + 0.55 * h),
            (x + 0.14 * w, y + 0.55 * h),
        ],
        sail,
    )
    s.polygon(
        [
            (x + 0.54 * w, y + 0.2 * h),
            (x + 0.8 * w, y + 0.25 * h),
            (x + 0.86 * w, y + 0.55 * h),
            (x + 0.54 * w, y + 0.55 * h),
        ],
        sail,
    )


# -- the painter --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MalaccaContents:
    rules: MalaccaRules
    spec: SheetSpec


class MalaccaPainter:
    """Draws every Malacca component from its layout, in the kit's language and style."""

    def __init__(
        self, rules: MalaccaRules, templates: KitTemplates, texts: Texts, *, friendly: bool
    ) -> None:
        self.rules = rules
        self.t = texts
        self.friendly = friendly
        self.fonts = default_fonts()
        names = ("card", "chest", "coin", "reference")
        self.layouts = {n: templates.layout(n) for n in names}
        inks = templates.data.get("inks", {})
        suffix = "_friendly" if friendly else ""

        def ink(name: str) -> Paint:
            return Paint.hex(inks.get(name + suffix, inks[name]))

        self.role_paint = {role: ink(role.value) for role in ROLES}
        self.back = ink("back")
        self.sea = ink("sea")
        self.parchment = Paint.hex(inks["parchment"])
        self.ink = Paint.hex(inks["ink"])
        self.wood = ink("wood")
        self.sea_back = self.sea if friendly else Paint.hex(inks["sea_back"])
        self.wood_back = self.wood if friendly else Paint.hex(inks["wood_back"])
        self.silver = ink("silver")
        self.gold = ink("gold")
        self.accent = Paint.hex(inks["accent"])
        self.components: ComponentRegistry[MalaccaContents] = ComponentRegistry(
            [
                self._component("ships", self._ships, self.draw_ship),
                self._component("actions", self._actions, self.draw_action),
                self._component("captain", self._captain, self.draw_captain),
                self._component("characters", self._characters, self.draw_character),
                self._component("equipment", self._equipment, self.draw_equipment),
                Component("chests", self._chests, self.draw_chest, self.draw_chest_back, "chest"),
                Component("coins", self._coins, self.draw_coin_item, layout="coin"),
                Component(
                    "reference",
                    self._reference,
                    self.draw_reference,
                    self.draw_reference_back,
                    "reference",
                ),
            ]
        )

    def _component(self, kind: str, items: Any, front: Any) -> Component[MalaccaContents]:
        return Component(kind, items, front, self.draw_card_back, "card")

    # -- items -----------------------------------------------------------------------------------
    def _card(self, kind: str, key: str, payload: Any) -> Item:
        lay = self.layouts["card"]
        return Item(kind, key, lay.width, lay.height, True, payload=payload)

    def _ships(self, c: MalaccaContents) -> list[Item]:
        return [
            self._card("ships", f"ship-{i + 1}", cargo) for i, cargo in enumerate(c.rules.ships)
        ]

    def _actions(self, c: MalaccaContents) -> list[Item]:
        out = [
            self._card("actions", f"{card.label}-{seat + 1}", card)
            for seat in range(SETS)
            for card in (Card.ATTACK, Card.DEFENCE, Card.TRADE)
        ]
        for card, count in SPECIAL_DECK.items():
            out += [self._card("actions", f"{card.label}-{i + 1}", card) for i in range(count)]
        return out

    def _captain(self, c: MalaccaContents) -> list[Item]:
        return [self._card("captain", "captain", None)]

    def _characters(self, c: MalaccaContents) -> list[Item]:
        return [self._card("characters", ch.key, ch) for ch in Character]

    def _equipment(self, c: MalaccaContents) -> list[Item]:
        return [
            self._card("equipment", f"better-{kind.label}-{i + 1}", kind)
            for kind in Equipment
            for i in range(EQUIPMENT_COUNT)
        ]

    def _chests(self, c: MalaccaContents) -> list[Item]:
        lay = self.layouts["chest"]
        return [
            Item("chests", f"chest-{i + 1}", lay.width, lay.height, True) for i in range(CHESTS)
        ]

    def _coins(self, c: MalaccaContents) -> list[Item]:
        lay = self.layouts["coin"]

        def coin(key: str, value: int) -> Item:
            return Item("coins", key, lay.width, lay.height, payload=value, round=True)

        return [coin(f"silver-{i + 1}", 1) for i in range(SILVER_COINS)] + [
            coin(f"gold-{i + 1}", 5) for i in range(GOLD_COINS)
        ]

    def _reference(self, c: MalaccaContents) -> list[Item]:
        lay = self.layouts["reference"]
        return [Item("reference", "reference", lay.width, lay.height, True, rotatable=False)]

    # -- drawing helpers -------------------------------------------------------------------------
    def _fill(self, s: Surface, item: Item, bleed: float, paint: Paint) -> Box:
        cut = Box(0, 0, item.width, item.height)
        s.rect(cut.inset(-bleed), paint)
        return cut

    def _frame(self, s: Surface, cut: Box, paint: Paint, inset: float = 3.0) -> Box:
        inner = cut.inset(inset)
        s.rounded_rect(inner, 2.5, None, Stroke(paint, 0.6))
        return inner

    def coin(self, s: Surface, centre: Point, r: float, value: int, label: str = "") -> None:
        paint = self.gold if value == 5 else self.silver
        draw_coin(s, centre, r, label or str(value), fill=paint, ink=self.ink)

    def card_name(self, card: Card) -> tuple[str, str]:
        entry = self.t["cards"][card.name]
        return str(entry["name"]), str(entry["value"])

    # -- fronts ----------------------------------------------------------------------------------
    def draw_ship(self, s: Surface, item: Item, bleed: float) -> None:
        cut = self._fill(s, item, bleed, self.sea)
        ink = ink_on(self.sea)
        inner = self._frame(s, cut, ink)
        s.text(
            Box(inner.x, inner.y + 2, inner.width, 8),
            str(self.t["ship"]).upper(),
            text_style(12, ink, font="bold"),
        )
        _ship_picture(
            s, Box(inner.x + 6, inner.y + 13, inner.width - 12, 34), self.wood, WHITE, self.ink
        )
        self.coin(s, (cut.width / 2, inner.bottom - 19), 12, 1, str(item.payload))
        s.text(
            Box(inner.x, inner.bottom - 6.5, inner.width, 5),
            str(self.t["cargo"]).format(n=item.payload),
            text_style(7.5, ink, font="semibold"),
        )

    def draw_action(self, s: Surface, item: Item, bleed: float) -> None:
        card: Card = item.payload
        cut = Box(0, 0, item.width, item.height)
        name, value = self.card_name(card)
        roles = card.choices
        outer = cut.inset(-bleed)
        if len(roles) == 2:  # a wait card: its two colours, a diagonal apart
            s.polygon(
                [(outer.x, outer.y), (outer.right, outer.y), (outer.x, outer.bottom)],
                self.role_paint[roles[0]],
            )
            s.polygon(
                [(outer.right, outer.y), (outer.right, outer.bottom), (outer.x, outer.bottom)],
                self.role_paint[roles[1]],
            )
        else:
            s.rect(outer, self.role_paint[roles[0]])
        first = self.role_paint[roles[0]]
        ink = ink_on(first)
        inner = self._frame(s, cut, ink if len(roles) == 1 else WHITE)
        banner = Box(inner.x + 2, inner.y + 2, inner.width - 4, 11)
        if len(roles) == 2:
            s.rounded_rect(banner, 2, WHITE, None)
            ink = BLACK
        s.text(banner, name.upper(), text_style(14, ink, font="bold"))
        if len(roles) == 1:
            role_symbol(s, roles[0], Box(cut.width / 2 - 11, inner.y + 16, 22, 26), ink)
            s.text(
                Box(inner.x, inner.y + 44, inner.width, 20), value, text_style(40, ink, font="bold")
            )
        else:  # the two roles' symbols on the diagonal, the choice under them
            for k, role in enumerate(roles):
                paint = self.role_paint[role]
                centre = (inner.x + 15 + k * (inner.width - 30), inner.y + 26 + k * 16)
                s.circle(centre, 10.5, WHITE, None)
                role_symbol(s, role, Box(centre[0] - 7, centre[1] - 8.5, 14, 17), paint)
            choice = Box(inner.x + 4, inner.y + 55, inner.width - 8, 9)
            s.rounded_rect(choice, 2, WHITE, None)
            s.text(choice, value, text_style(9, BLACK))
        if card.is_special:
            note = Box(inner.x + 2, inner.bottom - 14, inner.width - 4, 12)
            s.rounded_rect(note, 2, WHITE, None)
            s.text(note.inset(1), str(self.t["special_note"]), text_style(7, BLACK, leading=1.1))

    def draw_captain(self, s: Surface, item: Item, bleed: float) -> None:
        cut = self._fill(s, item, bleed, self.parchment)
        inner = self._frame(s, cut, self.ink)
        s.text(
            Box(inner.x, inner.y + 4, inner.width, 12),
            str(self.t["captain"]).upper(),
            text_style(16, self.ink, font="bold"),
        )
        _ship_picture(
            s, Box(inner.x + 8, inner.y + 20, inner.width - 16, 26), self.wood, WHITE, self.ink
        )
        s.text(
            Box(inner.x + 2, inner.y + 50, inner.width - 4, 28),
            str(self.t["captain_text"]),
            text_style(8.5, self.ink, leading=1.2),
        )

    def draw_character(self, s: Surface, item: Item, bleed: float) -> None:
        character: Character = item.payload
        cut = self._fill(s, item, bleed, self.parchment)
        inner = self._frame(s, cut, self.ink)
        t = self.t
        s.text(
            Box(inner.x, inner.y + 3, inner.width, 10),
            character.title,
            text_style(13, self.ink, font="bold"),
        )
        start = "N" if character is Character.CAESAR else str(character.starting_money(5))
        self.coin(s, (cut.width / 2, inner.y + 25), 8, 1, start)
        money = (
            str(t["caesar_money"])
            if character is Character.CAESAR
            else str(t["starts_with"]).format(n=character.starting_money(5))
        )
        s.text(Box(inner.x, inner.y + 34, inner.width, 8), money, text_style(8, self.ink))
        s.text(
            Box(inner.x + 2, inner.y + 44, inner.width - 4, 34),
            str(t["characters"][character.name]),
            text_style(9, self.ink, leading=1.2),
        )

    def draw_equipment(self, s: Surface, item: Item, bleed: float) -> None:
        kind: Equipment = item.payload
        cut = self._fill(s, item, bleed, self.parchment)
        inner = self._frame(s, cut, self.ink)
        role = ROLES[kind]
        paint = self.role_paint[role]
        ink = ink_on(paint)
        entry = self.t["equipment"][kind.name]
        head = Box(inner.x, inner.y, inner.width, 14)
        s.rect(head, paint)
        s.text(head.inset(2, 1), str(entry["name"]), text_style(12, ink, font="bold"))
        role_symbol(s, role, Box(inner.x + 6, inner.y + 20, 14, 17), paint)
        s.text(
            Box(inner.x + 22, inner.y + 17, inner.width - 24, 22),
            f"+{kind.bonus}",
            text_style(30, self.ink, font="bold"),
        )
        s.text(
            Box(inner.x + 2, inner.y + 42, inner.width - 4, 24),
            str(entry["text"]),
            text_style(8.5, self.ink, leading=1.2),
        )
        s.text(
            Box(inner.x, inner.bottom - 10, inner.width, 7),
            str(self.t["price"]).format(n=EQUIPMENT_COST),
            text_style(8, self.ink, font="semibold"),
        )

    def _chest(self, s: Surface, item: Item, bleed: float, value: int) -> None:
        cut = self._fill(s, item, bleed, self.parchment)
        inner = self._frame(s, cut, self.ink, 2.5)
        box = Box(inner.x + 5, inner.y + 12, inner.width - 10, inner.height - 30)
        s.rect(box, self.wood, Stroke(self.ink, 0.5))
        s.rounded_rect(Box(box.x, box.y - 5, box.width, 9), 3, self.wood, Stroke(self.ink, 0.5))
        s.rect(Box(box.x + box.width / 2 - 3, box.y + 2, 6, 6), self.gold)
        s.text(
            Box(inner.x, box.y + 8, inner.width, box.height - 8),
            str(value),
            text_style(26, ink_on(self.wood), font="bold"),
        )
        s.text(
            Box(inner.x + 1, inner.bottom - 15, inner.width - 2, 13),
            str(self.t["chest"]).format(n=value, other=30 - value),
            text_style(6.5, self.ink, leading=1.1),
        )

    def draw_chest(self, s: Surface, item: Item, bleed: float) -> None:
        self._chest(s, item, bleed, 10)

    def draw_chest_back(self, s: Surface, item: Item, bleed: float) -> None:
        self._chest(s, item, bleed, 20)

    def draw_coin_item(self, s: Surface, item: Item, bleed: float) -> None:
        r = item.width / 2
        s.circle((r, r), r + bleed, WHITE)
        self.coin(s, (r, r), r, int(item.payload))

    def draw_card_back(self, s: Surface, item: Item, bleed: float) -> None:
        """One back for all action cards [M-05]; one per other kind of card."""
        paint = {"ships": self.sea_back, "actions": self.back}.get(item.kind, self.wood_back)
        names = self.t["kinds"]
        subtitle = "" if item.kind == "actions" else str(names[item.kind])
        accent = self.accent if not self.friendly else self.ink
        draw_card_back(
            s,
            Box(0, 0, item.width, item.height),
            bleed,
            fill=paint,
            accent=accent,
            title="MALACCA",
            subtitle=subtitle,
        )

    # -- the reference card ------------------------------------------------------------------------
    def draw_reference(self, s: Surface, item: Item, bleed: float) -> None:
        cut = self._fill(s, item, bleed, WHITE)
        self.payout_table(s, cut.inset(5), 7.0)

    def payout_table(self, s: Surface, box: Box, size: float) -> None:
        """Who gets what when the ship is captured or defended, a row per role."""
        ref = self.t["reference"]
        s.text(
            Box(box.x, box.y, box.width, 12),
            str(ref["title"]),
            text_style(size + 2, self.ink, font="bold", leading=1.1),
        )
        top = box.y + 14
        col = (box.width * 0.22, box.width * 0.39, box.width * 0.39)
        rows = ref["rows"]
        note_h = 16.0
        row_h = (box.bottom - note_h - top - 8.0) / (len(rows) - 1)
        y = top
        for index, row in enumerate(rows):
            h = 8.0 if index == 0 else row_h
            x = box.x
            for i, (text, w) in enumerate(zip(row, col, strict=True)):
                cell = Box(x, y, w, h)
                if index and i == 0:
                    role = TABLE_ROLES[index - 1]
                    paint = self.role_paint[role]
                    s.rect(cell.inset(0.4), paint)
                    role_symbol(s, role, Box(cell.x + 2, cell.y + 2, 5, 6), ink_on(paint))
                    name = Box(cell.x + 1, cell.y + 9, cell.width - 2, cell.height - 10)
                    s.text(name, str(text), text_style(size, ink_on(paint), font="bold"))
                else:
                    s.rect(cell, None, Stroke(self.ink, 0.2))
                    font = "bold" if index == 0 else "regular"
                    s.text(
                        cell.inset(1.2),
                        str(text),
                        text_style(size, self.ink, font=font, leading=1.15),
                    )
                x += w
            y += h
        s.text(
            Box(box.x, y + 1.5, box.width, box.bottom - y - 1.5),
            str(ref["note"]),
            text_style(size - 0.5, self.ink, leading=1.15, valign="top"),
        )

    def draw_reference_back(self, s: Surface, item: Item, bleed: float) -> None:
        cut = self._fill(s, item, bleed, WHITE)
        box = cut.inset(6)
        ref = self.t["reference"]
        s.text(
            Box(box.x, box.y, box.width, 9),
            str(ref["round_title"]),
            text_style(10, self.ink, font="bold"),
        )
        s.text(
            Box(box.x, box.y + 11, box.width, box.height - 11),
            "\n".join(str(line) for line in ref["round"]),
            text_style(8, self.ink, align="left", valign="top", leading=1.25),
        )


# -- the rulebook --------------------------------------------------------------------------------


def example_round(rules: MalaccaRules, example: Any) -> tuple[Any, Any]:
    """The round of a worked example (its cargo, captain and seats, from the texts) and what
    :func:`~runarch_gen.malacca.resolve.resolve_round` makes of it."""
    from runarch_gen.malacca.resolve import RoundInput, Seat, resolve_round

    seats = tuple(
        Seat(int(seat["money"]), Card.parse(str(seat["card"])), int(seat["stake"]))
        for seat in example["seats"]
    )
    round_ = RoundInput(int(example["cargo"]), int(example["captain"]), seats, rules)
    return round_, resolve_round(round_)


class MalaccaRulebook(FlowBook):
    """The rulebook: text from ``[LANG.rulebook]``, figures drawn with the kit's pieces."""

    def __init__(self, painter: MalaccaPainter, counts: dict[str, int]) -> None:
        book = painter.t["rulebook"]
        rules = painter.rules
        super().__init__(
            painter.fonts,
            title=str(book["title"]),
            subtitle=str(book["subtitle"]),
            ink=painter.ink,
            accent=painter.accent,
            sections=book["sections"],
            values={
                "ships": str(len(rules.ships)),
                "rounds": str(rules.rounds),
                "low": str(min(rules.ships)),
                "high": str(max(rules.ships)),
                "money": str(STARTING_MONEY),
                "scrub": str(rules.scrub),
                "price": str(EQUIPMENT_COST),
                "each": str(EQUIPMENT_COUNT),
            },
        )
        self.p = painter
        self.book = book
        self.counts = counts

    def pictures(self) -> list[Picture]:
        p, t = self.p, self.p.t
        card = p.layouts["card"]
        chest = p.layouts["chest"]
        coin = p.layouts["coin"]
        ref = p.layouts["reference"]

        def count(kind: str) -> str:
            return f"{self.counts.get(kind, 0)} × {t.kind(kind)}"

        def draw(front: Any, kind: str, w: float, h: float, payload: Any = None) -> Any:
            return lambda s: front(s, Item(kind, kind, w, h, payload=payload), 0.0)

        cw, ch = card.width, card.height
        return [
            (count("ships"), cw, ch, draw(p.draw_ship, "ships", cw, ch, 9)),
            (count("actions"), cw, ch, draw(p.draw_action, "actions", cw, ch, Card.ATTACK)),
            (str(self.book["common_back"]), cw, ch, draw(p.draw_card_back, "actions", cw, ch)),
            (count("captain"), cw, ch, draw(p.draw_captain, "captain", cw, ch)),
            (
                count("characters"),
                cw,
                ch,
                draw(p.draw_character, "characters", cw, ch, Character.MORGAN),
            ),
            (
                count("equipment"),
                cw,
                ch,
                draw(p.draw_equipment, "equipment", cw, ch, Equipment.TRADE),
            ),
            (
                count("chests"),
                chest.width,
                chest.height,
                draw(p.draw_chest, "chests", chest.width, chest.height),
            ),
            (
                count("coins"),
                2 * coin.width + 2,
                coin.height,
                lambda s: self._coins(s, coin.width),
            ),
            (
                count("reference"),
                ref.width,
                ref.height,
                draw(p.draw_reference, "reference", ref.width, ref.height),
            ),
        ]

    def _coins(self, s: Surface, w: float) -> None:
        self.p.coin(s, (w / 2, w / 2), w / 2, 1)
        self.p.coin(s, (w * 1.5 + 2, w / 2), w / 2, 5)

    def _h_components(self, width: float) -> float:
        return pictures_height(self, self.pictures(), str(self.book["figure_components"]), width)

    def _d_components(self, s: Surface, box: Box) -> None:
        draw_pictures(self, s, box, self.pictures(), str(self.book["figure_components"]))

    # the table after setup
    def _h_setup(self, width: float) -> float:
        return width * 0.8 + 1.5 + self.text_height(str(self.book["figure_setup"]), width)

    def _d_setup(self, s: Surface, box: Box) -> None:
        """Four players round the table: the ship deck, the special deck and the bank in the
        middle; each player's three basic cards and money; the captain card at player 1."""
        p = self.p
        card = p.layouts["card"]
        table = Box(box.x, box.y, box.width, box.width * 0.8)
        s.rounded_rect(table, 4.0, Paint.hex("#EEF3F6"), Stroke(self.p.ink, 0.3))
        k = table.width * 0.12 / card.width
        cw, ch = card.width * k, card.height * k

        def card_at(x: float, y: float, kind: str, payload: Any, back: bool = False) -> None:
            item = Item(kind, kind, card.width, card.height, payload=payload)
            with s.transformed(translate=(x, y), scale=k):
                if back:
                    p.draw_card_back(s, item, 0.0)
                elif kind == "actions":
                    p.draw_action(s, item, 0.0)
                else:
                    p.draw_captain(s, item, 0.0)

        cx, cy = table.centre
        card_at(cx - cw * 1.6, cy - ch / 2, "ships", None, back=True)
        card_at(cx - cw * 0.5, cy - ch / 2, "actions", None, back=True)
        r = cw * 0.28
        for j, value in enumerate((1, 1, 5)):
            p.coin(s, (cx + cw * 0.9 + j * r * 2.1, cy), r, value)
        seats = (
            (cx, table.bottom - 3),
            (table.x + 3, cy),
            (cx, table.y + 3),
            (table.right - 3, cy),
        )
        for seat, (sx, sy) in enumerate(seats):
            with s.turned_about((sx, sy), seat):
                for j, basic in enumerate((Card.ATTACK, Card.DEFENCE, Card.TRADE)):
                    card_at(sx - 1.5 * cw - 1 + j * (cw + 1), sy - ch, "actions", basic)
                p.coin(s, (sx + 1.5 * cw + r + 2, sy - r), r, 5)
                if seat == 0:
                    card_at(sx - 2.5 * cw - 4, sy - ch, "captain", None)
        top = table.bottom + 1.5
        s.text(
            Box(box.x, top, box.width, box.bottom - top), str(self.book["figure_setup"]), self.small
        )

    # the payout table
    def _h_payouts(self, width: float) -> float:
        return width * 0.95

    def _d_payouts(self, s: Surface, box: Box) -> None:
        self.p.payout_table(s, box, 7.0)

    # a worked round
    def example_lines(self, name: str) -> list[str]:
        example = self.book["examples"][name]
        round_, result = example_round(self.p.rules, example)
        book = self.book
        role_names = book["roles"]
        lines = [str(book["example_intro"]).format(cargo=round_.cargo, seats=len(round_.seats))]
        for index, seat in enumerate(round_.seats):
            card_name, value = self.p.card_name(seat.card)
            lines.append(
                str(book["example_seat"]).format(
                    seat=index + 1,
                    card=f"{card_name} {value}",
                    stake=seat.stake,
                    money=seat.money,
                )
            )
        verdict = "example_captured" if result.captured else "example_defended"
        lines.append(str(book[verdict]).format(attack=result.attack, defence=result.defence))
        for index, outcome in enumerate(result.seats):
            change = outcome.change
            sign = f"+{change}" if change > 0 else ("−" + str(-change) if change < 0 else "0")
            extra = str(book["example_card"]) if outcome.cards else ""
            lines.append(
                str(book["example_change"]).format(
                    seat=index + 1, role=role_names[outcome.role.value], change=sign, card=extra
                )
            )
        return lines

    def _example_h(self, name: str, width: float) -> float:
        return 26.0 + self.text_height("\n".join(self.example_lines(name)), width)

    def _example_d(self, name: str, s: Surface, box: Box) -> None:
        example = self.book["examples"][name]
        round_, _ = example_round(self.p.rules, example)
        card = self.p.layouts["card"]
        n = len(round_.seats)
        scale = min(22.0 / card.height, (box.width - 4 * (n - 1)) / n / card.width)
        for index, seat in enumerate(round_.seats):
            x = box.x + index * (card.width * scale + 4)
            with s.transformed(translate=(x, box.y), scale=scale):
                self.p.draw_action(
                    s, Item("actions", "a", card.width, card.height, payload=seat.card), 0.0
                )
            label = str(index + 1)
            s.text(
                Box(x, box.y + card.height * scale + 0.5, card.width * scale, 3.5),
                label,
                self.caption,
            )
        text = "\n".join(self.example_lines(name))
        top = box.y + 26.0
        s.text(Box(box.x, top, box.width, box.bottom - top), text, self.small)

    def _h_captured(self, width: float) -> float:
        return self._example_h("captured", width)

    def _d_captured(self, s: Surface, box: Box) -> None:
        self._example_d("captured", s, box)

    def _h_defended(self, width: float) -> float:
        return self._example_h("defended", width)

    def _d_defended(self, s: Surface, box: Box) -> None:
        self._example_d("defended", s, box)

    # the characters
    def _h_characters(self, width: float) -> float:
        return sum(self.text_height(self._character_line(ch), width) + 0.8 for ch in Character)

    def _character_line(self, ch: Character) -> str:
        t = self.p.t
        money = (
            str(t["caesar_money"])
            if ch is Character.CAESAR
            else str(t["starts_with"]).format(n=ch.starting_money(5))
        )
        return f"{ch.title} ({money}): {t['characters'][ch.name]}"

    def _d_characters(self, s: Surface, box: Box) -> None:
        y = box.y
        for ch in Character:
            line = self._character_line(ch)
            h = self.text_height(line, box.width)
            s.text(Box(box.x, y, box.width, h), line, self.small)
            y += h + 0.8

    # the one-page reference
    def _h_reference(self, width: float) -> float:
        return 100.0

    def _d_reference(self, s: Surface, box: Box) -> None:
        ref = self.p.t["reference"]
        half = box.split_columns(2, gap=7)
        self.p.payout_table(s, Box(half[0].x, box.y, half[0].width, box.height * 0.62), 7.5)
        s.text(
            Box(half[1].x, box.y, half[1].width, 10),
            str(ref["round_title"]),
            text_style(11, self.p.ink, font="bold", align="left"),
        )
        s.text(
            Box(half[1].x, box.y + 12, half[1].width, box.height - 12),
            "\n".join(str(line) for line in ref["round"]),
            text_style(8.5, self.p.ink, align="left", valign="top", leading=1.3),
        )
        s.text(
            Box(half[0].x, box.y + box.height * 0.62 + 4, half[0].width, box.height * 0.38 - 4),
            "\n".join(str(line) for line in ref["special"]),
            text_style(8, self.p.ink, align="left", valign="top", leading=1.3),
        )


# -- the kit -------------------------------------------------------------------------------------


def plan_kit(request: KitRequest) -> KitPlan:
    """Lay out Malacca's kit for ``request`` (its values: Malacca's rules parameters; the
    ships print their cargo, the rulebook the options in force)."""
    from runarch_gen.malacca.engine import MALACCA_TYPE
    from runarch_gen.malacca.rules import rules_from_values

    options = request.options
    rules = rules_from_values(request.values) if request.values else MalaccaRules()
    templates = load_templates("malacca", options.template)
    texts = templates.texts(options.lang)
    painter = MalaccaPainter(rules, templates, texts, friendly=options.print_friendly)
    spec = templates.sheet(options.paper)
    contents = MalaccaContents(rules, spec)
    counts = {
        kind: len(painter.components[kind].items(contents)) for kind in painter.components.kinds
    }
    book = MalaccaRulebook(painter, counts)
    values = {p.name: request.values.get(p.name, p.default) for p in MALACCA_TYPE.parameters}
    return plan_sheets(
        game="malacca",
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
        manifest_options={"rules": MALACCA_TYPE.game_string(values)},
    )


KIT = KitDefinition("malacca", KINDS, plan_kit)
"""Malacca's kit, as its registration's ``kit`` hook gives it."""
