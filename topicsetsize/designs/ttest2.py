r"""The unpaired (two-sample) t-test design: two systems on different topic sets, n topics each.

When two systems cannot be run on the same topics (e.g. across collections, or when each
system's own topics are sampled separately), the paired designs do not apply. With n topics per
group and scores normal with a common within-system variance σ² (estimated by the one-way V_E
of a past matrix, which pools the runs' variances), Student's equal-variance test has
t = (x̄₁ − x̄₂)/(s_p·√(2/n)) with φ = 2(n − 1) degrees of freedom; for a true difference minD its
noncentrality is λ = minD·√(n/2)/σ, and the two-sided power is Pr{|t'(φ, λ)| ≥ t(φ; α)}.

The standard textbook result (J. Cohen, *Statistical Power Analysis for the Behavioral
Sciences*, 2nd ed., 1988, Chapter 2; T. Nagata, *How to design the sample size*, Asakura, 2003,
the two-sample chapters), the unpaired counterpart of the paired t-test design of Sakai (IRJ
2016, Section 3); T. Sakai, *Laboratory Experiments in Information Retrieval*, Springer, 2018,
Chapter 6, also sizes a two-sample t-test design. Exact method only.
"""

from __future__ import annotations

import math

import numpy as np

from ..numerics.distributions import t_power, t_power_one, z_upper
from ..numerics.search import describe_cells, smallest_n_for_power
from ..numerics.search_one import probit_one, smallest_n_one
from ..numerics.shapes import as_output
from ..params import check_all, check_choice, check_scalars
from .effects import t_effect
from .registry import DESIGNS

__all__ = ["ttest2_n", "ttest2_power"]


#: The methods of the design, from its declaration.
METHODS = DESIGNS["ttest2"].methods


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
