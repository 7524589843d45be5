"""Hints and game analysis with the strong evaluator, as gnubg gives them.

- :func:`hint_report`: every legal play of a roll ranked best first with the mover's
  chances (win, gammon, backgammon won and lost), cubeless equity and — when a Match ID gives
  the cube or the score — the cubeful equity (money) or match winning chance (match); before
  the roll, the cube hint (no double, double/take, double/pass, too good) with the equities
  behind it.
- :func:`analyze_record`: each player's error per move and per cube decision in millipoints
  (the equity lost against the best choice, × 1000), gnubg's rating words, and the blunders
  with the better play.

Move errors are in cubeless money equity (one point a game); cube errors in money equity per
unit of the cube, or in a match the loss of match winning chance expressed as money equity
(gnubg's "EMG": one point won is +1, one point lost −1).

>>> report = hint_report("4HPwATDgc/ABMA", "31", bot="neural")
>>> report["plays"][0]["play"]
'8/5 6/5'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from runarch_gen.backgammon.board import Side, format_steps
from runarch_gen.backgammon.cube import (
    CubeContext,
    CubeDecision,
    cube_decision,
    match_equity,
)
from runarch_gen.backgammon.errors import NotationError
from runarch_gen.backgammon.ids import MatchInfo, parse_match_id, position_id
from runarch_gen.backgammon.nets import Evaluator, equity, load_evaluator, swap
from runarch_gen.backgammon.notation import parse_dice
from runarch_gen.backgammon.search import RankedPlay, position_chances, rank_plays, replies_chances
from runarch_gen.errors import InputError

if TYPE_CHECKING:
    from runarch_gen.backgammon.engine import BackgammonState

__all__ = [
    "HINT_BOTS",
    "RATINGS",
    "CubeContext",
    "analyze_record",
    "cube_hint",
    "hint_report",
    "rating",
]

HINT_BOTS = {"neural": 1, "neural2": 2}
"""The bots that give equities, with the plies of their search."""

RATINGS: tuple[tuple[float, str], ...] = (
    (2.0, "supernatural"),
    (5.0, "world class"),
    (8.0, "expert"),
    (12.0, "advanced"),
    (18.0, "intermediate"),
    (26.0, "casual player"),
    (35.0, "beginner"),
    (float("inf"), "awful"),
)
"""gnubg's rating words by error rate (millipoints a move), below each limit."""

DOUBTFUL, BAD, VERY_BAD = 0.04, 0.08, 0.16
"""gnubg's thresholds of a doubtful, bad and very bad choice (money equity)."""


def rating(millipoints: float) -> str:
    """gnubg's word for an error rate.

    >>> rating(3.0), rating(11.9), rating(40.0)
    ('world class', 'advanced', 'awful')
    """
    return next(word for limit, word in RATINGS if millipoints < limit)


def cubeful_value(chances: np.ndarray, context: CubeContext) -> float:
    """The cubeful value for the player on roll before his roll: money equity in points
    (the cube's value included) or match winning chance, his best cube action taken and
    answered rightly."""
    decision = cube_decision(chances, context)
    value = decision.no_double
    if context.may_double and decision.double:
        value = min(decision.double_take, decision.double_pass)
    return value if context.match else value * context.cube


def _chances_row(chances: np.ndarray) -> dict[str, float]:
    return {
        "win": round(float(chances[0]), 4),
        "win_gammon": round(float(chances[1]), 4),
        "win_backgammon": round(float(chances[2]), 4),
        "lose_gammon": round(float(chances[3]), 4),
        "lose_backgammon": round(float(chances[4]), 4),
    }


def _parse(position: str, source: str | None) -> tuple[Side, Side, MatchInfo | None]:
    from runarch_gen.backgammon.tools import parse_position

    text = position.strip()
    position_text, _, match_text = text.partition(":")
    mover, other = parse_position(position_text, source)
    info = parse_match_id(match_text, source) if match_text else None
    return mover, other, info


def _evaluator_and_plies(bot: str) -> tuple[Evaluator, int]:
    if bot not in HINT_BOTS:
        raise InputError(f"--bot: hints come from {', '.join(sorted(HINT_BOTS))}, not {bot[:30]!r}")
    return load_evaluator(), HINT_BOTS[bot]


