"""The generic search: both directions from any guess, scans, limits."""

from __future__ import annotations

import numpy as np
import pytest

from topicsetsize.numerics.search import SearchLimitError, smallest_n


@pytest.mark.parametrize("guess", [2, 50, 110, 111, 112, 10**6, 10**9, np.nan, np.inf])
def test_any_guess_finds_the_answer(guess):
    assert smallest_n(lambda n, i: np.sqrt(n), [10.5], [guess]).tolist() == [111]


def test_vectorised_cells_are_independent():
    targets = np.array([1.5, 10.5, 1000.5, 3e4])
    got = smallest_n(lambda n, i: np.sqrt(n), targets, np.full(4, 7.0))
    assert got.tolist() == [max(2, int(np.ceil(t ** 2))) for t in targets]


def test_scan_below_finds_the_last_failure():
    # a wobbly curve below 40: passes at 5, fails at 30, passes from 31 on
    def value(n, i):
        return np.where((n == 5) | (n >= 31), 1.0, 0.0)
    for guess in (3.0, 30.0, 100.0):
        assert smallest_n(value, [0.5], [guess], monotone_from=40).tolist() == [31]


def test_nan_counts_as_not_met():
    value = lambda n, i: np.where(n < 9, np.nan, 1.0)
    assert smallest_n(value, [0.5], [2.0], monotone_from=20).tolist() == [9]


def test_limit():
    with pytest.raises(SearchLimitError, match="search limit of 1,000"):
        smallest_n(lambda n, i: np.sqrt(n), [100.0], [10.0], n_max=1000)


def test_values_are_the_criterion_at_n_minus_1_and_n():
    # issue 29: the search hands back what it evaluated at n - 1 and n, for cells decided by
    # the first step (guess 110.3) and cells narrowed from a far guess (3.0); NaN where the scan
    # below the monotone start decided (there n - 1 was seen by the scan only)
    from topicsetsize.numerics.search import smallest_n

    n, below, at = smallest_n(lambda x, i: np.sqrt(x), [10.5, 10.5], [110.3, 3.0], values=True)
    assert n.tolist() == [111, 111]
    assert below.tolist() == [np.sqrt(110.0)] * 2 and at.tolist() == [np.sqrt(111.0)] * 2
    n, below, at = smallest_n(lambda x, i: (x >= 5).astype(float), [0.5], [40.0],
                              monotone_from=20, values=True)
    assert n.tolist() == [5] and np.isnan(below[0]) and np.isnan(at[0])
