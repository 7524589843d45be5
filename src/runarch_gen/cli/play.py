"""``runarch-gen evaluate``, ``tally`` and ``replay``: the rules engine for players and scripts."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from runarch_gen.cli._app import JsonOption, app, emit_json


@app.command()
def tally(
    file: Annotated[str, typer.Argument(help="A JSON description of one player's end of game.")],
    json_: JsonOption = False,
) -> None:
    """Final scoring of one player: duel, bets, goals (RULES.md §5-7), as a breakdown.

    The JSON names the rules (default complex), the best card, the card points, the
    opponent's best card, the archives, the bets and the secret goal; see the README.
    """
    from runarch_gen.runarch.tally import read_tally

    settlement, config = read_tally(file)
    if json_:
        emit_json(
            {
                "rules": str(config),
                "items": [
                    {"part": i.part, "what": i.what, "points": i.points} for i in settlement.items
                ],
                "parts": dict(settlement.score().parts),
                "total": settlement.total,
            }
        )
        return
    typer.echo(f"{'part':<14} {'points':>6}  what")
    for item in settlement.items:
        typer.echo(f"{item.part:<14} {item.points:>6}  {item.what}")
    typer.echo(f"{'total':<14} {settlement.total:>6}")


@app.command()
def replay(
    record: Annotated[str, typer.Argument(help="A game record ('-' for stdin).")],
    deck: Annotated[
        str | None,
        typer.Option("--deck", help="The deck file, if not the record's Deck tag."),
    ] = None,
    json_: JsonOption = False,
) -> None:
    """Check a game record move by move; print the final position and the outcome.

    A bad record fails with the first illegal line and why (exit 2).
    """
    from runarch_gen.fileio import display_name, read_text
    from runarch_gen.runarch.engine.text import describe_state
    from runarch_gen.runarch.record import replay as replay_record

    base = Path(record).parent if record != "-" else Path(".")
    given = _load_deck(deck) if deck is not None else None
    state = replay_record(
        read_text(record),
        deck=given,
        source=display_name(record),
        load_deck=lambda name: _load_deck(str(base / name)),
    )
    outcome = state.outcome()
    if json_:
        report: dict[str, Any] = {
            "variant": str(state.game.config),
            "turns": state.turn,
            "finished": outcome is not None,
        }
        if outcome is not None:
            report |= {
                "termination": outcome.termination,
                "stalled": outcome.stalled,
                "result": outcome.result(),
                "winners": [outcome.sides[w] for w in outcome.winners],
                "scores": {
                    side: score.as_dict()
                    for side, score in zip(outcome.sides, outcome.scores, strict=True)
                },
            }
        emit_json(report)
        return
    typer.echo(describe_state(state))
    typer.echo("")
    if outcome is None:
        typer.echo(f"game in progress after {state.turn} turns")
        return
    winners = " and ".join(outcome.sides[w] for w in outcome.winners) or "nobody"
    typer.echo(f"{outcome.result()} ({outcome.termination}): {winners} won")
    for side, score in zip(outcome.sides, outcome.scores, strict=True):
        parts = ", ".join(f"{name} {value}" for name, value in score.parts)
        typer.echo(f"{side}: {score.total} ({parts})")


def _load_deck(path: str) -> Any:
    from runarch_gen.errors import InputError

    raise InputError(f"{path}: reading deck files needs the deck file formats")
