"""``runarch-gen bluff``: Bluff's rules, simulate and validate, and its own commands ``odds``
(the chance that a bid holds) and ``solve`` (the exact solver of the one-round game)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from runarch_gen.cli._app import JsonOption, emit_json, note
from runarch_gen.cli.games import game_commands
from runarch_gen.errors import InputError

if TYPE_CHECKING:
    from runarch_gen.bluff.rules import BluffRules

bluff_app = game_commands()
"""Bluff's own commands, in its command group (its registration names this app)."""


def _rules_of(rules: str) -> BluffRules:
    from runarch_gen.bluff.engine import rules_from_values
    from runarch_gen.cli.games import game_values

    _, values = game_values("bluff", rules)
    return rules_from_values(dict(values))


@bluff_app.command("odds")
def odds(
    hidden: Annotated[
        int | None,
        typer.Option(
            "--hidden",
            min=0,
            max=200,
            help="Dice you cannot see (default: every die in play but those you see).",
        ),
    ] = None,
    hand: Annotated[
        str,
        typer.Option("--hand", help="The dice you see, e.g. '1,3,3,★' (yours and any revealed)."),
    ] = "",
    bid: Annotated[
        str | None,
        typer.Option("--bid", help="One bid, e.g. '11x3' or '4x★': print only its chance."),
    ] = None,
    up_to: Annotated[
        int | None,
        typer.Option("--up-to", min=0, help="Show needs up to this many dice (default: all)."),
    ] = None,
    rules: Annotated[
        str, typer.Option("--rules", help="A game string or its parameters (for faces=N).")
    ] = "",
    json_: JsonOption = False,
) -> None:
    """The exact chance that a bid holds, from the binomial of the dice you cannot see.

    Without --bid: a table of the chance that a number bid and a star bid hold when they need
    0, 1, 2 … more counting dice among the hidden ones. With --bid (and --hand): that bid's
    chance, counting the dice you see. The bid must be on the rules' scale, and the dice you
    see and cannot see at most the dice in play (players × dice, see --rules).

    Exit codes: 0 answered; 2 a bid not on the scale, an impossible hand, bad options.
    """
    from runarch_gen.bluff.notation import parse_bid, parse_faces
    from runarch_gen.bluff.odds import bid_holds, odds_table
    from runarch_gen.bluff.rules import STAR_TEXT
    from runarch_gen.errors import ParseError

    game_rules = _rules_of(rules)
    faces = game_rules.faces
    total = game_rules.total_dice
    try:
        seen = parse_faces(hand, faces)
    except ParseError as exc:
        raise InputError(f"--hand: {exc}") from None
    if len(seen) > total:
        raise InputError(
            f"--hand: {len(seen)} dice, but the game has {total} in play"
            f" ({game_rules.players} players × {game_rules.dice_per_player}; see --rules)"
        )
    if hidden is None:
        hidden = total - len(seen)
    elif hidden + len(seen) > total:
        raise InputError(
            f"--hidden: {hidden} hidden and {len(seen)} seen make {hidden + len(seen)} dice,"
            f" but the game has {total} in play (see --rules)"
        )
    if bid is not None:
        try:
            quantity, face = parse_bid(bid, faces)
        except ParseError as exc:
            raise InputError(f"--bid: {exc}") from None
        if game_rules.bid_rank(quantity, face) is None:
            text = f"{quantity}×{STAR_TEXT if face == faces + 1 else face}"
            raise InputError(
                f"--bid: {text} is not on the scale (bids run from {game_rules.bids[0]}"
                f" to {game_rules.bids[-1]}, a star only on a star field)"
            )
        chance = bid_holds(quantity, face, seen, hidden, faces=faces)
        text = f"{quantity}×{STAR_TEXT if face == faces + 1 else face}"
        if json_:
            emit_json(
                {
                    "bid": text,
                    "hand": list(seen),
                    "hidden": hidden,
                    "chance": float(chance),
                    "exact": str(chance),
                }
            )
        else:
            typer.echo(f"{text} holds with chance {float(chance):.4f} ({chance})")
        return
    rows = odds_table(hidden, faces, up_to=up_to)
    if json_:
        emit_json({"hidden": hidden, "faces": faces, "rows": [r.to_json() for r in rows]})
        return
    typer.echo(f"{hidden} hidden dice: the chance that at least N of them count")
    typer.echo(f"{'N':>4}  {'number (or ★)':>14}  {'★ only':>8}")
    for row in rows:
        typer.echo(f"{row.need:>4}  {float(row.number):>14.4f}  {float(row.star):>8.4f}")


