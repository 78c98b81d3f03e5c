"""The precision of the F designs' powers, and the check of a certified n against it.

The search certifies n by power(n − 1) < 1 − β ≤ power(n) (``numerics.search``). Near 10⁹ topics
the power rises by a few 1e-10 per topic, not far above what the computed power can resolve
(:data:`F_POWER_TOLERANCE`); where a certifying power lies within that tolerance of 1 − β, the
computed powers cannot decide between n − 1, n and n + 1, and :func:`warn_if_undecided` says so
with a :class:`PrecisionWarning` instead of certifying silently (``docs/formulas.md`` §4,
numerical precision).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np

__all__ = ["PrecisionWarning", "F_POWER_TOLERANCE", "CHECK_FROM", "warn_if_undecided",
           "warn_if_undecided_one"]

#: Absolute precision of the F designs' powers (exact and legacy) up to n = 10⁹, φE up to 10¹²:
#: over twice the largest error measured against 40-digit mpmath powers (1.3e-11,
#: ``tests/data/anova_large_n_reference.csv``), which comes from the F point (up to 3e-12).
F_POWER_TOLERANCE = 3e-11

#: The n from which answers are checked against :data:`F_POWER_TOLERANCE`: below it, the power
#: rises per topic by some 1e-7 or more (about φ(z_β)·(z_α + z_β)/(2n)), thousands of times the
#: tolerance, except in extreme cells (1 − β above .999, or barely above α).
CHECK_FROM = 10**4


class PrecisionWarning(UserWarning):
    """The power at n − 1 or at n is within the power's stated precision of 1 − β: the n returned
    is the one the computed powers certify, and the smallest n may be a topic or two away."""


def warn_if_undecided(power, target, n, *, tolerance: float, check_from: int,
                      describe: Callable[[int], str]) -> np.ndarray:
    """Warn where power(n − 1) < target ≤ power(n) holds by less than the power's precision.

    For the cells with n ≥ ``check_from``, the powers at n − 1 and n are evaluated again; where
    either lies within ``tolerance`` of the target, the computed powers cannot tell n − 1, n and
    n + 1 apart, and a :class:`PrecisionWarning` names the first such cell and their number.

    Parameters
    ----------
    power : callable
        ``power(n, idx)``, the criterion at the float array ``n`` for the cells ``idx``.
    target : array_like
        Per-cell target, broadcast to the shape of ``n``.
    n : ndarray of int
        The certified answers.
    tolerance : float
        The absolute precision of the power.
    check_from : int
        The smallest n that is checked (below it, the power's rise per topic dwarfs the
        tolerance).
    describe : callable
        ``describe(i)`` names cell i's inputs.

    Returns
    -------
    ndarray of bool
        Per cell, True where undecided (the shape of ``n``).

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     flags = warn_if_undecided(lambda x, i: x / 100.0, 1.0, np.array([100]),
    ...                               tolerance=1e-9, check_from=2, describe=str)
    >>> flags.tolist(), caught[0].category.__name__
    ([True], 'PrecisionWarning')
    """
    n = np.asarray(n)
    flat = n.ravel()
    target = np.broadcast_to(np.asarray(target, float), n.shape).ravel()
    undecided = np.zeros(flat.shape, bool)
    cells = np.flatnonzero(flat >= max(check_from, 3))
    if cells.size:
        x = flat[cells].astype(float)
        p = np.asarray(power(np.concatenate([x - 1.0, x]), np.concatenate([cells, cells])), float)
        t = target[cells]
        near = (np.abs(p[:cells.size] - t) < tolerance) | (np.abs(p[cells.size:] - t) < tolerance)
        undecided[cells[near]] = True
    if undecided.any():
        first = int(np.argmax(undecided))
        more = int(undecided.sum()) - 1
        warnings.warn(
            f"n={int(flat[first]):,} for {describe(first)} is certified by powers within "
            f"{tolerance:g} of 1 - beta, the power's precision: the smallest n may be a topic or "
            f"two away" + (f" (and {more} more cells)" if more else ""),
            PrecisionWarning, stacklevel=4)
    return undecided.reshape(n.shape)


def warn_if_undecided_one(power_one: Callable[[float], float], target: float, n: int | None,
                          describe: Callable[[int], str]) -> int | None:
    """:func:`warn_if_undecided` of a one-cell answer n (None passes through), with the F
    designs' tolerance; ``power_one(x)`` is the cell's power at the float x. Returns n.

    >>> warn_if_undecided_one(lambda x: x / 1e6, 0.5, 500_000, str)
    500000
    """
    if n is not None and n >= CHECK_FROM:
        warn_if_undecided(lambda x, i: np.array([power_one(v) for v in x]), target,
                          np.array([n]), tolerance=F_POWER_TOLERANCE, check_from=CHECK_FROM,
                          describe=describe)
    return n
