"""The README works as written: every shell block after the set-up (which `.ci/run` runs) is
run, in README order, in a fresh folder, with the installed `runarch-gen` on the PATH, and must
exit 0 (or the code a `# exit N` comment gives) without leaving files outside `output/`. The
Development block (pip and the linters, which CI runs itself) is left out."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BIN = Path(sys.executable).parent


def shell_blocks() -> list[tuple[int, str]]:
    text = README.read_text("utf-8")
    blocks = [
        (text.count("\n", 0, match.start()) + 2, match.group(1))
        for match in re.finditer(r"^```sh\n(.*?)^```", text, re.S | re.M)
    ]
    return [(line, body) for line, body in blocks[1:] if ".venv/bin/" not in body]


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
    for line, body in blocks:
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
        assert done.returncode == 0, f"README.md:{line}: {done.stderr[-1000:]}"
        assert "Traceback" not in done.stderr, f"README.md:{line}: {done.stderr[-1000:]}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["output"]
