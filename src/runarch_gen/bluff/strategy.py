"""A solved strategy of the small game of Bluff, as data: what each player does at each bid
history for each hand, saved to a file and read back (``bluff solve --save``, the ``cfr``
bot, ``bluff solve --check``).

The small game (``docs/rules/bluff.md`` §6) is one round between two players with ``dice``
(opener first) and bids capped at the dice in play. Its ``B`` allowed bids are numbered
0 … B−1 in raise order, so a bid history is a set of bids — a bit mask (the bids only rise),
its highest bit the bid standing. A :class:`Strategy` remembers of a history its last
``window`` bids (all of them with ``window`` 0: perfect recall) and the parity of its length
(who acts): the *state* ``key = (window mask << 1) | parity``. For each player, the states
where that player acts are sorted by key; a state whose highest bid is ``t`` has the actions
``doubt`` (after a bid) and every bid ``t+1 … B−1``, and ``probs[p][row, hand]`` holds their
chances, rows in state order.

The file is a zip of numpy arrays (``.npz``, read without pickles) with a JSON header, written
with fixed timestamps so the same strategy gives the same bytes; :func:`read_strategy` checks
every size before it reads and every array after.

>>> s = uniform_strategy("bluff(faces=2)", (1, 1), 3, (3, 3))
>>> s.states(0), s.states(1), s.probs[0].shape
(4, 4, (7, 3))
>>> s.action_probs(0, np.array([0]), 1)[0]  # the opener's chance of bidding bid 1 first
array([0.33333333, 0.33333333, 0.33333333])
"""

from __future__ import annotations

import io
import json
import os
import struct
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from runarch_gen.errors import InputError
from runarch_gen.fileio import atomic_write, display_name, read_bytes

__all__ = [
    "FORMAT",
    "MAX_STRATEGY_BYTES",
    "Strategy",
    "action_count",
    "one_blas_thread",
    "read_strategy",
    "strategy_from_bytes",
    "top_bit",
    "uniform_strategy",
    "window_of",
]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

