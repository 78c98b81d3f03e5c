"""Resampled power: normal data match the exact power; Boolean data show the gap, exactly."""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import topicsetsize.checks.resampling as res
from topicsetsize.checks.paired import paired_t
from topicsetsize.checks.resampling import ResampledPower, resampled_power
from topicsetsize.errors import InputError
from topicsetsize.numerics.distributions import f_crit, t_crit


def normal_matrix(topics: int, means, seed: int) -> np.ndarray:
    """Independent N(mean_i, 1) scores: the design's assumptions hold exactly."""
    rng = np.random.default_rng(seed)
    return rng.normal(size=(topics, len(means))) + np.asarray(means)


# --------------------------------------------------------------------------------------------
# Normal scores: empirical = theoretical within Monte Carlo error
# --------------------------------------------------------------------------------------------

# Resampling 3000 topics of independent normal scores is (up to the 3000-point empirical
# distribution, whose mean is the truth by construction) sampling from the normal model, so the
# rejection rate estimates the exact power; |z| < 3 fails by chance with probability 0.003.
# Effects are chosen so that the power is mid-range, where a wrong power would show most.

@pytest.mark.parametrize("n, means", [(12, [0.0, 0.4, 0.9, 1.0]), (30, [0.0, 0.25, 0.6])])
def test_anova_on_normal_scores_matches_exact_power(n, means):
    x = normal_matrix(3000, means, seed=n)
    r = resampled_power(x, n=n, trials=3000, test="anova", seed=1)
    assert 0.3 < r.theoretical < 0.8
    assert abs(r.z) < 3, (r.empirical, r.theoretical, r.null_se)


def test_ttest_on_normal_scores_matches_exact_power():
    x = normal_matrix(3000, [0.0, 0.7, 5.0], seed=2)
    r = resampled_power(x, n=20, trials=3000, test="ttest", pair=(0, 1), seed=3)
    assert 0.3 < r.theoretical < 0.8 and r.runs == (0, 1)
    assert abs(r.z) < 3, (r.empirical, r.theoretical, r.null_se)


def test_noncentrality_from_full_matrix_means_and_variance():
    x = normal_matrix(500, [0.0, 0.2, 0.5], seed=4)
    r = resampled_power(x, n=10, trials=10, seed=0)
    mu = x.mean(axis=0)
    v_e = ((x - mu) ** 2).sum() / (3 * (500 - 1))          # one-way V_E (AIRS 2016, Eq. 1)
    assert r.variance == pytest.approx(v_e, rel=1e-12)
    assert r.noncentrality == pytest.approx(10 * ((mu - mu.mean()) ** 2).sum() / v_e, rel=1e-12)
    assert r.difference == pytest.approx(mu.max() - mu.min(), rel=1e-12)
    # scipy's noncentral F, independently of the engine's wrapper
    w = stats.f.isf(0.05, 2, 27)
    assert r.theoretical == pytest.approx(stats.ncf.sf(w, 2, 27, r.noncentrality), rel=1e-9)

    t = resampled_power(x, n=10, trials=10, test="ttest", seed=0)
    d = x[:, 2] - x[:, 1]                                    # the best vs the second best
    assert t.runs == (2, 1)
    assert t.noncentrality == pytest.approx(math.sqrt(10) * abs(d.mean()) / d.std(ddof=1))
    w = stats.t.isf(0.025, 9)
    assert t.theoretical == pytest.approx(stats.nct.sf(w, 9, t.noncentrality)
                                          + stats.nct.cdf(-w, 9, t.noncentrality), rel=1e-9)


# --------------------------------------------------------------------------------------------
# Boolean scores: the gap, against the exact binomial answer
# --------------------------------------------------------------------------------------------

