"""Reading inputs and writing outputs without half-written files.

Outputs are written to a temporary file (or folder) beside the target and renamed into place, so
an error or an interrupt never leaves a partial result behind.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from runarch_gen.errors import InputError, OutputError

STDIO = "-"


def display_name(path: str | os.PathLike[str]) -> str:
    """How a path is named in messages: ``<stdin>``/``<stdout>`` for ``-``, else the path."""
    return "<stdin>" if str(path) == STDIO else str(path)


MAX_INPUT_BYTES = 64 * 1024 * 1024
"""The most bytes any input file may hold (64 MiB); larger inputs are refused before parsing."""


def read_bytes(path: str | os.PathLike[str], *, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of ``path`` (``-`` reads standard input), at most ``limit`` of them.

    Only regular files (and standard input) are read: a folder, FIFO or device such as
    ``/dev/zero`` is refused at once, so no input can make a command hang or fill the memory.
    Raises :class:`InputError` naming the file.
    """
    name = display_name(path)
    if str(path) == STDIO:
        data = sys.stdin.buffer.read(limit + 1)
    else:
        try:
            with open(path, "rb", opener=_open_regular) as handle:
                data = handle.read(limit + 1)
        except FileNotFoundError:
            raise InputError(f"{name}: no such file") from None
        except IsADirectoryError:
            raise InputError(f"{name}: is a folder, not a file") from None
        except _NotRegularError:
            raise InputError(f"{name}: not a regular file") from None
        except OSError as exc:
            raise InputError(f"{name}: cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise InputError(f"{name}: larger than {limit // (1024 * 1024)} MiB, the limit for inputs")
    return data


class _NotRegularError(OSError):
    pass


def _open_regular(path: str, flags: int) -> int:
    # Open without blocking (a FIFO with no writer would wait for ever), then insist on a
    # regular file before reading a byte.
    fd = os.open(path, flags | os.O_NONBLOCK)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(path)
        if not stat.S_ISREG(mode):
            raise _NotRegularError(path)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_text(path: str | os.PathLike[str], *, limit: int = MAX_INPUT_BYTES) -> str:
    """The whole text of ``path`` (``-`` reads standard input), as UTF-8.

    Raises :class:`InputError` naming the file when it is missing, unreadable, not a regular
    file, larger than ``limit`` bytes or not UTF-8.
    """
    data = read_bytes(path, limit=limit)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{display_name(path)}: not UTF-8 text (byte {exc.start})") from None


def beside(document: str | os.PathLike[str], name: str, what: str) -> Path:
    """The file ``name`` that a document (a game record, a kit manifest) refers to, which must
    lie beside it: a plain relative name, no absolute path, no ``..``, no drive, and resolving
    (symbolic links followed) inside the document's folder. ``what`` names the reference in
    the error, e.g. ``record.txt: [Deck]``.

    >>> beside("games/g1.txt", "deck.json", "g1.txt: [Deck]").as_posix()
    'games/deck.json'
    >>> beside("g1.txt", "/etc/passwd", "g1.txt: [Deck]")
    Traceback (most recent call last):
    ...
    runarch_gen.errors.InputError: g1.txt: [Deck]: may name only a file beside it, not '/etc/passwd'
    """
    folder = Path(document).parent if str(document) != STDIO else Path(".")
    relative = Path(name)
    refused = (
        not name.strip()
        or relative.is_absolute()
        or relative.drive
        or "\\" in name
        or any(part in ("..", "") for part in name.split("/"))
        or "\x00" in name
    )
    if not refused:
        target = folder / relative
        try:
            inside = target.resolve().is_relative_to(folder.resolve())
        except (OSError, RuntimeError):
            inside = False
        if inside:
            return target
    raise InputError(f"{what}: may name only a file beside it, not {shorten(name)!r}")


def shorten(text: str, width: int = 60) -> str:
    """``text`` on one line and at most ``width`` characters, for an error message.

    >>> shorten("a  b " + "c" * 80, width=8)
    'a b ccc…'
    """
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def atomic_write(path: str | os.PathLike[str], data: bytes | str) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename; ``-`` writes to stdout."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if str(path) == STDIO:
        sys.stdout.buffer.write(raw)
        sys.stdout.buffer.flush()
        return
    target = Path(path)
    parent = target.parent if str(target.parent) else Path(".")
    try:
        parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent)
    except OSError as exc:
        raise OutputError(f"{target}: cannot write: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(raw)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise OutputError(f"{target}: cannot write: {exc.strerror or exc}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def atomic_directory(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Build a folder in a temporary place and move it to ``path`` when the block succeeds.

    An existing folder at ``path`` is replaced only once the new one is complete; on an error
    the temporary folder is removed and ``path`` is left as it was.
    """
    target = Path(path)
    parent = target.parent if str(target.parent) else Path(".")
    if target.exists() and not target.is_dir():
        raise OutputError(f"{target}: exists and is not a folder")
    try:
        parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent))
    except OSError as exc:
        raise OutputError(f"{target}: cannot write: {exc.strerror or exc}") from None
    try:
        yield tmp
        os.chmod(tmp, 0o755)
        old: Path | None = None
        if target.exists():
            old = parent / f".{target.name}.old-{os.getpid()}"
            os.replace(target, old)
        os.replace(tmp, target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise OutputError(f"{target}: cannot write: {exc.strerror or exc}") from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
