"""The kit's inputs: a board and a deck, read from files (and checked) or generated from a
seed, and the JSON documents stored beside the PDF so a kit can be rebuilt from its folder."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from runarch_gen.background import Forked
from runarch_gen.errors import InputError
from runarch_gen.fileio import display_name, read_text
from runarch_gen.runarch.board import Board
from runarch_gen.runarch.cards import Deck

DEFAULT_DECK_SIZE = 50
SHOWN_FINDINGS = 3


def _findings(source: str, what: str, messages: list[str]) -> InputError:
    """One line naming the file and the checker's first findings."""
    shown = "; ".join(messages[:SHOWN_FINDINGS])
    more = f" (and {len(messages) - SHOWN_FINDINGS} more)" if len(messages) > SHOWN_FINDINGS else ""
    return InputError(f"{source}: not a valid {what}: {shown}{more}")


def parse_board(text: str, *, source: str) -> Board:
    """The one board in ``text`` (any format :mod:`~runarch_gen.runarch.boardio` reads); it
    must pass the board checker (B-1), whose findings the error quotes."""
    from runarch_gen.runarch.boardcheck import check_board
    from runarch_gen.runarch.boardio import parse_boards

    boards = parse_boards(text, source=source)
    if len(boards) != 1:
        raise InputError(f"{source}: holds {len(boards)} boards, expected one")
    findings = check_board(boards[0])
    if findings:
        raise _findings(source, "board", [f.message for f in findings])
    return boards[0]


def parse_deck(text: str, *, source: str) -> Deck:
    """The deck in ``text`` (JSON or CSV, :mod:`~runarch_gen.runarch.deckio`); it must pass the
    deck checker's static checks (RULES §9.1), whose violations the error quotes."""
    deck = read_deck_text(text, source=source)
    violations = deck_violations(deck, source)
    if violations:
        raise _findings(source, "deck", violations)
    return deck


def read_deck_text(text: str, *, source: str) -> Deck:
    """The deck in ``text``, read but not yet checked."""
    from runarch_gen.runarch.deckio import parse_deck as read

    return read(text, source=source)


def deck_violations(deck: Deck, source: str) -> list[str]:
    """The deck checker's violations (RULES §9.1), as text; empty when the deck is valid."""
    from runarch_gen.runarch.deckcheck import check_deck

    return [v.text for v in check_deck(deck, source=source).violations]


class DeckCheck:
    """The deck checker running beside the kit's drawing.

    Proving every goal achievable loads CP-SAT and solves a model per goal, about as long as
    drawing the whole kit; where the platform can fork, a child process does it on the other
    core while the kit is drawn. :meth:`confirm` waits for the verdict and raises the checker's
    findings, before anything is written; :meth:`close` stops the child if the kit failed
    first.
    """

    def __init__(self, deck: Deck, source: str) -> None:
        self._source = source
        self._job = Forked(deck_violations, deck, source, what="the deck checker")

    def confirm(self) -> None:
        violations = self._job.result()
        if violations:
            raise _findings(self._source, "deck", violations)

    def close(self) -> None:
        self._job.close()


def load_board(path: str | os.PathLike[str]) -> Board:
    return parse_board(read_text(path), source=display_name(path))


def load_deck(path: str | os.PathLike[str]) -> Deck:
    return parse_deck(read_text(path), source=display_name(path))


def board_document(board: Board, meta: dict[str, Any] | None = None) -> str:
    """The board as the JSON the board commands write (and read back)."""
    from runarch_gen.runarch.boardio import format_board

    return format_board(board, "json", meta)


def deck_document(deck: Deck) -> str:
    """The deck as the JSON the deck commands write (and read back)."""
    from runarch_gen.runarch.deckio import deck_to_json

    return deck_to_json(deck)


@dataclass(frozen=True, slots=True)
class KitInputs:
    """The board and deck of a kit, the JSON documents stored with it, and where each came
    from (``{"file": name, "sha256": …}`` or ``{"generated": True, "seed": …}``)."""

    board: Board
    deck: Deck
    board_json: str
    deck_json: str
    sources: dict[str, dict[str, Any]]
    deck_check: DeckCheck | None = None

    @property
    def generated(self) -> bool:
        return any(source.get("generated") for source in self.sources.values())

    def confirm(self) -> None:
        """Raise the deck checker's findings if a deck file turned out invalid."""
        if self.deck_check is not None:
            self.deck_check.confirm()

    def close(self) -> None:
        """Stop a background check that is no longer wanted (the kit failed before it)."""
        if self.deck_check is not None:
            self.deck_check.close()


def _source(path: str | os.PathLike[str], text: str) -> dict[str, Any]:
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return {"file": os.path.basename(display_name(path)), "sha256": digest}


def kit_inputs(
    board_path: str | os.PathLike[str] | None,
    deck_path: str | os.PathLike[str] | None,
    *,
    seed: int,
    deck_size: int = DEFAULT_DECK_SIZE,
    advance: Callable[[int], None] | None = None,
    check_in_background: bool = False,
) -> KitInputs:
    """Read (and check) the given files; generate from ``seed`` whatever is not given: the
    board with :func:`~runarch_gen.runarch.boardgen.generate_board`, the deck with
    :func:`~runarch_gen.runarch.deckgen.generate_deck`.

    With ``check_in_background`` a deck file is checked beside the drawing (see
    :class:`DeckCheck`): call :meth:`KitInputs.confirm` before writing anything."""
    sources: dict[str, dict[str, Any]] = {}
    if board_path is not None:
        text = read_text(board_path)
        board = parse_board(text, source=display_name(board_path))
        sources["board"] = _source(board_path, text)
    else:
        from runarch_gen.runarch.boardgen import generate_board

        board = generate_board(seed=seed)
        sources["board"] = {"generated": True, "seed": seed}
    deck_check = None
    if deck_path is not None:
        text = read_text(deck_path)
        name = display_name(deck_path)
        if check_in_background:
            deck = read_deck_text(text, source=name)
            deck_check = DeckCheck(deck, name)
        else:
            deck = parse_deck(text, source=name)
        sources["deck"] = _source(deck_path, text)
    else:
        from runarch_gen.runarch.deckgen import generate_deck

        deck, _ = generate_deck(deck_size, seed, advance=advance)
        sources["deck"] = {"generated": True, "seed": seed, "cards": deck_size}
    board_meta = {"seed": seed} if board_path is None else None
    return KitInputs(
        board, deck, board_document(board, board_meta), deck_document(deck), sources, deck_check
    )


def bench_inputs(folder: Path, *, seed: int) -> tuple[Path, Path, Deck]:
    """A generated board file, a generated 50-card deck file and a generated 100-card deck,
    for benchmarks."""
    from runarch_gen.runarch.boardgen import generate_board
    from runarch_gen.runarch.deckgen import generate_deck

    board_path = folder / "board.json"
    deck_path = folder / "deck.json"
    board_path.write_text(board_document(generate_board(seed=seed)), encoding="utf-8")
    deck_path.write_text(deck_document(generate_deck(50, seed)[0]), encoding="utf-8")
    return board_path, deck_path, generate_deck(100, seed)[0]
