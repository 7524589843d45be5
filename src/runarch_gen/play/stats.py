"""Small statistics for simulation reports: proportions and means with confidence intervals,
tests of proportions and means, corrections for many tests, and the games a test needs.
Standard library only, game-agnostic.

Every test here is two-sided. Families of tests are corrected with :func:`holm` (the
family-wise error rate, used for findings) or :func:`benjamini_hochberg` (the false discovery
rate); :func:`games_needed` is the sample a one-sample test of a proportion needs to find an
effect of a given size with a given power.

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
    "Estimate",
    "Interval",
    "Proportion",
    "Summary",
    "benjamini_hochberg",
    "binomial_test",
    "chi2_quantile",
    "excess_test",
    "games_needed",
    "games_needed_mean",
    "holm",
    "mean_difference",
    "mean_estimate",
    "mean_test",
    "proportion",
    "rate_difference",
    "sd_estimate",
    "summarise",
    "t_cdf",
    "t_quantile",
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

    def text(self, digits: int = 1, lang: str = "en") -> str:
        """``54.2 ± 8.1 (median 54, 10–90 %: 44–65, 31–80)`` (``medián`` in Czech)"""
        if not self.n:
            return "-"
        from runarch_gen.play.words import word

        def f(x: float) -> str:
            return f"{x:.{digits}f}".rstrip("0").rstrip(".") if digits else f"{x:.0f}"

        return (
            f"{f(self.mean)} ± {f(self.sd)} ({word(lang, 'median')} {f(self.median)},"
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


# ---------------------------------------------------------------------------------------------
# Estimates with intervals


@dataclass(frozen=True, slots=True)
class Estimate:
    """A figure with its confidence interval and the sample it rests on (``n``: games, seats
    or challenges, as the figure says). ``low``/``high`` are ``None`` where no interval can be
    given (a sample of one).

    >>> Estimate(0.452, 0.421, 0.483, 1000).text(percent=True)
    '45.2 % (42.1–48.3)'
    """

    value: float
    low: float | None
    high: float | None
    n: int
    confidence: float = 0.95

    def text(
        self, *, percent: bool = False, points: bool = False, digits: int = 1, signed: bool = False
    ) -> str:
        """The value and interval; ``percent`` (``45.2 %``) or ``points`` (``-4.8``, for a
        difference of shares in percentage points) scale by 100."""
        if not self.n:
            return "-"
        scale, unit = (100.0, " %") if percent else (100.0, "") if points else (1.0, "")
        sign = "+" if signed else ""

        def f(x: float) -> str:
            return f"{scale * x:{sign}.{digits}f}"

        if self.low is None or self.high is None:
            return f"{f(self.value)}{unit}"
        return f"{f(self.value)}{unit} ({f(self.low)}–{f(self.high)})"

    def to_json(self, digits: int = 4) -> dict[str, Any]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, digits)

        return {"value": r(self.value), "low": r(self.low), "high": r(self.high), "n": self.n}


def _betacf(a: float, b: float, x: float) -> float:
    # The continued fraction of the incomplete beta function (modified Lentz's method).
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-14:
            break
    return h


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """Student's t distribution function with ``df`` degrees of freedom.

    >>> round(t_cdf(2.228139, 10), 5)
    0.975
    """
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, not {df}")
    tail = 0.5 * _incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def _invert(cdf: Any, p: float, low: float, high: float) -> float:
    # Bisection on a monotone distribution function: 200 halvings reach the float's precision.
    while cdf(high) < p:
        low, high = high, 2 * high + 1
    for _ in range(200):
        mid = (low + high) / 2
        if cdf(mid) < p:
            low = mid
        else:
            high = mid
        if high - low <= 1e-12 * max(1.0, abs(mid)):
            break
    return (low + high) / 2


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (2.228 for 0.975, 10).

    >>> round(t_quantile(0.975, 10), 4), round(t_quantile(0.975, 1), 4)
    (2.2281, 12.7062)
    """
    if not 0 < p < 1:
        raise ValueError(f"p must lie strictly between 0 and 1, not {p}")
    if p < 0.5:
        return -t_quantile(1 - p, df)
    if p == 0.5:
        return 0.0
    return _invert(lambda t: t_cdf(t, df), p, 0.0, 10.0)


