"""Vrhcáby speeds and the learned bot's strength, the figures the issue names.

    python bench/bench_backgammon.py                 # speeds (about half a minute)
    python bench/bench_backgammon.py --strength 2000 # also td vs heuristic, 2000 games

- play generation: ``moves --batch`` of 1,000 random positions and rolls, in this process
  (after start-up) and as a whole ``runarch-gen`` run (start-up included);
- hints: ``hint --batch`` of the same 1,000 lines with the 1-ply strong bot (``neural``), in
  this process (CPU time) and as a whole ``runarch-gen`` run;
- self-play on one core: games per second of random, heuristic and td (1-ply) bots;
- strength: the learned bot against the heuristic bot in money games without the cube, each
  bot on each seat equally often, with the win rate's 99 % interval and a one-sided z-test.

The machine's load is printed first: figures taken under load are slower.
"""

from __future__ import annotations

import argparse
import math
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine import load
from runarch_gen.backgammon.board import START, legal_plays
from runarch_gen.backgammon.bots import BOTS
from runarch_gen.backgammon.engine import BackgammonGame
from runarch_gen.backgammon.ids import position_id
from runarch_gen.backgammon.rules import Rules
from runarch_gen.backgammon.tools import batch_moves
from runarch_gen.play.bot import play_out


def random_lines(count: int, seed: int) -> list[str]:
    """``POSITION_ID DICE`` lines from positions of random games."""
    rng = random.Random(seed)
    lines: list[str] = []
    while len(lines) < count:
        sides = [START, START]
        turn = 0
        for _ in range(rng.randint(1, 120)):
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            plays = legal_plays(sides[turn], sides[1 - turn], a, b)
            if plays:
                chosen = rng.choice(plays)
                if chosen.mover[0] == 15:
                    break
                sides[turn], sides[1 - turn] = chosen.mover, chosen.other
            turn = 1 - turn
        lines.append(
            f"{position_id(sides[turn], sides[1 - turn])} {rng.randint(1, 6)}{rng.randint(1, 6)}"
        )
    return lines


def bench_batch(lines: list[str]) -> None:
    best = cpu = math.inf
    plays = 0
    for _ in range(3):
        started, cpu_started = time.perf_counter(), time.process_time()
        reports = list(batch_moves(lines))
        best = min(best, time.perf_counter() - started)
        cpu = min(cpu, time.process_time() - cpu_started)
        plays = sum(len(r["plays"]) for r in reports)
    print(
        f"moves --batch, {len(lines)} lines in process: {best:.3f} s wall, {cpu:.3f} s CPU"
        f" ({plays} plays listed)"
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "batch.txt"
        path.write_text("\n".join(lines) + "\n")
        exe = Path(sys.executable).with_name("runarch-gen")
        started = time.perf_counter()
        subprocess.run(
            [str(exe), "backgammon", "moves", "--batch", str(path)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        whole = time.perf_counter() - started
        started = time.perf_counter()
        subprocess.run(
            [str(exe), "backgammon", "moves", "start", "--dice", "31"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        startup = time.perf_counter() - started
    print(
        f"moves --batch, {len(lines)} lines, whole run: {whole:.2f} s"
        f" (one-position run, i.e. start-up: {startup:.2f} s)"
    )


def bench_hint(lines: list[str]) -> None:
    from runarch_gen.backgammon.analysis import batch_hint
    from runarch_gen.backgammon.nets import load_evaluator

    load_evaluator()  # loading the weights is start-up
    started, cpu_started = time.perf_counter(), time.process_time()
    reports = list(batch_hint(lines, "-", "neural"))
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    plays = sum(len(r.get("plays", ())) for r in reports)
    print(
        f"hint --batch --bot neural, {len(lines)} lines in process: {wall:.2f} s wall,"
        f" {cpu:.2f} s CPU ({plays} plays ranked)"
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "batch.txt"
        path.write_text("\n".join(lines) + "\n")
        exe = Path(sys.executable).with_name("runarch-gen")
        started = time.perf_counter()
        subprocess.run(
            [str(exe), "backgammon", "hint", "--batch", str(path), "--bot", "neural"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        print(f"hint --batch --bot neural, whole run: {time.perf_counter() - started:.2f} s")


def bench_selfplay(seconds: float) -> None:
    game = BackgammonGame(Rules())
    for name in ("random", "heuristic", "td", "neural"):
        factory = BOTS[name]
        started, cpu_started = time.perf_counter(), time.process_time()
        games = rolls = 0
        while time.perf_counter() - started < seconds:
            state = game.new_initial_state()
            bots = [factory(random.Random(2 * games)), factory(random.Random(2 * games + 1))]
            play_out(state, bots, random.Random(games))
            games += 1
            rolls += state.games[-1].rolls
        elapsed = time.perf_counter() - started
        cpu = time.process_time() - cpu_started
        print(
            f"self-play {name:>9}: {games / elapsed:6.1f} games/s wall,"
            f" {games / cpu:6.1f} games per CPU second ({rolls / games:.0f} rolls a game,"
            f" {games} games)"
        )


def bench_strength(games: int) -> None:
    game = BackgammonGame(Rules(cube=False, jacoby=False, resign=False))
    wins = 0
    points = 0.0
    started = time.perf_counter()
    for index in range(games):
        seat = index % 2
        bots = [BOTS["heuristic"](random.Random(index)), BOTS["heuristic"](random.Random(index))]
        bots[seat] = BOTS["td"](random.Random(index))
        outcome = play_out(game.new_initial_state(), bots, random.Random(10_000 + index))
        wins += outcome.winners[0] == seat
        points += outcome.returns[seat]
    rate = wins / games
    spread = 2.576 * math.sqrt(rate * (1 - rate) / games)
    z = (rate - 0.5) / math.sqrt(0.25 / games)
    print(
        f"td vs heuristic, {games} money games without the cube: wins {rate:.1%}"
        f" (99 % interval {rate - spread:.1%} … {rate + spread:.1%}), z = {z:.1f} against"
        f" 50 %, {points / games:+.3f} points a game, {time.perf_counter() - started:.0f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=5.0, help="per self-play figure")
    parser.add_argument("--strength", type=int, default=0, help="td vs heuristic games")
    args = parser.parse_args()
    print(f"load: {load()}")
    lines = random_lines(args.lines, seed=1)
    bench_batch(lines)
    bench_hint(lines)
    bench_selfplay(args.seconds)
    if args.strength:
        bench_strength(args.strength)


if __name__ == "__main__":
    main()
