"""Benchmark a rule sweep: 12 points × 500 greedy complex games, locally and on a Dask cluster
of two local workers, and check that both give the identical table.

    python bench/bench_sweep.py                       # 12 points × 500 games, pool and Dask
    python bench/bench_sweep.py --games 100 --no-dask # quicker, the local pool only
    python bench/bench_sweep.py --charts              # also time the charts of the sweep

The grid: [R-04] deal 4 or 5 × [R-09] match bonus board, line or off × [R-13] archive order
(12 points) of the complex game on the set of seed 1, greedy bots. The targets: the local pool
under two minutes on this 2-core machine, and two local Dask workers (one thread each, started
before the clock) within 1.3× of it; each Dask worker makes the set of seed 1 itself, as a
worker on another machine would. Note the machine's load: figures taken under load are slower;
the CPU seconds (this process and its workers) say what the work costs whatever the load.
"""

from __future__ import annotations

import argparse
import json
import resource
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


def cpu() -> float:
    """CPU seconds of this process and of its finished children (pool workers, Dask workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500, help="games per point")
    parser.add_argument("--workers", type=int, default=2, help="local processes, Dask workers")
    parser.add_argument("--no-dask", action="store_true", help="only the local pool")
    parser.add_argument("--charts", action="store_true", help="also time the charts")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    registration = find_registration("runarch")
    plan = parse_sweep(SWEEP.format(games=args.games))
    total = plan.count * plan.games
    registration.load(registration.game_type.parse_parameters({"set": "1"}))  # the set, once
    figures: dict[str, object] = {"points": plan.count, "games": total, "load": load()}
    started, used = time.perf_counter(), cpu()
    local = run_sweep(registration, plan, workers=args.workers)
    seconds = time.perf_counter() - started
    figures["local_seconds"] = round(seconds, 1)
    figures["local_games_per_second"] = round(total / seconds, 1)
    figures["local_cpu_seconds"] = round(cpu() - used, 1)
    if args.charts:
        started = time.perf_counter()
        charts = local.charts()
        figures["charts"] = len(charts)
        figures["charts_seconds"] = round(time.perf_counter() - started, 1)
    if not args.no_dask:
        from distributed import Client, LocalCluster

        used = cpu()
        with LocalCluster(
            n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster:
            with Client(cluster, set_as_default=False) as client:
                client.wait_for_workers(args.workers, timeout=120)
            started = time.perf_counter()
            remote = run_sweep(registration, plan, scheduler=cluster.scheduler_address)
            seconds = time.perf_counter() - started
        # with the CPU the cluster's start and stop cost (its workers' imports)
        figures["dask_cpu_seconds"] = round(cpu() - used, 1)
        figures["dask_seconds"] = round(seconds, 1)
        figures["dask_games_per_second"] = round(total / seconds, 1)
        figures["dask_over_local"] = round(seconds / float(str(figures["local_seconds"])), 2)
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
