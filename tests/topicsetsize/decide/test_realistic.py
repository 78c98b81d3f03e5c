"""Tests of topicsetsize.decide.realistic: the candidate minD values of real matrices, their
shares counted by hand over the run pairs and their n checked against the engine's functions.

The matrices: TREC 2010 Web AP (the bundled example, 88 runs) and TREC 2004 Robust AP
(tests/data, 110 runs).
"""

from __future__ import annotations

import statistics

import numpy as np
import pandas as pd
import pytest

import topicsetsize as tss
from topicsetsize.decide.realistic import realistic_min_d
from topicsetsize.estimates.differences import run_differences


@pytest.fixture
def scores(real_scores):
    """TREC 2010 Web AP and TREC 2004 Robust AP (tests/conftest.py)."""
    return real_scores


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
