"""``runarch-gen games`` and the game axis: ``runarch-gen GAME COMMAND``.

Every registered game — a built-in one or a plug-in found through the ``runarch_gen.games``
entry points — gets a command group named after it, built from its registration when it is
first asked for (:func:`game_command`): ``rules`` (its rules document), ``simulate`` and
``validate``, and for a game whose chance is explicit ``record`` and ``replay``; then the
game's own commands (the Typer app its registration's ``commands`` names, made with
:func:`game_commands`), which replace generic ones of the same name. RunArch's commands stay at
the top level as well.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, get_type_hints

import typer

from runarch_gen.cli._app import (
    FamilyGroup,
    JsonOption,
    SeedOption,
    WorkersOption,
    app,
    emit_json,
    note,
    resolve_seed,
    stopped_after,
)
from runarch_gen.errors import EXIT_INTERRUPTED, InputError

if TYPE_CHECKING:
    from runarch_gen.play.registry import Registration, Value

GAME_HELP = (
    "Exit codes: 0 success; 1 not valid or not playable; 2 bad input or usage; 130 interrupted."
)


@app.command()
def games(json_: JsonOption = False) -> None:
    """List the games of the family: players, parameters, variants and bots."""
    from runarch_gen.play.registry import plugin_errors, registered_games

    registrations = registered_games()
    for name, why in plugin_errors().items():
        note(f"runarch-gen: the game plug-in {name!r} could not be loaded: {why}")
    if json_:
        emit_json({"games": [r.to_json() for r in registrations]})
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
        bots = ", ".join(sorted(registration.bots))
        typer.echo(f"  bots: {bots} (default {registration.default_bot})")
        for parameter in spec.parameters:
            typer.echo(f"  {parameter.describe()}")


def game_values(name: str, rules: str) -> tuple[Registration, dict[str, Value]]:
    """The registration of game ``name`` and the parameter values of ``rules``: a game string
    of this game (``bluff(players=4)``) or only its parameters (``players=4``); typed on the
    command line, so a parameter that takes a file may name one."""
    from runarch_gen.games import game_values as values_of

    return values_of(name, rules, "--rules", files=True)


def _typer(name: str | None = None, help_text: str | None = None) -> typer.Typer:
    return typer.Typer(
        name=name,
        help=help_text,
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )


def game_commands() -> typer.Typer:
    """A Typer app to hold a game's own commands: its registration names it
    (``commands="package.module:attribute"``) and they join the game's command group."""
    return _typer()


def _command_name(info: typer.models.CommandInfo) -> str:
    if info.name:
        return info.name
    assert info.callback is not None
    return typer.main.get_command_name(info.callback.__name__)


def _own_commands(registration: Registration) -> list[typer.models.CommandInfo]:
    if not registration.commands:
        return []
    module, _, attribute = registration.commands.partition(":")
    own = getattr(importlib.import_module(module), attribute)
    if not isinstance(own, typer.Typer):
        raise TypeError(f"{registration.commands} is not a Typer app")
    return list(own.registered_commands)


def game_group(registration: Registration) -> typer.Typer:
    """The command group of a registered game (see the module)."""
    from runarch_gen.play.game import ChanceMode

    name = registration.name
    spec = registration.game_type
    description = registration.description or (
        f"{spec.long_name} ({spec.czech_name}): rules, simulations, validation"
        + ("" if spec.chance_mode is ChanceMode.SAMPLED else ", records")
        + "."
    )
    group = _typer(name, f"{description}\n\n{GAME_HELP}")
    own = _own_commands(registration)
    taken = {_command_name(info) for info in own}
    group.command("rules")(_rules_command(name))
    generic: dict[str, Callable[[str], Callable[..., None]]] = {
        "simulate": _simulate_command,
        "validate": _validate_command,
    }
    if spec.chance_mode is not ChanceMode.SAMPLED:
        generic |= {"record": _record_command, "replay": _replay_command}
    if registration.kit is not None:  # the kit hook gives the game its `kit` command
        from runarch_gen.cli.kit import game_kit_command

        generic["kit"] = game_kit_command
    for command, make in generic.items():
        if command not in taken:
            group.command(command)(make(name))
    group.registered_commands.extend(own)
    return group


def game_names() -> list[str]:
    """The registered games' names, in the registry's order."""
    from runarch_gen.play.registry import registered_games

    return [registration.name for registration in registered_games()]


