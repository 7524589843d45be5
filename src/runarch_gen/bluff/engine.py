"""Bluff on the family core: hidden dice, rolls as chance, bids as actions, rounds to the end.

A :class:`BluffGame` holds the rules (:class:`~.rules.BluffRules`) and the tables built from
them once (every sorted hand of each size with its probability, the legal raises after each
bid); a :class:`BluffState` is a position. Actions (``docs/rules/bluff.md`` §4):

- at a chance node, the draw of the starting player (seat index) or a player's roll or re-roll
  (the index of the sorted hand among the hands of that size);
- while bidding, :data:`DOUBT` (0) or ``1 + rank`` for the bid of that rank in the raise order;
- after a bid with ``reroll=on``, :data:`SHOW_BASE` ``+ code`` for the dice revealed (``keep``
  reveals none); after a reveal, :data:`REROLL` or :data:`HOLD`: whether to re-roll the dice
  still hidden [L-17].

>>> game = BluffGame(BluffRules(players=2, dice=2, first=1))
>>> state = game.new_initial_state()
>>> for text in ("roll 3,5", "roll 1,★", "2×3", "3×3", "doubt"):
...     _ = state.apply_text(text)
>>> state.outcome() is None, state.dice, state.results[-1].summary()
(True, [2, 1], '3×3 doubted by p1: 2 counted, p2 loses 1')
"""

from __future__ import annotations

import itertools
import math
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Any, Self

from runarch_gen.bluff.notation import (
    DOUBT_WORDS,
    InvalidBidError,
    format_faces,
    parse_bid,
    parse_faces,
)
from runarch_gen.bluff.rules import Bid, BluffRules, ExactHit, Opener
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
from runarch_gen.play.parameters import Value, parameters_of, values_of
from runarch_gen.play.registry import GameType, preset_parameter

__all__ = [
    "BLUFF_TYPE",
    "DOUBT",
    "HOLD",
    "REROLL",
    "SHOW_BASE",
    "BluffEnd",
    "BluffGame",
    "BluffObservation",
    "BluffState",
    "Phase",
    "RoundResult",
    "count_matches",
    "rules_from_values",
    "rules_values",
]

DOUBT = 0
SHOW_BASE = 1000
"""Reveal actions are ``SHOW_BASE + code``; ``code`` counts the revealed dice of face f in its
decimal digit f−1 (at most 9 dice of a face), and 0 (``keep``) reveals none."""
HOLD, REROLL = 0, 1
"""After a reveal, the player's choice [L-17]: keep the hidden dice (``hold``) or re-roll them
(``reroll``)."""


BLUFF_VARIANTS: dict[str, dict[str, str]] = {
    "original": {"exact": "all"},
    "endless": {"exact": "all-last"},
    "reroll": {"reroll": "on"},
}
"""The seed's variants as presets of the options [L-11] [L-12] [L-13]."""

BLUFF_TYPE = GameType(
    short_name="bluff",
    long_name="Bluff (Liar's Dice)",
    czech_name="Bluff",
    min_players=2,
    max_players=6,
    chance_mode=ChanceMode.EXPLICIT,
    information=Information.IMPERFECT,
    parameters=(
        preset_parameter(
            BLUFF_VARIANTS,
            "seed",
            "a preset of the options below (those given beside it win): original (exact=all, the"
            " exact-hit rule the seed reports from the original game), endless (exact=all-last),"
            " reroll (reroll=on)",
        ),
        *parameters_of(BluffRules),
    ),
    variants=BLUFF_VARIANTS,
    aliases=("liars-dice", "liars_dice"),
    rules=BluffRules,
)
"""Bluff's declaration: players, chance, information, parameters (``docs/rules/bluff.md``)."""


def rules_from_values(values: Mapping[str, Value] | None = None) -> BluffRules:
    """The rules of registry parameter ``values`` (defaults for the missing ones, a
    ``variant``'s preset under those given). Nothing is read from a file here: a scale file
    named on the command line was read into values."""
    rules: BluffRules = BLUFF_TYPE.rules_of(values or {})
    return rules


