"""The strong evaluator: separate networks for contact and race positions, the exact
bear-off database when both sides are bearing off (gnubg's split), in numpy.

Every evaluation is of a position with a player **on roll** and gives his five cubeless
chances in gnubg's order: win, win a gammon (or more), win a backgammon, lose a gammon (or
more), lose a backgammon.

Inputs, per side (the player on roll first):

- the raw board: for points 1–24 four units (at least 1, 2, 3 checkers; (n − 3) / 2 above
  three), the bar (any, n / 2), checkers off / 15, pips / 167;
- the hand-made features of contact play (TD-Gammon 2 and gnubg use the same kinds): the
  chance that the other side hits one of this side's blots with its next roll (direct and
  indirect shots, blocked points respected), blots, home-board points, the longest prime,
  anchors in the other's home board, checkers back, the other side's points in front of this
  side's last checker within 12 pips (containment), the other's home points while this side
  is on the bar, and the pip count difference.

The race network sees the raw board plus the checkers still outside the home board and the
pip difference. Weights ship beside this module as ``nets.npz`` and load with
:func:`load_evaluator`; ``runarch-gen backgammon train`` makes them (see :mod:`.selfplay`).

>>> from runarch_gen.backgammon.board import START
>>> contact_features(np.array([START]), np.array([START])).shape == (1, CONTACT_INPUTS)
True
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from runarch_gen.backgammon.bearoff import BearoffTable, bearoff_index, load_bearoff
from runarch_gen.backgammon.board import Side
from runarch_gen.errors import InputError

__all__ = [
    "CONTACT_INPUTS",
    "RACE_INPUTS",
    "Evaluator",
    "Layer",
    "classify",
    "contact_features",
    "load_evaluator",
    "race_features",
]

Array = NDArray[np.float64]
IntArray = NDArray[np.int64]
OUTPUTS = 5
MAX_HIDDEN = 400
"""The most hidden units a network may have (``train --hidden`` allows as many)."""
NETS_FILE = "nets.npz"
FEATURE_VERSION = 1
RAW_INPUTS = 2 * (24 * 4 + 2 + 1 + 1)
CONTACT_EXTRA = 9
CONTACT_INPUTS = RAW_INPUTS + 2 * CONTACT_EXTRA + 1
RACE_INPUTS = RAW_INPUTS + 2 + 1
CONTACT, RACE, BEAROFF, OVER = 0, 1, 2, 3
_PIPS = np.arange(26, dtype=np.float64)
_POINTS = np.arange(26)

# The ways a roll hits at a distance: (distance, intermediate landing offsets), weight.
_HIT_PATHS: list[tuple[float, list[tuple[int, tuple[int, ...]]]]] = []
for _high in range(1, 7):
    for _low in range(1, _high + 1):
        if _high == _low:
            paths = [(_high * k, tuple(_high * j for j in range(1, k))) for k in range(1, 5)]
            _HIT_PATHS.append((1.0, paths))
        else:
            paths = [(_high, ()), (_low, ()), (_high + _low, (_high,)), (_high + _low, (_low,))]
            _HIT_PATHS.append((2.0, paths))


def classify(movers: IntArray, others: IntArray) -> IntArray:
    """Per row: ``CONTACT``, ``RACE`` (no contact, not both bearing off), ``BEAROFF`` (both
    sides have every checker in their home boards) or ``OVER`` (a side has borne off all)."""
    top_m = np.where(movers[:, 1:] > 0, _POINTS[1:], 0).max(axis=1)
    top_o = np.where(others[:, 1:] > 0, _POINTS[1:], 0).max(axis=1)
    kind = np.where(top_m + top_o > 25, CONTACT, RACE)
    kind = np.where((top_m <= 6) & (top_o <= 6), BEAROFF, kind)
    return np.where((top_m == 0) | (top_o == 0), OVER, kind)


def _raw(cells: IntArray) -> Array:
    points = cells[:, 1:25].astype(np.float64)
    return np.concatenate(
        [
            (points >= 1),
            (points >= 2),
            (points >= 3),
            np.maximum(points - 3.0, 0.0) / 2.0,
            (cells[:, 25:26] > 0),
            cells[:, 25:26] / 2.0,
            cells[:, 0:1] / 15.0,
            (cells @ _PIPS)[:, None] / 167.0,
        ],
        axis=1,
        dtype=np.float64,
    )


def shot_chance(side: IntArray, hitter: IntArray) -> Array:
    """The chance (of 36 rolls) that ``hitter``, on roll, can hit a blot of ``side`` on points
    1–24, stopping only on points ``side`` has not made. A hitter with checkers on the bar
    hits only by entering.

    >>> from runarch_gen.backgammon.board import side_from_points
    >>> me = side_from_points({10: 1, 0: 14})
    >>> you = side_from_points({19: 1, 0: 14})  # my point 6: four pips from my blot
    >>> round(float(shot_chance(np.array([me]), np.array([you]))[0]) * 36)
    15
    """
    n = side.shape[0]
    blot = np.zeros((n, 50), dtype=bool)
    blot[:, 1:25] = side[:, 1:25] == 1
    open_ = np.ones((n, 50), dtype=bool)
    open_[:, 1:25] = side[:, 1:25] < 2
    # the hitter's checkers at my point x (0 = its bar): its point 25 - x
    at = hitter[:, 25:0:-1] > 0
    on_bar = hitter[:, 25] > 0
    at = at & (~on_bar[:, None] | (np.arange(25) == 0))
    total = np.zeros(n)
    direct = [at & blot[:, d : d + 25] for d in range(25)]
    for weight, paths in _HIT_PATHS:
        hit = np.zeros((n, 25), dtype=bool)
        for distance, inter in paths:
            if distance > 24:
                continue
            term = direct[distance]
            for offset in inter:
                term = term & open_[:, offset : offset + 25]
            hit |= term
        total += weight * hit.any(axis=1)
    return total / 36.0


def _longest_run(made: NDArray[np.bool_]) -> Array:
    run = np.zeros(made.shape[0])
    best = np.zeros(made.shape[0])
    for column in range(made.shape[1]):
        run = np.where(made[:, column], run + 1.0, 0.0)
        best = np.maximum(best, run)
    return best


def _contact_extra(side: IntArray, other: IntArray) -> Array:
    made = side[:, 1:25] >= 2
    other_made = other[:, 1:25] >= 2
    # the other side's made points in my numbering: its point q is my 25 - q
    theirs_mine = other_made[:, ::-1]
    points = np.arange(1, 25)
    rear = np.where(side[:, 1:26] > 0, np.arange(1, 26), 0).max(axis=1)
    front = (points[None, :] < rear[:, None]) & (points[None, :] >= rear[:, None] - 12)
    containment = (theirs_mine & front).sum(axis=1) / 12.0
    their_home = other_made[:, :6].sum(axis=1) / 6.0
    return np.stack(
        [
            shot_chance(side, other),
            (side[:, 1:25] == 1).sum(axis=1) / 5.0,
            made[:, :6].sum(axis=1) / 6.0,
            _longest_run(made) / 6.0,
            made[:, 18:24].sum(axis=1) / 2.0,
            side[:, 19:26].sum(axis=1) / 5.0,
            containment,
            (side[:, 25] > 0) * their_home,
            side[:, 7:26].sum(axis=1) / 15.0,
        ],
        axis=1,
    )


def contact_features(movers: IntArray, others: IntArray) -> Array:
    """The contact network's input rows (the player on roll first)."""
    diff = (movers @ _PIPS - others @ _PIPS)[:, None] / 50.0
    return np.concatenate(
        [
            _raw(movers),
            _raw(others),
            _contact_extra(movers, others),
            _contact_extra(others, movers),
            diff,
        ],
        axis=1,
    )


