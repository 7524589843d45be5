"""How a game plays, from simulated games: the half of every simulation report that no game
owns (game-agnostic).

A finished game is boiled down to a :class:`GameResult` — the bot in each seat, who moved
first, its length, why it ended, who won, each side's score and returns, and the game's own
per-game statistics. The functions here aggregate any sequence of such games (a game's own
summary type serves too, if it has the same fields: see :class:`PlayedGame`): endings and
stalls, lengths, scores by seat and by bot, win rates by seat and by bot with 95 % Wilson
intervals, the first player's edge and a head-to-head sign test. :class:`PlayReport` puts
them together with the game's statistics — numbers summarised, texts counted, and per-seat
texts (a character, a colour) turned into win rates by value — as text and JSON.

>>> games = [
...     GameResult(i, ("a", "b") if i % 2 else ("b", "a"), i % 2, 10 + i, "end", False,
...                (i % 2,), (5.0, 3.0), (1.0, -1.0))
...     for i in range(6)
... ]
>>> first_player(games, 2)["first_wins"]
6
>>> wins_by_seat(games, ("white", "black"))["white"].count
3
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from runarch_gen.play.metrics import Metrics, Trace, compute_metrics, head_to_head_skill
from runarch_gen.play.simulate import indices_text
from runarch_gen.play.stats import (
    Estimate,
    Proportion,
    Summary,
    binomial_test,
    proportion,
    summarise,
)

__all__ = [
    "GameResult",
    "PlayReport",
    "PlayedGame",
    "Statistic",
    "endings",
    "first_player",
    "head_to_head",
    "scores_by_bot",
    "scores_by_seat",
    "spread",
    "wins_by_bot",
    "wins_by_seat",
]

Statistic = int | float | str | tuple[int | float | str, ...]
"""A per-game statistic: a number, a text, or one of either per side."""


class PlayedGame(Protocol):
    """What the aggregates read of one game."""

    @property
    def index(self) -> int: ...
    @property
    def bots(self) -> tuple[str, ...]: ...
    @property
    def first(self) -> int: ...
    @property
    def termination(self) -> str: ...
    @property
    def stalled(self) -> bool: ...
    @property
    def winners(self) -> tuple[int, ...]: ...
    @property
    def totals(self) -> tuple[int, ...] | tuple[float, ...]: ...


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game, for reports: ``bots`` per side (a non-player side such as an automa
    by its name), ``first`` the side that moved first, ``length`` in the game's unit,
    ``totals`` each side's final score, ``returns`` the utilities, ``statistics`` the game's
    own figures (:data:`Statistic` values by name), ``deadlocked`` whether the engine proved
    the game could not end, ``trace`` what the design metrics read
    (:class:`~runarch_gen.play.metrics.Trace`)."""

    index: int
    bots: tuple[str, ...]
    first: int
    length: int
    termination: str
    stalled: bool
    winners: tuple[int, ...]
    totals: tuple[float, ...]
    returns: tuple[float, ...]
    statistics: tuple[tuple[str, Statistic], ...] = ()
    sides: tuple[str, ...] = ()
    deadlocked: bool = False
    trace: Trace | None = None


# ---------------------------------------------------------------------------------------------
# Aggregates over any played games


def endings(games: Sequence[PlayedGame]) -> dict[str, int]:
    """How often each end condition fired, by termination name."""
    return dict(sorted(Counter(g.termination for g in games).items()))


def scores_by_seat(games: Sequence[PlayedGame], sides: Sequence[str]) -> dict[str, Summary]:
    """Each side's final score, summarised."""
    return {name: summarise([g.totals[side] for g in games]) for side, name in enumerate(sides)}


def scores_by_bot(games: Sequence[PlayedGame]) -> dict[str, Summary]:
    """Each bot's final scores over every side it played, summarised."""
    values: dict[str, list[float]] = {}
    for g in games:
        for side, name in enumerate(g.bots):
            values.setdefault(name, []).append(g.totals[side])
    return {name: summarise(v) for name, v in sorted(values.items())}


