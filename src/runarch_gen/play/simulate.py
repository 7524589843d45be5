"""Run many independent games across worker processes, reproducibly (game-agnostic).

A *task* (any picklable value: rules, board, deck, bot names …) and a top-level function
``play_one(task, index, seed)`` describe the games; :func:`run_games` plays games ``0 … n-1``,
each with its own seed derived from the master seed and the game's index
(:func:`game_seed`), and returns the results **in game-index order**. Nothing depends on which
worker played which game, so the results — and any report built from them — are the same for
one worker or twenty.

Games go to workers in small chunks; ``on_progress(n)`` is called in the calling process with
the number of games just finished (the ``advance`` of :func:`runarch_gen.progress.progress`).
Ctrl-C (or a ``KeyboardInterrupt`` raised by ``on_progress``) stops the workers and returns
the games finished so far, with ``interrupted`` set.

>>> run = run_games(_last_digits, None, games=4, seed=7, workers=1)
>>> run.results == tuple(game_seed(7, i) % 10 ** 2 for i in range(4)), run.interrupted
(True, False)
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from runarch_gen.background import release_signals, signals_held
from runarch_gen.errors import check_stop, stop_handled

__all__ = [
    "GameRun",
    "available_workers",
    "chunk_size",
    "game_seed",
    "indices_text",
    "run_games",
    "worker_count",
]

TaskT = TypeVar("TaskT")
ResultT = TypeVar("ResultT")


def game_seed(master: int, index: int) -> int:
    """The seed of game ``index`` of a run with seed ``master``: 63 bits of a hash of both, so
    neighbouring games get unrelated seeds and no game's seed depends on the number of games.

    >>> game_seed(1, 0) == game_seed(1, 0) != game_seed(1, 1)
    True
    """
    digest = hashlib.blake2b(f"{master}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def available_workers() -> int:
    """The cores this process may use (the default number of workers)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def worker_count(requested: int | None, games: int) -> int:
    """The processes a run of ``games`` games uses: ``requested`` (default: every core), but
    never more than the cores this process may use, nor than the games (more would only
    compete for the same cores; the results do not depend on the number)."""
    if requested is not None and requested < 1:
        raise ValueError(f"workers must be 1 or more, not {requested}")
    cores = available_workers()
    return max(1, min(requested or cores, cores, games))


@dataclass(frozen=True, slots=True)
class GameRun(Generic[ResultT]):
    """The results of the games that finished, in game-index order, and their indices.

    ``indices`` is ``0 … len(results) - 1`` unless the run was interrupted, when it lists the
    games that had finished (in order; with several workers there may be gaps).
    """

    results: tuple[ResultT, ...]
    indices: tuple[int, ...]
    requested: int
    interrupted: bool


IN_FLIGHT = 4
"""Chunks handed to each worker ahead of the results read back."""


