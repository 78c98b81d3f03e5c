r"""The power of Tukey's HSD for one pair in closed form, and the n of
:func:`~topicsetsize.designs.allpairs.allpairs_n` without simulation where its target is one
pair (:func:`one_pair_n`).

:mod:`~topicsetsize.designs.allpairs` simulates Tukey's HSD over all pairs of m systems; where
the target is a single pair (the best–worst pair, or all pairs under the least-favourable
configuration, whose only pair minD apart is that one), its power is one noncentral t tail and
needs no simulation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from ..numerics.search import probit, smallest_n
from ..params import N_MAX
from .allpairs import checked_arguments
from .effects import t_effect

__all__ = ["OnePairN", "one_pair_n"]


@dataclass(frozen=True)
class OnePairN:
    """The n of :func:`one_pair_n`, with the powers at n − 1 (None for n = 2) and n."""

    n: int
    power: float
    power_below: float | None


def one_pair_n(alpha: float, beta: float, min_d: float, variance: float, m: int, *,
               configuration: str = "least-favourable", target: str = "all-pairs"
               ) -> OnePairN | None:
    r"""The n of :func:`~topicsetsize.designs.allpairs.allpairs_n` without simulation, where its
    target is one pair; else None.

    The target is one pair where it is the best–worst pair (``target="best-worst"``, any
    configuration), and where it is all pairs under the least-favourable configuration, whose
    only pair at least minD apart is the best and the worst system. All pairs under the
    equally-spaced configuration are m − 1 pairs at once, and under two clusters ⌊m/2⌋·⌈m/2⌉
    (one where m = 2): simulated only (None).

    The pair (a, b) with μ_b − μ_a = D is detected in the right direction where
    T = (x̄_b − x̄_a)/√(2V_E/n) ≥ q(1 − α; m, φ)/√2, φ = (m − 1)(n − 1). The run means are
    independent N(μ_i, σ²/n) and φV_E/σ² is χ²_φ independent of them (the module notes), so T is
    noncentral t with φ degrees of freedom and noncentrality D√(n/(2σ²)), and the power is

    .. math:: 1 - F_{t'}\left(q(1-\alpha; m, \phi)/\sqrt 2;\ \phi,\ D\sqrt{n/(2\sigma^2)}\right)

    (``scipy.special.nctdtr``; q by ``scipy.stats.studentized_range``), which rises with n. D is
    minD, or (m − 1)·minD for the equally-spaced best–worst pair. n is the smallest with that
    power at least 1 − β, by :func:`topicsetsize.numerics.search.smallest_n` from the guess of
    :func:`~topicsetsize.designs.allpairs.allpairs_n`: the answer the simulation estimates, with
    no Monte Carlo error.

    Parameters
    ----------
    alpha, beta, min_d, variance, m, configuration, target
        As in :func:`~topicsetsize.designs.allpairs.allpairs_n`.

    Returns
    -------
    OnePairN or None
        n with the powers at n − 1 and n; None where the target is more than one pair.

    Raises
    ------
    topicsetsize.SearchLimitError
        Where even 10⁹ topics leave the pair's power below 1 − β.

    Examples
    --------
    >>> r = one_pair_n(0.05, 0.20, 0.05, 0.0132, 10)
    >>> r.n, round(r.power_below, 4), round(r.power, 4)
    (170, 0.7971, 0.8004)
    >>> one_pair_n(0.05, 0.20, 0.05, 0.0132, 10, configuration="equally-spaced") is None
    True
    """
    alpha, beta, min_d, variance, m, configuration, target = checked_arguments(
        alpha, beta, min_d, variance, m, configuration, target)
    spaced = configuration == "equally-spaced"
    if target == "all-pairs" and (spaced or configuration == "two-clusters" and m > 2):
        return None     # several pairs at once (two clusters of m = 2 are the one pair)
    gap = (m - 1) * min_d if spaced else min_d
    effect = float(t_effect(np.asarray(gap), np.asarray(variance), names=("min_d", "variance")))

    def power(n: int) -> float:
        df = (m - 1) * (n - 1)
        w = float(stats.studentized_range.ppf(1 - alpha, m, df)) / math.sqrt(2.0)
        nc = effect * math.sqrt(n / 2.0)
        p = float(1.0 - special.nctdtr(df, nc, w))
        if math.isfinite(p):
            return p
        # scipy gives NaN at a huge noncentrality (1e50): there T ≈ nc/√(χ²_φ/φ), whose tail
        # beyond w is Pr{χ²_φ ≤ φ(nc/w)²} (1 where that overflows)
        with np.errstate(over="ignore"):
            return float(special.chdtr(df, df * np.square(np.float64(nc) / w)))

    q_inf = float(stats.studentized_range.ppf(1 - alpha, m, np.inf))
    with np.errstate(over="ignore"):
        guess = float(np.clip(np.square(np.float64(q_inf + math.sqrt(2) * stats.norm.ppf(
            1 - beta)) / effect), 2.0, N_MAX))
    found, below, at = smallest_n(
        lambda ns, idx: np.array([power(int(k)) for k in ns]), [1 - beta], [guess],
        n_max=N_MAX, transform=probit,
        describe=lambda i: f"m={m}, min_d={min_d:g}, variance={variance:g}, "
                           f"configuration={configuration!r}", values=True)
    n = int(found[0])
    # the search's own powers at n − 1 and n (each costs a studentized range quantile), computed
    # again only where it did not keep them (NaN)
    at = float(at[0]) if math.isfinite(at[0]) else power(n)
    below = None if n <= 2 else float(below[0]) if math.isfinite(below[0]) else power(n - 1)
    return OnePairN(n, at, below)
