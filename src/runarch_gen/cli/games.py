"""``runarch-gen games`` and the game axis: ``runarch-gen GAME COMMAND``.

Every registered game gets a sub-command group named after it with at least ``rules`` (its
rules document); each game's module in this package adds its own commands to its group
(:func:`game_app`). RunArch's commands stay at the top level as well.
"""

from __future__ import annotations

from typing import Annotated

import typer

from runarch_gen.cli._app import JsonOption, app, emit_json

GAME_HELP = (
    "Exit codes: 0 success; 1 not valid or not playable; 2 bad input or usage; 130 interrupted."
)


@app.command()
def games(json_: JsonOption = False) -> None:
    """List the games of the family: players, parameters, variants and bots."""
    from runarch_gen.games import registered_games

    registrations = registered_games()
    if json_:
        emit_json(
            {"games": [{**r.game_type.to_json(), "bots": sorted(r.bots)} for r in registrations]}
        )
        return
    for index, registration in enumerate(registrations):
        spec = registration.game_type
        if index:
            typer.echo("")
        players = (
            str(spec.min_players)
            if spec.min_players == spec.max_players
            else f"{spec.min_players}-{spec.max_players}"
        )
        typer.echo(f"{spec.short_name} — {spec.long_name} ({spec.czech_name}), {players} players")
        typer.echo(f"  chance: {spec.chance_mode.value}, information: {spec.information.value}")
        if spec.variants:
            typer.echo("  variants: " + ", ".join(spec.variants))
        typer.echo("  bots: " + ", ".join(sorted(registration.bots)))
        for parameter in spec.parameters:
            typer.echo(f"  {parameter.describe()}")


def game_app(name: str, help_text: str) -> typer.Typer:
    """The sub-command group of game ``name`` (registered on the main app), with ``rules``."""
    group = typer.Typer(
        name=name,
        help=f"{help_text}\n\n{GAME_HELP}",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )

    @group.command("rules")
    def rules(
        output: Annotated[
            str | None,
            typer.Option("--output", "-o", help="Write the document to this file ('-': stdout)."),
        ] = None,
    ) -> None:
        """Print the rules as runarch-gen implements them, every decision tagged."""
        from runarch_gen.fileio import atomic_write
        from runarch_gen.games import rules_document

        text = rules_document(name)
        if output is None:
            typer.echo(text, nl=False)
        else:
            atomic_write(output, text)

    app.add_typer(group, name=name)
    return group


runarch_app = game_app(
    "runarch", "RunArch: the same commands as at the top level, and its rules document."
)


def _runarch_commands() -> None:
    # RunArch's top-level commands, also under `runarch-gen runarch`.
    from runarch_gen.cli.kit import kit
    from runarch_gen.cli.play import replay
    from runarch_gen.cli.simulate import simulate
    from runarch_gen.cli.validate import validate

    for command in (kit, simulate, validate, replay):
        runarch_app.command()(command)


_runarch_commands()
