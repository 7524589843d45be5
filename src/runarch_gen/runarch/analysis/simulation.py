"""Simulated RunArch games between bots, and the report of how a set plays (RULES.md §9.3).

:func:`simulate` plays ``games`` games of one rules variant on one board and deck between the
named bots, across worker processes (:mod:`runarch_gen.play.simulate`): game *i* is dealt from
a seed derived from the master seed and *i*, and in two-player games the bots change seats
every game (white in even games is black in odd ones), so each bot plays both seats equally
often. Each game is boiled down to a :class:`GameSummary`; the :class:`SimulationReport`
aggregates them in game order, so it is identical for any number of workers.

>>> from runarch_gen.runarch.engine.sample import sample_board, sample_deck
>>> from runarch_gen.runarch.rules import parse_rules
>>> report = simulate(rules=parse_rules("simple"), board=sample_board(), deck=sample_deck(),
...                   bots=["greedy"], games=4, seed=1, workers=1)
>>> report.games, report.stalls, report.deadlocks, report.interrupted
(4, 0, 0, False)
"""

from __future__ import annotations

import gc
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from runarch_gen.errors import InputError
from runarch_gen.play import report
from runarch_gen.play.design import design_of
from runarch_gen.play.metrics import Metrics, Trace, compute_metrics, head_to_head_skill
from runarch_gen.play.playtest import play_seats_traced
from runarch_gen.play.simulate import indices_text, run_games
from runarch_gen.play.stats import (
    Estimate,
    Proportion,
    Summary,
    proportion,
    summarise,
)
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.bots import BOTS
from runarch_gen.runarch.decks.cards import Deck, Goal
from runarch_gen.runarch.design import NAME as RUNARCH
from runarch_gen.runarch.engine import RunArchGame
from runarch_gen.runarch.engine.scoring import settle_archive_bet, settle_goal_bet
from runarch_gen.runarch.rules import RulesConfig

__all__ = [
    "AUTOMA",
    "BetSummary",
    "GameSummary",
    "PlaytestSet",
    "SimulationReport",
    "check_bots",
    "playtest_set",
    "seat_bots",
    "simulate",
]

AUTOMA = "automa"
"""The name the reports give the solo game's automa (RULES §8), which is not a bot."""


# ---------------------------------------------------------------------------------------------
# One game


@dataclass(frozen=True, slots=True)
class BetSummary:
    """One bet settled at the end: on an archive (``cards`` 2–5) or a public goal (``cards``
    0), gold or silver, won or lost, and the points it gave."""

    kind: str  # "archive 3" or "public goal"
    gold: bool
    won: bool
    points: int

    @property
    def label(self) -> str:
        return f"{'gold' if self.gold else 'silver'} on {self.kind}"


@dataclass(frozen=True, slots=True)
class GameSummary:
    """What a report needs of one game, per side (0 white or the solo player, 1 black or the
    automa). Goals are identified by their text; cards by their printed id."""

    index: int
    bots: tuple[str, str]
    first: int
    turns: int
    termination: str
    stalled: bool
    winners: tuple[int, ...]
    totals: tuple[int, int]
    parts: tuple[tuple[tuple[str, int], ...], ...]
    bests: tuple[int, int]
    scored: tuple[tuple[tuple[int, int], ...], ...]  # per side: (card id, card score)
    placed: tuple[int, int]
    goals_met: tuple[frozenset[str], frozenset[str]]  # every goal of the deck the archives meet
    secret: tuple[tuple[str, bool] | None, tuple[str, bool] | None]
    public: tuple[str, ...]  # the public goals laid out
    bets: tuple[tuple[BetSummary, ...], tuple[BetSummary, ...]]
    bet_tokens_discarded: int
    trace: Trace | None = None

    @property
    def length(self) -> int:
        """The game's length for the design metrics: its turns."""
        return self.turns

    @property
    def deadlocked(self) -> bool:
        return self.deadlock

    @property
    def rounds(self) -> int:
        """Rounds played: a round is a turn of each side (the last may be half)."""
        return math.ceil(self.turns / 2)

    @property
    def deadlock(self) -> bool:
        return self.termination == "deadlock"


