"""The unpaired two-sample t-test design (designs/ttest2.py) against statsmodels' TTestIndPower and
Monte Carlo."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from tests._versions import STATSMODELS_REL
from topicsetsize import SearchLimitError
from topicsetsize.designs.ttest2 import ttest2_n, ttest2_power

T_GRID = list(itertools.product([0.05, 0.01, 0.1], [0.2, 0.1, 0.5],
                                [0.02, 0.05, 0.1, 0.2, 0.5], [0.0127, 0.0601, 1.0]))


@pytest.fixture(scope="module")
def solver():
    from statsmodels.stats.power import TTestIndPower

    return TTestIndPower()


@pytest.mark.filterwarnings("ignore::statsmodels.tools.sm_exceptions.ConvergenceWarning")
def test_n_equals_ceil_of_statsmodels(solver):
    # statsmodels gives the real n per group at which the power is exactly 1 - beta; the
    # smallest whole n is its ceiling. Cells whose real n is within 1e-6 of a whole number
    # are left out (the ceiling of statsmodels' root there is decided by its tolerance).
    checked = 0
    for alpha, beta, d, v in T_GRID:
        real = solver.solve_power(effect_size=d / math.sqrt(v), alpha=alpha, power=1 - beta,
                                  ratio=1)
        if not real >= 2 or abs(real - round(real)) < 1e-6:   # NaN: statsmodels did not converge
            continue
        assert ttest2_n(alpha, beta, d, v) == math.ceil(real), (alpha, beta, d, v, real)
        checked += 1
    assert checked > 0.8 * len(T_GRID)


def test_vectorised_n_equals_cellwise():
    a, b, d, v = (np.array(col) for col in zip(*T_GRID))
    assert ttest2_n(a, b, d, v).tolist() == [ttest2_n(*cell) for cell in T_GRID]


@pytest.mark.parametrize("n, d, v, alpha", [(64, 0.5, 1.0, 0.05), (10, 0.1, 0.02, 0.01),
                                            (1000, 0.02, 0.0601, 0.05), (3, 1.0, 0.5, 0.1)])
def test_power_equals_statsmodels(solver, n, d, v, alpha):
    want = solver.power(effect_size=d / math.sqrt(v), nobs1=n, alpha=alpha, ratio=1)
    # abs 1e-10 (relative 1e-5 before scipy 1.15, where statsmodels' nctdtr is cdflib's)
    tol = dict(abs=1e-10) if STATSMODELS_REL < 1e-6 else dict(rel=STATSMODELS_REL)
    assert ttest2_power(n, min_d=d, variance=v, alpha=alpha) == pytest.approx(want, **tol)


def test_power_by_monte_carlo():
    # two independent groups of n normal scores, Student's t-test (scipy)
    n, d, sigma, alpha, trials = 20, 0.08, 0.1, 0.05, 5000
    rng = np.random.default_rng(7)
    x = rng.normal(0, sigma, size=(trials, n))
    y = rng.normal(d, sigma, size=(trials, n))
    rate = np.mean(stats.ttest_ind(x, y, axis=1).pvalue < alpha)
    power = ttest2_power(n, min_d=d, variance=sigma ** 2, alpha=alpha)
    se = math.sqrt(power * (1 - power) / trials)
    assert abs(rate - power) < 3 * se and 0.2 < power < 0.9


def test_too_small_a_difference_says_so():
    with pytest.raises(SearchLimitError, match="two-sample"):
        ttest2_n(0.05, 0.2, 1e-7, 1.0)
