"""Counting with any number of bans, and explaining conflicts within a time limit.

The exact counter absorbs pins and bans as masks of relabellings (:mod:`.generate`); the
oracle here is CP-SAT, which shares no code with it: its enumeration for counts that leave
few boards, its solver for whether a conflict's options admit a board."""

from __future__ import annotations

import random
import threading

import pytest

from runarch_gen.runarch.atoms import PIECES, square_name
from runarch_gen.runarch.boards.constraints import BoardConstraints
from runarch_gen.runarch.boards.cpsat import build_board_model, solve_board
from runarch_gen.runarch.boards.explain import (
    Cancelled,
    conflict_message,
    explain_conflict,
)
from runarch_gen.runarch.boards.generate import count_boards, generate_boards


def _random_bans(rng: random.Random, n: int) -> list[str]:
    return [f"{square_name(rng.randrange(25))}={rng.choice(PIECES).code}" for _ in range(n)]


def _cpsat_has_board(constraints: BoardConstraints) -> bool:
    return solve_board(build_board_model(constraints), seed=1) is not None


@pytest.mark.parametrize("seed", range(4))
def test_counts_with_many_bans_match_cpsat_enumeration(seed: int) -> None:
    rng = random.Random(seed)
    # Bans that leave a few boards (so CP-SAT can list them all), pins among them.
    fixes = [f"{square_name(s)}={rng.choice(PIECES).code}" for s in rng.sample(range(25), 2)]
    constraints = BoardConstraints.parse(fixes=fixes)
    while count_boards(constraints) > 400:
        constraints = BoardConstraints.parse(
            fixes=fixes, forbids=[*(str(f) for f in constraints.forbids), *_random_bans(rng, 25)]
        )
    exact = count_boards(constraints)
    assert exact == count_boards(constraints, engine="cpsat")
    if exact:
        boards = generate_boards(min(exact, 5), constraints, seed=seed)
        banned = {(f.square, f.piece) for f in constraints.forbids}
        assert all((sq, b.at(sq)) not in banned for b in boards for sq in range(25))


def test_a_ban_repeated_counts_once() -> None:
    once = BoardConstraints.parse(forbids=["c3=0R"])
    many = BoardConstraints.parse(forbids=["c3=0R"] * 300)
    assert count_boards(once) == count_boards(many) == 6220800 * 24 // 25


@pytest.mark.parametrize("seed", range(6))
def test_every_option_of_an_explanation_is_needed(seed: int) -> None:
    rng = random.Random(100 + seed)
    while True:
        fixes = [f"{square_name(rng.randrange(25))}={rng.choice(PIECES).code}"]
        constraints = BoardConstraints.parse(
            diagonals=seed % 2 == 1, fixes=fixes, forbids=_random_bans(rng, 250)
        )
        if count_boards(constraints) == 0:
            break
    why = explain_conflict(constraints, time_limit=None)
    assert why is not None and why.core
    core = why.core

    def subset(options: object) -> BoardConstraints:
        chosen = list(options)  # type: ignore[call-overload]
        return BoardConstraints(
            any(o.kind == "diagonals" for o in chosen),
            tuple(o.placement for o in chosen if o.kind == "fix"),
            tuple(o.placement for o in chosen if o.kind == "forbid"),
        )

    assert not _cpsat_has_board(subset(core))
    for left_out in core[:8]:  # CP-SAT finds a board without any one of them
        assert _cpsat_has_board(subset(o for o in core if o is not left_out)), left_out.text


def test_an_explanation_in_czech() -> None:
    constraints = BoardConstraints.parse(fixes=["a1=5Y", "b1=5R"])
    assert conflict_message(constraints, lang="cs") == (
        "protichůdné volby: --fix a1=5Y a --fix b1=5R: dvakrát tvar 5 v řádku 1"
    )


def test_a_long_conflict_is_named_by_its_first_options() -> None:
    rng = random.Random(7)
    while True:
        constraints = BoardConstraints.parse(forbids=_random_bans(rng, 400))
        if count_boards(constraints) == 0:
            break
    message = conflict_message(constraints, time_limit=None)
    assert message is not None and len(message) < 300
    assert "options together" in message or "contradict" in message or "25 tiles" in message


def test_an_explanation_out_of_time_still_says_no_board_meets_them() -> None:
    constraints = BoardConstraints.parse(fixes=["a1=5Y", "b1=5R"], forbids=["c3=0R"] * 3)
    message = conflict_message(constraints, time_limit=0.0)
    assert message == (
        "contradictory options: no board meets these options (no reason found within 0 s)"
    )


def test_a_cancelled_explanation_stops() -> None:
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        explain_conflict(BoardConstraints.parse(fixes=["a1=5Y", "b1=5R"]), cancel=cancel)


def test_the_command_line_answers_hundreds_of_conflicting_bans_at_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import time

    from runarch_gen.cli import run

    rng = random.Random(11)
    while True:
        bans = _random_bans(rng, 300)
        if count_boards(BoardConstraints.parse(diagonals=True, forbids=bans)) == 0:
            break
    args = ["count", "--diagonals", *(f"--forbid={b}" for b in bans)]
    started = time.monotonic()
    assert run(args) == 2
    assert time.monotonic() - started < 5
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("runarch-gen: error: contradictory options: ")
