r"""Split-half reliability of paired significance tests (Voorhees, SIGIR 2009).

A topic set size design promises that a test on n topics will rarely contradict itself. Voorhees
("Topic set size redux", SIGIR 2009) checked this on real TREC data: split the topics at random
into two disjoint halves, run a two-sided paired t-test on every run pair in each half, and count
how often the halves disagree:

* a **major conflict**: both halves significant, in opposite directions;
* a **minor conflict**: one half significant, the other favouring the other run (not
  significantly);
* **% conflicted** = (2·major + minor) / significant.

:func:`split_half` does this for every run pair of a matrix, vectorised over the pairs: for a
pair (a, b) with per-topic differences d = x_a − x_b, the sums Σd and Σd² over a half are one
matrix product of the half's 0/1 topic indicator with the matrix of all pairs' differences, so a
chunk of trials costs one BLAS call and memory stays bounded (trials are processed in chunks and
run pairs in blocks; trials × pairs × topics is never formed). The full Voorhees set-up, 6.8
million t-tests, takes well under a second.

:func:`split_half_curve` repeats it for several half sizes (the conflict rate against the topic
set size). :func:`topicsetsize.select_topics`, :func:`topicsetsize.top_runs` and
:func:`topicsetsize.transform_scores` (in :mod:`topicsetsize.checks.selection`) express the
published set-up: topics 351–450 of TREC 2004 Robust, the best 75% of the runs by MAP over all
249 topics, raw or standardised AP.

Runs that are copies of others (equal scores on every topic) are kept: every pair of runs is
tested, as in Voorhees' set-up, whose 6,806,000 comparisons count the copy sys69 of sys67 in
the best 75% of TREC 2004 Robust. A copy and its original never differ (their pair is a tie,
neither significant nor a conflict); ``topicsetsize reliability`` names the copies
(:data:`COPIES`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd

from ..errors import InputError
from ..matrices.matrix import check_matrix
from ..numerics.distributions import t_crit
from ..params import Range, check
from .paired import paired_t

# Importable from here too (they were defined here before topicsetsize.checks.selection existed).
from .selection import SCORE_KINDS, select_topics, top_runs, transform_scores  # noqa: F401

__all__ = ["SplitHalfResult", "split_half", "split_half_curve", "random_splits", "COPIES"]

#: What the split halves do with runs that are copies of others (the end of the one-line
#: warning of ``topicsetsize reliability`` that names them).
COPIES = ("kept: every pair of runs is tested, as in Voorhees (SIGIR 2009), whose counts include "
          "them; a copy and its original never differ")

#: Bound on the elements of one chunk's (trials × pairs) arrays and one block's (topics × pairs)
#: differences: a few such arrays live at once, so the peak memory stays at tens of MB.
_CHUNK_ELEMENTS = 2 ** 19
_BLOCK_ELEMENTS = 2 ** 21


@dataclass(frozen=True)
class SplitHalfResult:
    """Counts of one split-half experiment (Voorhees, SIGIR 2009, Table 1).

    Attributes
    ----------
    comparisons : int
        Paired t-tests run: trials × run pairs × 2 (one per half).
    significant : int
        Tests significant at ``alpha``, over both halves.
    major : int
        (trial, pair) cases with both halves significant, in opposite directions.
    minor : int
        (trial, pair) cases with one half significant and the other favouring the other run
        without significance.
    conflicted_pct : float
        100 · (2·major + minor) / significant (NaN when nothing is significant).
    half, trials, alpha : int, int, float
        Topics per half, number of random splits, significance level.
    topics, runs : int
        Size of the matrix the halves were drawn from.
    """

    comparisons: int
    significant: int
    major: int
    minor: int
    conflicted_pct: float
    half: int
    trials: int
    alpha: float
    topics: int
    runs: int

    @property
    def pairs(self) -> int:
        """Number of run pairs, m(m − 1)/2."""
        return self.runs * (self.runs - 1) // 2

    @property
    def significant_pct(self) -> float:
        """100 · significant / comparisons."""
        return 100.0 * self.significant / self.comparisons


class _PairBlock(NamedTuple):
    """Shifted differences d' = x_a − x_b − shift of a block of run pairs (topics × pairs)."""

    d: np.ndarray
    d2: np.ndarray
    shift: np.ndarray
    total: np.ndarray    # Σd' over all topics
    total2: np.ndarray   # Σd'² over all topics


def _pair_blocks(x: np.ndarray, size: int) -> Iterator[_PairBlock]:
    """The run pairs a < b (in ``numpy.triu_indices`` order) in blocks of ``size`` pairs."""
    a, b = np.triu_indices(x.shape[1], 1)
    for start in range(0, a.size, size):
        d = x[:, a[start:start + size]] - x[:, b[start:start + size]]
        shift = d.mean(axis=0)
        d -= shift
        d2 = d * d
        yield _PairBlock(d, d2, shift, d.sum(axis=0), d2.sum(axis=0))