def _lower_gamma(a: float, x: float) -> float:
    """The regularised lower incomplete gamma function P(a, x)."""
    if x <= 0:
        return 0.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:  # the series
        term = total = 1.0 / a
        n = a
        for _ in range(1000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return total * math.exp(log_front)
    # the continued fraction of Q(a, x), modified Lentz
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1 / (d if abs(d) > tiny else tiny)
        c = b + an / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return 1.0 - math.exp(log_front) * h


def chi2_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of the chi-square distribution with ``df`` degrees of freedom.

    >>> round(chi2_quantile(0.975, 9), 3), round(chi2_quantile(0.025, 9), 3)
    (19.023, 2.7)
    """
    if not 0 < p < 1 or df <= 0:
        raise ValueError(f"chi-square quantile of p={p}, df={df}")
    return _invert(lambda x: _lower_gamma(df / 2, x / 2), p, 0.0, max(1.0, 2 * df))


def mean_estimate(values: Sequence[float], confidence: float = 0.95) -> Estimate:
    """The mean of ``values`` with its t interval (no interval for fewer than two values).

    >>> e = mean_estimate([1, 2, 3, 4, 5])
    >>> e.value, round(e.low, 3), round(e.high, 3)
    (3.0, 1.037, 4.963)
    """
    n = len(values)
    if n == 0:
        return Estimate(0.0, None, None, 0, confidence)
    mean = statistics.fmean(values)
    if n == 1:
        return Estimate(mean, None, None, 1, confidence)
    half = t_quantile(0.5 + confidence / 2, n - 1) * statistics.stdev(values) / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n, confidence)


def sd_estimate(values: Sequence[float], confidence: float = 0.95) -> Estimate:
    """The standard deviation (n − 1) of ``values`` with its chi-square interval (exact for a
    normal sample, a guide otherwise).

    >>> e = sd_estimate([2, 4, 4, 4, 5, 5, 7, 9])
    >>> round(e.value, 3), round(e.low, 3), round(e.high, 3)
    (2.138, 1.414, 4.352)
    """
    n = len(values)
    if n < 2:
        return Estimate(0.0, None, None, n, confidence)
    sd = statistics.stdev(values)
    alpha = 1 - confidence
    low = sd * math.sqrt((n - 1) / chi2_quantile(1 - alpha / 2, n - 1))
    high = sd * math.sqrt((n - 1) / chi2_quantile(alpha / 2, n - 1))
    return Estimate(sd, low, high, n, confidence)


def mean_test(values: Sequence[float], mu: float = 0.0) -> float:
    """The two-sided one-sample t-test that the mean of ``values`` is ``mu``: its p-value (1.0
    for fewer than two values; 0 or 1 for a sample without spread).

    >>> round(mean_test([5.1, 4.9, 5.6, 5.8, 6.0, 5.3], 5.0), 4)
    0.0479
    """
    n = len(values)
    if n < 2:
        return 1.0
    mean = statistics.fmean(values)
    sd = statistics.stdev(values)
    if sd == 0:
        return 1.0 if mean == mu else 0.0
    t = (mean - mu) / (sd / math.sqrt(n))
    return min(1.0, 2 * t_cdf(-abs(t), n - 1))


def rate_difference(
    count_a: int, total_a: int, count_b: int, total_b: int, confidence: float = 0.95
) -> Estimate:
    """The difference of two independent proportions, a − b, with Newcombe's hybrid score
    interval (his method 10, from the two Wilson intervals).

    >>> e = rate_difference(56, 70, 48, 80)
    >>> round(e.value, 4), round(e.low, 4), round(e.high, 4)
    (0.2, 0.0524, 0.3339)
    """
    if total_a <= 0 or total_b <= 0:
        return Estimate(0.0, None, None, 0, confidence)
    p, q = count_a / total_a, count_b / total_b
    a, b = (
        wilson_interval(count_a, total_a, confidence),
        wilson_interval(count_b, total_b, confidence),
    )
    d = p - q
    low = d - math.sqrt((p - a.low) ** 2 + (b.high - q) ** 2)
    high = d + math.sqrt((a.high - p) ** 2 + (q - b.low) ** 2)
    return Estimate(d, low, high, total_a + total_b, confidence)


def excess_test(observed: int, chances: Sequence[float]) -> float:
    """The two-sided test that ``observed`` successes came from independent trials with the
    given ``chances`` (a Poisson-binomial count): exact binomial when every chance is the same,
    else the normal approximation with a continuity correction. For a bot in several seats of
    a game, a trial is a game and its chance the bot's fair share of that game's win.

    >>> excess_test(60, [0.5] * 100) == binomial_test(60, 100)
    True
    """
    if not chances:
        return 1.0
    if all(c == chances[0] for c in chances):
        return binomial_test(observed, len(chances), chances[0])
    mean = sum(chances)
    variance = sum(c * (1 - c) for c in chances)
    if variance <= 0:
        return 1.0 if observed == round(mean) else 0.0
    z = max(0.0, abs(observed - mean) - 0.5) / math.sqrt(variance)
    return min(1.0, 2 * (1 - statistics.NormalDist().cdf(z)))


# ---------------------------------------------------------------------------------------------
# Many tests at once


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given: a test is significant at level α
    after the correction exactly when its adjusted p-value is below α, and the chance of any
    false finding in the family stays below α whatever the tests' dependence.

    >>> [round(p, 3) for p in holm([0.01, 0.04, 0.03, 0.005])]
    [0.03, 0.06, 0.06, 0.02]
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    """Benjamini and Hochberg's adjusted p-values (q-values), in the order given: the expected
    share of false findings among those below α stays below α (for independent or positively
    dependent tests).

    >>> [round(p, 4) for p in benjamini_hochberg([0.01, 0.04, 0.03, 0.005])]
    [0.02, 0.04, 0.04, 0.02]
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i], reverse=True)
    adjusted = [1.0] * m
    running = 1.0
    for k, i in enumerate(order):
        rank = m - k
        running = min(running, p_values[i] * m / rank)
        adjusted[i] = min(1.0, running)
    return adjusted