FORMAT = "runarch-gen bluff strategy 1"
MAX_STRATEGY_BYTES = 64 * 1024 * 1024
"""The largest strategy file read."""
MAX_ARRAY_BYTES = 512 * 1024 * 1024
"""The largest array a strategy file may hold once uncompressed (bounded memory)."""
MAX_BIDS = 26
MAX_HANDS = 1000
_MEMBERS = ("meta", "keys0", "keys1", "probs0", "probs1")


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """The linear algebra library on one thread: the solver and the best response multiply
    many small matrices, where threads only wait for each other (and for the machine's other
    work)."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        yield


def top_bit(masks: IntArray) -> IntArray:
    """The highest set bit of each mask (−1 for 0): the bid standing after that history.

    >>> top_bit(np.array([0, 1, 6, 1 << 40]))
    array([-1,  0,  2, 40])
    """
    masks = np.asarray(masks, dtype=np.int64)
    _, exponent = np.frexp(masks.astype(np.float64))
    return np.where(masks > 0, exponent.astype(np.int64) - 1, -1)


def popcount(masks: IntArray) -> IntArray:
    """How many bits each mask has set (bids made)."""
    masks = np.asarray(masks, dtype=np.int64).copy()
    count = np.zeros(masks.shape, dtype=np.int64)
    while np.any(masks):
        count += masks & 1
        masks >>= 1
    return count


def window_of(masks: IntArray, window: int) -> IntArray:
    """The ``window`` highest bits of each mask (the last bids made); all of them for 0.

    >>> window_of(np.array([0b10111]), 2)
    array([20])
    """
    masks = np.asarray(masks, dtype=np.int64)
    if window == 0:
        return masks.copy()
    rest = masks.copy()
    kept = np.zeros_like(masks)
    for _ in range(window):
        top = top_bit(rest)
        bit = np.where(top >= 0, np.left_shift(1, np.maximum(top, 0)), 0)
        kept |= bit
        rest ^= bit
    return kept


def action_count(top: IntArray, bids: int) -> IntArray:
    """Actions of a state whose bid standing is ``top``: doubt (after a bid) and every higher
    bid."""
    return (top >= 0).astype(np.int64) + bids - 1 - top


@dataclass(frozen=True, eq=False)
class Strategy:
    """Both players' strategies in the small game (see the module)."""

    game: str
    """The small game's string (``bluff(players=2,dice=…,single=on,cap=on,first=1,…)``)."""
    dice: tuple[int, int]
    window: int
    """The last bids a state remembers; 0: the whole history (perfect recall)."""
    bids: int
    """``B``: the bids allowed in the small game."""
    hands: tuple[int, int]
    """How many sorted hands each player may hold."""
    keys: tuple[IntArray, IntArray]
    probs: tuple[FloatArray, FloatArray]

    def states(self, player: int) -> int:
        return len(self.keys[player])

    def offsets(self, player: int) -> IntArray:
        """Each state's first row in ``probs[player]`` (and the total at the end)."""
        return self._offsets[player]

    @cached_property
    def _offsets(self) -> tuple[IntArray, IntArray]:
        out = []
        for player in (0, 1):
            counts = action_count(top_bit(self.keys[player] >> 1), self.bids)
            out.append(np.concatenate(([0], np.cumsum(counts))).astype(np.int64))
        return (out[0], out[1])

    def state_index(self, player: int, masks: IntArray, parity: IntArray | None = None) -> IntArray:
        """The state of each history (bit mask) for ``player`` to act in; −1 where this
        strategy has none (a history its player never plays into). ``parity`` (the number of
        bids made, mod 2) may be given when known."""
        masks = np.asarray(masks, dtype=np.int64)
        if parity is None:
            parity = popcount(masks) & 1
        keys = (window_of(masks, self.window) << 1) | parity
        table = self.keys[player]
        where = np.searchsorted(table, keys)
        where = np.minimum(where, max(len(table) - 1, 0))
        found = (len(table) > 0) & (table[where] == keys) if len(table) else np.zeros_like(keys)
        return np.where(found.astype(bool), where, -1)

    def action_probs(
        self, player: int, masks: IntArray, action: int, parity: IntArray | None = None
    ) -> FloatArray:
        """The chance of ``action`` (−1 for doubt, else a bid) at each history for every hand
        of ``player``; uniform over the legal actions where the strategy has no state."""
        masks = np.asarray(masks, dtype=np.int64)
        index = self.state_index(player, masks, parity)
        tops = top_bit(masks)
        counts = action_count(tops, self.bids)
        column = (tops >= 0).astype(np.int64) + action - tops - 1 if action >= 0 else 0
        offsets = self.offsets(player)
        rows = offsets[np.maximum(index, 0)] + column
        out = np.asarray(self.probs[player][rows], dtype=np.float64)
        missing = index < 0
        if np.any(missing):
            out[missing] = (1.0 / counts[missing])[:, None]
        return out

    def policy(self, player: int, mask: int, hand: int) -> tuple[list[int], FloatArray] | None:
        """The actions (−1 doubt, else bids) and their chances at one history for one hand,
        or ``None`` where the strategy has no state."""
        index = int(self.state_index(player, np.array([mask]))[0])
        if index < 0:
            return None
        top = int(top_bit(np.array([mask]))[0])
        actions = ([-1] if top >= 0 else []) + list(range(top + 1, self.bids))
        start = int(self.offsets(player)[index])
        return actions, np.asarray(self.probs[player][start : start + len(actions), hand])

    # -- the file ---------------------------------------------------------------------------

    def header(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "dice": list(self.dice),
            "window": self.window,
            "bids": self.bids,
            "hands": list(self.hands),
            "states": [self.states(0), self.states(1)],
        }

    def to_bytes(self) -> bytes:
        """The ``.npz`` file's bytes (fixed timestamps: the same strategy, the same bytes)."""
        arrays = {
            "meta": np.frombuffer(json.dumps(self.header(), sort_keys=True).encode(), np.uint8),
            # each key as the step from the one before: small numbers, which compress
            "keys0": np.diff(self.keys[0], prepend=0).astype("<i8"),
            "keys1": np.diff(self.keys[1], prepend=0).astype("<i8"),
            "probs0": self.probs[0].astype("<f4"),
            "probs1": self.probs[1].astype("<f4"),
        }
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name in _MEMBERS:
                data = io.BytesIO()
                np.lib.format.write_array(data, np.ascontiguousarray(arrays[name]))
                info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                archive.writestr(info, data.getvalue(), compresslevel=9)
        return buffer.getvalue()

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the strategy to ``path`` (a temporary file renamed: never half written)."""
        atomic_write(path, self.to_bytes())


def uniform_strategy(
    game: str, dice: tuple[int, int], bids: int, hands: tuple[int, int]
) -> Strategy:
    """Every action alike at every history (perfect recall): a baseline, and a test piece."""
    sizes = hands
    keys: list[IntArray] = []
    probs: list[FloatArray] = []
    masks = np.arange(1 << bids, dtype=np.int64)
    parity = popcount(masks) & 1
    for player in (0, 1):
        mine = masks[parity == player]
        keys.append((mine << 1) | player)
        counts = action_count(top_bit(mine), bids)
        rows = np.repeat(1.0 / counts, counts)
        probs.append(np.repeat(rows[:, None], sizes[player], axis=1))
    return Strategy(game, dice, 0, bids, sizes, (keys[0], keys[1]), (probs[0], probs[1]))


def read_strategy(path: str | os.PathLike[str]) -> Strategy:
    """The strategy in file ``path``; :class:`InputError` names the file and what is wrong."""
    name = display_name(path)
    return strategy_from_bytes(read_bytes(path, limit=MAX_STRATEGY_BYTES), name)


def strategy_from_bytes(data: bytes, source: str = "<strategy>") -> Strategy:
    """A strategy from a file's bytes, every size checked before it is read and every array
    after: keys sorted and well formed, probabilities between 0 and 1 summing to 1 over each
    state's actions."""
    try:
        return _from_bytes(data)
    except InputError as exc:
        raise InputError(f"{source}: {exc}") from None
    except _DAMAGED as exc:
        raise InputError(f"{source}: not a strategy file ({str(exc)[:80]})") from None


