"""What the command line does, callable from Python: legal plays of a Position ID and a roll
(one by one or in batches), a text diagram of a position, a bot game with its record.

>>> report = moves_report("start", "31")
>>> report["dice"], len(report["plays"]), report["plays"][0]["notation"]
([3, 1], 16, '24/23 24/21')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from runarch_gen.backgammon.board import BAR, OFF, START, Side, format_steps, legal_plays, pip_count
from runarch_gen.backgammon.engine import BackgammonGame, BackgammonState
from runarch_gen.backgammon.errors import NotationError
from runarch_gen.backgammon.ids import parse_position_id, position_id
from runarch_gen.backgammon.notation import parse_dice
from runarch_gen.backgammon.rules import Rules
from runarch_gen.errors import InputError
from runarch_gen.play.bot import play_out

__all__ = ["batch_lines", "batch_moves", "diagram", "moves_report", "parse_position", "play_game"]

MAX_BATCH_LINES = 1_000_000


def parse_position(text: str, source: str | None = None) -> tuple[Side, Side]:
    """``start`` or a gnubg Position ID (a ``:MatchID`` suffix is allowed and ignored)."""
    word = text.strip()
    if word.lower() == "start":
        return START, START
    return parse_position_id(word.split(":", 1)[0], source)


def moves_report(position: str, dice: str, source: str | None = None) -> dict[str, Any]:
    """Every legal play of ``dice`` in ``position``, one per resulting position, in the
    standard notation and with the Position ID after it (the mover still in the on-roll half,
    as the input)."""
    mover, other = parse_position(position, source)
    first, second = parse_dice(dice, source)
    plays = legal_plays(mover, other, first, second)
    plays.sort(key=lambda p: (sorted(-s.start for s in p.steps), p.code))
    rows = [
        {"notation": format_steps(p.steps), "position": position_id(p.mover, p.other)}
        for p in plays
    ]
    return {"position": position.strip(), "dice": [first, second], "plays": rows}


def batch_lines(
    lines: Iterable[str],
    source: str,
    handle: Callable[[list[str], str], dict[str, Any]],
) -> Iterator[dict[str, Any]]:
    """``handle(words, where)`` of each line's words; blank lines and ``#`` comments are
    skipped. A line that fails gives ``{"line": n, "input": text, "error": message}`` in its
    place and the batch goes on."""
    for number, line in enumerate(lines, 1):
        if number > MAX_BATCH_LINES:
            raise InputError(f"{source}: more than {MAX_BATCH_LINES} lines")
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        where = f"{source}:{number}"
        try:
            yield handle(words, where)
        except InputError as exc:
            message = str(exc)
            if not message.startswith(where):
                message = f"{where}: {message}"
            yield {"line": number, "input": line.strip()[:200], "error": message}


def batch_moves(lines: Iterable[str], source: str = "-") -> Iterator[dict[str, Any]]:
    """:func:`moves_report` of each line ``POSITION DICE`` (see :func:`batch_lines`: a bad
    line gives an error object and the batch goes on)."""

    def handle(words: list[str], where: str) -> dict[str, Any]:
        if len(words) != 2:
            raise NotationError("expected POSITION_ID DICE, e.g. 4HPwATDgc/ABMA 31", source=where)
        return moves_report(words[0], words[1], where)

    return batch_lines(lines, source, handle)


def diagram(mover: Side, other: Side) -> str:
    """A text board from the side of the player on roll (X), O the opponent.

    >>> print(diagram(START, START).splitlines()[0])
     13 14 15 16 17 18 | 19 20 21 22 23 24
    """

    def cell(point: int) -> str:
        mine, theirs = mover[point], other[BAR - point]
        if mine:
            return f"{mine:>2}X"
        if theirs:
            return f"{theirs:>2}O"
        return "  ."

    def row(points: range) -> str:
        left = [cell(p) for p in points][:6]
        right = [cell(p) for p in points][6:]
        return "".join(left) + " |" + "".join(right)

    def numbers(points: range) -> str:
        values = list(points)
        return (
            "".join(f"{p:>3}" for p in values[:6]) + " |" + "".join(f"{p:>3}" for p in values[6:])
        )

    return "\n".join(
        [
            numbers(range(13, 25)),
            row(range(13, 25)),
            row(range(12, 0, -1)),
            numbers(range(12, 0, -1)),
            f"X (on roll): bar {mover[BAR]}, off {mover[OFF]}, pips {pip_count(mover)};"
            f" O: bar {other[BAR]}, off {other[OFF]}, pips {pip_count(other)}",
        ]
    )


def play_game(rules: Rules, bots: tuple[str, str], seed: int) -> BackgammonState:
    """One money game or match between two registered bots (white first in the list), the
    dice from ``seed``."""
    from runarch_gen.backgammon.bots import BOTS

    for name in bots:
        if name not in BOTS:
            raise InputError(f"unknown bot {name!r}: expected one of {', '.join(sorted(BOTS))}")
    master = random.Random(seed)
    players = [BOTS[name](random.Random(master.randrange(2**63))) for name in bots]
    state = BackgammonGame(rules).new_initial_state()
    play_out(state, players, random.Random(master.randrange(2**63)))
    return state
