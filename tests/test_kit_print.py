"""The kit as a print shop and a home printer see it (issue: play from paper): the ink-free
paper edge, crop marks that continue real cut edges, one double-sided job, embedded fonts and
page boxes, the duplex test page, pieces that fit the rules, per-piece images and sheets for
services and virtual tables, the 3 × 3 poker sheet, and the rulebook's completeness and
legibility. Everything is read back from the PDF (PyMuPDF) or the PNGs, not from the layout
code that made them."""

from __future__ import annotations

import io
import json
import math
import tempfile
import time
from pathlib import Path

import numpy as np
import pymupdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from runarch_gen.cli import run
from runarch_gen.errors import InputError
from runarch_gen.pnp.geometry import Box
from runarch_gen.pnp.sheets import duplex_test_marks
from runarch_gen.pnp.surface import RecordingSurface
from runarch_gen.runarch.kit.build import (
    KINDS,
    KitOptions,
    frame_space,
    manifest_sheets,
    plan_kit,
    render_duplex_test_pdf,
    render_kit_pdf,
)
from runarch_gen.runarch.kit.config import load_kit_config
from runarch_gen.runarch.kit.icons import draw_bonus_symbol
from runarch_gen.runarch.kit.images import (
    PX_PER_MM,
    TTS_COLUMNS,
    TTS_MAX_WIDTH,
    TTS_ROWS,
    render_images,
    render_tts,
    tts_cell,
)
from runarch_gen.runarch.kit.inputs import board_document, deck_document
from runarch_gen.runarch.kit.rulebook import BET_BEST, BET_CASES, MIN_PT
from runarch_gen.runarch.kit.samples import sample_board, sample_deck
from runarch_gen.runarch.rules import OPTIONS
from tests.kit_helpers import MM, BuiltKit, built

INK_FREE = 6.0
# One kit per paper × duplex mode, both bleeds on each paper.
PRINT_CASES = [
    ("a4", "long", 3.0),
    ("a4", "short", 0.0),
    ("a4", "none", 3.0),
    ("letter", "long", 0.0),
    ("letter", "short", 3.0),
    ("letter", "none", 0.0),
]


def _ink_boxes(page: pymupdf.Page) -> list[tuple[str, pymupdf.Rect]]:
    """Every drawn path (grown by half its stroke) and every text span, in points."""
    out = []
    for d in page.get_drawings():
        r = pymupdf.Rect(d["rect"])
        w = (d.get("width") or 0.0) / 2
        out.append(("path", pymupdf.Rect(r.x0 - w, r.y0 - w, r.x1 + w, r.y1 + w)))
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            for span in line["spans"]:
                if span["text"].strip():
                    out.append((span["text"], pymupdf.Rect(span["bbox"])))
    return out


@pytest.mark.parametrize(("paper", "duplex", "bleed"), PRINT_CASES)
def test_no_ink_within_6_mm_of_any_paper_edge(paper: str, duplex: str, bleed: float) -> None:
    kit = built(paper=paper, duplex=duplex, bleed=bleed, cards=30)
    for page in kit.doc:
        r, edge = page.rect, INK_FREE * MM - 0.05
        safe = pymupdf.Rect(r.x0 + edge, r.y0 + edge, r.x1 - edge, r.y1 - edge)
        for what, rect in _ink_boxes(page):
            assert safe.contains(rect), (paper, duplex, bleed, page.number, what, rect)


