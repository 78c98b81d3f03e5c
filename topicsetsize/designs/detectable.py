"""What a given number of topics guarantees: the minimum detectable difference.

The inverse of the sample size problem in the effect: for a fixed n, the
smallest minD (ANOVA) or minDt (paired t-test) whose power reaches 1 − β. It
answers questions such as "what does a 100-topic collection guarantee for
m = 10 systems?" (Sakai, IRJ 2016, Section 7; AIRS 2016, recommendations).

The noncentrality λ that reaches the power is found by a vectorised bracketing
root finder (:func:`topicsetsize.numerics.roots.smallest_reaching`), the same code for both
methods. λ then gives minD = √(2σ²λ/n) or minDt = σt·λ/√n.
"""

from __future__ import annotations

import numpy as np

from ..params import check_all, check_method
from .power import anova_effect, anova_power_at, ttest_power_at
from ..numerics.roots import at_least, smallest_reaching
from ..numerics.shapes import as_output
from ..errors import InputError

__all__ = ["anova_min_d", "ttest_min_dt"]


def power_of_lambda(design: str, method: str, lam, alpha, df_a, n):
    """Power as a function of the noncentrality λ; an undefined approximation counts as 0."""
    if design == "anova":
        p = anova_power_at(n, df_a + 1.0, lam / n, alpha, method)
    else:
        p = ttest_power_at(n, lam / np.sqrt(n), alpha, method)
    return np.where(np.isnan(p), 0.0, p)


def _lambda_required(design: str, method: str, alpha, beta, df_a, n, *, tol: float = 1e-13):
    """The smallest λ ≥ 0 with power ≥ 1 − β, elementwise (0 where λ = 0 already suffices).

    ``design`` is "anova" (``df_a`` = φA = m − 1, φE = m(n − 1), λ = nΔ) or
    "ttest" (``df_a`` unused, φ = n − 1, λ = √n·minΔt). ``n`` may be real.
    Returns NaN where no λ reaches the power (an approximation that is
    undefined at this n). ``tol`` is the relative and absolute tolerance on λ.
    """
    alpha, beta, df_a, n = np.broadcast_arrays(*(np.asarray(x, float)
                                                 for x in (alpha, beta, df_a, n)))

    def f(lam, a, t, d, nn):
        return power_of_lambda(design, method, lam, a, d, nn) - t

    return smallest_reaching(f, (alpha, 1.0 - beta, df_a, n), first_step=8.0 + df_a, tol=tol)


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
        Error probabilities in (0, 1).
    method : {"legacy", "exact"}

    Returns
    -------
    float or ndarray
        The smallest minD whose power is at least 1 − β (checked to the last
        bit); 0.0 where any difference has it already (1 − β ≤ α).

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
    method = check_method(method)
    n_, m_, v, a, b = check_all(n=n, m=m, variance=variance, alpha=alpha, beta=beta)
    lam = _lambda_required("anova", method, a, b, m_ - 1.0, n_)
    _raise_unreachable(lam, "anova", method, a, b, m_ - 1.0, n_)
    # λ was solved to the last bit; the conversion to minD can lose it, so make sure the
    # returned minD itself has the power (zero stays zero: it needs no effect at all).
    d = at_least(np.sqrt(2.0 * v * lam / n_), lambda x: (x == 0) | (np.nan_to_num(anova_power_at(
        n_, m_, anova_effect(x, v), a, method)) >= 1.0 - b))
    return as_output(d, n, m, variance, alpha, beta)


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
        Error probabilities in (0, 1).
    method : {"legacy", "exact"}

    Returns
    -------
    float or ndarray
        The smallest minDt whose power is at least 1 − β (checked to the last
        bit); 0.0 where any difference has it already (1 − β ≤ α).

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
    method = check_method(method)
    n_, v, a, b = check_all(n=n, variance_t=variance_t, alpha=alpha, beta=beta)
    lam = _lambda_required("ttest", method, a, b, 0.0, n_)
    _raise_unreachable(lam, "ttest", method, a, b, 0.0, n_)
    sd = np.sqrt(v)
    d = at_least(sd * lam / np.sqrt(n_), lambda x: (x == 0) | (
        ttest_power_at(n_, x / sd, a, method) >= 1.0 - b))
    return as_output(d, n, variance_t, alpha, beta)


def _raise_unreachable(lam, design, method, alpha, beta, df_a, n):
    """One line where λ is undefined (the legacy approximation at too few topics), saying
    from which n it is defined: the first of the next 1024 sizes where λ is finite."""
    bad = ~np.isfinite(lam)
    if not bad.any():
        return
    cell = tuple(np.argwhere(bad)[0])
    a, b, d, n0 = (float(np.broadcast_to(x, lam.shape)[cell]) for x in (alpha, beta, df_a, n))
    sizes = np.arange(int(n0) + 1, int(n0) + 1025, dtype=float)
    defined = np.isfinite(_lambda_required(design, method, a, b, d, sizes))
    need = f"n >= {int(sizes[defined.argmax()])}" if defined.any() else "a larger n"
    raise InputError(f"n={int(n0)} is too small for the {method} approximation to reach the "
                     f"power at any difference: allowed {need}, or method='exact'")
