"""The examples in the deck modules' docstrings run as written."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

from runarch_gen.runarch import deckcheck, deckgen, deckio, goals


@pytest.mark.parametrize("module", [deckio, goals, deckcheck, deckgen], ids=lambda m: m.__name__)
def test_docstring_examples(module: ModuleType) -> None:
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0
    assert failures == 0
