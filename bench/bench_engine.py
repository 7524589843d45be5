"""Benchmark the rules engine: complete games between two random baseline players, or the
engine alone replaying recorded greedy games.

    python bench/bench_engine.py                       # every variant, 200 games each
    python bench/bench_engine.py --variants complex --games 1000
    python bench/bench_engine.py --json
    python bench/bench_engine.py --replay --variants complex --games 200

For each variant it reports games, turns and actions per second (wall clock and CPU time of
this one process), how the games ended (the stall fraction [R-18] above all), and the
distribution of game lengths in turns. The random baseline scores a card whenever one can be
scored and otherwise plays a uniformly random legal action (RULES.md §9.3 bots, issue target:
at least 100 complete complex games per second on one core). Note the machine's load: the
figures are only comparable on an idle machine.

With ``--replay`` it measures the engine without the bots' thinking: it records ``--games``
greedy-vs-greedy games of each variant as ``simulate`` plays them (its seeds, its seating, the
set ``playtest_set(--seed)``), then replays each game's actions through a fresh state — per
step the observation, the legal actions and ``apply``, and the outcome at the end — and, for
comparison, plays the same games in full (``play_game``: bots, engine and the game's summary).
Both are timed in CPU time of this process, best of ``--repeat`` interleaved rounds, so the
figures hold up on a shared machine; the replay checks that every recorded action is legal.
``--opcodes`` adds the bytecodes the replay executes per game, a figure that does not depend
on the machine's load at all (compare checkouts with it, as with count_opcodes.py).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from types import FrameType
from typing import Any

from machine import count, load, run
from runarch_gen.play.bot import play_out
from runarch_gen.play.simulate import game_seed
from runarch_gen.runarch.analysis.simulation import _Task, play_game, playtest_set, seat_bots
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.boards.io import read_board
from runarch_gen.runarch.bots import RandomBot, make_bot
from runarch_gen.runarch.decks.cards import Deck
from runarch_gen.runarch.decks.io import read_deck
from runarch_gen.runarch.engine import RunArchGame
from runarch_gen.runarch.engine.sample import sample_board, sample_deck
from runarch_gen.runarch.engine.setup import Setup
from runarch_gen.runarch.rules import parse_rules

DEFAULT_VARIANTS = ("simple", "complex", "classic", "solo")


def bench_variant(rules: str, games: int, seed: int, board: Board, deck: Deck) -> dict[str, Any]:
    """Play ``games`` games of ``rules`` between random bots; return rates and game lengths."""
    game = RunArchGame(parse_rules(rules), board, deck)
    turns: list[int] = []
    finished: list[int] = []  # lengths of the games the rules ended (not the stall guard)
    actions = 0
    endings: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    scores: list[int] = []
    cards_scored: list[int] = []
    phases: Counter[int] = Counter()  # the highest movement phase a player reached
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        game_seed = seed * 1_000_003 + i
        state = game.new_initial_state(random.Random(game_seed))
        bots = [
            RandomBot(random.Random(2 * game_seed + 1)),
            RandomBot(random.Random(2 * game_seed + 2)),
        ]
        outcome = play_out(state, bots)
        turns.append(state.turn)
        if not outcome.stalled:
            finished.append(state.turn)
        actions += len(state.history())
        endings[outcome.termination.value] += 1
        wins["shared" if len(outcome.winners) != 1 else outcome.sides[outcome.winners[0]]] += 1
        scores.extend(outcome.totals)
        cards_scored.extend(len(state.scored[side]) for side in range(2))
        phases[max(state.phase(side) for side in range(game.num_players))] += 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    quantiles = statistics.quantiles(turns, n=10) if len(turns) > 1 else [turns[0]] * 9
    return {
        "rules": str(game.config),
        "games": games,
        "turns": sum(turns),
        "actions": actions,
        "wall_seconds": round(wall, 3),
        "cpu_seconds": round(cpu, 3),
        "games_per_second": round(games / wall, 1),
        "turns_per_second": round(sum(turns) / wall),
        "actions_per_second": round(actions / wall),
        "cpu_games_per_second": round(games / cpu, 1),
        "endings": dict(endings),
        "stall_fraction": round(endings["stalled"] / games, 4),
        "length": {
            "mean": round(statistics.fmean(turns), 1),
            "median": statistics.median(turns),
            "p10": quantiles[0],
            "p90": quantiles[-1],
            "min": min(turns),
            "max": max(turns),
            "mean_unstalled": round(statistics.fmean(finished), 1) if finished else None,
        },
        "wins": dict(wins),
        "mean_final_score": round(statistics.fmean(scores), 1),
        "mean_cards_scored": round(statistics.fmean(cards_scored), 2),
        "highest_phase": dict(sorted(phases.items())),
    }


def record_games(task: _Task, games: int, seed: int) -> list[tuple[Setup, list[int]]]:
    """The setup and actions of games ``0 … games-1`` as ``simulate`` plays them."""
    game = RunArchGame(task.rules, task.board, task.deck)
    records = []
    for index in range(games):
        seed_i = game_seed(seed, index)
        state = game.new_initial_state(random.Random(seed_i))
        names = seat_bots(task.bots, index, game.solo)
        bots = [
            make_bot(name, random.Random(f"{seed_i}:{side}"))
            for side, name in enumerate(names[: game.num_players])
        ]
        play_out(state, bots)
        records.append((state.setup, list(state.history())))
    return records


def replay(game: RunArchGame, records: list[tuple[Setup, list[int]]], check: bool = False) -> int:
    """Replay ``records`` through the engine as ``play_out`` drives it; return the steps.
    With ``check``, every recorded action must be among the legal actions (untimed run)."""
    steps = 0
    for setup, actions in records:
        state = game.new_state(setup)
        for action in actions:
            player = state.current_player()
            state.observation(player)
            legal = state.legal_actions()
            if check and action not in legal:
                raise AssertionError(f"recorded action {action} is not legal on replay")
            state.apply(action)
        if not state.is_terminal() or state.outcome() is None:
            raise AssertionError("a replayed game did not end")
        steps += len(actions)
    return steps


def count_replay_opcodes(game: RunArchGame, records: list[tuple[Setup, list[int]]]) -> int:
    """The Python bytecodes the replay of ``records`` executes (load-independent, see
    count_opcodes.py); the bench's own loop is not counted."""
    count = 0
    own = replay.__code__

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if frame.f_code is own:
            return None
        frame.f_trace_opcodes = True
        if event == "opcode":
            count += 1
        return tracer

    sys.settrace(tracer)
    try:
        replay(game, records)
    finally:
        sys.settrace(None)
    return count


