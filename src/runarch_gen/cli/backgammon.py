"""``runarch-gen backgammon …``: Vrhcáby's commands beside the generic ``rules``, ``simulate``
and ``validate``: ``moves`` (legal plays of a gnubg Position ID and a roll, also in batches),
``show`` (a Position ID and Match ID read back), ``odds`` (the probability tables), ``met``
(the computed match equity table), ``record`` / ``replay`` (bot games as ``.mat`` records and
their replay) and ``train`` (the learned bot's weights)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Annotated, Any

import typer

from runarch_gen.cli._app import JsonOption, SeedOption, emit_json, note, resolve_seed
from runarch_gen.cli.games import game_commands, game_values

backgammon_app = game_commands()
"""Backgammon's own commands, in its command group (its registration names this app)."""


def _write_batch(reports: Iterator[dict[str, Any]]) -> None:
    """One JSON object a line; a failed line's error also on stderr; exit 1 if any failed."""
    out = sys.stdout
    failed = 0
    for report in reports:
        if "error" in report:
            failed += 1
            note(f"runarch-gen: {report['error']}")
        out.write(json.dumps(report, ensure_ascii=False) + "\n")
    out.flush()
    if failed:
        raise typer.Exit(1)


@backgammon_app.command("moves")
def moves(
    position: Annotated[
        str | None,
        typer.Argument(
            help="A gnubg Position ID (the player on roll in the second half) or 'start'."
        ),
    ] = None,
    dice: Annotated[str, typer.Option("--dice", "-d", help="The roll, e.g. 31.")] = "",
    batch: Annotated[
        str | None,
        typer.Option(
            "--batch",
            metavar="FILE",
            help="Read lines 'POSITION_ID DICE' from FILE"
            " ('-': stdin); one JSON object per line out.",
        ),
    ] = None,
    json_: JsonOption = False,
) -> None:
    """Every legal play of a roll, one per distinct resulting position, in standard notation.

    With --batch a line that cannot be read gives an object {"line", "input", "error"} in
    its place and the batch goes on.

    Exit codes: 0 success; 1 some --batch line failed (each named on stderr); 2 bad input
    (the message names it).
    """
    from runarch_gen.backgammon.tools import batch_moves, moves_report
    from runarch_gen.errors import InputError
    from runarch_gen.fileio import display_name, read_text

    if batch is not None:
        if position is not None or dice:
            raise InputError("--batch reads positions and dice from the file: give neither")
        lines = read_text(batch).split("\n")  # a bounded, regular file or stdin
        _write_batch(batch_moves(lines, display_name(batch)))
        return
    if position is None or not dice:
        raise InputError("give POSITION and --dice (or --batch FILE)")
    report = moves_report(position, dice, "POSITION")
    if json_:
        emit_json(report)
        return
    first, second = report["dice"]
    if not report["plays"]:
        typer.echo(f"{first}{second}: no legal play")
    for row in report["plays"]:
        typer.echo(f"{first}{second}: {row['notation']:<28} {row['position']}")


