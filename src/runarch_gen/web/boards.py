"""RunArch boards on the web: request parameters read as the command line reads its options, and
the boards page's grid drawn as SVG with the kit's tiles.

Every parameter has the command line's meaning and limits, plus a bound on how much one request
may ask for (:data:`MAX_BOARDS`, :data:`MAX_FORBIDS`). A bad value raises the same
:class:`~runarch_gen.errors.InputError` as the command line, naming the option.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from runarch_gen.errors import InputError
from runarch_gen.runarch.atoms import N_SQUARES, PIECES, SIZE, Piece, square_name
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.boards.constraints import BoardConstraints
from runarch_gen.web.params import parse_bool, parse_seed

if TYPE_CHECKING:
    from runarch_gen.runarch.kit.components import KitPainter

__all__ = ["MAX_BOARDS", "BoardQuery", "grid_svg", "palette_svg", "parse_query", "parse_tiles"]

MAX_BOARDS = 10_000
"""The most boards one ``/api/runarch/boards`` request draws."""
MAX_FORBIDS = N_SQUARES * N_SQUARES
MAX_CPSAT_BOARDS = 20
"""The most boards one request draws with ``engine=cpsat`` (one CP-SAT solve each)."""
CPSAT_SECONDS = 2.0
"""The time limit of one CP-SAT solve for a request."""


@dataclass(frozen=True, slots=True)
class BoardQuery:
    """The options of ``runarch-gen board``/``boards``/``count`` read from a query string."""

    constraints: BoardConstraints
    seed: int | None
    engine: str


def parse_query(params: Mapping[str, str], lists: Mapping[str, Sequence[str]]) -> BoardQuery:
    """``diagonals``, ``fix`` and ``forbid`` (repeatable), ``seed``, ``engine``.

    >>> q = parse_query({"diagonals": "true"}, {"fix": ["a1=5Y"], "forbid": []})
    >>> q.constraints.describe()
    'B-1 and B-2 with --fix a1=5Y'
    """
    fixes = list(lists.get("fix", ()))
    forbids = list(lists.get("forbid", ()))
    if len(fixes) > N_SQUARES:
        raise InputError(f"--fix: at most {N_SQUARES} pins (one per square), not {len(fixes)}")
    if len(forbids) > MAX_FORBIDS:
        raise InputError(f"--forbid: at most {MAX_FORBIDS} bans, not {len(forbids)}")
    engine = params.get("engine", "auto").strip().lower()
    if engine not in ("auto", "exact", "cpsat"):
        raise InputError(f"--engine {engine[:40]!r}: expected auto, exact or cpsat")
    constraints = BoardConstraints.parse(
        diagonals=parse_bool("diagonals", params.get("diagonals")), fixes=fixes, forbids=forbids
    )
    return BoardQuery(constraints, parse_seed(params.get("seed")), engine)


def parse_tiles(text: str | None) -> Board | None:
    """A board given as 25 codes separated by commas (the page's ``board`` parameter)."""
    if text is None or not text.strip():
        return None
    from runarch_gen.runarch.atoms import parse_piece

    codes = [c for c in text.split(",") if c.strip()]
    if len(codes) != N_SQUARES:
        raise InputError(f"--board: expected {N_SQUARES} codes, not {len(codes)}")
    return Board(tuple(parse_piece(code) for code in codes))


# ---------------------------------------------------------------------------------------------
# Pictures


@functools.cache
def painter(lang: str = "en") -> KitPainter:
    from runarch_gen.runarch.kit.build import board_painter

    return board_painter(friendly=True, lang=lang)


LABEL_BAND = 12.0


def grid_svg(constraints: BoardConstraints, board: Board | None = None, *, lang: str = "en") -> str:
    """The boards page's grid: the drawn board's tiles, or else the pinned tiles; banned tiles
    listed on their squares; every square a click target carrying ``data-square`` (and
    ``data-code`` when a tile shows there)."""
    from runarch_gen.pnp.paint import Paint
    from runarch_gen.pnp.surface import Stroke
    from runarch_gen.pnp.svg import SvgSurface
    from runarch_gen.pnp.text import TextStyle
    from runarch_gen.web.i18n import STRINGS

    words = STRINGS.get(lang, STRINGS["en"])
    paint = painter(lang)
    tile = paint.layouts["tile"].width
    band = LABEL_BAND
    side = SIZE * tile + 2 * band
    s = SvgSurface(side, side, paint.fonts)
    ink = paint.style.ink
    label = TextStyle(font="bold", size=26, paint=ink, align="centre", valign="middle")
    for i in range(SIZE):
        at = band + i * tile
        s.text(_box(at, 0, tile, band), "abcde"[i], label)
        s.text(_box(0, at, band, tile), str(i + 1), label)
    pinned = {fix.square: fix.piece for fix in constraints.fixes}
    shown: dict[int, Piece] = dict(enumerate(board.tiles)) if board is not None else pinned
    banned: dict[int, list[Piece]] = {}
    for forbid in constraints.forbids:
        banned.setdefault(forbid.square, []).append(forbid.piece)
    empty = Paint((246, 244, 238))
    red = Paint((200, 30, 30))
    for sq in range(N_SQUARES):
        row, col = divmod(sq, SIZE)
        x, y = band + col * tile, band + row * tile
        piece = shown.get(sq)
        with s.transformed(translate=(x, y)):
            if piece is not None:
                paint.draw_tile(s, piece, 0.0)
            else:
                s.rect(_box(0, 0, tile, tile), empty)
            if board is None and sq in banned:
                s.line((3, 3), (tile - 3, tile - 3), Stroke(red, 0.6))
                codes = " ".join("≠" + p.code for p in banned[sq][:6])
                more = " …" if len(banned[sq]) > 6 else ""
                style = TextStyle(font="bold", size=24, paint=red, align="centre", min_size=10)
                s.text(_box(2, tile - 14, tile - 4, 12), codes + more, style)
            if sq in pinned:
                s.rect(_box(0.8, 0.8, tile - 1.6, tile - 1.6), None, Stroke(ink, 1.6))
        code = f' data-code="{piece.code}"' if piece is not None else ""
        pin = f' data-pin="{pinned[sq].code}"' if sq in pinned else ""
        aria = f"{words['square']} {square_name(sq)}" + (
            f" {piece.code}" if piece is not None else ""
        )
        if sq in pinned:
            aria += f", {words['pinned']}"
        if board is None and sq in banned:
            aria += f", {words['banned']} " + " ".join(p.code for p in banned[sq][:25])
        s.raw(
            f'<rect class="sq" data-square="{square_name(sq)}"{code}{pin} x="{x:g}" y="{y:g}"'
            f' width="{tile:g}" height="{tile:g}" fill="transparent" stroke="#ffffff"'
            f' stroke-width="0.6" tabindex="0" role="button" aria-label="{aria}"/>'
        )
    return s.svg(attributes=f' class="grid" role="group" aria-label="{words["grid"]}"')


def palette_svg(*, lang: str = "en") -> str:
    """The 25 tiles, five by five (colours by row), each a click target with ``data-code``."""
    from runarch_gen.pnp.svg import SvgSurface

    paint = painter(lang)
    tile = paint.layouts["tile"].width
    gap = 2.0
    side = SIZE * tile + (SIZE - 1) * gap
    s = SvgSurface(side, side, paint.fonts)
    for piece in PIECES:
        x = piece.shape * (tile + gap)
        y = piece.colour * (tile + gap)
        with s.transformed(translate=(x, y)):
            paint.draw_tile(s, piece, 0.0)
        s.raw(
            f'<rect class="pick" data-code="{piece.code}" x="{x:g}" y="{y:g}" width="{tile:g}"'
            f' height="{tile:g}" fill="transparent" tabindex="0" role="button"'
            f' aria-label="{piece.code}"/>'
        )
    return s.svg(attributes=' class="palette" role="group"')


def board_svg(board: Board, *, lang: str = "en") -> str:
    """The board as the kit draws it, as an SVG document."""
    from runarch_gen.pnp.svg import SvgSurface

    paint = painter(lang)
    tile = paint.layouts["tile"].width
    band = float(paint.layouts["board"].value("label_band", 7.0))
    side = SIZE * tile + 2 * band
    s = SvgSurface(side, side, paint.fonts)
    paint.draw_board(s, board, side)
    return s.svg()


def _box(x: float, y: float, w: float, h: float) -> Any:
    from runarch_gen.pnp.geometry import Box

    return Box(x, y, w, h)
