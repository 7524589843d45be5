"""The kit's components against RULES: card areas (§1.3), bonus tokens (§1.4), condition
tokens [R-02], archive order [R-13], goal wording [R-23], the score frame, print-friendly ink."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from runarch_gen.pnp.geometry import Box
from runarch_gen.pnp.surface import RecordingSurface
from runarch_gen.runarch.atoms import Colour, Shape
from runarch_gen.runarch.decks.cards import Goal, GoalKind
from runarch_gen.runarch.engine.conditions import default_conditions
from runarch_gen.runarch.kit.build import KitOptions, plan_kit, render_kit_pdf
from runarch_gen.runarch.kit.config import load_kit_config
from runarch_gen.runarch.kit.samples import sample_board, sample_deck
from runarch_gen.runarch.rules import data_option
from tests.kit_helpers import BuiltKit, built


def test_card_pattern_area_is_the_largest_goal_top_middle_match_on_the_right() -> None:
    card = load_kit_config().layout("card")
    areas = card.areas
    assert max(areas, key=lambda n: areas[n].area) == "pattern"
    goal, match = areas["goal"], areas["match"]
    assert goal.y == min(a.y for n, a in areas.items() if n != "match")  # the strip is full height
    left_part_centre = match.x / 2
    assert abs(goal.centre[0] - left_part_centre) < 3.0
    assert match.right == pytest.approx(card.width) and match.height == pytest.approx(card.height)
    assert (card.width, card.height) == (88.9, 63.5)  # poker size


def test_bonus_tokens_follow_rules_1_4() -> None:
    kit = built(only=("bonus_tokens",))
    tokens = [i.payload for i in kit.plan.items]
    assert len(tokens) == 24
    for player in (0, 1):
        mine = [t for t in tokens if t.player == player]
        values = {s: sorted(t.value for t in mine if t.symbol == s) for s in "DXFN"}
        assert values == {"D": [5, 6, 7], "X": [7, 8, 9], "F": [9, 10, 11], "N": [11, 12, 13]}


def test_r02_the_kit_prints_the_rules_condition_tokens() -> None:
    kit = built(only=("condition_tokens",))
    printed = [i.payload for i in kit.plan.items]
    assert printed == list(default_conditions())
    assert [c.text for c in printed] == [
        "1·1·1",
        "2·2·2",
        "3·3·3",
        "2·1·0 any order",
        "3·2·1 any order",
        "3·0·0 any order",
        "4·*·* any order",
        "5·*·* any order",
        "3·*·*",
        "*·3·*",
        "*·*·3",
        "total 5",
    ]


def test_token_and_condition_files_are_what_the_kit_prints(tmp_path: Path) -> None:
    tokens = tmp_path / "tokens.toml"
    tokens.write_text("[tokens]\nD = [4]\nX = [6, 8]\nF = [9, 10]\nN = [12]\n")
    conditions = tmp_path / "conditions.toml"
    conditions.write_text('conditions = ["2·*·1", "total 4", "*·4·* any order"]\n')
    options = KitOptions(
        only=("bonus_tokens", "condition_tokens"),
        tokens=data_option("tokens", str(tokens), source="--tokens"),
        conditions=data_option("conditions", str(conditions), source="--conditions"),
    )
    kit = BuiltKit(plan := plan_kit(sample_board(), sample_deck(50), options), render_kit_pdf(plan))
    bonus = sorted(
        (i.payload.player, i.payload.symbol, i.payload.value, i.payload.phase)
        for i in kit.plan.items
        if i.kind == "bonus_tokens"
    )
    assert bonus == sorted(
        (player, symbol, value, phase)
        for player in (0, 1)
        for symbol, value, phase in [
            ("D", 4, 2),
            ("X", 6, 3),
            ("X", 8, 3),
            ("F", 9, 4),
            ("F", 10, 4),
            ("N", 12, None),
        ]
    )
    printed = [i.payload.text for i in kit.plan.items if i.kind == "condition_tokens"]
    assert printed == ["2·*·1", "total 4", "*·4·* any order"]
    page, cut = kit.page_of("condition-01")
    assert [w for _, _, w in sorted(kit.words(page, cut), key=lambda t: t[0])][:2] == ["2", "1"]
    page, cut = kit.page_of("condition-02")
    assert "4" in [w for _, _, w in kit.words(page, cut)]
    page, cut = kit.page_of("bonus-1-X8", side="back")
    assert "≥8" in [w for _, _, w in kit.words(page, cut)]


def _archive_words(kit: BuiltKit, archive: int) -> str:
    page, _ = kit.page_of("player-board-1")
    layout = kit.plan.painter.layouts["player_board"]
    area = layout.area(f"archive_{archive + 1}")
    placement = next(
        p
        for sheet in kit.plan.imposition.pages
        for p in sheet.placements
        if p.item.key == "player-board-1"
    )
    # The board is turned a quarter clockwise on the page: map its area onto the page.
    from runarch_gen.pnp.geometry import Affine

    m = Affine.identity().translated(*placement.origin()).rotated(placement.quarter_turns)
    return " ".join(w for _, _, w in kit.words(page, m.apply_box(area)))


def test_r13_archives_default_to_the_overview_order() -> None:
    kit = built(only=("player_boards",))
    assert "one shape" in _archive_words(kit, 0)
    assert "different shape" in _archive_words(kit, 1)
    assert "different colour" in _archive_words(kit, 2)


def test_r13_article_order_option() -> None:
    plan = plan_kit(
        sample_board(), sample_deck(5), KitOptions(only=("player_boards",), archive_order="article")
    )
    kit = BuiltKit(plan, render_kit_pdf(plan))
    assert "different colour" in _archive_words(kit, 0)
    assert "one shape" in _archive_words(kit, 2)


@pytest.mark.parametrize(
    ("goal", "en", "cs"),
    [
        (
            Goal(GoalKind.COLOUR_AND_SHAPE, 6, Colour.BLUE, 3, Shape.TRIANGLE, 2),
            "at least 3 blue and 2 triangle cards in your archives",
            "alespoň 3 modré karty a 2 karty s trojúhelníkem ve vašich archívech",
        ),
        (
            Goal(GoalKind.COLOUR, 7, colour=Colour.BLUE, colour_count=5),
            "at least 5 blue cards in your archives",
            "alespoň 5 modrých karet ve vašich archívech",
        ),
        (
            Goal(GoalKind.SHAPE, 4, shape=Shape.SQUARE, shape_count=2),
            "at least 2 square cards in your archives",
            "alespoň 2 karty se čtvercem ve vašich archívech",
        ),
        (
            Goal(GoalKind.SHAPES, 5, shape_count=5),
            "at least 5 different shapes in your archives",
            "alespoň 5 různých tvarů ve vašich archívech",
        ),
        (
            Goal(GoalKind.COLOURS, 3, colour_count=4),
            "at least 4 different colours in your archives",
            "alespoň 4 různé barvy ve vašich archívech",
        ),
    ],
)
def test_r23_goals_are_printed_in_words_in_both_languages(goal: Goal, en: str, cs: str) -> None:
    assert built(only=("rules",)).plan.painter.goal_text(goal) == en
    assert built(only=("rules",), lang="cs").plan.painter.goal_text(goal) == cs


def test_the_score_frame_has_four_segments_that_go_round_the_board() -> None:
    kit = built(only=("frame",))
    tile = kit.plan.painter.layouts["tile"].width
    frame = kit.plan.painter.layouts["frame_segment"]
    segments: dict[int, float] = {}
    for item in kit.plan.items:
        part = item.payload
        segments[part.segment] = segments.get(part.segment, 0.0) + item.width
    # Each segment runs along one side of the 5×5 board and covers one corner.
    assert segments == pytest.approx(dict.fromkeys(range(4), 5 * tile + frame.height))
    milestones = []
    for item in kit.plan.items:
        s = RecordingSurface(item.width, item.height)
        kit.plan.painter.front(s, item, 0.0)
        milestones += [
            r for r in s.records if r.kind == "rect" and r.fill == kit.plan.painter.style.milestone
        ]
    assert len(milestones) == 3  # 25, 50, 75; space 100 doubles as 0


def test_print_friendly_uses_much_less_ink() -> None:
    def ink(kit: BuiltKit) -> float:
        return float(np.mean([255 - kit.pixels(i, 20).mean() for i in range(len(kit.doc))]))

    full = built(only=("tiles", "cards"), cards=12)
    friendly = built(only=("tiles", "cards"), cards=12, friendly=True)
    assert ink(friendly) < 0.5 * ink(full)


def test_duplex_none_still_prints_backs_mirrored_for_gluing() -> None:
    kit = built(only=("bet_tokens",), duplex="none")
    assert len(kit.doc) == 2
    page = kit.plan.imposition.pages[0]
    assert page.backs is not None
    paper = kit.plan.imposition.spec.paper
    for front, back in zip(page.placements, page.backs, strict=True):
        assert back.cut.x == pytest.approx(paper.width - front.cut.right)


@pytest.mark.parametrize(
    ("lang", "friendly", "bleed"),
    [("en", False, 3.0), ("cs", True, 0.0), ("cs", False, 0.0), ("en", True, 3.0)],
)
def test_no_component_draws_beyond_its_bleed_or_sets_text_beyond_its_cut(lang, friendly, bleed):
    options = KitOptions(lang=lang, print_friendly=friendly, bleed=bleed)
    plan = plan_kit(sample_board(), sample_deck(50), options)
    painter = plan.painter
    for item in plan.items:
        sides = [painter.front] + ([painter.back] if item.double_sided else [])
        b = 0.0 if item.bleed is not None else bleed
        for draw in sides:
            s = RecordingSurface(item.width, item.height)
            draw(s, item, b)
            outer = Box(0, 0, item.width, item.height).inset(-b - 0.01)
            cut = Box(0, 0, item.width, item.height).inset(-0.01)
            for record in s.records:
                assert outer.contains(record.bounds), (item.key, record)
                if record.kind == "text":
                    assert cut.contains(record.bounds), (item.key, record.text, record.bounds)
                    assert painter.fonts.missing_glyphs(record.font, record.text) == ""
