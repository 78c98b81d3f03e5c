"""Critical values and exact power from the central and noncentral t and F.

Thin, vectorised wrappers over :mod:`scipy.special` / :mod:`scipy.stats` that keep full accuracy
where the obvious scipy call does not:

* the upper F point comes from the inverse regularised beta functions of both tails, which stay
  accurate for p far below 1e-6 and for few denominator degrees of freedom
  (``scipy.stats.f.isf`` loses digits below p ≈ 1e-6); from φ2 = 10⁵ on, where that inverse is
  off by up to ~1e-8, one Newton step on the upper tail corrects it;
* from φ2 = 10⁶ on, where Boost's noncentral F is off by up to ~1e-9, the power sums the
  Poisson mixture of beta tails itself (issue 29; ``docs/formulas.md`` §4, numerical precision);
* the two-sided noncentral t power is one noncentral F tail, Pr{|t'(φ, λ)| ≥ w} =
  Pr{F'(1, φ, λ²) ≥ w²} (exact; ``docs/formulas.md`` §5): five times faster than two noncentral
  t tails, and free of scipy 1.17's NaN in ``nct.cdf`` (e.g. df = 1199, nc = 5.58, t = -3.30);
* a certificate at n − 1 and n needs one critical value (:func:`f_power_pair`): the tail at
  n − 1 at n's critical value bounds its power (issue 28).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from .search_one import Uncertain
from .tails import SERIES_DFN_MAX, SERIES_FROM, SERIES_NC_MAX, ncf_sf_series, t_upper_quadrature

try:  # Boost's survival function, the one scipy.stats.ncf.sf calls: importing it from
    # scipy.special costs no scipy.stats import (about 1 s of start-up on a slow machine)
    from scipy.special._ufuncs import _ncf_sf
except ImportError:  # pragma: no cover - a scipy that keeps it elsewhere
    def _ncf_sf(x, dfn, dfd, nc):
        from scipy import stats

        return stats.ncf.sf(x, dfn, dfd, nc)

#: Boost's noncentral F survival function Pr{F'(dfn, dfd, nc) > x}, a ufunc (no checks).
ncf_sf = _ncf_sf

__all__ = ["ncf_sf", "PRECISE_FROM", "f_crit", "t_crit", "z_upper", "f_power", "t_power",
           "chi2_lambda_one", "f_crit_one", "f_power_one", "t_power_one", "f_power_pair",
           "f_power_rows", "t_power_pair", "newton_f_point"]


def _float_arrays(*values):
    """The arguments as float arrays broadcast together (as they are, when they already have
    one shape: the searches' per-cell arrays, where broadcasting would only cost time)."""
    arrays = [np.asarray(x, float) for x in values]
    shape = arrays[0].shape
    if all(x.shape == shape for x in arrays):
        return arrays
    return np.broadcast_arrays(*arrays)


def z_upper(p):
    """Upper ``p`` point of N(0, 1): z_P with Pr{Z ≥ z_P} = P.

    Parameters
    ----------
    p : float or array_like
        Upper-tail probability in (0, 1).

    Returns
    -------
    float or ndarray
        z_P (Sakai, IRJ 2016, Section 2; ``docs/formulas.md``, notation).

    Examples
    --------
    >>> round(float(z_upper(0.025)), 4)
    1.96
    """
    return -special.ndtri(np.asarray(p, float))


def f_crit(alpha, dfn, dfd, *, precise: bool = True):
    """Upper ``alpha`` point F(φ1, φ2; α) of the F distribution.

    Computed as F = (φ2/φ1)·y/(1 − y) with y = I⁻¹_c(φ1/2, φ2/2; α), the inverse of
    the complemented regularised incomplete beta function; where y > 1/2, 1 − y is
    taken from the inverse of the other tail so that nothing cancels. This is
    w = F(φA, φE; α) of the ANOVA design (Sakai, IRJ 2016, Section 5).

    Parameters
    ----------
    alpha : float or array_like
        Upper-tail probability in (0, 1).
    dfn, dfd : float or array_like
        Numerator and denominator degrees of freedom (> 0).
    precise : bool
        False skips the Newton step below (Boost's inverse as it is: what the searches use to
        narrow n, before the certifying powers are computed with it).

    Returns
    -------
    ndarray
        The critical values.

    Notes
    -----
    The inverse (Boost's, as ``scipy.special.fdtri`` and ``scipy.stats.f.isf``) is off by up
    to ~1e-8 relative, sporadically, from φ2 ≈ 10⁶ on. From φ2 = 10⁵ on (``_REFINE_FROM``)
    one Newton step on the upper tail corrects it: x ← x + (S(x) − α)/f(x), with
    S(x) = 1 − I_y(φ1/2, φ2/2) at y = φ1x/(φ1x + φ2) (``scipy.special.betaincc``; not
    ``fdtrc``, which forms 1 − y and is off by up to 3e-8 there) and f the F density in log
    space. Measured against 40-digit mpmath quantiles (the 510 points of
    ``tests/data/f_point_reference.csv`` and 1,000 random ones, α from 1e-7 to .5, φ1 from 1 to
    1000): within 2e-13 relative below φ2 = 10⁷ (largest 1.4e-13), and within 1e-11 up to
    φ2 = 10¹² (largest 8.2e-12; the error left is that of Boost's incomplete beta itself at such
    φ2, not of the step). ``precise=False`` skips the step (Boost's inverse: off by up to 6e-9
    on the same points). ``docs/formulas.md`` §4, numerical precision.

    Examples
    --------
    >>> round(float(f_crit(0.05, 2, 57)), 6)   # FINV(0.05, 2, 57) in Excel
    3.158843
    """
    return _f_point(*_float_arrays(alpha, dfn, dfd), precise)


def _f_point(alpha, dfn, dfd, precise):
    """:func:`f_crit` of float arrays of one shape."""
    y = special.betainccinv(dfn / 2.0, dfd / 2.0, alpha)
    # Where y is near 1 (tiny α, few denominator df), 1 - y cancels: z from the other inverse
    z = 1.0 - y if np.ndim(y) else np.array(1.0 - y, dtype=float)   # an array for a scalar
    near_one = y > 0.5
    if near_one.any():
        z[near_one] = special.betaincinv(dfd[near_one] / 2.0, dfn[near_one] / 2.0,
                                         alpha[near_one])
        y = np.where(near_one, 1.0 - z, y)
    x = dfd / dfn * y / z
    if precise and (dfd >= _REFINE_FROM).any():
        x = np.array(x, dtype=float)
        refine = (dfd >= _REFINE_FROM) & (y <= 0.5) & (x > 0) & np.isfinite(x)
        x[refine] = newton_f_point(x[refine], alpha[refine], dfn[refine], dfd[refine])
        x = x[()]                               # a numpy scalar for scalar input, as before
    return x


def t_crit(alpha, df):
    """Two-sided critical t(φ; α): Pr{|t| ≥ t(φ; α)} = α.

    The w = t(φ; α) of the paired t-test (Sakai, IRJ 2016, Section 3), as −t_{α/2} (a tiny α
    keeps all its digits).

    Parameters
    ----------
    alpha : float or array_like
        Two-sided significance level in (0, 1).
    df : float or array_like
        Degrees of freedom φ (> 0).

    Returns
    -------
    ndarray

    Examples
    --------
    >>> round(float(t_crit(0.05, 10)), 6)      # TINV(0.05, 10) in Excel
    2.228139
    """
    # -t_{α/2} rather than t_{1-α/2}: 1 - α/2 rounds away the digits of a tiny α
    return -special.stdtrit(np.asarray(df, float), np.asarray(alpha, float) / 2.0)


def f_power(alpha, dfn, dfd, nc, *, precise: bool = True):
    """Exact power of the F test: Pr{F'(φ1, φ2, λ) ≥ F(φ1, φ2; α)}.

    The exact ANOVA power of Sakai (IRJ 2016, Section 5) with φ1 = φA, φ2 = φE.

    Parameters
    ----------
    alpha : float or array_like
        Significance level in (0, 1).
    dfn, dfd : float or array_like
        Numerator and denominator degrees of freedom.
    nc : float or array_like
        Noncentrality λ ≥ 0.
    precise : bool
        False: Boost's inverse and noncentral F as they are (``f_crit(precise=False)``, no
        series): faster, the same below φ2 = 10⁵, within 4.1e-8 of the precise power above
        (measured; ``topicsetsize.numerics.precision.FAST_POWER_ERROR``).

    Returns
    -------
    ndarray

    Uses Boost's noncentral beta (what ``scipy.stats.ncf.sf`` calls), and the central F
    where λ = 0: scipy 1.17 returns ``ncf.sf(2, 2, 27, 0) = -0.845``. From φ2 = 10⁶ on
    (``SERIES_FROM``), where Boost's is off by up to ~1e-9, the tail is summed as its Poisson
    mixture of beta tails instead (:func:`~.tails.ncf_sf_series`); with the F point of
    :func:`f_crit`, the power is then within 3e-11 of a 40-digit evaluation up to φ2 = 10¹²
    (``docs/formulas.md`` §4, numerical precision).

    >>> round(float(f_power(0.05, 2, 57, 10.0)), 4)
    0.7933
    >>> round(float(f_power(0.05, 2, 27, 0.0)), 12)   # no effect: the power is the level
    0.05
    >>> float(f_power(0.05, 9, 10, 1e25))  # Boost's NaN at a huge effect becomes 1
    1.0
    """
    alpha, dfn, dfd, nc = _float_arrays(alpha, dfn, dfd, nc)
    return _f_tail(_f_point(alpha, dfn, dfd, precise), dfn, dfd, nc, precise)


def f_power_pair(alpha, dfn, dfd, nc, dfd_below, nc_below, *, precise: bool = True):
    """The F power at (φ2, λ) and an upper bound of it at (φ2' ≤ φ2, λ'), with one F point.

    The F point w = F(φ1, φ2; α) falls as φ2 grows and Pr{F'(φ1, φ2', λ') ≥ w} falls as w
    grows, so the tail at w(φ2) bounds the power at φ2', Pr{F' ≥ w(φ2')}, from above: where
    even the bound is below 1 − β, the smaller design fails without its own F point (a
    search's certificate at n − 1 and n, issue 28).

    Returns the tuple (the power at (φ2, λ), as :func:`f_power`; the bound at (φ2', λ')).

    >>> at, bound = f_power_pair(0.05, 2, 57, 10.0, 54, 9.5)
    >>> bool(at == f_power(0.05, 2, 57, 10.0)), bool(f_power(0.05, 2, 54, 9.5) <= bound < 0.8)
    (True, True)
    """
    alpha, dfn, dfd, nc, below, nc_below = _float_arrays(alpha, dfn, dfd, nc, dfd_below, nc_below)
    return tuple(f_power_rows(alpha, dfn, np.stack([dfd, below]), np.stack([nc, nc_below]),
                              precise=precise))


def f_power_rows(alpha, dfn, dfd, nc, *, precise: bool = False):
    """The F tails at the F point of ``dfd[0]``, for each row of ``dfd`` and ``nc``: the pair
    of :func:`f_power_pair` (rows n and n − 1) without its copies, as a search calls it with
    float arrays of one shape (``alpha``, ``dfn``) and rows of it (``dfd``, ``nc``).

    >>> at, bound = f_power_rows(np.array([.05]), np.array([2.]), np.array([[57.], [54.]]),
    ...                          np.array([[10.], [9.5]]))
    >>> bool(at[0] == f_power(0.05, 2, 57, 10.0)), bool(f_power(0.05, 2, 54, 9.5) <= bound[0])
    (True, True)
    """
    w = _f_point(alpha, dfn, dfd[0], precise)
    if precise:          # the series picks cells out of arrays of one shape
        w, dfn = np.broadcast_to(w, dfd.shape), np.broadcast_to(dfn, dfd.shape)
    return _f_tail(w, dfn, dfd, nc, precise)


def _f_tail(w, dfn, dfd, nc, precise):
    """Pr{F'(φ1, φ2, λ) ≥ w} for arrays: :func:`f_power` from its F point on."""
    with np.errstate(invalid="ignore"):
        power = _ncf_sf(w, dfn, dfd, nc)
        series = (dfd >= SERIES_FROM) if precise else None
        if series is not None and series.any():
            series = series & (nc > 0) & (nc <= SERIES_NC_MAX) & (dfn * w < dfd) \
                & (dfn <= SERIES_DFN_MAX)
        if series is not None and series.any():
            summed = ncf_sf_series(w[series], dfn[series], dfd[series], nc[series])
            power = np.array(power, dtype=float)
            power[series] = np.where(np.isnan(summed), power[series], summed)
        positive = nc > 0
        if not positive.all():  # the central F only where λ = 0 (a search never asks for it)
            power = np.where(~positive, special.fdtrc(dfn, dfd, w), power)
    nan = np.isnan(power)
    huge = nan & (nc > _HUGE_NC) if nan.any() else None
    if huge is not None and huge.any():
        power = np.where(huge, _beyond_boost(w, dfn, dfd), power)
    return power


def _beyond_boost(w, dfn, dfd):
    """The F power where Boost's is NaN (λ beyond ~1e19): 1 where the power at λ = 1e15 is 1
    (it rises with λ); else NaN, at an α so small that the F point is huge (α = 1e-100,
    φ = (9, 10): 2.7e20, where the power at λ = 1e12, 1.3e-46, once stood for it)."""
    at = _ncf_sf(w, dfn, dfd, _HUGE_NC)
    return np.where(at >= 1.0, 1.0, np.nan)


def t_power(alpha, df, nc):
    """Exact power of the two-sided t test: Pr{t' ≥ w} + Pr{t' ≤ -w}, w = t(φ; α).

    The exact paired t-test power of Sakai (IRJ 2016, Eq. 3), with t' ~ t'(φ, λ), computed as
    one noncentral F tail by the exact identity t'(φ, λ)² ~ F'(1, φ, λ²):
    Pr{|t'| ≥ w} = Pr{F'(1, φ, λ²) ≥ w²} (Boost's noncentral F, what ``scipy.stats.ncf.sf``
    calls; ``docs/formulas.md`` §5). It agrees with the sum of Boost's two noncentral t tails
    (the method up to issue 28, five times slower) within 2.4e-13 over 200,000 random points
    (α from 1e-7 to .5, φ from 1 to 10⁹, λ from .01 to 999), and with 40-digit mpmath sums
    within 1e-15 (relative 3e-15 on tails down to 1e-7). From λ = 1000 on, the upper tail is
    integrated instead (Gauss–Hermite over Z, Pr{χ²_φ ≤ φ(Z + λ)²/w²}) and the lower tail,
    at most Φ(−λ), is zero; at λ = 0 the power is the central F tail, the level.

    Parameters
    ----------
    alpha : float or array_like
        Two-sided significance level in (0, 1).
    df : float or array_like
        Degrees of freedom φ = n − 1.
    nc : float or array_like
        Noncentrality λ = √n·minΔt (its sign does not matter).

    Returns
    -------
    ndarray

    >>> round(float(t_power(0.05, 33, 0.5 * 34 ** 0.5)), 4)
    0.8078
    """
    alpha, df, nc = _float_arrays(alpha, df, nc)
    return _t_tail(t_crit(alpha, df), df, np.abs(nc))   # the two-sided power is even in λ


def t_power_pair(alpha, df, nc, df_below, nc_below):
    """The t power at (φ, λ) and an upper bound of it at (φ' ≤ φ, λ'), with one critical t.

    As :func:`f_power_pair`: t(φ; α) falls as φ grows, so the two-sided tail at t(φ; α) bounds
    the power at φ' from above.

    Returns the tuple (the power at (φ, λ), as :func:`t_power`; the bound at (φ', λ')).

    >>> at, bound = t_power_pair(0.05, 33, 2.9, 32, 2.85)
    >>> bool(at == t_power(0.05, 33, 2.9)), bool(t_power(0.05, 32, 2.85) <= bound)
    (True, True)
    """
    alpha, df, nc, df_below, nc_below = _float_arrays(alpha, df, nc, df_below, nc_below)
    w = t_crit(alpha, df)
    both = _t_tail(np.concatenate([w.ravel(), w.ravel()]),
                   np.concatenate([df.ravel(), df_below.ravel()]),
                   np.abs(np.concatenate([nc.ravel(), nc_below.ravel()])))
    return both[:w.size].reshape(w.shape), both[w.size:].reshape(w.shape)


def _t_tail(w, df, nc):
    """Pr{|t'(φ, λ)| ≥ w} for arrays with λ ≥ 0: :func:`t_power` from its critical value on."""
    large = nc >= _LARGE_NC
    if not large.any():                 # the usual case: no cell to pick out
        return _t_tail_f(w, df, nc)
    power = np.empty(np.shape(nc))
    power[large] = t_upper_quadrature(w[large], df[large], nc[large])
    small = ~large
    if small.any():
        power[small] = _t_tail_f(w[small], df[small], nc[small])
    return power


def _t_tail_f(w, df, nc):
    """:func:`_t_tail` below λ = 1000: one noncentral F tail, Pr{F'(1, φ, λ²) ≥ w²}."""
    w2, lam = np.square(w), nc * nc
    with np.errstate(invalid="ignore"):
        tail = _ncf_sf(w2, 1.0, df, lam)
    positive = lam > 0    # Boost's F' is wrong at λ² = 0 (f_power), which λ < 1e-162 gives
    if not positive.all():
        tail = np.where(~positive, special.fdtrc(1.0, df, w2), tail)
    if not np.isfinite(tail).all():  # a critical t² that overflows (α = 1e-200 at φ = 1):
        tail = np.where(np.isinf(w2) & np.isnan(tail), 0.0, tail)   # Pr{F' ≥ ∞} = 0, not NaN
        if not np.isfinite(tail).all():  # pragma: no cover - not seen on scipy 1.15-1.17
            raise FloatingPointError("the noncentral t power could not be computed for df="
                                     f"{np.asarray(df).flat[0]:g}, nc={np.asarray(nc).flat[0]:g}")
    # finite: the same as np.clip(tail, 0, 1), at half its cost
    return np.asarray(np.minimum(np.maximum(tail, 0.0), 1.0), float)


def chi2_lambda_one(alpha: float, beta: float, dfn: float) -> float:
    """λ with Pr{χ'²(φ, λ) ≥ χ²(φ; α)} = 1 − β, the φE → ∞ limit of an F design's λ.

    One cell (scipy.special.chndtrinc); 1.0 where scipy cannot invert. Only a starting point
    of the one-cell searches.

    >>> round(chi2_lambda_one(0.05, 0.2, 2.0), 3)
    9.635
    """
    lam = float(special.chndtrinc(float(special.chdtri(dfn, alpha)), dfn, beta))
    return lam if math.isfinite(lam) else 1.0


def f_crit_one(alpha: float, dfn: float, dfd: float, points: dict | None = None) -> float:
    """:func:`f_crit` with ``precise=False`` of one cell: the same scipy.special calls and
    operations on floats (the one-cell searches); ``points`` (a dict of the call) keeps it by φ2
    where y ≤ 1/2, for the precise F point to start from (:func:`~.cell.f_crit_point`).

    >>> f_crit_one(0.05, 2.0, 5.7e7) == float(f_crit(0.05, 2, 5.7e7, precise=False))
    True
    """
    y = float(special.betainccinv(dfn / 2.0, dfd / 2.0, alpha))
    if y > 0.5:
        z = float(special.betaincinv(dfd / 2.0, dfn / 2.0, alpha))
        return dfd / dfn * (1.0 - z) / z
    x = dfd / dfn * y / (1.0 - y)
    if points is not None:
        points[dfd] = x
    return x


#: Denominator degrees of freedom from which :func:`f_crit` refines Boost's inverse by a Newton
#: step (below, the inverse is within 1e-13 and the step, whose tail is no more accurate, would
#: only add noise): below it, ``precise=True`` and ``precise=False`` give the same bits.
PRECISE_FROM = 1e5
_REFINE_FROM = PRECISE_FROM


def newton_f_point(x, alpha, dfn, dfd):
    """One Newton step towards Pr{F(φ1, φ2) ≥ x} = α, for arrays.

    The tail is S(x) = 1 − I_y(φ1/2, φ2/2) (``betaincc``), y = φ1x/(φ1x + φ2) formed without
    cancellation, and the density f(x) = y^(φ1/2) (1 − y)^(φ2/2) / (x B(φ1/2, φ2/2)), in logs
    (log1p for 1 − y): x + (S(x) − α)/f(x). Only for y ≤ 1/2 (so 1 − y loses nothing).
    """
    a, b = dfn / 2.0, dfd / 2.0
    t = dfn * x
    y = t / (t + dfd)
    log_f = (special.xlogy(a, y) + special.xlog1py(b, -y) - special.xlogy(1.0, x)
             - special.betaln(a, b))
    with np.errstate(all="ignore"):
        new = x + (special.betaincc(a, b, y) - alpha) / np.exp(log_f)
    return np.where(np.isfinite(new) & (new > 0), new, x)     # a failed step keeps Boost's x


def f_power_one(alpha: float, dfn: float, dfd: float, nc: float, points=None) -> float:
    """:func:`f_power` with ``precise=False`` of one cell with λ > 0, on floats (the one-cell
    searches' power); ``points`` as in :func:`f_crit_one`.

    Raises :class:`~topicsetsize.numerics.search_one.Uncertain` where λ is not positive.

    >>> f_power_one(0.05, 2.0, 5.7e7, 10.0) == float(f_power(0.05, 2, 5.7e7, 10.0, precise=False))
    True
    """
    if not nc > 0:
        raise Uncertain("the central F")
    w = f_crit_one(alpha, dfn, dfd, points)
    power = float(_ncf_sf(w, dfn, dfd, nc))
    return float(_beyond_boost(w, dfn, dfd)) if math.isnan(power) and nc > _HUGE_NC else power


def t_power_one(alpha: float, df: float, nc: float) -> float:
    """:func:`t_power` of one cell with 0 < |λ| < 1000 (the noncentral F tail), on floats.

    Raises :class:`~topicsetsize.numerics.search_one.Uncertain` at λ = 0, from |λ| = 1000 on
    (:func:`t_power`'s central F, its integral) or where Boost's result is not finite.

    >>> t_power_one(0.05, 33.0, 0.5 * 34 ** 0.5) == float(t_power(0.05, 33, 0.5 * 34 ** 0.5))
    True
    """
    nc = abs(nc)
    if not (nc * nc > 0 and nc < _LARGE_NC):       # λ² underflows to 0 below λ = 1e-162
        raise Uncertain("a zero or large noncentrality")
    w = float(-special.stdtrit(df, alpha / 2.0))
    power = float(_ncf_sf(w * w, 1.0, df, nc * nc))
    if not math.isfinite(power):
        raise Uncertain("Boost's noncentral F")
    return min(max(power, 0.0), 1.0)


#: Noncentralities from which :func:`t_power` integrates (Boost's nct drifts, 1e-8 at λ = 1e4;
#: the noncentral F tail, kept below, is within 4e-13 of the integral up to λ = 1e5, measured).
_LARGE_NC = 1000.0
#: Noncentrality whose F power of 1 stands in for Boost's NaN at larger ones (_beyond_boost).
_HUGE_NC = 1e15
