"""The generic print-and-play layer: geometry, text fitting, fonts, templates, both backends
and sheet imposition. Nothing here knows RunArch."""

import io

import numpy as np
import pymupdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from runarch_gen.errors import InputError, ParseError
from runarch_gen.pnp.fonts import default_fonts
from runarch_gen.pnp.geometry import Affine, Box
from runarch_gen.pnp.layout import ComponentLayout, merged, read_toml, templates_dir
from runarch_gen.pnp.paint import BLACK, WHITE, Paint
from runarch_gen.pnp.pdf import PdfSurface
from runarch_gen.pnp.raster import RasterSurface
from runarch_gen.pnp.sheets import (
    PAPERS,
    Item,
    SheetSpec,
    back_box,
    impose,
)
from runarch_gen.pnp.surface import RecordingSurface, Stroke
from runarch_gen.pnp.text import TextStyle, layout_text

FONTS = default_fonts()
RED = Paint((213, 94, 0))


# -- geometry ------------------------------------------------------------------------------------
def test_quarter_turns_map_a_box_onto_the_turned_box() -> None:
    m = Affine.identity().translated(100, 10).rotated(1)
    assert m.apply_box(Box(0, 0, 30, 20)) == Box(80, 10, 20, 30)
    assert m.quarter_turns == 1
    assert Affine.identity().rotated(2).apply(1, 2) == (-1, -2)


def test_back_box_mirrors_across_the_flip_axis() -> None:
    paper = PAPERS["a4"]
    box = Box(10, 20, 30, 40)
    assert back_box(box, paper, "long") == Box(170, 20, 30, 40)
    assert back_box(box, paper, "short") == Box(10, 237, 30, 40)
    assert back_box(box, paper, "none") == Box(170, 20, 30, 40)
    assert back_box(box, paper, "long", (1.5, -2)) == Box(171.5, 18, 30, 40)


# -- text ------------------------------------------------------------------------------------------
WORDS = st.text(
    alphabet="abcdefghijklmnopqrstuvwxyzěščřžýáíéůúňťďŘČŠŽ0123456789·→×", min_size=1, max_size=14
)


@settings(max_examples=80, deadline=None)
@given(
    words=st.lists(WORDS, min_size=1, max_size=30),
    width=st.floats(2.0, 120.0),
    height=st.floats(1.0, 60.0),
    size=st.floats(4.0, 30.0),
)
def test_text_never_overflows_its_box(
    words: list[str], width: float, height: float, size: float
) -> None:
    text = " ".join(words)
    layout = layout_text(text, width, height, TextStyle(size=size), FONTS)
    assert layout.size <= size
    assert layout.width <= width + 1e-6
    assert layout.height <= height + 1e-6
    for line in layout.lines:
        assert line.x >= -1e-6 and line.x + line.width <= width + 1e-6
        assert FONTS.width("regular", line.text, layout.size) <= width + 1e-6


def test_text_that_fits_keeps_its_size_and_long_text_shrinks() -> None:
    short = layout_text("10 mm", 30, 10, TextStyle(size=10), FONTS)
    assert short.size == 10 and short.readable
    long = layout_text("Print at 100 % / actual size " * 4, 40, 8, TextStyle(size=10), FONTS)
    assert long.size < 10
    assert long.height <= 8


def test_text_wraps_at_spaces_and_keeps_explicit_breaks() -> None:
    layout = layout_text("one two\nthree", 200, 50, TextStyle(size=10), FONTS)
    assert [line.text for line in layout.lines] == ["one two", "three"]


def test_czech_text_has_every_glyph_and_runes_do_not() -> None:
    assert FONTS.missing_glyphs("regular", "Příliš žluťoučký kůň úpěl ďábelské ódy → × · ≥") == ""
    assert FONTS.missing_glyphs("bold", "ŘČŠŽĚÝÁÍÉŮÚŇŤĎ") == ""
    assert FONTS.missing_glyphs("regular", "ᛞᛏ") == "ᛏᛞ"


# -- templates -------------------------------------------------------------------------------------
def test_component_layout_reads_areas_and_rejects_an_area_outside_the_cut() -> None:
    table = {"width": 50, "height": 30, "areas": {"a": {"x": 1, "y": 2, "width": 3, "height": 4}}}
    layout = ComponentLayout.from_table("chip", table)
    assert layout.area("a") == Box(1, 2, 3, 4)
    assert layout.safe_box == Box(3, 3, 44, 24)
    bad = {"width": 50, "height": 30, "areas": {"a": {"x": 45, "y": 0, "width": 10, "height": 4}}}
    with pytest.raises(InputError, match="area 'a': lies outside"):
        ComponentLayout.from_table("chip", bad)
    with pytest.raises(InputError, match="'width' must be a number"):
        ComponentLayout.from_table("chip", {"width": "wide", "height": 3})


