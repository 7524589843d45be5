"""The renderers of the games with a page of their own; any other game gets the generic one."""

from __future__ import annotations

from runarch_gen.web.play.backgammon import BackgammonView
from runarch_gen.web.play.bluff import BluffView
from runarch_gen.web.play.malacca import MalaccaView
from runarch_gen.web.play.runarch import RunArchView
from runarch_gen.web.play.view import Renderer

__all__ = ["RENDERERS", "renderer_for"]

RENDERERS: dict[str, Renderer] = {
    "bluff": BluffView(),
    "backgammon": BackgammonView(),
    "malacca": MalaccaView(),
    "runarch": RunArchView(),
}

_GENERIC = Renderer()


def renderer_for(name: str) -> Renderer:
    """The renderer of the game called ``name`` (the generic one for any other game)."""
    return RENDERERS.get(name, _GENERIC)
