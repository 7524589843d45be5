"""Mutation testing on demand: how many small plausible bugs the related tests catch, per module.

    python bench/mutation.py board-check              # one module, its fast related tests
    python bench/mutation.py board-check deck-check   # several, one after the other
    python bench/mutation.py all                      # every module below (about an hour)
    python bench/mutation.py --list                   # the modules and the test files each runs
    python bench/mutation.py board-check --survivors  # also print the diff of every survivor
    python bench/mutation.py board-check --json       # the figures as JSON

It runs mutmut 3 (``pip install -e ".[mutation]"``), which copies the source into ``mutants/``,
puts one mutant at a time in place and runs the tests that reach the mutated function. mutmut
runs from the directory holding ``pyproject.toml`` and mutates what that file's
``[tool.mutmut]`` names, so each module is run in a scratch copy of the repository (``src``,
``tests``, ``docs``, ``templates``) whose ``pyproject.toml`` gets a ``[tool.mutmut]`` section
naming only that module and its test files; the working tree is never touched. ``--keep`` leaves
the copy behind (``mutmut show NAME`` and ``mutmut browse`` work in it).

Per module it prints the mutants killed (a test failed or timed out), survived (every test
passed), not reached (no selected test calls the function: counted as survivors), the equivalent
mutants listed in ``bench/mutation_equivalent.md`` (same behaviour as the original: left out of
the score) and the score, killed / (total - equivalent). The exit status is 1 when a module scores
below ``--fail-under`` (90 %).

Too slow for CI (a few minutes per module on a busy 2-core machine): run it when a module or its
tests change. Mutant names (``module.x_function__mutmut_N``) are stable while the function's
source is unchanged; when a function changes, check its entries in the equivalents file.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENTS = Path(__file__).resolve().parent / "mutation_equivalent.md"
COPIED = ("src", "tests", "docs", "templates", "README.md", "pyproject.toml")
FRESH_CACHES = """\"\"\"bench/mutation.py: empty runarch_gen's caches before each test.\"\"\"

import sys

import pytest


@pytest.fixture(autouse=True)
def _fresh_caches():
    for name, module in list(sys.modules.items()):
        if name.startswith("runarch_gen"):
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()
    yield
