"""The paired t-test design (designs/ttest.py): power, n, minimum detectable difference and tables,
against the CIKM 2014 worked examples, brute force, Monte Carlo and statsmodels."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import topicsetsize as tss
from tests._versions import STATSMODELS_REL
from topicsetsize.designs.ttest import ttest_power_at
from topicsetsize.errors import InputError

from ._common import _brute_force


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


def test_ttest_worked_examples():
    # CIKM 2014 worked example: minDeltaT=.5 -> n0=33.3, power .795 at 33, .808 at 34 -> 34;
    # minDeltaT=.2 -> 199.
    assert tss.ttest_initial_n(0.05, 0.20, 0.5) == pytest.approx(33.3, abs=0.05)
    assert tss.ttest_n_effect(0.05, 0.20, 0.5) == 34
    assert round(tss.ttest_power(33, min_dt=0.5, variance_t=1.0, alpha=0.05), 3) == 0.795
    assert round(tss.ttest_power(34, min_dt=0.5, variance_t=1.0, alpha=0.05), 3) == 0.808
    assert tss.ttest_n_effect(0.05, 0.20, 0.2) == 199
    assert tss.ttest_n(0.05, 0.20, 0.5, 1.0) == 34
    assert tss.ttest_n(0.05, 0.20, 0.1, 0.04) == 34       # minDt/sigma_t = .5


def test_legacy_ttest_tiny_phi_quirk():
    # docs/formulas.md §5: at phi=1 with alpha=.001 the legacy approximation gives .289 whatever
    # the effect; the exact power is .001.
    for d in (0.01, 1.0, 5.0):
        assert tss.ttest_power(2, min_dt=d, variance_t=1.0, alpha=0.001) == pytest.approx(0.289,
                                                                                          abs=5e-4)
    assert tss.ttest_power(2, min_dt=0.01, variance_t=1.0, alpha=0.001,
                           method="exact") == pytest.approx(0.001, rel=0.01)
    # So "first n with power >= .25" would stop at n=2; the stay-above definition does not.
    n = tss.ttest_n_effect(0.001, 0.75, 0.01)
    assert n > 2
    assert tss.ttest_power(n - 1, min_dt=0.01, variance_t=1.0,
                           alpha=0.001) < 0.25 <= tss.ttest_power(n, min_dt=0.01, variance_t=1.0,
                                                                  alpha=0.001)


@settings(max_examples=60, deadline=None)
@pytest.mark.slow
@given(alpha=st.sampled_from([0.5, 0.1, 0.05, 0.01, 1e-3, 1e-6]), beta=st.floats(0.01, 0.9),
       log_es=st.floats(np.log(0.03), np.log(8)), method=st.sampled_from(["legacy", "exact"]))
def test_ttest_n_matches_brute_force(alpha, beta, log_es, method):
    es = float(np.exp(log_es))
    n = tss.ttest_n_effect(alpha, beta, es, method=method)
    brute = _brute_force(lambda nn: ttest_power_at(nn, es, alpha, method), 1 - beta,
                         max(3 * n, 2500))
    assert n == brute


@settings(max_examples=40, deadline=None)
@given(alpha=st.floats(1e-4, 0.3), beta=st.floats(0.02, 0.6), min_dt=st.floats(0.005, 1.0),
       variance_t=st.floats(0.002, 0.5), method=st.sampled_from(["legacy", "exact"]))
def test_ttest_power_condition(alpha, beta, min_dt, variance_t, method):
    n = tss.ttest_n(alpha, beta, min_dt, variance_t, method=method)
    assert tss.ttest_power(n, min_dt=min_dt, variance_t=variance_t, alpha=alpha,
                           method=method) >= 1 - beta
    if n > 2:
        assert tss.ttest_power(n - 1, min_dt=min_dt, variance_t=variance_t, alpha=alpha,
                               method=method) < 1 - beta
    assert tss.ttest_n(alpha, beta, min_dt * 1.5, variance_t, method=method) <= n
    assert tss.ttest_min_dt(n, variance_t=variance_t, alpha=alpha, beta=beta,
                            method=method) <= min_dt * (1 + 1e-9)


def test_shape_mismatch_and_scale_messages():
    with pytest.raises(InputError, match=r"^the arguments do not fit together: min_d has 2 "
                                         r"values, m has 3 values"):
        tss.anova_n(0.05, 0.2, [0.1, 0.2], 0.06, [2, 3, 4])
    with pytest.raises(InputError, match=r"^min_dt/sqrt\(variance_t\)=0 is out of range"):
        tss.ttest_n(0.05, 0.2, 1e-300, 1e300)


@pytest.mark.parametrize("method", ["legacy", "exact"])
def test_min_dt_inverts_ttest_n(method):
    n = tss.ttest_n(0.05, 0.2, 0.05, 0.02, method=method)
    assert tss.ttest_min_dt(n, variance_t=0.02, alpha=0.05, beta=0.2, method=method) <= 0.05
    assert tss.ttest_min_dt(n - 1, variance_t=0.02, alpha=0.05, beta=0.2, method=method) > 0.05


def test_exact_ttest_trivial_target_is_zero_not_a_crash():
    # 1 - beta <= alpha: used to expand lambda until Boost failed (FloatingPointError)
    assert tss.ttest_min_dt(10, variance_t=1.0, alpha=0.3, beta=0.8, method="exact") == 0.0
    assert tss.ttest_min_dt(2, variance_t=1.0, alpha=1.5e-10, beta=0.62, method="exact") >= 0.0


def test_ttest_min_dt_at_huge_noncentrality():
    # n = 2, alpha = 1e-6: the exact minDt needs lambda ~ 8e5, where Boost's nct is wrong;
    # the returned minDt must have the power (checked by the quadrature path) ...
    d = tss.ttest_min_dt(2, variance_t=1.0, alpha=1e-6, beta=0.2, method="exact")
    assert tss.ttest_power(2, min_dt=d, variance_t=1.0, alpha=1e-6, method="exact") >= 0.8
    assert tss.ttest_power(2, min_dt=d * (1 - 1e-6), variance_t=1.0, alpha=1e-6,
                           method="exact") < 0.8


def test_ttest_table_cells_equal_ttest_n():
    t = tss.ttest_table(0.01, beta=0.1, variance_t=[0.02, 0.2], min_dts=[0.01, 0.05, 0.1],
                        method="exact")
    for v in t.index:
        for d in t.columns:
            assert t.loc[v, d] == tss.ttest_n(0.01, 0.1, d, v, method="exact")


@pytest.mark.parametrize("alpha", [0.05, [0.05, 0.01]])
def test_search_limit_names_min_dt_and_variance_t_as_given(alpha):
    """ttest_n(min_dt, variance_t) said "min_delta_t=5e-10" when no n up to 10⁹ topics was
    enough (a reviewer's finding): the effect it computed, not what was given. It names the
    arguments given now, for a scalar call and a vectorised one alike. Beyond the limit: the
    normal approximation ((z_{α/2} + z_β)/minΔt)² ≈ 3.1e19 topics at minΔt = 5e-10."""
    from topicsetsize.numerics.search import SearchLimitError

    need = ((stats.norm.isf(0.025) + stats.norm.isf(0.2)) / 5e-10) ** 2
    assert need > 1e9
    with pytest.raises(SearchLimitError, match=r"min_dt=1e-09, variance_t=4 \(exact\)"):
        tss.ttest_n(alpha, 0.2, 1e-9, 4.0, method="exact")
