"""Malacca on the family core: :class:`MalaccaGame` (rules, components) and :class:`MalaccaState`.

Chance is explicit (the captain's lot, the characters' deal, each ship turned up, each special
card drawn from the shuffled part of the deck), so a record is the parameters and the actions.
The simultaneous bet is played as sequential hidden commits: from the captain on, each player
lays a card (hidden from the others' observations until the reveal) and an open stake.

Actions by phase:

- ``buy``: 0 pass, 1 + :class:`~.rules.Equipment` — ``pass``, ``buy attack`` …
- ``play``: ``8 × stake + card`` — ``trade 4``, ``attack2 0`` …
- ``wait``: 0 attack, 1 defence, 2 trade — ``choose defence``;
- ``keep`` (Sayyida): the card kept — ``keep trade2``;
- ``hero`` (the tragic hero, [M-12]): 0 ``decline``, 1 ``take`` a special card;
- chance: ``captain p2``, ``deal zheng``, ``ship 7``, ``draw defence2``.

>>> game = MalaccaGame(MalaccaRules(players=3))
>>> state = game.new_initial_state()
>>> for text in ("captain p2", "ship 9"):
...     _ = state.apply_text(text)
>>> state.current_player(), state.action_to_string(8 * 3 + 2)
(1, 'trade 3')
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Self, overload

from runarch_gen.errors import ParseError
from runarch_gen.malacca.resolve import (
    TRAGIC_HERO,
    RoundInput,
    RoundResult,
    Seat,
    clockwise,
    resolve_round,
)
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
from runarch_gen.play.game import (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    ChanceMode,
    Game,
    GameInfo,
    IllegalActionError,
    Information,
    Outcome,
    Score,
    State,
    Termination,
)
from runarch_gen.play.parameters import parameters_of
from runarch_gen.play.registry import GameType

__all__ = [
    "MALACCA_TYPE",
    "MalaccaEnd",
    "MalaccaGame",
    "MalaccaObservation",
    "MalaccaState",
    "MalformedActionError",
    "Phase",
]

CARDS = 8
ROLES = (Role.ATTACK, Role.DEFENCE, Role.TRADE)
PASS = 0
DECLINE, TAKE = 0, 1
"""The tragic hero's decision [M-12]."""
PUBLIC = -1
"""A card at the bottom of the special deck that everyone saw go there."""


class MalformedActionError(ParseError):
    """A text that is not an action of the phase's grammar (``trade five``, ``captain p1``
    while laying cards)."""


class PlayActions(Sequence[int]):
    """The play phase's legal actions, ``8 × stake + card`` for every stake 0 … ``money`` and
    every card held, in ascending order — without building the list (a rich player has
    hundreds). Membership and indexing take constant time.

    >>> actions = PlayActions((0, 1, 2, 5), 2)
    >>> len(actions), list(actions)[:5], 8 * 2 + 5 in actions, 8 * 3 in actions
    (12, [0, 1, 2, 5, 8], True, False)
    """

    __slots__ = ("_cards", "_money", "_set")

    def __init__(self, cards: tuple[int, ...], money: int) -> None:
        self._cards, self._money = cards, money
        self._set = frozenset(cards)

    def __len__(self) -> int:
        return len(self._cards) * (self._money + 1)

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[int]: ...
    def __getitem__(self, index: int | slice) -> int | Sequence[int]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        stake, which = divmod(index, len(self._cards))
        return 8 * stake + self._cards[which]

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, int) or action < 0:
            return False
        stake, card = divmod(action, 8)
        return stake <= self._money and card in self._set

    def __iter__(self) -> Iterator[int]:
        cards = self._cards
        for stake in range(self._money + 1):
            base = 8 * stake
            for card in cards:
                yield base + card

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PlayActions):
            return (self._cards, self._money) == (other._cards, other._money)
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"PlayActions({self._cards}, {self._money})"


class Phase(enum.Enum):
    CAPTAIN = "captain"
    CHARACTER = "character"
    BUY = "buy"
    SHIP = "ship"
    PLAY = "play"
    WAIT = "wait"
    DRAW = "draw"
    KEEP = "keep"
    HERO = "hero"
    OVER = "over"


