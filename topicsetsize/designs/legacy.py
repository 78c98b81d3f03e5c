"""The legacy tools' approximations, and what the searches for n take from them.

* Nagata's normal approximation of the one-way ANOVA power, as the samplesizeANOVA sheet
  computes it (Sakai, IRJ 2016, Section 5, Eq. 11 with the sheet's sign; Nagata 2003), and
  its intermediate terms, and its pair for the search's first steps (the power at n and an upper
  bound at n − 1 from n's F point, where the power is monotone in the F point);
* Nagata's λ̂ = x1 + x2·√φA for the sheet's four (α, β) pairs (IRJ 2016, Table 3), and the λ
  curve (λ∞ + k/φE) that starts every ANOVA search, legacy or exact;
* the n from which each legacy approximation is monotone in n (they wobble at tiny n, so the
  searches check every n below it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special

from ..numerics.distributions import f_crit, ncf_sf, z_upper
from ..numerics.shapes import flat_cells

__all__ = ["AnovaLegacyTerms", "NAGATA_LAMBDA"]


@dataclass(frozen=True)
class AnovaLegacyTerms:
    """Intermediate values of Nagata's approximation for the ANOVA power (legacy).

    Fields follow Sakai (IRJ 2016), Section 5 / the samplesizeANOVA sheet. Each is a float, or
    an ndarray of the broadcast shape of the arguments.

    Attributes
    ----------
    lam : float or ndarray
        λ = n·minD²/(2σ²), the noncentrality.
    w : float or ndarray
        F(φA, φE; α), the critical value.
    c_a, phi_a_star : float or ndarray
        cA = (φA + 2λ)/(φA + λ) and φA* = (φA + λ)²/(φA + 2λ).
    a : float or ndarray
        w·φA/φE.
    u : float or ndarray
        (√(a(2φE − 1)) − √(cA(2φA* − 1)))/√(cA − a), with the sheet's minus.
    power : float or ndarray
        1 − Φ(u); NaN where cA − a ≤ 0 and the approximation is undefined.
    """

    lam: float
    w: float
    c_a: float
    phi_a_star: float
    a: float
    u: float
    power: float


def legacy_anova_power(n, m, effect, alpha, precise: bool = True) -> AnovaLegacyTerms:
    phi_a = m - 1.0
    phi_e = m * (n - 1.0)
    return _legacy_terms(f_crit(alpha, phi_a, phi_e, precise=precise), phi_a, phi_e, n * effect)


def _legacy_terms(w, phi_a, phi_e, lam) -> AnovaLegacyTerms:
    """Nagata's approximation at the F point ``w`` (:func:`legacy_anova_power` from w on)."""
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


def legacy_anova_pair(n, m, effect, alpha, precise: bool = False):
    """The legacy power at n and an upper bound of it at n − 1, with n's F point only.

    The power is 1 − Φ(u) and, with K = 2φE − 1 and C = √(cA(2φA* − 1)) (which do not depend
    on a = wφA/φE), ∂u/∂a has the sign of √K·cA/√a − C: u rises with a (the power falls as w
    grows) for a < cA·K/(2φA* − 1), that is on the whole domain a < cA wherever φE ≥ φA*
    (``docs/formulas.md`` §4: with the sheet's √(cA − a) the power is not monotone in w
    elsewhere). There the power at n − 1 taken at w(n) < w(n − 1) bounds its own from above (and
    where a(n − 1) ≥ cA its own is undefined, a failure); w(n) is lowered by 1e-6 relative first,
    far more than Boost's F point is off (1.24e-8), so that the bound holds for the computed F
    points too. Where φE < φA* at n − 1 the bound is +inf (n − 1 gets its own evaluation).

    Returns
    -------
    tuple of ndarray
        (the power at n, exactly as :func:`legacy_anova_power`; the bound at n − 1).

    >>> import numpy as np
    >>> n, m, effect = np.array([20.0, 93.0]), np.array([3.0, 2.0]), np.array([0.5, 0.0832])
    >>> at, bound = legacy_anova_pair(n, m, effect, np.full(2, 0.05))
    >>> below = legacy_anova_power(n - 1.0, m, effect, np.full(2, 0.05), precise=False).power
    >>> bool((at == legacy_anova_power(n, m, effect, np.full(2, 0.05), False).power).all())
    True
    >>> bool((below <= bound).all()), bool((bound < 0.8).all())
    (True, True)
    """
    phi_a = m - 1.0
    phi_e = m * (n - 1.0)
    w = f_crit(alpha, phi_a, phi_e, precise=precise)
    k = w.size
    terms = _legacy_terms(np.concatenate([w, w * (1.0 - _BOUND_MARGIN)]),
                          np.concatenate([phi_a, phi_a]),
                          np.concatenate([phi_e, m * (n - 2.0)]),
                          np.concatenate([n * effect, (n - 1.0) * effect]))
    monotone = terms.phi_a_star[k:] <= m * (n - 2.0)
    return terms.power[:k], np.where(monotone, terms.power[k:], np.inf)


