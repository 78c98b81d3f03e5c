"""Kendall's tau and its CI: all 19 rows of Table 1 of the AIRS 2016 paper, and brute force."""

from __future__ import annotations

import csv
import itertools
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from topicsetsize.errors import InputError
from topicsetsize.estimates.ranking import KendallTau, kendall_tau_ci, kendall_tau_interval


def table1(data_dir) -> list[dict]:
    with open(data_dir / "airs2016_table1_variances.csv", newline="") as fh:
        return list(csv.DictReader(fh))


def test_table1_has_19_rows(data_dir):
    assert len(table1(data_dir)) == 19


@pytest.mark.parametrize("row", range(19))
def test_table1_interval_from_tau_and_m(data_dir, row):
    # Published: airs2016_table1_variances.csv (Table 1 column g of the AIRS 2016 paper),
    # tau and its 95% CI to 3 decimals; the CI is computed here from the published tau and m.
    r = table1(data_dir)[row]
    tau, m = float(r["tau"]), int(r["runs"])
    result = kendall_tau_interval(tau, m=m)
    assert result.tau == tau
    assert abs(result.low - float(r["tau_ci_low"])) <= 0.0005 + 1e-12
    assert abs(result.high - float(r["tau_ci_high"])) <= 0.0005 + 1e-12
    # independent: scipy's normal quantile and the variance of tau under independence
    half = stats.norm.ppf(0.975) * math.sqrt(2 * (2 * m + 5) / (9 * m * (m - 1)))
    assert result.low == pytest.approx(tau - half, abs=1e-12)
    assert result.high == pytest.approx(tau + half, abs=1e-12)


def test_interval_is_not_clipped():
    # Table 1, Japanese nDCG@20: tau = 1.000, 12 runs -> [.567, 1.433]
    assert kendall_tau_interval(1.0, m=12).high > 1
    assert kendall_tau_interval(-1.0, m=12).low < -1


def test_interval_vectorised_and_alpha():
    out = kendall_tau_interval([0.5, 0.9], m=[10, 40], alpha=0.01)
    z = stats.norm.isf(0.005)
    m = np.array([10, 40])
    np.testing.assert_allclose(out.high - out.tau, z * np.sqrt(2 * (2 * m + 5) / (9 * m * (m - 1))))
    with pytest.raises(InputError, match=r"^alpha=0 is out of range: allowed 0 < alpha < 1$"):
        kendall_tau_interval(0.5, m=10, alpha=0)
    with pytest.raises(InputError, match=r"^m=1 is out of range"):
        kendall_tau_interval(0.5, m=1)


def brute_force_tau(x, y) -> float:
    """Kendall's tau-a by counting concordant and discordant pairs (no ties)."""
    s = sum(np.sign(x[i] - x[j]) * np.sign(y[i] - y[j])
            for i, j in itertools.combinations(range(len(x)), 2))
    return s / (len(x) * (len(x) - 1) / 2)


@settings(max_examples=60, deadline=None)
@given(st.permutations(list(range(12))), st.integers(2, 12))
def test_tau_matches_brute_force_without_ties(perm, m):
    x = np.arange(m, dtype=float)
    y = np.array([p for p in perm if p < m], dtype=float)
    result = kendall_tau_ci(x, y)
    assert result.tau == pytest.approx(brute_force_tau(x, y), abs=1e-12)
    assert result == kendall_tau_interval(result.tau, m=m)


def test_with_ties_tau_is_scipy_tau_b():
    x = [0.1, 0.2, 0.2, 0.4, 0.5]
    y = [0.3, 0.1, 0.5, 0.5, 0.9]
    assert kendall_tau_ci(x, y).tau == pytest.approx(stats.kendalltau(x, y, variant="b").statistic)


def test_named_result_unpacks():
    result = kendall_tau_ci([1, 2, 3, 4], [1, 3, 2, 4])
    assert isinstance(result, KendallTau)
    tau, low, high = result
    assert (tau, low, high) == (result.tau, result.low, result.high)
    assert low < tau < high


def test_series_are_aligned_by_run_name():
    x = pd.Series([0.1, 0.2, 0.3, 0.4], index=["a", "b", "c", "d"])
    y = pd.Series([0.4, 0.3, 0.2, 0.1], index=["d", "c", "b", "a"])   # same ranking, reordered
    assert kendall_tau_ci(x, y).tau == pytest.approx(1.0)
    with pytest.raises(InputError, match=r"x and y name different runs \(first difference: 'a'\)"):
        kendall_tau_ci(x, y.rename({"a": "z"}))


def test_row_or_column_ranges_are_accepted():
    # e.g. an Excel range: 1 x m or m x 1
    assert kendall_tau_ci([[1, 2, 3]], [[1], [3], [2]]).tau == pytest.approx(1 / 3)


def test_bad_input():
    with pytest.raises(InputError, match="x has 3 runs but y has 2"):
        kendall_tau_ci([1, 2, 3], [1, 2])
    with pytest.raises(InputError, match="at least 2"):
        kendall_tau_ci([1], [1])
    with pytest.raises(InputError, match=r"y\[1\]=nan is not a finite number"):
        kendall_tau_ci([1, 2, 3], [1, np.nan, 3])
    with pytest.raises(InputError, match="for a score matrix pass its run means"):
        kendall_tau_ci(np.ones((3, 3)), np.ones((3, 3)))
    with pytest.raises(InputError, match="every run ties"):
        kendall_tau_ci([1, 1, 1], [1, 2, 3])
