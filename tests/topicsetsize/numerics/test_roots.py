"""The vectorised root finder behind the minimum detectable differences (numerics/roots.py),
against scipy's root finders: brentq cell by cell (in every scipy) and, where scipy has it
(≥ 1.15), the vectorised ``scipy.optimize.elementwise.find_root`` it replaces."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from scipy import optimize, stats

import topicsetsize as tss
from topicsetsize.numerics import roots

ALPHA = np.array([0.05, 0.01, 1e-4, 0.3, 0.05])
TARGET = np.array([0.8, 0.9, 0.95, 0.4, 0.01])    # the last is met at 0 (target < alpha)
DF = np.array([1.0, 9.0, 99.0, 3.0, 2.0])


def _noncentral_chi2_gap(lam, alpha, target, df):
    # power of a chi-square test with df degrees of freedom at noncentrality lam, minus target
    return stats.ncx2.sf(stats.chi2.isf(alpha, df), df, lam) - target


def test_smallest_reaching_against_brentq():
    lam = roots.smallest_reaching(_noncentral_chi2_gap, (ALPHA, TARGET, DF), first_step=8.0 + DF)
    assert lam[-1] == 0.0
    for i in range(4):
        # independent: brentq, cell by cell
        ref = optimize.brentq(_noncentral_chi2_gap, 1e-9, 1e4, args=(ALPHA[i], TARGET[i], DF[i]),
                              xtol=1e-14, rtol=1e-14)
        assert lam[i] == pytest.approx(ref, rel=1e-10)
        assert _noncentral_chi2_gap(lam[i], ALPHA[i], TARGET[i], DF[i]) >= 0   # reached


def test_smallest_reaching_against_scipy_find_root():
    elementwise = pytest.importorskip("scipy.optimize.elementwise",
                                      reason="scipy < 1.15 has no vectorised find_root")
    args = (ALPHA[:4], TARGET[:4], DF[:4])
    bracket = elementwise.bracket_root(_noncentral_chi2_gap, np.zeros(4), 8.0 + DF[:4],
                                       xmin=0.0, args=args)
    ref = elementwise.find_root(_noncentral_chi2_gap, bracket.bracket, args=args,
                                tolerances=dict(xrtol=1e-13, xatol=1e-13))
    lam = roots.smallest_reaching(_noncentral_chi2_gap, args, first_step=8.0 + DF[:4])
    np.testing.assert_allclose(lam, ref.x, rtol=1e-12, atol=0)


def test_a_root_reached_exactly_or_from_one_side_closes_in_few_steps():
    # f(hi) = 0 exactly at the first interpolation (a line through the origin's right): the
    # search must not then bisect to the tolerance (it took some 40 halvings per cell before)
    calls = []

    def line(x, t):
        calls.append(x.size)
        return x - t

    lam = roots.smallest_reaching(line, (np.array([0.75, 3.0, 1e6]),), first_step=1.0)
    assert lam.tolist() == [0.75, 3.0, 1e6]
    assert len(calls) <= 28          # f(0), the doubling (up to 20 for 1e6), a few steps


def test_smallest_reaching_says_nan_where_never_reached():
    never = lambda x, t: np.minimum(x, 1.0) - t        # noqa: E731 - tops out at 1
    out = roots.smallest_reaching(never, (np.array([2.0, 0.5]),), first_step=1.0)
    assert np.isnan(out[0]) and out[1] == pytest.approx(0.5, rel=1e-12)


def test_at_least_steps_up_to_the_first_value_that_reaches():
    x = np.array([1.0, 2.0])
    goal = np.nextafter(np.nextafter(x, np.inf), np.inf)      # two ulps up
    assert roots.at_least(x, lambda v: v >= goal).tolist() == goal.tolist()


def test_a_minimum_difference_does_not_import_scipy_optimize():
    # 0.19 s of CPU in every process that computes one (the workbook's budget, issue 28.6)
    import subprocess
    code = ("import sys, topicsetsize as t; t.anova_min_d(100, m=10, variance=0.06, alpha=0.05,"
            " beta=0.2, method='exact'); t.ttest_min_dt(50, variance_t=0.1, alpha=0.05, beta=0.2);"
            " print('scipy.optimize' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_two_way_min_d_reaches_its_power_and_no_less_does():
    n, m = np.array([20, 100, 10**5]), np.array([[2], [50]])
    d = tss.anova2_min_d(n, m=m, variance=0.02, alpha=0.05, beta=0.2)
    power = tss.anova2_power(n, m=m, min_d=d, variance=0.02, alpha=0.05)
    below = tss.anova2_power(n, m=m, min_d=d * (1 - 1e-9), variance=0.02, alpha=0.05)
    assert (power >= 0.8).all() and (below < 0.8).all()


def test_a_first_step_of_zero_or_nan_still_brackets():
    # a step of 0 never doubles: it starts at 1 instead (the search hung)
    got = roots.smallest_reaching(lambda x, t: x - t, (np.array([2.0, 5.0]),),
                                  first_step=np.array([0.0, np.nan]))
    np.testing.assert_allclose(got, [2.0, 5.0], rtol=1e-12)
