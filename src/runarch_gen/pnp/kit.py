"""One kit pipeline for every game: options, templates and texts, components, a rulebook, the
imposition, and one folder written once with its manifest.

A game gives a :class:`KitDefinition` (its short name, component kinds and how to plan a kit
from a :class:`KitRequest`); :func:`make_kit` does the rest, the same way for every game:

1. check the options (paper, language, bleed, duplex, ``--only`` kinds, preset) and the folder
   (replaced only when it holds a kit of this game and nothing else) before any work;
2. plan: the game's :class:`~runarch_gen.pnp.components.ComponentRegistry` makes the items from
   its contents, its rulebook's pages go first, :func:`~runarch_gen.pnp.sheets.impose` packs them;
3. draw ``kit.pdf`` (one job; page 1 says how to print it; blank backs where a page has none),
   ``duplex-test.pdf`` where backs matter, PNG previews, and on request piece images, a print
   service's card files (:mod:`.exports`) and a Tabletop Simulator saved object;
4. write the folder and ``manifest.json`` at once (:mod:`.kitfolder`).

Templates: ``templates/shared/kit.toml`` (sheet, papers) and ``templates/shared/texts.toml``
(the words every kit prints: the printing notes, page labels, the duplex test) under each game's
``templates/GAME/kit.toml`` and ``texts.toml``; ``--template FILE`` lays a designer's changes
over both.

>>> parse_only("dice-nets,rules", ("rules", "board", "dice_nets"))
('rules', 'dice_nets')
>>> default_folder("bluff", KitOptions(lang="cs"))
PosixPath('output/bluff-kit-cs')
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from runarch_gen import __version__
from runarch_gen.errors import InputError
from runarch_gen.fileio import check_replaceable_folder, display_name, read_text
from runarch_gen.pnp.components import Component, ComponentRegistry
from runarch_gen.pnp.fonts import FontSet
from runarch_gen.pnp.geometry import Box, Point
from runarch_gen.pnp.kitfolder import (
    MayReplace,
    file_entries,
    owned_kit,
    sha256,
    write_kit_folder,
)
from runarch_gen.pnp.layout import ComponentLayout, Table, merged, read_toml, templates_dir
from runarch_gen.pnp.sheets import (
    DUPLEX_MODES,
    Duplex,
    DuplexTestTexts,
    Furniture,
    Imposition,
    Item,
    SheetSpec,
    render_duplex_test,
    render_page_png,
    render_pdf,
)

__all__ = [
    "LANGUAGES",
    "PRESETS",
    "KitDefinition",
    "KitOptions",
    "KitPlan",
    "KitRequest",
    "KitTemplates",
    "MadeKit",
    "Texts",
    "default_folder",
    "furniture",
    "kit_definition",
    "kit_owner",
    "load_templates",
    "make_kit",
    "parse_offset",
    "parse_only",
]

LANGUAGES = ("en", "cs")
PRESETS = ("mpc", "tgc", "pdf")
"""Print-service exports (:mod:`.exports`): one PNG per card at a service's pixel size, or a
PDF with one card per page."""
SHARED = "shared"
PREVIEW_PX_PER_MM = 2.5


# -- texts -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Texts:
    """The printed strings of one language."""

    lang: str
    table: Mapping[str, Any] = field(hash=False, compare=False)

    def __getitem__(self, key: str) -> Any:
        try:
            return self.table[key]
        except KeyError:
            raise InputError(f"texts [{self.lang}]: missing '{key}'") from None

    def get(self, key: str, default: Any = None) -> Any:
        return self.table.get(key, default)

    def format(self, key: str, **values: Any) -> str:
        return str(self[key]).format(**values)

    def kind(self, kind: str) -> str:
        return str(self["kinds"][kind])

    def strings(self) -> list[str]:
        """Every string in the table (for glyph-coverage checks)."""
        out: list[str] = []

        def walk(value: Any) -> None:
            if isinstance(value, str):
                out.append(value)
            elif isinstance(value, Mapping):
                for v in value.values():
                    walk(v)
            elif isinstance(value, Sequence):
                for v in value:
                    walk(v)

        walk(self.table)
        return out


# -- templates -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KitTemplates:
    """A game's layout data and texts: the shared templates with the game's laid over them,
    and a designer's ``--template`` over both."""

    game: str
    data: Mapping[str, Any] = field(hash=False, compare=False)
    text_data: Mapping[str, Any] = field(hash=False, compare=False)
    source: str = "built-in templates"

    def layout(self, name: str) -> ComponentLayout:
        table = self.data.get("components", {}).get(name)
        if table is None:
            raise InputError(f"{self.source}: no [components.{name}] table")
        return ComponentLayout.from_table(name, resolve_size(table, f"components.{name}"))

    def sheet(self, paper: str) -> SheetSpec:
        return SheetSpec.from_tables(self.data.get("sheet", {}), self.data.get("papers", {}), paper)

    @property
    def papers(self) -> tuple[str, ...]:
        return tuple(self.data.get("papers", {}))

    def texts(self, lang: str) -> Texts:
        if lang not in self.text_data:
            raise InputError(f"unknown language {lang!r}: expected one of {', '.join(LANGUAGES)}")
        return Texts(lang, self.text_data[lang])

    def value(self, table: str, key: str, default: Any = None) -> Any:
        return self.data.get(table, {}).get(key, default)


