"""Required n: published tables, worked examples, brute force and properties."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

import topicsetsize as tss
from topicsetsize.designs.anova import anova_power_at
from topicsetsize.designs.ttest import ttest_power_at
from topicsetsize.designs.legacy import _monotone_from



@pytest.fixture(scope="module")
def table2(data_dir):
    # AIRS 2016 Table 2 parts I-II (alpha=.05, beta=.20); n_legacy = published values,
    # n_exact = smallest n with exact noncentral-F power >= .80 (project reference notes).
    return pd.read_csv(data_dir / "anova_table2_parts_I_II.csv")


@pytest.mark.parametrize("method,column", [("legacy", "n_legacy"), ("exact", "n_exact")])
def test_anova_table2_all_cells(table2, method, column):
    got = tss.anova_n(table2.alpha.to_numpy(), table2.beta.to_numpy(), table2.min_d.to_numpy(),
                      table2.variance.to_numpy(), table2.m.to_numpy(), method=method)
    wrong = table2[got != table2[column].to_numpy()]
    assert len(table2) == 100
    assert wrong.empty, wrong.assign(got=got[got != table2[column].to_numpy()])


def test_anova_table2_cell_by_cell_equals_vectorised(table2):
    rows = table2.sample(12, random_state=0)
    for r in rows.itertuples():
        assert tss.anova_n(r.alpha, r.beta, r.min_d, r.variance, r.m) == r.n_legacy
        assert tss.anova_n(r.alpha, r.beta, r.min_d, r.variance, r.m, method="exact") == r.n_exact


def test_anova_worked_example_cikm2014():
    # CIKM 2014 worked example: alpha=.05, beta=.20, m=3, minDelta=.5 -> lambda-hat 9.929,
    # n=19: cA=1.826, phiA*=6.298, u=-.809, power .791; n=20: power .813 -> n=20.
    assert tss.anova_n(0.05, 0.20, 0.5, 0.25, 3) == 20
    # lambda-hat = n0 * minDelta, with minDelta = .5^2 / (2 * .25) = .5
    assert tss.anova_initial_n(0.05, 0.20, 0.5, 0.25, 3) * 0.5 == pytest.approx(9.929, abs=5e-4)
    t19 = tss.anova_legacy_terms(19, m=3, min_d=0.5, variance=0.25, alpha=0.05)
    assert (round(t19.c_a, 3), round(t19.phi_a_star, 3), round(t19.u, 3)) == (1.826, 6.298, -0.809)
    assert round(t19.power, 3) == 0.791
    assert round(tss.anova_power(20, m=3, min_d=0.5, variance=0.25, alpha=0.05), 3) == 0.813
    assert isinstance(tss.anova_n(0.05, 0.20, 0.5, 0.25, 3), int)


def test_nagata_initial_estimate_is_far_from_the_answer():
    # AIRS 2016 Table 2 (part I): Nagata's n0 for m=2, minD=.02, var=.0601 is 2537; the answer 2301.
    assert int(tss.anova_initial_n(0.05, 0.20, 0.02, 0.0601, 2)) == 2537
    assert tss.anova_n(0.05, 0.20, 0.02, 0.0601, 2) == 2301


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


def test_legacy_undersizes_and_oversizes():
    # AIRS 2016 Table 2 / docs/formulas.md §8: legacy 2301 vs exact 2360 (exact power at 2301
    # is .79); m=100, minD=.02, var=.213, (.05,.10): legacy 52404, exact 52276.
    assert tss.anova_power(2301, m=2, min_d=0.02, variance=0.0601, alpha=0.05,
                           method="exact") == pytest.approx(0.79, abs=5e-3)
    assert tss.anova_n(0.05, 0.10, 0.02, 0.213, 100) == 52404
    assert tss.anova_n(0.05, 0.10, 0.02, 0.213, 100, method="exact") == 52276


def _brute_force(power, target, upto):
    """Smallest n from which power stays >= target, by evaluating every n up to `upto`."""
    n = np.arange(2, upto + 1, dtype=float)
    fail = ~(power(n) >= target)
    return 2 if not fail.any() else int(n[np.flatnonzero(fail)[-1]]) + 1


@settings(max_examples=60, deadline=None)
@given(alpha=st.sampled_from([0.2, 0.1, 0.05, 0.01, 1e-3, 1e-5]), beta=st.floats(0.02, 0.7),
       m=st.sampled_from([2, 3, 5, 10, 40]), log_effect=st.floats(np.log(5e-3), np.log(30)),
       method=st.sampled_from(["legacy", "exact"]))
def test_anova_n_matches_brute_force(alpha, beta, m, log_effect, method):
    effect = float(np.exp(log_effect))
    n = tss.anova_n(alpha, beta, np.sqrt(2 * effect), 1.0, m, method=method)
    brute = _brute_force(lambda nn: anova_power_at(nn, m, effect, alpha, method), 1 - beta,
                         max(3 * n, 300))
    assert n == brute


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
@given(alpha=st.floats(1e-4, 0.3), beta=st.floats(0.02, 0.6), m=st.integers(2, 60),
       min_d=st.floats(0.01, 0.5), variance=st.floats(0.002, 0.3),
       method=st.sampled_from(["legacy", "exact"]))
def test_anova_power_condition_and_monotonicity(alpha, beta, m, min_d, variance, method):
    n = tss.anova_n(alpha, beta, min_d, variance, m, method=method)
    assert tss.anova_power(n, m=m, min_d=min_d, variance=variance, alpha=alpha,
                           method=method) >= 1 - beta
    if n > 2:
        below = tss.anova_power(n - 1, m=m, min_d=min_d, variance=variance, alpha=alpha,
                                method=method)
        assert not below >= 1 - beta          # NaN (undefined legacy) also counts as "not met"
    # n falls as min_d grows; rises with m, variance and 1/alpha
    assert tss.anova_n(alpha, beta, min_d * 1.5, variance, m, method=method) <= n
    if n >= 20:
        # Only past tiny n, for both methods: there more systems also mean more error df
        # m(n - 1), which can outweigh the larger phi_A (see test_n_can_fall_with_m_at_tiny_n),
        # and the legacy approximation is undefined (cA - a <= 0) over a range of n that
        # shrinks as m grows.
        assert tss.anova_n(alpha, beta, min_d, variance, m + 3, method=method) >= n
    assert tss.anova_n(alpha, beta, min_d, variance * 1.5, m, method=method) >= n
    assert tss.anova_n(alpha / 2, beta, min_d, variance, m, method=method) >= n
    # what n guarantees is at least as good as asked for
    assert tss.anova_min_d(n, m=m, variance=variance, alpha=alpha, beta=beta,
                           method=method) <= min_d * (1 + 1e-9)


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


@pytest.mark.parametrize("method", ["legacy", "exact"])
def test_extreme_ranges(method):
    # n = 2 with a huge effect, and minD = .0005 (tens of millions of topics)
    # (with m = 2 the legacy approximation is undefined at n = 2: a = 9.26 > cA, so it needs 3)
    assert tss.anova_n(0.05, 0.2, 5.0, 0.01, 100, method=method) == 2
    assert tss.anova_n(0.05, 0.2, 5.0, 0.01, 2, method=method) == (3 if method == "legacy" else 2)
    assert np.isnan(tss.anova_power(2, m=2, min_d=5.0, variance=0.01, alpha=0.05)) and method
    assert tss.ttest_n(0.05, 0.2, 50.0, 0.01, method=method) == 2
    big = tss.anova_n(0.05, 0.2, 0.0005, 0.0601, 10, method=method)
    assert 5e6 < big < 1e8
    assert tss.anova_power(big, m=10, min_d=0.0005, variance=0.0601, alpha=0.05,
                           method=method) >= 0.8
    assert tss.anova_power(big - 1, m=10, min_d=0.0005, variance=0.0601, alpha=0.05,
                           method=method) < 0.8
    huge = tss.ttest_n(0.05, 0.2, 0.00005, 0.1, method=method)   # about 3.1e8 topics
    assert 1e8 < huge <= 1e9
    assert tss.ttest_power(huge - 1, min_dt=0.00005, variance_t=0.1, alpha=0.05,
                           method=method) < 0.8
    assert tss.ttest_power(huge, min_dt=0.00005, variance_t=0.1, alpha=0.05, method=method) >= 0.8


def test_any_alpha_beta_pair_for_anova():
    # The legacy sheet had four (alpha, beta) pairs; any pair works here, both ways round.
    for a, b in [(0.1, 0.3), (0.001, 0.05), (0.2, 0.5)]:
        for method in ("legacy", "exact"):
            n = tss.anova_n(a, b, 0.1, 0.05, 5, method=method)
            assert tss.anova_power(n, m=5, min_d=0.1, variance=0.05, alpha=a,
                                   method=method) >= 1 - b


def test_unreachable_raises_and_names_inputs():
    with pytest.raises(tss.SearchLimitError, match=r"search limit of 1,000,000,000.*min_d=1e-07"):
        tss.anova_n(0.05, 0.2, 1e-7, 0.06, 10)
    with pytest.raises(ValueError, match="search limit"):
        tss.ttest_n(0.05, 0.2, 1e-7, 0.06, method="exact")


@pytest.mark.parametrize("call,match", [
    (lambda: tss.anova_n(1.5, 0.2, 0.1, 0.06, 10),
     r"^alpha=1.5 is out of range: allowed 0 < alpha < 1$"),
    (lambda: tss.anova_n(0.05, 0.0, 0.1, 0.06, 10), r"^beta=0 is out of range"),
    (lambda: tss.anova_n(0.05, 0.2, 0.1, 0.06, 1),
     r"^m=1 is out of range: allowed 2 <= m <= 1000000000"),
    (lambda: tss.anova_n(0.05, 0.2, 0.1, 0.06, 2.5), r"^m=2.5 is not a whole number"),
    (lambda: tss.anova_n(0.05, 0.2, 0.1, -1, 10),
     r"^variance=-1 is out of range: allowed variance > 0"),
    (lambda: tss.anova_n(0.05, 0.2, 0.0, 0.06, 10), r"^min_d=0 is out of range"),
    (lambda: tss.anova_n("a", 0.2, 0.1, 0.06, 10), r"^alpha='a' is not a number"),
    (lambda: tss.anova_n(0.05, 0.2, 0.1, 0.06, 10, method="fast"), r"^method='fast' is not one of"),
    (lambda: tss.anova_power(1, m=10, min_d=0.1, variance=0.06, alpha=0.05),
     r"^n=1 is out of range: allowed 2 <= n"),
    (lambda: tss.ttest_n(0.05, 0.2, float("nan"), 0.1), r"^min_dt=nan is out of range"),
    (lambda: tss.ci_n(0.05, 0.1, None), r"^variance_t=None is not a number"),
])
def test_bad_input_one_line_messages(call, match):
    with pytest.raises(ValueError, match=match) as info:
        call()
    assert "\n" not in str(info.value)


def test_vectorised_equals_scalar_and_shapes():
    min_ds = np.array([0.02, 0.05, 0.1])
    ms = np.array([[2], [10]])
    grid = tss.anova_n(0.05, 0.2, min_ds, 0.0601, ms, method="exact")
    assert grid.shape == (2, 3)
    for i, m in enumerate(ms[:, 0]):
        for j, d in enumerate(min_ds):
            assert grid[i, j] == tss.anova_n(0.05, 0.2, d, 0.0601, int(m), method="exact")


@pytest.mark.slow
def test_monotone_thresholds_hold():
    """The legacy power curves really are monotone from the thresholds the search relies on.

    Repeats the sweep documented in `_monotone_from`: beyond the threshold, any decrease of
    the legacy power in n happens only below the power levels the threshold covers.
    """
    n = np.arange(2, 3001, dtype=float)
    for alpha in (0.5, 0.05, 0.01, 1e-3, 1e-5, 1e-8):
        start = int(_monotone_from("anova", "legacy", alpha, 0.8))
        for m in (2, 3, 10, 100):
            for effect in np.geomspace(1e-3, 50, 40):
                p = np.nan_to_num(anova_power_at(n, m, effect, alpha, "legacy"), nan=-1.0)
                assert not (np.diff(p[start - 2:]) < -1e-13).any(), (alpha, m, effect)
        start = int(_monotone_from("ttest", "legacy", alpha, 0.8))
        for es in np.geomspace(1e-3, 20, 60):
            p = ttest_power_at(n, es, alpha, "legacy")
            drops = np.flatnonzero(np.diff(p) < 0) + 1
            drops = drops[n[drops] > start]
            assert (p[drops - 1] <= 10 * alpha).all(), (alpha, es)


def test_huge_effects_do_not_look_unreachable():
    # review: Boost's NaN at lambda >= 1e20 used to read as "not met" -> SearchLimitError
    assert tss.anova_n(0.05, 0.2, 1.0, 1e-20, 10, method="exact") == 2
    assert tss.ttest_n(0.05, 0.2, 1.0, 1e-20, method="exact") == 2
    assert tss.anova_power(2, m=10, min_d=1.0, variance=1e-20, alpha=0.05, method="exact") == 1.0


def test_shape_mismatch_and_scale_messages():
    with pytest.raises(ValueError, match=r"^the arguments do not fit together: min_d has 2 "
                                         r"values, m has 3 values"):
        tss.anova_n(0.05, 0.2, [0.1, 0.2], 0.06, [2, 3, 4])
    with pytest.raises(ValueError, match=r"^min_dt/sqrt\(variance_t\)=0 is out of range"):
        tss.ttest_n(0.05, 0.2, 1e-300, 1e300)


def test_n_can_fall_with_m_at_tiny_n():
    """More systems, same worst-case lambda = n*Delta, but more error df: at n = 5 and
    alpha = 1e-4 the m = 5 design already has the power the m = 2 design lacks. Checked
    independently with scipy.stats.ncf (Delta = .5^2 / (2 * .015625) = 8, lambda = 40)."""
    from scipy import stats
    power = {m: stats.ncf.sf(stats.f.isf(1e-4, m - 1, m * 4), m - 1, m * 4, 40.0) for m in (2, 5)}
    assert power[2] < 0.5 <= power[5]
    assert tss.anova_n(1e-4, 0.5, 0.5, 0.015625, 2, method="exact") == 6
    assert tss.anova_n(1e-4, 0.5, 0.5, 0.015625, 5, method="exact") == 5
