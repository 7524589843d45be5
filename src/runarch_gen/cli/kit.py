"""``runarch-gen kit`` and ``runarch-gen GAME kit``: every game's print-and-play kit with the
same options, help texts, manifest and exit codes.

:func:`game_kit_command` builds the command of any game whose registration has a ``kit`` hook
(:mod:`runarch_gen.pnp.kit`); RunArch's ``kit`` takes the same options and adds its own (the
board, the deck, token and condition sets, variants, ``--validate``; ``--out``/``--name`` keep
their old meaning: the parent folder and the kit folder's name).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, get_type_hints

import typer

from runarch_gen.cli._app import JsonOption, SeedOption, app, emit_json, note, resolve_seed
from runarch_gen.progress import progress

if TYPE_CHECKING:
    from runarch_gen.pnp.kit import KitOptions
    from runarch_gen.runarch.validation.validate import ValidationReport

KIT_HELP = """

kit.pdf is one print job: page 1 says how to print it; with --duplex long or short it prints
double-sided (every sheet without backs gets a blank back), with --duplex none single-sided
(back pages follow their fronts, to glue). duplex-test.pdf, where backs matter, measures the
shift to pass as --duplex-offset. The same options give the same bytes.

Exit codes: 0 written; 2 bad input (an unknown paper, language, kind or preset, a bleed too
large for the paper, a folder that is not this game's kit) — nothing is written then; 130
interrupted."""

# -- the options every kit takes ---------------------------------------------------------------

OutputOption = Annotated[
    Path | None,
    typer.Option(
        "--output",
        "-o",
        help="The kit folder (replaced only if it holds a kit of this game and nothing else);"
        " default output/GAME-kit-….",
    ),
]
PaperOption = Annotated[str, typer.Option("--paper", help="Paper: a4 or letter.")]
LangOption = Annotated[
    str, typer.Option("--lang", help="Language of every printed text: en or cs.")
]
BleedOption = Annotated[
    float, typer.Option("--bleed", help="Bleed around each component, in mm (0 allowed).")
]
DuplexOption = Annotated[
    str,
    typer.Option(
        "--duplex",
        help="How backs are placed: long (flip on the long edge), short (on the short edge)"
        " or none (print single-sided and glue the back pages on).",
    ),
]
OffsetOption = Annotated[
    str | None,
    typer.Option(
        "--duplex-offset",
        metavar="X,Y",
        help="Shift back pages by X mm right and Y mm down (as seen on the back page), to"
        " cancel a printer's shift: print duplex-test.pdf from the kit folder and pass the"
        " two numbers its back page shows under the lines from the front.",
    ),
]
FriendlyOption = Annotated[
    bool,
    typer.Option("--print-friendly", help="Light fills and outlines instead of solid colour."),
]
OnlyOption = Annotated[
    str | None,
    typer.Option(
        "--only",
        metavar="KINDS",
        help="Print only these kinds of component, comma-separated (the manifest lists a"
        " kit's kinds; a wrong name lists them too).",
    ),
]
ImagesOption = Annotated[
    bool,
    typer.Option(
        "--images",
        help="Also write images/ (a 300-dpi PNG with bleed per card and piece, round pieces"
        " with transparent corners) and tts/ (Tabletop Simulator sheets of 10 × 7 cards and"
        " tts/GAME.json, a saved object with a CustomDeck per kind of card).",
    ),
]
PresetOption = Annotated[
    str | None,
    typer.Option(
        "--preset",
        help="Also write the cards for a print service: mpc (a PNG per card, 822 × 1122 px"
        " at 300 dpi), tgc (825 × 1125 px) or pdf (print-cards.pdf, one card per page with"
        " TrimBox and BleedBox).",
    ),
]
TemplateOption = Annotated[
    Path | None,
    typer.Option("--template", help="TOML file overriding layouts, sheets or texts."),
]


def kit_options(
    *,
    paper: str,
    lang: str,
    bleed: float,
    duplex: str,
    duplex_offset: str | None,
    print_friendly: bool,
    only: str | None,
    images: bool,
    preset: str | None,
    template: Path | None,
    kinds: tuple[str, ...],
) -> KitOptions:
    """The common options as typed, checked (one clear error for the first bad one)."""
    from runarch_gen.pnp.kit import KitOptions, parse_offset, parse_only

    return KitOptions(
        paper=paper.strip().lower(),
        lang=lang.strip().lower(),
        bleed=bleed,
        duplex=duplex.strip().lower(),  # type: ignore[arg-type]  # checked below
        duplex_offset=parse_offset(duplex_offset),
        print_friendly=print_friendly,
        only=parse_only(only, kinds),
        template=str(template) if template is not None else None,
        images=images,
        preset=preset.strip().lower() if preset is not None else None,
    ).checked(kinds)


def report(folder: Path, manifest: dict[str, Any], json_: bool) -> None:
    """What a kit command prints: the manifest as JSON, or one line of what was written."""
    if json_:
        emit_json({"folder": str(folder), **manifest})
        return
    counts = ", ".join(
        f"{c['count']} {c['kind'].replace('_', ' ')}" for c in manifest["components"]
    )
    paper = manifest["paper"]["name"]
    typer.echo(f"{folder}/kit.pdf: {manifest['pages']} pages on {paper} ({counts})")


# -- any game's kit ----------------------------------------------------------------------------


def game_kit_command(name: str) -> Callable[..., None]:
    """The ``kit`` command of game ``name`` (its registration's ``kit`` hook makes the kit)."""

    def kit(
        output: OutputOption = None,
        rules: Annotated[
            str,
            typer.Option(
                "--rules",
                help=f"A game string, e.g. '{name}(...)', or only its parameters: the kit"
                " prints these rules (see `runarch-gen games`).",
            ),
        ] = "",
        paper: PaperOption = "a4",
        lang: LangOption = "en",
        bleed: BleedOption = 3.0,
        duplex: DuplexOption = "long",
        duplex_offset: OffsetOption = None,
        print_friendly: FriendlyOption = False,
        only: OnlyOption = None,
        images: ImagesOption = False,
        preset: PresetOption = None,
        template: TemplateOption = None,
        json_: JsonOption = False,
    ) -> None:
        from runarch_gen.games import game_values
        from runarch_gen.pnp.kit import (
            MAKE_STEPS,
            KitRequest,
            default_folder,
            kit_definition,
            make_kit,
        )

        registration, values = game_values(name, rules, "--rules", files=True)
        definition = kit_definition(registration)
        options = kit_options(
            paper=paper,
            lang=lang,
            bleed=bleed,
            duplex=duplex,
            duplex_offset=duplex_offset,
            print_friendly=print_friendly,
            only=only,
            images=images,
            preset=preset,
            template=template,
            kinds=definition.kinds,
        )
        folder = output if output is not None else default_folder(definition.game, options)
        steps = MAKE_STEPS if definition.make is None else None  # RunArch's counts its own
        with progress(steps, "kit") as advance:
            made = make_kit(definition, folder, KitRequest(options, values), advance=advance)
        report(made.folder, made.manifest, json_)

    kit.__name__ = f"{name}_kit"
    kit.__doc__ = (
        f"Make the print-and-play kit of {name}: kit.pdf with the rulebook (Czech or English)"
        " and every component, PNG previews and manifest.json, in one folder." + KIT_HELP
    )
    kit.__annotations__ = get_type_hints(kit, localns={"name": name}, include_extras=True)
    return kit


# -- RunArch's kit ------------------------------------------------------------------------------


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
    output: OutputOption = None,
    paper: PaperOption = "a4",
    lang: LangOption = "en",
    bleed: BleedOption = 3.0,
    duplex: DuplexOption = "long",
    duplex_offset: OffsetOption = None,
    print_friendly: FriendlyOption = False,
    only: OnlyOption = None,
    images: ImagesOption = False,
    preset: PresetOption = None,
    template: TemplateOption = None,
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
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", help="The folder that receives the kit folder (with --name, or the default)."
        ),
    ] = None,
    name: Annotated[
        str | None,
        typer.Option(
            "--name",
            help="Name of the kit folder inside --out or -o (default output); without it -o is"
            " the kit folder itself.",
        ),
    ] = None,
    validate: Annotated[
        bool,
        typer.Option(
            "--validate",
            help="Also simulate games in each variant (as runarch-gen validate does) and print"
            " their key figures on the rules page.",
        ),
    ] = False,
    json_: JsonOption = False,
) -> None:
    """Make RunArch's print-and-play kit: kit.pdf with the rulebook and every component,
    duplex-test.pdf, PNG previews, the board.json and deck.json it used, and manifest.json, in
    one folder (default output/kit-SEED).

    The static checks of `runarch-gen validate` always run: manifest.json records whether the
    set can be played, and any rules findings.

    kit.pdf is one print job: page 1 says how to print it; with --duplex long or short it prints
    double-sided (every sheet without backs gets a blank back), with --duplex none single-sided
    (back pages follow their fronts, to glue). The same options give the same bytes.

    Exit codes: 0 written; 2 bad input (unreadable or invalid board or deck, unknown paper or
    language, bleed too large, unwritable folder) — nothing is written then; 130 interrupted.
    """
    from runarch_gen.runarch.kit.build import KINDS, KitOptions, kit_folder
    from runarch_gen.runarch.kit.make import make_kit
    from runarch_gen.runarch.rules import data_option, parse_rules

    chosen = resolve_seed(seed)
    common = kit_options(
        paper=paper,
        lang=lang,
        bleed=bleed,
        duplex=duplex,
        duplex_offset=duplex_offset,
        print_friendly=print_friendly,
        only=only,
        images=images,
        preset=preset,
        template=template,
        kinds=KINDS,
    )
    options = KitOptions(
        paper=common.paper,
        lang=common.lang,
        bleed=common.bleed,
        duplex=common.duplex,
        duplex_offset=common.duplex_offset,
        print_friendly=common.print_friendly,
        only=common.only,
        template=common.template,
        tokens=data_option("tokens", tokens or "default", source="--tokens"),
        conditions=data_option("conditions", conditions or "default", source="--conditions"),
        variants=tuple(
            str(parse_rules(text, source="--variant", files=Path("."))) for text in variant or ()
        ),
    ).checked()
    default_name = f"kit-{chosen}"
    if name is not None:
        folder = kit_folder(out or output or Path("output"), name)
    elif output is not None:
        folder = kit_folder(output.parent, output.name, "-o") if output.name else output
    else:
        folder = kit_folder(out or Path("output"), default_name)
    with progress(None, "kit") as advance:
        result = make_kit(
            folder,
            board=board,
            deck=deck,
            seed=chosen,
            options=options,
            validate=validate,
            images=images,
            preset=common.preset,
            advance=advance,
        )
    report(result.folder, result.manifest, json_)
    if json_:
        return
    for line in _validation_notes(result.validation):
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