def resolve_size(table: Mapping[str, Any], where: str) -> dict[str, Any]:
    """A component table whose ``size`` names a stock card size (``poker``, ``mini``, ``a6``,
    :data:`~runarch_gen.pnp.stock.CARD_SIZES`), turned to landscape by ``landscape = true``,
    as the plain ``width`` and ``height`` it stands for."""
    from runarch_gen.pnp.stock import CARD_SIZES

    out = dict(table)
    size = out.pop("size", None)
    landscape = out.pop("landscape", False)
    if size is None:
        return out
    if size not in CARD_SIZES:
        known = ", ".join(CARD_SIZES)
        raise InputError(f"[{where}] 'size' must be one of {known}, not {size!r}")
    width, height = CARD_SIZES[size]
    if landscape:
        width, height = height, width
    out.setdefault("width", width)
    out.setdefault("height", height)
    return out


def load_templates(
    game: str,
    override: str | os.PathLike[str] | None = None,
    check: Callable[[Mapping[str, Any], Mapping[str, Any], str], None] | None = None,
) -> KitTemplates:
    """``templates/shared/*.toml`` with ``templates/GAME/kit.toml`` and ``texts.toml`` laid over
    them, and ``override`` (a TOML file whose ``[texts.LANG]`` tables go to the texts) over
    both; ``check(data, text_data, source)`` refuses what the game's schema does not allow."""
    base = templates_dir()
    data: Table = read_toml(base / SHARED / "kit.toml")
    text_data: Table = read_toml(base / SHARED / "texts.toml")
    own = base / game / "kit.toml"
    if own.is_file():
        data = merged(data, read_toml(own))
    text_data = merged(text_data, read_toml(base / game / "texts.toml"))
    source = "built-in templates"
    if override is not None:
        extra = read_toml(override)
        texts_override = extra.pop("texts", {})
        if not isinstance(texts_override, Mapping):
            raise InputError(f"{display_name(override)}: [texts] must be a table")
        data = merged(data, extra)
        text_data = merged(text_data, texts_override)
        source = display_name(override)
    if check is not None:
        check(data, text_data, source)
    return KitTemplates(game, data, text_data, source)