#: How much :func:`legacy_anova_pair` lowers n's F point (relative) for its bound at n − 1.
_BOUND_MARGIN = 1e-6


#: Nagata's λ̂ ≈ x1 + x2·√φA for the four (α, β) pairs of the samplesizeANOVA sheet
#: (Nagata 2003; Sakai, IRJ 2016, Table 3).
NAGATA_LAMBDA = {
    (0.05, 0.20): (4.860, 3.584),
    (0.01, 0.20): (7.736, 4.551),
    (0.05, 0.10): (7.049, 4.244),
    (0.01, 0.10): (10.439, 5.213),
}


#: The monotone starts of the legacy approximations, (smallest α, n) from the largest α down;
#: smaller α than the last start at ``_LEGACY_FROM_ELSE`` (see :func:`monotone_from`).
_LEGACY_FROM = {"anova": ((1e-3, 9), (1e-6, 17), (1e-10, 33)),
                "ttest": ((1e-3, 17), (1e-6, 65), (1e-10, 129))}


_LEGACY_FROM_ELSE = {"anova": 129, "ttest": 2049}

#: The same starts for :func:`numpy.searchsorted`: the smallest α of each, ascending, and the
#: starts with ``_LEGACY_FROM_ELSE`` first (below the smallest α).
_LEGACY_SORTED = {design: (np.array([a for a, _ in starts[::-1]]),
                           np.array([_LEGACY_FROM_ELSE[design]] + [n for _, n in starts[::-1]]))
                  for design, starts in _LEGACY_FROM.items()}


def monotone_from(design: str, method: str, alpha, target):
    """Per cell, the n from which the power is non-decreasing in n.

    The exact powers are monotone in n. The legacy approximations wobble at
    tiny n, so every n below the returned value is checked. The thresholds come
    from a numerical sweep over α ∈ [1e-10, .5], m ∈ [2, 1000] and effects over
    six decades (``tests/topicsetsize/designs/test_legacy.py`` repeats it):

    * legacy ANOVA: the last decrease in n is at n = 4 (α = .05), 6 (.01),
      8 (1e-3), 15 (1e-6) and 24 (1e-10);
    * legacy t-test: decreases reach n ≈ 600 at tiny α, but past n = 16
      (α ≥ 1e-3), 64 (α ≥ 1e-6) and 128 (α ≥ 1e-10) only at power levels below
      10α. Targets 1 − β ≤ 10α, or smaller α, are checked up to n = 2048.
    """
    alpha = np.asarray(alpha, float)
    if method == "exact":
        return np.full(alpha.shape, 2)
    smallest, starts = _LEGACY_SORTED[design]
    from_n = starts[np.searchsorted(smallest, alpha, side="right")]
    if design == "ttest":
        from_n = np.where(np.asarray(target) > 10.0 * alpha, from_n, _LEGACY_FROM_ELSE[design])
    return from_n


