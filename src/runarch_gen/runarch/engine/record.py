"""RunArch game records: a PGN-like text that replays a game exactly.

A record is a header of ``[Name "value"]`` tags, a blank line, then one line per turn::

    [Variant "complex(deal=4)"]
    [Seed "7"]
    [Board "0R4B6G3Y5V/3B5G0Y4V6R/..."]
    [Deck "deck.json"]
    [DeckDigest "sha256:0d5c3b0e9a4f7c21"]
    [Stones "..."]            the setup, written out in full (see below)
    ...
    [Result "1-0"]

    0. white setup:12,31/7
    0. black setup:3,44/19
    1. black b2-b3
    2. white 17@r3=9>L+p $L3 c4-d5
    ...

Setup lines are numbered 0; turn lines carry the turn number, the side and its actions in order
(the end of the turn is the end of the line; a line ending in ``...`` is a turn in progress).
In the solo game the automa's turns appear as ``5. automa 23:c3-c2@r4=7`` (card 23 revealed,
its stone on c3 swapped with c2, scored on r4 for 7; ``@-`` when valid nowhere); a replay
checks them. The action notation is that of :mod:`runarch_gen.runarch.engine.actions`; an
evaluation may carry its card score, ``17@r3=9``, which a replay checks too.

Setup tags: ``Stones`` and ``Board`` (rows of codes separated by ``/``), ``Order`` (card ids,
top of the shuffled deck first), ``Stacks`` (D, X, F, N values per side), ``Conditions``
(index in the condition set, text, bet token colour), ``FrameBets`` (first space, colour),
``First``. With them the replay needs no random generator; without them it deals from ``Seed``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from runarch_gen.errors import InputError, ParseError
from runarch_gen.fileio import shorten
from runarch_gen.play.game import IllegalActionError
from runarch_gen.play.record import RecordText, format_record, split_record
from runarch_gen.runarch.atoms import PIECES, SIZE, SQUARE_NAMES, parse_piece
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.decks.cards import Card, Deck
from runarch_gen.runarch.engine.actions import (
    END,
    EVAL_BASE,
    SWAP_BASE,
    decode_evaluation,
)
from runarch_gen.runarch.engine.game import RunArchGame
from runarch_gen.runarch.engine.sample import sample_deck
from runarch_gen.runarch.engine.setup import FACE_UP_CONDITIONS, GOLD, SILVER, Setup
from runarch_gen.runarch.engine.stages import SETUP_STAGE
from runarch_gen.runarch.engine.state import RunArchState
from runarch_gen.runarch.engine.tables import LINE_NAMES
from runarch_gen.runarch.engine.tokens import TOKEN_SYMBOLS
from runarch_gen.runarch.rules import parse_rules

__all__ = [
    "SAMPLE_DECK",
    "board_text",
    "parse_board_text",
    "record_lines",
    "replay",
    "write_record",
]

UNFINISHED = "..."
SAMPLE_DECK = re.compile(r"sample\(([0-9]{1,3})(?:,([0-9]{1,10}))?\)\Z")
"""``sample(50)`` or ``sample(50,3)``: a deck made by :mod:`runarch_gen.runarch.engine.sample`."""
_COLOUR_NAMES = {GOLD: "gold", SILVER: "silver"}
_COLOURS = {"gold": GOLD, "silver": SILVER}
_LINE = re.compile(r"([0-9]{1,6})\.\s+([A-Za-z]+)((?:\s+\S+)*)\s*\Z")
_AUTOMA = re.compile(r"([0-9]{1,3}):([a-e][1-5])-([a-e][1-5])@(?:([a-z]\w)=([0-9]{1,3})|-)\Z")


def board_text(pieces: Sequence[int]) -> str:
    """25 piece indices as rows of codes separated by ``/``: ``0R4B6G3Y5V/...``."""
    return "/".join(
        "".join(PIECES[pieces[r * SIZE + c]].code for c in range(SIZE)) for r in range(SIZE)
    )


def parse_board_text(text: str) -> tuple[int, ...]:
    """Piece indices from :func:`board_text`'s form (codes may also be separated by spaces)."""
    rows = [row.replace(",", " ").split() for row in text.strip().split("/")]
    if len(rows) != SIZE:
        raise ParseError(f"a board is {SIZE} rows separated by '/', not {len(rows)}")
    pieces: list[int] = []
    for row in rows:
        codes = row if len(row) > 1 else re.findall(r"..", row[0] if row else "")
        if len(codes) != SIZE:
            raise ParseError(f"a board row holds {SIZE} codes: {' '.join(row)!r}")
        pieces += [parse_piece(code).index for code in codes]
    return tuple(pieces)