@pytest.mark.parametrize(("paper", "duplex", "bleed"), PRINT_CASES[:4])
def test_every_crop_mark_continues_a_real_cut_edge_and_every_edge_is_marked(
    paper: str, duplex: str, bleed: float
) -> None:
    kit = built(paper=paper, duplex=duplex, bleed=bleed, cards=30)
    spec = kit.plan.imposition.spec
    sheets = {s["page"]: s for s in manifest_sheets(kit.plan)}
    reach = bleed + spec.mark_offset + 0.05
    for page in kit.doc:
        sheet = sheets[page.number + 1]
        if sheet["side"] != "front":
            continue
        cuts = [Box(*c["cut"]) for c in sheet["components"]]
        marks = [
            (d["items"][0][1], d["items"][0][2])
            for d in page.get_drawings()
            if d.get("width") is not None
            and abs(d["width"] - spec.mark_width * MM) < 0.01
            and d.get("color") == (0.0, 0.0, 0.0)
            and len(d["items"]) == 1
            and d["items"][0][0] == "l"
        ]
        vertical, horizontal = [], []
        for p0, p1 in marks:
            x0, y0, x1, y1 = p0.x / MM, p0.y / MM, p1.x / MM, p1.y / MM
            if abs(x0 - x1) < 1e-3:
                vertical.append((x0, min(y0, y1), max(y0, y1)))
            else:
                assert abs(y0 - y1) < 1e-3
                horizontal.append((y0, min(x0, x1), max(x0, x1)))
        footer = spec.footer_box.y  # no mark reaches the calibration square and notes
        assert all(yb <= footer for _, _, yb in vertical)
        assert all(y < footer for y, _, _ in horizontal)
        for x, ya, yb in vertical:
            assert any(
                (abs(c.x - x) < 0.02 or abs(c.right - x) < 0.02)
                and (0 <= c.y - yb <= reach or 0 <= ya - c.bottom <= reach)
                for c in cuts
            ), (page.number, "vertical", x, ya, yb)
        for y, xa, xb in horizontal:
            assert any(
                (abs(c.y - y) < 0.02 or abs(c.bottom - y) < 0.02)
                and (0 <= c.x - xb <= reach or 0 <= xa - c.right <= reach)
                for c in cuts
            ), (page.number, "horizontal", y, xa, xb)
        if kit.plan.imposition.pages[_page_index(kit, page.number)].booklet:
            assert not marks
            continue
        for c in cuts:
            for x in (c.x, c.right):
                assert any(abs(m[0] - x) < 0.02 for m in vertical), (page.number, c, x)
            for y in (c.y, c.bottom):
                assert any(abs(m[0] - y) < 0.02 for m in horizontal), (page.number, c, y)


def _page_index(kit: BuiltKit, pdf_page: int) -> int:
    return kit.plan.imposition.printed[pdf_page].page


def test_manifest_cut_boxes_are_each_pieces_own_size() -> None:
    """The best-card markers and the short frame parts no longer take the size of the first
    piece of their kind."""
    kit = built()
    sizes = {i.key: (i.width, i.height) for i in kit.plan.items}
    for sheet in manifest_sheets(kit.plan):
        for c in sheet["components"]:
            w, h = sizes[c["key"]]
            if c["turns"] % 2:
                w, h = h, w
            assert c["cut"][2:] == pytest.approx([w, h], abs=2e-3), c["key"]


def test_round_pieces_get_a_cut_circle() -> None:
    kit = built()
    page, cut = kit.page_of("stone-0R")
    r = cut.width / 2 * MM
    cx, cy = cut.centre[0] * MM, cut.centre[1] * MM
    circles = [
        d
        for d in kit.doc[page].get_drawings()
        if d.get("fill") is None
        and d.get("color") is not None
        and abs(d["rect"].width / 2 - r) < 0.05
        and abs((d["rect"].x0 + d["rect"].x1) / 2 - cx) < 0.05
        and abs((d["rect"].y0 + d["rect"].y1) / 2 - cy) < 0.05
    ]
    assert circles


