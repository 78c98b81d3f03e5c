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

from ..numerics.distributions import f_crit, z_upper
from ..numerics.shapes import flat_cells
from ..params import ERROR_USUAL

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
    points too. Where φE < φA* at n − 1, or α > .5, the bound is +inf (n − 1 gets its own
    evaluation).

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
    # above α = .5 the bound fails (a reviewer found it below the power in 76,119 of 198,000
    # random cells with α in (.51, .99), and never at α ≤ .5): n − 1 gets its own evaluation
    monotone = (terms.phi_a_star[k:] <= m * (n - 2.0)) & (alpha <= ERROR_USUAL[1])
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


def _legacy_t_level(alpha):
    """The power level below which, past its start, the legacy t-test power can decrease in n
    (:func:`monotone_from`): min(2α, α + .005) for α ≤ .5, else 1 (a float or an array). A
    target above it needs no check below the start. It was 10α until 2026-12-06, which sent
    every target at α ≥ .1 to the check up to n = 2048 (5–9 ms for one ``ttest_n`` call
    instead of about 20 µs).

    >>> [round(_legacy_t_level(a), 6) for a in (0.001, 0.1, 0.6)]
    [0.002, 0.105, 1.0]
    """
    if isinstance(alpha, float):
        return min(2.0 * alpha, alpha + 0.005) if alpha <= ERROR_USUAL[1] else 1.0
    alpha = np.asarray(alpha, float)
    return np.where(alpha <= ERROR_USUAL[1], np.minimum(2.0 * alpha, alpha + 0.005), 1.0)


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
      min(2α, α + .005) for α ≤ .5 (:func:`_legacy_t_level`; at most 1.76α, at α = 1e-3, over
      effects from 1e-6 to 50 and n up to 8192, and α + .002 from α = .005 to .5, over effects
      from 1e-8 to 60 and n up to 16,384). Above α = .5 no such level is relied on. Targets
      1 − β at or below that level (α > .5 for every target), or smaller α, are checked up to
      n = 2048.
    """
    alpha = np.asarray(alpha, float)
    if method == "exact":
        return np.full(alpha.shape, 2)
    smallest, starts = _LEGACY_SORTED[design]
    from_n = starts[np.searchsorted(smallest, alpha, side="right")]
    if design == "ttest":
        from_n = np.where(np.asarray(target) > _legacy_t_level(alpha), from_n,
                          _LEGACY_FROM_ELSE[design])
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
    if design == "anova" or target > _legacy_t_level(alpha):
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

    The required noncentrality at finite φE is close to λ∞ + k/φE. The curve only guides
    the search, which evaluates each method's own power, so the answer does not depend on
    it; what it costs and what it saves decide how it is computed.

    * The legacy curve is Nagata's approximation (the legacy power) in closed form
      (:func:`_nagata_lambda`): one χ² point per row and otherwise only arithmetic, with k from
      one reference point, φE = 50·(φA + 1).
    * The exact curve starts from Nagata's λ∞, off by a few % for the usual α and β (by up to a
      third at α = .5 and β near .5), and takes Halley steps on the noncentral χ² limit
      (``chndtr``), which leave λ∞ within 1.5e-7 of scipy's inverse for the usual α and β
      (:func:`_exact_curve`; ``chndtrinc`` costs several times more); k = λ∞·χ²(φA; α)/2 is
      the exact tangent at φE = ∞. From it the first power pair of the search settles
      97–99.6% of the cells of the benchmark's tables (issue 28.4). Nagata's curve, used for
      the exact search from φA = 100 on until this curve replaced it, is off by .05% there,
      which costs a long table (m to 10⁵) about 1.5 times the time.
    """
    (a, b, df), inverse, shape = _curve_rows(alpha, beta, phi_a)
    chi2 = special.chdtri(df, a)
    z_b, big_a = z_upper(b), np.sqrt(2.0 * chi2)
    if method == "exact":
        # Nagata's λ∞ (a = 0) starts the Halley steps: it is within a few %.
        lam, slope = _exact_curve(chi2, df, z_b, _nagata_lambda(z_b, df, big_a, 0.0,
                                                                 steps=_NEWTON_START))
    else:
        phi_ref = 50.0 * (df + 1.0)
        # a = wφA/φE at the reference, with F(φA, φE; α) ≈ (χ²/φA)(1 + (χ² − φA + 2)/(2φE))
        # to first order in 1/φE: a guess needs no exact F point.
        a_ref = chi2 * (1.0 + (chi2 - df + 2.0) / (2.0 * phi_ref)) / phi_ref
        # λ∞ (a = 0 as φE → ∞) and λ at the reference, in one call
        lam, lam_ref = _nagata_lambda(
            z_b, df, np.stack([big_a, np.sqrt(a_ref * (2.0 * phi_ref - 1.0))]),
            np.stack([np.zeros_like(a_ref), a_ref]))
        slope = (lam_ref - lam) * phi_ref
    if not np.isfinite(slope).all():    # (a finite slope has a finite λ)
        finite = np.isfinite(lam)
        slope = np.where(np.isfinite(slope) & finite, slope, 0.0)
        lam = np.where(finite, lam, 1.0)
    if inverse is not None:
        lam, slope = lam[inverse], slope[inverse]
    return lam.reshape(shape), slope.reshape(shape)


def curve_n(lam, slope, per_topic, effect):
    """The n with nΔ = λ + k/φE, φE = per_topic·(n − 1): a quadratic in u = n − 1,
    Δu² + (Δ − λ)u − k/per_topic = 0, whose positive root is taken.

    >>> round(float(curve_n(10.0, 20.0, 2.0, 0.1)), 4)      # 0.1·n = 10 + 20/(2(n − 1))
    101.0
    """
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        # in r = λ/Δ, so that a huge Δ does not overflow: u² + (1 − r)u − k/(per_topic·Δ) = 0;
        # Δ underflowed to 0 gives n = inf (the search says too small)
        half = 0.5 * (lam / effect - 1.0)
        return 1.0 + half + np.sqrt(half * half + slope / (per_topic * effect))


