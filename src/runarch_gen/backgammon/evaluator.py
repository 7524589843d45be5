"""A small neural evaluator in numpy, in the way of TD-Gammon: the position from the side of
the player **on roll** in, five probabilities out — that player wins, wins a gammon or more,
wins a backgammon, loses a gammon or more, loses a backgammon (gnubg's five outputs). Older
three-output weights (no backgammons) are read too, their backgammon chances taken as 0.

Inputs (199): for each side (the player on roll first) and each of its points 1–24 four units
(at least 1, 2, 3 checkers, and (n − 3) / 2 above three), its bar / 2, its checkers off / 15,
its pip count / 167; and one unit for contact. One hidden layer of sigmoids, sigmoid outputs.
Weights ship in the package (``td_weights.npz``) and load at run time;
``runarch-gen backgammon train`` makes them again (see :mod:`.train`).

>>> from runarch_gen.backgammon.board import START
>>> features([(START, START)]).shape
(1, 199)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from runarch_gen.backgammon.board import BAR, OFF, Side
from runarch_gen.errors import InputError

__all__ = ["INPUTS", "Network", "contact", "features", "load_network"]

INPUTS = 199
OUTPUTS = 5
WIN, WIN_GAMMON, WIN_BACKGAMMON, LOSE_GAMMON, LOSE_BACKGAMMON = 0, 1, 2, 3, 4
Array = NDArray[np.float64]
_PIPS = np.arange(26, dtype=np.float64)


def contact(mover: Side, other: Side) -> bool:
    """Whether some checker of one side still has to pass a checker of the other.

    >>> from runarch_gen.backgammon.board import START
    >>> contact(START, START)
    True
    """
    highest = max((p for p in range(BAR, 0, -1) if mover[p]), default=0)
    their_highest = max((p for p in range(BAR, 0, -1) if other[p]), default=0)
    # the mover's point p is the other's 25 - p: contact while they overlap
    return highest + their_highest > 25


def _side_units(cells: Array) -> Array:
    points = cells[:, 1:25]
    return np.concatenate(
        [
            (points >= 1).astype(np.float64),
            (points >= 2).astype(np.float64),
            (points >= 3).astype(np.float64),
            np.maximum(points - 3.0, 0.0) / 2.0,
            cells[:, BAR : BAR + 1] / 2.0,
            cells[:, OFF : OFF + 1] / 15.0,
            (cells @ _PIPS)[:, None] / 167.0,
        ],
        axis=1,
    )


def features(positions: Sequence[tuple[Side, Side]]) -> Array:
    """The input rows of ``positions`` (each ``(on roll, other)``)."""
    movers = np.array([p[0] for p in positions], dtype=np.float64)
    others = np.array([p[1] for p in positions], dtype=np.float64)
    idx = np.arange(26, dtype=np.float64)
    top_m = np.where(movers[:, 1:] > 0, idx[1:], 0).max(axis=1)
    top_o = np.where(others[:, 1:] > 0, idx[1:], 0).max(axis=1)
    touching = (top_m + top_o > 25).astype(np.float64)[:, None]
    return np.concatenate([_side_units(movers), _side_units(others), touching], axis=1)


def _sigmoid(x: Array) -> Array:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -40.0, 40.0)))


class Network:
    """One hidden layer; :meth:`evaluate` gives the five probabilities per row."""

    def __init__(self, w1: Array, b1: Array, w2: Array, b2: Array) -> None:
        self.w1, self.b1, self.w2, self.b2 = w1, b1, w2, b2

    @classmethod
    def fresh(cls, hidden: int, seed: int) -> Network:
        rng = np.random.default_rng(seed)
        return cls(
            rng.normal(0.0, 0.1, (INPUTS, hidden)),
            np.zeros(hidden),
            rng.normal(0.0, 0.1, (hidden, OUTPUTS)),
            np.zeros(OUTPUTS),
        )

    def forward(self, x: Array) -> tuple[Array, Array]:
        hidden = _sigmoid(x @ self.w1 + self.b1)
        return hidden, _sigmoid(hidden @ self.w2 + self.b2)

    def evaluate(self, positions: Sequence[tuple[Side, Side]]) -> Array:
        """Rows of (win, win gammon, win backgammon, lose gammon, lose backgammon) for the
        player on roll of each position."""
        out = self.forward(features(positions))[1]
        if out.shape[1] == 3:  # old weights: no backgammon outputs
            zeros = np.zeros((out.shape[0], 1))
            out = np.concatenate([out[:, :2], zeros, out[:, 2:3], zeros], axis=1)
        return out

    def train(self, x: Array, target: Array, rate: float) -> None:
        """One gradient step of squared error towards ``target`` (one row each)."""
        hidden, out = self.forward(x)
        delta2 = (out - target) * out * (1.0 - out)
        delta1 = (delta2 @ self.w2.T) * hidden * (1.0 - hidden)
        self.w2 -= rate * hidden.T @ delta2
        self.b2 -= rate * delta2.sum(axis=0)
        self.w1 -= rate * x.T @ delta1
        self.b1 -= rate * delta1.sum(axis=0)

    def save(self, path: str | Path) -> None:
        import io

        from runarch_gen.fileio import atomic_write

        buffer = io.BytesIO()
        np.savez(buffer, w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2)
        atomic_write(path, buffer.getvalue())

    @classmethod
    def load(cls, path: str | Path) -> Network:
        try:
            with np.load(path) as data:
                parts = [np.asarray(data[k], dtype=np.float64) for k in ("w1", "b1", "w2", "b2")]
        except (OSError, KeyError, ValueError) as exc:
            raise InputError(f"{path}: not a weights file ({exc})") from None
        w1, b1, w2, b2 = parts
        if w1.shape[0] != INPUTS or w2.shape[1] not in (3, OUTPUTS) or b1.shape[0] != w1.shape[1]:
            raise InputError(f"{path}: weights of the wrong shape {w1.shape}, {w2.shape}")
        return cls(w1, b1, w2, b2)


WEIGHTS_FILE = "td_weights.npz"


@cache
def load_network() -> Network:
    """The shipped network (``td_weights.npz`` beside this module)."""
    source = resources.files("runarch_gen.backgammon") / WEIGHTS_FILE
    with resources.as_file(source) as path:
        if not path.is_file():
            raise InputError(
                f"the learned bot's weights {WEIGHTS_FILE} are missing:"
                " run `runarch-gen backgammon train`"
            )
        return Network.load(path)


def equity(probabilities: Array) -> Array:
    """Cubeless money equity of rows of the five probabilities."""
    p = probabilities
    return 2.0 * p[..., 0] - 1.0 + p[..., 1] + p[..., 2] - p[..., 3] - p[..., 4]


def swap_sides(probabilities: Array) -> Array:
    """The same rows seen from the other player (who is not on roll)."""
    p = probabilities
    return np.stack([1.0 - p[..., 0], p[..., 3], p[..., 4], p[..., 1], p[..., 2]], axis=-1)
