"""Bluff's kit: the board prints the rules' own scale, clockwise, every field once; the odds
are the exact odds; the worked challenges are what the rules give, counted by hand here; a
scale given on the command line is printed (the rest of the standard: tests/test_kit_family.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runarch_gen.bluff.kit import KIT, odds_rows, ring_cells
from runarch_gen.bluff.rules import BluffRules, parse_scale
from runarch_gen.cli import run
from runarch_gen.pnp.geometry import Box
from runarch_gen.pnp.kit import KitOptions, KitRequest
from runarch_gen.pnp.surface import RecordingSurface


def _painter(values: dict[str, object] | None = None):
    plan = KIT.plan(KitRequest(KitOptions(), values or {}))
    return plan, plan.painter


@pytest.mark.parametrize("scale", ["default", "1/★1/2/3/★2"])
def test_the_board_prints_every_field_of_the_scale_once_in_raise_order(scale: str) -> None:
    _, painter = _painter({} if scale == "default" else {"scale": scale})
    s = RecordingSurface(280, 190)
    painter.draw_board(s, Box(0, 0, 280, 190))
    fields = painter.rules.scale.fields
    texts = [r.text for r in s.records if r.kind == "text"]
    for index, field in enumerate(fields):
        assert str(field.quantity) in texts
        assert str(index + 1) in texts  # the field's place in the raise order
    stars = [r for r in s.records if r.kind == "polygon" and r.fill == painter.bid]
    assert len(stars) >= sum(1 for f in fields if f.star)


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


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_the_worked_challenges_are_counted_as_the_rules_say(lang: str) -> None:
    plan = KIT.plan(KitRequest(KitOptions(lang=lang)))
    book = plan.book
    for name in ("challenge", "exact"):
        example = book.book["examples"][name]
        challenge = book.challenge(name)
        quantity, face = example["bids"][-1].split("×")
        # By hand: a number bid counts that number and every star.
        counted = sum(1 for hand in example["hands"] for d in hand.split(",") if d in (face, "★"))
        assert challenge.counted == counted
        if counted < int(quantity):
            assert challenge.loser == challenge.bidder and challenge.lost == int(quantity) - counted
        elif counted == int(quantity):
            assert challenge.loser == challenge.doubter and challenge.lost == 1
        lines = book.challenge_lines(name)
        assert str(counted) in lines[-1]


def test_a_scale_given_on_the_command_line_is_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scale = tmp_path / "scale.txt"
    scale.write_text("1\n*1\n2\n3\n*2\n4\n", encoding="utf-8")
    folder = tmp_path / "kit"
    args = ["bluff", "kit", "-o", str(folder), "--rules", f"scale={scale}", "--only", "board"]
    assert run([*args, "--json"]) == 0
    manifest = json.loads(capsys.readouterr().out)
    assert manifest["options"]["rules"] == "bluff(scale=1/★1/2/3/★2/4)"
    assert parse_scale("1\n*1\n2\n3\n*2\n4\n").fields[-1].quantity == 4
    assert BluffRules().players == 4
