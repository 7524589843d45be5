"""The kit's inputs: a board and a deck, read from files (and checked) or generated from a
seed, and the JSON documents stored beside the PDF so a kit can be rebuilt from its folder."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runarch_gen.background import Forked
from runarch_gen.errors import InputError
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.decks.cards import Deck
from runarch_gen.runarch.decks.check import DECK_SIZES
from runarch_gen.runarch.sets import DEFAULT_DECK_SIZE

if TYPE_CHECKING:
    from runarch_gen.runarch.validation.validate import ValidationReport

SHOWN_FINDINGS = 3


def _findings(source: str, what: str, messages: list[str]) -> InputError:
    """One line naming the file and the checker's first findings."""
    shown = "; ".join(messages[:SHOWN_FINDINGS])
    more = f" (and {len(messages) - SHOWN_FINDINGS} more)" if len(messages) > SHOWN_FINDINGS else ""
    return InputError(f"{source}: not a valid {what}: {shown}{more}")


def parse_board(text: str, *, source: str) -> Board:
    """The one board in ``text`` (any format :mod:`~runarch_gen.runarch.boards.io` reads); it
    must pass the board checker (B-1), whose findings the error quotes."""
    from runarch_gen.runarch.boards.check import check_board
    from runarch_gen.runarch.boards.io import parse_boards

    boards = parse_boards(text, source=source)
    if len(boards) != 1:
        raise InputError(f"{source}: holds {len(boards)} boards, expected one")
    findings = check_board(boards[0])
    if findings:
        raise _findings(source, "board", [f.message for f in findings])
    return boards[0]


def parse_deck(text: str, *, source: str) -> Deck:
    """The deck in ``text`` (JSON or CSV, :mod:`~runarch_gen.runarch.decks.io`); it must pass the
    deck checker's static checks (RULES §9.1), whose violations the error quotes."""
    deck = read_deck_text(text, source=source)
    violations = deck_violations(deck, source)
    if violations:
        raise _findings(source, "deck", violations)
    return deck


def read_deck_text(text: str, *, source: str) -> Deck:
    """The deck in ``text``, read but not yet checked."""
    from runarch_gen.runarch.decks.io import parse_deck as read
    from runarch_gen.runarch.decks.io import require_unique_ids

    return require_unique_ids(read(text, source=source), source)


def deck_violations(deck: Deck, source: str) -> list[str]:
    """The deck checker's violations (RULES §9.1), as text; empty when the deck is valid."""
    from runarch_gen.runarch.decks.check import check_deck

    return [v.text for v in check_deck(deck, source=source).violations]


class KitChecks:
    """A kit's checks in one forked child beside the drawing: the deck checker for a deck file
    read but not yet checked (:attr:`KitInputs.unchecked_deck`), then, when ``variants`` are
    given, the set's static checks (:func:`~runarch_gen.runarch.validation.validate.check_set`).

    Both load CP-SAT and solve a model per goal, about as long as drawing the whole kit; one
    child does both on the other core, so CP-SAT is loaded once. :meth:`confirm` waits and
    raises the deck checker's findings before anything is written; :meth:`validation` is the
    static checks' report; :meth:`close` stops the child if the kit failed first. Without
    ``fork`` the checks run at once.
    """

    def __init__(self, inputs: KitInputs, variants: Sequence[str] | None = None) -> None:
        self._source = inputs.unchecked_deck
        self._job = Forked(
            _kit_checks,
            inputs.board,
            inputs.deck,
            inputs.unchecked_deck,
            tuple(variants) if variants is not None else None,
            what="the kit's checks",
        )

    def confirm(self) -> None:
        violations, _ = self._job.result()
        if violations and self._source is not None:
            raise _findings(self._source, "deck", violations)

    def validation(self) -> ValidationReport:
        _, report = self._job.result()
        if report is None:
            raise ValueError("no variants were given to check")
        return report

    def close(self) -> None:
        self._job.close()


