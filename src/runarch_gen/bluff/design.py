"""Bluff's verdicts: its ladder of bots, the line-up ``validate`` plays, its standing and its
own findings — the betting scale and the variants (see :mod:`runarch_gen.play.design`).

- **Ladder**: ``random`` < ``odds`` < ``bayes`` (``bench/bench_ladder.py`` ranks each against
  the next).
- **Line-up**: ``bayes`` and ``odds``. ``bayes`` against itself is degenerate: every bayes
  reads the others' bids the same way, games end in 8.1 rounds and the doubter is right 89 %
  of the time (200 games at four seats, ``bench/bench_ladder.py --line-ups 200``); against
  ``odds`` games last 17.0 rounds and the doubter is right 48 % of the time.
- **Standing**: each player's dice ÷ the dice each started with (the last player with dice
  wins).
- **scale** [L-04]: the scale prices a star field ★k between the number fields 2k−1 and 2k.
  If that is right, a doubted star bid holds about as often as a doubted number bid; the test
  compares the two (Newcombe's interval of the difference, a two-proportion test), a finding
  past ten points.
- **variant** [L-09, L-11–L-13]: when the rules turn a variant on (``variant=original``,
  ``exact=all``, ``reroll=on`` …), the same games are played with those options at the seed's
  defaults, and the family compares the two: the game's length (Welch's t-test; a finding past
  a tenth of the seed's length), the first player's share of the wins and the line-up's
  strongest bot's share (two-proportion tests; past five points).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Mapping
from typing import Any

from runarch_gen.play.balance import MARGIN, Comparison, Finding, judge
from runarch_gen.play.design import Design
from runarch_gen.play.stats import (
    mean_difference,
    proportion,
    rate_difference,
    two_proportion_test,
)

__all__ = [
    "DESIGN",
    "SCALE_MARGIN",
    "VARIANT_OPTIONS",
    "bluff_findings",
    "standing",
    "variant_tests",
]

VARIANT_OPTIONS: Mapping[str, Any] = {
    "variant": "seed",
    "exact": "give",
    "opener": "winner",
    "reroll": False,
    "cap": False,
}
"""The options the variants turn on, at the seed's defaults."""

SCALE_MARGIN = 0.10
"""How far apart (in points) doubted star and number bids must hold to make a finding."""


def standing(state: Any) -> tuple[float, ...]:
    """Each player's dice as a share of the dice each started with."""
    start = state.game.start or 1
    return tuple(d / start for d in state.dice)


def scale_tests(played: Any) -> list[Comparison]:
    """The ``scale`` family: doubted star bids against doubted number bids, how often each
    held."""
    totals = dict.fromkeys(
        ("star bids doubted", "star bids held", "number bids doubted", "number bids held"), 0
    )
    for g in played.results:
        figures = dict(g.statistics)
        for name in totals:
            value = figures.get(name, 0)
            totals[name] += int(value) if isinstance(value, (int, float)) else 0
    star_n, star_held = totals["star bids doubted"], totals["star bids held"]
    number_n, number_held = totals["number bids doubted"], totals["number bids held"]
    if not star_n or not number_n:
        return []
    effect = rate_difference(star_held, star_n, number_held, number_n)
    star, number = proportion(star_held, star_n), proportion(number_held, number_n)
    return [
        Comparison(
            "scale",
            "star fields",
            f"doubted star bids held {star.text()} of {star_n} times, number bids"
            f" {number.text()} of {number_n}: the scale's star fields are not priced like its"
            " number fields [L-04]",
            effect,
            two_proportion_test(star_held, star_n, number_held, number_n),
            star.rate,
            number.rate,
            star_n,
            len(played.results),
            {"star": [star_held, star_n], "number": [number_held, number_n]},
            SCALE_MARGIN,
        )
    ]


def _first_wins(played: Any) -> tuple[int, int]:
    decided = [g for g in played.results if len(g.winners) == 1]
    return sum(g.winners[0] == g.first for g in decided), len(decided)


