r"""Topic set size for unpaired comparisons: two systems evaluated on different topic sets.

When two systems cannot be run on the same topics (e.g. across collections, or when each
system's own topics are sampled separately), the paired designs do not apply. With n topics
per group, scores normal with a common within-system variance σ² (estimated by the one-way V_E
of a past matrix, which pools the runs' variances):

* **two-sample t-test** (Student's, equal variances): t = (x̄₁ − x̄₂)/(s_p·√(2/n)) with
  φ = 2(n − 1) degrees of freedom; for a true difference minD its noncentrality is
  λ = minD·√(n/2)/σ, and the two-sided power is Pr{|t'(φ, λ)| ≥ t(φ; α)};
* **CI width of a difference of two independent means**: x̄₁ − x̄₂ ± t(φ; α)·s_p·√(2/n), whose
  expected width is 2·t(φ; α)·E[s_p]·√(2/n) with
  E[s_p] = σ·√(2/φ)·Γ((φ + 1)/2)/Γ(φ/2) (the mean of a scaled χ_φ).

These are the standard textbook results (e.g. J. Cohen, *Statistical Power Analysis for the
Behavioral Sciences*, 2nd ed., 1988, Chapter 2; T. Nagata, *How to design the sample size*,
Asakura, 2003, the two-sample chapters), the unpaired counterparts of the paired t-test and CI
designs of Sakai (IRJ 2016, Sections 3 and 6); T. Sakai, *Laboratory Experiments in Information
Retrieval: Sample Sizes, Effect Sizes, and Statistical Power*, Springer, 2018, Chapter 6, also
sizes a two-sample t-test design. The Gamma ratio comes from the Pochhammer
symbol as in :mod:`topicsetsize.designs.ci`, finite and accurate at any n.
"""

from __future__ import annotations

import math

import numpy as np

from .ci import expected_width, smallest_width_n, smallest_width_n_one
from ..numerics.distributions import t_power, t_power_one, z_upper
from ..params import check_all, check_choice, check_scalars
from .power import t_effect
from ..numerics.search import describe_cells, probit_one, smallest_n_for_power, smallest_n_one
from ..numerics.shapes import as_output

__all__ = ["ttest2_n", "ttest2_power", "ci2_n", "ci2_delta"]

#: The methods of the unpaired designs (there is no legacy tool to reproduce).
METHODS = ("exact",)


def _ttest2_power_at(n, effect, alpha):
    """Two-sample t power for validated arrays; ``effect`` = minD/σ, n per group."""
    return t_power(alpha, 2.0 * (n - 1.0), effect * np.sqrt(n / 2.0))


def ttest2_power(n, *, min_d, variance, alpha):
    r"""Power of the two-sided two-sample t-test with n topics per system.

    .. math:: 1 - \beta = \Pr\{|t'(\phi, \lambda)| \ge t(\phi; \alpha)\},\quad
              \phi = 2(n - 1),\ \lambda = \frac{minD}{\sigma}\sqrt{n/2}

    (Student's equal-variance test; Cohen 1988, Chapter 2).

    Parameters
    ----------
    n : int or array_like
        Topics per system (≥ 2); 2n topics in all.
    min_d : float or array_like
        Minimum detectable difference between the two systems (> 0).
    variance : float or array_like
        Within-system variance σ̂² (> 0), the same in both groups, e.g. a one-way V_E.
    alpha : float or array_like
        Significance level in (0, 1).

    Returns
    -------
    float or ndarray

    Examples
    --------
    Cohen's medium effect (d = .5) with 64 per group has power .80 (Cohen 1988, Table 2.4.1):

    >>> round(ttest2_power(64, min_d=0.5, variance=1.0, alpha=0.05), 3)
    0.801
    """
    n_, d_, v_, a_ = check_all(n=n, min_d=min_d, variance=variance, alpha=alpha)
    power = _ttest2_power_at(n_, d_ / np.sqrt(v_), a_)
    return as_output(power, n, min_d, variance, alpha)


