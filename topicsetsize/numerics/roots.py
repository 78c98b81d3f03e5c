"""Vectorised root finding for the inverse problems: the smallest λ at which a power is reached.

The minimum detectable differences (:mod:`topicsetsize.designs.detectable`,
:mod:`topicsetsize.designs.anova2`) invert a power curve in the noncentrality λ, one cell per array
element. :func:`smallest_reaching` brackets and narrows every cell at once with scipy's
vectorised bracketing root finder (:func:`scipy.optimize.elementwise.find_root`, scipy ≥ 1.15).
Where scipy is older (Pyodide, and so xlwings Lite, ships scipy 1.14), a small vectorised
bracket-and-Illinois search in this module takes its place and gives the same λ to the
requested tolerance.
"""

from __future__ import annotations

import numpy as np

#: scipy.optimize.elementwise (scipy >= 1.15), imported on first use (importing scipy.optimize
#: costs about 0.2 s); None where scipy is older, or where a test forces the fallback.
elementwise = ...


def _scipy_elementwise():
    global elementwise
    if elementwise is ...:
        try:
            from scipy.optimize import elementwise as found
        except ImportError:          # pragma: no cover - exercised by forcing the fallback
            found = None
        elementwise = found
    return elementwise


__all__ = ["smallest_reaching", "at_least"]


def smallest_reaching(f, args, *, first_step, tol: float = 1e-13) -> np.ndarray:
    """Per cell, the smallest x ≥ 0 with ``f(x, *args) ≥ 0`` (0 where f(0) ≥ 0 already).

    ``f`` is increasing in x (a power minus its target) and vectorised over the 1-D arrays
    ``args``; ``first_step`` (per cell) is where the bracket search starts looking. Returns
    NaN where f never reaches 0 (e.g. an approximation undefined at this n). ``tol`` is the
    relative and absolute tolerance on x, and the returned x itself satisfies f(x) ≥ 0.

    Examples
    --------
    >>> smallest_reaching(lambda x, t: x * x - t, (np.array([4.0, 0.0]),),
    ...                   first_step=np.array([1.0, 1.0])).round(12).tolist()
    [2.0, 0.0]
    """
    args = tuple(np.asarray(x, float) for x in args)
    x = np.zeros(np.broadcast(*args).shape)
    args = tuple(np.broadcast_to(a, x.shape) for a in args)
    todo = ~(f(x, *args) >= 0)                       # cells that x = 0 does not satisfy
    if not todo.any():
        return x
    sub = tuple(a[todo] for a in args)
    start = np.zeros(int(todo.sum()))
    step = np.broadcast_to(np.asarray(first_step, float), x.shape)[todo]
    scipy_roots = _scipy_elementwise()
    if scipy_roots is None:
        x[todo] = _first_root(f, start, start + step, sub, tol)
        return x
    bracket = scipy_roots.bracket_root(f, start, start + step, xmin=0.0, args=sub)
    root = scipy_roots.find_root(f, bracket.bracket, args=sub,
                                 tolerances=dict(xrtol=tol, xatol=tol))
    # find_root returns a point within tolerance of the crossing: take the bracket end
    # where f is reached.
    found = np.where(f(root.x, *sub) >= 0, root.x, root.bracket[1])
    x[todo] = np.where(bracket.success & root.success, found, np.nan)
    return x


def _first_root(f, lo, hi, args, tol, *, limit: float = 1e250, max_steps: int = 2000):
    """Where f crosses from < 0 to ≥ 0 on [lo, ∞), elementwise, for scipy without ``elementwise``.

    ``f(lo) < 0`` is given. The right end doubles until ``f(hi) ≥ 0`` (NaN where it never
    does below ``limit``); then the Illinois variant of regula falsi narrows [lo, hi] with
    f(lo) < 0 ≤ f(hi) until hi − lo ≤ tol·(1 + hi); every third step, and wherever the
    interpolated point is unusable, it bisects instead, so the bracket at least halves every
    three steps. Returns hi, a point where the power is reached.
    """
    lo, hi = np.array(lo, float), np.array(hi, float)
    args = tuple(np.asarray(x) for x in args)
    f_hi = f(hi, *args)
    out = ~(f_hi >= 0)
    while out.any():                                     # bracket: double the right end
        idx = np.flatnonzero(out)
        lo[idx] = hi[idx]
        hi[idx] = hi[idx] * 2.0
        f_hi[idx] = f(hi[idx], *(x[idx] for x in args))
        out[idx] = ~(f_hi[idx] >= 0) & (hi[idx] < limit)
    found = f_hi >= 0
    f_lo = f(lo, *args)
    side = np.zeros(lo.shape, np.int8)                   # which end moved last (Illinois)
    active = np.flatnonzero(found & (hi - lo > tol * (1.0 + hi)))
    for step in range(max_steps):
        if active.size == 0:
            break
        a, b, fa, fb = lo[active], hi[active], f_lo[active], f_hi[active]
        with np.errstate(invalid="ignore", divide="ignore"):
            x = b - fb * (b - a) / (fb - fa)
        ok = np.isfinite(x) & (x > a) & (x < b) & (step % 3 != 2)
        x = np.where(ok, x, a + 0.5 * (b - a))
        fx = f(x, *(v[active] for v in args))
        up = fx >= 0
        # Illinois: halve the stale end's value when the same end moves twice in a row.
        s = side[active]
        f_lo[active] = np.where(~up, fx, np.where(s == 1, fa * 0.5, fa))
        f_hi[active] = np.where(up, fx, np.where(s == -1, fb * 0.5, fb))
        lo[active] = np.where(up, a, x)
        hi[active] = np.where(up, x, b)
        side[active] = np.where(up, 1, -1)
        active = active[hi[active] - lo[active] > tol * (1.0 + hi[active])]
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
