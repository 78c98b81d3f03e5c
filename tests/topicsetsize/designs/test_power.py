"""Power: worked examples, and Monte Carlo checks that the exact power is right."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import topicsetsize as tss
from tests._versions import STATSMODELS_REL


def test_scalar_in_python_out_arrays_broadcast():
    p = tss.anova_power(20, m=3, min_d=0.5, variance=0.25, alpha=0.05)
    assert type(p) is float
    arr = tss.anova_power(np.array([19, 20]), m=3, min_d=0.5, variance=0.25, alpha=0.05)
    assert isinstance(arr, np.ndarray) and arr.shape == (2,)
    assert arr[1] == p


def test_legacy_anova_undefined_is_nan():
    # cA - a <= 0 at tiny n: the legacy sheet shows #NUM!
    t = tss.anova_legacy_terms(2, m=2, min_d=0.1, variance=0.06, alpha=0.05)
    assert t.c_a - t.a <= 0 and np.isnan(t.power)


def _simulated_anova_rejection(n, m, min_d, variance, alpha, trials, rng):
    """One-way ANOVA F test on normal scores: two systems minD apart, the rest at the mean."""
    means = np.zeros(m)
    means[0], means[1] = min_d / 2, -min_d / 2
    x = rng.normal(means, np.sqrt(variance), size=(trials, n, m))
    run_means = x.mean(axis=1)
    grand = run_means.mean(axis=1, keepdims=True)
    ss_between = n * ((run_means - grand) ** 2).sum(axis=1)
    ss_within = ((x - run_means[:, None, :]) ** 2).sum(axis=(1, 2))
    f = (ss_between / (m - 1)) / (ss_within / (m * (n - 1)))
    return np.mean(stats.f.sf(f, m - 1, m * (n - 1)) <= alpha)


@pytest.mark.parametrize("n,m,min_d,variance,alpha", [
    (20, 3, 0.5, 0.25, 0.05),      # CIKM 2014 worked example
    (48, 10, 0.2, 0.0601, 0.05),   # an AIRS 2016 Table 2 cell (legacy n = 48)
    (8, 2, 0.2, 0.0127, 0.01),
])
def test_exact_anova_power_monte_carlo(n, m, min_d, variance, alpha):
    rng = np.random.default_rng(20161130 + n)
    trials = 20000
    rate = _simulated_anova_rejection(n, m, min_d, variance, alpha, trials, rng)
    p = tss.anova_power(n, m=m, min_d=min_d, variance=variance, alpha=alpha, method="exact")
    se = np.sqrt(p * (1 - p) / trials)
    assert abs(rate - p) < 3 * se, (rate, p, se)


@pytest.mark.parametrize("n,min_dt,variance_t,alpha", [
    (34, 0.5, 1.0, 0.05),          # CIKM 2014 worked example
    (10, 0.1, 0.01, 0.01),
    (4, 2.0, 1.0, 0.05),           # tiny n, where the approximations are worst
])
def test_exact_ttest_power_monte_carlo(n, min_dt, variance_t, alpha):
    rng = np.random.default_rng(34 + n)
    trials = 40000
    d = rng.normal(min_dt, np.sqrt(variance_t), size=(trials, n))
    t = d.mean(axis=1) / (d.std(axis=1, ddof=1) / np.sqrt(n))
    rate = np.mean(2 * stats.t.sf(np.abs(t), n - 1) <= alpha)
    p = tss.ttest_power(n, min_dt=min_dt, variance_t=variance_t, alpha=alpha, method="exact")
    se = np.sqrt(p * (1 - p) / trials)
    assert abs(rate - p) < 3 * se, (rate, p, se)


def test_exact_against_statsmodels_where_it_works():
    sm = pytest.importorskip("statsmodels.stats.power")
    # statsmodels' FTestAnovaPower uses Cohen's f with nobs = total; effect f^2 = lambda / N.
    n, m, min_d, variance = 20, 3, 0.5, 0.25
    lam = n * min_d ** 2 / (2 * variance)
    f = np.sqrt(lam / (n * m))
    ref = sm.FTestAnovaPower().power(effect_size=f, nobs=n * m, alpha=0.05, k_groups=m)
    rel = STATSMODELS_REL       # cdflib before scipy 1.15 (tests/_versions.py)
    assert tss.anova_power(n, m=m, min_d=min_d, variance=variance, alpha=0.05,
                           method="exact") == pytest.approx(ref, rel=rel)
    ref_t = sm.TTestPower().power(effect_size=0.5, nobs=34, alpha=0.05)
    assert tss.ttest_power(34, min_dt=0.5, variance_t=1.0, alpha=0.05,
                           method="exact") == pytest.approx(ref_t, rel=rel)   # nctdtr, likewise


def test_arguments_after_n_are_keyword_only():
    # Swapping alpha and beta (or any two inputs) positionally used to pass validation and give
    # a silently wrong power; now every argument after n must be named.
    with pytest.raises(TypeError):
        tss.anova_power(19, 3, 0.5, 0.25, 0.05)            # the old positional order
    with pytest.raises(TypeError):
        tss.ttest_power(33, 0.5, 1.0, 0.05)
    with pytest.raises(TypeError):
        tss.anova_legacy_terms(19, 3, 0.5, 0.25, 0.05)
    # Named, in any order, they give the published values: CIKM 2014 worked example, legacy
    # ANOVA power .791 at n = 19 and .813 at n = 20 (m = 3, minΔ = .5); t-test .795 and .808 at
    # n = 33 and 34 (minΔt = .5).
    assert round(tss.anova_power(19, alpha=0.05, variance=0.25, min_d=0.5, m=3), 3) == 0.791
    assert round(tss.anova_power(20, m=3, min_d=0.5, variance=0.25, alpha=0.05), 3) == 0.813
    assert round(tss.ttest_power(33, alpha=0.05, variance_t=1.0, min_dt=0.5), 3) == 0.795
    assert round(tss.ttest_power(34, min_dt=0.5, variance_t=1.0, alpha=0.05), 3) == 0.808


def test_anova_effect_does_not_overflow_or_underflow():
    from topicsetsize.designs.effects import anova_effect

    # Delta = minD^2/(2 sigma^2) = (minD/sigma)^2/2; minD^2 overflows (or underflows) alone.
    assert anova_effect(1e200, 1e200) == pytest.approx(0.5e200, rel=1e-15)
    assert anova_effect(1e-200, 1e-300) == pytest.approx(0.5 * 1e-400 / 1e-300, rel=1e-15)
    both = anova_effect(np.array([0.1, 1e200]), np.array([0.005, 1e200]))
    assert both[0] == 0.1 * 0.1 / (2 * 0.005) and both[1] == pytest.approx(0.5e200, rel=1e-15)
    assert anova_effect(0.1, 0.005) == 0.1 * 0.1 / 0.01          # the usual formula, bit for bit
    assert tss.anova_power(10, m=3, min_d=1e200, variance=1e200, alpha=0.05,
                           method="exact") == pytest.approx(1.0)


def test_legacy_anova_power_where_lambda_overflows():
    # minD²/(2σ²) beyond the float range: Δ = inf, and the legacy formula took inf/inf = NaN
    # (so anova_n searched in vain). Its limit is power 1, like any large effect.
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        huge = tss.anova_power(50, m=10, min_d=1e300, variance=0.05, alpha=0.05)
        large = tss.anova_power(50, m=10, min_d=10.0, variance=0.05, alpha=0.05)
        assert huge == large == 1.0
        # Where the legacy power is undefined (n = 2, m = 10: cA - a <= 0) it stays undefined.
        assert np.isnan(tss.anova_power(2, m=10, min_d=1e300, variance=0.05, alpha=0.05))
        assert tss.anova_n(0.05, 0.2, 1e300, 0.05, 10) == tss.anova_n(0.05, 0.2, 10.0, 0.05, 10)
        assert tss.anova_n(0.05, 0.2, 1e300, 0.05, 10, method="exact") == 2
        assert tss.ttest_n(0.05, 0.2, 1e300, 0.05, method="exact") == 2
