"""Malacca's vocabulary and options: cards, roles, characters, equipment, :class:`MalaccaRules`.

Everything here is data; the decisions quote their tags from ``docs/rules/malacca.md``.

>>> Card.parse("trade2").role, Card.TRADE2.multiplier, Card.ATTACK2.strength
(<Role.TRADE: 'trade'>, 2, 2)
>>> parse_ships("3-6"), parse_ships("2/2/9")
((3, 4, 5, 6), (2, 2, 9))
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass

from runarch_gen.errors import ParseError
from runarch_gen.play.parameters import check_bounds, param, rules_of

__all__ = [
    "BASIC_CARDS",
    "CHARACTER_MONEY",
    "SPECIAL_DECK",
    "Card",
    "Character",
    "Equipment",
    "MalaccaRules",
    "Role",
    "characters_value",
    "parse_characters",
    "parse_ships",
    "rules_from_values",
    "ships_value",
]


class Role(enum.Enum):
    """What a laid card does once revealed (and a wait card chosen) [M-08]."""

    ATTACK = "attack"
    DEFENCE = "defence"
    TRADE = "trade"

    @classmethod
    def parse(cls, text: str) -> Role:
        word = text.strip().lower()
        for role in cls:
            if role.value == word or (role is Role.DEFENCE and word == "defense"):
                return role
        raise ParseError(f"a role is attack, defence or trade, not {text[:40]!r}")


class Card(enum.IntEnum):
    """The eight kinds of action card; the value is the card's index in actions."""

    ATTACK = 0
    DEFENCE = 1
    TRADE = 2
    ATTACK2 = 3
    DEFENCE2 = 4
    TRADE2 = 5
    WAIT_AD = 6
    WAIT_DT = 7

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def is_special(self) -> bool:
        return self >= Card.ATTACK2

    @property
    def role(self) -> Role | None:
        """The card's role, ``None`` for a wait card (its role is chosen after the reveal)."""
        return _ROLES.get(self)

    @property
    def choices(self) -> tuple[Role, ...]:
        """The roles the card may take: one, or two for a wait card."""
        if self is Card.WAIT_AD:
            return (Role.ATTACK, Role.DEFENCE)
        if self is Card.WAIT_DT:
            return (Role.DEFENCE, Role.TRADE)
        role = _ROLES[self]
        return (role,)

    @property
    def strength(self) -> int:
        """Attack or defence strength (a wait card counts 1 in its chosen role)."""
        return 2 if self in (Card.ATTACK2, Card.DEFENCE2) else 1

    @property
    def multiplier(self) -> int:
        """What a successful trade takes from the bank per silver staked."""
        return 2 if self is Card.TRADE2 else 1

    @classmethod
    def parse(cls, text: str) -> Card:
        word = text.strip().lower().replace("_", "-").replace(" ", "")
        word = _ALIASES.get(word, word)
        for card in cls:
            if card.label == word:
                return card
        known = ", ".join(c.label for c in cls)
        raise ParseError(f"a card is one of {known}, not {text[:40]!r}")


_LABELS = {
    Card.ATTACK: "attack",
    Card.DEFENCE: "defence",
    Card.TRADE: "trade",
    Card.ATTACK2: "attack2",
    Card.DEFENCE2: "defence2",
    Card.TRADE2: "trade2",
    Card.WAIT_AD: "wait-ad",
    Card.WAIT_DT: "wait-dt",
}
_ALIASES = {
    "defense": "defence",
    "defense2": "defence2",
    "attack+2": "attack2",
    "defence+2": "defence2",
    "defense+2": "defence2",
    "trade*2": "trade2",
    "trade×2": "trade2",
    "trade-x2": "trade2",
    "wait-attack-defence": "wait-ad",
    "wait-defence-trade": "wait-dt",
    "wait-da": "wait-ad",
    "wait-td": "wait-dt",
}
_ROLES = {
    Card.ATTACK: Role.ATTACK,
    Card.DEFENCE: Role.DEFENCE,
    Card.TRADE: Role.TRADE,
    Card.ATTACK2: Role.ATTACK,
    Card.DEFENCE2: Role.DEFENCE,
    Card.TRADE2: Role.TRADE,
}

