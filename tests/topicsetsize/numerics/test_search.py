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
