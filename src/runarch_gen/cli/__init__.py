"""The ``runarch-gen`` command line.

:func:`main` runs the Typer app without Click's standalone mode so that every error ends as
one line on stderr and a documented exit code (see :mod:`runarch_gen.errors`), never a
traceback or a usage dump.
"""

from __future__ import annotations

import io
import os
import signal
import stat
import sys
from typing import Any

import typer

# The command modules are imported when their command is asked for (cli/_app.py): a command
# line loads only the one it runs.
from runarch_gen.cli._app import INTERRUPT_REPORTED, app
from runarch_gen.errors import (
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    MAX_MESSAGE,
    RunArchError,
    Stopped,
    cut,
    stop_handled,
    stop_requested,
)

__all__ = ["app", "main"]


def main(argv: list[str] | None = None) -> None:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``) and exit."""
    _stop_on_signals()
    _survive_a_closed_pipe()
    code = run(argv)
    # The command has ended and said so: a signal during the interpreter's shutdown (which
    # still imports and cleans up) must not print a traceback after that.
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)
    if code in (EXIT_INTERRUPTED, *(stop.exit_code for stop in _signalled)):
        # Stopped: every temporary file is gone and every worker ended, and the message is
        # out. A CP-SAT search stopped half-way can leave native threads that the C++
        # destructors of a normal exit abort on ("terminate called …", exit -6), so the
        # process ends here, without them.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


class _PipeWriter(io.RawIOBase):
    """Standard output into a pipe whose reader may leave early (``check x | head -1``): once
    the pipe is closed the rest of the output is dropped, and the command goes on to its end
    and its real exit code instead of dying of a BrokenPipeError."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd
        self._closed_pipe = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def write(self, data: Any) -> int:
        size = len(data)
        if self._closed_pipe:
            return size
        try:
            return os.write(self._fd, data)
        except BrokenPipeError:
            self._closed_pipe = True
            return size


def _survive_a_closed_pipe() -> None:
    try:
        mode = os.fstat(1).st_mode
    except OSError:
        return
    same = sys.stdout is sys.__stdout__
    if not same or not stat.S_ISFIFO(mode):
        return  # a terminal, a file, or a stream a caller has put in place
    sys.stdout.flush()
    sys.stdout = io.TextIOWrapper(
        io.BufferedWriter(_PipeWriter(1)), encoding="utf-8", errors="replace"
    )


_signalled: list[Stopped] = []


def _stop_on_signals() -> None:
    # SIGTERM and SIGHUP stop a command as Ctrl-C does: the exception unwinds through the
    # same clean-up (temporary files and folders removed, worker processes ended).
    def stop(signum: int, frame: object) -> None:
        _signalled.append(Stopped(signum, signal.Signals(signum).name))
        stop_requested(_signalled[-1])
        raise _signalled[-1]

    def interrupt(signum: int, frame: object) -> None:
        exc = KeyboardInterrupt()
        stop_requested(exc)
        raise exc

    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, stop)
    signal.signal(signal.SIGINT, interrupt)


def run(argv: list[str] | None = None) -> int:
    """Run the command line and return its exit code instead of exiting."""
    args = sys.argv[1:] if argv is None else argv
    INTERRUPT_REPORTED.clear()  # state of this run only (tests and servers call run() again)
    _signalled.clear()
    stop_handled()
    try:
        result = app(args=args, prog_name="runarch-gen", standalone_mode=False)
    except typer.TyperException as exc:  # Click's usage errors: bad option, missing argument …
        if not exc.format_message().strip():  # no command given: the help was printed
            return exc.exit_code
        ctx = getattr(exc, "ctx", None)
        where = ctx.command_path if ctx is not None else "runarch-gen"
        hint = " (see --help)" if exc.exit_code == EXIT_USAGE else ""
        _fail(f"{where}: error: {exc.format_message()}{hint}")
        return exc.exit_code
    except RunArchError as exc:
        _fail(f"runarch-gen: error: {exc}")
        return exc.exit_code
    except Stopped as exc:  # before a command started (typer handles the rest)
        _fail(f"runarch-gen: stopped by {exc.name}")
        return exc.exit_code
    except (KeyboardInterrupt, typer.Abort):
        _fail("runarch-gen: interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); nothing more to say to it.
        sys.stderr.close()
        return 0
    except OSError as exc:
        # A path the system refuses (a name too long, a part that is not a folder …) that
        # reached no reader's own check: one line naming it, exit 2.
        if exc.filename is None:
            raise
        from runarch_gen.fileio import refused

        _fail(f"runarch-gen: error: {refused(exc.filename, exc, 'cannot use')}")
        return EXIT_USAGE
    except ImportError as exc:
        # A signal that lands while a native extension initialises surfaces as its
        # ImportError ("initialization failed"), the interrupt as its cause.
        stop = _interrupt_in(exc)
        if stop is None:
            raise
        if isinstance(stop, Stopped):
            _fail(f"runarch-gen: stopped by {stop.name}")
            return stop.exit_code
        _fail("runarch-gen: interrupted")
        return EXIT_INTERRUPTED
    code = result if isinstance(result, int) else 0
    if code == EXIT_INTERRUPTED:
        # Typer turns a KeyboardInterrupt inside a command into exit code 130 without a word;
        # a command that reported its partial work has said so already.
        if not INTERRUPT_REPORTED:
            _fail(
                f"runarch-gen: stopped by {_signalled[-1].name}"
                if _signalled
                else "runarch-gen: interrupted"
            )
        if _signalled:
            return _signalled[-1].exit_code
    return code


def _interrupt_in(exc: BaseException) -> KeyboardInterrupt | None:
    """The interrupt (Ctrl-C or a stop signal) in ``exc``'s chain of causes, if any."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, KeyboardInterrupt):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


def _fail(message: str) -> None:
    sys.stderr.write(cut(message, MAX_MESSAGE + 200) + "\n")
    sys.stderr.flush()