def spread(games: Sequence[PlayedGame]) -> Summary:
    """The winning margin: the best final total minus the second best (for two sides, the
    absolute difference of the totals)."""
    margins = []
    for g in games:
        ranked = sorted(g.totals, reverse=True)
        margins.append(ranked[0] - ranked[1] if len(ranked) > 1 else 0)
    return summarise(margins)


def wins_by_bot(games: Sequence[PlayedGame], exclude: Sequence[str] = ()) -> dict[str, Any]:
    """Per bot: sides played, wins (sole), shared wins, losses, and the win rate with its 95 %
    Wilson interval (a shared win is not a win). Sides named in ``exclude`` are skipped."""
    return _wins_by(games, lambda g, side: g.bots[side], exclude)


def _wins_by(games: Sequence[PlayedGame], key: Any, exclude: Sequence[str] = ()) -> dict[str, Any]:
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    shared: Counter[str] = Counter()
    for g in games:
        for side in range(len(g.bots)):
            name = str(key(g, side))
            if g.bots[side] in exclude:
                continue
            played[name] += 1
            if side in g.winners:
                if len(g.winners) == 1:
                    won[name] += 1
                else:
                    shared[name] += 1
    return {
        name: {
            "sides": played[name],
            "wins": won[name],
            "shared": shared[name],
            "losses": played[name] - won[name] - shared[name],
            "win_rate": proportion(won[name], played[name]),
        }
        for name in sorted(played)
    }


def wins_by_seat(games: Sequence[PlayedGame], sides: Sequence[str]) -> dict[str, Proportion]:
    """How often each side won alone."""
    return {
        name: proportion(sum(g.winners == (side,) for g in games), len(games))
        for side, name in enumerate(sides)
    }


def head_to_head(games: Sequence[PlayedGame], exclude: Sequence[str] = ()) -> dict[str, Any] | None:
    """Two different bots in every game: each one's sole wins, and the exact two-sided binomial
    test of "equally strong" over the games one of them won alone (the sign test). ``None``
    unless exactly two bots (besides ``exclude``) played and never a bot against itself."""
    names = sorted({name for g in games for name in g.bots} - set(exclude))
    if len(names) != 2 or any(len(set(g.bots) - set(exclude)) != 2 for g in games):
        return None
    wins = dict.fromkeys(names, 0)
    for g in games:
        if len(g.winners) == 1 and g.bots[g.winners[0]] in wins:
            wins[g.bots[g.winners[0]]] += 1
    decided = sum(wins.values())
    a = names[0]
    return {
        "bots": names,
        "wins": wins,
        "shared": len(games) - decided,
        "p_value": binomial_test(wins[a], decided),
        "rate": proportion(wins[a], decided),
    }


def first_player(games: Sequence[PlayedGame], sides: int) -> dict[str, Any]:
    """The first player's edge: how often the side that moved first won alone, its 95 %
    interval, and the binomial test against a fair share (one half for two sides, 1/n for n)
    over the games one side won alone."""
    first_wins = sum(g.winners == (g.first,) for g in games)
    decided = sum(len(g.winners) == 1 for g in games)
    return {
        "first_wins": first_wins,
        "second_wins": decided - first_wins,
        "shared": len(games) - decided,
        "rate": proportion(first_wins, len(games)),
        "rate_of_decided": proportion(first_wins, decided),
        "p_value": binomial_test(first_wins, decided, 1 / max(sides, 1)),
    }


# ---------------------------------------------------------------------------------------------
# The report


def _r(x: float, digits: int = 3) -> float:
    return round(x, digits)