def bench_replay(rules: str, games: int, seed: int, repeat: int, opcodes: bool) -> dict[str, Any]:
    """Engine-only replay and full play of ``games`` greedy games: CPU rates, best of ``repeat``."""
    chosen = playtest_set(seed)
    config = parse_rules(rules)
    task = _Task(config, chosen.board, chosen.deck, ("greedy",))
    records = record_games(task, games, seed)
    game = RunArchGame(config, chosen.board, chosen.deck)
    replay(game, records, check=True)  # also warms the game's lazily built tables
    best_replay = best_full = float("inf")
    steps = 0
    for _ in range(repeat):
        started = time.process_time()
        steps = replay(game, records)
        best_replay = min(best_replay, time.process_time() - started)
        started = time.process_time()
        for index in range(games):
            play_game(task, index, game_seed(seed, index))
        best_full = min(best_full, time.process_time() - started)
    row: dict[str, Any] = {
        "rules": str(config),
        "games": games,
        "steps": steps,
        "replay_cpu_seconds": round(best_replay, 3),
        "replay_games_per_second": round(games / best_replay, 1),
        "replay_steps_per_second": round(steps / best_replay),
        "full_cpu_seconds": round(best_full, 3),
        "full_games_per_second": round(games / best_full, 1),
        "engine_share": round(best_replay / best_full, 3),
    }
    if opcodes:
        row["replay_bytecodes_per_game"] = round(count_replay_opcodes(game, records) / games)
    return row


