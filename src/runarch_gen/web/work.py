"""Work a request asks for, bounded and cancellable.

A handler runs its computation with :func:`run_cancellable`: in a worker thread, with a
``threading.Event`` that is set when the client disconnects or the server stops. The library's
long loops (a conflict's explanation, N boards from CP-SAT) look at that event between steps
and end with :class:`~runarch_gen.runarch.boards.explain.Cancelled`, so no thread computes
for a client that left, and stopping the server never waits on one.

Conflict explanations run on a small pool of their own (:data:`EXPLAINERS` threads, daemon
threads: they never hold the process open), with a time limit, and their *messages* are
cached — never exception objects, whose tracebacks would grow with every raise.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from runarch_gen.runarch.boards.constraints import BoardConstraints
from runarch_gen.runarch.boards.explain import EXPLAIN_SECONDS, Cancelled

__all__ = ["Busy", "Cancelled", "ClientGone", "conflict", "run_cancellable", "stopping_event"]

P = ParamSpec("P")
T = TypeVar("T")

EXPLAINERS = 2
MAX_EXPLAINING = 16
"""Conflicts explained or waiting at once; beyond, 429."""


def stopping_event(request: Request) -> threading.Event:
    """The application's own event, set when its server stops (``app.state.stopping``)."""
    event: threading.Event = request.app.state.stopping
    return event


class Busy(Exception):
    """Too much at once: too many jobs, or too many conflicts being explained."""


class ClientGone(Exception):
    """The client disconnected before the answer was ready (nothing is sent)."""


class _Cancel(threading.Event):
    """An event set by the client's disconnect, and seen set once the server stops."""

    def __init__(self, stopping: threading.Event) -> None:
        super().__init__()
        self.stopping = stopping

    def is_set(self) -> bool:
        return super().is_set() or self.stopping.is_set()


async def _watch(request: Request, cancel: _Cancel) -> None:
    """Set ``cancel`` when the client disconnects (the body has been read by then)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            cancel.set()
            return


async def run_cancellable(
    request: Request, function: Callable[..., T], *args: object, **kwargs: object
) -> T:
    """``function(*args, cancel=EVENT, **kwargs)`` in a worker thread; ``EVENT`` is set when
    the client disconnects or the server stops. Raises :class:`ClientGone` if it did."""
    cancel = _Cancel(stopping_event(request))
    watcher = asyncio.create_task(_watch(request, cancel))
    try:
        return await run_in_threadpool(functools.partial(function, *args, cancel=cancel, **kwargs))
    except Cancelled:
        raise ClientGone from None
    finally:
        watcher.cancel()


# ---------------------------------------------------------------------------------------------
# Conflicts

_explainers = threading.BoundedSemaphore(EXPLAINERS)
_explaining = [0]
_messages: dict[tuple[BoardConstraints, str], str] = {}
MAX_CACHED = 512


def _explain(constraints: BoardConstraints, lang: str, cancel: _Cancel) -> str:
    from runarch_gen.runarch.boards.generate import contradiction

    key = (constraints, lang)
    cached = _messages.get(key)
    if cached is not None:
        return cached
    while not _explainers.acquire(timeout=0.05):  # at most EXPLAINERS at once
        if cancel.is_set():
            raise Cancelled
    try:
        message = str(
            contradiction(constraints, lang=lang, time_limit=EXPLAIN_SECONDS, cancel=cancel)
        )
    finally:
        _explainers.release()
    if "(no reason found within" not in message and "(důvod se nenašel" not in message:
        if len(_messages) >= MAX_CACHED:
            _messages.pop(next(iter(_messages)))
        _messages[key] = message
    return message


async def conflict(request: Request, constraints: BoardConstraints, lang: str) -> str:
    """The message for constraints no board meets, explained within the time limit."""
    cached = _messages.get((constraints, lang))
    if cached is not None:
        return cached
    if _explaining[0] >= MAX_EXPLAINING:
        raise Busy("too many contradictions are being explained at once: try again")
    _explaining[0] += 1
    try:
        return await run_cancellable(request, _explain, constraints, lang)
    finally:
        _explaining[0] -= 1
