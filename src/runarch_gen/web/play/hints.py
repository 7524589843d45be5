"""Vrhcáby's hint and analysis for the play page: one small adapter over the backgammon
library, so that the page does not care where the evaluation comes from.

The evaluation is the strongest registered bot's: the first of :data:`STRONGEST` that the
game registers and that exposes an evaluation. With the strong evaluator (``neural2``,
:mod:`runarch_gen.backgammon.nets`) the plays are ranked as ``backgammon hint`` ranks them
(:func:`runarch_gen.backgammon.search.rank_plays`): every legal play at 1-ply, the best few
again at 2-ply. A game whose registration has only the older network (``td2``/``td``,
:mod:`runarch_gen.backgammon.evaluator`) is ranked by it: every play at 1-ply, the best three
again with the bot's own look at the opponent's 21 rolls. Cube decisions and answers are the
bot's own choice. The analysis of a finished game compares each play with the best one at
1-ply and rates each side by its equity lost per play (gnubg's thresholds).

>>> from runarch_gen.backgammon.engine import BackgammonGame
>>> state = BackgammonGame().new_initial_state()
>>> state.apply(state.string_to_action("opening 3-1"))
>>> source, ranked = rank_plays(state.observation(0))
>>> state.action_to_string(ranked[0][0]), ranked[0][2] is not None
('8/5 6/5', True)
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any

from runarch_gen.backgammon.engine import (
    BackgammonGame,
    BackgammonObservation,
    BackgammonState,
    Phase,
)
from runarch_gen.play.bot import Bot

__all__ = ["STRONGEST", "backgammon_analysis", "backgammon_hint", "cube_advice", "rank_plays"]

STRONGEST = ("neural2", "neural", "td2", "td")
"""Bots in order of strength whose evaluation the hint may use."""
DEEPER = 3
"""The plays best at 1-ply looked at again at 2-ply."""
RATINGS = (
    (0.002, "supernatural"),
    (0.005, "world class"),
    (0.008, "expert"),
    (0.012, "advanced"),
    (0.018, "intermediate"),
    (0.026, "casual player"),
    (0.035, "beginner"),
)
"""gnubg's ratings by equity lost per move (its thresholds in millipoints, here in equity)."""
MISTAKES = 5


@functools.cache
def _strongest() -> tuple[str, Bot[Any]] | None:
    from runarch_gen.play.registry import find_registration

    bots = find_registration("backgammon").bots
    for name in STRONGEST:
        if name in bots:
            bot = bots[name](random.Random(0))
            if hasattr(bot, "evaluator") or hasattr(bot, "net"):
                return name, bot
    return None


def _strongest_name() -> str:
    found = _strongest()
    return found[0] if found is not None else ""


def _source(name: str, deep: bool) -> str:
    return f"the {name} bot's evaluator ({'1- and 2-ply' if deep else '1-ply'})"


def rank_plays(
    observation: BackgammonObservation, deep: bool = True
) -> tuple[str, list[tuple[int, float, float | None]]]:
    """The seat's legal plays best first as ``(action, equity at 1-ply, equity at 2-ply or
    None)``, and what ranked them (``deep``: the best few again at 2-ply when the bot looks so
    deep; those come first, by their 2-ply equity)."""
    from runarch_gen.backgammon.evaluator import equity

    found = _strongest()
    if found is None:
        raise LookupError("no bot of the backgammon game exposes an evaluation")
    name, bot = found
    legal = list(observation.legal)
    if not legal:
        return _source(name, False), []
    if hasattr(bot, "evaluator"):
        return _search(name, bot, observation, deep)
    net = bot.net  # type: ignore[attr-defined]
    values = -equity(net.evaluate([(play.other, play.mover) for _, play in legal]))
    order = sorted(range(len(legal)), key=lambda i: (-float(values[i]), i))
    deeper = getattr(bot, "_after_replies", None) if deep else None
    if deeper is None or len(legal) == 1:
        return _source(name, False), [(legal[i][0], float(values[i]), None) for i in order]
    bot.rules_egyptian = observation.rules.egyptian  # type: ignore[attr-defined]
    top: list[tuple[int, float, float | None]] = [
        (legal[i][0], float(values[i]), float(deeper(legal[i][1].other, legal[i][1].mover)))
        for i in order[:DEEPER]
    ]
    top.sort(key=lambda row: -(row[2] or 0.0))
    rest: list[tuple[int, float, float | None]] = [
        (legal[i][0], float(values[i]), None) for i in order[DEEPER:]
    ]
    return _source(name, True), top + rest


