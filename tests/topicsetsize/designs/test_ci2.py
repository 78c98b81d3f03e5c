"""The CI of a difference of two independent means (designs/ci2.py) against a brute-force search and
Monte Carlo."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import special, stats

from topicsetsize import SearchLimitError
from topicsetsize.designs.ci2 import ci2_delta, ci2_n
from topicsetsize.designs.ttest2 import ttest2_n, ttest2_power
from topicsetsize.errors import InputError


def brute_force_width(n, variance, alpha):
    """2 t(φ; α) E[s_p] √(2/n) from scipy.stats and log-gammas, φ = 2(n - 1)."""
    df = 2 * (n - 1)
    es = math.sqrt(variance) * math.sqrt(2 / df) * math.exp(
        special.gammaln((df + 1) / 2) - special.gammaln(df / 2))
    return 2 * stats.t.isf(alpha / 2, df) * es * math.sqrt(2 / n)


@pytest.mark.parametrize("n", [2, 3, 10, 79, 155, 1000])
def test_width_equals_brute_force(n):
    assert ci2_delta(n, variance=0.05, alpha=0.05) == pytest.approx(
        brute_force_width(n, 0.05, 0.05), rel=1e-9)


@pytest.mark.parametrize("alpha, delta, variance", [
    # delta = .02 needs thousands of topics: 1-4 s of brute force each, so slow
    pytest.param(a, d, v, marks=[pytest.mark.slow] if d == 0.02 else [])
    for a, d, v in itertools.product([0.05, 0.01], [0.02, 0.05, 0.1, 0.3], [0.0127, 0.0601, 0.2])])
def test_ci2_n_equals_brute_force_search(alpha, delta, variance):
    n = 2
    while brute_force_width(n, variance, alpha) > delta:
        n += 1
    assert ci2_n(alpha, delta, variance) == n


def test_width_by_monte_carlo():
    # the width of the pooled-variance CI of x̄1 - x̄2, averaged over simulated experiments
    n, sigma, alpha, trials = 8, 0.2, 0.05, 20000
    rng = np.random.default_rng(11)
    x = rng.normal(0, sigma, size=(trials, n))
    y = rng.normal(0.3, sigma, size=(trials, n))
    sp = np.sqrt((x.var(axis=1, ddof=1) + y.var(axis=1, ddof=1)) / 2)
    widths = 2 * stats.t.isf(alpha / 2, 2 * (n - 1)) * sp * math.sqrt(2 / n)
    se = widths.std(ddof=1) / math.sqrt(trials)
    assert abs(widths.mean() - ci2_delta(n, variance=sigma ** 2, alpha=alpha)) < 3 * se


def test_unpaired_needs_about_twice_the_topics_of_paired():
    # per group about what the paired design needs with σt² = 2σ² (uncorrelated systems),
    # so 2n topics in all
    import topicsetsize as tss

    for d, v in [(0.1, 0.02), (0.05, 0.0601), (0.5, 1.0)]:
        assert abs(ttest2_n(0.05, 0.2, d, v) - tss.ttest_n(0.05, 0.2, d, 2 * v,
                                                           method="exact")) <= 2
        assert abs(ci2_n(0.05, d, v) - tss.ci_n(0.05, d, 2 * v)) <= 2


@pytest.mark.parametrize("call, message", [
    (lambda: ttest2_n(0.05, 1.2, 0.1, 0.05), "beta=1.2 is out of range"),
    (lambda: ttest2_n(0.05, 0.2, 0.1, 0.05, method="legacy"), "method='legacy'"),
    (lambda: ttest2_n(0.05, 0.2, 1e-300, 1e300), "min_d/sqrt(variance)"),
    (lambda: ttest2_power(1.5, min_d=0.1, variance=0.05, alpha=0.05), "n=1.5"),
    (lambda: ci2_n(0.05, 0, 0.05), "delta=0 is out of range"),
    (lambda: ci2_delta(10, variance="x", alpha=0.05), "variance='x' is not a number"),
])
def test_bad_input_is_one_line(call, message):
    with pytest.raises(InputError) as info:
        call()
    assert message in str(info.value) and "\n" not in str(info.value)


def test_scalars_give_python_numbers():
    assert type(ttest2_n(0.05, 0.2, 0.1, 0.05)) is int
    assert type(ci2_n(0.05, 0.1, 0.05)) is int
    assert type(ci2_delta(10, variance=0.05, alpha=0.05)) is float
    assert ci2_n(0.05, [0.1, 0.2], 0.05).shape == (2,)


def test_extreme_effects_are_silent():
    # (Z + λ)² and δ² overflowed with a RuntimeWarning; the results were already right.
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ttest2_power(50, min_d=1e300, variance=0.05, alpha=0.05) == 1.0
        assert ttest2_n(0.05, 0.2, 1e300, 0.05) == 2
        assert ci2_n(0.05, 1e300, 0.05) == 2
        # a width, not a difference to detect (a review, 2026-12-07: it said "the difference
        # is too small to detect")
        with pytest.raises(SearchLimitError, match=r": the width delta is too small for any "
                                                   r"practical topic set$"):
            ci2_n(0.05, 1e-300, 1e300)
