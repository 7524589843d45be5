"""Malacca's kit: every component of the seed, ships from the rules' cargo values, one common
back for all action cards [M-05], chests worth 10 and 20, and worked rounds that pay out as
the rules document's examples (the rest of the standard: tests/test_kit_family.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runarch_gen.cli import run
from runarch_gen.malacca.kit import KIT
from runarch_gen.pnp.kit import KitOptions, KitRequest
from runarch_gen.pnp.sheets import Item
from runarch_gen.pnp.surface import RecordingSurface


def test_the_kit_has_every_component_of_the_seed() -> None:
    counts = KIT.plan(KitRequest(KitOptions())).counts()
    assert counts["ships"] == 12 and counts["actions"] == 24 + 16
    assert counts["captain"] == 1 and counts["characters"] == 8 and counts["equipment"] == 12
    assert counts["chests"] == 15 and counts["coins"] == 40 + 20


def test_ships_carry_the_cargo_of_the_rules(tmp_path: Path, capsys) -> None:
    plan = KIT.plan(KitRequest(KitOptions(), {"ships": "2/2/4/4/6/6/8/8/10/10/12/12"}))
    assert [i.payload for i in plan.items if i.kind == "ships"] == [
        2,
        2,
        4,
        4,
        6,
        6,
        8,
        8,
        10,
        10,
        12,
        12,
    ]
    folder = tmp_path / "k"
    args = ["malacca", "kit", "-o", str(folder), "--rules", "ships=5-16", "--only", "ships"]
    assert run([*args, "--json"]) == 0
    manifest = json.loads(capsys.readouterr().out)
    assert manifest["options"]["rules"] == "malacca(ships=5-16)"


def _drawn(draw, item: Item) -> list[tuple[str, object, object]]:
    s = RecordingSurface(100, 100)
    draw(s, item, 3.0)
    return [(r.kind, r.bounds, r.fill) for r in s.records]


def test_every_action_card_has_the_same_back_and_chests_two_values() -> None:
    plan = KIT.plan(KitRequest(KitOptions()))
    actions = [i for i in plan.items if i.kind == "actions"]
    backs = {repr(_drawn(plan.back, i)) for i in actions}
    assert len(backs) == 1 and all(i.double_sided for i in actions)
    chest = next(i for i in plan.items if i.kind == "chests")
    front, back = RecordingSurface(60, 80), RecordingSurface(60, 80)
    plan.front(front, chest, 0.0)
    plan.back(back, chest, 0.0)
    assert "10" in [r.text for r in front.records] and "20" in [r.text for r in back.records]


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_the_worked_rounds_pay_out_as_the_rules_documents_examples(lang: str) -> None:
    # docs/rules/malacca.md §10, examples 1 and 2: the changes seat by seat.
    plan = KIT.plan(KitRequest(KitOptions(lang=lang)))
    book = plan.book
    from runarch_gen.malacca.kit import example_round

    _, captured = example_round(book.p.rules, book.book["examples"]["captured"])
    assert captured.captured and captured.changes == (6, -4, -1, 6)
    _, defended = example_round(book.p.rules, book.book["examples"]["defended"])
    assert not defended.captured and defended.changes == (-7, 4, 2, 1)
    lines = book.example_lines("captured")
    assert any("+6" in line for line in lines) and any("−4" in line for line in lines)