# -- options ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KitOptions:
    """How to print a kit, the same for every game: paper, language, bleed (mm), duplex mode
    and offset (mm), print-friendly colours, only some component kinds, a template laid over
    the bundled ones, per-piece images and a print service's preset."""

    paper: str = "a4"
    lang: str = "en"
    bleed: float = 3.0
    duplex: Duplex = "long"
    duplex_offset: Point = (0.0, 0.0)
    print_friendly: bool = False
    only: tuple[str, ...] | None = None
    template: str | None = None
    images: bool = False
    preset: str | None = None

    def checked(self, kinds: Sequence[str] = ()) -> KitOptions:
        """These options, or an :class:`InputError` naming the first bad one."""
        check_print_options(self.lang, self.duplex, self.bleed)
        if self.preset is not None and self.preset not in PRESETS:
            raise InputError(f"--preset: one of {', '.join(PRESETS)}, not {self.preset[:20]!r}")
        if self.only is not None and kinds:
            unknown = [k for k in self.only if k not in kinds]
            if unknown:
                raise InputError(_unknown_kind(unknown[0], kinds))
        return self


def check_print_options(lang: str, duplex: str, bleed: float) -> None:
    if lang not in LANGUAGES:
        raise InputError(f"unknown language {lang!r}: expected one of {', '.join(LANGUAGES)}")
    if duplex not in DUPLEX_MODES:
        raise InputError(f"unknown duplex {duplex!r}: expected long, short or none")
    if not math.isfinite(bleed) or bleed < 0:
        raise InputError(f"--bleed must be zero or more millimetres, not {bleed:g}")


def _unknown_kind(name: str, kinds: Sequence[str]) -> str:
    expected = ", ".join(k.replace("_", "-") for k in kinds)
    return f"--only: unknown component {name!r}: expected some of {expected}"


def parse_only(text: str | None, kinds: Sequence[str]) -> tuple[str, ...] | None:
    """``--only tiles,cards`` → the kinds in print order, checked; ``-`` and ``_`` are the
    same."""
    if text is None:
        return None
    names = [n.strip().lower().replace("-", "_") for n in text.split(",") if n.strip()]
    if not names:
        raise InputError("--only: name at least one component kind")
    unknown = [n for n in names if n not in kinds]
    if unknown:
        raise InputError(_unknown_kind(unknown[0], kinds))
    return tuple(k for k in kinds if k in names)


def parse_offset(text: str | None) -> Point:
    """``--duplex-offset X,Y`` in mm → (x, y)."""
    if text is None or not text.strip():
        return (0.0, 0.0)
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = (float(p) for p in parts)
    except ValueError:
        raise InputError(
            f"--duplex-offset: expected X,Y in mm (e.g. 0.5,-1), not {text!r}"
        ) from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise InputError(f"--duplex-offset: expected finite numbers, not {text!r}")
    return (x, y)


def default_folder(game: str, options: KitOptions, tail: str | None = None) -> Path:
    """``output/GAME-kit-LANG`` (or ``output/GAME-kit-TAIL``): where a kit goes by default."""
    return Path("output") / f"{game}-kit-{tail if tail is not None else options.lang}"


# -- the plan --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KitRequest:
    """What to make: the print options, the game's rule values (as its registration parses
    ``--rules``) and a seed for anything random."""

    options: KitOptions = KitOptions()
    values: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=False)
    seed: int | None = None


class PlannedKit(Protocol):
    """What the drawing and writing steps read from a planned kit (a game may keep more)."""

    @property
    def imposition(self) -> Imposition: ...
    @property
    def items(self) -> tuple[Item, ...]: ...
    @property
    def fonts(self) -> FontSet: ...
    @property
    def texts(self) -> Texts: ...

    def front(self, surface: Any, item: Item, bleed: float) -> None: ...
    def back(self, surface: Any, item: Item, bleed: float) -> None: ...
    def furniture(self) -> Furniture: ...


@dataclass(frozen=True)
class KitPlan:
    """A kit laid out but not yet drawn: the components and their items imposed on the paper,
    the texts and fonts, and what the game adds to the folder and the manifest."""

    game: str
    options: KitOptions
    templates: KitTemplates
    texts: Texts
    fonts: FontSet
    components: ComponentRegistry[Any]
    items: tuple[Item, ...]
    imposition: Imposition
    kinds: tuple[str, ...]
    exports: ExportKinds
    extra_files: Mapping[str, bytes] = field(default_factory=dict)
    manifest_options: Mapping[str, Any] = field(default_factory=dict)
    painter: Any = None
    """The game's painter (what draws its pieces), for pictures and checks."""
    book: Any = None
    """The rulebook (:class:`~runarch_gen.pnp.rulebook.FlowBook`)."""

    def front(self, surface: Any, item: Item, bleed: float) -> None:
        self.components.front(surface, item, bleed)

    def back(self, surface: Any, item: Item, bleed: float) -> None:
        self.components.back(surface, item, bleed)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for item in self.items:
            out[item.kind] = out.get(item.kind, 0) + 1
        return out

    def furniture(self) -> Furniture:
        return furniture(self.texts, self.options.duplex, self.imposition.page_count)


