"""A progress bar on a terminal, silence when piped, or JSON in a file for a supervising
program (the environment variable ``RUNARCH_GEN_PROGRESS_FILE``, see :class:`ProgressFile`).

>>> with progress(3, "boards", enabled=False) as advance:
...     for _ in range(3):
...         advance(1)
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Callable, Iterator

PROGRESS_FILE = "RUNARCH_GEN_PROGRESS_FILE"
"""Environment variable naming a file where progress is written as JSON instead of drawn."""

Reporter = Callable[[str, "int | None", int], None]
"""Receives ``(label, total, n)`` for every ``advance(n)`` while :func:`report_to` is active."""

_reporter: list[Reporter] = []


@contextlib.contextmanager
def report_to(reporter: Reporter) -> Iterator[None]:
    """Send every bar's progress to ``reporter`` instead of drawing it, for as long as the
    block runs (a web server's worker process reports a command's progress this way).

    >>> seen = []
    >>> with report_to(lambda label, total, n: seen.append((label, total, n))):
    ...     with progress(2, "boards") as advance:
    ...         advance(1)
    >>> seen
    [('boards', 2, 0), ('boards', 2, 1)]
    """
    _reporter.append(reporter)
    try:
        yield
    finally:
        _reporter.remove(reporter)


class ProgressFile:
    """A reporter that keeps ``{"label", "total", "done", "steps"}`` (the current bar, and the
    steps of every bar so far) in a JSON file, replaced atomically at most every 0.2 s and at
    each new bar. A web server reads it to show a command's progress.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self.label = ""
        self.total: int | None = None
        self.done = 0
        self.steps = 0
        self._last = 0.0

    def __call__(self, label: str, total: int | None, n: int) -> None:
        if label != self.label:
            self.label, self.total, self.done, self._last = label, total, 0, 0.0
        elif total != self.total:  # the same bar, its total now known
            self.total, self._last = total, 0.0
        self.done += n
        self.steps += n
        now = time.monotonic()
        if now - self._last >= 0.2 or (total is not None and self.done >= total):
            self._last = now
            state = {"label": label, "total": total, "done": self.done, "steps": self.steps}
            tmp = f"{self.path}.tmp"
            with open(tmp, "w", encoding="utf-8") as out:
                json.dump(state, out)
            os.replace(tmp, self.path)


_files: dict[str, ProgressFile] = {}


def _environment_reporter() -> Reporter | None:
    path = os.environ.get(PROGRESS_FILE)
    if not path:
        return None
    if path not in _files:
        _files[path] = ProgressFile(path)
    return _files[path]


def stderr_is_terminal() -> bool:
    """Whether progress may be drawn: stderr is an interactive terminal."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


class Advance:
    """The ``advance(n)`` of a bar; :meth:`set_total` gives the bar its total once the work
    knows it (a deck knows its steps only once its goals are chosen).

    >>> seen = []
    >>> with report_to(lambda label, total, n: seen.append((total, n))):
    ...     with progress(None, "deck") as advance:
    ...         advance(1)
    ...         advance.set_total(3)
    ...         advance(2)
    >>> seen
    [(None, 0), (None, 1), (3, 0), (3, 2)]
    """

    def __init__(self, step: Callable[[int], None], total: Callable[[int], None]) -> None:
        self._step = step
        self._total = total

    def __call__(self, n: int) -> None:
        self._step(n)

    def set_total(self, total: int) -> None:
        self._total(total)


@contextlib.contextmanager
def progress(total: int | None, label: str, *, enabled: bool | None = None) -> Iterator[Advance]:
    """Yield an ``advance(n)`` callable (an :class:`Advance`) that moves a bar of ``total``
    steps on stderr.

    ``enabled`` defaults to :func:`stderr_is_terminal`; when disabled nothing is printed and
    ``advance`` costs one function call.
    """
    reporter = _reporter[-1] if _reporter else _environment_reporter()
    if reporter is not None:
        known = [total]

        def told(n: int) -> None:
            reporter(label, known[0], n)

        def new_total(n: int) -> None:
            known[0] = n
            reporter(label, n, 0)

        reporter(label, total, 0)
        yield Advance(told, new_total)
        return
    show = stderr_is_terminal() if enabled is None else enabled
    if not show:
        yield Advance(_ignore, _ignore)
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    with bar:
        task = bar.add_task(label, total=total)

        def advance(n: int) -> None:
            bar.advance(task, n)

        def new_total(n: int) -> None:
            bar.update(task, total=n)

        yield Advance(advance, new_total)


def _ignore(n: int) -> None:
    del n
