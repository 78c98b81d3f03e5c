"""Tests of topicsetsize.estimates.differences against brute force over the run pairs of real
matrices.

The matrices: TREC 2010 Web AP (the bundled example, 88 runs) and TREC 2004 Robust AP
(tests/data, 110 runs); the brute force walks every pair with itertools and counts by hand.
"""

from __future__ import annotations

import itertools
import statistics

import numpy as np
import pytest

from topicsetsize.errors import InputError
from topicsetsize.estimates.differences import run_differences, share_at_least
from topicsetsize.examples import example_matrix


@pytest.fixture
def scores(real_scores):
    return real_scores


def test_groups_match_brute_force(scores):
    means = {run: float(scores[run].mean()) for run in scores.columns}
    pairs = sorted(abs(means[a] - means[b]) for a, b in itertools.combinations(means, 2))
    ranked = sorted(means.values(), reverse=True)
    top = sorted(abs(a - b) for a, b in itertools.combinations(ranked[:10], 2))
    d = run_differences(scores, top_k=10)
    assert d.all_pairs == pytest.approx(pairs, abs=1e-12)
    assert d.top_pairs == pytest.approx(top, abs=1e-12)
    assert d.to_best == pytest.approx(sorted(ranked[0] - v for v in ranked[1:]), abs=1e-12)
    assert d.top_range == pytest.approx(ranked[0] - ranked[9], abs=1e-12)
    assert d.table.loc["pairs"].tolist() == [len(pairs), 45, len(means) - 1]
    assert d.table.loc["median", "all pairs"] == pytest.approx(statistics.median(pairs))


def test_share_counts_pairs(scores):
    d = run_differences(scores).all_pairs
    for min_d in (0.01, 0.05, 0.1, float(d[len(d) // 2])):
        expected = sum(1 for x in d if x >= min_d) / len(d)
        assert share_at_least(d, min_d) == pytest.approx(expected, abs=1e-15)
    assert share_at_least(d, [0.01, 0.05]).tolist() == [share_at_least(d, 0.01),
                                                        share_at_least(d, 0.05)]


def test_bad_arguments():
    with pytest.raises(InputError, match=r"^top_k=1 is out of range"):
        run_differences(example_matrix(), top_k=1)
    with pytest.raises(InputError, match=r"^min_d=-0\.1 is out of range"):
        share_at_least([0.1], -0.1)


# --- Selection-corrected top-k differences (issue 25.3) -----------------------------------------

def test_split_half_equals_a_loop_over_the_same_halves():
    """Independent re-implementation: one trial at a time, with the same uniform draws."""
    from topicsetsize.estimates.differences import split_half_differences

    x = example_matrix().to_numpy()
    n, k, trials = x.shape[0], 10, 300
    got = split_half_differences(x, top_k=k, trials=trials, seed=7)
    u = np.random.default_rng(7).random((trials, n))
    diffs, ranges = [], []
    for row in u:
        a = np.argsort(row)[: n // 2]
        b = np.setdiff1d(np.arange(n), a)
        # ties (equal means but for rounding, scores of 4 decimals) in column order
        top = np.argsort(-np.round(x[a].mean(axis=0) / np.abs(x).max(), 10), kind="stable")[:k]
        mb = x[b][:, top].mean(axis=0)
        diffs.append([mb[i] - mb[j] for i in range(k) for j in range(i + 1, k)])
        ranges.append(mb[0] - mb[k - 1])
    assert got.top_range == pytest.approx(np.mean(ranges), rel=1e-9)
    np.testing.assert_allclose(got.top_pairs, np.sort(np.mean(diffs, axis=0)), rtol=1e-9,
                               atol=1e-15)


def test_split_half_removes_the_selection_effect_monte_carlo():
    """Monte Carlo on matrices with known equal run means (normal scores with a topic effect,
    20 runs, 40 topics): the top-10 range on all topics is positive on every matrix, the
    corrected one averages 0 within 4 Monte Carlo standard errors; the corrected median
    difference too."""
    from topicsetsize.estimates.differences import split_half_differences

    rng = np.random.default_rng(2025)
    naive, corrected, median = [], [], []
    for _ in range(150):
        x = rng.normal(0.0, 0.1, size=(40, 1)) + rng.normal(0.3, 0.1, size=(40, 20))
        naive.append(run_differences(x, top_k=10).top_range)
        c = split_half_differences(x, top_k=10, trials=200, seed=int(rng.integers(2**31)))
        corrected.append(c.top_range)
        median.append(np.median(c.top_pairs))
    for values in (corrected, median):
        mc_se = np.std(values, ddof=1) / np.sqrt(len(values))
        assert abs(np.mean(values)) < 4 * mc_se, (np.mean(values), mc_se)
    assert min(naive) > 0 and np.mean(naive) > 10 * np.std(corrected, ddof=1) / np.sqrt(150)


def test_split_half_keeps_a_real_difference():
    """Two groups of runs 0.1 apart (known): the top 5 are the better group, whose members are
    equal: the corrected range among them is near 0; with k = 10 (both groups) it is near the
    true 0.1, where the uncorrected one overstates it."""
    from topicsetsize.estimates.differences import split_half_differences

    rng = np.random.default_rng(11)
    truth = np.r_[np.full(5, 0.4), np.full(5, 0.3)]
    x = rng.normal(0.0, 0.1, size=(60, 1)) + truth + rng.normal(0.0, 0.1, size=(60, 10))
    c10 = split_half_differences(x, top_k=10, trials=2000, seed=1)
    assert abs(c10.top_range - 0.1) < 0.03
    assert run_differences(x, top_k=10).top_range > c10.top_range
