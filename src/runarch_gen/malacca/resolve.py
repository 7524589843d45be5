"""One round's resolution (rules §3.4–3.8): a pure function of the laid cards, the stakes and
the players' money, characters and equipment — used by the engine and by ``malacca resolve``.

>>> from runarch_gen.malacca.rules import Card, Role
>>> plays = [Seat(5, Card.ATTACK, 2), Seat(5, Card.TRADE, 4), Seat(5, Card.DEFENCE, 1),
...          Seat(5, Card.ATTACK, 0)]
>>> result = resolve_round(RoundInput(cargo=7, captain=0, seats=tuple(plays)))
>>> result.captured, [r.change for r in result.seats]
(True, [6, -4, -1, 6])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from runarch_gen.errors import InputError
from runarch_gen.malacca.rules import (
    CHARACTER_BONUS,
    EQUIPMENT_COUNT,
    SPECIAL_DECK,
    Card,
    Character,
    Equipment,
    MalaccaRules,
    Role,
)

__all__ = [
    "TRAGIC_HERO",
    "RoundInput",
    "RoundResult",
    "Seat",
    "SeatResult",
    "deal_out",
    "resolve_round",
]

TRAGIC_HERO = "tragic hero"
"""The reason of a special card a lone defender may take on a captured ship [M-12]."""

PARTS = ("stake", "loot", "payout", "share", "penalty", "scrub", "character", "equipment")
"""The parts of a seat's change of money, in the order reports print them."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One player in a round: money before the round (stake included), the card laid, the
    stake, the wait card's choice (``None`` for other cards), character and equipment counts
    (attack, defence, trade)."""

    money: int
    card: Card
    stake: int = 0
    choice: Role | None = None
    character: Character | None = None
    equipment: tuple[int, int, int] = (0, 0, 0)

    @property
    def role(self) -> Role:
        role = self.card.role
        if role is not None:
            return role
        assert self.choice is not None, "a wait card needs its choice"
        return self.choice


@dataclass(frozen=True, slots=True)
class RoundInput:
    """A round to resolve: the ship's cargo, the captain's seat and every seat's play."""

    cargo: int
    captain: int
    seats: tuple[Seat, ...]
    rules: MalaccaRules = field(default_factory=MalaccaRules)

    def check(self) -> None:
        """Raise :class:`InputError` for a round that cannot happen."""
        n = len(self.seats)
        if not 2 <= n <= 8:
            raise InputError(f"a round has 2 to 8 players, not {n}")
        if not 0 <= self.captain < n:
            raise InputError(f"the captain is a seat 0 to {n - 1}, not {self.captain}")
        if self.cargo < 0:
            raise InputError("the cargo is not negative")
        for index, seat in enumerate(self.seats):
            if seat.money < 0 or not 0 <= seat.stake <= seat.money:
                raise InputError(f"seat {index}: the stake is 0 to the money ({seat.money})")
            if seat.card.role is None:
                if seat.choice not in seat.card.choices:
                    allowed = " or ".join(r.value for r in seat.card.choices)
                    raise InputError(f"seat {index}: {seat.card.label} chooses {allowed}")
            elif seat.choice not in (None, seat.card.role):
                raise InputError(f"seat {index}: only a wait card takes a choice")
            if any(c < 0 for c in seat.equipment):
                raise InputError(f"seat {index}: equipment counts are not negative")
        self.check_components()

    def check_components(self) -> None:
        """Raise :class:`InputError` for a table the seed's components cannot make [M-27]:
        more special cards of a kind on the table than the deck holds (4 attack +2, 4 defence
        +2, 4 trade ×2, 2 of each wait card), more equipment of a kind than its 4 cards, or a
        character at two seats."""
        laid = Counter(seat.card for seat in self.seats if seat.card.is_special)
        for card, count in laid.items():
            if count > SPECIAL_DECK[card]:
                raise InputError(
                    f"{count} {card.label} cards on the table: the special deck has"
                    f" {SPECIAL_DECK[card]}"
                )
        for kind in Equipment:
            owned = sum(seat.equipment[kind] for seat in self.seats)
            if owned > EQUIPMENT_COUNT:
                raise InputError(
                    f"{owned} better {kind.label} equipment cards at the table: there are"
                    f" {EQUIPMENT_COUNT}"
                )
        characters = [seat.character for seat in self.seats if seat.character is not None]
        if len(set(characters)) != len(characters):
            raise InputError("players: each character is at most one player's")


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's outcome: each part of the change of money (signed), whether the stake came
    back, and how many special cards the seat draws (and why)."""

    role: Role
    parts: tuple[tuple[str, int], ...]
    stake_back: bool
    cards: int = 0
    reason: str = ""

    @property
    def change(self) -> int:
        return sum(value for _, value in self.parts)

    def part(self, name: str) -> int:
        return sum(value for key, value in self.parts if key == name)


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The round resolved: captured or not, the strengths, every seat's result, and the money
    that came from the ship and the bank and went to the bank (so that
    ``sum(changes) == from_ship + from_bank - to_bank``)."""

    captured: bool
    attack: int
    defence: int
    useless: bool
    seats: tuple[SeatResult, ...]
    from_ship: int
    from_bank: int
    to_bank: int

    @property
    def changes(self) -> tuple[int, ...]:
        return tuple(seat.change for seat in self.seats)


def clockwise(captain: int, players: int) -> list[int]:
    """The seats in order from the captain [M-06]."""
    return [(captain + i) % players for i in range(players)]