def chunk_size(games: int, workers: int) -> int:
    """Games per chunk: small enough for a smooth progress bar and balanced workers, large
    enough that sending tasks costs little (at most 25 games, about 40 chunks per worker)."""
    return max(1, min(25, games // (workers * 40) or 1))


def run_games(
    play_one: Callable[[TaskT, int, int], ResultT],
    task: TaskT,
    *,
    games: int,
    seed: int,
    workers: int | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> GameRun[ResultT]:
    """Play games ``0 … games-1`` with ``play_one(task, index, game_seed(seed, index))``.

    ``workers`` defaults to :func:`available_workers` and is capped by it
    (:func:`worker_count`); 1 plays in this process. ``play_one`` must be a module-level
    function and ``task`` picklable when ``workers`` > 1.
    """
    if games < 0:
        raise ValueError(f"games must be 0 or more, not {games}")
    count = worker_count(workers, games)
    advance = on_progress or (lambda n: None)
    done: dict[int, ResultT] = {}
    interrupted = False
    python_handles_ctrl_c()
    if count == 1:
        try:
            check_stop()
            for index in range(games):
                done[index] = play_one(task, index, game_seed(seed, index))
                advance(1)
                check_stop()
        except KeyboardInterrupt:
            stop_handled()
            interrupted = True
    else:
        interrupted = _run_in_pool(play_one, task, games, seed, count, advance, done)
    order = tuple(sorted(done))
    return GameRun(tuple(done[i] for i in order), order, games, interrupted)


def python_handles_ctrl_c() -> None:
    """Give Ctrl-C back to Python, so that it raises :class:`KeyboardInterrupt` here. Native
    code that catches SIGINT itself (a CP-SAT solve does, by default, when the set to play was
    generated) can leave the signal's default action behind, which would kill the process
    outright instead of letting the run stop cleanly and report what it finished."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.getsignal(signal.SIGINT))


# Worker side: the task arrives once per worker, through the pool's initializer.
_worker_task: Any = None
_worker_play: Any = None


def _init_worker(play_one: Any, task: Any) -> None:
    global _worker_task, _worker_play
    # Ctrl-C goes to the whole process group: the parent decides what happens, and workers
    # that die of it would print tracebacks of their own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The parent's SIGTERM handler would make a terminated worker print a traceback.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    release_signals()  # forked with them held (see _run_in_pool)
    _worker_play, _worker_task = play_one, task


def _play_chunk(chunk: tuple[int, int, int]) -> list[tuple[int, Any]]:
    start, stop, seed = chunk
    return [(i, _worker_play(_worker_task, i, game_seed(seed, i))) for i in range(start, stop)]


def _run_in_pool(
    play_one: Callable[[TaskT, int, int], ResultT],
    task: TaskT,
    games: int,
    seed: int,
    workers: int,
    advance: Callable[[int], None],
    done: dict[int, ResultT],
) -> bool:
    size = chunk_size(games, workers)
    # Chunks are made as the workers ask for them, at most IN_FLIGHT per worker ahead: a run
    # of a billion games holds a few chunks, not all of them, before its first game.
    window = threading.BoundedSemaphore(IN_FLIGHT * workers)
    stopping = threading.Event()

    def chunks() -> Iterator[tuple[int, int, int]]:
        for start in range(0, games, size):
            while not window.acquire(timeout=0.1):
                if stopping.is_set():
                    return
            if stopping.is_set():
                return
            yield start, min(start + size, games), seed

    pool = None
    try:
        # A stop signal during the forks would be lost in CPython's at-fork hooks: held, it
        # arrives when the pool stands, and stops the run like any other.
        with signals_held():
            pool = multiprocessing.get_context().Pool(workers, _init_worker, (play_one, task))
        check_stop()
        results: Iterator[list[tuple[int, Any]]] = pool.imap_unordered(_play_chunk, chunks())
        for finished in results:
            window.release()
            for index, result in finished:
                done[index] = result
            advance(len(finished))
            check_stop()
    except KeyboardInterrupt:
        stop_handled()
        stopping.set()
        if pool is not None:
            pool.terminate()
            pool.join()
        return True
    except BaseException:
        stopping.set()
        if pool is not None:
            pool.terminate()
            pool.join()
        raise
    pool.close()
    pool.join()
    return False


def _last_digits(task: object, index: int, seed: int) -> int:
    # For the module's example: a "game" whose result is the last two digits of its seed.
    del task, index
    return seed % 10**2


def indices_text(indices: Sequence[int]) -> str:
    """``0-9, 12, 14-15``: finished game numbers, compactly (for interrupted runs)."""
    parts: list[str] = []
    start = prev = None
    for i in indices:
        if start is None:
            start = prev = i
        elif prev is not None and i == prev + 1:
            prev = i
        else:
            parts.append(f"{start}-{prev}" if start != prev else str(start))
            start = prev = i
    if start is not None:
        parts.append(f"{start}-{prev}" if start != prev else str(start))
    return ", ".join(parts)
