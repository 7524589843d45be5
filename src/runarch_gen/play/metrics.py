"""Design metrics: what a designer reads off simulated games, one small function each, over
the games' traces (game-agnostic).

In the manner of Ludii's evaluation metrics (``Evaluation/src/metrics/single/``: Balance,
Completion, DecisivenessMoves, Drama, LeadChange, BranchingFactor, DecisionMoves, SkillTrace),
each metric is a registered function of the games with a name, a title and its formula — and,
beyond Ludii, its 95 % interval wherever it is a rate or a mean. ``docs/metrics.md`` defines
every one; :func:`compute_metrics` computes them all.

**Traces.** While a game is played, :func:`play_traced` (the loop of
:func:`~runarch_gen.play.bot.play_out`, the same moves and chance draws) records a small
:class:`Trace`: how many decisions were taken, how many had a real choice and how many legal
actions they offered, and — where the game declares a *standing*, each side's progress towards
winning on a common scale (RunArch's points, Bluff's dice, Malacca's money, Vrhcáby's pips) —
how the lead went, read at the start of every turn: how often the sole leader changed, each
side's largest gap to the leader, and the last turn at which each side was not the sole
leader. That is all the metrics
read, so a run of ten million games keeps a few numbers per game.

>>> from runarch_gen.play.report import GameResult
>>> trace = Trace(decisions=9, choices=6, branching=30, lead_changes=2,
...               deficits=(0.25, 0.5), last_behind=(4, 9), points=10)
>>> games = [GameResult(i, ("a", "b"), 0, 20, "end", False, (0,), (5.0, 3.0), (1.0, -1.0),
...                     trace=trace) for i in range(4)]
>>> metrics = compute_metrics(games, ("white", "black"))
>>> metrics["decision_moves"].value, metrics["drama"].value, metrics["decisiveness"].value
(0.6667, 0.25, 0.5)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from runarch_gen.play.game import CHANCE_PLAYER, Outcome, State, sample_chance
from runarch_gen.play.stats import (
    Estimate,
    binomial_test,
    mean_estimate,
    proportion,
    sd_estimate,
    z_for,
)

__all__ = [
    "METRICS",
    "Metric",
    "Metrics",
    "Trace",
    "compute_metrics",
    "head_to_head_skill",
    "metric",
    "play_traced",
    "skill_index",
]

Standing = Callable[[Any], Sequence[float]]
"""A game's standing: each side's progress towards winning, higher is better, on one scale
for every side (see the module's text)."""


# ---------------------------------------------------------------------------------------------
# Traces


@dataclass(frozen=True, slots=True)
class Trace:
    """What the metrics read of one game. ``decisions``: actions a player chose (chance
    excluded); ``choices``: of those, how many had more than one legal action;
    ``branching``: the legal actions offered, summed over the decisions. With a standing,
    read at the start of every turn and once at the end (``points`` readings):
    ``lead_changes``, how often a side other than the last sole leader became the sole leader;
    ``deficits``, each side's largest gap to the leader; ``last_behind``, the last point at
    which each side was not the sole leader (−1: it led at every point)."""

    decisions: int
    choices: int
    branching: int
    lead_changes: int = 0
    deficits: tuple[float, ...] = ()
    last_behind: tuple[int, ...] = ()
    points: int = 0

    @property
    def has_standing(self) -> bool:
        return bool(self.deficits)

    def decided_at(self, winner: int) -> float:
        """The share of the game (its points: every turn's start and the end) played before
        ``winner`` became the sole leader for good: 0 when it led throughout, 1 when it did not
        lead at the end."""
        return (self.last_behind[winner] + 1) / max(1, self.points)


class _Lead:
    """Follows the standings point by point (for :class:`Trace`)."""

    __slots__ = ("changes", "deficits", "last_behind", "leader", "point")

    def __init__(self) -> None:
        self.point = 0
        self.leader = -1
        self.changes = 0
        self.deficits: list[float] = []
        self.last_behind: list[int] = []

    def see(self, standing: Sequence[float]) -> None:
        deficits, last = self.deficits, self.last_behind
        if len(standing) != len(deficits):  # the first point (a standing keeps its sides)
            deficits[:] = [0.0] * len(standing)
            last[:] = [-1] * len(standing)
        top = max(standing)
        sole = -1
        for side, x in enumerate(standing):
            gap = top - x
            if gap > 1e-9:
                deficits[side] = max(deficits[side], gap)
                last[side] = self.point
            elif sole == -1:
                sole = side
            else:  # a tie at the top: nobody leads alone
                if sole >= 0:
                    last[sole] = self.point
                last[side] = self.point
                sole = -2
        if sole >= 0:
            if self.leader >= 0 and sole != self.leader:
                self.changes += 1
            self.leader = sole
        self.point += 1


def play_traced(
    state: State[Any],
    bots: Sequence[Any],
    chance: Any = None,
    standing: Standing | None = None,
    turn: Callable[[Any], int] | None = None,
) -> tuple[Outcome, Trace]:
    """Let ``bots`` play ``state`` to its end, as :func:`~runarch_gen.play.bot.play_out`
    does (the same calls in the same order, so the same game), and return the outcome with its
    :class:`Trace`. ``standing(state)`` gives each side's progress (``None``: no lead is
    followed); it is read at the start of every turn and once at the end. A turn starts where
    ``turn(state)``, the game's count of turns, moves on (for a game whose non-player side takes
    turns inside the engine, such as an automa), else at a decision by another player than the
    last."""
    is_terminal, current_player = state.is_terminal, state.current_player
    apply, observation, legal_actions = state.apply, state.observation, state.legal_actions
    steps = [bot.step for bot in bots]
    decisions = choices = branching = 0
    lead = _Lead() if standing is not None else None
    last = -1
    while not is_terminal():
        player = current_player()
        if player == CHANCE_PLAYER:
            if chance is None:
                raise ValueError("this game has chance nodes: give play_out a generator")
            apply(sample_chance(state, chance))
            continue
        if lead is not None:
            now = player if turn is None else turn(state)
            if now != last:
                assert standing is not None
                lead.see(standing(state))
                last = now
        legal = legal_actions()
        count = len(legal)
        decisions += 1
        branching += count
        choices += count > 1
        apply(steps[player](observation(player), legal))
    outcome = state.outcome()
    assert outcome is not None
    if lead is None:
        return outcome, Trace(decisions, choices, branching)
    assert standing is not None
    lead.see(standing(state))
    return outcome, Trace(
        decisions,
        choices,
        branching,
        lead.changes,
        tuple(round(d, 6) for d in lead.deficits),
        tuple(lead.last_behind),
        lead.point,
    )


# ---------------------------------------------------------------------------------------------
# The registry of metrics


@dataclass(frozen=True, slots=True)
class Games:
    """What a metric reads: the games (each with ``winners``, ``first``, ``stalled``,
    ``length``, ``trace`` and optionally ``deadlocked``), the sides' names, how many of them
    are players (the rest, e.g. an automa, are not), the unit of length, and the skill trace
    measured apart (a :class:`~runarch_gen.play.stats.Estimate`, or ``None``)."""

    games: Sequence[Any]
    sides: tuple[str, ...]
    players: int
    length_unit: str = "actions"
    skill: Estimate | None = None

    def traces(self) -> list[tuple[Any, Trace]]:
        return [(g, g.trace) for g in self.games if getattr(g, "trace", None) is not None]


@dataclass(frozen=True, slots=True)
class Metric:
    """A registered metric: its name (the JSON key), a title, the unit of its value, its
    formula (as ``docs/metrics.md`` gives it) and the function of the games."""

    name: str
    title: str
    unit: str
    formula: str
    compute: Callable[[Games], Estimate | None] = field(repr=False)


METRICS: dict[str, Metric] = {}
"""The metrics by name, in the order they are reported."""


def metric(
    name: str, title: str, unit: str, formula: str
) -> Callable[[Callable[[Games], Estimate | None]], Callable[[Games], Estimate | None]]:
    """Register the decorated function of :class:`Games` as metric ``name``."""

    def register(
        function: Callable[[Games], Estimate | None],
    ) -> Callable[[Games], Estimate | None]:
        METRICS[name] = Metric(name, title, unit, formula, function)
        return function

    return register


def _rate(count: int, total: int) -> Estimate | None:
    if not total:
        return None
    share = proportion(count, total)
    return Estimate(share.rate, share.low, share.high, total)


def _deadlocked(g: Any) -> bool:
    return bool(getattr(g, "deadlocked", False))


def _sole(g: Any) -> int | None:
    return g.winners[0] if len(g.winners) == 1 else None


@metric(
    "completion",
    "completion",
    "share of games",
    "games that ended by the rules with one side winning alone ÷ games",
)
def completion(data: Games) -> Estimate | None:
    done = sum(1 for g in data.games if not g.stalled and _sole(g) is not None)
    return _rate(done, len(data.games))


def _seat_wins(data: Games) -> tuple[list[int], int]:
    """Sole wins per seat — the players by position in the order of play (from the side that
    moved first), then each non-player side — and the games counted."""
    n = data.players
    seats = [0] * (n + len(data.sides) - n)
    for g in data.games:
        winner = _sole(g)
        if winner is None:
            continue
        seats[(winner - g.first) % n if winner < n else winner] += 1
    return seats, len(data.games)


@metric(
    "balance",
    "balance",
    "index 0–1",
    "1 − the largest gap between two seats' win rates (seats: positions in the order of play,"
    " and a non-player side such as an automa); interval from simultaneous 95 % intervals of"
    " every pairwise gap (Bonferroni over the pairs)",
)
def balance(data: Games) -> Estimate | None:
    seats, total = _seat_wins(data)
    if total == 0 or len(seats) < 2:
        return None
    rates = [w / total for w in seats]
    pairs = [(i, j) for i in range(len(rates)) for j in range(i + 1, len(rates))]
    z = z_for(1 - 0.05 / len(pairs))
    smallest = largest = 0.0
    for i, j in pairs:
        gap = rates[i] - rates[j]
        half = z * math.sqrt(max(0.0, rates[i] + rates[j] - gap * gap) / total)
        low, high = gap - half, gap + half
        smallest = max(smallest, 0.0 if low <= 0 <= high else min(abs(low), abs(high)))
        largest = max(largest, abs(low), abs(high))
    value = 1 - (max(rates) - min(rates))
    return Estimate(value, max(0.0, 1 - largest), 1 - smallest, total)


@metric(
    "first_player_edge",
    "first player's edge",
    "points",
    "the first player's share of the games won alone − 1/players (Wilson interval)",
)
def first_player_edge(data: Games) -> Estimate | None:
    n = data.players
    if n < 2:
        return None
    decided = [g for g in data.games if (w := _sole(g)) is not None and w < n]
    if not decided:
        return None
    first = sum(1 for g in decided if _sole(g) == g.first)
    share = proportion(first, len(decided))
    return Estimate(share.rate - 1 / n, share.low - 1 / n, share.high - 1 / n, len(decided))


@metric(
    "deadlock_rate",
    "deadlocks",
    "share of games",
    "games the engine proved unable to end ÷ games (Wilson interval)",
)
def deadlock_rate(data: Games) -> Estimate | None:
    return _rate(sum(_deadlocked(g) for g in data.games), len(data.games))


@metric(
    "stall_rate",
    "stalls",
    "share of games",
    "games a limit ended without a proven deadlock ÷ games (Wilson interval)",
)
def stall_rate(data: Games) -> Estimate | None:
    stalled = sum(1 for g in data.games if g.stalled and not _deadlocked(g))
    return _rate(stalled, len(data.games))


def _length(g: Any) -> float:
    return float(g.length)


@metric(
    "duration_mean",
    "length",
    "game's unit",
    "the mean game length in the game's unit (turns, rounds, rolls), t interval",
)
def duration_mean(data: Games) -> Estimate | None:
    if not data.games:
        return None
    return mean_estimate([_length(g) for g in data.games])


@metric(
    "duration_sd",
    "length's spread",
    "game's unit",
    "the standard deviation (n − 1) of the game length, chi-square interval",
)
def duration_sd(data: Games) -> Estimate | None:
    if len(data.games) < 2:
        return None
    return sd_estimate([_length(g) for g in data.games])


def _decided_traces(data: Games) -> Iterator[tuple[int, Trace]]:
    for g, trace in data.traces():
        winner = _sole(g)
        if winner is not None and trace.has_standing and winner < len(trace.deficits):
            yield winner, trace


@metric(
    "decisiveness",
    "decisiveness",
    "share of the game",
    "mean over games won alone of (the last point at which the winner was not the sole"
    " leader + 1) ÷ points, a point being each turn's start and the end: how far into the game"
    " the leader goes on to win"
    " (0: the winner led throughout; 1: it took the lead at the end); t interval",
)
def decisiveness(data: Games) -> Estimate | None:
    values = [trace.decided_at(winner) for winner, trace in _decided_traces(data)]
    return mean_estimate(values) if values else None


@metric(
    "drama",
    "drama",
    "standing",
    "mean over games won alone of the winner's largest gap to the leader, in the game's"
    " standing (how far behind the winners were); t interval",
)
def drama(data: Games) -> Estimate | None:
    values = [trace.deficits[winner] for winner, trace in _decided_traces(data)]
    return mean_estimate(values) if values else None


@metric(
    "lead_changes",
    "lead changes",
    "per game",
    "mean over games of the times a side other than the last sole leader became the sole"
    " leader (ties do not count); t interval",
)
def lead_changes(data: Games) -> Estimate | None:
    values = [float(t.lead_changes) for _, t in data.traces() if t.has_standing]
    return mean_estimate(values) if values else None


@metric(
    "branching_factor",
    "branching factor",
    "legal actions",
    "mean over games of the legal actions per decision (chance excluded); t interval",
)
def branching_factor(data: Games) -> Estimate | None:
    values = [t.branching / t.decisions for _, t in data.traces() if t.decisions]
    return mean_estimate(values) if values else None


@metric(
    "decision_moves",
    "decision moves",
    "share of decisions",
    "mean over games of the decisions with more than one legal action ÷ decisions; t interval",
)
def decision_moves(data: Games) -> Estimate | None:
    values = [t.choices / t.decisions for _, t in data.traces() if t.decisions]
    return mean_estimate(values) if values else None


@metric(
    "skill_trace",
    "skill trace",
    "index −1–1",
    "(n·r − 1) ÷ (n − 1) for the strongest bot of the line-up in one seat against random"
    " bots in the others, r its share of the games won alone and n the players (0: skill does"
    " not matter, 1: it always wins); solo: its win rate minus random's; Wilson interval",
)
def skill_trace(data: Games) -> Estimate | None:
    return data.skill


# ---------------------------------------------------------------------------------------------
# The skill index (the skill trace's figure; runarch_gen.play.ladder plays its games)


def skill_index(strong_wins: int, decided: int, players: int) -> tuple[Estimate, float]:
    """The skill index of a bot that won ``strong_wins`` of ``decided`` games (won alone)
    against ``players − 1`` weaker bots: ``(n·r − 1) / (n − 1)`` with its interval from the
    Wilson interval of ``r``, and the p-value of ``r = 1/n``."""
    share = proportion(strong_wins, decided)
    n = players

    def scaled(r: float) -> float:
        return (n * r - 1) / (n - 1)

    return (
        Estimate(scaled(share.rate), scaled(share.low), scaled(share.high), decided),
        binomial_test(strong_wins, decided, 1 / n),
    )


def head_to_head_skill(
    games: Sequence[Any], ladder: Sequence[str], players: int
) -> Estimate | None:
    """The skill index read off games already played, when each of them seats one bot in one
    seat and a weaker bot of ``ladder`` in every other (``simulate --bots greedy,random`` in a
    two-player game): the stronger bot's index as in :func:`skill_index`; ``None`` otherwise."""
    if players < 2 or not games:
        return None
    names = {name for g in games for name in g.bots[:players]}
    if len(names) != 2 or not names <= set(ladder):
        return None
    strong = max(names, key=list(ladder).index)
    if any(sum(name == strong for name in g.bots[:players]) != 1 for g in games):
        return None
    decided = [g for g in games if len(g.winners) == 1 and g.winners[0] < players]
    if not decided:
        return None
    wins = sum(g.bots[g.winners[0]] == strong for g in decided)
    return skill_index(wins, len(decided), players)[0]


# ---------------------------------------------------------------------------------------------
# The set of metrics of a run


@dataclass(frozen=True, slots=True)
class Metrics:
    """Every registered metric of one run, by name (``None``: not measurable here, e.g. the
    lead in a game without a standing)."""

    entries: tuple[tuple[str, Estimate | None], ...]
    length_unit: str = "actions"
    standing: str = ""

    def __getitem__(self, name: str) -> Estimate | None:
        return dict(self.entries)[name]

    def __iter__(self) -> Iterator[str]:
        return (name for name, _ in self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, value in self.entries:
            unit = self.length_unit if METRICS[name].unit == "game's unit" else METRICS[name].unit
            if value is None:
                out[name] = {"value": None, "low": None, "high": None, "n": 0, "unit": unit}
            else:
                out[name] = {**value.to_json(), "unit": unit}
        return out

    def lines(self, lang: str = "en") -> list[str]:
        """One line per metric, for the text reports (in ``lang``: en or cs)."""
        from runarch_gen.play.words import metric_name, unit, word

        out = []
        for name, value in self.entries:
            spec = METRICS[name]
            if value is None:
                text = "-"
            elif spec.unit in ("share of games", "share of decisions", "share of the game"):
                text = value.text(percent=True)
            elif spec.unit == "points":
                text = f"{value.text(points=True, signed=True)} {word(lang, 'points')}"
            elif spec.unit == "game's unit":
                text = f"{value.text()} {unit(lang, self.length_unit)}"
            else:
                text = value.text(digits=3 if abs(value.value) < 10 else 1)
            out.append(f"  {metric_name(lang, name):<20} {text}")
        return out


def compute_metrics(
    games: Sequence[Any],
    sides: Sequence[str],
    *,
    players: int | None = None,
    length_unit: str = "actions",
    skill: Estimate | None = None,
    standing: str = "",
) -> Metrics:
    """Every registered metric of ``games``; ``players`` is the number of sides that take
    decisions (default: every side), ``skill`` the skill trace measured apart."""
    data = Games(
        tuple(games),
        tuple(sides),
        len(sides) if players is None else players,
        length_unit,
        skill,
    )
    values = []
    for name, spec in METRICS.items():
        value = spec.compute(data)
        if value is not None and not math.isfinite(value.value):
            value = None
        values.append((name, _rounded(value)))
    return Metrics(tuple(values), length_unit, standing)


def _rounded(value: Estimate | None) -> Estimate | None:
    if value is None:
        return None

    def r(x: float | None) -> float | None:
        return None if x is None else round(x, 4)

    return Estimate(round(value.value, 4), r(value.low), r(value.high), value.n, value.confidence)
