"""``runarch-gen malacca``: the rules, simulate and validate (generic), ``resolve`` (one round
from JSON, for scripts) and ``game`` (one game between bots, as a readable record)."""

from __future__ import annotations

from typing import Annotated

import typer

from runarch_gen.cli._app import JsonOption, SeedOption, emit_json, resolve_seed
from runarch_gen.cli.games import game_commands, game_values

malacca_app = game_commands()
"""Malacca's own commands, in its command group (its registration names this app)."""


@malacca_app.command("resolve")
def resolve(
    file: Annotated[str, typer.Argument(help="The round as JSON ('-': standard input).")],
    json_: JsonOption = False,
) -> None:
    """Resolve one round given as JSON: each player's change of money with its parts (stake,
    loot, payout, share, penalty, scrub, character, equipment) and the special cards drawn.

    The schema is in docs/malacca.md. Exit codes: 0 resolved; 2 unreadable or invalid round.
    """
    from runarch_gen.fileio import display_name, read_text
    from runarch_gen.malacca.resolve import resolve_round
    from runarch_gen.malacca.script import read_round, result_lines, round_to_json

    round_, names = read_round(read_text(file), display_name(file))
    result = resolve_round(round_)
    if json_:
        emit_json(round_to_json(round_, result, names))
    else:
        typer.echo("\n".join(result_lines(round_, result, names)))


@malacca_app.command("game")
def game(
    rules: Annotated[
        str, typer.Option("--rules", help="A game string or its parameters, e.g. 'players=5'.")
    ] = "",
    bots: Annotated[
        str, typer.Option("--bots", help="Bots by name, separated by commas, seat by seat.")
    ] = "morgan",
    seed: SeedOption = None,
    json_: JsonOption = False,
) -> None:
    """Play one game between bots and print its record: every round's ship, the cards and
    stakes laid, the resolution and the money after it.

    Exit codes: 0 played; 2 bad rules or bots.
    """
    from runarch_gen.malacca.record import play_recorded
    from runarch_gen.play.playtest import check_bots

    registration, values = game_values("malacca", rules)
    used = resolve_seed(seed)
    players = int(values["players"])
    names = check_bots(registration, bots.split(","), players)
    record = play_recorded(values, names, used)
    if json_:
        emit_json(record.to_json())
    else:
        typer.echo(record.text())
