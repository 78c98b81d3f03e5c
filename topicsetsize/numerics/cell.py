"""The precise F power at a few points of one cell: a scalar call's certificate (issue 28.5).

:func:`~topicsetsize.numerics.precision.certify_one` compares the precise power at n − 1 and n
of one cell (and at a neighbour where it walks). :func:`~.distributions.f_power` computes it
for any cells, broadcasting its arguments and picking per element which formula applies; for a
few points of one cell, which take one branch, :func:`f_power_cell` does the same operations on
the same values without that bookkeeping, so it gives the same bits (and :func:`f_power` itself
where they would not take one branch), at about a third of its cost.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from .distributions import PRECISE_FROM, f_crit, f_power, ncf_sf, newton_f_point
from .tails import SERIES_DFN_MAX, SERIES_FROM, SERIES_NC_MAX, ncf_sf_series, series_terms

__all__ = ["f_crit_cell", "f_power_cell"]


def f_crit_cell(alpha: float, dfn: float, dfd: np.ndarray) -> np.ndarray:
    """:func:`~.distributions.f_crit` (``precise=True``) at a few φ2 of one cell.

    α and φ1 are floats, φ2 a 1-d array (e.g. the φE of n − 1 and n): the same scipy.special
    calls and operations on the same values, so the same bits, without the broadcasting and
    the per-element selection that a table's cells need. Where the points would take different
    branches (1 − y near 0, a Newton step for some only), the result is
    :func:`~.distributions.f_crit`'s own.

    >>> dfd = np.array([5.7e7, 5.7e7 + 2])
    >>> bool((f_crit_cell(0.05, 2.0, dfd) == f_crit(0.05, 2.0, dfd)).all())
    True
    """
    y = special.betainccinv(dfn / 2.0, dfd / 2.0, alpha)
    x = dfd / dfn * y / (1.0 - y)
    refine = dfd >= PRECISE_FROM
    if refine.any():
        refine &= (y <= 0.5) & (x > 0) & np.isfinite(x)
        if not refine.all():
            return f_crit(alpha, dfn, dfd)
        return newton_f_point(x, alpha, dfn, dfd)
    if (y > 0.5).any():
        return f_crit(alpha, dfn, dfd)
    return x


def f_power_cell(alpha: float, dfn: float, dfd: np.ndarray, nc: np.ndarray,
                 use: np.ndarray | None = None) -> np.ndarray:
    """:func:`~.distributions.f_power` (``precise=True``) at a few points (φ2, λ) of one cell.

    α and φ1 are floats, φ2 and λ 1-d arrays of one length (e.g. those of n − 2, …, n + 1). The
    same operations on the same values as :func:`~.distributions.f_power`, so the same bits:
    the F point of :func:`f_crit_cell`, then Boost's noncentral F or, from φ2 = 10⁶ on, the
    Poisson series of :func:`~.tails.ncf_sf_series`, which sums as many terms as the largest λ
    of the points it is given needs (``docs/formulas.md`` §4, numerical precision).

    ``use`` (a boolean mask) asks for some of the points only. They are computed alone where
    the number of terms is the same whichever of the others the series would take (the number
    the points in ``use`` need is that of all the points the series could take), otherwise with
    all the points; the result holds the points in ``use`` only. Where the points would take
    different branches, λ is not positive or a power is NaN, the result is
    :func:`~.distributions.f_power`'s own.

    >>> dfd, nc = np.array([5.7e7, 5.7e7 + 2]), np.array([10.0, 10.0000002])
    >>> bool((f_power_cell(0.05, 2.0, dfd, nc) == f_power(0.05, 2.0, dfd, nc)).all())
    True
    >>> bool(f_power_cell(0.05, 2.0, dfd, nc, np.array([False, True])) == f_power(0.05, 2.0,
    ...                                                                               dfd, nc)[1])
    True
    """
    if use is not None and not use.all():
        eligible = (dfd >= SERIES_FROM) & (nc > 0) & (nc <= SERIES_NC_MAX) & (dfn <= SERIES_DFN_MAX)
        terms = series_terms(nc[eligible]) if eligible.any() else 0
        power = _f_power_points(alpha, dfn, dfd[use], nc[use], terms)
        return f_power_cell(alpha, dfn, dfd, nc)[use] if power is None else power
    power = _f_power_points(alpha, dfn, dfd, nc)
    return f_power(alpha, dfn, dfd, nc) if power is None else power


def _f_power_points(alpha, dfn, dfd, nc, terms=None):
    """:func:`f_power_cell` where the points take one branch (else None), and where the series
    sums ``terms`` terms for them (None: whatever they need)."""
    w = f_crit_cell(alpha, dfn, dfd)
    series = dfd >= SERIES_FROM
    if series.any():
        series &= (nc > 0) & (nc <= SERIES_NC_MAX) & (dfn * w < dfd) & (dfn <= SERIES_DFN_MAX)
        if not series.all() or terms is not None and series_terms(nc) != terms:
            return None
        power = ncf_sf_series(w, np.full(w.shape, dfn), dfd, nc)
    elif (nc > 0).all():
        with np.errstate(invalid="ignore"):
            power = ncf_sf(w, dfn, dfd, nc)
    else:
        return None
    return None if np.isnan(power).any() else power     # NaN: f_power's own ways round it
