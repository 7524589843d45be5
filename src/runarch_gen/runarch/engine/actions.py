"""RunArch actions: their int layout and their text (the record's move notation).

Actions are atomic steps inside a turn, in the manner of OpenSpiel. Ranges, in ascending order:

======== ===== ==========================================================================
kind     count text
======== ===== ==========================================================================
setup     30   ``setup:12,31/7`` — [R-04] public goals 12 and 31, secret goal 7, rest kept
evaluate 576   ``17@r3>L+p`` — card 17 scored on r3, into the Left/Middle/Right archive,
               then a draw from the pile (``p``) or offer slot ``o1``–``o4``; no ``>`` in the
               simple game, no ``+`` when nothing is left to draw
swap     120   ``b2-c3`` — one swap of two stones (adjacent, diagonal or jump, by phase)
end        1   ``end`` — end the turn (allowed once the move is complete: no passing)
bet       16   ``$L3`` — place a gained bet token on the left archive's 3-card spot;
               ``$31`` — on the public goal card 31
======== ===== ==========================================================================

>>> encode_evaluation(1, 2, 0, DRAW_PILE) < SWAP_BASE <= encode_swap(0) < END < BET_BASE
True
>>> decode_evaluation(encode_evaluation(1, 11, 2, 3))
(1, 11, 2, 3)
"""

from __future__ import annotations

import itertools
import re
from typing import Final

from runarch_gen.runarch.atoms import SQUARE_NAMES
from runarch_gen.runarch.counts import HAND_SIZE
from runarch_gen.runarch.engine.tables import LINE_NAMES, N_LINES, N_PAIRS, PAIR_A, PAIR_B

ARCHIVES: Final = 3
NO_ARCHIVE: Final = 3  # the simple game discards scored cards (§5.1)
ARCHIVE_LETTERS: Final = "LMR"  # left, middle, right: positions, whatever rules they carry
DRAW_PILE: Final = 0  # 1–4: offer slots; 5: nothing left to draw (§4.4)
NO_DRAW: Final = 5
N_DRAW_CODES: Final = 6
BET_SPOT_COUNTS: Final = (2, 3, 4, 5)  # §6.2 archive bet spots
N_ARCHIVE_SPOTS: Final = ARCHIVES * len(BET_SPOT_COUNTS)
MAX_PUBLIC_GOALS: Final = 4
N_BET_SPOTS: Final = N_ARCHIVE_SPOTS + MAX_PUBLIC_GOALS

# setup choices over the dealt cards (by position in the deal): public goals, secret.
SETUP_CHOICES: Final[dict[int, tuple[tuple[tuple[int, ...], int], ...]]] = {
    deal: tuple(
        (public, secret)
        for public in itertools.combinations(range(deal), deal - 3)
        for secret in range(deal)
        if secret not in public
    )
    for deal in (4, 5)
}
N_SETUP: Final = max(len(choices) for choices in SETUP_CHOICES.values())  # 30

EVAL_BASE: Final = N_SETUP
N_EVAL: Final = HAND_SIZE * N_LINES * (ARCHIVES + 1) * N_DRAW_CODES
SWAP_BASE: Final = EVAL_BASE + N_EVAL
END: Final = SWAP_BASE + N_PAIRS
BET_BASE: Final = END + 1
NUM_DISTINCT_ACTIONS: Final = BET_BASE + N_BET_SPOTS


def encode_evaluation(slot: int, line: int, archive: int, draw: int) -> int:
    return EVAL_BASE + ((slot * N_LINES + line) * (ARCHIVES + 1) + archive) * N_DRAW_CODES + draw


def _decode(code: int) -> tuple[int, int, int, int]:
    rest, draw = divmod(code, N_DRAW_CODES)
    rest, archive = divmod(rest, ARCHIVES + 1)
    slot, line = divmod(rest, N_LINES)
    return slot, line, archive, draw


_DECODED: Final = tuple(
    _decode(code) for code in range(N_EVAL)
)  # bots decode every legal evaluation


def decode_evaluation(action: int) -> tuple[int, int, int, int]:
    """``(hand slot, line, archive, draw code)`` of an evaluation action."""
    code = action - EVAL_BASE
    return _DECODED[code] if 0 <= code < N_EVAL else _decode(code)


def encode_swap(pair: int) -> int:
    return SWAP_BASE + pair


def encode_bet(spot: int) -> int:
    return BET_BASE + spot


def archive_spot(archive: int, cards: int) -> int:
    """The bet spot of ``archive`` (0–2) for ``cards`` (2–5)."""
    return archive * len(BET_SPOT_COUNTS) + cards - BET_SPOT_COUNTS[0]


def spot_archive(spot: int) -> tuple[int, int]:
    """``(archive, cards)`` of an archive bet spot."""
    archive, offset = divmod(spot, len(BET_SPOT_COUNTS))
    return archive, offset + BET_SPOT_COUNTS[0]


def goal_spot(goal: int) -> int:
    """The bet spot of public goal number ``goal`` (0–3)."""
    return N_ARCHIVE_SPOTS + goal


def kind(action: int) -> str:
    """``setup``, ``evaluate``, ``swap``, ``end``, ``bet`` or ``unknown``."""
    if 0 <= action < EVAL_BASE:
        return "setup"
    if action < SWAP_BASE:
        return "evaluate"
    if action < END:
        return "swap"
    if action == END:
        return "end"
    if action < NUM_DISTINCT_ACTIONS:
        return "bet"
    return "unknown"


def swap_text(pair: int) -> str:
    return f"{SQUARE_NAMES[PAIR_A[pair]]}-{SQUARE_NAMES[PAIR_B[pair]]}"


def draw_text(draw: int) -> str:
    if draw == DRAW_PILE:
        return "+p"
    if draw == NO_DRAW:
        return ""
    return f"+o{draw}"


def evaluation_text(card: int | str, line: int, archive: int, draw: int) -> str:
    shelf = "" if archive == NO_ARCHIVE else ">" + ARCHIVE_LETTERS[archive]
    return f"{card}@{LINE_NAMES[line]}{shelf}{draw_text(draw)}"


# Parsing: the grammar of each kind; a score annotation "=9" after the line is allowed.
EVALUATION_RE: Final = re.compile(
    r"(?P<card>\d+)@(?P<line>[A-Za-z]\w)(?:=(?P<score>\d+))?(?:>(?P<archive>[LMRlmr]))?"
    r"(?:\+(?P<draw>p|P|[oO][1-4]))?\Z"
)
SWAP_RE: Final = re.compile(r"(?P<a>[a-eA-E][1-5])-(?P<b>[a-eA-E][1-5])\Z")
BET_RE: Final = re.compile(r"\$(?:(?P<archive>[LMRlmr])(?P<cards>[2-5])|(?P<goal>\d+))\Z")
SETUP_RE: Final = re.compile(r"setup:(?P<public>\d+(?:,\d+)*)/(?P<secret>\d+)\Z", re.IGNORECASE)
EXPECTED_ACTION: Final = (
    "expected an evaluation like 17@r3>L+p, a swap like b2-c3, end, a bet like $L3 or $31,"
    " or setup:12,31/7"
)
