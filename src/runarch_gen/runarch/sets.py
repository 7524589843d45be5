"""A set — a board and a deck — from files or a seed: the one loader of ``kit``, ``validate``
and ``simulate``.

Each part given as a file is read (bounded, as every input: :func:`runarch_gen.fileio.read_text`)
and parsed, not checked: a board breaking B-1 or a deck breaking a rule is the business of the
command (the kit refuses it, validation reports it). A part not given is generated from the
seed as ``runarch-gen kit --seed N`` makes it: a valid board, a balanced deck of
:data:`DEFAULT_DECK_SIZE` cards.

>>> chosen = load_set_parts(None, None, seed=3)
>>> chosen.generated, len(chosen.deck), chosen.board_file is None
(True, 50, True)
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from runarch_gen.errors import InputError
from runarch_gen.fileio import display_name, read_text
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.decks.cards import Deck

__all__ = ["DEFAULT_DECK_SIZE", "SetParts", "load_set_parts"]

DEFAULT_DECK_SIZE = 50  # the deck a kit, a validation and a playtest generate


@dataclass(frozen=True, slots=True)
class SetParts:
    """A board and a deck, the seed that generated what was not read, and for each part read
    from a file that file's name (as the user gave it) and text."""

    board: Board
    deck: Deck
    seed: int
    board_file: str | None = None
    deck_file: str | None = None
    board_text: str | None = None
    deck_text: str | None = None

    @property
    def generated(self) -> bool:
        """Whether any part was generated from the seed."""
        return self.board_file is None or self.deck_file is None

    def file_source(self, part: str) -> dict[str, Any]:
        """Where ``part`` (``board`` or ``deck``) came from, as a kit's manifest records it:
        ``{"file": base name, "sha256": …}`` or ``{"generated": True, "seed": …}`` (with the
        deck's size)."""
        name, text = (
            (self.board_file, self.board_text)
            if part == "board"
            else (self.deck_file, self.deck_text)
        )
        if name is None or text is None:
            extra = {"cards": len(self.deck)} if part == "deck" else {}
            return {"generated": True, "seed": self.seed, **extra}
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        return {"file": os.path.basename(name), "sha256": digest}


def load_set_parts(
    board: str | os.PathLike[str] | None,
    deck: str | os.PathLike[str] | None,
    *,
    seed: int,
    deck_size: int = DEFAULT_DECK_SIZE,
    advance: Callable[[int], None] | None = None,
) -> SetParts:
    """The board in file ``board`` and the deck in file ``deck`` (read, not checked; a deck
    must name each card once); each part not given generated from ``seed``. ``advance`` is
    told of the deck generator's progress. Unreadable files raise
    :class:`~runarch_gen.errors.InputError` (a located :class:`~runarch_gen.errors.ParseError`
    for text that is not a board or a deck)."""
    from runarch_gen.runarch.boards.io import parse_boards
    from runarch_gen.runarch.decks.io import parse_deck, require_unique_ids

    board_file = deck_file = board_text = deck_text = None
    if board is not None:
        board_file, board_text = display_name(board), read_text(board)
        boards = parse_boards(board_text, source=board_file)
        if len(boards) != 1:
            raise InputError(f"{board_file}: holds {len(boards)} boards, expected one")
        the_board = boards[0]
    else:
        from runarch_gen.runarch.boards.generate import generate_board

        the_board = generate_board(seed=seed)
    if deck is not None:
        deck_file, deck_text = display_name(deck), read_text(deck)
        the_deck = require_unique_ids(parse_deck(deck_text, source=deck_file), deck_file)
    else:
        from runarch_gen.runarch.decks.generate import generate_deck

        the_deck, _ = generate_deck(deck_size, seed, advance=advance)
    return SetParts(the_board, the_deck, seed, board_file, deck_file, board_text, deck_text)
