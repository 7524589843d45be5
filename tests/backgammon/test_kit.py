"""Vrhcáby's kit: the board tiled over pages with overlap and marks, the whole board on one A3
sheet, setup cards for every start, and worked positions played by the move rules (the rest of
the standard: tests/test_kit_family.py)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pymupdf
import pytest

from runarch_gen.backgammon.board import BAR, OFF
from runarch_gen.backgammon.kit import KIT, OVERLAP
from runarch_gen.backgammon.rules import STARTS
from runarch_gen.cli import run
from runarch_gen.pnp.kit import KitOptions, KitRequest


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_board_pages_cover_the_board_with_overlap(paper: str) -> None:
    plan = KIT.plan(KitRequest(KitOptions(paper=paper)))
    tiles = [i for i in plan.items if i.kind == "board"]
    tile_plan = tiles[0].payload[0]
    g = plan.painter.g
    assert (tile_plan.width, tile_plan.height) == (g.width, g.height)
    assert len(tiles) == len(tile_plan.tiles) >= 2
    xs = sorted({t.window.x for t in tile_plan.tiles})
    for a, b in itertools.pairwise(xs):
        assert b <= a + tile_plan.tiles[0].window.width - OVERLAP + 1e-6
    right = max(t.window.right for t in tile_plan.tiles)
    bottom = max(t.window.bottom for t in tile_plan.tiles)
    assert right >= g.width - 1e-6 and bottom >= g.height - 1e-6
    assert all(tile_plan.marks_in(t) for t in tile_plan.tiles)


def test_the_kit_folder_has_the_board_on_one_a3_sheet(tmp_path: Path) -> None:
    folder = tmp_path / "k"
    assert run(["backgammon", "kit", "-o", str(folder), "--only", "board"]) == 0
    doc = pymupdf.open(folder / "board-a3.pdf")
    assert doc.page_count == 1
    page = doc[0]
    assert abs(page.rect.width - 420 * 72 / 25.4) < 0.1  # landscape A3
    assert page.rect.contains(page.trimbox) and page.trimbox != page.rect
    # A kit without the board has no board sheet.
    assert run(["backgammon", "kit", "-o", str(tmp_path / "c"), "--only", "checkers"]) == 0
    assert not (tmp_path / "c" / "board-a3.pdf").exists()


def test_a_setup_card_for_every_start_and_the_checkers_each_variant_needs() -> None:
    plan = KIT.plan(KitRequest(KitOptions()))
    assert sorted(i.payload for i in plan.items if i.kind == "setups") == sorted(STARTS)
    assert sum(1 for i in plan.items if i.kind == "checkers") == 30
    hyper = KIT.plan(KitRequest(KitOptions(), {"variant": "hypergammon"}))
    assert sum(1 for i in hyper.items if i.kind == "checkers") == 6


def test_the_worked_hit_and_bear_off_are_what_the_move_rules_allow() -> None:
    plan = KIT.plan(KitRequest(KitOptions()))
    book = plan.book
    white, black, after_w, after_b, play = book.hit()
    assert (after_b[BAR] == black[BAR] + 1 and play.endswith("*")) or "*" in play
    assert sum(after_w) == sum(white) == 15 and sum(after_b) == 15
    white, _, plays = book.bear_off()
    assert "6/off" in plays and "4/off" in plays
    assert white[OFF] == 9
