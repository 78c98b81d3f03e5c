r"""The CI width of a difference of two independent means: n topics per system.

For two systems evaluated on their own n topics each, with a common within-system variance σ²
(the one-way V_E of a past matrix), the 100(1 − α)% CI of x̄₁ − x̄₂ is
x̄₁ − x̄₂ ± t(φ; α)·s_p·√(2/n), φ = 2(n − 1), whose expected width is 2·t(φ; α)·E[s_p]·√(2/n)
with E[s_p] = σ·√(2/φ)·Γ((φ + 1)/2)/Γ(φ/2) (the mean of a scaled χ_φ). The design asks for the
smallest n whose expected width is at most δ: the unpaired counterpart of the CI design of
Sakai (IRJ 2016, Section 6; :mod:`topicsetsize.designs.ci`, whose Gamma ratio from the
Pochhammer symbol it shares, finite and accurate at any n). Textbook result: J. Cohen, 1988;
T. Nagata, 2003.
"""

from __future__ import annotations

import numpy as np

from .ci import expected_width
from .kinds import WidthKind

__all__ = ["ci2_n", "ci2_delta"]


def unpaired_shape(n, sd):
    """The unpaired CI's degrees of freedom and standard error at n topics per system:
    φ = 2(n − 1), σ·√(2/n)."""
    return 2.0 * (n - 1.0), sd * np.sqrt(2.0 / n)


def _unpaired_width(n, sd, alpha):
    return expected_width(*unpaired_shape(n, sd), alpha)


def ci2_delta(n, *, variance, alpha, method="exact"):
    r"""Expected width of the 100(1 − α)% CI of a difference of two independent means.

    .. math:: E[W] = 2\,t(\phi; \alpha)\,E[s_p]\sqrt{2/n},\quad
              E[s_p] = \sigma\sqrt{2/\phi}\,\frac{\Gamma((\phi+1)/2)}{\Gamma(\phi/2)},\quad
              \phi = 2(n - 1)

    with n topics per system and the pooled standard deviation s_p (the unpaired counterpart
    of Sakai, IRJ 2016, Eq. 14).

    Parameters
    ----------
    n : int or array_like
        Topics per system (≥ 2).
    variance : float or array_like
        Within-system variance σ̂² (> 0).
    alpha : float or array_like
        1 − confidence level, in (0, 1).
    method : {"exact"}
        The exact E[s_p] (the design's one method).

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> [round(ci2_delta(n, variance=0.05, alpha=0.05), 4) for n in (155, 154)]
    [0.0999, 0.1002]
    """
    return UNPAIRED_WIDTH.power(n, variance, alpha, method)


def ci2_n(alpha, delta, variance, *, method="exact"):
    """Topics per system for the unpaired CI design: the smallest n with expected width ≤ δ.

    The expected width is :func:`ci2_delta`, decreasing in n; the search starts at the normal
    approximation n₀ = 8·z_{α/2}²·σ̂²/δ².

    Parameters
    ----------
    alpha : float or array_like
        1 − confidence level, in (0, 1).
    delta : float or array_like
        Largest acceptable expected CI width (> 0).
    variance : float or array_like
        Within-system variance σ̂² (> 0).
    method : {"exact"}
        The exact E[s_p] (the design's one method).

    Returns
    -------
    int or ndarray of int
        n per system.

    Examples
    --------
    Per system, about as many topics as the paired CI design with σ̂t² = 2σ̂² needs in all
    (``ci_n(0.05, 0.10, 0.10)`` is 156):

    >>> ci2_n(0.05, 0.10, 0.05)
    155
    """
    return UNPAIRED_WIDTH.n(alpha, delta, variance, method)


def _guess(za, sd, variance, delta):
    """n₀ = 8·z_{α/2}²·σ̂²/δ², floats or arrays."""
    return 8.0 * za * za * variance / delta / delta


#: The unpaired CI's pieces (φ = 2(n − 1), se = σ√(2/n)), of the width kind
#: (:class:`topicsetsize.designs.kinds.WidthKind`).
UNPAIRED_WIDTH = WidthKind("ci2", width=_unpaired_width, guess=_guess, label="unpaired CI")