def rules_values(rules: BluffRules) -> dict[str, Value]:
    """The registry parameter values of ``rules`` (inverse of :func:`rules_from_values`)."""
    return {"variant": "seed", **values_of(rules)}


class BluffEnd(Termination):
    """Why a game of Bluff ended."""

    LAST = "last player"
    ROUND = "one round"
    LIMIT = "stalled"

    @property
    def stalled(self) -> bool:
        return self is BluffEnd.LIMIT


class Phase:
    """What happens next (plain ints: the state is copied often)."""

    FIRST, ROLL, BID, SHOW, REROLL, OVER, CHOOSE = range(7)
    NAMES = ("first", "roll", "bid", "show", "reroll", "over", "choose")


def count_matches(dice: Sequence[int], face: int, star: int) -> int:
    """How many of ``dice`` count for a bid on ``face``: the face or a star, or (a star bid)
    only stars [L-06].

    >>> count_matches((1, 3, 3, 6), 3, 6), count_matches((1, 3, 3, 6), 6, 6)
    (3, 1)
    """
    if face == star:
        return sum(1 for d in dice if d == star)
    return sum(1 for d in dice if d in (face, star))


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A challenge, public once the dice are revealed."""

    round: int
    bid: Bid
    bidder: int
    doubter: int
    hands: tuple[tuple[int, ...], ...]
    """Every player's dice as revealed (empty for players out of the game)."""
    counted: int
    winner: int
    loser: int
    lost: tuple[int, ...]
    """Dice each player gave up (a gain of the bidder on an exact hit is not counted)."""
    gained: int
    """Dice the bidder gained on an exact hit (0 or 1)."""

    @property
    def exact(self) -> bool:
        return self.counted == self.bid.quantity

    @property
    def doubt_right(self) -> bool:
        """Whether the doubter was right (the bid failed)."""
        return self.counted < self.bid.quantity

    def summary(self) -> str:
        head = f"{self.bid} doubted by p{self.doubter + 1}: {self.counted} counted"
        if self.exact:
            if self.gained:
                return f"{head}, exact hit, p{self.doubter + 1} gives p{self.bidder + 1} a die"
            losers = [f"p{p + 1}" for p, n in enumerate(self.lost) if n]
            if len(losers) == 1:
                return f"{head}, exact hit, {losers[0]} loses a die"
            return f"{head}, exact hit, {', '.join(losers) or 'nobody'} lose a die each"
        return f"{head}, p{self.loser + 1} loses {self.lost[self.loser]}"


@dataclass(frozen=True, slots=True)
class BluffObservation:
    """What one player sees: everything public and their own hidden dice."""

    player: int
    rules: BluffRules
    dice: tuple[int, ...]
    own: tuple[int, ...]
    """The player's hidden dice (sorted); their revealed dice are in ``shown``."""
    shown: tuple[tuple[int, ...], ...]
    bids: tuple[tuple[int, int], ...]
    """This round's bids as (player, rank)."""
    rerolled: tuple[bool, ...]
    """Whether each player re-rolled hidden dice this round (public [L-17])."""
    phase: int
    to_act: int
    opener: int
    round: int
    results: tuple[RoundResult, ...]

    @property
    def last(self) -> int:
        """The rank of the bid standing, −1 before the first."""
        return self.bids[-1][1] if self.bids else -1

    @property
    def hidden_from_me(self) -> int:
        """How many dice in play the player cannot see."""
        seen = len(self.own) + sum(len(s) for s in self.shown)
        return sum(self.dice) - seen

    def visible(self) -> tuple[int, ...]:
        """The dice the player sees: their own hidden dice and every revealed die."""
        return self.own + tuple(d for s in self.shown for d in s)