def game_command(name: str) -> Any:
    """The command group of the registered game called ``name`` (``None`` when no game is)."""
    from runarch_gen.play.registry import find_registration

    try:
        registration = find_registration(name)
    except InputError:
        return None
    if registration.name != name:
        return None  # an alias names the game in a game string, not a command group
    return typer.main.get_command(game_group(registration))


FamilyGroup.game_names = staticmethod(game_names)
FamilyGroup.game_command = staticmethod(game_command)


def _rules_command(name: str) -> Callable[..., None]:
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

    rules.__name__ = f"{name}_rules"
    return rules


def _record_command(name: str) -> Callable[..., None]:
    def record(
        rules: Annotated[
            str,
            typer.Option(
                "--rules",
                help=f"A game string, e.g. '{name}(players=3)', or only its parameters."
                f" Default: {name}.",
            ),
        ] = "",
        bots: Annotated[
            str,
            typer.Option(
                "--bots", help="Bots by name, separated by commas; they fill the seats in turn."
            ),
        ] = "random",
        seed: SeedOption = None,
        output: Annotated[
            str | None,
            typer.Option("--output", "-o", help="Write the record to this file (default stdout)."),
        ] = None,
    ) -> None:
        """Play one game between bots and print its record: the game string and every action,
        chance included, one per line (replay it with `replay`, no seed needed)."""
        from runarch_gen.fileio import atomic_write
        from runarch_gen.play.gamerecord import write_record
        from runarch_gen.play.playtest import play_seeded

        registration, values = game_values(name, rules)
        used = resolve_seed(seed)
        played = play_seeded(registration, values, bots.split(","), used)
        text = write_record(
            played.game,
            played.state,
            tags=[("Bots", ",".join(played.bots)), ("Seed", str(used))],
        )
        if output is None:
            typer.echo(text, nl=False)
        else:
            atomic_write(output, text)
        if seed is None:
            note(f"runarch-gen: seed {used}")

    record.__name__ = f"{name}_record"
    record.__annotations__ = get_type_hints(record, localns={"name": name}, include_extras=True)
    return record


def _replay_command(name: str) -> Callable[..., None]:
    def replay(
        record: Annotated[str, typer.Argument(help="A game record ('-' for stdin).")],
        json_: JsonOption = False,
    ) -> None:
        """Check a game record action by action and print how the game stands or ended.

        A record names its game with a game string and lists every action, chance included;
        the first line that is not legal in its position is named with what was legal
        (exit 2).
        """
        from runarch_gen.fileio import display_name, read_text
        from runarch_gen.play.gamerecord import replay_record
        from runarch_gen.play.registry import find_game

        replayed = replay_record(read_text(record), find_game, source=display_name(record))
        if replayed.game.game_type.short_name != name:
            raise InputError(
                f"{display_name(record)}: a record of {replayed.game.game_type.short_name},"
                f" not of {name}"
            )
        if json_:
            emit_json(replayed.to_json())
        else:
            for line in replayed.lines():
                typer.echo(line)

    replay.__name__ = f"{name}_replay"
    return replay


