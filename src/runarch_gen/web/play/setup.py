"""A new game from the page's form (or any client's JSON): every field checked as the command
line checks its options, the game made and the seats planned before the game exists.

Fields: ``game`` (a registered game), ``rules`` (its parameters or a game string, as
``--rules`` takes them), ``seat`` (1 … players: the seat of the person making the game),
``bots`` (one name per other seat in seat order, a list or comma-separated; ``human`` for a
person at the same screen; missing seats get the game's default bot), ``seed``, ``delay``
(seconds between bot moves, 0–5) and, for games that take them (RunArch), ``board`` and
``deck`` (a board's or deck's text, read as the kit reads ``--board`` and ``--deck``).

>>> options = read_options({"game": "bluff", "rules": "players=3", "bots": "odds,human"})
>>> [plan.label() for plan in options.seats], options.game_text
(['you', 'odds', 'human'], 'bluff(players=3)')
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from runarch_gen.errors import InputError
from runarch_gen.play.game import Game
from runarch_gen.play.registry import Registration
from runarch_gen.web.params import field_float, field_int, field_seed, field_str
from runarch_gen.web.play.games import renderer_for
from runarch_gen.web.play.session import SeatPlan
from runarch_gen.web.work import Busy

__all__ = ["FIELDS", "MAX_DELAY", "PlayOptions", "read_options"]

FIELDS = frozenset({"game", "rules", "seat", "bots", "seed", "delay", "board", "deck"})
MAX_DELAY = 5.0
DEFAULT_DELAY = 0.8
MAX_UPLOAD = 1_000_000
HUMAN = "human"
_CACHED_GAMES = 16
_games: OrderedDict[str, Game[Any]] = OrderedDict()
_games_lock = threading.Lock()
_making = threading.Lock()  # one game made at a time (a RunArch set takes seconds)
_waiting = [0]
MAX_MAKING = 3
"""Games being made or waiting to be (beyond: 429)."""


@dataclass(frozen=True, slots=True)
class PlayOptions:
    """A checked form: the game, its text, the seats, the seed (and whether it was given) and
    the bots' delay."""

    registration: Registration
    game: Game[Any]
    game_text: str
    seats: tuple[SeatPlan, ...]
    seed: int
    seed_given: bool
    delay: float


def _known(body: Mapping[str, Any]) -> None:
    for name in body:
        if name not in FIELDS:
            raise InputError(f"unknown field {name[:40]!r}: expected {', '.join(sorted(FIELDS))}")


def _bot_names(body: Mapping[str, Any]) -> list[str]:
    value = body.get("bots")
    if value is None:
        return []
    if isinstance(value, str):
        if len(value) > 400:
            raise InputError("--bots: over 400 characters")
        items: list[Any] = value.split(",") if value.strip() else []
    elif isinstance(value, list) and len(value) <= 16:
        items = value
    else:
        raise InputError("--bots: expected bot names, comma-separated or as a list")
    names = []
    for item in items:
        if not isinstance(item, str) or len(item) > 40:
            raise InputError("--bots: expected bot names, comma-separated or as a list")
        names.append(item.strip().lower())
    return names


def _cached(key: str, make: Callable[[], Game[Any]]) -> Game[Any]:
    with _games_lock:
        found = _games.get(key)
        if found is not None:
            _games.move_to_end(key)
            return found
        if _waiting[0] >= MAX_MAKING:
            raise Busy("games are being set up: try again in a few seconds")
        _waiting[0] += 1
    try:
        with _making:
            with _games_lock:
                found = _games.get(key)  # made meanwhile by the request it waited for
            game: Game[Any] = found if found is not None else make()
    finally:
        with _games_lock:
            _waiting[0] -= 1
    with _games_lock:
        _games[key] = game
        while len(_games) > _CACHED_GAMES:
            _games.popitem(last=False)
    return game


def read_options(body: Mapping[str, Any], stopping: threading.Event | None = None) -> PlayOptions:
    """The form ``body`` checked in full (see the module); :class:`InputError` names the field."""
    from runarch_gen.games import game_values

    _known(body)
    name = field_str(body, "game", default="runarch", limit=40)
    rules = field_str(body, "rules", default="", limit=400)
    registration, values = game_values(name, rules)
    short = registration.game_type.short_name
    text = registration.game_type.game_string(values)
    renderer = renderer_for(short)
    uploads = {
        part: field_str(body, part, default="", limit=MAX_UPLOAD) for part in ("board", "deck")
    }
    if any(t.strip() for t in uploads.values()):
        made = renderer.game_with_files(registration, values, uploads)
        if made is None:
            given = next(part for part, t in uploads.items() if t.strip())
            raise InputError(f"--{given}: {short} takes no {given} file")
        game, text = made
    else:
        game = _cached(text, lambda: renderer.make_game(registration, values, stopping))
    players = game.num_players
    seat = field_int(body, "seat", 1, players, default=1) - 1
    names = _bot_names(body)
    if len(names) > players - 1:
        raise InputError(
            f"--bots: {players} seats leave {players - 1} for others, not {len(names)}"
        )
    known = sorted(registration.bots)
    others: list[SeatPlan] = []
    for index in range(players - 1):
        wanted = names[index] if index < len(names) else registration.default_bot
        if wanted in ("", HUMAN):
            others.append(SeatPlan(HUMAN))
        elif wanted in registration.bots:
            others.append(SeatPlan("bot", wanted))
        else:
            raise InputError(
                f"--bots: unknown bot {wanted[:40]!r}: expected one of {', '.join(known)}"
                f" or {HUMAN}"
            )
    seats = (*others[:seat], SeatPlan("you"), *others[seat:])
    seed = field_seed(body)
    delay = field_float(body, "delay", 0.0, MAX_DELAY, default=DEFAULT_DELAY)
    return PlayOptions(
        registration,
        game,
        text,
        seats,
        seed if seed is not None else secrets.randbelow(2**31),
        seed is not None,
        delay,
    )


def seats_of(name: str, rules: str) -> dict[str, Any]:
    """What the page needs to lay out a new game's seats: the game's text, its seats' names,
    its bots (and the default one) and whether it takes a board or deck file.

    >>> seats_of("backgammon", "match=3")["sides"]
    ['white', 'black']
    """
    from runarch_gen.games import game_values

    registration, values = game_values(name, rules)
    short = registration.game_type.short_name
    renderer = renderer_for(short)
    players, sides = renderer.players(registration, values)
    return {
        "game": registration.game_type.game_string(values),
        "name": short,
        "players": players,
        "sides": list(sides),
        "bots": sorted(registration.bots),
        "default_bot": registration.default_bot,
        "files": list(renderer.files),
    }