def boolean_pair(topics: int, wins: int, seed: int) -> np.ndarray:
    """Two 0/1 runs: run A scores 1 and B 0 on ``wins`` topics; they agree on the others."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 2, topics).astype(float)
    b = a.copy()
    a[:wins], b[:wins] = 1.0, 0.0
    return np.column_stack([a, b])


def exact_rejection_rate(n: int, q: float) -> float:
    """Exact power of the paired t-test when each resampled difference is 1 w.p. q, else 0.

    With k ones among the n differences the test's outcome depends on k only; scipy decides it
    for each k (k = n: constant differences, t = inf, reject; k = 0: undefined, do not reject),
    and k ~ Binomial(n, q).
    """
    reject = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)         # k = 0 and k = n
        for k in range(n + 1):
            d = np.r_[np.ones(k), np.zeros(n - k)]
            if stats.ttest_rel(d, np.zeros(n)).pvalue < 0.05:
                reject.append(k)
    return float(stats.binom.pmf(reject, n, q).sum())


@pytest.mark.parametrize("n, wins, direction", [(20, 10, -1), (50, 10, +1), (3, 50, -1)])
def test_boolean_scores_show_the_gap(n, wins, direction):
    # A Boolean measure breaks normality: the differences take the values 0 and 1 only, and the
    # t statistic is a step function of the number k of wins in the sample. The rejection rate
    # is then the binomial probability of the rejecting k's, which the resampling must hit
    # within Monte Carlo error; the noncentral t, which assumes normal differences, misses it
    # by far more than that error: it overstates the power at n = 20 (.29 against .13) and
    # understates it at n = 50 (.63 against .75). At n = 3 only k = 3 (constant differences,
    # t = inf) rejects.
    x = boolean_pair(100, wins, seed=n)
    r = resampled_power(x, n=n, trials=4000, test="ttest", pair=(0, 1), seed=5)
    exact = exact_rejection_rate(n, wins / 100)
    se = math.sqrt(exact * (1 - exact) / 4000)
    assert abs(r.empirical - exact) < 3 * se, (r.empirical, exact)
    assert direction * (r.theoretical - exact) < -10 * se        # the "grain of salt"
    assert direction * r.z > 5


# --------------------------------------------------------------------------------------------
# The vectorised statistics equal scipy's, test by test
# --------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def web(data_dir) -> np.ndarray:
    """TREC 2010 Web AP, 48 topics x 88 runs (tests/data/PROVENANCE.md)."""
    return pd.read_csv(data_dir / "trec2010web_ap.csv", index_col=0).to_numpy()


def draws(topics: int, n: int, trials: int, seed: int) -> np.ndarray:
    return next(res._count_chunks(np.random.default_rng(seed), topics, n, trials, trials))


def test_anova_rejections_equal_scipy_f_oneway(web):
    x = web[:, [0, 9, 20, 33, 60]]
    n = 8
    counts = draws(48, n, 150, seed=2)
    means = x.mean(axis=0)
    crit = float(f_crit(0.05, 4, 5 * (n - 1))) * 4 / (5 * (n - 1))
    fast = res._anova_reject(counts, x - means, means, n, crit)
    loop = [stats.f_oneway(*x[np.repeat(np.arange(48), c.astype(int))].T).pvalue < 0.05
            for c in counts]
    np.testing.assert_array_equal(fast, loop)
    assert 0 < fast.sum() < 150


def test_ttest_rejections_equal_scipy_ttest_rel(web):
    d = web[:, 3] - web[:, 40]
    n = 10
    counts = draws(48, n, 150, seed=3)
    shift = d.mean()
    q = counts @ (d - shift) ** 2
    crit2 = float(t_crit(0.05, n - 1)) ** 2
    fast, _ = paired_t(counts @ (d - shift), q, n, shift, crit2, q)
    loop = []
    for c in counts:
        rows = np.repeat(np.arange(48), c.astype(int))
        loop.append(stats.ttest_rel(web[rows, 3], web[rows, 40]).pvalue < 0.05)
    np.testing.assert_array_equal(fast, loop)
    assert 0 < fast.sum() < 150


def test_draws_are_n_topics_with_replacement_and_chunk_free():
    rng = np.random.default_rng(0)
    whole = next(res._count_chunks(rng, 7, 5, 40, 40))
    parts = np.concatenate(list(res._count_chunks(np.random.default_rng(0), 7, 5, 40, 3)))
    np.testing.assert_array_equal(whole, parts)
    assert whole.shape == (40, 7) and (whole.sum(axis=1) == 5).all()
    share = np.concatenate([draws(7, 5, 2000, s).sum(axis=0) for s in range(2)]) / (2000 * 5)
    assert np.all(np.abs(share - 1 / 7) < 4 * math.sqrt(1 / 7 * 6 / 7 / 10000))


# --------------------------------------------------------------------------------------------
# Run selection, reproducibility, errors
# --------------------------------------------------------------------------------------------

def test_top_m_skips_duplicate_runs(data_dir):
    from topicsetsize.matrices.copies import IdenticalRunsWarning

    web = pd.read_csv(data_dir / "trec2010web_ap.csv", index_col=0)
    distinct = web.T.drop_duplicates().T                     # first column of each duplicate
    order = distinct.mean().sort_values(ascending=False, kind="stable").index
    with pytest.warns(IdenticalRunsWarning) as caught:      # the copies named, once a call
        r = resampled_power(web, n=10, trials=20, test="ttest", m=3, seed=0)
    (line,) = [str(w.message) for w in caught]
    assert line.startswith("10 runs are copies of others (identical scores on every topic): "
                           "sys58 = sys4, sys59 = sys5, ")
    assert line.endswith("; counted once (a copy is not another system): the runs compared are "
                         "the 3 best distinct runs")
    assert r.runs == (order[0], order[2])
    with warnings.catch_warnings(record=True) as caught:     # two runs named: nothing to drop
        warnings.simplefilter("always")
        resampled_power(web, n=10, trials=20, test="ttest", pair=("sys5", "sys45"), seed=0)
    assert not [w for w in caught if issubclass(w.category, IdenticalRunsWarning)]
    a = resampled_power(web, n=10, trials=20, seed=0)
    assert a.m == distinct.shape[1] < web.shape[1]
    assert resampled_power(web, n=10, trials=20, m=4, seed=0).runs == tuple(
        c for c in web.columns if c in set(order[:4]))


def test_reproducible_chunk_free_and_progress(monkeypatch):
    x = normal_matrix(200, [0.0, 0.3, 0.4], seed=9)
    calls = []
    a = resampled_power(x, n=15, trials=300, seed=7, progress=calls.append)
    assert sum(calls) == 300
    monkeypatch.setattr(res, "_CHUNK_ELEMENTS", 1000)        # 5 trials per chunk
    assert resampled_power(x, n=15, trials=300, seed=7) == a
    assert resampled_power(x, n=15, trials=300, seed=8) != a


@pytest.mark.parametrize("kwargs, message", [
    (dict(test="anova", n=1), "n=1 is out of range"),
    (dict(test="chi2"), "test='chi2' is not one of 'anova', 'ttest'"),
    (dict(m=4), "m=4 is out of range: allowed 2 <= m <= 3"),
    (dict(trials=0), "trials=0 is out of range"),
    (dict(test="ttest", pair=(0, 7)),
     "pair=[0, 7] names run 7, which is not in the matrix (runs 0 ... 2)"),
    (dict(test="ttest", pair=(1, 1)), "must name two different runs"),
    (dict(test="anova", pair=(0, 1)), "pair is only for test='ttest'"),
])
def test_errors_name_the_argument(kwargs, message):
    x = normal_matrix(30, [0.0, 0.1, 0.2], seed=0)
    kwargs.setdefault("n", 10)
    with pytest.raises(InputError, match=re.escape(message)) as err:
        resampled_power(x, **kwargs)
    assert "\n" not in str(err.value)


def test_identical_pair_is_an_error():
    x = np.column_stack([np.arange(10.0), np.arange(10.0), np.ones(10)])
    with pytest.raises(InputError, match="variance of the differences of runs 0 and 1 is 0"):
        resampled_power(x, n=5, test="ttest", pair=(0, 1))


def test_result_fields():
    r = ResampledPower(0.5, 0.01, 0.45, 3.0, 0.1, 0.2, "anova", 10, 3, 2500, 0.05, (0, 1, 2), 50)
    assert r.gap == pytest.approx(0.05)
    assert r.null_se == pytest.approx(math.sqrt(0.45 * 0.55 / 2500))
    assert r.z == pytest.approx(0.05 / r.null_se)
    with pytest.raises(AttributeError):
        r.n = 3


# --------------------------------------------------------------------------------------------
# Two-way ANOVA (runs x topics, topics as blocks)
# --------------------------------------------------------------------------------------------

def block_matrix(topics: int, means, seed: int, block_sd: float = 2.0) -> np.ndarray:
    """N(mean_i + b_j, 1) scores with a shared topic effect b_j ~ N(0, block_sd²)."""
    rng = np.random.default_rng(seed)
    return normal_matrix(topics, means, seed) + rng.normal(0, block_sd, size=(topics, 1))


def two_way_pvalue(y: np.ndarray) -> float:
    """p-value of the runs in a two-way ANOVA without replication, from scipy's F only."""
    n, m = y.shape
    resid = y - y.mean(axis=0) - y.mean(axis=1, keepdims=True) + y.mean()
    ss_a = n * ((y.mean(axis=0) - y.mean()) ** 2).sum()
    f = (ss_a / (m - 1)) / ((resid ** 2).sum() / ((m - 1) * (n - 1)))
    return stats.f.sf(f, m - 1, (m - 1) * (n - 1))


