"""Records of any registered game whose chance is explicit: the game string and every action,
chance included, one per line — so a record replays with no seed and no game code of its own.

The header holds ``[Game "bluff(players=3)"]`` (a game string: it never names a file) and,
when the game is over, ``[Result "…"]`` and ``[Termination "…"]``; tags such as ``Bots`` and
``Seed`` say how the game was made. Each body line is ``N. WHO TEXT``: the action's number,
``chance`` or the player (``p1``, ``p2`` …) and the action's text in its position, which
:func:`replay_record` looks up among the actions legal there, or else reads with the game's
own notation (``string_to_action``: ``11x3`` for ``11×3``). A line that does not fit is refused
naming the record's line: malformed, or not legal there (with what was legal). A
:class:`GameRecord` is such a record: the game, the state its actions reach and the tags.

>>> import random
>>> from tests.toy_game import PigGame, PigRules
>>> game = PigGame(PigRules(target=4))
>>> state = game.new_initial_state()
>>> rng = random.Random(3)
>>> while not state.is_terminal():
...     state.apply(rng.choice(list(state.legal_actions())))
>>> text = write_record(game, state)
>>> print(text.splitlines()[0]); print(text.splitlines()[4])
[Game "pig(target=4)"]
1. p1 roll
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from runarch_gen.errors import InputError, ParseError
from runarch_gen.play.game import ChanceMode, Game, IllegalActionError, State
from runarch_gen.play.record import format_record, split_record

__all__ = ["GameRecord", "ReplayedGame", "replay_record", "who", "write_record"]

_LINE = re.compile(r"([0-9]{1,9})\.\s+(chance|p[0-9]{1,2})\s+(\S.*)\Z")
SHOWN_LEGAL = 8
"""Legal actions an error lists at most."""


def who(state: State[Any]) -> str:
    """``chance`` or ``pN``: who acts in ``state``."""
    return "chance" if state.is_chance_node() else f"p{state.current_player() + 1}"


@dataclass(frozen=True, slots=True)
class GameRecord:
    """The record of a game: the game, the state its actions reach (its history is the
    record's body), the tags that say how it was made, and how many actions it holds.

    :meth:`text` writes it; :func:`replay_record` reads one back, checking every action.
    """

    game: Game[Any]
    state: State[Any]
    tags: dict[str, str]
    actions: int

    @classmethod
    def of(
        cls, game: Game[Any], state: State[Any], tags: Iterable[tuple[str, str]] = ()
    ) -> GameRecord:
        return cls(game, state, dict(tags), len(state.history()))

    def text(self) -> str:
        """The record as text: its history replayed from the initial state, each action
        written with its text in its position."""
        replay = self.game.new_initial_state()
        lines = []
        for number, action in enumerate(self.state.history(), start=1):
            lines.append(f"{number}. {who(replay)} {replay.action_to_string(action)}")
            replay.apply(action)
        header = [("Game", str(self.game)), *self.tags.items()]
        outcome = replay.outcome()
        if outcome is not None:
            header += [("Result", outcome.result()), ("Termination", outcome.termination.value)]
        return format_record(header, lines)

    def to_json(self) -> dict[str, Any]:
        outcome = self.state.outcome()
        return {
            "game": str(self.game),
            "actions": self.actions,
            "over": self.state.is_terminal(),
            "to_move": None if self.state.is_terminal() else who(self.state),
            "result": None if outcome is None else outcome.result(),
            "termination": None if outcome is None else outcome.termination.value,
            "winners": None if outcome is None else [f"p{w + 1}" for w in outcome.winners],
            "totals": None if outcome is None else list(outcome.totals),
            "tags": dict(self.tags),
        }

    def lines(self) -> list[str]:
        out = [f"{self.game}: {self.actions} actions replayed, every one legal"]
        outcome = self.state.outcome()
        if outcome is None:
            out.append(f"the game goes on: {who(self.state)} to act")
        else:
            winners = ", ".join(f"p{w + 1}" for w in outcome.winners) or "nobody"
            totals = " ".join(map(str, outcome.totals))
            out.append(
                f"over: {outcome.termination.value}, result {outcome.result()},"
                f" won by {winners} (totals {totals})"
            )
        return out


ReplayedGame = GameRecord
"""What :func:`replay_record` returned under its earlier name."""


def write_record(
    game: Game[Any], state: State[Any], *, tags: Iterable[tuple[str, str]] = ()
) -> str:
    """The record of ``state``, a game of ``game``, so far (see :meth:`GameRecord.text`)."""
    return GameRecord.of(game, state, tags).text()


def replay_record(
    text: str, find: Callable[[str], Game[Any]], *, source: str | None = None
) -> GameRecord:
    """Replay a record written by :func:`write_record` action by action, its game found by
    ``find`` (the registry's ``find_game``); the first line that is not a legal action in its
    position raises a :class:`ParseError` naming it (and what was legal). A ``Result`` tag
    must be the result the actions give."""
    record = split_record(text, source)
    game_string = record.require("Game")
    line = record.tag_lines["Game"]
    try:
        game = find(game_string)
    except InputError as exc:
        raise record.error(f"[Game]: {exc}", line) from None
    if game.game_type.chance_mode is ChanceMode.SAMPLED:
        raise record.error(
            f"{game.game_type.short_name} records have a format of their own"
            f" (runarch-gen {game.game_type.short_name} replay)",
            line,
        )
    state = game.new_initial_state()
    count = 0
    limit = game.info.max_game_length
    for number, body in record.body:
        match = _LINE.match(body)
        if match is None:
            raise record.error(f"expected 'N. WHO ACTION', not {body[:40]!r}", number)
        count += 1
        if int(match.group(1)) != count:
            raise record.error(f"action {match.group(1)} where action {count} comes", number)
        if count > limit:
            raise record.error(f"more than the {limit} actions a game can take", number)
        if state.is_terminal():
            raise record.error("the game is over: no more actions", number)
        acting, wanted = who(state), match.group(3).strip()
        if match.group(2) != acting:
            raise record.error(f"{match.group(2)} acts here, but it is {acting}'s turn", number)
        legal = list(state.legal_actions())
        action = next((a for a in legal if state.action_to_string(a) == wanted), None)
        if action is None:
            # any spelling the game's notation reads (its own string_to_action); a malformed
            # text and a well-formed one not allowed here are told apart
            try:
                action = state.string_to_action(wanted)
            except IllegalActionError as exc:
                shown = ", ".join(state.action_to_string(a) for a in legal[:SHOWN_LEGAL])
                more = " …" if len(legal) > SHOWN_LEGAL else ""
                raise record.error(
                    f"{wanted[:40]!r} is not legal for {acting} here: {exc.reason}"
                    f" (legal: {shown}{more})",
                    number,
                ) from None
            except ParseError as exc:
                raise record.error(f"{wanted[:40]!r} is malformed: {exc}", number) from None
        state.apply(action)
    outcome = state.outcome()
    given = record.tags.get("Result")
    if given is not None:
        actual = "*" if outcome is None else outcome.result()
        if given != actual:
            raise record.error(
                f"[Result] says {given[:20]}, the actions give {actual}", record.tag_lines["Result"]
            )
    return GameRecord(game, state, dict(record.tags), count)
