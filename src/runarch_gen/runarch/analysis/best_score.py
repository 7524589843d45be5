"""The best score any card of a deck can reach on a board (RULES.md §4.2, [R-08], [R-09]).

The stones may lie anywhere — swaps reach every arrangement — so the question for one card and
one line is which arrangement of the 25 stones scores most: an assignment of stones to squares,
solved exactly. The validation uses the answer to prove each minimum of the bonus-token set
reachable, or out of reach (``match_bonus=line`` cannot give 13).

>>> from runarch_gen.runarch.engine.sample import sample_board, sample_deck
>>> best_card_score(sample_board(), sample_deck(), phase4=True).text
'card 2 on cd: 10 pattern points + 10 match bonus'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from runarch_gen.runarch.atoms import LINES, PIECES
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.decks.cards import Card
from runarch_gen.runarch.engine.evaluation import evaluate_card
from runarch_gen.runarch.rules import LineDirection, MatchBonus, RulesConfig

__all__ = ["STONES", "ScoreWitness", "best_card_score"]

STONES = PIECES  # §1.2 one stone per colour × shape


@dataclass(frozen=True, slots=True)
class ScoreWitness:
    """A card scoring ``pattern_points + match_bonus`` on ``line`` when the stones lie as in
    ``stones`` (piece index per square, reading order): the best any card of the deck can do."""

    card: int
    line: str
    pattern_points: int
    match_bonus: int
    stones: tuple[int, ...]
    reversed: bool = False

    @property
    def score(self) -> int:
        return self.pattern_points + self.match_bonus

    @property
    def text(self) -> str:
        way = " read backwards [R-08]" if self.reversed else ""
        bonus = f" + {self.match_bonus} match bonus" if self.match_bonus else ""
        return f"card {self.card} on {self.line}{way}: {self.pattern_points} pattern points{bonus}"

    def to_json(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "line": self.line,
            "reversed": self.reversed,
            "pattern_points": self.pattern_points,
            "match_bonus": self.match_bonus,
            "score": self.score,
            "stones": [STONES[i].code for i in self.stones],
        }


def best_card_score(
    board: Board,
    cards: Iterable[Card],
    *,
    phase4: bool,
    match_bonus: MatchBonus = MatchBonus.BOARD,
    direction: LineDirection = LineDirection.READING,
) -> ScoreWitness | None:
    """The highest card score any card of ``cards`` can reach, with the stones laid out to get
    it, or ``None`` when no card has a valid pattern.

    Movement phases 1–3 (``phase4=False``) score pattern points on rows and columns; phase 4
    adds the diagonals and the [R-09] match bonus. The stones may lie anywhere (swaps reach
    every arrangement), so for each card and line this is an assignment of the 25 stones to the
    25 squares that maximises the score, with every position of the line earning a point (the
    pattern is valid there); it is solved exactly, so a value above the result is proven out of
    reach. The stones found are scored again by the rules engine's own evaluation.

    >>> from runarch_gen.runarch.engine.sample import sample_board, sample_deck
    >>> board, deck = sample_board(), sample_deck(50)
    >>> best_card_score(board, deck, phase4=True, match_bonus=MatchBonus.LINE).score
    12
    >>> best_card_score(board, deck, phase4=False).score
    10
    """
    from ortools.graph.python import linear_sum_assignment

    lines = LINES if phase4 else tuple(line for line in LINES if not line.name.startswith("d"))
    bonus = match_bonus if phase4 else MatchBonus.OFF
    orientations = (False, True) if direction is LineDirection.REVERSIBLE else (False,)
    tiles = board.tiles
    best: tuple[int, int, int, int] | None = None  # score, -order, card index, line index …
    found: ScoreWitness | None = None
    card_list = [card for card in cards if card.pattern.is_valid()]
    # No score can exceed this (RULES §4.2): 10 pattern points; the board's match bonus counts
    # at most the 5 stones of a colour and the 5 of a shape; in a line a position earns a
    # pattern point and a bonus point for the same attribute only where the pattern holds the
    # match colour (shape), once per pattern, so each attribute adds at most 5 + 1. Reaching it
    # ends the search early.
    ceiling = {MatchBonus.OFF: 10, MatchBonus.LINE: 12, MatchBonus.BOARD: 20}[bonus]
    for index, card in enumerate(card_list):
        if best is not None and best[0] >= ceiling:
            break
        colour, shape = card.match.colour, card.match.shape
        # Bonus each stone earns on each square ([R-09]): its match colour on a tile of that
        # colour, its match shape on a tile of that shape.
        earns = [
            [
                (stone.colour == colour and tile.colour == colour)
                + (stone.shape == shape and tile.shape == shape)
                for tile in tiles
            ]
            for stone in STONES
        ]
        for line_index, line in enumerate(lines):
            for backwards in orientations:
                squares = line.squares[::-1] if backwards else line.squares
                position = {sq: i for i, sq in enumerate(squares)}
                left: list[int] = []
                right: list[int] = []
                costs: list[int] = []
                for s, stone in enumerate(STONES):
                    for sq in range(len(tiles)):
                        i = position.get(sq)
                        weight = 0
                        if i is not None:
                            wanted = card.pattern[i]
                            points = (stone.colour == wanted.colour) + (stone.shape == wanted.shape)
                            if not points:
                                continue  # the pattern would not be valid on the line
                            weight = points
                        if bonus is MatchBonus.BOARD or (
                            bonus is MatchBonus.LINE and i is not None
                        ):
                            weight += earns[s][sq]
                        left.append(s)
                        right.append(sq)
                        costs.append(-weight)
                solver = linear_sum_assignment.SimpleLinearSumAssignment()
                solver.add_arcs_with_cost(left, right, costs)
                if solver.solve() != solver.OPTIMAL:  # the pattern's own stones always fit
                    raise RuntimeError(f"card {card.id}: no arrangement scores on {line.name}")
                score = -solver.optimal_cost()
                key = (score, -index, -line_index, -int(backwards))
                if best is None or key > best:
                    best = key
                    stones = [0] * len(tiles)
                    for s in range(len(STONES)):
                        stones[solver.right_mate(s)] = s
                    points = sum(
                        (STONES[stones[sq]].colour == card.pattern[i].colour)
                        + (STONES[stones[sq]].shape == card.pattern[i].shape)
                        for i, sq in enumerate(squares)
                    )
                    found = ScoreWitness(
                        card.id, line.name, points, score - points, tuple(stones), backwards
                    )
    if found is not None:
        _confirm_with_engine(found, board, card_list, phase4, bonus, direction)
    return found


def _confirm_with_engine(
    witness: ScoreWitness,
    board: Board,
    cards: Sequence[Card],
    phase4: bool,
    bonus: MatchBonus,
    direction: LineDirection,
) -> None:
    """Score the witness with the rules engine's evaluation; a disagreement is a bug."""
    card = next(c for c in cards if c.id == witness.card)
    config = RulesConfig(match_bonus=bonus, direction=direction)
    scores = evaluate_card(
        witness.stones,
        card.pattern,
        phase=4 if phase4 else 1,
        tiles=board,
        match=card.match,
        config=config,
    )
    engine = next((s.card_score for s in scores if s.line == witness.line), None)
    if engine != witness.score:
        raise RuntimeError(
            f"best score of card {card.id} on {witness.line}: {witness.score}, but the rules"
            f" engine scores that arrangement {engine}"
        )
