"""n_or_inf: the ANOVA designs' n, inf beyond the search limit (topicsetsize/decide/limit.py)."""

from __future__ import annotations

import numpy as np
import pytest

import topicsetsize as tss
from topicsetsize.decide.limit import n_or_inf
from topicsetsize.params import N_MAX


@pytest.mark.parametrize("design,method", [("anova", "legacy"), ("anova", "exact"),
                                           ("anova2", "exact")])
def test_n_or_inf_is_the_design_n_where_it_exists_and_inf_beyond_the_limit(design, method):
    """One grid of σ̂² from an ordinary one to one whose minD needs more than 10⁹ topics: the
    finite cells are the design's own n (its *_n function, cell by cell), the inf cells have
    power below 1 − β at 10⁹ topics (its *_power function) and the finite ones at least that."""
    n_of, power = {"anova": (tss.anova_n, tss.anova_power),
                   "anova2": (tss.anova2_n, tss.anova2_power)}[design]
    variances = np.geomspace(0.01, 1e4, 13)
    n = n_or_inf(design, 0.001, variances, alpha=0.05, beta=0.2, m=5, method=method)
    beyond = np.isinf(n)
    assert beyond.any() and not beyond.all()
    assert n[~beyond].tolist() == [n_of(0.05, 0.2, 0.001, v, 5, method=method)
                                   for v in variances[~beyond]]
    at_limit = power(N_MAX, m=5, min_d=0.001, variance=variances, alpha=0.05, method=method)
    assert (at_limit[beyond] < 0.8).all() and (at_limit[~beyond] >= 0.8).all()


def test_n_or_inf_takes_one_m_per_cell():
    """With an m per cell (the requirements of a recommendation), each finite cell is
    anova_n at its own m and each inf cell has power below 1 − β at 10⁹ topics at its own m;
    the cells whose m differ from the others' are not sized at another m."""
    min_d = np.array([0.02, 0.02, 0.001, 0.001, 0.1])
    variance = np.array([0.0601, 0.0601, 0.0601, 1e4, 0.2])
    m = np.array([2, 10, 5, 5, 50])
    n = n_or_inf("anova", min_d, variance, alpha=0.05, beta=0.2, m=m, method="exact")
    beyond = np.isinf(n)
    assert beyond.tolist() == [False, False, False, True, False]
    assert n[~beyond].tolist() == [tss.anova_n(0.05, 0.2, d, v, k, method="exact")
                                   for d, v, k in zip(min_d[~beyond], variance[~beyond],
                                                      m[~beyond])]
    assert n[0] != n[1]                                     # m = 2 and m = 10: each its own
    assert tss.anova_power(N_MAX, m=5, min_d=0.001, variance=1e4, alpha=0.05,
                           method="exact") < 0.8
