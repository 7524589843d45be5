"""``runarch-gen sweep``: many games at every point of a grid of rules, locally or on Dask."""

from __future__ import annotations

import contextlib
import hashlib
import time
from pathlib import Path
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
    from runarch_gen.play.sweep import Sweep, SweepResult

JOURNALS = Path("output")
"""Where a sweep keeps its journal when ``--journal`` names none."""


def _pairs(items: list[str], option: str) -> list[tuple[str, str]]:
    out = []
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise InputError(f"{option} {item!r}: expected NAME=VALUE")
        out.append((name.strip().lower(), value.strip()))
    return out


def _inline_sweep(
    game: str | None,
    grid: list[str],
    fixed: list[tuple[str, str]],
    bots: str | None,
) -> Sweep:
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
    axes = []
    for name, values in _pairs(grid, "--grid"):
        texts = tuple(v.strip() for v in values.split(","))
        if not all(texts) or len(set(texts)) != len(texts):
            raise InputError(f"--grid {name}={values}: values separated by commas, each once")
        axes.append((name, texts))
    plan = Sweep(game=game, bots=bot_lists, fixed=tuple(fixed), grid=tuple(axes))
    plan.check()  # the one limit of points, as for a file, before anything is read
    return plan


def _default_journal(plan: Sweep) -> Path:
    digest = hashlib.blake2b(plan.to_toml().encode("utf-8"), digest_size=4).hexdigest()
    return JOURNALS / f"sweep-{plan.seed}-{digest}.jsonl"


