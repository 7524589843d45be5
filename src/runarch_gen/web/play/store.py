"""The games of one server: who owns each, how many a client may have, and when they end.

A game's id is unguessable (128 random bits) and begins with the server's boot mark, so that
after a restart an old id is answered "the server restarted" rather than "no such game". A
game belongs to the client that made it — by address, as the jobs' limits are (a cookie costs
nothing to change): another address is told there is no such game. A client has at most
:data:`MAX_PER_CLIENT` games, the server :data:`MAX_GAMES`; a game nobody has asked about for
:data:`IDLE_SECONDS` ends. Ended games leave a note (why), kept for the last
:data:`MAX_NOTES`, so the page can say what happened to a game it still links to.

>>> store = PlayStore()
>>> store.gone_reason("0" * 39)
'unknown'
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from runarch_gen.web.play.session import PlaySession
from runarch_gen.web.work import Busy

__all__ = ["IDLE_SECONDS", "MAX_GAMES", "MAX_PER_CLIENT", "Gone", "PlayStore"]

IDLE_SECONDS = 30 * 60.0
MAX_PER_CLIENT = 6
MAX_GAMES = 200
MAX_NOTES = 2000
_ID = re.compile(r"([0-9a-f]{6})-[0-9a-f]{32}\Z")


class Gone(Exception):
    """The game asked for is not (or no longer) here; ``reason`` says why: ``restart`` (the
    server restarted since it was made), ``idle`` (nobody asked about it for too long),
    ``ended`` (its player ended it) or ``unknown``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason

    def message(self) -> str:
        return {
            "restart": "this game ended when the server restarted: start a new one",
            "idle": f"this game ended after {IDLE_SECONDS / 60:.0f} minutes without a move",
            "ended": "this game was ended",
        }.get(self.reason, "no such game")


class PlayStore:
    """Every game of one server (thread-safe)."""

    def __init__(
        self,
        *,
        idle: float = IDLE_SECONDS,
        per_client: int = MAX_PER_CLIENT,
        max_games: int = MAX_GAMES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.idle = idle
        self.per_client = per_client
        self.max_games = max_games
        self.clock = clock
        self.boot = secrets.token_hex(3)
        self._games: dict[str, PlaySession] = {}
        self._notes: OrderedDict[str, str] = OrderedDict()
        self._making: dict[str, int] = {}
        self._lock = threading.Lock()

    def _note(self, game_id: str, reason: str) -> None:
        self._notes[game_id] = reason
        while len(self._notes) > MAX_NOTES:
            self._notes.popitem(last=False)

    def tick(self) -> None:
        """End the games nobody has asked about for :attr:`idle` seconds."""
        now = self.clock()
        with self._lock:
            for game_id, session in list(self._games.items()):
                if now - session.touched > self.idle:
                    del self._games[game_id]
                    self._note(game_id, "idle")

    def _count(self, owner: str) -> int:
        mine = sum(1 for s in self._games.values() if s.owner == owner)
        return mine + self._making.get(owner, 0)

    def _refuse_beyond_limits(self, owner: str) -> None:
        if self._count(owner) >= self.per_client:
            raise Busy(
                f"you have {self.per_client} games already: end one (or let one sit"
                f" {self.idle / 60:.0f} minutes) before starting another"
            )
        if len(self._games) + sum(self._making.values()) >= self.max_games:
            raise Busy("the server holds as many games as it can: try again later")

    def check(self, owner: str) -> None:
        """:class:`Busy` when ``owner`` may not start a game now (before one is made)."""
        self.tick()
        with self._lock:
            self._refuse_beyond_limits(owner)

    def create(self, owner: str, make: Callable[[str], PlaySession]) -> PlaySession:
        """A new game of ``owner`` made by ``make(id)``; :class:`Busy` beyond the limits."""
        self.tick()
        with self._lock:
            self._refuse_beyond_limits(owner)
            self._making[owner] = self._making.get(owner, 0) + 1
            game_id = f"{self.boot}-{secrets.token_hex(16)}"
        try:
            session = make(game_id)  # outside the lock: a set may take seconds to generate
        finally:
            with self._lock:
                self._making[owner] -= 1
                if not self._making[owner]:
                    del self._making[owner]
        with self._lock:
            session.touched = self.clock()
            self._games[game_id] = session
        return session

    def gone_reason(self, game_id: str) -> str:
        match = _ID.match(game_id)
        if match is not None and match.group(1) != self.boot:
            return "restart"
        return self._notes.get(game_id, "unknown")

    def get(self, game_id: str, owner: str) -> PlaySession:
        """The game ``game_id`` of ``owner``, touched; :class:`Gone` saying why when there is
        none (another client's game is "unknown": nothing tells it exists)."""
        self.tick()
        with self._lock:
            session = self._games.get(game_id)
            if session is None:
                raise Gone(self.gone_reason(game_id))
            if session.owner != owner:
                raise Gone("unknown")
            session.touched = self.clock()
            return session

    def end(self, game_id: str, owner: str) -> None:
        """End ``owner``'s game ``game_id`` (:class:`Gone` when there is none)."""
        self.get(game_id, owner)
        with self._lock:
            self._games.pop(game_id, None)
            self._note(game_id, "ended")

    def games_of(self, owner: str) -> list[dict[str, Any]]:
        """``owner``'s games, the most recently played first."""
        self.tick()
        with self._lock:
            mine = [s for s in self._games.values() if s.owner == owner]
        mine.sort(key=lambda s: -s.touched)
        out = []
        for session in mine:
            with session.lock:
                state = session.state
                over = state.is_terminal()
                mover = -1 if over else state.current_player()
                out.append(
                    {
                        "id": session.id,
                        "game": session.game_text,
                        "name": session.game.game_type.short_name,
                        "seat": session.you + 1,
                        "over": over,
                        "your_turn": mover in session.people(),
                        "actions": len(session.entries),
                    }
                )
        return out

    def __len__(self) -> int:
        with self._lock:
            return len(self._games)
