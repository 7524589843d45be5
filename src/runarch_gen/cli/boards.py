"""``runarch-gen board``, ``boards`` and ``count``: valid 5×5 boards (RULES.md §2)."""

from __future__ import annotations

import itertools
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from runarch_gen.cli._app import JsonOption, SeedOption, app, emit_json, note, resolve_seed
from runarch_gen.errors import InputError
from runarch_gen.fileio import STDIO, atomic_stream, atomic_write
from runarch_gen.progress import progress
from runarch_gen.runarch.boards.generate import (
    BoardConstraints,
    contradiction,
    count_boards,
    generate_board,
    iter_generated_boards,
    resolve_engine,
)
from runarch_gen.runarch.boards.io import TextFormat, format_board, format_boards


class EngineName(StrEnum):
    auto = "auto"
    exact = "exact"
    cpsat = "cpsat"


class BoardFormat(StrEnum):
    text = "text"
    json = "json"
    png = "png"


class BoardsFormat(StrEnum):
    jsonl = "jsonl"
    text = "text"


DiagonalsOption = Annotated[
    bool,
    typer.Option(
        "--diagonals", help="Also no colour or shape twice on either long diagonal (B-2)."
    ),
]
FixOption = Annotated[
    list[str] | None,
    typer.Option(
        "--fix", metavar="SQUARE=CODE", help="Pin a tile to a square, e.g. a1=5Y. Repeatable."
    ),
]
ForbidOption = Annotated[
    list[str] | None,
    typer.Option(
        "--forbid",
        metavar="SQUARE=CODE",
        help="Keep a tile off a square, e.g. c3=0R. Repeatable.",
    ),
]
EngineOption = Annotated[
    EngineName,
    typer.Option(
        "--engine",
        case_sensitive=False,
        help="exact: enumerate by symmetry, uniform (auto uses it); cpsat: the CP-SAT model"
        " (valid but not uniform when generating; slow counts unless few boards remain).",
    ),
]
OutputOption = Annotated[
    str, typer.Option("-o", "--output", metavar="FILE", help="Write here instead of stdout.")
]


def _constraints(
    diagonals: bool, fix: list[str] | None, forbid: list[str] | None
) -> BoardConstraints:
    return BoardConstraints.parse(diagonals=diagonals, fixes=fix or (), forbids=forbid or ())


def _meta(seed: int, engine: EngineName, constraints: BoardConstraints) -> dict[str, Any]:
    return {
        "seed": seed,
        "engine": resolve_engine(engine.value),
        "constraints": constraints.to_json(),
    }


def _format_from(output: str, choices: tuple[str, ...], default: str) -> str:
    """The format named by the output file's extension, else ``default``."""
    suffix = Path(output).suffix.lower().lstrip(".") if output != STDIO else ""
    suffix = {"txt": "text", "ndjson": "jsonl"}.get(suffix, suffix)
    return suffix if suffix in choices else default


def _report(seed: int | None, used: int, written: list[str]) -> None:
    """Say on stderr which files were written, and the seed when it was not given."""
    files = [path for path in written if path != STDIO]
    if files:
        note(f"runarch-gen: wrote {', '.join(files)} (seed {used})")
    elif seed is None:
        note(f"runarch-gen: seed {used} (repeat with --seed {used})")


@app.command()
def board(
    seed: SeedOption = None,
    diagonals: DiagonalsOption = False,
    fix: FixOption = None,
    forbid: ForbidOption = None,
    format_: Annotated[
        BoardFormat | None,
        typer.Option(
            "--format",
            case_sensitive=False,
            help="text (5 lines of 5 codes), json or png. Default: from the -o extension,"
            " else text.",
        ),
    ] = None,
    output: OutputOption = STDIO,
    png: Annotated[
        str | None,
        typer.Option("--png", metavar="FILE", help="Also write a PNG preview of the board."),
    ] = None,
    engine: EngineOption = EngineName.auto,
) -> None:
    """Generate one valid board, drawn uniformly from all boards meeting the options."""
    constraints = _constraints(diagonals, fix, forbid)
    fmt = (
        format_.value
        if format_ is not None
        else _format_from(output, ("text", "json", "png"), "text")
    )
    if fmt == "png" and output == STDIO and sys.stdout.isatty():
        raise InputError("--format png: give -o FILE (PNG is not for a terminal)")
    used = resolve_seed(seed)
    result = generate_board(constraints, seed=used, engine=engine.value)
    files: list[tuple[str, str | bytes]] = []
    if fmt == "png" or png is not None:
        from runarch_gen.runarch.kit.preview import board_png

        picture = board_png(result)
        targets = (png, output if fmt == "png" else None)
        files.extend((path, picture) for path in targets if path is not None)
    if fmt != "png":
        kind: TextFormat = "json" if fmt == "json" else "text"
        files.append((output, format_board(result, kind, _meta(used, engine, constraints))))
    for path, data in files:  # everything is made before anything is written
        atomic_write(path, data)
    _report(seed, used, [path for path, _ in files])


@app.command()
def boards(
    count: Annotated[int, typer.Option("--count", "-n", min=1, help="How many distinct boards.")],
    seed: SeedOption = None,
    diagonals: DiagonalsOption = False,
    fix: FixOption = None,
    forbid: ForbidOption = None,
    format_: Annotated[
        BoardsFormat | None,
        typer.Option(
            "--format",
            case_sensitive=False,
            help="jsonl (a board object per line) or text (boards separated by blank lines)."
            " Default: from the -o extension, else jsonl.",
        ),
    ] = None,
    output: OutputOption = STDIO,
    engine: EngineOption = EngineName.auto,
) -> None:
    """Generate COUNT distinct valid boards, each uniform over all boards meeting the options."""
    constraints = _constraints(diagonals, fix, forbid)
    fmt = format_.value if format_ is not None else _format_from(output, ("jsonl", "text"), "jsonl")
    used = resolve_seed(seed)
    meta = _meta(used, engine, constraints)
    kind: Literal["text", "jsonl"] = "text" if fmt == "text" else "jsonl"
    found = iter_generated_boards(
        count, constraints, seed=used, engine=engine.value, on_progress=None
    )
    # Streamed in parts: a million boards never sit in memory at once; the output file
    # appears (renamed into place) only when the last part is written.
    with progress(count, "boards") as advance, atomic_stream(output) as write:
        written = 0
        while part := list(itertools.islice(found, 8192)):
            write(format_boards(part, kind, meta, start=written))
            written += len(part)
            advance(len(part))
    _report(seed, used, [output])


@app.command()
def count(
    diagonals: DiagonalsOption = False,
    fix: FixOption = None,
    forbid: ForbidOption = None,
    engine: EngineOption = EngineName.auto,
    json_: JsonOption = False,
) -> None:
    """Print the exact number of valid boards meeting the options.

    Contradictory options are an error (exit 2) that names the conflicting options.
    """
    constraints = _constraints(diagonals, fix, forbid)
    total = count_boards(constraints, engine=engine.value)
    if total == 0:
        raise contradiction(constraints)
    if json_:
        emit_json(
            {
                "count": total,
                "engine": resolve_engine(engine.value),
                "constraints": constraints.to_json(),
            }
        )
    else:
        typer.echo(total)
