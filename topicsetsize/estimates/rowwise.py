"""Row-by-row selections over many random halves of the topics at once.

:func:`~topicsetsize.estimates.differences.split_half_differences` draws tens of thousands of
halves a call: for each, the topics of half A (:func:`smallest` of its random draws) and the
top k runs on it (:func:`top_k_columns` of its run means). Each gives what a sort of every row
gives, by a partial sort (:func:`numpy.partition`), at a fraction of its cost.
"""

from __future__ import annotations

import numpy as np

__all__ = ["smallest", "top_k_columns"]


def smallest(draws: np.ndarray, count: int) -> np.ndarray:
    """A mask of the ``count`` smallest draws of each row.

    The draws at or below the row's count-th smallest (one :func:`numpy.partition`, no sort):
    the set that ``np.argsort(draws, axis=1)[:, :count]`` gives. Where two draws tie at the cut
    (two equal doubles of 53 random bits: for 64,000 halves of 249 topics, less than once in a
    million calls) that argsort decides instead.

    Parameters
    ----------
    draws : ndarray of float, shape (rows, n)
        E.g. uniform random numbers, one row per random half.
    count : int
        How many of each row to take, 1 ≤ count ≤ n.

    Returns
    -------
    ndarray of bool, shape (rows, n)
        ``count`` True values in every row.

    Examples
    --------
    >>> smallest(np.array([[0.4, 0.1, 0.3, 0.2]]), 2).tolist()
    [[False, True, False, True]]
    """
    mask = draws <= np.partition(draws, count - 1, axis=1)[:, count - 1:count]
    if np.count_nonzero(mask) != mask.shape[0] * count:        # a tie at the cut
        mask[:] = False
        np.put_along_axis(mask, np.argsort(draws, axis=1)[:, :count], True, axis=1)
    return mask


def top_k_columns(means: np.ndarray, k: int) -> np.ndarray:
    """The columns of the k largest means of each row, largest first.

    Means equal but for rounding to 10 decimals tie (the means are scaled to at most 1 in
    size, so that is 1e-10 of the largest), and a tie goes to the earlier column: the result
    is ``np.argsort(-np.round(means, 10), axis=1, kind="stable")[:, :k]``, at less than half
    its cost on 110 runs. ``np.round`` to 10 decimals is rint(means · 10¹⁰) / 10¹⁰, so the
    whole numbers rint(means · 10¹⁰), at most 10¹⁰ in size, order and tie each row alike; each
    with its column folded in is a distinct int64 key, which a partial sort of the row
    (:func:`numpy.argpartition`), then a sort of its k best, puts in the same order.

    Parameters
    ----------
    means : ndarray of float, shape (rows, runs)
        One row per random half, each value at most 1 in size.
    k : int
        How many columns of each row, 1 ≤ k ≤ runs.

    Returns
    -------
    ndarray of int, shape (rows, k)

    Examples
    --------
    0.5 and 0.5 + 1e-12 tie, and the earlier column comes first:

    >>> top_k_columns(np.array([[0.3, 0.5, 0.5 + 1e-12, 0.1]]), 3).tolist()
    [[1, 2, 0]]
    """
    runs = means.shape[1]
    key = (-np.rint(means * 1e10)).astype(np.int64) * runs + np.arange(runs)
    if k < runs:
        best = np.argpartition(key, k - 1, axis=1)[:, :k]
    else:
        best = np.broadcast_to(np.arange(runs), key.shape)
    return np.take_along_axis(best, np.argsort(np.take_along_axis(key, best, 1), axis=1), 1)
