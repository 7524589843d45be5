"""Benchmark validation: every game's default ``validate`` as a whole, what the design metrics
cost, and RunArch's static checks and variants.

    python bench/bench_validate.py                    # every game's default validate, seeds 1-3
    python bench/bench_validate.py --seeds 1 --repeat 3
    python bench/bench_validate.py --runarch          # RunArch's static checks and variants too
    python bench/bench_validate.py --kit              # and `runarch-gen kit --seed N --validate`
    python bench/bench_validate.py --json

**The command.** For each game, ``runarch-gen [GAME] validate --seed N --workers 2`` as a
whole — start-up, generation, static checks, the line-up's games, the skill trace's games, the
metrics and the findings — timed on the wall clock (the best of ``--repeat`` runs) with the
processor time of the command and its workers.

**The metrics.** For each game, the library's validation (one worker, processor time) with
everything, then with the design metrics' games-independent part switched off (no standing is
followed while the games are played; the metric functions still run) and then without the skill
trace's games: what the traces and metric functions add, and what the skill trace's games
add, as shares of the validation without them.

Note the machine's load average: figures are only comparable on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from machine import load

GAMES = ("runarch", "bluff", "malacca", "backgammon")


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def command(game: str, seed: int, repeat: int, kit: str | None = None) -> dict[str, Any]:
    """``runarch-gen [GAME] validate --seed N --workers 2`` (with ``kit``: ``runarch-gen kit
    --seed N --validate`` into that folder): the best wall time of ``repeat`` runs and its
    processor time."""
    words = [sys.executable, "-m", "runarch_gen"]
    if kit is not None:
        words += ["kit", "--seed", str(seed), "--validate", "-o", kit, "--name", f"k{seed}"]
    else:
        words += ["validate"] if game == "runarch" else [game, "validate"]
        words += ["--seed", str(seed), "--workers", "2"]
    best: tuple[float, float, int] | None = None
    for _ in range(repeat):
        cpu, started = _cpu(), time.perf_counter()
        done = subprocess.run(words, capture_output=True, text=True, check=False)
        wall, used = time.perf_counter() - started, _cpu() - cpu
        if best is None or wall < best[0]:
            best = (wall, used, done.returncode)
    assert best is not None
    return {"seconds": round(best[0], 2), "cpu_seconds": round(best[1], 2), "exit_code": best[2]}


@contextmanager
def without_standing(game: str) -> Iterator[None]:
    """Play ``game`` without following the lead (the metric functions still run)."""
    from runarch_gen.games import registered_games
    from runarch_gen.play import design as designs

    registered_games()  # every game's design registered
    before = designs.design_of(game)
    designs.register_design(game, replace(before, standing=None, turn=None))
    try:
        yield
    finally:
        designs.register_design(game, before)


def library(game: str, seed: int, skill: bool, standing: bool) -> float:
    """Processor time of the library's default validation of ``game`` on one worker."""
    from runarch_gen.games import game_values

    def run() -> None:
        if game == "runarch":
            from runarch_gen.runarch.validation.validate import (
                SKILL_GAMES,
                load_set,
                validate_set,
            )

            chosen = load_set(seed=seed)
            validate_set(
                chosen.board,
                chosen.deck,
                seed=seed,
                workers=1,
                skill_games=SKILL_GAMES if skill else 0,
            )
        else:
            from runarch_gen.play.verdict import validate_game

            registration, values = game_values(game, "")
            validate_game(registration, values, seed=seed, workers=1, skill=skill)

    started = time.process_time()
    if standing:
        run()
    else:
        with without_standing(game):
            run()
    return time.process_time() - started


def metrics_cost(game: str, seed: int) -> dict[str, Any]:
    library(game, seed, False, False)  # warm up: tables, imports
    bare = library(game, seed, False, False)
    traced = library(game, seed, False, True)
    full = library(game, seed, True, True)
    return {
        "bare_cpu_seconds": round(bare, 2),
        "traced_cpu_seconds": round(traced, 2),
        "full_cpu_seconds": round(full, 2),
        "traces_and_metrics_share": round(traced / bare - 1, 3),
        "skill_games_share": round(full / traced - 1, 3),
    }


