"""Chunks of work on a Dask distributed cluster that survive the cluster (game-agnostic).

:func:`run_on_dask` sends each chunk's inputs with its task — nothing is scattered, so nothing
lives only in a worker's memory and a worker's death loses no input: the scheduler runs the
chunk again elsewhere. Every chunk may be retried (:data:`RETRIES`); its result is read back
as soon as it is ready and handed to ``on_result``, then dropped from the cluster, so finished
work is kept by the caller and never lost with a worker. A few chunks per worker thread are in
flight at once, so a sweep of any size holds a bounded number of tasks.

Whatever goes wrong with the cluster ends the run within about ``timeout`` seconds with a
:class:`ClusterError` of one line, after the chunks that finished have been handed over: an
address Dask cannot use, nothing answering as a scheduler (the connection and the first
exchange both have a deadline), no worker joining, every worker leaving, the scheduler going
away, a chunk that kills worker after worker, workers with another version of runarch-gen.

>>> check_address("http://localhost:8787")
Traceback (most recent call last):
...
runarch_gen.play.cluster.ClusterError: http://localhost:8787: not a Dask scheduler address \
(its scheme is one of inproc, tcp, tls, ucx, ws, wss: tcp://HOST:8786)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
import uuid
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from runarch_gen.errors import InputError, RunArchError, check_stop, stop_handled

__all__ = [
    "RETRIES",
    "TIMEOUT",
    "ClusterError",
    "DaskRun",
    "check_address",
    "run_on_dask",
    "scheduler_address",
]

TIMEOUT = 10.0
"""Seconds to wait for the scheduler's answer, for a first worker, or for any worker again."""
RETRIES = 3
"""Times a chunk that raised is tried again before its error is reported."""
PER_THREAD = 3
"""Chunks in flight per worker thread (at least :data:`MIN_IN_FLIGHT` in all)."""
MIN_IN_FLIGHT = 8
POLL = 0.05
"""Seconds between looks at the chunks in flight."""

ChunkT = TypeVar("ChunkT")


class ClusterError(RunArchError):
    """The Dask cluster failed the run (exit code 2): the message is one line."""


class WorkerVersionError(Exception):
    """A worker runs another version of runarch-gen than the client."""


@dataclass(frozen=True, slots=True)
class DaskRun:
    """How a run on Dask ended: ``interrupted`` by Ctrl-C or a signal, or stopped by the
    cluster's ``failure`` (a one-line message), or neither."""

    interrupted: bool
    failure: str | None = None


def scheduler_address(given: str) -> str:
    """The address to use: ``given``, or for ``env`` the ``DASK_SCHEDULER_ADDRESS``."""
    if given.strip().lower() != "env":
        return given.strip()
    address = os.environ.get("DASK_SCHEDULER_ADDRESS", "").strip()
    if not address:
        raise InputError("--scheduler env: DASK_SCHEDULER_ADDRESS is not set")
    return address


def check_address(address: str) -> str:
    """``address`` if Dask can connect to it (a known scheme, a host and port); else a
    :class:`ClusterError` naming what is wrong, before any connection is tried."""
    from distributed.comm import parse_address, registry

    schemes = ", ".join(sorted(registry.backends))
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme not in registry.backends:
        raise ClusterError(
            f"{address}: not a Dask scheduler address (its scheme is one of {schemes}:"
            " tcp://HOST:8786)"
        )
    try:
        parse_address(address)
    except ValueError as exc:
        raise ClusterError(f"{address}: not a Dask scheduler address: {exc}") from None
    if not rest.strip() or rest.startswith(":"):
        raise ClusterError(f"{address}: no host in the address (tcp://HOST:8786)")
    return address


async def _identity(address: str, timeout: float, stage: list[str]) -> dict[str, Any]:
    from distributed.comm import connect, parse_address, parse_host_port
    from distributed.security import Security

    scheme, location = parse_address(address)
    if scheme in ("tcp", "tls", "ws", "wss"):
        # Reach the port first: Dask's own connect waits for the handshake without a limit.
        host, port = parse_host_port(location.split("/", 1)[0])
        _, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
        writer.close()
        stage.append("reached")
    args = Security().get_connection_args("client")
    comm = await asyncio.wait_for(connect(address, timeout=timeout, **args), timeout)
    stage.append("connected")
    try:
        await asyncio.wait_for(comm.write({"op": "identity", "reply": True}), timeout)
        answer = await asyncio.wait_for(comm.read(), timeout)
    finally:
        with contextlib.suppress(Exception):
            comm.abort()
    return answer if isinstance(answer, dict) else {}