def _simulate_command(name: str) -> Callable[..., None]:
    def simulate(
        games: Annotated[
            int,
            typer.Option("--games", "-n", min=1, max=10_000_000, help="How many games to play."),
        ] = 200,
        rules: Annotated[
            str,
            typer.Option(
                "--rules",
                help=f"A game string, e.g. '{name}(players=3)', or only its parameters"
                f" (see `runarch-gen games`). Default: {name}.",
            ),
        ] = "",
        bots: Annotated[
            str,
            typer.Option(
                "--bots",
                help="Bots by name, separated by commas; they fill the seats in turn and move"
                " one seat on every game (see `runarch-gen games`).",
            ),
        ] = "random",
        seed: SeedOption = None,
        workers: WorkersOption = None,
        plots: Annotated[
            str | None,
            typer.Option("--plots", metavar="DIR", help="Also write PNG charts into this folder."),
        ] = None,
        json_: JsonOption = False,
    ) -> None:
        """Play many games between bots and report how the game plays.

        The report: game length, final scores and their spread, win rates by bot, by seat and
        by each per-seat feature the game has, with 95 % intervals, the first player's edge,
        the game's own figures, the endings and stalls. The same seed and options give the
        same report for any number of workers. Ctrl-C stops and reports the games finished
        (exit 130).
        """
        import time

        from runarch_gen.play.playtest import playtest
        from runarch_gen.progress import progress

        registration, values = game_values(name, rules)
        used = resolve_seed(seed)
        if plots is not None:  # checked before the first game
            from runarch_gen.play.charts import check_chart_folder

            check_chart_folder(plots)
        started = time.perf_counter()
        with progress(games, "simulate") as advance:
            report = playtest(
                registration,
                values,
                bots.split(","),
                games=games,
                seed=used,
                workers=workers,
                on_progress=advance,
            )
        elapsed = time.perf_counter() - started
        if json_:
            emit_json(report.to_json())
        else:
            typer.echo(report.summary())
        if plots is not None and report.games:
            from runarch_gen.play.charts import report_charts, write_charts

            write_charts(report_charts(report), plots)
            note(f"runarch-gen: wrote charts to {plots}")
        rate = report.games / elapsed if elapsed > 0 else 0.0
        note(
            f"runarch-gen: {report.games} games in {elapsed:.1f} s ({rate:.1f} games/s),"
            f" seed {used}"
        )
        if report.interrupted:
            stopped_after(f"{report.games} of {games} games")
            raise typer.Exit(EXIT_INTERRUPTED)

    simulate.__name__ = f"{name}_simulate"
    # The help texts name the game: resolve the annotations here, where `name` is known.
    simulate.__annotations__ = get_type_hints(simulate, localns={"name": name}, include_extras=True)
    return simulate


runarch_commands = game_commands()
"""RunArch's top-level commands, also under ``runarch-gen runarch`` (its registration names
this app)."""


def _runarch_commands() -> None:
    from runarch_gen.cli.kit import kit
    from runarch_gen.cli.play import replay
    from runarch_gen.cli.simulate import simulate
    from runarch_gen.cli.validate import validate

    for command in (kit, simulate, validate, replay):
        runarch_commands.command()(command)


_runarch_commands()


def _validate_command(name: str) -> Callable[..., None]:
    def validate(
        rules: Annotated[
            str,
            typer.Option(
                "--rules",
                help=f"A game string, e.g. '{name}(players=3)', or only its parameters."
                f" Default: {name}.",
            ),
        ] = "",
        games: Annotated[
            int,
            typer.Option(
                "--games",
                "-n",
                min=0,
                max=10_000_000,
                help="Games between bots to simulate (0: none).",
            ),
        ] = 200,
        bots: Annotated[
            str,
            typer.Option(
                "--bots",
                help="Bots by name, separated by commas. Default: the game's line-up, from the"
                " top of its ladder of bots (the report says which).",
            ),
        ] = "",
        seed: SeedOption = None,
        workers: WorkersOption = None,
        strict: Annotated[bool, typer.Option("--strict", help="Fail on any stalled game.")] = False,
        stall_tolerance: Annotated[
            float,
            typer.Option(
                "--stall-tolerance",
                min=0.0,
                max=1.0,
                help="The share of simulated games that may stall.",
            ),
        ] = 0.05,
        suggest: Annotated[
            bool,
            typer.Option(
                "--suggest",
                help="For each balance finding, play the game's candidate changes and propose"
                " the one that brings the finding's figure closest to fair.",
            ),
        ] = False,
        json_: JsonOption = False,
    ) -> None:
        """Can the game be played with these rules? Static checks, random games, games
        between bots with their design metrics and a skill trace, balance findings and notes
        (each family of tests corrected with Holm), and a verdict.

        Exit codes: 0 playable; 1 not playable; 2 bad input; 130 interrupted.
        """
        from runarch_gen.play.verdict import validate_game
        from runarch_gen.progress import progress

        registration, values = game_values(name, rules)
        used = resolve_seed(seed)
        with progress(games or None, "validate") as advance:
            verdict = validate_game(
                registration,
                values,
                bots=[b for b in bots.split(",") if b.strip()] or None,
                games=games,
                seed=used,
                workers=workers,
                strict=strict,
                stall_tolerance=stall_tolerance,
                propose=suggest,
                on_progress=advance,
            )
        if json_:
            emit_json({**verdict.to_json(), "seed": used})
        else:
            typer.echo("\n".join(verdict.lines()))
        if verdict.exit_code:
            raise typer.Exit(verdict.exit_code)

    validate.__name__ = f"{name}_validate"
    validate.__annotations__ = get_type_hints(validate, localns={"name": name}, include_extras=True)
    return validate