def _split_chunks(rng: np.random.Generator, n: int, half: int, trials: int,
                  chunk: int) -> Iterator[np.ndarray]:
    """Topic positions of ``trials`` random splits, ``chunk`` trials at a time.

    Each row is the first 2·half entries of a uniformly random permutation of range(n) (the
    argsort of n uniform keys); the first ``half`` are half A, the rest half B. Keys are drawn
    sequentially, so the splits do not depend on the chunk size.
    """
    for start in range(0, trials, chunk):
        keys = rng.random((min(chunk, trials - start), n))
        yield np.argsort(keys, axis=1)[:, :2 * half]


def random_splits(n_topics: int, *, trials: int, half: int | None = None,
                  seed=None) -> np.ndarray:
    """The random splits :func:`split_half` uses for the same arguments and seed.

    Each split is a uniformly random pair of disjoint topic sets of ``half`` topics each, as in
    E. M. Voorhees, "Topic set size redux", SIGIR 2009.

    Parameters
    ----------
    n_topics : int
        Number of topics (rows of the score matrix).
    trials : int
        Number of splits.
    half : int, optional
        Topics per half, 2 ≤ half ≤ n_topics // 2; default n_topics // 2.
    seed : int, numpy.random.Generator or None
        Seed of the random generator.

    Returns
    -------
    numpy.ndarray
        Shape (trials, 2·half): row t holds the topic positions of half A (first ``half``
        columns) and of half B (last ``half``) of split t. Holds every split at once: for
        checks and small experiments (:func:`split_half` never materialises it).

    Examples
    --------
    >>> s = random_splits(10, trials=3, half=4, seed=1)
    >>> s.shape
    (3, 8)
    >>> all(len(set(row)) == 8 for row in s.tolist())   # the halves are disjoint
    True
    """
    n_topics = check("n", n_topics, allow_array=False)
    trials = check("trials", trials, allow_array=False)
    half = _check_half(half, n_topics)
    return np.concatenate(list(_split_chunks(np.random.default_rng(seed), n_topics, half,
                                             trials, trials)))


