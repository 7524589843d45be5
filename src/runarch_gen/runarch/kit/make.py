"""``make_kit``: RunArch's print-and-play kit from files or a seed, in one call — what
``runarch-gen kit`` and the benchmark run.

The set is read (each file checked: the board against B-1 at once, a deck file by the deck
checker on the other core while the kit is drawn) or generated from the seed; the static
checks of ``validate`` run beside the drawing, or, with ``validate``, the whole validation
with simulated games first; then :func:`~runarch_gen.runarch.kit.build.build_kit` writes the
folder as a whole. Nothing is written if a check fails or the work is interrupted.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runarch_gen.runarch.kit.build import KitOptions, build_kit

if TYPE_CHECKING:
    from runarch_gen.runarch.validation.validate import ValidationReport

__all__ = ["MadeKit", "make_kit"]


@dataclass(frozen=True, slots=True)
class MadeKit:
    """A kit written: its folder and manifest, the set's validation, and whether the board or
    the deck was generated from ``seed``."""

    folder: Path
    manifest: dict[str, Any] = field(hash=False, compare=False)
    validation: ValidationReport = field(hash=False, compare=False)
    generated: bool = False
    seed: int = 0


def make_kit(
    folder: str | os.PathLike[str],
    *,
    board: str | os.PathLike[str] | None = None,
    deck: str | os.PathLike[str] | None = None,
    seed: int,
    options: KitOptions | None = None,
    validate: bool = False,
    images: bool = False,
    preset: str | None = None,
    advance: Callable[[int], None] | None = None,
) -> MadeKit:
    """Make the kit of the board in file ``board`` and the deck in file ``deck`` (each
    generated from ``seed`` when not given) into ``folder`` (replaced only when it holds a
    kit and nothing else). ``validate`` adds simulated games to the checks (their key figures
    are printed on the rules page). Raises :class:`~runarch_gen.errors.InputError` for bad
    input (nothing written); Ctrl-C stops it with nothing written.
    """
    from runarch_gen.runarch.kit.inputs import KitChecks, kit_inputs
    from runarch_gen.runarch.validation.validate import default_variants, validate_set

    chosen = (options or KitOptions()).checked()
    inputs = kit_inputs(board, deck, seed=seed, advance=advance, check_later=True)
    variants = default_variants(chosen.archive_order, chosen.tokens, chosen.conditions)
    # The deck checker and (without validate) the static checks run on the other core while
    # the kit is drawn; nothing is written before the deck checker's verdict.
    checks = KitChecks(inputs, None if validate else variants)
    try:
        validation: ValidationReport | None = None
        if validate:
            validation = validate_set(
                inputs.board, inputs.deck, variants, seed=seed, advance=advance
            )
            if validation.interrupted:
                raise KeyboardInterrupt  # nothing is written
        result = build_kit(
            folder,
            inputs.board,
            inputs.deck,
            chosen,
            seed=seed if inputs.generated else None,
            board_json=inputs.board_json,
            deck_json=inputs.deck_json,
            sources=inputs.sources,
            advance=advance,
            images=images,
            preset=preset,
            before_write=checks.confirm,
            validation=validation if validation is not None else checks.validation,
        )
        if validation is None:
            validation = checks.validation()
    finally:
        checks.close()
    return MadeKit(result.folder, result.manifest, validation, inputs.generated, seed)