@bluff_app.command("solve")
def solve(
    dice: Annotated[
        str,
        typer.Option("--dice", help="Dice of the opener and the other player: 1,1 1,2 2,1 2,2."),
    ] = "1,1",
    window: Annotated[
        int | None,
        typer.Option(
            "--window",
            min=0,
            max=8,
            help="Remember only the last N bids (an abstraction of the bid history); 0: all."
            " Default: 0 up to 20 bids, 4 beyond (two dice each).",
        ),
    ] = None,
    target: Annotated[
        float,
        typer.Option("--target", min=1e-9, max=1.0, help="Stop below this exploitability."),
    ] = 0.001,
    iterations: Annotated[
        int | None,
        typer.Option(
            "--iterations",
            min=1,
            max=1_000_000,
            help="At most this many (whole history, default 20000); with a window, exactly"
            " this many (default 300).",
        ),
    ] = None,
    bots: Annotated[
        str,
        typer.Option("--bots", help="Bots whose exploitability to measure ('' for none)."),
    ] = "random,odds,bayes",
    rules: Annotated[
        str,
        typer.Option("--rules", help="A game string or parameters: faces=N, scale=FILE."),
    ] = "",
    lp: Annotated[
        bool,
        typer.Option("--lp", help="Also the exact value by the linear program (one die each)."),
    ] = False,
    save: Annotated[
        str | None,
        typer.Option("--save", help="Write the strategy to this file (.npz) for the cfr bot."),
    ] = None,
    check: Annotated[
        str | None,
        typer.Option("--check", help="Measure the strategy in this file instead of solving."),
    ] = None,
    json_: JsonOption = False,
) -> None:
    """Solve the one-round two-player game (CFR+) and measure strategies exactly.

    Reports the value of the game for the opener (player 1) and the exploitability of the
    solution — half the sum of what an exact best response to each side wins, in the full
    game whatever the strategy remembers — and of each bot (games up to 18 bids). Two dice
    each (24 bids) is solved on an abstraction that remembers the last --window bids.
    --save writes the strategy (chances below 0.001 dropped, and the states its player reaches
    with a chance below 0.00001; measured again); --check FILE measures a saved strategy.

    Exit codes: 0 solved or measured; 2 bad options, a game too large, a bad strategy file.
    """
    import time

    from runarch_gen.bluff.best_response import evaluate
    from runarch_gen.bluff.bots import BOTS
    from runarch_gen.bluff.solver import (
        MAX_TREE_BIDS,
        SmallGame,
        bot_strategy,
        prune,
        solve_lp,
        solve_window,
    )
    from runarch_gen.bluff.solver import solve as run_solver
    from runarch_gen.bluff.strategy import read_strategy
    from runarch_gen.fileio import display_name

    if check is not None:
        strategy = read_strategy(check)
        measured = evaluate(strategy)
        report: dict[str, Any] = {
            "file": display_name(check),
            "game": strategy.game,
            "dice": list(strategy.dice),
            "window": strategy.window,
            **measured.to_json(),
        }
        if json_:
            emit_json(report)
            return
        typer.echo(
            f"{display_name(check)}: {strategy.game}, dice {strategy.dice[0]} and"
            f" {strategy.dice[1]}, remembers {_window_text(strategy.window)}"
        )
        typer.echo(
            f"value for player 1: {measured.value:+.6f}   exploitability"
            f" {measured.exploitability:.6f}"
        )
        return
    sizes = _dice_pair(dice)
    names = [b.strip().lower() for b in bots.split(",") if b.strip()]
    for name in names:
        if name not in BOTS:
            raise InputError(f"--bots: unknown bot {name!r}: expected one of {', '.join(BOTS)}")
    game = SmallGame(_rules_of(rules), sizes)
    if lp and game.bids > 14:
        raise InputError(f"--lp: the linear program is for up to 14 bids, not {game.bids}")
    whole = window == 0 or (window is None and game.bids <= MAX_TREE_BIDS)
    if whole and game.bids > MAX_TREE_BIDS:
        raise InputError(
            f"--window 0: the small game has {game.bids} bids: the whole tree is solved up to"
            f" {MAX_TREE_BIDS} (use an abstraction: --window N)"
        )
    if not whole and names and game.bids > 18:
        names = []  # a bot is read at every history: not for 2^24 of them
    note(f"runarch-gen: {game.bids} bids, {1 << game.bids:,} bid histories")
    last = [time.monotonic()]

    def progress(iteration: int, gap: float) -> None:
        # a line every 10 s at most, for the long solves
        if time.monotonic() - last[0] >= 10:
            last[0] = time.monotonic()
            note(f"runarch-gen: iteration {iteration}: exploitability {gap:.5f}")

    if whole:
        result = run_solver(
            game, target=target, max_iterations=iterations or 20_000, on_check=progress
        )
    else:
        result = solve_window(
            game,
            window or 4,
            iterations=iterations or 300,
            check_every=100,
            on_check=lambda i, gap: note(f"runarch-gen: iteration {i}: exploitability {gap:.5f}"),
        )
    report = {"dice": list(sizes), "bids": game.bids, **result.to_json(), "bots": {}}
    for name in names:
        measured = evaluate(bot_strategy(game, BOTS[name]))
        report["bots"][name] = {
            "exploitability": round(measured.exploitability, 6),
            "self_play_value": round(measured.value, 6),
        }
    if lp:
        report["lp_value"] = round(solve_lp(game), 9)
    if save is not None:
        kept = prune(result.strategy, least=SAVED_LEAST)
        kept.save(save)
        measured = evaluate(kept)
        report["saved"] = {
            "file": display_name(save),
            "states": [kept.states(0), kept.states(1)],
            **measured.to_json(),
        }
    if json_:
        emit_json(report)
        return
    typer.echo(
        f"Bluff, one round, dice {sizes[0]} and {sizes[1]}, player 1 opens;"
        f" {result.method}, remembering {_window_text(result.strategy.window)}"
    )
    typer.echo(
        f"value for player 1: {result.value:+.6f}   exploitability {result.exploitability:.6f}"
        f" after {result.iterations} iterations ({result.seconds:.1f} s)"
    )
    if "lp_value" in report:
        exact = _fraction(report["lp_value"])
        typer.echo(f"value by the linear program: {report['lp_value']:+.9f}{exact}")
    for name, row in report["bots"].items():
        typer.echo(f"  {name:<8} exploitability {row['exploitability']:.4f}")
    if "saved" in report:
        saved = report["saved"]
        typer.echo(
            f"wrote {saved['file']}: exploitability {saved['exploitability']:.6f} as saved"
            f" ({saved['states'][0] + saved['states'][1]:,} states)"
        )


SAVED_LEAST = 1e-5
"""A saved strategy keeps the states its player plays into with a chance of at least this
(measured: no change to the exploitability of the shipped ones at four digits)."""


def _dice_pair(text: str) -> tuple[int, int]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) == 1 for p in parts):
        raise InputError(f"--dice: two counts such as 1,1 or 1,2, not {text[:40]!r}")
    sizes = (int(parts[0]), int(parts[1]))
    if not all(1 <= n <= 2 for n in sizes):
        raise InputError("--dice: each player has 1 or 2 dice")
    return sizes


def _window_text(window: int) -> str:
    return "every bid" if window == 0 else f"the last {window} bids"


def _fraction(value: float) -> str:
    from fractions import Fraction

    near = Fraction(value).limit_denominator(10_000)
    return f" = {near}" if abs(float(near) - value) < 1e-9 else ""
