"""The chance part of a game: everything random is decided at setup (RULES.md §3).

A :class:`Setup` holds the outcome of every shuffle and draw; :func:`deal_setup` makes one from
a caller-seeded :class:`random.Random`, in a fixed order so that a seed always gives the same
setup. After setup the game has no more chance: the draw pile's order is already fixed.
Records write the setup out in full, so a replay never depends on the random generator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from runarch_gen.runarch.atoms import N_SQUARES
from runarch_gen.runarch.engine.tokens import TOKEN_SYMBOLS, default_tokens

GOLD, SILVER = 1, 0
# §1.4 D, X, F, N backs: the default set of engine/tokens.toml (the rules option `tokens`
# names another); the game passes its own set to deal_setup.
TOKEN_VALUES = default_tokens().values
FACE_UP_CONDITIONS = 6  # §3 step 7
BET_TOKENS = 10
FRAME_SEGMENTS = ((51, 75), (76, 100))  # §3 step 7: two frame bet tokens in each
FRAME_TOKENS_PER_SEGMENT = 2
FRAME_COVER = 3  # a frame bet token covers 3 consecutive spaces


@dataclass(frozen=True, slots=True)
class Setup:
    """Every chance outcome of a game.

    - ``stones``: the stone (piece index) on each square, reading order;
    - ``order``: the shuffled deck as card positions in the deck, top first; the deal, the offer
      and the draw pile are taken from it in that order;
    - ``stacks``: per side the values of the D, X, F, N tokens drawn (empty in the simple game);
    - ``conditions``: the face-up condition tokens (index in the condition set) with the colour
      of the bet token on each (``GOLD``/``SILVER``); empty without bets;
    - ``frame_bets``: per frame bet token, the first space it covers and its colour;
    - ``first``: the side that plays first (0 white or the solo player, 1 black or the automa).
    """

    stones: tuple[int, ...]
    order: tuple[int, ...]
    stacks: tuple[tuple[int, ...], ...] = ()
    conditions: tuple[tuple[int, int], ...] = ()
    frame_bets: tuple[tuple[int, int], ...] = ()
    first: int = 0

    def __reduce__(self) -> tuple[object, ...]:
        # Pickled through the constructor: a frozen dataclass compiled with mypyc (the optional
        # compiled build) cannot have its fields set one by one as pickle would.
        fields = (self.stones, self.order, self.stacks, self.conditions, self.frame_bets)
        return Setup, (*fields, self.first)

    def __post_init__(self) -> None:
        if sorted(self.stones) != list(range(N_SQUARES)):
            raise ValueError("the stones must be each of the 25 pieces once")
        if sorted(self.order) != list(range(len(self.order))):
            raise ValueError("the deck order must be each card position once")
        if self.first not in (0, 1):
            raise ValueError("the first side is 0 or 1")
        for stack in self.stacks:
            if len(stack) != len(TOKEN_SYMBOLS):  # the game checks the values (its token set)
                raise ValueError(f"a token stack is one token of each of {TOKEN_SYMBOLS}")
        for start, colour in self.frame_bets:
            if colour not in (GOLD, SILVER) or not any(
                low <= start and start + FRAME_COVER - 1 <= high for low, high in FRAME_SEGMENTS
            ):
                raise ValueError(f"frame bet token at {start} is not inside a segment")
        indices = [index for index, _ in self.conditions]
        if len(set(indices)) != len(indices):
            raise ValueError("a condition token lies face up twice (§3 step 7)")
        if len(indices) > FACE_UP_CONDITIONS:
            raise ValueError(f"{len(indices)} condition tokens face up; §3 step 7 lays 6")
        if any(colour not in (GOLD, SILVER) for _, colour in self.conditions):
            raise ValueError("a bet token is gold or silver")
        if self.frame_bets:
            per_segment = [
                sum(low <= start <= high for start, _ in self.frame_bets)
                for low, high in FRAME_SEGMENTS
            ]
            if per_segment != [FRAME_TOKENS_PER_SEGMENT] * len(FRAME_SEGMENTS):
                raise ValueError(
                    "the frame holds 2 bet tokens inside 51–75 and 2 inside 76–100 (§3 step 7),"
                    f" not {' and '.join(map(str, per_segment))}"
                )
            covered = [start + k for start, _ in self.frame_bets for k in range(FRAME_COVER)]
            if len(set(covered)) != len(covered):
                raise ValueError("two frame bet tokens share a space [R-05]")


def deal_setup(
    rng: random.Random,
    deck_size: int,
    *,
    token_games: bool,
    condition_count: int,
    token_values: Sequence[Sequence[int]] = TOKEN_VALUES,
) -> Setup:
    """Draw a setup with ``rng``: stones, deck order, token stacks, conditions, frame bets, first.

    ``token_games`` is false for the simple game (no bonus tokens); ``condition_count`` is the
    size of the condition set, 0 when the variant has no bets; ``token_values`` the back values
    of the D, X, F, N tokens (§1.4).
    """
    stones = list(range(N_SQUARES))
    rng.shuffle(stones)  # §2 stones at random, one per tile
    order = list(range(deck_size))
    rng.shuffle(order)  # §3 step 4 shuffle the deck
    stacks: tuple[tuple[int, ...], ...] = ()
    if token_games:
        # §1.4 each side draws one token of each symbol, unseen, and stacks them D, X, F, N.
        stacks = tuple(tuple(rng.choice(values) for values in token_values) for _ in range(2))
    conditions: tuple[tuple[int, int], ...] = ()
    frame_bets: tuple[tuple[int, int], ...] = ()
    if condition_count:
        # §3 step 7: 6 condition tokens face up; each bet token lands gold or silver.
        chosen = list(range(condition_count))
        rng.shuffle(chosen)
        colours = [GOLD if rng.random() < 0.5 else SILVER for _ in range(BET_TOKENS)]
        face_up = chosen[:FACE_UP_CONDITIONS]
        conditions = tuple(zip(face_up, colours, strict=False))
        on_frame = colours[FACE_UP_CONDITIONS : FACE_UP_CONDITIONS + 4]
        starts = [s for low, high in FRAME_SEGMENTS for s in _frame_starts(rng, low, high)]
        frame_bets = tuple(zip(starts, on_frame, strict=True))
    first = rng.randrange(2)  # §3 the first player is chosen at random
    return Setup(tuple(stones), tuple(order), stacks, conditions, frame_bets, first)


def _frame_starts(rng: random.Random, low: int, high: int) -> list[int]:
    # each token covers 3 consecutive spaces chosen uniformly inside its segment; two
    # tokens never share a space (rejection keeps the pair uniform among disjoint pairs).
    last = high - FRAME_COVER + 1
    starts: list[int] = []
    while len(starts) < FRAME_TOKENS_PER_SEGMENT:
        start = rng.randint(low, last)
        if all(abs(start - other) >= FRAME_COVER for other in starts):
            starts.append(start)
    return starts


def frame_space(total: int) -> int:
    """§6.1 the space a total stands on: the total modulo 100, where space 100 is also 0."""
    space = total % 100
    return 100 if space == 0 else space
