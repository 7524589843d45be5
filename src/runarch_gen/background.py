"""One function call in a forked child process, beside other work on the other core.

A kit checks its deck and its set while it draws: each check is a pure function of data the
parent already holds, so a forked child computes it without pickling the inputs, and sends back
the result (or the exception, which :meth:`Forked.result` raises in the parent). Where the
platform cannot fork, the call runs at once in the parent and nothing changes for the caller.

>>> job = Forked(sum, [1, 2, 3], what="the sum")
>>> job.result()
6
>>> job = Forked(int, "x", what="the number")
>>> job.result()
Traceback (most recent call last):
...
ValueError: invalid literal for int() with base 10: 'x'
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

from runarch_gen.errors import RunArchError

T = TypeVar("T")

__all__ = ["STOP_SIGNALS", "Forked", "release_signals", "signals_held"]

STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP})
"""The signals that stop a command (Ctrl-C, SIGTERM, SIGHUP)."""


@contextmanager
def signals_held() -> Iterator[None]:
    """Hold the stop signals while processes are forked, and deliver them after.

    A signal whose handler raises while ``os.fork`` runs CPython's at-fork hooks is reported
    as "Exception ignored" and forgotten: the command would go on as if never stopped. Held
    here, it is delivered when the block ends, where the caller can clean up. Forked children
    start with the signals held and call :func:`release_signals` once their handlers are set.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def release_signals() -> None:
    """In a child forked under :func:`signals_held`: take the stop signals again."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


class Forked(Generic[T]):
    """``function(*args)`` in a forked child; :meth:`result` waits for it, :meth:`close` stops
    the child if the result is no longer wanted. ``what`` names the result in the error raised
    when the child dies without one."""

    def __init__(self, function: Callable[..., T], *args: Any, what: str) -> None:
        self._what = what
        self._done = False
        self._value: Any = None
        self._process: Any = None
        import multiprocessing  # here: a command that forks nothing needs none of it

        if "fork" not in multiprocessing.get_all_start_methods():
            self._done, self._value = True, _outcome(function, args)
            return
        context = multiprocessing.get_context("fork")
        self._receive, send = context.Pipe(duplex=False)
        self._process = context.Process(target=_in_child, args=(function, args, send), daemon=True)
        with signals_held():
            self._process.start()
        send.close()

    def result(self) -> T:
        """The function's return value; its exception is raised here."""
        if not self._done:
            try:
                self._value = self._receive.recv()
            except EOFError:
                self._value = RunArchError(f"{self._what} stopped without a result{self._why()}")
            finally:
                self.close()
            self._done = True
        if isinstance(self._value, BaseException):
            raise self._value
        value: T = self._value
        return value

    def _why(self) -> str:
        """How the child ended, when it died without sending a result."""
        if self._process is None:
            return ""
        self._process.join(timeout=1.0)
        code = self._process.exitcode
        if code is not None and code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f": its process was killed by {name} (out of memory?); nothing was written"
        return f": its process ended with exit code {code}; nothing was written"

    def close(self) -> None:
        if self._process is not None:
            if self._process.is_alive():
                self._process.terminate()
            self._process.join()
            self._receive.close()
            self._process = None


def _outcome(function: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    try:
        return function(*args)
    except Exception as exc:  # kept, and raised by result() as in the forked case
        return exc


def _in_child(function: Callable[..., Any], args: tuple[Any, ...], send: Any) -> None:
    try:
        # A stop signal held since the fork arrives here, as soon as it is released: it is
        # handed to the parent like any exception the function raises, never a traceback.
        release_signals()
        outcome: Any = function(*args)
    except BaseException as exc:  # handed to the parent, which raises it
        outcome = exc
    try:
        send.send(outcome)
    except BaseException:  # the parent stopped listening (it was stopped too): nothing to say
        pass
    finally:
        send.close()
