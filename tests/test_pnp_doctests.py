"""The examples in the docstrings of the print-and-play modules run as tests."""

import doctest
import importlib

import pytest

MODULES = [
    "runarch_gen.pnp.geometry",
    "runarch_gen.pnp.paint",
    "runarch_gen.pnp.fonts",
    "runarch_gen.pnp.text",
    "runarch_gen.pnp.surface",
    "runarch_gen.pnp.pdf",
    "runarch_gen.pnp.raster",
    "runarch_gen.pnp.layout",
    "runarch_gen.pnp.sheets",
    "runarch_gen.runarch.kit.config",
    "runarch_gen.runarch.kit.style",
    "runarch_gen.runarch.kit.samples",
    "runarch_gen.runarch.kit.build",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
    assert result.attempted > 0
