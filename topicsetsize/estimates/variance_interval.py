"""The interval of one σ̂² over the past topics, as ``topicsetsize variance`` shows it beside the
estimate and the workbook's Variance and Tables sheets do (``docs/formulas.md`` §10).

Every n sized on σ̂² has the interval n(low) to n(high), n being non-decreasing in σ̂²
(:mod:`topicsetsize.estimates.uncertainty`, whose resamples and expanded percentile limits this
takes).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..params import N_BOOT
from .uncertainty import bootstrap_variances, interval_tails, percentile_limits

__all__ = ["VarianceInterval", "variance_interval"]


@dataclass(frozen=True)
class VarianceInterval:
    """σ̂²'s interval over the topics: ``low``, ``high`` at ``level``, from ``n_boot`` resamples
    drawn with ``seed``."""

    low: float
    high: float
    level: float
    n_boot: int
    seed: int


def variance_interval(scores, *, estimator: str = "one-way", scale: str = "raw",
                      a: float = 0.15, b: float = 0.5, level: float = 0.95, n_boot: int = N_BOOT,
                      seed: int = 0) -> VarianceInterval:
    """The expanded percentile interval of σ̂² (V_E or V_E2, raw or std-AB) over the topics.

    The topics are resampled with replacement ``n_boot`` times, σ̂² re-estimated on each
    (:func:`~topicsetsize.estimates.uncertainty.bootstrap_variances`), and the limits are the
    quantiles of :func:`~topicsetsize.estimates.uncertainty.interval_tails` for the matrix's
    topics (Hesterberg 2015, §4; ``docs/formulas.md`` §10).

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        Topics as rows, runs as columns.
    estimator, scale, a, b, n_boot, seed
        As in :func:`~topicsetsize.estimates.uncertainty.bootstrap_variances` (here seed 0 by
        default, so that the same matrix gives the same interval).
    level : float
        Coverage of the interval.

    Returns
    -------
    VarianceInterval

    Examples
    --------
    TREC 2010 Web AP, V_E raw .0084 (``topicsetsize variance --example``):

    >>> from topicsetsize.examples import example_matrix
    >>> ci = variance_interval(example_matrix())
    >>> round(ci.low, 4), round(ci.high, 4)
    (0.006, 0.0114)
    """
    resampled = bootstrap_variances(scores, estimator=estimator, scale=scale, a=a, b=b,
                                    n_boot=n_boot, seed=seed)
    low, high = percentile_limits(resampled, tails=interval_tails(level, [len(scores)]))
    return VarianceInterval(float(low), float(high), level, n_boot, seed)
