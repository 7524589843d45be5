"""``runarch-gen deck``: a balanced deck of cards (RULES.md §1.3, §7, §9.2)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from runarch_gen.cli._app import JsonOption, SeedOption, app, emit_json, note, resolve_seed
from runarch_gen.errors import ConstraintError, InputError
from runarch_gen.fileio import STDIO
from runarch_gen.progress import progress


class DeckFormatName(StrEnum):
    json = "json"
    csv = "csv"


@app.command()
def deck(
    cards: Annotated[
        int, typer.Option("--cards", "-n", help="How many cards: 30 to 100 [R-01].")
    ] = 50,
    seed: SeedOption = None,
    output: Annotated[
        str, typer.Option("-o", "--output", metavar="FILE", help="Write here instead of stdout.")
    ] = STDIO,
    format_: Annotated[
        DeckFormatName | None,
        typer.Option(
            "--format",
            case_sensitive=False,
            help="json or csv. Default: from the -o extension, else json.",
        ),
    ] = None,
    exact: Annotated[
        list[str] | None,
        typer.Option(
            "--exact",
            metavar="TARGET",
            help="Make a balance target hold exactly instead of as evenly as the size allows:"
            " stones, positions, matches, goal-kinds, arrow-directions or arrow-pairs."
            " Repeatable.",
        ),
    ] = None,
    json_: JsonOption = False,
) -> None:
    """Generate a balanced deck whose patterns differ as much as possible.

    The report (difference reached, best possible and why) goes to stderr; --json: stdout.
    """
    from runarch_gen.runarch.deckgen import MAX_CARDS, MIN_CARDS, check_exact_targets, generate_deck
    from runarch_gen.runarch.deckio import deck_format_for_path, write_deck

    if not MIN_CARDS <= cards <= MAX_CARDS:
        raise InputError(f"--cards {cards}: a deck has {MIN_CARDS} to {MAX_CARDS} cards [R-01]")
    if json_ and output == STDIO:
        raise InputError("--json prints the report on stdout: give -o FILE for the deck")
    try:
        targets = check_exact_targets(cards, exact or ())
    except (ConstraintError, InputError) as exc:
        raise type(exc)(f"--{exc}") from None
    fmt = format_.value if format_ is not None else deck_format_for_path(output)
    used = resolve_seed(seed)
    with progress(None, "deck") as advance:
        made, report = generate_deck(cards, used, exact=targets, advance=advance)
    write_deck(made, output, "csv" if fmt == "csv" else "json")
    if json_:
        emit_json({**report.to_json(), "output": output})
        return
    for line in report.lines():
        note(line)
    if output != STDIO:
        note(f"runarch-gen: wrote {output} (seed {used})")
    elif seed is None:
        note(f"runarch-gen: seed {used} (repeat with --seed {used})")
