"""Within-system variance estimates from past score matrices (``docs/formulas.md`` §1).

Topic set size design needs an estimate σ̂² of the within-system (residual) variance. It comes
from a past topics × runs score matrix: the one-way ANOVA residual variance of AIRS 2016 Eq. 1
(the default everywhere), the two-way ANOVA (without replication) residual variance, or either
pooled over several matrices with degrees-of-freedom weights.
"""

from __future__ import annotations

import numpy as np

from ..errors import InputError
from ..matrices.matrix import check_matrix
from ..params import check_choice

__all__ = ["ESTIMATORS", "residual_variance", "two_way_residual_variance", "residual_df",
           "pooled_variance", "ROUNDING", "check_varies", "negligible", "ZERO_MEANS",
           "vanishes", "require_sizeable"]

#: Variation below this fraction of the values' magnitude is rounding error, not signal: a
#: matrix whose scores (or run means) spread less is treated as constant, and a mean square
#: below (ROUNDING x max|x|)**2 as 0 (:func:`check_varies`, the G-study).
ROUNDING = 1e-12

#: The residual-variance estimators, by the name ``pooled_variance`` takes.
ESTIMATORS = ("one-way", "two-way")

# Doctest matrix: Table 5.1 of Sakai's book (20 topics × 3 runs), see docs/formulas.md §9.
_BOOK = [[.7, .5, 0], [.3, .1, 0], [.2, 0, .2], [.6, .2, .1], [.4, .4, .3], [.4, .3, .3],
         [0, 0, .1], [.7, .5, .2], [.1, .3, .4], [.3, .3, .4], [.5, .4, .4], [.4, .4, .3],
         [0, .1, .3], [.6, .4, .2], [.5, .2, .2], [.3, .1, .2], [.1, .1, .1], [.5, .6, .5],
         [.2, .3, .4], [.1, .2, .3]]


def check_varies(x: np.ndarray, *, name: str = "scores", what: str = "",
                 plural: bool = False) -> None:
    """Refuse values that are constant, or that vary only at rounding level: a spread
    max − min at most :data:`ROUNDING` × max|x| (scores of 0.5 varying at 1e-15). Such
    variation is rounding error; estimated as a variance, it would be taken for signal (a V_E
    near 1e-31, every minD below 1e-14 "detectable").

    ``what`` says what needs values that vary (appended to the message); ``plural``: ``name``
    names several values ("the runs' mean scores are all equal", not "is constant").

    >>> check_varies(np.array([0.5, 0.5 + 1e-15, 0.5]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: scores vary only at rounding level (a spread of ... up to 0.5, ...
    """
    spread, size = float(x.max() - x.min()), float(np.abs(x).max())
    if spread > ROUNDING * size:
        return
    if spread == 0:
        text = (f"{name} {'are all equal' if plural else 'is constant'} (every value is "
                f"{float(x.flat[0]):g})")
    else:
        text = (f"{name} vary only at rounding level (a spread of {spread:.3g} in values up to "
                f"{size:.3g}, below {ROUNDING:g} of them): treated as constant, by V_E and "
                "the G-study alike")
    raise InputError(text + (f": {what}" if what else ""))


#: What an estimate of 0 (:func:`negligible`) says about the scores, by estimator: no n can be
#: sized on it, and the commands that show one say why.
ZERO_MEANS = {"one-way": "every run scores the same on every topic",
              "two-way": "every pair of runs differs by the same amount on every topic"}


def negligible(variance: float, scale: float) -> bool:
    """Whether a variance estimate is 0 up to rounding: at most (:data:`ROUNDING` × ``scale``)²,
    ``scale`` the largest magnitude of the scores (1 for std-AB scores). Constant runs give
    about 1e-33 rather than 0 in floating point (the mean of three 0.1 is not 0.1).

    >>> negligible(4.8e-34, 0.3), negligible(0.0001, 0.3)
    (True, False)
    """
    return variance <= (ROUNDING * scale) ** 2


def vanishes(estimate: float, *scores) -> bool:
    """Whether a variance ``estimate`` of the matrices ``scores`` is 0 up to rounding:
    :func:`negligible` on the scale of their largest magnitude.

    >>> vanishes(4.8e-34, [[0.2, 0.3], [0.2, 0.3]]), vanishes(0.01, [[0.2, 0.3], [0.2, 0.5]])
    (True, False)
    """
    return negligible(estimate, max(float(np.abs(np.asarray(x, float)).max()) for x in scores))


def require_sizeable(v_e: float, scores, name: str | None = None) -> None:
    """Refuse, in one line, a one-way V_E of ``scores`` that is 0 up to rounding
    (:func:`vanishes`): no topic set size can be sized on it. ``name`` names the matrix (None:
    the caller does).

    >>> require_sizeable(4.8e-34, [[0.2, 0.3], [0.2, 0.3]], "const.csv")
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: const.csv: V_E raw = 0 (every run scores the same on every \
topic): no topic set size can be sized on it
    """
    if vanishes(v_e, scores):
        raise InputError(f"{name + ': ' if name else ''}V_E raw = 0 ({ZERO_MEANS['one-way']}): "
                         "no topic set size can be sized on it")