@pytest.mark.parametrize("duplex", ["long", "short", "none"])
def test_one_double_sided_job_keeps_fronts_and_backs_together(duplex: str) -> None:
    kit = built(duplex=duplex, cards=30)
    printed = kit.plan.imposition.printed
    assert len(kit.doc) == len(printed)
    if duplex == "none":
        assert all(p.side != "blank" for p in printed)
        return
    assert len(printed) % 2 == 0
    for n in range(0, len(printed), 2):
        front, back = printed[n], printed[n + 1]
        assert front.side == "front"  # every sheet starts with a front ...
        page = kit.plan.imposition.pages[front.page]
        if page.backs is not None:  # ... and its own back follows it
            assert (back.page, back.side) == (front.page, "back")
        elif back.side == "front":  # or the next rulebook page on an uncut sheet
            assert page.booklet and kit.plan.imposition.pages[back.page].booklet
        else:
            assert (back.page, back.side) == (front.page, "blank")
            assert not kit.doc[n + 1].get_drawings()  # a blank back holds only its label
    first = kit.doc[0].get_text()
    assert "double-sided" in first and ("long edge" if duplex == "long" else "short edge") in first


def test_every_font_is_embedded_and_every_page_has_trim_and_bleed_boxes() -> None:
    kit = built(cards=30)
    assert b"/Helvetica" not in kit.pdf
    for page in kit.doc:
        for font in page.get_fonts():
            assert font[1] != "n/a" and "+" in font[3], font  # embedded subset
    # A sheet's TrimBox is drawn round its pieces' cut lines, its BleedBox round their bleed;
    # a page that is not cut (the rulebook, the board sheet, a blank back) keeps the paper.
    for sheet in manifest_sheets(kit.plan):
        page = kit.doc[sheet["page"] - 1]
        cut = [c for c in sheet["components"] if not c["key"].startswith(("rules", "board"))]
        if not cut:
            assert page.trimbox == page.rect and page.bleedbox == page.rect
            continue
        x0 = min(c["cut"][0] for c in cut) * MM
        y0 = min(c["cut"][1] for c in cut) * MM
        x1 = max(c["cut"][0] + c["cut"][2] for c in cut) * MM
        y1 = max(c["cut"][1] + c["cut"][3] for c in cut) * MM
        trim = page.trimbox
        assert abs(trim.x0 - x0) < 0.02 and abs(trim.y0 - y0) < 0.02, sheet["page"]
        assert abs(trim.x1 - x1) < 0.02 and abs(trim.y1 - y1) < 0.02, sheet["page"]
        bleed = page.bleedbox
        assert bleed.contains(trim) and page.rect.contains(bleed)
        grow = kit.plan.options.bleed * MM
        assert abs((trim.x0 - bleed.x0) - grow) < 0.02
    meta = kit.doc.metadata
    assert meta["title"] and meta["author"] and meta["subject"]
    assert meta["creationDate"] == "D:20000101000000+00'00'"  # fixed: same bytes every run


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_duplex_test_page_reads_the_offset_to_pass(duplex: str) -> None:
    plan = plan_kit(sample_board(), sample_deck(30), KitOptions(duplex=duplex))  # type: ignore[arg-type]
    doc = pymupdf.open(stream=render_duplex_test_pdf(plan), filetype="pdf")
    assert len(doc) == 2
    front, back = duplex_test_marks(plan.imposition.spec, duplex)  # type: ignore[arg-type]
    lines = [
        d["items"][0]
        for d in doc[0].get_drawings()
        if len(d["items"]) == 1 and d["items"][0][0] == "l"
    ]
    assert any(abs(p0.x / MM - front[0]) < 0.01 and abs(p1.x / MM - front[0]) < 0.01
               for _, p0, p1 in lines)  # fmt: skip
    # On the back, the label u stands u mm right of where the front's line lands: a back
    # printed d mm too far right puts -d under the line, and --duplex-offset -d moves it back.
    labels = {}
    for x0, _, x1, y1, word, *_ in doc[1].get_text("words"):
        if y1 / MM < back[1] - 8:  # the upper (X) scale
            labels[word] = (x0 + x1) / 2 / MM
    for u in (-5, -2, 0, 1, 3, 5):
        word = "0" if u == 0 else f"{u:+d}".replace("-", "−")
        assert labels[word] == pytest.approx(back[0] + u, abs=0.05), word
    if duplex == "long":
        assert back[0] == pytest.approx(plan.imposition.spec.paper.width - front[0])