# ---------------------------------------------------------------------------------------------
# Writing


def write_record(
    state: RunArchState,
    *,
    seed: int | None = None,
    players: Sequence[str] = (),
    tags: Mapping[str, str] | None = None,
) -> str:
    """The record of ``state``'s game so far: header tags and one line per turn.

    ``players`` names the sides (e.g. the bots); ``tags`` adds or overrides header tags.
    """
    game = state.game
    setup = state.setup
    header: dict[str, str] = {"Event": "RunArch game", "Variant": str(game.config)}
    if seed is not None:
        header["Seed"] = str(seed)
    for side, name in zip(game.sides[: game.num_players], players, strict=False):
        header[side.capitalize()] = name
    header["Board"] = board_text(game.board.indices())
    header["Deck"] = game.deck_name or "?"
    header["DeckDigest"] = game.deck_digest()
    header.update(setup_tags(game, setup))
    outcome = state.outcome()
    header["Turns"] = str(state.turn)
    if outcome is not None:
        header["Result"] = outcome.result()
        header["Termination"] = outcome.termination.value
        header["Score"] = ", ".join(
            f"{side} {total}" for side, total in zip(game.sides, outcome.totals, strict=True)
        )
    else:
        header["Result"] = "*"
    header.update(tags or {})
    return format_record(header.items(), record_lines(state))


def setup_tags(game: RunArchGame, setup: Setup) -> dict[str, str]:
    """The header tags that spell out a setup."""
    tags = {
        "Stones": board_text(setup.stones),
        "Order": " ".join(str(game.cards[k].id) for k in setup.order),
    }
    if setup.stacks:
        tags["Stacks"] = " / ".join(
            " ".join(f"{TOKEN_SYMBOLS[i]}{v}" for i, v in enumerate(stack))
            for stack in setup.stacks
        )
    if setup.conditions:
        tags["Conditions"] = ", ".join(
            f"{index} {game.conditions[index].text} {_COLOUR_NAMES[colour]}"
            for index, colour in setup.conditions
        )
        tags["FrameBets"] = ", ".join(
            f"{start} {_COLOUR_NAMES[colour]}" for start, colour in setup.frame_bets
        )
    tags["First"] = game.sides[setup.first]
    return tags


def record_lines(state: RunArchState) -> list[str]:
    """The body of the record: the game replayed from its setup, one line per turn."""
    game = state.game
    replay_state = game.new_state(state.setup)
    lines: list[str] = []
    words: list[str] = []
    turn_side = ""
    turn_number = 0
    automa_seen = 0

    def automa_lines() -> None:
        nonlocal automa_seen
        for entry in replay_state.automa_log[automa_seen:]:
            lines.append(automa_text(replay_state, entry))
        automa_seen = len(replay_state.automa_log)

    automa_lines()
    for action in state.history():
        side = replay_state.current
        if replay_state.stage == SETUP_STAGE:
            lines.append(f"0. {game.sides[side]} {replay_state.action_to_string(action)}")
            replay_state.apply(action)
            automa_lines()
            continue
        if not words:
            turn_side, turn_number = game.sides[side], replay_state.turn + 1
        if action == END:
            lines.append(f"{turn_number}. {turn_side} " + " ".join(words))
            words = []
            replay_state.apply(action)
            automa_lines()
            continue
        words.append(annotated(replay_state, action))
        replay_state.apply(action)
    if words:
        lines.append(f"{turn_number}. {turn_side} " + " ".join([*words, UNFINISHED]))
    return lines


