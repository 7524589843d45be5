"""RunArch bots, by name. Each sees only ``observation(player)`` and the legal actions.

>>> import random
>>> make_bot("random", random.Random(1)).name
'random'
"""

from __future__ import annotations

import random

from runarch_gen.errors import InputError
from runarch_gen.runarch.bots.base import RunArchBot
from runarch_gen.runarch.bots.greedy import GreedyBot
from runarch_gen.runarch.bots.lookahead import LookaheadBot
from runarch_gen.runarch.bots.random_bot import RandomBot

BOTS: dict[str, type[RunArchBot]] = {bot.name: bot for bot in (RandomBot, GreedyBot, LookaheadBot)}


def make_bot(name: str, rng: random.Random) -> RunArchBot:
    """A bot by name with its own seeded generator; :class:`InputError` names unknown bots."""
    try:
        return BOTS[name.strip().lower()](rng)
    except KeyError:
        raise InputError(f"unknown bot {name!r}: expected one of {', '.join(BOTS)}") from None


__all__ = ["BOTS", "GreedyBot", "LookaheadBot", "RandomBot", "RunArchBot", "make_bot"]
