"""Topic set size from the expected width of a confidence interval.

For the difference between two systems, the 100(1 − α)% CI is
x̄_d ± t(n − 1; α)·√(V/n), with V the sample variance of the per-topic
differences. Its expected width is 2·t(n − 1; α)·E[√V]/√n, where
E[√V] = σt·√(2/(n − 1))·Γ(n/2)/Γ((n − 1)/2) (Sakai, IRJ 2016, Section 6;
the samplesizeCI sheet). The design asks for the smallest n whose expected
width is at most δ. The Gamma ratio comes from the Pochhammer symbol
(scipy.special.poch), finite and accurate at any n (Γ itself overflows past
n ≈ 340, and a difference of log-gammas loses digits at large n).
"""

from __future__ import annotations

import numpy as np
from scipy import special

from .distributions import t_crit, z_upper
from .params import check_all
from .shapes import as_output
from .search import smallest_n

__all__ = ["ci_delta", "ci_n"]


def _expected_width(n, sd_t, alpha):
    ratio = special.poch((n - 1.0) / 2.0, 0.5)      # Γ(n/2)/Γ((n−1)/2), to ~1e-11 at any n
    return 2.0 * np.sqrt(2.0) * sd_t * t_crit(alpha, n - 1.0) * ratio / np.sqrt(n * (n - 1.0))


def ci_delta(n, *, variance_t, alpha):
    """Expected width of the 100(1 − α)% CI of a difference, with n topics.

    E[W] = 2√2·σt·t(n − 1; α)·Γ(n/2) / (√(n(n − 1))·Γ((n − 1)/2))
    (Sakai, IRJ 2016, Eq. 14 with the exact E[√V]).

    Parameters
    ----------
    n : int or array_like
        Number of topics (≥ 2).
    variance_t : float or array_like
        Variance σ̂t² of the per-topic score differences (> 0).
    alpha : float or array_like
        1 − confidence level, in (0, 1).

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> [round(ci_delta(n, variance_t=0.05, alpha=0.05), 4) for n in (79, 78)]
    [0.0998, 0.1005]
    """
    n_, v, a = check_all(n=n, variance_t=variance_t, alpha=alpha)
    return as_output(_expected_width(n_, np.sqrt(v), a), n, variance_t, alpha)


def ci_n(alpha, delta, variance_t):
    """Topic set size for the CI design: the smallest n with expected width ≤ δ.

    n = min{n ≥ 2 : t(n − 1; α)·Γ(n/2)/(√(n(n − 1))·Γ((n − 1)/2)) ≤ δ/(2√2·σt)}
    (Sakai, IRJ 2016, Section 6). The initial estimate is
    n₀ = 4·z_{α/2}²·σ̂t²/δ² (Eq. 15); the search goes both ways from it.

    Parameters
    ----------
    alpha : float or array_like
        1 − confidence level, in (0, 1).
    delta : float or array_like
        Largest acceptable expected CI width (> 0).
    variance_t : float or array_like
        Variance σ̂t² of the per-topic score differences (> 0).

    Returns
    -------
    int or ndarray of int

    Examples
    --------
    The three worked examples of ``docs/formulas.md`` §6:

    >>> ci_n(0.05, 0.10, 0.05), ci_n(0.05, 0.05, 0.02), ci_n(0.01, 0.10, 0.10)
    (79, 125, 269)
    """
    a, d, v = check_all(alpha=alpha, delta=delta, variance_t=variance_t)
    sd = np.sqrt(v)
    guess = 4.0 * z_upper(a / 2.0) ** 2 * np.square(sd / d)    # (σ/δ)²: no overflow
    fa, fs = a.ravel(), sd.ravel()

    def precision(n, i):          # 1/width grows like √n: close to linear in √n
        return 1.0 / _expected_width(n, fs[i], fa[i])

    def describe(i):
        return f"alpha={fa[i]:g}, delta={d.flat[i]:g}, variance_t={v.flat[i]:g}"

    n = smallest_n(precision, 1.0 / d, guess, describe=describe)
    return as_output(n, alpha, delta, variance_t)
