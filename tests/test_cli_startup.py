"""Start-up: a command line loads the module of the command it names and not the others, and
nothing a one-worker simulation never uses; --help still lists every command in one order."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import typer

from runarch_gen.cli import run
from runarch_gen.cli._app import COMMAND_MODULES, app, command_name, load_commands


def _loaded_after(argv: list[str], cwd: str | None = None) -> set[str]:
    """The modules a fresh interpreter holds after running the command line with ``argv``."""
    code = textwrap.dedent(
        f"""
        import json, sys
        from runarch_gen.cli import run
        code = run({argv!r})
        sys.stdout.flush()
        print("\\n" + json.dumps([code, sorted(sys.modules)]))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=cwd
    )
    exit_code, modules = json.loads(done.stdout.splitlines()[-1])
    assert exit_code == 0, done.stderr
    return set(modules)


def test_the_table_names_every_command_and_its_module() -> None:
    load_commands()
    registered = {command_name(info): info.callback.__module__ for info in app.registered_commands}
    table = {
        name: f"runarch_gen.cli.{module}"
        for module, names in COMMAND_MODULES.items()
        for name in names
    }
    assert registered == table


def test_a_command_loads_only_its_own_module() -> None:
    loaded = _loaded_after(["legend", "--json"])
    assert "runarch_gen.cli.legend" in loaded
    others = {f"runarch_gen.cli.{module}" for module in COMMAND_MODULES} - {
        "runarch_gen.cli.legend"
    }
    assert not loaded & others


def test_a_one_worker_simulation_loads_no_process_pool_nor_plugin_metadata(tmp_path) -> None:
    board, deck = tmp_path / "board.json", tmp_path / "deck.json"
    assert run(["board", "--seed", "1", "--format", "json", "-o", str(board)]) == 0
    assert run(["deck", "--seed", "1", "--cards", "30", "-o", str(deck)]) == 0
    argv = ["simulate", "-n", "1", "-j", "1", "--seed", "1"]
    loaded = _loaded_after([*argv, "--board", str(board), "--deck", str(deck), "--json"])
    assert "runarch_gen.runarch.engine.state" in loaded  # it did play
    assert not loaded & {"multiprocessing", "importlib.metadata", "runarch_gen.cli.boards"}


def test_help_lists_the_commands_in_one_order_whatever_was_loaded_first(capsys) -> None:
    assert run(["legend", "--help"]) == 0  # one command's module loaded first
    assert run(["--help"]) == 0
    listed = [
        line.split()[1]
        for line in capsys.readouterr().out.splitlines()
        if line.startswith("│ ") and line[2:3].isalpha()  # a name, not a wrapped line
    ]
    own = [name for names in COMMAND_MODULES.values() for name in names]
    assert [name for name in listed if name in own] == own
    group = typer.main.get_command(app)
    assert group.list_commands(None)[: len(own)] == own  # type: ignore[attr-defined]


def test_a_mistyped_command_is_still_told_the_closest_one(capsys) -> None:
    assert run(["simulat"]) == 2
    assert "Did you mean 'simulate'?" in capsys.readouterr().err
