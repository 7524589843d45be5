"""``runarch-gen simulate``: many games between bots, and how the set plays (RULES.md §9.3)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

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
from runarch_gen.errors import EXIT_INTERRUPTED, InputError


@app.command()
def simulate(
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, max=10_000_000, help="How many games to play.")
    ] = 200,
    variant: Annotated[
        str,
        typer.Option(
            "--variant",
            "--rules",
            help="A rules string: simple, complex, classic, solo, with options.",
        ),
    ] = "complex",
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            help="One bot for both seats, or two separated by a comma (they change seats every"
            " game): random, greedy, lookahead. Solo: the bot(s) facing the automa.",
        ),
    ] = "greedy",
    seed: SeedOption = None,
    board: Annotated[
        str | None,
        typer.Option(
            "--board", metavar="FILE", help="A board file. Default: generated from the seed."
        ),
    ] = None,
    deck: Annotated[
        str | None,
        typer.Option(
            "--deck", metavar="FILE", help="A deck file. Default: generated from the seed."
        ),
    ] = None,
    workers: WorkersOption = None,
    plots: Annotated[
        str | None,
        typer.Option("--plots", metavar="DIR", help="Also write PNG charts into this folder."),
    ] = None,
    json_: JsonOption = False,
) -> None:
    """Play many games between bots and report how the set plays.

    The report: game length, final scores and their spread, win rates with 95 % intervals,
    first-player advantage, how often each card is scored, each goal met, each bet won,
    each end condition; stalls and deadlocks [R-18]. The same seed and options give the same
    report for any number of workers. Ctrl-C stops and reports the games finished (exit 130).
    """
    from runarch_gen.progress import progress
    from runarch_gen.runarch.analysis.simulation import check_bots, playtest_set
    from runarch_gen.runarch.analysis.simulation import simulate as run_simulation
    from runarch_gen.runarch.rules import parse_rules

    if games < 1:
        raise InputError(f"--games {games}: play at least 1 game")
    rules = parse_rules(variant, source="--variant", files=Path("."))
    names = check_bots(bots.split(","), rules)
    used = resolve_seed(seed)
    chosen = playtest_set(used, board, deck)
    if plots is not None:  # checked before the first game
        from runarch_gen.play.charts import check_chart_folder

        check_chart_folder(plots)
    started = time.perf_counter()
    with progress(games, "simulate") as advance:
        report = run_simulation(
            rules=rules,
            board=chosen.board,
            deck=chosen.deck,
            bots=names,
            games=games,
            seed=used,
            workers=workers,
            on_progress=advance,
        )
    elapsed = time.perf_counter() - started
    if json_:
        emit_json({**report.to_json(), "board": chosen.board_source, "deck": chosen.deck_source})
    else:
        typer.echo(report.summary())
        typer.echo(f"board: {chosen.board_source}; deck: {chosen.deck_source}")
    if plots is not None:
        from runarch_gen.runarch.analysis.charts import write_charts

        write_charts(report, plots)
        note(f"runarch-gen: wrote charts to {plots}")
    rate = report.games / elapsed if elapsed > 0 else 0.0
    note(f"runarch-gen: {report.games} games in {elapsed:.1f} s ({rate:.1f} games/s), seed {used}")
    if report.interrupted:
        stopped_after(f"{report.games} of {games} games")
        raise typer.Exit(EXIT_INTERRUPTED)
