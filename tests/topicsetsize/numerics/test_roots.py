"""The vectorised root finder behind the minimum detectable differences, with and without
``scipy.optimize.elementwise`` (scipy 1.14, as in Pyodide and xlwings Lite, lacks it)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize, stats

import topicsetsize as tss
from topicsetsize.numerics import roots


def _noncentral_chi2_gap(lam, alpha, target, df):
    # power of a chi-square test with df degrees of freedom at noncentrality lam, minus target
    return stats.ncx2.sf(stats.chi2.isf(alpha, df), df, lam) - target


@pytest.mark.parametrize("fallback", [False, True])
def test_smallest_reaching_against_brentq(monkeypatch, fallback):
    if fallback:
        monkeypatch.setattr(roots, "elementwise", None)
    elif roots._scipy_elementwise() is None:
        pytest.skip("this scipy has no scipy.optimize.elementwise")
    alpha = np.array([0.05, 0.01, 1e-4, 0.3, 0.05])
    target = np.array([0.8, 0.9, 0.95, 0.4, 0.01])    # the last is met at 0 (target < alpha)
    df = np.array([1.0, 9.0, 99.0, 3.0, 2.0])
    lam = roots.smallest_reaching(_noncentral_chi2_gap, (alpha, target, df), first_step=8.0 + df)
    assert lam[-1] == 0.0
    for i in range(4):
        # independent: brentq, cell by cell
        ref = optimize.brentq(_noncentral_chi2_gap, 1e-9, 1e4, args=(alpha[i], target[i], df[i]),
                              xtol=1e-14, rtol=1e-14)
        assert lam[i] == pytest.approx(ref, rel=1e-10)
        assert _noncentral_chi2_gap(lam[i], alpha[i], target[i], df[i]) >= 0   # reached


def test_smallest_reaching_says_nan_where_never_reached(monkeypatch):
    never = lambda x, t: np.minimum(x, 1.0) - t        # noqa: E731 - tops out at 1
    for patched in (False, True):
        if patched:
            monkeypatch.setattr(roots, "elementwise", None)
        out = roots.smallest_reaching(never, (np.array([2.0, 0.5]),), first_step=1.0)
        assert np.isnan(out[0]) and out[1] == pytest.approx(0.5, rel=1e-12)


def test_at_least_steps_up_to_the_first_value_that_reaches():
    x = np.array([1.0, 2.0])
    goal = np.nextafter(np.nextafter(x, np.inf), np.inf)      # two ulps up
    assert roots.at_least(x, lambda v: v >= goal).tolist() == goal.tolist()


def test_two_way_min_d_with_the_fallback(monkeypatch):
    want = tss.anova2_min_d(np.array([20, 100, 10**5]), m=np.array([[2], [50]]), variance=0.02,
                            alpha=0.05, beta=0.2)
    monkeypatch.setattr(roots, "elementwise", None)
    got = tss.anova2_min_d(np.array([20, 100, 10**5]), m=np.array([[2], [50]]), variance=0.02,
                           alpha=0.05, beta=0.2)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=0)
