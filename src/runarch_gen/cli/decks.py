"""``runarch-gen deck``: a balanced deck of cards (RULES.md §1.3, §7, §9.2)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from runarch_gen.cli._app import (
    JsonOption,
    SeedOption,
    WorkersOption,
    app,
    emit_json,
    note,
    resolve_seed,
)
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
    calibrate: Annotated[
        bool,
        typer.Option(
            "--calibrate",
            help="Set goal rewards from simulated games instead of the deck-only estimate,"
            " and record how in the deck (JSON).",
        ),
    ] = False,
    calibrate_games: Annotated[
        int, typer.Option("--calibrate-games", help="Games to simulate for --calibrate.")
    ] = 400,
    calibrate_variant: Annotated[
        str, typer.Option("--calibrate-variant", help="Rules string of the calibration games.")
    ] = "complex",
    calibrate_bots: Annotated[
        str, typer.Option("--calibrate-bots", help="Bots of the calibration games.")
    ] = "greedy",
    workers: WorkersOption = None,
    json_: JsonOption = False,
) -> None:
    """Generate a balanced deck whose patterns differ as much as possible.

    The report (difference reached, best possible and why) goes to stderr; --json: stdout.
    --calibrate plays games with the deck on a board generated from the same seed and pays
    each goal by how often players met it.
    """
    from runarch_gen.runarch.decks.generate import (
        MAX_CARDS,
        MIN_CARDS,
        check_exact_targets,
        generate_deck,
    )
    from runarch_gen.runarch.decks.io import deck_format_for_path, write_deck

    if not MIN_CARDS <= cards <= MAX_CARDS:
        raise InputError(f"--cards {cards}: a deck has {MIN_CARDS} to {MAX_CARDS} cards [R-01]")
    if json_ and output == STDIO:
        raise InputError("--json prints the report on stdout: give -o FILE for the deck")
    try:
        targets = check_exact_targets(cards, exact or ())
    except (ConstraintError, InputError) as exc:
        raise type(exc)(f"--{exc}") from None
    fmt = format_.value if format_ is not None else deck_format_for_path(output)
    calibration = None
    if calibrate:
        from runarch_gen.runarch.analysis.simulation import check_bots
        from runarch_gen.runarch.rules import parse_rules

        if calibrate_games < 1:
            raise InputError(f"--calibrate-games {calibrate_games}: play at least 1 game")
        rules = parse_rules(calibrate_variant, source="--calibrate-variant", files=Path("."))
        bots = check_bots(calibrate_bots.split(","), rules)
    used = resolve_seed(seed)
    with progress(None, "deck") as advance:
        made, report = generate_deck(
            cards, used, exact=targets, advance=advance, on_total=advance.set_total
        )
    if calibrate:
        from runarch_gen.runarch.analysis.calibration import calibrate_deck
        from runarch_gen.runarch.boards.generate import generate_board

        with progress(calibrate_games, "calibrate") as advance:
            made, calibration = calibrate_deck(
                made,
                generate_board(seed=used),
                rules=rules,
                bots=bots,
                games=calibrate_games,
                seed=used,
                board_source=f"generated, seed {used}",
                workers=workers,
                on_progress=advance,
            )
        if calibration.simulation.interrupted:
            raise KeyboardInterrupt  # nothing is written: a deck calibrated on part of the games
    write_deck(made, output, "csv" if fmt == "csv" else "json")
    if json_:
        extra = {"calibration": calibration.to_json()} if calibration is not None else {}
        emit_json({**report.to_json(), **extra, "output": output})
        return
    for line in report.lines():
        note(line)
    if calibration is not None:
        for line in calibration.lines():
            note(line)
        if fmt == "csv":
            note("runarch-gen: a CSV deck has no place for the calibration record; use JSON")
    if output != STDIO:
        note(f"runarch-gen: wrote {output} (seed {used})")
    elif seed is None:
        note(f"runarch-gen: seed {used} (repeat with --seed {used})")
