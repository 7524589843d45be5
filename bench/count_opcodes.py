"""Count the Python bytecodes simulated games execute: a measure of the engine's and the bots'
work that, unlike wall or CPU time, does not depend on the machine's load.

    python bench/count_opcodes.py                                 # 100 greedy complex games
    python bench/count_opcodes.py --variant simple --bots lookahead,greedy --games 20
    python bench/count_opcodes.py --top 30                        # and the costliest functions

Games are played as ``simulate`` plays them (seed ``--seed``, one worker) under ``sys.settrace``
with opcode events, about a hundred times slower than normal. Compare two checkouts by running
it in each; C-level work (sorting, big-int operations) counts as one bytecode, so the figure is a
guide to, not a measurement of, the speed.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from types import FrameType
from typing import Any

from runarch_gen.runarch.analysis.simulation import playtest_set, simulate
from runarch_gen.runarch.rules import parse_rules


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--variant", default="complex")
    parser.add_argument("--bots", default="greedy")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=0, help="list the N costliest functions")
    args = parser.parse_args(argv)
    chosen = playtest_set(args.seed)
    rules = parse_rules(args.variant)
    bots = args.bots.split(",")
    per_code: Counter[str] = Counter()

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        if event == "opcode":
            code = frame.f_code
            per_code[f"{code.co_filename.rsplit('/', 1)[-1]}:{code.co_qualname}"] += 1
        return tracer

    sys.settrace(tracer)
    try:
        simulate(
            rules=rules,
            board=chosen.board,
            deck=chosen.deck,
            bots=bots,
            games=args.games,
            seed=args.seed,
            workers=1,
        )
    finally:
        sys.settrace(None)
    total = sum(per_code.values())
    print(f"{rules} {','.join(bots)}: {total / args.games / 1000:.1f} k bytecodes per game")
    for name, count in per_code.most_common(args.top):
        print(f"{100 * count / total:5.1f} % {count / args.games / 1000:8.1f} k  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
