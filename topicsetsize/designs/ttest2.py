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
from typing import TYPE_CHECKING

import numpy as np

from ..numerics.distributions import t_power, t_power_one, t_power_pair
from .kinds import TKind

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["ttest2_n", "ttest2_power", "ttest2_min_d", "ttest2_table"]


def _ttest2_power_at(n, effect, alpha, method="exact"):
    """Two-sample t power for validated arrays; ``effect`` = minD/σ, n per group."""
    return t_power(alpha, 2.0 * (n - 1.0), effect * np.sqrt(n / 2.0))


def _ttest2_power_one(n, effect, alpha, method="exact"):
    return t_power_one(alpha, 2.0 * (n - 1.0), effect * math.sqrt(n / 2.0))


def _guess(za, zb, effect):
    """n₀ = 2((z_{α/2} + z_β)/(minD/σ))² + z_{α/2}²/4 (Cohen 1988), floats or arrays."""
    r = (za + zb) / effect
    return 2.0 * r * r + za * za / 4.0


def _power_pair(n, effect, alpha):
    """The power at n and a bound of it at n − 1, one critical t (issue 28)."""
    return t_power_pair(alpha, 2.0 * (n - 1.0), effect * np.sqrt(n / 2.0), 2.0 * (n - 2.0),
                        effect * np.sqrt((n - 1.0) / 2.0))


def _scale(n):
    """λ = √(n/2)·minD/σ."""
    return np.sqrt(n / 2.0)


#: The two-sample t-test's pieces (φ = 2(n − 1), λ = √(n/2)·minD/σ), of the t kind
#: (:class:`topicsetsize.designs.kinds.TKind`).
UNPAIRED = TKind("ttest2", power_at=_ttest2_power_at, power_one=_ttest2_power_one,
                 guess=_guess, scale=_scale, label="two-sample t-test", power_pair=_power_pair)


def ttest2_power(n, *, min_d, variance, alpha, method="exact"):
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
    method : {"exact"}
        The noncentral t.

    Returns
    -------
    float or ndarray

    Examples
    --------
    Cohen's medium effect (d = .5) with 64 per group has power .80 (Cohen 1988, Table 2.4.1):

    >>> round(ttest2_power(64, min_d=0.5, variance=1.0, alpha=0.05), 3)
    0.801
    """
    return UNPAIRED.power(n, min_d, variance, alpha, method)


def ttest2_n(alpha, beta, min_d, variance, *, method="exact"):
    """Topics per system for the two-sample (unpaired) t-test design.

    The smallest n ≥ 2 from which :func:`ttest2_power` stays at or above 1 − β, by the
    vectorised search :func:`topicsetsize.numerics.search.smallest_n` started at the normal
    approximation n₀ = 2((z_{α/2} + z_β)σ/minD)² + z_{α/2}²/4 (Cohen 1988, Eq. 2.4.1 and
    its correction).

    Parameters
    ----------
    alpha, beta : float or array_like
        Type I and Type II error probabilities: α in (0, 1), β in [1e-9, 1).
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
    return UNPAIRED.n(alpha, beta, min_d, variance, method)


def ttest2_min_d(n, *, variance, alpha, beta, method="exact"):
    r"""Minimum detectable difference minD that n topics per system guarantee (unpaired t-test).

    The smallest minD whose two-sided two-sample t-test power (:func:`ttest2_power`) is at
    least 1 − β:

    .. math:: minD = \sigma\,\lambda/\sqrt{n/2},\quad
              \Pr\{|t'(2(n - 1), \lambda)| \ge t(2(n - 1); \alpha)\} = 1 - \beta

    (the inverse of :func:`ttest2_power` in minD; Cohen 1988, Chapter 2; the paired
    counterpart is Sakai, IRJ 2016, Section 3). λ is solved to the last bit and the returned
    minD is stepped up until its own power reaches 1 − β.

    Parameters
    ----------
    n : int or array_like
        Topics per system (≥ 2).
    variance : float or array_like
        Within-system variance σ̂² (> 0), the same in both groups, e.g. a one-way V_E.
    alpha, beta : float or array_like
        Error probabilities: α in (0, 1), β in [1e-9, 1).
    method : {"exact"}
        The noncentral t.

    Returns
    -------
    float or ndarray
        The smallest minD whose power is at least 1 − β; 0.0 where any difference has it
        already (1 − β ≤ α).

    Examples
    --------
    64 topics per system detect Cohen's medium effect (d = .5) with power .80:

    >>> d = ttest2_min_d(64, variance=1.0, alpha=0.05, beta=0.20)
    >>> round(d, 4), ttest2_power(64, min_d=d, variance=1.0, alpha=0.05) >= 0.8
    (0.4991, True)
    """
    return UNPAIRED.min_effect(n, variance, alpha, beta, method)


def ttest2_table(alpha, *, beta, variance, min_ds, method="exact") -> pd.DataFrame:
    """Table of two-sample t-test topic set sizes (per system): rows σ̂², columns minD.

    Each cell is :func:`ttest2_n`, all in one vectorised search; the layout of
    :func:`topicsetsize.ttest_table` (Sakai, IRJ 2016, Section 3) for the unpaired design.

    Parameters
    ----------
    alpha, beta : float
        Error probabilities: α in (0, 1), β in [1e-9, 1).
    variance : float or sequence of float
        Within-system variances σ̂² (each > 0), the rows.
    min_ds : sequence of float
        Minimum detectable differences (each > 0), the columns.
    method : {"exact"}
        The noncentral t.

    Returns
    -------
    pandas.DataFrame
        Index ``variance``, columns ``min_d``, integer cells (topics per system).

    Examples
    --------
    >>> ttest2_table(0.05, beta=0.20, variance=[0.5, 1.0], min_ds=[0.5, 1.0])
    min_d     0.5  1.0
    variance
    0.5        33    9
    1.0        64   17
    """
    return UNPAIRED.table(alpha, beta, variance, min_ds, method)
