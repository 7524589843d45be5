"""Why no board meets some options: a minimal set of conflicting options, in words.

The exact counter (:mod:`.generate`) tells in milliseconds whether any board meets a set of
options, however many bans it holds, so a minimal conflict is found by QuickXplain (Junker,
2004) over the options with that test as its oracle: about ``2k·log(n/k)`` tests for ``k``
conflicting options among ``n``. Every option named is needed: without any one of them some
board exists. The search checks a deadline and a cancel flag between tests, so a server can
bound it and drop it when its client leaves.

CP-SAT explains the same conflicts independently (:func:`.cpsat.explain_infeasibility`); the
tests hold the two to each other.

>>> from runarch_gen.runarch.boards.constraints import BoardConstraints
>>> why = explain_conflict(BoardConstraints.parse(fixes=["a1=5Y", "b1=5R"]))
>>> why.reason
'--fix a1=5Y and --fix b1=5R put two 5s in row 1'
>>> why.reason_in("cs")
'--fix a1=5Y a --fix b1=5R: dvakrát tvar 5 v řádku 1'
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from runarch_gen.runarch.atoms import (
    COLUMNS,
    DIAGONALS,
    N_SQUARES,
    PIECES,
    ROWS,
    Line,
    LineKind,
    square_name,
)
from runarch_gen.runarch.boards.constraints import BoardConstraints, Placement

__all__ = [
    "EXPLAIN_SECONDS",
    "Cancelled",
    "ConflictOption",
    "ExplainTimeout",
    "Infeasibility",
    "explain_conflict",
    "reason_for",
]

EXPLAIN_SECONDS = 1.5
"""How long an explanation may take before the error is given without it."""
MAX_NAMED = 6
"""A conflict of more options is named by its first few and their number."""


class Cancelled(Exception):
    """The work was cancelled (its client left, or the server is stopping)."""


class ExplainTimeout(Exception):
    """No minimal conflict was found within the time limit."""


class OptionLike(Protocol):
    @property
    def text(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def placement(self) -> Placement | None: ...


@dataclass(frozen=True, slots=True)
class ConflictOption:
    """One user option: its text (``--fix a1=5Y``), its kind (diagonals, fix, forbid) and
    its placement."""

    text: str
    kind: str
    placement: Placement | None


@dataclass(frozen=True, slots=True)
class Infeasibility:
    """Why no board meets the options: a minimal set of conflicting options and a sentence."""

    options: tuple[str, ...]
    reason: str
    core: tuple[ConflictOption, ...] = ()

    def reason_in(self, lang: str) -> str:
        """The sentence in ``lang`` (``en`` or ``cs``)."""
        return reason_for(self.core, lang) if self.core else self.reason


def options_of(constraints: BoardConstraints) -> tuple[ConflictOption, ...]:
    """The options of ``constraints`` in the order given: ``--diagonals``, pins, bans."""
    out: list[ConflictOption] = []
    if constraints.diagonals:
        out.append(ConflictOption("--diagonals", "diagonals", None))
    out += [ConflictOption(f"--fix {p}", "fix", p) for p in constraints.fixes]
    out += [ConflictOption(f"--forbid {p}", "forbid", p) for p in constraints.forbids]
    return tuple(out)


def explain_conflict(
    constraints: BoardConstraints,
    *,
    time_limit: float | None = EXPLAIN_SECONDS,
    cancel: threading.Event | None = None,
) -> Infeasibility | None:
    """``None`` when some board meets ``constraints``; else a minimal set of options that
    together admit no board, with the reason in words.

    Raises :class:`ExplainTimeout` when ``time_limit`` seconds pass first and
    :class:`Cancelled` when ``cancel`` is set.
    """
    deadline = None if time_limit is None else time.monotonic() + time_limit
    options = options_of(constraints)

    def consistent(chosen: _Chosen) -> bool:
        if cancel is not None and cancel.is_set():
            raise Cancelled
        if deadline is not None and time.monotonic() > deadline:
            raise ExplainTimeout
        return bool(chosen.table.any())

    if consistent(_Chosen.of(options)):
        return None
    core = _plain_conflict(options) or _quickxplain(options, consistent)
    core.sort(key=options.index)
    return Infeasibility(tuple(o.text for o in core), reason_for(core), tuple(core))


def _plain_conflict(options: Sequence[ConflictOption]) -> list[ConflictOption] | None:
    """A conflict that the rules show at a glance, when the options hold one: a pin and a ban
    of one tile on one square; two pins of one tile, or of one colour or shape in a line; all
    25 tiles banned from a square; a tile banned from every square. Each is minimal."""
    fixes = [o for o in options if o.kind == "fix" and o.placement is not None]
    forbids = [o for o in options if o.kind == "forbid" and o.placement is not None]
    diagonals = [o for o in options if o.kind == "diagonals"]
    banned = {o.placement: o for o in forbids}
    for fix in fixes:
        if fix.placement in banned:
            return [fix, banned[fix.placement]]
    lines = ROWS + COLUMNS + (DIAGONALS if diagonals else ())
    for i, first in enumerate(fixes):
        for second in fixes[i + 1 :]:
            a, b = first.placement, second.placement
            assert a is not None and b is not None
            if a.piece == b.piece:
                return [first, second]
            if a.piece.colour != b.piece.colour and a.piece.shape != b.piece.shape:
                continue
            for line in lines:
                if a.square in line.squares and b.square in line.squares:
                    return [*(diagonals if line in DIAGONALS else []), first, second]
    by_square: dict[int, dict[int, ConflictOption]] = {}
    by_piece: dict[int, dict[int, ConflictOption]] = {}
    for forbid in forbids:
        placement = forbid.placement
        assert placement is not None
        by_square.setdefault(placement.square, {}).setdefault(placement.piece.index, forbid)
        by_piece.setdefault(placement.piece.index, {}).setdefault(placement.square, forbid)
    for groups, size in ((by_square, len(PIECES)), (by_piece, N_SQUARES)):
        for group in groups.values():
            if len(group) == size:
                return list(group.values())
    return None


@dataclass(frozen=True, slots=True)
class _Chosen:
    """A set of options with its table of valid relabellings for every normalised board
    (:func:`.generate.relabelling_table`): a set with a relabelling left admits a board."""

    options: tuple[ConflictOption, ...]
    table: Any

    @classmethod
    def of(cls, options: Sequence[ConflictOption]) -> _Chosen:
        from runarch_gen.runarch.boards.symmetry import _square_masks, relabelling_table

        placed = [o.placement for o in options if o.placement is not None]
        kinds = [o.kind for o in options if o.placement is not None]
        masks = _square_masks(
            [p for p, k in zip(placed, kinds, strict=True) if k == "fix"],
            [p for p, k in zip(placed, kinds, strict=True) if k == "forbid"],
        )
        diagonals = any(o.kind == "diagonals" for o in options)
        return cls(tuple(options), relabelling_table(diagonals, masks))

    def join(self, other: _Chosen) -> _Chosen:
        import numpy as np

        if not other.options:
            return self
        if not self.options:
            return other
        return _Chosen(self.options + other.options, np.bitwise_and(self.table, other.table))


def _quickxplain(
    options: Sequence[ConflictOption], consistent: Callable[[_Chosen], bool]
) -> list[ConflictOption]:
    """A minimal subset of ``options`` (which together are inconsistent) that is inconsistent,
    preferring options given earlier (QuickXplain). A set grown by some options is tested
    through its table ANDed with theirs: the cost of a test is that of the options added."""
    empty = _Chosen((), None)

    def split(background: _Chosen, added: bool, candidates: Sequence[ConflictOption]) -> _Chosen:
        if added and not consistent(background):
            return empty
        if len(candidates) == 1:
            return _Chosen.of(candidates)
        half = len(candidates) // 2
        first, second = candidates[:half], candidates[half:]
        needed_second = split(background.join(_Chosen.of(first)), True, second)
        needed_first = split(background.join(needed_second), bool(needed_second.options), first)
        return needed_first.join(needed_second)

    return list(split(empty, False, options).options)


# ---------------------------------------------------------------------------------------------
# The conflict in words


def _line_words(line: Line, lang: str) -> str:
    """``in row 1`` / ``v řádku 1``: where two tiles clash."""
    if lang == "cs":
        if line.kind is LineKind.ROW:
            return f"v řádku {line.name[1]}"
        if line.kind is LineKind.COLUMN:
            return f"ve sloupci {line.name[1]}"
        return f"na úhlopříčce {line.name}"
    return ("on " if line.kind is LineKind.DIAGONAL else "in ") + line.label


def reason_for(core: Sequence[OptionLike], lang: str = "en") -> str:
    """The conflict in words (``en`` or ``cs``): a pairwise reason when there is one, else the
    options listed."""
    cs = lang == "cs"
    both = " a " if cs else " and "
    fixes = [o for o in core if o.kind == "fix"]
    forbids = [o for o in core if o.kind == "forbid"]
    diagonals = any(o.kind == "diagonals" for o in core)
    if len(fixes) == 2 and not forbids:
        first, second = fixes
        a, b = first.placement, second.placement
        assert a is not None and b is not None
        names = first.text + both + second.text
        if a.piece == b.piece:
            if cs:
                return f"{names} kladou obě podložku {a.piece.code}, která je na plánu jen jednou"
            return f"{names} both place tile {a.piece.code}, and each tile is on the board once"
        lines = ROWS + COLUMNS + (DIAGONALS if diagonals else ())
        for line in lines:
            if a.square in line.squares and b.square in line.squares:
                where = _line_words(line, lang)
                on_diagonal = diagonals and line in DIAGONALS
                if on_diagonal:
                    names = f"--diagonals {'s' if cs else 'with'} {names}"
                same_shape = a.piece.shape == b.piece.shape
                if same_shape or a.piece.colour == b.piece.colour:
                    if cs:
                        what = (
                            f"tvar {a.piece.shape.digit}"
                            if same_shape
                            else f"barva {a.piece.colour.letter}"
                        )
                        return f"{names}: dvakrát {what} {where}"
                    verb = "puts" if on_diagonal else "put"
                    two = a.piece.shape.digit if same_shape else a.piece.colour.letter
                    return f"{names} {verb} two {two}s {where}"
    if len(fixes) == 1 and len(forbids) == 1 and not diagonals:
        fix, forbid = fixes[0], forbids[0]
        if fix.placement == forbid.placement:
            if cs:
                return f"{fix.text} a {forbid.text} si odporují"
            return f"{fix.text} and {forbid.text} contradict each other"
    if forbids and not fixes and not diagonals:
        placements = [o.placement for o in forbids if o.placement is not None]
        squares = {p.square for p in placements}
        pieces = {p.piece for p in placements}
        if len(squares) == 1 and len(pieces) == len(PIECES):
            square = square_name(squares.pop())
            if cs:
                return f"volby --forbid vylučují na poli {square} všech 25 podložek"
            return f"the --forbid options rule out all 25 tiles on {square}"
        if len(pieces) == 1 and len(squares) == N_SQUARES:
            code = pieces.pop().code
            if cs:
                return f"volby --forbid nepustí podložku {code} na žádné pole"
            return f"the --forbid options keep tile {code} off every square"
    if len(core) == 1:
        if cs:
            return f"žádný platný plán nesplňuje {core[0].text}"
        return f"no valid board meets {core[0].text}"
    texts = [o.text for o in core]
    if len(texts) > MAX_NAMED:  # a long conflict: its first options, and how many more
        shown = ", ".join(texts[:MAX_NAMED])
        more = len(texts) - MAX_NAMED
        if cs:
            return (
                f"žádný platný plán nesplňuje těchto {len(texts)} voleb zároveň: {shown}"
                f" a {more} dalších"
            )
        return f"no valid board meets these {len(texts)} options together: {shown} and {more} more"
    if cs:
        return f"žádný platný plán nesplňuje {', '.join(texts[:-1])} a {texts[-1]} zároveň"
    return f"no valid board meets {', '.join(texts[:-1])} and {texts[-1]} together"


def conflict_message(
    constraints: BoardConstraints,
    *,
    lang: str = "en",
    time_limit: float | None = EXPLAIN_SECONDS,
    cancel: threading.Event | None = None,
) -> str | None:
    """The command line's message for constraints no board meets (``None`` when some board
    meets them): ``contradictory options: REASON``, or without the reason when it was not
    found within ``time_limit`` seconds. Raises :class:`Cancelled` when ``cancel`` is set."""
    prefix = "protichůdné volby: " if lang == "cs" else "contradictory options: "
    try:
        why = explain_conflict(constraints, time_limit=time_limit, cancel=cancel)
    except ExplainTimeout:
        seconds = f"{time_limit:g}"
        if lang == "cs":
            return prefix + f"těmto volbám nevyhovuje žádný plán (důvod se nenašel do {seconds} s)"
        return prefix + f"no board meets these options (no reason found within {seconds} s)"
    return None if why is None else prefix + why.reason_in(lang)
