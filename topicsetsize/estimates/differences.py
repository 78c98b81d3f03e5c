r"""Differences between runs that really occur in a past matrix: what minD to design for.

Topic set size design asks for a minimum detectable difference minD (the range between the best
and the worst of m systems, Sakai IRJ 2016) and users often pick it by habit (.05, .10). A past
topics × runs matrix shows which differences between run means occur: over all pairs of runs,
among the top k runs, and between the best run and each other run. :func:`run_differences`
summarises them, :func:`share_at_least` gives the share of run pairs that differ by at least a
candidate minD; :func:`topicsetsize.decide.realistic.realistic_min_d` turns them into minD
values worth designing for, each with Sakai's n.

The differences among the top k runs of a matrix are *selected*: the runs were picked because
their means came out high on these topics, and part of their spread is the noise that put them
there. :func:`split_half_differences` corrects for it: pick the top k runs on one random half
of the topics, measure their differences on the other half, average over many random halves.
:func:`paired_standard_errors` gives the standard error of a paired difference between two run
means on the past topics.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..errors import InputError
from ..matrices.matrix import check_matrix
from ..params import N_HALVES, check
from .rowwise import smallest, top_k_columns

__all__ = ["RunDifferences", "SplitHalfDifferences", "run_differences", "share_at_least",
           "split_half_differences", "paired_standard_errors", "top_order", "PAIR_STATISTICS",
           "MC_BATCHES", "MC_REPLICATES"]

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


def top_order(means: np.ndarray) -> np.ndarray:
    """Run positions by mean, best first (ties: the earlier column first)."""
    return np.argsort(-np.asarray(means, float), kind="stable")


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


@dataclass(frozen=True, eq=False)
class SplitHalfDifferences:
    """Differences among the top k runs, corrected for their selection by split halves.

    Attributes
    ----------
    top_range : float
        Mean over the halves of μ_B(1) − μ_B(k): the run ranked first on half A minus the run
        ranked k-th on half A, both measured on the other half B.
    top_pairs : ndarray
        The k(k−1)/2 mean signed differences μ_B(i) − μ_B(j), i < j the ranks on half A,
        sorted ascending (a pair that is not really different averages near 0, or below).
    top_k, trials, seed : int
        The size of the top group, the number of random halves and the seed.
    mc_se : dict of str to float
        The Monte Carlo standard error of each corrected statistic over the halves drawn (how
        much it would move with another ``seed``; :func:`split_half_differences` says how):
        ``"range"`` of ``top_range``, ``"median"`` and ``"25%"`` of those statistics of
        ``top_pairs`` (:data:`PAIR_STATISTICS`). NaN with fewer than 2 halves.
    """

    top_range: float
    top_pairs: np.ndarray
    top_k: int
    trials: int
    seed: int
    mc_se: dict = field(default_factory=dict)


#: The statistics of the k(k−1)/2 corrected pair means that give the ``top-k median`` and
#: ``top-k 25%`` candidates (:func:`topicsetsize.decide.realistic.realistic_min_d`), over the
#: last axis; their keys in ``SplitHalfDifferences.mc_se``.
PAIR_STATISTICS = {"median": lambda d: np.median(d, axis=-1),
                   "25%": lambda d: np.quantile(d, 0.25, axis=-1)}
#: Batches of halves (at most) and bootstrap replicates of the Monte Carlo standard error of
#: the median and quartile (:func:`split_half_differences`): measured on the bundled matrix,
#: the error of the standard error itself is about 11% (sd over seeds; 1/√(2B) ≈ 7% from B).
MC_BATCHES, MC_REPLICATES = 100, 500


def split_half_differences(scores, *, top_k: int = 10, trials: int = N_HALVES,
                           seed: int = 0) -> SplitHalfDifferences:
    r"""The differences among the top k runs, corrected for the selection of the top k.

    The top k runs of a matrix are those whose means came out highest on its topics, partly by
    chance: measured on the same topics, their differences overstate what another topic set
    will show (the winner's curse). Each trial splits the n topics at random into halves A
    (⌊n/2⌋ topics) and B (the rest), ranks the runs by their means on A, takes the top k and
    measures them on B, where the noise that selected them does not recur:

    .. math:: \hat\Delta_{ij} = \frac{1}{T}\sum_{t=1}^{T}
              \bigl(\bar x^{B_t}_{(i)} - \bar x^{B_t}_{(j)}\bigr), \quad i < j \le k,

    with (i) the run ranked i-th on A_t (runs whose means on A_t are equal to 1e-10 of the
    largest |score| are tied, and ranked in column order). The range is
    :math:`\hat\Delta_{1k}`. Signed differences average to 0 over the halves where the runs
    are equal, so a top group of equal runs gets candidates near 0, where the uncorrected
    ones are positive. Each half ranks the runs on ⌊n/2⌋ topics, noisier than all n, so the
    correction errs on the side of smaller differences (more topics).

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        Topics as rows, runs as columns (at least 2 topics).
    top_k : int
        Size of the top group (≥ 2; at most the number of runs).
    trials : int
        Number of random halves (default :data:`topicsetsize.params.N_HALVES`, 64,000: see
        the bias of the median and quartile below).
    seed : int
        Seed of the random halves (default 0: the same result every time).

    The estimates are means over T = ``trials`` random halves, so they carry Monte Carlo error:
    another ``seed`` gives other values. ``mc_se`` gives its standard error, from the same
    halves:

    * the range is a mean of T independent per-half ranges r_t, so its standard error is
      sd(r_t)/√T (ddof 1), exact for a mean of independent draws;
    * the median and first quartile are statistics of the k(k−1)/2 pair means, not means of
      per-half values, and they are not smooth functions of the pair means (the pair at the
      median changes with the noise): the halves are bootstrapped (Efron & Tibshirani 1993,
      ch. 6; Koehler, Brown & Haneuse 2009 for the Monte Carlo error of a simulation). The T
      halves, in the order drawn, fall into B = min(:data:`MC_BATCHES`, T) batches of
      ⌊T/B⌋ or ⌈T/B⌉ consecutive halves (batches of independent halves are independent, and
      only their B sums of the pair differences are kept); each of :data:`MC_REPLICATES`
      replicates draws B batches with replacement, and the statistic of the pair means of
      the replicate (its summed differences over its summed halves) is taken. The standard
      error is the sd of the replicates (ddof 1). The replicates are drawn from a generator of
      their own (``numpy.random.SeedSequence(seed).spawn(1)[0]``): the halves, and every
      estimate, are those drawn without them.

    Batch means (Flegal & Jones 2010: sd of the statistic over B batches, divided by √B) would
    need no draws, but a batch holds T/B halves: its pair means are √B times noisier than
    those of all T, and the median of noisier values moves less than √B times the median of
    all, so it errs low. On the bundled matrix (T = 1000) the median's sd over 200 seeds is
    0.00041; the bootstrap of batches gives 0.00040 (root mean square over the seeds), batch
    means with B = 32 about two thirds of the sd (0.67, 40 seeds); the tests repeat both.

    The median and first quartile are also *biased* at a finite T, which ``mc_se`` does not
    show. They are order statistics of the pair means
    :math:`\hat\Delta_{ij} = \Delta_{ij} + \varepsilon_{ij}` (Δ their limit as T → ∞, ε of sd
    :math:`\sigma_{ij}/\sqrt{T}`, σ the sd of a pair's difference over single halves), and
    an order statistic of values plus noise is not the order statistic of the values:
    :math:`E[\mathrm{median}_{ij}\,\hat\Delta_{ij}] \ne \mathrm{median}_{ij}\,\Delta_{ij}`
    when the noise is as wide as the gaps between the Δ near the median (or quartile), and the
    bias falls about as :math:`1/\sqrt{T}` while it is, faster after. The range
    :math:`\hat\Delta_{1k}` is a mean: unbiased at every T. Measured, as a share of the
    long-run value (the mean of 8 seeds of 256,000 halves; 40 seeds at each T; the bias ± its
    standard error, then the sd over the seeds):

    ============================  ==============  ==============  =============  ==============
    top 10, bias (sd)             T = 1,000       4,000           16,000         64,000
    ============================  ==============  ==============  =============  ==============
    TREC 2010 Web AP, median      +17.1 ± 2.8%    +9.3 ± 2.0%     +4.2 ± 1.1%    +1.0 ± 0.7%
                                  (18%)           (13%)           (6.8%)         (4.4%)
    TREC 2010 Web AP, 25%         +1.5 ± 4.6%     +2.4 ± 3.0%     +1.0 ± 1.9%    −1.7 ± 1.2%
                                  (29%)           (19%)           (12%)          (7.5%)
    TREC 2004 Robust AP, median   +3.2 ± 1.2%     +1.0 ± 0.7%     +0.1 ± 0.3%    −0.5 ± 0.2%
                                  (7.9%)          (4.1%)          (2.0%)         (1.2%)
    TREC 2004 Robust AP, 25%      −7.2 ± 2.6%     −5.9 ± 1.7%     −3.2 ± 0.9%    −0.5 ± 0.4%
                                  (16%)           (11%)           (6.0%)         (2.6%)
    ============================  ==============  ==============  =============  ==============

    The range's bias is within ±0.5% on both matrices at every T from 1,000, inside its
    standard error (Web: ±1.2% at 1,000). At 1,000 halves the Web median is 17% high: n
    (∝ 1/minD²) 27% too small, and not within the 18% sd that ``mc_se`` reports, which is
    around the biased value. Against 4 seeds of 1,024,000 halves instead, the Web median at
    64,000 is 1.8% high. Hence the default T of 64,000
    (:data:`topicsetsize.params.N_HALVES`): every row within 2% of its long-run value on both
    matrices, for about 0.23 s (Web) and 0.42 s (Robust, 249 × 110) of wall time on two cores.
    The bootstrap estimate of the bias (Efron & Tibshirani 1993, ch. 10: the mean of the
    replicates above minus the estimate) was measured and is not used: the median is not a
    smooth function of the pair means, and the replicates (pair means noisier still) see
    less of the bias than there is — +0.00011 (sd 0.00015 over seeds) for the Web median's
    +0.00034 at T = 1,000, +0.00024 for +0.00055 at 250, −0.00002 for Robust's quartile's
    −0.00011 — so subtracting it would leave most of the bias and add its noise.

    Returns
    -------
    SplitHalfDifferences

    Examples
    --------
    Twenty equal runs (normal noise, seed 1): the uncorrected range of the top 10 is positive,
    the corrected one near 0 (over many such matrices it averages 0: the tests check it).

    >>> x = np.random.default_rng(1).normal(0.3, 0.1, size=(50, 20))
    >>> round(run_differences(x, top_k=10).top_range, 3)
    0.032
    >>> r = split_half_differences(x, top_k=10, trials=2000)
    >>> round(r.top_range, 3)
    0.002

    Its Monte Carlo standard errors (another seed moves the range by about 0.0006):

    >>> {name: round(se, 4) for name, se in r.mc_se.items()}
    {'range': 0.0006, 'median': 0.0002, '25%': 0.0002}
    """
    top_k = check("top_k", top_k, allow_array=False)
    trials = check("trials", trials, allow_array=False)
    seed = check("seed", seed, allow_array=False)
    x = check_matrix(scores).values
    n, runs = x.shape
    k = min(top_k, runs)
    half = n // 2
    scale = float(np.abs(x).max()) or 1.0
    rng = np.random.default_rng(seed)
    i, j = np.triu_indices(k, k=1)
    sums = np.zeros(i.size)
    rank_range = 0.0
    spread = _Spread()
    batches = _Batches(trials, i.size)
    chunk = max(1, 2 ** 20 // max(n, runs))
    for start in range(0, trials, chunk):
        c = min(chunk, trials - start)
        in_a = smallest(rng.random((c, n)), half)    # half A: the ⌊n/2⌋ smallest draws
        means_a = (in_a @ x) / half
        means_b = (~in_a @ x) / (n - half)
        top = top_k_columns(means_a / scale, k)
        picked = np.take_along_axis(means_b, top, axis=1)
        differences = picked[:, i] - picked[:, j]
        sums += differences.sum(axis=0)
        ranges = picked[:, 0] - picked[:, k - 1]
        rank_range += float(ranges.sum())
        spread.add(ranges)
        batches.add(start, differences)
    boot = np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])
    mc_se = {"range": spread.standard_error(), **batches.standard_errors(boot)}
    return SplitHalfDifferences(rank_range / trials, np.sort(sums / trials), k, trials, seed,
                                mc_se)


class _Spread:
    """The count, mean and sum of squared deviations of the per-half ranges, updated chunk by
    chunk (Chan, Golub & LeVeque 1983: no cancellation, as Σr² − (Σr)²/T would have)."""

    def __init__(self):
        self.count, self.mean, self.m2 = 0, 0.0, 0.0

    def add(self, values: np.ndarray) -> None:
        c, mean = values.size, float(values.mean())
        total = self.count + c
        delta = mean - self.mean
        self.m2 += float(((values - mean) ** 2).sum()) + delta ** 2 * self.count * c / total
        self.mean += delta * c / total
        self.count = total

    def standard_error(self) -> float:
        """sd/√T of the mean of the T values (NaN below 2)."""
        if self.count < 2:
            return float("nan")
        return math.sqrt(self.m2 / (self.count - 1) / self.count)


class _Batches:
    """The sums of the pair differences over each of B batches of consecutive halves, and
    their bootstrap (:func:`split_half_differences`)."""

    def __init__(self, trials: int, pairs: int):
        count = min(MC_BATCHES, trials)
        self.sizes = np.full(count, trials // count)
        self.sizes[:trials % count] += 1
        self.edges = np.concatenate(([0], np.cumsum(self.sizes)))
        self.sums = np.zeros((count, pairs))

    def add(self, start: int, differences: np.ndarray) -> None:
        """Add the differences of halves ``start``, ``start + 1``, ... to their batches."""
        stop = start + len(differences)
        first, last = np.searchsorted(self.edges, [start, stop - 1], side="right") - 1
        cuts = np.concatenate(([0], self.edges[first + 1:last + 1] - start))
        self.sums[first:last + 1] += np.add.reduceat(differences, cuts, axis=0)

    def standard_errors(self, rng) -> dict:
        """The sd of each statistic over :data:`MC_REPLICATES` bootstrap replicates of the
        batches (NaN below 2 batches)."""
        count, pairs = self.sums.shape
        if count < 2:
            return dict.fromkeys(PAIR_STATISTICS, float("nan"))
        weights = rng.multinomial(count, np.full(count, 1 / count), size=MC_REPLICATES)
        values = {name: [] for name in PAIR_STATISTICS}
        step = max(1, 2 ** 20 // pairs)                # replicates at a time: memory
        for first in range(0, MC_REPLICATES, step):
            w = weights[first:first + step]
            means = (w @ self.sums) / (w @ self.sizes)[:, None]
            for name, statistic in PAIR_STATISTICS.items():
                values[name].append(statistic(means))
        return {name: float(np.std(np.concatenate(v), ddof=1)) for name, v in values.items()}


def paired_standard_errors(scores, first, second) -> np.ndarray:
    r"""Standard errors of the paired differences between run means on the matrix's topics.

    .. math:: \mathrm{se}_{ab} = \sqrt{s^2_{d_{ab}}/n}, \quad
              s^2_{d_{ab}} = s^2_a + s^2_b - 2 s_{ab}

    the sample variance of the per-topic differences d_ab = x_a − x_b (ddof 1) over the n
    topics: the standard error of the paired t-test's mean difference.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
    first, second : array_like of int
        Column positions of the runs a and b of each pair.

    Returns
    -------
    ndarray
        One standard error per pair (0 for identical runs).

    Examples
    --------
    >>> x = [[.1, .2], [.3, .2], [.5, .7]]
    >>> paired_standard_errors(x, [0], [1]).round(4).tolist()
    [0.0882]
    """
    x = check_matrix(scores).values
    first, second = np.asarray(first, int), np.asarray(second, int)
    cov = np.atleast_2d(np.cov(x, rowvar=False, ddof=1))
    var_d = cov[first, first] + cov[second, second] - 2.0 * cov[first, second]
    return np.sqrt(np.maximum(var_d, 0.0) / x.shape[0])
