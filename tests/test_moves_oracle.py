"""§4.1 movement, enumerated from the rules text and compared with ``legal_actions()`` at every
step of random games, in both directions: every swap the rules allow is listed, and every swap
listed is allowed.

Squares are named ``a1``–``e5`` (file a–e, rank 1–5). Two stones are *orthogonally adjacent* when
they differ by one in the file or the rank, *diagonally adjacent* when by one in both; a *jump*
takes two stones on one row, column or diagonal with exactly one stone between them.
"""

from __future__ import annotations

import random

import pytest

from runarch_gen.runarch.bots import make_bot
from runarch_gen.runarch.engine import RunArchGame
from runarch_gen.runarch.engine.sample import sample_board, sample_deck
from runarch_gen.runarch.rules import parse_rules

FILES = "abcde"
SQUARES = [(f, r) for r in range(5) for f in range(5)]


def name(square: tuple[int, int]) -> str:
    return f"{FILES[square[0]]}{square[1] + 1}"


def pairs(kind: str) -> set[frozenset[str]]:
    steps = {
        "orthogonal": {(0, 1), (1, 0), (0, -1), (-1, 0)},
        "diagonal": {(1, 1), (1, -1), (-1, 1), (-1, -1)},
        "jump": {(0, 2), (2, 0), (0, -2), (-2, 0), (2, 2), (2, -2), (-2, 2), (-2, -2)},
    }[kind]
    found = set()
    for f, r in SQUARES:
        for df, dr in steps:
            other = (f + df, r + dr)
            if other in SQUARES:
                found.add(frozenset((name((f, r)), name(other))))
    return found


ADJACENT = pairs("orthogonal") | pairs("diagonal")
FIRST_MOVE = {
    0: ADJACENT,  # §5.1 the simple game: adjacent, orthogonal and diagonal, all game
    1: pairs("orthogonal"),  # phase 1
    2: ADJACENT,  # phase 2
    3: ADJACENT | pairs("jump"),  # phase 3: adjacent, the first of a double swap, or a jump
    4: ADJACENT | pairs("jump"),  # phase 4: as phase 3
}


def test_the_square_counts_are_those_of_a_5x5_grid() -> None:
    # 2·5·4 orthogonal, 2·4·4 diagonal, 2·5·3 straight jumps + 2·3·3 diagonal jumps.
    assert (len(pairs("orthogonal")), len(pairs("diagonal")), len(pairs("jump"))) == (40, 32, 48)


def swaps_listed(state) -> set[frozenset[str]]:
    texts = [state.action_to_string(a) for a in state.legal_actions()]
    return {frozenset(t.split("-")) for t in texts if "-" in t and "@" not in t}


def compare(variant: str, games: int = 6) -> dict[object, int]:
    """Play ``games`` games — greedy bots, with a random move one time in three so that jumps
    and double swaps appear too — and compare the listed swaps with §4.1 at every step; return
    how many positions of each phase (and second swaps) were compared."""
    game = RunArchGame(parse_rules(f"{variant}(stall=150)"), sample_board(), sample_deck(50))
    rng = random.Random(7)
    checked: dict[object, int] = {0: 0, 1: 0, 2: 0, 3: 0, 4: 0, "second": 0}
    for seed in range(games):
        state = game.new_initial_state(random.Random(seed))
        bots = [make_bot("greedy", random.Random(seed + 10 * k)) for k in range(2)]
        first: frozenset[str] | None = None
        phase = 0
        while not state.is_terminal():
            side = state.current_player()
            if side < 0:
                break
            listed = swaps_listed(state)
            texts = [state.action_to_string(a) for a in state.legal_actions()]
            if listed or "end" in texts:
                phase = state.phase(state.current)
                if first is None and "end" not in texts:
                    assert listed == FIRST_MOVE[phase], (variant, phase)
                    checked[phase] += 1
                elif first is not None and listed:
                    # the second swap of a double swap: adjacent, not the first again.
                    assert listed == ADJACENT - {first}, (variant, phase)
                    checked["second"] += 1
            legal = list(state.legal_actions())
            if rng.random() < 1 / 3:
                action = rng.choice(legal)
            else:
                action = bots[side].step(state.observation(side), legal)
            text = state.action_to_string(action)
            is_swap = "-" in text and "@" not in text and not text.startswith("setup")
            state.apply(action)
            if text == "end":
                first = None
            elif is_swap:
                pair = frozenset(text.split("-"))
                # A first adjacent swap in phase 3 or 4 may be followed by a second; any other
                # swap completes the move (the empty set: no more swaps).
                jump = pair in pairs("jump")
                first = pair if first is None and phase >= 3 and not jump else frozenset()
    return checked


@pytest.mark.parametrize("variant", ["simple", "classic", "solo"])
def test_legal_swaps_are_exactly_those_of_section_4_1(variant: str) -> None:
    assert sum(compare(variant).values()) > 50


def test_the_complex_game_compares_every_phase_and_second_swaps() -> None:
    # The comparison is only as good as the positions it sees: every phase and second swaps.
    seen = compare("complex")
    assert all(seen[phase] > 0 for phase in (1, 2, 3, 4)) and seen["second"] > 0, seen
