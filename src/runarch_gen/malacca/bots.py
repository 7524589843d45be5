"""Malacca's bots. They see a :class:`~.engine.MalaccaObservation` — the stakes on the table,
never another player's face-down card — and the legal actions.

- ``random``: any legal action, uniformly.
- ``morgan``: follows the rule book's "Captain Morgan's advice": trade with a big stake when the
  ship looks safe, attack rich ships and fat stakes, defend against the poor and the desperate,
  stake nothing on a last-seat attack or defence, bluff small stakes otherwise.
- ``reader``: models the others' likely roles from their stakes and the ship, samples what the
  players still to come might do, and best-responds over a few stakes and every card in hand
  (each scenario resolved by the real :func:`~.resolve.resolve_round`).

Both thinking bots choose a wait card's role by resolving the revealed table for each choice,
and take the special card a tragic hero is offered.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from runarch_gen.malacca.engine import ROLES, TAKE, MalaccaObservation
from runarch_gen.malacca.resolve import RoundInput, Seat, resolve_round
from runarch_gen.malacca.rules import (
    EQUIPMENT_COST,
    Card,
    Character,
    MalaccaRules,
    Role,
)
from runarch_gen.play.bot import Bot, BotFactory, RandomBot

__all__ = ["BOTS", "MorganBot", "RandomBot", "ReaderBot"]

SPECIAL_VALUE = 3
"""What a special card drawn is worth to the thinking bots, in silver."""

KEEP_ORDER = (Card.WAIT_AD, Card.TRADE2, Card.DEFENCE2, Card.WAIT_DT, Card.ATTACK2)


def _character(obs: MalaccaObservation, seat: int) -> Character | None:
    key = obs.characters[seat]
    return Character.parse(key) if key else None


def _seat(obs: MalaccaObservation, p: int, card: Card, stake: int, choice: Role | None) -> Seat:
    e = obs.equipment[p]
    return Seat(obs.money[p], card, stake, choice, _character(obs, p), e)


def best_wait_choice(obs: MalaccaObservation, legal_actions: Sequence[int]) -> int:
    """The wait choice that gains the most on the revealed table (undecided wait cards of
    others are taken as defence; a special card drawn counts :data:`SPECIAL_VALUE`)."""
    me = obs.player
    best, best_value = legal_actions[0], -(10**9)
    for action in legal_actions:
        seats = []
        for p in range(obs.players):
            card = Card(obs.laid[p] or 0)
            stake = obs.stakes[p] or 0
            if p == me:
                choice: Role | None = ROLES[action]
            elif card.role is None:
                made = obs.choices[p]
                choice = Role(made) if made else Role.DEFENCE
            else:
                choice = None
            seats.append(_seat(obs, p, card, stake, choice))
        result = resolve_round(RoundInput(obs.cargo or 0, obs.captain, tuple(seats)))
        value = result.seats[me].change + SPECIAL_VALUE * result.seats[me].cards
        if value > best_value:
            best, best_value = action, value
    return best


def hero_choice(legal_actions: Sequence[int]) -> int:
    """The tragic hero takes the special card [M-12]: a special card is worth
    :data:`SPECIAL_VALUE` silver, and a player may always lay a basic card instead."""
    return TAKE if TAKE in legal_actions else legal_actions[0]


def keep_choice(legal_actions: Sequence[int]) -> int:
    for card in KEEP_ORDER:
        if int(card) in legal_actions:
            return int(card)
    return legal_actions[0]


def buy_choice(obs: MalaccaObservation, legal: Sequence[int]) -> int:
    """Better trade early with money to spare, better defence earlier still, else pass."""
    left = obs.rounds - obs.round
    me = obs.player
    if left >= 6 and obs.money[me] >= EQUIPMENT_COST + 6 and 3 in legal:
        return 3  # better trade pays back after one good trade
    if left >= 8 and obs.money[me] >= EQUIPMENT_COST + 4 and 2 in legal:
        return 2
    return 0


def _play(card: Card, stake: int, legal: Sequence[int]) -> int:
    action = 8 * stake + int(card)
    return action if action in legal else legal[0]


class MorganBot(Bot[MalaccaObservation]):
    """Captain Morgan's advice as rules of thumb (see the module)."""

    name = "morgan"

    def step(self, observation: MalaccaObservation, legal_actions: Sequence[int]) -> int:
        obs = observation
        if obs.phase == "wait":
            return best_wait_choice(obs, legal_actions)
        if obs.phase == "keep":
            return keep_choice(legal_actions)
        if obs.phase == "buy":
            return buy_choice(obs, legal_actions)
        if obs.phase == "hero":
            return hero_choice(legal_actions)
        return self._lay(obs, legal_actions)

    def _lay(self, obs: MalaccaObservation, legal: Sequence[int]) -> int:
        me, rng = obs.player, self.rng
        money = obs.money[me]
        n = obs.players
        cargo = obs.cargo or 0
        ships = [*obs.ships_left, cargo]
        typical = sorted(ships)[len(ships) // 2]
        laid_before = [p for p in range(n) if p != me and obs.stakes[p] is not None]
        after = n - 1 - len(laid_before)
        table = sum(obs.stakes[p] or 0 for p in laid_before)
        zero_stakes = sum(1 for p in laid_before if obs.stakes[p] == 0)
        others = [obs.money[p] for p in range(n) if p != me]
        richest = money >= max(others)
        poorest = money <= min(others)
        attack = 0.25 + 0.04 * (cargo - typical) + 0.025 * table
        attack += 0.2 if poorest else 0.0
        attack -= 0.2 if richest else 0.0
        defence = 0.2 + 0.06 * zero_stakes + (0.15 if cargo > typical else 0.0)
        trade = 0.45 - 0.05 * zero_stakes + (0.15 if cargo < typical else 0.0)
        weights = [max(0.02, w) for w in (attack, defence, trade)]
        role = rng.choices(ROLES, weights)[0]
        hand = obs.hand
        if role is Role.TRADE:
            safe = zero_stakes <= 1 and cargo <= typical
            share = rng.uniform(0.6, 1.0) if safe else rng.uniform(0.2, 0.5)
            stake = int(money * share)
            card = Card.TRADE2 if hand[Card.TRADE2] and stake >= 4 else Card.TRADE
            if hand[Card.WAIT_DT] and not safe:
                card = Card.WAIT_DT
            return _play(card, stake, legal)
        # A stake on attack or defence only pretends to trade; the last seat has nobody to fool.
        stake = 0 if after == 0 or rng.random() < 0.6 else int(money * rng.uniform(0.0, 0.25))
        if role is Role.ATTACK:
            card = Card.ATTACK2 if hand[Card.ATTACK2] and cargo >= typical else Card.ATTACK
            if hand[Card.WAIT_AD] and card is Card.ATTACK:
                card = Card.WAIT_AD
            return _play(card, stake, legal)
        card = Card.DEFENCE2 if hand[Card.DEFENCE2] and cargo > typical else Card.DEFENCE
        return _play(card, stake, legal)


def _role_weights(stake: int, money: int, ship: float) -> list[float]:
    """How likely a player who staked ``stake`` of ``money`` attacks, defends, trades; ``ship``
    scales the attack (a rich ship tempts)."""
    if stake == 0:
        return [0.45 * ship, 0.4, 0.15]
    if stake * 2 >= money:
        return [0.2 * ship, 0.1, 0.7]
    return [0.3 * ship, 0.25, 0.45]


def _pick(weights: Sequence[float], u: float) -> Role:
    point = u * sum(weights)
    for role, w in zip(ROLES, weights, strict=True):
        point -= w
        if point < 0:
            return role
    return ROLES[-1]


_BASIC = {Role.ATTACK: Card.ATTACK, Role.DEFENCE: Card.DEFENCE, Role.TRADE: Card.TRADE}


class ReaderBot(Bot[MalaccaObservation]):
    """Reads the stakes, samples the others' roles, and best-responds (see the module).

    The model: a player who has laid is read from the stake (nothing staked: attack or
    defence; half the purse or more: most likely trade), a rich ship making attacks likelier;
    a player still to lay sees the stakes on the table, this bot's among them, and attacks the
    more the fatter they are. Each candidate (card × stake 0, ¼, ½, all) is scored on the same
    sampled scenarios by the expected logarithm of the money after the round (so an all-in
    stake must be very safe to be worth it), a special card drawn counting 3 silver.
    """

    name = "reader"
    samples = 24
    greed = 0.06
    """How much each silver on the table raises a later player's wish to attack."""

    def step(self, observation: MalaccaObservation, legal_actions: Sequence[int]) -> int:
        obs = observation
        if obs.phase == "wait":
            return best_wait_choice(obs, legal_actions)
        if obs.phase == "keep":
            return keep_choice(legal_actions)
        if obs.phase == "buy":
            return buy_choice(obs, legal_actions)
        if obs.phase == "hero":
            return hero_choice(legal_actions)
        return self._lay(obs, legal_actions)

    def _roles(
        self, obs: MalaccaObservation, draws: list[list[float]], my_stake: int
    ) -> list[list[tuple[Role, int]]]:
        me, cargo = obs.player, obs.cargo or 0
        ships = [*obs.ships_left, cargo]
        ship = max(0.3, 1 + (cargo - sum(ships) / len(ships)) / 10)
        table = my_stake + sum(s for s in obs.stakes if s is not None)
        later = [0.3 * ship * (1 + self.greed * table), 0.3, 0.4]
        out = []
        for row in draws:
            roles: list[tuple[Role, int]] = []
            for p in range(obs.players):
                stake = obs.stakes[p]
                if p == me:
                    roles.append((Role.TRADE, 0))
                elif stake is not None:
                    roles.append((_pick(_role_weights(stake, obs.money[p], ship), row[p]), stake))
                else:
                    role = _pick(later, row[p])
                    roles.append((role, obs.money[p] // 2 if role is Role.TRADE else 0))
            out.append(roles)
        return out

    def _lay(self, obs: MalaccaObservation, legal: Sequence[int]) -> int:
        me = obs.player
        money = obs.money[me]
        draws = [[self.rng.random() for _ in range(obs.players)] for _ in range(self.samples)]
        stakes = sorted({0, money // 4, money // 2, money})
        cards = [Card(c) for c in range(8) if c < 3 or obs.hand[c]]
        rules = MalaccaRules(players=obs.players)
        best, best_value = legal[0], -1e18
        for stake in stakes:
            scenarios = self._roles(obs, draws, stake)
            for card in cards:
                action = 8 * stake + int(card)
                if action not in legal:
                    continue
                total = 0.0
                for row in scenarios:
                    seats = [
                        _seat(obs, p, _BASIC[role], stake_p, None)
                        for p, (role, stake_p) in enumerate(row)
                    ]
                    value = -1e18
                    for choice in card.choices:
                        seats[me] = _seat(
                            obs, me, card, stake, choice if card.role is None else None
                        )
                        result = resolve_round(
                            RoundInput(obs.cargo or 0, obs.captain, tuple(seats), rules)
                        )
                        mine = result.seats[me]
                        after = money + mine.change + SPECIAL_VALUE * mine.cards
                        value = max(value, math.log1p(after))
                    total += value
                # Spending a special card costs what it is worth.
                spent = math.log1p(money + SPECIAL_VALUE) - math.log1p(money)
                score = total / len(scenarios) - (spent if card.is_special else 0.0)
                if score > best_value + 1e-12:
                    best, best_value = action, score
        return best


BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "morgan": MorganBot,
    "reader": ReaderBot,
}
