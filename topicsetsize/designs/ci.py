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

from ..numerics.distributions import t_crit
from .kinds import WidthKind

__all__ = ["ci_delta", "ci_n"]


def expected_width(df, se, alpha):
    """Expected width of a 100(1 − α)% t interval with φ degrees of freedom.

    E[W] = 2·t(φ; α)·se·√(2/φ)·Γ((φ + 1)/2)/Γ(φ/2), where ``se`` is the standard error at
    s = σ: E[s] = σ·√(2/φ)·Γ((φ + 1)/2)/Γ(φ/2) for a sample standard deviation s with φ
    degrees of freedom (Sakai, IRJ 2016, Section 6). The paired design has φ = n − 1 and
    se = σt/√n; the unpaired one φ = 2(n − 1) and se = σ√(2/n). The Gamma ratio is the
    Pochhammer symbol (φ/2)_{1/2}, finite and accurate at any φ.

    >>> round(float(expected_width(78.0, np.sqrt(0.05 / 79), 0.05)), 4)    # ci_delta(79, ...)
    0.0998
    """
    return 2.0 * t_crit(alpha, df) * se * np.sqrt(2.0 / df) * special.poch(df / 2.0, 0.5)


def paired_shape(n, sd_t):
    """The paired CI's degrees of freedom and standard error at n topics: φ = n − 1, σt/√n."""
    return n - 1.0, sd_t / np.sqrt(n)


def _paired_width(n, sd_t, alpha):
    return expected_width(*paired_shape(n, sd_t), alpha)


def ci_delta(n, *, variance_t, alpha, method="exact"):
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
    method : {"exact"}
        The exact E[√V] (the design's one method).

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> [round(ci_delta(n, variance_t=0.05, alpha=0.05), 4) for n in (79, 78)]
    [0.0998, 0.1005]
    """
    return PAIRED_WIDTH.power(n, variance_t, alpha, method)


def ci_n(alpha, delta, variance_t, *, method="exact"):
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
    method : {"exact"}
        The exact E[√V] (the design's one method).

    Returns
    -------
    int or ndarray of int

    Examples
    --------
    The three worked examples of ``docs/formulas.md`` §6:

    >>> ci_n(0.05, 0.10, 0.05), ci_n(0.05, 0.05, 0.02), ci_n(0.01, 0.10, 0.10)
    (79, 125, 269)
    """
    return PAIRED_WIDTH.n(alpha, delta, variance_t, method)


def _guess(za, sd, variance, delta):
    """n₀ = 4·z_{α/2}²·σ̂t²/δ² (Sakai, IRJ 2016, Eq. 15), floats or arrays."""
    r = sd / delta
    return 4.0 * za * za * r * r


#: The paired CI's pieces (φ = n − 1, se = σt/√n), of the width kind
#: (:class:`topicsetsize.designs.kinds.WidthKind`).
PAIRED_WIDTH = WidthKind("ci", width=_paired_width, guess=_guess)