def annotated(state: RunArchState, action: int) -> str:
    """An action's text, with the card score after the line for an evaluation: ``17@r3=9>L+p``."""
    text = state.action_to_string(action)
    if EVAL_BASE <= action < SWAP_BASE:
        slot, line, _, _ = decode_evaluation(action)
        points, bonus = state.card_score(state.hands[state.current][slot], line, state.current)
        name = LINE_NAMES[line]
        text = text.replace(f"@{name}", f"@{name}={points + bonus}", 1)
    return text


def automa_text(state: RunArchState, entry: tuple[int, int, int, int, int, int]) -> str:
    turn, card, origin, target, line, points = entry
    scored = f"{LINE_NAMES[line]}={points}" if line >= 0 else "-"
    return (
        f"{turn}. automa {state.card_id(card)}:{SQUARE_NAMES[origin]}-{SQUARE_NAMES[target]}"
        f"@{scored}"
    )


# ---------------------------------------------------------------------------------------------
# Reading and replaying


@dataclass(frozen=True, slots=True)
class _Context:
    record: RecordText

    def fail(self, message: str, line: int | None = None) -> ParseError:
        return self.record.error(message, line)

    def tag_error(self, name: str, message: str) -> ParseError:
        return self.record.error(f"[{name}]: {message}", self.record.tag_lines.get(name))


def replay(
    text: str,
    *,
    deck: Deck | Sequence[Card] | None = None,
    source: str | None = None,
    load_deck: Callable[[str], Deck] | None = None,
) -> RunArchState:
    """Replay a record move by move and return the final state.

    The deck is ``deck`` when given, else the ``Deck`` tag: ``sample(N[,seed])`` or a file that
    ``load_deck`` reads. Raises :class:`ParseError` naming the record's first bad line and why
    (an illegal action, a line out of turn, an automa turn or a score that differs, a header
    ``Result`` the moves do not give).
    """
    record = split_record(text, source)
    context = _Context(record)
    game = _game_from_header(context, deck, load_deck)
    setup = _setup_from_header(context, game)
    try:
        state = game.new_state(setup)
    except InputError as exc:
        raise context.fail(f"the setup does not fit the game: {exc}") from None
    automa_seen = 0
    for number, line in record.body:
        match = _LINE.match(line)
        if match is None:
            raise context.fail(f"expected 'N. side actions...', got {line!r}", number)
        turn, side_name, words = int(match.group(1)), match.group(2).lower(), match.group(3).split()
        if side_name == "automa" and game.solo:
            automa_seen = _check_automa(context, state, number, turn, words, automa_seen)
            continue
        automa_seen = _check_automa_done(context, state, number, automa_seen)
        _replay_line(context, state, number, turn, side_name, words)
    _check_automa_done(context, state, None, automa_seen)
    _check_result(context, state)
    return state


