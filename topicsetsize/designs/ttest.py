"""The paired t-test design: two systems on the same topics, a minimum detectable difference
minDt (Sakai, IRJ 2016, Section 3; the samplesizeTTEST sheet).

Power, topic set size n (from minDt and σ̂t², or from the effect size minΔt = minDt/σ̂t),
minimum detectable difference and tables. φ = n − 1, λ = √n·minΔt. Two methods: ``"legacy"``
(the sheet's normal approximation, Eq. 5) and ``"exact"`` (the noncentral t, Eq. 3).
"""

from __future__ import annotations

import math
from functools import partial
from typing import TYPE_CHECKING

import numpy as np
from scipy import special

from ..numerics.distributions import t_crit, t_power, t_power_one, t_power_pair, z_upper
from ..numerics.shapes import as_output
from ..params import check_all
from .kinds import TKind
from .legacy import monotone_from, monotone_from_one

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["ttest_power", "ttest_initial_n", "ttest_n_effect", "ttest_n", "ttest_min_dt",
           "ttest_table"]


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
    return PAIRED.power(n, min_dt, variance_t, alpha, method)


def ttest_initial_n(alpha, beta, min_delta_t):
    """Initial estimate n₀ = ((z_{α/2} + z_β)/minΔt)² + z_{α/2}²/2 (IRJ 2016, Eq. 6).

    Parameters
    ----------
    alpha, beta : float or array_like
        Error probabilities: α in (0, 1), β in [1e-9, 1).
    min_delta_t : float or array_like
        Effect size minΔt = minDt/σt (> 0).

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> round(ttest_initial_n(0.05, 0.2, 0.5), 1)
    33.3
    """
    a, b, e = check_all(alpha=alpha, beta=beta, min_delta_t=min_delta_t)
    za = z_upper(a / 2.0)
    n0 = ((za + z_upper(b)) / e) ** 2 + za * za / 2.0
    return as_output(n0, alpha, beta, min_delta_t)


def ttest_n_effect(alpha, beta, min_delta_t, *, method="legacy"):
    """Topic set size for the paired t-test design, from the effect size minΔt.

    n is the smallest n ≥ 2 from which the power of the two-sided paired t-test
    stays at or above 1 − β for a standardised difference minΔt = minDt/σt
    (Sakai, IRJ 2016, Section 3; the samplesizeTTEST sheet). The initial
    estimate is Eq. 6, n₀ = ((z_{α/2} + z_β)/minΔt)² + z_{α/2}²/2; the power is
    :func:`topicsetsize.ttest_power`.

    Parameters
    ----------
    alpha, beta : float or array_like
        Type I and Type II error probabilities: α in (0, 1), β in [1e-9, 1).
    min_delta_t : float or array_like
        Minimum detectable effect size minΔt = minDt/σt (> 0).
    method : {"legacy", "exact"}

    Returns
    -------
    int or ndarray of int

    Raises
    ------
    ValueError
        On an argument out of range; :class:`~topicsetsize.numerics.search.SearchLimitError`
        when no n up to 10⁹ topics is enough.

    References
    ----------
    T. Sakai, "Topic set size design", Information Retrieval Journal 19(3), 2016.
    T. Sakai, "Designing test collections for comparing many systems", CIKM 2014.

    Examples
    --------
    CIKM 2014: minΔt = .5 gives 34 topics and minΔt = .2 gives 199.

    >>> ttest_n_effect(0.05, 0.20, 0.5), ttest_n_effect(0.05, 0.20, 0.2)
    (34, 199)
    """
    return PAIRED.n_effect(alpha, beta, min_delta_t, method)


def ttest_n(alpha, beta, min_dt, variance_t, *, method="legacy"):
    """Topic set size for the paired t-test design (two systems, minDt, σ̂t²).

    The same as :func:`ttest_n_effect` with minΔt = minDt/σ̂t, where σ̂t² is the
    variance of the per-topic score differences (from a one-way V_E, σ̂t² = 2σ̂²;
    Sakai, IRJ 2016, Section 3).

    Parameters
    ----------
    alpha, beta : float or array_like
        Type I and Type II error probabilities: α in (0, 1), β in [1e-9, 1).
    min_dt : float or array_like
        Minimum detectable difference between the two systems (> 0).
    variance_t : float or array_like
        Variance σ̂t² of the per-topic score differences (> 0).
    method : {"legacy", "exact"}

    Returns
    -------
    int or ndarray of int

    Raises
    ------
    ValueError
        On an argument out of range, or a ratio minDt/σ̂t that is not a positive
        finite number; :class:`~topicsetsize.numerics.search.SearchLimitError` when no n up
        to 10⁹ topics is enough.

    Examples
    --------
    >>> ttest_n(0.05, 0.20, 0.1, 0.04)      # minΔt = .1/.2 = .5
    34
    """
    return PAIRED.n(alpha, beta, min_dt, variance_t, method)    # an error names minDt and σ̂t²


