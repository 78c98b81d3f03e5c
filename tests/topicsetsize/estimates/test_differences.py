"""Tests of topicsetsize.estimates.differences against brute force over the run pairs of real
matrices.

The matrices: TREC 2010 Web AP (the bundled example, 88 runs) and TREC 2004 Robust AP
(tests/data, 110 runs); the brute force walks every pair with itertools and counts by hand.
"""

from __future__ import annotations

import itertools
import statistics

import numpy as np
import pandas as pd
import pytest

import topicsetsize as tss
from topicsetsize.estimates.differences import realistic_min_d, run_differences, share_at_least
from topicsetsize.examples import example_matrix


@pytest.fixture(scope="module", params=["web2010", "robust2004"])
def scores(request, data_dir):
    if request.param == "web2010":
        return example_matrix()
    return pd.read_csv(data_dir / "trec2004robust_ap.csv", index_col=0)


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


def test_candidates_and_their_n(scores):
    table = realistic_min_d(scores, top_k=10, alpha=0.05, beta=0.2)
    d = run_differences(scores, top_k=10)
    assert table.loc["top-k range", "min_d"] == d.top_range
    assert table.loc["top-k median", "min_d"] == pytest.approx(statistics.median(d.top_pairs))
    assert table.loc["all-pairs median", "share"] >= 0.5     # the median: half differ more
    v1, v2 = tss.residual_variance(scores), tss.two_way_residual_variance(scores)
    for _, row in table.iterrows():
        assert row["n one-way legacy"] == tss.anova_n(0.05, 0.2, row["min_d"], v1, 10)
        assert row["n one-way exact"] == tss.anova_n(0.05, 0.2, row["min_d"], v1, 10,
                                                     method="exact")
        assert row["n two-way exact"] == tss.anova2_n(0.05, 0.2, row["min_d"], v2, 10)
    # smaller differences need more topics
    order = table.sort_values("min_d")
    assert np.all(np.diff(order["n one-way exact"].to_numpy(float)) <= 0)


def test_own_candidates_are_added(scores):
    table = realistic_min_d(scores, candidates=[0.05, 0.1])
    assert table.index[-2:].tolist() == ["minD=0.05", "minD=0.1"]
    d = run_differences(scores).all_pairs
    assert table.loc["minD=0.1", "share"] == sum(1 for x in d if x >= 0.1) / len(d)
    v2 = tss.two_way_residual_variance(scores)
    assert table.loc["minD=0.05", "n two-way exact"] == tss.anova2_n(0.05, 0.2, 0.05, v2, 10)
    with pytest.raises(ValueError, match=r"^min_d=-1 is out of range"):
        realistic_min_d(scores, candidates=[-1])


def test_identical_runs_give_no_n():
    x = np.array([[0.5, 0.5, 0.1], [0.3, 0.3, 0.2], [0.4, 0.4, 0.2]])
    table = realistic_min_d(x, top_k=2)            # the top two runs are identical
    assert table.loc["top-k range", "min_d"] == 0
    assert pd.isna(table.loc["top-k range", "n one-way exact"])
    same = np.array([[0.5, 0.5], [0.3, 0.3], [0.4, 0.4]])    # no difference at all
    table = realistic_min_d(same, candidates=[0.1])
    assert table["n one-way exact"].isna().sum() == 4
    assert table.loc["minD=0.1", "share"] == 0.0


def test_bad_arguments():
    with pytest.raises(ValueError, match=r"^top_k=1 is out of range"):
        run_differences(example_matrix(), top_k=1)
    with pytest.raises(ValueError, match=r"^min_d=-0\.1 is out of range"):
        share_at_least([0.1], -0.1)