def runarch_parts(seed: int) -> dict[str, Any]:
    """RunArch's static checks and each default variant's games (two workers)."""
    from runarch_gen.runarch.boards.generate import generate_board
    from runarch_gen.runarch.decks.generate import generate_deck
    from runarch_gen.runarch.validation.validate import DEFAULT_VARIANTS, check_set, validate_set

    board = generate_board(seed=seed)
    deck, _ = generate_deck(50, seed)
    started = time.perf_counter()
    static = check_set(board, deck, DEFAULT_VARIANTS)
    static_seconds = time.perf_counter() - started
    variants = []
    for rules in DEFAULT_VARIANTS:
        started = time.perf_counter()
        report = validate_set(board, deck, [rules], seed=seed, workers=2, skill_games=0)
        seconds = time.perf_counter() - started
        (run,) = report.dynamic
        variants.append(
            {
                "rules": rules,
                "seconds": round(seconds, 2),
                "games_per_second": round(run.games / max(seconds - static_seconds, 1e-9), 1),
                "stalls": run.stalls,
                "deadlocks": run.deadlocks,
            }
        )
    return {
        "static_seconds": round(static_seconds, 2),
        "static_playable": static.playable,
        "variants": variants,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="seeds 1..N (default 3)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each command (the best)")
    parser.add_argument("--games", default=",".join(GAMES), help="games, comma-separated")
    parser.add_argument("--runarch", action="store_true", help="RunArch's parts too")
    parser.add_argument("--kit", action="store_true", help="kit --validate too")
    parser.add_argument("--no-metrics", action="store_true", help="skip the metrics' cost")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    games = [g for g in args.games.split(",") if g]
    seeds = range(1, args.seeds + 1)
    out: dict[str, Any] = {"load_average_before": load(), "commands": {}, "metrics": {}}
    for game in games:
        out["commands"][game] = [
            command(game, seed, args.repeat) | {"seed": seed} for seed in seeds
        ]
    if not args.no_metrics:
        for game in games:
            out["metrics"][game] = metrics_cost(game, 1)
    if args.runarch:
        out["runarch"] = [runarch_parts(seed) | {"seed": seed} for seed in seeds]
    if args.kit:
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            out["kit"] = [
                command("runarch", seed, args.repeat, folder) | {"seed": seed} for seed in seeds
            ]
    out["load_average_after"] = load()
    if args.json:
        print(json.dumps(out, indent=2))
        return
    report: Callable[[str], None] = print
    report(f"load average before {out['load_average_before']}, after {out['load_average_after']}")
    for game, runs in out["commands"].items():
        times = ", ".join(
            f"seed {r['seed']} {r['seconds']} s ({r['cpu_seconds']} s cpu, exit {r['exit_code']})"
            for r in runs
        )
        report(f"{game:<10} validate: {times}")
    for game, cost in out["metrics"].items():
        report(
            f"{game:<10} metrics: traces and metric functions"
            f" {cost['traces_and_metrics_share']:+.1%}, skill trace games"
            f" {cost['skill_games_share']:+.1%} (cpu {cost['bare_cpu_seconds']} →"
            f" {cost['traced_cpu_seconds']} → {cost['full_cpu_seconds']} s, one worker, seed 1)"
        )
    for r in out.get("kit", []):
        report(
            f"runarch-gen kit --seed {r['seed']} --validate: {r['seconds']} s"
            f" ({r['cpu_seconds']} s cpu, exit {r['exit_code']})"
        )
    for r in out.get("runarch", []):
        report(f"runarch seed {r['seed']}: static checks {r['static_seconds']} s")
        for v in r["variants"]:
            report(
                f"  {v['rules']:<8} {v['seconds']:>6} s with the static checks,"
                f" {v['games_per_second']:>6} games/s; stalls {v['stalls']},"
                f" deadlocks {v['deadlocks']}"
            )


if __name__ == "__main__":
    main()