@backgammon_app.command("hint")
def hint(
    position: Annotated[
        str | None,
        typer.Argument(
            help="POSITION_ID or POSITION_ID:MATCH_ID (the cube and score), or 'start'."
        ),
    ] = None,
    dice: Annotated[
        str, typer.Option("--dice", "-d", help="The roll, e.g. 42; none: the cube hint.")
    ] = "",
    bot: Annotated[
        str, typer.Option("--bot", help="neural2 (2-ply, default) or neural (1-ply).")
    ] = "neural2",
    batch: Annotated[
        str | None,
        typer.Option(
            "--batch",
            metavar="FILE",
            help="Read lines 'POSITION[:MATCH_ID] [DICE]' from FILE ('-': stdin); one JSON"
            " object per line out.",
        ),
    ] = None,
    json_: JsonOption = False,
) -> None:
    """Every legal play of a roll ranked best first with its equity and chances (win,
    gammon, backgammon won and lost; cubeful equity or match winning chance with a Match
    ID), or before the roll the cube hint: no double, double/take, double/pass, too good.

    Exit codes: 0 success; 1 some --batch line failed; 2 bad input (the message names it).
    """
    from runarch_gen.backgammon.analysis import batch_hint, hint_report
    from runarch_gen.errors import InputError
    from runarch_gen.fileio import display_name, read_text

    if batch is not None:
        if position is not None or dice:
            raise InputError("--batch reads positions and dice from the file: give neither")
        lines = read_text(batch).split("\n")
        _write_batch(batch_hint(lines, display_name(batch), bot.strip().lower()))
        return
    if position is None:
        raise InputError("give POSITION (and --dice for a play), or --batch FILE")
    report = hint_report(position, dice or None, bot.strip().lower(), "POSITION")
    if json_:
        emit_json(report)
        return
    if "cube" in report:
        cube = report["cube"]
        typer.echo(
            f"cube: {cube['action']} ({'take' if cube['take'] else 'pass'});"
            f" no double {cube['no_double']:+.3f}, double/take {cube['double_take']:+.3f},"
            f" double/pass {cube['double_pass']:+.3f} ({cube['units']})"
        )
        typer.echo(
            f"cubeless equity {cube['cubeless_equity']:+.3f}: win {cube['win']:.1%},"
            f" gammon {cube['win_gammon']:.1%}, lose gammon {cube['lose_gammon']:.1%}"
        )
        return
    first, second = report["dice"]
    if not report["plays"]:
        typer.echo(f"{first}{second}: no legal play")
    for rank, row in enumerate(report["plays"], 1):
        extra = ""
        if "cubeful_equity" in row:
            extra = f" cubeful {row['cubeful_equity']:+.3f}"
        elif "match_winning_chance" in row:
            extra = f" mwc {row['match_winning_chance']:.1%}"
        typer.echo(
            f"{rank:>3}. {row['ply']}-ply {row['play']:<24} eq {row['equity']:+.3f}"
            f" ({row['difference']:+.3f}){extra}  win {row['win']:.1%}"
            f" g {row['win_gammon']:.1%} lg {row['lose_gammon']:.1%}"
        )


@backgammon_app.command("analyze")
def analyze(
    path: Annotated[str, typer.Argument(help="A .mat record ('-': stdin).")],
    bot: Annotated[
        str, typer.Option("--bot", help="neural2 (2-ply, default) or neural (1-ply).")
    ] = "neural2",
    json_: JsonOption = False,
) -> None:
    """Each player's error rate in millipoints per move and per cube decision, gnubg's
    rating words and the blunders with the better play, for money games and matches.

    Exit codes: 0 analysed; 2 unreadable or illegal record (the message names the line).
    """
    from runarch_gen.backgammon.analysis import analyze_record
    from runarch_gen.fileio import display_name, read_text

    report = analyze_record(read_text(path), display_name(path), bot.strip().lower())
    if json_:
        emit_json(report)
        return
    for player in report["players"]:
        typer.echo(
            f"{player['player']}: {player['move_error_mp']:.1f} mp a move over"
            f" {player['moves']} moves ({player['rating']}), {player['cube_error_mp']:.1f} mp"
            f" a cube decision over {player['cube_decisions']}"
        )
        for blunder in player["blunders"]:
            dice = f" {blunder['dice']}" if "dice" in blunder else ""
            typer.echo(
                f"  game {blunder['game']} {blunder['position']}{dice}: {blunder['played']}"
                f" ({blunder['kind']}, -{blunder['error']:.3f}); better {blunder['best']}"
            )


