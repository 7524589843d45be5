"""The print-and-play kit: every file a PDF with the expected pages, the same bytes twice, the
board tiles covering the whole board, the command writing the folder."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from runarch_gen.backgammon.kit import BOARD_HEIGHT, BOARD_WIDTH, _tiles, build_kit
from runarch_gen.cli import run


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_tiles_cover_the_board_with_overlap(paper: str) -> None:
    from runarch_gen.pnp.sheets import PAPERS

    size = PAPERS[paper]
    tiles = _tiles(size.height, size.width)
    assert len(tiles) == 4
    assert min(t[0] for t in tiles) == 0 and max(t[0] + t[2] for t in tiles) == BOARD_WIDTH
    assert min(t[1] for t in tiles) == 0 and max(t[1] + t[3] for t in tiles) == BOARD_HEIGHT
    xs = sorted({t[0] for t in tiles})
    assert xs[1] < tiles[0][2]  # the second column starts inside the first: an overlap


def test_the_kit_is_reproducible_and_complete() -> None:
    first = build_kit("a4", "# Rules\n\n## 1. Board\n\ntext")
    assert first == build_kit("a4", "# Rules\n\n## 1. Board\n\ntext")
    pages = {name: len(pymupdf.open(stream=data, filetype="pdf")) for name, data in first.items()}
    assert pages == {"board-tiles.pdf": 4, "board-a3.pdf": 1, "components.pdf": 4, "rules.pdf": 3}
    a3 = pymupdf.open(stream=first["board-a3.pdf"], filetype="pdf")[0]
    assert round(a3.rect.width / 72 * 25.4) == 420
    text = pymupdf.open(stream=first["components.pdf"], filetype="pdf")[3].get_text()
    assert "47.2%" in text and "Thorp" in text
    czech = pymupdf.open(stream=first["rules.pdf"], filetype="pdf")[0].get_text()
    assert "pravidla ve zkratce" in czech and "Crawfordovo" in czech


def test_the_kit_command_writes_the_folder(tmp_path: Path) -> None:
    assert run(["backgammon", "kit", "-o", str(tmp_path / "kit"), "--paper", "letter"]) == 0
    assert sorted(p.name for p in (tmp_path / "kit").iterdir()) == [
        "board-a3.pdf",
        "board-tiles.pdf",
        "components.pdf",
        "rules.pdf",
    ]
    assert run(["backgammon", "kit", "-o", str(tmp_path / "x"), "--paper", "a5"]) == 2