def test_a_toml_syntax_error_names_the_file_and_line(tmp_path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[sheet]\nmargin = = 3\n")
    with pytest.raises(ParseError, match=r"bad\.toml:2:\d+: malformed TOML"):
        read_toml(path)


def test_merged_overrides_keys_and_keeps_the_rest() -> None:
    base = {"a": {"x": 1, "y": 2}, "b": [1]}
    assert merged(base, {"a": {"y": 3}, "b": [2]}) == {"a": {"x": 1, "y": 3}, "b": [2]}
    assert base == {"a": {"x": 1, "y": 2}, "b": [1]}


def test_templates_are_found() -> None:
    assert (templates_dir() / "runarch" / "kit.toml").is_file()


# -- backends --------------------------------------------------------------------------------------
def _draw_sample(s) -> None:
    s.rect(Box(5, 5, 20, 20), fill=RED)
    s.circle((50, 15), 10, fill=BLACK)
    s.polygon([(70, 25), (80, 5), (90, 25)], fill=RED, stroke=Stroke(BLACK, 0.5))
    with s.transformed(translate=(10, 40), quarter_turns=1):
        s.text(Box(0, 0, 30, 8), "Žluťoučký", TextStyle(size=14, font="bold"))


def test_pdf_and_png_draw_the_same_picture() -> None:
    pdf = PdfSurface(100, 80)
    _draw_sample(pdf)
    doc = pymupdf.open(stream=pdf.finish(), filetype="pdf")
    pix = doc[0].get_pixmap(dpi=254)  # 10 px per mm
    from_pdf = Image.open(io.BytesIO(pix.tobytes("png"))).convert("RGB")
    raster = RasterSurface(100, 80, px_per_mm=10)
    _draw_sample(raster)
    from_png = raster.image()
    for x, y in [(15, 15), (50, 15), (80, 20), (2, 2), (95, 75)]:
        a = np.asarray(from_pdf)[y * 10, x * 10].astype(int)
        b = np.asarray(from_png)[y * 10, x * 10].astype(int)
        assert np.abs(a - b).max() <= 3, (x, y, a, b)
    # The turned text lands in the same place in both (its dark pixels, within 0.5 mm).
    boxes = []
    for image in (from_pdf, from_png):
        text_only = image.crop((0, 300, 300, 800)).convert("L")
        box = Image.eval(text_only, lambda v: 255 if v < 100 else 0).getbbox()
        assert box is not None
        boxes.append(np.array(box))
    assert np.abs(boxes[0] - boxes[1]).max() <= 5


def test_turned_text_lands_in_its_turned_box() -> None:
    for turns in range(4):
        raster = RasterSurface(60, 60, px_per_mm=8)
        with raster.turned_about((30, 30), turns):
            raster.text(Box(20, 26, 20, 8), "Hello", TextStyle(size=18, font="bold"))
        expected = Affine.identity().translated(30, 30).rotated(turns).translated(-30, -30)
        target = expected.apply_box(Box(20, 26, 20, 8)).inset(-0.5)
        ink = Image.eval(raster.image().convert("L"), lambda v: 255 if v < 128 else 0).getbbox()
        assert ink is not None
        left, top, right, bottom = (v / 8 for v in ink)
        assert target.contains(Box(left, top, right - left, bottom - top)), (turns, ink, target)


def test_pdf_bytes_are_identical_for_identical_drawings_and_carry_no_date() -> None:
    def build() -> bytes:
        pdf = PdfSurface(100, 80, title="same")
        _draw_sample(pdf)
        pdf.next_page()
        _draw_sample(pdf)
        return pdf.finish()

    first, second = build(), build()
    assert first == second
    assert b"ASCII85Decode" not in first
    import datetime

    assert str(datetime.date.today().year).encode() not in first


def test_pdf_embeds_its_fonts() -> None:
    pdf = PdfSurface(50, 20)
    pdf.text(Box(0, 0, 50, 20), "Kůň", TextStyle(size=12))
    doc = pymupdf.open(stream=pdf.finish(), filetype="pdf")
    embedded = {f[3].split("+")[-1] for f in doc[0].get_fonts() if f[1] == "ttf"}
    spans = [s for b in doc[0].get_text("dict")["blocks"] for ln in b["lines"] for s in ln["spans"]]
    assert spans and {s["font"].split("+")[-1] for s in spans} <= embedded
    assert "SourceSansPro-Regular" in embedded
    assert "Kůň" in doc[0].get_text()


def test_png_bytes_are_identical_for_identical_drawings() -> None:
    def build() -> bytes:
        r = RasterSurface(100, 80, px_per_mm=3)
        _draw_sample(r)
        return r.png()

    assert build() == build()


def test_recording_surface_bounds_include_strokes() -> None:
    s = RecordingSurface(50, 50)
    s.circle((10, 10), 5, stroke=Stroke(BLACK, 2))
    assert s.records[0].bounds == Box(4, 4, 12, 12)


# -- imposition ------------------------------------------------------------------------------------
def _spec(paper: str = "a4") -> SheetSpec:
    return SheetSpec(paper=PAPERS[paper])


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_imposition_keeps_components_apart_inside_the_usable_area(paper: str, bleed: float) -> None:
    items = (
        [Item("card", f"c{i}", 88.9, 63.5, double_sided=True) for i in range(20)]
        + [Item("chip", f"x{i}", 22, 22, double_sided=True) for i in range(30)]
        + [Item("strip", f"s{i}", 133, 16) for i in range(8)]
        + [Item("sheet", "big", 150, 150, rotatable=False, alone=True)]
    )
    spec = _spec(paper)
    imposition = impose(items, spec, bleed=bleed)
    placed = [p.item.key for page in imposition.pages for p in page.placements]
    assert sorted(placed) == sorted(i.key for i in items)
    for page in imposition.pages:
        boxes = [p.bleed for p in page.placements]
        assert all(spec.usable.contains(b) for b in boxes)
        for i, a in enumerate(boxes):
            assert not any(a.intersects(b) for b in boxes[i + 1 :])
        assert len({p.item.double_sided for p in page.placements}) == 1
        if any(p.item.alone for p in page.placements):
            assert len(page.placements) == 1


def test_crop_marks_lie_outside_every_bleed_box_and_on_the_page() -> None:
    items = [Item("card", f"c{i}", 88.9, 63.5) for i in range(9)] + [
        Item("chip", f"x{i}", 22, 22) for i in range(9)
    ]
    spec = _spec()
    imposition = impose(items, spec, bleed=3)
    page_box = Box(0, 0, spec.paper.width, spec.paper.height)
    for page in imposition.pages:
        assert page.marks
        xs = {round(x, 3) for p in page.placements for x in (p.cut.x, p.cut.right)}
        for mark in page.marks:
            seg = Box.bounding([mark.start, mark.end]).inset(-spec.mark_width / 2)
            assert page_box.contains(seg)
            assert not any(seg.intersects(p.bleed) for p in page.placements)
            if mark.start[0] == mark.end[0]:
                assert round(mark.start[0], 3) in xs  # a vertical mark continues a cut line


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_backs_are_mirrored_for_the_flip(duplex: str) -> None:
    items = [Item("card", f"c{i}", 88.9, 63.5, double_sided=True) for i in range(5)]
    spec = _spec()
    imposition = impose(items, spec, bleed=3, duplex=duplex, offset=(0.5, -0.25))  # type: ignore
    page = imposition.pages[0]
    assert page.backs is not None
    for front, back in zip(page.placements, page.backs, strict=True):
        assert back.cut == back_box(front.cut, spec.paper, duplex, (0.5, -0.25))  # type: ignore[arg-type]


def test_an_item_too_large_for_the_paper_is_an_input_error() -> None:
    with pytest.raises(InputError, match="does not fit on letter paper"):
        impose([Item("board", "b", 250, 250)], _spec("letter"), bleed=3)
    with pytest.raises(InputError, match="--duplex-offset"):
        impose([Item("chip", "c", 20, 20)], _spec(), bleed=3, offset=(9, 0))


def test_white_is_white() -> None:
    assert WHITE.cmyk_or_derived == (0.0, 0.0, 0.0, 0.0)
    assert Paint.hex("#FFFFFF").luminance == pytest.approx(1.0)


def test_the_cmyk_colour_model_writes_the_print_safe_values() -> None:
    safe = Paint((213, 94, 0), (0.0, 0.6, 1.0, 0.1))
    pdf = PdfSurface(40, 40, colour_model="cmyk")
    pdf.rect(Box(5, 5, 10, 10), fill=safe)
    page = pymupdf.open(stream=pdf.finish(), filetype="pdf")[0]
    assert b"0 0.6 1 0.1 k" in page.read_contents()
    rgb = PdfSurface(40, 40)
    rgb.rect(Box(5, 5, 10, 10), fill=safe)
    page = pymupdf.open(stream=rgb.finish(), filetype="pdf")[0]
    assert page.get_drawings()[0]["fill"] == pytest.approx((213 / 255, 94 / 255, 0.0), abs=1e-3)