def _kit_checks(
    board: Board, deck: Deck, unchecked: str | None, variants: tuple[str, ...] | None
) -> tuple[list[str], ValidationReport | None]:
    if unchecked is None and variants is None:
        return [], None  # nothing to check: a generated deck, and no static checks asked for
    from runarch_gen.runarch.decks.check import check_deck

    report = check_deck(deck, source=unchecked or "deck")
    violations = [v.text for v in report.violations] if unchecked is not None else []
    if variants is None:
        return violations, None
    from runarch_gen.runarch.validation.validate import check_set

    return violations, check_set(board, deck, variants, deck_checked=report)


def board_document(board: Board, meta: dict[str, Any] | None = None) -> str:
    """The board as the JSON the board commands write (and read back)."""
    from runarch_gen.runarch.boards.io import format_board

    return format_board(board, "json", meta)


def deck_document(deck: Deck) -> str:
    """The deck as the JSON the deck commands write (and read back)."""
    from runarch_gen.runarch.decks.io import deck_to_json

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
    unchecked_deck: str | None = None  # a deck file's name, read but left to :class:`KitChecks`

    @property
    def generated(self) -> bool:
        return any(source.get("generated") for source in self.sources.values())


def kit_inputs(
    board_path: str | os.PathLike[str] | None,
    deck_path: str | os.PathLike[str] | None,
    *,
    seed: int,
    deck_size: int = DEFAULT_DECK_SIZE,
    advance: Callable[[int], None] | None = None,
    check_later: bool = False,
) -> KitInputs:
    """Read (and check) the given files; generate from ``seed`` whatever is not given: the
    board with :func:`~runarch_gen.runarch.boards.generate.generate_board`, the deck with
    :func:`~runarch_gen.runarch.decks.generate.generate_deck`.

    With ``check_later`` a deck file is read but not checked (:attr:`KitInputs.unchecked_deck`
    names it): :class:`KitChecks` checks it beside the drawing, and its :meth:`~KitChecks.confirm`
    must pass before anything is written."""
    from runarch_gen.runarch.boards.check import check_board
    from runarch_gen.runarch.sets import load_set_parts

    parts = load_set_parts(board_path, deck_path, seed=seed, deck_size=deck_size, advance=advance)
    if parts.board_file is not None:
        findings = check_board(parts.board)
        if findings:
            raise _findings(parts.board_file, "board", [f.message for f in findings])
    unchecked = None
    if parts.deck_file is not None:
        name = parts.deck_file
        if check_later:
            unchecked = name
            if len(parts.deck) not in DECK_SIZES:  # before any drawing
                raise InputError(f"{name}: {len(parts.deck)} cards; a deck has 30 to 100 [R-01]")
            odd = next((card for card in parts.deck.cards if len(card.arrows) != 2), None)
            if odd is not None:  # the card face has room for two
                raise InputError(
                    f"{name}: card {odd.id} has {len(odd.arrows)} arrows; a card shows 2 [R-03]"
                )
        else:
            violations = deck_violations(parts.deck, name)
            if violations:
                raise _findings(name, "deck", violations)
    sources = {part: parts.file_source(part) for part in ("board", "deck")}
    board_meta = {"seed": seed} if board_path is None else None
    return KitInputs(
        parts.board,
        parts.deck,
        board_document(parts.board, board_meta),
        deck_document(parts.deck),
        sources,
        unchecked,
    )


def bench_inputs(folder: Path, *, seed: int) -> tuple[Path, Path, Deck]:
    """A generated board file, a generated 50-card deck file and a generated 100-card deck,
    for benchmarks."""
    from runarch_gen.runarch.boards.generate import generate_board
    from runarch_gen.runarch.decks.generate import generate_deck

    board_path = folder / "board.json"
    deck_path = folder / "deck.json"
    board_path.write_text(board_document(generate_board(seed=seed)), encoding="utf-8")
    deck_path.write_text(deck_document(generate_deck(50, seed)[0]), encoding="utf-8")
    return board_path, deck_path, generate_deck(100, seed)[0]
