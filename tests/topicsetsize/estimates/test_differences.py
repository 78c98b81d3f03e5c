"""Tests of topicsetsize.estimates.differences against brute force over the run pairs of real
matrices.

The matrices: TREC 2010 Web AP (the bundled example, 88 runs) and TREC 2004 Robust AP
(tests/data, 110 runs); the brute force walks every pair with itertools and counts by hand.
"""

from __future__ import annotations

import itertools
import statistics

import pytest

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
    with pytest.raises(ValueError, match=r"^top_k=1 is out of range"):
        run_differences(example_matrix(), top_k=1)
    with pytest.raises(ValueError, match=r"^min_d=-0\.1 is out of range"):
        share_at_least([0.1], -0.1)
