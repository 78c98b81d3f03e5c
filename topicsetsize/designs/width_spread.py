"""How often one collection's CI is wider than δ, where the CI designs size n on its expectation.

The CI designs (:mod:`topicsetsize.designs.ci`, :mod:`topicsetsize.designs.ci2`) take the
smallest n whose *expected* width is at most δ, so that the interval one collection gives is
wider than δ about half the time. The width is W = 2·t(φ; α)·se·s/σ, with φs²/σ² ~ χ²_φ (the
sample variance of normal scores), so

    Pr{W ≤ δ} = Pr{χ²_φ ≤ φ·(δ/(2·t(φ; α)·se))²}

(``scipy.special.chdtr``), with φ = n − 1 and se = σt/√n for the paired design, φ = 2(n − 1)
and se = σ·√(2/n) for the unpaired one (the degrees of freedom and standard errors of their
expected widths, :func:`~topicsetsize.designs.ci.expected_width`). This is the "tolerance
probability" of Kupper & Hafner (The American Statistician 43(2), 1989): the n that keeps a
share of the intervals within δ, not only their mean.
"""

from __future__ import annotations

import math

from .registry import DESIGNS

__all__ = ["within_probability", "n_within", "spread_at", "share_text", "width_caveat"]

# numpy and scipy are imported by the functions: the command line imports this module before
# it knows the design.


def within_probability(key: str, n, *, alpha, delta, variance):
    """Pr{W ≤ δ}: the share of the intervals that design ``key`` ("ci" or "ci2") gives with n
    topics (per system, for "ci2") that are at most δ wide.

    >>> round(float(within_probability("ci", 79, alpha=0.05, delta=0.1, variance=0.05)), 3)
    0.513
    >>> round(float(within_probability("ci2", 27, alpha=0.05, delta=0.1, variance=0.0084)), 3)
    0.522
    """
    import numpy as np
    from scipy import special

    from ..numerics.distributions import t_crit
    from .ci import paired_shape
    from .ci2 import unpaired_shape

    shape = {"ci": paired_shape, "ci2": unpaired_shape}[key]      # (φ, se) at n
    df, se = shape(np.asarray(n, float), math.sqrt(variance))
    return special.chdtr(df, df * (delta / (2.0 * t_crit(alpha, df) * se)) ** 2)


def n_within(key: str, share: float, *, alpha, delta, variance, start: int = 2) -> int:
    """The smallest n ≥ ``start`` whose intervals are at most δ wide with probability
    ``share`` (it rises with n): doubling, then bisection on whole numbers.

    >>> n_within("ci", 0.8, alpha=0.05, delta=0.1, variance=0.05, start=79)
    89
    """
    def ok(k):
        return within_probability(key, k, alpha=alpha, delta=delta, variance=variance) >= share

    low, high = start - 1, start        # ok(low) is False (or low < 2), ok(high) unknown
    while not ok(high):
        low, high = high, 2 * high
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if ok(mid) else (mid, high)
    return max(high, 2)


def spread_at(key: str, n: int, values: dict) -> tuple[float, int]:
    """At n topics of CI design ``key``, with the inputs ``values`` (its declared names: α, δ
    and the variance of :data:`~topicsetsize.designs.registry.DESIGNS`), the share of the
    intervals wider than δ and the n that keeps 80% of them within δ.

    >>> wider, keep = spread_at("ci", 79, {"alpha": 0.05, "delta": 0.1, "variance_t": 0.05})
    >>> round(wider, 3), keep
    (0.487, 89)
    """
    alpha, delta, variance = (values[k] for k in DESIGNS[key].inputs)
    given = dict(alpha=alpha, delta=delta, variance=variance)
    return 1.0 - float(within_probability(key, n, **given)), n_within(key, 0.8, **given)


def share_text(share: float) -> str:
    """A share in whole percent that never reads 0% or 100% where it is not (a review,
    2026-12-07: 0.49% of intervals wider than δ read "0%").

    >>> share_text(0.487), share_text(0.0049), share_text(0.9961), share_text(0.0)
    ('49%', 'less than 1%', 'more than 99%', '0%')
    """
    if 0 < share < 0.005:
        return "less than 1%"
    if 0.995 <= share < 1:
        return "more than 99%"
    return f"{share:.0%}"


def width_caveat(key: str, n: int, values: dict) -> str:
    """The CI design's caveat at its answer n, on the user's own inputs: how often the interval
    one collection gives is wider than δ at n, and the n that keeps 80% of them within δ.

    >>> print(width_caveat("ci", 79, {"alpha": 0.05, "delta": 0.1, "variance_t": 0.05}))
    its n bounds the expected width of the interval, not the width one collection gives: at \
the 79 topics sized, 49% of the intervals are wider than delta = 0.1; 89 topics keep 80% of \
them within it
    """
    wider, keep = spread_at(key, n, values)
    topics = "topics per system" if key == "ci2" else "topics"
    return (f"its n bounds the expected width of the interval, not the width one collection "
            f"gives: at the {n:,} {topics} sized, {share_text(wider)} of the intervals are wider "
            f"than delta = {values['delta']:.6g}; {keep:,} {topics} keep 80% of them within it")
