"""Rounds as JSON, for scripts and for checking a table's arithmetic (``malacca resolve``).

The input (every field but ``cargo``, ``players`` and each player's ``money`` and ``card`` is
optional)::

    {"cargo": 7, "captain": 0,
     "rules": {"share": "deal", "cargo": "bank", "scrub": 2,
               "useless_bonus": false, "zheng_stake": false},
     "players": [
       {"name": "Anna", "money": 5, "card": "attack", "stake": 2},
       {"money": 9, "card": "wait-dt", "stake": 4, "choice": "trade",
        "character": "zheng", "equipment": {"trade": 1}}]}

``captain`` is an index into ``players`` (0 = the first). The output gives each player's change
of money with its parts and the special cards they draw.

>>> from runarch_gen.malacca.resolve import resolve_round
>>> round_, names = read_round('{"cargo": 4, "players": [{"money": 3, "card": "attack"},'
...                            ' {"money": 0, "card": "trade"}]}', "x.json")
>>> round_to_json(round_, resolve_round(round_), names)["players"][1]["change"]
0
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from runarch_gen.errors import InputError
from runarch_gen.malacca.resolve import PARTS, TRAGIC_HERO, RoundInput, RoundResult, Seat
from runarch_gen.malacca.rules import (
    Card,
    Character,
    Equipment,
    MalaccaRules,
    Role,
)

__all__ = ["MAX_INPUT", "read_round", "result_lines", "round_to_json"]

MAX_INPUT = 1_000_000
"""The longest round file read, in characters."""
MAX_MONEY = 10**9
MAX_DIGITS = 18
"""The longest number read; a longer one is refused before it is converted (bounded work)."""


class _LongNumber:
    """A number in the JSON too long to convert: kept as its length, refused by :func:`_int`."""

    def __init__(self, text: str) -> None:
        self.digits = len(text.lstrip("-"))


def _parse_int(text: str) -> int | _LongNumber:
    return int(text) if len(text) <= MAX_DIGITS else _LongNumber(text)


def _parse_float(text: str) -> float | _LongNumber:
    return float(text) if len(text) <= 40 else _LongNumber(text)


_PLAYER_KEYS = {"name", "money", "card", "stake", "choice", "character", "equipment"}
_ROOT_KEYS = {"cargo", "captain", "rules", "players"}
_RULE_KEYS = {"share", "cargo", "scrub", "useless_bonus", "zheng_stake", "hero"}


def _int(value: Any, where: str, low: int = 0, high: int = MAX_MONEY) -> int:
    if isinstance(value, _LongNumber):
        raise InputError(f"{where}: {low} to {high}, not a number of {value.digits} digits")
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{where}: a whole number, not {_shown(value)}")
    if not low <= value <= high:
        raise InputError(f"{where}: {low} to {high}, not {value}")
    return value


def _shown(value: Any) -> str:
    if isinstance(value, _LongNumber):
        return f"a number of {value.digits} digits"
    try:
        return json.dumps(value)[:40]
    except (TypeError, ValueError):
        return type(value).__name__


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise InputError(f"{where}: a text, not {_shown(value)}")
    return value


def _keys(obj: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(obj) - allowed)
    if unknown:
        raise InputError(
            f"{where}: unknown field {unknown[0][:40]!r} (known: {', '.join(sorted(allowed))})"
        )


def _equipment(value: Any, where: str) -> tuple[int, int, int]:
    if value is None:
        return (0, 0, 0)
    counts = [0, 0, 0]
    if isinstance(value, dict):
        for key, count in value.items():
            try:
                kind = Equipment.parse(str(key))
            except InputError as exc:
                raise InputError(f"{where}: {exc}") from None
            counts[kind] = _int(count, f"{where}.{kind.label}", 0, 12)
    elif isinstance(value, list):
        for i, key in enumerate(value[:100]):
            try:
                counts[Equipment.parse(_text(key, f"{where}[{i}]"))] += 1
            except InputError as exc:
                raise InputError(f"{where}[{i}]: {exc}") from None
        if len(value) > 12:
            raise InputError(f"{where}: at most 12 equipment cards")
    else:
        raise InputError(f"{where}: an object of counts or a list of kinds")
    return (counts[0], counts[1], counts[2])


def _player(obj: Any, where: str) -> tuple[Seat, str]:
    if not isinstance(obj, dict):
        raise InputError(f"{where}: an object")
    _keys(obj, _PLAYER_KEYS, where)
    for key in ("money", "card"):
        if key not in obj:
            raise InputError(f"{where}: missing {key!r}")
    money = _int(obj["money"], f"{where}.money")
    try:
        card = Card.parse(_text(obj["card"], f"{where}.card"))
        choice = None if obj.get("choice") is None else Role.parse(_text(obj["choice"], ""))
        character = (
            None
            if obj.get("character") in (None, "", "none")
            else Character.parse(_text(obj["character"], f"{where}.character"))
        )
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None
    stake = _int(obj.get("stake", 0), f"{where}.stake", 0, money)
    name = _text(obj.get("name", ""), f"{where}.name")[:60]
    seat = Seat(
        money,
        card,
        stake,
        choice,
        character,
        _equipment(obj.get("equipment"), f"{where}.equipment"),
    )
    return seat, name


def read_round(text: str, source: str) -> tuple[RoundInput, tuple[str, ...]]:
    """The round described by JSON ``text`` and the players' names; :class:`InputError` names
    ``source`` and the offending field."""
    if len(text) > MAX_INPUT:
        raise InputError(f"{source}: longer than {MAX_INPUT:,} characters")
    try:
        data = json.loads(text, parse_int=_parse_int, parse_float=_parse_float)
    except json.JSONDecodeError as exc:
        raise InputError(f"{source}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
    except RecursionError:
        raise InputError(f"{source}: nested too deeply") from None
    try:
        return _read(data)
    except InputError as exc:
        raise InputError(f"{source}: {exc}") from None


def _read(data: Any) -> tuple[RoundInput, tuple[str, ...]]:
    if not isinstance(data, dict):
        raise InputError("the round is a JSON object")
    _keys(data, _ROOT_KEYS, "round")
    if "cargo" not in data or "players" not in data:
        raise InputError("the round needs 'cargo' and 'players'")
    cargo = _int(data["cargo"], "cargo")
    players = data["players"]
    if not isinstance(players, list) or not 2 <= len(players) <= 8:
        raise InputError("players: a list of 2 to 8 players")
    captain = _int(data.get("captain", 0), "captain", 0, len(players) - 1)
    rules_obj = data.get("rules") or {}
    if not isinstance(rules_obj, dict):
        raise InputError("rules: an object")
    _keys(rules_obj, _RULE_KEYS, "rules")
    try:
        rules = MalaccaRules(
            players=len(players),
            share=_text(rules_obj.get("share", "deal"), "rules.share"),
            cargo=_text(rules_obj.get("cargo", "bank"), "rules.cargo"),
            scrub=_int(rules_obj.get("scrub", 2), "rules.scrub", 0, 20),
            useless_bonus=bool(rules_obj.get("useless_bonus", False)),
            zheng_stake=bool(rules_obj.get("zheng_stake", False)),
            hero=_text(rules_obj.get("hero", "ask"), "rules.hero"),
        )
    except InputError as exc:
        raise InputError(f"rules: {exc}") from None
    read = [_player(p, f"players[{i}]") for i, p in enumerate(players)]
    seats = tuple(seat for seat, _ in read)
    names = tuple(name or f"p{i + 1}" for i, (_, name) in enumerate(read))
    round_ = RoundInput(cargo, captain, seats, rules)
    round_.check()
    return round_, names


def round_to_json(
    round_: RoundInput, result: RoundResult, names: tuple[str, ...]
) -> dict[str, Any]:
    """The resolution as JSON: the ship's fate and each player's change with its parts."""
    players = []
    for seat, outcome, name in zip(round_.seats, result.seats, names, strict=True):
        looks = 2 if seat.character is Character.SAYYIDA and outcome.cards else outcome.cards
        players.append(
            {
                "name": name,
                "card": seat.card.label,
                "role": outcome.role.value,
                "stake": seat.stake,
                "money_before": seat.money,
                "change": outcome.change,
                "money_after": seat.money + outcome.change,
                "stake_back": outcome.stake_back,
                "parts": {part: outcome.part(part) for part in PARTS},
                "special_cards": outcome.cards,
                "looks_at": looks,
                "why_card": outcome.reason or None,
                "card_optional": bool(outcome.cards)
                and outcome.reason == TRAGIC_HERO
                and round_.rules.hero == "ask",
            }
        )
    return {
        "captured": result.captured,
        "attack": result.attack,
        "defence": result.defence,
        "useless_defence": result.useless,
        "cargo": round_.cargo,
        "captain": round_.captain,
        "from_ship": result.from_ship,
        "from_bank": result.from_bank,
        "to_bank": result.to_bank,
        "players": players,
    }


def result_lines(round_: RoundInput, result: RoundResult, names: tuple[str, ...]) -> list[str]:
    """The resolution as a text table."""
    fate = "captured" if result.captured else "defended"
    if result.useless:
        fate += " (useless defence: nobody attacked)"
    lines = [
        f"ship {round_.cargo}: attack {result.attack} against defence {result.defence} — {fate}",
        f"{'player':<12} {'card':<9} {'stake':>5} {'before':>6} {'change':>6} {'after':>6}  parts",
    ]
    for seat, outcome, name in zip(round_.seats, result.seats, names, strict=True):
        card = seat.card.label
        if seat.card.role is None:
            card += f"→{outcome.role.value[0]}"
        parts = ", ".join(f"{k} {v:+d}" for k, v in outcome.parts) or "-"
        if outcome.stake_back and seat.stake:
            parts += f"; stake {seat.stake} back"
        if outcome.cards and outcome.reason == TRAGIC_HERO and round_.rules.hero == "ask":
            parts += f"; may take a special card ({outcome.reason})"
        elif outcome.cards:
            parts += f"; draws a special card ({outcome.reason})"
        lines.append(
            f"{name[:12]:<12} {card:<9} {seat.stake:>5} {seat.money:>6} {outcome.change:>+6}"
            f" {seat.money + outcome.change:>6}  {parts}"
        )
    lines.append(
        f"from the ship {result.from_ship}, from the bank {result.from_bank},"
        f" to the bank {result.to_bank}"
    )
    return lines