@dataclass(frozen=True, slots=True)
class ExportKinds:
    """Which kinds the exports cover: ``cards`` go to print services and Tabletop Simulator
    decks, ``pieces`` (and the cards) to one PNG each with ``--images``; ``shared_backs`` have
    one back for all their pieces (one image of it)."""

    cards: tuple[str, ...] = ()
    pieces: tuple[str, ...] = ()
    shared_backs: tuple[str, ...] = ()
    tts: tuple[str, ...] | None = None
    """The kinds laid out as Tabletop Simulator decks (default: the cards)."""


def furniture(texts: Texts, duplex: Duplex, pages: int) -> Furniture:
    """The page furniture from a kit's texts: the print note, the square's label, each page's
    label (the game, what is on the page, its number) and page 1's note on how to print the
    whole file."""
    t = texts

    def label(page: int, count: int, back: bool, kinds: tuple[str, ...]) -> str:
        if kinds:
            contents = ", ".join(t.kind(k) for k in kinds)
            if back:
                contents += f" ({t['back_suffix']})"
        else:
            contents = str(t["blank_back"])
        return t.format("page_label", game=t["game"], contents=contents, page=page, pages=count)

    first = t.format(f"duplex_note_{duplex}", pages=pages)
    return Furniture(str(t["print_note"]), str(t["square_label"]), label, first)


def plan_sheets(
    *,
    game: str,
    options: KitOptions,
    templates: KitTemplates,
    texts: Texts,
    fonts: FontSet,
    components: ComponentRegistry[Any],
    contents: Any,
    book: Any,
    kinds: tuple[str, ...],
    exports: ExportKinds,
    extra_files: Mapping[str, bytes] | None = None,
    manifest_options: Mapping[str, Any] | None = None,
    painter: Any = None,
) -> KitPlan:
    """A game's kit laid out: the rulebook's pages (``book``, a
    :class:`~runarch_gen.pnp.rulebook.FlowBook`, unless ``--only`` leaves out ``rules``), then
    the items of every component kind (or of the ``--only`` kinds) made from ``contents``,
    imposed on the paper."""
    from runarch_gen.pnp.rulebook import rulebook_items

    spec = templates.sheet(options.paper)
    wanted = kinds if options.only is None else options.only
    if book is not None:  # the rulebook's pages are a component too, printed first
        components = ComponentRegistry(
            [
                Component("rules", lambda c: rulebook_items(book, spec), book.draw_rules_page),
                *components,
            ]
        )
    items = components.items(contents, wanted)
    if not items:
        raise InputError("--only: these kinds print nothing")
    imposition = impose_kit(items, spec, options)
    return KitPlan(
        game,
        options,
        templates,
        texts,
        fonts,
        components,
        tuple(items),
        imposition,
        kinds,
        exports,
        dict(extra_files or {}),
        dict(manifest_options or {}),
        painter,
        book,
    )


def impose_kit(items: Sequence[Item], spec: SheetSpec, options: KitOptions) -> Imposition:
    from runarch_gen.pnp.sheets import impose

    return impose(
        items, spec, bleed=options.bleed, duplex=options.duplex, offset=options.duplex_offset
    )


# -- drawing ---------------------------------------------------------------------------------


