"""Every example in every module's docstrings runs as written.

The modules are found by walking the package, so a new module's examples are tested without
being listed here.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import runarch_gen


def modules_with_examples() -> list[str]:
    finder = doctest.DocTestFinder()
    names = [runarch_gen.__name__]
    names += [
        info.name
        for info in pkgutil.walk_packages(runarch_gen.__path__, prefix=f"{runarch_gen.__name__}.")
        if info.name != "runarch_gen.__main__"
    ]
    return [
        name
        for name in sorted(names)
        if any(test.examples for test in finder.find(importlib.import_module(name)))
    ]


MODULES = modules_with_examples()


def test_the_walk_finds_the_documented_modules() -> None:
    wanted = {
        "runarch_gen.background",
        "runarch_gen.runarch.boards.generate",
        "runarch_gen.pnp.sheets",
    }
    assert wanted < set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
