"""Reading inputs and writing outputs without half-written files.

Outputs are written to a temporary file (or folder) beside the target and renamed into place, so
an error or an interrupt never leaves a partial result behind.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from runarch_gen.errors import InputError, OutputError
from runarch_gen.textdata import check_numbers

STDIO = "-"


MAX_SHOWN = 120
"""A path longer than this is shown in messages by its start and its end."""


def display_name(path: str | os.PathLike[str]) -> str:
    """How a path is named in messages: ``<stdin>``/``<stdout>`` for ``-``, else the path (a
    very long one by its start and end).

    >>> display_name("a/" + "x" * 300)[-8:]
    'xxxxxxxx'
    >>> len(display_name("a/" + "x" * 300)) <= MAX_SHOWN
    True
    """
    text = "<stdin>" if str(path) == STDIO else str(path)
    if len(text) <= MAX_SHOWN:
        return text
    half = (MAX_SHOWN - 1) // 2
    return text[:half] + "…" + text[-half:]


def refused(path: str | os.PathLike[str], exc: OSError, doing: str = "cannot write") -> str:
    """The one line for a path the system refuses (too long, a part not a folder, no right
    to it …): ``PATH: cannot write: File name too long``."""
    return f"{display_name(path)}: {doing}: {exc.strerror or exc}"


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
        except OSError as exc:  # a name too long, a part that is not a folder, no right to it
            raise InputError(refused(path, exc, "cannot read")) from None
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
    file, larger than ``limit`` bytes or not UTF-8, and :class:`ParseError` naming the line
    when it holds a number of more than :data:`~runarch_gen.textdata.MAX_DIGITS` digits:
    every reader converts numbers it finds, and none of the tool's files holds one that long.
    """
    data = read_bytes(path, limit=limit)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{display_name(path)}: not UTF-8 text (byte {exc.start})") from None
    check_numbers(text, display_name(path))
    return text


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
    with _replacing(path) as handle:
        handle.write(raw)


@contextlib.contextmanager
def atomic_stream(path: str | os.PathLike[str]) -> Iterator[Callable[[str], None]]:
    """A ``write(text)`` for output too large to hold at once: into a temporary file renamed
    to ``path`` when the block succeeds (removed on an error or an interrupt); ``-`` writes
    to standard output as it goes."""
    if str(path) == STDIO:
        yield lambda text: (sys.stdout.write(text), None)[1]
        sys.stdout.flush()
        return
    with _replacing(path) as handle:
        yield lambda text: (handle.write(text.encode("utf-8")), None)[1]


@contextlib.contextmanager
def _replacing(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """A binary handle whose bytes replace ``path`` only once the block succeeds: a temporary
    file beside it, renamed into place (removed on an error or an interrupt). A symbolic link
    is written through (the link stays); a FIFO or a device such as ``/dev/null`` is written
    into directly, never replaced by a file."""
    target = Path(path)
    try:
        if target.is_symlink():
            target = Path(os.path.realpath(target))
    except OSError as exc:  # a name the system refuses (too long, …): one line
        raise OutputError(refused(path, exc)) from None
    try:
        mode = target.stat().st_mode
    except OSError:
        mode = 0
    try:
        if mode and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
            with open(target, "wb") as special:
                yield special
            return
        parent = target.parent if str(target.parent) else Path(".")
        parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent)
    except OSError as exc:
        raise OutputError(refused(target, exc)) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except OSError as exc:
        raise OutputError(refused(target, exc)) from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)  # gone after the rename; left only by an error or an interrupt


@contextlib.contextmanager
def atomic_directory(
    path: str | os.PathLike[str], *, may_replace: Callable[[Path], None] | None = None
) -> Iterator[Path]:
    """Build a folder in a temporary place and move it to ``path`` when the block succeeds.

    An existing folder at ``path`` is replaced only when ``may_replace(path)`` allows it (it
    raises :class:`OutputError` otherwise; without it an existing folder is never replaced),
    only once the new one is complete, and only if nobody changed it while the block ran:
    of two runs writing the same folder at once, one wins and the other says so. On an error
    or an interrupt the temporary folder is removed and ``path`` is left as it was.
    """
    target = Path(path)
    parent = target.parent if str(target.parent) else Path(".")
    before = check_replaceable_folder(target, may_replace)
    try:
        parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent))
    except OSError as exc:
        raise OutputError(refused(target, exc)) from None
    old: Path | None = None
    try:
        yield tmp
        os.chmod(tmp, 0o755)
        with _locked(parent):
            if _identity(target) != before:
                raise OutputError(
                    f"{display_name(target)}: another run wrote this folder meanwhile; it was"
                    " kept and this run's result dropped"
                )
            if before is not None:
                old = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old", dir=parent))
                os.replace(target, old)
            os.replace(tmp, target)
    except OSError as exc:
        if old is not None and not target.exists():
            with contextlib.suppress(OSError):
                os.replace(old, target)
        raise OutputError(refused(target, exc)) from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if old is not None and old.exists():
            shutil.rmtree(old, ignore_errors=True)


def _identity(path: Path) -> tuple[int, int, int] | None:
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    return info.st_dev, info.st_ino, info.st_mtime_ns


def check_replaceable_folder(
    target: Path, may_replace: Callable[[Path], None] | None
) -> tuple[int, int, int] | None:
    """Refuse (:class:`OutputError`) to replace ``target`` unless it is missing, or a real folder
    that ``may_replace`` accepts; its identity (device, inode, change time) if it exists, so that
    a later writer can tell whether anybody changed it meanwhile."""
    try:
        if target.is_symlink():
            raise OutputError(f"{display_name(target)}: is a symbolic link; not replaced")
        if not target.exists():
            return None
        if not target.is_dir():
            raise OutputError(f"{display_name(target)}: exists and is not a folder")
    except OSError as exc:  # a name the system refuses (too long, …)
        raise OutputError(refused(target, exc)) from None
    if may_replace is None:
        raise OutputError(f"{display_name(target)}: exists; not replaced")
    may_replace(target)
    return _identity(target)


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """An exclusive lock on ``folder`` (its own descriptor, nothing written) while swapping."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
