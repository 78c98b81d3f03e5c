"""The one-way ANOVA design (designs/anova.py): power, n, minimum detectable range and tables,
against the published tables, brute force, Monte Carlo and statsmodels."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import topicsetsize as tss
from topicsetsize.designs.anova import anova_power_at

from ._common import _brute_force


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


def test_legacy_anova_power_where_lambda_overflows():
    # minD²/(2σ²) beyond the float range: Δ = inf, and the legacy formula took inf/inf = NaN
    # (so anova_n searched in vain). Its limit is power 1, like any large effect.
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # minD = 10 with V_E = .05 is noted as a slip of units (ScaleWarning), which is not
        # numerics; minD = 1e300 is not a slip of anything, and silent
        warnings.filterwarnings("ignore", "min_d=10 is beyond", tss.ScaleWarning)
        huge = tss.anova_power(50, m=10, min_d=1e300, variance=0.05, alpha=0.05)
        large = tss.anova_power(50, m=10, min_d=10.0, variance=0.05, alpha=0.05)
        assert huge == large == 1.0
        # Where the legacy power is undefined (n = 2, m = 10: cA - a <= 0) it stays undefined.
        assert np.isnan(tss.anova_power(2, m=10, min_d=1e300, variance=0.05, alpha=0.05))
        assert tss.anova_n(0.05, 0.2, 1e300, 0.05, 10) == tss.anova_n(0.05, 0.2, 10.0, 0.05, 10)
        assert tss.anova_n(0.05, 0.2, 1e300, 0.05, 10, method="exact") == 2
        assert tss.ttest_n(0.05, 0.2, 1e300, 0.05, method="exact") == 2


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


def test_legacy_undersizes_and_oversizes():
    # AIRS 2016 Table 2 / docs/formulas.md §8: legacy 2301 vs exact 2360 (exact power at 2301
    # is .79); m=100, minD=.02, var=.213, (.05,.10): legacy 52404, exact 52276.
    assert tss.anova_power(2301, m=2, min_d=0.02, variance=0.0601, alpha=0.05,
                           method="exact") == pytest.approx(0.79, abs=5e-3)
    assert tss.anova_n(0.05, 0.10, 0.02, 0.213, 100) == 52404
    assert tss.anova_n(0.05, 0.10, 0.02, 0.213, 100, method="exact") == 52276


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
    with pytest.raises(tss.InputError, match="search limit"):
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
    (lambda: tss.ttest_n(0.05, 0.2, float("nan"), 0.1), r"^min_dt=nan is not a finite number"),
    (lambda: tss.ci_n(0.05, 0.1, None), r"^variance_t=None is not a number"),
])
def test_bad_input_one_line_messages(call, match):
    with pytest.raises(tss.InputError, match=match) as info:
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


def test_huge_effects_do_not_look_unreachable():
    # review: Boost's NaN at lambda >= 1e20 used to read as "not met" -> SearchLimitError
    assert tss.anova_n(0.05, 0.2, 1.0, 1e-20, 10, method="exact") == 2
    assert tss.ttest_n(0.05, 0.2, 1.0, 1e-20, method="exact") == 2
    assert tss.anova_power(2, m=10, min_d=1.0, variance=1e-20, alpha=0.05, method="exact") == 1.0


def test_n_can_fall_with_m_at_tiny_n():
    """More systems, same worst-case lambda = n*Delta, but more error df: at n = 5 and
    alpha = 1e-4 the m = 5 design already has the power the m = 2 design lacks. Checked
    independently with scipy.stats.ncf (Delta = .5^2 / (2 * .015625) = 8, lambda = 40)."""
    from scipy import stats
    power = {m: stats.ncf.sf(stats.f.isf(1e-4, m - 1, m * 4), m - 1, m * 4, 40.0) for m in (2, 5)}
    assert power[2] < 0.5 <= power[5]
    assert tss.anova_n(1e-4, 0.5, 0.5, 0.015625, 2, method="exact") == 6
    assert tss.anova_n(1e-4, 0.5, 0.5, 0.015625, 5, method="exact") == 5


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


def test_trivial_target_gives_zero():
    # with 1 - beta <= alpha any difference has the power (exact power >= alpha)
    assert tss.anova_min_d(10, m=3, variance=0.05, alpha=0.3, beta=0.8, method="exact") == 0.0


def test_legacy_unreachable_at_tiny_n():
    with pytest.raises(tss.InputError, match=r"^n=2 is too small for the legacy approximation"):
        tss.anova_min_d(2, m=2, variance=0.06, alpha=0.05, beta=0.2)


def test_vectorised():
    d = tss.anova_min_d([50, 100, 200], m=10, variance=0.0601, alpha=0.05, beta=0.2)
    assert d.shape == (3,) and (np.diff(d) < 0).all()


@settings(max_examples=60, deadline=None)
@given(alpha=st.floats(1e-4, 0.3), beta=st.floats(0.02, 0.9), n=st.integers(3, 5000),
       m=st.integers(2, 50), method=st.sampled_from(["legacy", "exact"]))
@pytest.mark.slow
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


@pytest.mark.parametrize("method,column", [("legacy", "n_legacy"), ("exact", "n_exact")])
def test_anova_table_reproduces_table2(data_dir, method, column):
    ref = pd.read_csv(data_dir / "anova_table2_parts_I_II.csv")
    for (measure, variance), part in ref.groupby(["measure", "variance"]):
        table = tss.anova_table(0.05, beta=0.20, variance=variance, ms=sorted(part.m.unique()),
                                min_ds=sorted(part.min_d.unique()), method=method)
        expected = part.pivot(index="m", columns="min_d", values=column)
        assert (table.to_numpy() == expected.to_numpy()).all(), measure
        assert list(table.index) == list(expected.index)
        assert table.index.name == "m" and table.columns.name == "min_d"


def test_arguments_after_alpha_are_keyword_only():
    with pytest.raises(TypeError):
        tss.anova_table(0.05, 0.20, 0.0601, [2, 10], [0.02, 0.1])
    with pytest.raises(TypeError):
        tss.ttest_table(0.05, 0.20, [0.04], [0.1])
    # AIRS 2016 Table 2, part I (MedNLPDoc raw recall, sigma^2 = .0601), legacy.
    t = tss.anova_table(0.05, min_ds=[0.02, 0.1], ms=[2, 10], variance=0.0601, beta=0.20)
    assert t.to_numpy().tolist() == [[2301, 93], [4680, 188]]
