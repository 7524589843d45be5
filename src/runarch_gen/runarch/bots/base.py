"""The base of RunArch bots: the generic :class:`~runarch_gen.play.Bot` over a RunArch
observation, with the action layout at hand so a bot can sort legal actions by kind cheaply.

Legal actions are ascending ints and their kinds occupy consecutive ranges (setup, evaluate,
swap, end, bet — see :mod:`runarch_gen.runarch.engine.actions`), so the evaluations among the
legal actions are one slice found by bisection.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from typing import Any

from runarch_gen.play.bot import Bot
from runarch_gen.runarch.engine.actions import EVAL_BASE, SWAP_BASE
from runarch_gen.runarch.engine.observation import RunArchObservation

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # the plain install: nothing to tell a compiler

    def mypyc_attr(*attrs: str, **kwattrs: bool) -> Callable[[Any], Any]:  # type: ignore[misc]
        """Does nothing: the compiled build (hatch_build.py) reads it from mypy_extensions."""
        return lambda cls: cls


__all__ = ["RunArchBot", "mypyc_attr"]


# The bot classes stay open to subclasses written in Python when they are compiled (mypyc).
@mypyc_attr(allow_interpreted_subclasses=True)
class RunArchBot(Bot[RunArchObservation]):
    """A bot for RunArch; subclasses implement :meth:`step`."""

    name = "runarch"

    @staticmethod
    def evaluations(legal_actions: Sequence[int]) -> Sequence[int]:
        """The evaluation actions among ``legal_actions`` (a slice, possibly empty)."""
        if not legal_actions or legal_actions[0] >= SWAP_BASE:
            return ()
        start = bisect_left(legal_actions, EVAL_BASE)
        return legal_actions[start : bisect_left(legal_actions, SWAP_BASE, start)]
