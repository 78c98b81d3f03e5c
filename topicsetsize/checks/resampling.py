r"""Empirical power of a design by resampling topics from a real score matrix.

The power tables of topic set size design (Sakai, AIRS 2016) assume normal scores with equal
variances and independent topics. :func:`resampled_power` checks that promise on real data: it
treats the full matrix as the population, draws n topics with replacement ``trials`` times,
runs the test on each resampled n-topic matrix and reports the rejection rate next to the exact
power that the noncentral F or t distribution gives for the same effect. Where the scores are
close to normal the two agree within Monte Carlo error; for discrete measures (a Boolean
measure takes two values) they need not, and the gap is the "grain of salt" with which the
paper says its tables for such measures must be taken.

The tests are vectorised over trials: a chunk of resamples is a matrix of topic counts C (how
often each topic was drawn), so the per-run sums and sums of squares of a chunk are two matrix
products C·X and C·X², and memory stays bounded by the chunk.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..estimates.variance import residual_variance, two_way_residual_variance
from ..matrices.copies import COUNTED_ONCE, identical_runs
from ..matrices.matrix import check_matrix
from ..numerics.distributions import f_crit, f_power, t_crit, t_power
from ..params import check, check_choice
from .paired import paired_t, reject_ratio, tolerance

__all__ = ["TESTS", "ResampledPower", "resampled_power"]

#: The tests :func:`resampled_power` can check.
TESTS = ("anova", "ttest", "anova2")

#: Bound on the elements of one chunk's (trials × topics) counts and (trials × runs) sums.
_CHUNK_ELEMENTS = 2 ** 19


@dataclass(frozen=True)
class ResampledPower:
    """Empirical and theoretical power of one test at n topics.

    Attributes
    ----------
    empirical : float
        Share of the ``trials`` resampled matrices on which the test rejected H0 at ``alpha``.
    se : float
        Its Monte Carlo standard error, √(p(1 − p)/trials) with p = ``empirical``
        (:attr:`null_se` and :attr:`z` judge the gap).
    theoretical : float
        Exact power (noncentral F or t) for the full-matrix effect.
    noncentrality : float
        λ = n·Σ(μ_i − μ̄)²/V_E (ANOVA, two-way ANOVA) or √n·|d̄|/σ_t (t-test).
    variance : float
        V_E, the one-way residual variance of the m runs (ANOVA), the two-way residual variance
        (two-way ANOVA), or σ_t², the variance of the per-topic differences of the pair
        (t-test), over all topics of the matrix.
    difference : float
        Range of the m run means, max μ − min μ (ANOVA), or |d̄| = |μ_a − μ_b| (t-test): the
        minD / minDt a design would use.
    test, n, m, trials, alpha : str, int, int, int, float
        The set-up; ``m`` is the number of runs compared (2 for the t-test).
    runs : tuple
        The runs compared (column labels, or positions for an array).
    topics : int
        Topics of the full matrix the resamples are drawn from.
    """

    empirical: float
    se: float
    theoretical: float
    noncentrality: float
    variance: float
    difference: float
    test: str
    n: int
    m: int
    trials: int
    alpha: float
    runs: tuple
    topics: int

    @property
    def gap(self) -> float:
        """empirical − theoretical."""
        return self.empirical - self.theoretical

    @property
    def null_se(self) -> float:
        """Monte Carlo SE of the empirical power if the theoretical power were right:
        √(P̃(1 − P̃)/trials), the se that :attr:`z` uses.

        P̃ is the theoretical power P kept at least half a trial from 0 and 1 (clipped to
        [1/(2·trials), 1 − 1/(2·trials)]): ``trials`` draws cannot resolve a power closer to 0
        or 1 than that, and the se is never 0 (z is never NaN or infinite).
        """
        half = 0.5 / self.trials
        p = min(max(self.theoretical, half), 1.0 - half)
        return math.sqrt(p * (1.0 - p) / self.trials)

    @property
    def z(self) -> float:
        """The gap in units of :attr:`null_se` (|z| > 3: a real gap, not Monte Carlo noise)."""
        return self.gap / self.null_se


#: Why a V_E, or a variance of differences, is 0 (:func:`_nonzero`).
_FLAT = "each run scores the same on every topic"
_PARALLEL = "the runs differ by the same amount on every topic"
_COPIES = "the runs score alike on every topic, copies of one another"


def _nonzero(variance: float, what: str, runs, because: str) -> float:
    if not variance > 0:
        *first, last = map(repr, runs)
        raise InputError(f"scores: {what} of runs {', '.join(first)} and {last} is 0 ({because}): "
                         "the test is undefined")
    return variance


def _count_chunks(rng: np.random.Generator, topics: int, n: int, trials: int,
                  chunk: int) -> Iterator[np.ndarray]:
    """Topic counts of ``trials`` draws of n topics with replacement, ``chunk`` trials at a time.

    Row t of a chunk counts how often each topic was drawn in trial t (the row sums to n). The
    topic indices are drawn sequentially, so the draws do not depend on the chunk size. Beyond
    :data:`_CHUNK_ELEMENTS` draws per trial the indices would not fit in memory; there a trial's
    counts are drawn at once from their distribution, Multinomial(n; 1/topics, ..., 1/topics),
    in memory and time independent of n.
    """
    if n > _CHUNK_ELEMENTS:
        uniform = np.full(topics, 1.0 / topics)
        for start in range(0, trials, chunk):
            yield rng.multinomial(n, uniform, size=min(chunk, trials - start)).astype(float)
        return
    for start in range(0, trials, chunk):
        c = min(chunk, trials - start)
        idx = rng.integers(0, topics, size=(c, n)) + topics * np.arange(c)[:, None]
        yield np.bincount(idx.ravel(), minlength=c * topics).reshape(c, topics).astype(float)


def _anova_reject(counts: np.ndarray, centred: np.ndarray, means: np.ndarray, n: int,
                  crit: float) -> np.ndarray:
    """One-way ANOVA F tests, one per row of ``counts`` (n draws of the matrix's rows).

    ``centred`` is the matrix minus its column means ``means``. With S_i = Σ_j c_j x'_ij and
    Q_i = Σ_j c_j x'_ij², the group means are ȳ_i = μ_i + S_i/n, SS_W = Σ_i (Q_i − S_i²/n) and
    SS_B = n Σ_i (ȳ_i − ȳ)²; F = (SS_B/φA)/(SS_W/φE) rejects where F > crit (the critical F
    times φA/φE is passed as ``crit``).
    """
    s = counts @ centred
    q = counts @ (centred * centred)
    ss_w = (q - s * s / n).sum(axis=1)
    group = means + s / n
    ss_b = n * ((group - group.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    tol = tolerance(n * centred.shape[1], q.sum(axis=1))
    return reject_ratio(ss_b, ss_w, crit, tol, tol)


def _anova2_reject(counts: np.ndarray, centred: np.ndarray, means: np.ndarray, n: int,
                   crit: float) -> np.ndarray:
    """Two-way ANOVA (without replication) F tests, one per row of ``counts``.

    As :func:`_anova_reject`, with the topic sum of squares taken out of the residual: with
    r_j the mean of centred row j over the m runs, R = Σ_j c_j r_j and R2 = Σ_j c_j r_j²,
    SS_T = m(R2 − R²/n) and SS_E = SS_W − SS_T; F = (SS_B/φA)/(SS_E/φE) with φA = m − 1,
    φE = (m − 1)(n − 1) (the critical F times φA/φE is passed as ``crit``).
    """
    m = centred.shape[1]
    rows = centred.mean(axis=1)
    s = counts @ centred
    q = counts @ (centred * centred)
    r = counts @ rows
    ss_e = (q - s * s / n).sum(axis=1) - m * (counts @ (rows * rows) - r * r / n)
    np.maximum(ss_e, 0.0, out=ss_e)
    group = means + s / n
    ss_b = n * ((group - group.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    tol = tolerance(n * m, q.sum(axis=1))
    return reject_ratio(ss_b, ss_e, crit, tol, tol)


def _choose_runs(matrix, test: str, m, pair) -> np.ndarray:
    """Column positions of the runs compared (see :func:`resampled_power`)."""
    x = matrix.values
    labels = list(matrix.runs) if matrix.runs is not None else list(range(x.shape[1]))
    if pair is not None:
        if test != "ttest":
            raise InputError("pair is only for test='ttest'; use m for the ANOVA")
        pair = list(pair)
        if len(pair) != 2 or pair[0] == pair[1]:
            raise InputError(f"pair={pair!r} must name two different runs")
        missing = [p for p in pair if p not in labels]
        if missing:
            raise InputError(f"pair={pair!r} names run {missing[0]!r}, which is not in the "
                             f"matrix (runs {labels[0]!r} ... {labels[-1]!r})")
        return np.array([labels.index(p) for p in pair])
    copies = identical_runs(matrix)
    copies.require_two("no two runs to compare")
    distinct = copies.keep                      # the first of each group of identical runs
    if m is None:
        m = distinct.size if test != "ttest" else 2
    m = check("m", m, allow_array=False)
    if m > distinct.size:
        raise InputError(f"m={m} is out of range: allowed 2 <= m <= {distinct.size} (the "
                         f"distinct runs of the matrix)")
    copies.warn(f"{COUNTED_ONCE}: the runs compared are the {m} best distinct runs",
                stacklevel=3)
    best = distinct[np.argsort(-x[:, distinct].mean(axis=0), kind="stable")[:m]]
    return np.sort(best) if test != "ttest" else best[[0, m - 1]]


def resampled_power(scores, *, n: int, trials: int = 1000, alpha: float = 0.05,
                    test: str = "anova", m: int | None = None, pair=None, seed=None,
                    progress: Callable[[int], object] | None = None) -> ResampledPower:
    r"""Empirical power at n topics by resampling topics, next to the exact theoretical power.

    The full matrix is the population: its run means μ_i are the truth. Each trial draws n
    topics (rows) with replacement and tests H0 "the runs are equal" at level α on the
    resampled n-topic matrix; the empirical power is the rejection rate.

    * ``test="anova"``: the one-way ANOVA F test over the m runs (runs as groups, n scores
      each). Theoretical power Pr{F'(φA, φE, λ) ≥ F(φA, φE; α)} with φA = m − 1, φE = m(n − 1)
      and λ = n·Σ_i (μ_i − μ̄)²/V_E, V_E the one-way residual variance of the m runs over all
      topics (the quantities of T. Sakai, AIRS 2016, Eq. 1, with the observed means in place of
      the least favourable configuration).
    * ``test="anova2"``: the two-way ANOVA without replication (runs × topics, the topics as
      blocks; the randomised block design of :mod:`topicsetsize.designs.anova2`). Theoretical power
      as
      for the ANOVA with φE = (m − 1)(n − 1) and V_E the two-way residual variance of the m runs
      over all topics (:func:`~topicsetsize.estimates.variance.two_way_residual_variance`). A
      resample
      that draws a topic twice has it as two blocks.
    * ``test="ttest"``: the two-sided paired t-test of a pair (a, b). Theoretical power
      Pr{|t'(n − 1, λ)| ≥ t(n − 1; α)} with λ = √n·|d̄|/σ_t, d̄ = μ_a − μ_b and σ_t² the sample
      variance of the per-topic differences over all topics.

    With normal, homoscedastic, independent scores the two powers agree within Monte Carlo
    error; the gap shows how far a real (e.g. discrete) measure is from the design's
    assumptions. Resampling topics from a real collection is the approach of E. M. Voorhees,
    "Topic set size redux", SIGIR 2009, here applied to the power itself.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        The population: topics as rows, runs as columns, no missing values.
    n : int
        Topics per resampled matrix (≥ 2).
    trials : int, default 1000
        Number of resampled matrices.
    alpha : float, default 0.05
        Significance level.
    test : {"anova", "ttest", "anova2"}
    m : int, optional
        How many runs take part: the m best by mean score over all topics, counting a run
        that duplicates an earlier column exactly only once (a copy is not another system, and
        such a pair has no t-test; one :class:`~topicsetsize.matrices.copies.IdenticalRunsWarning`
        names the copies).
        ANOVA and two-way ANOVA: all m (default: every distinct run). t-test: the best against
        the m-th best (default m = 2, the two best runs).
    pair : (run, run), optional
        For the t-test, the two runs to compare (column labels, or positions for an array),
        instead of ``m``.
    seed : int, numpy.random.Generator or None
        Seed of the random generator.
    progress : callable, optional
        Called as ``progress(k)`` after each chunk of k trials.

    Returns
    -------
    ResampledPower

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=(2000, 3)) + [0.0, 0.3, 0.6]
    >>> r = resampled_power(x, n=30, trials=2000, seed=1)
    >>> round(r.theoretical, 3), round(r.empirical, 3), abs(r.z) < 3
    (0.593, 0.593, True)
    """
    test = check_choice("test", test, TESTS)
    matrix = check_matrix(scores)
    x = matrix.values
    n = check("n", n, allow_array=False)
    trials = check("trials", trials, allow_array=False)
    alpha = check("alpha", alpha, allow_array=False)
    cols = _choose_runs(matrix, test, m, pair)
    labels = tuple(matrix.runs[cols]) if matrix.runs is not None else tuple(cols.tolist())
    x = x[:, cols]
    topics = x.shape[0]

    if test in ("anova", "anova2"):
        k = x.shape[1]
        means = x.mean(axis=0)
        if test == "anova":
            variance = _nonzero(residual_variance(x), "V_E", labels, _FLAT)
            df_e, statistic = k * (n - 1), _anova_reject
        else:
            variance = _nonzero(two_way_residual_variance(x), "the two-way V_E", labels,
                                _PARALLEL)
            df_e, statistic = (k - 1) * (n - 1), _anova2_reject
        difference = float(means.max() - means.min())
        lam = n * float(((means - means.mean()) ** 2).sum()) / variance
        theoretical = float(f_power(alpha, k - 1, df_e, lam))
        centred = x - means
        crit = float(f_crit(alpha, k - 1, df_e)) * (k - 1) / df_e

        def reject(counts):
            return statistic(counts, centred, means, n, crit)
    else:
        k = 2
        d = x[:, 0] - x[:, 1]
        shift = d.mean()
        variance = _nonzero(float(d.var(ddof=1)), "the variance of the differences", labels,
                            _PARALLEL if shift else _COPIES)
        difference = abs(float(shift))
        lam = math.sqrt(n) * difference / math.sqrt(variance)
        theoretical = float(t_power(alpha, n - 1, lam))
        dev = d - shift
        dev2 = dev * dev
        crit2 = float(t_crit(alpha, n - 1)) ** 2

        def reject(counts):
            q = counts @ dev2
            return paired_t(counts @ dev, q, n, shift, crit2, q)[0]

    draws = n if n <= _CHUNK_ELEMENTS else 0     # beyond, the counts are drawn directly
    chunk = max(1, min(trials, _CHUNK_ELEMENTS // max(topics, draws, x.shape[1])))
    hits = 0
    for counts in _count_chunks(np.random.default_rng(seed), topics, n, trials, chunk):
        hits += int(np.count_nonzero(reject(counts)))
        if progress is not None:
            progress(counts.shape[0])
    empirical = hits / trials
    se = math.sqrt(empirical * (1.0 - empirical) / trials)
    return ResampledPower(empirical, se, theoretical, lam, variance, difference, test, n, k,
                          trials, alpha, labels, topics)
