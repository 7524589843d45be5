"""Benchmark every game's print-and-play kit: seconds per default kit folder (``kit.pdf``,
duplex test, previews, manifest) through the one kit pipeline, as ``runarch-gen GAME kit``
makes it, and the same as the command line (interpreter start included).

    python bench/bench_family_kits.py             # median of 3 runs each
    python bench/bench_family_kits.py --runs 5 --json

RunArch's default kit generates its board and deck from a seed and checks them (its own
benchmark, bench/bench_kit.py, times the parts). Figures are wall clock and CPU time of this
process, and the command's CPU seconds with its child processes (what it costs a machine whatever
else runs on it); the machine's load is printed with them. Target: each default kit under 3 s on
2 cores.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from machine import load

GAMES = ("runarch", "bluff", "malacca", "backgammon")


def make(game: str, folder: Path) -> None:
    if game == "runarch":
        from runarch_gen.runarch.kit.definition import KIT

        KIT.make and KIT.make(folder, _request(seed=1))
        return
    from runarch_gen.games import find_registration
    from runarch_gen.pnp.kit import kit_definition, make_kit

    make_kit(kit_definition(find_registration(game)), folder, _request())


def _request(seed: int | None = None) -> Any:
    from runarch_gen.pnp.kit import KitOptions, KitRequest

    return KitRequest(KitOptions(), {}, seed)


def command(game: str, folder: Path) -> None:
    exe = str(Path(sys.executable).with_name("runarch-gen"))
    args = [exe, "kit", "--seed", "1"] if game == "runarch" else [exe, game, "kit"]
    subprocess.run([*args, "-o", str(folder)], check=True, capture_output=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for game in GAMES:
            make(game, Path(tmp) / f"warm-{game}")  # imports, fonts
            wall, cpu, cli, cli_cpu = [], [], [], []
            for run in range(args.runs):
                folder = Path(tmp) / f"{game}-{run}"
                start, start_cpu = time.perf_counter(), time.process_time()
                make(game, folder)
                wall.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
                start = time.perf_counter()
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                command(game, Path(tmp) / f"{game}-cli-{run}")
                cli.append(time.perf_counter() - start)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cli_cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            files = [p for p in folder.rglob("*") if p.is_file()]
            rows.append(
                {
                    "game": game,
                    "median_s": round(statistics.median(wall), 3),
                    "best_s": round(min(wall), 3),
                    "cpu_s": round(statistics.median(cpu), 3),
                    "command_s": round(statistics.median(cli), 3),
                    "command_cpu_s": round(statistics.median(cli_cpu), 3),
                    "files": len(files),
                    "bytes": sum(p.stat().st_size for p in files),
                }
            )
    if args.json:
        json.dump({"load": load(), "kits": rows}, sys.stdout, indent=2)
        print()
        return 0
    print(f"load {load()}")
    for row in rows:
        print(
            f"{row['game']:<11} {row['median_s']:6.2f} s in the library (best {row['best_s']:.2f},"
            f" CPU {row['cpu_s']:.2f}), {row['command_s']:6.2f} s as the command"
            f" (CPU {row['command_cpu_s']:.2f} s, its child processes included)"
            f"  ({row['files']} files, {row['bytes'] / 1e6:.1f} MB)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
