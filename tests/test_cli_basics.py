"""The command line's shared behaviour: version, one-line errors, documented exit codes."""

import json
import subprocess
import sys
from importlib import metadata

from runarch_gen import __version__
from runarch_gen.cli import run
from runarch_gen.cli._app import installed_version


def test_version(capsys) -> None:
    assert run(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"runarch-gen {__version__}"


def test_version_is_read_from_the_installed_metadata(monkeypatch, capsys) -> None:
    # The build writes __version__ into the metadata; --version reads the metadata, so a
    # wheel reports the release it is, whatever source tree sits beside it.
    assert metadata.version("runarch-gen") == __version__
    monkeypatch.setattr(metadata, "version", lambda name: "9.8.7" if name == "runarch-gen" else "")
    assert run(["--version"]) == 0
    assert capsys.readouterr().out.strip() == "runarch-gen 9.8.7"


def test_version_falls_back_to_the_source_without_metadata(monkeypatch) -> None:
    def missing(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)
    assert installed_version() == __version__


def test_legend_json_lists_the_codes(capsys) -> None:
    assert run(["legend", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [c["letter"] for c in data["colours"]] == list("RBGYV")
    assert [s["digit"] for s in data["shapes"]] == list("03456")


def test_unknown_option_is_one_line_on_stderr_and_exit_2(capsys) -> None:
    assert run(["legend", "--frobnicate"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "--frobnicate" in err


def test_unknown_command_exit_2(capsys) -> None:
    assert run(["no-such-command"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_python_dash_m_runs_the_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "runarch_gen", "--version"], capture_output=True, text=True
    )
    assert done.returncode == 0
    assert done.stdout.startswith("runarch-gen ")
