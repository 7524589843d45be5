"""Path containment: no option, record tag or manifest makes a command read or replace anything
outside what the user named. Each case runs the real command line on a temporary tree with a
sentinel file outside it and asserts one line on stderr, exit 2 and the sentinel untouched."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from runarch_gen.cli import run

SECRET = "top-secret-sentinel-line"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "outside.txt").write_text(SECRET + "\n")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "other-kit-notes.txt").write_text("keep me\n")
    return tmp_path


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err and SECRET not in err
    return lines[0]


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (".", "not a plain folder name"),
        ("..", "not a plain folder name"),
        ("../x", "not a plain folder name"),
        ("/abs/dir", "not a plain folder name"),
        (".hidden", "not a plain folder name"),
        ("a\nb", "not a plain folder name"),
        ("k" * 300, "at most 100 characters"),
    ],
)
def test_kit_name_is_a_plain_folder_inside_out(
    tree: Path, name: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(tree)
    args = ["kit", "--seed", "3", "--out", str(tree / "out"), "--name", name, "--only", "rules"]
    assert run(args) == 2
    assert message in one_line(capsys.readouterr().err)
    assert snapshot(tree) == before


def test_kit_replaces_only_a_kit_it_wrote_and_nothing_the_user_added(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tree / "out"
    args = ["kit", "--seed", "3", "--out", str(out), "--name", "k", "--only", "rules"]
    assert run(args) == 0
    assert run(args) == 0  # its own kit is replaced
    (out / "k" / "my-notes.txt").write_text("mine")
    capsys.readouterr()
    assert run(args) == 2
    assert "holds 'my-notes.txt', not written by the kit" in one_line(capsys.readouterr().err)
    assert (out / "k" / "my-notes.txt").read_text() == "mine"
    # A folder that is not a kit (no manifest) is never replaced.
    (out / "photos").mkdir()
    (out / "photos" / "a.jpg").write_bytes(b"\xff\xd8")
    assert run([*args[:-4], "--name", "photos", "--only", "rules"]) == 2
    assert "is not a kit that runarch-gen wrote" in one_line(capsys.readouterr().err)
    assert (out / "photos" / "a.jpg").exists() and (out / "other-kit-notes.txt").exists()
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == []


def test_a_record_cannot_make_replay_read_another_file(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.test_record import played

    games = tree / "games"
    games.mkdir()
    text = played().replace('[Deck "sample(50)"]', '[Deck "deck.json"]')
    text = "\n".join(line for line in text.splitlines() if "DeckDigest" not in line) + "\n"
    cases = {
        "abs": text.replace('[Deck "deck.json"]', f'[Deck "{tree / "outside.txt"}"]'),
        "up": text.replace('[Deck "deck.json"]', '[Deck "../outside.txt"]'),
        "variant": text.replace(
            '[Variant "complex', f'[Variant "complex(conditions={tree}/o.toml)'
        ),
        "huge": text.replace('[Deck "deck.json"]', '[Deck "sample(30000000)"]'),
    }
    os.symlink(tree / "outside.txt", games / "link.json")
    cases["link"] = text.replace('[Deck "deck.json"]', '[Deck "link.json"]')
    for name, body in cases.items():
        (games / f"{name}.txt").write_text(body)
        assert run(["replay", str(games / f"{name}.txt")]) == 2, name
        line = one_line(capsys.readouterr().err)
        assert f"{name}.txt" in line and len(line) < 300, line
    # A deck beside the record that is not a deck: named, never shown.
    (games / "deck.json").write_text(SECRET + "\n")
    (games / "g.txt").write_text(text)
    assert run(["replay", str(games / "g.txt")]) == 2
    assert "deck.json is not a valid deck" in one_line(capsys.readouterr().err)


def test_a_manifest_cannot_make_validate_read_another_file(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tree / "out"
    assert run(["kit", "--seed", "3", "--out", str(out), "--name", "k", "--only", "rules"]) == 0
    manifest_path = out / "k" / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["validation"]["variants"] = [f"complex(conditions={tree / 'outside.txt'})"]
    manifest_path.write_text(json.dumps(manifest))
    capsys.readouterr()
    assert run(["validate", str(out / "k"), "--static"]) == 2
    line = one_line(capsys.readouterr().err)
    assert "a file may be named only on the command line" in line