def test_anova2_rejections_equal_a_loop_of_two_way_anovas(web):
    x = web[:, [0, 9, 20, 33, 60]]
    n = 8
    counts = draws(48, n, 150, seed=5)
    means = x.mean(axis=0)
    crit = float(f_crit(0.05, 4, 4 * (n - 1))) * 4 / (4 * (n - 1))
    fast = res._anova2_reject(counts, x - means, means, n, crit)
    loop = [two_way_pvalue(x[np.repeat(np.arange(48), c.astype(int))]) < 0.05 for c in counts]
    np.testing.assert_array_equal(fast, loop)
    assert 0 < fast.sum() < 150


def test_two_way_pvalue_equals_statsmodels():
    from statsmodels.formula.api import ols
    from statsmodels.stats.anova import anova_lm

    y = block_matrix(10, [0.0, 0.5, 0.8], seed=6)
    long = pd.DataFrame({"y": y.ravel(), "topic": np.repeat(np.arange(10), 3).astype(str),
                         "run": np.tile(np.arange(3), 10).astype(str)})
    table = anova_lm(ols("y ~ C(run) + C(topic)", data=long).fit())
    assert two_way_pvalue(y) == pytest.approx(table.loc["C(run)", "PR(>F)"], rel=1e-9)


def test_anova2_on_block_scores_matches_exact_power_and_one_way_does_not():
    x = block_matrix(3000, [0.0, 0.4, 0.9, 1.0], seed=7)
    two = resampled_power(x, n=8, trials=3000, test="anova2", seed=8)
    one = resampled_power(x, n=8, trials=3000, test="anova", seed=8)
    assert 0.3 < two.theoretical < 0.9
    assert abs(two.z) < 3, (two.empirical, two.theoretical, two.null_se)
    # the one-way test counts the topic effect as noise: it rejects far less than its theory
    assert one.z < -10 and one.empirical < two.empirical


