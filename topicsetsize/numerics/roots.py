"""Vectorised root finding for the inverse problems: the smallest λ at which a power is reached.

The minimum detectable differences (:mod:`topicsetsize.designs.detectable`,
:mod:`topicsetsize.designs.anova2`) invert a power curve in the noncentrality λ, one cell per array
element. :func:`smallest_reaching` brackets and narrows every cell at once: the right end doubles
until the power is reached, then the Illinois variant of regula falsi narrows each bracket.

scipy ≥ 1.15 has a vectorised bracketing root finder (:func:`scipy.optimize.elementwise.find_root`,
Chandrupatla's method), and this module used it where it could. It no longer does: scipy 1.14,
which Pyodide and so xlwings Lite ship, lacks it, so the search below had to exist anyway, and
importing ``scipy.optimize`` for it cost 0.19 s of CPU in every process that computes a minimum
difference (the default workbook's precomputed minD table among them: 0.4 times the import floor
of its budget, issue 28.6), for the same λ within the tolerance (the tests compare the two where
scipy has ``find_root``, and both with :func:`scipy.optimize.brentq`). One path also means the
same search on every platform (the powers it inverts are scipy.special's, of each platform's
scipy).
"""

from __future__ import annotations

import numpy as np

__all__ = ["smallest_reaching", "at_least"]


def smallest_reaching(f, args, *, first_step, tol: float = 1e-13,
                      limit: float = 1e250) -> np.ndarray:
    """Per cell, the smallest x ≥ 0 with ``f(x, *args) ≥ 0`` (0 where f(0) ≥ 0 already).

    ``f`` is increasing in x (a power minus its target) and vectorised over the 1-D arrays
    ``args``; ``first_step`` (per cell) is where the bracket search starts looking. Returns
    NaN where f never reaches 0 below ``limit`` (e.g. an approximation undefined at this n).
    ``tol`` is the relative and absolute tolerance on x, and the returned x itself satisfies
    f(x) ≥ 0.

    Examples
    --------
    >>> smallest_reaching(lambda x, t: x * x - t, (np.array([4.0, 0.0]),),
    ...                   first_step=np.array([1.0, 1.0])).round(12).tolist()
    [2.0, 0.0]
    """
    args = tuple(np.asarray(x, float) for x in args)
    x = np.zeros(np.broadcast(*args).shape)
    args = tuple(np.broadcast_to(a, x.shape) for a in args)
    at_zero = f(x, *args)
    todo = ~(at_zero >= 0)                           # cells that x = 0 does not satisfy
    if not todo.any():
        return x
    sub = tuple(a[todo] for a in args)
    step = np.broadcast_to(np.asarray(first_step, float), x.shape)[todo]
    step = np.where(step > 0, step, 1.0)         # a step of 0 (or NaN) would never double
    x[todo] = _first_root(f, np.zeros(step.size), step, np.asarray(at_zero)[todo], sub, tol,
                          limit=limit)
    return x


def _first_root(f, lo, hi, f_lo, args, tol, *, limit: float = 1e250, max_steps: int = 2000):
    """Where f crosses from < 0 to ≥ 0 on [lo, ∞), elementwise.

    ``f_lo`` = f(lo) < 0 is given. The right end doubles until ``f(hi) ≥ 0`` (NaN where it never
    does below ``limit``); then the Illinois variant of regula falsi narrows [lo, hi] with
    f(lo) < 0 ≤ f(hi) until hi − lo ≤ tol·(1 + hi). A point is kept half the tolerance inside
    the bracket, so that where the interpolation lands on an end (f(hi) = 0 exactly, or a
    power converging from one side) the other end moves up to it and the bracket closes; where
    two interpolated steps in a row fail to halve the bracket, it bisects instead. Returns hi, a
    point where the power is reached.
    """
    lo, hi, f_lo = np.array(lo, float), np.array(hi, float), np.array(f_lo, float)
    args = tuple(np.asarray(x) for x in args)
    f_hi = f(hi, *args)
    out = ~(f_hi >= 0)
    while out.any():                                     # bracket: double the right end
        idx = np.flatnonzero(out)
        lo[idx], f_lo[idx] = hi[idx], f_hi[idx]
        hi[idx] = hi[idx] * 2.0
        f_hi[idx] = f(hi[idx], *(x[idx] for x in args))
        out[idx] = ~(f_hi[idx] >= 0) & (hi[idx] < limit)
    found = f_hi >= 0
    side = np.zeros(lo.shape, np.int8)                   # which end moved last (Illinois)
    slow = np.zeros(lo.shape, np.int8)                   # steps in a row that did not halve it
    width = hi - lo
    active = np.flatnonzero(found & (width > tol * (1.0 + hi)))
    for _ in range(max_steps):
        if active.size == 0:
            break
        a, b, fa, fb = lo[active], hi[active], f_lo[active], f_hi[active]
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            x = b - fb * (b - a) / (fb - fa)
        ok = np.isfinite(x) & (x >= a) & (x <= b) & (slow[active] < 2)
        x = np.where(ok, x, a + 0.5 * (b - a))
        inside = 0.5 * tol * (1.0 + b)       # an active bracket is wider than twice this
        x = np.minimum(np.maximum(x, a + inside), b - inside)
        fx = f(x, *(v[active] for v in args))
        up = fx >= 0
        # Illinois: halve the stale end's value when the same end moves twice in a row.
        s = side[active]
        f_lo[active] = np.where(~up, fx, np.where(s == 1, fa * 0.5, fa))
        f_hi[active] = np.where(up, fx, np.where(s == -1, fb * 0.5, fb))
        lo[active] = np.where(up, a, x)
        hi[active] = np.where(up, x, b)
        side[active] = np.where(up, 1, -1)
        narrower = hi[active] - lo[active]
        slow[active] = np.where(ok & (narrower > 0.5 * width[active]), slow[active] + 1, 0)
        width[active] = narrower
        active = active[narrower > tol * (1.0 + hi[active])]
    return np.where(found, hi, np.nan)


def at_least(value, reaches):
    """Step each value up by one ulp at a time until ``reaches(value)`` holds (at most 64)."""
    value = np.array(value, float, copy=True)
    for _ in range(64):
        short = np.isfinite(value) & ~reaches(value)
        if not short.any():
            break
        value[short] = np.nextafter(value[short], np.inf)
    return value
