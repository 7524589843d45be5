"""Building a print-and-play kit: which components, how they pack on paper, and the folder of
``kit.pdf``, PNG previews, ``board.json``, ``deck.json`` and ``manifest.json``.

>>> from runarch_gen.runarch.kit.samples import sample_board, sample_deck
>>> plan = plan_kit(sample_board(), sample_deck(50), KitOptions(paper="letter"))
>>> plan.counts()["cards"], plan.imposition.spec.paper.name
(50, 'letter')
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runarch_gen import __version__
from runarch_gen.errors import InputError
from runarch_gen.fileio import check_replaceable_folder, read_text, shorten
from runarch_gen.pnp import kit as generic
from runarch_gen.pnp.fonts import FontSet
from runarch_gen.pnp.geometry import Point
from runarch_gen.pnp.kit import Texts
from runarch_gen.pnp.kitfolder import file_entries, sha256, write_kit_folder
from runarch_gen.pnp.sheets import (
    Duplex,
    Furniture,
    Imposition,
    Item,
    SheetSpec,
    impose,
)
from runarch_gen.pnp.surface import Surface
from runarch_gen.runarch.archives import ARCHIVE_ORDERS
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.decks.cards import Deck
from runarch_gen.runarch.engine.conditions import Condition, load_conditions
from runarch_gen.runarch.engine.tokens import (
    BonusTokens,
    load_tokens,
)
from runarch_gen.runarch.kit import parts
from runarch_gen.runarch.kit.components import KitPainter
from runarch_gen.runarch.kit.config import KitConfig, load_kit_config
from runarch_gen.runarch.kit.parts import KitContents
from runarch_gen.runarch.kit.rulebook import Rulebook, RulebookInputs, kit_configs
from runarch_gen.runarch.kit.style import Style
from runarch_gen.runarch.rules import RulesConfig, parse_rules

if TYPE_CHECKING:
    from runarch_gen.runarch.validation.validate import ValidationReport


KINDS: tuple[str, ...] = parts.KINDS
"""Component kinds in the order they are printed; ``--only`` names a subset."""

PREVIEW_PX_PER_MM = 2.5
CONTACT_PX_PER_MM = 2.0


def parse_only(text: str | None) -> tuple[str, ...] | None:
    """``--only tiles,cards`` → the kinds, checked; ``-`` and ``_`` are the same."""
    return generic.parse_only(text, KINDS)


parse_offset = generic.parse_offset
"""``--duplex-offset X,Y`` in mm → (x, y)."""


@dataclass(frozen=True, slots=True)
class KitOptions:
    """What kind of kit to make. ``archive_order`` is the [R-13] option printed on the player
    boards; ``tokens`` and ``conditions`` the bonus-action token values and the condition
    tokens printed (``default`` or the values inline, as the rules options of the same names
    take them); ``template`` a TOML file laid over the bundled templates."""

    paper: str = "a4"
    lang: str = "en"
    bleed: float = 3.0
    duplex: Duplex = "long"
    duplex_offset: Point = (0.0, 0.0)
    print_friendly: bool = False
    only: tuple[str, ...] | None = None
    template: str | None = None
    archive_order: str = "overview"
    tokens: str = "default"
    conditions: str = "default"
    variants: tuple[str, ...] = ()  # variants to try, printed in the rulebook's options

    def checked(self) -> KitOptions:
        generic.check_print_options(self.lang, self.duplex, self.bleed)
        if self.archive_order not in ARCHIVE_ORDERS:
            raise InputError(f"unknown archive order {self.archive_order!r}")
        load_tokens(self.tokens)  # bad token or condition values fail before any work
        load_conditions(self.conditions)
        if self.template is not None:
            load_kit_config(self.template)  # and so does a template outside the schema
        house_variants(self)  # a variant that changes nothing or names a file is refused
        return self


MAX_VARIANTS = 8
"""Variants to try a rulebook prints at most."""


def house_variants(options: KitOptions) -> tuple[RulesConfig, ...]:
    """The variants to try that ``options`` name (rules strings such as ``solo(automa=2)``,
    e.g. what ``runarch-gen validate --suggest`` proposes), each of a variant the kit is made
    for and changing at least one of its options; :class:`InputError` otherwise."""
    if len(options.variants) > MAX_VARIANTS:
        raise InputError(f"--variant: at most {MAX_VARIANTS} variants, not {len(options.variants)}")
    configs = kit_configs(options.archive_order, options.tokens, options.conditions)
    out = []
    for text in options.variants:
        config = parse_rules(text, source="--variant")
        base = next((c for c in configs if c.variant is config.variant), None)
        if base is None or config == base:
            raise InputError(f"--variant {shorten(text)}: changes none of the kit's rules")
        out.append(config)
    return tuple(out)


def printed_tokens(options: KitOptions) -> str:
    """The bonus-action token values printed on the tokens: those of the first variant to try
    that changes them (what ``runarch-gen validate --suggest`` proposes, so that the kit plays
    it as printed), else the kit's own."""
    for config in house_variants(options):
        if config.tokens != options.tokens:
            return config.tokens
    return options.tokens


