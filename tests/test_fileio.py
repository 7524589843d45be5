"""Outputs appear whole or not at all; unreadable inputs are named."""

import os
from pathlib import Path

import pytest

from runarch_gen.errors import InputError, OutputError
from runarch_gen.fileio import atomic_directory, atomic_write, read_text


def test_atomic_write_replaces_the_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "out" / "board.txt"
    atomic_write(target, "one\n")
    atomic_write(target, b"two\n")
    assert target.read_text() == "two\n"
    assert os.listdir(target.parent) == ["board.txt"]


def test_atomic_write_to_an_unwritable_place_names_it(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(OutputError, match="cannot write"):
        atomic_write(blocker / "inside.txt", "data")


def test_atomic_directory_appears_only_when_complete(tmp_path: Path) -> None:
    target = tmp_path / "kit"
    with pytest.raises(RuntimeError), atomic_directory(target) as tmp:
        (tmp / "part.pdf").write_text("half")
        raise RuntimeError("interrupted")
    assert not target.exists()
    assert os.listdir(tmp_path) == []
    with atomic_directory(target) as tmp:
        (tmp / "kit.pdf").write_text("whole")
    assert (target / "kit.pdf").read_text() == "whole"
    with atomic_directory(target) as tmp:
        (tmp / "new.pdf").write_text("again")
    assert sorted(os.listdir(target)) == ["new.pdf"]
    assert sorted(os.listdir(tmp_path)) == ["kit"]


def test_read_text_names_missing_and_binary_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"nope\.txt: no such file"):
        read_text(tmp_path / "nope.txt")
    binary = tmp_path / "b.bin"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(InputError, match="not UTF-8"):
        read_text(binary)
    with pytest.raises(InputError, match="is a folder"):
        read_text(tmp_path)
