"""Choose the topics, the runs and the score transform of an experiment.

:func:`select_topics`, :func:`top_runs` and :func:`transform_scores` express published set-ups
such as Voorhees' (SIGIR 2009): topics 351–450 of TREC 2004 Robust, the best 75% of the runs by
MAP over all 249 topics, raw or standardised AP.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..errors import InputError
from ..matrices.matrix import check_matrix
from ..params import check, check_choice

__all__ = ["SCORE_KINDS", "select_topics", "top_runs", "transform_scores"]

#: The score transforms :func:`transform_scores` knows.
SCORE_KINDS = ("raw", "std-ab", "std-cdf")


def select_topics(scores: pd.DataFrame, *, spec) -> pd.DataFrame:
    """The rows of ``scores`` whose topic ids match ``spec``, in the matrix's order.

    Expresses set-ups such as Voorhees' (SIGIR 2009): TREC 2004 Robust topics 351–450, ranges
    of whole-number ids being the usual way TREC topic sets are named.

    Parameters
    ----------
    scores : pandas.DataFrame
        Topics as rows (the index holds the topic ids, as strings or numbers).
    spec : str or iterable
        Comma-separated ids and ranges, e.g. ``"351-450"`` or ``"301-350,601-700"``; a range
        ``A-B`` of two whole numbers selects every topic whose id is a whole number in [A, B]
        (``"0351"`` counts as 351). Any other item is an id, compared as text. An iterable
        gives the ids themselves.

    Returns
    -------
    pandas.DataFrame

    Raises
    ------
    ValueError
        An id not in the matrix, a range that matches no topic, or an empty range (its first
        id above its last).

    Examples
    --------
    >>> x = pd.DataFrame({"r1": [.1, .2, .3, .4]}, index=["350", "351", "352", "q1"])
    >>> select_topics(x, spec="351-400,q1").index.tolist()
    ['351', '352', 'q1']
    >>> select_topics(x, spec=[350, "q1"]).index.tolist()
    ['350', 'q1']
    """
    if not isinstance(scores, pd.DataFrame):
        raise InputError("scores must be a DataFrame with the topic ids as its index to select "
                         "topics")
    ids = [str(t).strip() for t in scores.index]
    numeric = pd.to_numeric(pd.Series(ids), errors="coerce").to_numpy()
    keep = np.zeros(len(ids), bool)
    items = spec.split(",") if isinstance(spec, str) else list(spec)
    for item in (str(i).strip() for i in items):
        if not item:
            continue
        bounds = _range(item)
        if bounds is not None and bounds[0] > bounds[1]:
            raise InputError(f"topics={item!r} is an empty range (first {bounds[0]} > last "
                             f"{bounds[1]}): give it as {bounds[1]}-{bounds[0]}")
        if bounds is not None:
            hit = (numeric >= bounds[0]) & (numeric <= bounds[1]) & (numeric == np.round(numeric))
            if not hit.any():
                raise InputError(f"topics={item!r} matches no topic id of the matrix "
                                 f"(ids {ids[0]!r} ... {ids[-1]!r})")
            _warn_gaps(item, bounds, numeric[hit])
        else:
            hit = np.array([t == item for t in ids])
            if not hit.any():
                raise InputError(f"topics={item!r} is not a topic id of the matrix "
                                 f"(ids {ids[0]!r} ... {ids[-1]!r})")
        keep |= hit
    if not keep.any():
        raise InputError(f"topics={spec!r} selects no topic")
    return scores.loc[keep]


def _warn_gaps(item: str, bounds: tuple[int, int], found: np.ndarray) -> None:
    """Warn where a range names ids the matrix lacks (``reliability --topics 351-999`` of
    Robust04 ran on its 199 topics with no word of the 450 ids it lacks; a review,
    2026-12-07): the missing ids, as ranges, the first three."""
    present = np.unique(found.astype(np.int64))
    missing = bounds[1] - bounds[0] + 1 - present.size
    if missing == 0:
        return
    edges = np.concatenate([[bounds[0] - 1], present, [bounds[1] + 1]])
    gaps = [(lo + 1, hi - 1) for lo, hi in zip(edges[:-1], edges[1:]) if hi - lo > 1]
    shown = ", ".join(f"{lo}" if lo == hi else f"{lo}-{hi}" for lo, hi in gaps[:3])
    import warnings

    warnings.warn(f"topics={item!r}: {missing:,} of its {bounds[1] - bounds[0] + 1:,} ids are "
                  f"not in the matrix ({shown}{', ...' if len(gaps) > 3 else ''}); it selects "
                  f"the {present.size:,} that are", UserWarning, stacklevel=3)


def _range(item: str) -> tuple[int, int] | None:
    lo, sep, hi = item.partition("-")
    if sep and lo.strip().isdigit() and hi.strip().isdigit():
        return int(lo), int(hi)
    return None


def top_runs(scores, *, fraction: float):
    """The best ``fraction`` of the runs by mean score over all topics of ``scores``.

    Keeps ⌈fraction · m⌉ of the m runs (at least one), in their original column order; ties at
    the cut go to the run that comes first. Voorhees (SIGIR 2009) kept the top 75% of the 110
    TREC 2004 Robust runs by MAP over all 249 topics: ⌈0.75 · 110⌉ = ⌈82.5⌉ = 83 runs. Rank on
    all topics *before* selecting topics, as she did.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        Topics as rows, runs as columns.
    fraction : float
        0 < fraction ≤ 1.

    Returns
    -------
    pandas.DataFrame or numpy.ndarray
        The kept columns, same type as ``scores``.

    Examples
    --------
    >>> x = pd.DataFrame({"a": [.1, .2], "b": [.5, .6], "c": [.3, .3], "d": [.9, .8]})
    >>> top_runs(x, fraction=0.5).columns.tolist()
    ['b', 'd']
    >>> top_runs(x, fraction=0.6).columns.tolist()     # ⌈2.4⌉ = 3 runs
    ['b', 'c', 'd']
    """
    fraction = check("fraction", fraction, allow_array=False)
    matrix = check_matrix(scores, min_runs=1)
    m = matrix.values.shape[1]
    k = max(1, math.ceil(round(fraction * m, 9)))
    order = np.argsort(-matrix.values.mean(axis=0), kind="stable")
    keep = np.sort(order[:k])
    if matrix.runs is None:
        return matrix.values[:, keep]
    return scores.iloc[:, keep]


def transform_scores(scores, *, kind: str = "raw"):
    """Raw, std-AB or std-CDF scores, standardised with the factors of all runs given.

    ``"std-ab"`` is :func:`topicsetsize.estimates.standardise.std_ab` (A = 0.15, B = 0.5, clipped;
    T. Sakai, AIRS 2016), ``"std-cdf"`` is :func:`topicsetsize.estimates.standardise.std_cdf` (Φ of
    the
    per-topic z-score; Webber, Moffat and Zobel, SIGIR 2008, as in Voorhees, SIGIR 2009); the
    per-topic mean and SD come from every run of ``scores``. Pass all runs and select runs
    afterwards, so that the factors do not depend on the selection.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        Topics as rows, all runs as columns.
    kind : {"raw", "std-ab", "std-cdf"}

    Returns
    -------
    pandas.DataFrame or numpy.ndarray
        Same type, labels and shape as ``scores`` (a copy for ``"raw"``).

    Examples
    --------
    >>> transform_scores([[0.2, 0.4, 0.6], [0.5, 0.6, 0.7]], kind="std-ab")
    array([[0.35, 0.5 , 0.65],
           [0.35, 0.5 , 0.65]])
    """
    from ..estimates.standardise import std_ab, std_cdf

    kind = check_choice("kind", kind, SCORE_KINDS)
    if kind == "std-ab":
        return std_ab(scores)
    if kind == "std-cdf":
        return std_cdf(scores)
    matrix = check_matrix(scores)
    return matrix.like_input(matrix.values.copy())
