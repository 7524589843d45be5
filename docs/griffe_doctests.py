"""A griffe extension for the API reference: the package's docstrings are written for
``help()`` and doctest (reST roles, ``>>>`` examples in the text), not Markdown. Each doctest
example becomes a ``pycon`` code block and each role its code span, so mkdocstrings renders
them as code instead of reading ``[1, 2]`` as a link; a decision's tag stays text.
mkdocs.yml loads it by path."""

from __future__ import annotations

import re
from typing import Any

try:
    from griffe import Extension, Object
except ModuleNotFoundError:  # tests/test_docs_site.py reads fence_doctests without the docs extra
    Extension = object  # type: ignore[assignment,misc]
    Object = Any  # type: ignore[assignment,misc]

ROLE = re.compile(r":(?:mod|class|func|meth|data|attr|exc|obj|const):`~?\.?([^`]+)`")
# A decision's tag such as [L-12] is text, not a Markdown reference link.
TAG = re.compile(r"\[([A-Z]{1,2}-\d+)\]")


def fence_doctests(text: str) -> str:
    """Wrap every run of ``>>>`` lines, with the output after them up to a blank line, in a
    ``pycon`` fence indented as the run is (tests/test_docs_site.py has examples)."""
    out: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        stripped = line.lstrip()
        if fence is None and stripped.startswith(">>>"):
            fence = line[: len(line) - len(stripped)]
            out.append(f"{fence}```pycon")
        elif fence is not None and not stripped:
            out.append(f"{fence}```")
            fence = None
        out.append(line)
    if fence is not None:
        out.append(f"{fence}```")
    return "\n".join(out)


class DoctestBlocks(Extension):
    """Rewrites every docstring as it is loaded (see the module's docstring)."""

    def on_object(self, *, obj: Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            text = TAG.sub(r"\\[\1\\]", ROLE.sub(r"`\1`", obj.docstring.value))
            obj.docstring.value = fence_doctests(text)
