"""``runarch-gen sweep``: many games at every point of a grid of rules, locally or on Dask."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Annotated

import typer

from runarch_gen.cli._app import (
    JsonOption,
    SeedOption,
    WorkersOption,
    app,
    emit_json,
    note,
    stopped_after,
)
from runarch_gen.errors import EXIT_INTERRUPTED, InputError

if TYPE_CHECKING:
    from runarch_gen.play.sweep import Sweep


def _pairs(items: list[str], option: str) -> list[tuple[str, str]]:
    out = []
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise InputError(f"{option} {item!r}: expected NAME=VALUE")
        out.append((name.strip().lower(), value.strip()))
    return out


def _inline_sweep(game: str | None, grid: list[str], fixed: list[str], bots: str | None) -> Sweep:
    from runarch_gen.play.sweep import Sweep

    if game is None:
        raise InputError("give a sweep FILE, or --game with --grid (see --help)")
    bot_lists: tuple[tuple[str, ...], ...] = ()
    if bots:
        bot_lists = tuple(
            tuple(b.strip() for b in group.split(",") if b.strip())
            for group in bots.split(";")
            if group.strip()
        )
    return Sweep(
        game=game,
        bots=bot_lists,
        fixed=tuple(_pairs(fixed, "--set")),
        grid=tuple((name, tuple(v.split(","))) for name, v in _pairs(grid, "--grid")),
    )


@app.command()
def sweep(
    file: Annotated[
        str | None,
        typer.Argument(
            help="A sweep file (TOML: game, games, seed, bots; tables fixed, grid or points)."
        ),
    ] = None,
    game: Annotated[
        str | None, typer.Option("--game", help="The game, when no FILE is given.")
    ] = None,
    grid: Annotated[
        list[str] | None,
        typer.Option("--grid", metavar="NAME=V1,V2", help="A parameter and its values (repeat)."),
    ] = None,
    fixed: Annotated[
        list[str] | None,
        typer.Option("--set", metavar="NAME=VALUE", help="A parameter every point shares."),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            help="Bots, separated by commas; several bot lists (a dimension) by semicolons:"
            " 'greedy;lookahead,greedy'.",
        ),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option("--games", "-n", min=1, max=10_000_000, help="Games per point (default 200)."),
    ] = None,
    seed: SeedOption = None,
    workers: WorkersOption = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            metavar="ADDRESS",
            help="Run on the Dask cluster at this address (tcp://host:8786); 'env' reads"
            " DASK_SCHEDULER_ADDRESS. Default: this machine's cores.",
        ),
    ] = None,
    csv_file: Annotated[
        str | None, typer.Option("--csv", metavar="FILE", help="Write the table as CSV.")
    ] = None,
    plots: Annotated[
        str | None,
        typer.Option(
            "--plots",
            metavar="DIR",
            help="Write charts: lines over one parameter, heatmaps over two (PNG and SVG).",
        ),
    ] = None,
    save: Annotated[
        str | None,
        typer.Option("--save", metavar="FILE", help="Write the sweep as a TOML file to re-run."),
    ] = None,
    json_: JsonOption = False,
) -> None:
    """Sweep rules: play games at every point of a grid and tabulate how each point plays.

    Per point: games, stalls, length, the first player's edge, the winning margin, win rates
    by bot and the game's own figures, each rate with its 95 % interval. Point k plays with
    its own seed (in the table), as `GAME simulate --seed` would. The same sweep and seed give
    the same table on any number of workers or machines. Ctrl-C stops and reports the games
    that finished (exit 130).
    """
    import os

    from runarch_gen.fileio import atomic_write, display_name, read_text
    from runarch_gen.games import find_registration
    from runarch_gen.play.sweep import parse_sweep, run_sweep
    from runarch_gen.progress import progress

    if file is not None:
        if game or grid or fixed or bots:
            raise InputError("give a sweep FILE or --game/--grid/--set/--bots, not both")
        plan = parse_sweep(read_text(file), display_name(file))
    else:
        plan = _inline_sweep(game, grid or [], fixed or [], bots)
    plan = plan.with_overrides(games=games, seed=seed)
    registration = find_registration(plan.game)
    if scheduler is None and os.environ.get("DASK_SCHEDULER_ADDRESS"):
        scheduler = "env"
    if save is not None:
        atomic_write(save, plan.to_toml())
    total = len(plan.points()) * plan.games
    started = time.perf_counter()
    with progress(total, "sweep") as advance:
        result = run_sweep(
            registration, plan, workers=workers, scheduler=scheduler, on_progress=advance
        )
    elapsed = time.perf_counter() - started
    if json_:
        emit_json(result.to_json())
    else:
        typer.echo(result.table())
    if csv_file is not None:
        atomic_write(csv_file, result.csv())
    if plots is not None:
        from runarch_gen.play.charts import write_charts

        written = write_charts(result.charts(), plots)
        note(f"runarch-gen: wrote {len(written)} charts to {plots}")
    played = sum(r.games for r in result.reports)
    note(f"runarch-gen: {played} games in {elapsed:.1f} s on {result.where}, seed {plan.seed}")
    if result.interrupted:
        stopped_after(f"{played} of {total} games")
        raise typer.Exit(EXIT_INTERRUPTED)
