"""Evaluating one card on a position, for people (``runarch-gen evaluate``) — RULES.md §4.2.

>>> from runarch_gen.runarch.decks.cards import parse_pattern
>>> from runarch_gen.runarch.engine.sample import sample_board
>>> board = sample_board()
>>> scores = evaluate_card(board.indices(), parse_pattern("0R,4B,6G,3Y,5V"))
>>> scores[0].line, scores[0].pattern_points, scores[0].card_score
('r1', 10, 10)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from runarch_gen.errors import InputError
from runarch_gen.runarch.atoms import N_SQUARES, Piece
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.decks.cards import PATTERN_LENGTH, Card, Goal, GoalKind, Pattern
from runarch_gen.runarch.engine.tables import (
    LINE_NAMES,
    N_LINES,
    N_STRAIGHT,
    Tables,
    pattern_points,
)
from runarch_gen.runarch.rules import LineDirection, MatchBonus, RulesConfig


@dataclass(frozen=True, slots=True)
class LineScore:
    """A line on which the pattern is valid: its pattern points, match bonus and card score.

    ``reversed`` is true when the pattern scored better read backwards ([R-08] reversible).
    """

    line: str
    pattern_points: int
    match_bonus: int
    reversed: bool = False

    @property
    def card_score(self) -> int:
        return self.pattern_points + self.match_bonus


def evaluate_card(
    stones: Sequence[int],
    pattern: Pattern,
    *,
    phase: int = 1,
    tiles: Board | None = None,
    match: Piece | None = None,
    config: RulesConfig | None = None,
) -> list[LineScore]:
    """Every line where ``pattern`` is valid on ``stones``, best card score first.

    ``phase`` 4 adds the long diagonals and the match bonus ([R-09], from ``config``), which
    needs the board's ``tiles`` and the card's ``match`` area; ``config`` also gives [R-08].
    """
    config = config or RulesConfig()
    if len(stones) != N_SQUARES:
        raise InputError(f"the stones are {N_SQUARES} pieces, not {len(stones)}")
    if len(pattern) != PATTERN_LENGTH:
        raise InputError(f"a pattern has {PATTERN_LENGTH} stones, not {len(pattern)}")
    if not 1 <= phase <= 4:
        raise InputError(f"the movement phase is 1 to 4, not {phase}")
    bonus_needed = phase == 4 and config.match_bonus is not MatchBonus.OFF
    if bonus_needed and (tiles is None or match is None):
        raise InputError(
            "phase 4 adds the match bonus [R-09]: give the board's tiles and the card's match"
            " area (or use match_bonus=off)"
        )
    placeholder = Goal(GoalKind.COLOURS, 3, colour_count=1)
    card = Card(0, pattern, match or pattern[0], placeholder, ())
    tables = Tables(tiles or Board.from_indices(range(N_SQUARES)), [card])
    table, backwards = tables.points[0], tables.reversed_points[0]
    reversible = config.direction is LineDirection.REVERSIBLE
    scores: list[LineScore] = []
    for line in range(N_LINES if phase == 4 else N_STRAIGHT):
        forward = pattern_points(table, stones, line)
        backward = pattern_points(backwards, stones, line) if reversible else 0
        points = max(forward, backward)
        if not points:
            continue
        bonus = 0
        if bonus_needed:
            if config.match_bonus is MatchBonus.BOARD:
                bonus = tables.match_bonus_board(stones, 0)
            else:
                bonus = tables.match_bonus_line(stones, 0, line)
        scores.append(LineScore(LINE_NAMES[line], points, bonus, backward > forward))
    order = {name: i for i, name in enumerate(LINE_NAMES)}
    scores.sort(key=lambda s: (-s.card_score, order[s.line]))
    return scores