def race_features(movers: IntArray, others: IntArray) -> Array:
    """The race network's input rows."""
    diff = (movers @ _PIPS - others @ _PIPS)[:, None] / 50.0
    return np.concatenate(
        [
            _raw(movers),
            _raw(others),
            movers[:, 7:26].sum(axis=1, keepdims=True) / 15.0,
            others[:, 7:26].sum(axis=1, keepdims=True) / 15.0,
            diff,
        ],
        axis=1,
    )


def _single(x: Array) -> Array:
    """``x`` rounded to single precision, as weights are saved."""
    return np.asarray(x, dtype=np.float32).astype(np.float64)


def _sigmoid(x: Array) -> Array:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(x, -40.0, 40.0))))


class Layer:
    """A network of one sigmoid hidden layer and five sigmoid outputs."""

    def __init__(self, w1: Array, b1: Array, w2: Array, b2: Array) -> None:
        self.w1, self.b1, self.w2, self.b2 = w1, b1, w2, b2

    @classmethod
    def fresh(cls, inputs: int, hidden: int, rng: np.random.Generator) -> Layer:
        return cls(
            rng.normal(0.0, 1.0 / np.sqrt(inputs), (inputs, hidden)),
            np.zeros(hidden),
            rng.normal(0.0, 1.0 / np.sqrt(hidden), (hidden, OUTPUTS)),
            np.zeros(OUTPUTS),
        )

    def forward(self, x: Array) -> tuple[Array, Array]:
        hidden = _sigmoid(x @ self.w1 + self.b1)
        return hidden, _sigmoid(hidden @ self.w2 + self.b2)

    def train(self, x: Array, target: Array, rate: float, cross_entropy: bool = False) -> float:
        """One gradient step towards ``target``; the mean squared error. The step follows the
        squared error, or with ``cross_entropy`` the outputs' cross-entropy, whose gradient
        at a sigmoid output is the error itself: a rare outcome (a gammon, a backgammon)
        then learns as fast as the win, not slowed by its output's small slope."""
        hidden, out = self.forward(x)
        error = out - target
        delta2 = error if cross_entropy else error * out * (1.0 - out)
        delta1 = (delta2 @ self.w2.T) * hidden * (1.0 - hidden)
        self.w2 -= rate * hidden.T @ delta2
        self.b2 -= rate * delta2.sum(axis=0)
        self.w1 -= rate * x.T @ delta1
        self.b1 -= rate * delta1.sum(axis=0)
        return float((error**2).mean())

    def arrays(self, prefix: str) -> dict[str, Array]:
        return {f"{prefix}_w1": self.w1, f"{prefix}_b1": self.b1,
                f"{prefix}_w2": self.w2, f"{prefix}_b2": self.b2}  # fmt: skip