def probe(address: str, timeout: float = TIMEOUT) -> None:
    """Make sure a Dask scheduler answers at ``address``, allowing ``timeout`` seconds to
    connect and as many for its answer: a port where something else listens (a dashboard, a
    web server) would otherwise hold the connection for ever. Raises :class:`ClusterError`."""
    stage: list[str] = []
    try:
        answer = asyncio.run(_identity(address, timeout, stage))
    except Exception as exc:  # any failure to connect or to speak: one line
        if stage:
            raise ClusterError(
                f"{address}: something listens there but does not answer as a Dask scheduler"
                f" within {timeout:g} s (the scheduler's port is usually 8786, its dashboard's"
                " 8787)"
            ) from None
        why = "" if isinstance(exc, TimeoutError) else " ".join(str(exc).split())
        if why:
            raise ClusterError(f"{address}: cannot connect to a Dask scheduler ({why})") from None
        raise ClusterError(f"{address}: no Dask scheduler answered within {timeout:g} s") from None
    if answer.get("type") != "Scheduler":
        raise ClusterError(f"{address}: what answers there is not a Dask scheduler")


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Dask's own log lines (reconnecting, lost workers, …) off while it runs: the command says
    what happened, in one line."""
    before = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        yield
    finally:
        logging.disable(before)


def _on_worker(version: str, function: Callable[..., Any], *args: Any) -> Any:
    """Run one chunk on a worker, if it runs the client's version of runarch-gen."""
    from runarch_gen import __version__

    if __version__ != version:
        raise WorkerVersionError(f"a worker runs runarch-gen {__version__}, this is {version}")
    return function(*args)


def _threads(client: Any) -> int:
    info = client.scheduler_info(n_workers=-1)
    return sum(int(w.get("nthreads", 1)) for w in info.get("workers", {}).values())


RESUBMITS = 50
"""How many chunks a run plays again after the scheduler cancelled them while the client ran."""


