"""Reading inputs and writing outputs without half-written files.

Outputs are written to a temporary file (or folder) beside the target and renamed into place, so
an error or an interrupt never leaves a partial result behind.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from runarch_gen.errors import InputError, OutputError

STDIO = "-"


def display_name(path: str | os.PathLike[str]) -> str:
    """How a path is named in messages: ``<stdin>``/``<stdout>`` for ``-``, else the path."""
    return "<stdin>" if str(path) == STDIO else str(path)


def read_text(path: str | os.PathLike[str]) -> str:
    """The whole text of ``path`` (``-`` reads standard input), as UTF-8.

    Raises :class:`InputError` naming the file when it is missing, unreadable or not UTF-8.
    """
    name = display_name(path)
    try:
        data = sys.stdin.buffer.read() if str(path) == STDIO else Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{name}: is a folder, not a file") from None
    except OSError as exc:
        raise InputError(f"{name}: cannot read: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: not UTF-8 text (byte {exc.start})") from None


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