def consistent(p: Array) -> Array:
    """Chances made consistent: a backgammon is a gammon is a win."""
    out = np.clip(p, 0.0, 1.0)
    out[:, 1] = np.minimum(out[:, 1], out[:, 0])
    out[:, 2] = np.minimum(out[:, 2], out[:, 1])
    out[:, 3] = np.minimum(out[:, 3], 1.0 - out[:, 0])
    out[:, 4] = np.minimum(out[:, 4], out[:, 3])
    return out


def equity(p: Array) -> Array:
    """Cubeless money equity of rows of the five chances."""
    return np.asarray(2.0 * p[..., 0] - 1.0 + p[..., 1] + p[..., 2] - p[..., 3] - p[..., 4])


def swap(p: Array) -> Array:
    """The same chances seen from the other player."""
    return np.stack([1.0 - p[..., 0], p[..., 3], p[..., 4], p[..., 1], p[..., 2]], axis=-1)


def _finished(movers: IntArray, others: IntArray) -> Array:
    """Chances of a finished game for the player on roll (who may have won or lost)."""
    out = np.zeros((movers.shape[0], OUTPUTS))
    won = movers[:, 1:].sum(axis=1) == 0
    loser = np.where(won[:, None], others, movers)
    gammon = loser[:, 0] == 0
    # [V-22] a backgammon: the loser still on the bar or in the winner's home board
    backgammon = gammon & ((loser[:, 25] > 0) | (loser[:, 19:25].sum(axis=1) > 0))
    out[:, 0] = won
    out[:, 1] = won & gammon
    out[:, 2] = won & backgammon
    out[:, 3] = ~won & gammon
    out[:, 4] = ~won & backgammon
    return out


