"""Benchmark a rule sweep: 12 points × 500 greedy complex games, locally and on a Dask cluster
of two local workers, and check that both give the identical table.

    python bench/bench_sweep.py                       # 12 points × 500 games, pool and Dask
    python bench/bench_sweep.py --games 100 --no-dask # quicker, the local pool only

The grid: [R-04] deal 4 or 5 × [R-09] match bonus board, line or off × [R-13] archive order
(12 points) of the complex game on the set of seed 1, greedy bots. The issue's target: under
two minutes on this 2-core machine. Note the machine's load: figures taken under load are
slower.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from machine import load
from runarch_gen.games import find_registration
from runarch_gen.play.sweep import parse_sweep, run_sweep

SWEEP = """
game = "runarch"
games = {games}
seed = 1
bots = ["greedy"]

[fixed]
variant = "complex"
set = "1"

[grid]
deal = [4, 5]
match_bonus = ["board", "line", "off"]
archive_order = ["overview", "article"]
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500, help="games per point")
    parser.add_argument("--no-dask", action="store_true", help="only the local pool")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    registration = find_registration("runarch")
    plan = parse_sweep(SWEEP.format(games=args.games))
    total = len(plan.points()) * plan.games
    registration.load(registration.game_type.parse_parameters({"set": "1"}))  # the set, once
    figures: dict[str, object] = {"points": len(plan.points()), "games": total, "load": load()}
    started = time.perf_counter()
    local = run_sweep(registration, plan)
    seconds = time.perf_counter() - started
    figures["local_seconds"] = round(seconds, 1)
    figures["local_games_per_second"] = round(total / seconds, 1)
    if not args.no_dask:
        from distributed import LocalCluster

        with LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster:
            started = time.perf_counter()
            remote = run_sweep(registration, plan, scheduler=cluster.scheduler_address)
            seconds = time.perf_counter() - started
        figures["dask_seconds"] = round(seconds, 1)
        figures["dask_games_per_second"] = round(total / seconds, 1)
        figures["identical_tables"] = remote.csv() == local.csv()
    figures["load_after"] = load()
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(local.table())
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 0 if figures.get("identical_tables", True) else 1


if __name__ == "__main__":
    sys.exit(main())