@dataclass(frozen=True, slots=True)
class KitPlan:
    """A kit laid out but not yet drawn: its config, painter, items and imposition."""

    options: KitOptions
    config: KitConfig
    painter: KitPainter
    items: tuple[Item, ...]
    imposition: Imposition
    board: Board
    deck: Deck
    tokens: BonusTokens
    conditions: tuple[Condition, ...]

    def counts(self) -> dict[str, int]:
        """How many of each kind are printed."""
        out: dict[str, int] = {}
        for item in self.items:
            out[item.kind] = out.get(item.kind, 0) + 1
        return out

    def furniture(self) -> Furniture:
        return generic.furniture(self.painter.t, self.options.duplex, self.imposition.page_count)

    # What the generic drawing and writing steps read (:class:`~runarch_gen.pnp.kit.PlannedKit`).
    @property
    def texts(self) -> Texts:
        return self.painter.t

    @property
    def fonts(self) -> FontSet:
        return self.painter.fonts

    def front(self, surface: Surface, item: Item, bleed: float) -> None:
        self.painter.front(surface, item, bleed)

    def back(self, surface: Surface, item: Item, bleed: float) -> None:
        self.painter.back(surface, item, bleed)


def kit_items(
    board: Board,
    deck: Deck,
    config: KitConfig,
    spec: SheetSpec,
    only: Sequence[str] | None,
    *,
    painter: KitPainter,
    tokens: BonusTokens,
    conditions: Sequence[Condition],
    rulebook: Rulebook | None = None,
) -> list[Item]:
    """Every physical component of RULES §1.2, in print order, with these bonus-action token
    values and condition tokens, after the pages of the ``rulebook`` (laid out on this
    paper): the items of every component kind the ``painter``'s registry holds."""
    contents = KitContents(board, deck, config, spec, tokens, tuple(conditions), rulebook)
    return painter.components.items(contents, KINDS if only is None else only)


def frame_space(config: KitConfig) -> float:
    """The width of one space of the score frame (:meth:`KitConfig.frame_space`)."""
    return config.frame_space()


def plan_kit(
    board: Board,
    deck: Deck,
    options: KitOptions,
    config: KitConfig | None = None,
    validation: ValidationReport | None = None,
) -> KitPlan:
    """Lay out the kit: load the templates, make the items and impose them on the paper."""
    options = options.checked()
    config = config if config is not None else load_kit_config(options.template)
    spec = config.sheet(options.paper)
    texts = config.texts(options.lang)
    style = Style.make(config, friendly=options.print_friendly)
    painter = KitPainter(config, texts, style, ARCHIVE_ORDERS[options.archive_order])
    tokens, conditions = load_tokens(options.tokens), load_conditions(options.conditions)
    rulebook = make_rulebook(
        painter, board, deck, config, spec, options, tokens, conditions, validation
    )
    items = kit_items(
        board,
        deck,
        config,
        spec,
        options.only,
        painter=painter,
        tokens=load_tokens(printed_tokens(options)),  # a variant to try's, when it sets them
        conditions=conditions,
        rulebook=rulebook,
    )
    imposition = impose(
        items, spec, bleed=options.bleed, duplex=options.duplex, offset=options.duplex_offset
    )
    return KitPlan(
        options, config, painter, tuple(items), imposition, board, deck, tokens, conditions
    )


