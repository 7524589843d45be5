"""The package's exceptions and the exit codes the command line maps them to.

Every error a user can cause derives from :class:`RunArchError`; its ``exit_code`` is what the
command line exits with after printing the message as one line on stderr.

Exit codes (documented in docs/guide/safety.md):

- ``0`` success;
- ``1`` the input was read fine but is not valid or not playable (``check``, ``validate``);
- ``2`` bad input or usage: unreadable or malformed files, unknown codes or options, contradictory
  constraints, impossible sizes, unwritable paths;
- ``130`` interrupted with Ctrl-C; ``143`` stopped by SIGTERM; ``129`` by SIGHUP.
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class Stopped(KeyboardInterrupt):
    """A stop asked for by a signal other than Ctrl-C (SIGTERM, SIGHUP): handled like Ctrl-C
    everywhere (work is cancelled, nothing half-written stays), with exit code 128 + signal."""

    def __init__(self, signum: int, name: str) -> None:
        super().__init__(name)
        self.exit_code = 128 + signum
        self.name = name


_REQUESTED: list[KeyboardInterrupt] = []


def stop_requested(stop: KeyboardInterrupt) -> None:
    """Record that a signal asked the command to stop (the command line's handlers call this
    as they raise ``stop``), so that :func:`check_stop` can raise it again if it was lost."""
    _REQUESTED.append(stop)


def stop_handled() -> None:
    """The stop was caught and acted on (the work stopped, what finished is reported)."""
    _REQUESTED.clear()


def check_stop() -> None:
    """Raise again a stop a signal asked for that never reached its handler's caller.

    A signal handler's exception can be swallowed by code the tool does not own — a bare
    ``except:`` in a library's import, CPython's at-fork hooks, a finaliser — and the command
    would go on as if never stopped. Loops that run long call this between steps.

    >>> check_stop()  # nothing asked for
    >>> stop_requested(KeyboardInterrupt())
    >>> try:
    ...     check_stop()
    ... except KeyboardInterrupt:
    ...     print("raised again")
    raised again
    >>> stop_handled(); check_stop()
    """
    if _REQUESTED:
        raise _REQUESTED[-1]


MAX_MESSAGE = 300
"""Error messages are cut to this many characters: a quoted piece of bad input stays short."""


def cut(message: str, width: int = MAX_MESSAGE) -> str:
    """``message`` on one line of at most ``width`` characters.

    >>> cut("unknown code '" + "[" * 500 + "'", 30)
    "unknown code '[[[[[[[[[[[[[[[…"
    """
    flat = " ".join(message.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


class RunArchError(Exception):
    """Base class of every error the package raises on purpose."""

    exit_code: int = EXIT_USAGE


class InputError(RunArchError):
    """Input that cannot be used: unreadable file, bad option value, impossible request."""


class ParseError(InputError, ValueError):
    """Text that does not parse. Names where: ``source`` (file or option), ``line``, ``column``.

    >>> str(ParseError("unknown code 'Q9'", source="board.txt", line=2, column=7))
    "board.txt:2:7: unknown code 'Q9'"
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        super().__init__(self._format())

    def _format(self) -> str:
        where = ""
        if self.source is not None:
            where = self.source
            if self.line is not None:
                where += f":{self.line}"
                if self.column is not None:
                    where += f":{self.column}"
            where += ": "
        return where + cut(self.message)

    def located(
        self, source: str | None = None, line: int | None = None, column: int | None = None
    ) -> ParseError:
        """The same error with the location filled in where it was missing."""
        return type(self)(
            self.message,
            source=self.source if self.source is not None else source,
            line=self.line if self.line is not None else line,
            column=self.column if self.column is not None else column,
        )


class ConstraintError(InputError):
    """Constraints that contradict each other or that no object can meet."""


class OutputError(InputError):
    """A file or folder that cannot be written."""
