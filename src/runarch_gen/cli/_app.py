"""The Typer application and the conventions every command shares.

Commands live in sibling modules that import :data:`app` and decorate their functions with
``@app.command()``; :mod:`runarch_gen.cli` imports those modules so the commands register. The
games' command groups are built from the registry when asked for (:class:`FamilyGroup`).
A command parses options, calls one library function and prints: nothing else.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable
from typing import Annotated, Any, ClassVar

import typer
from typer.core import TyperGroup

from runarch_gen import __version__

# The modules that define the commands, in the order of --help, each with the commands it
# registers on `app` when imported. A command line loads only the module of the command it
# names (start-up time: the others import much that this command never uses); --help, an
# unknown name or a game's group load them all. tests/test_cli_startup.py checks the table.
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "boards": ("board", "boards", "count"),
    "check": ("check",),
    "decks": ("deck",),
    "kit": ("kit",),
    "legend": ("legend",),
    "play": ("evaluate", "tally", "replay"),
    "serve": ("serve",),
    "simulate": ("simulate",),
    "sweep": ("sweep",),
    "validate": ("validate",),
    "games": ("games",),  # after RunArch's; the games' groups follow it
}
_MODULE_OF = {name: module for module, names in COMMAND_MODULES.items() for name in names}


def load_commands(name: str | None = None) -> None:
    """Import the module that defines command ``name``, or every command module (``None``),
    so that their commands are registered on :data:`app`."""
    modules = COMMAND_MODULES if name is None else (_MODULE_OF[name],)
    for module in modules:
        importlib.import_module(f"runarch_gen.cli.{module}")


def command_name(info: typer.models.CommandInfo) -> str:
    """The name a registered command is called by."""
    if info.name:
        return info.name
    assert info.callback is not None
    return typer.main.get_command_name(info.callback.__name__)


class FamilyGroup(TyperGroup):
    """The root command group: the commands of this package, then one group per registered
    game, built from its registration when it is first asked for (so a command loads only the
    game it names, and a game installed as a plug-in appears with no edit here). The package's
    own commands load the same way: the group holds the commands registered when it was
    built, and one asked for by name is imported and built then (:func:`load_commands`).
    :mod:`runarch_gen.cli.games` provides ``game_names`` and ``game_command``."""

    game_names: ClassVar[Callable[[], list[str]]] = staticmethod(list)
    game_command: ClassVar[Callable[[str], Any]] = staticmethod(lambda name: None)

    # Typed loosely: Typer's own (vendored) Click types differ between its releases.
    def list_commands(self, ctx: Any) -> list[str]:
        self._build_all()
        names = super().list_commands(ctx)
        return names + [name for name in FamilyGroup.game_names() if name not in names]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is None and cmd_name in _MODULE_OF:
            load_commands(cmd_name)
            command = self.commands[cmd_name] = _built(cmd_name)
        elif command is None:
            # Not one of the package's own commands: a game's group, or a name to suggest
            # others for, from all of them (Typer suggests among the group's commands).
            self._build_all()
            command = FamilyGroup.game_command(cmd_name)
            if command is not None:
                self.commands[cmd_name] = command
        return command

    def _build_all(self) -> None:
        # Every command of the package, in the order of COMMAND_MODULES (that of --help).
        load_commands()
        built = self.commands
        self.commands = {name: built.get(name) or _built(name) for name in _MODULE_OF}
        self.commands |= built


def _built(name: str) -> Any:
    """The Click command of the registered command ``name``, built as Typer builds the
    commands of a group (through a Typer holding this one command)."""
    (info,) = [info for info in app.registered_commands if command_name(info) == name]
    single = typer.Typer(
        pretty_exceptions_enable=False,
        pretty_exceptions_short=app.pretty_exceptions_short,
        rich_markup_mode=app.rich_markup_mode,
        add_completion=False,
    )
    single.registered_commands.append(info)
    return typer.main.get_command(single)


app = typer.Typer(
    name="runarch-gen",
    cls=FamilyGroup,
    help="Boards, balanced decks, print-and-play kits, a rules engine and playtesting for RunArch.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def installed_version() -> str:
    """The version of the installed distribution, from its metadata (what ``pip`` installed);
    the source tree's ``__version__`` where the package runs from a checkout without metadata."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("runarch-gen")
    except PackageNotFoundError:
        return __version__


def _version(value: bool) -> None:
    if value:
        typer.echo(f"runarch-gen {installed_version()}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", help="Print the version and exit.", callback=_version),
    ] = False,
) -> None:
    """Boards, balanced decks, print-and-play kits, a rules engine and playtesting for RunArch.

    Exit codes: 0 success; 1 the input was read but is not valid or not playable;
    2 bad input or usage; 130 interrupted.
    """


# Options shared by many commands.
SeedOption = Annotated[
    int | None,
    typer.Option(
        "--seed",
        min=0,
        help="Seed for everything random; the same seed and inputs give the same output."
        " Default: a fresh random seed, reported in the output.",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print a machine-readable JSON report.")]
WorkersOption = Annotated[
    int | None,
    typer.Option(
        "--workers",
        "-j",
        min=1,
        help="Processes for simulated games (default: all cores); any number gives the same"
        " result.",
    ),
]


def resolve_seed(seed: int | None) -> int:
    """The seed to use: the one given, or a fresh one (reported by the caller)."""
    if seed is not None:
        return seed
    import secrets  # here: most runs are given their seed

    return secrets.randbelow(2**31)


def emit_json(obj: Any) -> None:
    """Print ``obj`` as indented UTF-8 JSON on stdout."""
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")


def note(message: str) -> None:
    """A one-line remark on stderr (never mixed into the command's real output)."""
    typer.echo(message, err=True)


INTERRUPT_REPORTED: list[bool] = []
"""Set by :func:`stopped_after` so that the command line does not say "interrupted" twice."""


def stopped_after(what: str) -> None:
    """Say what an interrupted command finished (``interrupted after 40 of 100 games``); the
    command then exits with :data:`~runarch_gen.errors.EXIT_INTERRUPTED`."""
    note(f"runarch-gen: interrupted after {what}" if what else "runarch-gen: interrupted")
    INTERRUPT_REPORTED.append(True)