def test_anova2_noncentrality_from_the_two_way_variance():
    x = block_matrix(400, [0.0, 0.2, 0.5], seed=9)
    r = resampled_power(x, n=10, trials=10, test="anova2", seed=0)
    resid = x - x.mean(axis=0) - x.mean(axis=1, keepdims=True) + x.mean()
    v_e2 = (resid ** 2).sum() / (2 * 399)
    mu = x.mean(axis=0)
    assert r.variance == pytest.approx(v_e2, rel=1e-12) and r.test == "anova2" and r.m == 3
    assert r.noncentrality == pytest.approx(10 * ((mu - mu.mean()) ** 2).sum() / v_e2, rel=1e-12)
    w = stats.f.isf(0.05, 2, 18)
    assert r.theoretical == pytest.approx(stats.ncf.sf(w, 2, 18, r.noncentrality), rel=1e-9)


def test_counts_beyond_the_index_bound_are_a_multinomial():
    """Past _CHUNK_ELEMENTS draws per trial the counts come from Multinomial(n; 1/topics):
    each row sums to n, and each topic's count has mean n/topics and variance
    n(1/topics)(1 - 1/topics) (checked over 2000 trials: mean within 5 SE, variance within 15%)."""
    from topicsetsize.checks import resampling

    topics, n, trials = 7, resampling._CHUNK_ELEMENTS * 3 + 1, 2000
    counts = np.vstack(list(resampling._count_chunks(np.random.default_rng(3), topics, n,
                                                     trials, 300)))
    assert counts.shape == (trials, topics) and (counts.sum(axis=1) == n).all()
    p = 1 / topics
    sd = np.sqrt(n * p * (1 - p))
    assert np.all(np.abs(counts.mean(axis=0) - n * p) < 5 * sd / np.sqrt(trials))
    assert np.all(np.abs(counts.var(axis=0, ddof=1) / sd**2 - 1) < 0.15)
