"""The docstring examples of the engine's modules run as tests (they are documentation)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "runarch_gen.play.game",
    "runarch_gen.play.bot",
    "runarch_gen.play.record",
    "runarch_gen.runarch.rules",
    "runarch_gen.runarch.engine",
    "runarch_gen.runarch.engine.actions",
    "runarch_gen.runarch.engine.conditions",
    "runarch_gen.runarch.engine.evaluation",
    "runarch_gen.runarch.engine.game",
    "runarch_gen.runarch.engine.sample",
    "runarch_gen.runarch.engine.scoring",
    "runarch_gen.runarch.engine.tables",
    "runarch_gen.runarch.record",
    "runarch_gen.runarch.tally",
    "runarch_gen.runarch.bots",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