BASIC_CARDS = (Card.ATTACK, Card.DEFENCE, Card.TRADE)
"""Every player always holds these three (they come back after each round)."""

SPECIAL_DECK: Mapping[Card, int] = {
    Card.ATTACK2: 4,
    Card.DEFENCE2: 4,
    Card.TRADE2: 4,
    Card.WAIT_AD: 2,
    Card.WAIT_DT: 2,
}
"""The 16 special action cards of the seed."""


class Character(enum.IntEnum):
    """The eight characters of the expansion (§7)."""

    MORGAN = 0
    PICARD = 1
    ORGONEZ = 2
    CAESAR = 3
    ZHENG = 4
    SAYYIDA = 5
    LASKARINA = 6
    INGRID = 7

    @property
    def key(self) -> str:
        return self.name.lower()

    @property
    def title(self) -> str:
        return _TITLES[self]

    def starting_money(self, players: int, default: int = 5) -> int:
        """The money on the character card [M-22]: Black Caesar's is the number of players."""
        if self is Character.CAESAR:
            return players
        return CHARACTER_MONEY.get(self, default)

    @classmethod
    def parse(cls, text: str) -> Character:
        word = text.strip().lower()
        for character in cls:
            if word in (character.key, character.title.lower()):
                return character
        known = ", ".join(c.key for c in cls)
        raise ParseError(f"a character is one of {known}, not {text[:40]!r}")


_TITLES = {
    Character.MORGAN: "Henry Morgan",
    Character.PICARD: "Pierre Le Picard",
    Character.ORGONEZ: "Rodrigo Orgoñez",
    Character.CAESAR: "Black Caesar",
    Character.ZHENG: "Zheng He",
    Character.SAYYIDA: "Sayyida al Hurra",
    Character.LASKARINA: "Laskarina",
    Character.INGRID: "Ingrid Hammar",
}

CHARACTER_MONEY: Mapping[Character, int] = {
    Character.MORGAN: 5,
    Character.PICARD: 3,
    Character.ORGONEZ: 9,
    Character.ZHENG: 3,
    Character.SAYYIDA: 5,
    Character.LASKARINA: 5,
    Character.INGRID: 4,
}
"""Starting money by character (Black Caesar's depends on the players)."""

CHARACTER_BONUS = 3
"""Morgan's, Zheng He's and Ingrid's bonus for a successful defence, trade, attack."""


class Equipment(enum.IntEnum):
    """The three kinds of equipment (§8), with their bonus."""

    ATTACK = 0
    DEFENCE = 1
    TRADE = 2

    @property
    def bonus(self) -> int:
        return (3, 4, 5)[self]

    @property
    def label(self) -> str:
        return ("attack", "defence", "trade")[self]

    @classmethod
    def parse(cls, text: str) -> Equipment:
        word = text.strip().lower()
        for kind in cls:
            if word in (kind.label, f"better-{kind.label}", f"better {kind.label}"):
                return kind
        if word == "defense":
            return Equipment.DEFENCE
        raise ParseError(f"equipment is attack, defence or trade, not {text[:40]!r}")


EQUIPMENT_COST = 5
EQUIPMENT_COUNT = 4
STARTING_MONEY = 5
MAX_PLAYERS = 8


def ships_value(ships: tuple[int, ...]) -> str:
    """The ``ships`` parameter of cargo values: a range ``A-B`` where they are one, else the
    values separated by ``/`` (the inverse of :func:`parse_ships`)."""
    if ships == tuple(range(ships[0], ships[-1] + 1)):
        return f"{ships[0]}-{ships[-1]}"
    return "/".join(map(str, ships))


def characters_value(characters: tuple[Character, ...] | None) -> str:
    """The ``characters`` parameter: ``off``, ``random`` or the characters by name (the
    inverse of :func:`parse_characters`)."""
    if characters is None:
        return "off"
    if characters == ():
        return "random"
    return "/".join(c.key for c in characters)