def main_replay(args: argparse.Namespace, variants: list[str]) -> int:
    report: dict[str, Any] = {
        "load_before": load(),
        "python": sys.version.split()[0],
        "set": f"playtest_set({args.seed})",
        "variants": [
            bench_replay(v, args.games, args.seed, args.repeat, args.opcodes) for v in variants
        ],
        "load_after": load(),
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(
        f"load average {report['load_before']} (before), {report['load_after']} (after);"
        f" Python {report['python']}"
    )
    print(
        f"{args.games} greedy games per variant, set {report['set']}, CPU time, best of"
        f" {args.repeat}"
    )
    print(
        f"{'rules':<12} {'steps':>8} {'replay g/s':>10} {'steps/s':>9} {'full g/s':>9}"
        f" {'engine share':>12}"
    )
    for row in report["variants"]:
        print(
            f"{row['rules']:<12} {row['steps']:>8} {row['replay_games_per_second']:>10}"
            f" {row['replay_steps_per_second']:>9} {row['full_games_per_second']:>9}"
            f" {row['engine_share']:>12.1%}"
        )
    for row in report["variants"]:
        if "replay_bytecodes_per_game" in row:
            print(
                f"{row['rules']}: the replay executes {row['replay_bytecodes_per_game']}"
                " bytecodes per game"
            )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--variants",
        default=",".join(DEFAULT_VARIANTS),
        help="rules strings, separated by commas, or by ';' when a string has commas",
    )
    parser.add_argument("--games", type=count, default=200, help="games per variant")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deck-size", type=int, default=50, help="cards of the formula deck")
    parser.add_argument("--deck", help="a deck file (JSON or CSV) instead of the formula deck")
    parser.add_argument("--board", help="a board file instead of the formula board")
    parser.add_argument("--json", action="store_true", help="print a JSON report")
    parser.add_argument(
        "--replay",
        action="store_true",
        help="time the engine replaying recorded greedy games (and the same games in full)",
    )
    parser.add_argument("--repeat", type=count, default=3, help="--replay: rounds, the best kept")
    parser.add_argument(
        "--opcodes",
        action="store_true",
        help="--replay: also count the replay's bytecodes (load-independent, slow)",
    )
    args = parser.parse_args(argv)
    separator = ";" if ";" in args.variants else ","
    if args.replay:
        variants = [v.strip() for v in args.variants.split(separator) if v.strip()]
        return main_replay(args, variants)
    board = read_board(args.board) if args.board else sample_board()
    deck = read_deck(args.deck) if args.deck else sample_deck(args.deck_size)
    variants = [v.strip() for v in args.variants.split(separator) if v.strip()]
    report: dict[str, Any] = {
        "load_before": load(),
        "python": sys.version.split()[0],
        "board": args.board or "formula",
        "deck": args.deck or f"formula, {args.deck_size} cards",
        "variants": [bench_variant(v, args.games, args.seed, board, deck) for v in variants],
        "load_after": load(),
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(
        f"load average {report['load_before']} (before), {report['load_after']} (after);"
        f" Python {report['python']}"
    )
    print(
        f"{args.games} games per variant between two random baseline players, seed {args.seed};"
        f" board {report['board']}, deck {report['deck']}"
    )
    print(
        f"{'rules':<12} {'games/s':>8} {'turns/s':>8} {'actions/s':>9} {'cpu g/s':>8}"
        f" {'stalled':>8}  turns mean/median/p10-p90 (min-max) [unstalled mean]  endings"
    )
    for row in report["variants"]:
        length = row["length"]
        endings = ", ".join(f"{k} {v}" for k, v in sorted(row["endings"].items()))
        print(
            f"{row['rules']:<12} {row['games_per_second']:>8} {row['turns_per_second']:>8} "
            f"{row['actions_per_second']:>9} {row['cpu_games_per_second']:>8} "
            f"{row['stall_fraction']:>8.1%}  {length['mean']}/{length['median']}/"
            f"{length['p10']}-{length['p90']} ({length['min']}-{length['max']})"
            f" [{length['mean_unstalled']}]  {endings}"
        )
    print("")
    print(f"{'rules':<12} {'final score':>11} {'cards scored':>12}  highest movement phase reached")
    for row in report["variants"]:
        phases = ", ".join(f"{phase}: {n}" for phase, n in row["highest_phase"].items())
        print(
            f"{row['rules']:<12} {row['mean_final_score']:>11} {row['mean_cards_scored']:>12}"
            f"  {phases}"
        )
    return 0


if __name__ == "__main__":
    run(main)