class MalaccaEnd(Termination):
    LAST_SHIP = "last ship"


MALACCA_TYPE = GameType(
    short_name="malacca",
    long_name="Malacca",
    czech_name="Malacca",
    min_players=2,
    max_players=8,
    chance_mode=ChanceMode.EXPLICIT,
    information=Information.IMPERFECT,
    parameters=parameters_of(MalaccaRules),
    rules=MalaccaRules,
)


@dataclass(frozen=True, slots=True)
class MalaccaObservation:
    """What one player sees [M-20]. ``laid`` is each seat's card as this player knows it
    (``-1``: face down and not theirs, ``None``: not laid yet); ``bottom`` the cards under the
    special deck in order (``-1`` where this player does not know the card)."""

    player: int
    players: int
    phase: str
    round: int
    rounds: int
    captain: int
    to_act: int
    cargo: int | None
    ships_left: tuple[int, ...]
    money: tuple[int, ...]
    stakes: tuple[int | None, ...]
    laid: tuple[int | None, ...]
    choices: tuple[str | None, ...]
    specials: tuple[int, ...]
    hand: tuple[int, ...]
    characters: tuple[str, ...]
    equipment: tuple[tuple[int, int, int], ...]
    equipment_left: tuple[int, int, int]
    deck: int
    bottom: tuple[int, ...]
    looking: tuple[int, ...]
    captured: tuple[bool, ...]


class MalaccaGame(Game["MalaccaState"]):
    """The rules of one Malacca game; makes states."""

    rules: MalaccaRules
    game_type = MALACCA_TYPE
    length_unit = "rounds"

    def __init__(self, rules: MalaccaRules | None = None) -> None:
        self.rules = rules or MalaccaRules()

    @property
    def info(self) -> GameInfo:
        n, rounds = self.rules.players, self.rules.rounds
        return GameInfo(n, 3 + n + rounds * (5 * n + 3))

    def new_initial_state(self, rng: random.Random | None = None) -> MalaccaState:
        return MalaccaState(self)


