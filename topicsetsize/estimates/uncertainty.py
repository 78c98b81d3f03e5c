r"""How uncertain an n from data is: a bootstrap over the past topics (``docs/formulas.md`` §10).

Every n computed from a past matrix rests on an estimate σ̂² (V_E, V_E2, or either of the std-AB
scores) from a finite set of topics, so n is uncertain too. :func:`n_interval` gives a bootstrap
interval for it: resample the past topics with replacement (each resample keeps every run and as
many topics as the matrix has), re-estimate σ̂² on each resample, compute n for every resample
with one vectorised call of the design's ``*_n`` function, and take two quantiles.

n is a non-decreasing function of σ̂² (a larger variance never needs fewer topics), so the
quantiles of the resampled n are n at the quantiles of the resampled σ̂²: the interval for n is
a percentile interval for σ̂² carried through the design (B. Efron and R. J. Tibshirani, *An
Introduction to the Bootstrap*, Chapman & Hall 1993, ch. 13; percentile intervals respect
monotone transformations; the quantiles are order statistics, ``method="inverted_cdf"``, which a
non-decreasing map preserves exactly).

**Two small-sample corrections** (``method="expanded"``, the default). The textbook percentile
interval (``method="percentile"``) of a variance from tens of topics covers far less than its
level: in the normal-model simulations of ``tests/topicsetsize/estimates/test_uncertainty.py``
its 95% interval held the true n in 0.906 (20 topics × 5 runs, one-way) and 0.914 (30 × 10,
two-way) of 500 matrices, for two known reasons:

* *bias of a resampled variance component*: a resample repeats topics, so its σ̂²* has bootstrap
  mean (n′ − 1)/n′ · σ̂² (the plug-in variance of the resampled population; Efron & Tibshirani
  1993, §10.2), not σ̂²; with many runs the standard error of σ̂² is small and this shift is
  half of it. Each resampled σ̂²* is therefore multiplied by n′/(n′ − 1), which centres the
  resamples on σ̂² (the tests check that their mean is σ̂² within Monte Carlo error);
* *narrowness bias*: with n′ units the bootstrap spread is too small by about
  √((n′ − 1)/n′) and uses a normal rather than a t quantile. The *expanded percentile
  interval* (T. C. Hesterberg, "What teachers should know about the bootstrap", The American
  Statistician 69(4), 2015, §4) takes the quantiles at Φ(−√(n′/(n′ − 1))·t_{n′−1,(1+ℓ)/2})
  and one minus that instead of (1 ∓ ℓ)/2 (0.0188 and 0.9812 for 30 topics at ℓ = 0.95).

With both, the same simulations cover 0.954 and 0.968, within the test's band 0.95 ± 0.03
(three Monte Carlo standard errors of 500 matrices). A wider exploration, not kept as a test
(six shapes from 10 × 10 to 50 × 20, one- and two-way, 600 matrices each), gave 0.935 to 0.963
for σ² itself.

The normal-theory interval σ̂²·φ/χ²_{φ, 1∓(1−level)/2} (:func:`chi2_variance_interval`) is a check
that assumes normal, independent residuals; the bootstrap assumes neither the normality nor the
independence of a topic's scores across runs, only that topics are exchangeable draws. On real
matrices the χ² interval is several times narrower (a hard topic is hard for every run, so the
φ = m′(n′ − 1) residuals carry less information than φ says).

**std-AB.** The standardisation is per topic: topic j's mean and SD are taken over the runs of
that topic (Sakai, AIRS 2016, Eq. 2). A resampled topic therefore carries the same standardised
row as in the full matrix, so standardising each resample again gives exactly the rows of the
standardised matrix, resampled. :func:`bootstrap_variances` standardises once and resamples the
rows (the tests check that it equals standardising every resample anew).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..matrices.matrix import check_matrix
from ..params import N_BOOT, check, check_choice
from .standardise import std_ab
from .variance import ESTIMATORS, residual_df

__all__ = ["NInterval", "SCALES", "INTERVAL_METHODS", "bootstrap_variances", "n_interval",
           "percentile_limits", "interval_tails", "interval_of", "positive",
           "chi2_variance_interval", "resample_counts", "fresh_seed"]

#: The scores σ̂² is estimated on: the raw matrix, or its std-AB standardisation.
SCALES = ("raw", "std-ab")
#: How the interval is read off the resamples (see the module's note).
INTERVAL_METHODS = ("expanded", "percentile")


@dataclass(frozen=True)
class NInterval:
    """A percentile bootstrap interval for n (:func:`n_interval`).

    Attributes
    ----------
    lower, upper : int, float or ndarray
        The interval's limits: n at the lower and upper quantiles of the resampled σ̂² (see
        ``tails``); arrays when the design gives several n per variance.
    level : float
        Its confidence level, e.g. 0.95.
    n_boot : int
        The number of bootstrap resamples of the topics.
    seed : int
        The seed of the resamples: the same seed gives the same interval.
    variance_low, variance_high : float or ndarray
        The percentile limits of σ̂² that give ``lower`` and ``upper``.
    estimator : str
        Which σ̂²: ``"one-way"`` (V_E) or ``"two-way"`` (V_E2), on ``"raw"`` or ``"std-ab"``
        scores, e.g. ``"one-way raw"``.
    method : str
        ``"expanded"`` or ``"percentile"`` (the module's note).
    tails : tuple of float
        The quantiles taken, e.g. ``(0.025, 0.975)`` for the 95% percentile interval.
    """

    lower: object
    upper: object
    level: float
    n_boot: int
    seed: int
    variance_low: float
    variance_high: float
    estimator: str
    method: str = "expanded"
    tails: tuple = (0.025, 0.975)

    def __str__(self) -> str:
        return (f"[{_show(self.lower)}, {_show(self.upper)}] ({self.level:.0%} {self.method} "
                f"percentile bootstrap over topics, {self.n_boot} resamples, seed={self.seed})")


def _show(value) -> str:
    value = np.asarray(value)
    return str(value.tolist()) if value.ndim else f"{float(value):g}"


def fresh_seed(seed=None) -> int:
    """``seed`` checked, or a fresh one (from the operating system's entropy) to report.

    >>> fresh_seed(7)
    7
    >>> 0 <= fresh_seed() < 2**32
    True
    """
    if seed is None:
        return int(np.random.SeedSequence().generate_state(1)[0])
    return check("seed", seed, allow_array=False)


def resample_counts(n_topics: int, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """How often each topic is drawn in each resample: an ``n_boot × n_topics`` integer matrix
    whose rows are multinomial(n_topics; 1/n_topics, ...) counts (resampling with replacement).

    >>> c = resample_counts(5, 3, np.random.default_rng(0))
    >>> c.shape, c.sum(axis=1).tolist()
    ((3, 5), [5, 5, 5])
    """
    return rng.multinomial(n_topics, np.full(n_topics, 1.0 / n_topics), size=n_boot)


def _weighted_variances(x: np.ndarray, counts: np.ndarray, estimator: str) -> np.ndarray:
    r"""σ̂² of every resample, from the counts c_bj of each topic j in resample b.

    With the runs centred (which changes neither estimate), the one-way sum of squares of a
    resample is Σ_i [Σ_j c_bj x_ij² − (Σ_j c_bj x_ij)²/n′] and the topic sum of squares
    m′[Σ_j c_bj t_j² − (Σ_j c_bj t_j)²/n′] (t_j the mean of topic j over the runs): two
    matrix products, with no n_boot × n′ × m′ array.
    """
    n, m = x.shape
    x = x - x.mean(axis=0)
    s1 = counts @ x                                          # (B, m)
    ss = counts @ (x * x).sum(axis=1) - (s1 * s1).sum(axis=1) / n
    if estimator == "two-way":
        t = x.mean(axis=1)
        ss = ss - m * (counts @ (t * t) - (counts @ t) ** 2 / n)
    return np.maximum(ss, 0.0) / residual_df(x, estimator=estimator)


def bootstrap_variances(matrices, *, estimator: str = "one-way", scale: str = "raw",
                        a: float = 0.15, b: float = 0.5, n_boot: int = N_BOOT,
                        seed=None, centre: bool = True) -> np.ndarray:
    r"""σ̂² of ``n_boot`` resamples of the topics, pooled over the matrices when several.

    Each matrix's topics are resampled with replacement (:func:`resample_counts`; a generator
    seeded with ``seed`` draws the matrices' counts in order, so the same seed and the same
    matrix sizes give the same resamples), σ̂² is re-estimated on each resample, and several
    matrices are pooled with their degrees of freedom as weights, as
    :func:`~topicsetsize.estimates.variance.pooled_variance` does.

    Parameters
    ----------
    matrices : pandas.DataFrame or 2-D array-like, or a list of them
        Topics as rows, runs as columns.
    estimator : {"one-way", "two-way"}
        V_E (AIRS 2016 Eq. 1) or V_E2.
    scale : {"raw", "std-ab"}
        Estimate on the raw scores or on their std-AB standardisation (each matrix standardising
        itself, with ``a`` and ``b``; see the module's note on why once is enough).
    a, b : float
        std-AB's A and B.
    n_boot : int
        Number of resamples.
    seed : int or None
        Seed of the resamples (None: a fresh one; pass one to reproduce).
    centre : bool
        Multiply each matrix's resampled σ̂²* by n′/(n′ − 1), so that the resamples centre on
        σ̂² (the module's note); False gives the plain resampled estimates.

    Returns
    -------
    numpy.ndarray
        Shape ``(n_boot,)``.

    Examples
    --------
    >>> from topicsetsize.estimates.variance import residual_variance
    >>> from topicsetsize.examples import example_matrix
    >>> v = bootstrap_variances(example_matrix(), n_boot=2000, seed=1)
    >>> v.shape, round(float(np.mean(v)), 4), round(residual_variance(example_matrix()), 4)
    ((2000,), 0.0084, 0.0084)
    """
    estimator = check_choice("estimator", estimator, ESTIMATORS)
    scale = check_choice("scale", scale, SCALES)
    n_boot = check("n_boot", n_boot, allow_array=False)
    seed = fresh_seed(seed)
    if isinstance(matrices, (list, tuple)):
        if not matrices:
            raise InputError("matrices is empty: give at least one score matrix")
        items = list(matrices)
    else:
        items = [matrices]
    rng = np.random.default_rng(seed)
    total, weights = np.zeros(n_boot), 0
    for k, scores in enumerate(items):
        x = check_matrix(scores, name="scores" if len(items) == 1 else f"matrices[{k}]").values
        if scale == "std-ab":
            x = std_ab(x, a=a, b=b)
        df = residual_df(x, estimator=estimator)
        n = x.shape[0]
        v = _weighted_variances(x, resample_counts(n, n_boot, rng), estimator)
        total += df * (v * (n / (n - 1)) if centre else v)
        weights += df
    return total / weights


def percentile_limits(values, level: float = 0.95, *, tails=None) -> tuple:
    """The ``(1 − level)/2`` and ``(1 + level)/2`` quantiles along the last axis (or the two
    quantiles ``tails``), as order statistics (``numpy.quantile(..., method="inverted_cdf")``).

    >>> percentile_limits(np.arange(1, 1001), 0.95)
    (25, 975)
    """
    level = check("level", level, allow_array=False)
    if tails is None:
        tails = np.round([(1 - level) / 2, (1 + level) / 2], 12)   # (1 - .95)/2 is .025000...02
    q = np.quantile(np.asarray(values), tails, axis=-1, method="inverted_cdf")
    lower, upper = q[0], q[1]
    return (lower.item() if lower.ndim == 0 else lower, upper.item() if upper.ndim == 0 else upper)


def interval_tails(level: float, n_topics, *, method: str = "expanded") -> tuple[float, float]:
    r"""The two quantiles an interval of ``level`` takes from the resamples.

    ``"percentile"``: (1 − ℓ)/2 and (1 + ℓ)/2. ``"expanded"`` (Hesterberg 2015, §4): Φ(−z′) and
    Φ(z′) with z′ = √(N/(N − k))·t_{N−k,(1+ℓ)/2}, N the topics of the k matrices (one matrix:
    N = n′, k = 1).

    >>> [round(t, 4) for t in interval_tails(0.95, [30])]
    [0.0188, 0.9812]
    >>> interval_tails(0.95, [30], method="percentile")
    (0.025, 0.975)
    """
    from scipy import special, stats

    method = check_choice("method", method, INTERVAL_METHODS)
    level = check("level", level, allow_array=False)
    if method == "percentile":
        return tuple(float(t) for t in np.round([(1 - level) / 2, (1 + level) / 2], 12))
    sizes = np.atleast_1d(n_topics)
    total, k = int(sizes.sum()), sizes.size
    z = np.sqrt(total / (total - k)) * stats.t.ppf((1 + level) / 2, total - k)
    return float(special.ndtr(-z)), float(special.ndtr(z))


def n_interval(scores, n_of: Callable[[np.ndarray], np.ndarray], *, estimator: str = "one-way",
               scale: str = "raw", a: float = 0.15, b: float = 0.5, level: float = 0.95,
               n_boot: int = N_BOOT, seed=None, method: str = "expanded") -> NInterval:
    r"""Bootstrap interval for an n computed from the σ̂² of a past matrix.

    .. math:: [\,n(\hat\sigma^{2*}_{(p_1)}),\; n(\hat\sigma^{2*}_{(p_2)})\,]

    where σ̂²* runs over the σ̂² of ``n_boot`` resamples of the topics
    (:func:`bootstrap_variances`, centred on σ̂² with ``method="expanded"``), the subscripts are
    its quantiles p₁, p₂ (:func:`interval_tails`: (1 ∓ ℓ)/2 for the percentile interval of
    Efron & Tibshirani 1993, ch. 13; Hesterberg's expanded tails by default). n is
    non-decreasing in σ̂², so these limits are the same quantiles of n over the resamples;
    ``n_of`` is called once, on the array of every resample's σ̂².

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like, or a list of them (pooled)
        The past matrix (matrices) σ̂² is estimated from.
    n_of : callable
        n from an array of variances, vectorised: ``n_of(v)`` with ``v`` of shape ``(B,)``
        returns an array whose last axis is B (e.g. ``lambda v: anova_n(.05, .2, .1, v, 10)``,
        or ``lambda v: anova_n(.05, .2, d[:, None], v, 10)`` for several minD at once).
    estimator, scale, a, b
        Which σ̂², as in :func:`bootstrap_variances`.
    level : float
        Confidence level (default 0.95).
    n_boot : int
        Number of resamples (default :data:`topicsetsize.params.N_BOOT`).
    seed : int or None
        Seed of the resamples; None draws a fresh one, which the result reports.
    method : {"expanded", "percentile"}
        The centred, expanded percentile interval (default), or the textbook percentile
        interval of the plain resampled σ̂² (it undercovers: see the module's note).

    Returns
    -------
    NInterval

    Examples
    --------
    The one-way ANOVA design (m = 10, minD = 0.1) sized on the bundled TREC 2010 Web AP matrix:

    >>> from topicsetsize.designs.anova import anova_n
    >>> from topicsetsize.estimates.variance import residual_variance
    >>> from topicsetsize.examples import example_matrix
    >>> x = example_matrix()
    >>> anova_n(0.05, 0.20, 0.1, residual_variance(x), 10)
    27
    >>> ci = n_interval(x, lambda v: anova_n(0.05, 0.20, 0.1, v, 10), seed=1)
    >>> ci.lower, ci.upper, ci.n_boot, ci.seed
    (19, 36, 2000, 1)
    >>> print(ci)
    [19, 36] (95% expanded percentile bootstrap over topics, 2000 resamples, seed=1)
    """
    level = check("level", level, allow_array=False)
    method = check_choice("method", method, INTERVAL_METHODS)
    seed = fresh_seed(seed)
    n_boot = check("n_boot", n_boot, allow_array=False)
    variances = bootstrap_variances(scores, estimator=estimator, scale=scale, a=a, b=b,
                                    n_boot=n_boot, seed=seed, centre=method == "expanded")
    items = scores if isinstance(scores, (list, tuple)) else [scores]
    tails = interval_tails(level, [np.shape(x)[0] for x in items], method=method)
    return interval_of(resampled_n(n_of, variances), variances, level=level, tails=tails,
                       seed=seed, estimator=f"{estimator} {scale}", method=method)


def resampled_n(n_of: Callable[[np.ndarray], np.ndarray], variances) -> np.ndarray:
    """``n_of`` of every resampled σ̂² (:func:`positive`), without the engine's
    :class:`~topicsetsize.numerics.precision.PrecisionWarning`: a resample's n that may be a
    topic away from the smallest moves the interval's ends by at most that topic, far below
    the interval's own width, so a warning per resampled cell would only mislead."""
    import warnings

    from ..numerics.precision import PrecisionWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PrecisionWarning)
        return n_of(positive(variances))


def positive(variances) -> np.ndarray:
    """The resampled σ̂² with every 0 raised to the smallest positive one, for a design's n.

    A resample can repeat one topic so often that σ̂²* = 0 (in a matrix of a few topics; a
    design refuses a zero variance). n is non-decreasing in σ̂², so n at the smallest positive
    resample is at least the n of a zero variance: the interval's lower end can only move up,
    never below what the data allow.

    >>> positive(np.array([0.0, 0.02, 0.01])).tolist()
    [0.01, 0.02, 0.01]
    """
    variances = np.asarray(variances, dtype=float)
    above = variances[variances > 0]
    if above.size == 0:
        raise InputError("every resample of the topics has variance 0: the matrix gives no n "
                         "to put an interval on")
    return np.where(variances > 0, variances, above.min())


def interval_of(n, variances, *, level: float, tails, seed: int, estimator: str,
                method: str = "expanded") -> NInterval:
    """The :class:`NInterval` of the resampled n (last axis: the resamples) and the resampled
    σ̂² they were computed from (same last axis), at the quantiles ``tails``
    (:func:`interval_tails`). :func:`n_interval` uses it; so does a study that resamples
    several variances at once (one per pool depth, say) and calls the ``*_n`` function once.

    >>> v = np.linspace(0.01, 0.02, 1000)
    >>> ci = interval_of(np.ceil(1000 * v), v, level=0.95, tails=(0.025, 0.975), seed=0,
    ...                  estimator="one-way raw")
    >>> ci.lower, ci.upper
    (11, 20)
    """
    n, variances = np.asarray(n), np.asarray(variances)
    n_boot = variances.shape[-1]
    if n.shape[-1:] != (n_boot,):
        raise InputError(f"n_of returned shape {n.shape}: its last axis must be the "
                         f"{n_boot} resampled variances")
    lower, upper = percentile_limits(n, level, tails=tails)
    v_low, v_high = percentile_limits(variances, level, tails=tails)
    return NInterval(_plain(lower), _plain(upper), level, n_boot, seed, _plain_float(v_low),
                     _plain_float(v_high), estimator, method, tuple(tails))


def _plain_float(value):
    return value if np.ndim(value) else float(value)


def _plain(value):
    """A whole-number limit as an int, else as it is (inf stays a float)."""
    if np.ndim(value):
        return value
    value = float(value)
    return int(value) if value.is_integer() else value


def chi2_variance_interval(variance: float, df: int, level: float = 0.95) -> tuple[float, float]:
    r"""Normal-theory interval for a residual variance: σ̂²·φ/χ²_{φ,(1+ℓ)/2} to σ̂²·φ/χ²_{φ,(1−ℓ)/2}.

    Under independent normal residuals φσ̂²/σ² is χ² with φ degrees of freedom (m′(n′ − 1) for
    V_E, (m′ − 1)(n′ − 1) for V_E2), which gives this interval (e.g. Montgomery, *Design and
    Analysis of Experiments*, the interval for σ²). It is a check on the bootstrap, not a
    replacement: a topic's scores are correlated across runs (a hard topic is hard for every
    run), so the φ of the one-way V_E overstates the information and this interval is too
    narrow on real data.

    Examples
    --------
    >>> lo, hi = chi2_variance_interval(0.01, 100)
    >>> round(lo, 5), round(hi, 5)
    (0.00772, 0.01347)
    """
    from scipy import stats

    variance = check("variance", variance, allow_array=False)
    level = check("level", level, allow_array=False)
    if not (isinstance(df, (int, np.integer)) and df >= 1):
        raise InputError(f"df={df!r} is out of range: allowed df >= 1 (a whole number)")
    upper_q, lower_q = stats.chi2.ppf([(1 + level) / 2, (1 - level) / 2], df)
    return float(variance * df / upper_q), float(variance * df / lower_q)