def ttest2_n(alpha, beta, min_d, variance, *, method="exact"):
    """Topics per system for the two-sample (unpaired) t-test design.

    The smallest n ≥ 2 from which :func:`ttest2_power` stays at or above 1 − β, by the
    vectorised search :func:`topicsetsize.numerics.search.smallest_n` started at the normal
    approximation n₀ = 2((z_{α/2} + z_β)σ/minD)² + z_{α/2}²/4 (Cohen 1988, Eq. 2.4.1 and
    its correction).

    Parameters
    ----------
    alpha, beta : float or array_like
        Type I and Type II error probabilities, each in (0, 1).
    min_d : float or array_like
        Minimum detectable difference (> 0).
    variance : float or array_like
        Within-system variance σ̂² (> 0), e.g. the one-way V_E of a past matrix.
    method : {"exact"}
        The noncentral t.

    Returns
    -------
    int or ndarray of int
        n per system: the whole experiment needs 2n topics.

    Raises
    ------
    ValueError
        On an argument out of range; :class:`~topicsetsize.numerics.search.SearchLimitError` when
        no n
        up to 10⁹ is enough.

    Examples
    --------
    Cohen's d = .5 needs 64 per group. Per group that is about what the paired design needs
    with σ̂t² = 2σ̂² (uncorrelated systems; ``ttest_n(0.05, 0.2, 0.5, 2.0, method="exact")`` is
    65), so 2n = 128 topics in all, twice as many:

    >>> ttest2_n(0.05, 0.20, 0.5, 1.0)
    64
    """
    check_choice("method", method, METHODS)
    one = check_scalars(alpha=alpha, beta=beta, min_d=min_d, variance=variance)
    if one is not None:
        a, b, d, v = one
        effect = float(t_effect(d, v, names=("min_d", "variance")))
        za = float(z_upper(a / 2.0))
        with np.errstate(all="ignore"):
            r = (za + float(z_upper(b))) / effect
            guess = 2.0 * r * r + za * za / 4.0    # floats: a product overflows to inf
            n = smallest_n_one(
                lambda n: t_power_one(a, 2.0 * (n - 1.0), effect * math.sqrt(n / 2.0)),
                1.0 - b, guess, 2, transform=probit_one)
        if n is not None:
            return n
    a, b, d, v = check_all(alpha=alpha, beta=beta, min_d=min_d, variance=variance)
    effect = t_effect(d, v, names=("min_d", "variance"))
    za = z_upper(a / 2.0)
    with np.errstate(over="ignore"):
        guess = 2.0 * ((za + z_upper(b)) / effect) ** 2 + za * za / 4.0
    describe = describe_cells({"alpha": a, "beta": b, "min_d": d, "variance": v},
                              "two-sample t-test")
    n = smallest_n_for_power(_ttest2_power_at, b, guess, cells=(effect, a), describe=describe)
    return as_output(n, alpha, beta, min_d, variance)


def _unpaired_width(n, sd, alpha):
    return expected_width(2.0 * (n - 1.0), sd * np.sqrt(2.0 / n), alpha)


def ci2_delta(n, *, variance, alpha):
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

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> [round(ci2_delta(n, variance=0.05, alpha=0.05), 4) for n in (155, 154)]
    [0.0999, 0.1002]
    """
    n_, v, a = check_all(n=n, variance=variance, alpha=alpha)
    return as_output(_unpaired_width(n_, np.sqrt(v), a), n, variance, alpha)


def ci2_n(alpha, delta, variance):
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
    one = check_scalars(alpha=alpha, delta=delta, variance=variance)
    if one is not None:
        a, d, v = one
        with np.errstate(over="ignore", divide="ignore"):
            za = float(z_upper(a / 2.0))
            guess = 8.0 * za * za * v / d / d    # floats: a product overflows to inf
        n = smallest_width_n_one(_unpaired_width, d, guess, math.sqrt(v), a)
        if n is not None:
            return n
    a, d, v = check_all(alpha=alpha, delta=delta, variance=variance)
    sd = np.sqrt(v)
    with np.errstate(over="ignore", divide="ignore"):   # δ² beyond the float range: 0 or inf,
        guess = 8.0 * z_upper(a / 2.0) ** 2 * v / (d * d)   # a guess that the search clips

    describe = describe_cells({"alpha": a, "delta": d, "variance": v}, "unpaired CI")
    n = smallest_width_n(_unpaired_width, d, guess, sd, a, describe)
    return as_output(n, alpha, delta, variance)
