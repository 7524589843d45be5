"""Match records in the Jellyfish ``.mat`` text that gnubg imports (rule [V-54]), written from
a played state and read back by replaying every action through the engine.

::

    ; [Rules "backgammon(match=3)"]
     3 point match

     Game 1
     white : 0                          black : 0
      1) 31: 8/5 6/5                    64: 24/18 18/14
      2)  Doubles => 2                   Takes
      ...
                                          Wins 1 point

White is the left column, black the right. Plays are written as Jellyfish files write them,
one move per die with the bar as 25 and off as 0 (``44: 13/9 9/5 8/4* 8/4``); the reader also
takes the standard notation (``13/5``, ``bar/22``, ``6/off``, ``(2)``). A roll that cannot be
played is the roll alone (``66:``); an automatic double of a tied opening roll is
``Auto-doubles => 2`` ([V-36]).

>>> import random
>>> from runarch_gen.backgammon.engine import BackgammonGame
>>> from runarch_gen.backgammon.rules import Rules
>>> from runarch_gen.play.game import sample_chance
>>> state = BackgammonGame(Rules(match=1)).new_initial_state()
>>> rng = random.Random(4)
>>> while not state.is_terminal():
...     if state.is_chance_node():
...         state.apply(sample_chance(state, rng))
...     else:
...         state.apply(rng.choice(list(state.legal_actions())))
>>> again = read_match(write_match(state))
>>> again[-1].score == state.score and again[-1].games == state.games
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from runarch_gen.backgammon.board import Step
from runarch_gen.backgammon.engine import (
    ACCEPT,
    BEAVER,
    DECISION_NAMES,
    DOUBLE,
    DROP,
    OPENING_BASE,
    PLAY_BASE,
    RACCOON,
    REJECT,
    RESIGN_SINGLE,
    ROLL,
    TAKE,
    BackgammonGame,
    BackgammonState,
    Phase,
)
from runarch_gen.backgammon.errors import NotationError
from runarch_gen.backgammon.notation import parse_dice
from runarch_gen.backgammon.rules import BACKGAMMON_TYPE, rules_from_values
from runarch_gen.errors import InputError
from runarch_gen.play.registry import parse_game_string

__all__ = ["mat_play", "read_match", "write_match"]

COLUMN = 34
MAX_RECORD_LINES = 200_000
_KIND = {1: "single", 2: "gammon", 3: "backgammon"}


@dataclass(slots=True)
class _Game:
    number: int
    scores: tuple[int, int]
    events: list[tuple[int, str]]


def mat_play(dice: tuple[int, int], steps: tuple[Step, ...]) -> str:
    """A play as Jellyfish files write it: every die's move on its own, the bar 25, off 0,
    hits starred, in the order played (``44: 13/9 9/5 8/4* 8/4``).

    >>> mat_play((6, 1), (Step(25, 6, 19, False), Step(19, 1, 18, True)))
    '61: 25/19 19/18*'
    """
    moves = " ".join(f"{s.start}/{s.end}{'*' if s.hit else ''}" for s in steps)
    return f"{dice[0]}{dice[1]}: {moves}" if moves else f"{dice[0]}{dice[1]}:"


def _points(n: int) -> str:
    return f"{n} point" + ("s" if n != 1 else "")


def write_match(state: BackgammonState, names: tuple[str, str] = ("white", "black")) -> str:
    """The record of ``state`` (a finished or unfinished money game or match)."""
    game = state.game
    replay = game.new_initial_state()
    games: list[_Game] = [_Game(1, (0, 0), [])]
    for action in state.history():
        phase, turn = replay.phase, replay.current_player()
        current = games[-1]
        played = len(replay.games)
        if phase is Phase.OPENING:
            white, black = divmod(action - OPENING_BASE, 10)
            if white == black:
                before = replay.cube
                replay.apply(action)
                if replay.cube != before:
                    current.events.append((0, f" Auto-doubles => {replay.cube}"))
                continue
            replay.apply(action)
            if replay.phase is not Phase.MOVE:  # the opening roll could not be played
                current.events.append((replay.opener, f"{replay.dice[0]}{replay.dice[1]}:"))
        elif phase is Phase.ROLL:
            mover = replay.turn
            replay.apply(action)
            if replay.phase is not Phase.MOVE or replay.turn != mover:
                current.events.append((mover, f"{action // 10}{action % 10}:"))
        elif phase is Phase.MOVE:
            dice = replay.dice
            play = replay._legal_plays()[action]
            current.events.append((turn, mat_play(dice, play.steps)))
            replay.apply(action)
        else:
            before = replay.cube
            replay.apply(action)
            if action == DOUBLE:
                text = f" Doubles => {before * 2}"
            elif action == TAKE and phase is Phase.DOUBLED:
                text = " Takes"
            elif action == TAKE:
                text = " Accepts"
            elif action == DROP:
                text = " Drops"
            elif action == BEAVER:
                text = f" Beavers => {replay.cube}"
            elif action == RACCOON:
                text = f" Raccoons => {replay.cube}"
            elif RESIGN_SINGLE <= action <= RESIGN_SINGLE + 2:
                text = f" Resigns {_KIND[action - RESIGN_SINGLE + 1]}"
            elif action == ACCEPT:
                text = " Accepts resignation"
            elif action == REJECT:
                text = " Rejects resignation"
            else:
                continue
            if action == ROLL:
                continue
            current.events.append((turn, text))
        if len(replay.games) > played:
            record = replay.games[-1]
            current.events.append((record.winner, f"Wins {_points(record.points)}"))
            if not replay.is_terminal():
                games.append(_Game(len(games) + 1, (replay.score[0], replay.score[1]), []))
    lines = [f'; [Rules "{game}"]', f" {state.rules.match} point match", ""]
    for entry in games:
        lines.append(f" Game {entry.number}")
        left = f" {names[0]} : {entry.scores[0]}"
        lines.append(f"{left:<{COLUMN + 5}}{names[1]} : {entry.scores[1]}")
        lines.extend(_rows(entry.events))
        lines.append("")
    return "\n".join(lines) + "\n"


def _rows(events: list[tuple[int, str]]) -> list[str]:
    rows: list[list[str]] = []
    for player, text in events:
        if text.startswith("Wins"):
            pad = " " * (COLUMN + 5) if player == 1 else "      "
            rows.append(["WIN", pad + text])
            continue
        if player == 0 or not rows or rows[-1][0] == "WIN" or rows[-1][1]:
            rows.append(["", ""])
        rows[-1][player] = text
    lines = []
    number = 0
    for left, right in rows:
        if left == "WIN":
            lines.append(right)
            continue
        number += 1
        lines.append(f"{number:>3}) {left:<{COLUMN}}{right}".rstrip())
    return lines


_ROW = re.compile(r"\s*(\d+)\)(.*)\Z")
_GAME = re.compile(r"\s*Game\s+(\d+)\s*\Z", re.IGNORECASE)
_RULES = re.compile(r';\s*\[Rules\s+"([^"]*)"\]')
_LENGTH = re.compile(r"\s*(\d+)\s+point\s+match\s*\Z", re.IGNORECASE)


def _split_row(content: str) -> tuple[str, str]:
    if content.startswith(" " * 6) or not content.strip():
        return "", content.strip()
    parts = re.split(r"\s{3,}", content.strip(), maxsplit=1)
    return parts[0], parts[1] if len(parts) > 1 else ""


def read_match(text: str, source: str = "record") -> list[BackgammonState]:
    """Replay a record: one state per game in money play, one state for a match. Bad text or
    an illegal action raises an :class:`~runarch_gen.errors.InputError` naming the line."""
    lines = text.splitlines()
    if len(lines) > MAX_RECORD_LINES:
        raise InputError(f"{source}: more than {MAX_RECORD_LINES} lines")
    rules_text = "backgammon"
    length: int | None = None
    for line in lines[:20]:
        match = _RULES.match(line.strip())
        if match:
            rules_text = match.group(1)
        found = _LENGTH.match(line)
        if found and length is None:
            length = int(found.group(1))
    name, given = parse_game_string(rules_text, source)
    if name not in ("backgammon", *BACKGAMMON_TYPE.aliases):
        raise InputError(f"{source}: the record is of {name!r}, not backgammon")
    values = BACKGAMMON_TYPE.parse_parameters(given, source)
    if length is not None:
        values["match"] = length
    game = BackgammonGame(rules_from_values(values))
    states: list[BackgammonState] = []
    state = game.new_initial_state()
    started = False
    for number, line in enumerate(lines, 1):
        where = f"{source}:{number}"
        if _GAME.match(line):
            if started and game.rules.money:
                states.append(state)
                state = game.new_initial_state()
            started = True
            continue
        row = _ROW.match(line)
        if row is None:
            stripped = line.strip()
            if stripped.startswith("Wins"):
                _check_win(state, stripped, where)
            continue
        left, right = _split_row(row.group(2))
        for player, event in ((0, left), (1, right)):
            if event.startswith("Wins"):
                _check_win(state, event, where)
            elif event:
                _apply_event(state, player, event, where)
    states.append(state)
    return states


def _check_win(state: BackgammonState, text: str, where: str) -> None:
    found = re.match(r"Wins\s+(\d+)\s+points?", text)
    if found is None or not state.games:
        raise InputError(f"{where}: unexpected {text[:40]!r}")
    if state.games[-1].points != int(found.group(1)):
        raise InputError(
            f"{where}: the record says {text[:40]!r} but the game scored {state.games[-1].points}"
        )


def _apply_event(state: BackgammonState, player: int, text: str, where: str) -> None:
    words = text.strip()
    lowered = words.lower()
    try:
        if re.match(r"[1-6][1-6]:", words):
            _apply_roll(state, player, words, where)
            return
        if lowered.startswith("auto-doubles"):
            # replayed as a tied opening roll; ties that doubled nothing are not recorded
            if state.phase is not Phase.OPENING:
                raise InputError(f"{where}: an automatic double belongs before the opening roll")
            before = state.cube
            state.apply(OPENING_BASE + 11)
            if state.cube == before:
                raise InputError(f"{where}: no automatic double is allowed here")
            return
        mapping = {
            "doubles": DOUBLE,
            "takes": TAKE,
            "accepts": TAKE,
            "drops": DROP,
            "passes": DROP,
            "beavers": BEAVER,
            "raccoons": RACCOON,
            "rejects resignation": REJECT,
            "accepts resignation": ACCEPT,
        }
        action = None
        for key, value in mapping.items():
            if lowered.startswith(key):
                action = value
        if lowered.startswith("accepts resignation"):
            action = ACCEPT
        if lowered.startswith("resigns"):
            kind = lowered.split()[-1]
            levels = {name: level for level, name in _KIND.items()}
            if kind not in levels:
                raise InputError(f"{where}: resigns single, gammon or backgammon")
            action = RESIGN_SINGLE + levels[kind] - 1
        if action is None:
            raise InputError(f"{where}: not a record entry: {words[:40]!r}")
        if state.phase is Phase.ROLL and action == DOUBLE:
            raise InputError(f"{where}: a double is only possible before the roll")
        if state.current_player() != player:
            raise InputError(f"{where}: it is not {('white', 'black')[player]}'s turn")
        if action not in state.legal_actions():
            raise InputError(f"{where}: {DECISION_NAMES[action]} is not legal here")
        state.apply(action)
    except InputError as exc:
        if str(exc).startswith(where):
            raise
        raise InputError(f"{where}: {exc}") from None


def _to_move(state: BackgammonState) -> bool:
    return state.phase is Phase.MOVE


def _apply_roll(state: BackgammonState, player: int, text: str, where: str) -> None:
    roll, _, moves = text.partition(":")
    first, second = parse_dice(roll, where)
    if state.phase is Phase.OPENING:
        if first == second:
            raise NotationError("an opening roll is two different dice", source=where)
        white, black = (first, second) if player == 0 else (second, first)
        if (white > black) != (player == 0):
            raise InputError(f"{where}: the opening roll {roll} does not start with this side")
        state.apply(OPENING_BASE + 10 * white + black)
    else:
        if state.phase is Phase.PRE_ROLL:
            if state.current_player() != player:
                raise InputError(f"{where}: it is not {('white', 'black')[player]}'s turn")
            state.apply(ROLL)
        if state.phase is not Phase.ROLL or state.turn != player:
            raise InputError(f"{where}: it is not {('white', 'black')[player]}'s roll")
        state.apply(10 * max(first, second) + min(first, second))
    if _to_move(state):
        action = state.string_to_action(moves)
        if action < PLAY_BASE:
            raise InputError(f"{where}: expected a play")
        state.apply(action)
    elif moves.strip():
        raise InputError(f"{where}: the roll {roll} cannot be played, yet moves are given")
