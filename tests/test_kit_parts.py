"""RunArch's components as registry objects: every kind once, in print order, each with its
layout, items of its own kind only, and a back exactly where its items are double-sided."""

from __future__ import annotations

import pytest

from runarch_gen.runarch.kit.build import KINDS, KitOptions, board_painter, plan_kit
from runarch_gen.runarch.kit.config import load_kit_config
from runarch_gen.runarch.kit.samples import sample_board, sample_deck


def test_the_registry_holds_every_kind_in_print_order() -> None:
    painter = board_painter()
    assert painter.components.kinds == KINDS
    config = load_kit_config()
    for kind in KINDS:
        component = painter.components[kind]
        if component.layout is not None:
            assert config.layout(component.layout).width > 0
    with pytest.raises(KeyError, match="no component of kind 'dice'"):
        painter.components["dice"]


def test_items_come_from_their_own_component_with_backs_where_they_are_double_sided() -> None:
    plan = plan_kit(sample_board(), sample_deck(12), KitOptions())
    kinds_seen = []
    for item in plan.items:
        if item.kind not in kinds_seen:
            kinds_seen.append(item.kind)
        has_back = plan.painter.components[item.kind].back is not None
        assert has_back == item.double_sided, item.kind
    assert kinds_seen == list(KINDS)  # grouped by kind, in the registry's order
