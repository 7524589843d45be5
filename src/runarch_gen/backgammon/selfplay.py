"""Training of the strong evaluator (:mod:`.nets`): TD(0) self-play, then supervised
refinement on the evaluator's own rollouts.

**Self-play.** Many cubeless money games run side by side so that every legal play of every
game is evaluated in one numpy batch. In each game the player on roll picks the play whose
position is best for him (1-ply); the position before the play is then moved towards the
evaluation after it, seen from the mover (TD(0), as TD-Gammon). Contact positions train the
contact network, races the race network; positions where both sides bear off are exact (the
bear-off database) and end the training signal there, so the race network learns from exact
values first. A finished game teaches the real result.

**Refinement.** Positions from self-play where the 1-ply and 2-ply choices disagree are rolled
out (the evaluator playing both sides, variance cut by the same dice for every candidate) and
the networks are trained on those rollout chances.

The same seed and options give the same weights.

>>> options = TrainingOptions(games=1, seed=1, contact_hidden=4, race_hidden=3, parallel=1)
>>> train_evaluator(options).contact.w1.shape
(219, 4)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from runarch_gen.backgammon.board import START, Play, Side, legal_plays
from runarch_gen.backgammon.nets import (
    CONTACT,
    RACE,
    Evaluator,
    classify,
    contact_features,
    equity,
    race_features,
    swap,
)

__all__ = [
    "TrainingOptions",
    "best_plays",
    "refine_evaluator",
    "rollout_chances",
    "train_evaluator",
]

Array = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class TrainingOptions:
    games: int = 100_000
    seed: int = 1
    contact_hidden: int = 96
    race_hidden: int = 48
    rate: float = 0.1
    """The step size at the start; after ``halving`` games it is half that, and so on
    hyperbolically (``rate / (1 + games / halving)``)."""
    halving: int = 30_000
    parallel: int = 32
    trace: float = 0.0
    """TD(λ)'s λ: 0 trains each position at once towards the next (TD(0)); above 0 a game's
    positions are trained when it ends, towards their λ-returns (the forward view)."""
    cross_entropy: bool = False
    """Step along the outputs' cross-entropy rather than their squared error (see
    :meth:`.nets.Layer.train`)."""


def best_plays(evaluator: Evaluator, choices: list[list[Play]]) -> list[tuple[int, Array]]:
    """For each list of plays, the index of the best one for the mover (1-ply) and its five
    chances from the mover's side, evaluating every play of every list in one batch."""
    movers: list[Side] = []
    others: list[Side] = []
    for plays in choices:
        for play in plays:
            movers.append(play.other)  # the opponent is on roll after the play
            others.append(play.mover)
    chances = swap(
        evaluator.evaluate_arrays(
            np.array(movers, dtype=np.int64).reshape(-1, 26),
            np.array(others, dtype=np.int64).reshape(-1, 26),
        )
    )
    values = equity(chances)
    out: list[tuple[int, Array]] = []
    start = 0
    for plays in choices:
        end = start + len(plays)
        pick = int(np.argmax(values[start:end]))
        out.append((pick, chances[start + pick]))
        start = end
    return out


@dataclass(slots=True)
class _Game:
    sides: list[Side]
    turn: int
    opening: bool = True
    seen: list[tuple[Side, Side, Array, int]] = field(default_factory=list)


def _lambda_returns(
    seen: list[tuple[Side, Side, Array, int]], trace: float
) -> list[tuple[Side, Side, Array]]:
    """Each position's λ-return, from its own mover's side: ``G = (1 − λ)·next + λ·G'``,
    ``G'`` the following position's return turned to this mover (the last: its value)."""
    rows: list[tuple[Side, Side, Array]] = []
    after: Array | None = None
    after_turn = -1
    for mover, other, value, turn in reversed(seen):
        if after is None:
            target = value
        else:
            following = after if after_turn == turn else swap(after)
            target = (1.0 - trace) * value + trace * following
        rows.append((mover, other, target))
        after, after_turn = target, turn
    return rows


