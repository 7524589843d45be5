"""Benchmark the print-and-play kit (run on demand: ``python bench/bench_kit.py``).

Reports the figures the kit promises:

1. the whole kit — ``kit.pdf`` with the rulebook, ``duplex-test.pdf``, PNG previews,
   ``manifest.json`` — from a board file and a deck file (50 cards), in process and as the
   ``runarch-gen kit`` command (interpreter start included); target under 2 s;
2. the same command with ``--images`` (a 300-dpi PNG per card, tile, stone and token, and the
   Tabletop Simulator sheets); target under 5 s;
3. the fronts and backs of a 100-card deck alone (``--only cards``, PDF only); target under 1 s.

Each figure is the median of several runs, with the best run and the machine's load beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from machine import load

CPU: dict[str, float] = {}


def _timed(fn: Callable[[], object], repeats: int, name: str = "") -> list[float]:
    """Wall-clock times of ``repeats`` calls; the median CPU time goes to ``CPU[name]``."""
    times, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    if name:
        CPU[name] = statistics.median(cpu)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()

    from runarch_gen.runarch.kit.build import KitOptions, plan_kit, render_kit_pdf
    from runarch_gen.runarch.kit.inputs import bench_inputs, kit_inputs
    from runarch_gen.runarch.kit.make import make_kit

    work = Path(tempfile.mkdtemp(prefix="bench-kit-"))
    board_path, deck_path, deck100 = bench_inputs(work, seed=1)

    def whole_kit() -> None:
        make_kit(work / "kit", board=board_path, deck=deck_path, seed=1)

    whole_kit()  # warm up: imports, font loading
    whole = _timed(whole_kit, args.repeats, "whole")

    command = [
        sys.executable,
        "-m",
        "runarch_gen",
        "kit",
        "--board",
        str(board_path),
        "--deck",
        str(deck_path),
        "--out",
        str(work),
        "--name",
        "cli-kit",
    ]

    # An installed package has its bytecode compiled at install time; let a source checkout
    # write it too (some environments forbid it), then warm up once.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def cli_kit() -> None:
        subprocess.run(command, check=True, capture_output=True, env=env)

    cli_kit()

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cli = _timed(cli_kit, max(2, args.repeats // 2))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cli_cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / len(cli)

    def cli_images() -> None:
        subprocess.run(
            [*command[:-1], "cli-images", "--images"], check=True, capture_output=True, env=env
        )

    cli_images()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with_images = _timed(cli_images, max(2, args.repeats // 2))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    images_cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / len(
        with_images
    )

    board = kit_inputs(board_path, deck_path, seed=1).board

    def cards_only() -> None:
        plan = plan_kit(board, deck100, KitOptions(only=("cards",)))
        render_kit_pdf(plan)

    cards_only()
    cards = _timed(cards_only, args.repeats, "cards")

    figures: dict[str, Any] = {
        "whole_kit_s": {
            "median": statistics.median(whole),
            "best": min(whole),
            "cpu": CPU["whole"],
            "target": 2.0,
        },
        "whole_kit_cli_s": {
            "median": statistics.median(cli),
            "best": min(cli),
            "cpu": cli_cpu,
            "target": 2.0,
        },
        "whole_kit_cli_images_s": {
            "median": statistics.median(with_images),
            "best": min(with_images),
            "cpu": images_cpu,
            "target": 5.0,
        },
        "cards_100_fronts_backs_s": {
            "median": statistics.median(cards),
            "best": min(cards),
            "cpu": CPU["cards"],
            "target": 1.0,
        },
        "load_average": load(),
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"load average {figures['load_average']}")
    rows = (
        ("whole kit from board+deck files (in process)", "whole_kit_s"),
        ("whole kit, `runarch-gen kit` command", "whole_kit_cli_s"),
        ("whole kit with --images (images/, tts/)", "whole_kit_cli_images_s"),
        ("100-card deck, fronts and backs (PDF)", "cards_100_fronts_backs_s"),
    )
    for label, key in rows:
        f = figures[key]
        verdict = "ok" if f["median"] < f["target"] else "SLOW"
        cpu = f" cpu {f['cpu']:.3f} s" if "cpu" in f else ""
        print(
            f"{label:<48} median {f['median']:.3f} s  best {f['best']:.3f} s{cpu}"
            f"  (target < {f['target']:g} s: {verdict})"
        )


if __name__ == "__main__":
    main()
