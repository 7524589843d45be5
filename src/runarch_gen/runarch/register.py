"""RunArch in the family registry: its factory (rules, board and deck), its bots, the default
one, and what the conformance suite plays; named by the ``runarch_gen.games`` entry point
``runarch``.

>>> from runarch_gen.play.registry import find_game
>>> str(find_game("runarch(variant=classic,deal=4,set=sample)"))
'classic(deal=4)'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING

from runarch_gen.errors import InputError
from runarch_gen.play.registry import Value, register_game
from runarch_gen.runarch.design import DESIGN  # registered with the game
from runarch_gen.runarch.engine.game import RunArchGame
from runarch_gen.runarch.rules import parse_rules
from runarch_gen.runarch.set_values import parse_board_value, parse_deck_value, parse_set_value

if TYPE_CHECKING:
    from runarch_gen.play.balance import Finding
    from runarch_gen.runarch.boards.board import Board
    from runarch_gen.runarch.decks.cards import Deck

__all__ = ["DESIGN", "REGISTRATION", "load_runarch"]


@cache
def _generated_set(seed: int) -> tuple[Board, Deck]:
    from runarch_gen.runarch.boards.generate import generate_board
    from runarch_gen.runarch.decks.generate import generate_deck

    return generate_board(seed=seed), generate_deck(seed=seed)[0]


def load_runarch(values: Mapping[str, Value]) -> RunArchGame:
    """The RunArch game of registry parameter ``values`` (see :data:`RUNARCH_TYPE`)."""
    from runarch_gen.runarch.engine.sample import sample_board, sample_deck

    options = ",".join(
        f"{name}={value}"
        for name, value in values.items()
        if name not in ("variant", "set", "board", "deck") and value != "default"
    )
    rules = parse_rules(f"{values['variant']}({options})", source="runarch")
    chosen = str(values["set"]).strip().lower()
    inline = parse_set_value(str(values["set"]))
    if inline is not None:
        board, deck = inline
    elif chosen == "sample":
        board, deck = sample_board(), sample_deck()
    elif re.fullmatch(r"[0-9]{1,10}", chosen):
        board, deck = _generated_set(int(chosen))
    else:
        raise InputError(
            f"runarch: set is 'sample', a seed or (on the command line, in a sweep file) a kit"
            f" folder, not {chosen[:40]!r}"
        )
    if str(values.get("board", "set")).strip().lower() != "set":
        board = parse_board_value(str(values["board"]))
    if str(values.get("deck", "set")).strip().lower() != "set":
        deck = parse_deck_value(str(values["deck"]))
    return RunArchGame(rules, board, deck)


def _suggestions(values: Mapping[str, Value], finding: Finding) -> list[dict[str, str]]:
    """The changes of parameters worth trying against a balance finding (``runarch-gen runarch
    validate --suggest``), smallest first: see :func:`runarch_gen.runarch.validation.balance
    .candidates` (a generic ``stalls`` finding is tried as a deadlock)."""
    from runarch_gen.runarch.validation.balance import candidates, changed_options

    game = load_runarch(values)
    config = game.config
    return [
        changed_options(config, rules)
        for rules in candidates(config, finding, game.board, game.cards)
    ]


def _checks(values: Mapping[str, Value]) -> list[object]:
    """The static checks of ``validate`` (RULES §9.1) for the set and variant of ``values``,
    and the token analysis's rules findings as checks that fail only when strict: the checks
    ``runarch-gen validate`` makes of the same set, so that every way of validating it agrees."""
    from runarch_gen.play.verdict import Check, Failure
    from runarch_gen.runarch.decks.cards import Deck
    from runarch_gen.runarch.validation.validate import check_set

    game = load_runarch(values)
    report = check_set(game.board, Deck(game.cards), [game.config])
    found: list[object] = list(report.checks)
    for finding in report.findings:
        failure = Failure("tokens", "§1.4", finding.headline, " ".join(finding.explanation))
        found.append(
            Check(
                f"rules finding: {finding.kind}",
                finding.headline,
                (failure,),
                finding.to_json(),
                finding.rules,
                strict_only=True,
            )
        )
    return found


REGISTRATION = register_game(
    RunArchGame,
    factory=load_runarch,
    bots="runarch_gen.runarch.bots:BOTS",
    default_bot="greedy",
    conformance=(
        "runarch(variant=simple,set=sample)",
        "runarch(variant=complex,stall=60,set=sample)",
        "runarch(variant=classic,deal=4,stall=60,set=sample)",
        "runarch(variant=solo,set=sample)",
    ),
    rules_document="runarch.md",
    checks=_checks,
    suggestions=_suggestions,
    description="RunArch: the same commands as at the top level, and its rules document.",
    commands="runarch_gen.cli.games:runarch_commands",
    order=1,
    kit="runarch_gen.runarch.kit.definition:KIT",
)
