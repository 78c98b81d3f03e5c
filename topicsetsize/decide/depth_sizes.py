r"""A pool depth study's topic set sizes: n, its interval and the cost at every depth, and the
cheapest depth (Sakai, CIKM 2014, §6.3).

Each depth's n is that of the one-way ANOVA at its V_E, as in the paper (``design="anova"``), or
that of the two-way ANOVA with topics as blocks at its V_E2 (``design="anova2"``): the test for
runs that share one topic set, which the one-way design's caveat recommends
(:func:`topicsetsize.anova2_n`; Sakai, IRJ 2016, §3). Both variances are pooled over the
collections by their residual degrees of freedom (:func:`topicsetsize.pooled_variance`).
"""

from __future__ import annotations

import warnings

import numpy as np

from ..estimates.standardise import std_ab
from ..estimates.variance import pooled_variance
from .anova_designs import ESTIMATORS
from .budget import NestedPoolsWarning, budget_plan, cheapest_row
from .limit import n_or_inf

__all__ = ["MIN_BOOT_TOPICS", "variance_column", "pooled_v_e", "size_depths",
           "depth_n_intervals"]

#: The fewest past topics the interval of n is resampled from (with 2, the centring factor
#: n′/(n′ − 1) = 2 put both ends above the point: n = 6 in [12, 12], a reviewer's find).
MIN_BOOT_TOPICS = 5


def variance_column(design: str, variance_from: str) -> str:
    """The column of a study's table that gives n: ``v_e_raw``, ``v_e2_std_ab``...

    >>> variance_column("anova2", "std-ab")
    'v_e2_std_ab'
    """
    return f"{ESTIMATORS[design][1]}_{variance_from.replace('-', '_')}"


def pooled_v_e(matrices: list, scores: str, design: str = "anova") -> float:
    """The design's residual variance (V_E, or V_E2 for ``"anova2"``) pooled over the
    collections' ``matrices`` of raw or std-AB ``scores``."""
    return pooled_variance(matrices if scores == "raw" else [std_ab(s) for s in matrices],
                           estimator=ESTIMATORS[design][0])


def size_depths(table, scores: dict, depths: list, *, m, min_d, alpha, beta, budget, method,
                design, variance_from, n_boot, seed, level, cutoff):
    """``table`` (a study's, one row per depth) with n, its cost, within_budget and, with
    ``n_boot``, n's interval (``n low``, ``n high``, ``cost high``, ``variance high``) and
    ``below_cutoff`` where a depth is below ``cutoff`` (the measure's; None for none); returns
    ``(table, cheapest row or None, interval or None, the legacy n's note)``. The cheapest row
    is never below the cutoff: n there measures the pool, not the systems."""
    with warnings.catch_warnings():     # nested pools; one below its depth: warned before
        warnings.simplefilter("ignore", NestedPoolsWarning)
        plan = budget_plan(depths, docs_per_topic=table["docs_per_topic"].to_numpy(),
                           variances=table[variance_column(design, variance_from)].to_numpy(),
                           m=m, min_d=min_d, alpha=alpha, beta=beta, budget=budget,
                           method=method, design=design)
    table, interval = table.join(plan.table[["n", "cost", "within_budget"]]), None
    topics = int(table["topics"].iloc[0])
    if n_boot is not None and topics < MIN_BOOT_TOPICS:     # resamples of 2 topics
        warnings.warn(f"no interval of n: {topics} past topics are too few to resample (at "
                      f"least {MIN_BOOT_TOPICS})", stacklevel=3)
    elif n_boot is not None:
        interval = depth_n_intervals(scores, depths, m=m, min_d=min_d, alpha=alpha, beta=beta,
                                     method=method, variance_from=variance_from, n_boot=n_boot,
                                     seed=seed, level=level, design=design)
        for end, values in (("n low", interval.lower), ("n high", interval.upper)):
            values = np.asarray(values, float)    # inf: resamples beyond 10⁹ topics
            table[end] = values.astype("int64") if np.isfinite(values).all() else values
        table["cost high"] = table["n high"] * table["docs_per_topic"]   # at n's upper end
        table["variance high"] = interval.variance_high     # σ̂² there, for a budget plan
    if cutoff is not None and min(depths) < cutoff:   # n there measures the pool's cut
        table["below_cutoff"] = table.index < cutoff
        cheapest = cheapest_row(table[~table["below_cutoff"]])
    else:
        cheapest = cheapest_row(table)
    if budget is None:      # every depth is "within" no budget: the column would only say yes
        table = table.drop(columns="within_budget")
        cheapest = None if cheapest is None else cheapest.drop("within_budget")
    return table, cheapest, interval, plan.note


def depth_n_intervals(scores, depths, *, m, min_d, alpha, beta, method, variance_from, n_boot,
                      seed, level, design: str = "anova"):
    """The bootstrap interval of the ANOVA's n at every pool depth: each depth's pooled σ̂²
    (V_E of ``scores[depth]``, a list of topics × runs matrices, one a collection, on
    ``variance_from``'s scale; V_E2 and the two-way n with ``design="anova2"``) over the same
    resamples of the topics (one seed), and n of every (depth, resample) in one call
    (:func:`~topicsetsize.decide.limit.n_or_inf`: a resample beyond the search limit makes its
    end inf). The limits are percentiles of the resampled n
    (:func:`topicsetsize.estimates.uncertainty.interval_of`), as ``report``'s.

    Returns
    -------
    NInterval
        ``lower`` and ``upper`` one per depth, in the order of ``depths``.

    Examples
    --------
    Two depths of one collection (20 topics × 5 runs each), n for m = 5, minD = .2:

    >>> import pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> scores = {10: [pd.DataFrame(rng.random((20, 5)))],
    ...           5: [pd.DataFrame(rng.random((20, 5)) ** 2)]}
    >>> ci = depth_n_intervals(scores, [10, 5], m=5, min_d=0.2, alpha=0.05, beta=0.2,
    ...                        method="legacy", variance_from="raw", n_boot=500, seed=1,
    ...                        level=0.95)
    >>> ci.lower.tolist(), ci.upper.tolist()
    ([43.0, 46.0], [69.0, 71.0])

    The point n of each depth (V_E of its matrix) lies inside:

    >>> from topicsetsize import anova_n
    >>> [anova_n(0.05, 0.2, 0.2, pooled_v_e(scores[d], "raw"), 5) for d in (10, 5)]
    [56, 60]
    """
    from ..estimates.uncertainty import (
        bootstrap_variances,
        fresh_seed,
        interval_of,
        interval_tails,
        resampled_n,
    )
    from ..params import check_choice

    estimator = ESTIMATORS[check_choice("design", design, tuple(ESTIMATORS))][0]
    seed = fresh_seed(seed)
    scale = "raw" if variance_from == "raw" else "std-ab"
    variances = np.stack([bootstrap_variances(scores[d], estimator=estimator, scale=scale,
                                              n_boot=n_boot, seed=seed) for d in depths])
    n = resampled_n(lambda v: n_or_inf(design, min_d, v, alpha=alpha, beta=beta, m=m,
                                       method=method), variances)
    tails = interval_tails(level, [len(s) for s in scores[depths[0]]])
    return interval_of(n, variances, level=level, tails=tails, seed=seed,
                       estimator=f"{estimator} {scale}")