"""


@dataclass(frozen=True)
class Module:
    """A source file, the test files its run uses and, optionally, the functions that are
    scored (fnmatch patterns on mutmut's names: ``x_impose``, ``xǁImpositionǁ*``)."""

    source: str
    tests: tuple[str, ...]
    only: tuple[str, ...] = ()
    # The module (or what calls it) caches results: empty every functools cache of the package
    # before each test. Otherwise the clean run fills the cache once, mutmut links the cached
    # function to the one test that filled it, and each mutant's fork reuses the clean value:
    # a first board-generate run reported 126 enumeration mutants as survivors, never executed.
    fresh_caches: bool = False

    @property
    def dotted(self) -> str:
        return self.source.removeprefix("src/").removesuffix(".py").replace("/", ".")

    def patterns(self) -> list[str]:
        return [f"{self.dotted}.{pattern}__mutmut_*" for pattern in self.only]

    def scored(self, key: str) -> bool:
        return not self.only or any(fnmatch.fnmatchcase(key, p) for p in self.patterns())


MODULES: dict[str, Module] = {
    "board-check": Module(
        "src/runarch_gen/runarch/boards/check.py",
        (
            "tests/test_board_oracle.py",
            "tests/test_boardcheck.py",
            "tests/test_boards_cli.py",
            "tests/test_mutation_kills.py",
        ),
        fresh_caches=True,
    ),
    "board-generate": Module(
        "src/runarch_gen/runarch/boards/generate.py",
        ("tests/test_boardgen.py", "tests/test_board_oracle.py", "tests/test_mutation_kills.py"),
        fresh_caches=True,
    ),
    "deck-check": Module(
        "src/runarch_gen/runarch/decks/check.py",
        (
            "tests/test_deckcheck.py",
            "tests/test_validation_boundaries.py",
            "tests/test_mutation_kills.py",
        ),
    ),
    "engine-tables": Module(
        "src/runarch_gen/runarch/engine/tables.py",
        (
            "tests/test_match_bonus_oracle.py",
            "tests/test_moves_oracle.py",
            "tests/test_engine_rules.py",
            "tests/test_engine_simulation.py",
            "tests/test_engine_scoring.py",
            "tests/test_mutation_kills.py",
        ),
        fresh_caches=True,
        # The move and line tables (PAIRS, SECOND_SWAPS, NEIGHBOUR, ...) are built when the
        # module is imported, before mutmut picks a mutant, so mutants of their builders never
        # run; tests/test_moves_oracle.py holds the tables against §4.1 instead.
        only=(
            "xǁTablesǁ*",
            "x_stone_points",
            "x_points_table",
            "x_pattern_points",
            "x_contribution_table",
        ),
    ),
    "engine-scoring": Module(
        "src/runarch_gen/runarch/engine/scoring.py",
        (
            "tests/test_engine_scoring.py",
            "tests/test_engine_rules.py",
            "tests/test_mutation_kills.py",
        ),
    ),
    "engine-tally": Module(
        "src/runarch_gen/runarch/engine/tally.py",
        ("tests/test_engine_scoring.py", "tests/test_mutation_kills.py"),
    ),
    # The static checks of a set (§9.1 deck size, board, stones, cards, goals, minimums,
    # conditions) and their verdicts; loading files and the simulated runs are left out.
    "validation": Module(
        "src/runarch_gen/runarch/validation/validate.py",
        (
            "tests/test_validate.py",
            "tests/test_validation_boundaries.py",
            "tests/test_mutation_kills.py",
        ),
        only=(
            "xǁFailureǁ*",
            "xǁCheckǁ*",
            "x_find_condition_witness",
            "x__none_last",
            "x__condition_witness_problem",
            "x_setup_cards",
            "x__deck_size_check",
            "x__board_check",
            "x__stones_check",
            "x__violation_failure",
            "x__patterns_check",
            "x__cards_check",
            "x__goals_check",
            "x__plural",
            "x__minimums_check",
            "x__conditions_check",
            "x_check_set",
        ),
    ),
    # Imposition and crop marks; the drawing functions (PDF and PNG output) are left out.
    "sheets": Module(
        "src/runarch_gen/pnp/sheets.py",
        ("tests/test_pnp.py", "tests/test_mutation_kills.py"),
        only=(
            "xǁSheetSpecǁ*",
            "xǁPlacementǁ*",
            "xǁImpositionǁ*",
            "x_back_box",
            "x_impose",
            "x__same_block",
            "x__count",
            "x__best_grid",
            "x__block_marks",
            "x__clipped",
            "x_duplex_test_marks",
        ),
    ),
    "bluff-rules": Module(
        "src/runarch_gen/bluff/rules.py",
        (
            "tests/bluff/test_bluff_rules.py",
            "tests/bluff/test_bluff_engine.py",
            "tests/bluff/test_bluff_scale_text.py",
        ),
        fresh_caches=True,
    ),
    "malacca-resolve": Module(
        "src/runarch_gen/malacca/resolve.py",
        ("tests/test_malacca_resolve.py", "tests/test_malacca_oracle.py"),
    ),
    "backgammon-board": Module(
        "src/runarch_gen/backgammon/board.py",
        (
            "tests/backgammon/test_moves.py",
            "tests/backgammon/test_engine.py",
            "tests/backgammon/test_apply_step.py",
        ),
    ),
}

# mutmut's exit codes (mutmut/stats.py): 1 and 3 a test failed, 0 all passed, 5 and 33 no test
# reached the function, 36 and the SIGXCPU family a time-out, 37 caught by a type checker.
KILLED = {1, 3}
SURVIVED = {0}
NOT_REACHED = {5, 33}
TIMEOUT = {36, 24, -24, 152, 255}


@dataclass
class Score:
    module: str
    total: int
    killed: int
    timeout: int
    survived: list[str]
    not_reached: list[str]
    other: list[str]
    equivalent: list[str]
    seconds: float

    @property
    def scored(self) -> int:
        return self.total - len(self.equivalent)

    @property
    def score(self) -> float:
        return (self.killed + self.timeout) / self.scored if self.scored else 1.0

    def to_json(self) -> dict[str, object]:
        return {
            "module": self.module,
            "total": self.total,
            "killed": self.killed,
            "timeout": self.timeout,
            "survived": self.survived,
            "not_reached": self.not_reached,
            "other": self.other,
            "equivalent": self.equivalent,
            "score": round(self.score, 4),
            "seconds": round(self.seconds, 1),
        }


def equivalent_mutants(path: Path = EQUIVALENTS) -> set[str]:
    """The mutant names in the first column of the equivalents file's table rows."""
    if not path.exists():
        return set()
    names = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"\|\s*`([^`]+__mutmut_\d+)`", line)
        if match:
            names.add(match.group(1))
    return names


def _config(module: Module, timeout: float) -> str:
    def array(items: tuple[str, ...] | list[str]) -> str:
        return "[" + ", ".join(json.dumps(item) for item in items) + "]"

    pytest_args = ["-x", "-q", "-p", "no:cacheprovider"]
    copied = ["docs", "templates", "README.md"] + (["conftest.py"] if module.fresh_caches else [])

    return "\n".join(
        [
            "",
            "[tool.mutmut]",
            f"only_mutate = {array([module.source])}",
            f"pytest_add_cli_args_test_selection = {array(module.tests)}",
            f"pytest_add_cli_args = {array(pytest_args)}",
            f"also_copy = {array(copied)}",
            f"timeout_multiplier = {timeout}",
            "",
        ]
    )