@backgammon_app.command("show")
def show(
    gnubg_id: Annotated[
        str, typer.Argument(help="POSITION_ID, or POSITION_ID:MATCH_ID as gnubg shows it.")
    ],
    json_: JsonOption = False,
) -> None:
    """Read a gnubg Position ID (and Match ID) and show the board and the match state."""
    from dataclasses import asdict

    from runarch_gen.backgammon.ids import match_id, parse_match_id, position_id
    from runarch_gen.backgammon.tools import diagram, parse_position

    text = gnubg_id.strip()
    position_text, _, match_text = text.partition(":")
    mover, other = parse_position(position_text, "POSITION_ID")
    info = parse_match_id(match_text, "MATCH_ID") if match_text else None
    pid = position_id(mover, other)
    mid = match_id(info) if info else None
    if json_:
        emit_json(
            {
                "position": pid,
                "position_id": pid,
                "match_id": mid,
                "jacoby": info.jacoby if info else None,
                "on_roll": list(mover),
                "opponent": list(other),
                "match": asdict(info) if info else None,
            }
        )
        return
    typer.echo(diagram(mover, other))
    typer.echo(f"Position ID: {pid}" + (f"   Match ID: {mid}" if mid else ""))
    if info is not None:
        owner = "middle" if info.cube_owner < 0 else f"player {info.cube_owner}"
        jacoby = "" if info.length else (", Jacoby on" if info.jacoby else ", Jacoby off")
        typer.echo(
            f"cube {info.cube} ({owner}), player {info.on_roll} on roll, dice"
            f" {info.dice[0]}{info.dice[1]}, "
            + (
                f"match to {info.length}, score {info.scores[0]}-{info.scores[1]}"
                if info.length
                else "money play"
            )
            + jacoby
            + (", Crawford game" if info.crawford else "")
        )


@backgammon_app.command("odds")
def odds(json_: JsonOption = False) -> None:
    """The seed's probability tables, computed from the 36 rolls: hitting a blot, a roll's
    pip total reaching a distance, entering from the bar against closed points."""
    from runarch_gen.backgammon.odds import HIT_CHANCE, REACH_CHANCE, enter_table

    distances = list(range(1, 25))
    if json_:
        emit_json(
            {
                "distance": [
                    {"distance": d, "hit": HIT_CHANCE[d], "reach": REACH_CHANCE[d]}
                    for d in distances
                ],
                "enter": [
                    {"closed": k, "one": a, "two": b, "three_or_four": c}
                    for k, a, b, c in enter_table()
                ],
            }
        )
        return
    typer.echo("distance  p(hit)  p(total at least) / vzdálenost  p(zásah)  p(součet min.)")
    for d in distances:
        typer.echo(f"{d:>8}  {HIT_CHANCE[d]:6.1%}  {REACH_CHANCE[d]:6.1%}")
    typer.echo("")
    typer.echo("closed points  1 checker  2 checkers  3-4 checkers / obsazených polí")
    for k, a, b, c in enter_table():
        typer.echo(f"{k:>13}  {a:9.1%}  {b:10.1%}  {c:12.1%}")


@backgammon_app.command("met")
def met_command(
    length: Annotated[int, typer.Option("--length", "-l", min=1, max=25, help="Match length.")] = 7,
    json_: JsonOption = False,
) -> None:
    """The match equity table the learned bot uses, computed from gammon rates ([V-44]):
    the chance that the player needing ROW points wins against one needing COLUMN."""
    from runarch_gen.backgammon.cube import met

    table = met(length)
    rows = [[table[a][b] for b in range(1, length + 1)] for a in range(1, length + 1)]
    if json_:
        emit_json({"length": length, "away": list(range(1, length + 1)), "table": rows})
        return
    typer.echo("away " + " ".join(f"{b:>6}" for b in range(1, length + 1)))
    for a, row in enumerate(rows, 1):
        typer.echo(f"{a:>4} " + " ".join(f"{v:6.1%}" for v in row))