_DAMAGED = (
    zipfile.BadZipFile,
    zlib.error,
    struct.error,
    ValueError,
    OSError,
    EOFError,
    KeyError,
    NotImplementedError,
    RuntimeError,
    OverflowError,
    TypeError,
)
"""What a damaged zip or array raises while it is read."""


def _from_bytes(data: bytes) -> Strategy:
    if len(data) > MAX_STRATEGY_BYTES:
        raise InputError(f"longer than {MAX_STRATEGY_BYTES:,} bytes")
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        infos = {info.filename: info for info in archive.infolist()}
        wanted = {f"{name}.npy" for name in _MEMBERS}
        if set(infos) != wanted:
            raise InputError(f"expected the members {', '.join(sorted(wanted))}")
        arrays: dict[str, np.ndarray[Any, Any]] = {}
        for name in _MEMBERS:
            info = infos[f"{name}.npy"]
            if info.file_size > MAX_ARRAY_BYTES:
                raise InputError(f"{name}: over {MAX_ARRAY_BYTES:,} bytes uncompressed")
            with archive.open(info) as member:
                raw = member.read(MAX_ARRAY_BYTES + 1)
            if len(raw) > MAX_ARRAY_BYTES:
                raise InputError(f"{name}: over {MAX_ARRAY_BYTES:,} bytes uncompressed")
            arrays[name] = np.lib.format.read_array(io.BytesIO(raw), allow_pickle=False)
    meta = _header(arrays["meta"])
    bids, window = meta["bids"], meta["window"]
    hands = (meta["hands"][0], meta["hands"][1])
    keys = (_keys(arrays["keys0"], 0, bids, window), _keys(arrays["keys1"], 1, bids, window))
    probs: list[FloatArray] = []
    for player in (0, 1):
        raw_probs = arrays[f"probs{player}"]
        if raw_probs.dtype.kind != "f" or raw_probs.ndim != 2:
            raise InputError(f"probs{player}: a table of chances")
        tops = top_bit(keys[player] >> 1)
        counts = action_count(tops, bids)
        if raw_probs.shape != (int(counts.sum()), hands[player]):
            raise InputError(f"probs{player}: {raw_probs.shape}, not the states' actions × hands")
        table = raw_probs.astype(np.float64)
        if not np.all(np.isfinite(table)) or table.min(initial=0) < 0 or table.max(initial=0) > 1:
            raise InputError(f"probs{player}: chances are between 0 and 1")
        if len(counts):
            sums = np.add.reduceat(table, np.concatenate(([0], np.cumsum(counts)[:-1])), axis=0)
            if not np.allclose(sums, 1.0, atol=1e-3):
                raise InputError(f"probs{player}: a state's chances do not add up to 1")
        probs.append(table)
    return Strategy(
        meta["game"],
        (meta["dice"][0], meta["dice"][1]),
        window,
        bids,
        hands,
        keys,
        (probs[0], probs[1]),
    )


