r"""Differences between runs that really occur in a past matrix: what minD to design for.

Topic set size design asks for a minimum detectable difference minD (the range between the best
and the worst of m systems, Sakai IRJ 2016) and users often pick it by habit (.05, .10). A past
topics × runs matrix shows which differences between run means occur: over all pairs of runs,
among the top k runs, and between the best run and each other run. :func:`run_differences`
summarises them, :func:`share_at_least` gives the share of run pairs that differ by at least a
candidate minD, and :func:`realistic_min_d` turns them into minD values worth designing for,
each with Sakai's n (:func:`topicsetsize.anova_n`, :func:`topicsetsize.anova2_n`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from ..matrices.matrix import check_matrix
from ..params import check
from ..errors import InputError

__all__ = ["RunDifferences", "run_differences", "share_at_least", "realistic_min_d"]

#: The groups of run pairs, by their column in ``RunDifferences.table``.
GROUPS = ("all pairs", "top-k pairs", "best vs others")


class RunDifferences(NamedTuple):
    """Absolute differences between run means, each group sorted ascending.

    ``all_pairs``: the m(m−1)/2 pairs of runs; ``top_pairs``: the k(k−1)/2 pairs among the top
    ``top_k`` runs by mean; ``to_best``: the best run's mean minus each other run's;
    ``top_range``: the best minus the k-th best mean (the range of the top k, Sakai's minD for
    m = k); ``table``: count, min, quartiles, mean and max of each group (a DataFrame).
    """

    all_pairs: np.ndarray
    top_pairs: np.ndarray
    to_best: np.ndarray
    top_k: int
    top_range: float
    table: pd.DataFrame


def _pair_differences(means: np.ndarray) -> np.ndarray:
    i, j = np.triu_indices(means.size, k=1)
    return np.sort(np.abs(means[i] - means[j]))


def run_differences(scores, *, top_k: int = 10) -> RunDifferences:
    """The distribution of the differences between run means (all pairs, top k, best vs rest).

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        Topics as rows, runs as columns.
    top_k : int
        How many of the best runs (by mean) form the top group (≥ 2); at most the number of
        runs (a larger value means all runs).

    Returns
    -------
    RunDifferences

    Examples
    --------
    >>> d = run_differences([[.1, .2, .4], [.3, .2, .6]], top_k=2)
    >>> d.all_pairs.round(3).tolist(), d.top_pairs.round(3).tolist(), d.to_best.round(3).tolist()
    ([0.0, 0.3, 0.3], [0.3], [0.3, 0.3])
    >>> round(d.top_range, 3)
    0.3
    """
    top_k = check("top_k", top_k, allow_array=False)
    means = check_matrix(scores).values.mean(axis=0)
    ranked = np.sort(means)[::-1]
    k = min(top_k, ranked.size)
    groups = {"all pairs": _pair_differences(means), "top-k pairs": _pair_differences(ranked[:k]),
              "best vs others": np.sort(ranked[0] - ranked[1:])}
    table = pd.DataFrame({name: _describe(v) for name, v in groups.items()})
    return RunDifferences(*groups.values(), k, float(ranked[0] - ranked[k - 1]), table)


def _describe(values: np.ndarray) -> dict:
    q = np.quantile(values, [0, 0.25, 0.5, 0.75, 1])
    return {"pairs": values.size, "min": q[0], "25%": q[1], "median": q[2], "mean": values.mean(),
            "75%": q[3], "max": q[4]}


def share_at_least(differences, min_d):
    """The share of run pairs whose means differ by at least ``min_d`` (vectorised).

    Parameters
    ----------
    differences : array_like
        Absolute differences, e.g. ``run_differences(x).all_pairs``.
    min_d : float or array_like
        Candidate minimum detectable differences (> 0).

    Returns
    -------
    float, or ndarray of the shape of ``min_d``

    Examples
    --------
    >>> share_at_least([0.01, 0.02, 0.05, 0.1], [0.02, 0.2]).tolist()
    [0.75, 0.0]
    """
    d = np.sort(np.asarray(differences, float).ravel())
    if d.size == 0:
        raise InputError("differences is empty: give at least one difference")
    v = np.asarray(check("min_d", min_d), float)
    share = (d.size - np.searchsorted(d, v, side="left")) / d.size
    return float(share) if share.ndim == 0 else share


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
    from ..designs.anova import anova_n
    from ..designs.anova2 import anova2_n
    from .variance import residual_variance, two_way_residual_variance

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