def render_kit_pdf(plan: PlannedKit) -> bytes:
    """``kit.pdf``: every page, in order, byte-identical for identical inputs."""
    t = plan.texts
    return render_pdf(
        plan.imposition,
        plan.front,
        plan.back,
        plan.furniture(),
        title=f"{t['game']} — print-and-play kit",
        author="runarch-gen",
        subject=f"{t['game']} print-and-play kit",
        creator=f"runarch-gen {__version__}",
        fonts=plan.fonts,
    )


def render_duplex_test_pdf(plan: PlannedKit, duplex: Duplex) -> bytes:
    """``duplex-test.pdf``: the two-page sheet that measures ``--duplex-offset``."""
    t = plan.texts
    flip = t["duplex_flip"][duplex]
    texts = DuplexTestTexts(
        str(t["duplex_test_title"]),
        t.format("duplex_test_front", flip=flip),
        str(t["duplex_test_back"]),
    )
    sided: Duplex = "long" if duplex == "none" else duplex
    return render_duplex_test(
        plan.imposition.spec,
        sided,
        texts,
        plan.furniture(),
        fonts=plan.fonts,
        title=f"{t['game']} — duplex test",
        creator=f"runarch-gen {__version__}",
    )


def has_backs(imposition: Imposition) -> bool:
    """Whether any page prints backs (then the duplex test matters)."""
    return any(page.backs is not None for page in imposition.pages)


def render_page_previews(
    plan: PlannedKit, kinds: Sequence[str], *, back_of: Sequence[str] = ()
) -> dict[str, bytes]:
    """``preview-page-NN-KINDS.png``: the first page holding each kind, and the back of the
    first page of each kind in ``back_of``."""
    imposition = plan.imposition
    numbers = imposition.numbers()
    furniture_ = plan.furniture()
    first_pages: dict[int, list[str]] = {}
    for kind in kinds:
        index = next((i for i, p in enumerate(imposition.pages) if kind in p.kinds), None)
        if index is not None:
            first_pages.setdefault(index, []).append(kind.replace("_", "-"))
    out: dict[str, bytes] = {}
    for index, names in sorted(first_pages.items()):
        page = imposition.pages[index]
        name = f"preview-page-{numbers[index][0]:02d}-{'-'.join(names)}.png"
        out[name] = render_page_png(
            imposition,
            index,
            plan.front,
            furniture_,
            px_per_mm=PREVIEW_PX_PER_MM,
            fonts=plan.fonts,
        )
        backed = [n for n in names if n.replace("-", "_") in back_of]
        if backed and page.backs is not None:
            out[f"preview-page-{numbers[index][1]:02d}-{backed[0]}-back.png"] = render_page_png(
                imposition,
                index,
                plan.back,
                furniture_,
                back=True,
                px_per_mm=PREVIEW_PX_PER_MM,
                fonts=plan.fonts,
            )
    return out


# -- the manifest ----------------------------------------------------------------------------