def games_needed(rate: float, fair: float, alpha: float = 0.05, power: float = 0.8) -> int | None:
    """How many trials the two-sided one-sample test of a proportion needs to find a true
    ``rate`` against ``fair`` at level ``alpha`` with the given ``power`` (the normal
    approximation); ``None`` when the rate is the fair share.

    >>> games_needed(0.6, 0.5, 0.05, 0.8)
    194
    """
    if rate == fair or not 0 < fair < 1:
        return None
    z_a = statistics.NormalDist().inv_cdf(1 - alpha / 2)
    z_b = statistics.NormalDist().inv_cdf(power)
    rate = min(max(rate, 1e-9), 1 - 1e-9)
    root = z_a * math.sqrt(fair * (1 - fair)) + z_b * math.sqrt(rate * (1 - rate))
    return math.ceil((root / (rate - fair)) ** 2)


def games_needed_mean(
    effect: float, sd: float, alpha: float = 0.05, power: float = 0.8
) -> int | None:
    """How many trials the two-sided one-sample t-test needs to find a true mean ``effect``
    (against none) with spread ``sd`` at level ``alpha`` with the given ``power`` (the normal
    approximation, plus one for the t distribution's heavier tails); ``None`` for no effect.

    >>> games_needed_mean(0.5, 1.0, 0.05, 0.8)
    33
    """
    if effect == 0 or sd <= 0:
        return None
    z_a = statistics.NormalDist().inv_cdf(1 - alpha / 2)
    z_b = statistics.NormalDist().inv_cdf(power)
    return math.ceil(((z_a + z_b) * sd / effect) ** 2) + 1


def mean_difference(
    a: Sequence[float], b: Sequence[float], confidence: float = 0.95
) -> tuple[Estimate, float]:
    """The difference of two sample means, a − b, with Welch's interval, and the p-value of
    Welch's two-sided t-test (unequal variances); no interval and p = 1 for samples of fewer
    than two.

    >>> e, p = mean_difference([27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6,
    ...                         23.1, 19.6, 19.0, 21.7, 21.4],
    ...                        [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2,
    ...                         21.9, 22.1, 22.9, 20.5, 24.4])
    >>> round(e.value, 4), round(p, 4)
    (-2.1667, 0.0214)
    """
    n, m = len(a), len(b)
    if n < 2 or m < 2:
        d = (statistics.fmean(a) if a else 0.0) - (statistics.fmean(b) if b else 0.0)
        return Estimate(d, None, None, n + m, confidence), 1.0
    va, vb = statistics.variance(a) / n, statistics.variance(b) / m
    d = statistics.fmean(a) - statistics.fmean(b)
    se = math.sqrt(va + vb)
    if se == 0:
        return Estimate(d, d, d, n + m, confidence), 1.0 if d == 0 else 0.0
    df = (va + vb) ** 2 / (va * va / (n - 1) + vb * vb / (m - 1))
    t = d / se
    half = t_quantile(0.5 + confidence / 2, df) * se
    return Estimate(d, d - half, d + half, n + m, confidence), min(1.0, 2 * t_cdf(-abs(t), df))
