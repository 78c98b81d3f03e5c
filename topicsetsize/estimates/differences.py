r"""Differences between runs that really occur in a past matrix: what minD to design for.

Topic set size design asks for a minimum detectable difference minD (the range between the best
and the worst of m systems, Sakai IRJ 2016) and users often pick it by habit (.05, .10). A past
topics × runs matrix shows which differences between run means occur: over all pairs of runs,
among the top k runs, and between the best run and each other run. :func:`run_differences`
summarises them, :func:`share_at_least` gives the share of run pairs that differ by at least a
candidate minD; :func:`topicsetsize.decide.realistic.realistic_min_d` turns them into minD
values worth designing for, each with Sakai's n.
"""

from __future__ import annotations

from dataclasses import dataclass


import numpy as np
import pandas as pd

from ..matrices.matrix import check_matrix
from ..params import check
from ..errors import InputError

__all__ = ["RunDifferences", "run_differences", "share_at_least"]

#: The groups of run pairs, by their column in ``RunDifferences.table``.
GROUPS = ("all pairs", "top-k pairs", "best vs others")


@dataclass(frozen=True, eq=False)
class RunDifferences:
    """Absolute differences between run means, each group sorted ascending.

    Attributes
    ----------
    all_pairs : ndarray
        The m(m−1)/2 differences between pairs of runs.
    top_pairs : ndarray
        The k(k−1)/2 differences among the top ``top_k`` runs by mean.
    to_best : ndarray
        The best run's mean minus each other run's.
    top_k : int
        The size k of the top group.
    top_range : float
        The best minus the k-th best mean (the range of the top k, Sakai's minD for m = k).
    table : pandas.DataFrame
        Count, min, quartiles, mean and max of each group.
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
