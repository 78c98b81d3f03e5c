"""The precise F power at a few points of one cell: the same bits as f_power (issue 28.5)."""

from __future__ import annotations

import numpy as np
import pytest

from topicsetsize.numerics.cell import f_crit_point, f_power_cell
from topicsetsize.numerics.distributions import f_crit, f_power
from topicsetsize.numerics.tails import series_terms


def _same(a, b) -> bool:
    return bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))


@pytest.mark.parametrize("seed", range(4))
def test_the_same_bits_as_f_power_at_the_points_of_a_certificate(seed):
    # n − 2, …, n + 1 of random one-way and two-way cells, n from 3 to 1e9 (below φE = 1e5,
    # from it the Newton step, from 1e6 the series), and any subset of them
    rng = np.random.default_rng(seed)
    for _ in range(500):
        alpha = float(np.exp(rng.uniform(np.log(1e-9), np.log(0.6))))
        m = int(rng.integers(2, 1001))
        n0 = float(np.rint(np.exp(rng.uniform(np.log(5), np.log(1e9)))))
        effect = 20.0 / n0 * float(np.exp(rng.uniform(np.log(0.01), np.log(100))))
        n = n0 + np.arange(4.0) - 2.0
        dfd, nc = (m - rng.integers(0, 2)) * (n - 1.0), n * effect
        crit = [f_crit_point(alpha, m - 1.0, d) for d in dfd.tolist()]
        assert all(c is None or c == r for c, r in zip(crit, f_crit(alpha, m - 1.0, dfd)))
        assert _same(f_power_cell(alpha, m - 1.0, dfd, nc), f_power(alpha, m - 1.0, dfd, nc))
        use = rng.random(4) < 0.5
        if use.any():
            assert _same(f_power_cell(alpha, m - 1.0, dfd, nc, use),
                         f_power(alpha, m - 1.0, dfd, nc)[use])


def test_a_subset_takes_the_number_of_terms_of_all_the_points():
    # λ/2 + 8·√(λ/2) + 24 crosses a whole number between the points: the series of n − 1 and
    # n alone would sum one term fewer than with n + 1 beside them, as f_power does
    n = 1e7 + np.arange(4.0) - 2.0
    h = (-4.0 + np.sqrt(16.0 + 100 - 24.0)) ** 2      # needs exactly 100 terms
    nc = n * (2.0 * h / n[2])
    dfd = 5.0 * (n - 1.0)
    assert series_terms(nc[:3]) < series_terms(nc)
    use = np.array([False, True, True, False])
    got = f_power_cell(0.01, 4.0, dfd, nc, use)
    assert _same(got, f_power(0.01, 4.0, dfd, nc)[use])


def test_the_search_s_f_points_start_the_precise_ones():
    # the x that f_crit_one keeps (where y <= 1/2) is the one f_crit_point computes first
    from topicsetsize.numerics.distributions import f_crit_one

    for alpha, dfn, dfd in ((0.05, 2.0, 5.7e7), (1e-6, 9.0, 3e9), (0.3, 999.0, 1e5 + 1.0)):
        points = {}
        f_crit_one(alpha, dfn, dfd, points)
        assert f_crit_point(alpha, dfn, dfd, points[dfd]) == f_crit_point(alpha, dfn, dfd)
        assert f_crit_point(alpha, dfn, dfd) == float(f_crit(alpha, dfn, dfd))