def seat_bots(bots: Sequence[str], index: int, solo: bool) -> tuple[str, str]:
    """The bots of game ``index``: in two-player games the two bots change seats every game;
    in the solo game one bot plays the automa, several take turns game by game.

    >>> seat_bots(["greedy", "lookahead"], 0, False), seat_bots(["greedy", "lookahead"], 1, False)
    (('greedy', 'lookahead'), ('lookahead', 'greedy'))
    >>> seat_bots(["greedy"], 3, False), seat_bots(["greedy", "random"], 3, True)
    (('greedy', 'greedy'), ('random', 'automa'))
    """
    if solo:
        return bots[index % len(bots)], AUTOMA
    if len(bots) == 1:
        return bots[0], bots[0]
    first, second = bots[0], bots[1]
    return (first, second) if index % 2 == 0 else (second, first)


@dataclass(frozen=True, slots=True)
class _Task:
    rules: RulesConfig
    board: Board
    deck: Deck
    bots: tuple[str, ...]
    standing: Callable[[Any], Sequence[float]] | None = None
    turn: Callable[[Any], int] | None = None


_GAMES: dict[int, tuple[_Task, RunArchGame, tuple[tuple[str, Goal], ...]]] = {}


def _game_of(task: _Task) -> tuple[RunArchGame, tuple[tuple[str, Goal], ...]]:
    # One game object per process and task: its tables are built once, then shared by every
    # game this process plays.
    entry = _GAMES.get(id(task))
    if entry is None or entry[0] is not task:
        game = RunArchGame(task.rules, task.board, task.deck)
        goals = tuple({card.goal.text: card.goal for card in task.deck}.items())  # text, goal
        _GAMES.clear()
        entry = _GAMES[id(task)] = (task, game, goals)
    return entry[1], entry[2]


def play_game(task: _Task, index: int, seed: int) -> GameSummary:
    """Play game ``index`` of a simulation with ``seed`` and summarise it (runs in a worker)."""
    game, goals = _game_of(task)
    names = seat_bots(task.bots, index, game.solo)
    state, trace = play_seats_traced(  # the family's seeding
        game, BOTS, names[: game.num_players], seed, task.standing, task.turn
    )
    outcome = state.outcome()
    assert outcome is not None
    cards = game.cards
    goals_met: list[frozenset[str]] = []
    secret: list[tuple[str, bool] | None] = []
    bets: list[tuple[BetSummary, ...]] = []
    for side in (0, 1):
        position = state.final_position(side)
        matches = [piece for archive in position.archives for piece in archive]
        met = frozenset(text for text, goal in goals if goal.is_met(matches))
        goals_met.append(met)
        secret.append(
            (position.secret.text, position.secret.text in met)
            if position.secret is not None and not (game.solo and side == 1)
            else None
        )
        counts = [len(archive) for archive in position.archives] or [0, 0, 0]
        side_bets = [
            BetSummary(
                f"archive {bet.cards}",
                bet.gold,
                counts[bet.archive] == bet.cards,
                settle_archive_bet(
                    gold=bet.gold, bet_on=bet.cards, held=counts[bet.archive], best=position.best
                ),
            )
            for bet in position.archive_bets
        ]
        side_bets += [
            BetSummary(
                "public goal",
                bet.gold,
                bet.goal.text in met,
                settle_goal_bet(
                    gold=bet.gold,
                    met=bet.goal.text in met,
                    reward=bet.goal.reward,
                    best=position.best,
                ),
            )
            for bet in position.goal_bets
        ]
        bets.append(tuple(side_bets))
    return GameSummary(
        index=index,
        bots=names,
        first=state.setup.first,
        turns=state.turn,
        termination=outcome.termination.value,
        stalled=outcome.stalled,
        winners=outcome.winners,
        totals=(outcome.totals[0], outcome.totals[1]),
        parts=tuple(score.parts for score in outcome.scores),
        bests=(state.bests[0], state.bests[1]),
        scored=tuple(tuple((cards[k].id, points) for k, points in s) for s in state.scored),
        placed=(state.placed[0], state.placed[1]),
        goals_met=(goals_met[0], goals_met[1]),
        secret=(secret[0], secret[1]),
        public=tuple(cards[k].goal.text for k in state.public),
        bets=(bets[0], bets[1]),
        bet_tokens_discarded=state.discarded_bets,
        trace=trace,
    )


# ---------------------------------------------------------------------------------------------
# The report


def _r(x: float, digits: int = 3) -> float:
    return round(x, digits)