@dataclass(frozen=True, slots=True)
class PlayReport:
    """How a game plays: the aggregate of simulated games, in game order (so it is the same for
    any number of workers). ``to_json()`` is the whole report, ``summary()`` a text table."""

    game: str
    bots: tuple[str, ...]
    seed: int
    requested: int
    sides: tuple[str, ...]
    length_unit: str
    interrupted: bool
    results: tuple[GameResult, ...] = field(repr=False)
    exclude: tuple[str, ...] = ()
    ladder: tuple[str, ...] = ()
    """The game's ladder of bots, weakest first (for the skill trace of a head-to-head run)."""

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def stalls(self) -> int:
        return sum(g.stalled for g in self.results)

    @property
    def deadlocks(self) -> int:
        """Games the engine proved could not end (counted among the stalls too)."""
        return sum(g.deadlocked for g in self.results)

    @property
    def players(self) -> int:
        """The sides that take decisions (the others, e.g. an automa, are in ``exclude``)."""
        return len(self.sides) - len(self.exclude)

    @property
    def finished(self) -> tuple[GameResult, ...]:
        return tuple(g for g in self.results if not g.stalled)

    def metrics(self, skill: Estimate | None = None) -> Metrics:
        """The design metrics of these games (:mod:`runarch_gen.play.metrics`); ``skill`` is
        the skill trace when it was measured by games of its own, else the one these games give
        when they seat a stronger bot of the ladder against weaker ones
        (:func:`~runarch_gen.play.ladder.head_to_head_skill`)."""
        if skill is None:
            skill = head_to_head_skill(self.results, self.ladder, self.players)
        return compute_metrics(
            self.results,
            self.sides,
            players=self.players,
            length_unit=self.length_unit,
            skill=skill,
        )

    def lengths(self) -> Summary:
        return summarise([g.length for g in self.results])

    def numbers(self) -> dict[str, Summary]:
        """Each numeric statistic summarised over the games (per-side ones over every side)."""
        values: dict[str, list[float]] = {}
        for g in self.results:
            for name, value in g.statistics:
                items = value if isinstance(value, tuple) else (value,)
                for item in items:
                    if isinstance(item, (int, float)) and not isinstance(item, bool):
                        values.setdefault(name, []).append(item)
        return {name: summarise(v) for name, v in sorted(values.items())}

    def texts(self) -> dict[str, dict[str, int]]:
        """Each text statistic of the game as a whole: how often each value came up."""
        counts: dict[str, Counter[str]] = {}
        for g in self.results:
            for name, value in g.statistics:
                if isinstance(value, str):
                    counts.setdefault(name, Counter())[value] += 1
        return {name: dict(sorted(c.items())) for name, c in sorted(counts.items())}

    def wins_by_value(self) -> dict[str, dict[str, Any]]:
        """Per per-side text statistic (a character, a colour …): win rates by its value."""
        keys = sorted(
            {
                name
                for g in self.results
                for name, value in g.statistics
                if isinstance(value, tuple) and value and all(isinstance(v, str) for v in value)
            }
        )
        out: dict[str, dict[str, Any]] = {}
        for key in keys:

            def value_of(g: GameResult, side: int, key: str = key) -> str:
                return str(dict(g.statistics)[key][side])  # type: ignore[index]

            out[key] = _wins_by(self.results, value_of, self.exclude)
        return out

    def to_json(self) -> dict[str, Any]:
        head = head_to_head(self.results, self.exclude)
        first = first_player(self.results, len(self.sides))
        return {
            "game": self.game,
            "bots": list(self.bots),
            "seed": self.seed,
            "requested": self.requested,
            "games": self.games,
            "interrupted": self.interrupted,
            "finished_games": indices_text([g.index for g in self.results])
            if self.interrupted
            else None,
            "stalls": self.stalls,
            "deadlocks": self.deadlocks,
            "stall_rate": proportion(self.stalls, self.games).to_json(),
            "endings": endings(self.results),
            "length": {"unit": self.length_unit, **self.lengths().to_json()},
            "scores": {
                "by_seat": {
                    k: v.to_json() for k, v in scores_by_seat(self.results, self.sides).items()
                },
                "by_bot": {k: v.to_json() for k, v in scores_by_bot(self.results).items()},
                "spread": spread(self.results).to_json(),
            },
            "wins": {
                "by_bot": _json_rows(wins_by_bot(self.results, self.exclude)),
                "by_seat": {
                    k: v.to_json() for k, v in wins_by_seat(self.results, self.sides).items()
                },
                "by_value": {k: _json_rows(v) for k, v in self.wins_by_value().items()},
                "head_to_head": None
                if head is None
                else {**head, "p_value": _r(head["p_value"], 6), "rate": head["rate"].to_json()},
            },
            "first_player": {
                **first,
                "rate": first["rate"].to_json(),
                "rate_of_decided": first["rate_of_decided"].to_json(),
                "p_value": _r(first["p_value"], 6),
            },
            "statistics": {
                "numbers": {k: v.to_json() for k, v in self.numbers().items()},
                "texts": self.texts(),
            },
            "metrics": self.metrics().to_json(),
        }

    def summary(self, lang: str = "en", title: str | None = None) -> str:
        """The report as a text table for the terminal: its frame in ``lang`` (en, cs), the
        game named by ``title`` if given; the game's statistics under the game's names."""
        from runarch_gen.play.words import named, unit, word

        def w(key: str, **values: Any) -> str:
            return word(lang, key, **values)

        lines: list[str] = []
        add = lines.append
        status = w("report_interrupted") if self.interrupted else ""
        add(
            w(
                "report_head",
                game=named(self.game, title),
                games=self.games,
                requested=self.requested,
                status=status,
                bots=", ".join(self.bots),
                seed=self.seed,
            )
        )
        stall_rate = proportion(self.stalls, self.games)
        add(w("ended", ended=self.games - self.stalls, rate=stall_rate.text()))
        add(w("endings") + ", ".join(f"{k} {v}" for k, v in endings(self.results).items()))
        add(f"{unit(lang, self.length_unit)}: {self.lengths().text(lang=lang)}")
        add("")
        add(f"{w('final_score'):<22} {w('spread_columns')}")
        for name, summary in scores_by_seat(self.results, self.sides).items():
            add(f"  {name:<20} {summary.text(lang=lang)}")
        by_bot = scores_by_bot(self.results)
        if len(by_bot) > 1:
            for name, summary in by_bot.items():
                add(f"  {w('bot', name=name):<20} {summary.text(lang=lang)}")
        add(f"  {w('margin'):<20} {spread(self.results).text(lang=lang)}")
        add("")
        add(f"{w('wins'):<22} {w('rate_columns')}")
        for name, row in wins_by_bot(self.results, self.exclude).items():
            add(_win_line(name, row, lang))
        for name, rate in wins_by_seat(self.results, self.sides).items():
            add(f"  {w('seat', name=name):<20} {rate.text()}")
        for key, rows in self.wins_by_value().items():
            for value, row in rows.items():
                add(_win_line(f"{key} {value}", row, lang))
        head = head_to_head(self.results, self.exclude)
        if head is not None:
            a, b = head["bots"]
            add(
                "  "
                + w(
                    "head_to_head",
                    a=a,
                    b=b,
                    wa=head["wins"][a],
                    wb=head["wins"][b],
                    shared=head["shared"],
                    p=f"{head['p_value']:.2g}",
                )
            )
        first = first_player(self.results, len(self.sides))
        line = w(
            "first_line",
            rate=first["rate"].text(),
            won=first["first_wins"],
            lost=first["second_wins"],
            p=f"{first['p_value']:.2g}",
        )
        add(f"  {w('first_player'):<20} {line}")
        numbers = self.numbers()
        if numbers:
            add("")
            add(f"{w('per_game'):<22} {w('spread_columns')}")
            for name, summary in numbers.items():
                add(f"  {name:<20} {summary.text(2, lang)}")
        for name, counts in self.texts().items():
            add(f"{name}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
        add("")
        add(f"{w('design_metrics'):<22} {w('value_columns')}")
        lines += self.metrics().lines(lang)
        return "\n".join(lines)


def _win_line(name: str, row: Mapping[str, Any], lang: str = "en") -> str:
    from runarch_gen.play.words import word

    line = word(
        lang,
        "win_line",
        rate=row["win_rate"].text(),
        wins=row["wins"],
        shared=row["shared"],
        losses=row["losses"],
        sides=row["sides"],
    )
    return f"  {name:<20} {line}"


def _json_rows(rows: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    return {name: {**row, "win_rate": row["win_rate"].to_json()} for name, row in rows.items()}
