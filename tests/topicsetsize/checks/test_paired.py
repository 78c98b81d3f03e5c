"""Vectorised paired t-tests: the same decisions as scipy.stats.ttest_rel, one test at a time."""

from __future__ import annotations

import warnings

import numpy as np
from scipy import stats

from topicsetsize.checks.paired import paired_t, reject_ratio
from topicsetsize.numerics.distributions import t_crit


def test_paired_t_equals_scipy_ttest_rel():
    rng = np.random.default_rng(7)
    k, tests, alpha = 12, 400, 0.05
    d = rng.normal(0.3, 1.0, (tests, k))
    d[:5] = 0.25                                   # constant differences: infinite t, reject
    d[5:10] = 0.0                                  # all ties: undefined t, do not reject
    shift = d.mean(axis=1)
    shifted = d - shift[:, None]
    crit2 = float(t_crit(alpha, k - 1)) ** 2
    reject, total = paired_t(shifted.sum(axis=1), (shifted ** 2).sum(axis=1), k, shift, crit2,
                             np.abs(d).max(axis=1) ** 2 + 1e-300)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # scipy on the constant rows
        p = stats.ttest_rel(d, np.zeros_like(d), axis=1).pvalue
    expected = np.where(np.isnan(p), False, p < alpha)
    expected[:5] = True
    np.testing.assert_array_equal(reject, expected)
    np.testing.assert_allclose(total, d.sum(axis=1), atol=1e-12)
    assert (total[5:10] == 0.0).all()


def test_reject_ratio_treats_zero_denominators_as_constant_data():
    num = np.array([4.0, 0.0, 1e-20, 9.0])
    den = np.array([1.0, 0.0, 0.0, 0.0])
    got = reject_ratio(num, den.copy(), 2.0, 1e-12, 1e-12)
    np.testing.assert_array_equal(got, [True, False, False, True])
