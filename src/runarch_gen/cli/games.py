"""``runarch-gen games`` and the game axis: ``runarch-gen GAME COMMAND``.

Every registered game gets a sub-command group named after it with at least ``rules`` (its
rules document); each game's module in this package adds its own commands to its group
(:func:`game_app`). RunArch's commands stay at the top level as well.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, get_type_hints

import typer

from runarch_gen.cli._app import (
    JsonOption,
    SeedOption,
    WorkersOption,
    app,
    emit_json,
    note,
    resolve_seed,
    stopped_after,
)
from runarch_gen.errors import EXIT_INTERRUPTED

if TYPE_CHECKING:
    from runarch_gen.play.registry import Registration, Value

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


def game_values(name: str, rules: str) -> tuple[Registration, dict[str, Value]]:
    """The registration of game ``name`` and the parameter values of ``rules``: a game string
    of this game (``bluff(players=4)``) or only its parameters (``players=4``); typed on the
    command line, so a parameter that takes a file may name one."""
    from runarch_gen.games import game_values as values_of

    return values_of(name, rules, "--rules", files=True)


def game_app(
    name: str, help_text: str, *, simulate: bool = True, records: bool = False
) -> typer.Typer:
    """The sub-command group of game ``name`` (registered on the main app), with ``rules``;
    unless ``simulate`` is false, the generic ``simulate`` and ``validate``; with ``records``
    the generic ``record`` and ``replay`` (for games without a record format of their own)."""
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

    if simulate:
        group.command("simulate")(_simulate_command(name))
        group.command("validate")(_validate_command(name))
    if records:
        group.command("record")(_record_command(name))
        group.command("replay")(_replay_command(name))
    app.add_typer(group, name=name)
    return group


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
        import random

        from runarch_gen.fileio import atomic_write
        from runarch_gen.play.bot import play_out
        from runarch_gen.play.gamerecord import write_record
        from runarch_gen.play.playtest import check_bots, seat_bots

        registration, values = game_values(name, rules)
        game = registration.load(values)
        used = resolve_seed(seed)
        names = seat_bots(
            check_bots(registration, bots.split(","), game.num_players), 0, game.num_players
        )
        players = [
            registration.bots[bot](random.Random(f"{used}:{side}"))
            for side, bot in enumerate(names)
        ]
        state = game.new_initial_state()
        play_out(state, players, random.Random(f"{used}:chance"))
        text = write_record(game, state, tags=[("Bots", ",".join(names)), ("Seed", str(used))])
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
        from runarch_gen.games import find_game
        from runarch_gen.play.gamerecord import replay_record

        replayed = replay_record(read_text(record), find_game, source=display_name(record))
        if replayed.game.game_type.short_name != name:
            from runarch_gen.errors import InputError

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


runarch_app = game_app(
    "runarch",
    "RunArch: the same commands as at the top level, and its rules document.",
    simulate=False,
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