def make_rulebook(
    painter: KitPainter,
    board: Board,
    deck: Deck,
    config: KitConfig,
    spec: SheetSpec,
    options: KitOptions,
    tokens: BonusTokens,
    conditions: Sequence[Condition],
    validation: ValidationReport | None,
) -> Rulebook | None:
    """The rulebook of this kit (``None`` when ``--only`` leaves it out). Its components list
    counts the whole kit, whatever ``--only`` prints."""
    if options.only is not None and "rules" not in options.only:
        return None
    everything = kit_items(
        board,
        deck,
        config,
        spec,
        tuple(k for k in KINDS if k != "rules"),
        painter=painter,
        tokens=tokens,
        conditions=conditions,
    )
    counts: dict[str, int] = {}
    for item in everything:
        counts[item.kind] = counts.get(item.kind, 0) + 1
    inputs = RulebookInputs(
        board,
        deck,
        tokens,
        tuple(conditions),
        kit_configs(options.archive_order, options.tokens, options.conditions),
        counts,
        validation if validation is not None and validation.dynamic else None,
        house_variants(options),
    )
    return Rulebook(painter, inputs)


def render_kit_pdf(plan: KitPlan) -> bytes:
    """The kit as PDF bytes (byte-identical for identical inputs)."""
    return generic.render_kit_pdf(plan)


def render_duplex_test_pdf(plan: KitPlan) -> bytes:
    """``duplex-test.pdf``: the two-page sheet that measures ``--duplex-offset``."""
    return generic.render_duplex_test_pdf(plan, plan.options.duplex)


def render_previews(plan: KitPlan) -> dict[str, bytes]:
    """PNG previews: the board, a contact sheet of the card fronts, the first page holding each
    component kind, and the back of the first card page."""

    out: dict[str, bytes] = {}
    painter = plan.painter
    out["preview-board.png"] = board_picture(painter, plan.board, tile_px=150)
    if len(plan.deck) and (plan.options.only is None or "cards" in plan.options.only):
        out["preview-cards.png"] = contact_sheet(plan)
    out.update(generic.render_page_previews(plan, KINDS, back_of=("cards",)))
    return out


def board_picture(painter: KitPainter, board: Board, *, tile_px: int, labels: bool = True) -> bytes:
    """The board as a PNG, each tile ``tile_px`` pixels wide, drawn like the kit's tiles."""
    from runarch_gen.pnp.raster import RasterSurface

    tile = painter.layouts["tile"].width
    band = float(painter.layouts["board"].value("label_band", 7.0)) if labels else 1.0
    side = 5 * tile + 2 * band
    surface = RasterSurface(side, side, tile_px / tile, painter.fonts)
    painter.draw_board(surface, board, side, labels=labels)
    return surface.png()


def board_painter(*, friendly: bool = True, lang: str = "en") -> KitPainter:
    """A painter with the bundled templates, for drawing boards outside a kit."""
    config = load_kit_config()
    style = Style.make(config, friendly=friendly)
    return KitPainter(config, config.texts(lang), style, ARCHIVE_ORDERS["overview"])


def contact_sheet(plan: KitPlan, columns: int = 10) -> bytes:
    """Every card front, in deck order, on one image."""
    from runarch_gen.pnp.raster import RasterSurface

    card = plan.painter.layouts["card"]
    gap = 3.0
    n = len(plan.deck)
    cols = min(columns, n)
    rows = math.ceil(n / cols)
    width = cols * card.width + (cols + 1) * gap
    height = rows * card.height + (rows + 1) * gap
    surface = RasterSurface(
        width,
        height,
        CONTACT_PX_PER_MM,
        plan.painter.fonts,
        background=plan.painter.style.paper.mix(plan.painter.style.ink, 0.25),
    )
    for i, c in enumerate(plan.deck):
        r, col = divmod(i, cols)
        x = gap + col * (card.width + gap)
        y = gap + r * (card.height + gap)
        with surface.transformed(translate=(x, y)):
            plan.painter.draw_card_front(surface, c, 0.0)
    return surface.png()