def _game_from_header(
    context: _Context,
    deck: Deck | Sequence[Card] | None,
    load_deck: Callable[[str], Deck] | None,
) -> RunArchGame:
    record = context.record
    try:
        config = parse_rules(record.require("Variant"))
    except ParseError as exc:
        raise context.tag_error("Variant", exc.message) from None
    try:
        board = Board.from_indices(parse_board_text(record.require("Board")))
    except ParseError as exc:
        raise context.tag_error("Board", exc.message) from None
    deck_name = record.tags.get("Deck", "?")
    if deck is None:
        sample = SAMPLE_DECK.match(deck_name)
        if deck_name.startswith("sample(") and (
            sample is None or not 1 <= int(sample.group(1)) <= 100
        ):
            raise context.tag_error("Deck", "expected sample(N) or sample(N,SEED), N from 1 to 100")
        if sample is not None:
            deck = sample_deck(int(sample.group(1)), int(sample.group(2) or 0))
        elif load_deck is not None and deck_name != "?":
            deck = load_deck(deck_name)
        else:
            raise context.tag_error("Deck", f"cannot find the deck {shorten(deck_name)!r}; give it")
    try:
        game = RunArchGame(config, board, deck, deck_name=deck_name)
    except InputError as exc:
        raise context.fail(str(exc)) from None
    digest = record.tags.get("DeckDigest")
    if digest is not None and digest != game.deck_digest():
        raise context.tag_error(
            "DeckDigest", f"the deck given is not the one played ({game.deck_digest()})"
        )
    return game


def _setup_from_header(context: _Context, game: RunArchGame) -> Setup:
    record = context.record
    if "Stones" not in record.tags:
        if "Seed" not in record.tags:
            raise context.fail("the header has neither the setup tags (Stones …) nor a Seed")
        if not re.fullmatch(r"-?[0-9]{1,20}", record.tags["Seed"]):
            raise context.tag_error("Seed", "expected an integer of at most 20 digits")
        seed = int(record.tags["Seed"])
        return game.deal(random.Random(seed))
    try:
        stones = parse_board_text(record.tags["Stones"])
    except ParseError as exc:
        raise context.tag_error("Stones", exc.message) from None
    order = tuple(_card(context, "Order", word, game) for word in record.require("Order").split())
    stacks: tuple[tuple[int, ...], ...] = ()
    if "Stacks" in record.tags:
        stacks = tuple(
            _stack(context, part) for part in record.tags["Stacks"].split("/") if part.strip()
        )
    conditions: tuple[tuple[int, int], ...] = ()
    frame_bets: tuple[tuple[int, int], ...] = ()
    if "Conditions" in record.tags:
        conditions = tuple(
            _condition(context, game, item) for item in record.tags["Conditions"].split(",")
        )
        frame_bets = tuple(
            _frame_bet(context, item) for item in record.require("FrameBets").split(",")
        )
    first_name = record.require("First").strip().lower()
    if first_name not in game.sides:
        raise context.tag_error("First", f"expected {' or '.join(game.sides)}")
    try:
        face_up = min(FACE_UP_CONDITIONS, len(game.conditions)) if game.bets else 0
        if len(conditions) != face_up:
            raise context.tag_error(
                "Conditions",
                f"{len(conditions)} condition tokens face up; §3 step 7 lays {face_up}",
            )
        return Setup(stones, order, stacks, conditions, frame_bets, game.sides.index(first_name))
    except ValueError as exc:
        raise context.fail(f"bad setup: {exc}") from None


def _card(context: _Context, tag: str, word: str, game: RunArchGame) -> int:
    try:
        return game.card_index[int(word)]
    except (ValueError, KeyError):
        raise context.tag_error(tag, f"the deck has no card {word!r}") from None


def _number(text: str) -> bool:
    """Whether ``text`` is a small whole number in ASCII digits (``²`` and 5,000 digits are not)."""
    return re.fullmatch(r"[0-9]{1,6}", text) is not None


def _stack(context: _Context, text: str) -> tuple[int, ...]:
    words = text.split()
    symbols = "".join(word[:1].upper() for word in words)
    if symbols != TOKEN_SYMBOLS or not all(_number(word[1:]) for word in words):
        raise context.tag_error("Stacks", f"expected e.g. 'D6 X9 F11 N13', got {text.strip()!r}")
    return tuple(int(word[1:]) for word in words)


