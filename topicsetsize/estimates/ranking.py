"""Ranking agreement: Kendall's τ between two run rankings, with the AIRS 2016 confidence interval.

The std-AB paper (Sakai, AIRS 2016, Table 1 column g) asks whether standardisation changes the
ranking of the runs: it ranks the runs by their mean raw score and by their mean std-AB score and
reports Kendall's τ between the two rankings with a 95% confidence interval (AIRS 2016, Table 1).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import stats

from ..errors import InputError
from ..numerics.distributions import z_upper
from ..params import check

__all__ = ["KendallTau", "kendall_tau_ci", "kendall_tau_interval"]


class KendallTau(NamedTuple):
    """Kendall's τ and the bounds of its confidence interval (unpacks as ``tau, low, high``).

    Attributes
    ----------
    tau : float
        Kendall's τ between the two rankings.
    low, high : float
        The bounds of its confidence interval.
    """

    tau: float
    low: float
    high: float


def kendall_tau_interval(tau, *, m, alpha: float = 0.05) -> KendallTau:
    r"""The AIRS 2016 confidence interval of Kendall's τ between two rankings of m runs.

    .. math:: \tau \pm z_{\alpha/2}\sqrt{\frac{2(2m+5)}{9m(m-1)}}

    where z_{α/2} is the upper α/2 point of N(0, 1) and the root is the standard deviation of τ
    under independence. This is how column g of Table 1 of T. Sakai, "A simple and effective
    approach to score standardisation" (AIRS 2016) was computed (``docs/formulas.md`` §3); as
    there, the bounds are **not** clipped to [−1, 1]. The root is τ's spread where the rankings
    are unrelated, so this is not a confidence interval for the τ of two related rankings (a
    bootstrap over TREC 2010 Web AP's topics gives about [.81, .93] where it gives
    [.746, 1.030]); it is kept to reproduce the paper.

    Parameters
    ----------
    tau : float or array-like
        Kendall's τ.
    m : int or array-like
        The number of runs ranked (≥ 2).
    alpha : float, default 0.05
        1 − the confidence level.

    Returns
    -------
    KendallTau
        ``(tau, low, high)``; floats, or arrays for array input.

    Examples
    --------
    MedNLPDoc precision, Table 1 of the paper (14 runs): τ = .978 [.585, 1.371].

    >>> [round(v, 3) for v in kendall_tau_interval(0.978, m=14)]
    [0.978, 0.585, 1.371]
    """
    alpha = check("alpha", alpha, allow_array=False)
    m = check("m", m)
    tau = np.asarray(tau, dtype=float)
    half = z_upper(alpha / 2) * np.sqrt(2 * (2 * m + 5) / (9 * m * (m - 1)))
    parts = np.broadcast_arrays(tau, tau - half, tau + half)
    if parts[0].ndim == 0:
        return KendallTau(*(float(p) for p in parts))
    return KendallTau(*parts)


def kendall_tau_ci(x, y, *, alpha: float = 0.05) -> KendallTau:
    r"""Kendall's τ between two rankings of the same runs, with its confidence interval.

    τ is :func:`scipy.stats.kendalltau` (τ-b, which is τ-a when there are no ties); the interval
    is :func:`kendall_tau_interval`,

    .. math:: \tau \pm z_{\alpha/2}\sqrt{\frac{2(2m+5)}{9m(m-1)}},

    not clipped (T. Sakai, AIRS 2016, Table 1 column g).

    Parameters
    ----------
    x, y : 1-D array-like or pandas.Series
        **One score per run** that ranks the runs, typically the mean over the topics:
        ``raw.mean(axis=0)`` and ``std_ab(raw).mean(axis=0)`` rank the runs as the paper does.
        Two Series are aligned by run name. A single row or column (e.g. an Excel range) is
        accepted; to compare two matrices, pass their run means.
    alpha : float, default 0.05
        1 − the confidence level.

    Returns
    -------
    KendallTau
        ``(tau, low, high)``.

    Raises
    ------
    ValueError
        Different numbers (or names) of runs, fewer than 2 runs, a non-finite score, or a
        ranking in which every run ties (τ is undefined).

    Examples
    --------
    >>> result = kendall_tau_ci([0.1, 0.2, 0.3, 0.4], [0.1, 0.3, 0.2, 0.4])
    >>> round(result.tau, 4), round(result.low, 4), round(result.high, 4)
    (0.6667, -0.295, 1.6283)
    """
    x, y = _aligned_runs(x, y)
    tau = stats.kendalltau(x, y).statistic
    if not np.isfinite(tau):
        raise InputError("Kendall's tau is undefined: every run ties in x or in y")
    return kendall_tau_interval(tau, m=x.size, alpha=alpha)


def _aligned_runs(x, y) -> tuple[np.ndarray, np.ndarray]:
    if isinstance(x, pd.Series) and isinstance(y, pd.Series) and not x.index.equals(y.index):
        if set(x.index) != set(y.index) or not x.index.is_unique:
            extra = x.index.symmetric_difference(y.index)
            first = repr(extra[0]) if len(extra) else "duplicated names"
            raise InputError(f"x and y name different runs (first difference: {first})")
        y = y.reindex(x.index)
    out = []
    for name, v in (("x", x), ("y", y)):
        try:
            arr = np.asarray(v, dtype=float)
        except (TypeError, ValueError):
            raise InputError(f"{name} must hold one number per run") from None
        if sum(d > 1 for d in arr.shape) > 1:
            raise InputError(f"{name} must hold one score per run (1-D), got shape {arr.shape}; "
                             "for a score matrix pass its run means, scores.mean(axis=0)")
        arr = arr.reshape(-1)
        if not np.isfinite(arr).all():
            k = int(np.argmax(~np.isfinite(arr)))
            raise InputError(f"{name}[{k}]={float(arr[k])!r} is not a finite number")
        out.append(arr)
    if out[0].size != out[1].size:
        raise InputError(f"x has {out[0].size} runs but y has {out[1].size}")
    if out[0].size < 2:
        raise InputError(f"x and y have {out[0].size} run(s): Kendall's tau needs at least 2")
    return out[0], out[1]
