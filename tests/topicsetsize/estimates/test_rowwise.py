"""topicsetsize.estimates.rowwise: each selection equals the sort it replaces, ties included."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from topicsetsize.estimates.rowwise import smallest, top_k_columns


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_smallest_is_the_argsort_s_first_count(data):
    rows, n = data.draw(st.integers(1, 6)), data.draw(st.integers(1, 12))
    # few distinct values: ties at the cut are common, and the argsort must decide them
    values = st.sampled_from([0.0, 0.25, 0.5, 0.75]) | st.floats(0, 1)
    draws = data.draw(hnp.arrays(float, (rows, n), elements=values))
    count = data.draw(st.integers(1, n))
    expected = np.zeros((rows, n), bool)
    np.put_along_axis(expected, np.argsort(draws, axis=1)[:, :count], True, axis=1)
    got = smallest(draws.copy(), count)
    assert (got.sum(axis=1) == count).all()
    ordered = np.sort(draws, axis=1)
    tie = count < n and (ordered[:, count - 1] == ordered[:, count]).any()
    if not tie:
        assert (got == expected).all()         # no tie at the cut: the very same set
    else:                                      # a tie: every row holds the count smallest values
        assert (np.sort(np.where(got, draws, np.inf), axis=1)[:, :count]
                == ordered[:, :count]).all()


def test_smallest_on_random_halves_equals_the_argsort():
    draws = np.random.default_rng(3).random((2000, 249))
    expected = np.zeros(draws.shape, bool)
    np.put_along_axis(expected, np.argsort(draws, axis=1)[:, :124], True, axis=1)
    assert (smallest(draws, 124) == expected).all()


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_top_k_columns_is_the_stable_sort_of_the_rounded_means(data):
    rows, runs = data.draw(st.integers(1, 6)), data.draw(st.integers(1, 15))
    # values that tie after rounding to 10 decimals but differ before, exact ties, and the rest
    values = (st.sampled_from([0.5, 0.5 + 1e-12, 0.5 - 3e-12, -0.25, 0.0, -0.0, 1.0, -1.0])
              | st.floats(-1, 1))
    means = data.draw(hnp.arrays(float, (rows, runs), elements=values))
    k = data.draw(st.integers(1, runs))
    expected = np.argsort(-np.round(means, 10), axis=1, kind="stable")[:, :k]
    assert (top_k_columns(means, k) == expected).all()
