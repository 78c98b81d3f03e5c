"""Two-way ANOVA (randomised block) design: checked against a brute-force scipy search, a Monte
Carlo of the two-way F test on block data, and the paired t-test it equals at m = 2."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import topicsetsize as tss
from topicsetsize.designs.anova2 import (
    anova2_df,
    anova2_min_d,
    anova2_n,
    anova2_power,
    anova2_table,
)
from topicsetsize.errors import InputError


def brute_force_power(n, m, min_d, variance, alpha):
    """The power straight from scipy.stats, no package code: ncf.sf at f.isf."""
    dfn, dfd = m - 1, (m - 1) * (n - 1)
    lam = n * min_d ** 2 / (2 * variance)
    return stats.ncf.sf(stats.f.isf(alpha, dfn, dfd), dfn, dfd, lam)


def brute_force_n(alpha, beta, min_d, variance, m, n_max=20000):
    """First n from 2 on whose scipy power reaches 1 - beta (the exact power rises with n)."""
    n = np.arange(2, n_max)
    ok = brute_force_power(n, m, min_d, variance, alpha) >= 1 - beta
    return int(n[np.argmax(ok)])


GRID = list(itertools.product([0.05, 0.01], [0.20, 0.10], [0.05, 0.1, 0.2], [0.0127, 0.0601],
                              [2, 3, 10, 50]))


@pytest.mark.parametrize("alpha, beta, min_d, variance, m", GRID)
def test_n_equals_brute_force_search(alpha, beta, min_d, variance, m):
    assert anova2_n(alpha, beta, min_d, variance, m) == brute_force_n(alpha, beta, min_d,
                                                                      variance, m)


def test_vectorised_n_equals_cellwise():
    a, b, d, v, m = (np.array(col) for col in zip(*GRID))
    assert anova2_n(a, b, d, v, m).tolist() == [anova2_n(*cell) for cell in GRID]


@pytest.mark.parametrize("n, m, min_d, variance, alpha",
                         [(10, 2, 0.1, 0.02, 0.05), (48, 20, 0.05, 0.0141, 0.05),
                          (200, 100, 0.1, 0.05, 0.01), (5, 5, 0.3, 0.02, 0.001)])
def test_power_equals_scipy(n, m, min_d, variance, alpha):
    assert anova2_power(n, m=m, min_d=min_d, variance=variance, alpha=alpha) == pytest.approx(
        brute_force_power(n, m, min_d, variance, alpha), rel=1e-9)


def two_way_f(x):
    """Two-way ANOVA without replication F of the systems (columns), per matrix of a batch."""
    n, m = x.shape[-2:]
    grand = x.mean(axis=(-2, -1), keepdims=True)
    col = x.mean(axis=-2, keepdims=True)
    row = x.mean(axis=-1, keepdims=True)
    ss_a = n * ((col - grand) ** 2).sum(axis=(-2, -1))
    ss_e = ((x - col - row + grand) ** 2).sum(axis=(-2, -1))
    return (ss_a / (m - 1)) / (ss_e / ((m - 1) * (n - 1)))


def test_two_way_f_equals_statsmodels():
    from statsmodels.formula.api import ols
    from statsmodels.stats.anova import anova_lm

    rng = np.random.default_rng(3)
    x = rng.normal(size=(12, 4)) + rng.normal(size=(12, 1))
    long = pd.DataFrame({"y": x.ravel(), "topic": np.repeat(np.arange(12), 4).astype(str),
                         "run": np.tile(np.arange(4), 12).astype(str)})
    table = anova_lm(ols("y ~ C(run) + C(topic)", data=long).fit())
    assert two_way_f(x) == pytest.approx(table.loc["C(run)", "F"], rel=1e-10)


@pytest.mark.parametrize("n, m, min_d, alpha", [(10, 5, 0.15, 0.05), (20, 3, 0.1, 0.05),
                                                (8, 10, 0.25, 0.01)])
def test_power_by_monte_carlo(n, m, min_d, alpha):
    # Normal topic x system scores: large topic (block) effects, systems in the least
    # favourable configuration (two minD apart, the rest at the mean), residual sd .1.
    sigma2, trials = 0.01, 6000
    rng = np.random.default_rng(2014 + n + m)
    means = np.zeros(m)
    means[0], means[1] = min_d / 2, -min_d / 2
    blocks = rng.normal(0, 0.2, size=(trials, n, 1))
    x = blocks + means + rng.normal(0, np.sqrt(sigma2), size=(trials, n, m))
    crit = stats.f.isf(alpha, m - 1, (m - 1) * (n - 1))
    rate = np.mean(two_way_f(x) > crit)
    power = anova2_power(n, m=m, min_d=min_d, variance=sigma2, alpha=alpha)
    se = np.sqrt(power * (1 - power) / trials)
    assert abs(rate - power) < 3 * se, (rate, power, se)
    assert 0.1 < power < 0.95         # a test that could fail in both directions


@pytest.mark.parametrize("n", [2, 3, 10, 34, 100, 2360])
@pytest.mark.parametrize("d, s2, alpha", [(0.5, 0.5, 0.05), (0.02, 0.0601, 0.05),
                                          (0.1, 0.01, 0.01)])
def test_m2_equals_exact_paired_t_power(n, d, s2, alpha):
    # F(1, n-1, λ) is t'(n-1, √λ)² with λ = n d²/(2 s2) = (√n d/σt)², σt² = 2 s2.
    p2 = anova2_power(n, m=2, min_d=d, variance=s2, alpha=alpha)
    pt = tss.ttest_power(n, min_dt=d, variance_t=2 * s2, alpha=alpha, method="exact")
    assert abs(p2 - pt) < 1e-9


@pytest.mark.parametrize("alpha, beta, d, s2", list(itertools.product(
    [0.05, 0.01], [0.2, 0.1], [0.02, 0.05, 0.1, 0.5], [0.0127, 0.0601, 0.5])))
def test_m2_n_equals_exact_paired_t_n(alpha, beta, d, s2):
    assert anova2_n(alpha, beta, d, s2, 2) == tss.ttest_n(alpha, beta, d, 2 * s2,
                                                          method="exact")


@pytest.mark.parametrize("n, m, variance, alpha, beta",
                         [(100, 10, 0.0601, 0.05, 0.2), (20, 2, 0.02, 0.01, 0.1),
                          (5000, 100, 0.0127, 0.05, 0.2), (3, 3, 0.5, 0.05, 0.2)])
def test_min_d_is_the_smallest_detectable_range(n, m, variance, alpha, beta):
    d = anova2_min_d(n, m=m, variance=variance, alpha=alpha, beta=beta)
    assert anova2_power(n, m=m, min_d=d, variance=variance, alpha=alpha) >= 1 - beta
    below = d * (1 - 1e-9)
    assert brute_force_power(n, m, below, variance, alpha) < 1 - beta
    # and it inverts the sample size: n topics are enough for minD, and n - 1 are not
    assert anova2_n(alpha, beta, d, variance, m) <= n


def test_min_d_is_zero_when_the_level_already_gives_the_power():
    assert anova2_min_d(10, m=3, variance=0.1, alpha=0.5, beta=0.6) == 0.0


def test_table_equals_n_per_cell():
    table = anova2_table(0.05, beta=0.2, variance=0.0141, ms=[2, 5, 20], min_ds=[0.05, 0.1])
    assert table.index.name == "m" and table.columns.name == "min_d"
    for m in table.index:
        for d in table.columns:
            assert table.loc[m, d] == anova2_n(0.05, 0.2, d, 0.0141, int(m))


def test_smaller_two_way_variance_means_fewer_topics(data_dir):
    # On real data the topic effect is most of the one-way V_E: the two-way design needs fewer.
    x = pd.read_csv(data_dir / "trec2010web_ap.csv", index_col=0)
    v1, v2 = tss.residual_variance(x), tss.two_way_residual_variance(x)
    assert v2 < v1
    assert anova2_n(0.05, 0.2, 0.1, v2, 10) < tss.anova_n(0.05, 0.2, 0.1, v1, 10,
                                                          method="exact")


def test_shapes_and_df():
    assert isinstance(anova2_n(0.05, 0.2, 0.1, 0.05, 5), int)
    assert isinstance(anova2_power(10, m=5, min_d=0.1, variance=0.05, alpha=0.05), float)
    assert anova2_n(0.05, 0.2, [0.1, 0.2], 0.05, 5).shape == (2,)
    assert anova2_df(20, m=3) == (2.0, 38.0)


@pytest.mark.parametrize("call, message", [
    (lambda: anova2_n(1.5, 0.2, 0.1, 0.05, 5), "alpha=1.5 is out of range"),
    (lambda: anova2_n(0.05, 0.2, 0.1, 0.05, 1), "m=1 is out of range"),
    (lambda: anova2_n(0.05, 0.2, 0.1, 0.05, 5, method="legacy"), "method='legacy'"),
    (lambda: anova2_power(1, m=5, min_d=0.1, variance=0.05, alpha=0.05), "n=1 is out of range"),
    (lambda: anova2_min_d(10, m=5, variance=-1, alpha=0.05, beta=0.2), "variance=-1"),
    (lambda: anova2_table(0.05, beta=0.2, variance=0.05, ms=[2, 3.5], min_ds=[0.1]),
     "m=3.5 is not a whole number"),
])
def test_bad_input_is_one_line(call, message):
    with pytest.raises(InputError) as info:
        call()
    assert message in str(info.value) and "\n" not in str(info.value)


def test_too_small_a_difference_says_so():
    with pytest.raises(tss.SearchLimitError, match="two-way"):
        anova2_n(0.05, 0.2, 1e-9, 1.0, 5)


@pytest.mark.parametrize("n, m, message", [
    ("0.1", 10, "n='0.1' is not a number"),
    (1, 10, "n=1 is out of range"),          # gave the denominator df 0
    (20, 2.5, "m=2.5 is not a whole number"),
])
def test_anova2_df_validates(n, m, message):
    with pytest.raises(InputError, match=f"^{message}"):
        anova2_df(n, m=m)


def test_anova2_df_takes_m_by_keyword():
    with pytest.raises(TypeError):
        anova2_df(20, 3)
    assert anova2_df([20, 30], m=3)[1].tolist() == [38.0, 58.0]


def test_extreme_effects_are_silent():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tss.anova2_n(0.05, 0.2, 1e300, 0.05, 10) == 2
        table = tss.anova2_table(0.05, beta=0.2, variance=0.05, ms=[10], min_ds=[1e300])
        assert table.to_numpy().tolist() == [[2]]
        assert tss.anova2_power(50, m=10, min_d=1e300, variance=0.05, alpha=0.05) == 1.0
