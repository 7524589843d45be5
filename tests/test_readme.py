"""The README and the user guide work as written: every shell block after the set-up (which
`.ci/run` runs) is run, in the order of the pages in `PAGES`, in one fresh folder, with the
installed `runarch-gen` on the PATH, and must exit 0 (or the code a `# exit N` comment gives)
without leaving files outside `output/`. The Development block (pip and the linters, which CI
runs itself) is left out. The guide's pages (docs/guide/) hold what was the README's long
sections, in the same order, so a later block may use what an earlier one wrote."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "guide"
BIN = Path(sys.executable).parent
# The pages whose shell blocks run, in the order they run.
PAGES = (
    GUIDE / "kit.md",
    GUIDE / "boards.md",
    GUIDE / "decks.md",
    GUIDE / "engine.md",
    GUIDE / "playtesting.md",
    GUIDE / "validation.md",
    README,
    GUIDE / "sweeps.md",
    GUIDE / "safety.md",
)


def page_blocks(page: Path) -> list[tuple[int, str]]:
    """The page's ``sh`` blocks as (line, body), the README's set-up block left out."""
    text = page.read_text("utf-8")
    blocks = [
        (text.count("\n", 0, match.start()) + 2, match.group(1))
        for match in re.finditer(r"^```sh\n(.*?)^```", text, re.S | re.M)
    ]
    if page == README:
        blocks = blocks[1:]
    return [(line, body) for line, body in blocks if ".venv/bin/" not in body]


def shell_blocks() -> list[tuple[str, int, str]]:
    return [
        (str(page.relative_to(ROOT)), line, body)
        for page in PAGES
        for line, body in page_blocks(page)
    ]


def test_every_guide_page_with_commands_is_run() -> None:
    with_commands = {page for page in GUIDE.glob("*.md") if page_blocks(page)}
    assert with_commands <= set(PAGES), "add the page to PAGES"


def test_the_readme_opens_with_the_two_set_up_commands() -> None:
    text = README.read_text("utf-8")
    first = re.search(r"^```sh\n(.*?)^```", text, re.S | re.M)
    assert first is not None and text.index(first.group(0)) < 40
    main, tests = first.group(1).strip().splitlines()
    assert "runarch-gen kit" in main and "pytest" in tests


@pytest.mark.slow
def test_every_shell_block_runs_as_written_in_a_fresh_folder(tmp_path: Path) -> None:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    blocks = shell_blocks()
    assert len(blocks) >= 7
    for page, line, body in blocks:
        # `COMMAND  # exit N: why` documents another exit code than 0: it must be that one.
        script = re.sub(
            r"^(.*?)\s+# exit (\d+)\b.*$",
            r"if \1; then exit 99; else test $? -eq \2; fi",
            body,
            flags=re.M,
        )
        done = subprocess.run(
            ["bash", "-c", "set -euo pipefail\n" + script],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, f"{page}:{line}: {done.stderr[-1000:]}"
        assert "Traceback" not in done.stderr, f"{page}:{line}: {done.stderr[-1000:]}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["output"]