def _roll(rng: random.Random, opening: bool) -> tuple[int, int]:
    a, b = rng.randint(1, 6), rng.randint(1, 6)
    while opening and a == b:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
    return a, b


def _train_on(
    evaluator: Evaluator,
    rows: list[tuple[Side, Side, Array]],
    rate: float,
    cross_entropy: bool = False,
) -> tuple[float, float]:
    """One step of each network on the rows it evaluates; their mean squared errors."""
    if not rows:
        return 0.0, 0.0
    movers = np.array([r[0] for r in rows], dtype=np.int64)
    others = np.array([r[1] for r in rows], dtype=np.int64)
    targets = np.array([r[2] for r in rows])
    kind = classify(movers, others)
    errors = [0.0, 0.0]
    for which, layer, features in (
        (CONTACT, evaluator.contact, contact_features),
        (RACE, evaluator.race, race_features),
    ):
        chosen = np.flatnonzero(kind == which)
        if chosen.size:
            x = features(movers[chosen], others[chosen])
            errors[which] = layer.train(x, targets[chosen], rate, cross_entropy)
    return errors[0], errors[1]


def train_evaluator(
    options: TrainingOptions,
    evaluator: Evaluator | None = None,
    on_games: Callable[[int, Evaluator, tuple[float, float]], None] | None = None,
    seconds: float | None = None,
) -> Evaluator:
    """TD(0) self-play for ``options.games`` games (or until ``seconds`` have passed)."""
    rng = random.Random(options.seed)
    net = evaluator or Evaluator.fresh(options.contact_hidden, options.race_hidden, options.seed)
    started = time.perf_counter()
    finished = 0
    games: list[_Game] = []
    checkers = sum(START)
    errors = (0.0, 0.0)
    while finished < options.games:
        if seconds is not None and time.perf_counter() - started > seconds:
            break
        # the slots are always refilled, so the weights after n finished games do not
        # depend on how many games were asked for
        while len(games) < options.parallel:
            games.append(_Game([START, START], rng.randrange(2)))
        rate = options.rate / (1.0 + finished / options.halving)
        choices: list[list[Play]] = []
        movers: list[int] = []
        rows: list[tuple[Side, Side, Array]] = []
        passed: list[int] = []
        for index, game in enumerate(games):
            a, b = _roll(rng, game.opening)
            game.opening = False
            mover, other = game.sides[game.turn], game.sides[1 - game.turn]
            plays = legal_plays(mover, other, a, b)
            if plays:
                choices.append(plays)
                movers.append(index)
            else:
                passed.append(index)
        picks = best_plays(net, choices) if choices else []
        done: set[int] = set()
        for slot, index in enumerate(movers):
            game = games[index]
            pick, value = picks[slot]
            mover, other = game.sides[game.turn], game.sides[1 - game.turn]
            if options.trace > 0.0:
                game.seen.append((mover, other, value, game.turn))
            else:
                rows.append((mover, other, value))
            play = choices[slot][pick]
            game.sides[game.turn], game.sides[1 - game.turn] = play.mover, play.other
            if play.mover[0] == checkers:
                done.add(index)
                rows.extend(_lambda_returns(game.seen, options.trace) if options.trace else [])
            game.turn = 1 - game.turn
        for index in passed:
            games[index].turn = 1 - games[index].turn
        errors = _train_on(net, rows, rate, options.cross_entropy)
        if done:
            games = [g for i, g in enumerate(games) if i not in done]
            before = finished
            finished += len(done)
            if on_games is not None:
                for count in range(before + 1, finished + 1):
                    on_games(count, net, errors)
    return net


_ORDERED_ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, 7))


@dataclass(slots=True)
class _Trial:
    index: int
    mover: Side
    other: Side
    first: tuple[int, int]
    ply: int = 0
    flipped: bool = False  # the side on roll is the root's opponent


