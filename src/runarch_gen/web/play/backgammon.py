"""Vrhcáby on the play page: the board from the seat's side, the dice, the cube, the match
score, moves made checker by checker to legal destinations only, and a hint.

A play is one action of the engine (every checker a roll moves). The page lets a person move
one checker at a time: :func:`move_graph` lists, from the position and the dice in the seat's
observation, every order of single steps that ends in one of the legal plays, merged where
two orders reach the same position — so every destination the page offers leads to a legal
play, and the last step names that play's action.

>>> from runarch_gen.backgammon.board import START
>>> graph = move_graph(START, START, (3, 1), False, {})
>>> sorted({(a, b) for a, b, _, _ in graph[0]["edges"]})[:4]
[(6, 3), (6, 5), (8, 5), (8, 7)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from runarch_gen.backgammon.board import BAR, OFF, Side, apply_step, pip_count
from runarch_gen.backgammon.engine import (
    SIDES,
    BackgammonGame,
    BackgammonObservation,
    BackgammonState,
    Phase,
)
from runarch_gen.play.game import Game, State
from runarch_gen.web.play.view import RecordFile, Renderer

__all__ = ["BackgammonView", "move_graph"]

Node = dict[str, Any]


def move_graph(
    me: Side,
    you: Side,
    dice: tuple[int, int],
    egyptian: bool,
    plays: Mapping[tuple[Side, Side], str],
    needed: int | None = None,
) -> list[Node]:
    """The single steps that lead to the legal plays (``plays``: each play's resulting position
    with its action's text; ``needed``: the steps every legal play takes, all the dice by
    default), as nodes ``{"edges": [(from, to, hit, child), …], "action": text or None}``;
    node 0 is the position now. Points are the mover's (25 the bar, 0 off). With ``plays``
    empty every position the dice reach is kept (for tests and examples)."""
    high, low = dice
    remaining = (high,) * 4 if high == low else (high, low)
    if needed is None:
        needed = len(remaining)
    nodes: list[Node] = []
    index: dict[tuple[Side, Side, tuple[int, ...]], int | None] = {}

    def visit(mover: Side, other: Side, rest: tuple[int, ...], used: int) -> int | None:
        key = (mover, other, rest)
        if key in index:
            return index[key]
        index[key] = None  # no cycles: each step uses a die
        action = None
        if used == needed:
            action = plays.get((mover, other)) if plays else ""
        edges: list[tuple[int, int, int, int]] = []
        if used < needed:
            for die in sorted(set(rest), reverse=True):
                left = list(rest)
                left.remove(die)
                for start in range(BAR, 0, -1):
                    if not mover[start]:
                        continue
                    moved = apply_step(mover, other, start, die, egyptian)
                    if moved is None:
                        continue
                    child = visit(moved[0], moved[1], tuple(left), used + 1)
                    if child is not None:
                        edges.append((start, moved[2].end, int(moved[2].hit), child))
        if action is None and not edges:
            return None
        found = len(nodes)
        nodes.append({"edges": edges, "action": action or None})
        index[key] = found
        return found

    root = visit(me, you, remaining, 0)
    if root is None:
        return []
    # Node 0 is the root: the search numbers children first, so renumber.
    order = [root] + [n for n in range(len(nodes)) if n != root]
    new = {old: i for i, old in enumerate(order)}
    return [
        {
            "edges": [(a, b, h, new[c]) for a, b, h, c in nodes[old]["edges"]],
            "action": nodes[old]["action"],
        }
        for old in order
    ]


class BackgammonView(Renderer):
    kind = "backgammon"

    def sides(self, game: Game[Any]) -> tuple[str, ...]:
        return SIDES

    def players(self, registration: Any, values: Mapping[str, Any]) -> tuple[int, tuple[str, ...]]:
        return 2, SIDES

    def view(
        self, game: Game[Any], observation: Any, seat: int, memory: dict[str, Any]
    ) -> dict[str, Any]:
        assert isinstance(observation, BackgammonObservation)
        obs = observation
        me, you = obs.me, obs.you
        owner = {-1: "middle", 0: "me", 1: "you"}[obs.cube_owner]
        return {
            "kind": self.kind,
            "my_side": SIDES[seat],
            "points": [{"point": p, "mine": me[p], "theirs": you[BAR - p]} for p in range(1, BAR)],
            "bar": {"mine": me[BAR], "theirs": you[BAR]},
            "off": {"mine": me[OFF], "theirs": you[OFF]},
            "checkers": sum(me),
            "pips": {"mine": pip_count(me), "theirs": pip_count(you)},
            "dice": list(obs.dice) if obs.dice != (0, 0) else [],
            "on_roll": obs.on_roll + 1,
            "cube": obs.cube,
            "cube_owner": owner,
            "can_double": obs.can_double,
            "match": obs.match,
            "score": {"mine": obs.score[0], "theirs": obs.score[1]},
            "crawford": obs.crawford,
            "phase": obs.phase.value,
            "resign_offer": obs.resign_offer,
        }

    def choices(
        self,
        game: Game[Any],
        observation: Any,
        seat: int,
        legal: Sequence[tuple[int, str]],
    ) -> dict[str, Any] | None:
        assert isinstance(observation, BackgammonObservation)
        obs = observation
        if obs.phase is not Phase.MOVE:
            return {"decisions": [text for _, text in legal]}
        texts = dict(legal)
        plays = {play.key: texts[action] for action, play in obs.legal if action in texts}
        steps = {len(play.steps) for _, play in obs.legal}
        graph = move_graph(obs.me, obs.you, obs.dice, obs.rules.egyptian, plays, max(steps))
        return {"moves": graph, "dice": list(obs.dice)}

    def record(
        self, game: Game[Any], state: State[Any], names: Sequence[str], tags: Mapping[str, str]
    ) -> list[RecordFile]:
        from runarch_gen.backgammon.record import write_match

        assert isinstance(state, BackgammonState)
        text = write_match(state, (names[0], names[1]))
        return [RecordFile("backgammon-record.mat", "text/plain; charset=utf-8", text)]

    def replay_command(self, game: Game[Any]) -> str:
        return "runarch-gen backgammon replay backgammon-record.mat"

    def has_hint(self, game: Game[Any]) -> bool:
        return True

    def hint(
        self, game: Game[Any], observation: Any, legal: Sequence[tuple[int, str]]
    ) -> dict[str, Any] | None:
        from runarch_gen.web.play.hints import backgammon_hint

        assert isinstance(game, BackgammonGame) and isinstance(observation, BackgammonObservation)
        return backgammon_hint(game, observation, legal)

    def has_analysis(self, game: Game[Any]) -> bool:
        return True

    def analysis(
        self, game: Game[Any], state: State[Any], seats: Sequence[int]
    ) -> dict[str, Any] | None:
        from runarch_gen.web.play.hints import backgammon_analysis

        assert isinstance(game, BackgammonGame) and isinstance(state, BackgammonState)
        return backgammon_analysis(game, state)