def ttest_min_dt(n, *, variance_t, alpha, beta, method="legacy"):
    """Minimum detectable difference minDt that n topics guarantee for a paired t-test.

    The smallest minDt whose two-sided paired t-test power
    (:func:`topicsetsize.ttest_power`) is at least 1 − β: minDt = σt·λ/√n,
    where λ = √n·minΔt solves power(λ; φ = n − 1, α) = 1 − β (Sakai, IRJ 2016,
    Section 3).

    Parameters
    ----------
    n : int or array_like
        Number of topics (≥ 2).
    variance_t : float or array_like
        Variance σ̂t² of the per-topic score differences (> 0).
    alpha, beta : float or array_like
        Error probabilities: α in (0, 1), β in [1e-9, 1).
    method : {"legacy", "exact"}

    Returns
    -------
    float or ndarray
        The smallest minDt whose power is at least 1 − β (checked to the last
        bit); 0.0 where any difference has it already (1 − β ≤ α), and with
        the legacy method also where the approximation's own error reaches 1 − β
        at no difference at all (at large α and β, or tiny n); the exact method's
        minimum is then above 0.

    Raises
    ------
    ValueError
        On an argument out of range, or where the legacy approximation cannot
        reach the power at this n.

    Examples
    --------
    >>> round(ttest_min_dt(34, variance_t=1.0, alpha=0.05, beta=0.20), 4)  # minΔt = .5 needs 34
    0.4951
    """
    return PAIRED.min_effect(n, variance_t, alpha, beta, method)


def ttest_table(alpha, *, beta, variance_t, min_dts, method="legacy") -> pd.DataFrame:
    """Table of paired t-test topic set sizes: rows σ̂t², columns minDt.

    Each cell is :func:`topicsetsize.ttest_n`, computed in one vectorised
    search (Sakai, IRJ 2016, Section 3). ``variance_t`` may be one value or a
    list (one row each).

    Parameters
    ----------
    alpha, beta : float
        Error probabilities: α in (0, 1), β in [1e-9, 1).
    variance_t : float or sequence of float
        Variances σ̂t² of the per-topic differences (each > 0), the rows.
    min_dts : sequence of float
        Minimum detectable differences (each > 0), the columns.
    method : {"legacy", "exact"}

    Returns
    -------
    pandas.DataFrame
        Index ``variance_t``, columns ``min_dt``, integer cells.

    Examples
    --------
    >>> ttest_table(0.05, beta=0.20, variance_t=[0.04, 0.1], min_dts=[0.05, 0.1])
    min_dt      0.05  0.10
    variance_t
    0.04         128    34
    0.10         316    81
    """
    return PAIRED.table(alpha, beta, variance_t, min_dts, method)


def _paired_guess(za, zb, effect):
    """n₀ = ((z_{α/2} + z_β)/minΔt)² + z_{α/2}²/2 (IRJ 2016, Eq. 6), floats or arrays."""
    r = (za + zb) / effect
    return r * r + za * za / 2.0


def _power_pair(n, effect, alpha):
    """The exact power at n and a bound of it at n − 1, one critical t (issue 28)."""
    return t_power_pair(alpha, n - 1.0, np.sqrt(n) * effect, n - 2.0, np.sqrt(n - 1.0) * effect)


#: The paired t-test's pieces (φ = n − 1, λ = √n·minΔt), of the t kind
#: (:class:`topicsetsize.designs.kinds.TKind`); ``PAIRED.renamed(key)`` lends them to a design
#: of the same statistics under other names (the one-sample t-test).
PAIRED = TKind("ttest", power_at=ttest_power_at, power_one=ttest_power_one,
               guess=_paired_guess, scale=np.sqrt, monotone=partial(monotone_from, "ttest"),
               monotone_one=partial(monotone_from_one, "ttest"), power_pair=_power_pair)

#: The one-cell search of :func:`ttest_n_effect` (kept under its name for the search's tests).
_ttest_n_one = PAIRED.n_one
