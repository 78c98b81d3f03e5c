"""Topic set size tables over grids of designs (as in the papers' Table 2).

One vectorised search computes the whole grid: no loop over cells.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..params import PARAMS, check
from .samplesize import anova_n, ttest_n
from ..errors import InputError

__all__ = ["anova_table", "ttest_table", "size_table"]


def _grid(name: str, values) -> np.ndarray:
    arr = np.atleast_1d(np.asarray(check(name, values), float))
    if arr.ndim != 1:
        raise InputError(f"{name} must be a list of numbers, got an array of shape {arr.shape}")
    return arr.astype(np.int64) if PARAMS[name].integer else arr


def size_table(n_of, *, rows, columns) -> pd.DataFrame:
    """Topic set sizes over a grid of two design parameters, in one vectorised call.

    The rows and the columns are validated lists (:func:`topicsetsize.params.check`, each
    parameter of :data:`topicsetsize.params.PARAMS`; whole-number ones such as ``m`` index
    as integers), and ``n_of(row_values[:, None], column_values[None, :])`` fills the table,
    as in Sakai's AIRS 2016 Table 2.

    Parameters
    ----------
    n_of : callable
        ``n_of(rows, columns)`` returns the sizes of the broadcast grid, e.g. a ``*_n``
        function with the other arguments fixed.
    rows, columns : tuple of (str, sequence)
        The parameter's name and its values, e.g. ``("m", [2, 10])``.

    Returns
    -------
    pandas.DataFrame
        Index and columns named after the parameters, integer cells.

    Examples
    --------
    >>> size_table(lambda m, d: anova_n(0.05, 0.20, d, 0.0601, m),
    ...            rows=("m", [2, 10]), columns=("min_d", [0.1]))
    min_d  0.1
    m
    2       93
    10     188
    """
    (row_name, row_values), (column_name, column_values) = rows, columns
    row_grid = _grid(row_name, row_values)
    column_grid = _grid(column_name, column_values)
    n = n_of(row_grid[:, None], column_grid[None, :])
    return pd.DataFrame(np.asarray(n, np.int64), index=pd.Index(row_grid, name=row_name),
                        columns=pd.Index(column_grid, name=column_name))


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
    return size_table(lambda m, d: anova_n(alpha, beta, d, variance, m, method=method),
                      rows=("m", ms), columns=("min_d", min_ds))


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
    return size_table(lambda v, d: ttest_n(alpha, beta, d, v, method=method),
                      rows=("variance_t", variance_t), columns=("min_dt", min_dts))
