r"""Topic set size for the two-way ANOVA without replication (randomised block design).

In IR every run is evaluated on the same topics. The one-way ANOVA design of Sakai (IRJ 2016,
Section 5) treats the runs as independent groups, so the variation between easy and hard topics,
which every run shares, counts as noise. The randomised block design takes the topics as blocks:
the two-way ANOVA without replication with systems (m levels) and topics (n levels) as the
factors. Its residual variance σ̂² is the two-way V_E of a past matrix
(:func:`topicsetsize.estimates.variance.two_way_residual_variance`), from which the topic sum of
squares
has been removed.

The F test of the system effect has φA = m − 1 and φE = (m − 1)(n − 1) degrees of freedom, and
its noncentrality in the least favourable configuration (two systems minD apart, the others at
the grand mean; Sakai, CIKM 2014, Eq. 7) is λ = n·minD²/(2σ²), as in the one-way design. The
power is Pr{F'(φA, φE, λ) ≥ F(φA, φE; α)}. The randomised block ANOVA is the textbook
two-factor design without replication (e.g. D. C. Montgomery, *Design and Analysis of
Experiments*, Section 4.1, the randomized complete block design; T. Sakai, *Laboratory
Experiments in Information Retrieval: Sample Sizes, Effect Sizes, and Statistical Power*,
Springer, 2018, Chapter 3, two-way ANOVA without replication). With m = 2 the F statistic is the
square of the paired t statistic, so the design equals the paired t-test design with σ̂t² = 2σ̂².

Only the exact method exists: the legacy Excel tools have no two-way design, and no
approximation is reproduced here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..numerics.cell import f_power_cell
from ..numerics.distributions import (
    chi2_lambda_one,
    f_power,
    f_power_one,
)
from ..numerics.shapes import as_output
from ..params import check_all
from .kinds import FKind
from .legacy import curve_n, lambda_curve

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["anova2_n", "anova2_power", "anova2_min_d", "anova2_table", "anova2_df"]


def anova2_df(n, *, m):
    """Degrees of freedom (φA, φE) = (m − 1, (m − 1)(n − 1)) of the two-way F test.

    Sakai (*Laboratory Experiments in IR*, 2018, Ch. 3): the randomised block design of m
    systems × n topics without replication.

    Parameters
    ----------
    n : int or array_like
        Number of topics (≥ 2).
    m : int or array_like
        Number of systems (≥ 2).

    Returns
    -------
    tuple of float or ndarray
        (φA, φE).

    Raises
    ------
    ValueError
        One line naming the argument, e.g. n=0.1 (not a whole number of topics ≥ 2).

    Examples
    --------
    >>> anova2_df(20, m=3)
    (2.0, 38.0)
    >>> anova2_df(1, m=10)
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: n=1 is out of range: allowed 2 <= n <= 1000000000 (a whole number)
    """
    n_, m_ = check_all(n=n, m=m)
    dfn = m_ - 1.0
    return as_output(dfn, n, m), as_output(dfn * (n_ - 1.0), n, m)


def _power_at(n, m, effect, alpha, method="exact", precise: bool = True):
    """Exact two-way power for validated arrays; ``effect`` = Δ = minD²/(2σ²), λ = nΔ
    (``precise=False``: the search's fast power, :mod:`topicsetsize.numerics.precision`)."""
    return f_power(alpha, m - 1.0, (m - 1.0) * (n - 1.0), n * effect, precise=precise)


def _power_one(n, m, effect, alpha, method, points=None):
    dfn = m - 1.0
    return f_power_one(alpha, dfn, dfn * (n - 1.0), n * effect, points)


def _power_cell(n, m, effect, alpha, method, use=None, points=None):
    """:func:`_power_at` (precise) at a few n (a 1-d array) of one cell, the same
    bits; at ``n[use]`` only where ``use`` is given
    (:func:`~topicsetsize.numerics.cell.f_power_cell`)."""
    return f_power_cell(alpha, m - 1.0, (m - 1.0) * (n - 1.0), n * effect, use, points)


def _guess(alpha, beta, m, effect, method="exact"):
    """nΔ = λ(φE), the exact λ curve of the φE → ∞ limit (noncentral χ²) corrected to first order
    in 1/φE, φE = (m − 1)(n − 1) (:func:`~topicsetsize.designs.legacy.lambda_curve`)."""
    return curve_n(*lambda_curve(alpha, beta, m - 1.0, "exact"), m - 1.0, effect)


def _lambda_one(alpha, beta, dfn, method):
    return chi2_lambda_one(alpha, beta, dfn)


def _power_of_lambda(lam, alpha, dfn, n, method):
    """The exact power at noncentrality λ (φE = φA(n − 1))."""
    return f_power(alpha, dfn, dfn * (n - 1.0), lam)


def _m_minus_one(m):
    return m - 1.0


#: The two-way ANOVA's pieces (φA = m − 1, φE = (m − 1)(n − 1), λ = nΔ), of the F kind
#: (:class:`topicsetsize.designs.kinds.FKind`).
TWO_WAY = FKind("anova2", power_at=_power_at, power_one=_power_one, guess=_guess,
                lambda_one=_lambda_one, dfe_per_topic=_m_minus_one,
                power_of_lambda=_power_of_lambda, label="two-way",
                power_cell=_power_cell)


def anova2_power(n, *, m, min_d, variance, alpha, method="exact"):
    r"""Power of the two-way ANOVA (without replication) F test of m systems on n topics.

    .. math:: 1 - \beta = \Pr\{F'(\phi_A, \phi_E, \lambda) \ge F(\phi_A, \phi_E; \alpha)\},
              \quad \phi_A = m - 1,\ \phi_E = (m - 1)(n - 1),\ \lambda = n\,minD^2/(2\sigma^2)

    the least favourable configuration of Sakai (CIKM 2014, Eq. 7) in the randomised block
    design (systems × topics; Sakai, *Laboratory Experiments in IR*, 2018, Ch. 3), with σ²
    the two-way residual variance.

    Parameters
    ----------
    n : int or array_like
        Number of topics (≥ 2).
    m : int or array_like
        Number of systems (≥ 2).
    min_d : float or array_like
        Minimum detectable range between the best and the worst system (> 0).
    variance : float or array_like
        Two-way residual variance σ̂² (> 0), e.g.
        :func:`~topicsetsize.estimates.variance.two_way_residual_variance` of a past matrix.
    alpha : float or array_like
        Significance level in (0, 1).
    method : {"exact"}
        The noncentral F; there is no legacy approximation of this design.

    Returns
    -------
    float or ndarray

    Examples
    --------
    With m = 2 it is the exact paired t-test power with σ̂t² = 2σ̂²:

    >>> from topicsetsize import ttest_power
    >>> p2 = anova2_power(34, m=2, min_d=0.5, variance=0.5, alpha=0.05)
    >>> pt = ttest_power(34, min_dt=0.5, variance_t=1.0, alpha=0.05, method="exact")
    >>> round(p2, 4), abs(p2 - pt) < 1e-9
    (0.8078, True)
    """
    return TWO_WAY.power(n, m, min_d, variance, alpha, method)


def anova2_n(alpha, beta, min_d, variance, m, *, method="exact"):
    """Topic set size for the two-way ANOVA (randomised block) design.

    The smallest n ≥ 2 with :func:`anova2_power` ≥ 1 − β (the power rises with n: φE and λ
    both grow), found by the vectorised search :func:`topicsetsize.numerics.search.smallest_n`. The
    arguments are those of :func:`topicsetsize.anova_n`, in the same order, but σ̂² is the
    two-way residual variance, which leaves out the topic effect and is therefore smaller
    than the one-way V_E of the same matrix.

    Parameters
    ----------
    alpha, beta : float or array_like
        Type I and Type II error probabilities: α in (0, 1), β in [1e-9, 1).
    min_d : float or array_like
        Minimum detectable range (> 0).
    variance : float or array_like
        Two-way residual variance σ̂² (> 0).
    m : int or array_like
        Number of systems (≥ 2).
    method : {"exact"}
        The noncentral F; there is no legacy approximation of this design.

    Returns
    -------
    int or ndarray of int

    Raises
    ------
    ValueError
        On an argument out of range; :class:`~topicsetsize.numerics.search.SearchLimitError` when
        no n
        up to 10⁹ topics is enough.

    References
    ----------
    T. Sakai, "Designing test collections for comparing many systems", CIKM 2014.
    T. Sakai, *Laboratory Experiments in Information Retrieval: Sample Sizes, Effect Sizes, and
    Statistical Power*, Springer, 2018, Chapter 3 (two-way ANOVA without replication).
    D. C. Montgomery, *Design and Analysis of Experiments*, Section 4.1 (randomized complete
    block design).

    Examples
    --------
    m = 2 gives the exact paired t-test size (CIKM 2014: minΔt = .5 needs 34 topics):

    >>> anova2_n(0.05, 0.20, 0.5, 0.5, 2)
    34

    At the same σ̂² it needs slightly more topics than the one-way design (exact: 189),
    having fewer residual degrees of freedom; its gain is the smaller two-way σ̂²:

    >>> anova2_n(0.05, 0.20, 0.1, 0.0601, 10)
    190
    """
    return TWO_WAY.n(alpha, beta, min_d, variance, m, method)


def anova2_min_d(n, *, m, variance, alpha, beta, method="exact"):
    """Minimum detectable range minD that n topics guarantee in the two-way design.

    minD = √(2σ²λ/n), where λ solves Pr{F'(m − 1, (m − 1)(n − 1), λ) ≥ F(·; α)} = 1 − β
    (the inverse of :func:`anova2_power` in minD; cf. Sakai, IRJ 2016, Section 7 for the
    one-way design). The returned minD is stepped up to the last bit until its power reaches
    1 − β.

    Parameters
    ----------
    n, m : int or array_like
        Topics (≥ 2) and systems (≥ 2).
    variance : float or array_like
        Two-way residual variance σ̂² (> 0).
    alpha, beta : float or array_like
        Error probabilities: α in (0, 1), β in [1e-9, 1).
    method : {"exact"}
        The noncentral F.

    Returns
    -------
    float or ndarray
        0.0 where any difference already has the power (1 − β ≤ α).

    Examples
    --------
    >>> d = anova2_min_d(100, m=10, variance=0.0601, alpha=0.05, beta=0.20)
    >>> round(d, 4), anova2_power(100, m=10, min_d=d, variance=0.0601, alpha=0.05) >= 0.8
    (0.1378, True)
    """
    return TWO_WAY.min_effect(n, m, variance, alpha, beta, method)


def anova2_table(alpha, *, beta, variance, ms, min_ds, method="exact") -> pd.DataFrame:
    """Table of two-way ANOVA topic set sizes: rows m, columns minD (one vectorised search).

    Each cell is :func:`anova2_n`; the layout is that of :func:`topicsetsize.anova_table`
    (Sakai, AIRS 2016, Table 2).

    Parameters
    ----------
    alpha, beta : float
        Error probabilities: α in (0, 1), β in [1e-9, 1).
    variance : float
        Two-way residual variance σ̂² (> 0).
    ms : sequence of int
        Numbers of systems (each ≥ 2), the rows.
    min_ds : sequence of float
        Minimum detectable ranges (each > 0), the columns.
    method : {"exact"}
        The noncentral F.

    Returns
    -------
    pandas.DataFrame
        Index ``m``, columns ``min_d``, integer cells.

    Examples
    --------
    >>> anova2_table(0.05, beta=0.20, variance=0.0601, ms=[2, 10], min_ds=[0.02, 0.1])
    min_d  0.02  0.10
    m
    2      2361    97
    10     4704   190
    """
    return TWO_WAY.table(alpha, beta, variance, ms, min_ds, method)


def _anova2_n_one(alpha, beta, min_d, variance, m):
    """The one-cell search of :func:`anova2_n` (kept under its name for the search's tests)."""
    return TWO_WAY.n_one(alpha, beta, min_d, variance, m, "exact")
