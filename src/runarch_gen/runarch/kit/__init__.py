"""The RunArch print-and-play kit: every component of RULES §1.2 drawn from layouts in
``templates/`` and imposed on A4 or Letter with the generic :mod:`runarch_gen.pnp` layer."""

from runarch_gen.runarch.kit.build import (
    KINDS,
    KitOptions,
    KitPlan,
    KitResult,
    build_kit,
    parse_offset,
    parse_only,
    plan_kit,
    render_kit_pdf,
    render_previews,
)

__all__ = [
    "KINDS",
    "KitOptions",
    "KitPlan",
    "KitResult",
    "build_kit",
    "parse_offset",
    "parse_only",
    "plan_kit",
    "render_kit_pdf",
    "render_previews",
]
