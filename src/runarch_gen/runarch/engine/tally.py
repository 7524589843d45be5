"""Final scoring of one player from a JSON description (``runarch-gen tally``).

The description names what final scoring reads (RULES.md §5–7); the settlement is the engine's
own (:func:`runarch_gen.runarch.engine.scoring.settle`), so a tally and a played game always
agree. Example (the betting article's first example, M = 13)::

    {
      "rules": "complex(archive_order=article)",
      "best": 13,
      "archives": [["0B", "6Y", "6R"], 2, 5],
      "bets": [
        {"token": "gold", "archive": "left", "cards": 3},
        {"token": "silver", "archive": "middle", "cards": 2},
        {"token": "gold", "archive": "right", "cards": 5}
      ]
    }

The same, settled (the three archive bets win 16, 9 and 18 points: 43, as the article says):

>>> text = (
...     '{"rules": "complex(archive_order=article)", "best": 13,'
...     ' "archives": [["0B", "6Y", "6R"], 2, 5], "bets": ['
...     '{"token": "gold", "archive": "left", "cards": 3},'
...     ' {"token": "silver", "archive": "middle", "cards": 2},'
...     ' {"token": "gold", "archive": "right", "cards": 5}]}'
... )
>>> settlement, _ = tally_from_json(text)
>>> [item.points for item in settlement.items if item.part == "archive_bets"], settlement.total
([16, 9, 18], 43)

Keys: ``rules`` (a rules string, default ``complex``); ``best`` (the best-card value M);
``card_points`` (points on the frame, default 0); ``opponent_best`` (for the duel [R-19];
leave it out to skip the duel); ``archives`` (left, middle, right: a list of match codes, or a
count when no goal needs the cards); ``bets`` (``token`` gold or silver, and either ``archive``
left/middle/right with ``cards`` 2–5, or ``goal`` text with ``reward``); ``secret_goal``
(``goal`` and ``reward``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from runarch_gen.errors import InputError, ParseError
from runarch_gen.fileio import display_name, read_text
from runarch_gen.runarch.archives import fits
from runarch_gen.runarch.atoms import Piece, parse_piece
from runarch_gen.runarch.decks.cards import Goal, parse_goal
from runarch_gen.runarch.engine.scoring import (
    ARCHIVE_NAMES,
    ArchiveBet,
    FinalPosition,
    GoalBet,
    Settlement,
    settle,
)
from runarch_gen.runarch.rules import RulesConfig, parse_rules
from runarch_gen.textdata import loads_json

__all__ = ["read_tally", "tally", "tally_from_json"]

_KEYS = {"rules", "best", "card_points", "opponent_best", "archives", "bets", "secret_goal"}
_ARCHIVE_KEYS = {"left": 0, "middle": 1, "right": 2, "l": 0, "m": 1, "r": 2}


def read_tally(path: str | os.PathLike[str]) -> tuple[Settlement, RulesConfig]:
    """Read a tally description from a JSON file (``-`` for stdin) and settle it."""
    return tally_from_json(read_text(path), source=display_name(path))


def tally_from_json(text: str, *, source: str | None = None) -> tuple[Settlement, RulesConfig]:
    """Settle a JSON description; :class:`ParseError` names the file, line or key at fault."""
    data = loads_json(text, source)
    if not isinstance(data, dict):
        raise ParseError("expected a JSON object", source=source)
    try:
        return tally(data)
    except ParseError as exc:
        raise exc.located(source) from None
    except InputError as exc:
        raise ParseError(str(exc), source=source) from None


def tally(description: Mapping[str, Any]) -> tuple[Settlement, RulesConfig]:
    """Settle one player's final scoring as described (see the module docstring).

    >>> s, _ = tally({"best": 13, "archives": [3, 3, 2],
    ...               "bets": [{"token": "silver", "archive": "left", "cards": 3}]})
    >>> s.total
    10
    """
    unknown = sorted(set(description) - _KEYS)
    if unknown:
        raise ParseError(f"unknown key {unknown[0]!r}: expected {', '.join(sorted(_KEYS))}")
    config = parse_rules(str(description.get("rules", "complex")))
    if not config.has_archives and any(
        k in description for k in ("archives", "bets", "secret_goal")
    ):
        raise ParseError(f"the {config.variant.value} game has no archives, bets or goals")
    best = _int(description, "best", required=True)
    card_points = _int(description, "card_points")
    opponent = description.get("opponent_best")
    opponents = () if opponent is None else (_int(description, "opponent_best"),)
    archives, counts = _archives(description.get("archives", [0, 0, 0]), config)
    archive_bets: list[ArchiveBet] = []
    goal_bets: list[GoalBet] = []
    bets = description.get("bets", [])
    if not isinstance(bets, list):
        raise ParseError("bets: expected a list")
    if bets and not config.has_bets:
        raise ParseError(f"the {config.variant.value} game has no bets [R-27]")
    for i, bet in enumerate(bets):
        where = f"bets[{i}]"
        if not isinstance(bet, dict):
            raise ParseError(f"{where}: expected an object")
        gold = _token(bet, where)
        if "archive" in bet:
            archive = _archive(bet["archive"], where)
            cards = _int(bet, "cards", where=where, required=True)
            if not 2 <= cards <= 5:
                raise ParseError(f"{where}.cards: a bet spot is for 2 to 5 cards, not {cards}")
            archive_bets.append(ArchiveBet(archive, cards, gold))
        elif "goal" in bet:
            goal_bets.append(GoalBet(_goal(bet, where), gold))
        else:
            raise ParseError(f"{where}: expected 'archive' and 'cards', or 'goal' and 'reward'")
    spots = [(b.archive, b.cards) for b in archive_bets]
    if len(set(spots)) != len(spots):
        raise ParseError("bets: one token per archive bet spot (§6.2)")
    secret = description.get("secret_goal")
    secret_goal = _goal(secret, "secret_goal") if secret is not None else None
    needs_cards = goal_bets or secret_goal is not None
    if needs_cards and archives is None:
        raise ParseError("archives: goals read the cards' match areas, so list their codes")
    position = FinalPosition(
        card_points=card_points,
        best=best,
        opponent_bests=opponents,
        archives=archives if archives is not None else tuple(() for _ in counts),
        archive_bets=tuple(archive_bets),
        goal_bets=tuple(goal_bets),
        secret=secret_goal,
    )
    if archives is None:
        # Counts only: settle with placeholder cards so the counts are what bets read.
        position = _with_counts(position, counts)
    return settle(position, config), config


def _with_counts(position: FinalPosition, counts: list[int]) -> FinalPosition:
    placeholder = parse_piece("0R")
    return FinalPosition(
        card_points=position.card_points,
        best=position.best,
        opponent_bests=position.opponent_bests,
        archives=tuple((placeholder,) * n for n in counts),
        archive_bets=position.archive_bets,
        goal_bets=position.goal_bets,
        secret=position.secret,
    )


def _int(data: Mapping[str, Any], key: str, *, where: str = "", required: bool = False) -> int:
    name = f"{where}.{key}" if where else key
    if key not in data:
        if required:
            raise ParseError(f"{name}: missing")
        return 0
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ParseError(f"{name}: expected an integer, not {json.dumps(value)}")
    if value < 0:
        raise ParseError(f"{name}: cannot be negative")
    return value


def _token(bet: Mapping[str, Any], where: str) -> bool:
    token = str(bet.get("token", "")).lower()
    if token not in ("gold", "silver"):
        raise ParseError(f"{where}.token: expected gold or silver, not {bet.get('token')!r}")
    return token == "gold"


def _archive(value: Any, where: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 2:
        return value
    index = _ARCHIVE_KEYS.get(str(value).lower())
    if index is None:
        raise ParseError(f"{where}.archive: expected left, middle or right, not {value!r}")
    return index


def _goal(data: Any, where: str) -> Goal:
    if not isinstance(data, dict) or "goal" not in data:
        raise ParseError(f"{where}: expected an object with 'goal' and 'reward'")
    reward = _int(data, "reward", where=where, required=True)
    try:
        return parse_goal(str(data["goal"]), reward)
    except ParseError as exc:
        raise ParseError(f"{where}.goal: {exc.message}") from None


def _archives(
    value: Any, config: RulesConfig
) -> tuple[tuple[tuple[Piece, ...], ...] | None, list[int]]:
    if not isinstance(value, list) or len(value) != 3:
        raise ParseError("archives: expected a list of 3 (left, middle, right)")
    cards: list[tuple[Piece, ...]] = []
    counts: list[int] = []
    all_cards = True
    for i, item in enumerate(value):
        name = f"archives[{i}] ({ARCHIVE_NAMES[i]})"
        if isinstance(item, int) and not isinstance(item, bool):
            held: tuple[Piece, ...] = ()
            count = item
            all_cards = False
        elif isinstance(item, list):
            try:
                held = tuple(parse_piece(str(code)) for code in item)
            except ParseError as exc:
                raise ParseError(f"{name}: {exc.message}") from None
            count = len(held)
            rule = config.archive_rules[i]
            if not fits(rule, list(held)):
                codes = " ".join(p.code for p in held)
                raise ParseError(f"{name}: a {rule.name} archive cannot hold {codes} (§4.3)")
        else:
            raise ParseError(f"{name}: expected a list of codes or a count")
        if not 0 <= count <= config.capacity:
            raise ParseError(f"{name}: holds at most {config.capacity} cards [R-14], not {count}")
        cards.append(held)
        counts.append(count)
    return (tuple(cards) if all_cards else None), counts
