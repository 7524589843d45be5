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

import contextlib
import hashlib
import itertools
import os
import signal
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from runarch_gen.background import release_signals, signals_held
from runarch_gen.errors import RunArchError, check_stop, stop_handled

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
"""Chunks handed to each worker at the start; one more for each chunk read back."""


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


# The pool. Each worker is a process of this one with a pipe of its own: chunks go down it and
# results come back, so no lock is shared between processes. (multiprocessing.Pool shares its
# queues' locks: a worker killed while holding one, as a SIGTERM to the whole process group
# does, left pool.terminate() waiting for ever.) Workers ignore the stop signals: the parent
# decides, and ends them with SIGKILL when it stops; a worker whose parent is gone finds its
# pipe closed and ends too.


def _worker(connection: Any, play_one: Any, task: Any) -> None:
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)
    release_signals()  # forked with them held (see _run_in_pool)
    try:
        while True:
            chunk = connection.recv()
            if chunk is None:
                return
            start, stop, seed = chunk
            try:
                result: Any = [
                    (i, play_one(task, i, game_seed(seed, i))) for i in range(start, stop)
                ]
            except Exception as exc:  # handed to the parent, which raises it
                result = _picklable(exc)
            connection.send(result)
    except (EOFError, OSError):  # the parent is gone
        return


def _picklable(exc: Exception) -> Exception:
    import pickle

    try:
        pickle.dumps(exc)
    except Exception:
        return RuntimeError(repr(exc))
    return exc


def _run_in_pool(
    play_one: Callable[[TaskT, int, int], ResultT],
    task: TaskT,
    games: int,
    seed: int,
    workers: int,
    advance: Callable[[int], None],
    done: dict[int, ResultT],
) -> bool:
    import multiprocessing  # here: one worker needs none of it
    from multiprocessing.connection import wait

    size = chunk_size(games, workers)
    chunks = ((start, min(start + size, games), seed) for start in range(0, games, size))
    context = multiprocessing.get_context()
    processes: list[Any] = []
    busy: dict[Any, int] = {}  # a worker's end of the pipe → chunks handed to it, not returned
    try:
        # A stop signal during the forks would be lost in CPython's at-fork hooks: held, it
        # arrives when the workers stand, and stops the run like any other.
        with signals_held():
            for _ in range(workers):
                mine, theirs = context.Pipe()
                process = context.Process(
                    target=_worker, args=(theirs, play_one, task), daemon=True
                )
                process.start()
                theirs.close()
                processes.append(process)
                busy[mine] = 0
        check_stop()
        for connection in busy:
            for chunk in itertools.islice(chunks, IN_FLIGHT):
                connection.send(chunk)
                busy[connection] += 1
        while any(busy.values()):
            ready: list[Any] = wait([c for c, n in busy.items() if n], timeout=0.2)
            for connection in ready:
                try:
                    finished = connection.recv()
                except (EOFError, OSError):
                    raise RunArchError(
                        "a worker process died (out of memory?); nothing was written"
                    ) from None
                if isinstance(finished, Exception):
                    raise finished
                busy[connection] -= 1
                for index, result in finished:
                    done[index] = result
                advance(len(finished))
                for chunk in itertools.islice(chunks, 1):
                    connection.send(chunk)
                    busy[connection] += 1
            check_stop()
    except KeyboardInterrupt:
        stop_handled()
        _end(processes, busy, kill=True)
        return True
    except BaseException:
        _end(processes, busy, kill=True)
        raise
    _end(processes, busy, kill=False)
    return False


def _end(processes: list[Any], connections: dict[Any, int], *, kill: bool) -> None:
    """End the workers: at once (SIGKILL: they hold nothing the parent waits for), or by
    telling each that no more chunks come."""
    for connection in connections:
        if not kill:
            with contextlib.suppress(OSError):
                connection.send(None)
    for process in processes:
        if kill:
            process.kill()
        process.join(timeout=None if kill else 5)
        if process.is_alive():
            process.kill()
            process.join()
    for connection in connections:
        connection.close()


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
