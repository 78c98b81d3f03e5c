r"""minD values worth designing for, read off a past matrix, with Sakai's n for each.

The differences between runs that really occur in a past matrix
(:mod:`topicsetsize.estimates.differences`) turned into candidate minD values (the range of the
top k runs, the median and first quartile of their pairwise differences, the median over all
pairs, and the user's own), each with the share of run pairs that differ by at least that much
and the topic set sizes of the one-way (Sakai, AIRS 2016, Eq. 1; legacy and exact) and two-way
(exact) ANOVA designs.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..designs.anova import anova_n
from ..designs.anova2 import anova2_n
from ..estimates.differences import RunDifferences, run_differences, share_at_least
from ..estimates.variance import residual_variance, two_way_residual_variance
from ..matrices.matrix import check_matrix
from ..params import check

__all__ = ["realistic_min_d"]


def realistic_min_d(scores, *, top_k: int = 10, m=None, alpha: float = 0.05,
                    beta: float = 0.20, candidates=(), differences: RunDifferences | None = None):
    r"""minD values worth designing for, read off the matrix, with Sakai's n for each.

    The candidates (rows) are differences that occur between the runs of the matrix:

    * ``top-k range``: the best minus the k-th best run mean (what an ANOVA of the top k runs
      would have to detect as its range minD);
    * ``top-k median``: the median difference among the pairs of the top k runs;
    * ``top-k 25%``: the first quartile of the same (a harder target);
    * ``all-pairs median``: the median difference over all pairs of runs;
    * ``minD=<value>``: each of your own ``candidates`` (e.g. the habitual .05 and .10).

    For each, ``share`` is the share of all run pairs differing by at least that much, and the
    topic set sizes at α, β for m systems: ``n one-way legacy`` and ``n one-way exact``
    (:func:`topicsetsize.anova_n` with V_E, AIRS 2016 Eq. 1) and ``n two-way exact``
    (:func:`topicsetsize.anova2_n` with V_E2; the two-way design has no legacy approximation).

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
    top_k : int
        Size of the top group (≥ 2).
    m : int, optional
        Number of systems of the design; default the size of the top group.
    alpha, beta : float
    candidates : sequence of float
        Further minD values to check (> 0), e.g. ``[0.05, 0.1]``.
    differences : RunDifferences, optional
        Reuse :func:`run_differences` of the same matrix and ``top_k``.

    Returns
    -------
    pandas.DataFrame
        Index ``candidate``; columns ``min_d``, ``share``, ``n one-way legacy``,
        ``n one-way exact``, ``n two-way exact``.

    Examples
    --------
    >>> from topicsetsize.examples import example_matrix
    >>> table = realistic_min_d(example_matrix())
    >>> row = table.loc["top-k range"]
    >>> round(float(row["min_d"]), 4), round(float(row["share"]), 3), int(row["n one-way legacy"])
    (0.0239, 0.649, 463)
    """
    matrix = check_matrix(scores)
    if differences is None:
        differences = run_differences(matrix.values, top_k=top_k)
    m = differences.top_k if m is None else check("m", m, allow_array=False)
    top = differences.top_pairs
    extra = np.atleast_1d(check("min_d", list(candidates))) if len(candidates) else []
    rows = {"top-k range": differences.top_range,
            "top-k median": float(np.median(top)),
            "top-k 25%": float(np.quantile(top, 0.25)),
            "all-pairs median": float(np.median(differences.all_pairs)),
            **{f"minD={float(v):g}": float(v) for v in extra}}
    d = np.array(list(rows.values()))
    usable = d > 0                               # identical runs give a zero difference
    v1, v2 = residual_variance(matrix.values), two_way_residual_variance(matrix.values)
    table = pd.DataFrame({"min_d": d, "share": np.nan},
                         index=pd.Index(list(rows), name="candidate"))
    table["share"] = share_at_least(differences.all_pairs, np.where(usable, d, 1.0))
    for name, n_of in (("n one-way legacy", lambda x: anova_n(alpha, beta, x, v1, m)),
                       ("n one-way exact",
                        lambda x: anova_n(alpha, beta, x, v1, m, method="exact")),
                       ("n two-way exact", lambda x: anova2_n(alpha, beta, x, v2, m))):
        n = np.full(d.size, np.nan)
        if usable.any():
            n[usable] = n_of(d[usable])
        table[name] = pd.Series(n, index=table.index).astype("Int64")
    table.loc[~usable, "share"] = np.nan
    table.attrs.update(m=m, alpha=alpha, beta=beta, variance=v1, variance2=v2)
    return table