def test_player_board_archives_hold_real_cards_and_readable_bet_spots() -> None:
    plan = plan_kit(sample_board(), sample_deck(30), KitOptions())
    painter = plan.painter
    board = painter.layouts["player_board"]
    card = painter.layouts["card"]
    step = float(board.value("card_step"))
    assert step >= card.width - card.area("match").x  # a card's match area shows
    title = board.area("title")
    for i in range(3):
        area = board.area(f"archive_{i + 1}")
        heading, cards, spots = painter.archive_parts(area)
        assert cards.width >= card.width + 4 * step - 1e-9 and cards.height >= card.height
        assert board.cut.contains(cards) and area.contains(cards) and area.contains(spots)
        for other in (heading, spots, title):
            assert not cards.intersects(other)
        cell = spots.split_rows(4, gap=1.0)[0]
        assert min(cell.width, cell.height) >= painter.layouts["bet_token"].width


def test_frame_pieces_fit_the_frame_spaces() -> None:
    plan = plan_kit(sample_board(), sample_deck(30), KitOptions())
    space = frame_space(plan.config)
    items = {i.key: i for i in plan.items}
    plates = [i for i in plan.items if i.kind == "bet_plates"]
    assert len(plates) == 4
    for plate in plates:  # 3 consecutive spaces
        assert plate.width == pytest.approx(3 * space)
    for key in ("marker-1-total", "marker-1-best", "marker-2-total"):
        assert items[key].width <= space  # a marker's foot stands on one space
    bet = plan.painter.layouts["bet_token"]
    assert bet.width <= plates[0].height


def test_the_f_token_arrow_has_one_head_and_d_two_per_arrow() -> None:
    from runarch_gen.pnp.paint import BLACK

    def heads(symbol: str) -> int:
        s = RecordingSurface(20, 20)
        draw_bonus_symbol(s, symbol, Box(0, 0, 20, 20), BLACK)
        return sum(1 for r in s.records if r.kind == "polygon" and len(r.points) == 3)

    assert heads("F") == 1 and heads("D") == 4


