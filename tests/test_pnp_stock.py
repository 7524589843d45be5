"""The generic print-and-play pieces: stock components (die nets checked by rolling a cube over
them, an oracle independent of the net's tables), boards tiled over pages (read back from the
drawing), the kit folder and the page document."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.errors import OutputError
from runarch_gen.pnp.geometry import Box
from runarch_gen.pnp.kitfolder import file_entries, owned_kit, sha256, write_kit_folder
from runarch_gen.pnp.pages import Document, Page, footer_label
from runarch_gen.pnp.paint import BLACK, WHITE, Paint
from runarch_gen.pnp.stock import (
    DOUBLING_CUBE,
    NET_CELLS,
    NET_TABS,
    OPPOSITE_CELLS,
    STANDARD_DIE,
    DieNet,
    draw_card_back,
    draw_checker,
    draw_coin,
    draw_score_track,
    draw_screen,
    draw_track_marker,
    text_face,
)
from runarch_gen.pnp.surface import RecordingSurface, Stroke, Surface
from runarch_gen.pnp.text import TextStyle
from runarch_gen.pnp.tiling import MARK_RADIUS, TRIM, TilePlan, draw_tile, plan_tiles

# -- die nets: roll a cube over the net ---------------------------------------------------------

STEP = {"left": (-1, 0), "right": (1, 0), "top": (0, -1), "bottom": (0, 1)}
# Tipping the cube over one of its edges: the new orientation (direction -> face slot).
ROLL = {
    "right": {"down": "right", "right": "up", "up": "left", "left": "down"},
    "left": {"down": "left", "left": "up", "up": "right", "right": "down"},
    "bottom": {"down": "bottom", "bottom": "up", "up": "top", "top": "down"},
    "top": {"down": "top", "top": "up", "up": "bottom", "bottom": "down"},
}


def roll_over_net(cells: list[tuple[int, int]]) -> list[dict[str, str]]:
    """The cube's orientation while it stands on each cell, rolled from the first cell along
    the net: which face slot is down, up, left, right, top, bottom (the cell's edges)."""
    start = {d: d for d in ("down", "up", "left", "right", "top", "bottom")}
    found: dict[tuple[int, int], dict[str, str]] = {cells[0]: start}
    todo = [cells[0]]
    while todo:
        here = todo.pop()
        for direction, (dx, dy) in STEP.items():
            there = (here[0] + dx, here[1] + dy)
            if there in cells and there not in found:
                now = found[here]
                found[there] = {d: now[ROLL[direction].get(d, d)] for d in now}
                todo.append(there)
    return [found[c] for c in cells]


OPPOSITE_SLOT = {"down": "up", "left": "right", "top": "bottom"}


def test_the_cross_net_folds_into_a_cube_with_the_documented_opposite_faces() -> None:
    orientations = roll_over_net(list(NET_CELLS))
    downs = [o["down"] for o in orientations]
    assert len(set(downs)) == 6  # every face of the cube exactly once
    pairs = set()
    for a in range(6):
        for b in range(a + 1, 6):
            sa, sb = downs[a], downs[b]
            if OPPOSITE_SLOT.get(sa) == sb or OPPOSITE_SLOT.get(sb) == sa:
                pairs.add((a, b))
    assert pairs == set(OPPOSITE_CELLS)
    assert sorted(STANDARD_DIE) == [1, 2, 3, 4, 5, 6]
    assert all(STANDARD_DIE[a] + STANDARD_DIE[b] == 7 for a, b in pairs)
    assert sorted(DOUBLING_CUBE) == [2, 4, 8, 16, 32, 64]


def test_one_glue_tab_for_every_cube_edge_that_the_net_leaves_open() -> None:
    orientations = roll_over_net(list(NET_CELLS))
    open_edges: dict[frozenset[str], list[tuple[int, str]]] = {}
    for index, (cell, orientation) in enumerate(zip(NET_CELLS, orientations, strict=True)):
        for edge, (dx, dy) in STEP.items():
            if (cell[0] + dx, cell[1] + dy) in NET_CELLS:
                continue  # a fold, not a cut
            cube_edge = frozenset((orientation["down"], orientation[edge]))
            open_edges.setdefault(cube_edge, []).append((index, edge))
    assert len(open_edges) == 7 and all(len(v) == 2 for v in open_edges.values())
    for pair in open_edges.values():
        assert sum(1 for side in pair if side in NET_TABS) == 1, pair


def test_a_die_net_draws_inside_its_bounds_with_its_faces() -> None:
    surface = RecordingSurface(100, 100)
    net = DieNet(16.0)
    net.draw(surface, (20, 20))
    bounds = net.bounds((20, 20))
    assert all(bounds.contains(r.bounds) for r in surface.records)
    circles = [r for r in surface.records if r.kind == "circle"]
    assert len(circles) == 21  # 1 + 2 + … + 6 pips
    for cell, value in zip(net.cells((20, 20)), net.faces, strict=True):
        assert sum(1 for c in circles if cell.contains(c.bounds)) == value


def test_the_doubling_cube_net_carries_2_to_64() -> None:
    surface = RecordingSurface(100, 100)
    net = DieNet(19.2, DOUBLING_CUBE)
    net.draw(surface, (5, 10), text_face(TextStyle(font="bold", size=20)))
    texts = {r.text: r.bounds for r in surface.records if r.kind == "text"}
    assert sorted(map(int, texts)) == [2, 4, 8, 16, 32, 64]
    for cell, value in zip(net.cells((5, 10)), DOUBLING_CUBE, strict=True):
        assert cell.contains(texts[str(value)])


def test_custom_faces_come_from_the_callback() -> None:
    seen = []
    DieNet(10.0).draw(RecordingSurface(50, 50), (0, 5), lambda s, b, v: seen.append((v, b)))
    assert [v for v, _ in seen] == list(STANDARD_DIE)
    assert all(b.width == 10.0 for _, b in seen)


# -- other stock pieces ---------------------------------------------------------------------------


def _inside(surface: RecordingSurface, box: Box) -> bool:
    return bool(surface.records) and all(box.contains(r.bounds) for r in surface.records)


def test_round_pieces_fit_their_square() -> None:
    coin = RecordingSurface(30, 30)
    draw_coin(coin, (11, 11), 10.8, "20", fill=WHITE)
    assert _inside(coin, Box(0, 0, 22, 22))
    assert [r.text for r in coin.records if r.kind == "text"] == ["20"]
    checker = RecordingSurface(30, 30)
    draw_checker(checker, (14, 14), 13.8, fill=BLACK, ring=WHITE)
    assert _inside(checker, Box(0, 0, 28, 28))


def test_a_screen_folds_into_equal_panels_each_drawn_once() -> None:
    surface = RecordingSurface(200, 100)
    drawn: list[Box] = []
    panels = draw_screen(
        surface, Box(10, 10, 180, 80), [lambda s, b: drawn.append(b)] * 3, cut=LINE
    )
    assert drawn == panels and [p.width for p in panels] == [60, 60, 60]
    folds = [r for r in surface.records if r.kind == "polyline"]
    assert sorted(round(r.points[0][0], 6) for r in folds) == [70, 130]
    assert _inside(surface, Box(9, 9, 182, 82))


def test_a_score_track_numbers_every_value_once_in_rows() -> None:
    surface = RecordingSurface(200, 100)
    boxes = draw_score_track(surface, (5, 5), 12, range(26), 13)
    texts = [r.text for r in surface.records if r.kind == "text"]
    assert texts == [str(v) for v in range(26)]
    assert boxes[12].x == 5 + 12 * 12 and boxes[13] == Box(5, 17, 12, 12)
    draw_track_marker(surface, Box(180, 5, 16, 16), "C", fill=WHITE)
    assert _inside(surface, Box(4, 4, 193, 30))


def test_a_card_back_stays_inside_its_bleed() -> None:
    surface = RecordingSurface(80, 100)
    with surface.transformed(translate=(5, 5)):
        draw_card_back(
            surface, Box(0, 0, 63, 88), 2.0, fill=BLACK, accent=Paint.hex("#E1B530"), title="X"
        )
    assert _inside(surface, Box(3, 3, 67, 92))


# -- tiling ----------------------------------------------------------------------------------------

ITEM = Paint.hex("#123456")
LINE = Stroke(BLACK, 0.3)
Read = tuple[Box, list[tuple[float, float]], list[str]]


def _draw_item(width: float, height: float) -> Callable[[Surface], None]:
    def draw(surface: Surface) -> None:
        surface.rect(Box(0, 0, width, height), fill=ITEM)
        for x in range(0, int(width), 50):
            surface.line((x, 0), (x, height), LINE)

    return draw


def _read_back(
    width: float, height: float, paper: tuple[float, float], overlap: float
) -> tuple[TilePlan, list[Read]]:
    """Draw every tile; read back from each page where the item is (its first rectangle), the
    window shown (the dashed trim line) and the alignment marks, in item mm."""
    margin = 8.0
    plan = plan_tiles(
        width, height, paper[0] - 2 * margin, paper[1] - 2 * margin - 8, overlap=overlap
    )
    pages: list[Read] = []
    for tile in plan.tiles:
        surface = RecordingSurface(*paper)
        draw_tile(
            surface,
            plan,
            tile,
            (margin, margin + 8),
            _draw_item(width, height),
            caption=plan.place(tile),
        )
        item = next(r for r in surface.records if r.fill == ITEM).bounds
        assert (item.width, item.height) == pytest.approx((width, height))
        trim = next(r for r in surface.records if r.stroke == TRIM).bounds.inset(TRIM.width / 2)
        window = Box(trim.x - item.x, trim.y - item.y, trim.width, trim.height)
        marks = [
            (r.bounds.centre[0] - item.x, r.bounds.centre[1] - item.y)
            for r in surface.records
            if r.kind == "circle"
            and r.fill is None
            and r.stroke is not None
            and abs(r.bounds.width / 2 - r.stroke.width / 2 - MARK_RADIUS) < 1e-9
        ]
        caption = [r.text for r in surface.records if r.kind == "text"]
        pages.append((window, marks, caption))
        # nothing of the item shows outside the window: it is covered with white
        covers = [r.bounds for r in surface.records if r.fill == WHITE]
        assert sum(c.area for c in covers) == pytest.approx(paper[0] * paper[1] - trim.area)
    return plan, pages


@pytest.mark.parametrize("paper", [(297.0, 210.0), (279.4, 215.9), (210.0, 297.0)])
def test_tiles_cover_the_whole_board_and_their_marks_coincide(paper: tuple[float, float]) -> None:
    width, height = 400.0, 280.0
    plan, pages = _read_back(width, height, paper, 12.0)
    for gx in range(0, 401, 5):
        for gy in range(0, 281, 5):
            assert any(
                w.x - 1e-6 <= gx <= w.right + 1e-6 and w.y - 1e-6 <= gy <= w.bottom + 1e-6
                for w, _, _ in pages
            ), (gx, gy)
    seen: dict[tuple[float, float], int] = {}
    for _, marks, _ in pages:
        for x, y in marks:
            key = (round(x, 6), round(y, 6))
            seen[key] = seen.get(key, 0) + 1
    assert seen and all(n >= 2 for n in seen.values())  # a mark meets its twin on another page
    assert set(seen) == {(round(x, 6), round(y, 6)) for x, y in plan.marks}
    captions = [c[0] for _, _, c in pages]
    assert captions[0] == f"page 1 of {len(pages)}: row 1, column 1"
    assert captions[-1].endswith(f"row {plan.rows}, column {plan.columns}")


@settings(max_examples=60, deadline=None)
@given(
    st.floats(10, 1200),
    st.floats(10, 900),
    st.floats(60, 300),
    st.floats(60, 300),
    st.floats(0, 20),
)
def test_tile_plans_cover_with_the_overlap(
    width: float, height: float, aw: float, ah: float, overlap: float
) -> None:
    plan = plan_tiles(width, height, aw, ah, overlap=overlap)
    assert len(plan.tiles) == plan.rows * plan.columns
    for tile in plan.tiles:
        w = tile.window
        assert (
            w.x >= -1e-9 and w.right <= width + 1e-6 and w.y >= -1e-9 and w.bottom <= height + 1e-6
        )
        assert w.width <= aw + 1e-9 and w.height <= ah + 1e-9
    last = plan.tiles[-1].window
    assert last.right == pytest.approx(width) and last.bottom == pytest.approx(height)
    for a, b in zip(plan.tiles, plan.tiles[1:], strict=False):
        if a.row == b.row:
            assert a.window.right - b.window.x >= overlap - 1e-6
    for mark in plan.marks:
        assert sum(1 for t in plan.tiles if t in plan.tiles and mark in plan.marks_in(t)) >= 2


# -- kit folder and documents ------------------------------------------------------------------


def test_a_kit_folder_is_written_whole_and_replaced_only_when_it_is_ours(tmp_path: Path) -> None:
    check = owned_kit(lambda m: m["game"] == "toy", "a toy kit", "; choose another")
    files = {"a.pdf": b"%PDF-1", "sub/b.png": b"png"}
    manifest = {"game": "toy", "files": file_entries(files)}
    folder = write_kit_folder(tmp_path / "kit", files, check, manifest)
    written = json.loads((folder / "manifest.json").read_text("utf-8"))
    assert written["files"]["sub/b.png"] == {"sha256": sha256(b"png"), "bytes": 3}
    assert (folder / "sub" / "b.png").read_bytes() == b"png"
    write_kit_folder(folder, {"a.pdf": b"again"}, check, {"game": "toy", "files": ["a.pdf"]})
    assert sorted(p.name for p in folder.iterdir()) == ["a.pdf", "manifest.json"]
    (folder / "mine.txt").write_text("keep", "utf-8")
    with pytest.raises(OutputError, match=r"holds 'mine\.txt', not written by the kit; choose"):
        write_kit_folder(folder, files, check, manifest)
    other = tmp_path / "other"
    other.mkdir()
    (other / "manifest.json").write_text('{"game": "chess", "files": []}', "utf-8")
    with pytest.raises(OutputError, match="exists and is not a toy kit; choose another"):
        write_kit_folder(other, files, check, manifest)
    assert (folder / "mine.txt").read_text("utf-8") == "keep"


def test_a_document_numbers_its_pages_and_turns_landscape_ones() -> None:
    def draw(surface: Surface, frame: Box) -> None:
        surface.rect(frame, stroke=LINE)

    pages = (Page("a", draw), Page("b", draw, landscape=True, note="print at 100 %"))
    document = Document(pages, (210.0, 297.0), footer_label("Toy"))
    labels = []
    for index in range(2):
        surface = RecordingSurface(210, 297)
        document.draw_page(surface, index)
        assert _inside(surface, Box(5, 5, 200, 287))
        labels += [r.text for r in surface.records if r.kind == "text"]
    assert labels == ["Toy · a · 1/2", "Toy · b · 2/2 · print at 100 %"]
    data = document.pdf(title="Toy", creator="test")
    assert data == document.pdf(title="Toy", creator="test")
    with pymupdf.open(stream=data, filetype="pdf") as pdf:
        assert pdf.page_count == 2 and "2/2" in pdf[1].get_text()
    assert list(document.previews(["b"], px_per_mm=1.0)) == ["preview-02-b.png"]
