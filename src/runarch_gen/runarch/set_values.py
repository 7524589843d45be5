"""A RunArch set from files — a board, a deck, or a kit folder holding both — as values of the
registry's parameters ``set``, ``board`` and ``deck`` (:data:`~.engine.game.RUNARCH_TYPE`).

Where the user names files — on the command line, or in a sweep file beside it — each is read
once, here, into an inline value: the file's text (a kit folder's two files as one small JSON
object). The game parses inline values and never reads a file itself, so a game string from a
record or the web cannot make it read one.

>>> set_value("sample"), set_value("7"), board_value("set")
('sample', '7', 'set')
>>> board_value("no/such/board.json")
Traceback (most recent call last):
...
runarch_gen.errors.InputError: no/such/board.json: no such file
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from runarch_gen.errors import InputError, ParseError
from runarch_gen.fileio import read_text, shorten
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.decks.cards import Deck

__all__ = [
    "board_value",
    "deck_value",
    "parse_board_value",
    "parse_deck_value",
    "parse_set_value",
    "set_value",
]

MAX_PART = 4 * 1024 * 1024
"""The most bytes of a board or deck file read into a value."""
_SEED = re.compile(r"[0-9]{1,10}\Z")


def _inline(text: str) -> bool:
    # A board or deck file's text has a line break or is JSON; a file name has neither.
    stripped = text.strip()
    return "\n" in stripped or stripped.startswith(("{", "["))


def board_value(text: str) -> str:
    """The ``board`` value of what the user typed: ``set`` or a board's text as they are,
    anything else names a board file, read into its text."""
    if text.strip().lower() == "set" or _inline(text):
        return text
    value = read_text(text, limit=MAX_PART)
    parse_board_value(value, text)  # a bad file is named now, with its line and column
    return value


def deck_value(text: str) -> str:
    """The ``deck`` value of what the user typed: ``set`` or a deck's text as they are,
    anything else names a deck file (JSON or CSV), read into its text."""
    if text.strip().lower() == "set" or _inline(text):
        return text
    value = read_text(text, limit=MAX_PART)
    parse_deck_value(value, text)
    return value


def set_value(text: str) -> str:
    """The ``set`` value of what the user typed: ``sample``, a seed or a set written inline as
    they are; anything else names a kit folder (``runarch-gen kit`` writes one), whose
    ``board.json`` and ``deck.json`` are read into one inline value."""
    chosen = text.strip()
    if chosen.lower() == "sample" or _SEED.match(chosen) or _inline(chosen):
        return text
    folder = Path(chosen)
    if not folder.is_dir():
        raise InputError(
            f"{shorten(chosen)}: a set is 'sample', a seed, or a kit folder holding board.json"
            " and deck.json (or give board=FILE and deck=FILE)"
        )
    board, deck = folder / "board.json", folder / "deck.json"
    parts = {"board": read_text(board, limit=MAX_PART), "deck": read_text(deck, limit=MAX_PART)}
    parse_board_value(parts["board"], str(board))
    parse_deck_value(parts["deck"], str(deck))
    return json.dumps(parts, ensure_ascii=False, sort_keys=True)


@lru_cache(maxsize=16)
def parse_board_value(text: str, source: str = "board") -> Board:
    """The one board of a ``board`` value (a board file's text)."""
    from runarch_gen.runarch.boards.io import parse_boards

    if not _inline(text):
        raise InputError(
            f"{source}: a board file named on the command line or beside a sweep file, or"
            f" 'set', not {shorten(text, 40)!r}"
        )
    boards = parse_boards(text, source=source)
    if len(boards) != 1:
        raise InputError(f"{source}: holds {len(boards)} boards, expected one")
    return boards[0]


@lru_cache(maxsize=16)
def parse_deck_value(text: str, source: str = "deck") -> Deck:
    """The deck of a ``deck`` value (a deck file's text, JSON or CSV)."""
    from runarch_gen.runarch.decks.io import parse_deck, require_unique_ids

    if not _inline(text):
        raise InputError(
            f"{source}: a deck file named on the command line or beside a sweep file, or"
            f" 'set', not {shorten(text, 40)!r}"
        )
    return require_unique_ids(parse_deck(text, source=source), source)


def parse_set_value(text: str) -> tuple[Board, Deck] | None:
    """The board and deck of a set written inline (a kit folder read by :func:`set_value`),
    or ``None`` when ``text`` is not one."""
    if not text.strip().startswith("{"):
        return None
    try:
        parts = json.loads(text)
    except ValueError as exc:
        raise ParseError(f"not a set written inline: {exc}", source="set") from None
    if (
        not isinstance(parts, dict)
        or set(parts) != {"board", "deck"}
        or not all(isinstance(v, str) for v in parts.values())
    ):
        raise ParseError("a set written inline holds a board and a deck", source="set")
    return (
        parse_board_value(parts["board"], "set: board.json"),
        parse_deck_value(parts["deck"], "set: deck.json"),
    )
