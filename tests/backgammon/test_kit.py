"""The print-and-play kit: every file a PDF with the expected pages, the same bytes twice, the
board tiles covering the whole board (read back from the PDF), the command writing the folder."""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf
import pytest

from runarch_gen.backgammon.kit import (
    BOARD_HEIGHT,
    BOARD_WIDTH,
    board_tiles,
    build_kit,
    components_document,
)
from runarch_gen.cli import run
from runarch_gen.pnp.geometry import Box
from runarch_gen.pnp.surface import RecordingSurface


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_tiles_cover_the_board_with_overlap(paper: str) -> None:
    _, plan = board_tiles(paper)
    tiles = [t.window for t in plan.tiles]
    assert len(tiles) == 4 and (plan.rows, plan.columns) == (2, 2)
    assert min(t.x for t in tiles) == 0 and max(t.right for t in tiles) == BOARD_WIDTH
    assert min(t.y for t in tiles) == 0 and max(t.bottom for t in tiles) == BOARD_HEIGHT
    xs = sorted({t.x for t in tiles})
    assert xs[1] < tiles[0].width - 12  # the second column starts inside the first: an overlap


def test_each_tile_page_prints_its_place_and_its_marks() -> None:
    data = build_kit("a4")["board-tiles.pdf"]
    with pymupdf.open(stream=data, filetype="pdf") as document:
        texts = [" ".join(page.get_text().split()) for page in document]
    for n, (row, column) in enumerate([(1, 1), (1, 2), (2, 1), (2, 2)]):
        assert f"page {n + 1} of 4, row {row}, column {column}" in texts[n]
        assert f"(řada {row}, sloupec {column})" in texts[n]


def test_the_kit_is_reproducible_and_complete() -> None:
    first = build_kit("a4", "# Rules\n\n## 1. Board\n\ntext")
    assert first == build_kit("a4", "# Rules\n\n## 1. Board\n\ntext")
    pages = {name: len(pymupdf.open(stream=data, filetype="pdf")) for name, data in first.items()}
    assert pages == {"board-tiles.pdf": 4, "board-a3.pdf": 1, "components.pdf": 4, "rules.pdf": 3}
    dice = pymupdf.open(stream=first["components.pdf"], filetype="pdf")[1].get_text().split()
    assert {"2", "4", "8", "16", "32", "64"} <= set(dice)  # the doubling cube's faces
    assert "2/4" in dice  # page numbering
    a3 = pymupdf.open(stream=first["board-a3.pdf"], filetype="pdf")[0]
    assert round(a3.rect.width / 72 * 25.4) == 420
    text = pymupdf.open(stream=first["components.pdf"], filetype="pdf")[3].get_text()
    assert "47.2%" in text and "Thorp" in text
    czech = pymupdf.open(stream=first["rules.pdf"], filetype="pdf")[0].get_text()
    assert "pravidla ve zkratce" in czech and "Crawfordovo" in czech


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_components_page_stays_inside_its_margins(paper: str) -> None:
    document = components_document(paper)
    width, height = document.size
    for index, page in enumerate(document.pages):
        surface = RecordingSurface(width, height)
        document.draw_page(surface, index)
        inside = Box(9, 9, width - 18, height - 18)
        assert all(inside.contains(r.bounds) for r in surface.records), page.name


def test_the_kit_command_writes_the_folder(tmp_path: Path) -> None:
    folder = tmp_path / "kit"
    assert run(["backgammon", "kit", "-o", str(folder), "--paper", "letter"]) == 0
    names = sorted(p.name for p in folder.iterdir())
    assert [n for n in names if not n.endswith(".png")] == [
        "board-a3.pdf",
        "board-tiles.pdf",
        "components.pdf",
        "manifest.json",
        "rules.pdf",
    ]
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    assert manifest["game"] == "backgammon" and set(manifest["files"]) == set(names) - {
        "manifest.json"
    }
    assert "preview-board-tile-1.png" in names
    assert run(["backgammon", "kit", "-o", str(folder)]) == 0  # its own kit: replaced
    (folder / "mine.txt").write_text("keep", "utf-8")
    assert run(["backgammon", "kit", "-o", str(folder)]) == 2
    assert (folder / "mine.txt").read_text("utf-8") == "keep"
    assert run(["backgammon", "kit", "-o", str(tmp_path / "x"), "--paper", "a5"]) == 2
    assert not (tmp_path / "x").exists()
