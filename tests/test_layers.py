"""The layers import in one direction only (STYLE: domain → … → CLI).

Every import is counted, those inside functions and under ``TYPE_CHECKING`` too: the generic
layers (``play/``, ``pnp/`` and the plumbing modules) never name a game; no game names another;
nothing names the command line; and the imports that run (at load time or in a function) form
no cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "runarch_gen"
GAMES = sorted(p.parent.name for p in PACKAGE.glob("*/register.py"))
GENERIC = [
    "play",
    "pnp",
    "errors.py",
    "fileio.py",
    "progress.py",
    "background.py",
    "charts.py",
    "textdata.py",
]


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _imports(path: Path, runtime_only: bool = False) -> set[str]:
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if (
                runtime_only
                and isinstance(child, ast.If)
                and "TYPE_CHECKING" in ast.unparse(child.test)
            ):
                continue
            if isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                for alias in child.names:
                    # `from package import module` needs the module; anything else the package
                    submodule = f"{child.module}.{alias.name}"
                    found.add(submodule if submodule in MODULES else child.module)
            elif isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            visit(child)

    visit(ast.parse(path.read_text("utf-8")))
    return {name for name in found if name.startswith("runarch_gen")}


def _files(*parts: str) -> list[Path]:
    out: list[Path] = []
    for part in parts:
        target = PACKAGE / part
        out += sorted(target.rglob("*.py")) if target.is_dir() else [target]
    return out


def test_the_games_are_found() -> None:
    assert "runarch" in GAMES


@pytest.mark.parametrize("path", _files(*GENERIC), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_generic_layers_name_no_game(path: Path) -> None:
    named = {
        name
        for name in _imports(path)
        if any(name.startswith(f"runarch_gen.{game}") for game in GAMES)
        or name.startswith(("runarch_gen.games", "runarch_gen.cli"))
    }
    assert not named, f"{path.name} imports {sorted(named)}"


@pytest.mark.parametrize("game", GAMES)
def test_no_game_imports_another_or_the_command_line(game: str) -> None:
    for path in _files(game):
        for name in _imports(path):
            other = [*name.split("."), ""][1]
            assert other not in GAMES or other == game, f"{path} imports {name}"
            assert not name.startswith("runarch_gen.cli"), f"{path} imports {name}"


def test_nothing_outside_the_command_line_imports_it() -> None:
    for path in PACKAGE.rglob("*.py"):
        if "cli" in path.relative_to(PACKAGE).parts or path.name in ("__main__.py", "entry.py"):
            continue
        assert not any(n.startswith("runarch_gen.cli") for n in _imports(path)), path


def test_runtime_imports_form_no_cycle() -> None:
    # Imports inside functions count (they run); those only for type checkers do not.
    graph = {
        name: {m for m in _imports(path, runtime_only=True) if m in MODULES and m != name}
        for name, path in MODULES.items()
    }
    done: set[str] = set()

    def walk(name: str, trail: list[str]) -> None:
        if name in trail:
            cycle = [*trail[trail.index(name) :], name]
            pytest.fail("import cycle: " + " -> ".join(cycle))
        if name in done:
            return
        for other in sorted(graph[name]):
            walk(other, [*trail, name])
        done.add(name)

    for name in sorted(graph):
        walk(name, [])