@dataclass(frozen=True, slots=True)
class MalaccaRules:
    """One reading of the rules: the defaults are the rules document's, each field an option
    and a parameter of the game string (its help, bounds and rule tag declared with
    :func:`~runarch_gen.play.parameters.param`).

    ``characters`` is ``None`` for the base game, ``()`` for a random deal, or one character
    per seat.
    """

    players: int = param(4, "pirates at the table", tag="M-03", minimum=2, maximum=MAX_PLAYERS)
    ships: tuple[int, ...] = param(
        tuple(range(3, 15)),
        "ship cargo values",
        tag="M-01",
        values="A-B or a/b/c…",
        default_text="3-14",
        write=ships_value,
        read=lambda value: parse_ships(str(value)),
    )
    rounds: int = param(12, "rounds played", tag="M-02", minimum=1, maximum=100)
    characters: tuple[Character, ...] | None = param(
        None,
        "the characters expansion",
        tag="M-21",
        values="off|random|name/name/…",
        write=characters_value,
        read=lambda value: parse_characters(str(value)),
    )
    equipment: bool = param(False, "the equipment expansion", tag="M-26")
    share: str = param("deal", "how loot is shared", tag="M-09", choices=("deal", "even"))
    cargo: str = param("bank", "a defended ship's cargo", tag="M-14", choices=("bank", "defenders"))
    scrub: int = param(2, "deck scrubbing's silver", tag="M-11", minimum=0, maximum=20)
    useless_bonus: bool = param(False, "bonuses on a useless defence", tag="M-13")
    zheng_stake: bool = param(False, "Zheng He's bonus needs a stake", tag="M-23")
    hero: str = param(
        "ask",
        "the tragic hero may take a special card (ask) or always takes it (take)",
        tag="M-12",
        choices=("ask", "take"),
    )

    def __post_init__(self) -> None:
        if not 2 <= self.players <= MAX_PLAYERS:
            raise ParseError(f"players is 2 to {MAX_PLAYERS}, not {self.players}")
        if not 1 <= self.rounds <= len(self.ships):
            raise ParseError(f"rounds is 1 to the number of ships ({len(self.ships)})")
        if self.characters and len(self.characters) != self.players:
            raise ParseError(
                f"characters names {self.players} characters (one per seat),"
                f" not {len(self.characters)}"
            )
        if self.characters and len(set(self.characters)) != len(self.characters):
            raise ParseError("characters: each character is dealt at most once")
        if self.share not in ("deal", "even") or self.cargo not in ("bank", "defenders"):
            raise ParseError("share is deal or even; cargo is bank or defenders")
        if self.hero not in ("ask", "take"):
            raise ParseError(f"hero is ask or take, not {self.hero[:20]!r}")
        check_bounds(self, "malacca")

    @property
    def random_characters(self) -> bool:
        return self.characters == ()


_RANGE = re.compile(r"(\d{1,4})-(\d{1,4})\Z")


def parse_ships(text: str) -> tuple[int, ...]:
    """Ship cargo values [M-01]: a range ``A-B`` or values separated by ``/``."""
    raw = text.strip()
    match = _RANGE.match(raw)
    if match:
        low, high = int(match.group(1)), int(match.group(2))
        if high < low or high - low >= 100:
            raise ParseError(f"ships: a range A-B with A ≤ B and at most 100 ships, not {raw!r}")
        return tuple(range(low, high + 1))
    words = raw.split("/")
    if len(words) > 100 or not all(re.fullmatch(r"\d{1,4}", w.strip()) for w in words):
        raise ParseError(
            f"ships: a range like 3-14 or up to 100 values like 2/4/6, not {raw[:40]!r}"
        )
    return tuple(int(w) for w in words)


def parse_characters(text: str, players: int | None = None) -> tuple[Character, ...] | None:
    """``off`` → ``None``, ``random`` → ``()``, else one character per seat by name [M-21]
    (as many as ``players``, when given)."""
    word = text.strip().lower()
    if word in ("off", "none", "no", ""):
        return None
    if word in ("random", "on", "deal"):
        return ()
    names = tuple(Character.parse(w) for w in word.split("/"))
    if players is not None and len(names) != players:
        raise ParseError(f"characters names {players} characters (one per seat), not {len(names)}")
    return names


def rules_from_values(values: Mapping[str, object]) -> MalaccaRules:
    """The rules of registry parameter ``values`` (see :data:`~.engine.MALACCA_TYPE`)."""
    return rules_of(MalaccaRules, values)
