"""Profile simulated games on one core with cProfile and print where the time goes.

    python bench/profile_simulate.py                          # 300 greedy complex games
    python bench/profile_simulate.py --variant simple --bots lookahead,greedy --games 50
    python bench/profile_simulate.py --sort tottime --top 40

Games are played as ``simulate`` plays them, in this process (one worker), so the profile
holds the engine and the bots only.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time

from runarch_gen.runarch.analysis.simulation import playtest_set, simulate
from runarch_gen.runarch.rules import parse_rules


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--variant", default="complex")
    parser.add_argument("--bots", default="greedy")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sort", default="tottime", help="pstats sort key")
    parser.add_argument("--top", type=int, default=30, help="rows to print")
    args = parser.parse_args(argv)
    chosen = playtest_set(args.seed)
    rules = parse_rules(args.variant)
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.enable()
    simulate(
        rules=rules,
        board=chosen.board,
        deck=chosen.deck,
        bots=args.bots.split(","),
        games=args.games,
        seed=args.seed,
        workers=1,
    )
    profiler.disable()
    wall = time.perf_counter() - started
    print(f"{args.games} games in {wall:.2f} s under the profiler")
    pstats.Stats(profiler).sort_stats(args.sort).print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