def _check_half(half, n: int) -> int:
    allowed = Range(low=2, high=n // 2, low_open=False, high_open=False)
    if n < 4:
        raise InputError(f"scores has {n} topics: split-half needs at least 4 topics")
    if half is None:
        return n // 2
    half = check("half", half, allow_array=False)
    if half > n // 2:
        raise InputError(f"half={half} is out of range: allowed {allowed.describe('half')} "
                         f"(a whole number, at most half of the {n} topics)")
    return half


def split_half(scores, *, trials: int = 1000, alpha: float = 0.05, half: int | None = None,
               seed=None, progress: Callable[[int], object] | None = None) -> SplitHalfResult:
    r"""Split-half conflicts of two-sided paired t-tests over all run pairs (Voorhees 2009).

    For each of ``trials`` random splits of the n topics into two disjoint halves A and B of
    ``half`` topics (the remaining n − 2·half topics, if any, are left out), and for every run
    pair (a, b), each half gets a two-sided paired t-test at level α:

    .. math:: t = \frac{\bar d}{s_d/\sqrt{h}}, \qquad d_j = x_{aj} - x_{bj},
              \qquad \text{significant} \iff |t| > t(h-1; \alpha)

    (a half with constant, non-zero differences is significant; one with all d_j = 0 is not,
    as with :func:`scipy.stats.ttest_rel`). Then (Voorhees, SIGIR 2009)

    * ``comparisons`` = trials · m(m−1)/2 · 2 (both halves count),
    * ``significant`` = number of significant tests over both halves,
    * ``major`` = (split, pair) cases with both halves significant in opposite directions,
    * ``minor`` = cases with one half significant and the other's mean difference of the
      opposite sign, not significant,
    * ``conflicted_pct`` = 100·(2·major + minor)/significant.

    E. M. Voorhees, "Topic set size redux", SIGIR 2009 (Table 1: TREC 2004 Robust topics
    351–450, the 83 best runs, 1000 splits: 6,806,000 comparisons, 3,223,017 significant, 1,280
    major, 86,364 minor, 2.8% conflicted); it checks the topic set sizes designed as in
    T. Sakai, AIRS 2016.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        Topics as rows, runs as columns, no missing values (at least 4 topics, 2 runs).
    trials : int, default 1000
        Number of random splits.
    alpha : float, default 0.05
        Significance level of each two-sided test.
    half : int, optional
        Topics per half, 2 ≤ half ≤ n // 2; default n // 2. Smaller halves give the
        conflict rate at smaller topic set sizes (see :func:`split_half_curve`).
    seed : int, numpy.random.Generator or None
        Seed; the splits are those of :func:`random_splits` with the same arguments.
    progress : callable, optional
        Called as ``progress(k)`` after each chunk of k trials (e.g. a tqdm bar's ``update``).

    Returns
    -------
    SplitHalfResult

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=(20, 4)) + [0.0, 0.1, 0.5, 1.5]   # run 4 is far better
    >>> r = split_half(x, trials=200, seed=1)
    >>> r.comparisons, r.half
    (2400, 10)
    >>> r.significant > 0 and r.conflicted_pct < 10
    True
    """
    matrix = check_matrix(scores)
    x = matrix.values
    n, m = x.shape
    trials = check("trials", trials, allow_array=False)
    alpha = check("alpha", alpha, allow_array=False)
    h = _check_half(half, n)
    crit2 = float(t_crit(alpha, h - 1)) ** 2

    n_pairs = m * (m - 1) // 2
    block = max(1, min(n_pairs, _BLOCK_ELEMENTS // n))
    chunk = max(1, min(trials, _CHUNK_ELEMENTS // max(block, 2 * n)))
    cached = list(_pair_blocks(x, block)) if block == n_pairs else None
    full = 2 * h == n            # half B is then "all topics but A": one product fewer
    sig = major = minor = 0
    rows = None
    for splits in _split_chunks(np.random.default_rng(seed), n, h, trials, chunk):
        c = splits.shape[0]
        if rows is None or rows.shape[0] != c:
            rows = np.arange(c)[:, None]
        w = np.zeros((c if full else 2 * c, n))
        w[rows, splits[:, :h]] = 1.0
        if not full:
            w[c + rows, splits[:, h:]] = 1.0
        for blk in cached or _pair_blocks(x, block):
            s, q = np.empty((2, c, blk.d.shape[1])), np.empty((2, c, blk.d.shape[1]))
            if full:
                np.matmul(w, blk.d, out=s[0])
                np.subtract(blk.total, s[0], out=s[1])
                np.matmul(w, blk.d2, out=q[0])
                np.subtract(blk.total2, q[0], out=q[1])
            else:
                np.matmul(w, blk.d, out=s.reshape(2 * c, -1))
                np.matmul(w, blk.d2, out=q.reshape(2 * c, -1))
            (ra, rb), (ta, tb) = paired_t(s, q, h, blk.shift, crit2, blk.total2)
            opposite = np.multiply(ta, tb) < 0.0
            sig += int(np.count_nonzero(ra)) + int(np.count_nonzero(rb))
            major += int(np.count_nonzero(ra & rb & opposite))
            minor += int(np.count_nonzero((ra ^ rb) & opposite))
        if progress is not None:
            progress(c)
    comparisons = 2 * trials * n_pairs
    pct = 100.0 * (2 * major + minor) / sig if sig else math.nan
    return SplitHalfResult(comparisons, sig, major, minor, pct, h, trials, alpha, n, m)


def split_half_curve(scores, *, halves: Iterable[int], trials: int = 1000, alpha: float = 0.05,
                     seed=None, progress: Callable[[int], object] | None = None) -> pd.DataFrame:
    """Split-half conflicts for several half sizes: the conflict rate against the topic set size.

    Runs :func:`split_half` once per half size with the same seed (common random numbers: every
    half size splits the same random orders of the topics, so the curve is smooth, and each row
    equals ``split_half(scores, half=h, seed=seed)`` for an integer seed). The split-half
    method is that of E. M. Voorhees, "Topic set size redux", SIGIR 2009; the curve shows
    how often a topic set of size h contradicts itself, to set beside the n that T. Sakai's
    designs (AIRS 2016) give.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        Topics as rows, runs as columns.
    halves : iterable of int
        Topics per half, each 2 ≤ h ≤ n // 2.
    trials, alpha, progress
        As for :func:`split_half` (``progress`` counts trials over all half sizes).
    seed : int, numpy.random.Generator or None
        An integer is used as is for every half size; a Generator (or None) is asked once for
        an integer seed.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``half``; columns ``trials``, ``comparisons``, ``significant``, ``major``,
        ``minor``, ``conflicted_pct``.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=(40, 5)) + np.linspace(0, 1, 5)
    >>> curve = split_half_curve(x, halves=[5, 10, 20], trials=100, seed=3)
    >>> curve.index.tolist(), curve["comparisons"].tolist()
    ([5, 10, 20], [2000, 2000, 2000])
    """
    halves = [check("half", h, allow_array=False) for h in halves]
    if not halves:
        raise InputError("halves is empty: give at least one half size")
    if not isinstance(seed, (int, np.integer)):
        seed = int(np.random.default_rng(seed).integers(2 ** 63))
    results = [split_half(scores, trials=trials, alpha=alpha, half=h, seed=seed,
                          progress=progress) for h in halves]
    return _frame(results)


def _frame(results: Iterable[SplitHalfResult]) -> pd.DataFrame:
    """Split-half results as a table indexed by ``half`` (one row per result)."""
    columns = ["half", "trials", "comparisons", "significant", "major", "minor",
               "conflicted_pct"]
    return pd.DataFrame([[getattr(r, c) for c in columns] for r in results],
                        columns=columns).set_index("half")