class MalaccaState(State[MalaccaObservation]):
    """A position of Malacca. Seats are 0-based; clockwise is increasing seat number."""

    __slots__ = (
        "_legal",
        "bottom",
        "captain",
        "captured",
        "cargo",
        "characters",
        "choices",
        "deck",
        "equipment",
        "equipment_cards",
        "equipment_left",
        "game",
        "hands",
        "hero",
        "in_setup",
        "laid",
        "last_round",
        "looking",
        "money",
        "pending",
        "phase",
        "played",
        "revealed",
        "round",
        "rules",
        "ships_left",
        "stakes",
        "turn",
    )

    def __init__(self, game: MalaccaGame) -> None:
        super().__init__()
        rules = game.rules
        n = rules.players
        self.game = game
        self.rules = rules
        self.phase = Phase.CAPTAIN
        self.round = 0
        self.captain = 0
        self.turn = 0
        self.money = [STARTING_MONEY] * n
        self.characters: list[Character | None] = [None] * n
        if rules.characters:
            self.characters = list(rules.characters)
        self.equipment = [[0, 0, 0] for _ in range(n)]
        self.equipment_left = [EQUIPMENT_COUNT] * 3 if rules.equipment else [0, 0, 0]
        self.hands = [[0] * CARDS for _ in range(n)]
        self.deck = [SPECIAL_DECK.get(Card(c), 0) for c in range(CARDS)]
        self.bottom: list[tuple[int, int]] = []
        self.ships_left = sorted(rules.ships)
        self.cargo: int | None = None
        self.laid: list[int | None] = [None] * n
        self.stakes: list[int | None] = [None] * n
        self.choices: list[Role | None] = [None] * n
        self.revealed = False
        self.pending: list[tuple[int, int]] = []
        self.looking: list[int] = []
        self.in_setup = True
        self.captured: list[bool] = []
        self.hero: int | None = None
        self.played: list[int] = [0] * CARDS
        self.equipment_cards: list[list[int]] = []  # [seat, kind, round bought, earned]
        self.last_round: tuple[int, RoundInput, RoundResult] | None = None
        self._legal: Sequence[int] | None = None

    # -- whose turn ---------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.rules.players

    def _seat(self) -> int:
        return (self.captain + self.turn) % self.players

    def current_player(self) -> int:
        phase = self.phase
        if phase is Phase.OVER:
            return TERMINAL_PLAYER
        if phase in (Phase.CAPTAIN, Phase.CHARACTER, Phase.SHIP, Phase.DRAW):
            return CHANCE_PLAYER
        if phase is Phase.KEEP:
            return self.pending[0][0]
        if phase is Phase.HERO:
            assert self.hero is not None
            return self.hero
        return self._seat()

    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    def chance_outcomes(self) -> Sequence[tuple[int, float]]:
        phase = self.phase
        if phase is Phase.CAPTAIN:
            return tuple((p, 1 / self.players) for p in range(self.players))
        if phase is Phase.CHARACTER:
            left = self._characters_left()
            return tuple((c, 1 / len(left)) for c in left)
        if phase is Phase.SHIP:
            counts = Counter(self.ships_left)
            total = len(self.ships_left)
            return tuple((v, counts[v] / total) for v in sorted(counts))
        if phase is Phase.DRAW:
            total = sum(self.deck)
            return tuple((c, self.deck[c] / total) for c in range(CARDS) if self.deck[c])
        return ()

    def _characters_left(self) -> list[int]:
        dealt = {c for c in self.characters if c is not None}
        return [int(c) for c in Character if c not in dealt]

    # -- legal actions ------------------------------------------------------------------------

    def legal_actions(self) -> Sequence[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> Sequence[int]:
        phase = self.phase
        if phase is Phase.OVER:
            return ()
        if self.current_player() == CHANCE_PLAYER:
            return tuple(a for a, _ in self.chance_outcomes())
        player = self.current_player()
        if phase is Phase.BUY:
            return (PASS, *(1 + k for k in range(3) if self._can_buy(player, k)))
        if phase is Phase.PLAY:
            return PlayActions(self.cards_in_hand(player), self.money[player])
        if phase is Phase.WAIT:
            card = Card(self._laid(player))
            return tuple(ROLES.index(r) for r in card.choices)
        if phase is Phase.HERO:
            return (DECLINE, TAKE)
        return tuple(sorted(set(self.looking)))  # KEEP

    def cards_in_hand(self, player: int) -> tuple[int, ...]:
        """The cards ``player`` may lay: the three basics and every special card held."""
        hand = self.hands[player]
        return (0, 1, 2, *(c for c in range(3, CARDS) if hand[c]))

    def _can_buy(self, player: int, kind: int) -> bool:
        return self.equipment_left[kind] > 0 and self.money[player] >= EQUIPMENT_COST

    def _laid(self, player: int) -> int:
        card = self.laid[player]
        assert card is not None
        return card

    def _is_legal(self, action: int) -> bool:
        phase = self.phase
        if phase is Phase.PLAY:
            if action < 0:
                return False
            stake, card = divmod(action, 8)
            player = self._seat()
            return stake <= self.money[player] and card in self.cards_in_hand(player)
        return action in self.legal_actions()

    # -- playing ------------------------------------------------------------------------------

    def _apply(self, action: int) -> None:
        if self.phase is Phase.OVER:
            raise IllegalActionError(str(action), "the game is over")
        if not self._is_legal(action):
            raise IllegalActionError(str(action), f"not legal in the {self.phase.value} phase")
        self._legal = None
        phase = self.phase
        if phase is Phase.CAPTAIN:
            self.captain = action
            if self.rules.random_characters:
                self.phase, self.turn = Phase.CHARACTER, 0
            else:
                self._finish_setup()
        elif phase is Phase.CHARACTER:
            self.characters[self._seat()] = Character(action)
            self.turn += 1
            if self.turn == self.players:
                self._finish_setup()
        elif phase is Phase.BUY:
            if action != PASS:
                player = self._seat()
                kind = action - 1
                self.money[player] -= EQUIPMENT_COST
                self.equipment[player][kind] += 1
                self.equipment_left[kind] -= 1
                self.equipment_cards.append([player, kind, self.round, 0])
            self.turn += 1
            self._next_buyer()
        elif phase is Phase.SHIP:
            self.ships_left.remove(action)
            self.cargo = action
            self.phase, self.turn = Phase.PLAY, 0
        elif phase is Phase.PLAY:
            player = self._seat()
            stake, card = divmod(action, 8)
            self.laid[player], self.stakes[player] = card, stake
            if card >= 3:
                self.hands[player][card] -= 1
            self.turn += 1
            if self.turn == self.players:
                self.revealed = True
                self.phase, self.turn = Phase.WAIT, 0
                self._next_waiter()
        elif phase is Phase.WAIT:
            self.choices[self._seat()] = ROLES[action]
            self.turn += 1
            self._next_waiter()
        elif phase is Phase.DRAW:
            self.deck[action] -= 1
            self.looking.append(action)
            self._draw()
        elif phase is Phase.KEEP:
            seat = self.pending[0][0]
            self.looking.remove(action)
            self.hands[seat][action] += 1
            self.bottom.extend((c, seat) for c in self.looking)  # [M-24] only she knows it
            self.looking = []
            self.pending.pop(0)
            self._draw()
        elif phase is Phase.HERO:
            if action == DECLINE:
                self.pending = [e for e in self.pending if e[0] != self.hero]
            self.hero = None
            self._draw()

    def _finish_setup(self) -> None:
        n = self.players
        for p, character in enumerate(self.characters):
            if character is not None:
                self.money[p] = character.starting_money(n)
        self.pending = [
            (p, self._looks(p))
            for p in clockwise(self.captain, n)
            if self.characters[p] is Character.LASKARINA  # [M-25]
        ]
        self.phase = Phase.DRAW
        self._draw()

    def _looks(self, player: int) -> int:
        return 2 if self.characters[player] is Character.SAYYIDA else 1

    def _start_round(self) -> None:
        self.cargo = None
        self.turn = 0
        if self.rules.equipment:
            self.phase = Phase.BUY
            self._next_buyer()
        else:
            self.phase = Phase.SHIP

    def _next_buyer(self) -> None:
        # Players who cannot buy anything are skipped, not asked to pass [M-26].
        while self.turn < self.players:
            seat = self._seat()
            if any(self._can_buy(seat, k) for k in range(3)):
                return
            self.turn += 1
        self.phase, self.turn = Phase.SHIP, 0

    def _next_waiter(self) -> None:
        while self.turn < self.players:  # [M-08]
            if Card(self._laid(self._seat())).role is None:
                return
            self.turn += 1
        self._resolve()

    def round_input(self) -> RoundInput:
        """The round on the table as :func:`~.resolve.resolve_round` reads it (after the reveal
        and the wait choices)."""
        assert self.cargo is not None
        seats = tuple(
            Seat(
                money=self.money[p],
                card=Card(self._laid(p)),
                stake=self.stakes[p] or 0,
                choice=self.choices[p],
                character=self.characters[p],
                equipment=(self.equipment[p][0], self.equipment[p][1], self.equipment[p][2]),
            )
            for p in range(self.players)
        )
        return RoundInput(self.cargo, self.captain, seats, self.rules)

    def _resolve(self) -> None:
        round_ = self.round_input()
        result = resolve_round(round_)
        self.last_round = (self.round, round_, result)
        self.captured.append(result.captured)
        for p, seat in enumerate(result.seats):
            self.money[p] += seat.change
        self._credit_equipment(result)
        self.pending = [
            (p, self._looks(p))
            for p in clockwise(self.captain, self.players)
            if result.seats[p].cards  # [M-16]
        ]
        heroes = [p for p, seat in enumerate(result.seats) if seat.reason == TRAGIC_HERO]
        if heroes and self.rules.hero == "ask" and (sum(self.deck) or self.bottom):
            # [M-12] "může si … vzít": the tragic hero decides whether to take the card
            self.hero, self.phase = heroes[0], Phase.HERO
            return
        self.phase = Phase.DRAW
        self._draw()

    def _credit_equipment(self, result: RoundResult) -> None:
        for entry in self.equipment_cards:
            seat, kind = entry[0], entry[1]
            if result.seats[seat].part("equipment"):
                role = result.seats[seat].role
                if ROLES.index(role) == kind:
                    entry[3] += Equipment(kind).bonus

    def _draw(self) -> None:
        """Deal the pending special cards; stops at a chance node or Sayyida's choice."""
        while self.pending:
            self.phase = Phase.DRAW
            seat, looks = self.pending[0]
            if len(self.looking) < looks:
                if sum(self.deck):
                    return  # chance: the top card of the shuffled part
                if self.bottom:
                    self.looking.append(self.bottom.pop(0)[0])
                    continue
            if len(self.looking) > 1:
                self.phase = Phase.KEEP
                return
            for card in self.looking:
                self.hands[seat][card] += 1
            self.looking = []
            self.pending.pop(0)
        self.phase = Phase.DRAW
        if self.in_setup:
            self.in_setup = False
            self._start_round()
        else:
            self._end_round()

    def _end_round(self) -> None:
        for p in clockwise(self.captain, self.players):  # [M-17]
            card = self._laid(p)
            self.played[card] += 1
            if card >= 3:
                self.bottom.append((card, PUBLIC))
        self.laid = [None] * self.players
        self.stakes = [None] * self.players
        self.choices = [None] * self.players
        self.revealed = False
        self.round += 1
        self.captain = (self.captain + 1) % self.players
        if self.round == self.rules.rounds:
            self.phase = Phase.OVER
        else:
            self._start_round()

    # -- text ---------------------------------------------------------------------------------

    def action_to_string(self, action: int) -> str:
        phase = self.phase
        if phase is Phase.CAPTAIN:
            return f"captain p{action + 1}"
        if phase is Phase.CHARACTER:
            return f"deal {Character(action).key}"
        if phase is Phase.SHIP:
            return f"ship {action}"
        if phase is Phase.DRAW:
            return f"draw {Card(action).label}"
        if phase is Phase.BUY:
            return "pass" if action == PASS else f"buy {Equipment(action - 1).label}"
        if phase is Phase.PLAY:
            stake, card = divmod(action, 8)
            return f"{Card(card).label} {stake}"
        if phase is Phase.WAIT:
            return f"choose {ROLES[action].value}"
        if phase is Phase.KEEP:
            return f"keep {Card(action).label}"
        if phase is Phase.HERO:
            return "take" if action == TAKE else "decline"
        return str(action)

    def string_to_action(self, text: str) -> int:
        """The action ``text`` names here (``trade 4``, ``choose defence``, ``take`` …). A text
        the phase's grammar does not read raises :class:`MalformedActionError` (a
        :class:`~runarch_gen.errors.ParseError`); a well-formed action that is not allowed
        here :class:`~runarch_gen.play.game.IllegalActionError`."""
        words = text.strip().lower().split()
        phase = self.phase
        if phase is Phase.OVER:
            raise IllegalActionError(text.strip()[:40], "the game is over")
        try:
            action = self._parse(phase, words)
        except (ValueError, IndexError):
            raise MalformedActionError(
                f"not a {phase.value} action: {text.strip()[:40]!r}"
            ) from None
        if not self._is_legal(action):
            raise IllegalActionError(text.strip()[:40], f"not legal in the {phase.value} phase")
        return action

    def _parse(self, phase: Phase, words: list[str]) -> int:
        if len(words) > 2:
            raise ValueError
        if phase is Phase.PLAY:
            stake = words[1] if len(words) == 2 else "0"
            if not stake.isdigit() or len(stake) > 12:
                raise ValueError
            return 8 * int(stake) + int(Card.parse(words[0]))
        key, value = words[0], words[1] if len(words) == 2 else ""
        if phase is Phase.HERO:
            if words in (["take"], ["decline"]):
                return TAKE if words == ["take"] else DECLINE
            raise ValueError
        if phase is Phase.BUY:
            if words == ["pass"]:
                return PASS
            if key != "buy":
                raise ValueError
            return 1 + int(Equipment.parse(value))
        expected = {
            Phase.CAPTAIN: "captain",
            Phase.CHARACTER: "deal",
            Phase.SHIP: "ship",
            Phase.DRAW: "draw",
            Phase.WAIT: "choose",
            Phase.KEEP: "keep",
        }[phase]
        if key != expected:
            raise ValueError
        if phase is Phase.CAPTAIN:
            if not value.startswith("p") or not value[1:].isdigit() or len(value) > 4:
                raise ValueError
            return int(value[1:]) - 1
        if phase is Phase.CHARACTER:
            return int(Character.parse(value))
        if phase is Phase.SHIP:
            if not value.isdigit() or len(value) > 6:
                raise ValueError
            return int(value)
        if phase is Phase.WAIT:
            return ROLES.index(Role.parse(value))
        return int(Card.parse(value))

    # -- the end ------------------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        if self.phase is not Phase.OVER:
            return None
        best = max(self.money)
        winners = tuple(p for p, m in enumerate(self.money) if m == best)  # [M-19]
        return Outcome(
            MalaccaEnd.LAST_SHIP,
            winners,
            tuple(Score((("money", m),)) for m in self.money),
            tuple(f"p{p + 1}" for p in range(self.players)),
        )

    # -- what a player sees -------------------------------------------------------------------

    def specials_held(self, player: int) -> int:
        """Special cards ``player`` holds, a face-down special card on the table included
        (public: hand sizes do not tell a laid special card from a laid basic one) [M-20]."""
        held = sum(self.hands[player])
        card = self.laid[player]
        if card is not None and card >= 3 and not self.revealed:
            held += 1
        return held

    def observation(self, player: int) -> MalaccaObservation:
        n = self.players
        keep_looking = self.pending and self.pending[0][0] == player
        laid = tuple(
            None if self.laid[p] is None else (self.laid[p] if self.revealed or p == player else -1)
            for p in range(n)
        )
        return MalaccaObservation(
            player=player,
            players=n,
            phase=self.phase.value,
            round=self.round,
            rounds=self.rules.rounds,
            captain=self.captain,
            to_act=self.current_player(),
            cargo=self.cargo,
            ships_left=tuple(self.ships_left),
            money=tuple(self.money),
            stakes=tuple(self.stakes),
            laid=laid,
            choices=tuple(None if c is None else c.value for c in self.choices),
            specials=tuple(self.specials_held(p) for p in range(n)),
            hand=tuple(self.hands[player]),
            characters=tuple("" if c is None else c.key for c in self.characters),
            equipment=tuple((e[0], e[1], e[2]) for e in self.equipment),
            equipment_left=(self.equipment_left[0], self.equipment_left[1], self.equipment_left[2]),
            deck=sum(self.deck) + len(self.bottom),
            bottom=tuple(c if k in (PUBLIC, player) else -1 for c, k in self.bottom),
            looking=tuple(self.looking) if keep_looking else (),
            captured=tuple(self.captured),
        )

    def resample_from_infostate(self, player: int, rng: random.Random) -> Self:
        """Redeal every special card ``player`` cannot see — the others' hands, their face-down
        cards before the reveal, the shuffled deck, cards looked at and put back — keeping every
        count the player sees; then each other face-down card is any card its owner holds."""
        new = self.copy()
        n = self.players
        pool: list[int] = [c for c in range(CARDS) for _ in range(self.deck[c])]
        slots_deck = sum(self.deck)
        others = [p for p in range(n) if p != player]
        held: dict[int, int] = {}
        for p in others:
            held[p] = self.specials_held(p)
            pool += [c for c in range(CARDS) for _ in range(self.hands[p][c])]
            card = self.laid[p]
            if card is not None and card >= 3 and not self.revealed:
                pool.append(card)
        hidden_bottom = [i for i, (_, k) in enumerate(self.bottom) if k not in (PUBLIC, player)]
        pool += [self.bottom[i][0] for i in hidden_bottom]
        looker = self.pending[0][0] if self.pending else None
        foreign_looking = looker is not None and looker != player and bool(self.looking)
        if foreign_looking:
            pool += self.looking
        rng.shuffle(pool)
        new.deck = [0] * CARDS
        for c in pool[:slots_deck]:
            new.deck[c] += 1
        at = slots_deck
        for p in others:
            cards = pool[at : at + held[p]]
            at += held[p]
            new.hands[p] = [0] * CARDS
            for c in cards:
                new.hands[p][c] += 1
            if self.laid[p] is not None and not self.revealed:
                choice = rng.choice([0, 1, 2, *cards])
                new.laid[p] = choice
                if choice >= 3:
                    new.hands[p][choice] -= 1
        for i in hidden_bottom:
            new.bottom[i] = (pool[at], self.bottom[i][1])
            at += 1
        if foreign_looking:
            new.looking = pool[at : at + len(self.looking)]
            at += len(self.looking)
        assert at == len(pool)
        new._legal = None
        return new

    # -- records ------------------------------------------------------------------------------

    def length(self) -> int:
        """The rounds played."""
        return self.round

    def first(self) -> int:
        """The first captain (drawn by the game's first action)."""
        return self._history[0]

    def statistics(self) -> dict[str, object]:
        """Per-game figures for the simulation report: each seat's character and position from
        the first captain (win rates by either), ships captured, special cards played by kind,
        and each equipment card's net value (bonuses earned − its price) by kind and the round
        it was bought in."""
        n = self.players
        first = self._history[0]
        out: dict[str, object] = {
            "position": tuple(f"captain+{(p - first) % n}" for p in range(n)),
            "ships captured": sum(self.captured),
            "special cards played": sum(self.played[3:]),
            "special cards unplayed at the end": sum(sum(hand) for hand in self.hands),
        }
        if self.rules.characters is not None:
            out["character"] = tuple(c.key if c is not None else "none" for c in self.characters)
        for card in range(3, 8):
            out[f"played {Card(card).label}"] = self.played[card]
        if self.rules.equipment:
            out["equipment bought"] = len(self.equipment_cards)
            values: dict[str, list[int]] = {}
            for _seat, kind, round_, earned in self.equipment_cards:
                name = f"better {Equipment(kind).label} net, bought in round {round_ + 1:02d}"
                values.setdefault(name, []).append(earned - EQUIPMENT_COST)
            for name, nets in sorted(values.items()):
                out[name] = tuple(nets)
        return out

    def copy(self) -> Self:
        new = type(self).__new__(type(self))
        new.game, new.rules, new.phase = self.game, self.rules, self.phase
        new.round, new.captain, new.turn = self.round, self.captain, self.turn
        new.money = self.money[:]
        new.characters = self.characters[:]
        new.equipment = [e[:] for e in self.equipment]
        new.equipment_left = self.equipment_left[:]
        new.hands = [h[:] for h in self.hands]
        new.deck = self.deck[:]
        new.bottom = self.bottom[:]
        new.ships_left = self.ships_left[:]
        new.cargo = self.cargo
        new.laid, new.stakes, new.choices = self.laid[:], self.stakes[:], self.choices[:]
        new.revealed = self.revealed
        new.pending = self.pending[:]
        new.looking = self.looking[:]
        new.in_setup = self.in_setup
        new.captured = self.captured[:]
        new.hero = self.hero
        new.played = self.played[:]
        new.equipment_cards = [e[:] for e in self.equipment_cards]
        new.last_round = self.last_round
        new._history = self._history[:]
        new._legal = self._legal
        return new

    def _key(self) -> tuple[object, ...]:
        return (
            self.phase,
            self.round,
            self.captain,
            self.turn,
            self.money,
            self.characters,
            self.equipment,
            self.equipment_left,
            self.hands,
            self.deck,
            self.bottom,
            self.ships_left,
            self.cargo,
            self.laid,
            self.stakes,
            self.choices,
            self.revealed,
            self.pending,
            self.looking,
            self.captured,
            self.hero,
            self._history,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MalaccaState) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        n = self.players
        lines = [
            f"round {self.round + 1}/{self.rules.rounds}, captain p{self.captain + 1},"
            f" ship {self.cargo if self.cargo is not None else '-'}, phase {self.phase.value}"
        ]
        for p in range(n):
            card = self.laid[p]
            char = self.characters[p]
            lines.append(
                f"  p{p + 1}{' ' + char.key if char is not None else ''}: {self.money[p]} silver,"
                f" specials {sum(self.hands[p])}"
                + ("" if card is None else f", laid {Card(card).label} {self.stakes[p]}")
            )
        return "\n".join(lines)