def run_on_dask(
    function: Callable[..., Any],
    chunks: Iterable[tuple[ChunkT, tuple[Any, ...]]],
    on_result: Callable[[ChunkT, Any], None],
    *,
    address: str,
    timeout: float = TIMEOUT,
) -> DaskRun:
    """Run ``function(*args)`` for each ``(tag, args)`` of ``chunks`` on the Dask cluster at
    ``address`` and hand each result to ``on_result(tag, result)`` as it comes (in any order).

    ``function`` must be importable on the workers (a module-level function of an installed
    package) and ``args`` picklable. Ctrl-C or a stop signal cancels what is still running
    and returns with ``interrupted``; a cluster failure returns with ``failure`` (a line to
    print) after ``timeout`` seconds at most of waiting. An error the chunk itself raises,
    after :data:`RETRIES` more tries, is raised here.
    """
    try:
        import dask
        from distributed import Client, KilledWorker
    except ImportError:
        raise InputError(
            "--scheduler needs Dask distributed: pip install 'runarch-gen[cluster]'"
        ) from None
    from runarch_gen import __version__

    settings = {
        "distributed.comm.timeouts.connect": f"{timeout}s",
        "distributed.comm.timeouts.tcp": f"{max(timeout, 30)}s",
    }
    client = None
    pending: dict[Any, tuple[ChunkT, tuple[Any, ...]]] = {}
    resubmitted = 0
    try:
        with _quiet(), dask.config.set(settings):
            check_address(address)
            probe(address, timeout)
            try:
                with warnings.catch_warnings():
                    # Dask warns of other versions of its own dependencies on the workers in
                    # many lines; what matters here, runarch-gen's version, is checked per chunk.
                    warnings.simplefilter("ignore")
                    client = Client(address, timeout=timeout, set_as_default=False)
            except Exception as exc:
                why = " ".join(str(exc).split()) or type(exc).__name__
                raise ClusterError(f"{address}: cannot connect to the scheduler ({why})") from None
            queue = deque(chunks)
            token = uuid.uuid4().hex[:12]
            last_worker = time.monotonic()
            lost_since: float | None = None
            threads, checked, seen = 0, 0.0, False
            number = 0
            while queue or pending:
                check_stop()
                now = time.monotonic()
                if client.status != "running":
                    lost_since = lost_since or now
                    if now - lost_since > min(timeout, 5.0):
                        raise ClusterError(f"{address}: lost the Dask scheduler")
                else:
                    lost_since = None
                if now - checked >= 1.0 and lost_since is None:
                    try:
                        threads = _threads(client)
                    except Exception:
                        threads = 0
                    checked = now
                    if threads:
                        last_worker, seen = now, True
                    elif now - last_worker > timeout:
                        raise ClusterError(
                            f"{address}: every Dask worker left the scheduler (none for"
                            f" {timeout:g} s)"
                            if seen
                            else f"{address}: no Dask worker joined the scheduler within"
                            f" {timeout:g} s"
                        )
                room = max(MIN_IN_FLIGHT, PER_THREAD * threads) - len(pending)
                while queue and room > 0 and lost_since is None:
                    tag, args = queue.popleft()
                    number += 1
                    future = client.submit(
                        _on_worker,
                        __version__,
                        function,
                        *args,
                        key=f"runarch-gen-{token}-{number}",
                        retries=RETRIES,
                        pure=False,
                    )
                    pending[future] = tag, args
                    room -= 1
                # "lost": its result died with a worker before it was fetched; the scheduler
                # computes it again, so it is waited for like a pending one.
                done = [future for future in pending if future.status not in ("pending", "lost")]
                if not done:
                    time.sleep(POLL)
                    continue
                for future in done:
                    tag, args = pending.pop(future)
                    status = future.status
                    if status in ("pending", "lost"):  # it changed since the look above
                        pending[future] = tag, args
                        continue
                    if (
                        status == "cancelled"
                        and client.status == "running"
                        and resubmitted < RESUBMITS
                    ):
                        # Cancelled by the scheduler while the client still runs (a worker's
                        # death under load can do this): the chunk is played again, a bounded
                        # number of times.
                        resubmitted += 1
                        queue.appendleft((tag, args))
                        continue
                    if status not in ("finished", "error"):
                        raise ClusterError(f"{address}: lost the Dask scheduler (a task {status})")
                    try:
                        value = future.result() if status == "finished" else None
                        error = future.exception() if status == "error" else None
                    except KeyboardInterrupt:
                        raise
                    except BaseException as exc:  # the scheduler went while results came
                        why = " ".join(str(exc).split())[:80] or type(exc).__name__
                        raise ClusterError(f"{address}: lost the Dask scheduler ({why})") from None
                    if error is None:
                        on_result(tag, value)
                    elif isinstance(error, KilledWorker):
                        raise ClusterError(
                            f"{address}: a chunk of work was running on each of several"
                            " workers as they died; stopped"
                        )
                    elif isinstance(error, WorkerVersionError):
                        raise ClusterError(f"{address}: {error}")
                    elif isinstance(error, ImportError):
                        raise ClusterError(
                            f"{address}: a worker cannot import what the games need"
                            f" ({error}): install runarch-gen on every worker"
                        )
                    else:
                        raise error
                    future.release()
    except KeyboardInterrupt:
        stop_handled()
        return DaskRun(True)
    except ClusterError as exc:
        return DaskRun(False, str(exc))
    finally:
        if client is not None:
            _close(client, list(pending))
    return DaskRun(False)


def _close(client: Any, futures: list[Any]) -> None:
    """Cancel what is still running and let the client go, in bounded time (the scheduler
    may be gone)."""
    with _quiet(), contextlib.suppress(Exception):
        if futures and client.status == "running":
            client.cancel(futures, force=True)
    with _quiet(), contextlib.suppress(Exception):
        client.close(timeout=3)
