"""An independent referee for Malacca's rounds, compared with the engine on generated rounds.

The referee shares no code with the engine: it plays the round out on a physical table —
purses, stakes on cards, a ship's pile, the bank — moving coins one at a time in the order the
rule book gives, with its own reading of the cards. Hypothesis builds rounds of 2–8 players
with every card, character, equipment and option.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.malacca.resolve import RoundInput, Seat, resolve_round
from runarch_gen.malacca.rules import Card, Character, MalaccaRules, Role

# The referee's own reading of the cards: (role or None for wait, strength, multiplier).
CARD_TEXT = {
    "attack": ("a", 1, 1),
    "defence": ("d", 1, 1),
    "trade": ("t", 1, 1),
    "attack2": ("a", 2, 1),
    "defence2": ("d", 2, 1),
    "trade2": ("t", 1, 2),
    "wait-ad": (None, 1, 1),
    "wait-dt": (None, 1, 1),
}
START = {"morgan", "picard", "orgonez", "caesar", "zheng", "sayyida", "laskarina", "ingrid"}


@dataclass
class Table:
    purses: list[int]
    on_cards: list[int]
    ship: int
    bank_out: int = 0
    bank_in: int = 0
    cards: list[int] = field(default_factory=list)


def referee(
    cargo: int,
    captain: int,
    players: list[dict[str, object]],
    share: str,
    cargo_rule: str,
    scrub: int,
    useless_bonus: bool,
    zheng_stake: bool,
) -> tuple[list[int], list[int]]:
    """Each player's change of money and special cards, coin by coin."""
    n = len(players)
    money = [int(str(p["money"])) for p in players]
    stakes = [int(str(p["stake"])) for p in players]
    t = Table([m - s for m, s in zip(money, stakes, strict=True)], stakes[:], cargo)
    t.cards = [0] * n
    role, strength, mult = [], [], []
    for p in players:
        r, k, m = CARD_TEXT[str(p["card"])]
        role.append(r if r is not None else str(p["choice"])[0])
        strength.append(k)
        mult.append(m)
    who = [str(p["who"]) for p in players]
    eq = [p["eq"] for p in players]
    seats_from_captain = [(captain + i) % n for i in range(n)]
    attack = sum(strength[i] for i in range(n) if role[i] == "a")
    defence = sum(strength[i] for i in range(n) if role[i] == "d")
    someone_attacked = "a" in role

    def bank_pays(i: int, amount: int) -> None:
        t.purses[i] += amount
        t.bank_out += amount

    def deal(pile: list[int], to: list[int]) -> None:
        # one coin at a time, round and round; with "even", only whole rounds
        while pile[0] > 0 and to:
            if share == "even" and pile[0] < len(to):
                t.bank_in += pile[0]
                pile[0] = 0
                break
            for i in to:
                if pile[0] == 0:
                    break
                pile[0] -= 1
                t.purses[i] += 1

    if attack > defence:
        pile = [t.ship]
        t.ship = 0
        for i in range(n):
            if role[i] != "a":
                pile[0] += t.on_cards[i]
                t.on_cards[i] = 0
        for i in range(n):
            if role[i] == "a":
                t.purses[i] += t.on_cards[i]
                t.on_cards[i] = 0
        deal(pile, [i for i in seats_from_captain if role[i] == "a"])
        for i in range(n):
            if role[i] == "a":
                if who[i] == "ingrid":
                    bank_pays(i, 3)
                bank_pays(i, 3 * eq[i][0])  # type: ignore[index]
        defenders = [i for i in range(n) if role[i] == "d"]
        if len(defenders) == 1 and role.count("a") == n - 1:
            t.cards[defenders[0]] += 1
    else:
        pile = [0]
        for i in range(n):
            if role[i] == "a":
                pile[0] += t.on_cards[i]
                t.on_cards[i] = 0
                half = t.purses[i] // 2
                t.purses[i] -= half
                t.bank_in += half
        for i in range(n):
            if role[i] == "t":
                bank_pays(i, t.on_cards[i] * mult[i])
                if money[i] == 0:
                    bank_pays(i, scrub)
                if t.on_cards[i] > 0:
                    bank_pays(i, 5 * eq[i][2])  # type: ignore[index]
                if who[i] == "zheng" and (t.on_cards[i] > 0 or not zheng_stake):
                    bank_pays(i, 3)
            if role[i] in "td":
                t.purses[i] += t.on_cards[i]
                t.on_cards[i] = 0
        defenders = [i for i in seats_from_captain if role[i] == "d"]
        if someone_attacked:
            deal(pile, defenders)
            for i in defenders:
                t.cards[i] += 1
            if cargo_rule == "defenders":
                ship = [t.ship]
                deal(ship, defenders)
                t.ship = ship[0]
        if someone_attacked or useless_bonus:
            for i in defenders:
                if who[i] == "morgan":
                    bank_pays(i, 3)
                bank_pays(i, 4 * eq[i][1])  # type: ignore[index]
    if len(set(role)) == 1:
        for i in range(n):
            if who[i] == "caesar":
                bank_pays(i, n)
    for i in range(n):
        if who[i] == "picard":
            bank_pays(i, 1)
    assert sum(t.on_cards) == 0
    return [t.purses[i] - money[i] for i in range(n)], t.cards


