"""The one-way ANOVA design: m systems, a minimum detectable range minD between the best and
the worst (Sakai, IRJ 2016, Section 5; CIKM 2014).

Power, topic set size n, minimum detectable range and tables. The F test has φA = m − 1 and
φE = m(n − 1) degrees of freedom; in the least favourable configuration (two systems minD apart,
the others at the grand mean) the noncentrality is λ = n·minD²/(2σ²). Two methods:
``"legacy"`` (Nagata's approximation, :mod:`topicsetsize.designs.legacy`, as the samplesizeANOVA
sheet and the published tables) and ``"exact"`` (the noncentral F). Every function broadcasts
its arguments: a scalar call returns a Python number, an array call an ndarray.
"""

from __future__ import annotations

import math
from dataclasses import fields
from functools import partial
from typing import TYPE_CHECKING

import numpy as np
from scipy import special

from ..numerics.cell import f_crit_point, f_power_cell
from ..numerics.distributions import (
    chi2_lambda_one,
    f_crit_one,
    f_power,
    f_power_one,
)
from ..numerics.search_one import Uncertain
from ..numerics.shapes import as_output
from ..params import check_all, check_method
from .effects import anova_effect
from .kinds import FKind
from .legacy import (
    NAGATA_LAMBDA,
    AnovaLegacyTerms,
    curve_n,
    lambda_curve,
    legacy_anova_pair,
    legacy_anova_power,
    legacy_lambda_hat,
    monotone_from,
    monotone_from_one,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["anova_power", "anova_legacy_terms", "anova_initial_n", "anova_n", "anova_min_d",
           "anova_table"]


def anova_power_at(n, m, effect, alpha, method: str, precise: bool = True):
    """Vectorised ANOVA power for validated arrays; ``effect`` = Δ = minD²/(2σ²).

    ``precise=False``: the fast power that the search narrows n with (see
    :mod:`topicsetsize.numerics.precision`)."""
    if method == "legacy":
        return legacy_anova_power(n, m, effect, alpha, precise).power
    return f_power(alpha, m - 1.0, m * (n - 1.0), n * effect, precise=precise)


def _power_cell(n, m, effect, alpha, method: str, use=None, points=None):
    """:func:`anova_power_at` (precise) at a few n (a 1-d array) of one cell, the same
    bits; at ``n[use]`` only where ``use`` is given
    (:func:`~topicsetsize.numerics.cell.f_power_cell`)."""
    if method == "exact":
        return f_power_cell(alpha, m - 1.0, m * (n - 1.0), n * effect, use, points)
    wanted = n if use is None else n[use]       # cell by cell: the n not in use change nothing
    phi_a, points = m - 1.0, points or {}
    power = []
    for x in wanted.tolist():        # anova_power_one's legacy power at the precise F point
        phi_e = m * (x - 1.0)
        w = f_crit_point(alpha, phi_a, phi_e, points.get(phi_e))
        if w is None or not x * effect <= _HALF_MAX:
            return legacy_anova_power(wanted, m, effect, alpha).power
        power.append(_legacy_one(w, phi_a, phi_e, x * effect))
    return np.array(power)


def anova_power_one(n: float, m: int, effect: float, alpha: float, method: str,
                    points: dict | None = None) -> float:
    """:func:`anova_power_at` of one cell: the same operations on floats (one-cell searches;
    ``points`` keeps its F point, :func:`~topicsetsize.numerics.distributions.f_crit_one`).

    Raises :class:`~topicsetsize.numerics.search_one.Uncertain` where 2λ overflows (the vectorised
    function takes a limit there).

    >>> one = anova_power_one(19.0, 3, 0.5, 0.05, "legacy")
    >>> one == float(anova_power_at(19.0, 3, 0.5, 0.05, "legacy")), round(one, 3)
    (True, 0.791)
    """
    phi_a = m - 1.0
    phi_e = m * (n - 1.0)
    lam = n * effect
    if method == "exact":
        return f_power_one(alpha, phi_a, phi_e, lam, points)
    if not lam <= _HALF_MAX:
        raise Uncertain("2 lambda overflows")
    return _legacy_one(f_crit_one(alpha, phi_a, phi_e, points), phi_a, phi_e, lam)


def _legacy_one(w, phi_a, phi_e, lam):
    """The legacy power of one cell at the F point ``w`` (floats; 2λ finite): the operations of
    :func:`~topicsetsize.designs.legacy.legacy_anova_power`."""
    c_a = (phi_a + 2.0 * lam) / (phi_a + lam)
    phi_a_star = (phi_a + lam) * ((phi_a + lam) / (phi_a + 2.0 * lam))
    a = w * phi_a / phi_e
    if not c_a - a > 0:
        return math.nan
    u = (math.sqrt(a * (2.0 * phi_e - 1.0)) - math.sqrt(c_a * (2.0 * phi_a_star - 1.0))) \
        / math.sqrt(c_a - a)
    return float(special.ndtr(-u))


_HALF_MAX = np.finfo(float).max / 2.0


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
    return ONE_WAY.power(n, m, min_d, variance, alpha, method)


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
    terms = legacy_anova_power(n_, m_, anova_effect(d_, v_), a_)
    return AnovaLegacyTerms(*(as_output(getattr(terms, f.name), n, m, min_d, variance, alpha)
                              for f in fields(terms)))


def _anova_guess(alpha, beta, m, effect, method: str):
    """A close estimate of n: nΔ = λ(φE) with λ(φE) ≈ λ∞ + k/φE, φE = m(n − 1)
    (:func:`~topicsetsize.designs.legacy.lambda_curve`)."""
    return curve_n(*lambda_curve(alpha, beta, m - 1.0, method), m, effect)


def anova_initial_n(alpha, beta, min_d, variance, m, *, method="legacy"):
    """Initial estimate n₀ = λ̂/Δ of the ANOVA topic set size (not rounded).

    Δ = minD²/(2σ²). With ``method="legacy"`` and one of the four (α, β) pairs
    of the legacy sheet, λ̂ = x1 + x2·√φA is Nagata's approximation (IRJ 2016, Table 3):
    (.05,.20): 4.860 + 3.584√φA; (.01,.20): 7.736 + 4.551√φA;
    (.05,.10): 7.049 + 4.244√φA; (.01,.10): 10.439 + 5.213√φA.
    Otherwise λ̂ solves Pr{χ'²(φA, λ) ≥ χ²(φA; α)} = 1 − β, the φE → ∞ limit
    of the exact design (scipy.special.chndtrinc).

    Parameters
    ----------
    alpha, beta : float or array_like
        Error probabilities: α in (0, 1), β in [1e-9, 1).
    min_d, variance, m : float or array_like
        As in :func:`anova_n`.
    method : {"legacy", "exact"}

    Returns
    -------
    float or ndarray
        n₀ (Sakai, IRJ 2016, Section 5; CIKM 2014, Eq. 9). It only starts the
        search: the required n may lie on either side of it.

    Examples
    --------
    Nagata's estimate for m = 2, minD = .02, σ̂² = .0601 (the answer is 2301):

    >>> round(anova_initial_n(0.05, 0.2, 0.02, 0.0601, 2), 1)
    2537.4
    """
    method = check_method(method)
    a, b, d, v, m_ = check_all(alpha=alpha, beta=beta, min_d=min_d, variance=variance, m=m)
    n0 = legacy_lambda_hat(a, b, m_ - 1.0, method) / anova_effect(d, v)
    return as_output(n0, alpha, beta, min_d, variance, m)


def anova_n(alpha, beta, min_d, variance, m, *, method="legacy"):
    """Topic set size for the one-way ANOVA design (m systems, minimum range minD).

    n is the smallest n ≥ 2 from which the power of the F test stays at or
    above 1 − β, given a difference of minD between the best and the worst of
    m systems and a within-system variance σ̂² (Sakai, IRJ 2016, Section 5;
    CIKM 2014). The power is :func:`topicsetsize.anova_power`: Nagata's
    approximation (``"legacy"``, which reproduces samplesizeANOVA and the
    published tables) or the noncentral F (``"exact"``).

    Parameters
    ----------
    alpha, beta : float or array_like
        Type I and Type II error probabilities: α in (0, 1), β in [1e-9, 1), any pair.
    min_d : float or array_like
        Minimum detectable range (> 0), on the scale of the scores.
    variance : float or array_like
        Within-system variance σ̂² (> 0), e.g. V_E of a past matrix.
    m : int or array_like
        Number of systems (≥ 2).
    method : {"legacy", "exact"}

    Returns
    -------
    int or ndarray of int

    Raises
    ------
    ValueError
        On an argument out of range; :class:`~topicsetsize.numerics.search.SearchLimitError`
        (a ValueError) when no n up to 10⁹ topics is enough.

    Examples
    --------
    The CIKM 2014 worked example (minΔ = minD²/(2σ²) = .5) and a cell of the
    AIRS 2016 Table 2 (MedNLPDoc raw recall, m = 2, minD = .02):

    >>> anova_n(0.05, 0.20, 0.5, 0.25, 3)
    20
    >>> anova_n(0.05, 0.20, 0.02, 0.0601, 2), anova_n(0.05, 0.20, 0.02, 0.0601, 2, method="exact")
    (2301, 2360)
    """
    return ONE_WAY.n(alpha, beta, min_d, variance, m, method)


def anova_min_d(n, *, m, variance, alpha, beta, method="legacy"):
    """Minimum detectable range minD that n topics guarantee for m systems.

    The smallest minD whose one-way ANOVA power (:func:`topicsetsize.anova_power`)
    is at least 1 − β: minD = √(2σ²λ/n), where λ solves
    power(λ; φA = m − 1, φE = m(n − 1), α) = 1 − β (Sakai, IRJ 2016, Section 5,
    with Δ = minD²/(2σ²) = λ/n).

    Parameters
    ----------
    n, m : int or array_like
        Topics (≥ 2) and systems (≥ 2).
    variance : float or array_like
        Within-system variance σ̂² (> 0).
    alpha, beta : float or array_like
        Error probabilities: α in (0, 1), β in [1e-9, 1).
    method : {"legacy", "exact"}

    Returns
    -------
    float or ndarray
        The smallest minD whose power is at least 1 − β (checked to the last
        bit); 0.0 where any difference has it already (1 − β ≤ α), and with
        the legacy method also where the approximation's own error reaches 1 − β
        at no difference at all (at large α and β, or tiny n); the exact method's
        minimum is then above 0.

    Raises
    ------
    ValueError
        On an argument out of range, or where the legacy approximation cannot
        reach the power at this n (Nagata's formula is undefined at tiny n).

    Examples
    --------
    What 100 topics guarantee for 10 systems at σ̂² = .0601 (MedNLPDoc raw
    recall), α = .05, β = .20:

    >>> round(anova_min_d(100, m=10, variance=0.0601, alpha=0.05, beta=0.20), 4)
    0.137
    >>> n = 188    # the AIRS 2016 Table 2 size for minD = .1 and m = 10
    >>> anova_min_d(n, m=10, variance=0.0601, alpha=0.05, beta=0.20) <= 0.1
    True
    """
    return ONE_WAY.min_effect(n, m, variance, alpha, beta, method)


def anova_table(alpha, *, beta, variance, ms, min_ds, method="legacy") -> pd.DataFrame:
    """Table of ANOVA topic set sizes: rows m, columns minD.

    Each cell is :func:`topicsetsize.anova_n` for that (m, minD), all computed
    in one vectorised search. This is the layout of Sakai's AIRS 2016 Table 2
    and CIKM 2014 Tables 4–6.

    Parameters
    ----------
    alpha, beta : float
        Error probabilities: α in (0, 1), β in [1e-9, 1).
    variance : float
        Within-system variance σ̂² (> 0).
    ms : sequence of int
        Numbers of systems (each ≥ 2), the rows.
    min_ds : sequence of float
        Minimum detectable ranges (each > 0), the columns.
    method : {"legacy", "exact"}

    Returns
    -------
    pandas.DataFrame
        Index ``m``, columns ``min_d``, integer cells.

    Examples
    --------
    AIRS 2016 Table 2, part I (MedNLPDoc raw recall, σ̂² = .0601):

    >>> anova_table(0.05, beta=0.20, variance=0.0601, ms=[2, 10], min_ds=[0.02, 0.1, 0.2])
    min_d  0.02  0.10  0.20
    m
    2      2301    93    24
    10     4680   188    48
    """
    return ONE_WAY.table(alpha, beta, variance, ms, min_ds, method)


def _lambda_one(alpha, beta, dfn, method):
    """λ of one cell: Nagata's λ̂ for the legacy sheet's (α, β), else the φE → ∞ limit."""
    x1, x2 = NAGATA_LAMBDA.get((alpha, beta), (None, None)) if method == "legacy" else (None, None)
    return x1 + x2 * math.sqrt(dfn) if x1 is not None else chi2_lambda_one(alpha, beta, dfn)


def _power_of_lambda(lam, alpha, dfn, n, method):
    return anova_power_at(n, dfn + 1.0, lam / n, alpha, method)


def _m(m):
    return m


#: The one-way ANOVA's pieces (φA = m − 1, φE = m(n − 1), λ = nΔ), of the F kind
#: (:class:`topicsetsize.designs.kinds.FKind`).
ONE_WAY = FKind("anova", power_at=anova_power_at, power_one=anova_power_one, guess=_anova_guess,
                lambda_one=_lambda_one, dfe_per_topic=_m, power_of_lambda=_power_of_lambda,
                monotone=partial(monotone_from, "anova"),
                monotone_one=partial(monotone_from_one, "anova"),
                legacy_pair=legacy_anova_pair, power_cell=_power_cell)

#: The one-cell search of :func:`anova_n` (kept under its name for the search's tests).
_anova_n_one = ONE_WAY.n_one
