"""Critical values and exact power from the central and noncentral t and F.

Thin, vectorised wrappers over :mod:`scipy.special` / :mod:`scipy.stats` that
keep full accuracy where the obvious scipy call does not:

* the upper F point comes from the inverse *complemented* regularised beta
  function, which stays accurate for p far below 1e-6 and for 10^11 degrees of
  freedom (``scipy.stats.f.isf`` loses digits below p ≈ 1e-6);
* the lower tail of the noncentral t, for which scipy 1.17's ``nct.cdf`` returns
  NaN for some arguments (e.g. df = 1199, nc = 5.58, t = -3.30), comes from the
  survival function by reflection, Pr{t'(φ, λ) ≤ -w} = Pr{t'(φ, -λ) ≥ w}
  (see FORMULAS §4 of the project's reference notes).
"""

from __future__ import annotations

import numpy as np
from scipy import special, stats

__all__ = ["f_crit", "t_crit", "z_upper", "f_power", "t_power"]


def z_upper(p):
    """Upper ``p`` point of N(0, 1): z_P with Pr{Z ≥ z_P} = P.

    >>> round(float(z_upper(0.025)), 4)
    1.96
    """
    return -special.ndtri(np.asarray(p, float))


def f_crit(alpha, dfn, dfd):
    """Upper ``alpha`` point F(φ1, φ2; α) of the F distribution.

    Computed as F = (φ2/φ1)·y/(1 - y) with y = I⁻¹_c(φ1/2, φ2/2; α), the inverse of
    the complemented regularised incomplete beta function.

    >>> round(float(f_crit(0.05, 2, 57)), 6)   # FINV(0.05, 2, 57) in Excel
    3.158843
    """
    alpha, dfn, dfd = np.broadcast_arrays(*(np.asarray(x, float) for x in (alpha, dfn, dfd)))
    y = special.betainccinv(dfn / 2.0, dfd / 2.0, alpha)
    return dfd / dfn * y / (1.0 - y)


def t_crit(alpha, df):
    """Two-sided critical t(φ; α): Pr{|t| ≥ t(φ; α)} = α.

    >>> round(float(t_crit(0.05, 10)), 6)      # TINV(0.05, 10) in Excel
    2.228139
    """
    # -t_{α/2} rather than t_{1-α/2}: 1 - α/2 rounds away the digits of a tiny α
    return -special.stdtrit(np.asarray(df, float), np.asarray(alpha, float) / 2.0)


def f_power(alpha, dfn, dfd, nc):
    """Exact power of the F test: Pr{F'(φ1, φ2, λ) ≥ F(φ1, φ2; α)}.

    Uses ``scipy.stats.ncf.sf`` (Boost's noncentral beta), and the central F
    where λ = 0: scipy 1.17 returns ``ncf.sf(2, 2, 27, 0) = -0.845``.

    >>> round(float(f_power(0.05, 2, 57, 10.0)), 4)
    0.7933
    >>> float(f_power(0.05, 2, 27, 0.0))   # no effect: the power is the level
    0.05
    """
    alpha, dfn, dfd, nc = np.broadcast_arrays(*(np.asarray(x, float)
                                                for x in (alpha, dfn, dfd, nc)))
    w = f_crit(alpha, dfn, dfd)
    return np.where(nc > 0, stats.ncf.sf(w, dfn, dfd, nc), stats.f.sf(w, dfn, dfd))


def t_power(alpha, df, nc):
    """Exact power of the two-sided t test: Pr{t' ≥ w} + Pr{t' ≤ -w}, w = t(φ; α).

    Both tails come from ``scipy.stats.nct.sf``, the lower one by reflection,
    Pr{t'(φ, λ) ≤ -w} = Pr{t'(φ, -λ) ≥ w}: ``nct.cdf`` returns NaN there for
    some arguments in scipy 1.17 (e.g. φ = 1199, λ = 5.58, w = 3.30).

    >>> round(float(t_power(0.05, 33, 0.5 * 34 ** 0.5)), 4)
    0.8078
    """
    alpha, df, nc = np.broadcast_arrays(*(np.asarray(x, float) for x in (alpha, df, nc)))
    nc = np.abs(nc)                      # the two-sided power is even in λ
    w = t_crit(alpha, df)
    # Both tails in one call to the noncentral t survival function (Boost's, robust where
    # nct.cdf / special.nctdtr return NaN), the lower one by reflection:
    # Pr{t'(φ, λ) ≤ -w} = Pr{t'(φ, -λ) ≥ w}.
    tails = stats.nct.sf(np.concatenate([w.ravel(), w.ravel()]),
                         np.concatenate([df.ravel(), df.ravel()]),
                         np.concatenate([nc.ravel(), -nc.ravel()])).reshape((2,) + df.shape)
    upper, lower = tails[0], tails[1]
    bad = ~np.isfinite(lower)
    if bad.any():  # pragma: no cover - not seen on scipy 1.15-1.17
        # The lower tail is at most min(α/2, Φ(-λ)): drop it only where that cannot matter.
        bound = np.minimum(alpha / 2.0, special.ndtr(-nc))
        lower = np.where(bad & (bound <= 1e-17 * np.maximum(upper, 1e-300)), 0.0, lower)
    if not (np.isfinite(upper).all() and np.isfinite(lower).all()):  # pragma: no cover
        raise FloatingPointError("the noncentral t power could not be computed")
    return upper + lower
