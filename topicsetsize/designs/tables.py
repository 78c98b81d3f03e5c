"""Topic set size tables over grids of two design parameters (as in the papers' Table 2).

One vectorised search computes the whole grid: no loop over cells.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..errors import InputError, refuse_repeated
from ..params import PARAMS, check

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["size_table"]


def _grid(name: str, values) -> np.ndarray:
    arr = np.atleast_1d(np.asarray(check(name, values), float))
    if arr.ndim != 1:
        raise InputError(f"{name} must be a list of numbers, got an array of shape {arr.shape}")
    refuse_repeated(name, arr.tolist())     # a table's rows and columns are labels: each once
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
    >>> from topicsetsize import anova_n
    >>> size_table(lambda m, d: anova_n(0.05, 0.20, d, 0.0601, m),
    ...            rows=("m", [2, 10]), columns=("min_d", [0.1]))
    min_d  0.1
    m
    2       93
    10     188
    """
    import pandas as pd

    (row_name, row_values), (column_name, column_values) = rows, columns
    row_grid = _grid(row_name, row_values)
    column_grid = _grid(column_name, column_values)
    n = n_of(row_grid[:, None], column_grid[None, :])
    return pd.DataFrame(np.asarray(n, np.int64), index=pd.Index(row_grid, name=row_name),
                        columns=pd.Index(column_grid, name=column_name))

