"""``runarch-gen kit``: the print-and-play kit (PDF, previews, board, deck, manifest)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from runarch_gen.cli._app import JsonOption, SeedOption, app, emit_json, note, resolve_seed
from runarch_gen.progress import progress


@app.command()
def kit(
    seed: SeedOption = None,
    board: Annotated[
        Path | None,
        typer.Option(
            "--board",
            help="Board file (text or JSON), checked; default: generate one from the seed.",
        ),
    ] = None,
    deck: Annotated[
        Path | None,
        typer.Option(
            "--deck",
            help="Deck file (JSON or CSV), checked; default: generate a 50-card deck.",
        ),
    ] = None,
    paper: Annotated[str, typer.Option("--paper", help="Paper: a4 or letter.")] = "a4",
    lang: Annotated[
        str, typer.Option("--lang", help="Language of every printed text: en or cs.")
    ] = "en",
    bleed: Annotated[
        float, typer.Option("--bleed", help="Bleed around each component, in mm (0 allowed).")
    ] = 3.0,
    duplex: Annotated[
        str,
        typer.Option(
            "--duplex",
            help="How backs are placed: long (flip on the long edge), short (on the short edge)"
            " or none (print single-sided and glue the back pages on).",
        ),
    ] = "long",
    duplex_offset: Annotated[
        str | None,
        typer.Option(
            "--duplex-offset",
            metavar="X,Y",
            help="Shift back pages by X mm right and Y mm down, to cancel a printer's shift.",
        ),
    ] = None,
    print_friendly: Annotated[
        bool,
        typer.Option("--print-friendly", help="Light fills and outlines instead of solid colour."),
    ] = False,
    only: Annotated[
        str | None,
        typer.Option(
            "--only",
            metavar="KINDS",
            help="Print only these kinds, comma-separated: rules, board, tiles, stones, frame,"
            " player-boards, markers, cards, bonus-tokens, condition-tokens, bet-tokens.",
        ),
    ] = None,
    template: Annotated[
        Path | None,
        typer.Option("--template", help="TOML file overriding layouts, sheets or texts."),
    ] = None,
    out: Annotated[Path, typer.Option("--out", help="Folder that receives the kit folder.")] = Path(
        "output"
    ),
    name: Annotated[
        str | None,
        typer.Option("--name", help="Name of the kit folder; default: kit-SEED."),
    ] = None,
    json_: JsonOption = False,
) -> None:
    """Make a print-and-play kit: kit.pdf with every component, PNG previews, the board.json
    and deck.json it used, and manifest.json, in OUT/NAME.

    Exit codes: 0 written; 2 bad input (unreadable or invalid board or deck, unknown paper or
    language, bleed too large, unwritable folder) — nothing is written then.
    """
    from runarch_gen.runarch.kit.build import KitOptions, build_kit, parse_offset, parse_only
    from runarch_gen.runarch.kit.inputs import kit_inputs

    chosen = resolve_seed(seed)
    options = KitOptions(
        paper=paper.lower(),
        lang=lang.lower(),
        bleed=bleed,
        duplex=duplex.lower(),  # type: ignore[arg-type]  # checked by KitOptions.checked
        duplex_offset=parse_offset(duplex_offset),
        print_friendly=print_friendly,
        only=parse_only(only),
        template=str(template) if template is not None else None,
    ).checked()
    folder = out / (name if name else f"kit-{chosen}")
    with progress(None, "kit") as advance:
        inputs = kit_inputs(board, deck, seed=chosen, advance=advance, check_in_background=True)
        try:
            result = build_kit(
                folder,
                inputs.board,
                inputs.deck,
                options,
                seed=chosen if inputs.generated else None,
                board_json=inputs.board_json,
                deck_json=inputs.deck_json,
                sources=inputs.sources,
                advance=advance,
                before_write=inputs.confirm,
            )
        finally:
            inputs.close()
    manifest = result.manifest
    if json_:
        emit_json({"folder": str(folder), **manifest})
        return
    counts = ", ".join(
        f"{c['count']} {c['kind'].replace('_', ' ')}" for c in manifest["components"]
    )
    typer.echo(f"{folder}/kit.pdf: {manifest['pages']} pages on {paper} ({counts})")
    if inputs.generated:
        note(f"seed {chosen} (board and deck generated; rebuild with --seed {chosen})")
