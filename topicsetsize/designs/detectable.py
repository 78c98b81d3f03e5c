"""The minimum detectable effect of a design: the smallest noncentrality λ that reaches the power.

The inverse of the sample size problem in the effect: for a fixed n, the smallest λ whose power
reaches 1 − β, from which a design gets its minimum detectable difference (Sakai, IRJ 2016,
Section 7; AIRS 2016, recommendations): minD = √(2σ²λ/n) for the one-way ANOVA, minDt = σt·λ/√n
for the paired t-test. λ is found by a vectorised bracketing root finder
(:func:`topicsetsize.numerics.roots.smallest_reaching`), the same code for every design and
method: a design supplies its power as a function of λ.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..errors import InputError
from ..numerics.roots import smallest_reaching

__all__ = ["lambda_required", "raise_unreachable", "powerless", "F_LAMBDA_MAX",
           "POWERLESS_WITHIN"]

#: A power asked for, 1 − β, within this of α counts as not above it (:func:`powerless`; the
#: workbook's status, ``generator/sheets/calculators/scale_note.py``, takes it from here).
POWERLESS_WITHIN = 1e-9

#: The largest noncentrality an F design's minimum difference is searched for. Boost's
#: noncentral beta sums some √λ terms where its tail is neither 0 nor 1: 1 s at λ = 1e16 and 18 s
#: at 1e18 (measured at α = 1e-70 and 1e-100, φ2 = 10), so that a search doubling λ up to its NaN
#: at ~1e19 ran for minutes (``min-d anova --n 2 --alpha 1e-300``: 696 s; α = 1e-70, λ = 2.5e15:
#: 19 s). Every λ below is answered; a power that needs more is refused by
#: :func:`raise_unreachable` (it takes an α below about 1e-60 at n = 2, m = 10: α = 1e-50 needs
#: λ = 2.5e11). The t designs' powers integrate from λ = 1000 on, at the same cost at any λ.
F_LAMBDA_MAX = 1e15

#: A design's power as a function of the noncentrality: ``power(lam, alpha, df_a, n)``.
PowerOfLambda = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], np.ndarray]


def lambda_required(power: PowerOfLambda, alpha, beta, df_a, n, *, tol: float = 1e-13,
                    limit: float = 1e250):
    """The smallest λ ≥ 0 with power ≥ 1 − β, elementwise (0 where λ = 0 already suffices).

    ``power(lam, alpha, df_a, n)`` is the design's power at noncentrality λ (``df_a`` = φA for
    the ANOVA, unused by the t-test; ``n`` may be real); where it is NaN (an approximation
    undefined at this n) it counts as 0. Returns NaN where no λ up to ``limit`` reaches the
    power (:data:`F_LAMBDA_MAX` for the F designs). ``tol`` is the relative and absolute
    tolerance on λ.

    >>> from scipy import special
    >>> lam = lambda_required(lambda lam, a, d, n: special.ndtr(lam - 1.96), 0.05, 0.2, 0, 10)
    >>> round(float(lam), 4)              # z-test: λ = z_{α/2} + z_β = 1.96 + 0.8416
    2.8016
    """
    alpha, beta, df_a, n = np.broadcast_arrays(*(np.asarray(x, float)
                                                 for x in (alpha, beta, df_a, n)))

    def f(lam, a, t, d, nn):
        return np.nan_to_num(power(lam, a, d, nn), nan=0.0) - t

    return smallest_reaching(f, (alpha, 1.0 - beta, df_a, n), first_step=8.0 + df_a, tol=tol,
                             limit=limit)


def raise_unreachable(lam, power: PowerOfLambda, method: str, alpha, beta, df_a, n, *,
                      limit: float = 1e250) -> None:
    """One line where λ is undefined (the legacy approximation at too few topics; the exact
    method at an α so small that λ is beyond what Boost computes, e.g. α = 1e-50 at n = 3),
    saying from which n it is defined: the first of the next 1024 sizes where λ is finite."""
    bad = ~np.isfinite(lam)
    if not bad.any():
        return
    cell = tuple(np.argwhere(bad)[0])
    a, b, d, n0 = (float(np.broadcast_to(x, lam.shape)[cell]) for x in (alpha, beta, df_a, n))
    sizes = np.arange(int(n0) + 1, int(n0) + 1025, dtype=float)
    defined = np.isfinite(lambda_required(power, a, b, d, sizes, limit=limit))
    need = f"n >= {int(sizes[defined.argmax()])}" if defined.any() else "a larger n"
    if method == "exact":   # an α so small that the noncentrality is beyond what is computed
        raise InputError(f"n={int(n0)} is too small to reach the power at alpha={a:.15g} with "
                         f"any difference the exact noncentral distributions can compute: "
                         f"allowed {need}, or a larger alpha")
    raise InputError(f"n={int(n0)} is too small for the {method} approximation to reach the "
                     f"power at any difference: allowed {need}, or method='exact'")


def powerless(alpha: float, beta: float) -> str | None:
    """The one line for a power asked for, 1 − β, that is not above α (else None): every test
    has at least that power whatever the scores, so n = 2 and a minimum difference of 0 "reach"
    it and detect nothing. The command line warns with it; the Excel functions refuse with it.

    >>> powerless(0.05, 0.95) is not None       # 1 - beta = alpha + 4.4e-17: not above it
    True
    >>> powerless(0.05, 0.2) is None
    True
    >>> powerless(0.5, 0.5)[:60]
    'beta=0.5 with alpha=0.5 asks for a power, 1 - beta = 0.5, th'
    """
    # within 1e-9 of α counts too: there the powers' precision (3e-11) cannot place n (β = .95
    # at α = .05, 1 − β = α + 4.4e-17, m = 10⁶, two-way: 377 topics one way, 150 the other)
    if 1.0 - beta > alpha + POWERLESS_WITHIN:
        return None
    return (f"beta={beta:.15g} with alpha={alpha:.15g} asks for a power, 1 - beta = "
            f"{1.0 - beta:.15g}, that is not above alpha: every test has at least that power "
            "whatever the scores, so the answer (n = 2, a minimum difference of 0) says nothing "
            "about detecting a real one")