def _copy_repository(workdir: Path, module: Module, timeout: float) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", "mutants")
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, workdir / name, ignore=ignore)
        elif source.exists():
            shutil.copy2(source, workdir / name)
    if module.fresh_caches:  # the repository has no conftest.py of its own at the top
        (workdir / "conftest.py").write_text(FRESH_CACHES, encoding="utf-8")
    pyproject = (workdir / "pyproject.toml").read_text(encoding="utf-8")
    pyproject = re.sub(r"\n\[tool\.mutmut\]\n(?:(?!\n\[).)*", "\n", pyproject, flags=re.S)
    (workdir / "pyproject.toml").write_text(pyproject + _config(module, timeout), "utf-8")


def _mutmut() -> str:
    beside = Path(sys.executable).parent / "mutmut"
    found = str(beside) if beside.exists() else shutil.which("mutmut")
    if found is None:
        raise SystemExit(
            "bench/mutation.py: mutmut is not installed (pip install -e '.[mutation]')"
        )
    return found


def run_module(
    name: str, *, jobs: int, timeout: float, keep: bool, survivors: bool, quiet: bool
) -> Score:
    module = MODULES[name]
    workdir = Path(tempfile.mkdtemp(prefix=f"mutation-{name}-"))
    started = time.perf_counter()
    try:
        _copy_repository(workdir, module, timeout)
        log = workdir / "mutmut.log"
        with log.open("w", encoding="utf-8") as out:
            process = subprocess.run(
                [_mutmut(), "run", "--max-children", str(jobs), *module.patterns()],
                check=False,
                cwd=workdir,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        meta = workdir / "mutants" / (module.source + ".meta")
        if process.returncode != 0 or not meta.exists():
            tail = log.read_text(encoding="utf-8", errors="replace")[-2000:]
            raise SystemExit(f"bench/mutation.py: mutmut failed on {name}:\n{tail}")
        codes: dict[str, int | None] = json.loads(meta.read_text("utf-8"))["exit_code_by_key"]
        equivalent = equivalent_mutants()
        codes = {key: code for key, code in codes.items() if module.scored(key)}
        score = Score(name, len(codes), 0, 0, [], [], [], [], 0.0)
        for key, code in sorted(codes.items()):
            if key in equivalent:
                score.equivalent.append(key)
                if code in KILLED:  # a test tells it apart: the equivalents file is wrong
                    score.other.append(f"{key} (listed as equivalent, but killed)")
            elif code in KILLED:
                score.killed += 1
            elif code in TIMEOUT:
                score.timeout += 1
            elif code in SURVIVED:
                score.survived.append(key)
            elif code in NOT_REACHED:
                score.not_reached.append(key)
            else:
                score.other.append(f"{key} (exit {code})")
        score.seconds = time.perf_counter() - started
        if survivors and not quiet:
            for key in score.survived + score.not_reached:
                shown = subprocess.run(
                    [_mutmut(), "show", key],
                    check=False,
                    cwd=workdir,
                    capture_output=True,
                    text=True,
                )
                print(shown.stdout.rstrip(), flush=True)
        return score
    finally:
        if keep:
            print(f"  kept {workdir}", file=sys.stderr)
        else:
            shutil.rmtree(workdir, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("modules", nargs="*", help="module names (see --list), or 'all'")
    parser.add_argument("--list", action="store_true", help="list the modules and their tests")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="mutants run at once (1)")
    parser.add_argument(
        "--timeout-multiplier",
        type=float,
        default=3.0,
        help="a mutant times out (and counts as killed) after this many times its tests' time (3)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the scratch copy")
    parser.add_argument("--survivors", action="store_true", help="print each survivor's diff")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--fail-under", type=float, default=90.0, help="percent (90)")
    args = parser.parse_args(argv)
    if args.list or not args.modules:
        for name, module in MODULES.items():
            print(f"{name:18} {module.source}\n{'':18} tests: {' '.join(module.tests)}")
        return 0
    names = list(MODULES) if args.modules == ["all"] else args.modules
    unknown = [name for name in names if name not in MODULES]
    if unknown:
        parser.error(f"unknown module {', '.join(unknown)}; known: {', '.join(MODULES)}")
    scores = []
    for name in names:
        score = run_module(
            name,
            jobs=args.jobs,
            timeout=args.timeout_multiplier,
            keep=args.keep,
            survivors=args.survivors,
            quiet=args.json,
        )
        scores.append(score)
        if not args.json:
            print(
                f"{name:18} {score.killed + score.timeout:4}/{score.scored:<4} killed "
                f"({score.timeout} by time-out)  survived {len(score.survived):3}  "
                f"not reached {len(score.not_reached):3}  equivalent {len(score.equivalent):3}  "
                f"score {100 * score.score:5.1f} %  ({score.seconds:.0f} s)",
                flush=True,
            )
            for key in score.survived:
                print(f"    survived     {key}")
            for key in score.not_reached:
                print(f"    not reached  {key}")
            for key in score.other:
                print(f"    other        {key}")
    if args.json:
        print(json.dumps([score.to_json() for score in scores], indent=2))
    return 0 if all(100 * score.score >= args.fail_under for score in scores) else 1


if __name__ == "__main__":
    sys.exit(main())