class Evaluator:
    """The contact and race networks with the bear-off database: :meth:`evaluate` gives the
    five chances of the player on roll of each position, batched."""

    def __init__(self, contact: Layer, race: Layer, bearoff: BearoffTable | None = None) -> None:
        self.contact = contact
        self.race = race
        self.bearoff = bearoff if bearoff is not None else load_bearoff()

    @classmethod
    def fresh(cls, contact_hidden: int, race_hidden: int, seed: int) -> Evaluator:
        rng = np.random.default_rng(seed)
        return cls(
            Layer.fresh(CONTACT_INPUTS, contact_hidden, rng),
            Layer.fresh(RACE_INPUTS, race_hidden, rng),
        )

    @classmethod
    def mean(cls, evaluators: Sequence[Evaluator]) -> Evaluator:
        """The evaluator whose weights are the means of these evaluators' (of one shape),
        rounded to single precision as weights are saved (so that training from the mean is
        training from the mean saved): the mean of checkpoints along one training run
        evaluates better than most of them, as the step size's noise partly cancels."""
        if not evaluators:
            raise ValueError("no evaluators to average")
        first = evaluators[0]

        def mean(layers: list[Layer]) -> Layer:
            for layer in layers:
                if layer.w1.shape != layers[0].w1.shape or layer.w2.shape != layers[0].w2.shape:
                    raise InputError("weights of different shapes cannot be averaged")
            return Layer(
                *(
                    _single(np.mean([getattr(layer, name) for layer in layers], axis=0))
                    for name in ("w1", "b1", "w2", "b2")
                )
            )

        if len(evaluators) == 1:
            return first
        return cls(
            mean([e.contact for e in evaluators]),
            mean([e.race for e in evaluators]),
            first.bearoff,
        )

    def widened(self, hidden: int, seed: int) -> Evaluator:
        """The same evaluator with ``hidden`` units in the contact network's hidden layer: the
        new units' input weights drawn as :meth:`Layer.fresh` draws them (rounded to single
        precision), their biases and output weights 0, so that every evaluation is unchanged
        until training puts the new units to use."""
        contact = self.contact
        inputs, have = contact.w1.shape
        if hidden <= have:
            return self
        rng = np.random.default_rng(seed)
        extra = _single(rng.normal(0.0, 1.0 / np.sqrt(inputs), (inputs, hidden - have)))
        wider = Layer(
            np.concatenate([contact.w1, extra], axis=1),
            np.concatenate([contact.b1, np.zeros(hidden - have)]),
            np.concatenate([contact.w2, np.zeros((hidden - have, OUTPUTS))], axis=0),
            contact.b2.copy(),
        )
        return Evaluator(wider, self.race, self.bearoff)

    def evaluate_arrays(self, movers: IntArray, others: IntArray) -> Array:
        """Rows of chances for rows of sides ((n, 26) each, the player on roll first)."""
        n = movers.shape[0]
        out = np.zeros((n, OUTPUTS))
        if n == 0:
            return out
        kind = classify(movers, others)
        rows = np.flatnonzero(kind == CONTACT)
        if rows.size:
            out[rows] = self.contact.forward(contact_features(movers[rows], others[rows]))[1]
        rows = np.flatnonzero(kind == RACE)
        if rows.size:
            out[rows] = self.race.forward(race_features(movers[rows], others[rows]))[1]
        rows = np.flatnonzero(kind == BEAROFF)
        if rows.size:
            mine = bearoff_index(movers[rows, 1:7])
            theirs = bearoff_index(others[rows, 1:7])
            out[rows] = self.bearoff.probabilities(mine, theirs)
        rows = np.flatnonzero(kind == OVER)
        if rows.size:
            out[rows] = _finished(movers[rows], others[rows])
        return consistent(out)

    def evaluate(self, positions: Sequence[tuple[Side, Side]]) -> Array:
        """Rows of chances of ``(on roll, other)`` positions."""
        if not positions:
            return np.zeros((0, OUTPUTS))
        movers = np.array([p[0] for p in positions], dtype=np.int64)
        others = np.array([p[1] for p in positions], dtype=np.int64)
        return self.evaluate_arrays(movers, others)

    def save(self, path: str | Path, meta: dict[str, int | float | str] | None = None) -> None:
        from runarch_gen.fileio import atomic_write

        arrays: dict[str, Array] = {**self.contact.arrays("contact"), **self.race.arrays("race")}
        arrays["version"] = np.array([FEATURE_VERSION], dtype=np.float64)
        buffer = io.BytesIO()
        payload: dict[str, Any] = {k: v.astype(np.float32) for k, v in arrays.items()}
        payload["meta"] = np.array(repr(sorted((meta or {}).items())))
        np.savez_compressed(buffer, **payload)
        atomic_write(path, buffer.getvalue())

    @classmethod
    def load(cls, path: str | Path) -> Evaluator:
        """Weights written by :meth:`save`. The file comes from anyone: only a regular file
        is read (a FIFO or device is refused at once), at most the inputs' size limit, and
        its arrays are unpacked only when they hold no more than that limit in all."""
        from runarch_gen.fileio import MAX_INPUT_BYTES, display_name, read_bytes

        name = display_name(path)
        data = read_bytes(path)
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                unpacked = sum(member.file_size for member in archive.infolist())
        except (zipfile.BadZipFile, OSError, ValueError):
            raise InputError(f"{name}: not a weights file (not an .npz archive)") from None
        if unpacked > MAX_INPUT_BYTES:
            raise InputError(f"{name}: not a weights file ({unpacked} bytes unpacked)")
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
                parts = {
                    k: np.asarray(arrays[k], dtype=np.float64) for k in arrays.files if k != "meta"
                }
        except (OSError, KeyError, ValueError, TypeError, zipfile.BadZipFile) as exc:
            raise InputError(f"{name}: not a weights file ({str(exc)[:80]})") from None
        try:
            version = int(parts["version"].ravel()[0])
        except (KeyError, IndexError, ValueError, OverflowError):
            raise InputError(f"{name}: weights without a feature-set version") from None
        if version != FEATURE_VERSION:
            raise InputError(f"{name}: weights of another feature set (version {version})")
        try:
            contact = Layer(*(parts[f"contact_{k}"] for k in ("w1", "b1", "w2", "b2")))
            race = Layer(*(parts[f"race_{k}"] for k in ("w1", "b1", "w2", "b2")))
        except KeyError as exc:
            raise InputError(f"{name}: weights without {exc}") from None
        for which, layer, inputs in (
            ("contact", contact, CONTACT_INPUTS),
            ("race", race, RACE_INPUTS),
        ):
            hidden = layer.b1.shape[0] if layer.b1.ndim == 1 else -1
            if (
                layer.w1.shape != (inputs, hidden)
                or layer.w2.shape != (hidden, OUTPUTS)
                or layer.b2.shape != (OUTPUTS,)
                or not 1 <= hidden <= MAX_HIDDEN
                or not all(np.isfinite(a).all() for a in (layer.w1, layer.b1, layer.w2, layer.b2))
            ):
                raise InputError(f"{name}: the {which} network's weights do not fit together")
        return cls(contact, race)


@cache
def load_evaluator() -> Evaluator:
    """The shipped evaluator (``nets.npz`` beside this module)."""
    source = resources.files("runarch_gen.backgammon") / NETS_FILE
    with resources.as_file(source) as path:
        if not path.is_file():
            raise InputError(
                f"the strong bot's weights {NETS_FILE} are missing: run `runarch-gen backgammon"
                " train`"
            )
        return Evaluator.load(path)
