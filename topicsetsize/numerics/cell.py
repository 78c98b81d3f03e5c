"""The precise F power at a few points of one cell: a scalar call's certificate (issue 28.5).

:func:`~topicsetsize.numerics.precision.certify_one` compares the precise power at n − 1 and n
of one cell (and at a neighbour where it walks). :func:`~.distributions.f_power` computes it
for any cells, broadcasting its arguments and picking per element which formula applies, at
some 70 numpy calls whatever the number of points. For a few points of one cell,
:func:`f_crit_point` and :func:`f_power_cell` do the same operations on the same values point by
point, on floats (the transcendental ones by the same ufuncs: scipy.special's, and numpy's
``exp``, ``log`` and ``power``, which give the same bits on a float as in an array), so they
give the same bits; where a point would take a rare branch (1 − y near 0, a failed Newton step,
a NaN), the result is :func:`~.distributions.f_power`'s own. The legacy ANOVA's precise power
takes :func:`f_crit_point` too (:mod:`topicsetsize.designs.anova`).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from .distributions import PRECISE_FROM, f_power, ncf_sf
from .tails import SERIES_DFN_MAX, SERIES_FROM, SERIES_NC_MAX, ncf_sf_series_points, terms_for

__all__ = ["f_crit_point", "f_power_cell"]


def f_crit_point(alpha: float, dfn: float, dfd: float, fast: float | None = None
                 ) -> float | None:
    """:func:`~.distributions.f_crit` (``precise=True``) of one point on floats, or None where
    it takes a rare branch (1 − y near 0, a Newton step that fails or divides by 0).

    The inverse incomplete beta, x = (φ2/φ1)·y/(1 − y), and from φ2 = 10⁵ on the Newton step
    of :func:`~.distributions.newton_f_point`, x + (S(x) − α)/f(x), in the same order. ``fast``
    is that x where the search computed it already (``points`` of
    :func:`~.distributions.f_crit_one`, which keeps it where y ≤ 1/2): the same value.

    >>> from topicsetsize.numerics.distributions import f_crit
    >>> f_crit_point(0.05, 2.0, 5.7e7) == float(f_crit(0.05, 2.0, 5.7e7))
    True
    """
    if fast is None:
        y = float(special.betainccinv(dfn / 2.0, dfd / 2.0, alpha))
        if not y <= 0.5:
            return None
        fast = dfd / dfn * y / (1.0 - y)
    x = fast
    if not dfd >= PRECISE_FROM:
        return x
    if not (x > 0 and math.isfinite(x)):
        return None
    a, b = dfn / 2.0, dfd / 2.0
    t = dfn * x
    y = t / (t + dfd)
    log_f = (float(special.xlogy(a, y)) + float(special.xlog1py(b, -y))
             - float(special.xlogy(1.0, x)) - float(special.betaln(a, b)))
    density = float(np.exp(log_f))
    if not (density > 0 and math.isfinite(density)):
        return None
    new = x + (float(special.betaincc(a, b, y)) - alpha) / density
    return new if math.isfinite(new) and new > 0 else x


def f_power_cell(alpha: float, dfn: float, dfd: np.ndarray, nc: np.ndarray,
                 use: np.ndarray | None = None, points: dict | None = None) -> np.ndarray:
    """:func:`~.distributions.f_power` (``precise=True``) at a few points (φ2, λ) of one cell.

    α and φ1 are floats, φ2 and λ 1-d arrays of one length (e.g. those of n − 2, …, n + 1). Each
    point's power is computed on floats as :func:`~.distributions.f_power` computes its
    element, so with the same bits: the F point of :func:`f_crit_point`, then Boost's noncentral
    F or, from φ2 = 10⁶ on, the Poisson series (:func:`~.tails.ncf_sf_series_points`), which
    sums as many terms as the largest λ of the points in the call needs (``docs/formulas.md``
    §4, numerical precision).

    ``use`` (a boolean mask) asks for some of the points only: the result holds those. A point
    is computed alone where its own number of terms is that of all the points the series could
    take (then the number of the call, whichever of them it takes, is the same); otherwise, as
    where a point takes a rare branch (see :func:`f_crit_point`), λ is not positive or a power
    is NaN, the result is that of :func:`~.distributions.f_power` at all the points. ``points``:
    the F points that the search computed, by φ2 (see :func:`f_crit_point`).

    >>> dfd, nc = np.array([5.7e7, 5.7e7 + 2]), np.array([10.0, 10.0000002])
    >>> bool((f_power_cell(0.05, 2.0, dfd, nc) == f_power(0.05, 2.0, dfd, nc)).all())
    True
    >>> bool(f_power_cell(0.05, 2.0, dfd, nc, np.array([False, True]))
    ...      == f_power(0.05, 2.0, dfd, nc)[1])
    True
    """
    dfd_, nc_ = dfd.tolist(), nc.tolist()
    terms = max((terms_for(c) for d, c in zip(dfd_, nc_) if d >= SERIES_FROM and 0 < c
                 <= SERIES_NC_MAX and dfn <= SERIES_DFN_MAX), default=0)
    wanted = range(len(dfd_)) if use is None else np.flatnonzero(use).tolist()
    power = _f_power_points(alpha, dfn, [dfd_[i] for i in wanted], [nc_[i] for i in wanted],
                            terms, {} if points is None else points)
    if power is None:
        return f_power(alpha, dfn, dfd, nc) if use is None else f_power(alpha, dfn, dfd, nc)[use]
    return power


def _f_power_points(alpha, dfn, dfd, nc, terms, points):
    """The powers of :func:`f_power_cell` at the points (lists of floats), or None (see there):
    Boost's tail point by point, the series' points in one call."""
    power, series = [], []
    for i, (dfd_, nc_) in enumerate(zip(dfd, nc)):
        w = f_crit_point(alpha, dfn, dfd_, points.get(dfd_))
        if w is None or not nc_ > 0:
            return None
        if (dfd_ >= SERIES_FROM and nc_ <= SERIES_NC_MAX and dfn * w < dfd_
                and dfn <= SERIES_DFN_MAX):
            if terms_for(nc_) != terms:
                return None
            series.append((i, w))
            power.append(math.nan)
        else:
            with np.errstate(invalid="ignore"):
                power.append(float(ncf_sf(w, dfn, dfd_, nc_)))
    power = np.array(power)
    if series:
        rows, w = (list(c) for c in zip(*series))
        power[rows] = ncf_sf_series_points(w, dfn, [dfd[i] for i in rows], [nc[i] for i in rows],
                                           terms)
    return None if np.isnan(power).any() else power