def manifest_components(
    plan: PlannedKit,
    kinds: Sequence[str],
    extra: Callable[[str, list[Item]], Mapping[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Each kind: how many, its cut sizes, whether it has a back, and the pages it is on."""
    numbers = plan.imposition.numbers()
    out = []
    for kind in kinds:
        of_kind = [i for i in plan.items if i.kind == kind]
        if not of_kind:
            continue
        sizes = sorted({(round(i.width, 2), round(i.height, 2)) for i in of_kind})
        entry: dict[str, Any] = {"kind": kind, "count": len(of_kind)}
        if extra is not None:
            entry.update(extra(kind, of_kind))
        out.append(
            {
                **entry,
                "sizes_mm": [list(s) for s in sizes],
                "double_sided": of_kind[0].double_sided,
                "pages": sorted(
                    {numbers[i][0] for i, p in enumerate(plan.imposition.pages) if kind in p.kinds}
                ),
            }
        )
    return out


def _box(b: Box) -> list[float]:
    return [round(b.x, 3), round(b.y, 3), round(b.width, 3), round(b.height, 3)]


def manifest_sheets(imposition: Imposition) -> list[dict[str, Any]]:
    """Every printed page with the cut box of each component on it (page mm, top-left)."""
    numbers = imposition.numbers()
    out: list[dict[str, Any]] = []
    blanks = [n for n, p in enumerate(imposition.printed, 1) if p.side == "blank"]
    for page, (front, back) in zip(imposition.pages, numbers, strict=True):
        out.append(
            {
                "page": front,
                "side": "front",
                "components": [
                    {"key": p.item.key, "cut": _box(p.cut), "turns": p.quarter_turns}
                    for p in page.placements
                ],
            }
        )
        if page.backs is not None:
            out.append(
                {
                    "page": back,
                    "side": "back",
                    "components": [
                        {"key": p.item.key, "cut": _box(p.cut), "turns": p.quarter_turns}
                        for p in page.backs
                    ],
                }
            )
    out += [{"page": n, "side": "blank", "components": []} for n in blanks]
    out.sort(key=lambda sheet: int(sheet["page"]))
    return out


def manifest_options(options: Any, **extra: Any) -> dict[str, Any]:
    """The options as the manifest records them (the game's own after the common ones)."""
    return {
        "paper": options.paper,
        "lang": options.lang,
        "bleed_mm": options.bleed,
        "duplex": options.duplex,
        "duplex_offset_mm": list(options.duplex_offset),
        "print_friendly": options.print_friendly,
        "only": list(options.only) if options.only is not None else None,
        **extra,
        "template": os.path.basename(options.template) if options.template else None,
    }


def template_input(template: str | None) -> dict[str, Mapping[str, Any]]:
    """The manifest's ``inputs`` entry of a ``--template`` file (its name and checksum)."""
    if not template:
        return {}
    text = read_text(template)
    return {
        "template": {"file": os.path.basename(template), "sha256": sha256(text.encode("utf-8"))}
    }


def kit_owner(
    game: str,
    hint: str = "; not replaced (choose another --output)",
    older: Callable[[Mapping[str, Any]], bool] | None = None,
    what: str | None = None,
) -> MayReplace:
    """A folder may be replaced when it holds a kit of ``game`` written by runarch-gen (or an
    older kit of the game that ``older`` recognises by its manifest) and nothing but the files
    its manifest lists."""

    def ours(manifest: Any) -> bool:
        if manifest.get("game") == game:
            return True
        return older is not None and "game" not in manifest and older(manifest)

    return owned_kit(ours, what or f"a {game} kit that runarch-gen wrote", hint)


# -- the definition and the pipeline -----------------------------------------------------------


def kit_definition(registration: Any) -> KitDefinition:
    """The kit of a registered game (its registration's ``kit`` hook), or an
    :class:`InputError` for a game without one."""
    hook = getattr(registration, "kit", None)
    if hook is None:
        name = registration.game_type.short_name
        raise InputError(f"{name} has no print-and-play kit")
    definition: KitDefinition = hook()
    return definition


@dataclass(frozen=True)
class KitDefinition:
    """A game's kit: its short name, its component kinds in print order (``--only`` names a
    subset), and ``plan(request)``, which lays out the kit (:class:`KitPlan`). A registration's
    ``kit`` hook returns one."""

    game: str
    kinds: tuple[str, ...]
    plan: Callable[[KitRequest], KitPlan]
    uses_seed: bool = False
    make: Callable[[Path, KitRequest], MadeKit] | None = None
    """A game that writes more than the common pipeline (RunArch: its board and deck, checked
    on the side) makes its folder itself; :func:`make_kit` calls it."""


@dataclass(frozen=True, slots=True)
class MadeKit:
    folder: Path
    manifest: dict[str, Any] = field(hash=False, compare=False)


def export_files(
    plan: PlannedKit,
    exports: ExportKinds,
    game: str,
    *,
    images: bool,
    preset: str | None,
    folder: Path | None,
) -> dict[str, bytes]:
    """The exports the options ask for: ``images/`` and ``tts/`` (``images``), a print
    service's files (``preset``); the saved object's addresses point into ``folder``."""
    from runarch_gen.pnp import exports as export

    files: dict[str, bytes] = {}
    if images:
        files.update(export.piece_images(plan, exports))
        files.update(export.tts_files(plan, exports, game, folder))
    if preset is not None:
        files.update(export.preset_files(plan, exports, preset))
    return files


def build_files(plan: KitPlan, folder: Path | None = None) -> dict[str, bytes]:
    """Every file of a planned kit: ``kit.pdf``, the duplex test where backs matter, previews,
    the game's own files, and the exports the options ask for."""
    files: dict[str, bytes] = {"kit.pdf": render_kit_pdf(plan)}
    if has_backs(plan.imposition):
        files["duplex-test.pdf"] = render_duplex_test_pdf(plan, plan.options.duplex)
    files.update(render_page_previews(plan, plan.kinds, back_of=plan.exports.cards))
    files.update(plan.extra_files)
    options = plan.options
    files.update(
        export_files(
            plan,
            plan.exports,
            plan.game,
            images=options.images,
            preset=options.preset,
            folder=folder,
        )
    )
    return files


def build_manifest(
    plan: KitPlan,
    files: Mapping[str, bytes],
    *,
    seed: int | None = None,
    inputs: Mapping[str, Mapping[str, Any]] | None = None,
    pages_per_paper: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """The manifest: what made the kit, its options, paper, pages, components, inputs, files
    and where every piece is on every page — the same sections for every game."""
    spec = plan.imposition.spec
    return {
        "generator": {"name": "runarch-gen", "version": __version__},
        "game": plan.game,
        "seed": seed,
        "options": manifest_options(
            plan.options,
            images=plan.options.images,
            preset=plan.options.preset,
            **dict(plan.manifest_options),
        ),
        "paper": {"name": spec.paper.name, "size_mm": [spec.paper.width, spec.paper.height]},
        "pages": plan.imposition.page_count,
        "pages_per_paper": dict(pages_per_paper or {spec.paper.name: plan.imposition.page_count}),
        "components": manifest_components(plan, plan.kinds),
        "inputs": {name: dict(source) for name, source in sorted((inputs or {}).items())},
        "files": file_entries(files),
        "sheets": manifest_sheets(plan.imposition),
    }


MAKE_STEPS = 3
"""The steps :func:`make_kit` reports to ``advance`` (planned, drawn, written): a progress
bar's total for a kit made by the common pipeline."""


def make_kit(
    definition: KitDefinition,
    folder: str | os.PathLike[str],
    request: KitRequest,
    *,
    advance: Callable[[int], None] | None = None,
) -> MadeKit:
    """Plan, draw and write the kit of ``definition`` into ``folder`` (replaced only when it
    holds this game's kit and nothing else; written whole, once). Raises
    :class:`~runarch_gen.errors.InputError` for bad options, before anything is written."""
    if definition.make is not None:
        return definition.make(Path(folder), request)
    step = advance or (lambda n: None)
    owner = kit_owner(definition.game)
    check_replaceable_folder(Path(folder), owner)  # refused before any work
    options = request.options.checked(definition.kinds)
    plan = definition.plan(KitRequest(options, request.values, request.seed))
    step(1)
    files = build_files(plan, Path(folder))
    step(1)
    per_paper = {plan.imposition.spec.paper.name: plan.imposition.page_count}
    for paper in plan.templates.papers:
        if paper in per_paper:
            continue
        try:
            other = definition.plan(
                KitRequest(
                    _replaced(options, paper=paper, images=False, preset=None),
                    request.values,
                    request.seed,
                )
            )
        except InputError:
            continue  # this kit does not fit that paper; the chosen paper is what matters
        per_paper[paper] = other.imposition.page_count
    manifest = build_manifest(
        plan,
        files,
        seed=request.seed if definition.uses_seed else None,
        inputs=template_input(options.template),
        pages_per_paper=dict(sorted(per_paper.items())),
    )
    write_kit_folder(folder, files, owner, manifest)
    step(1)
    return MadeKit(Path(folder), manifest)


def _replaced(options: KitOptions, **changes: Any) -> KitOptions:
    from dataclasses import replace

    return replace(options, **changes)
