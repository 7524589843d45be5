"""Benchmark validation: the static checks, each variant's simulated games, and the command.

    python bench/bench_validate.py                        # seeds 1-3, the default run
    python bench/bench_validate.py --seeds 5 --games 200 --bots greedy --workers 2
    python bench/bench_validate.py --json

For each seed it times the static checks of RULES §9.1 (deck checker with its goal witnesses,
the best-score assignments, the condition witnesses, the token analysis) on a generated board
and 50-card deck, then the dynamic check of each default variant (games per second, stalls
and deadlocks), then ``runarch-gen validate --seed N`` as a whole, start-up and generation
included. Note the machine's load average: figures are only comparable on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from typing import Any

from machine import load
from runarch_gen.runarch.boards.generate import generate_board
from runarch_gen.runarch.decks.generate import generate_deck
from runarch_gen.runarch.validation.validate import (
    DEFAULT_BOTS,
    DEFAULT_GAMES,
    DEFAULT_VARIANTS,
    check_set,
    validate_set,
)


def bench_seed(seed: int, games: int, bots: list[str], workers: int | None) -> dict[str, Any]:
    board = generate_board(seed=seed)
    deck, _ = generate_deck(50, seed)
    started = time.perf_counter()
    static = check_set(board, deck, DEFAULT_VARIANTS)
    static_seconds = time.perf_counter() - started
    variants = []
    for rules in DEFAULT_VARIANTS:
        started = time.perf_counter()
        report = validate_set(
            board, deck, [rules], games=games, bots=bots, seed=seed, workers=workers
        )
        seconds = time.perf_counter() - started
        (run,) = report.dynamic
        variants.append(
            {
                "rules": rules,
                "seconds": round(seconds, 2),
                "games_per_second": round(run.games / max(seconds - static_seconds, 1e-9), 1),
                "stalls": run.stalls,
                "deadlocks": run.deadlocks,
                "playable": report.playable,
            }
        )
    command = [sys.executable, "-m", "runarch_gen", "validate", "--seed", str(seed)]
    command += ["--games", str(games), "--bots", ",".join(bots)]
    if workers is not None:
        command += ["--workers", str(workers)]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    whole = time.perf_counter() - started
    return {
        "seed": seed,
        "static_seconds": round(static_seconds, 2),
        "static_playable": static.playable,
        "variants": variants,
        "command_seconds": round(whole, 2),
        "command_exit_code": done.returncode,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="seeds 1..N (default 3)")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES)
    parser.add_argument("--bots", default=",".join(DEFAULT_BOTS))
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = [
        bench_seed(seed, args.games, args.bots.split(","), args.workers)
        for seed in range(1, args.seeds + 1)
    ]
    machine = load()
    if args.json:
        print(json.dumps({"load_average": machine, "results": results}, indent=2))
        return
    print(f"load average {machine}")
    for r in results:
        print(
            f"seed {r['seed']}: static checks {r['static_seconds']} s;"
            f" `runarch-gen validate --seed {r['seed']}` {r['command_seconds']} s"
            f" (exit {r['command_exit_code']})"
        )
        for v in r["variants"]:
            print(
                f"  {v['rules']:<8} {v['seconds']:>6} s with the static checks,"
                f" {v['games_per_second']:>6} games/s; stalls {v['stalls']},"
                f" deadlocks {v['deadlocks']}; {'playable' if v['playable'] else 'NOT playable'}"
            )


if __name__ == "__main__":
    main()
