"""Small statistics for simulation reports: proportions with confidence intervals, tests of
proportions, and summaries of samples. Standard library only, game-agnostic.

>>> interval = wilson_interval(60, 100)
>>> round(interval.low, 3), round(interval.high, 3)
(0.502, 0.691)
>>> round(binomial_test(60, 100), 4)  # two-sided, against one half
0.0569
>>> summary = summarise([3, 1, 4, 1, 5, 9, 2, 6])
>>> summary.mean, summary.median, summary.low, summary.high
(3.875, 3.5, 1, 9)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Proportion",
    "Summary",
    "binomial_test",
    "proportion",
    "summarise",
    "two_proportion_test",
    "wilson_interval",
    "z_for",
]


def z_for(confidence: float) -> float:
    """The two-sided normal quantile for ``confidence`` (1.96 for 0.95, 2.576 for 0.99)."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie strictly between 0 and 1, not {confidence}")
    return statistics.NormalDist().inv_cdf(0.5 + confidence / 2)


@dataclass(frozen=True, slots=True)
class Interval:
    low: float
    high: float


def wilson_interval(successes: int, trials: int, confidence: float = 0.95) -> Interval:
    """The Wilson score interval for a binomial proportion (good for small counts and for
    proportions near 0 or 1, unlike the normal approximation); ``(0, 1)`` for no trials."""
    if trials <= 0:
        return Interval(0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    z = z_for(confidence)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0 or all successes the bound is exactly 0 or 1 (rounding would leave a hair off it).
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return Interval(low, high)


@dataclass(frozen=True, slots=True)
class Proportion:
    """``count`` out of ``total`` with its rate and Wilson interval."""

    count: int
    total: int
    low: float
    high: float
    confidence: float = 0.95

    @property
    def rate(self) -> float:
        return self.count / self.total if self.total else 0.0

    def text(self) -> str:
        """``55.0 % (45.2–64.4)``"""
        if not self.total:
            return "-"
        return f"{100 * self.rate:.1f} % ({100 * self.low:.1f}–{100 * self.high:.1f})"

    def to_json(self) -> dict[str, Any]:
        return {
            "count": self.count,
            "total": self.total,
            "rate": round(self.rate, 4),
            "low": round(self.low, 4),
            "high": round(self.high, 4),
        }


def proportion(count: int, total: int, confidence: float = 0.95) -> Proportion:
    """``count`` of ``total`` with its Wilson interval at ``confidence``."""
    interval = wilson_interval(count, total, confidence)
    return Proportion(count, total, interval.low, interval.high, confidence)


def _log_pmf(k: int, n: int, p: float) -> float:
    if p <= 0:
        return 0.0 if k == 0 else -math.inf
    if p >= 1:
        return 0.0 if k == n else -math.inf
    return (
        math.lgamma(n + 1)
        - math.lgamma(k + 1)
        - math.lgamma(n - k + 1)
        + k * math.log(p)
        + (n - k) * math.log1p(-p)
    )


def binomial_test(successes: int, trials: int, p: float = 0.5) -> float:
    """The exact two-sided binomial test: the probability, under success rate ``p``, of an
    outcome no more likely than ``successes`` out of ``trials`` (1.0 for no trials).

    >>> round(binomial_test(10, 10), 5), round(binomial_test(5, 10), 9)
    (0.00195, 1.0)
    """
    if trials <= 0:
        return 1.0
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    observed = _log_pmf(successes, trials, p)
    # Relative tolerance as in common implementations: ties in probability count as extreme.
    limit = observed + 1e-7
    total = sum(
        math.exp(log) for k in range(trials + 1) if (log := _log_pmf(k, trials, p)) <= limit
    )
    return min(1.0, total)


def two_proportion_test(count_a: int, total_a: int, count_b: int, total_b: int) -> float:
    """The two-sided z-test (pooled) that two proportions are equal; its p-value (1.0 when a
    sample is empty or the pooled rate is 0 or 1).

    >>> round(two_proportion_test(60, 100, 40, 100), 4)
    0.0047
    """
    if total_a <= 0 or total_b <= 0:
        return 1.0
    pooled = (count_a + count_b) / (total_a + total_b)
    if pooled in (0.0, 1.0):
        return 1.0
    error = math.sqrt(pooled * (1 - pooled) * (1 / total_a + 1 / total_b))
    z = (count_a / total_a - count_b / total_b) / error
    return 2 * (1 - statistics.NormalDist().cdf(abs(z)))


@dataclass(frozen=True, slots=True)
class Summary:
    """A sample's size, mean, standard deviation (n − 1), median, 10th and 90th percentiles,
    smallest and largest value."""

    n: int
    mean: float
    sd: float
    median: float
    p10: float
    p90: float
    low: float
    high: float

    def text(self, digits: int = 1) -> str:
        """``54.2 ± 8.1 (median 54, 10–90 %: 44–65, 31–80)``"""
        if not self.n:
            return "-"

        def f(x: float) -> str:
            return f"{x:.{digits}f}".rstrip("0").rstrip(".") if digits else f"{x:.0f}"

        return (
            f"{f(self.mean)} ± {f(self.sd)} (median {f(self.median)},"
            f" 10–90 %: {f(self.p10)}–{f(self.p90)}, {f(self.low)}–{f(self.high)})"
        )

    def to_json(self, digits: int = 3) -> dict[str, Any]:
        return {
            "n": self.n,
            "mean": round(self.mean, digits),
            "sd": round(self.sd, digits),
            "median": self.median,
            "p10": round(self.p10, digits),
            "p90": round(self.p90, digits),
            "min": self.low,
            "max": self.high,
        }


def summarise(values: Sequence[float]) -> Summary:
    """The :class:`Summary` of ``values`` (all zeros for an empty sample). Percentiles are
    interpolated between order statistics (the "inclusive" method)."""
    n = len(values)
    if n == 0:
        return Summary(0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    if n == 1:
        x = values[0]
        return Summary(1, float(x), 0.0, x, x, x, x, x)
    deciles = statistics.quantiles(values, n=10, method="inclusive")
    return Summary(
        n=n,
        mean=statistics.fmean(values),
        sd=statistics.stdev(values),
        median=statistics.median(values),
        p10=deciles[0],
        p90=deciles[-1],
        low=min(values),
        high=max(values),
    )
