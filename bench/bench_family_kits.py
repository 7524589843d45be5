"""Benchmark the family's print-and-play kits: seconds per kit folder of Bluff, Vrhcáby and
Malacca through each game's ``make_kit`` (what the commands call), with their size.

    python bench/bench_family_kits.py             # best of 3 runs each
    python bench/bench_family_kits.py --runs 5 --json

RunArch's kit has its own benchmark (bench/bench_kit.py). The figures are wall clock of this
one process; note the machine's load printed with them.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from machine import load


def kits() -> dict[str, Callable[[Path], dict[str, Any]]]:
    from runarch_gen.backgammon.kit import make_kit as backgammon_kit
    from runarch_gen.bluff.kit import make_kit as bluff_kit
    from runarch_gen.bluff.rules import BluffRules
    from runarch_gen.games import rules_document
    from runarch_gen.malacca.kit import make_kit as malacca_kit

    rules = rules_document("backgammon")
    return {
        "bluff": lambda out: bluff_kit(BluffRules(), out),
        "backgammon": lambda out: backgammon_kit(out, rules_text=rules),
        "malacca": malacca_kit,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in kits().items():
            make(Path(tmp) / f"warm-{name}")  # imports, fonts
            times = []
            for run in range(args.runs):
                folder = Path(tmp) / f"{name}-{run}"
                start = time.perf_counter()
                make(folder)
                times.append(time.perf_counter() - start)
            size = sum(p.stat().st_size for p in folder.iterdir())
            files = len(list(folder.iterdir()))
            rows.append({"game": name, "best_s": min(times), "files": files, "bytes": size})
    if args.json:
        json.dump({"load": load(), "kits": rows}, sys.stdout, indent=2)
        print()
        return 0
    print(f"load {load()}")
    for row in rows:
        print(
            f"{row['game']:<11} {row['best_s']:6.2f} s per kit folder"
            f"  ({row['files']} files, {row['bytes'] / 1e6:.1f} MB)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
