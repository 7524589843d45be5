"""Four kits, one standard: every game's kit is made by the same command with the same options
and manifest, prints as one job that says on page 1 how to print it, has a player's rulebook in
its language, readable text, pieces that fit, colours a mono printer keeps apart, and exports
for print services and virtual tables. Everything is read back from the PDFs and PNGs."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import numpy as np
import pymupdf
import pytest
from PIL import Image

from runarch_gen.cli import run
from runarch_gen.games import registered_games
from runarch_gen.pnp.fonts import default_fonts
from runarch_gen.pnp.geometry import Box
from runarch_gen.pnp.paint import Paint, grey_level
from runarch_gen.pnp.surface import RecordingSurface
from tests.kit_helpers import GAMES, MM, family, low_contrast, spans

LANGS = ("en", "cs")
CASES = [(g, lang) for g in GAMES for lang in LANGS]
COMMON_KEYS = {
    "generator",
    "game",
    "seed",
    "options",
    "paper",
    "pages",
    "pages_per_paper",
    "components",
    "inputs",
    "files",
    "sheets",
}
COMMON_OPTIONS = {
    "paper",
    "lang",
    "bleed_mm",
    "duplex",
    "duplex_offset_mm",
    "print_friendly",
    "only",
    "images",
    "preset",
    "template",
}


# -- one interface -------------------------------------------------------------------------------


def test_every_registered_game_has_a_kit_hook() -> None:
    names = [r.game_type.short_name for r in registered_games() if r.kit is not None]
    assert set(GAMES) <= set(names)
    for registration in registered_games():
        if registration.kit is not None:
            definition = registration.kit()
            assert definition.game == registration.game_type.short_name
            assert definition.kinds[0] == "rules"


def kit_games() -> list[str]:
    """Every registered game with a kit hook (the walk covers games added later too)."""
    return [r.game_type.short_name for r in registered_games() if r.kit is not None]


@pytest.mark.parametrize("game", kit_games())
def test_every_kit_command_takes_the_same_options_and_writes_the_same_manifest(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / f"{game}-kit"
    prefix = ["kit", "--seed", "3"] if game == "runarch" else [game, "kit"]
    args = [
        *prefix,
        "-o",
        str(folder),
        "--paper",
        "letter",
        "--lang",
        "cs",
        "--bleed",
        "2",
        "--duplex",
        "short",
        "--duplex-offset",
        "0.5,-0.5",
        "--print-friendly",
        "--json",
    ]
    assert run(args) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["folder"] == str(folder)
    assert set(report) >= COMMON_KEYS and report["game"] == game
    assert set(report["options"]) >= COMMON_OPTIONS
    options = report["options"]
    assert (options["paper"], options["lang"], options["bleed_mm"]) == ("letter", "cs", 2.0)
    assert options["duplex"] == "short" and options["duplex_offset_mm"] == [0.5, -0.5]
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    assert dict(manifest.items()) == {k: report[k] for k in manifest}
    files = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    assert files == {*manifest["files"], "manifest.json"}
    assert "kit.pdf" in files and manifest["components"][0]["kind"] == "rules"
    # --only prints what it names and nothing else.
    kind = manifest["components"][-1]["kind"]
    assert run([*prefix, "-o", str(tmp_path / "only"), "--only", kind.replace("_", "-")]) == 0
    only = json.loads((tmp_path / "only" / "manifest.json").read_text("utf-8"))
    assert [c["kind"] for c in only["components"]] == [kind]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--paper", "a5"], "unknown paper"),
        (["--lang", "de"], "unknown language"),
        (["--duplex", "sideways"], "unknown duplex"),
        (["--only", "nothing"], "--only: unknown component"),
        (["--preset", "xyz"], "--preset"),
        (["--bleed", "-1"], "--bleed"),
        (["--duplex-offset", "a,b"], "--duplex-offset"),
    ],
)
@pytest.mark.parametrize("game", ["bluff", "malacca", "backgammon"])
def test_bad_kit_options_are_one_line_exit_2_and_write_nothing(
    game: str, args: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run([game, "kit", "-o", str(tmp_path / "k"), *args]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1
    assert not (tmp_path / "k").exists()


def test_a_folder_is_replaced_only_when_it_holds_this_games_kit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "k"
    assert run(["bluff", "kit", "-o", str(folder), "--only", "odds-cards"]) == 0
    assert run(["bluff", "kit", "-o", str(folder), "--only", "board"]) == 0  # ours: replaced
    assert run(["malacca", "kit", "-o", str(folder)]) == 2  # another game's kit: refused
    assert "not a malacca kit" in capsys.readouterr().err
    (folder / "notes.txt").write_text("mine")
    assert run(["bluff", "kit", "-o", str(folder)]) == 2  # a foreign file: refused
    assert (folder / "notes.txt").read_text() == "mine"


def test_runarch_keeps_out_and_name_and_o_is_the_kit_folder(tmp_path: Path) -> None:
    base = ["kit", "--seed", "5", "--only", "tiles"]
    assert run([*base, "--out", str(tmp_path), "--name", "mine"]) == 0
    assert (tmp_path / "mine" / "kit.pdf").is_file()
    assert run([*base, "--out", str(tmp_path / "parent")]) == 0
    assert (tmp_path / "parent" / "kit-5" / "kit.pdf").is_file()
    assert run([*base, "-o", str(tmp_path / "direct")]) == 0
    assert (tmp_path / "direct" / "kit.pdf").is_file()


@pytest.mark.parametrize("game", ["bluff", "malacca", "backgammon"])
def test_the_same_options_give_the_same_bytes(game: str, tmp_path: Path) -> None:
    folder = tmp_path / "k"
    args = [game, "kit", "-o", str(folder), "--lang", "cs", "--images"]

    def snapshot() -> dict[str, bytes]:
        assert run(args) == 0
        return {p.as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}

    assert snapshot() == snapshot()


# -- printing that cannot go wrong ---------------------------------------------------------------


@pytest.mark.parametrize(("game", "lang"), CASES)
def test_page_1_says_how_to_print_the_whole_job(game: str, lang: str) -> None:
    kit = family(game, lang)
    first = " ".join(kit.doc[0].get_text().split())
    t = kit.plan.texts
    note = " ".join(t.format("duplex_note_long", pages=kit.doc.page_count).split())
    assert note in first
    assert ("double-sided" if lang == "en" else "oboustranně") in first
    assert str(kit.doc.page_count) in first


@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("game", GAMES)
def test_one_two_sided_job_with_blank_backs_and_no_piece_backing_another(
    game: str, duplex: str
) -> None:
    kit = family(game, duplex=duplex)
    imposition = kit.plan.imposition
    printed = imposition.printed
    assert len(printed) % 2 == 0 and kit.doc.page_count == len(printed)
    for n in range(0, len(printed), 2):
        front, back = printed[n], printed[n + 1]
        assert front.side == "front"
        page = imposition.pages[front.page]
        if back.side == "front":  # two pages of the rulebook share a sheet
            assert page.booklet and imposition.pages[back.page].booklet
        elif back.side == "back":  # the backs of this very sheet's pieces
            assert back.page == front.page
            fronts = {p.item.key for p in page.placements if p.item.double_sided}
            assert {p.item.key for p in page.backs or ()} == fronts
        else:
            assert back.side == "blank" and not kit.doc[n + 1].get_drawings()


@pytest.mark.parametrize("game", ["bluff", "malacca", "backgammon"])
def test_sheet_pages_carry_trim_and_bleed_boxes_round_their_pieces(game: str) -> None:
    kit = family(game)
    imposition = kit.plan.imposition
    for n, printed in enumerate(imposition.printed):
        page = kit.doc[n]
        imposed = imposition.pages[printed.page]
        placed = (
            ()
            if printed.side == "blank"
            else (imposed.placements if printed.side == "front" else imposed.backs or ())
        )
        cut = [p for p in placed if not p.item.booklet]
        if not cut:
            assert page.trimbox == page.rect
            continue
        trim, bleed = page.trimbox, page.bleedbox
        for p in cut:
            box = pymupdf.Rect(p.cut.x * MM, p.cut.y * MM, p.cut.right * MM, p.cut.bottom * MM)
            grown = pymupdf.Rect(trim.x0 - 0.05, trim.y0 - 0.05, trim.x1 + 0.05, trim.y1 + 0.05)
            assert grown.contains(box), (n, p.item.key)
        assert bleed.contains(trim) and page.rect.contains(bleed)
        assert trim != page.rect


# -- readable text in the kit's language ---------------------------------------------------------

ENGLISH = frozenset(
    [
        "the",
        "and",
        "of",
        "with",
        "your",
        "you",
        "player",
        "players",
        "page",
        "print",
        "printed",
        "back",
        "backs",
        "card",
        "cards",
        "dice",
        "die",
        "game",
        "rules",
        "each",
        "one",
        "two",
        "least",
        "bid",
        "star",
        "stars",
        "chance",
        "hidden",
        "turn",
        "round",
        "board",
        "points",
        "point",
        "score",
        "attack",
        "defence",
        "trade",
        "ship",
        "silver",
        "gold",
        "captain",
        "white",
        "black",
        "match",
        "setup",
        "start",
        "fold",
        "cut",
        "glue",
        "stake",
        "all",
        "for",
        "is",
        "not",
        "if",
        "this",
        "that",
        "when",
        "then",
    ]
)
NAMES = ("Black Caesar", "Henry Morgan", "Pierre Le Picard", "Rodrigo Orgoñez", "Zheng He")


@pytest.mark.parametrize(("game", "lang"), CASES)
def test_every_text_is_6_pt_or_more_has_its_glyphs_and_reads_on_its_background(
    game: str, lang: str
) -> None:
    kit = family(game, lang)
    fonts = default_fonts()
    for page in kit.doc:
        text = page.get_text()
        assert "\x00" not in text and "\ufffd" not in text, page.number
        for span in spans(page):
            assert span["size"] >= 6.0 - 0.01, (game, page.number, span["text"], span["size"])
            missing = fonts.missing_glyphs("regular", span["text"])
            assert not missing, (game, page.number, span["text"], missing)
        assert not low_contrast(page), (game, page.number, low_contrast(page))


@pytest.mark.parametrize("game", GAMES)
def test_no_english_in_a_czech_kit(game: str) -> None:
    kit = family(game, "cs")
    found = set()
    for page in kit.doc:
        text = page.get_text()
        for name in NAMES:
            text = text.replace(name, "")
        words = {w.lower() for w in re.findall(r"[^\W\d_]+", text)}
        found |= words & ENGLISH
    assert not found, found


@pytest.mark.parametrize(("game", "lang"), CASES)
def test_the_rulebook_names_no_file_command_or_engine(game: str, lang: str) -> None:
    kit = family(game, lang)
    rules = {
        n
        for n, printed in enumerate(kit.plan.imposition.printed)
        if printed.side == "front" and "rules" in kit.plan.imposition.pages[printed.page].kinds
    }
    assert rules
    text = " ".join(kit.doc[n].get_text() for n in sorted(rules))
    for word in (".pdf", ".json", "runarch-gen", "--", "engine", "enginu", "seed", "[L-", "[M-"):
        assert word not in text, (game, word)
    for heading in kit.plan.texts["rulebook"]["sections"]:
        assert " ".join(str(heading["heading"]).split()) in " ".join(text.split())


# -- pieces that fit -----------------------------------------------------------------------------


def test_vrhcaby_checkers_fit_the_board_a_stack_of_five_within_a_point() -> None:
    kit = family("backgammon")
    painter = kit.plan.painter
    g = painter.g
    checker = next(i for i in kit.plan.items if i.kind == "checkers")
    assert checker.width == checker.height == g.checker
    assert 5 * g.checker + 5.0 <= g.point_length, "room to grab the fifth checker"
    assert g.checker <= g.point_width - 1.0
    # Every start, drawn on the board: no two checkers overlap, each inside the playing area.
    from runarch_gen.backgammon.rules import STARTS

    for start in STARTS.values():
        s = RecordingSurface(g.width, g.height)
        painter.draw_board(s, (start, start), numbers=False)
        discs = [
            r.bounds
            for r in s.records
            if r.kind == "circle" and abs(r.bounds.width - g.checker) < 0.6
        ]
        assert len(discs) == 2 * sum(min(n, 5) for n in start[1:25])
        inner = Box(g.frame, g.frame, g.width - 2 * g.frame, g.height - 2 * g.frame)
        for a in discs:
            assert inner.contains(a.inset(0.3))
        for i, a in enumerate(discs):
            for b in discs[i + 1 :]:
                assert not a.inset(0.3).intersects(b.inset(0.3)), (a, b)


def test_bluff_dice_slots_leave_1_mm_of_play_for_every_die_in_the_game() -> None:
    kit = family("bluff")
    painter = kit.plan.painter
    board = next(i for i in kit.plan.items if i.kind == "board")
    s = RecordingSurface(board.width, board.height)
    painter.draw_board(s, Box(0, 0, board.width, board.height))
    slots = [r for r in s.records if r.kind == "rect" and r.fill == painter.slot]
    from runarch_gen.bluff.kit import max_dice

    assert len(slots) == max_dice(painter.rules) == 30
    for slot in slots:
        inner = slot.bounds.inset(slot.stroke.width / 2) if slot.stroke else slot.bounds
        assert abs(inner.width - painter.die - 1.0) < 0.01
        assert abs(inner.height - painter.die - 1.0) < 0.01
    # The dice the kit makes are that size: the nets' faces and the stickers' dice.
    net = next(i for i in kit.plan.items if i.kind == "dice").payload
    assert painter.net(net).side == painter.die


def test_vrhcaby_markers_fit_the_cells_of_the_match_track() -> None:
    kit = family("backgammon")
    painter = kit.plan.painter
    markers = [i for i in kit.plan.items if i.kind == "score" and i.round]
    assert {m.payload for m in markers} == {"white", "black", "crawford"}
    for marker in markers:
        assert marker.width <= painter.track_cell() - 1.0


# -- colour that survives a mono printer ---------------------------------------------------------


def _grey(kit, page: int, box: Box, dpi: int = 150) -> float:
    """The median grey (0–255) of a box on a rendered page, as a mono printer would make it."""
    pix = kit.doc[page].get_pixmap(
        dpi=dpi, clip=pymupdf.Rect(*(v * MM for v in (box.x, box.y, box.right, box.bottom)))
    )
    img = Image.frombytes("RGB", (pix.width, pix.height), pix.samples).convert("L")
    return float(np.median(np.asarray(img)))


def _apart(levels: dict[str, float], gap: float = 25.0) -> None:
    values = sorted(levels.values())
    assert all(b - a >= gap for a, b in itertools.pairwise(values)), levels


@pytest.mark.parametrize("friendly", [False, True])
def test_runarch_colours_are_25_grey_levels_apart_and_lettered(friendly: bool) -> None:
    kit = family("runarch", friendly=friendly)
    levels: dict[str, list[float]] = {}
    for page, placement in kit.placements("tiles"):
        piece = placement.item.payload
        # A patch of the tile's field, clear of its outline, shapes and code.
        cut = placement.cut
        local = (
            Box(3.0, 22.0, 1.2, 6.0)
            if placement.quarter_turns % 2 == 0
            else Box(22.0, 3.0, 6.0, 1.2)
        )
        patch = Box(cut.x + local.x, cut.y + local.y, local.width, local.height)
        levels.setdefault(piece.colour.letter, []).append(_grey(kit, page, patch))
        words = kit.doc[page].get_text(
            "words", clip=pymupdf.Rect(*(v * MM for v in (cut.x, cut.y, cut.right, cut.bottom)))
        )
        assert any(w[4] == piece.code for w in words), piece.code
    _apart({k: float(np.median(v)) for k, v in levels.items()})


@pytest.mark.parametrize("friendly", [False, True])
def test_malacca_roles_are_25_grey_levels_apart_and_named(friendly: bool) -> None:
    kit = family("malacca", friendly=friendly)
    levels = {}
    names = {}
    for page, placement in kit.placements("actions"):
        card = placement.item.payload
        if card.role is None or card.label in levels:
            continue
        cut = placement.cut
        patch = Box(cut.x + 1.0, cut.y + 1.0, 1.2, 1.2)
        levels[card.label] = _grey(kit, page, patch)
        text = kit.doc[page].get_text(
            clip=pymupdf.Rect(*(v * MM for v in (cut.x, cut.y, cut.right, cut.bottom)))
        )
        names[card.label] = text
    assert set(levels) >= {"attack", "defence", "trade"}
    _apart({k: levels[k] for k in ("attack", "defence", "trade")})
    t = kit.plan.texts
    for role in ("ATTACK", "DEFENCE", "TRADE"):
        label = role.lower()
        assert str(t["cards"][role]["name"]).upper() in names[label]


@pytest.mark.parametrize("friendly", [False, True])
def test_bluff_seats_are_25_grey_levels_apart_and_numbered(friendly: bool) -> None:
    kit = family("bluff", friendly=friendly)
    levels = {}
    for page, placement in kit.placements("screens", side="back"):
        seat = placement.item.payload
        cut = placement.cut
        patch = Box(cut.x + 6.0, cut.y + 6.0, 1.2, 1.2)
        levels[seat] = _grey(kit, page, patch)
        words = kit.doc[page].get_text(
            "words", clip=pymupdf.Rect(*(v * MM for v in (cut.x, cut.y, cut.right, cut.bottom)))
        )
        assert any(w[4] == str(seat + 1) for w in words), seat
    assert len(levels) == 6
    _apart(levels)


def test_vrhcaby_checker_colours_are_apart_in_both_styles() -> None:
    for friendly in (False, True):
        painter = family("backgammon", friendly=friendly).plan.painter
        assert abs(grey_level(painter.white) - grey_level(painter.black)) >= 25


# -- exports -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "size"), [("mpc", (822, 1122)), ("tgc", (825, 1125))])
def test_print_service_presets_are_the_services_size_at_300_dpi(
    preset: str, size: tuple[int, int], tmp_path: Path
) -> None:
    folder = tmp_path / "k"
    assert run(["malacca", "kit", "-o", str(folder), "--only", "actions", "--preset", preset]) == 0
    pngs = sorted((folder / preset).glob("*.png"))
    assert len(pngs) == 40 + 1  # every action card and their one common back
    for png in pngs[:5]:
        image = Image.open(png)
        assert image.size == size and round(image.info["dpi"][0]) == 300


def test_pdf_preset_is_one_card_a_page_with_trim_and_bleed_boxes(tmp_path: Path) -> None:
    folder = tmp_path / "k"
    assert run(["bluff", "kit", "-o", str(folder), "--only", "odds-cards", "--preset", "pdf"]) == 0
    doc = pymupdf.open(folder / "print-cards.pdf")
    assert doc.page_count == 12  # six cards, front and back
    for n in range(doc.page_count):
        page = doc[n]
        trim, bleed = page.trimbox, page.bleedbox
        assert abs(trim.width - 88.9 * MM) < 0.05 and abs(trim.height - 63.5 * MM) < 0.05
        assert abs((trim.x0 - bleed.x0) - 3.0 * MM) < 0.05
        assert all(abs(a - b) < 0.05 for a, b in zip(bleed, page.rect, strict=True))


def test_images_and_a_tabletop_simulator_saved_object_ready_to_load(tmp_path: Path) -> None:
    folder = tmp_path / "k"
    assert run(["malacca", "kit", "-o", str(folder), "--images"]) == 0
    saved = json.loads((folder / "tts" / "malacca.json").read_text("utf-8"))
    decks = saved["ObjectStates"]
    assert {d["Nickname"] for d in decks} >= {"ships", "action cards", "chests"}
    for deck in decks:
        for entry in deck["CustomDeck"].values():
            for url in (entry["FaceURL"], entry["BackURL"]):
                assert url.startswith("file://")
                assert Path(url.removeprefix("file://")).is_file(), url
        if deck["Name"] == "DeckCustom":
            assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"])
    chests = next(d for d in decks if d["Nickname"] == "chests")
    assert all(e["UniqueBack"] for e in chests["CustomDeck"].values())  # 10 on one side, 20
    coin = Image.open(folder / "images" / "silver-1.png")
    alpha = np.asarray(coin)[:, :, 3]
    assert coin.mode == "RGBA" and alpha[0, 0] == 0
    assert alpha[coin.height // 2, coin.width // 2] == 255
    assert round(coin.info["dpi"][0]) == 300
    card = Image.open(folder / "images" / "ship-1.png")
    assert card.mode == "RGB" and round(card.info["dpi"][0]) == 300


def test_paint_grey_levels_follow_pillow() -> None:
    for rgb in ((213, 94, 0), (0, 72, 150), (240, 228, 66)):
        ours = grey_level(Paint(rgb))
        pillow = np.asarray(Image.new("RGB", (1, 1), rgb).convert("L"))[0, 0]
        assert abs(ours - float(pillow)) <= 1
