"""Minimum detectable differences: the inverse of the power in the effect."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import topicsetsize as tss


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
