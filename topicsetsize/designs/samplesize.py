"""Required number of topics n for the ANOVA and paired t-test designs.

Every function searches for the smallest n ≥ 2 from which the power stays at or
above 1 − β (Sakai, IRJ 2016; ``docs/formulas.md`` §4), using
:func:`topicsetsize.numerics.search.smallest_n`, and is vectorised: array arguments broadcast, and a
whole table is one search.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from ..numerics.distributions import chi2_lambda_one, f_crit, z_upper
from ..params import check_all, check_method, check_scalars
from .power import (anova_effect, anova_power_at, anova_power_one, t_effect, ttest_power_at,
                    ttest_power_one)
from ..numerics.shapes import as_output
from ..numerics.search import describe_cells, probit_one, smallest_n_for_power, smallest_n_one

__all__ = ["anova_n", "ttest_n", "ttest_n_effect", "anova_initial_n", "ttest_initial_n",
           "NAGATA_LAMBDA"]

#: Nagata's λ̂ ≈ x1 + x2·√φA for the four (α, β) pairs of the samplesizeANOVA sheet
#: (Nagata 2003; Sakai, IRJ 2016, Table 3).
NAGATA_LAMBDA = {
    (0.05, 0.20): (4.860, 3.584),
    (0.01, 0.20): (7.736, 4.551),
    (0.05, 0.10): (7.049, 4.244),
    (0.01, 0.10): (10.439, 5.213),
}

#: The monotone starts of the legacy approximations, (smallest α, n) from the largest α down;
#: smaller α than the last start at ``_LEGACY_FROM_ELSE`` (see :func:`_monotone_from`).
_LEGACY_FROM = {"anova": ((1e-3, 9), (1e-6, 17), (1e-10, 33)),
                "ttest": ((1e-3, 17), (1e-6, 65), (1e-10, 129))}
_LEGACY_FROM_ELSE = {"anova": 129, "ttest": 2049}


def _monotone_from(design: str, method: str, alpha, target):
    """Per cell, the n from which the power is non-decreasing in n.

    The exact powers are monotone in n. The legacy approximations wobble at
    tiny n, so every n below the returned value is checked. The thresholds come
    from a numerical sweep over α ∈ [1e-10, .5], m ∈ [2, 1000] and effects over
    six decades (``tests/topicsetsize/designs/test_samplesize.py`` repeats it):

    * legacy ANOVA: the last decrease in n is at n = 4 (α = .05), 6 (.01),
      8 (1e-3), 15 (1e-6) and 24 (1e-10);
    * legacy t-test: decreases reach n ≈ 600 at tiny α, but past n = 16
      (α ≥ 1e-3), 64 (α ≥ 1e-6) and 128 (α ≥ 1e-10) only at power levels below
      10α. Targets 1 − β ≤ 10α, or smaller α, are checked up to n = 2048.
    """
    alpha = np.asarray(alpha, float)
    if method == "exact":
        return np.full(alpha.shape, 2)
    high = (np.asarray(target) > 10.0 * alpha) if design == "ttest" else True
    starts = _LEGACY_FROM[design]
    return np.select([high & (alpha >= a) for a, _ in starts], [n for _, n in starts],
                     _LEGACY_FROM_ELSE[design])


def _monotone_from_one(design: str, method: str, alpha: float, target: float) -> int:
    """:func:`_monotone_from` of one cell (floats).

    >>> _monotone_from_one("anova", "legacy", 0.05, 0.8)
    9
    >>> _monotone_from_one("ttest", "legacy", 1e-4, 0.8), _monotone_from_one("ttest", "exact", 0, 0)
    (65, 2)
    """
    if method == "exact":
        return 2
    if design == "anova" or target > 10.0 * alpha:
        for smallest, n in _LEGACY_FROM[design]:
            if alpha >= smallest:
                return n
    return _LEGACY_FROM_ELSE[design]


def _unique_rows(*columns):
    """Distinct rows of broadcast columns and the inverse map (1-D keys when possible)."""
    shape = np.broadcast(*columns).shape
    if len(shape) == 0 or shape == (1,) * len(shape):   # one cell (a scalar call): nothing to sort
        return np.reshape(np.asarray(columns, float), (1, -1)), np.zeros(1, np.intp), shape
    keys = np.stack([np.broadcast_to(c, shape).ravel() for c in columns])
    constant = [(k == k[0]).all() for k in keys[:-1]]
    if all(constant):  # the usual table: alpha and beta fixed, only m varies
        last, inverse = np.unique(keys[-1], return_inverse=True)
        uniq = np.stack([np.full(last.shape, k[0]) for k in keys[:-1]] + [last], axis=1)
    else:
        uniq, inverse = np.unique(keys.T, axis=0, return_inverse=True)
    return uniq, inverse.ravel(), shape


def _lambda_curve(alpha, beta, phi_a, method: str):
    """λ needed for power 1 − β as φE → ∞ (λ∞) and its 1/φE slope k, per distinct (α, β, φA).

    The required noncentrality at finite φE is close to λ∞ + k/φE; k is taken from
    one reference point, φE = 50·(φA + 1). The curve only guides the search, which
    evaluates each method's own power, so the answer does not depend on it; what it
    costs and what it saves decide how it is computed.

    * Nagata's approximation (the legacy power) in closed form (:func:`_nagata_lambda`)
      costs one χ² point per row and otherwise only arithmetic. It is the legacy
      curve, and the exact curve from φA = ``_EXACT_CURVE_BELOW`` on, where it is
      within about .05 of the exact λ∞.
    * Below that, the exact curve comes from scipy's noncentral χ² and F inverses
      (``chndtrinc``, ``ncfdtrinc``), a few dozen µs per row: a table has few such
      rows, and there Nagata's λ is off by up to 2.5%, which costs search steps.
    """
    uniq, inverse, shape = _unique_rows(alpha, beta, phi_a)
    a, b, df = uniq.T
    phi_ref = 50.0 * (df + 1.0)
    chi2 = special.chdtri(df, a)
    lam, lam_ref = np.empty_like(df), np.empty_like(df)
    exact = (df < _EXACT_CURVE_BELOW) if method == "exact" else np.zeros(df.shape, bool)
    if exact.any():
        ae, be, dfe, pe = a[exact], b[exact], df[exact], phi_ref[exact]
        lam[exact] = special.chndtrinc(chi2[exact], dfe, be)
        lam_ref[exact] = special.ncfdtrinc(dfe, pe, be, f_crit(ae, dfe, pe))
    rest = ~exact
    if rest.any():
        z_b, dfr, pr, c = z_upper(b[rest]), df[rest], phi_ref[rest], chi2[rest]
        lam[rest] = _nagata_lambda(z_b, dfr, np.sqrt(2.0 * c), 0.0)
        # a = wφA/φE at the reference, with F(φA, φE; α) ≈ (χ²/φA)(1 + (χ² − φA + 2)/(2φE))
        # to first order in 1/φE: a guess needs no exact F point.
        a_ref = c * (1.0 + (c - dfr + 2.0) / (2.0 * pr)) / pr
        lam_ref[rest] = _nagata_lambda(z_b, dfr, np.sqrt(a_ref * (2.0 * pr - 1.0)), a_ref)
    slope = np.where(np.isfinite(lam_ref) & np.isfinite(lam), (lam_ref - lam) * phi_ref, 0.0)
    lam = np.where(np.isfinite(lam), lam, 1.0)
    return lam[inverse].reshape(shape), slope[inverse].reshape(shape)


#: φA from which the exact method's search starts from Nagata's λ curve (see _lambda_curve).
_EXACT_CURVE_BELOW = 100


def _nagata_lambda(z_b, phi_a, big_a, a, steps: int = 8):
    """λ at which Nagata's approximation (the legacy :func:`topicsetsize.anova_power`) is 1 − β.

    With cA(2φA* − 1) = 2(φA + λ) − cA, power 1 − β means u = −z_β, that is
    λ = (R² + cA)/2 − φA with R = √(a(2φE − 1)) + z_β·√(cA − a); cA = (φA + 2λ)/(φA + λ)
    moves little with λ, so a fixed-point iteration converges in a few steps.
    ``big_a`` is √(a(2φE − 1)) (√(2χ²(φA; α)) in the limit φE → ∞, where a = 0).
    """
    c_a = np.full(np.shape(phi_a), 1.5)
    lam = np.zeros(np.shape(phi_a))
    with np.errstate(invalid="ignore"):
        for _ in range(steps):
            r = big_a + z_b * np.sqrt(c_a - a)
            lam = np.maximum((r * r + c_a) / 2.0 - phi_a, 1e-12)
            c_a = (phi_a + 2.0 * lam) / (phi_a + lam)
    return lam


def _exact_lambda_limit(alpha, beta, phi_a):
    """λ∞ with Pr{χ'²(φA, λ) ≥ χ²(φA; α)} = 1 − β (scipy.special.chndtrinc), per distinct row."""
    uniq, inverse, shape = _unique_rows(alpha, beta, phi_a)
    a, b, df = uniq.T
    lam = special.chndtrinc(special.chdtri(df, a), df, b)
    lam = np.where(np.isfinite(lam), lam, 1.0)
    return lam[inverse].reshape(shape)


def _anova_lambda_hat(alpha, beta, phi_a, method: str):
    lam = _exact_lambda_limit(alpha, beta, phi_a)
    if method == "legacy":
        for (a, b), (x1, x2) in NAGATA_LAMBDA.items():
            lam = np.where((alpha == a) & (beta == b), x1 + x2 * np.sqrt(phi_a), lam)
    return lam


def _anova_guess(alpha, beta, m, effect, method: str):
    """A close estimate of n: λ(φE)/Δ with λ(φE) ≈ λ∞ + k/φE, iterated twice."""
    lam, slope = _lambda_curve(alpha, beta, m - 1.0, method)
    with np.errstate(divide="ignore"):  # Δ underflowed to 0: n = inf, the search says too small
        n = lam / effect
        for _ in range(2):
            n = (lam + slope / (m * np.maximum(n - 1.0, 1.0))) / effect
    return n


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
        Error probabilities in (0, 1).
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
    n0 = _anova_lambda_hat(a, b, m_ - 1.0, method) / anova_effect(d, v)
    return as_output(n0, alpha, beta, min_d, variance, m)


def ttest_initial_n(alpha, beta, min_delta_t):
    """Initial estimate n₀ = ((z_{α/2} + z_β)/minΔt)² + z_{α/2}²/2 (IRJ 2016, Eq. 6).

    Parameters
    ----------
    alpha, beta : float or array_like
        Error probabilities in (0, 1).
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
        Type I and Type II error probabilities, each in (0, 1), any pair.
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
    method = check_method(method)
    one = check_scalars(alpha=alpha, beta=beta, min_d=min_d, variance=variance, m=m)
    n = None if one is None else _anova_n_one(*one, method)
    if n is not None:
        return n
    a, b, d, v, m_ = check_all(alpha=alpha, beta=beta, min_d=min_d, variance=variance, m=m)
    effect = anova_effect(d, v)
    guess = _anova_guess(a, b, m_, effect, method)

    def power(n, m_i, effect_i, alpha_i):
        return anova_power_at(n, m_i, effect_i, alpha_i, method)

    describe = describe_cells({"alpha": a, "beta": b, "min_d": d, "variance": v, "m": m_}, method)
    n = smallest_n_for_power(power, b, guess, cells=(m_, effect, a), describe=describe,
                             monotone_from=_monotone_from("anova", method, a, 1.0 - b))
    return as_output(n, alpha, beta, min_d, variance, m)


def _anova_n_one(alpha, beta, min_d, variance, m, method):
    """:func:`anova_n` of one cell by :func:`~topicsetsize.numerics.search.smallest_n_one` (or
    None)."""
    effect = float(anova_effect(min_d, variance))
    dfn = m - 1.0
    x1, x2 = NAGATA_LAMBDA.get((alpha, beta), (None, None)) if method == "legacy" else (None, None)
    lam = x1 + x2 * math.sqrt(dfn) if x1 is not None else chi2_lambda_one(alpha, beta, dfn)
    with np.errstate(all="ignore"):
        n = lam / effect if effect > 0 else math.inf
        guess = n * (1.0 + (dfn + 2.0) / max(m * max(n - 1.0, 1.0), 1.0))
        return smallest_n_one(lambda n: anova_power_one(n, m, effect, alpha, method), 1.0 - beta,
                              guess, _monotone_from_one("anova", method, alpha, 1.0 - beta),
                              transform=probit_one)


def _ttest_n_one(alpha, beta, effect, method):
    """:func:`ttest_n_effect` of one cell by
    :func:`~topicsetsize.numerics.search.smallest_n_one`."""
    za = -float(special.ndtri(alpha / 2.0))
    with np.errstate(all="ignore"):
        r = (za - float(special.ndtri(beta))) / effect
        guess = r * r + za * za / 2.0       # floats: a product overflows to inf, ** raises
        return smallest_n_one(lambda n: float(ttest_power_one(n, effect, alpha, method)),
                              1.0 - beta, guess,
                              _monotone_from_one("ttest", method, alpha, 1.0 - beta),
                              transform=probit_one)


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
        Type I and Type II error probabilities, each in (0, 1).
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
    method = check_method(method)
    one = check_scalars(alpha=alpha, beta=beta, min_delta_t=min_delta_t)
    n = None if one is None else _ttest_n_one(*one, method)
    if n is not None:
        return n
    a, b, e = check_all(alpha=alpha, beta=beta, min_delta_t=min_delta_t)
    za = z_upper(a / 2.0)
    with np.errstate(over="ignore"):
        guess = ((za + z_upper(b)) / e) ** 2 + za * za / 2.0

    def power(n, effect_i, alpha_i):
        return ttest_power_at(n, effect_i, alpha_i, method)

    describe = describe_cells({"alpha": a, "beta": b, "min_delta_t": e}, method)
    n = smallest_n_for_power(power, b, guess, cells=(e, a), describe=describe,
                             monotone_from=_monotone_from("ttest", method, a, 1.0 - b))
    return as_output(n, alpha, beta, min_delta_t)


def ttest_n(alpha, beta, min_dt, variance_t, *, method="legacy"):
    """Topic set size for the paired t-test design (two systems, minDt, σ̂t²).

    The same as :func:`ttest_n_effect` with minΔt = minDt/σ̂t, where σ̂t² is the
    variance of the per-topic score differences (from a one-way V_E, σ̂t² = 2σ̂²;
    Sakai, IRJ 2016, Section 3).

    Parameters
    ----------
    alpha, beta : float or array_like
        Type I and Type II error probabilities, each in (0, 1).
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
    one = check_scalars(min_dt=min_dt, variance_t=variance_t)
    effect = t_effect(*(one or check_all(min_dt=min_dt, variance_t=variance_t)))
    return ttest_n_effect(alpha, beta, effect if np.ndim(effect) else float(effect),
                          method=method)

