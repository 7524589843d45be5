"""The rules reference page: turn, phases, scoring, archives, bets and the end, in two columns
set at the largest common size that fits, with a legend of colours, shapes and runes; after
``kit --validate``, the key figures of the simulated games too."""

from __future__ import annotations

from typing import TYPE_CHECKING

from runarch_gen.pnp.geometry import Box
from runarch_gen.pnp.paint import WHITE
from runarch_gen.pnp.surface import Stroke, Surface
from runarch_gen.pnp.text import TextStyle, layout_text
from runarch_gen.runarch.atoms import COLOURS, SHAPES
from runarch_gen.runarch.kit.icons import draw_rune, draw_shape

if TYPE_CHECKING:
    from runarch_gen.runarch.kit.components import KitPainter
    from runarch_gen.runarch.kit.config import Texts
    from runarch_gen.runarch.validation.validate import ValidationReport

COLUMN_GAP = 7.0
HEADING_GAP = 0.8
BLOCK_GAP = 2.2


def draw_rules_page(
    painter: KitPainter, s: Surface, box: Box, validation: ValidationReport | None = None
) -> None:
    st = painter.style
    t = painter.t
    rules = t["rules"]
    title = Box(box.x, box.y, box.width, 11.0)
    s.text(title, str(rules["title"]), TextStyle("bold", 20, st.ink, "left", "middle", 1.1, 10))
    rule_y = title.bottom + 1.0
    s.line((box.x + 0.4, rule_y), (box.right - 0.4, rule_y), Stroke(st.accent, 0.8))
    legend_h = 30.0
    body = Box(box.x, title.bottom + 4.0, box.width, box.height - title.height - 4.0 - legend_h - 3)
    columns = body.split_columns(2, gap=COLUMN_GAP)
    blocks = [(str(h), str(text)) for h, text in rules["sections"]]
    if validation is not None and validation.dynamic:
        blocks.append(playtest_section(t, validation))

    low, high = 5.0, 11.0
    if _flow(painter, None, blocks, columns, high) is None:
        for _ in range(12):
            mid = (low + high) / 2
            if _flow(painter, None, blocks, columns, mid) is None:
                high = mid
            else:
                low = mid
        size = low
    else:
        size = high
    _flow(painter, s, blocks, columns, size)
    _legend(painter, s, Box(box.x, box.bottom - legend_h, box.width, legend_h))


def _flow(
    painter: KitPainter,
    s: Surface | None,
    blocks: list[tuple[str, str]],
    columns: list[Box],
    size: float,
) -> float | None:
    """Lay the sections down the columns at ``size`` points; draw them if ``s`` is given.
    Returns the size, or ``None`` when they do not fit. Paragraphs are never split."""
    st = painter.style
    fonts = painter.fonts
    heading = TextStyle("bold", size * 1.2, st.ink, "left", "top", 1.1, size * 1.2)
    para = TextStyle("regular", size, st.ink, "left", "top", 1.22, size)
    col, y = 0, columns[0].y
    for head, text in blocks:
        pieces = [(head, heading)] + [(p, para) for p in text.split("\n")]
        for k, (piece, style) in enumerate(pieces):
            width = columns[col].width
            layout = layout_text(piece, width, 10_000.0, style, fonts)
            need = layout.height + (BLOCK_GAP if k else 0.0)
            if k == 0 and y > columns[col].y:
                need += BLOCK_GAP * 1.6
            # Keep a heading with its first paragraph.
            if k == 0:
                first = (
                    layout_text(pieces[1][0], width, 10_000.0, para, fonts)
                    if len(pieces) > 1
                    else None
                )
                extra = first.height + HEADING_GAP if first else 0.0
            else:
                extra = 0.0
            if y + need + extra > columns[col].bottom:
                col += 1
                if col == len(columns):
                    return None
                y = columns[col].y
                need = layout.height
            top = y + need - layout.height
            if s is not None:
                s.text(Box(columns[col].x, top, width, layout.height + 0.01), piece, style)
            y = top + layout.height + (HEADING_GAP if k == 0 else 0.0)
    return size


def _legend(painter: KitPainter, s: Surface, box: Box) -> None:
    """Colours with their letters, shapes with their digits and runes (RULES §1.1)."""
    st = painter.style
    t = painter.t
    s.rounded_rect(box, 2.0, None, Stroke(st.line, 0.35))
    rows = box.inset(3.0, 2.0).split_rows(2, gap=2.0)
    cells = rows[0].split_columns(5, gap=2.0)
    for cell, colour in zip(cells, COLOURS, strict=True):
        sq = Box(cell.x, cell.y + (cell.height - 9) / 2, 9.0, 9.0)
        s.rounded_rect(sq, 1.0, st.colour(colour), Stroke(st.ink, 0.3))
        s.text(sq, colour.letter, TextStyle("bold", 10, st.ink))
        s.text(
            Box(sq.right + 2, cell.y, cell.width - 11, cell.height),
            str(t["colours"][colour]),
            TextStyle("semibold", 9, st.ink, "left"),
        )
    cells = rows[1].split_columns(5, gap=2.0)
    for cell, shape in zip(cells, SHAPES, strict=True):
        sq = Box(cell.x, cell.y + (cell.height - 9) / 2, 9.0, 9.0)
        draw_shape(s, shape, sq, WHITE, Stroke(st.ink, 0.4))
        rune = Box(sq.right + 1.5, cell.y + (cell.height - 6) / 2, 6.0, 6.0)
        draw_rune(s, shape, rune, st.ink)
        s.text(
            Box(rune.right + 1.5, cell.y, cell.width - 19, cell.height),
            f"{shape.digit} · {t['shapes'][shape]} · {shape.rune_name}",
            TextStyle("regular", 8, st.ink, "left", min_size=5),
        )


def playtest_section(t: Texts, validation: ValidationReport) -> tuple[str, str]:
    """Heading and text of the simulated games' key figures (RULES §9.3), in the kit's
    language: per variant the games that ended by the rules, their median length and the first
    player's wins, and the games that could not end (the rules finding on the bonus tokens)."""
    rules = t["rules"]
    comma = str(rules["playtest_decimal"])

    def percent(x: float) -> str:
        return f"{100 * x:.1f}".replace(".", comma) + " %"

    first = validation.dynamic[0]
    lines = [
        str(rules["playtest_intro"]).format(
            games=first.games, bots=", ".join(first.bots), seed=first.seed
        )
    ]
    names = rules["playtest_variants"]
    for run in validation.dynamic:
        variant = str(names.get(run.rules.split("(")[0], run.rules))
        won = (
            str(rules["playtest_first"]).format(rate=percent(run.first_player_wins))
            if run.first_player_wins is not None
            else ""
        )
        turns = f"{run.median_turns:g}".replace(".", comma) if run.median_turns is not None else "–"
        lines.append(
            str(rules["playtest_variant"]).format(
                variant=variant, ended=run.ended, games=run.games, turns=turns, first=won
            )
        )
        if run.deadlocks:
            finding = next((f for f in validation.findings if run.rules in f.rules), None)
            values = finding.details.get("condition_values") if finding is not None else None
            tokens = " ".join(f"{k} {'/'.join(map(str, v))}" for k, v in (values or {}).items())
            lines.append(
                str(rules["playtest_deadlock"]).format(
                    variant=variant,
                    count=run.deadlocks,
                    rate=percent(run.deadlocks / run.games),
                    tokens=tokens or "?",
                    theory=percent(float(finding.probability)) if finding is not None else "?",
                )
            )
    return str(rules["playtest_title"]), "\n".join(lines)