def _condition(context: _Context, game: RunArchGame, item: str) -> tuple[int, int]:
    words = item.split()
    if len(words) < 3 or not _number(words[0]) or words[-1].lower() not in _COLOURS:
        raise context.tag_error("Conditions", f"expected 'index condition gold|silver': {item!r}")
    index = int(words[0])
    text = " ".join(words[1:-1])
    if index >= len(game.conditions) or game.conditions[index].text != text:
        raise context.tag_error(
            "Conditions", f"condition {index} of the condition set is not {text!r}"
        )
    return index, _COLOURS[words[-1].lower()]


def _frame_bet(context: _Context, item: str) -> tuple[int, int]:
    words = item.split()
    if len(words) != 2 or not _number(words[0]) or words[1].lower() not in _COLOURS:
        raise context.tag_error("FrameBets", f"expected 'space gold|silver': {item!r}")
    return int(words[0]), _COLOURS[words[1].lower()]


def _replay_line(
    context: _Context,
    state: RunArchState,
    number: int,
    turn: int,
    side_name: str,
    words: list[str],
) -> None:
    game = state.game
    if state.is_terminal():
        raise context.fail(f"the game is already over ({state.termination})", number)
    expected_side = game.sides[state.current]
    if side_name != expected_side:
        raise context.fail(f"it is {expected_side}'s turn, not {side_name}'s", number)
    setup_line = state.stage == SETUP_STAGE
    expected_turn = 0 if setup_line else state.turn + 1
    if turn != expected_turn:
        raise context.fail(f"expected turn {expected_turn}, not {turn}", number)
    unfinished = bool(words) and words[-1] == UNFINISHED
    if unfinished:
        words = words[:-1]
    try:
        for word in words:
            action, score = state.parse_action(word)
            if score is not None:
                _check_score(state, action, score, word)
            state.apply(action)
        if not setup_line and not unfinished:
            state.apply(END)
    except IllegalActionError as exc:
        raise context.fail(str(exc), number) from None


def _check_score(state: RunArchState, action: int, score: int, word: str) -> None:
    if not EVAL_BASE <= action < SWAP_BASE:
        raise IllegalActionError(word, "only an evaluation carries a score")
    slot, line, _, _ = decode_evaluation(action)
    hand = state.hands[state.current]
    if slot < len(hand):
        points, bonus = state.card_score(hand[slot], line, state.current)
        if points and points + bonus != score:
            raise IllegalActionError(word, f"the card scores {points + bonus}, not {score}")


def _check_automa(
    context: _Context,
    state: RunArchState,
    number: int,
    turn: int,
    words: list[str],
    seen: int,
) -> int:
    log = state.automa_log
    if seen >= len(log):
        raise context.fail("the automa has not played this turn", number)
    expected = automa_text(state, log[seen])
    written = f"{turn}. automa {' '.join(words)}"
    if " ".join(written.split()) != expected:
        raise context.fail(f"the automa played {expected.split(' automa ')[1]!r}", number)
    return seen + 1


def _check_automa_done(
    context: _Context, state: RunArchState, number: int | None, seen: int
) -> int:
    if seen < len(state.automa_log):
        missing = automa_text(state, state.automa_log[seen])
        raise context.fail(f"the record lacks the automa's turn '{missing}'", number)
    return seen


def _check_result(context: _Context, state: RunArchState) -> None:
    record = context.record
    outcome = state.outcome()
    result = outcome.result() if outcome is not None else "*"
    written = record.tags.get("Result")
    if written is not None and written != result:
        raise context.tag_error("Result", f"the record says {written} but the moves give {result}")
    turns = record.tags.get("Turns")
    if turns is not None and turns != str(state.turn):
        raise context.tag_error("Turns", f"the record says {turns} but the moves make {state.turn}")
    termination = record.tags.get("Termination")
    if termination is not None and outcome is not None and termination != outcome.termination.value:
        raise context.tag_error(
            "Termination",
            f"the record says {termination} but the game ended by {outcome.termination}",
        )