def rollout_chances(
    evaluator: Evaluator,
    positions: list[tuple[Side, Side]],
    rng: random.Random,
    depth: int = 7,
) -> Array:
    """Truncated rollouts of positions ``(on roll, other)``: 36 trials each, the first roll
    of trial *k* the *k*-th of the 36 ordered rolls (the luck of the first roll cancels),
    both sides playing the evaluator's 1-ply choice; after ``depth`` plays the evaluator's
    chances stand in for the rest. The mean chances of the player on roll, per position."""
    checkers = sum(START)
    active = [
        _Trial(index, mover, other, first)
        for index, (mover, other) in enumerate(positions)
        for first in _ORDERED_ROLLS
    ]
    total = np.zeros((len(positions), 5))
    while active:
        choices: list[list[Play]] = []
        owners: list[_Trial] = []
        for trial in active:
            dice = trial.first if trial.ply == 0 else (rng.randint(1, 6), rng.randint(1, 6))
            plays = legal_plays(trial.mover, trial.other, *dice)
            if plays:
                choices.append(plays)
                owners.append(trial)
            else:  # the roll passes
                trial.mover, trial.other = trial.other, trial.mover
                trial.ply += 1
                trial.flipped = not trial.flipped
        picks = best_plays(evaluator, choices) if choices else []
        moving = {id(t) for t in owners}
        still: list[_Trial] = [t for t in active if id(t) not in moving]
        for trial, plays, (pick, chances) in zip(owners, choices, picks, strict=True):
            play = plays[pick]
            trial.ply += 1
            # the chances of the side that just played, turned to the root's side
            if play.mover[0] == checkers or trial.ply >= depth:
                total[trial.index] += swap(chances) if trial.flipped else chances
                continue
            trial.mover, trial.other = play.other, play.mover
            trial.flipped = not trial.flipped
            still.append(trial)
        active = still
    return total / len(_ORDERED_ROLLS)


def refine_evaluator(
    evaluator: Evaluator,
    positions: int,
    seed: int,
    on_position: Callable[[int], None] | None = None,
    epochs: int = 4,
    rate: float = 0.01,
) -> Evaluator:
    """Supervised refinement: positions from self-play where the 1-ply and 2-ply choices
    differ (both plays' positions) are rolled out (:func:`rollout_chances`) and each network
    is trained on them for a few epochs."""
    from runarch_gen.backgammon.search import rank_plays

    rng = random.Random(seed)
    found: list[tuple[Side, Side]] = []
    seen: set[tuple[Side, Side]] = set()
    while len(found) < positions:
        sides = [START, START]
        turn = rng.randrange(2)
        opening = True
        while len(found) < positions:
            a, b = _roll(rng, opening)
            opening = False
            mover, other = sides[turn], sides[1 - turn]
            plays = legal_plays(mover, other, a, b)
            if not plays:
                turn = 1 - turn
                continue
            kind = int(classify(np.array([mover]), np.array([other]))[0])
            if len(plays) > 1 and kind in (CONTACT, RACE) and rng.random() < 0.25:
                one = rank_plays(evaluator, mover, other, (a, b), plies=1)[0].play
                two = rank_plays(evaluator, mover, other, (a, b), plies=2)[0].play
                if one.key != two.key:
                    for play in (one, two):
                        key = (play.other, play.mover)
                        if key not in seen:
                            seen.add(key)
                            found.append(key)
                            if on_position is not None:
                                on_position(len(found))
            pick, _ = best_plays(evaluator, [plays])[0]
            chosen = plays[pick]
            if chosen.mover[0] == sum(START):
                break
            sides[turn], sides[1 - turn] = chosen.mover, chosen.other
            turn = 1 - turn
    found = found[:positions]
    targets = np.zeros((len(found), 5))
    for start in range(0, len(found), 32):
        chunk = found[start : start + 32]
        targets[start : start + len(chunk)] = rollout_chances(evaluator, chunk, rng)
    rows = [(m, o, t) for (m, o), t in zip(found, targets, strict=True)]
    for _ in range(epochs):
        rng.shuffle(rows)
        for start in range(0, len(rows), 32):
            _train_on(evaluator, rows[start : start + 32], rate)
    return evaluator
