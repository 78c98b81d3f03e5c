"""Vectorised two-sided paired t-tests from sums of differences, robust to rounding.

Shared by the split-half experiment (:mod:`topicsetsize.checks.reliability`) and the resampled power
(:mod:`topicsetsize.checks.resampling`): both compute, for many tests at once, the sums Σd and Σd²
of
per-topic differences d and reject where t² = (Σd)²(k − 1)/(k·SS) exceeds the squared critical
value (Student's paired t-test on k topics, SS = Σd² − (Σd)²/k). Constant differences, whose SS
is only rounding error, are treated as a one-at-a-time test treats them.
"""

from __future__ import annotations

import numpy as np

__all__ = ["EPS", "tolerance", "reject_ratio", "paired_t"]

# A sum of squares within this many rounding errors of zero is taken as exactly zero (constant
# differences), see reject_ratio. Rounding of a k-term sum of squares stays below ~k·eps of its
# scale.
EPS = np.finfo(float).eps


def tolerance(k: int, scale):
    """Rounding-error bound of a sum of squares of k terms of size ``scale``: 4·k·eps·scale."""
    return (4.0 * k * EPS) * np.asarray(scale, float)


def reject_ratio(num, den, crit, tol_num, tol_den):
    """Where the statistic num/den exceeds ``crit`` (num, den ≥ 0, e.g. sums of squares).

    Where den is within rounding error of 0 (≤ ``tol_den``: constant data) the statistic is
    infinite if num > ``tol_num`` (reject) and undefined otherwise (do not reject), which is
    what a one-at-a-time test on those data gives. ``den`` is overwritten.
    """
    den *= crit
    reject = num > den
    small = den <= crit * tol_den
    if small.any():
        small = np.nonzero(small)
        reject[small] = num[small] > np.broadcast_to(tol_num, num.shape)[small]
    return reject


def paired_t(s, q, k: int, shift, crit2, scale):
    """Two-sided paired t-tests from sums of shifted differences d' = d − shift over k topics.

    ``s`` = Σd' and ``q`` = Σd'² (arrays, one entry per test; ``shift`` and ``scale``, the
    rounding scale of q, broadcast against them). With Σd = s + k·shift and SS = q − s²/k,
    t² = (Σd)²(k − 1)/(k·SS) > crit2 rejects. Shifting by the pair's overall mean keeps SS
    accurate. Returns (reject, Σd), with Σd set to exactly 0 where it is within rounding error
    of 0 (a tie favours neither run). ``s`` and ``q`` are overwritten.
    """
    tol = tolerance(k, scale)
    ss = np.multiply(s, s)
    ss *= 1.0 / k
    np.subtract(q, ss, out=ss)
    s += k * np.asarray(shift)
    total2 = np.multiply(s, s)
    reject = reject_ratio(total2, ss, crit2 * k / (k - 1), k * tol, tol)
    tie = total2 <= k * tol
    if tie.any():
        s[tie] = 0.0
    return reject, s
