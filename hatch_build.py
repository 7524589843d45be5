"""The optional compiled build: with ``RUNARCH_GEN_COMPILE=1`` in the environment, building the
wheel (``pip install .``) compiles the RunArch engine and bots with mypyc into C extensions that
sit beside the same ``.py`` files (Python imports an extension before a source file of the same
name). Without it, and for editable installs, nothing happens and the wheel is pure Python, so
the plain install needs no compiler.

    RUNARCH_GEN_COMPILE=1 pip install .          # needs a C compiler and Python's headers

The compiled modules play every game move for move as the Python ones (``.ci/run`` compares the
trace fingerprints of both builds). Run as a script, this file compiles the listed modules
(``python hatch_build.py SRC BUILD``): the hook runs it in a subprocess, so setuptools and mypyc
never load into the build backend.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

SWITCH = "RUNARCH_GEN_COMPILE"
# The modules compiled: the engine's hot paths and the bots (paths under src/).
COMPILED = (
    "runarch_gen/runarch/engine/actions.py",
    "runarch_gen/runarch/engine/conditions.py",
    "runarch_gen/runarch/engine/evaluation.py",
    "runarch_gen/runarch/engine/game.py",
    "runarch_gen/runarch/engine/observation.py",
    "runarch_gen/runarch/engine/scoring.py",
    "runarch_gen/runarch/engine/setup.py",
    "runarch_gen/runarch/engine/stages.py",
    "runarch_gen/runarch/engine/state.py",
    "runarch_gen/runarch/engine/tables.py",
    "runarch_gen/runarch/engine/tally.py",
    "runarch_gen/runarch/engine/tokens.py",
    "runarch_gen/runarch/bots/base.py",
    "runarch_gen/runarch/bots/greedy.py",
    "runarch_gen/runarch/bots/lookahead.py",
    "runarch_gen/runarch/bots/planning.py",
    "runarch_gen/runarch/bots/random_bot.py",
)
# The name of the shared library holding mypyc's runtime and the compiled code (top level).
GROUP = "runarch_gen_mypyc"
BUILD_REQUIRES = ["mypy>=1.15", "setuptools>=70"]


def compile_requested() -> bool:
    """Whether the environment asks for the compiled build (``RUNARCH_GEN_COMPILE=1``)."""
    value = os.environ.get(SWITCH, "").strip().lower()
    if value in ("", "0", "no", "false", "off"):
        return False
    if value in ("1", "yes", "true", "on"):
        return True
    raise SystemExit(f"{SWITCH}={value!r}: expected 1 (compile) or 0 (pure Python)")


def compile_modules(src: Path, build: Path) -> list[Path]:
    """Compile :data:`COMPILED` (under ``src``) with mypyc; the extensions land in ``build``,
    laid out as in the package. Returns their paths."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    os.chdir(src)  # mypyc names modules after the paths it is given
    extensions = mypycify(
        # The third-party libraries are not installed where the wheel is built: Any to mypy.
        ["--ignore-missing-imports", *COMPILED],
        opt_level="3",
        group_name=GROUP,
        target_dir=str(build / "c"),
    )
    distribution = Distribution({"name": "runarch-gen", "ext_modules": extensions})
    command: Any = distribution.get_command_obj("build_ext")
    command.build_lib = str(build / "lib")
    command.build_temp = str(build / "temp")
    command.ensure_finalized()
    command.run()
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    return sorted(Path(build / "lib").rglob(f"*{suffix}"))


try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # run as a script (the compile step), or outside a build
    BuildHookInterface = object  # type: ignore[assignment,misc]


class CompileHook(BuildHookInterface):  # type: ignore[type-arg]
    """Hatch's custom build hook: compile when :data:`SWITCH` says so, for a wheel only."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        return BUILD_REQUIRES if compile_requested() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version == "editable" or not compile_requested():
            return
        root = Path(self.root)
        work = Path(tempfile.mkdtemp(prefix="runarch-gen-mypyc-"))
        self._work = work
        # A copy of the sources: mypyc writes its C files and build products beside what it
        # compiles, and the checkout stays as it was.
        src = work / "src"
        shutil.copytree(root / "src", src, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        built = work / "build"
        result = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), str(src), str(built)],
            check=False,
        )
        if result.returncode:
            raise SystemExit(
                f"{SWITCH}=1: compiling with mypyc failed (exit {result.returncode}); a C"
                " compiler and Python's headers are needed. Unset it for the pure-Python build."
            )
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        for path in sorted((built / "lib").rglob(f"*{suffix}")):
            build_data["force_include"][str(path)] = path.relative_to(built / "lib").as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    for built_path in compile_modules(Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()):
        print(f"compiled {built_path.name}")