def rank_report(ranked: list[RankedPlay], context: CubeContext | None) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    best = ranked[0].equity if ranked else 0.0
    for item in ranked:
        row: dict[str, Any] = {
            "play": format_steps(item.play.steps),
            "position": position_id(item.play.mover, item.play.other),
            "equity": round(item.equity, 4),
            "difference": round(item.equity - best, 4),
            **_chances_row(item.chances),
            "ply": item.ply,
        }
        if context is not None:
            # after the play the opponent is on roll with his own cube choices
            theirs = cubeful_value(swap(item.chances), context.opponent())
            if context.match:
                row["match_winning_chance"] = round(1.0 - theirs, 4)
            else:
                row["cubeful_equity"] = round(-theirs, 4)
        rows.append(row)
    if context is not None and rows:
        key = "match_winning_chance" if context.match else "cubeful_equity"
        # the plays looked at more deeply first, as gnubg lists them
        order = sorted(range(len(rows)), key=lambda i: (-rows[i]["ply"], -rows[i][key], i))
        rows = [rows[i] for i in order]
        top = rows[0][key]
        for row in rows:
            row["difference"] = round(row[key] - top, 4)
    return rows


def cube_hint(
    mover: Side, other: Side, context: CubeContext, evaluator: Evaluator, plies: int
) -> dict[str, Any]:
    """The cube hint before the roll: the decision and the equities behind it."""
    chances = position_chances(evaluator, mover, other, plies=max(plies - 1, 0) + 1)
    decision = cube_decision(chances, context)
    scale = 1.0 if context.match else float(context.cube)
    return {
        "action": decision.action,
        "take": decision.take,
        "no_double": round(decision.no_double * scale, 4),
        "double_take": round(decision.double_take * scale, 4),
        "double_pass": round(decision.double_pass * scale, 4),
        "units": "match winning chance" if context.match else "money equity",
        "may_double": context.may_double,
        "cubeless_equity": round(float(equity(chances)), 4),
        **_chances_row(chances),
    }


def hint_report(
    position: str, dice: str | None = None, bot: str = "neural2", source: str | None = None
) -> dict[str, Any]:
    """The hint for ``POSITION[:MATCH_ID]``: with dice (given, or in the Match ID) every
    legal play ranked; without, the cube hint."""
    evaluator, plies = _evaluator_and_plies(bot)
    mover, other, info = _parse(position, source)
    context = CubeContext.from_match(info) if info is not None else None
    roll: tuple[int, int] | None = None
    if dice:
        roll = parse_dice(dice, source)
    elif info is not None and info.dice != (0, 0):
        roll = info.dice
    report: dict[str, Any] = {
        "position": position_id(mover, other),
        "bot": bot,
        "plies": plies,
    }
    if info is not None:
        report["match"] = {"length": info.length, "away": list(context.away) if context else None,
                           "cube": info.cube, "jacoby": info.jacoby}  # fmt: skip
    if roll is None:
        report["cube"] = cube_hint(mover, other, context or CubeContext(), evaluator, plies)
        return report
    ranked = rank_plays(evaluator, mover, other, roll, plies=plies)
    report["dice"] = list(roll)
    report["plays"] = rank_report(ranked, context)
    return report


def batch_hint(lines: list[str], source: str, bot: str) -> Any:
    """:func:`hint_report` of each line ``POSITION[:MATCH_ID] [DICE]`` (as ``moves --batch``
    reads them; without dice the cube hint); a bad line gives an error object."""
    from runarch_gen.backgammon.tools import batch_lines

    _evaluator_and_plies(bot)

    def handle(words: list[str], where: str) -> dict[str, Any]:
        if len(words) > 2:
            raise NotationError(
                "expected POSITION_ID[:MATCH_ID] [DICE], e.g. 4HPwATDgc/ABMA 31", source=where
            )
        return hint_report(words[0], words[1] if len(words) == 2 else None, bot, where)

    return batch_lines(lines, source, handle)


# -- analysis of a record ---------------------------------------------------------------


@dataclass(slots=True)
class _Tally:
    moves: int = 0
    move_error: float = 0.0
    cube_decisions: int = 0
    cube_error: float = 0.0
    blunders: list[dict[str, Any]] = field(default_factory=list)

    def note(self, error: float, where: dict[str, Any], played: str, best: str) -> None:
        if error >= BAD:
            kind = "very bad" if error >= VERY_BAD else "bad"
            self.blunders.append(
                {**where, "played": played, "best": best, "error": round(error, 4), "kind": kind}
            )