class BluffGame(Game["BluffState"]):
    """The rules of one game of Bluff and the tables built from them."""

    def __init__(self, rules: BluffRules | None = None) -> None:
        self.rules = rules or BluffRules()
        r = self.rules
        self.bids: tuple[Bid, ...] = r.bids
        self.rank_of = {(b.quantity, b.face): i for i, b in enumerate(self.bids)}
        self.start = r.dice_per_player
        self.star = r.star
        sides = r.sides
        self.hands: list[tuple[tuple[int, ...], ...]] = []
        self.hand_index: list[dict[tuple[int, ...], int]] = []
        self.hand_outcomes: list[tuple[tuple[int, float], ...]] = []
        for size in range(self.start + 1):
            hands = tuple(itertools.combinations_with_replacement(range(1, sides + 1), size))
            self.hands.append(hands)
            self.hand_index.append({h: i for i, h in enumerate(hands)})
            self.hand_outcomes.append(
                tuple((i, _multinomial(h) / sides**size) for i, h in enumerate(hands))
            )
        self._hand_actions = [tuple(range(len(h))) for h in self.hands]
        self._raises: dict[tuple[int, int], tuple[int, ...]] = {}
        per_round = r.players + 1 + len(self.bids) * (4 if r.reroll else 1)
        self._info = GameInfo(r.players, 1 + r.limit * per_round)

    rules: BluffRules
    game_type = BLUFF_TYPE
    length_unit = "rounds"

    @property
    def info(self) -> GameInfo:
        return self._info

    def new_initial_state(self, rng: random.Random | None = None) -> BluffState:
        del rng
        return BluffState(self)

    def legal_bids(self, last: int, in_play: int) -> tuple[int, ...]:
        """The bidding actions after the bid of rank ``last`` (−1: none yet) with ``in_play``
        dice on the table: ``doubt`` (after a bid) and every higher bid [L-07, L-08, L-09]."""
        key = (last, in_play if self.rules.cap else 0)
        cached = self._raises.get(key)
        if cached is not None:
            return cached
        ranks = range(last + 1, len(self.bids))
        if self.rules.cap:
            capped = [r for r in ranks if self.bids[r].quantity <= in_play]
            # L-09: the cap never leaves the opener without a bid.
            ranks = capped if capped or last >= 0 else list(ranks)  # type: ignore[assignment]
        actions = ((DOUBT,) if last >= 0 else ()) + tuple(1 + r for r in ranks)
        self._raises[key] = actions
        return actions


def _multinomial(hand: tuple[int, ...]) -> int:
    count = math.factorial(len(hand))
    for _, group in itertools.groupby(hand):
        count //= math.factorial(len(list(group)))
    return count


def _show_code(dice: Sequence[int]) -> int:
    return sum(10 ** (f - 1) for f in dice)


def _show_dice(code: int) -> tuple[int, ...]:
    out: list[int] = []
    face = 1
    while code:
        out += [face] * (code % 10)
        code //= 10
        face += 1
    return tuple(out)