@backgammon_app.command("record")
def record(
    bots: Annotated[str, typer.Option("--bots", help="Two bots: white,black.")] = "td,heuristic",
    rules: Annotated[
        str, typer.Option("--rules", help="A game string or its parameters, e.g. match=7.")
    ] = "",
    seed: SeedOption = None,
    output: Annotated[
        str, typer.Option("--output", "-o", help="The .mat file to write ('-': stdout).")
    ] = "-",
    json_: JsonOption = False,
) -> None:
    """Play one money game or match between two bots and write its record (.mat)."""
    from runarch_gen.backgammon.record import write_match
    from runarch_gen.backgammon.rules import rules_from_values
    from runarch_gen.backgammon.tools import play_game
    from runarch_gen.errors import InputError
    from runarch_gen.fileio import atomic_write

    _, values = game_values("backgammon", rules)
    names = tuple(b.strip().lower() for b in bots.split(","))
    if len(names) != 2:
        raise InputError(f"--bots: give two bots, white,black, not {bots[:40]!r}")
    used = resolve_seed(seed)
    state = play_game(rules_from_values(values), (names[0], names[1]), used)
    text = write_match(state, (names[0], names[1]))
    if output == "-" and not json_:
        typer.echo(text, nl=False)
    elif output != "-":
        atomic_write(output, text)
    if json_:
        emit_json(
            {
                "seed": used,
                "rules": str(state.game),
                "score": state.score,
                "games": len(state.games),
                "winner": state.winner,
                "output": None if output == "-" else output,
            }
        )
    note(f"runarch-gen: score {state.score[0]}-{state.score[1]}, seed {used}")


@backgammon_app.command("replay")
def replay(
    path: Annotated[str, typer.Argument(help="A .mat record ('-': stdin).")],
    json_: JsonOption = False,
) -> None:
    """Replay a .mat record through the engine, checking every play; print the result.

    Exit codes: 0 the record replays; 2 unreadable or illegal (the message names the line).
    """
    from runarch_gen.backgammon.record import read_match
    from runarch_gen.fileio import display_name, read_text

    states = read_match(read_text(path), display_name(path))
    results: list[dict[str, Any]] = [
        {
            "score": state.score,
            "games": len(state.games),
            "finished": state.is_terminal(),
            "position": state.position_id(),
            "match_id": state.match_id(),
        }
        for state in states
    ]
    if json_:
        emit_json({"record": display_name(path), "states": results})
        return
    for index, row in enumerate(results, 1):
        typer.echo(
            f"{index}: {row['games']} game(s), score {row['score'][0]}-{row['score'][1]},"
            f" {'finished' if row['finished'] else 'unfinished'},"
            f" {row['position']}:{row['match_id']}"
        )


