"""``runarch-gen bluff``: Bluff's rules, simulate and validate, and its own commands ``odds``
(the chance that a bid holds) and ``solve`` (the exact solver of the one-round game)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from runarch_gen.cli._app import JsonOption, emit_json, note
from runarch_gen.cli.games import game_commands
from runarch_gen.errors import InputError

bluff_app = game_commands()
"""Bluff's own commands, in its command group (its registration names this app)."""


def _faces_of(rules: str) -> int:
    from runarch_gen.bluff.engine import rules_from_values
    from runarch_gen.cli.games import game_values

    _, values = game_values("bluff", rules)
    return rules_from_values(dict(values)).faces


@bluff_app.command("odds")
def odds(
    hidden: Annotated[
        int,
        typer.Option(
            "--hidden", min=0, max=200, help="Dice you cannot see (the others' hidden dice)."
        ),
    ] = 24,
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
    chance, counting the dice you see.
    """
    from runarch_gen.bluff.notation import parse_bid, parse_faces
    from runarch_gen.bluff.odds import bid_holds, odds_table
    from runarch_gen.bluff.rules import STAR_TEXT
    from runarch_gen.errors import ParseError

    faces = _faces_of(rules)
    try:
        seen = parse_faces(hand, faces)
    except ParseError as exc:
        raise InputError(f"--hand: {exc}") from None
    if bid is not None:
        try:
            quantity, face = parse_bid(bid, faces)
        except ParseError as exc:
            raise InputError(f"--bid: {exc}") from None
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
        str, typer.Option("--dice", help="Dice of the two players, e.g. '1,1' or '1,2'.")
    ] = "1,1",
    target: Annotated[
        float,
        typer.Option("--target", min=1e-9, max=1.0, help="Stop below this exploitability."),
    ] = 0.001,
    iterations: Annotated[
        int, typer.Option("--iterations", min=1, max=1_000_000, help="At most this many.")
    ] = 20_000,
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
        typer.Option("--lp", help="Also solve the linear program (small games only)."),
    ] = False,
    json_: JsonOption = False,
) -> None:
    """Solve the one-round two-player game exactly (CFR+) and measure the bots against it.

    Reports the value of the game for the opener (player 1) at equilibrium, the solver's
    exploitability, and each bot's exploitability: how much a best response wins against it
    on average over the two seats (returns are +1/-1).
    """
    from runarch_gen.bluff.bots import BOTS
    from runarch_gen.bluff.engine import rules_from_values
    from runarch_gen.bluff.solver import (
        PublicTree,
        bot_strategy,
        exploitability,
        small_rules,
        solve_lp,
    )
    from runarch_gen.bluff.solver import solve as run_solver
    from runarch_gen.cli.games import game_values

    parts = [p.strip() for p in dice.split(",")]
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) == 1 for p in parts):
        raise InputError(f"--dice: two counts such as 1,1 or 1,2, not {dice[:40]!r}")
    sizes = (int(parts[0]), int(parts[1]))
    if not all(1 <= n <= 3 for n in sizes):
        raise InputError("--dice: each player has 1 to 3 dice")
    names = [b.strip().lower() for b in bots.split(",") if b.strip()]
    for name in names:
        if name not in BOTS:
            raise InputError(f"--bots: unknown bot {name!r}: expected one of {', '.join(BOTS)}")
    if lp and sizes != (1, 1):
        raise InputError("--lp: the linear program is for one die each only")
    _, values = game_values("bluff", rules)
    small = small_rules(rules_from_values(dict(values)), sizes)
    tree = PublicTree(small, sizes)
    note(f"runarch-gen: {tree.decision_nodes} decision nodes, {tree.edge_count} edges")
    import time

    last = [time.monotonic()]

    def progress(iteration: int, gap: float) -> None:
        # a line every 10 s at most, for the long solves
        if time.monotonic() - last[0] >= 10:
            last[0] = time.monotonic()
            note(f"runarch-gen: iteration {iteration}: exploitability {gap:.5f}")

    result = run_solver(tree, target=target, max_iterations=iterations, on_check=progress)
    report: dict[str, Any] = {"dice": list(sizes), **result.to_json(), "bots": {}}
    for name in names:
        value, gap = exploitability(tree, bot_strategy(tree, BOTS[name]))
        report["bots"][name] = {"exploitability": round(gap, 6), "self_play_value": round(value, 6)}
    if lp:
        report["lp_value"] = round(solve_lp(small), 6)
    if json_:
        emit_json(report)
        return
    typer.echo(f"Bluff, one round, dice {sizes[0]} and {sizes[1]}, player 1 opens")
    typer.echo(
        f"value for player 1: {result.value:+.6f}   exploitability {result.exploitability:.5f}"
        f" after {result.iterations} iterations ({result.seconds:.1f} s)"
    )
    if "lp_value" in report:
        typer.echo(f"value by the linear program: {report['lp_value']:+.6f}")
    for name, row in report["bots"].items():
        typer.echo(f"  {name:<8} exploitability {row['exploitability']:.4f}")
