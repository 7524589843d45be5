"""``runarch-gen legend``: the colours, shapes, runes and codes of RULES.md §1.1."""

from __future__ import annotations

import typer

from runarch_gen.cli._app import JsonOption, app, emit_json
from runarch_gen.runarch.atoms import COLOURS, SHAPES


@app.command()
def legend(json_: JsonOption = False) -> None:
    """List the colours and shapes with their code letters, digits, runes and Czech names."""
    colours = [{"letter": c.letter, "english": c.english, "czech": c.czech} for c in COLOURS]
    shapes = [
        {
            "digit": s.digit,
            "english": s.english,
            "czech": s.czech,
            "rune": s.rune_name,
            "rune_char": s.rune,
        }
        for s in SHAPES
    ]
    if json_:
        emit_json({"colours": colours, "shapes": shapes, "code": "shape digit + colour letter"})
        return
    typer.echo("colour  letter  czech")
    for c in colours:
        typer.echo(f"{c['english']:<7} {c['letter']:<7} {c['czech']}")
    typer.echo("")
    typer.echo("shape     digit  rune        czech")
    for s in shapes:
        typer.echo(
            f"{s['english']:<9} {s['digit']:<6} {s['rune']:<6} {s['rune_char']:<4} {s['czech']}"
        )
    typer.echo("")
    typer.echo("A code is the shape digit then the colour letter: 5Y is the yellow star.")
