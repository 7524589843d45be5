"""``runarch-gen check``: check the boards or the deck in a file and report every problem.

The command reads the file, decides what kind of file it is and hands it to that kind's
checker in the library; each checker returns a report with ``lines()``, ``to_json()`` and
``exit_code``. A new kind adds a detector to :func:`_file_kind` and an entry to
:data:`_CHECKERS`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Protocol

import typer

from runarch_gen.cli._app import JsonOption, app, emit_json, note
from runarch_gen.errors import EXIT_USAGE
from runarch_gen.fileio import display_name, read_text
from runarch_gen.runarch.boards.check import check_board_text
from runarch_gen.runarch.decks.io import sniff_deck


class Report(Protocol):
    @property
    def exit_code(self) -> int: ...

    def lines(self) -> list[str]: ...

    def to_json(self) -> dict[str, Any]: ...


def _check_boards(text: str, source: str, diagonals: bool) -> Report:
    return check_board_text(text, source=source, diagonals=diagonals)


def _check_deck(text: str, source: str, diagonals: bool) -> Report:
    from runarch_gen.runarch.decks.check import check_deck_text

    del diagonals  # a board option
    return check_deck_text(text, source=source)


_CHECKERS: dict[str, Callable[[str, str, bool], Report]] = {
    "boards": _check_boards,
    "deck": _check_deck,
}


def _file_kind(text: str) -> str:
    """Which checker reads ``text``: a deck (JSON with the deck format marker, or CSV with the
    deck's header), else boards."""
    return "deck" if sniff_deck(text) else "boards"


@app.command()
def check(
    file: Annotated[str, typer.Argument(metavar="FILE|-", help="The file to check; - is stdin.")],
    diagonals: Annotated[
        bool, typer.Option("--diagonals", help="Boards must also meet B-2 (the diagonals).")
    ] = False,
    json_: JsonOption = False,
) -> None:
    """Check every board in FILE (text, JSON or JSON Lines), or a deck (JSON or CSV), and
    report every problem.

    Exit 0 when every board (or the deck) is valid, 1 when all were read but some is not
    valid, 2 when the file or some board in it could not be read.
    """
    text = read_text(file)
    source = display_name(file)
    report = _CHECKERS[_file_kind(text)](text, source, diagonals)
    if json_:
        emit_json(report.to_json())
    else:
        for line in report.lines():
            typer.echo(line)
    if report.exit_code == EXIT_USAGE:
        # The report (stdout) says what; stderr carries the one-line error scripts look for.
        note(f"runarch-gen: error: {source}: could not be read (see the report)")
    raise typer.Exit(report.exit_code)
