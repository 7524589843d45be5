"""RunArch's components as objects in a registry (:mod:`runarch_gen.pnp.components`): for each
kind, in print order, its layout, the items it makes from the kit's contents (RULES §1.2) and
how its front and back are drawn (by the kit's :class:`~.components.KitPainter`).

>>> KINDS[:3]
('rules', 'board', 'tiles')
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from runarch_gen.errors import InputError
from runarch_gen.pnp.components import Component, ComponentRegistry
from runarch_gen.pnp.rulebook import rulebook_items
from runarch_gen.pnp.sheets import Item, SheetSpec
from runarch_gen.runarch.atoms import PIECES
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.decks.cards import Deck
from runarch_gen.runarch.engine.conditions import Condition
from runarch_gen.runarch.engine.tokens import TOKEN_SYMBOLS, BonusTokens, opens_phase
from runarch_gen.runarch.kit.config import KitConfig

if TYPE_CHECKING:
    from runarch_gen.runarch.kit.components import KitPainter

__all__ = [
    "KINDS",
    "BonusToken",
    "FramePart",
    "KitContents",
    "Marker",
    "frame_items",
    "runarch_components",
]


@dataclass(frozen=True, slots=True)
class FramePart:
    """A printed piece of a score-frame segment: spaces ``first``–``last`` of segment
    ``segment`` (0–3, spaces 1–25, 26–50, …), piece ``part`` of ``parts``."""

    segment: int
    part: int
    parts: int
    first: int
    last: int
    space: float


@dataclass(frozen=True, slots=True)
class Marker:
    """A player's marker: ``total`` (large) or ``best`` (small, the best-card marker)."""

    player: int
    role: str


@dataclass(frozen=True, slots=True)
class BonusToken:
    player: int
    symbol: str
    phase: int | None
    value: int


@dataclass(frozen=True, slots=True)
class KitContents:
    """What a kit's items are made from: the set, the templates, the paper, the token values
    and condition tokens, and the rulebook laid out on this paper (if printed)."""

    board: Board
    deck: Deck
    config: KitConfig
    spec: SheetSpec
    tokens: BonusTokens
    conditions: tuple[Condition, ...]
    rulebook: Any = None
    """A :class:`~runarch_gen.runarch.kit.rulebook.Rulebook` (it draws with the painter)."""


Items = Callable[[KitContents], list[Item]]


def _rules(c: KitContents) -> list[Item]:
    return rulebook_items(c.rulebook, c.spec)


def _board(c: KitContents) -> list[Item]:
    usable = c.spec.usable
    side = math.floor(min(usable.width, usable.height) * 2) / 2
    return [
        Item(
            "board",
            "board",
            side,
            side,
            rotatable=False,
            bleed=0.0,
            alone=True,
            payload=c.board,
            booklet=True,  # not cut: it may share a sheet with the rulebook
        )
    ]


def _tiles(c: KitContents) -> list[Item]:
    tile = c.config.layout("tile")
    return [Item("tiles", f"tile-{p.code}", tile.width, tile.height, payload=p) for p in PIECES]


def _stones(c: KitContents) -> list[Item]:
    stone = c.config.layout("stone")
    return [
        Item("stones", f"stone-{p.code}", stone.width, stone.height, payload=p, round=True)
        for p in PIECES
    ]