def _bot_wins(played: Any, bot: str) -> tuple[int, int]:
    seats = wins = 0
    for g in played.results:
        if len(g.winners) != 1:
            continue
        seats += sum(1 for name in g.bots if name == bot)
        wins += g.bots[g.winners[0]] == bot
    return wins, seats


def variant_tests(played: Any, values: Mapping[str, Any], baseline: Any) -> list[Comparison]:
    """The ``variant`` family: ``played`` (the rules asked for) against ``baseline`` (the same
    games with the variant options at the seed's defaults)."""
    changed = ", ".join(
        f"{k}={_text(values[k])}" for k, v in VARIANT_OPTIONS.items() if values.get(k, v) != v
    )
    games = len(played.results)
    out = []
    lengths = [float(g.length) for g in played.results]
    base = [float(g.length) for g in baseline.results]
    effect, p = mean_difference(lengths, base)
    base_mean = sum(base) / len(base) if base else 0.0
    # two samples of equal size: the one-sample formula with √2 times the spread
    spread = math.sqrt(statistics.variance(lengths) + statistics.variance(base)) if games > 1 else 0
    out.append(
        Comparison(
            "variant",
            "length",
            f"with {changed} games are {abs(effect.value):.1f} rounds"
            f" {'shorter' if effect.value < 0 else 'longer'} than with the seed's rules"
            f" ({base_mean:.1f} rounds)",
            effect,
            p,
            base_mean + effect.value,
            base_mean,
            games,
            games,
            {"rounds": round(base_mean + effect.value, 3), "seed_rounds": round(base_mean, 3)},
            0.1 * base_mean,
            "rounds",
            spread or None,
        )
    )
    (a, n), (b, m) = _first_wins(played), _first_wins(baseline)
    if n and m:
        out.append(
            Comparison(
                "variant",
                "first player",
                f"with {changed} the first player wins {proportion(a, n).text()}, with the"
                f" seed's rules {proportion(b, m).text()}",
                rate_difference(a, n, b, m),
                two_proportion_test(a, n, b, m),
                a / n,
                b / m,
                n,
                games,
                {"variant": [a, n], "seed": [b, m]},
                MARGIN,
            )
        )
    strongest = DESIGN.strongest(sorted({bot for g in played.results for bot in g.bots}))
    if strongest is not None and len({bot for g in played.results for bot in g.bots}) > 1:
        (a, n), (b, m) = _bot_wins(played, strongest), _bot_wins(baseline, strongest)
        if n and m:
            out.append(
                Comparison(
                    "variant",
                    f"bot {strongest}",
                    f"with {changed} {strongest} wins {proportion(a, n).text()} of its seats,"
                    f" with the seed's rules {proportion(b, m).text()}",
                    rate_difference(a, n, b, m),
                    two_proportion_test(a, n, b, m),
                    a / n,
                    b / m,
                    n,
                    games,
                    {"variant": [a, n], "seed": [b, m]},
                    MARGIN,
                )
            )
    return out


def _text(value: Any) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


def bluff_findings(
    played: Any,
    values: Mapping[str, Any],
    replay: Callable[[Mapping[str, Any]], Any] | None = None,
) -> list[Finding]:
    """Bluff's own findings: the ``scale`` family, and the ``variant`` family when the rules
    turn a variant on (``replay(values)`` plays the same games under other rules)."""
    out = judge(scale_tests(played))
    baseline = {**values, **VARIANT_OPTIONS}
    if replay is not None and any(values.get(k, v) != v for k, v in VARIANT_OPTIONS.items()):
        seed_rules = replay(baseline)
        if not seed_rules.interrupted:
            out += judge(variant_tests(played, values, seed_rules))
    return out


def _lineup(values: Mapping[str, Any]) -> tuple[str, ...]:
    del values
    return ("bayes", "odds")


DESIGN = Design(
    ladder=("random", "odds", "bayes"),
    lineup=_lineup,
    lineup_note="bayes against itself is degenerate (games end in 8.1 rounds, the doubter"
    " right 89 % of the time): it plays against odds",
    standing=standing,
    standing_note="each player's dice ÷ the dice each started with",
    findings=bluff_findings,
)
