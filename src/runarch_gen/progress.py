"""A progress bar on a terminal, silence when piped.

>>> with progress(3, "boards", enabled=False) as advance:
...     for _ in range(3):
...         advance(1)
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator

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


def stderr_is_terminal() -> bool:
    """Whether progress may be drawn: stderr is an interactive terminal."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


@contextlib.contextmanager
def progress(
    total: int | None, label: str, *, enabled: bool | None = None
) -> Iterator[Callable[[int], None]]:
    """Yield an ``advance(n)`` callable that moves a bar of ``total`` steps on stderr.

    ``enabled`` defaults to :func:`stderr_is_terminal`; when disabled nothing is printed and
    ``advance`` costs one function call.
    """
    if _reporter:
        reporter = _reporter[-1]
        reporter(label, total, 0)
        yield lambda n: reporter(label, total, n)
        return
    show = stderr_is_terminal() if enabled is None else enabled
    if not show:
        yield _ignore
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

        yield advance


def _ignore(n: int) -> None:
    del n
