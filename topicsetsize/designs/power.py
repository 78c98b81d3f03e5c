"""Statistical power of the one-way ANOVA and of the paired t-test designs.

Two methods, chosen with ``method=``:

``"legacy"``
    The normal approximations of Sakai's Excel tools (samplesizeANOVA,
    samplesizeTTEST), reproduced number for number, quirks included.
``"exact"``
    The noncentral F and t distributions (scipy).

All functions broadcast their arguments with numpy: a scalar call returns a
Python ``float``, an array call an ``ndarray``.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from scipy import special

from ..numerics.distributions import (f_crit, f_crit_one, f_power, f_power_one, t_crit, t_power,
                                      t_power_one)
from ..numerics.search import Uncertain
from ..params import check_all, check_method
from ..numerics.shapes import as_output
from ..errors import InputError

__all__ = ["anova_power", "ttest_power", "anova_legacy_terms", "AnovaLegacyTerms", "t_effect"]


class AnovaLegacyTerms(NamedTuple):
    """Intermediate values of Nagata's approximation for the ANOVA power (legacy).

    Fields follow Sakai (IRJ 2016), Section 5 / the samplesizeANOVA sheet:
    λ (``lam``), w = F(φA, φE; α), cA, φA*, a = w·φA/φE, u and the power 1 − Φ(u)
    (NaN where cA − a ≤ 0 and the approximation is undefined).
    """

    lam: float
    w: float
    c_a: float
    phi_a_star: float
    a: float
    u: float
    power: float


def anova_effect(min_d, variance):
    """Δ = minD² / (2σ²), the worst-case noncentrality per topic (CIKM 2014, Eq. 7).

    Where minD² or 2σ² would overflow (or underflow) it is computed as (minD/σ)²/2, so that
    Δ is right whenever it is representable.

    >>> anova_effect(0.1, 0.005)
    1.0
    >>> float(anova_effect(1e200, 1e200))        # minD² overflows; (minD/σ)²/2 = 5e199
    5e+199
    """
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        direct = min_d * min_d / (2.0 * variance)
        ok = np.isfinite(direct) & (direct > 0)
        if np.all(ok):
            return direct
        scaled = np.square(min_d / np.sqrt(variance)) / 2.0
    out = np.where(ok, direct, scaled)
    return out if np.ndim(out) else out[()]


def t_effect(min_d, variance, *, names=("min_dt", "variance_t")):
    """minD/σ, the standardised difference of a t-test design, checked to be usable.

    The effect size minΔt = minDt/σt of the paired t-test (Sakai, IRJ 2016, Section 3), and
    Cohen's d = minD/σ of the two-sample test (Cohen 1988, Chapter 2). The arguments are
    valid on their own; their ratio can still overflow or underflow.

    Parameters
    ----------
    min_d, variance : ndarray
        Validated difference (> 0) and variance (> 0).
    names : tuple of str
        The two arguments' names, for the error message.

    Returns
    -------
    ndarray

    Raises
    ------
    ValueError
        One line where the ratio is not a positive finite number.

    Examples
    --------
    >>> float(t_effect(np.array(0.1), np.array(0.04)))
    0.5
    >>> t_effect(np.array(1e-300), np.array(1e300), names=("min_d", "variance"))
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: min_d/sqrt(variance)=0 is out of range: allowed a positive, finite
    effect size
    (min_d and variance are too far apart in scale)
    """
    with np.errstate(all="ignore"):
        effect = min_d / np.sqrt(variance)
    bad = ~(np.isfinite(effect) & (effect > 0))
    if bad.any():
        d, v = names
        raise InputError(f"{d}/sqrt({v})={effect[bad].flat[0]:g} is out of range: "
                         "allowed a positive, finite effect size "
                         f"({d} and {v} are too far apart in scale)")
    return effect


def _anova_legacy(n, m, effect, alpha) -> AnovaLegacyTerms:
    phi_a = m - 1.0
    phi_e = m * (n - 1.0)
    lam = n * effect
    w = f_crit(alpha, phi_a, phi_e)
    with np.errstate(over="ignore", invalid="ignore"):
        c_a = (phi_a + 2.0 * lam) / (phi_a + lam)
        phi_a_star = (phi_a + lam) * ((phi_a + lam) / (phi_a + 2.0 * lam))
    huge = lam > np.finfo(float).max / 2.0
    if np.any(huge):
        # 2λ overflows (λ = nΔ with Δ = inf once minD²/(2σ²) is beyond the float range): the
        # limits cA → 2 and φA* → ∞, so that u → −∞ and the power is 1 where it is defined.
        c_a = np.where(huge, 2.0, c_a)
        phi_a_star = np.where(huge, np.inf, phi_a_star)
    a = w * phi_a / phi_e
    with np.errstate(invalid="ignore", divide="ignore"):
        # The legacy sheet divides by sqrt(cA - a) (a MINUS; the textbook has cA + a): with it,
        # every published table reproduces cell for cell. Undefined where cA - a <= 0.
        u = (np.sqrt(a * (2.0 * phi_e - 1.0)) - np.sqrt(c_a * (2.0 * phi_a_star - 1.0))) \
            / np.sqrt(c_a - a)
        power = np.where(c_a - a > 0, special.ndtr(-u), np.nan)
    return AnovaLegacyTerms(lam, w, c_a, phi_a_star, a, u, power)


def anova_power_at(n, m, effect, alpha, method: str):
    """Vectorised ANOVA power for validated arrays; ``effect`` = Δ = minD²/(2σ²)."""
    if method == "legacy":
        return _anova_legacy(n, m, effect, alpha).power
    return f_power(alpha, m - 1.0, m * (n - 1.0), n * effect)


def anova_power_one(n: float, m: int, effect: float, alpha: float, method: str) -> float:
    """:func:`anova_power_at` of one cell: the same operations on floats (one-cell searches).

    Raises :class:`~topicsetsize.numerics.search.Uncertain` where 2λ overflows (the vectorised
    function takes a limit there).

    >>> one = anova_power_one(19.0, 3, 0.5, 0.05, "legacy")
    >>> one == float(anova_power_at(19.0, 3, 0.5, 0.05, "legacy")), round(one, 3)
    (True, 0.791)
    """
    phi_a = m - 1.0
    phi_e = m * (n - 1.0)
    lam = n * effect
    if method == "exact":
        return f_power_one(alpha, phi_a, phi_e, lam)
    if not lam <= _HALF_MAX:
        raise Uncertain("2 lambda overflows")
    w = f_crit_one(alpha, phi_a, phi_e)
    c_a = (phi_a + 2.0 * lam) / (phi_a + lam)
    phi_a_star = (phi_a + lam) * ((phi_a + lam) / (phi_a + 2.0 * lam))
    a = w * phi_a / phi_e
    if not c_a - a > 0:
        return math.nan
    u = (math.sqrt(a * (2.0 * phi_e - 1.0)) - math.sqrt(c_a * (2.0 * phi_a_star - 1.0))) \
        / math.sqrt(c_a - a)
    return float(special.ndtr(-u))


_HALF_MAX = np.finfo(float).max / 2.0


def ttest_power_one(n: float, effect: float, alpha: float, method: str) -> float:
    """:func:`ttest_power_at` of one cell on floats (the legacy formula is the same code).

    >>> ttest_power_one(34.0, 0.5, 0.05, "exact") == float(ttest_power_at(34.0, 0.5, 0.05, "exact"))
    True
    """
    if method == "exact":
        return t_power_one(alpha, n - 1.0, math.sqrt(n) * effect)
    return float(ttest_power_at(n, effect, alpha, method))


def ttest_power_at(n, effect, alpha, method: str):
    """Vectorised paired t-test power for validated arrays; ``effect`` = minΔt = minDt/σt."""
    phi = n - 1.0
    lam = np.sqrt(n) * effect
    if method == "exact":
        return t_power(alpha, phi, lam)
    w = t_crit(alpha, phi)
    corrected = w * (1.0 - 1.0 / (4.0 * phi))
    scale = np.sqrt(1.0 + w * w / (2.0 * phi))
    return special.ndtr((-corrected - lam) / scale) + special.ndtr((lam - corrected) / scale)


def anova_power(n, *, m, min_d, variance, alpha, method="legacy"):
    """Power of the one-way ANOVA F test with m systems and n topics.

    The worst case for a minimum detectable range minD (CIKM 2014): two systems
    are minD apart and the others sit at the grand mean, so the noncentrality is
    λ = nΔ with Δ = minD²/(2σ²); φA = m − 1, φE = m(n − 1) and
    w = F(φA, φE; α).

    * ``method="exact"``: power = Pr{F'(φA, φE, λ) ≥ w} (noncentral F).
    * ``method="legacy"``: Nagata's normal approximation as the samplesizeANOVA
      sheet computes it (Sakai, IRJ 2016, Eq. 11 with the sheet's sign):
      cA = (φA + 2λ)/(φA + λ), φA* = (φA + λ)²/(φA + 2λ), a = wφA/φE,
      u = (√(a(2φE − 1)) − √(cA(2φA* − 1)))/√(cA − a), power = 1 − Φ(u).
      It is undefined where cA − a ≤ 0 (tiny n; the sheet shows #NUM!), and
      NaN is returned there.

    Parameters
    ----------
    n : int or array_like
        Number of topics (≥ 2).
    m : int or array_like
        Number of systems (≥ 2).
    min_d : float or array_like
        Minimum detectable range between the best and the worst system (> 0).
    variance : float or array_like
        Within-system variance σ̂² (V_E of a past score matrix, > 0).
    alpha : float or array_like
        Significance level, 0 < α < 1.
    method : {"legacy", "exact"}

    Returns
    -------
    float or ndarray

    References
    ----------
    T. Sakai, "Topic set size design", Information Retrieval Journal 19(3), 2016.
    T. Sakai, "Designing test collections for comparing many systems", CIKM 2014.
    T. Nagata, *How to design the sample size* (in Japanese), Asakura, 2003.

    Examples
    --------
    The CIKM 2014 worked example (α = .05, m = 3, minΔ = .5): the legacy power
    is .791 at n = 19 and .813 at n = 20.

    >>> [round(anova_power(n, m=3, min_d=0.5, variance=0.25, alpha=0.05), 3) for n in (19, 20)]
    [0.791, 0.813]
    >>> round(anova_power(20, m=3, min_d=0.5, variance=0.25, alpha=0.05, method="exact"), 3)
    0.793
    """
    method = check_method(method)
    n_, m_, d_, v_, a_ = check_all(n=n, m=m, min_d=min_d, variance=variance, alpha=alpha)
    power = anova_power_at(n_, m_, anova_effect(d_, v_), a_, method)
    return as_output(power, n, m, min_d, variance, alpha)


def anova_legacy_terms(n, *, m, min_d, variance, alpha) -> AnovaLegacyTerms:
    """The intermediate values of the legacy ANOVA power (see :func:`anova_power`).

    Parameters
    ----------
    n, m : int or array_like
        Topics (≥ 2) and systems (≥ 2).
    min_d, variance : float or array_like
        Minimum detectable range and within-system variance (both > 0).
    alpha : float or array_like
        Significance level in (0, 1).

    Returns
    -------
    AnovaLegacyTerms
        ``lam, w, c_a, phi_a_star, a, u, power``.

    Examples
    --------
    CIKM 2014 worked example, n = 19: cA = 1.826, φA* = 6.298, u = −.809.

    >>> t = anova_legacy_terms(19, m=3, min_d=0.5, variance=0.25, alpha=0.05)
    >>> round(t.c_a, 3), round(t.phi_a_star, 3), round(t.u, 3), round(t.power, 3)
    (1.826, 6.298, -0.809, 0.791)
    """
    n_, m_, d_, v_, a_ = check_all(n=n, m=m, min_d=min_d, variance=variance, alpha=alpha)
    terms = _anova_legacy(n_, m_, anova_effect(d_, v_), a_)
    return AnovaLegacyTerms(*(as_output(t, n, m, min_d, variance, alpha) for t in terms))


def ttest_power(n, *, min_dt, variance_t, alpha, method="legacy"):
    """Power of the two-sided paired t-test with n topics.

    minΔt = minDt/σ̂t is the effect size, φ = n − 1, λ = √n·minΔt and
    w = t(φ; α) is the two-sided critical value.

    * ``method="exact"``: power = Pr{t' ≥ w} + Pr{t' ≤ −w} with the noncentral
      t(φ, λ) (Sakai, IRJ 2016, Eq. 3).
    * ``method="legacy"``: the normal approximation of the samplesizeTTEST sheet
      (Sakai, IRJ 2016, Eq. 5):
      power = Φ((−w(1 − 1/(4φ)) − λ)/√(1 + w²/(2φ)))
      + 1 − Φ((w(1 − 1/(4φ)) − λ)/√(1 + w²/(2φ))).

    Parameters
    ----------
    n : int or array_like
        Number of topics (≥ 2).
    min_dt : float or array_like
        Minimum detectable difference between the two systems (> 0).
    variance_t : float or array_like
        Variance σ̂t² of the per-topic score differences (> 0).
    alpha : float or array_like
        Significance level, 0 < α < 1.
    method : {"legacy", "exact"}

    Returns
    -------
    float or ndarray

    Examples
    --------
    CIKM 2014 worked example, minΔt = .5: power .795 at n = 33 and .808 at n = 34.

    >>> [round(ttest_power(n, min_dt=0.5, variance_t=1.0, alpha=0.05), 3) for n in (33, 34)]
    [0.795, 0.808]
    """
    method = check_method(method)
    n_, d_, v_, a_ = check_all(n=n, min_dt=min_dt, variance_t=variance_t, alpha=alpha)
    power = ttest_power_at(n_, d_ / np.sqrt(v_), a_, method)
    return as_output(power, n, min_dt, variance_t, alpha)
