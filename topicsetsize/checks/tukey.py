r"""Randomised Tukey HSD: a multiple-comparison test over every run pair of a score matrix.

With m runs there are m(m − 1)/2 pairs, and a paired test per pair inflates the family-wise
error rate (the chance that at least one pair is declared different when none is). Tukey's
honestly significant difference (HSD) test controls it: a pair is significant when its mean
difference exceeds what the *largest* difference among all m means (their range) reaches by
chance. The randomised version (B. Carterette, "Multiple testing in statistical analysis of
systems-based information retrieval experiments", ACM TOIS 30(1), 2012; T. Sakai, *Laboratory
Experiments in Information Retrieval: Sample Sizes, Effect Sizes, and Statistical Power*,
Springer 2018, Chapter 4; used with B = 5000 trials in L. Shang, T. Sakai et al., "Overview of
the NTCIR-12 Short Text Conversation task", NTCIR-12, 2016) needs no normality: under H0 every
run is equally likely to have produced any of a topic's scores, so each trial shuffles every
topic's row across the runs and records the range of the run means.

The trials are vectorised: a chunk of trials is one array of random 64-bit sort keys, one per
(trial, topic, run) cell, whose low bits hold the cell's flat index into the matrix; sorting each
row of keys shuffles the indices, one ``take`` gathers the scores and a sum over the topics gives
the run sums of every trial in the chunk. Memory stays bounded by the chunk.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable

import numpy as np
import pandas as pd

from ..estimates.variance import two_way_residual_variance
from ..matrices.copies import COUNTED_ONCE, identical_runs
from ..matrices.matrix import check_matrix
from ..params import PARAMS, check, check_flag

__all__ = ["tukey_hsd_randomised", "randomised_ranges", "trials_to_reach", "TooFewTrialsWarning"]

#: Cells per chunk of trials: (trials × topics × runs) 64-bit keys, 2 MB, about one L2 cache.
_CHUNK_ELEMENTS = 2 ** 18


class TooFewTrialsWarning(UserWarning):
    """Emitted where the smallest p-value the randomised trials can give, 1/(trials + 1), is
    above the significance level: no pair can be significant, whatever the scores."""


def trials_to_reach(alpha: float) -> int:
    """The fewest trials B whose smallest p-value, 1/(B + 1), is at most ``alpha``.

    >>> trials_to_reach(0.05), trials_to_reach(0.01), trials_to_reach(0.07)
    (19, 99, 14)
    """
    alpha = check("alpha", alpha, allow_array=False)
    trials = max(1, math.ceil(1 / alpha) - 1)
    while 1 / (trials + 1) > alpha:             # 1/alpha rounded: step to the exact count
        trials += 1
    while trials > 1 and 1 / trials <= alpha:
        trials -= 1
    return trials


def _warn_if_unattainable(trials: int, alpha: float) -> None:
    """:class:`TooFewTrialsWarning` where 1/(trials + 1) > alpha (see :func:`trials_to_reach`)."""
    smallest = 1 / (trials + 1)
    if smallest <= alpha:
        return
    needed = trials_to_reach(alpha)
    most = int(PARAMS["trials"].high)
    reach = (f"at least {needed:,} trials are needed for any p-value to reach alpha, and "
             "thousands (5,000 by default) for the verdicts not to be Monte Carlo noise"
             if needed <= most else f"it needs {needed:,} trials, more than the {most:,} allowed")
    warnings.warn(f"{trials:,} randomised trials give p-values of at least 1/({trials:,} + 1) = "
                  f"{smallest:.4g}, above alpha = {alpha:.15g}: no pair can be significant; "
                  f"{reach}", TooFewTrialsWarning, stacklevel=3)


def _key_layout(cells: int) -> tuple[np.uint64, np.uint64]:
    """Masks of the random high bits and of the low bits that hold a cell index < ``cells``."""
    bits = max(1, int(cells - 1).bit_length())
    low = np.uint64((1 << bits) - 1)
    return np.uint64(~low), low


def randomised_ranges(scores, *, trials: int = 5000, seed=None,
                      progress: Callable[[int], object] | None = None) -> np.ndarray:
    r"""Range of the run sums of ``trials`` matrices with every topic's row shuffled.

    Trial b shuffles row j of the topics × runs matrix x by a uniformly random permutation
    π_jb, independently for every topic and trial, and returns
    R_b = max_i S_ib − min_i S_ib with S_ib = Σ_j x_{j, π_jb(i)} (the run sums; divide by the
    number of topics for the range of the run means).

    The permutation of one row is the order of m random 64-bit keys: each key is a fresh
    ``random_raw`` draw of the generator with its low ⌈log2(n·m)⌉ bits replaced by the cell's
    flat index j·m + i, so sorting a row of keys orders the cells at random and the low bits say
    which score lands in which position. The keys are drawn trial by trial, topic by topic, so
    the stream (and the result) does not depend on the chunk size. Two keys of a row tie in
    their random bits with probability below m²·2^(bits − 65) (about 10^-12 for 100 × 50),
    where the order falls back to the column order: far below any Monte Carlo error.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        Topics as rows, runs as columns (at least 2 of each), finite values.
    trials : int, default 5000
    seed : int, numpy.random.Generator or None
    progress : callable, optional
        Called as ``progress(k)`` after each chunk of k trials.

    Returns
    -------
    numpy.ndarray
        The ``trials`` ranges R_b of the run sums.

    Examples
    --------
    >>> r = randomised_ranges([[1.0, 0.0], [0.0, 1.0]], trials=8, seed=0)
    >>> sorted(set(r.tolist()))      # rows shuffled together or against each other
    [0.0, 2.0]
    """
    x = check_matrix(scores).values
    trials = check("trials", trials, allow_array=False)
    n, m = x.shape
    high, low = _key_layout(n * m)
    cells = np.arange(n * m, dtype=np.uint64).reshape(n, m)
    flat = x.ravel()
    bitgen = np.random.default_rng(seed).bit_generator
    chunk = max(1, min(trials, _CHUNK_ELEMENTS // (n * m)))
    out = np.empty(trials)
    for start in range(0, trials, chunk):
        k = min(chunk, trials - start)
        keys = bitgen.random_raw(k * n * m).reshape(k, n, m)
        keys &= high
        keys |= cells
        keys.sort(axis=-1)
        keys &= low
        sums = flat.take(keys.view(np.int64)).sum(axis=1)
        out[start:start + k] = sums.max(axis=1) - sums.min(axis=1)
        if progress is not None:
            progress(k)
    return out


def tukey_hsd_randomised(scores, *, trials: int = 5000, seed=None,
                         include_observed: bool = True, alpha: float | None = None,
                         progress: Callable[[int], object] | None = None) -> pd.DataFrame:
    r"""Randomised Tukey HSD p-values and effect sizes for every pair of runs.

    For runs a and b with mean scores x̄_a, x̄_b over the n topics and the ranges R_b of the run
    means of B randomised matrices (:func:`randomised_ranges`: each topic's row shuffled across
    the runs), the p-value of the pair is

    .. math:: p_{ab} = \frac{1 + \#\{b : R_b \ge |\bar x_a - \bar x_b|\}}{B + 1}

    with ``include_observed=True`` (the default): the observed matrix counts as one of the
    B + 1 equally likely arrangements under H0 (each topic's scores exchangeable across the
    runs: equal means *and* spreads; with unequal spreads the error rate can exceed α,
    ``docs/checks.md``), so p is never 0 and rejecting the pairs with
    p ≤ α keeps the family-wise error rate at most α exactly (B. Phipson and G. K. Smyth,
    "Permutation p-values should never be zero", SAGA 9(1), 2010). ``include_observed=False``
    gives #{b : R_b ≥ |x̄_a − x̄_b|}/B, the count of B. Carterette, ACM TOIS 30(1), 2012
    (Algorithm 1) and of T. Sakai's randomised Tukey HSD (*Laboratory Experiments in
    Information Retrieval*, Springer 2018, Chapter 4; the NTCIR-12 STC overview, B = 5000).
    The two differ by less than 1/B.

    The effect size is Sakai's ES_HSD = (x̄_a − x̄_b)/√V_E2 with V_E2 the two-way ANOVA
    (without replication) residual variance of the matrix, runs and topics as the factors
    (:func:`topicsetsize.estimates.variance.two_way_residual_variance`). A matrix that is exactly
    additive has V_E2 = 0 and gives ±inf; one whose runs all agree on every topic (a constant
    matrix, say) has nothing to test and is refused.

    A run identical to an earlier one on every topic (a run submitted twice) is not another
    system: it is counted once, as the first of its group, and one
    :class:`~topicsetsize.matrices.copies.IdenticalRunsWarning` names the copies. Kept, each
    copy would add a pair of difference 0 and repeat its original's pairs, and, a column more
    in every shuffle, widen the randomised ranges and so raise every p-value: the family of
    comparisons is that of the distinct systems.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        Topics as rows, runs as columns (at least 2 of each), no missing values.
    trials : int, default 5000
        Number B of randomised matrices.
    seed : int, numpy.random.Generator or None
        Seed of the random generator.
    include_observed : bool, default True
        Count the observed matrix in: (count + 1)/(B + 1); False gives count/B. True or False
        (a numpy bool too; anything else is refused).
    alpha : float, optional
        The family-wise significance level: adds the column ``significant`` (p ≤ alpha). Where
        the smallest p-value the trials can give, 1/(trials + 1) with ``include_observed``, is
        above alpha, no pair can be significant, and a :class:`TooFewTrialsWarning` says so and
        how many trials are needed (:func:`trials_to_reach`), before the trials are run.
    progress : callable, optional
        Called as ``progress(k)`` after each chunk of k trials.

    Returns
    -------
    pandas.DataFrame
        One row per pair of distinct runs (a before b in column order): ``run_a``, ``run_b``,
        ``difference`` (x̄_a − x̄_b), ``p_value``, ``es_hsd``, and with ``alpha``
        ``significant``. ``attrs`` holds ``trials``, ``variance`` (V_E2 of the distinct runs),
        ``topics``, ``runs`` (the distinct runs tested) and ``copies`` (the ``(copy, original)``
        pairs counted once).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = pd.DataFrame(rng.normal(size=(30, 3)) + [0.0, 0.0, 0.6], columns=["A", "B", "C"])
    >>> t = tukey_hsd_randomised(x, trials=999, seed=1)
    >>> t.round(3)
      run_a run_b  difference  p_value  es_hsd
    0     A     B      -0.103    0.935  -0.112
    1     A     C      -1.032    0.001  -1.124
    2     B     C      -0.929    0.003  -1.011

    Ten trials cannot give a p-value below 1/11:

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     t = tukey_hsd_randomised(x, trials=10, seed=1, alpha=0.05)
    >>> bool(t.significant.any())
    False
    >>> print(caught[0].message)
    10 randomised trials give p-values of at least 1/(10 + 1) = 0.09091, above alpha = 0.05: no
    pair can be significant; at least 19 trials are needed for any p-value to reach alpha, and
    thousands (5,000 by default) for the verdicts not to be Monte Carlo noise
    """
    matrix = check_matrix(scores)
    trials = check("trials", trials, allow_array=False)
    include_observed = check_flag("include_observed", include_observed)
    if alpha is not None:
        alpha = check("alpha", alpha, allow_array=False)
        if include_observed:                    # count/trials can be 0: any alpha is reached
            _warn_if_unattainable(trials, alpha)
    copies = identical_runs(matrix)
    copies.require_two("no two runs differ (V_E2 = 0, and ES_HSD = 0/0 is undefined)")
    x = copies.distinct(matrix.values)          # each system once
    n, m = x.shape
    copies.warn(f"{COUNTED_ONCE}: the test and its V_E2 use the {m} distinct runs")
    variance = two_way_residual_variance(x)
    labels = (list(matrix.runs[copies.keep]) if matrix.runs is not None
              else copies.keep.tolist())
    ranges = np.sort(randomised_ranges(x, trials=trials, seed=seed, progress=progress))
    sums = x.sum(axis=0)
    a, b = np.triu_indices(m, k=1)
    observed = np.abs(sums[a] - sums[b])
    # Sums of n scores agree to far better than this whether taken over a shuffled or the
    # original row order; a randomised range equal to the observed one must count as ">=".
    tol = 1e-12 * n * max(float(np.abs(x).max()), np.finfo(float).tiny)
    count = trials - np.searchsorted(ranges, observed - tol, side="left")
    p = (count + 1) / (trials + 1) if include_observed else count / trials
    means = x.mean(axis=0)
    difference = means[a] - means[b]
    with np.errstate(divide="ignore", invalid="ignore"):
        es = difference / math.sqrt(variance)
    frame = pd.DataFrame({"run_a": [labels[i] for i in a], "run_b": [labels[j] for j in b],
                          "difference": difference, "p_value": p, "es_hsd": es})
    if alpha is not None:
        frame["significant"] = frame["p_value"] <= alpha
    frame.attrs.update(trials=trials, variance=variance, topics=n, runs=m, copies=copies.copies)
    return frame