def frame_items(config: KitConfig) -> list[Item]:
    """Four segments of 25 spaces (1–25, …, 76–100); each covers one side of the board and
    one corner, so its length is five tiles plus the frame's width, printed in pieces."""
    seg = config.layout("frame_segment")
    tile = config.layout("tile")
    length = 5 * tile.width + seg.height
    parts = int(seg.value("parts", 2))
    if not 1 <= parts <= 25:
        raise InputError("[components.frame_segment]: 'parts' must be between 1 and 25")
    space = length / 25
    sizes = [25 // parts + (1 if i < 25 % parts else 0) for i in range(parts)]
    items = []
    for segment in range(4):
        first = segment * 25 + 1
        for part, n in enumerate(sizes):
            fp = FramePart(segment, part, parts, first, first + n - 1, space)
            key = f"frame-{fp.first}-{fp.last}"
            items.append(Item("frame", key, n * space, seg.height, payload=fp))
            first += n
    return items


def _frame(c: KitContents) -> list[Item]:
    return frame_items(c.config)


def _player_boards(c: KitContents) -> list[Item]:
    pb = c.config.layout("player_board")
    return [
        Item("player_boards", f"player-board-{i + 1}", pb.width, pb.height, payload=i)
        for i in range(2)
    ]


def _markers(c: KitContents) -> list[Item]:
    mk = c.config.layout("marker")
    small = float(mk.value("small_scale", 0.78))
    # A marker's foot stands on one space of the score frame.
    fit = min(1.0, (c.config.frame_space() - 0.4) / mk.width)
    out = []
    for player in range(2):
        out.append(
            Item(
                "markers",
                f"marker-{player + 1}-total",
                mk.width * fit,
                mk.height * fit,
                payload=Marker(player, "total"),
            )
        )
        out.append(
            Item(
                "markers",
                f"marker-{player + 1}-best",
                mk.width * fit * small,
                mk.height * fit * small,
                payload=Marker(player, "best"),
            )
        )
    return out


def _cards(c: KitContents) -> list[Item]:
    card = c.config.layout("card")
    return [
        Item("cards", f"card-{k.id:02d}", card.width, card.height, True, payload=k) for k in c.deck
    ]


def _bonus_tokens(c: KitContents) -> list[Item]:
    bt = c.config.layout("bonus_token")
    out = []
    for player in range(2):
        for symbol in TOKEN_SYMBOLS:
            for value in c.tokens.values_of(symbol):
                token = BonusToken(player, symbol, opens_phase(symbol), value)
                key = f"bonus-{player + 1}-{symbol}{value}"
                out.append(
                    Item(
                        "bonus_tokens",
                        key,
                        bt.width,
                        bt.height,
                        True,
                        payload=token,
                        round=bt.is_round,
                    )
                )
    return out


def _condition_tokens(c: KitContents) -> list[Item]:
    ct = c.config.layout("condition_token")
    return [
        Item("condition_tokens", f"condition-{i + 1:02d}", ct.width, ct.height, True, payload=k)
        for i, k in enumerate(c.conditions)
    ]


def _bet_tokens(c: KitContents) -> list[Item]:
    bet = c.config.layout("bet_token")
    return [
        Item(
            "bet_tokens",
            f"bet-{i + 1:02d}",
            bet.width,
            bet.height,
            True,
            payload=i,
            round=bet.is_round,
        )
        for i in range(c.config.bet_token_count())
    ]


def _bet_plates(c: KitContents) -> list[Item]:
    plate_w = 3 * c.config.frame_space()
    plate_h = c.config.layout("frame_segment").height
    return [
        Item("bet_plates", f"bet-plate-{i + 1}", plate_w, plate_h, payload=i)
        for i in range(c.config.frame_bet_count())
    ]


def runarch_components(painter: KitPainter) -> ComponentRegistry[KitContents]:
    """Every component kind in print order, drawn by ``painter``."""
    p = painter
    return ComponentRegistry(
        [
            Component("rules", _rules, p.draw_rules_page),
            Component("board", _board, p.draw_board_item, layout="board"),
            Component("tiles", _tiles, p.draw_tile_item, layout="tile"),
            Component("stones", _stones, p.draw_stone_item, layout="stone"),
            Component("frame", _frame, p.draw_frame_part, layout="frame_segment"),
            Component("player_boards", _player_boards, p.draw_player_board, layout="player_board"),
            Component("markers", _markers, p.draw_marker, layout="marker"),
            Component("cards", _cards, p.draw_card_item, p.draw_card_back_item, layout="card"),
            Component(
                "bonus_tokens",
                _bonus_tokens,
                p.draw_bonus_token,
                p.draw_bonus_token_back,
                layout="bonus_token",
            ),
            Component(
                "condition_tokens",
                _condition_tokens,
                p.draw_condition_token,
                p.draw_condition_token_back,
                layout="condition_token",
            ),
            Component(
                "bet_tokens",
                _bet_tokens,
                p.draw_bet_token,
                p.draw_bet_token_back,
                layout="bet_token",
            ),
            Component("bet_plates", _bet_plates, p.draw_bet_plate, layout="frame_segment"),
        ]
    )


KINDS: tuple[str, ...] = (
    "rules",
    "board",
    "tiles",
    "stones",
    "frame",
    "player_boards",
    "markers",
    "cards",
    "bonus_tokens",
    "condition_tokens",
    "bet_tokens",
    "bet_plates",
)
"""Component kinds in the order they are printed (the registry's order)."""