@dataclass(frozen=True, slots=True)
class SimulationReport:
    """How a set plays under one rules variant: the aggregate of simulated games.

    ``games`` counts the games played (all of them unless ``interrupted``); ``stalls`` every
    game that did not end by the rules ([R-18] stall guard *and* deadlocks), ``deadlocks``
    those the engine ended because neither side could ever score again. ``to_json()`` is the
    full report, ``summary()`` a text table.
    """

    rules: str
    bots: tuple[str, ...]
    seed: int
    requested: int
    games: int
    stalls: int
    deadlocks: int
    interrupted: bool
    summaries: tuple[GameSummary, ...] = field(repr=False)
    deck_goals: tuple[tuple[str, tuple[int, ...], int], ...] = field(repr=False, default=())
    deck_cards: tuple[int, ...] = field(repr=False, default=())
    sides: tuple[str, str] = ("white", "black")

    # -- counts ---------------------------------------------------------------------------
    @property
    def finished(self) -> tuple[GameSummary, ...]:
        """The games that ended by the rules (not stalled, not deadlocked)."""
        return tuple(g for g in self.summaries if not g.stalled)

    @property
    def stall_rate(self) -> Proportion:
        return proportion(self.stalls, self.games)

    @property
    def deadlock_rate(self) -> Proportion:
        return proportion(self.deadlocks, self.games)

    def endings(self) -> dict[str, int]:
        """How often each end condition fired, by termination name."""
        return report.endings(self.summaries)

    def turns(self) -> Summary:
        return summarise([g.turns for g in self.summaries])

    def rounds(self) -> Summary:
        return summarise([g.rounds for g in self.summaries])

    def scores_by_seat(self) -> dict[str, Summary]:
        return report.scores_by_seat(self.summaries, self.sides)

    def scores_by_bot(self) -> dict[str, Summary]:
        return report.scores_by_bot(self.summaries)

    def spread(self) -> Summary:
        """The winning margin: the absolute difference of the two final totals."""
        return report.spread(self.summaries)

    def parts_by_bot(self) -> dict[str, dict[str, float]]:
        """Mean points per part of the final score (cards, duel, bets, goals …), per bot."""
        sums: dict[str, Counter[str]] = {}
        counts: Counter[str] = Counter()
        for g in self.summaries:
            for side in (0, 1):
                name = g.bots[side]
                counts[name] += 1
                bucket = sums.setdefault(name, Counter())
                for part, points in g.parts[side]:
                    bucket[part] += points
        return {
            name: {part: _r(total / counts[name], 2) for part, total in sums[name].items()}
            for name in sorted(sums)
        }

    def wins_by_bot(self) -> dict[str, dict[str, Any]]:
        """Per bot (the automa too): sides played, wins (sole), shared wins, losses, and the
        win rate with its 95 % Wilson interval (a shared win is not a win)."""
        return report.wins_by_bot(self.summaries)

    def wins_by_seat(self) -> dict[str, Proportion]:
        return report.wins_by_seat(self.summaries, self.sides)

    def head_to_head(self) -> dict[str, Any] | None:
        """Two different bots facing each other: each one's sole wins, and the exact two-sided
        binomial test of "equally strong" over the games one of them won alone (the sign
        test); ``None`` otherwise (the solo game's bots face the automa, not each other)."""
        return report.head_to_head(self.summaries, (AUTOMA,))

    def first_player(self) -> dict[str, Any]:
        """First-player advantage: how often the side that moved first won alone, its 95 %
        interval, and the binomial test against one half over games won by one side."""
        return report.first_player(self.summaries, 2)

    @property
    def players(self) -> int:
        """The sides that take decisions: 1 in the solo game (the automa is not a player)."""
        return 1 if self.sides[1] == AUTOMA else 2

    def metrics(self, skill: Estimate | None = None) -> Metrics:
        """The design metrics of these games (:mod:`runarch_gen.play.metrics`), in turns;
        ``skill`` is the skill trace when it was measured by games of its own, else the one
        these games give when they seat a stronger bot against a weaker one."""
        if skill is None:
            skill = head_to_head_skill(self.summaries, design_of(RUNARCH).ladder, self.players)
        return compute_metrics(
            self.summaries,
            self.sides,
            players=self.players,
            length_unit="turns",
            skill=skill,
            standing="points over 100",
        )

    def cards(self) -> list[dict[str, Any]]:
        """Per card of the deck: how often it was scored, per game and in all, and its mean
        card score when scored."""
        times: Counter[int] = Counter()
        points: Counter[int] = Counter()
        for g in self.summaries:
            for side in (0, 1):
                for card, score in g.scored[side]:
                    times[card] += 1
                    points[card] += score
        return [
            {
                "card": card,
                "scored": times[card],
                "per_game": _r(times[card] / self.games) if self.games else 0.0,
                "mean_score": _r(points[card] / times[card], 2) if times[card] else None,
            }
            for card in self.deck_cards
        ]

    def goals(self) -> list[dict[str, Any]]:
        """Per goal of the deck (by text): the cards that carry it and its reward; how often a
        player's final archives met it over the games that ended by the rules (``met``, the
        rate :func:`goal_rates` gives calibration); how often it was a secret goal and met as
        one; how often it lay out as a public goal."""
        finished = self.finished
        secret_held: Counter[str] = Counter()
        secret_met: Counter[str] = Counter()
        public: Counter[str] = Counter()
        met: Counter[str] = Counter()
        players = 0
        for g in finished:
            for side in self._player_sides():
                players += 1
                for text in g.goals_met[side]:
                    met[text] += 1
        for g in self.summaries:
            for entry in g.secret:
                if entry is not None:
                    secret_held[entry[0]] += 1
                    secret_met[entry[0]] += entry[1]
            for text in g.public:
                public[text] += 1
        return [
            {
                "goal": text,
                "cards": list(cards),
                "reward": reward,
                "met": proportion(met[text], players),
                "secret": {"held": secret_held[text], "met": secret_met[text]},
                "public": public[text],
            }
            for text, cards, reward in self.deck_goals
        ]

    def goal_rates(self) -> dict[str, float]:
        """Goal text → the rate at which players' final archives met it in games that ended
        by the rules (for :class:`~runarch_gen.runarch.decks.goals.MeasuredOdds`); empty when no
        game ended by the rules."""
        return {
            entry["goal"]: entry["met"].rate for entry in self.goals() if entry["met"].total > 0
        }

    def _player_sides(self) -> tuple[int, ...]:
        return (0,) if self.sides[1] == AUTOMA else (0, 1)

    def bets(self) -> list[dict[str, Any]]:
        """Per bet kind (target and token): placed, won, lost, and the mean points."""
        placed: Counter[str] = Counter()
        won: Counter[str] = Counter()
        points: Counter[str] = Counter()
        for g in self.summaries:
            for side in (0, 1):
                for bet in g.bets[side]:
                    placed[bet.label] += 1
                    won[bet.label] += bet.won
                    points[bet.label] += bet.points

        def order(label: str) -> tuple[int, str]:
            return (label.endswith("public goal"), label.split(" on ")[1] + label)

        return [
            {
                "kind": label,
                "placed": placed[label],
                "won": won[label],
                "lost": placed[label] - won[label],
                "win_rate": proportion(won[label], placed[label]),
                "mean_points": _r(points[label] / placed[label], 2),
            }
            for label in sorted(placed, key=order)
        ]

    def cards_placed(self) -> Summary:
        return summarise([g.placed[side] for g in self.summaries for side in self._player_sides()])

    def cards_scored(self) -> Summary:
        return summarise(
            [len(g.scored[side]) for g in self.summaries for side in self._player_sides()]
        )

    def best_cards(self) -> Summary:
        return summarise([g.bests[side] for g in self.summaries for side in (0, 1)])

    # -- output ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The whole report as JSON-ready data (rates rounded to 4 places, the rest to 3)."""
        head = self.head_to_head()
        first = self.first_player()
        return {
            "rules": self.rules,
            "bots": list(self.bots),
            "seed": self.seed,
            "requested": self.requested,
            "games": self.games,
            "interrupted": self.interrupted,
            "finished_games": indices_text([g.index for g in self.summaries])
            if self.interrupted
            else None,
            "stalls": self.stalls,
            "deadlocks": self.deadlocks,
            "stall_rate": self.stall_rate.to_json(),
            "deadlock_rate": self.deadlock_rate.to_json(),
            "endings": self.endings(),
            "length": {"turns": self.turns().to_json(), "rounds": self.rounds().to_json()},
            "scores": {
                "by_seat": {k: v.to_json() for k, v in self.scores_by_seat().items()},
                "by_bot": {k: v.to_json() for k, v in self.scores_by_bot().items()},
                "spread": self.spread().to_json(),
                "parts_by_bot": self.parts_by_bot(),
                "best_card": self.best_cards().to_json(),
                "cards_scored": self.cards_scored().to_json(),
                "cards_placed": self.cards_placed().to_json(),
            },
            "wins": {
                "by_bot": {
                    name: {**row, "win_rate": row["win_rate"].to_json()}
                    for name, row in self.wins_by_bot().items()
                },
                "by_seat": {k: v.to_json() for k, v in self.wins_by_seat().items()},
                "head_to_head": None
                if head is None
                else {
                    **head,
                    "p_value": _r(head["p_value"], 6),
                    "rate": head["rate"].to_json(),
                },
            },
            "first_player": {
                **first,
                "rate": first["rate"].to_json(),
                "rate_of_decided": first["rate_of_decided"].to_json(),
                "p_value": _r(first["p_value"], 6),
            },
            "cards": self.cards(),
            "goals": [{**row, "met": row["met"].to_json()} for row in self.goals()],
            "bets": [{**row, "win_rate": row["win_rate"].to_json()} for row in self.bets()],
            "bet_tokens_discarded": sum(g.bet_tokens_discarded for g in self.summaries),
            "metrics": self.metrics().to_json(),
        }

    def summary(self) -> str:
        """The report as a text table for the terminal."""
        lines: list[str] = []
        add = lines.append
        status = " (interrupted)" if self.interrupted else ""
        add(
            f"{self.rules}: {self.games} of {self.requested} games{status},"
            f" bots {', '.join(self.bots)}, seed {self.seed}"
        )
        add(
            f"ended by the rules: {self.games - self.stalls}; stalled: {self.stall_rate.text()},"
            f" of which deadlocked: {self.deadlocks}"
        )
        add("endings: " + ", ".join(f"{k} {v}" for k, v in self.endings().items()))
        add(f"turns:  {self.turns().text()}")
        add(f"rounds: {self.rounds().text()}")
        add("")
        add(f"{'final score':<22} {'mean ± sd (median, 10–90 %, min–max)'}")
        for name, summary in self.scores_by_seat().items():
            add(f"  {name:<20} {summary.text()}")
        if len(self.scores_by_bot()) > 1:
            for name, summary in self.scores_by_bot().items():
                add(f"  {'bot ' + name:<20} {summary.text()}")
        add(f"  {'margin':<20} {self.spread().text()}")
        add(f"  {'best card':<20} {self.best_cards().text()}")
        add(f"  {'cards scored':<20} {self.cards_scored().text()}")
        parts = self.parts_by_bot()
        for name, means in parts.items():
            add(f"  parts, {name}: " + ", ".join(f"{k} {v:g}" for k, v in means.items()))
        add("")
        add(f"{'wins':<22} {'rate (95 % interval)'}")
        for name, row in self.wins_by_bot().items():
            add(
                f"  {name:<20} {row['win_rate'].text()}: {row['wins']} won,"
                f" {row['shared']} shared, {row['losses']} lost of {row['sides']}"
            )
        for name, rate in self.wins_by_seat().items():
            add(f"  {'seat ' + name:<20} {rate.text()}")
        head = self.head_to_head()
        if head is not None:
            a, b = head["bots"]
            add(
                f"  {a} against {b}: {head['wins'][a]}–{head['wins'][b]}"
                f" ({head['shared']} shared), p = {head['p_value']:.2g} (two-sided sign test)"
            )
        first = self.first_player()
        add(
            f"  {'first player':<20} {first['rate'].text()}: {first['first_wins']} won,"
            f" {first['second_wins']} lost, p = {first['p_value']:.2g}"
        )
        bets = self.bets()
        if bets:
            add("")
            add(f"{'bets':<22} {'placed':>6} {'won':>12} {'mean points':>12}")
            for row in bets:
                add(
                    f"  {row['kind']:<20} {row['placed']:>6} {row['win_rate'].text():>24}"
                    f" {row['mean_points']:>+8.1f}"
                )
        goals = [row for row in self.goals() if row["met"].total]
        if goals:
            add("")
            add(f"{'goals':<30} {'reward':>6}  met by a player's archives   secret: met/held")
            for row in goals:
                secret = row["secret"]
                add(
                    f"  {row['goal']:<28} {row['reward']:>6}  {row['met'].text():<26}"
                    f"   {secret['met']}/{secret['held']}"
                )
        cards = self.cards()
        if cards and self.games:
            ranked = sorted(cards, key=lambda row: (-row["scored"], row["card"]))
            add("")
            top = ", ".join(f"{r['card']} ({r['per_game']:.2f})" for r in ranked[:5])
            bottom = ", ".join(f"{r['card']} ({r['per_game']:.2f})" for r in ranked[-5:])
            add(f"cards scored per game: most {top}; least {bottom}")
        add("")
        add(f"{'design metrics':<22} value (95 % interval)")
        lines += self.metrics().lines()
        return "\n".join(lines)


