"""The ``/play`` page's own data: the games to choose from, in the page's language."""

from __future__ import annotations

from typing import Any

from runarch_gen.web.play.setup import DEFAULT_DELAY, MAX_DELAY

__all__ = ["play_context"]

EXAMPLES = {
    "runarch": "variant=simple,set=1",
    "bluff": "players=2",
    "malacca": "players=3,rounds=6",
    "backgammon": "match=3",
}
"""A game string shown as an example beside each game's rules field."""


def play_context(lang: str) -> dict[str, Any]:
    from runarch_gen.games import registered_games
    from runarch_gen.web.i18n import game_title

    games = [
        {
            "name": r.game_type.short_name,
            "title": game_title(r.game_type.short_name, r.game_type.long_name, lang),
            "params": "\n".join(parameter.describe() for parameter in r.game_type.parameters),
            "example": EXAMPLES.get(r.game_type.short_name, ""),
        }
        for r in registered_games()
    ]
    return {"games": games, "max_delay": MAX_DELAY, "delay": DEFAULT_DELAY}