def _search(
    name: str, bot: Any, observation: BackgammonObservation, deep: bool
) -> tuple[str, list[tuple[int, float, float | None]]]:
    """The ranking of ``backgammon hint`` with the strong evaluator, by action."""
    from runarch_gen.backgammon.search import rank_plays as search_plays

    actions: dict[Any, list[int]] = {}
    for action, play in observation.legal:
        actions.setdefault(play.key, []).append(action)
    where = (bot.evaluator, observation.me, observation.you, observation.dice)
    egyptian = observation.rules.egyptian
    first = search_plays(*where, plies=1, egyptian=egyptian)
    values = {row.play.key: row.equity for row in first}
    deep = deep and bot.plies >= 2 and len(first) > 1
    ranked = search_plays(*where, plies=2, egyptian=egyptian) if deep else first
    rows: list[tuple[int, float, float | None]] = []
    for row in ranked:
        key = row.play.key
        for action in actions.get(key, []):
            rows.append((action, values[key], row.equity if row.ply == 2 else None))
    return _source(name, deep), rows


def cube_advice(observation: BackgammonObservation, legal: Sequence[int]) -> tuple[str, int]:
    """What the strongest bot would do at a cube decision (or an answer), and its name."""
    found = _strongest()
    if found is None:
        raise LookupError("no bot of the backgammon game exposes an evaluation")
    name, bot = found
    return f"the {name} bot", bot.step(observation, legal)


def backgammon_hint(
    game: BackgammonGame, observation: BackgammonObservation, legal: Sequence[tuple[int, str]]
) -> dict[str, Any]:
    """The hint for the seat to move: every play ranked, or the cube decision advised."""
    del game
    texts = dict(legal)
    if observation.phase is Phase.MOVE:
        source, ranked = rank_plays(observation)
        best_deep = max((deep for _, _, deep in ranked if deep is not None), default=0.0)
        best_one = max((one for _, one, _ in ranked), default=0.0)
        plays = []
        for action, one, deep in ranked:
            # A play is compared with the best one looked at as deeply.
            value, best = (deep, best_deep) if deep is not None else (one, best_one)
            plays.append(
                {
                    "action": texts[action],
                    "equity": round(value, 4),
                    "loss": round(best - value, 4),
                    "plies": 1 if deep is None else 2,
                }
            )
        return {"source": source, "bot": _strongest_name(), "plays": plays}
    source, action = cube_advice(observation, [a for a, _ in legal])
    return {
        "source": source,
        "bot": _strongest_name(),
        "plays": [],
        "decision": texts.get(action, str(action)),
    }


def _rating(error: float) -> str:
    return next((name for limit, name in RATINGS if error < limit), "awful")


def backgammon_analysis(game: BackgammonGame, state: BackgammonState) -> dict[str, Any]:
    """Each side's plays against the best one at 1-ply, over the whole finished game."""
    from runarch_gen.backgammon.board import format_steps

    replay = game.new_initial_state()
    totals = [[0, 0.0], [0, 0.0]]
    mistakes: list[dict[str, Any]] = []
    source = ""
    for action in state.history():
        mover = replay.current_player()
        if replay.phase is Phase.MOVE and len(replay.legal_actions()) > 1:
            observation = replay.observation(mover)
            source, ranked = rank_plays(observation, deep=False)
            values = {a: one for a, one, _ in ranked}
            best = max(values, key=lambda a: values[a])
            loss = values[best] - values[action]
            totals[mover][0] += 1
            totals[mover][1] += loss
            plays = dict(observation.legal)
            mistakes.append(
                {
                    "side": ("white", "black")[mover],
                    "dice": f"{replay.dice[0]}{replay.dice[1]}",
                    "played": format_steps(plays[action].steps),
                    "best": format_steps(plays[best].steps),
                    "loss": round(loss, 3),
                }
            )
        replay.apply(action)
    mistakes.sort(key=lambda m: -m["loss"])
    sides = []
    for side, (moves, lost) in zip(("white", "black"), totals, strict=True):
        per_move = lost / moves if moves else 0.0
        sides.append(
            {
                "side": side,
                "moves": moves,
                "error": round(lost, 4),
                "error_per_move": round(per_move, 4),
                "rating": _rating(per_move) if moves else "",
            }
        )
    return {
        "source": source,
        "bot": _strongest_name(),
        "sides": sides,
        "mistakes": [m for m in mistakes[:MISTAKES] if m["loss"] > 0],
    }
