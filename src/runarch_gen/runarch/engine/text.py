"""A RunArch position as text for people (``runarch-gen replay`` prints it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from runarch_gen.runarch.atoms import FILES, PIECES, SIZE
from runarch_gen.runarch.engine.actions import (
    ARCHIVE_LETTERS,
    BET_SPOT_COUNTS,
    archive_spot,
    goal_spot,
)
from runarch_gen.runarch.engine.setup import FRAME_COVER
from runarch_gen.runarch.engine.stages import OVER, SETUP_STAGE
from runarch_gen.runarch.engine.tokens import TOKEN_SYMBOLS

if TYPE_CHECKING:
    from runarch_gen.runarch.engine.state import RunArchState

COLOUR_NAMES = {1: "gold", 0: "silver"}


def stones_text(stones: list[int] | tuple[int, ...]) -> str:
    """Five rows of codes with row numbers, and the column letters under them."""
    rows = [
        f"{r + 1}  " + " ".join(PIECES[stones[r * SIZE + c]].code for c in range(SIZE))
        for r in range(SIZE)
    ]
    return "\n".join([*rows, "   " + "  ".join(FILES)])


def describe_state(state: RunArchState) -> str:
    """The stones, each side's score, hand, archives and bets, the offer and the tokens."""
    game = state.game
    lines = [f"{game.config} · {state.turn} turns played"]
    if state.stage == OVER:
        lines[0] += f" · over ({state.termination})"
    elif state.stage == SETUP_STAGE:
        lines[0] += f" · setup, {game.sides[state.current]} to choose"
    else:
        lines[0] += f" · {game.sides[state.current]} to move"
    lines += ["", stones_text(state.stones), ""]

    def ids(cards: list[int]) -> str:
        return " ".join(str(game.cards[k].id) for k in cards) or "-"

    for side, name in enumerate(game.sides):
        if game.solo and side == 1:
            lines.append(
                f"{name}: {state.totals[side]} points, best card {state.bests[side]},"
                f" phase {state.phase(side)}"
            )
            continue
        head = f"{name}: {state.totals[side]} points, best card {state.bests[side]}"
        if game.token_games:
            stack = " ".join(
                f"{TOKEN_SYMBOLS[i]}{v}" for i, v in enumerate(state.setup.stacks[side])
            )
            head += (
                f", phase {state.phase(side)}, minimum {state.minimum(side)}"
                f" (stack {stack}, {state.given[side]} handed over)"
            )
        lines.append(head)
        lines.append(f"  hand {ids(state.hands[side])}")
        if game.token_games:
            archives = " ".join(
                f"{ARCHIVE_LETTERS[a]}[{' '.join(game.cards[k].match.code for k in held)}]"
                for a, held in enumerate(state.archives[side])
            )
            secret = state.secret[side]
            lines.append(f"  archives {archives}")
            lines.append(f"  secret goal {game.cards[secret].id if secret >= 0 else '-'}")
        if game.bets:
            bets = state.bets[side]
            placed = [
                f"${ARCHIVE_LETTERS[a]}{n} {COLOUR_NAMES[bets[archive_spot(a, n)]]}"
                for a in range(3)
                for n in BET_SPOT_COUNTS
                if bets[archive_spot(a, n)] >= 0
            ] + [
                f"${game.cards[card].id} {COLOUR_NAMES[bets[goal_spot(g)]]}"
                for g, card in enumerate(state.public)
                if bets[goal_spot(g)] >= 0
            ]
            lines.append(f"  bets {', '.join(placed) or '-'}")
    if game.token_games:
        offer = " ".join(game.cards[k].match.code for k in state.offer) or "-"
        lines.append("")
        lines.append(f"public goals {ids(state.public)} · offer {offer} · pile {len(state.pile)}")
    if game.bets:
        token = COLOUR_NAMES.get
        conditions = ", ".join(
            f"{game.conditions[index].text} ({token(state.condition_tokens[j], 'taken')})"
            for j, (index, _) in enumerate(state.setup.conditions)
        )
        frame = ", ".join(
            f"{start}-{start + FRAME_COVER - 1} ({token(state.frame_tokens[j], 'taken')})"
            for j, (start, _) in enumerate(state.setup.frame_bets)
        )
        lines.append(f"conditions {conditions}")
        lines.append(f"frame bets {frame}")
    return "\n".join(lines)