def _curve_rows(alpha, beta, phi_a):
    """The rows (α, β, φA) of :func:`lambda_curve`: up to ``_FEW_ROWS`` broadcast rows as they
    are (a table's m, usually distinct: sorting them out would cost more than a repeat), else
    the distinct ones (:func:`_unique_rows`) and the inverse map (None for the former)."""
    if np.ndim(alpha) == 0 and np.ndim(beta) == 0 and np.size(phi_a) <= _FEW_ROWS:
        # a table's rows: one (α, β), its m (α and β broadcast where the rows are used)
        phi = np.asarray(phi_a, float)
        return (np.float64(alpha), np.float64(beta), phi.ravel()), None, phi.shape
    shape = np.broadcast(alpha, beta, phi_a).shape
    if math.prod(shape) <= _FEW_ROWS:
        return flat_cells(*(np.asarray(x, float) for x in (alpha, beta, phi_a)))[1], None, shape
    uniq, inverse, shape = _unique_rows(alpha, beta, phi_a)
    return uniq.T, inverse, shape


#: Rows up to which :func:`lambda_curve` takes the rows as they are.
_FEW_ROWS = 64


#: Nagata's steps that start the exact curve's Halley steps (:func:`_exact_curve`).
_NEWTON_START = 2


def _exact_curve(chi2, phi_a, z_b, lam):
    """The exact λ∞ and its slope k = dλ/d(1/φE) at φE = ∞, from a start ``lam`` close to λ∞
    (``z_b`` = z_β, the upper β point of N(0, 1)).

    λ∞ solves Pr{χ'²(φA, λ) ≥ χ²} = 1 − β, χ² = χ²(φA; α), by Halley steps on
    g(√λ) = Φ⁻¹(power) − z_β, where the power is close to a straight line. The derivatives come
    from P, the noncentral χ² CDF (``chndtr``) at φA, φA + 2 and φA + 4 (one call for all rows
    per step): ∂power/∂λ = ½(P_φA − P_φA+2), ∂²power/∂λ² = −¼(P_φA − 2P_φA+2 + P_φA+4), and
    with s = √λ, g′ = 2s·power′/φ(g), g″ = (4λ·power″ + 2·power′)/φ(g) + g·g′². From Nagata's
    start (within 3% for the usual α and β) one step leaves λ∞ within 1.5e-7 of scipy's
    inverse (``chndtrinc``, several times dearer) for α ≤ .05 and β ≤ .2, 4.4e-3 at worst, and
    two steps within 5.3e-9 (α from 1e-9 to .5, β from 1e-3 to .5, φA from 1 to 10⁶); after a
    step that moved √λ by r the error of λ∞ was at most 0.68·r³ on that grid. Another step is
    taken where some step moved √λ by more than 1.5% (three steps at most): λ∞ is then within
    1.5e-6 of ``chndtrinc`` over that grid, so that a guess of 10⁶ topics is within 1.5
    (Nagata's λ∞, which the exact search took from φA = 100 on, is off by .05%: 500 topics).

    The slope is k = λ∞·χ²/2, so that λ(φE) ≈ λ∞·(1 + χ²/(2φE)). To first order in
    ε = 1/φE: the F test rejects where χ'²(φA, λ) ≥ wφA·V, V = χ²_φE/φE (mean 1, variance
    2ε), with wφA = x(1 + ε(x − φA + 2)/2), x = χ²; so the power is
    Q(x) − ε·[p_φA(x)·x(x − φA + 2)/2 + p′_φA(x)·x²] (Q = 1 − P, p its density), and holding
    it at 1 − β, k = [p·x(x − φA + 2)/2 + p′·x²] / p_{φA+2}. With the mixture identities
    x·p_φ = φ·p_{φ+2} + λ·p_{φ+4} and p′_φ = ½(p_{φ−2} − p_φ), the bracket is x·λ·p_{φA+2}/2.
    Tested against brentq on scipy's ``chndtr`` and Boost's noncentral F. A step that fails
    (not finite or not positive) keeps the previous λ: the result only guides the search.
    """
    phi = phi_a + _SHIFTS
    root = np.sqrt(lam)
    with np.errstate(all="ignore"):
        for _ in range(_CURVE_STEPS):
            lam = root * root
            p0, p2, p4 = special.chndtr(chi2, phi, lam)
            z = -special.ndtri(p0)                          # Φ⁻¹ of the power
            density = np.exp(-0.5 * z * z) / _SQRT_2PI
            d1, d2 = 0.5 * (p0 - p2), -0.25 * (p0 - 2.0 * p2 + p4)
            g1 = 2.0 * root * d1 / density
            g2 = (4.0 * lam * d2 + 2.0 * d1) / density + z * g1 * g1
            f = z - z_b
            step = -2.0 * f * g1 / (2.0 * g1 * g1 - f * g2)
            new = root + step
            root = np.where(np.isfinite(new) & (new > 0), new, root)
            if not (np.abs(step) > _CURVE_CLOSE * root).any():
                break
    lam = root * root
    return lam, 0.5 * lam * chi2


#: At most so many Halley steps of :func:`_exact_curve`; another is taken only where some step
#: moved √λ by more than ``_CURVE_CLOSE`` of it.
_CURVE_STEPS, _CURVE_CLOSE = 3, 0.015
_SHIFTS = np.array([[0.0], [2.0], [4.0]])
_SQRT_2PI = math.sqrt(2.0 * math.pi)


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
