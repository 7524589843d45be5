"""The print-and-play kit: every page inside its paper, the same bytes twice, the scale drawn
from the rules, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runarch_gen.bluff.kit import PAPERS, kit_document, kit_pages, odds_rows, ring_cells
from runarch_gen.bluff.rules import BluffRules, parse_scale
from runarch_gen.cli import run
from runarch_gen.pnp.geometry import Box
from runarch_gen.pnp.surface import RecordingSurface


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("lang", ["cs", "en"])
def test_every_page_stays_inside_the_paper_with_a_margin(paper: str, lang: str) -> None:
    width, height = PAPERS[paper]
    document = kit_document(BluffRules(), lang, paper)
    for n, page in enumerate(document.pages):
        surface = RecordingSurface(width, height)
        document.draw_page(surface, n)
        assert surface.records, page.name
        for record in surface.records:
            b = record.bounds
            assert b.x >= 5 and b.y >= 5, (page.name, record)
            assert b.right <= width - 5 and b.bottom <= height - 5, (page.name, record)


def test_the_board_prints_every_field_of_the_scale_once() -> None:
    for scale in ("default", "1\n*1\n2\n3\n*2\n"):
        rules = BluffRules() if scale == "default" else BluffRules(scale=parse_scale(scale))
        surface = RecordingSurface(210, 297)
        kit_pages(rules, "en")[0].draw(surface, Box(10, 10, 277, 178))
        texts = [r.text for r in surface.records if r.kind == "text"]
        quantities = [str(f.quantity) for f in rules.scale.fields]
        for q in set(quantities):
            # each quantity appears as a field label (and again as the field's small index)
            assert texts.count(q) >= quantities.count(q)


def test_ring_cells_go_clockwise_round_the_edge_without_overlap() -> None:
    cells, size = ring_cells(30, Box(0, 0, 250, 175))
    assert len(cells) == 30 and size == 25
    assert [c.x for c in cells[:10]] == [25 * k for k in range(10)] and cells[9].y == 0
    assert cells[10].x == 225 and cells[10].y == 25  # then down the right side
    for a in range(30):
        for b in range(a + 1, 30):
            ca, cb = cells[a], cells[b]
            assert ca.right <= cb.x or cb.right <= ca.x or ca.bottom <= cb.y or cb.bottom <= ca.y


def test_the_odds_printed_are_the_exact_odds_rounded() -> None:
    rows = odds_rows(5, [2, 10], 3)
    assert rows["number"][0] == ["56", "11", "–"]  # 1 − (2/3)², (1/3)²
    assert rows["star"][0] == ["31", "3", "–"]  # 1 − (5/6)², (1/6)²
    assert rows["number"][1][0] == "98"  # 1 − (2/3)^10 = 98.3 %


def test_the_kit_is_the_same_bytes_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    assert run(["bluff", "kit", "--out", str(first), "--lang", "cs", "--json"]) == 0
    manifest = json.loads(capsys.readouterr().out)
    assert run(["bluff", "kit", "--out", str(second), "--lang", "cs"]) == 0
    assert (first / "kit.pdf").read_bytes() == (second / "kit.pdf").read_bytes()
    assert manifest["pages"][0] == "board" and len(manifest["pages"]) == 12
    assert set(manifest["files"]) == {p.name for p in first.iterdir()} - {"manifest.json"}
    import pymupdf

    with pymupdf.open(first / "kit.pdf") as document:
        assert document.page_count == 12
        text = document[10].get_text()
    assert "Pravidla Bluffu" in text and "nevěřím" in text


def test_kit_errors_are_one_line_and_nothing_is_overwritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me", "utf-8")
    for args, message in [
        (["--paper", "a3"], "--paper: one of a4, letter"),
        (["--lang", "de"], "--lang: one of cs, en"),
        (["--out", str(mine)], "is not a Bluff kit folder"),
    ]:
        out = [] if "--out" in args else ["--out", str(tmp_path / "kit")]
        assert run(["bluff", "kit", *out, *args]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err
    assert (mine / "notes.txt").read_text("utf-8") == "keep me"
    assert not (tmp_path / "kit").exists()


def test_a_kit_folder_is_replaced_only_while_it_holds_nothing_but_the_kit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "kit"
    assert run(["bluff", "kit", "--out", str(folder)]) == 0
    assert run(["bluff", "kit", "--out", str(folder), "--lang", "cs"]) == 0  # ours: replaced
    (folder / "mine.txt").write_text("keep me", "utf-8")
    capsys.readouterr()
    assert run(["bluff", "kit", "--out", str(folder)]) == 2
    assert "holds 'mine.txt', not written by the kit" in capsys.readouterr().err
    assert (folder / "mine.txt").read_text("utf-8") == "keep me"
