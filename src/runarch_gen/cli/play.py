"""``runarch-gen evaluate``, ``tally`` and ``replay``: the rules engine for players and scripts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from runarch_gen.cli._app import JsonOption, app, emit_json

if TYPE_CHECKING:
    from runarch_gen.runarch.decks.cards import Deck


@app.command()
def evaluate(
    stones: Annotated[
        str,
        typer.Option(
            "--stones", help="The stones on the board, in a board file format ('-': stdin)."
        ),
    ],
    card: Annotated[
        str, typer.Option("--card", help="The card's pattern: five codes, e.g. 0R,3B,4G,5Y,6V.")
    ],
    phase: Annotated[
        int,
        typer.Option(
            "--phase",
            min=1,
            max=4,
            help="Movement phase 1-4; 4 adds the diagonals and the match bonus.",
        ),
    ] = 1,
    board: Annotated[
        str | None, typer.Option("--board", help="The board's tiles, for the match bonus.")
    ] = None,
    match: Annotated[
        str | None,
        typer.Option("--match", help="The card's match area, e.g. 5Y, for the match bonus."),
    ] = None,
    rules: Annotated[
        str,
        typer.Option(
            "--rules", help="A rules string for R-08 and R-09, e.g. complex(match_bonus=line)."
        ),
    ] = "complex",
    json_: JsonOption = False,
) -> None:
    """Score a card on every line of a position (RULES.md §4.2), best first.

    Lists every line where the pattern is valid with its pattern points, match bonus and card
    score; phase 4 adds the long diagonals and the match bonus [R-09].
    """
    from runarch_gen.errors import InputError, ParseError
    from runarch_gen.runarch.atoms import parse_piece
    from runarch_gen.runarch.boards.io import read_board
    from runarch_gen.runarch.decks.cards import parse_pattern
    from runarch_gen.runarch.engine.evaluation import evaluate_card
    from runarch_gen.runarch.rules import MatchBonus, Variant, parse_rules

    try:
        pattern = parse_pattern(card)
    except ParseError as exc:
        raise exc.located("--card") from None
    pieces = pattern.pieces
    if len({p.colour for p in pieces}) < len(pieces) or len({p.shape for p in pieces}) < len(
        pieces
    ):
        raise InputError(
            f"--card: {pattern.text} repeats a colour or a shape;"
            " a pattern has neither twice (§1.3)"
        )
    try:
        match_piece = parse_piece(match) if match is not None else None
    except ParseError as exc:
        raise exc.located("--match") from None
    config = parse_rules(rules, source="--rules", files=Path("."))
    if phase == 4 and config.variant is Variant.SIMPLE:
        raise InputError(
            "--phase 4: the simple game scores rows and columns only, with no match bonus (§5.1)"
        )
    if phase == 4 and config.match_bonus is not MatchBonus.OFF and (board is None or match is None):
        raise InputError(
            "--phase 4 adds the match bonus [R-09]: give --board (the tiles) and --match"
            " (the card's match area), or --rules 'complex(match_bonus=off)'"
        )
    position = read_board(stones)
    if len(set(position.indices())) != len(position.indices()):
        raise InputError(
            f"--stones: {stones}: a stone lies twice; the 25 stones are all different (§1.2)"
        )
    tiles = read_board(board) if board is not None else None
    scores = evaluate_card(
        position.indices(), pattern, phase=phase, tiles=tiles, match=match_piece, config=config
    )
    if json_:
        emit_json(
            {
                "card": pattern.text,
                "phase": phase,
                "rules": str(config),
                "lines": [
                    {
                        "line": s.line,
                        "pattern_points": s.pattern_points,
                        "match_bonus": s.match_bonus,
                        "card_score": s.card_score,
                        "reversed": s.reversed,
                    }
                    for s in scores
                ],
            }
        )
        return
    if not scores:
        typer.echo(f"{pattern.text} is valid on no line in phase {phase}")
        return
    typer.echo(f"{'line':<5} {'pattern':>7} {'bonus':>5} {'score':>5}")
    for s in scores:
        note = "  (read backwards)" if s.reversed else ""
        typer.echo(f"{s.line:<5} {s.pattern_points:>7} {s.match_bonus:>5} {s.card_score:>5}{note}")


@app.command()
def tally(
    file: Annotated[str, typer.Argument(help="A JSON description of one player's end of game.")],
    json_: JsonOption = False,
) -> None:
    """Final scoring of one player: duel, bets, goals (RULES.md §5-7), as a breakdown.

    The JSON names the rules (default complex), the best card, the card points, the
    opponent's best card, the archives, the bets and the secret goal; see docs/guide/engine.md.
    """
    from runarch_gen.runarch.engine.tally import read_tally

    settlement, config = read_tally(file)
    if json_:
        emit_json(
            {
                "rules": str(config),
                "items": [
                    {"part": i.part, "what": i.what, "points": i.points} for i in settlement.items
                ],
                "parts": dict(settlement.score().parts),
                "total": settlement.total,
            }
        )
        return
    typer.echo(f"{'part':<14} {'points':>6}  what")
    for item in settlement.items:
        typer.echo(f"{item.part:<14} {item.points:>6}  {item.what}")
    typer.echo(f"{'total':<14} {settlement.total:>6}")


@app.command()
def replay(
    record: Annotated[str, typer.Argument(help="A game record ('-' for stdin).")],
    deck: Annotated[
        str | None,
        typer.Option("--deck", help="The deck file, if not the record's Deck tag."),
    ] = None,
    json_: JsonOption = False,
) -> None:
    """Check a game record move by move; print the final position and the outcome.

    A bad record fails with the first illegal line and why (exit 2).
    """
    from runarch_gen.fileio import display_name, read_text
    from runarch_gen.runarch.engine.record import replay as replay_record
    from runarch_gen.runarch.engine.text import describe_state

    given = _load_deck(deck) if deck is not None else None
    source = display_name(record)
    state = replay_record(
        read_text(record), deck=given, source=source, load_deck=_deck_beside(record, source)
    )
    outcome = state.outcome()
    if json_:
        report: dict[str, Any] = {
            "variant": str(state.game.config),
            "turns": state.turn,
            "finished": outcome is not None,
        }
        if outcome is not None:
            report |= {
                "termination": outcome.termination.value,
                "stalled": outcome.stalled,
                "result": outcome.result(),
                "winners": [outcome.sides[w] for w in outcome.winners],
                "scores": {
                    side: score.as_dict()
                    for side, score in zip(outcome.sides, outcome.scores, strict=True)
                },
            }
        emit_json(report)
        return
    typer.echo(describe_state(state))
    typer.echo("")
    if outcome is None:
        typer.echo(f"game in progress after {state.turn} turns")
        return
    winners = " and ".join(outcome.sides[w] for w in outcome.winners) or "nobody"
    typer.echo(f"{outcome.result()} ({outcome.termination}): {winners} won")
    for side, score in zip(outcome.sides, outcome.scores, strict=True):
        parts = ", ".join(f"{name} {value}" for name, value in score.parts)
        typer.echo(f"{side}: {score.total} ({parts})")


def _deck_beside(record: str, source: str) -> Callable[[str], Deck]:
    """The reader of a record's ``Deck`` tag: only a file beside the record, and an error that
    names the file and line but never shows its content (the user did not name that file)."""
    from runarch_gen.errors import InputError, ParseError
    from runarch_gen.fileio import beside

    def load(name: str) -> Deck:
        path = beside(record, name, f"{source}: [Deck]")
        try:
            return _load_deck(str(path))
        except ParseError as exc:
            line = f" (line {exc.line})" if exc.line is not None else ""
            raise InputError(f"{source}: [Deck]: {path.name} is not a valid deck{line}") from None
        except InputError:
            raise InputError(f"{source}: [Deck]: cannot read {path.name}") from None

    return load


def _load_deck(path: str) -> Deck:
    from runarch_gen.runarch.decks.io import read_deck

    return read_deck(path)