class BluffState(State[BluffObservation]):
    """A position of Bluff. ``dice`` counts each player's dice; ``hidden`` and ``shown`` hold
    this round's dice (sorted); ``bids`` this round's bids as (player, rank)."""

    __slots__ = (
        "bid_count",
        "bids",
        "dice",
        "end",
        "first_opener",
        "game",
        "hidden",
        "opener",
        "phase",
        "player",
        "rerolled",
        "results",
        "rolls",
        "round",
        "shown",
    )

    def __init__(self, game: BluffGame) -> None:
        super().__init__()
        self.game = game
        rules = game.rules
        self.dice = [game.start] * rules.players
        self.hidden: list[tuple[int, ...]] = [()] * rules.players
        self.shown: list[tuple[int, ...]] = [()] * rules.players
        self.rerolled = [False] * rules.players
        self.bids: list[tuple[int, int]] = []
        self.results: list[RoundResult] = []
        self.round = 0
        self.end: BluffEnd | None = None
        self.rolls: list[int] = []
        self.bid_count = 0
        self.first_opener = 0
        if rules.first:
            self._start_round(rules.first - 1)
        else:
            self.phase, self.player, self.opener = Phase.FIRST, CHANCE_PLAYER, 0

    # -- the flow -------------------------------------------------------------------------

    def _start_round(self, opener: int) -> None:
        players = len(self.dice)
        while not self.dice[opener]:  # L-12: the next player with dice opens
            opener = (opener + 1) % players
        self.opener = opener
        self.round += 1
        if self.round == 1:
            self.first_opener = opener
        self.hidden = [()] * players
        self.shown = [()] * players
        self.rerolled = [False] * players
        self.bids = []
        order = [(opener + k) % players for k in range(players)]
        self.rolls = [p for p in order if self.dice[p]]
        self.phase, self.player = Phase.ROLL, self.rolls[0]

    def _next_bidder(self, player: int) -> int:
        players = len(self.dice)
        nxt = (player + 1) % players
        while not self.dice[nxt]:
            nxt = (nxt + 1) % players
        return nxt

    def _challenge(self, doubter: int) -> None:
        game, rules = self.game, self.game.rules
        bidder, rank = self.bids[-1]
        bid = game.bids[rank]
        hands = tuple(tuple(sorted(h + s)) for h, s in zip(self.hidden, self.shown, strict=True))
        counted = sum(count_matches(h, bid.face, game.star) for h in hands)
        lost = [0] * len(self.dice)
        gained = 0
        if counted > bid.quantity:
            winner, loser = bidder, doubter
            lost[doubter] = counted - bid.quantity
        elif counted < bid.quantity:
            winner, loser = doubter, bidder
            lost[bidder] = bid.quantity - counted
        else:  # L-11: the exact hit
            winner, loser = bidder, doubter
            if rules.exact is ExactHit.GIVE:
                lost[doubter] = 1
                gained = int(self.dice[bidder] < game.start)
            else:
                for p, held in enumerate(self.dice):
                    if p == bidder or not held:
                        continue
                    bystander = p != doubter
                    if rules.exact is ExactHit.ALL_LAST and bystander and held == 1:
                        continue
                    lost[p] = 1
        for p, owed in enumerate(lost):
            lost[p] = min(owed, self.dice[p])  # L-10: the rest of the debt lapses
            self.dice[p] -= lost[p]
        self.dice[bidder] += gained
        self.results.append(
            RoundResult(
                self.round, bid, bidder, doubter, hands, counted, winner, loser, tuple(lost), gained
            )
        )
        alive = [p for p, n in enumerate(self.dice) if n]
        if rules.single or len(alive) == 1:
            self.end = BluffEnd.ROUND if rules.single else BluffEnd.LAST
        elif self.round >= rules.limit:
            self.end = BluffEnd.LIMIT
        if self.end is not None:
            self.phase, self.player = Phase.OVER, TERMINAL_PLAYER
            return
        self._start_round(winner if rules.opener is Opener.WINNER else loser)

    # -- the interface --------------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase in (Phase.BID, Phase.SHOW, Phase.CHOOSE, Phase.OVER):
            return self.player
        return CHANCE_PLAYER

    def chance_outcomes(self) -> Sequence[tuple[int, float]]:
        if self.phase == Phase.FIRST:
            players = len(self.dice)
            return tuple((p, 1 / players) for p in range(players))
        if self.phase == Phase.ROLL:
            return self.game.hand_outcomes[self.dice[self.player]]
        if self.phase == Phase.REROLL:
            return self.game.hand_outcomes[len(self.hidden[self.player])]
        return ()

    def legal_actions(self) -> Sequence[int]:
        phase = self.phase
        if phase == Phase.BID:
            last = self.bids[-1][1] if self.bids else -1
            return self.game.legal_bids(last, sum(self.dice))
        if phase == Phase.ROLL:
            return self.game._hand_actions[self.dice[self.player]]
        if phase == Phase.REROLL:
            return self.game._hand_actions[len(self.hidden[self.player])]
        if phase == Phase.SHOW:
            return self._show_actions()
        if phase == Phase.CHOOSE:
            return (HOLD, REROLL)
        if phase == Phase.FIRST:
            return tuple(range(len(self.dice)))
        return ()

    def _show_actions(self) -> tuple[int, ...]:
        hidden = self.hidden[self.player]
        codes = {0}
        for size in range(1, len(hidden)):  # L-14: at least one die stays hidden
            for subset in itertools.combinations(hidden, size):
                codes.add(_show_code(subset))
        return tuple(SHOW_BASE + c for c in sorted(codes))

    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == Phase.BID:
            last = self.bids[-1][1] if self.bids else -1
            if action not in self.game.legal_bids(last, sum(self.dice)):
                raise IllegalActionError(str(action), self._why_not(action))
            if action == DOUBT:
                self._challenge(self.player)
                return
            self.bids.append((self.player, action - 1))
            self.bid_count += 1
            if self.game.rules.reroll and len(self.hidden[self.player]) >= 2:
                self.phase = Phase.SHOW
            else:
                self.player = self._next_bidder(self.player)
            return
        if phase in (Phase.ROLL, Phase.REROLL):
            size = self.dice[self.player] if phase == Phase.ROLL else len(self.hidden[self.player])
            if not (isinstance(action, int) and 0 <= action < len(self.game.hands[size])):
                raise IllegalActionError(str(action), "not a hand of this roll")
            self.hidden[self.player] = self.game.hands[size][action]
            if phase == Phase.REROLL:
                self.phase, self.player = Phase.BID, self._next_bidder(self.player)
                return
            self.rolls.pop(0)
            if self.rolls:
                self.player = self.rolls[0]
            else:
                self.phase, self.player = Phase.BID, self.opener
            return
        if phase == Phase.SHOW:
            if action not in self._show_actions():
                raise IllegalActionError(str(action), "not a reveal of your hidden dice")
            revealed = _show_dice(action - SHOW_BASE)
            if not revealed:
                self.phase, self.player = Phase.BID, self._next_bidder(self.player)
                return
            rest = list(self.hidden[self.player])
            for die in revealed:
                rest.remove(die)
            self.shown[self.player] = tuple(sorted(self.shown[self.player] + revealed))
            self.hidden[self.player] = tuple(rest)
            self.phase = Phase.CHOOSE
            return
        if phase == Phase.CHOOSE:
            if action not in (HOLD, REROLL):
                raise IllegalActionError(str(action), "reroll or hold")
            if action == REROLL:  # L-17: the right to re-roll, taken
                self.rerolled[self.player] = True
                self.phase = Phase.REROLL
            else:
                self.phase, self.player = Phase.BID, self._next_bidder(self.player)
            return
        if phase == Phase.FIRST:
            if action not in range(len(self.dice)):
                raise IllegalActionError(str(action), "not a seat")
            self._start_round(action)
            return
        raise IllegalActionError(str(action), "the game is over")

    def _why_not(self, action: int) -> str:
        if action == DOUBT:
            return "there is no bid to doubt yet"
        if not 1 <= action <= len(self.game.bids):
            return "not a bid of the scale"
        bid = self.game.bids[action - 1]
        if self.bids and action - 1 <= self.bids[-1][1]:
            return f"{bid} is not higher than {self.game.bids[self.bids[-1][1]]}"
        return f"{bid} names more dice than the {sum(self.dice)} in play (cap=on)"

    def action_to_string(self, action: int) -> str:
        phase, faces = self.phase, self.game.rules.faces
        if phase == Phase.BID:
            return "doubt" if action == DOUBT else str(self.game.bids[action - 1])
        if phase == Phase.SHOW:
            code = action - SHOW_BASE
            return "keep" if code == 0 else f"show {format_faces(_show_dice(code), faces)}"
        if phase == Phase.CHOOSE:
            return "reroll" if action == REROLL else "hold"
        if phase == Phase.ROLL:
            return f"roll {format_faces(self.game.hands[self.dice[self.player]][action], faces)}"
        if phase == Phase.REROLL:
            hand = self.game.hands[len(self.hidden[self.player])][action]
            return f"reroll {format_faces(hand, faces)}"
        if phase == Phase.FIRST:
            return f"first p{action + 1}"
        return str(action)

    def string_to_action(self, text: str) -> int:
        """The action ``text`` names here: a bid (``11×3``), ``doubt``, ``keep``, ``show 3,★``,
        or at chance nodes ``roll …``, ``reroll …``, ``first p2``. A malformed text raises
        :class:`~.notation.InvalidBidError`, a well-formed one not allowed here
        :class:`~runarch_gen.play.game.IllegalActionError`."""
        word = text.strip()
        lower = word.lower()
        phase, game = self.phase, self.game
        faces = game.rules.faces
        if phase == Phase.BID:
            if lower in DOUBT_WORDS:
                action = DOUBT
            else:
                quantity, face = parse_bid(word, faces)
                rank = game.rank_of.get((quantity, face))
                if rank is None:
                    raise IllegalActionError(word, "not a bid of the scale")
                action = 1 + rank
        elif phase == Phase.SHOW:
            if lower == "keep":
                action = SHOW_BASE
            elif lower.startswith("show"):
                revealed = parse_faces(word[4:], faces)
                if not revealed:
                    raise InvalidBidError(f"expected show and the faces shown, not {word[:40]!r}")
                if len(revealed) > 9:
                    raise IllegalActionError(word[:40], "too many dice")
                action = SHOW_BASE + _show_code(revealed)
            else:
                raise InvalidBidError(f"expected keep or show FACES, not {word[:40]!r}")
        elif phase == Phase.CHOOSE:
            if lower not in ("reroll", "hold"):
                raise InvalidBidError(f"expected reroll or hold, not {word[:40]!r}")
            action = REROLL if lower == "reroll" else HOLD
        elif phase in (Phase.ROLL, Phase.REROLL):
            head, _, rest = lower.partition(" ")
            if head != ("roll" if phase == Phase.ROLL else "reroll"):
                raise InvalidBidError(f"expected {Phase.NAMES[phase]} FACES, not {word[:40]!r}")
            hand = parse_faces(rest, faces)
            size = self.dice[self.player] if phase == Phase.ROLL else len(self.hidden[self.player])
            index = game.hand_index[size].get(hand) if len(hand) == size else None
            if index is None:
                raise IllegalActionError(word[:40], f"this roll is {size} dice")
            action = index
        elif phase == Phase.FIRST:
            seat = lower.removeprefix("first").strip().removeprefix("p")
            if not re.fullmatch(r"[0-9]{1,2}", seat):
                raise InvalidBidError(f"expected first pN, not {word[:40]!r}")
            action = int(seat) - 1
        else:
            raise IllegalActionError(word[:40], "the game is over")
        if action not in self.legal_actions():
            if phase == Phase.BID:
                reason = self._why_not(action)
            elif phase == Phase.SHOW:
                reason = "not dice you hold hidden, or all of them (one stays hidden) [L-14]"
            else:
                reason = "not allowed here"
            raise IllegalActionError(word[:40], reason)
        return action

    def is_terminal(self) -> bool:
        return self.phase == Phase.OVER

    def outcome(self) -> Outcome | None:
        if self.end is None:
            return None
        players = len(self.dice)
        if self.end is BluffEnd.LAST:
            winners: tuple[int, ...] = tuple(p for p, n in enumerate(self.dice) if n)
        elif self.end is BluffEnd.ROUND:
            winners = (self.results[-1].winner,)
        else:
            winners = ()
        return Outcome(
            self.end,
            winners,
            tuple(Score((("dice", n),)) for n in self.dice),
            tuple(f"p{p + 1}" for p in range(players)),
        )

    def observation(self, player: int) -> BluffObservation:
        return BluffObservation(
            player,
            self.game.rules,
            tuple(self.dice),
            self.hidden[player],
            tuple(self.shown),
            tuple(self.bids),
            tuple(self.rerolled),
            self.phase,
            self.player,
            self.opener,
            self.round,
            tuple(self.results),
        )

    def observation_string(self, player: int) -> str:
        faces = self.game.rules.faces
        bids = " ".join(f"p{p + 1}:{self.game.bids[r]}" for p, r in self.bids)
        shown = " ".join(
            format_faces(s, faces) + ("+" if r else "")
            for s, r in zip(self.shown, self.rerolled, strict=True)
        )
        past = " | ".join(
            f"{r.summary()} [{' '.join(format_faces(h, faces) for h in r.hands)}]"
            for r in self.results
        )
        return (
            f"p{player + 1} round {self.round} {Phase.NAMES[self.phase]} to act {self.player}"
            f" opener p{self.opener + 1} dice {self.dice}"
            f" own {format_faces(self.hidden[player], faces)}"
            f" shown [{shown}] bids [{bids}] past [{past}]"
        )

    def resample_from_infostate(self, player: int, rng: random.Random) -> Self:
        """The same public play, with the others' hidden dice of this round rolled afresh
        (each roll keeps the dice its roller later revealed)."""
        game = self.game
        marks = self._replay_marks()
        state = type(self)(game)
        for index, played in enumerate(self._history):
            action = played
            roller, rnd, phase = marks[index]
            if phase in (Phase.ROLL, Phase.REROLL) and rnd == self.round and roller != player:
                keep = self._next_reveal(index, roller, marks)
                size = self._size_at(state)
                extra = [rng.randint(1, game.rules.sides) for _ in range(size - len(keep))]
                action = game.hand_index[size][tuple(sorted(keep + tuple(extra)))]
            state.apply(action)
        return state

    def _size_at(self, state: BluffState) -> int:
        if state.phase == Phase.ROLL:
            return state.dice[state.player]
        return len(state.hidden[state.player])

    def _replay_marks(self) -> list[tuple[int, int, int]]:
        state = type(self)(self.game)
        marks: list[tuple[int, int, int]] = []
        for action in self._history:
            marks.append((state.player, state.round, state.phase))
            state.apply(action)
        return marks

    def _next_reveal(
        self, index: int, roller: int, marks: list[tuple[int, int, int]]
    ) -> tuple[int, ...]:
        """The dice of the roll at ``index`` its roller revealed later: every reveal until the
        roller re-rolls (a player who holds may reveal more of the same roll later)."""
        kept: tuple[int, ...] = ()
        for later in range(index + 1, len(self._history)):
            who, _, phase = marks[later]
            if who != roller:
                continue
            if phase in (Phase.REROLL, Phase.ROLL):
                break
            if phase == Phase.SHOW and self._history[later] != SHOW_BASE:
                kept += _show_dice(self._history[later] - SHOW_BASE)
        return kept

    def length(self) -> int:
        """The rounds played."""
        return self.round

    def first(self) -> int:
        """The opener of the first round."""
        return self.first_opener

    def statistics(self) -> dict[str, Any]:
        results = self.results
        return {
            "bids": self.bid_count,
            "challenges": len(results),
            "doubts right": fmean(r.doubt_right for r in results) if results else 0.0,
            "exact hits": fmean(r.exact for r in results) if results else 0.0,
            "dice lost per challenge": fmean(sum(r.lost) for r in results) if results else 0.0,
            # the scale's finding (bluff/design.py): how doubted star and number bids fared
            "star bids doubted": sum(r.bid.is_star for r in results),
            "star bids held": sum(r.bid.is_star and not r.doubt_right for r in results),
            "number bids doubted": sum(not r.bid.is_star for r in results),
            "number bids held": sum(not r.bid.is_star and not r.doubt_right for r in results),
        }

    def copy(self) -> Self:
        new = type(self).__new__(type(self))
        new.game = self.game
        new.dice = self.dice[:]
        new.hidden = self.hidden[:]
        new.shown = self.shown[:]
        new.rerolled = self.rerolled[:]
        new.bids = self.bids[:]
        new.results = self.results[:]
        new.round, new.end, new.phase = self.round, self.end, self.phase
        new.player, new.opener = self.player, self.opener
        new.rolls = self.rolls[:]
        new.bid_count, new.first_opener = self.bid_count, self.first_opener
        new._history = self._history[:]
        return new

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, BluffState)
            and other.game.rules == self.game.rules
            and self._history == other._history
        )

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        faces = self.game.rules.faces
        hands = " ".join(
            f"p{p + 1}:{format_faces(tuple(sorted(h + s)), faces)}"
            for p, (h, s) in enumerate(zip(self.hidden, self.shown, strict=True))
        )
        bids = " ".join(str(self.game.bids[r]) for _, r in self.bids)
        return f"round {self.round} dice {self.dice} hands {hands} bids [{bids}]"
