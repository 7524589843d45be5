"""A progress bar on a terminal, silence when piped.

>>> with progress(3, "boards", enabled=False) as advance:
...     for _ in range(3):
...         advance(1)
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator


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