def deal_out(amount: int, receivers: Sequence[int], mode: str = "deal") -> tuple[list[int], int]:
    """Deal ``amount`` silver to ``receivers`` (already in order from the captain) one at a time
    [M-09]; with ``mode='even'`` each gets the whole share and the rest is returned. Returns
    each receiver's share and what is left over.

    >>> deal_out(8, [0, 1, 3])
    ([3, 3, 2], 0)
    >>> deal_out(8, [0, 1, 3], "even")
    ([2, 2, 2], 2)
    """
    k = len(receivers)
    if k == 0:
        return [], amount
    each, rest = divmod(amount, k)
    if mode == "even":
        return [each] * k, rest
    return [each + (1 if i < rest else 0) for i in range(k)], 0


def resolve_round(round_: RoundInput) -> RoundResult:
    """Resolve one round by rules §3.4–3.8 and §7–8 (see the module's example)."""
    round_.check()
    rules = round_.rules
    seats = round_.seats
    n = len(seats)
    order = clockwise(round_.captain, n)
    roles = [s.role for s in seats]
    attackers = [p for p in order if roles[p] is Role.ATTACK]
    defenders = [p for p in order if roles[p] is Role.DEFENCE]
    traders = [p for p in order if roles[p] is Role.TRADE]
    attack = sum(seats[p].card.strength for p in attackers)
    defence = sum(seats[p].card.strength for p in defenders)
    captured = attack > defence  # [M-08]: equal is defended
    nobody_attacked = not attackers
    useless = nobody_attacked and bool(defenders)  # [M-13]: someone defended, in vain
    parts: list[dict[str, int]] = [dict.fromkeys(PARTS, 0) for _ in range(n)]
    back = [False] * n
    cards = [0] * n
    reasons = [""] * n
    from_ship = from_bank = to_bank = 0

    def bonus(p: int, part: str, amount: int) -> None:
        nonlocal from_bank
        parts[p][part] += amount
        from_bank += amount

    if captured:
        loot = round_.cargo
        for p in defenders + traders:
            parts[p]["stake"] -= seats[p].stake
            loot += seats[p].stake
        shares, rest = deal_out(loot, attackers, rules.share)  # [M-09]
        for p, amount in zip(attackers, shares, strict=True):
            parts[p]["loot"] += amount
            back[p] = True
        from_ship = round_.cargo
        to_bank += rest  # only with share=even: the indivisible rest
        for p in attackers:
            if seats[p].character is Character.INGRID:
                bonus(p, "character", CHARACTER_BONUS)
            if seats[p].equipment[Equipment.ATTACK]:
                bonus(p, "equipment", Equipment.ATTACK.bonus * seats[p].equipment[Equipment.ATTACK])
        if len(defenders) == 1 and len(attackers) == n - 1:  # [M-12] tragic hero
            cards[defenders[0]] = 1  # the card the hero may take (the engine asks)
            reasons[defenders[0]] = TRAGIC_HERO
    else:
        for p in traders:
            seat = seats[p]
            back[p] = True
            bonus(p, "payout", seat.stake * seat.card.multiplier)
            if seat.money == 0:  # [M-11] deck scrubbing
                bonus(p, "scrub", rules.scrub)
            if seat.stake > 0 and seat.equipment[Equipment.TRADE]:
                bonus(p, "equipment", Equipment.TRADE.bonus * seat.equipment[Equipment.TRADE])
            if seat.character is Character.ZHENG and (seat.stake > 0 or not rules.zheng_stake):
                bonus(p, "character", CHARACTER_BONUS)  # [M-23]
        pool = 0
        for p in attackers:
            seat = seats[p]
            parts[p]["stake"] -= seat.stake
            pool += seat.stake
            penalty = (seat.money - seat.stake) // 2  # [M-10]
            parts[p]["penalty"] -= penalty
            to_bank += penalty
        for p in defenders:
            back[p] = True
        if not nobody_attacked:
            shares, rest = deal_out(pool, defenders, rules.share)  # [M-15]
            to_bank += rest
            for p, amount in zip(defenders, shares, strict=True):
                parts[p]["share"] += amount
                cards[p] = 1
                reasons[p] = "defence"
            if rules.cargo == "defenders":  # [M-14] option
                cargo_shares, cargo_rest = deal_out(round_.cargo, defenders, rules.share)
                for p, amount in zip(defenders, cargo_shares, strict=True):
                    parts[p]["loot"] += amount
                from_ship = round_.cargo
                to_bank += cargo_rest
        if not nobody_attacked or rules.useless_bonus:
            for p in defenders:
                seat = seats[p]
                if seat.character is Character.MORGAN:
                    bonus(p, "character", CHARACTER_BONUS)
                if seat.equipment[Equipment.DEFENCE]:
                    count = seat.equipment[Equipment.DEFENCE]
                    bonus(p, "equipment", Equipment.DEFENCE.bonus * count)
    if len(set(roles)) == 1:  # [M-22] Black Caesar: everyone's role is the same
        for p in order:
            if seats[p].character is Character.CAESAR:
                bonus(p, "character", n)
    for p in order:  # [M-21] Pierre: at the end of every round
        if seats[p].character is Character.PICARD:
            bonus(p, "character", 1)
    results = tuple(
        SeatResult(
            roles[p],
            tuple((name, parts[p][name]) for name in PARTS if parts[p][name]),
            back[p],
            cards[p],
            reasons[p],
        )
        for p in range(n)
    )
    return RoundResult(captured, attack, defence, useless, results, from_ship, from_bank, to_bank)