def residual_variance(scores) -> float:
    r"""One-way ANOVA residual variance V_E of a topics × runs matrix (AIRS 2016, Eq. 1).

    .. math:: V_E = \frac{\sum_i \sum_j (x_{ij} - \bar x_{i\bullet})^2}{m'(n'-1)}

    where x_ij is the score of run i on topic j, x̄_i• the mean of run i over the n' topics and
    m' the number of runs. This is the estimate of Table 1 and Table 2 of T. Sakai, "A simple
    and effective approach to score standardisation", AIRS 2016 (Eq. 1), and the default
    estimate of the package.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        Topics as rows, runs as columns (at least 2 of each), finite values.

    Returns
    -------
    float

    Examples
    --------
    Table 5.1 of Sakai's book (20 topics × 3 runs; ``docs/formulas.md`` §9):

    >>> round(residual_variance(_BOOK), 10)
    0.0326491228
    """
    x = check_matrix(scores).values
    return float(((x - x.mean(axis=0)) ** 2).sum() / residual_df(x, estimator="one-way"))


def two_way_residual_variance(scores) -> float:
    r"""Two-way ANOVA (without replication) residual variance V_E2, topics as the second factor.

    .. math:: V_{E2} = \frac{\sum_i \sum_j (x_{ij} - \bar x_{i\bullet} - \bar x_{\bullet j}
              + \bar x)^2}{(m'-1)(n'-1)}

    with x̄_•j the mean of topic j over the runs and x̄ the grand mean: the residual mean square
    of a two-way ANOVA without replication with runs and topics as the factors
    (``docs/formulas.md`` §1; the worked example is Table 5.1 of Sakai's book on IR evaluation
    methodology). Its sum of squares is the one-way one minus the topic sum of squares.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        Topics as rows, runs as columns (at least 2 of each), finite values.

    Returns
    -------
    float

    Examples
    --------
    >>> round(two_way_residual_variance(_BOOK), 10)
    0.0218859649
    """
    x = check_matrix(scores).values
    resid = x - x.mean(axis=0) - x.mean(axis=1, keepdims=True) + x.mean()
    return float((resid ** 2).sum() / residual_df(x, estimator="two-way"))


_FUNCTIONS = {"one-way": residual_variance, "two-way": two_way_residual_variance}


def residual_df(scores, *, estimator: str = "one-way") -> int:
    """Residual degrees of freedom φ of a matrix: m'(n'−1) one-way, (m'−1)(n'−1) two-way.

    Examples
    --------
    >>> residual_df(_BOOK), residual_df(_BOOK, estimator="two-way")
    (57, 38)
    """
    estimator = check_choice("estimator", estimator, ESTIMATORS)
    n, m = np.shape(scores)
    return m * (n - 1) if estimator == "one-way" else (m - 1) * (n - 1)


def pooled_variance(matrices, *, estimator: str = "one-way") -> float:
    r"""Residual variance pooled over several score matrices, weighted by degrees of freedom.

    .. math:: \hat\sigma^2_{pooled} = \frac{\sum_C \phi_C V_C}{\sum_C \phi_C}

    where V_C is the residual variance of matrix C (:func:`residual_variance` or
    :func:`two_way_residual_variance`) and φ_C its residual degrees of freedom, m'(n'−1) for the
    one-way and (m'−1)(n'−1) for the two-way estimate (Sakai, IRJ 2016, "Topic set
    size design", pooled variance over past data sets). The matrices may differ in size.

    Parameters
    ----------
    matrices : sequence of DataFrame or 2-D array-like
        One or more topics × runs matrices.
    estimator : {"one-way", "two-way"}
        Which residual variance to pool.

    Returns
    -------
    float

    Examples
    --------
    Pooling a matrix with itself changes nothing; pooling with a shifted copy neither:

    >>> round(pooled_variance([_BOOK, _BOOK]), 10)
    0.0326491228
    >>> import numpy as np
    >>> round(pooled_variance([_BOOK, np.asarray(_BOOK) + 1], estimator="two-way"), 10)
    0.0218859649
    """
    estimator = check_choice("estimator", estimator, ESTIMATORS)
    if isinstance(matrices, np.ndarray) and matrices.ndim == 2 or hasattr(matrices, "columns"):
        raise InputError("matrices must be a list of score matrices, e.g. [scores1, scores2]; "
                         "got a single matrix")
    matrices = list(matrices)
    if not matrices:
        raise InputError("matrices is empty: give at least one score matrix")
    variance = _FUNCTIONS[estimator]
    weights, values = [], []
    for k, scores in enumerate(matrices):
        x = check_matrix(scores, name=f"matrices[{k}]").values
        weights.append(residual_df(x, estimator=estimator))
        values.append(variance(x))
    return float(np.dot(weights, values) / np.sum(weights))
