"""The documentation site (mkdocs.yml over docs/) is whole and its examples run.

`mkdocs build --strict` itself runs in `.ci/run` (it needs the `docs` extra); these tests need
only the test extra. Where the site's examples are executed:

- shell blocks of the README and docs/guide/: tests/test_readme.py;
- the Python examples of the pages: here (`test_every_python_example_on_the_site_runs`), and the
  excerpts of the example game in docs/adding-a-game.md are held to tests/toy_game.py, which
  tests/test_plugin.py runs;
- the docstrings the API reference shows: tests/test_doctests.py.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
# Pages whose Python blocks are excerpts of a module kept elsewhere, not programs.
EXCERPTS = {"adding-a-game.md": ROOT / "tests" / "toy_game.py"}


def nav_pages() -> list[str]:
    text = (ROOT / "mkdocs.yml").read_text("utf-8")
    nav = text[text.index("\nnav:") :]
    return re.findall(r":\s*(\S+\.md)\s*$", nav, re.M)


def site_pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


def test_the_nav_names_every_page_and_only_pages_that_exist() -> None:
    listed = nav_pages()
    assert len(listed) == len(set(listed))
    on_disk = {str(page.relative_to(DOCS)) for page in site_pages()}
    assert set(listed) == on_disk


def test_every_relative_link_of_the_readme_names_a_file() -> None:
    text = (ROOT / "README.md").read_text("utf-8")
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    local = [link for link in links if "://" not in link]
    assert len(local) > 10
    for link in local:
        assert (ROOT / link).exists(), link


def test_the_readme_links_every_guide_page() -> None:
    text = (ROOT / "README.md").read_text("utf-8")
    for page in (DOCS / "guide").glob("*.md"):
        if page.name != "benchmarks.md":
            assert f"(docs/guide/{page.name})" in text, page.name


def test_the_benchmarks_page_names_every_script() -> None:
    text = (DOCS / "guide" / "benchmarks.md").read_text("utf-8")
    for script in (ROOT / "bench").glob("*.py"):
        assert f"`{script.name}`" in text, script.name


def python_examples() -> list[tuple[str, str]]:
    return [
        (f"{page.relative_to(ROOT)}:{number}", block)
        for page in site_pages()
        if page.name not in EXCERPTS
        for number, block in enumerate(FENCE.findall(page.read_text("utf-8")))
    ]


def test_the_site_has_python_examples() -> None:
    names = {name.split(":")[0] for name, _ in python_examples()}
    assert {"docs/guide/engine.md", "docs/backgammon.md", "docs/malacca.md"} <= names


@pytest.mark.parametrize(("name", "code"), python_examples())
def test_every_python_example_on_the_site_runs(name: str, code: str, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    exec(compile(code, name, "exec"), {"__name__": "__docs__"})
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("page", sorted(EXCERPTS))
def test_excerpts_are_lines_of_the_module_they_show(page: str) -> None:
    source = {line.strip() for line in EXCERPTS[page].read_text("utf-8").splitlines()}
    blocks = FENCE.findall((DOCS / page).read_text("utf-8"))
    assert blocks
    for block in blocks:
        for line in block.splitlines():
            assert not line.strip() or line.strip() in source, f"{page}: {line}"


def load_extension():
    spec = importlib.util.spec_from_file_location("griffe_doctests", DOCS / "griffe_doctests.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_doctest_examples_become_code_blocks_in_the_api_reference() -> None:
    fence = load_extension().fence_doctests
    text = "Add:\n\n    >>> [1, 2][0]\n    1\n\nDone."
    assert fence(text) == "Add:\n\n    ```pycon\n    >>> [1, 2][0]\n    1\n    ```\n\nDone."
    assert fence(">>> 1\n1") == "```pycon\n>>> 1\n1\n```"
    assert fence("No example here [L-12].") == "No example here [L-12]."


def test_roles_and_decision_tags_stay_text() -> None:
    module = load_extension()
    assert module.ROLE.sub(r"`\1`", ":class:`~.registry.GameType`") == "`registry.GameType`"
    assert module.TAG.sub(r"\\[\1\\]", "presets [L-11] [L-12]") == r"presets \[L-11\] \[L-12\]"