def monotone_from_one(design: str, method: str, alpha: float, target: float) -> int:
    """:func:`monotone_from` of one cell (floats).

    >>> monotone_from_one("anova", "legacy", 0.05, 0.8)
    9
    >>> monotone_from_one("ttest", "legacy", 1e-4, 0.8), monotone_from_one("ttest", "exact", 0, 0)
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
    """Distinct rows of broadcast columns and the inverse map (1-D keys when possible).

    Returns the distinct rows (one column each), ``inverse`` such that ``rows[inverse]`` are
    the broadcast cells in order, and the broadcast shape.

    >>> rows, inverse, shape = _unique_rows(0.05, 0.2, np.array([[3.0], [1.0], [3.0]]))
    >>> rows.tolist(), inverse.tolist(), shape
    ([[0.05, 0.2, 1.0], [0.05, 0.2, 3.0]], [1, 0, 1], (3, 1))
    """
    columns = [np.asarray(c, float) for c in columns]
    shape = np.broadcast_shapes(*(c.shape for c in columns))
    varying = [i for i, c in enumerate(columns) if c.size > 1 and not (c == c.flat[0]).all()]
    if len(varying) > 1:
        uniq, inverse = np.unique(np.stack([np.broadcast_to(c, shape).ravel() for c in columns],
                                           axis=1), axis=0, return_inverse=True)
        return uniq, inverse.ravel(), shape
    # The usual table (α and β fixed, only m varies) or a scalar call: one key at most.
    if varying:
        key, inverse = np.unique(np.broadcast_to(columns[varying[0]], shape), return_inverse=True)
    else:                                 # a single row: every cell is the same
        key, inverse = np.zeros(1), np.zeros(math.prod(shape), np.intp)
    uniq = np.empty((key.size, len(columns)))
    for i, c in enumerate(columns):
        uniq[:, i] = key if i in varying else c.flat[0]
    return uniq, inverse.ravel(), shape


def lambda_curve(alpha, beta, phi_a, method: str):
    """λ needed for power 1 − β as φE → ∞ (λ∞) and its 1/φE slope k, per distinct (α, β, φA).

    The required noncentrality at finite φE is close to λ∞ + k/φE; k is taken from
    one reference point, φE = 50·(φA + 1). The curve only guides the search, which
    evaluates each method's own power, so the answer does not depend on it; what it
    costs and what it saves decide how it is computed.

    * Nagata's approximation (the legacy power) in closed form (:func:`_nagata_lambda`)
      costs one χ² point per row and otherwise only arithmetic. It is the legacy
      curve, and the exact curve from φA = ``_EXACT_CURVE_BELOW`` on, where it is
      within about .05 of the exact λ∞.
    * Below that, the exact curve starts from Nagata's λ∞ and takes two Newton steps on the
      exact tails (:func:`_newton_lambda`): the noncentral χ² limit (``chndtr``) and the
      noncentral F at the reference (Boost's, at the F point ``f_crit``). There Nagata's λ is
      off by up to 2.5%, which costs search steps; the steps bring both within 1e-4 of
      scipy's inverses (``chndtrinc``, ``ncfdtrinc``, which cost several times more), and the
      search of the benchmark's tables makes the same evaluations as from those (issue 28.4).
    """
    (a, b, df), inverse, shape = _curve_rows(alpha, beta, phi_a)
    phi_ref = 50.0 * (df + 1.0)
    chi2 = special.chdtri(df, a)
    exact = (df < _EXACT_CURVE_BELOW) if method == "exact" else np.zeros(df.shape, bool)
    if exact.all():
        # Nagata's λ∞ (a = 0) starts both Newton walks: λ at the reference is within a few %.
        start = _nagata_lambda(z_upper(b), df, np.sqrt(2.0 * chi2), 0.0, steps=_NEWTON_START)
        lam, lam_ref = _newton_lambda(chi2, f_crit(a, df, phi_ref, precise=False), df, phi_ref,
                                      b, start, start)
    else:
        # a = wφA/φE at the reference, with F(φA, φE; α) ≈ (χ²/φA)(1 + (χ² − φA + 2)/(2φE))
        # to first order in 1/φE: a guess needs no exact F point.
        a_ref = chi2 * (1.0 + (chi2 - df + 2.0) / (2.0 * phi_ref)) / phi_ref
        # λ∞ (a = 0 as φE → ∞) and λ at the reference, in one call
        lam, lam_ref = _nagata_lambda(
            z_upper(b), df,
            np.stack([np.sqrt(2.0 * chi2), np.sqrt(a_ref * (2.0 * phi_ref - 1.0))]),
            np.stack([np.zeros_like(a_ref), a_ref]))
        if exact.any():
            ae, be, dfe, pe = a[exact], b[exact], df[exact], phi_ref[exact]
            lam[exact], lam_ref[exact] = _newton_lambda(
                chi2[exact], f_crit(ae, dfe, pe, precise=False), dfe, pe, be,
                lam[exact], lam_ref[exact])
    finite = np.isfinite(lam)
    slope = np.where(np.isfinite(lam_ref) & finite, (lam_ref - lam) * phi_ref, 0.0)
    lam = np.where(finite, lam, 1.0)
    if inverse is not None:
        lam, slope = lam[inverse], slope[inverse]
    return lam.reshape(shape), slope.reshape(shape)


def _curve_rows(alpha, beta, phi_a):
    """The rows (α, β, φA) of :func:`lambda_curve`: up to ``_FEW_ROWS`` broadcast rows as they
    are (a table's m, usually distinct: sorting them out would cost more than a repeat), else
    the distinct ones (:func:`_unique_rows`) and the inverse map (None for the former)."""
    shape = np.broadcast(alpha, beta, phi_a).shape
    if math.prod(shape) <= _FEW_ROWS:
        return flat_cells(*(np.asarray(x, float) for x in (alpha, beta, phi_a)))[1], None, shape
    uniq, inverse, shape = _unique_rows(alpha, beta, phi_a)
    return uniq.T, inverse, shape


#: Rows up to which :func:`lambda_curve` takes the rows as they are.
_FEW_ROWS = 64


#: φA from which the exact method's search starts from Nagata's λ curve (see lambda_curve).
_EXACT_CURVE_BELOW = 100
#: Nagata's steps that start the exact curve's Newton walks (:func:`_newton_lambda`).
_NEWTON_START = 2


def _newton_lambda(chi2, w, phi_a, phi_e, beta, lam, lam_ref, steps: int = 2):
    """Newton steps towards the exact λ∞ and λ at (φA, φE): Pr{χ'²(φA, λ) ≥ χ²} = 1 − β and
    Pr{F'(φA, φE, λ) ≥ w} = 1 − β, from starting values close to them.

    ∂/∂λ Pr{χ'²(φ, λ) ≥ x} = ½(Pr{χ'²(φ + 2, λ) ≥ x} − Pr{χ'²(φ, λ) ≥ x}), and for the F,
    whose χ'² is scaled by wφA/χ²_φE, the same with F'(φA + 2, φE, λ) at wφA/(φA + 2). Each
    step evaluates the four tails of all rows in two calls. A step that fails (not finite or
    not positive) keeps the previous λ: the result only guides the search.
    """
    x = np.concatenate([chi2, chi2])
    phi_a2 = phi_a + 2.0
    dfs = np.concatenate([phi_a, phi_a2])
    wf = np.concatenate([w, w * phi_a / phi_a2])
    dfe = np.concatenate([phi_e, phi_e])
    k = lam.size
    power = 1.0 - beta
    with np.errstate(all="ignore"):
        for _ in range(steps):
            cdf = special.chndtr(x, dfs, np.concatenate([lam, lam]))
            sf = ncf_sf(wf, dfs, dfe, np.concatenate([lam_ref, lam_ref]))
            new = lam + (cdf[:k] - beta) / (0.5 * (cdf[:k] - cdf[k:]))
            new_ref = lam_ref + (power - sf[:k]) / (0.5 * (sf[k:] - sf[:k]))
            lam = np.where(np.isfinite(new) & (new > 0), new, lam)
            lam_ref = np.where(np.isfinite(new_ref) & (new_ref > 0), new_ref, lam_ref)
    return lam, lam_ref


def _nagata_lambda(z_b, phi_a, big_a, a, steps: int = 8):
    """λ at which Nagata's approximation (the legacy :func:`topicsetsize.anova_power`) is 1 − β.

    With cA(2φA* − 1) = 2(φA + λ) − cA, power 1 − β means u = −z_β, that is
    λ = (R² + cA)/2 − φA with R = √(a(2φE − 1)) + z_β·√(cA − a); cA = (φA + 2λ)/(φA + λ)
    moves little with λ, so a fixed-point iteration converges in a few steps.
    ``big_a`` is √(a(2φE − 1)) (√(2χ²(φA; α)) in the limit φE → ∞, where a = 0).
    """
    c_a = 1.5                     # every cell's first cA (a number: the same values, fewer calls)
    lam = np.zeros(np.shape(phi_a))
    with np.errstate(invalid="ignore"):
        for step in range(steps):
            r = big_a + z_b * np.sqrt(c_a - a)
            lam = np.maximum((r * r + c_a) / 2.0 - phi_a, 1e-12)
            if step < steps - 1:      # the last cA would not be used
                c_a = (phi_a + 2.0 * lam) / (phi_a + lam)
    return lam


def _exact_lambda_limit(alpha, beta, phi_a):
    """λ∞ with Pr{χ'²(φA, λ) ≥ χ²(φA; α)} = 1 − β (scipy.special.chndtrinc), per distinct row."""
    uniq, inverse, shape = _unique_rows(alpha, beta, phi_a)
    a, b, df = uniq.T
    lam = special.chndtrinc(special.chdtri(df, a), df, b)
    lam = np.where(np.isfinite(lam), lam, 1.0)
    return lam[inverse].reshape(shape)


def legacy_lambda_hat(alpha, beta, phi_a, method: str):
    lam = _exact_lambda_limit(alpha, beta, phi_a)
    if method == "legacy":
        for (a, b), (x1, x2) in NAGATA_LAMBDA.items():
            lam = np.where((alpha == a) & (beta == b), x1 + x2 * np.sqrt(phi_a), lam)
    return lam