# ---------------------------------------------------------------------------------------------
# The manifest


def manifest_components(plan: KitPlan) -> list[dict[str, Any]]:
    """Each kind: how many, its cut size, whether it has a back, and where it is printed."""

    def segments(kind: str, items: list[Item]) -> dict[str, Any]:
        if kind == "frame":  # the frame's segments are printed in pieces
            return {"segments": len({i.payload.segment for i in items})}
        return {}

    return generic.manifest_components(plan, KINDS, segments)


def manifest_sheets(plan: KitPlan) -> list[dict[str, Any]]:
    """Every printed page with the cut box of each component on it (page mm, top-left)."""
    return generic.manifest_sheets(plan.imposition)


def pages_per_paper(plan: KitPlan) -> dict[str, int]:
    """The printed page count of this kit on every paper the templates know."""
    out = {}
    for paper in plan.config.papers:
        if paper == plan.options.paper:
            out[paper] = plan.imposition.page_count
            continue
        spec = plan.config.sheet(paper)
        try:
            rulebook = make_rulebook(
                plan.painter,
                plan.board,
                plan.deck,
                plan.config,
                spec,
                plan.options,
                plan.tokens,
                plan.conditions,
                None,
            )
            items = kit_items(
                plan.board,
                plan.deck,
                plan.config,
                spec,
                plan.options.only,
                painter=plan.painter,
                tokens=plan.tokens,
                conditions=plan.conditions,
                rulebook=rulebook,
            )
            imp = impose(items, spec, bleed=plan.options.bleed, duplex=plan.options.duplex)
        except InputError:
            continue  # this kit does not fit that paper; the chosen paper is what matters
        out[paper] = imp.page_count
    return out


def build_manifest(
    plan: KitPlan,
    *,
    seed: int | None,
    inputs: Mapping[str, Mapping[str, Any]],
    outputs: Mapping[str, bytes],
    validation: ValidationReport | None = None,
    images: bool = False,
    preset: str | None = None,
) -> dict[str, Any]:
    """The manifest: what the kit holds and how it was made, and whether its set can be
    played (``validation``, RULES §9). Sections are built by separate functions."""
    o = plan.options
    return {
        "generator": {"name": "runarch-gen", "version": __version__},
        "game": "runarch",
        "seed": seed,
        "options": {
            **generic.manifest_options(
                o,
                images=images,
                preset=preset,
                archive_order=o.archive_order,
                tokens=o.tokens,
                conditions=o.conditions,
            ),
            **({"printed_tokens": printed_tokens(o)} if printed_tokens(o) != o.tokens else {}),
            **({"variants": list(o.variants)} if o.variants else {}),
        },
        "paper": {
            "name": plan.imposition.spec.paper.name,
            "size_mm": [plan.imposition.spec.paper.width, plan.imposition.spec.paper.height],
        },
        "pages": plan.imposition.page_count,
        "pages_per_paper": pages_per_paper(plan),
        "components": manifest_components(plan),
        "inputs": {name: dict(source) for name, source in sorted(inputs.items())},
        "files": file_entries(outputs),
        "sheets": manifest_sheets(plan),
        "validation": validation.manifest_json() if validation is not None else None,
    }


MAX_NAME = 100
_BAD_NAME_CHARACTERS = frozenset('/\\:*?"<>|')


def kit_folder(out: str | os.PathLike[str], name: str, option: str = "--name") -> Path:
    """The kit folder ``OUT/NAME``, refused with one line unless ``name`` is a plain folder
    name (no path, no ``..``, not hidden; given as ``--name``, at most 100 characters) and
    whatever is there already is a kit that runarch-gen wrote (:func:`check_replaceable_kit`).
    A folder given as ``-o`` (``option``) is as long as the file system allows."""
    shown = repr(name[:40] + ("…" if len(name) > 40 else ""))
    if (
        not name.strip()
        or name in (".", "..")
        or name.startswith(".")
        or name != name.strip()
        or any(c in _BAD_NAME_CHARACTERS or not c.isprintable() for c in name)
    ):
        raise InputError(f"{option}: {shown} is not a plain folder name (no '/', no leading '.')")
    if option == "--name" and len(name) > MAX_NAME:
        raise InputError(f"--name: at most {MAX_NAME} characters, not {len(name)}")
    folder = Path(out) / name
    check_replaceable_folder(folder, check_replaceable_kit)  # again, under a lock, when written
    return folder