def _header(raw: np.ndarray[Any, Any]) -> dict[str, Any]:
    if raw.dtype != np.uint8 or raw.ndim != 1 or len(raw) > 4096:
        raise InputError("meta: a short JSON header")
    try:
        meta = json.loads(raw.tobytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise InputError("meta: not JSON") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise InputError(f"meta: not a {FORMAT!r} file")

    def whole(value: Any, low: int, high: int, what: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InputError(f"meta: {what} is {low} to {high}")
        return value

    game = meta.get("game")
    if not isinstance(game, str) or len(game) > 1000:
        raise InputError("meta: game is a game string")
    dice, hands = meta.get("dice"), meta.get("hands")
    if (
        not isinstance(dice, list)
        or len(dice) != 2
        or not isinstance(hands, list)
        or len(hands) != 2
    ):
        raise InputError("meta: dice and hands name two players")
    return {
        "game": game,
        "dice": [whole(d, 1, 9, "dice") for d in dice],
        "hands": [whole(h, 1, MAX_HANDS, "hands") for h in hands],
        "window": whole(meta.get("window"), 0, MAX_BIDS, "window"),
        "bids": whole(meta.get("bids"), 1, MAX_BIDS, "bids"),
    }


def _keys(raw: np.ndarray[Any, Any], player: int, bids: int, window: int) -> IntArray:
    if raw.dtype.kind != "i" or raw.ndim != 1:
        raise InputError(f"keys{player}: a list of whole numbers")
    steps = raw.astype(np.int64)
    space = 1 << (bids + 1)
    if len(steps) > space:
        raise InputError(f"keys{player}: more states than histories")
    if len(steps) and (steps.min() < 0 or steps.max() >= space or np.any(steps[1:] == 0)):
        raise InputError(f"keys{player}: keys sorted, each once, histories of the {bids} bids")
    keys = np.cumsum(steps)  # at most 2^27 steps below 2^27 each: no overflow
    if len(keys) and keys[-1] >= space:
        raise InputError(f"keys{player}: a key is a history of the {bids} bids")
    masks, parity = keys >> 1, keys & 1
    if np.any(parity != player):
        raise InputError(f"keys{player}: every state is one where player {player + 1} acts")
    made = popcount(masks)
    short = made < window if window else np.ones(len(keys), dtype=bool)
    if window and np.any(made > window):
        raise InputError(f"keys{player}: a state remembers at most {window} bids")
    if np.any(short & ((made & 1) != parity)):
        raise InputError(f"keys{player}: a short history's length says who acts")
    return keys
