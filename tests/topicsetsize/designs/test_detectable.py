"""Minimum detectable differences: the inverse of the power in the effect."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import optimize

import topicsetsize as tss
from topicsetsize.numerics import roots


@pytest.mark.parametrize("method", ["legacy", "exact"])
@pytest.mark.parametrize("n,m", [(3, 3), (20, 3), (100, 10), (5000, 50), (10**8, 2)])
def test_min_d_reaches_exactly_the_power(method, n, m):
    d = tss.anova_min_d(n, m=m, variance=0.0601, alpha=0.05, beta=0.2, method=method)
    assert tss.anova_power(n, m=m, min_d=d, variance=0.0601, alpha=0.05,
                           method=method) == pytest.approx(0.8, abs=1e-9)
    assert tss.anova_power(n, m=m, min_d=d, variance=0.0601, alpha=0.05, method=method) >= 0.8
    assert tss.anova_power(n, m=m, min_d=d * (1 - 1e-6), variance=0.0601, alpha=0.05,
                           method=method) < 0.8


@pytest.mark.parametrize("method", ["legacy", "exact"])
def test_min_d_of_table2_sizes_is_at_most_the_asked_min_d(data_dir, method):
    import pandas as pd
    t = pd.read_csv(data_dir / "anova_table2_parts_I_II.csv")
    col = "n_legacy" if method == "legacy" else "n_exact"
    d = tss.anova_min_d(t[col].to_numpy(), m=t.m.to_numpy(), variance=t.variance.to_numpy(),
                        alpha=0.05, beta=0.2,
                        method=method)
    assert (d <= t.min_d.to_numpy() * (1 + 1e-12)).all()
    # ... and one topic fewer would not guarantee it
    d_less = tss.anova_min_d(t[col].to_numpy() - 1, m=t.m.to_numpy(),
                             variance=t.variance.to_numpy(),
                             alpha=0.05, beta=0.2, method=method)
    assert (d_less > t.min_d.to_numpy()).all()


@pytest.mark.parametrize("method", ["legacy", "exact"])
def test_min_dt_inverts_ttest_n(method):
    n = tss.ttest_n(0.05, 0.2, 0.05, 0.02, method=method)
    assert tss.ttest_min_dt(n, variance_t=0.02, alpha=0.05, beta=0.2, method=method) <= 0.05
    assert tss.ttest_min_dt(n - 1, variance_t=0.02, alpha=0.05, beta=0.2, method=method) > 0.05


def test_trivial_target_gives_zero():
    # with 1 - beta <= alpha any difference has the power (exact power >= alpha)
    assert tss.anova_min_d(10, m=3, variance=0.05, alpha=0.3, beta=0.8, method="exact") == 0.0


def test_legacy_unreachable_at_tiny_n():
    with pytest.raises(ValueError, match=r"^n=2 is too small for the legacy approximation"):
        tss.anova_min_d(2, m=2, variance=0.06, alpha=0.05, beta=0.2)


def test_vectorised():
    d = tss.anova_min_d([50, 100, 200], m=10, variance=0.0601, alpha=0.05, beta=0.2)
    assert d.shape == (3,) and (np.diff(d) < 0).all()


# --- regressions from the engine review ---------------------------------------------------

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


@settings(max_examples=60, deadline=None)
@given(alpha=st.floats(1e-4, 0.3), beta=st.floats(0.02, 0.9), n=st.integers(3, 5000),
       m=st.integers(2, 50), method=st.sampled_from(["legacy", "exact"]))
def test_min_d_has_the_power_to_the_last_bit(alpha, beta, n, m, method):
    try:
        d = tss.anova_min_d(n, m=m, variance=1.0, alpha=alpha, beta=beta, method=method)
    except ValueError:                 # legacy approximation undefined at this n
        if method == "exact":          # the exact power reaches any level: a bug
            raise
        return
    if d == 0:
        return
    assert tss.anova_power(n, m=m, min_d=d, variance=1.0, alpha=alpha, method=method) >= 1 - beta
    if method == "exact" or n >= 33:
        # where the power is monotone in n (the legacy curves wobble below the scan threshold,
        # e.g. alpha=.0547, beta=.0625, m=2: minD(3) has the power at n=3, not at n=4)
        assert tss.anova_n(alpha, beta, d, 1.0, m, method=method) <= n


def test_arguments_after_n_are_keyword_only():
    # anova_min_d(n, m, variance, alpha, beta) with alpha and beta swapped used to be a valid,
    # silently wrong call; now they must be named.
    with pytest.raises(TypeError):
        tss.anova_min_d(100, 10, 0.0601, 0.20, 0.05)
    with pytest.raises(TypeError):
        tss.ttest_min_dt(34, 1.0, 0.05, 0.20)
    # AIRS 2016 Table 2 (part I, MedNLPDoc raw recall): minD = .1 and m = 10 need 188 topics, so
    # 188 topics detect .1 and 187 do not (legacy).
    assert tss.anova_min_d(188, beta=0.20, alpha=0.05, variance=0.0601, m=10) <= 0.1
    assert tss.anova_min_d(187, m=10, variance=0.0601, alpha=0.05, beta=0.20) > 0.1


# --- scipy without scipy.optimize.elementwise (scipy 1.14, as in Pyodide / xlwings Lite) ------

_GRID = dict(n=np.array([20, 34, 188, 1000, 10**6]), m=np.array([[2], [10], [1000]]))
_ERRORS = [(0.05, 0.20), (0.01, 0.10), (1e-4, 0.05), (0.3, 0.6)]


def _both_designs(method, alpha, beta):
    d = tss.anova_min_d(_GRID["n"], m=_GRID["m"], variance=0.0601, alpha=alpha, beta=beta,
                        method=method)
    dt = tss.ttest_min_dt(_GRID["n"], variance_t=0.1, alpha=alpha, beta=beta, method=method)
    return d, dt


@pytest.mark.parametrize("method", ["legacy", "exact"])
def test_fallback_root_finder_gives_the_same_answers(monkeypatch, method):
    if roots.elementwise is None:
        pytest.skip("this scipy has no scipy.optimize.elementwise: only the fallback exists")
    for alpha, beta in _ERRORS:
        want = _both_designs(method, alpha, beta)
        with monkeypatch.context() as patch:
            patch.setattr(roots, "elementwise", None)
            got = _both_designs(method, alpha, beta)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=0)


@pytest.mark.parametrize("method", ["legacy", "exact"])
def test_fallback_root_finder_against_brentq(monkeypatch, method):
    # Independent: scipy.optimize.brentq (in every scipy) on the power in lambda, cell by cell.
    monkeypatch.setattr(roots, "elementwise", None)
    for alpha, beta in _ERRORS:
        d, dt = _both_designs(method, alpha, beta)
        for i, n in enumerate(_GRID["n"]):
            for j, m in enumerate(_GRID["m"].ravel()):
                def gap(lam):
                    return tss.anova_power(n, m=m, min_d=np.sqrt(2 * 0.0601 * lam / n),
                                           variance=0.0601, alpha=alpha,
                                           method=method) - (1 - beta)
                lam = optimize.brentq(lambda x: np.nan_to_num(gap(x), nan=-1.0), 1e-9, 1e7,
                                      xtol=1e-14, rtol=1e-14)
                assert d[j, i] == pytest.approx(np.sqrt(2 * 0.0601 * lam / n), rel=1e-10)
            power = tss.ttest_power(n, min_dt=dt[i], variance_t=0.1, alpha=alpha, method=method)
            below = tss.ttest_power(n, min_dt=dt[i] * (1 - 1e-9), variance_t=0.1, alpha=alpha,
                                    method=method)
            assert power >= 1 - beta > below


@pytest.mark.parametrize("call", [
    lambda n: tss.anova_min_d(n, m=2, variance=0.0601, alpha=0.05, beta=0.20),
    lambda n: tss.anova_min_d(n, m=10, variance=0.1, alpha=0.05, beta=0.01),
])
def test_too_few_topics_for_legacy_says_from_which_n(call):
    """The message names the smallest n at which the legacy approximation has a λ: that n
    works, the one below it does not."""
    import re

    with pytest.raises(tss.InputError, match=r"n=2 is too small .* allowed n >= \d+, or "
                                             r"method='exact'") as info:
        call(2)
    need = int(re.search(r"n >= (\d+)", str(info.value)).group(1))
    assert call(need) > 0       # defined from there (n - 1 = 2 is the size that failed)
    for below in range(2, need):
        with pytest.raises(tss.InputError):
            call(below)
