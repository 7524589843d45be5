"""Malacca's print-and-play kit: every component in its count, one common back for the action
cards [M-05], byte-identical PDFs, Czech text embedded, previews, bad options."""

from __future__ import annotations

import io
import json

import pymupdf
import pytest
from PIL import Image

from runarch_gen.cli import run
from runarch_gen.errors import InputError
from runarch_gen.malacca.kit import build_kit_pdf, draw_back, kit_items, plan_kit
from runarch_gen.malacca.rules import MalaccaRules
from runarch_gen.pnp.surface import RecordingSurface


def test_the_kit_has_every_component_of_the_seed() -> None:
    items = kit_items()
    counts: dict[str, int] = {}
    for item in items:
        counts[item.kind] = counts.get(item.kind, 0) + 1
    assert counts["ship"] == 12 and counts["action"] == 24 + 16
    assert counts["captain"] == 1 and counts["character"] == 8 and counts["equipment"] == 12
    assert counts["chest"] == 15 and counts["coin"] == 40 + 20 and counts["reference"] == 1
    assert sorted(i.payload for i in items if i.kind == "ship") == list(range(3, 15))
    assert sum(1 for i in items if i.kind == "coin" and i.payload == 5) == 20
    assert all(i.double_sided for i in items if i.kind in ("chest", "action", "reference"))


def test_ships_follow_the_cargo_values_of_the_rules() -> None:
    items = kit_items(MalaccaRules(ships=(2, 2, 9), rounds=3))
    assert [i.payload for i in items if i.kind == "ship"] == [2, 2, 9]


def test_every_action_card_has_the_same_back() -> None:
    backs = set()
    for item in kit_items():
        if item.kind == "action":
            surface = RecordingSurface(item.width, item.height)
            draw_back(surface, item, 2.0)
            backs.add(tuple(surface.records))
    assert len(backs) == 1


def test_the_same_options_give_the_same_pdf_with_czech_text() -> None:
    imposition = plan_kit(only=("action", "character", "rules", "reference"))
    pdf = build_kit_pdf(imposition)
    assert pdf == build_kit_pdf(plan_kit(only=("action", "character", "rules", "reference")))
    document = pymupdf.open(stream=pdf, filetype="pdf")
    text = "".join(document[i].get_text() for i in range(document.page_count))
    for word in ("ÚTOK", "VYČKÁVÁNÍ", "Rodrigo Orgoñez", "Tragický hrdina", "Tragic hero"):
        assert word in text
    assert document.page_count == imposition.page_count


def test_the_kit_command_writes_the_folder_with_previews(tmp_path, capsys) -> None:
    out = tmp_path / "kit"
    args = ["malacca", "kit", "-o", str(out), "--only", "chest,reference"]
    assert run([*args, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["components"] == {"chest": 15, "reference": 1}
    assert (out / "kit.pdf").read_bytes()[:5] == b"%PDF-"
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    assert manifest["files"]["kit.pdf"]["sha256"] == report["sha256"]
    assert set(report["files"]) == {p.name for p in out.iterdir()}
    pngs = sorted(out.glob("preview-*.png"))
    assert len(pngs) == report["pages"]
    image = Image.open(io.BytesIO(pngs[0].read_bytes())).convert("L")
    darkest = image.getextrema()[0]
    assert not isinstance(darkest, tuple) and darkest < 100  # something dark was drawn
    assert run([*args, "--no-previews"]) == 0  # its own kit folder: replaced
    assert sorted(p.name for p in out.iterdir()) == ["kit.pdf", "manifest.json"]
    (out / "mine.txt").write_text("keep", "utf-8")
    capsys.readouterr()
    assert run(args) == 2
    assert "holds 'mine.txt', not written by the kit" in capsys.readouterr().err
    assert (out / "mine.txt").read_text("utf-8") == "keep"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--only", "sword"], "unknown component 'sword'"),
        (["--paper", "a3"], "--paper is one of a4, letter"),
        (["--duplex", "sideways"], "--duplex is one of"),
    ],
)
def test_bad_kit_options_fail_with_one_line(tmp_path, capsys, args, message) -> None:
    assert run(["malacca", "kit", "-o", str(tmp_path / "k"), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not (tmp_path / "k").exists()


def test_plan_kit_refuses_unknown_paper() -> None:
    with pytest.raises(InputError):
        plan_kit(paper="tabloid")