def _move_error(
    state: BackgammonState, action: int, evaluator: Evaluator, plies: int
) -> tuple[float, str, str]:
    """The equity a play lost against the best one (both looked at as deeply)."""
    mover, other = state.board[state.turn], state.board[1 - state.turn]
    chosen = state._legal_plays()[action]
    ranked = rank_plays(evaluator, mover, other, state.dice, plies, state.rules.egyptian)
    best = ranked[0]
    mine = next(r for r in ranked if r.play.key == chosen.key)
    value = mine.equity
    if mine.ply < best.ply:  # look at the play as deeply as the best one
        deeper = replies_chances(evaluator, [(chosen.other, chosen.mover)], state.rules.egyptian)
        value = float(equity(deeper[0]))
    return max(best.equity - value, 0.0), format_steps(chosen.steps), format_steps(best.play.steps)


def analyze_record(text: str, source: str = "record", bot: str = "neural2") -> dict[str, Any]:
    """Each player's error rates over every game of a ``.mat`` record (see the module)."""
    from runarch_gen.backgammon.engine import DOUBLE, DROP, ROLL, TAKE, Phase
    from runarch_gen.backgammon.record import read_match

    evaluator, plies = _evaluator_and_plies(bot)
    states = read_match(text, source)
    tallies = [_Tally(), _Tally()]
    for record_index, final in enumerate(states):
        replay = final.game.new_initial_state()
        for action in final.history():
            phase, player = replay.phase, replay.current_player()
            where = {
                "game": len(replay.games) + record_index + 1,
                "position": replay.position_id(),
            }
            tally = tallies[player] if player in (0, 1) else None
            if tally is None:
                pass
            elif phase is Phase.MOVE and len(replay.legal_actions()) > 1:
                error, played, best = _move_error(replay, action, evaluator, plies)
                tally.moves += 1
                tally.move_error += error
                tally.note(
                    error, {**where, "dice": f"{replay.dice[0]}{replay.dice[1]}"}, played, best
                )
            elif phase is Phase.PRE_ROLL and replay.can_double() and action in (ROLL, DOUBLE):
                decision, scale = _decision_at(replay, evaluator)
                doubled = action == DOUBLE
                after = decision.double_take if decision.take else decision.double_pass
                value = after if doubled else decision.no_double
                best_value = max(decision.no_double, after)
                error = max(best_value - value, 0.0) * scale
                tally.cube_decisions += 1
                tally.cube_error += error
                tally.note(error, where, "double" if doubled else "no double", decision.action)
            elif phase is Phase.DOUBLED and action in (TAKE, DROP):
                # the doubler's decision tells the right answer: take when his value after a
                # take is at most his value after a pass
                doubler = replay.copy()
                doubler.phase = Phase.PRE_ROLL
                decision, scale = _decision_at(doubler, evaluator)
                took = action == TAKE
                error = 0.0
                if took != decision.take:
                    error = abs(decision.double_take - decision.double_pass) * scale
                tally.cube_decisions += 1
                tally.cube_error += error
                right = "take" if decision.take else "pass"
                tally.note(error, where, "take" if took else "pass", right)
            replay.apply(action)
    players: list[dict[str, Any]] = []
    for name, tally in zip(("white", "black"), tallies, strict=True):
        per_move = 1000.0 * tally.move_error / tally.moves if tally.moves else 0.0
        per_cube = 1000.0 * tally.cube_error / tally.cube_decisions if tally.cube_decisions else 0.0
        players.append(
            {
                "player": name,
                "moves": tally.moves,
                "move_error_mp": round(per_move, 1),
                "cube_decisions": tally.cube_decisions,
                "cube_error_mp": round(per_cube, 1),
                "rating": rating(per_move),
                "blunders": tally.blunders,
            }
        )
    return {"record": source, "bot": bot, "plies": plies, "players": players}


def _decision_at(state: BackgammonState, evaluator: Evaluator) -> tuple[CubeDecision, float]:
    """The cube decision of the player on roll of ``state`` (before his roll) and the scale
    that turns its units into money equity (match winning chance: gnubg's EMG)."""
    mover, other = state.board[state.turn], state.board[1 - state.turn]
    context = CubeContext.from_match(state.match_info())
    chances = position_chances(evaluator, mover, other, plies=1)
    decision = cube_decision(chances, context)
    if not context.match:
        return decision, 1.0
    model = match_equity()
    a, b = context.away
    win = model.value(a - context.cube, b)
    loss = model.value(a, b - context.cube)
    return decision, 2.0 / max(win - loss, 1e-9)
