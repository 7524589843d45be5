"""``runarch-gen kit``: the print-and-play kit (PDF, previews, board, deck, manifest)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from runarch_gen.cli._app import JsonOption, SeedOption, app, emit_json, note, resolve_seed
from runarch_gen.progress import progress

if TYPE_CHECKING:
    from runarch_gen.runarch.validation.validate import ValidationReport


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
            help="Shift back pages by X mm right and Y mm down (as seen on the back page), to"
            " cancel a printer's shift: print duplex-test.pdf from the kit folder and pass the"
            " two numbers its back page shows under the lines from the front.",
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
    tokens: Annotated[
        str | None,
        typer.Option(
            "--tokens",
            help="Bonus-action token values to print and validate with: inline"
            " ('D5/6/7 X7/8/9 F9/10/11 N11/12/13') or a TOML file like the engine's tokens.toml;"
            " default: RULES §1.4.",
        ),
    ] = None,
    conditions: Annotated[
        str | None,
        typer.Option(
            "--conditions",
            help="Condition tokens to print and validate with: inline ('1·1·1|2·1·0 any order')"
            " or a TOML file like the engine's conditions.toml; default: [R-02].",
        ),
    ] = None,
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            metavar="RULES",
            help="A variant to try, printed with the rulebook's rules options: a rules string"
            " such as solo(automa=2), as runarch-gen validate --suggest proposes; repeatable.",
        ),
    ] = None,
    template: Annotated[
        Path | None,
        typer.Option("--template", help="TOML file overriding layouts, sheets or texts."),
    ] = None,
    out: Annotated[
        Path,
        typer.Option(
            "--output", "-o", "--out", help="Folder that receives the kit folder (--out: the same)."
        ),
    ] = Path("output"),
    name: Annotated[
        str | None,
        typer.Option("--name", help="Name of the kit folder; default: kit-SEED."),
    ] = None,
    validate: Annotated[
        bool,
        typer.Option(
            "--validate",
            help="Also simulate games in each variant (as runarch-gen validate does) and print"
            " their key figures on the rules page.",
        ),
    ] = False,
    images: Annotated[
        bool,
        typer.Option(
            "--images",
            help="Also write images/ (a 300-dpi PNG with bleed per card front, tile, stone and"
            " token, and each kind of back, for print-on-demand services) and tts/ (Tabletop"
            " Simulator deck sheets of 10 × 7 cards, at most 4096 px wide, and the card back).",
        ),
    ] = False,
    json_: JsonOption = False,
) -> None:
    """Make a print-and-play kit: kit.pdf with the rulebook and every component, duplex-test.pdf
    (prints the shift to pass as --duplex-offset), PNG previews, the board.json and deck.json
    it used, and manifest.json, in OUT/NAME.

    kit.pdf prints as one double-sided job (--duplex long or short: every sheet without backs
    gets a blank back) or single-sided (--duplex none: back pages follow their fronts, to glue).

    The static checks of `runarch-gen validate` always run: manifest.json records whether the
    set can be played, and any rules findings.

    Exit codes: 0 written; 2 bad input (unreadable or invalid board or deck, unknown paper or
    language, bleed too large, unwritable folder) — nothing is written then; 130 interrupted.
    """
    from runarch_gen.runarch.kit.build import (
        KitOptions,
        kit_folder,
        parse_offset,
        parse_only,
    )
    from runarch_gen.runarch.kit.make import make_kit
    from runarch_gen.runarch.rules import data_option, parse_rules

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
        tokens=data_option("tokens", tokens or "default", source="--tokens"),
        conditions=data_option("conditions", conditions or "default", source="--conditions"),
        variants=tuple(
            str(parse_rules(text, source="--variant", files=Path("."))) for text in variant or ()
        ),
    ).checked()
    folder = kit_folder(out, name if name is not None else f"kit-{chosen}")
    with progress(None, "kit") as advance:
        result = make_kit(
            folder,
            board=board,
            deck=deck,
            seed=chosen,
            options=options,
            validate=validate,
            images=images,
            advance=advance,
        )
    validation = result.validation
    manifest = result.manifest
    if json_:
        emit_json({"folder": str(folder), **manifest})
        return
    counts = ", ".join(
        f"{c['count']} {c['kind'].replace('_', ' ')}" for c in manifest["components"]
    )
    typer.echo(f"{folder}/kit.pdf: {manifest['pages']} pages on {paper} ({counts})")
    for line in _validation_notes(validation):
        note(line)
    if result.generated:
        note(f"seed {chosen} (board and deck generated; rebuild with --seed {chosen})")


def _validation_notes(validation: ValidationReport) -> list[str]:
    what = "static checks" + (", simulated games" if validation.dynamic else "")
    if not validation.playable:
        return [f"validation ({what}): NOT PLAYABLE: {validation.reasons[0]} (see manifest.json)"]
    lines = [f"validation ({what}): playable in {', '.join(validation.variants)}"]
    lines += [f"rules finding: {finding.headline}" for finding in validation.findings]
    return lines
