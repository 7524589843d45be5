"""The RunArch game: rules configuration, board and deck, fixed for all the states it makes."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from runarch_gen.errors import InputError
from runarch_gen.play.game import ChanceMode, Game, GameInfo, Information
from runarch_gen.play.parameters import Parameter, parameters_of
from runarch_gen.play.registry import GameType
from runarch_gen.runarch.atoms import DIRECTIONS
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.counts import OFFER_SIZE, SIMPLE_HAND
from runarch_gen.runarch.decks.cards import PATTERN_LENGTH, Card, Deck
from runarch_gen.runarch.engine.conditions import Condition, load_conditions
from runarch_gen.runarch.engine.setup import BET_TOKENS, Setup, deal_setup
from runarch_gen.runarch.engine.tables import LINE_SQUARES, MAX_PATTERN_POINTS, Tables
from runarch_gen.runarch.engine.tokens import BonusTokens, load_tokens
from runarch_gen.runarch.rules import OPTIONS, LineDirection, MatchBonus, RulesConfig, Variant
from runarch_gen.runarch.set_values import board_value, deck_value, set_value

if TYPE_CHECKING:
    from runarch_gen.runarch.engine.state import RunArchState


def max_match_bonus(tables: Tables, option: MatchBonus) -> int:
    """The most the [R-09] match bonus can give on the board of ``tables``, over every match
    area and line (the diagonals included): 10 with ``board``; with ``line`` 2 on a B-2 board,
    more when a diagonal repeats a colour or a shape; 0 with ``off``.

    >>> from runarch_gen.runarch.engine.sample import sample_board
    >>> t = Tables(sample_board(), [])  # its diagonal d2 is all one colour
    >>> [max_match_bonus(t, option) for option in MatchBonus]
    [10, 6, 0]
    """
    if option is MatchBonus.OFF:
        return 0
    areas = [(c, s) for c in range(5) for s in range(5)]
    if option is MatchBonus.BOARD:
        return max(
            len(tables.squares_of_colour[c]) + len(tables.squares_of_shape[s]) for c, s in areas
        )
    return max(
        sum((tables.tile_colour[q] == c) + (tables.tile_shape[q] == s) for q in squares)
        for squares in LINE_SQUARES
        for c, s in areas
    )


RUNARCH_TYPE = GameType(
    short_name="runarch",
    long_name="RunArch",
    czech_name="RunArch",
    min_players=1,
    max_players=2,
    chance_mode=ChanceMode.SAMPLED,
    information=Information.IMPERFECT,
    parameters=(
        *(p for p in parameters_of(RulesConfig) if p.name == "variant"),
        # An option's default depends on the variant (and some apply to some variants only),
        # so the game string writes "default" for "the variant's".
        *(
            Parameter(
                spec.name,
                "default",
                f"{spec.help} [{spec.tag}]",
                values=spec.values,
                default_text="the variant's",
                tag=spec.tag,
            )
            for spec in OPTIONS
        ),
        Parameter(
            "set",
            "1",
            "the board and deck: a seed (the set `runarch-gen kit --seed N` generates),"
            " 'sample' (the engine's small fixed set, for tests) or, on the command line or in"
            " a sweep file, a kit folder (its board.json and deck.json)",
            values="SEED|sample|FOLDER",
            from_file=set_value,
        ),
        Parameter(
            "board",
            "set",
            "a board file (named on the command line or in a sweep file) in place of the set's",
            values="set|FILE",
            from_file=board_value,
        ),
        Parameter(
            "deck",
            "set",
            "a deck file (named on the command line or in a sweep file) in place of the set's",
            values="set|FILE",
            from_file=deck_value,
        ),
    ),
    variants={v.value: {"variant": v.value} for v in Variant},
    rules=RulesConfig,
)
"""RunArch's declaration: 2 players, or 1 against the automa (§8); options as in RULES.md,
declared on :class:`~runarch_gen.runarch.rules.RulesConfig`."""


class RunArchGame(Game["RunArchState"]):
    """RunArch under ``config`` on ``board`` with ``deck``; makes :class:`RunArchState` objects.

    >>> from runarch_gen.runarch.engine.sample import sample_board, sample_deck
    >>> from runarch_gen.runarch.rules import parse_rules
    >>> game = RunArchGame(parse_rules("complex(deal=4)"), sample_board(), sample_deck())
    >>> state = game.new_initial_state(random.Random(7))
    >>> len(state.legal_actions()), state.action_to_string(0)  # [R-04] setup choices
    (12, 'setup:1/17')
    """

    rules: RulesConfig
    game_type = RUNARCH_TYPE
    length_unit = "turns"

    def __init__(
        self,
        config: RulesConfig,
        board: Board,
        deck: Deck | Sequence[Card],
        *,
        deck_name: str | None = None,
        conditions: Sequence[Condition] | None = None,
    ) -> None:
        cards = tuple(deck)
        self.config = config
        self.rules = config
        self.board = board
        self.cards = cards
        self.deck_name = deck_name
        self.variant = config.variant
        self.solo = config.variant is Variant.SOLO
        self.token_games = config.has_archives  # bonus tokens, archives, goals, the offer
        self.bets = config.has_bets
        self.sides: tuple[str, ...] = ("player", "automa") if self.solo else ("white", "black")
        self.card_index: dict[int, int] = {}
        for index, card in enumerate(cards):
            if len(card.pattern) != PATTERN_LENGTH:
                raise InputError(f"card {card.id}: a pattern has {PATTERN_LENGTH} stones")
            if card.id in self.card_index:
                raise InputError(f"card id {card.id} appears twice in the deck")
            self.card_index[card.id] = index
        needed = self.cards_for_setup()
        if len(cards) < needed:
            raise InputError(
                f"the {config.variant.value} game needs at least {needed} cards to set up;"
                f" the deck has {len(cards)}"
            )
        self.tables = Tables(board, cards, config.direction is LineDirection.REVERSIBLE)
        # The highest card score each movement phase allows (index = phase; 0 = simple game):
        # 10 pattern points, plus in phase 4 the most the match bonus gives on this board.
        top = MAX_PATTERN_POINTS + max_match_bonus(self.tables, config.match_bonus)
        self.max_card_score: tuple[int, ...] = (MAX_PATTERN_POINTS,) * 4 + (top,)
        # §8 the automa's arrows as compass indices (N = 0 … NW = 7).
        self.arrows: tuple[tuple[int, ...], ...] = tuple(
            tuple(DIRECTIONS.index(d) for d in card.arrows) for card in cards
        )
        if conditions is not None:
            self.conditions: tuple[Condition, ...] = tuple(conditions)
        else:
            self.conditions = load_conditions(config.conditions) if self.bets else ()
        self._conditions_met: dict[tuple[int, ...], frozenset[int]] = {}
        # Read in the hot path (each evaluation): the archives' rules [R-11] and capacity [R-14].
        self.archive_rule_values: tuple[str, ...] = tuple(r.value for r in config.archive_rules)
        self.capacity = config.capacity
        # §1.4 the bonus-action tokens' back values (the rules option `tokens`).
        self.tokens: BonusTokens | None = load_tokens(config.tokens) if self.token_games else None

    def cards_for_setup(self) -> int:
        """How many cards the deal and the offer take (§3 step 4–5, §5.1)."""
        if not self.token_games:
            return 2 * SIMPLE_HAND
        players = 1 if self.solo else 2
        return players * self.config.deal + OFFER_SIZE

    @property
    def num_players(self) -> int:
        return 1 if self.solo else 2

    @property
    def info(self) -> GameInfo:
        """Players, the longest game and the returns (+1 a win, -1 a loss, 0 a shared win).

        The longest game: two setup choices; at most ``stall`` turns [R-18] of a move (two
        swaps at most) and the end of the turn; an evaluation per card of the deck at most
        (a scored card never returns); a placement per bet token at most.
        """
        length = 2 + 3 * self.config.stall + len(self.cards) + BET_TOKENS
        return GameInfo(self.num_players, length)

    def new_initial_state(self, rng: random.Random | None = None) -> RunArchState:
        """A new game whose setup is drawn from ``rng`` (see :func:`deal_setup`): RunArch's
        chance is sampled at setup, and its records write the setup out in full."""
        if rng is None:
            raise ValueError(
                "RunArch draws its setup at random: give new_initial_state a generator"
            )
        return self.new_state(self.deal(rng))

    def deal(self, rng: random.Random) -> Setup:
        return deal_setup(
            rng,
            len(self.cards),
            token_games=self.token_games,
            condition_count=len(self.conditions),
            token_values=self.tokens.values if self.tokens is not None else (),
        )

    def new_state(self, setup: Setup) -> RunArchState:
        """The initial state of a game with a given setup."""
        from runarch_gen.runarch.engine.state import RunArchState

        if len(setup.order) != len(self.cards):
            raise InputError(
                f"the setup orders {len(setup.order)} cards; the deck has {len(self.cards)}"
            )
        if any(index >= len(self.conditions) for index, _ in setup.conditions):
            raise InputError("the setup names a condition token the condition set lacks")
        if self.token_games != bool(setup.stacks) or self.bets != bool(setup.frame_bets):
            raise InputError(f"the setup does not fit the {self.variant.value} game")
        if self.tokens is not None and not all(map(self.tokens.allows, setup.stacks)):
            raise InputError(f"a token stack is not one token of each of {self.tokens.text}")
        return RunArchState(self, setup)

    def serialize_state(self, state: RunArchState) -> str:
        """``state`` as one line of JSON: its setup (the sampled chance) and every action."""
        setup = state.setup
        return json.dumps(
            {
                "stones": setup.stones,
                "order": setup.order,
                "stacks": setup.stacks,
                "conditions": setup.conditions,
                "frame_bets": setup.frame_bets,
                "first": setup.first,
                "history": list(state.history()),
            },
            separators=(",", ":"),
        )

    def deserialize_state(self, text: str) -> RunArchState:
        """The state :meth:`serialize_state` wrote: its setup, then every action replayed."""
        try:
            data = json.loads(text)
            setup = Setup(
                tuple(data["stones"]),
                tuple(data["order"]),
                tuple(tuple(stack) for stack in data["stacks"]),
                tuple((index, colour) for index, colour in data["conditions"]),
                tuple((start, colour) for start, colour in data["frame_bets"]),
                data["first"],
            )
            history = [int(action) for action in data["history"]]
        except (ValueError, KeyError, TypeError) as exc:
            raise InputError(f"not a serialised RunArch state: {exc}") from None
        state = self.new_state(setup)
        for action in history:
            state.apply(action)
        return state

    def conditions_met(self, counts: tuple[int, ...]) -> frozenset[int]:
        """Indices in the condition set of the conditions that archive ``counts`` meet [R-02]."""
        met = self._conditions_met.get(counts)
        if met is None:
            key = (counts[0], counts[1], counts[2])
            met = frozenset(i for i, c in enumerate(self.conditions) if c.is_met(key))
            self._conditions_met[counts] = met
        return met

    def deck_digest(self) -> str:
        """A short digest of the cards' content: a record names the deck it was played with."""
        text = "\n".join(
            f"{c.id}|{c.pattern.text}|{c.match.code}|{c.goal.text}|{c.goal.reward}|"
            + ",".join(d.name for d in c.arrows)
            for c in self.cards
        )
        return "sha256:" + hashlib.sha256(text.encode()).hexdigest()[:16]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RunArchGame):
            return NotImplemented
        return self is other or (
            self.config == other.config
            and self.board == other.board
            and self.cards == other.cards
            and self.conditions == other.conditions
        )

    def __hash__(self) -> int:
        return hash((self.config, self.board, len(self.cards)))

    def __reduce__(self) -> tuple[object, ...]:
        # Pickled as what it is made from (the tables are rebuilt): the same whether this class
        # is compiled (the optional mypyc build) or not.
        made_of = (self.config, self.board, self.cards, self.deck_name, self.conditions)
        return _unpickle_game, made_of

    def __str__(self) -> str:
        """The canonical rules string (``classic(deal=4)``): a game string too, the variant's
        name with the options that differ from its defaults."""
        return str(self.config)

    def __repr__(self) -> str:
        return f"RunArchGame({self.config}, {len(self.cards)} cards)"


def _unpickle_game(
    config: RulesConfig,
    board: Board,
    cards: tuple[Card, ...],
    deck_name: str | None,
    conditions: tuple[Condition, ...],
) -> RunArchGame:
    return RunArchGame(config, board, cards, deck_name=deck_name, conditions=conditions)
