"""Components as objects in a registry: each kind of piece a game prints says which layout it
uses, which items (pieces to impose) it makes from the kit's contents, and how to draw an
item's front and back. A kit draws any item through the registry, whatever its kind.

>>> from runarch_gen.pnp.surface import RecordingSurface
>>> from runarch_gen.pnp.geometry import Box
>>> dot = Component(
...     "dots",
...     lambda n: [Item("dots", f"dot-{i}", 10, 10) for i in range(n)],
...     lambda s, item, bleed: s.circle((5, 5), 5, fill=BLACK),
... )
>>> registry = ComponentRegistry([dot])
>>> items = registry.items(3)
>>> [i.key for i in items]
['dot-0', 'dot-1', 'dot-2']
>>> s = RecordingSurface(10, 10)
>>> registry.front(s, items[0], 0.0)
>>> s.records[0].kind
'circle'
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from runarch_gen.pnp.paint import BLACK
from runarch_gen.pnp.sheets import Item
from runarch_gen.pnp.surface import Surface

__all__ = ["BLACK", "Component", "ComponentRegistry", "DrawItem"]

C = TypeVar("C")
"""What a kit's items are made from (its board, deck, options …)."""

DrawItem = Callable[[Surface, Item, float], None]
"""Draws an item in its own millimetres (cut box from (0, 0)) with ``bleed`` mm beyond."""


@dataclass(frozen=True, slots=True)
class Component(Generic[C]):
    """One kind of piece: ``items`` makes its pieces, ``front`` and ``back`` draw one;
    ``layout`` names its layout in the game's templates (if it has one)."""

    kind: str
    items: Callable[[C], list[Item]]
    front: DrawItem
    back: DrawItem | None = None
    layout: str | None = None


class ComponentRegistry(Generic[C]):
    """Components by kind, in print order."""

    def __init__(self, components: Iterable[Component[C]]) -> None:
        self._components: dict[str, Component[C]] = {}
        for component in components:
            if component.kind in self._components:
                raise ValueError(f"component kind {component.kind!r} registered twice")
            self._components[component.kind] = component

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self._components)

    def __iter__(self) -> Iterator[Component[C]]:
        return iter(self._components.values())

    def __getitem__(self, kind: str) -> Component[C]:
        try:
            return self._components[kind]
        except KeyError:
            raise KeyError(f"no component of kind {kind!r}") from None

    def items(self, contents: C, only: Collection[str] | None = None) -> list[Item]:
        """The items of every kind (or of the kinds ``only``), in print order."""
        out: list[Item] = []
        for kind, component in self._components.items():
            if only is None or kind in only:
                out.extend(component.items(contents))
        return out

    def front(self, surface: Surface, item: Item, bleed: float) -> None:
        self[item.kind].front(surface, item, bleed)

    def back(self, surface: Surface, item: Item, bleed: float) -> None:
        back = self[item.kind].back
        if back is None:
            raise ValueError(f"{item.kind} has no back")
        back(surface, item, bleed)
