"""The generic game runner: seeds per game, results in game order for any number of workers,
progress, and Ctrl-C returning what finished."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from runarch_gen.play.simulate import (
    chunk_size,
    game_seed,
    indices_text,
    run_games,
)


def toy_game(task: int, index: int, seed: int) -> tuple[int, int, float]:
    """A stand-in for a game: its result depends only on the task and its seed."""
    return index, task, random.Random(seed).random()


def test_game_seeds_depend_on_master_seed_and_index_only() -> None:
    seeds = [game_seed(5, i) for i in range(1000)]
    assert len(set(seeds)) == 1000 and all(0 <= s < 2**63 for s in seeds)
    assert game_seed(5, 7) == seeds[7] and game_seed(6, 7) != seeds[7]


def test_results_come_in_game_order_and_do_not_depend_on_workers() -> None:
    one = run_games(toy_game, 3, games=57, seed=9, workers=1)
    two = run_games(toy_game, 3, games=57, seed=9, workers=2)
    assert one == two
    assert [r[0] for r in one.results] == list(range(57)) and not one.interrupted
    assert one.results[10][2] == random.Random(game_seed(9, 10)).random()


def test_progress_counts_every_game_once() -> None:
    for workers in (1, 2):
        seen: list[int] = []
        run_games(toy_game, 0, games=23, seed=1, workers=workers, on_progress=seen.append)
        assert sum(seen) == 23


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_stops_and_returns_the_finished_games(workers: int) -> None:
    done = 0

    def interrupt_after_some(n: int) -> None:
        nonlocal done
        done += n
        if done >= 5:
            raise KeyboardInterrupt

    run = run_games(
        toy_game, 0, games=400, seed=2, workers=workers, on_progress=interrupt_after_some
    )
    assert run.interrupted and 5 <= len(run.results) < 400
    assert list(run.indices) == sorted(run.indices)
    assert all(result[0] == index for result, index in zip(run.results, run.indices, strict=True))


def test_chunks_stay_small_and_cover_every_game() -> None:
    assert chunk_size(10_000, 2) == 25 and chunk_size(3, 2) == 1
    assert indices_text([0, 1, 2, 5, 7, 8]) == "0-2, 5, 7-8"


def test_no_games_and_bad_counts() -> None:
    assert run_games(toy_game, 0, games=0, seed=1, workers=2).results == ()
    with pytest.raises(ValueError):
        run_games(toy_game, 0, games=-1, seed=1)


def test_generic_layers_load_nothing_of_runarch() -> None:
    code = (
        "import sys, runarch_gen.play.simulate, runarch_gen.play.stats, runarch_gen.charts;"
        "print(sorted(m for m in sys.modules if m.startswith('runarch_gen.runarch')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == "[]"


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_after_a_cp_sat_solve_still_stops_the_run_cleanly(workers: int) -> None:
    # A CP-SAT solve (here: generating a deck) catches SIGINT itself and leaves the signal's
    # default action behind; a real Ctrl-C after it must still reach the runner, not kill the
    # process. The game sends the signal to its own process group, as a terminal does.
    code = f"""
import os, signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)
from runarch_gen.runarch.decks.generate import generate_deck
from runarch_gen.play.simulate import run_games
generate_deck(30, 1)
parent = os.getpid()
def game(task, index, seed):
    if index == 50:
        os.kill(parent, signal.SIGINT)
    time.sleep(0.01)
    return index
run = run_games(game, None, games=400, seed=1, workers={workers})
print(run.interrupted, 0 < len(run.results) < 400)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "True True", "")


def test_a_billion_games_start_at_once_and_stop_with_what_finished() -> None:
    # The chunks are made as workers ask for them: nothing is built for the whole run first.
    seen: list[int] = []

    def stop_after_some(n: int) -> None:
        seen.append(n)
        if sum(seen) >= 200:
            raise KeyboardInterrupt

    run = run_games(toy_game, 1, games=10**9, seed=3, workers=2, on_progress=stop_after_some)
    assert run.interrupted and run.requested == 10**9
    assert 200 <= len(run.results) < 10_000
    assert sorted(run.indices) == list(run.indices)


def test_workers_are_capped_at_the_cores_and_the_games() -> None:
    from runarch_gen.play.simulate import available_workers, worker_count

    cores = available_workers()
    assert worker_count(None, 1000) == cores
    assert worker_count(100, 1000) == cores
    assert worker_count(100, 1) == 1 and worker_count(1, 1000) == 1
    with pytest.raises(ValueError):
        worker_count(0, 10)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_stop_that_was_lost_stops_the_next_run_at_once(workers: int) -> None:
    # A signal handler's exception swallowed elsewhere (a library's bare except, an at-fork
    # hook) leaves the stop recorded: the run checks it and stops as if Ctrl-C came now.
    from runarch_gen.errors import check_stop, stop_requested
    from runarch_gen.play.simulate import _last_digits

    stop_requested(KeyboardInterrupt())
    run = run_games(_last_digits, None, games=50, seed=1, workers=workers)
    assert run.interrupted and run.results == ()
    check_stop()  # handled: the stop is not raised again
    again = run_games(_last_digits, None, games=50, seed=1, workers=workers)
    assert not again.interrupted and len(again.results) == 50
