"""No import cycles among the package's modules: what a module imports when it loads (its
module-level imports, not those inside functions or under TYPE_CHECKING) never leads back to
it. The three cycles the family core had (boards' generator and CP-SAT engine, the engine's
game, state, observation and text, the kit's components and rules page) must stay gone."""

from __future__ import annotations

import ast
from pathlib import Path

import runarch_gen

ROOT = Path(runarch_gen.__file__).resolve().parent.parent


def module_graph() -> dict[str, set[str]]:
    modules: dict[str, Path] = {}
    for path in (ROOT / "runarch_gen").rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        modules[name.removesuffix(".__init__")] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        deps: set[str] = set()
        for node in ast.parse(path.read_text("utf-8")).body:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            for item in ast.walk(node):
                if isinstance(item, ast.ImportFrom) and item.module and item.level == 0:
                    subs = {f"{item.module}.{a.name}" for a in item.names} & modules.keys()
                    if subs:  # `from package import module` imports the module
                        deps |= subs
                    elif item.module in modules:
                        deps.add(item.module)
                elif isinstance(item, ast.Import):
                    deps |= {a.name for a in item.names if a.name in modules}
        graph[name] = deps - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_package_has_no_import_cycle() -> None:
    graph = module_graph()
    assert len(graph) > 150  # the whole package was read
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_planted_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
