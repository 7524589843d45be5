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

COLUMN = 28
"""The width of the left (white) column after the move number, as gnubg writes it."""
MAX_RECORD_LINES = 200_000
_KIND = {1: "single", 2: "gammon", 3: "backgammon"}


@dataclass(slots=True)
class _Game:
    number: int
    scores: tuple[int, int]
    events: list[tuple[int, str]]


def mat_play(dice: tuple[int, int], steps: tuple[Step, ...]) -> str:
    """A play as gnubg and Jellyfish files write it: every die's move on its own, the bar
    25, off 0, in gnubg's order (from the highest starting point, then the highest ending
    point), a hit starred on the first move that reaches the point.

    >>> mat_play((6, 1), (Step(25, 6, 19, False), Step(19, 1, 18, True)))
    '61: 25/19 19/18*'
    >>> mat_play((5, 4), (Step(13, 4, 9, False), Step(13, 5, 8, False)))
    '54: 13/9 13/8'
    """
    blots = {s.end for s in steps if s.hit}
    starred: set[int] = set()
    moves: list[str] = []
    for step in sorted(steps, key=lambda s: (-s.start, -s.end)):
        star = step.end in blots and step.end not in starred
        if star:
            starred.add(step.end)
        moves.append(f"{step.start}/{step.end}{'*' if star else ''}")
    text = " ".join(moves)
    return f"{dice[0]}{dice[1]}: {text}" if text else f"{dice[0]}{dice[1]}:"


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
    lines = [f'; [Rules "{game}"]', "", f" {state.rules.match} point match", ""]
    for entry in games:
        lines.append(f" Game {entry.number}")
        left = f" {names[0]} : {entry.scores[0]}"
        lines.append(f"{left:<32}{names[1]} : {entry.scores[1]}")
        lines.extend(_rows(entry.events))
        lines.append("")
    return "\n".join(lines) + "\n"


def _rows(events: list[tuple[int, str]]) -> list[str]:
    rows: list[list[str]] = []
    for player, text in events:
        if text.startswith("Wins"):
            if player == 1 and rows and rows[-1][0] not in ("", "WIN") and not rows[-1][1]:
                rows[-1][1] = " " + text  # after white's drop, on its row, as gnubg writes it
                continue
            pad = " " * (COLUMN + 6) if player == 1 else "      "
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
        lines.append(f"{number:>3}) {left:<{COLUMN - 1}} {right}".rstrip())
    return lines


_ROW = re.compile(r"\s*(\d+)\)(.*)\Z")
_GAME = re.compile(r"\s*Game\s+(\d+)\s*\Z", re.IGNORECASE)
_RULES = re.compile(r';\s*\[Rules\s+"([^"]*)"\]')
_LENGTH = re.compile(r"\s*(\d+)\s+point\s+match\s*\Z", re.IGNORECASE)


_ENTRY = re.compile(
    r"(?:(?<=\s)|^)(?:[1-6][1-6]:|(?:doubles|takes|drops|passes|wins|beavers|raccoons|resigns"
    r"|accepts|rejects|auto-doubles)\b)",
    re.IGNORECASE,
)


def _split_row(content: str) -> tuple[str, str]:
    """White's and black's entries of a numbered row (``content`` after ``12)``): black's
    starts where a second entry (a roll ``42:`` or a word such as ``Doubles``) begins;
    a row that opens with six spaces has black's entry alone."""
    if content.startswith(" " * 6) or not content.strip():
        return "", content.strip()
    text = content.strip()
    starts = [m.start() for m in _ENTRY.finditer(text)]
    if len(starts) >= 2:
        return text[: starts[1]].strip(), text[starts[1] :].strip()
    return text, ""


def read_match(text: str, source: str = "record") -> list[BackgammonState]:
    """Replay a record: one state per game in money play, one state for a match. Bad text or
    an illegal action raises an :class:`~runarch_gen.errors.InputError` naming the line."""
    lines = text.splitlines()
    if len(lines) > MAX_RECORD_LINES:
        raise InputError(f"{source}: more than {MAX_RECORD_LINES} lines")
    if not any(line.strip() for line in lines):
        raise InputError(f"{source}:1: an empty file is not a match record")
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
            elif not _other_line(stripped):
                raise InputError(f"{where}: not a line of a match record: {stripped[:40]!r}")
            continue
        left, right = _split_row(row.group(2))
        for player, event in ((0, left), (1, right)):
            if event.startswith("Wins"):
                _check_win(state, event, where)
            elif event:
                _apply_event(state, player, event, where)
    if not started:
        first = next(n for n, line in enumerate(lines, 1) if line.strip())
        raise InputError(f"{source}:{first}: no 'Game 1' line: not a match record")
    states.append(state)
    return states


_PLAYERS = re.compile(r"\S.*\s:\s*\d+\s+\S.*\s:\s*\d+\s*\Z")


def _other_line(text: str) -> bool:
    """Lines of a record that carry nothing to replay: blank, comments, the match length,
    the players with their scores."""
    return (
        not text
        or text.startswith(";")
        or _LENGTH.match(text) is not None
        or _PLAYERS.match(text) is not None
    )


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
