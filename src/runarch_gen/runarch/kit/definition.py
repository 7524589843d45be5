"""RunArch's kit as every game's kit is declared (:class:`~runarch_gen.pnp.kit.KitDefinition`):
its component kinds, and a maker that generates the board and deck from the request's seed,
checks them on the side and writes the folder (:func:`~runarch_gen.runarch.kit.make.make_kit`).
The registration's ``kit`` hook returns :data:`KIT`."""

from __future__ import annotations

from pathlib import Path

from runarch_gen.pnp.kit import KitDefinition, KitPlan, KitRequest, MadeKit
from runarch_gen.runarch.kit.build import KINDS, KitOptions

__all__ = ["KIT"]


def _make(folder: Path, request: KitRequest) -> MadeKit:
    from runarch_gen.runarch.kit.make import make_kit

    o = request.options
    values = request.values
    options = KitOptions(
        paper=o.paper,
        lang=o.lang,
        bleed=o.bleed,
        duplex=o.duplex,
        duplex_offset=o.duplex_offset,
        print_friendly=o.print_friendly,
        only=o.only,
        template=o.template,
        archive_order=str(values.get("archive_order", "overview")),
        tokens=str(values.get("tokens", "default")),
        conditions=str(values.get("conditions", "default")),
    ).checked()
    made = make_kit(
        folder,
        seed=request.seed or 0,
        options=options,
        images=o.images,
        preset=o.preset,
    )
    return MadeKit(made.folder, made.manifest)


def _plan(request: KitRequest) -> KitPlan:
    raise NotImplementedError("RunArch's kit is made by its own maker (KitDefinition.make)")


KIT = KitDefinition("runarch", KINDS, _plan, uses_seed=True, make=_make)
