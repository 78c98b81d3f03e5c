"""Score standardisation: std-AB (Sakai, AIRS 2016) and std-CDF (Webber, Moffat and Zobel 2008).

Each topic's scores are turned into z-scores with the mean and the sample standard deviation of
that topic over a set of *standardising runs* (Sakai, AIRS 2016, Eqs. 2–3). std-AB maps the
z-score linearly to A·z + B and clips it to [0, 1]; std-CDF maps it to Φ(z). New runs are
standardised with the factors of the standardising runs (``factors=``), so that their scores are
comparable.

Zero-SD policy
--------------
A topic on which every standardising run scores the same has sd = 0 and its z-score is
undefined. Such a topic cannot tell runs apart, so **its z-score is set to 0 for every run**,
standardising or new: every run scores B under std-AB and Φ(0) = 0.5 under std-CDF on that
topic. The test is exact (all standardising scores equal, so the factors report ``sd == 0``);
nothing is divided by zero and no NaN is produced.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import special

from ..errors import InputError
from ..matrices.matrix import ScoreMatrix, check_matrix
from ..params import check

__all__ = ["StandardisationFactors", "standardisation_factors", "std_ab", "std_cdf", "z_scores",
           "ClippedScoresWarning", "warn_if_clipped", "CLIPPED_SHARE"]

#: The share of scores clipped to 0 or 1 above which std-AB's scores are said to tell runs apart
#: poorly: at the paper's A = .15 a normal z is clipped 0.09% of the time (TREC 2010 Web AP:
#: 0.95%, TREC 2004 Robust AP: 0.42%), at A = .5 a third of the time.
CLIPPED_SHARE = 0.05


class ClippedScoresWarning(UserWarning):
    """More than :data:`CLIPPED_SHARE` of the std-AB scores are clipped to 0 or 1 (a large A, or
    a B near an end of [0, 1]): those no longer tell runs apart."""


class StandardisationFactors(NamedTuple):
    """Per-topic standardisation factors: ``mean`` and sample ``sd`` over the standardising runs.

    A ``(mean, sd)`` pair of either kind may be passed wherever factors are accepted.

    Attributes
    ----------
    mean, sd : pandas.Series or ndarray
        Per-topic mean and sample standard deviation: Series indexed by topic when they come
        from a DataFrame, else 1-D ndarrays.
    """

    mean: pd.Series | np.ndarray
    sd: pd.Series | np.ndarray


def standardisation_factors(scores) -> StandardisationFactors:
    r"""Per-topic mean and sample standard deviation over the standardising runs (AIRS 2016 Eq. 2).

    .. math:: \bar x_{\bullet j} = \frac{1}{m'}\sum_i x_{ij}, \qquad
              s_{\bullet j} = \sqrt{\frac{1}{m'-1}\sum_i (x_{ij} - \bar x_{\bullet j})^2}

    (T. Sakai, "A simple and effective approach to score standardisation", AIRS 2016, Eq. 2;
    sample SD, divisor m'−1). A topic whose runs all score the same gets ``sd = 0`` exactly (see
    the module's zero-SD policy).

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        The standardising runs: topics as rows, runs as columns (at least 2 of each).

    Returns
    -------
    StandardisationFactors
        ``(mean, sd)``, Series indexed by topic for a DataFrame, ndarrays otherwise.

    Examples
    --------
    >>> f = standardisation_factors([[0.2, 0.4, 0.6], [0.5, 0.5, 0.5]])
    >>> f.mean.round(6).tolist(), f.sd.round(6).tolist()
    ([0.4, 0.5], [0.2, 0.0])
    """
    matrix = check_matrix(scores)
    x = matrix.values
    mean = x.mean(axis=1)
    sd = np.where(np.ptp(x, axis=1) == 0, 0.0, x.std(axis=1, ddof=1))
    if matrix.topics is None:
        return StandardisationFactors(mean, sd)
    return StandardisationFactors(pd.Series(mean, index=matrix.topics, name="mean"),
                                  pd.Series(sd, index=matrix.topics, name="sd"))


def z_scores(scores, *, factors=None):
    r"""Per-topic z-scores, z_ij = (x_ij − x̄_•j)/s_•j (AIRS 2016 Eq. 2); 0 where s_•j = 0.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        Topics as rows, runs as columns.
    factors : StandardisationFactors or (mean, sd) pair, optional
        The factors of the standardising runs (:func:`standardisation_factors`); by default
        those of ``scores`` itself. With a DataFrame, Series factors are aligned by topic.

    Returns
    -------
    pandas.DataFrame or numpy.ndarray
        The same type and shape as ``scores``.

    Examples
    --------
    >>> z_scores([[0.25, 0.5, 0.75], [0.5, 0.5, 0.5]])
    array([[-1.,  0.,  1.],
           [ 0.,  0.,  0.]])
    """
    matrix, z = _standardise(scores, factors)
    return matrix.like_input(z)


def std_ab(scores, *, a: float = 0.15, b: float = 0.5, clip: bool = True, factors=None):
    r"""std-AB standardised scores (Sakai, AIRS 2016, Eqs. 2–3).

    .. math:: \mathrm{std}_{ij} = \frac{x_{ij} - \bar x_{\bullet j}}{s_{\bullet j}}, \qquad
              \mathrm{lin}_{ij} = A\,\mathrm{std}_{ij} + B, \qquad
              \mathrm{stdAB}_{ij} = \min(\max(\mathrm{lin}_{ij}, 0), 1)

    with x̄_•j and s_•j the mean and sample SD of topic j over the standardising runs
    (T. Sakai, "A simple and effective approach to score standardisation", AIRS 2016). Before
    clipping, every topic has mean B and SD A over the standardising runs; the result does not
    change under a positive affine change of any topic's raw scores, so unnormalised measures
    (e.g. the M-measure) and normalised ones end up on the same [0, 1] scale. A topic whose
    standardising runs all score the same gives B for every run (zero-SD policy of the module).

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        Topics as rows, runs as columns.
    a : float, default 0.15
        The spread A (> 0). The paper's choice, 0.15, keeps almost all scores inside [0, 1]
        (with B = 0.5 a score is clipped where |z| > 0.5/A, beyond 3.3 standard deviations). A
        larger A clips more of them, and clipped scores no longer tell the runs apart: at
        A = 0.5 a normal z is clipped a third of the time, at A = 10 almost always (96%), so
        that a score says little more than whether the run is below or above the topic's mean.
    b : float, default 0.5
        The centre B, 0 < B < 1: the scores' mean before clipping, inside [0, 1]. B at or
        beyond an end of [0, 1] would clip the runs on one side of every topic's mean (B = 1:
        all above it) to that end.
    clip : bool, default True
        Clip to [0, 1] (Eq. 3); ``False`` returns the linear scores A·z + B.

    Raises
    ------
    InputError
        ``a`` or ``b`` outside its range (:data:`topicsetsize.params.PARAMS`), in one line
        naming the argument, the value and the range.
    factors : StandardisationFactors or (mean, sd) pair, optional
        Standardise new runs with the factors of the standardising runs
        (:func:`standardisation_factors`); by default ``scores`` standardise themselves.

    Returns
    -------
    pandas.DataFrame or numpy.ndarray
        The same type, labels and shape as ``scores``.

    Examples
    --------
    >>> std_ab([[0.2, 0.4, 0.6], [0.5, 0.5, 0.5]])
    array([[0.35, 0.5 , 0.65],
           [0.5 , 0.5 , 0.5 ]])
    >>> std_ab([[0.0, 0.1, 0.2], [0.1, 0.2, 0.3]], a=1.0, clip=False)
    array([[-0.5,  0.5,  1.5],
           [-0.5,  0.5,  1.5]])
    >>> std_ab([[0.2, 0.4, 0.6], [0.5, 0.5, 0.5]], b=2)
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: b=2 is out of range: allowed 0 < b < 1
    """
    a = check("a", a, allow_array=False)
    b = check("b", b, allow_array=False)
    matrix, z = _standardise(scores, factors)
    out = a * z + b
    if clip:
        np.clip(out, 0.0, 1.0, out=out)
    return matrix.like_input(out)


def warn_if_clipped(standardised, a: float, b: float = 0.5, name: str = "the matrix") -> float:
    """Warn (:class:`ClippedScoresWarning`) where more than :data:`CLIPPED_SHARE` of the std-AB
    scores ``standardised`` are 0 or 1, the ends std-AB clips to; returns that share.

    A variance of such scores is in part one of 0s and 1s: a review (2026-12-07) found
    ``topicsetsize variance --a 5`` printing V_E std-AB .1973 of TREC 2010 Web AP, 93% of whose
    scores were clipped, without a word.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     share = warn_if_clipped(std_ab([[0.1, 0.5, 0.9], [0.2, 0.3, 0.4]], a=5), 5, 0.5)
    >>> share, caught[0].category.__name__
    (0.6666666666666666, 'ClippedScoresWarning')
    """
    values = np.asarray(standardised, dtype=float)
    share = float(np.mean((values <= 0.0) | (values >= 1.0)))
    if share > CLIPPED_SHARE:
        import warnings

        warnings.warn(
            f"std-AB with A={a:g}, B={b:g} clips {share:.0%} of {name}'s scores to 0 or 1, where "
            "they no longer tell the runs apart, and its std-AB variances are of those scores; "
            "the paper's A = 0.15, B = 0.5 clip almost none", ClippedScoresWarning,
            stacklevel=2)
    return share


def std_cdf(scores, *, factors=None):
    r"""std-CDF standardised scores: Φ of the per-topic z-score.

    .. math:: \mathrm{stdCDF}_{ij} = \Phi\!\left(\frac{x_{ij} - \bar x_{\bullet j}}{s_{\bullet j}}
              \right)

    (W. Webber, A. Moffat and J. Zobel, "Score standardization for inter-collection comparison
    of retrieval systems", SIGIR 2008, in the notation of Sakai, AIRS 2016).
    Φ is :func:`scipy.special.ndtr`. A topic whose standardising runs all score the same gives
    Φ(0) = 0.5 for every run (zero-SD policy of the module).

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        Topics as rows, runs as columns.
    factors : StandardisationFactors or (mean, sd) pair, optional
        Standardise new runs with the factors of the standardising runs.

    Returns
    -------
    pandas.DataFrame or numpy.ndarray
        The same type, labels and shape as ``scores``, values in (0, 1).

    Examples
    --------
    >>> std_cdf([[0.2, 0.4, 0.6], [0.5, 0.5, 0.5]]).round(4)
    array([[0.1587, 0.5   , 0.8413],
           [0.5   , 0.5   , 0.5   ]])
    """
    matrix, z = _standardise(scores, factors)
    return matrix.like_input(special.ndtr(z))


def _standardise(scores, factors) -> tuple[ScoreMatrix, np.ndarray]:
    """The checked matrix and its z-scores (0 on zero-SD topics)."""
    if factors is None:
        matrix = check_matrix(scores)
        mean, sd = (np.asarray(f, dtype=float) for f in standardisation_factors(matrix.values))
    else:
        matrix = check_matrix(scores, min_topics=1, min_runs=1)
        mean, sd = _aligned_factors(factors, matrix)
    x = matrix.values
    z = np.zeros_like(x)
    np.divide(x - mean[:, None], sd[:, None], out=z, where=(sd > 0)[:, None])
    return matrix, z


def _aligned_factors(factors, matrix: ScoreMatrix) -> tuple[np.ndarray, np.ndarray]:
    """Factors as float arrays in the topic order of ``matrix``, checked."""
    try:
        mean, sd = factors
    except (TypeError, ValueError):
        raise InputError("factors must be a StandardisationFactors or a (mean, sd) pair, "
                         f"got {type(factors).__name__}") from None
    n_topics = matrix.values.shape[0]
    out = []
    for name, part in (("mean", mean), ("sd", sd)):
        if isinstance(part, pd.Series) and matrix.topics is not None:
            missing = matrix.topics.difference(part.index, sort=False)
            if len(missing):
                raise InputError(f"factors.{name} has no value for topic {missing[0]!r} "
                                 f"({len(missing)} of the {n_topics} topics of scores missing)")
            part = part.reindex(matrix.topics)
        values = np.asarray(part, dtype=float).reshape(-1)
        if values.shape[0] != n_topics:
            raise InputError(f"factors.{name} has {values.shape[0]} values but scores has "
                             f"{n_topics} topics (rows)")
        bad = ~np.isfinite(values) | ((values < 0) if name == "sd" else False)
        if bad.any():
            k = int(np.argmax(bad))
            where = f"topic {matrix.topics[k]!r}" if matrix.topics is not None else f"row {k + 1}"
            allowed = "a finite number >= 0" if name == "sd" else "a finite number"
            raise InputError(f"factors.{name}={float(values[k])!r} at {where}: "
                             f"allowed {allowed}")
        out.append(values)
    return out[0], out[1]