def _older_kit(manifest: Mapping[str, Any]) -> bool:
    """A RunArch kit written before manifests named their game."""
    generator = manifest.get("generator")
    return isinstance(generator, Mapping) and generator.get("name") == "runarch-gen"


check_replaceable_kit = generic.kit_owner(
    "runarch",
    "; not replaced (choose another -o, --name or --out, or move it away)",
    _older_kit,
    "a kit that runarch-gen wrote",
)
"""Raise :class:`~runarch_gen.errors.OutputError` unless a folder holds a RunArch kit that
runarch-gen wrote and nothing else: a ``manifest.json`` listing every file in the folder."""


@dataclass(frozen=True, slots=True)
class KitResult:
    folder: Path
    manifest: dict[str, Any] = field(hash=False, compare=False)


def build_kit(
    folder: str | os.PathLike[str],
    board: Board,
    deck: Deck,
    options: KitOptions,
    *,
    seed: int | None = None,
    board_json: str,
    deck_json: str,
    sources: Mapping[str, Mapping[str, Any]] | None = None,
    previews: bool = True,
    images: bool = False,
    preset: str | None = None,
    advance: Callable[[int], None] | None = None,
    before_write: Callable[[], None] | None = None,
    validation: ValidationReport | Callable[[], ValidationReport] | None = None,
) -> KitResult:
    """Write the kit folder: ``kit.pdf``, previews, ``board.json``, ``deck.json`` and
    ``manifest.json``. The folder appears only once complete (built in a temporary place).

    ``images`` adds ``images/`` (a 300-dpi PNG with bleed per card, tile, stone and token) and
    ``tts/`` (Tabletop Simulator deck sheets and saved object), ``preset`` a print service's
    card files, see :mod:`~runarch_gen.runarch.kit.images`.

    ``board_json`` and ``deck_json`` are the documents written beside the PDF, so a kit can
    be rebuilt from its own folder; ``sources`` says where board and deck came from (file
    names and checksums, or the seed they were generated from), for the manifest;
    ``advance(1)`` is called after each stage (PDF, previews, folder), for a progress bar;
    ``before_write()`` runs last before anything is written (a pending input check may raise);
    ``validation`` (:mod:`~runarch_gen.runarch.validation.validate`, or a callable that waits
    for one) goes into the manifest, and the key figures of its simulated games, if any, onto
    the rules page.
    """
    from runarch_gen.runarch.validation.validate import ValidationReport

    step = advance or (lambda n: None)
    ready = validation if isinstance(validation, ValidationReport) else None
    plan = plan_kit(board, deck, options, validation=ready)
    files: dict[str, bytes] = {
        "kit.pdf": render_kit_pdf(plan),
        "duplex-test.pdf": render_duplex_test_pdf(plan),
    }
    step(1)
    if previews:
        files.update(render_previews(plan))
    if images or preset is not None:
        from runarch_gen.runarch.kit.images import EXPORTS

        files.update(
            generic.export_files(
                plan, EXPORTS, "runarch", images=images, preset=preset, folder=Path(folder)
            )
        )
    step(1)
    files["board.json"] = board_json.encode("utf-8")
    files["deck.json"] = deck_json.encode("utf-8")
    inputs: dict[str, Mapping[str, Any]] = dict(sources or {})
    if options.template:
        text = read_text(options.template)
        inputs["template"] = {
            "file": os.path.basename(options.template),
            "sha256": sha256(text.encode("utf-8")),
        }
    if ready is None and validation is not None and not isinstance(validation, ValidationReport):
        ready = validation()  # waits for static checks running beside the drawing
    manifest = build_manifest(
        plan,
        seed=seed,
        inputs=inputs,
        outputs=files,
        validation=ready,
        images=images,
        preset=preset,
    )
    if before_write is not None:
        before_write()
    write_kit_folder(folder, files, check_replaceable_kit, manifest)  # images/, tts/ inside
    step(1)
    return KitResult(Path(folder), manifest)
