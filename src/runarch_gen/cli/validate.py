"""``runarch-gen validate``: can this set (board + deck) be played under these rules?"""

from __future__ import annotations

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
    stopped_after,
)


def _bots(text: str) -> list[str]:
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    if not names:
        raise typer.BadParameter("name one or two bots, e.g. greedy or greedy,random")
    return names


@app.command()
def validate(
    kit: Annotated[
        Path | None,
        typer.Argument(
            metavar="[KIT_DIR]",
            help="A kit folder (runarch-gen kit): its board.json and deck.json, and the seed and"
            " rules its manifest.json records.",
            show_default=False,
        ),
    ] = None,
    board: Annotated[
        Path | None,
        typer.Option("--board", metavar="FILE", help="Board file (text or JSON)."),
    ] = None,
    deck: Annotated[
        Path | None,
        typer.Option("--deck", metavar="FILE", help="Deck file (JSON or CSV)."),
    ] = None,
    seed: SeedOption = None,
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            "--rules",
            metavar="RULES",
            help="A variant to check, as a rules string such as complex(match_bonus=line);"
            " repeatable. Default: simple, complex and solo.",
        ),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            "-n",
            min=1,
            max=10_000_000,
            help="Simulated games per variant (default 300).",
        ),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            metavar="A[,B]",
            help="The bots of the simulated games: one plays both seats, two change seats"
            " every game (the solo game: against the automa). Default: greedy. The report says"
            " where they stand on the ladder of bots.",
        ),
    ] = None,
    workers: WorkersOption = None,
    diagonals: Annotated[
        bool, typer.Option("--diagonals", help="The board must also meet B-2 (the diagonals).")
    ] = False,
    static: Annotated[
        bool, typer.Option("--static", help="Only the static checks: simulate no games.")
    ] = False,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict",
            help="Rules findings (e.g. deadlocks) fail the set too, and so does any stall.",
        ),
    ] = False,
    stall_tolerance: Annotated[
        float | None,
        typer.Option(
            "--stall-tolerance",
            metavar="SHARE",
            min=0.0,
            max=1.0,
            help="The share of a variant's games (0–1) that may stall without a proven deadlock"
            " before the set fails (default 0.05).",
        ),
    ] = None,
    suggest: Annotated[
        bool,
        typer.Option(
            "--suggest",
            help="For each balance finding, play every candidate change of the rules (token"
            " values, each level of the automa, an option) with the same bots, games and seed"
            " and propose the one that brings the finding's figure closest to fair, with the"
            " figures before and after and the kit command that prints it for this set.",
        ),
    ] = False,
    skill_games: Annotated[
        int | None,
        typer.Option(
            "--skill-games",
            min=0,
            max=1_000_000,
            help="Games per variant for the skill trace: the strongest bot of --bots against"
            " random (default 100; 0: no skill trace).",
        ),
    ] = None,
    json_: JsonOption = False,
) -> None:
    """Can this set (board + deck) be played under these rules?

    The set comes from KIT_DIR, from --board/--deck files, or is generated
    from --seed as `runarch-gen kit` makes it.

    Static checks (RULES §9.1), each failure with its proof: board B-1
    (B-2 with --diagonals), stones, patterns, goals, every minimum of the
    bonus-token set under the match-bonus option [R-09], condition tokens,
    deck size. Then simulated games in each variant (§9.3), their design
    metrics with 95 % intervals (docs/metrics.md) and a skill trace, and
    their balance findings and notes — each family of tests corrected with
    Holm, every p-value beside an effect and its interval (a seat edge, a
    one-sided solo game, a dominant bot, deadlocks apart from stalls, a goal
    never met); --suggest plays the candidate changes of the rules and
    proposes the one closest to fair.

    Exit 0: the set can be played. Exit 1: it cannot — a static check
    fails, or more than --stall-tolerance of a variant's simulated games
    stall without a proven rules deadlock (the bots could not finish
    them; greedy bots leave about 1 % of complex games so). Rules findings — faults of the rules
    whatever the set, such as token draws that deadlock the game — are
    reported with their rate and fail the set only with --strict.
    Exit 2: unreadable input or bad options; 130: interrupted (what
    finished is reported).
    """
    from runarch_gen.progress import progress
    from runarch_gen.runarch.rules import parse_rules
    from runarch_gen.runarch.validation.validate import (
        DEFAULT_BOTS,
        DEFAULT_GAMES,
        DEFAULT_VARIANTS,
        SKILL_GAMES,
        STALL_TOLERANCE,
        STATIC_STEPS,
        load_set,
        suggest_fixes,
        validate_set,
    )

    configs = [parse_rules(text, source="--variant", files=Path(".")) for text in variant or ()]
    chosen_bots = _bots(bots) if bots is not None else list(DEFAULT_BOTS)
    rounds = games if games is not None else DEFAULT_GAMES
    with progress(None, "set") as advance:
        game_set = load_set(kit, board=board, deck=deck, seed=seed)
        advance(1)
    if not configs:
        configs = [parse_rules(text) for text in game_set.variants or DEFAULT_VARIANTS]
    skill = SKILL_GAMES if skill_games is None else skill_games
    total = STATIC_STEPS + (0 if static else rounds * len(configs))
    with progress(total, "validate") as advance:
        report = validate_set(
            game_set.board,
            game_set.deck,
            configs,
            games=rounds,
            bots=chosen_bots,
            seed=game_set.seed,
            workers=workers,
            strict=strict,
            stall_tolerance=STALL_TOLERANCE if stall_tolerance is None else stall_tolerance,
            diagonals=diagonals,
            simulate_games=not static,
            source=game_set.source,
            advance=advance,
            skill_games=skill,
        )
    if suggest and report.balance and not report.interrupted:
        with progress(None, "suggest") as advance:
            report = suggest_fixes(
                report,
                game_set.board,
                game_set.deck,
                games=rounds,
                bots=chosen_bots,
                seed=game_set.seed,
                workers=workers,
                advance=advance,
            )
    if json_:
        emit_json(report.to_json())
    else:
        for line in report.lines():
            typer.echo(line)
    generated = any(
        part.get("generated") for part in game_set.source.values() if isinstance(part, dict)
    )
    if report.interrupted:
        stopped_after("")
    if game_set.fresh_seed and (generated or not static):
        note(f"runarch-gen: seed {game_set.seed} (repeat with --seed {game_set.seed})")
    raise typer.Exit(report.exit_code)
