"""A kit as one folder: named files (PDFs, PNG previews, JSON) written together, atomically,
with a ``manifest.json`` that lists every file with its SHA-256 checksum and size.

A folder that is already there is replaced only if it is a kit of the same owner and holds
nothing but the files its manifest lists (:func:`owned_kit`), checked before any work and again
under a lock when the new folder is moved into place (:func:`~runarch_gen.fileio.atomic_directory`).

>>> file_entries({"kit.pdf": b"%PDF"})["kit.pdf"]["bytes"]
4
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from runarch_gen.errors import InputError, OutputError
from runarch_gen.fileio import atomic_directory, check_replaceable_folder, read_text
from runarch_gen.textdata import loads_json

__all__ = [
    "MANIFEST",
    "check_kit_folder",
    "file_entries",
    "manifest_bytes",
    "owned_kit",
    "sha256",
    "write_kit_folder",
]

MANIFEST = "manifest.json"
MANIFEST_LIMIT = 16 * 1024 * 1024
"""The most of an old manifest read to decide whether its folder may be replaced."""

MayReplace = Callable[[Path], None]


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_entries(files: Mapping[str, bytes]) -> dict[str, dict[str, Any]]:
    """The manifest's ``files``: each name (sorted) with its checksum and size."""
    return {
        name: {"sha256": sha256(data), "bytes": len(data)} for name, data in sorted(files.items())
    }


def manifest_bytes(manifest: Mapping[str, Any]) -> bytes:
    """The manifest as written: indented JSON, UTF-8, one final newline."""
    return (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def owned_kit(owner: Callable[[Any], bool], not_ours: str, hint: str = "") -> MayReplace:
    """A ``may_replace`` check: the folder's manifest is a JSON object with ``files`` (an
    object or list of names) that ``owner(manifest)`` accepts, and the folder holds nothing but
    those files and the manifest (subfolders allowed, links and other oddities not).
    ``not_ours`` ends the refusal of a foreign folder ("exists and is not …")."""

    def check(folder: Path) -> None:
        try:
            manifest = loads_json(read_text(folder / MANIFEST, limit=MANIFEST_LIMIT))
            outputs = manifest["files"]
            owned = isinstance(outputs, dict | list) and owner(manifest)
        except (InputError, KeyError, TypeError):
            owned = False
        if not owned:
            raise OutputError(f"{folder}: exists and is not {not_ours}{hint}")
        listed = {str(name) for name in outputs} | {MANIFEST}
        for entry in sorted(folder.rglob("*")):
            relative = entry.relative_to(folder).as_posix()
            foreign = entry.is_symlink() or not (entry.is_dir() or entry.is_file())
            if foreign or (entry.is_file() and relative not in listed):
                raise OutputError(
                    f"{folder}: holds {relative[:60]!r}, not written by the kit{hint}"
                )

    return check


def check_kit_folder(folder: str | os.PathLike[str], may_replace: MayReplace) -> Path:
    """Refuse at once (before any work) a ``folder`` that may not be replaced."""
    path = Path(folder)
    check_replaceable_folder(path, may_replace)
    return path


def write_kit_folder(
    folder: str | os.PathLike[str],
    files: Mapping[str, bytes],
    may_replace: MayReplace,
    manifest: Mapping[str, Any] | None = None,
) -> Path:
    """Write ``files`` (names may hold ``/`` for subfolders) and ``manifest`` as
    ``manifest.json`` into ``folder``, built aside and moved into place once complete."""
    with atomic_directory(folder, may_replace=may_replace) as tmp:
        for name, data in files.items():
            (tmp / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp / name).write_bytes(data)
        if manifest is not None:
            (tmp / MANIFEST).write_bytes(manifest_bytes(manifest))
    return Path(folder)