@app.command()
def sweep(
    file: Annotated[
        str | None,
        typer.Argument(
            help="A sweep file (TOML: game, games, seed, bots, board, deck; tables fixed, grid,"
            " points, files)."
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
    board: Annotated[
        str | None,
        typer.Option("--board", metavar="FILE", help="RunArch: play on this board (--set board=)."),
    ] = None,
    deck: Annotated[
        str | None,
        typer.Option("--deck", metavar="FILE", help="RunArch: play with this deck (--set deck=)."),
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
    wait: Annotated[
        float,
        typer.Option(
            "--wait",
            min=1,
            max=600,
            metavar="SECONDS",
            help="How long to wait for the scheduler's answer and for a worker before giving up.",
        ),
    ] = 10.0,
    journal: Annotated[
        str | None,
        typer.Option(
            "--journal",
            metavar="FILE",
            help="Keep the finished games in FILE as they come (kept after the sweep). Default:"
            " output/sweep-SEED-ID.jsonl, removed when the sweep completes.",
        ),
    ] = None,
    resume: Annotated[
        str | None,
        typer.Option(
            "--resume",
            metavar="FILE",
            help="Continue the sweep kept in this journal: play only the games it lacks.",
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
            help="Write charts (PNG and SVG): a line over one parameter, heatmaps over two, a"
            " panel per value of any further one.",
        ),
    ] = None,
    save: Annotated[
        str | None,
        typer.Option("--save", metavar="FILE", help="Write the sweep as a TOML file to re-run."),
    ] = None,
    json_: JsonOption = False,
) -> None:
    """Sweep rules: play games at every point of a grid and tabulate how each point plays.

    Per point, each with its 95 % interval: games deadlocked and stalled, length and winning
    margin (with units), the first player's edge, win rates of a line-up of different bots
    and of seats where they differ, and the game's own figures (in the CSV and JSON). Point k
    plays with its own seed, as `GAME simulate --seed` would. The same sweep and seed give
    the same table on any number of workers or machines.

    Finished games are kept in a journal as they come. Ctrl-C stops and reports the games
    that finished (exit 130); a failing Dask cluster does too, in one line (exit 2). Either
    way `--resume JOURNAL` continues to the same final table.
    """
    import os

    from runarch_gen.fileio import display_name, read_text
    from runarch_gen.games import find_registration
    from runarch_gen.play.sweep import Journal, parse_sweep, read_files, read_journal

    done = None
    keep = journal is not None
    if resume is not None:
        if file or game or grid or fixed or bots or board or deck or games or seed is not None:
            raise InputError("--resume continues the sweep its journal holds: give no other plan")
        if journal is not None and journal != resume:
            raise InputError("--resume FILE appends to FILE: give no other --journal")
        kept_before = read_journal(resume)
        plan, done, keep = kept_before.sweep, kept_before.done, kept_before.keep
        registration = find_registration(plan.game)
    else:
        pairs = _pairs(fixed or [], "--set")
        pairs += [(n, v) for n, v in (("board", board), ("deck", deck)) if v is not None]
        if file is not None:
            if game or grid or pairs or bots:
                raise InputError(
                    "give a sweep FILE or --game/--grid/--set/--board/--deck/--bots, not both"
                )
            plan = parse_sweep(read_text(file), display_name(file))
        else:
            plan = _inline_sweep(game, grid or [], pairs, bots)
        plan = plan.with_overrides(games=games, seed=seed)
        plan.check()
        registration = find_registration(plan.game)
        plan = read_files(registration, plan, file)
    if scheduler is None and os.environ.get("DASK_SCHEDULER_ADDRESS"):
        scheduler = "env"
    if plots is not None:  # checked before the first game
        from runarch_gen.play.charts import check_chart_folder

        check_chart_folder(plots)
    if save is not None:
        from runarch_gen.fileio import atomic_write

        atomic_write(save, plan.to_toml())
    kept = resume or journal or str(_default_journal(plan))
    folder_was_there = Path(kept).parent.exists()
    total = plan.count * plan.games
    started = time.perf_counter()
    from runarch_gen.play.sweep import run_sweep
    from runarch_gen.progress import progress

    with Journal(kept, plan, resume=resume is not None, keep=keep) as record:
        with progress(total, "sweep") as advance:
            result = run_sweep(
                registration,
                plan,
                workers=workers,
                scheduler=scheduler,
                on_progress=advance,
                done=done,
                on_games=record.add,
                timeout=wait,
            )
        written = record.exists
    elapsed = time.perf_counter() - started
    _report(result, kept if written else None, json_=json_, csv_file=csv_file, plots=plots)
    played = result.games
    if written and result.complete and not keep:
        Path(kept).unlink(missing_ok=True)  # it was only a safety net
        if not folder_was_there:
            with contextlib.suppress(OSError):
                Path(kept).parent.rmdir()
    tail = (
        f"{played:,} of {total:,} games kept in {kept}: continue with"
        f" runarch-gen sweep --resume {kept}"
        if written
        else f"{played:,} of {total:,} games"
    )
    if result.failure:
        from runarch_gen.play.cluster import ClusterError

        raise ClusterError(f"{result.failure}; {tail}")
    if result.interrupted:
        stopped_after(tail)
        raise typer.Exit(EXIT_INTERRUPTED)
    before = sum(len(games) for games in (done or {}).values())
    also = f" ({before} of them from {resume})" if before else ""
    note(
        f"runarch-gen: {played} games{also} in {elapsed:.1f} s on {result.where}, seed {plan.seed}"
    )


def _report(
    result: SweepResult, kept: str | None, *, json_: bool, csv_file: str | None, plots: str | None
) -> None:
    """Print and write what the sweep finished (all of it, or the games before a stop)."""
    if json_:
        out = result.to_json()
        if not result.complete and kept is not None:
            out["journal"] = kept
        emit_json(out)
    elif result.games or result.complete:
        typer.echo(result.table())
    if csv_file is not None:
        from runarch_gen.fileio import atomic_write

        atomic_write(csv_file, result.csv())
    if plots is not None:
        from runarch_gen.play.charts import write_charts

        written = write_charts(result.charts(), plots)
        note(f"runarch-gen: wrote {len(written)} charts to {plots}")
