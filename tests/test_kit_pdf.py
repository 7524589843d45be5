"""The kit PDF read back: paper, component counts, cards equal to the deck, pixels, marks,
duplex alignment, languages and determinism (RULES §1.2, §1.3)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from runarch_gen.pnp.geometry import Box
from runarch_gen.pnp.sheets import back_box
from runarch_gen.runarch.atoms import COLOURS, SHAPES, Shape
from runarch_gen.runarch.kit.glyphs import PALETTE
from runarch_gen.runarch.kit.samples import sample_board, sample_deck
from tests.kit_helpers import MM, built

PAPER_PT = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}

# RULES §1.2, the default kit (50 cards ).
INVENTORY = {
    "tiles": 25,
    "stones": 25,
    "cards": 50,
    "player_boards": 2,
    "markers": 4,
    "bonus_tokens": 24,
    "condition_tokens": 12,
    "bet_tokens": 10,
    "board": 1,
    "bet_plates": 4,  # a frame bet token covers 3 spaces
}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_page_has_the_paper_asked_for(paper: str) -> None:
    kit = built(paper=paper, lang="cs" if paper == "letter" else "en")
    width, height = PAPER_PT[paper]
    assert len(kit.doc) == kit.plan.imposition.page_count
    for page in kit.doc:
        assert page.rect.width == pytest.approx(width, abs=0.5)
        assert page.rect.height == pytest.approx(height, abs=0.5)


def test_each_component_appears_as_often_as_the_inventory_says() -> None:
    kit = built()
    counts = kit.plan.counts()
    for kind, expected in INVENTORY.items():
        assert counts[kind] == expected, kind
    # The score frame: 4 segments of 25 spaces, 1–100, each number printed once.
    numbers: Counter[int] = Counter()
    for item in kit.plan.items:
        if item.kind != "frame":
            continue
        page, cut = kit.page_of(item.key)
        for _, _, word in kit.words(page, cut):
            if word.isdigit() and word != "0":  # "100 = 0" also prints a 0
                numbers[int(word)] += 1
    assert set(numbers) == set(range(1, 101)) and set(numbers.values()) == {1}
    assert len({(i.payload.first - 1) // 25 for i in kit.plan.items if i.kind == "frame"}) == 4


def test_every_placed_component_carries_its_own_face_in_the_pdf() -> None:
    kit = built()
    seen: Counter[str] = Counter()
    for item in kit.plan.items:
        page, cut = kit.page_of(item.key)
        words = [w for _, _, w in kit.words(page, cut)]
        text = " ".join(words)
        kind = item.kind
        if kind in ("tiles", "stones"):
            assert words.count(item.payload.code) == (2 if kind == "tiles" else 1)
        elif kind == "cards":
            assert f"#{item.payload.id:02d}" in words
        elif kind == "bonus_tokens":
            back_page, back_cut = kit.page_of(item.key, "back")
            back = [w for _, _, w in kit.words(back_page, back_cut)]
            assert f"≥{item.payload.value}" in back and "minimum" in back
        elif kind == "bet_tokens":
            back_page, back_cut = kit.page_of(item.key, "back")
            assert "gold" in words
            assert "silver" in [w for _, _, w in kit.words(back_page, back_cut)]
        elif kind == "markers":
            assert ("total" in words) == (item.payload.role == "total")
        elif kind == "player_boards":
            assert ("White" in words) == (item.payload == 0)
            assert all(str(n) in words for n in range(2, 6))
        elif kind == "condition_tokens":
            cond = item.payload
            wanted = [cond.total] if cond.counts is None else cond.counts
            assert all(str(n) in words for n in wanted if n is not None)
        elif kind == "rules":
            assert f"RunArch · {item.payload[1].number}/" in text
        seen[kind] += 1
    assert seen["cards"] == 50 and seen["bonus_tokens"] == 24


_SHAPE_BY_ITEMS = {
    "cccc": Shape.CIRCLE,
    "lll": Shape.TRIANGLE,
    "re": Shape.SQUARE,
    "llll": Shape.SQUARE,
    "l" * 10: Shape.STAR,
    "l" * 6: Shape.HEXAGON,
}


def test_each_card_pattern_and_match_in_the_pdf_equal_the_deck() -> None:
    """Read twice: the codes printed under the stones, and the drawing operators (fill colour
    of each stone, outline of the white shape on it)."""
    kit = built()
    layout = kit.plan.painter.layouts["card"]
    colour_by_rgb = {PALETTE[c].rgb: c for c in COLOURS}
    drawings = {}
    for card in kit.plan.deck:
        page, cut = kit.page_of(f"card-{card.id:02d}")
        pattern = layout.area("pattern").moved(cut.x, cut.y)
        match = layout.area("match").moved(cut.x, cut.y)
        codes = [w for _, _, w in sorted(kit.words(page, pattern)) if re.fullmatch(r"\d[RBGYV]", w)]
        assert ",".join(codes) == card.pattern.text
        assert card.match.code in [w for _, _, w in kit.words(page, match)]
        if page not in drawings:
            drawings[page] = kit.doc[page].get_drawings()
        stones, shapes = [], []
        for d in drawings[page]:
            r = d["rect"]
            cx, cy = (r.x0 + r.x1) / 2 / MM, (r.y0 + r.y1) / 2 / MM
            if not (pattern.x <= cx <= pattern.right and pattern.y <= cy <= pattern.bottom):
                continue
            if r.width / MM > pattern.width / 4:  # the card's own background
                continue
            fill = d.get("fill")
            if fill is None:
                continue
            rgb = tuple(round(v * 255) for v in fill)
            kinds = "".join(item[0] for item in d["items"])
            if rgb in colour_by_rgb and kinds == "cccc":
                stones.append((cx, colour_by_rgb[rgb]))
            elif rgb == (255, 255, 255) and kinds in _SHAPE_BY_ITEMS:
                shapes.append((cx, _SHAPE_BY_ITEMS[kinds]))
        assert [c for _, c in sorted(stones)] == [p.colour for p in card.pattern]
        assert [s for _, s in sorted(shapes)] == [p.shape for p in card.pattern]


@pytest.mark.parametrize("friendly", [False, True])
def test_a_tile_centre_has_its_colour(friendly: bool) -> None:
    kit = built(friendly=friendly)
    dpi = 60
    pages: dict[int, np.ndarray] = {}
    for item in kit.plan.items:
        if item.kind != "tiles":
            continue
        page, cut = kit.page_of(item.key)
        if page not in pages:
            pages[page] = kit.pixels(page, dpi)
        cx, cy = cut.centre
        pixel = pages[page][round(cy / 25.4 * dpi), round(cx / 25.4 * dpi)]
        ink = PALETTE[item.payload.colour]
        expected = ink.light if friendly else ink.rgb
        assert np.abs(pixel.astype(int) - expected).max() <= 2, (item.key, pixel, expected)


def _bbox_of(mask: np.ndarray, dpi: int, width_mm: float, height_mm: float) -> Box:
    """The box spanned by the columns (rows) where ``mask`` holds along at least half of
    ``height_mm`` (``width_mm``): long straight features, not stray anti-aliased pixels."""
    px = dpi / 25.4
    xs = np.nonzero(mask.sum(axis=0) >= 0.5 * height_mm * px)[0]
    ys = np.nonzero(mask.sum(axis=1) >= 0.5 * width_mm * px)[0]
    k = 25.4 / dpi
    return Box(
        xs.min() * k, ys.min() * k, (xs.max() + 1 - xs.min()) * k, (ys.max() + 1 - ys.min()) * k
    )


@pytest.mark.parametrize(
    ("duplex", "offset"), [("long", (0.0, 0.0)), ("short", (0.0, 0.0)), ("long", (1.0, -0.5))]
)
def test_card_fronts_and_backs_line_up_under_the_duplex_flip(duplex, offset) -> None:
    """Measured in pixels: the goal panel fixes each front's cut line, the gold frame each
    back's; the back page, flipped like the paper, must put each back within 0.5 mm of its
    front (after undoing the requested duplex offset)."""
    kit = built(duplex=duplex, offset=offset, only=("cards",), cards=12)
    dpi = 200
    layout = kit.plan.painter.layouts["card"]
    paper = kit.plan.imposition.spec.paper
    goal = layout.area("goal")
    accent = kit.plan.painter.style.accent.rgb
    front_page, _ = kit.page_of("card-01")
    front_px = kit.pixels(front_page, dpi)
    back_px = kit.pixels(front_page + 1, dpi)
    grey = (242, 242, 242)
    for card in kit.plan.deck:
        page, cut = kit.page_of(f"card-{card.id:02d}")
        if page != front_page:
            continue
        window = cut.inset(-2.0)
        k = dpi / 25.4
        ys, xs = (
            slice(round(window.y * k), round(window.bottom * k)),
            slice(round(window.x * k), round(window.right * k)),
        )
        panel = np.all(np.abs(front_px[ys, xs].astype(int) - grey) <= 2, axis=2)
        # The panel's top and left edges are plain grey (its icons and medal sit further in).
        edge = _bbox_of(panel, dpi, goal.width, goal.height).moved(window.x, window.y)
        front_cut = Box(edge.x - goal.x, edge.y - goal.y, cut.width, cut.height)
        # Where the back must be: the front's cut mirrored by the flip, shifted by the offset.
        target = back_box(front_cut, paper, duplex, offset)
        bwin = target.inset(-2.0)
        ys, xs = (
            slice(round(bwin.y * k), round(bwin.bottom * k)),
            slice(round(bwin.x * k), round(bwin.right * k)),
        )
        frame = np.all(np.abs(back_px[ys, xs].astype(int) - accent) <= 8, axis=2)
        found = _bbox_of(frame, dpi, cut.width - 8, cut.height - 8).moved(bwin.x, bwin.y)
        (fx, fy), (tx, ty) = found.centre, target.centre
        assert abs(fx - tx) <= 0.5 and abs(fy - ty) <= 0.5, (card.id, found, target)
        # The frame (drawn 4 mm inside the cut, 0.6 mm wide) has the size it should.
        assert abs(found.width - (cut.width - 7.4)) <= 0.5
        assert abs(found.height - (cut.height - 7.4)) <= 0.5


def test_crop_marks_lie_outside_the_cut_area() -> None:
    kit = built(bleed=0.0)
    width = kit.plan.imposition.spec.mark_width * MM
    for index, page in enumerate(kit.plan.imposition.pages):
        if page.booklet:  # rulebook and board pages are not cut
            assert not page.marks
            continue
        pdf_page = kit.page_of(page.placements[0].item.key)[0]
        marks = [
            d["rect"]
            for d in kit.doc[pdf_page].get_drawings()
            if d.get("width") is not None
            and abs(d["width"] - width) < 0.01
            and d.get("color") == (0.0, 0.0, 0.0)
            and len(d["items"]) == 1
            and d["items"][0][0] == "l"
        ]
        assert len(marks) >= len(page.marks) > 0, index
        for rect in marks:
            box = Box(
                rect.x0 / MM, rect.y0 / MM, (rect.x1 - rect.x0) / MM, (rect.y1 - rect.y0) / MM
            ).inset(0.05)
            assert not any(box.intersects(p.cut) for p in page.placements)


@pytest.mark.parametrize("kit_args", [{}, {"paper": "letter", "bleed": 0.0, "duplex": "short"}])
def test_nothing_is_drawn_outside_the_page(kit_args) -> None:
    kit = built(**kit_args)
    for page in kit.doc:
        area = page.rect
        area = type(area)(area.x0 - 0.5, area.y0 - 0.5, area.x1 + 0.5, area.y1 + 0.5)
        for d in page.get_drawings():
            assert area.contains(d["rect"]), (page.number, d["rect"])
        for block in page.get_text("blocks"):
            assert area.contains(block[:4]), (page.number, block)


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_every_string_renders_with_no_missing_glyph(lang: str) -> None:
    kit = built(lang=lang, paper="a4" if lang == "en" else "letter")
    fonts = kit.plan.painter.fonts
    for text in kit.plan.painter.t.strings():
        for role in ("regular", "semibold", "bold"):
            assert fonts.missing_glyphs(role, text) == "", (role, text)
    words = " ".join(page.get_text() for page in kit.doc)
    assert "\ufffd" not in words
    assert not any(rune in words for rune in "ᛞᛏᚢᛟᛃ")  # runes are paths, never text
    if lang == "cs":
        assert "podložky" in words and "Levý archív" in words and "žetony" in words


def test_the_same_inputs_give_the_same_bytes() -> None:
    first = built()
    again = built.__wrapped__()  # a fresh build, not the cached one
    assert first.pdf == again.pdf


def test_page_counts_are_stated_for_both_papers() -> None:
    from runarch_gen.runarch.kit.build import pages_per_paper

    kit = built()
    counts = pages_per_paper(kit.plan)
    assert counts["a4"] == len(kit.doc)
    assert counts["letter"] == len(built(paper="letter", lang="cs").doc)


def test_page_counts_for_the_other_paper_use_the_kits_own_tokens(tmp_path: Path) -> None:
    from runarch_gen.runarch.kit.build import KitOptions, pages_per_paper, plan_kit
    from runarch_gen.runarch.rules import data_option

    conditions = tmp_path / "many.toml"
    conditions.write_text("conditions = [" + ", ".join(['"total 5"'] * 150) + "]\n")
    board, deck = sample_board(), sample_deck(50)
    only = ("condition_tokens",)
    values = data_option("conditions", str(conditions), source="--conditions")
    a4 = plan_kit(board, deck, KitOptions(only=only, conditions=values))
    letter = plan_kit(board, deck, KitOptions("letter", only=only, conditions=values))
    default = plan_kit(board, deck, KitOptions("letter", only=only))
    assert letter.imposition.page_count > default.imposition.page_count
    assert pages_per_paper(a4)["letter"] == letter.imposition.page_count


def test_shapes_cover_every_colour_and_shape_on_the_tiles() -> None:
    kit = built()
    tiles = [i.payload for i in kit.plan.items if i.kind == "tiles"]
    assert {p.colour for p in tiles} == set(COLOURS) and {p.shape for p in tiles} == set(SHAPES)


def test_component_counts_read_from_the_whole_pdf() -> None:
    """Counted from the PDF's text alone (the rules page, which mentions some of the words,
    left out): card numbers, token faces, marker labels, player boards."""
    kit = built()
    words: Counter[str] = Counter()
    rules = {kit.page_of(i.key)[0] for i in kit.plan.items if i.kind == "rules"}
    for page in kit.doc:
        if page.number not in rules:
            words.update(w[4] for w in page.get_text("words"))
    card_numbers = [w for w in words if re.fullmatch(r"#\d\d", w)]
    assert len(card_numbers) == 50 and all(words[w] == 1 for w in card_numbers)
    assert words["minimum"] == 24  # bonus-token backs
    assert words["phase"] == 18 and words["stays"] == 6  # bonus-token fronts: D, X, F / N
    assert words["gold"] == 10 and words["silver"] == 10  # bet tokens, both sides
    assert words["order"] == 3  # the three "any order" condition tokens
    assert (
        words["fold"] == 2
    )  # on the two total markers; the small best-card ones have no room at 6 pt
    assert words["White"] == 1 and words["Black"] == 1  # the player boards' titles
