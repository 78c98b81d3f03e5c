"""Randomised Tukey HSD: the vectorised shuffles equal a naive loop, agree with the classical
studentized-range test within Monte Carlo error, and keep the family-wise error rate."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import topicsetsize.checks.tukey as tukey
from topicsetsize import randomised_ranges, tukey_hsd_randomised
from topicsetsize.errors import InputError
from topicsetsize.estimates.variance import two_way_residual_variance


def naive_hsd(x: np.ndarray, trials: int, seed: int, include_observed: bool = True):
    """Brute force: one trial at a time, one topic at a time, the same random stream design.

    Each topic's row is permuted by sorting its m keys (random_raw draws with the low bits
    replaced by the cell's flat index); the range of the run means is recorded, and every pair
    is counted against it as in Carterette (TOIS 2012), Algorithm 1.
    """
    n, m = x.shape
    bits = (n * m - 1).bit_length()
    bitgen = np.random.default_rng(seed).bit_generator
    ranges = np.empty(trials)
    for b in range(trials):
        rows = []
        for j in range(n):
            keys = bitgen.random_raw(m) >> np.uint64(bits) << np.uint64(bits)
            keys |= np.arange(j * m, (j + 1) * m, dtype=np.uint64)
            order = (np.sort(keys) & np.uint64((1 << bits) - 1)).astype(int) - j * m
            rows.append(x[j, order])
        sums = np.sum(rows, axis=0)
        ranges[b] = sums.max() - sums.min()
    sums = x.sum(axis=0)
    tol = 1e-12 * n * np.abs(x).max()
    out = {}
    for a in range(m):
        for c in range(a + 1, m):
            count = sum(1 for r in ranges if r >= abs(sums[a] - sums[c]) - tol)
            out[(a, c)] = (count + 1) / (trials + 1) if include_observed else count / trials
    return ranges, out


# Scores on a coarse grid (many exact ties between shuffled and observed ranges), 5 x 4.
TINY = np.array([[0.1, 0.2, 0.2, 0.5], [0.3, 0.3, 0.0, 0.1], [0.4, 0.1, 0.2, 0.2],
                 [0.0, 0.5, 0.3, 0.1], [0.2, 0.2, 0.1, 0.4]])


@pytest.mark.parametrize("include_observed", [True, False])
def test_vectorised_equals_naive_loop_exactly(include_observed):
    ranges, expected = naive_hsd(TINY, 300, seed=7, include_observed=include_observed)
    assert np.array_equal(randomised_ranges(TINY, trials=300, seed=7), ranges)
    table = tukey_hsd_randomised(TINY, trials=300, seed=7, include_observed=include_observed)
    got = {(a, b): p for a, b, p in zip(table.run_a, table.run_b, table.p_value)}
    assert got == expected


def test_chunking_does_not_change_the_stream(monkeypatch):
    whole = randomised_ranges(TINY, trials=101, seed=3)
    monkeypatch.setattr(tukey, "_CHUNK_ELEMENTS", 7 * TINY.size)   # chunks of 7 trials
    assert np.array_equal(randomised_ranges(TINY, trials=101, seed=3), whole)


def test_ties_count_as_at_least_as_extreme():
    # Both topics favour run A by 1: a trial's range is 2 (rows shuffled alike) or 0, each
    # with probability 1/2, and the observed sum difference 2 counts the ties in.
    table = tukey_hsd_randomised([[1.0, 0.0], [1.0, 0.0]], trials=4000, seed=1,
                                 include_observed=False)
    p = table.p_value.iloc[0]
    assert abs(p - 0.5) < 3 * math.sqrt(0.25 / 4000)


def test_plus_one_and_fraction_are_the_same_count():
    x = np.random.default_rng(2).normal(size=(12, 4))
    plus = tukey_hsd_randomised(x, trials=500, seed=5)
    frac = tukey_hsd_randomised(x, trials=500, seed=5, include_observed=False)
    np.testing.assert_allclose(plus.p_value * 501 - 1, frac.p_value * 500, atol=1e-9)
    assert plus.p_value.min() >= 1 / 501


@pytest.mark.slow
def test_agrees_with_scipy_one_way_tukey_without_topic_effects():
    # No topic effects: scipy's one-way studentized-range test is the classical counterpart.
    # The randomised p-value differs from it by Monte Carlo error (SE = sqrt(p(1-p)/B)) and by
    # the variance estimate each one scales with: scipy's one-way MSE (df m(n-1) = 1596) and
    # the shuffles' within-topic variance (df n(m-1) = 1200). Their ratio has a relative SD of
    # about sqrt(2/1200 + 2/1596) = 5%, i.e. 2.5% on the studentized range, which moves a
    # p-value by at most ~ q * density * 0.025 < 0.02 (observed here: at most 0.013 beyond
    # 3 SE over 8 seeds). Tolerance: 3 SE + 0.02.
    trials = 20000
    for seed in (2, 7):
        rng = np.random.default_rng(seed)
        x = rng.normal(size=(400, 4)) + [0.0, 0.05, 0.1, 0.2]
        table = tukey_hsd_randomised(x, trials=trials, seed=seed)
        classical = stats.tukey_hsd(*x.T).pvalue[table.run_a, table.run_b]
        se = np.sqrt(classical * (1 - classical) / trials)
        assert np.ptp(classical) > 0.5                       # p-values across the range
        assert np.all(np.abs(table.p_value - classical) <= 3 * se + 0.02), (
            table.p_value.tolist(), classical.tolist())


def test_agrees_with_two_way_studentized_range_with_topic_effects():
    # Strong topic effects (SD 3 against a noise SD of 1): the classical counterpart is the
    # two-way (topics as blocks) HSD, q = |d| / sqrt(V_E2 / n) with df (m-1)(n-1). The shuffles
    # scale with the within-topic variance, (SS_runs + SS_E)/(n(m-1)), which differs from V_E2
    # by the run sum of squares (under 1% here) and by the df (1197 against the shuffles' own
    # variance estimate); as above, that moves a p-value by well under .02 (observed: within
    # 3 SE over 8 seeds). Tolerance: 3 SE + 0.02.
    trials, n, m = 20000, 400, 4
    rng = np.random.default_rng(3)
    x = rng.normal(size=(n, m)) + [0.0, 0.05, 0.1, 0.2] + 3 * rng.normal(size=(n, 1))
    table = tukey_hsd_randomised(x, trials=trials, seed=3)
    q = np.abs(table.difference) / math.sqrt(two_way_residual_variance(x) / n)
    classical = stats.studentized_range.sf(q, m, (m - 1) * (n - 1))
    se = np.sqrt(classical * (1 - classical) / trials)
    assert np.ptp(classical) > 0.5
    assert np.all(np.abs(table.p_value - classical) <= 3 * se + 0.02)


def test_agrees_with_normal_limit_of_shuffles_with_topic_effects():
    # With strong topic effects the one-way test is not the counterpart (it counts the topic
    # variance as noise); the shuffles only see within-topic variation. Shuffling row j makes
    # a run sum's variance sum_j v_j (v_j the row's variance with divisor m) and a pair
    # difference's 2 m/(m-1) sum_j v_j; for large n the run means are then close to normal,
    # so p ~ P(range of m iid N(0, V/n) >= |d|) with V = sum_j sum_i (x_ji - xbar_j)^2 /
    # (n(m-1)): studentized_range.sf(|d| sqrt(n/V), m, inf). Tolerance: 4 SE + 0.005 for the
    # normal approximation of a 50-term sum (observed: within 3 SE over 8 seeds).
    trials, n, m = 20000, 50, 5
    rng = np.random.default_rng(11)
    x = rng.normal(size=(n, m)) + [0.0, 0.1, 0.2, 0.3, 0.5] + 3 * rng.normal(size=(n, 1))
    table = tukey_hsd_randomised(x, trials=trials, seed=4)
    centred = x - x.mean(axis=1, keepdims=True)
    v = (centred ** 2).sum() / (n * (m - 1))
    limit = stats.studentized_range.sf(np.abs(table.difference) * math.sqrt(n / v), m, np.inf)
    se = np.sqrt(limit * (1 - limit) / trials)
    assert np.all(np.abs(table.p_value - limit) <= 4 * se + 0.005)
    # ... while the one-way test, fooled by the topic variance, is far more conservative.
    one_way = stats.tukey_hsd(*x.T).pvalue[table.run_a, table.run_b]
    assert (one_way - table.p_value).max() > 0.3


@pytest.mark.slow
def test_family_wise_error_rate_under_the_null():
    # 800 null matrices (i.i.d. normal, 10 topics x 5 runs), B = 199: with the observed matrix
    # counted in, the smallest p-value is <= .05 exactly when the observed range ranks in the
    # top 10 of 200 exchangeable ranges, probability 10/200 = .05. Allow 3 SE either side.
    alpha, reps, trials = 0.05, 800, 199
    rng = np.random.default_rng(2012)
    hits = sum(tukey_hsd_randomised(rng.normal(size=(10, 5)), trials=trials,
                                    seed=k).p_value.min() <= alpha for k in range(reps))
    fwer = hits / reps
    se = math.sqrt(alpha * (1 - alpha) / reps)
    assert fwer <= alpha + 3 * se
    assert fwer >= alpha - 3 * se          # and not needlessly conservative


def test_labels_differences_and_effect_sizes(data_dir):
    book = pd.read_csv(data_dir / "sakai_book_table5_1.csv", index_col="topic")
    table = tukey_hsd_randomised(book, trials=200, seed=0)
    assert list(zip(table.run_a, table.run_b)) == [("run_a", "run_b"), ("run_a", "run_c"),
                                                    ("run_b", "run_c")]
    means = book.mean()
    np.testing.assert_allclose(table.difference, [means.run_a - means.run_b,
                                                  means.run_a - means.run_c,
                                                  means.run_b - means.run_c])
    # V_E2 = 0.0218859649... is the book's published two-way residual variance (Table 5.1).
    np.testing.assert_allclose(table.es_hsd, table.difference / math.sqrt(0.0218859649),
                               rtol=1e-8)
    assert table.attrs["variance"] == pytest.approx(two_way_residual_variance(book))
    assert table.attrs["trials"] == 200


def test_a_copy_of_a_run_is_counted_once_and_named(data_dir):
    # Robust04's best ten runs hold sys69, a copy of sys67 (tests/data/PROVENANCE.md): the test
    # is that of the nine distinct runs (pandas drops the copy here), the same p-values from
    # the same seed, and one warning names the copy
    from topicsetsize.matrices.copies import IdenticalRunsWarning

    robust = pd.read_csv(data_dir / "trec2004robust_ap.csv", index_col=0)
    top = robust[robust.mean().sort_values(ascending=False, kind="stable").index[:10]]
    assert {"sys67", "sys69"} <= set(top.columns)
    with pytest.warns(IdenticalRunsWarning) as caught:
        table = tukey_hsd_randomised(top, trials=300, seed=4)
    assert [str(w.message) for w in caught] == [
        "1 run is a copy of another (identical scores on every topic): sys69 = sys67; counted "
        "once (a copy is not another system): the test and its V_E2 use the 9 distinct runs"]
    alone = tukey_hsd_randomised(top.T.drop_duplicates().T, trials=300, seed=4)
    pd.testing.assert_frame_equal(table, alone)
    assert len(table) == 36 and "sys69" not in set(table.run_a) | set(table.run_b)
    assert (table.attrs["runs"], table.attrs["copies"]) == (9, (("sys69", "sys67"),))
    assert table.attrs["variance"] == two_way_residual_variance(top.drop(columns="sys69"))


def test_progress_reports_every_trial():
    seen = []
    tukey_hsd_randomised(np.random.default_rng(0).normal(size=(30, 20)), trials=1234, seed=1,
                         progress=seen.append)
    assert sum(seen) == 1234 and len(seen) > 1


@pytest.mark.parametrize("scores, message", [
    ([[0.1, 0.2, 0.3]], "at least 2 topics"),
    ([[0.1], [0.2]], "at least 2 runs"),
    ([[0.1, float("nan")], [0.2, 0.3]], "non-finite value nan"),
])
def test_bad_matrices_are_refused_in_one_line(scores, message):
    with pytest.raises(InputError, match=message) as info:
        tukey_hsd_randomised(scores, trials=10)
    assert "\n" not in str(info.value)


def test_bad_trials_are_refused_in_one_line():
    with pytest.raises(InputError, match=r"^trials=0 is out of range"):
        tukey_hsd_randomised(TINY, trials=0)


@pytest.mark.parametrize("value", ["no", 0, None])
def test_include_observed_must_be_a_bool(value):
    # "no" is truthy: it counted the observed matrix in, the opposite of what it says
    with pytest.raises(InputError, match=r"^include_observed=.* is not one of True, False$"):
        tukey_hsd_randomised(TINY, trials=10, include_observed=value)
    both = [tukey_hsd_randomised(TINY, trials=50, seed=3, include_observed=flag)["p_value"]
            for flag in (np.bool_(False), False)]
    pd.testing.assert_series_equal(*both)


# ---- alpha: the significant pairs, and trials too few to reach alpha ------------------------

def test_alpha_marks_the_pairs_with_p_at_most_alpha():
    x = np.random.default_rng(0).normal(size=(30, 3)) + [0.0, 0.0, 0.6]
    plain = tukey_hsd_randomised(x, trials=999, seed=1)
    table = tukey_hsd_randomised(x, trials=999, seed=1, alpha=0.01)
    pd.testing.assert_frame_equal(table.drop(columns="significant"), plain)
    assert table.significant.tolist() == (plain.p_value <= 0.01).tolist() == [False, True, True]
    with pytest.raises(InputError, match=r"^alpha=1 is out of range: allowed 0 < alpha < 1$"):
        tukey_hsd_randomised(x, trials=10, alpha=1)


def test_too_few_trials_for_alpha_are_said_before_the_trials(monkeypatch):
    # 10 trials: no p-value below 1/11 = 0.0909, so nothing could be significant at 0.05; the
    # command line printed "(0 significant)" as if the runs did not differ
    x = np.random.default_rng(0).normal(size=(30, 3)) + [0.0, 0.0, 5.0]
    ran = []
    monkeypatch.setattr(tukey, "randomised_ranges",       # the warnings said by then
                        lambda *a, **k: ran.append(len(caught)) or np.zeros(10))
    with pytest.warns(tukey.TooFewTrialsWarning) as caught:
        table = tukey_hsd_randomised(x, trials=10, seed=1, alpha=0.05)
    assert [str(w.message) for w in caught] == [
        "10 randomised trials give p-values of at least 1/(10 + 1) = 0.09091, above alpha = "
        "0.05: no pair can be significant; at least 19 trials are needed for any p-value to "
        "reach alpha, and thousands (5,000 by default) for the verdicts not to be Monte Carlo "
        "noise"]
    assert caught[0].filename == __file__ and ran == [1]      # said at the caller's line
    assert not table.significant.any() and table.p_value.min() == pytest.approx(1 / 11)


@pytest.mark.parametrize("trials, alpha, include_observed", [
    (19, 0.05, True),           # 1/20 = alpha: reachable
    (99, 0.01, True),
    (10, 0.05, False),          # count/trials can be 0
    (10, None, True),           # no alpha, nothing to reach
])
def test_enough_trials_give_no_warning(trials, alpha, include_observed):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = tukey_hsd_randomised(TINY, trials=trials, seed=1, alpha=alpha,
                                     include_observed=include_observed)
    assert ("significant" in table) == (alpha is not None)


def test_beyond_the_most_trials_allowed_the_warning_says_so():
    with pytest.warns(tukey.TooFewTrialsWarning, match=r"it needs 999,999,999 trials, more "
                                                       r"than the 100,000,000 allowed$"):
        tukey_hsd_randomised(TINY, trials=10, seed=1, alpha=1e-9)


@pytest.mark.parametrize("alpha", [0.05, 0.01, 0.001, 0.07, 0.1, 1 / 3, 0.5, 0.999, 1e-6])
def test_trials_to_reach_is_the_fewest_that_reach_alpha(alpha):
    trials = tukey.trials_to_reach(alpha)
    assert 1 / (trials + 1) <= alpha
    assert trials == 1 or 1 / trials > alpha