def build_report(
    summaries: Sequence[GameSummary],
    *,
    rules: RulesConfig,
    deck: Deck,
    bots: Sequence[str],
    seed: int,
    requested: int,
    interrupted: bool,
) -> SimulationReport:
    """Aggregate per-game summaries (in game order) into a :class:`SimulationReport`."""
    goals: dict[str, tuple[list[int], int]] = {}
    for card in deck:
        entry = goals.setdefault(card.goal.text, ([], card.goal.reward))
        entry[0].append(card.id)
    solo = rules.has_automa
    return SimulationReport(
        rules=str(rules),
        bots=tuple(bots),
        seed=seed,
        requested=requested,
        games=len(summaries),
        stalls=sum(g.stalled for g in summaries),
        deadlocks=sum(g.deadlock for g in summaries),
        interrupted=interrupted,
        summaries=tuple(summaries),
        deck_goals=tuple(
            (text, tuple(ids), reward) for text, (ids, reward) in sorted(goals.items())
        ),
        deck_cards=tuple(card.id for card in deck),
        sides=("player", AUTOMA) if solo else ("white", "black"),
    )


@dataclass(frozen=True, slots=True)
class PlaytestSet:
    """The board and deck a simulation plays, and where each came from (a file, or generated
    from the seed)."""

    board: Board
    deck: Deck
    board_source: str
    deck_source: str


