"""The one-way and two-way ANOVA's n where some cells have none: inf beyond the search limit.

A legacy n below the limit may have an exact one beyond it (`recommend`, `budget`), and a
resample of the topics or a realistic minD may ask for more than 10⁹ topics (`report`, the
budget's intervals): each says so with inf instead of stopping at the first such cell.
"""

from __future__ import annotations

import numpy as np

from ..designs.registry import DESIGNS
from ..numerics.search import SearchLimitError
from ..params import N_MAX

__all__ = ["n_or_inf"]


def n_or_inf(design: str, min_d, variance, *, alpha: float, beta: float, m,
             method: str) -> np.ndarray:
    """n of the one-way (``design="anova"``) or two-way (``"anova2"``) ANOVA at the arrays
    ``min_d``, ``variance`` and ``m`` (broadcast; ``m`` one number or one per cell), as floats,
    inf where no n up to the search limit (10⁹) has power 1 − β: a minD too small to detect
    against that variance. Those cells are found by the power at the limit; the others are
    searched as ``anova_n`` searches them.

    >>> n_or_inf("anova", 0.02, [0.0601, 1e5], alpha=0.05, beta=0.2, m=2,
    ...          method="legacy").tolist()
    [2301.0, inf]
    >>> n_or_inf("anova", [0.02, 0.02], [0.0601, 1e5], alpha=0.05, beta=0.2, m=[2, 10],
    ...          method="exact").tolist()
    [2360.0, inf]
    """
    n_of, power = (DESIGNS[design].function(role) for role in ("n", "power"))
    min_d, variance = np.broadcast_arrays(np.asarray(min_d, float), np.asarray(variance, float))
    per_cell = np.ndim(m) > 0      # a single m stays one number: one row of the search's guess
    if per_cell:
        min_d, variance, m = np.broadcast_arrays(min_d, variance, np.asarray(m))
    try:
        return np.asarray(n_of(alpha, beta, min_d, variance, m, method=method), float)
    except SearchLimitError:
        reach = power(N_MAX, m=m, min_d=min_d, variance=variance, alpha=alpha,
                      method=method) >= 1.0 - beta
        out = np.full(min_d.shape, np.inf)
        if reach.any():
            out[reach] = n_of(alpha, beta, min_d[reach], variance[reach],
                              m[reach] if per_cell else m, method=method)
        return out