@st.composite
def rounds(draw: st.DrawFn) -> tuple[int, int, list[dict[str, object]], dict[str, object]]:
    n = draw(st.integers(2, 8))
    names = draw(st.permutations(sorted(START)))
    with_characters = draw(st.booleans())
    players = []
    # the seed's deck: at most 4 of each +2/×2 card and 2 of each wait card on the table, and
    # 4 cards of each kind of equipment at the table
    specials = {"attack2": 4, "defence2": 4, "trade2": 4, "wait-ad": 2, "wait-dt": 2}
    equipment_left = [4, 4, 4]
    for i in range(n):
        card = draw(st.sampled_from(sorted(c for c in CARD_TEXT if specials.get(c, 1) > 0)))
        if card in specials:
            specials[card] -= 1
        owned = tuple(draw(st.integers(0, min(2, equipment_left[k]))) for k in range(3))
        equipment_left = [left - o for left, o in zip(equipment_left, owned, strict=True)]
        money = draw(st.sampled_from([0, 1, 2, 5, 9, 30]) | st.integers(0, 60))
        stake = draw(st.integers(0, money))
        choice = ""
        if card == "wait-ad":
            choice = draw(st.sampled_from(["attack", "defence"]))
        elif card == "wait-dt":
            choice = draw(st.sampled_from(["defence", "trade"]))
        players.append(
            {
                "card": card,
                "money": money,
                "stake": stake,
                "choice": choice,
                "who": names[i] if with_characters else "",
                "eq": owned,
            }
        )
    options = {
        "share": draw(st.sampled_from(["deal", "even"])),
        "cargo_rule": draw(st.sampled_from(["bank", "defenders"])),
        "scrub": draw(st.integers(0, 4)),
        "useless_bonus": draw(st.booleans()),
        "zheng_stake": draw(st.booleans()),
    }
    return draw(st.integers(0, 20)), draw(st.integers(0, n - 1)), players, options


def _engine(
    cargo: int, captain: int, players: list[dict[str, object]], options: dict[str, object]
) -> tuple[list[int], list[int], int]:
    seats = tuple(
        Seat(
            int(str(p["money"])),
            Card.parse(str(p["card"])),
            int(str(p["stake"])),
            Role(str(p["choice"])) if p["choice"] else None,
            Character.parse(str(p["who"])) if p["who"] else None,
            p["eq"],  # type: ignore[arg-type]
        )
        for p in players
    )
    rules = MalaccaRules(
        players=len(players),
        share=str(options["share"]),
        cargo=str(options["cargo_rule"]),
        scrub=int(str(options["scrub"])),
        useless_bonus=bool(options["useless_bonus"]),
        zheng_stake=bool(options["zheng_stake"]),
    )
    result = resolve_round(RoundInput(cargo, captain, seats, rules))
    assert sum(result.changes) == result.from_ship + result.from_bank - result.to_bank
    return list(result.changes), [x.cards for x in result.seats], result.to_bank


@settings(max_examples=250, deadline=None)
@given(rounds())
def test_the_engine_agrees_with_the_coin_by_coin_referee(
    case: tuple[int, int, list[dict[str, object]], dict[str, object]],
) -> None:
    cargo, captain, players, options = case
    changes, cards, _ = _engine(cargo, captain, players, options)
    expected = referee(cargo, captain, players, **options)  # type: ignore[arg-type]
    assert (changes, cards) == (list(expected[0]), list(expected[1]))


@settings(max_examples=100, deadline=None)
@given(rounds())
def test_nobody_loses_more_than_they_have(
    case: tuple[int, int, list[dict[str, object]], dict[str, object]],
) -> None:
    cargo, captain, players, options = case
    changes, _, _ = _engine(cargo, captain, players, options)
    for p, change in zip(players, changes, strict=True):
        assert int(str(p["money"])) + change >= 0