def playtest_set(seed: int, board: str | None = None, deck: str | None = None) -> PlaytestSet:
    """The board in file ``board`` and the deck in file ``deck``; either one missing is
    generated from ``seed`` (a valid board [B-1]; a balanced deck of 50 cards)."""
    from runarch_gen.runarch.sets import load_set_parts

    parts = load_set_parts(board, deck, seed=seed)
    board_source = parts.board_file or f"generated, seed {seed}"
    deck_source = parts.deck_file or f"generated, {len(parts.deck)} cards, seed {seed}"
    return PlaytestSet(parts.board, parts.deck, board_source, deck_source)


def check_bots(bots: Sequence[str], rules: RulesConfig) -> tuple[str, ...]:
    """The bot names, normalised; :class:`InputError` for unknown names or a wrong count."""
    names = tuple(name.strip().lower() for name in bots)
    if not names:
        raise InputError("name at least one bot: " + ", ".join(BOTS))
    for name in names:
        if name not in BOTS:
            raise InputError(f"unknown bot {name!r}: expected one of {', '.join(BOTS)}")
    if not rules.has_automa and len(names) > 2:
        raise InputError(f"a two-player game takes one or two bots, not {len(names)}")
    return names


def simulate(
    *,
    rules: RulesConfig,
    board: Board,
    deck: Deck,
    bots: Sequence[str],
    games: int,
    seed: int,
    workers: int | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> SimulationReport:
    """Play ``games`` games of ``rules`` on ``board`` with ``deck`` between ``bots`` and report.

    ``bots``: one name (both seats) or two (they change seats every game); in the solo game
    each name plays the automa in turn. ``workers``: processes (default: all cores; the report
    does not depend on it). ``on_progress(n)`` is told of every ``n`` games finished; if it, or
    Ctrl-C, raises :class:`KeyboardInterrupt`, the games finished so far are reported with
    ``interrupted`` set. Raises :class:`InputError` for unknown bots, fewer than one game or
    worker, or a deck too small to set up.
    """
    if games < 1:
        raise InputError(f"games must be at least 1, not {games}")
    if workers is not None and workers < 1:
        raise InputError(f"workers must be at least 1, not {workers}")
    names = check_bots(bots, rules)
    RunArchGame(rules, board, deck)  # fails early, with its message, on a deck too small
    design = design_of(RUNARCH)
    task = _Task(rules, board, deck, names, design.standing, design.turn)
    # The games make many short-lived objects, and the collector's full passes would walk every
    # object loaded so far (modules, the game's tables) again and again: frozen, they are
    # skipped (the games are the same either way). Left alone when someone else froze them.
    freeze = gc.get_freeze_count() == 0
    if freeze:
        gc.freeze()
    try:
        run = run_games(
            play_game, task, games=games, seed=seed, workers=workers, on_progress=on_progress
        )
    finally:
        if freeze:
            gc.unfreeze()
    return build_report(
        run.results,
        rules=rules,
        deck=deck,
        bots=names,
        seed=seed,
        requested=games,
        interrupted=run.interrupted,
    )
