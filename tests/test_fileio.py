"""Outputs appear whole or not at all; unreadable inputs are named."""

import os
import stat
from pathlib import Path

import pytest

from runarch_gen.errors import InputError, OutputError
from runarch_gen.fileio import (
    atomic_directory,
    atomic_stream,
    atomic_write,
    beside,
    read_text,
)


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
    # An existing folder is replaced only when the caller allows it.
    with pytest.raises(OutputError, match="exists; not replaced"), atomic_directory(target):
        pass
    with atomic_directory(target, may_replace=lambda path: None) as tmp:
        (tmp / "new.pdf").write_text("again")
    assert sorted(os.listdir(target)) == ["new.pdf"]
    assert sorted(os.listdir(tmp_path)) == ["kit"]


def test_atomic_directory_refuses_what_the_caller_refuses_before_any_work(tmp_path: Path) -> None:
    target = tmp_path / "kit"
    target.mkdir()
    (target / "mine.txt").write_text("keep")

    def refuse(path: Path) -> None:
        raise OutputError(f"{path}: not ours")

    with pytest.raises(OutputError, match="not ours"), atomic_directory(target, may_replace=refuse):
        pytest.fail("the block must not run")
    assert os.listdir(target) == ["mine.txt"] and os.listdir(tmp_path) == ["kit"]


def test_of_two_writers_one_wins_and_the_other_says_so(tmp_path: Path) -> None:
    target = tmp_path / "kit"
    allow = lambda path: None  # noqa: E731
    with atomic_directory(target) as tmp:
        (tmp / "first").write_text("1")
    with (
        pytest.raises(OutputError, match="another run wrote this folder meanwhile"),
        atomic_directory(target, may_replace=allow) as slow,
    ):
        (slow / "slow").write_text("slow")
        with atomic_directory(target, may_replace=allow) as fast:
            (fast / "fast").write_text("fast")
    assert os.listdir(target) == ["fast"]
    assert os.listdir(tmp_path) == ["kit"]  # no temporary or old folder left


def test_a_symbolic_link_is_never_replaced(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    with (
        pytest.raises(OutputError, match="symbolic link"),
        atomic_directory(tmp_path / "link", may_replace=lambda path: None),
    ):
        pass
    assert (tmp_path / "link").is_symlink()


def test_reads_refuse_fifos_devices_and_oversized_files(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="pipe: not a regular file"):
        read_text(fifo)  # would block for ever if opened for reading in the usual way
    with pytest.raises(InputError, match="not a regular file"):
        read_text("/dev/zero")
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 2000)
    with pytest.raises(InputError, match=r"big\.json: larger than 0 MiB"):
        read_text(big, limit=1000)
    assert read_text(big, limit=2000) == " " * 2000


def test_a_document_refers_only_to_files_beside_it(tmp_path: Path) -> None:
    record = tmp_path / "games" / "g.txt"
    record.parent.mkdir()
    (tmp_path / "secret.json").write_text("{}")
    (record.parent / "deck.json").write_text("{}")
    (record.parent / "escape.json").symlink_to(tmp_path / "secret.json")
    assert beside(record, "deck.json", "g.txt: [Deck]") == record.parent / "deck.json"
    for name in (
        "/etc/passwd",
        "../secret.json",
        "a/../../secret.json",
        "escape.json",
        "",
        "C:\\x",
    ):
        with pytest.raises(InputError, match="may name only a file beside it"):
            beside(record, name, "g.txt: [Deck]")


def test_read_text_names_missing_and_binary_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"nope\.txt: no such file"):
        read_text(tmp_path / "nope.txt")
    binary = tmp_path / "b.bin"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(InputError, match="not UTF-8"):
        read_text(binary)
    with pytest.raises(InputError, match="is a folder"):
        read_text(tmp_path)


def test_writing_to_a_symbolic_link_or_a_fifo_writes_through_it(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    atomic_write(link, "new")
    assert link.is_symlink() and real.read_text() == "new"
    atomic_write("/dev/null", "discarded")  # a device stays a device
    with atomic_stream("/dev/null") as write:
        write("streamed, discarded")
    assert Path("/dev/null").is_char_device()
    with atomic_stream(link) as write:
        write("streamed")
    assert link.is_symlink() and real.read_text() == "streamed"
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    import threading

    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    atomic_write(fifo, "through")
    reader.join(10)
    assert got == [b"through"] and stat.S_ISFIFO(fifo.stat().st_mode)


# -- paths and numbers the system or the tool refuses: one line, exit 2 -------------------------

LONG = "x" * 300  # a name over 255 bytes: the system refuses it (ENAMETOOLONG)


@pytest.mark.parametrize(
    "args",
    [
        ["board", "--seed", "1", "-o", f"{LONG}.txt"],
        ["boards", "-n", "2", "--seed", "1", "-o", f"{LONG}.jsonl"],
        ["deck", "--cards", "30", "--seed", "1", "-o", f"{LONG}.json"],
        ["kit", "--seed", "1", "--only", "rules", "-o", LONG],
        ["validate", "--static", "--board", LONG],
        ["validate", LONG, "--static"],
        ["check", f"{LONG}/board.txt"],
        ["board", "--seed", "1", "-o", f"{LONG}/board.txt"],
    ],
    ids=["board", "boards", "deck", "kit", "validate-board", "validate-kit", "check", "folder"],
)
def test_a_path_the_system_refuses_is_one_line(
    args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    from runarch_gen.cli import run

    monkeypatch.chdir(tmp_path)
    assert run(args) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert "File name too long" in lines[0] and "…" in lines[0] and len(lines[0]) < 220
    assert list(tmp_path.iterdir()) == []


def test_a_number_too_long_in_any_file_is_refused_before_conversion(tmp_path: Path) -> None:
    from runarch_gen.errors import ParseError

    board = tmp_path / "board.txt"
    board.write_text("5Y 0R\n" + "9" * 5000 + "\n")
    with pytest.raises(ParseError, match=r"board.txt:2:1: a number of more than 30 digits"):
        read_text(board)
    # Digits inside a word (a digest, a position ID) are no number.
    digest = tmp_path / "digest.txt"
    digest.write_text("DeckDigest a" + "1" * 40 + "f\n")
    assert read_text(digest).startswith("DeckDigest")


def test_deep_dotted_keys_in_toml_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from runarch_gen.cli import run

    for name, text in (
        ("dotted.toml", ".".join(["k"] * 1000) + " = 1\n"),
        ("table.toml", "[" + ".".join(["k"] * 1000) + "]\nx = 1\n"),
    ):
        template = tmp_path / name
        template.write_text(text)
        args = ["kit", "--template", str(template), "--only", "rules", "-o", str(tmp_path / "k")]
        assert run(args) == 2
        err = capsys.readouterr().err
        assert err.strip().endswith(f"{name}: nested more than 64 levels deep"), err
