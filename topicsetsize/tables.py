"""Topic set size tables over grids of designs (as in the papers' Table 2).

One vectorised search computes the whole grid: no loop over cells.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .params import check
from .samplesize import anova_n, ttest_n

__all__ = ["anova_table", "ttest_table"]


def _grid(name: str, values) -> np.ndarray:
    arr = np.atleast_1d(np.asarray(check(name, values), float))
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a list of numbers, got an array of shape {arr.shape}")
    return arr


def anova_table(alpha, *, beta, variance, ms, min_ds, method="legacy") -> pd.DataFrame:
    """Table of ANOVA topic set sizes: rows m, columns minD.

    Each cell is :func:`topicsetsize.anova_n` for that (m, minD), all computed
    in one vectorised search. This is the layout of Sakai's AIRS 2016 Table 2
    and CIKM 2014 Tables 4–6.

    Parameters
    ----------
    alpha, beta : float
        Error probabilities in (0, 1).
    variance : float
        Within-system variance σ̂² (> 0).
    ms : sequence of int
        Numbers of systems (each ≥ 2), the rows.
    min_ds : sequence of float
        Minimum detectable ranges (each > 0), the columns.
    method : {"legacy", "exact"}

    Returns
    -------
    pandas.DataFrame
        Index ``m``, columns ``min_d``, integer cells.

    Examples
    --------
    AIRS 2016 Table 2, part I (MedNLPDoc raw recall, σ̂² = .0601):

    >>> anova_table(0.05, beta=0.20, variance=0.0601, ms=[2, 10], min_ds=[0.02, 0.1, 0.2])
    min_d  0.02  0.10  0.20
    m
    2      2301    93    24
    10     4680   188    48
    """
    alpha, beta, variance = (check(k, x, allow_array=False) for k, x in
                             (("alpha", alpha), ("beta", beta), ("variance", variance)))
    m_grid = _grid("m", ms).astype(np.int64)
    d_grid = _grid("min_d", min_ds)
    n = anova_n(alpha, beta, d_grid[None, :], variance, m_grid[:, None], method=method)
    return pd.DataFrame(np.asarray(n, np.int64), index=pd.Index(m_grid, name="m"),
                        columns=pd.Index(d_grid, name="min_d"))


def ttest_table(alpha, *, beta, variance_t, min_dts, method="legacy") -> pd.DataFrame:
    """Table of paired t-test topic set sizes: rows σ̂t², columns minDt.

    Each cell is :func:`topicsetsize.ttest_n`, computed in one vectorised
    search (Sakai, IRJ 2016, Section 3). ``variance_t`` may be one value or a
    list (one row each).

    Parameters
    ----------
    alpha, beta : float
        Error probabilities in (0, 1).
    variance_t : float or sequence of float
        Variances σ̂t² of the per-topic differences (each > 0), the rows.
    min_dts : sequence of float
        Minimum detectable differences (each > 0), the columns.
    method : {"legacy", "exact"}

    Returns
    -------
    pandas.DataFrame
        Index ``variance_t``, columns ``min_dt``, integer cells.

    Examples
    --------
    >>> ttest_table(0.05, beta=0.20, variance_t=[0.04, 0.1], min_dts=[0.05, 0.1])
    min_dt      0.05  0.10
    variance_t
    0.04         128    34
    0.10         316    81
    """
    alpha, beta = (check(k, x, allow_array=False) for k, x in (("alpha", alpha), ("beta", beta)))
    v_grid = _grid("variance_t", variance_t)
    d_grid = _grid("min_dt", min_dts)
    n = ttest_n(alpha, beta, d_grid[None, :], v_grid[:, None], method=method)
    return pd.DataFrame(np.asarray(n, np.int64), index=pd.Index(v_grid, name="variance_t"),
                        columns=pd.Index(d_grid, name="min_dt"))