def test_card_images_are_cut_plus_bleed_at_300_dpi_and_match_the_pdf() -> None:
    kit = built(cards=30)
    images = render_images(kit.plan, {"card-01", "card-07", "card-30", "tile-0R", "bet-01"})
    card = kit.plan.painter.layouts["card"]
    want = (round((card.width + 6) * PX_PER_MM), round((card.height + 6) * PX_PER_MM))
    for key in ("card-01", "card-07", "card-30"):
        assert Image.open(io.BytesIO(images[f"images/{key}.png"])).size == want
    tile = round((kit.plan.painter.layouts["tile"].width + 6) * PX_PER_MM)
    assert Image.open(io.BytesIO(images["images/tile-0R.png"])).size == (tile, tile)
    assert "images/cards-back.png" in images and "images/bet-01-back.png" in images
    # The pixels of a card image against the PDF's own rendering of that card's bleed box.
    for key in ("card-01", "card-07"):
        page, _ = kit.page_of(key)
        placement = next(
            p for p in kit.plan.imposition.pages[_page_index(kit, page)].placements
            if p.item.key == key
        )  # fmt: skip
        b = placement.bleed
        clip = pymupdf.Rect(b.x * MM, b.y * MM, b.right * MM, b.bottom * MM)
        pix = kit.doc[page].get_pixmap(dpi=300, clip=clip)
        pdf = Image.frombytes("RGB", (pix.width, pix.height), pix.samples)
        png = Image.open(io.BytesIO(images[f"images/{key}.png"])).convert("RGB")
        if placement.quarter_turns % 4:
            png = png.rotate(-90 * placement.quarter_turns, expand=True)
        small = (png.width // 8, png.height // 8)
        a = np.asarray(png.resize(small, Image.Resampling.BOX), dtype=float)
        p = np.asarray(pdf.resize(small, Image.Resampling.BOX), dtype=float)
        assert np.abs(a - p).mean() < 6.0, key


def test_tabletop_simulator_sheet_is_10_by_7_within_4096_px_with_a_separate_back() -> None:
    kit = built(cards=30)
    sheets = render_tts(kit.plan)
    w, h = tts_cell(kit.plan)
    img = Image.open(io.BytesIO(sheets["tts/cards-1.png"]))
    assert img.size == (TTS_COLUMNS * w, TTS_ROWS * h) and img.width <= TTS_MAX_WIDTH
    assert Image.open(io.BytesIO(sheets["tts/cards-back.png"])).size == (w, h)
    saved = json.loads(sheets["tts/runarch.json"])
    (deck, tiles) = saved["ObjectStates"]
    assert deck["Name"] == "DeckCustom" and len(deck["DeckIDs"]) == 30
    assert deck["CustomDeck"]["1"]["FaceURL"].endswith("tts/cards-1.png")
    assert deck["CustomDeck"]["1"]["BackURL"].endswith("tts/cards-back.png")
    assert len(tiles["DeckIDs"]) == 25
    # Thirty cards fill the first three rows; the rest of the grid stays white.
    pixels = np.asarray(img.convert("L"))
    assert pixels[3 * h + 2 :, :].min() == 255 and pixels[: 3 * h, :].min() < 100


def test_bleed_0_on_a4_prints_poker_cards_3_by_3_with_shared_cuts() -> None:
    kit = built(bleed=0.0, cards=30)
    pages = [p for p in kit.plan.imposition.pages if p.kinds == ("cards",)]
    assert pages and len(pages[0].placements) == 9
    cuts = [p.cut for p in pages[0].placements]
    xs = sorted({round(c.x, 3) for c in cuts} | {round(c.right, 3) for c in cuts})
    ys = sorted({round(c.y, 3) for c in cuts} | {round(c.bottom, 3) for c in cuts})
    assert len(xs) == 4 and len(ys) == 4  # 3 × 3 pieces share their inner cut lines


@pytest.mark.parametrize("lang", ["en", "cs"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_rulebook_names_every_component_variant_and_option(lang: str, paper: str) -> None:
    kit = built(lang=lang, paper=paper, cards=30)
    rules = sorted({kit.page_of(i.key)[0] for i in kit.plan.items if i.kind == "rules"})
    assert len(rules) >= 3
    text = " ".join(" ".join(kit.doc[n].get_text().split()) for n in rules)
    t = kit.plan.painter.t
    for kind in KINDS:
        if kind != "rules":
            assert t.kind(kind) in text, kind
    headings = [str(s["heading"]) for s in t["rulebook"]["sections"]]
    for heading in headings:
        assert heading in text
    for variant in t["rules"]["playtest_variants"].values():
        assert any(str(variant).split()[0] in h for h in headings) or str(variant) in text
    # Every rules option in the players' words, never as the engine names it.
    for spec in OPTIONS:
        assert str(t["rulebook"]["options"][spec.name]) in text, spec.name
        assert f"{spec.name} =" not in text and f"{spec.tag} " not in text, spec.name
    for word in ("runarch-gen", "kit.pdf", "duplex-test", "--duplex", "engine", "enginu"):
        assert word not in text, word
    # The bet cases of RULES §6.3, settled by the engine, as the rules document prints them.
    assert [sum(_settle(b) for b in case) for case in BET_CASES] == [43, 14, -24, -3]
    for total in ("+43", "+14", "−24", "−3"):
        assert total in text


def _settle(bet: tuple[bool, int, int]) -> int:
    """RULES §6.3 by hand (an oracle apart from the engine): M + n or ⌈M/2⌉ + n, else −M."""
    gold, n, held = bet
    if held != n:
        return -BET_BEST
    return (BET_BEST if gold else math.ceil(BET_BEST / 2)) + n


def _luminance(rgb: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _low_contrast(page: pymupdf.Page) -> list[tuple[str, float]]:
    """Spans whose colour reads below 4.5:1 against the rendered background under them (the
    most frequent pixel colour of the span's box)."""
    pix = page.get_pixmap(dpi=72)
    img = np.asarray(Image.frombytes("RGB", (pix.width, pix.height), pix.samples))
    out = []
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            for span in line["spans"]:
                if not span["text"].strip():
                    continue
                colour = pymupdf.sRGB_to_rgb(span["color"])
                x0, y0, x1, y1 = (round(v) for v in span["bbox"])
                box = img[max(y0, 0) : y1 + 1, max(x0, 0) : x1 + 1].reshape(-1, 3)
                values, counts = np.unique(box, axis=0, return_counts=True)
                background = values[counts.argmax()]
                ratio = _contrast(
                    tuple(c / 255 for c in colour), tuple(c / 255 for c in background)
                )
                if ratio < 4.5:
                    out.append((span["text"], ratio))
    return out


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_rulebook_text_is_6_pt_or_more_and_dark_on_its_background(lang: str) -> None:
    kit = built(lang=lang, cards=30)
    rules = sorted({kit.page_of(i.key)[0] for i in kit.plan.items if i.kind == "rules"})
    for n in rules:
        page = kit.doc[n]
        for block in page.get_text("dict")["blocks"]:
            for line in block.get("lines", []):
                for span in line["spans"]:
                    if span["text"].strip():
                        assert span["size"] >= MIN_PT - 0.01, (n, span["text"], span["size"])
        assert not _low_contrast(page), n


def test_text_on_every_piece_is_dark_enough_on_its_fill() -> None:
    """Codes and colour names on the match strips, swatch letters, token words: 4.5:1 or more
    against what lies under them, on every page of the kit."""
    kit = built(lang="cs", cards=30)
    for page in kit.doc:
        assert not _low_contrast(page), page.number


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_no_text_on_any_page_is_below_6_pt(lang: str) -> None:
    kit = built(lang=lang, cards=30, paper="letter" if lang == "cs" else "a4")
    for page in kit.doc:
        for block in page.get_text("dict")["blocks"]:
            for line in block.get("lines", []):
                for span in line["spans"]:
                    if span["text"].strip():
                        assert span["size"] >= MIN_PT - 0.01, (page.number, span["text"])


def test_the_same_kit_gives_the_same_bytes_rulebook_images_and_duplex_test_included() -> None:
    def make() -> tuple[bytes, dict[str, bytes], bytes]:
        plan = plan_kit(sample_board(), sample_deck(30), KitOptions(lang="cs"))
        images = render_images(plan, {"card-01", "card-02", "tile-4G", "bonus-1-D5"})
        return render_kit_pdf(plan), images, render_duplex_test_pdf(plan)

    assert make() == make()


# -- the template schema ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("toml", "words"),
    [
        ("[papers.a4]\nwidth = 20000.0\nheight = 297.0\n", "[papers.a4] 'width'"),
        ('[texts.en]\npage_label = "{page:>1000000000}"\n', "'page_label'"),
        ('[bet_tokens]\ncount = "ten"\n', "[bet_tokens] 'count'"),
        ("[sheet]\nmargin = nan\n", "[sheet] 'margin'"),
        ('[texts.en]\nboard_title = "{x}"\n', "'board_title' uses {x}"),
        ("[bet_tokens]\ncount = -5\n", "[bet_tokens] 'count'"),
        ("[components.frame_segment]\nparts = 2.5\n", "[components.frame_segment] 'parts'"),
        ("[components.card]\nwidth = inf\n", "[components.card] 'width'"),
        ('[[texts.en.rulebook.sections]]\nheading = "x"\ntext = "{evil.__class__}"\n', "'text'"),
        ('[[texts.cs.rulebook.sections]]\nheading = "x"\nfigures = ["nope"]\n', "'figures'"),
    ],
)
def test_templates_outside_the_schema_are_refused_naming_the_key(
    tmp_path: Path, toml: str, words: str
) -> None:
    template = tmp_path / "t.toml"
    template.write_text(toml)
    with pytest.raises(InputError) as info:
        load_kit_config(template)
    assert "t.toml" in str(info.value) and words in str(info.value)


def test_the_bundled_templates_pass_the_schema() -> None:
    load_kit_config()


def test_a_huge_template_is_refused_before_any_work(tmp_path: Path, capsys) -> None:
    board, deck = tmp_path / "b.json", tmp_path / "d.json"
    board.write_text(board_document(sample_board()))
    deck.write_text(deck_document(sample_deck(30)))
    template = tmp_path / "big.toml"
    template.write_text("[papers.a4]\nwidth = 20000.0\nheight = 20000.0\n")
    start = time.perf_counter()
    code = run(
        ["kit", "--board", str(board), "--deck", str(deck), "--out", str(tmp_path / "o"),
         "--template", str(template)]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and time.perf_counter() - start < 1.0
    assert "big.toml" in err and "'width'" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()


def test_kit_images_option_writes_images_and_sheets(tmp_path: Path) -> None:
    board, deck = tmp_path / "b.json", tmp_path / "d.json"
    board.write_text(board_document(sample_board()))
    deck.write_text(deck_document(sample_deck(30)))
    args = ["kit", "--board", str(board), "--deck", str(deck), "--out", str(tmp_path)]
    assert run([*args, "--name", "k", "--images", "--only", "cards,rules"]) == 0
    folder = tmp_path / "k"
    assert (folder / "duplex-test.pdf").is_file() and (folder / "tts" / "cards-1.png").is_file()
    assert len(list((folder / "images").glob("card-*.png"))) == 30
    # The manifest lists images/ and tts/ files, so the kit may replace its own folder.
    assert run([*args, "--name", "k", "--images", "--only", "cards"]) == 0


# -- templates fuzzed: the schema's promise ----------------------------------------------------

_PATHS = [
    ("sheet", "margin"),
    ("sheet", "footer"),
    ("sheet", "mark_length"),
    ("sheet", "ink_free"),
    ("papers.a4", "width"),
    ("papers.a4", "height"),
    ("components.card", "width"),
    ("components.card", "safe"),
    ("components.tile", "width"),
    ("components.frame_segment", "parts"),
    ("components.player_board", "card_step"),
    ("components.marker", "small_scale"),
    ("bet_tokens", "count"),
    ("bet_tokens", "frame"),
    ("texts.en", "page_label"),
    ("texts.cs", "frame_part"),
    ("texts.en.rulebook", "title"),
]
_VALUES = st.one_of(
    st.floats(min_value=0.0, max_value=300.0),  # in range or just beyond: geometry explored
    st.integers(0, 60),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["{page}", "{page:>99}", "{x}", "{", "}", "{0}", "{page!r}", "ok", ""]),
    st.booleans(),
    st.lists(st.integers(-5, 5), max_size=3),
)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_PATHS), _VALUES), min_size=1, max_size=4))
def test_any_template_loads_and_plans_or_fails_with_one_clear_error(
    changes: list[tuple[tuple[str, str], object]],
) -> None:
    tables: dict[str, dict[str, str]] = {}
    for (table, key), value in changes:
        tables.setdefault(table, {})[key] = _toml_value(value)
    text = "\n".join(
        f"[{table}]\n" + "\n".join(f"{k} = {v}" for k, v in keys.items())
        for table, keys in tables.items()
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.toml"
        path.write_text(text + "\n", encoding="utf-8")
        try:
            plan = plan_kit(
                sample_board(),
                sample_deck(30),
                KitOptions(template=str(path), only=("rules", "cards", "frame", "markers")),
            )
            render_kit_pdf(plan)
        except InputError as exc:
            message = str(exc)
            assert "\n" not in message and len(message) < 400
