"""The docstring examples of the simulation modules run as tests (they are documentation)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "runarch_gen.play.stats",
    "runarch_gen.play.simulate",
    "runarch_gen.charts",
    "runarch_gen.runarch.bots.planning",
    "runarch_gen.runarch.simulation",
    "runarch_gen.runarch.calibration",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
