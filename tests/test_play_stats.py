"""The statistics of simulation reports, checked against values computed another way."""

from __future__ import annotations

import math
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.play.stats import (
    binomial_test,
    proportion,
    summarise,
    two_proportion_test,
    wilson_interval,
    z_for,
)


def test_z_for_the_usual_confidences() -> None:
    assert z_for(0.95) == pytest.approx(1.959964, abs=1e-6)
    assert z_for(0.99) == pytest.approx(2.575829, abs=1e-6)


@pytest.mark.parametrize(
    ("count", "total", "low", "high"),
    [
        # Published 95 % Wilson intervals (Newcombe 1998, Table I).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_interval_matches_published_values(
    count: int, total: int, low: float, high: float
) -> None:
    interval = wilson_interval(count, total)
    assert interval.low == pytest.approx(low, abs=1e-4)
    assert interval.high == pytest.approx(high, abs=1e-4)


@given(st.integers(1, 500).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
@settings(max_examples=60)
def test_wilson_interval_holds_the_observed_rate(case: tuple[int, int]) -> None:
    count, total = case
    interval = wilson_interval(count, total)
    assert 0 <= interval.low <= count / total <= interval.high <= 1
    wider = wilson_interval(count, total, 0.99)
    assert wider.low <= interval.low and wider.high >= interval.high


def exact_two_sided(k: int, n: int) -> float:
    # Independent oracle: exact fractions with math.comb, p = 1/2.
    pmf = [math.comb(n, i) for i in range(n + 1)]
    return float(sum(c for c in pmf if c <= pmf[k]) / 2**n)


@given(st.integers(0, 80).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
@settings(max_examples=80)
def test_binomial_test_equals_the_exact_sum(case: tuple[int, int]) -> None:
    k, n = case
    assert binomial_test(k, n) == pytest.approx(min(1.0, exact_two_sided(k, n)), rel=1e-9)


def test_binomial_test_of_a_clear_margin_is_significant_at_99_percent() -> None:
    assert binomial_test(40, 60) > 0.01 > binomial_test(45, 60)


def test_two_proportion_test_against_the_textbook_z() -> None:
    # 60/100 against 40/100: pooled 0.5, z = 0.2 / sqrt(0.25 * 0.02) = 2.828...
    z = 0.2 / math.sqrt(0.25 * 0.02)
    expected = 2 * (1 - statistics.NormalDist().cdf(z))
    assert two_proportion_test(60, 100, 40, 100) == pytest.approx(expected)
    assert two_proportion_test(0, 10, 0, 10) == 1.0


@given(st.lists(st.integers(-50, 200), min_size=2, max_size=60))
@settings(max_examples=60)
def test_summary_agrees_with_the_statistics_module(values: list[int]) -> None:
    s = summarise(values)
    assert s.n == len(values)
    assert s.mean == pytest.approx(statistics.fmean(values))
    assert s.sd == pytest.approx(statistics.stdev(values))
    assert s.median == statistics.median(values)
    assert s.low == min(values) <= s.p10 <= s.median <= s.p90 <= s.high == max(values)


def test_summary_and_proportion_of_nothing() -> None:
    assert summarise([]).n == 0 and summarise([7]).mean == 7
    assert proportion(0, 0).text() == "-" and proportion(1, 4).rate == 0.25