@backgammon_app.command("train")
def train_command(
    games: Annotated[
        int, typer.Option("--games", "-n", min=0, max=10_000_000, help="Self-play games.")
    ] = 100_000,
    net: Annotated[
        str,
        typer.Option("--net", help="neural (the strong bot's networks) or td (the old net)."),
    ] = "neural",
    hidden: Annotated[
        int | None,
        typer.Option(
            "--hidden",
            min=1,
            max=400,
            help="Hidden units (contact net; 96, or the td net 48). With --start: the"
            " contact net is widened to this many when it has fewer (new units drawn from"
            " --seed, the evaluations unchanged).",
        ),
    ] = None,
    race_hidden: Annotated[
        int, typer.Option("--race-hidden", min=1, max=400, help="Hidden units (race net).")
    ] = 48,
    rate: Annotated[float, typer.Option("--rate", min=0.0001, max=1.0, help="Step size.")] = 0.1,
    halving: Annotated[
        int,
        typer.Option(
            "--halving", min=1, max=10**9, help="Games after which the step size is halved."
        ),
    ] = 30_000,
    trace: Annotated[
        float, typer.Option("--lambda", min=0.0, max=1.0, help="TD(λ)'s λ (0: TD(0)).")
    ] = 0.0,
    cross_entropy: Annotated[
        bool,
        typer.Option(
            "--cross-entropy",
            help="Step along the outputs' cross-entropy (gammons learn as fast as wins).",
        ),
    ] = False,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the games.")] = 1,
    refine: Annotated[
        int,
        typer.Option(
            "--refine", min=0, max=1_000_000, help="Positions rolled out to refine the nets."
        ),
    ] = 0,
    start: Annotated[
        list[str] | None,
        typer.Option(
            "--start",
            help="Go on training these weights (.npz); given more than once, from their mean.",
        ),
    ] = None,
    bearoff: Annotated[
        str | None,
        typer.Option("--bearoff", metavar="FILE", help="Only compute the bear-off database."),
    ] = None,
    output: Annotated[
        str, typer.Option("--output", "-o", help="Where to write the weights (.npz).")
    ] = "nets.npz",
    every: Annotated[
        int,
        typer.Option(
            "--every",
            min=0,
            max=10_000_000,
            help="Also write the weights after every N games, beside the output as"
            " NAME-GAMES.npz (0: only at the end).",
        ),
    ] = 0,
    json_: JsonOption = False,
) -> None:
    """Train the strong bot's contact and race networks by TD(0) self-play (and with
    --refine, on rollouts of positions where 1-ply and 2-ply disagree), or the old td net.
    The shipped weights are this command's defaults; the same options give the same
    weights. Run it with OPENBLAS_NUM_THREADS=1: small matrices are slower on many threads."""
    import time

    from runarch_gen.errors import InputError
    from runarch_gen.progress import progress

    started = time.perf_counter()
    if bearoff is not None:
        from runarch_gen.backgammon.bearoff import compute_tables, save_tables

        save_tables(bearoff, *compute_tables())
        note(f"runarch-gen: bear-off database written to {bearoff}")
        return
    width = hidden or (48 if net == "td" else 96)
    if net == "td":
        from runarch_gen.backgammon.train import train

        with progress(games, "train") as advance:
            old = train(
                games=games, seed=seed, hidden=width, rate=rate,
                on_game=lambda n, _net: advance(1),
            )  # fmt: skip
        old.save(output)
    elif net == "neural":
        from pathlib import Path

        from runarch_gen.backgammon.nets import Evaluator
        from runarch_gen.backgammon.selfplay import (
            TrainingOptions,
            refine_evaluator,
            train_evaluator,
        )
        from runarch_gen.fileio import display_name

        options = TrainingOptions(
            games=games,
            seed=seed,
            contact_hidden=width,
            race_hidden=race_hidden,
            rate=rate,
            halving=halving,
            trace=trace,
            cross_entropy=cross_entropy,
        )
        first = None
        if start:
            starts = [Evaluator.load(path) for path in start]
            sizes = [(e.contact.w1.shape[1], e.race.w1.shape[1]) for e in starts]
            odd = next((i for i, size in enumerate(sizes) if size != sizes[0]), None)
            if odd is not None:
                raise InputError(
                    f"--start: {display_name(start[odd])} has networks of another size than"
                    f" {display_name(start[0])}: their weights cannot be averaged"
                )
            if hidden is not None and hidden < sizes[0][0]:
                raise InputError(
                    f"--hidden {hidden}: the start's contact network has {sizes[0][0]} hidden"
                    " units; a network can be widened, not narrowed"
                )
            first = Evaluator.mean(starts).widened(hidden or 0, seed)
            width = first.contact.w1.shape[1]
        meta: dict[str, int | float | str] = {
            "seed": seed, "hidden": width, "race_hidden": race_hidden, "rate": rate,
            "halving": halving, "lambda": trace, "cross_entropy": int(cross_entropy),
        }  # fmt: skip
        target = Path(output)
        with progress(games, "self-play") as advance:

            def on_games(count: int, trained: Evaluator, _errors: tuple[float, float]) -> None:
                advance(1)
                if every and count % every == 0 and count < games:
                    checkpoint = target.with_name(f"{target.stem}-{count}{target.suffix}")
                    trained.save(checkpoint, {**meta, "games": count})

            evaluator = train_evaluator(options, first, on_games=on_games)
        if refine:
            with progress(refine, "rollouts") as advance:
                evaluator = refine_evaluator(
                    evaluator, refine, seed, on_position=lambda n: advance(1)
                )
        evaluator.save(output, {**meta, "games": games, "refine": refine})
    else:
        raise InputError(f"--net: neural or td, not {net[:20]!r}")
    elapsed = time.perf_counter() - started
    if json_:
        emit_json(
            {
                "net": net,
                "games": games,
                "hidden": width,
                "rate": rate,
                "seed": seed,
                "refine": refine,
                "output": output,
                "seconds": round(elapsed, 1),
            }
        )
    note(f"runarch-gen: {games} games in {elapsed:.0f} s, weights written to {output}")
