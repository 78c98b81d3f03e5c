"""Steps of the vectorised search for n (:func:`~.search.smallest_n`): its first steps with a
``pair`` (the value at n and a bound at n − 1 from one critical value, issue 28), and where it
evaluates next, regula falsi in (√n, transform(value)) inside a bracket, the secant with a margin
outside it (one cell's twin is ``search_one._next_one``).
"""

from __future__ import annotations

import numpy as np

__all__ = ["next_point", "pair_steps"]


def next_point(active, lo, hi, ylo, yhi, ty, streak, last, start, n_max):
    """Choose the next n for each active cell: interpolate inside a bracket, else extrapolate."""
    left, h, t, run = lo[active], hi[active], ty[active], streak[active]
    nxt = _either((h <= n_max) & (left >= start[active]),
                  lambda: _interpolate(left, h, ylo[active], yhi[active], t, run, n_max),
                  lambda: _extrapolate(left, h, t, run, last[:, :, active], start[active], n_max))
    return np.clip(nxt, left + 1, np.minimum(h - 1, n_max)).astype(np.int64)


def _either(mask, if_true, if_false):
    """``np.where(mask, if_true(), if_false())``, calling each only if some cell takes it.

    A step's cells are usually all of one kind, and a few cells cost as many numpy calls as
    a whole table.
    """
    if mask.all():
        return if_true()
    if not mask.any():
        return if_false()
    return np.where(mask, if_true(), if_false())


def _interpolate(left, h, yl, yh, t, streak, n_max):
    """Inside a bracket: regula falsi in (√n, y); bisect if it is unusable or stalls."""
    sl, sh = np.sqrt(np.maximum(left, 1)), np.sqrt(np.minimum(h, n_max))
    with np.errstate(invalid="ignore", divide="ignore"):
        root = sl + (t - yl) * (sh - sl) / (yh - yl)
    x = np.ceil(root * root)
    usable = np.isfinite(x) & (yh > yl) & (np.abs(streak) < 3)
    return np.where(usable, x, (left + np.minimum(h, n_max + 1)) // 2)


def _extrapolate(left, h, t, streak, last, start, n_max):
    """Outside a bracket: extrapolate the secant through the last two evaluations.

    Up where no n has passed yet, down where none has failed. A crossing predicted within one
    of the end (once, right after the first step: a guess just off) tries the n that decides
    the answer; otherwise a margin makes the next n land beyond the crossing, and without a
    usable secant the search grows x4 or halves.
    """
    (xa, ya), (xb, yb) = last
    sa, sb = np.sqrt(np.maximum(xa, 1)), np.sqrt(np.maximum(xb, 1))
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        guess = sa + (t - ya) * (sa - sb) / (ya - yb)
        guess = guess * guess
    ok_guess = np.isfinite(guess) & (ya != yb) & (sa != sb)
    fresh = ok_guess & (np.abs(streak) <= 2)    # a miss falls back to the margin

    def up():
        with np.errstate(invalid="ignore", over="ignore"):
            far = np.ceil(guess * 1.01 + 1)
        step = np.where(ok_guess & (far > left) & (far <= left * 4), far,
                        np.maximum(left * 4, left + 1))
        return np.minimum(np.where(fresh & (guess > left) & (guess <= left + 1), left + 1, step),
                          n_max)

    def down():
        with np.errstate(invalid="ignore", over="ignore"):
            far = np.floor(guess * 0.99 - 1)
        step = np.where(ok_guess & (far < h) & (far >= h // 4), far, (h + start - 1) // 2)
        return np.maximum(np.where(fresh & (guess > h - 1) & (guess <= h), h - 1, step), start)

    return _either(h > n_max, up, down)


def pair_steps(pair, passes, target, x0, x1, start, n_max):
    """The first steps of :func:`smallest_n` with ``pair``: at most two calls for every cell.

    First ``pair`` at x1 = x0 + 1 for all cells (``idx`` a ``slice(None)``): where x1 passes and
    the bound at x0 fails, n = x1, and where every cell is so (a good guess), that is all. Then,
    for the others only, in one call, ``pair`` at x0 where x1 passes but the bound does not settle
    x0 (x0 fails: n = x1; x0 passes and the bound at x0 − 1 ≥ start fails: n = x0), and at x1 + 1
    where x1 fails (it passes: n = x1 + 1); where x0 − 1 < start, x0's value comes from
    ``passes``. Returns n, value(n − 1) (or its bound) and value(n) (NaN where undecided), the
    undecided cells, and for each of them (in that order) the two evaluations (n, passed, value)
    that ``search._narrow`` starts from, at consecutive n (a failure whose value is unknown has
    NaN); these are put together only where some cell is undecided.
    """
    with np.errstate(invalid="ignore"):
        at1, bound0 = (np.asarray(y, float) for y in pair(x1.astype(float), slice(None)))
    ok1, settles = at1 >= target, bound0 < target
    undecided = ~(ok1 & settles)
    if not undecided.any():                            # the guess was right everywhere
        return x1, bound0, at1, _NONE, (), ()
    n, below, at = x1.copy(), bound0.copy(), at1.copy()
    # x1 fails: try x1 + 1 (no cell, with a good guess: its steps are skipped, a few numpy
    # calls that cost as much on a few cells as on a table)
    all_pass = ok1.all()
    up = _NONE if all_pass else np.flatnonzero(~ok1 & (x1 < n_max))
    own = np.flatnonzero(undecided if all_pass else ok1 & ~settles)   # x0 needs its own value
    alone = _NONE
    low = x0[own] <= start[own] if own.size else None  # x0 − 1 below start: x0 by value
    if low is not None and low.any():
        alone, own = own[low], own[~low]
        alone_ok, alone_v = passes(x0[alone], alone)
        below[alone] = alone_v
        undecided[alone[~alone_ok]] = False            # x0 fails: n = x1
    k = own.size
    if k or up.size:
        cells = np.concatenate([own, up]) if up.size else own
        x = np.concatenate([x0[own], x1[up] + 1]) if up.size else x0[own]
        with np.errstate(invalid="ignore"):
            at2, bound2 = (np.asarray(y, float) for y in pair(x.astype(float), cells))
        ok2 = at2 >= target[cells]
        ok_own, ok_up = ok2[:k], ok2[k:]
        down = ok_own & (bound2[:k] < target[own])  # x0 passes, the bound at x0 − 1 fails
        below[own] = np.where(ok_own, bound2[:k], at2[:k])
        lower = own[down]
        n[lower], at[lower] = x0[lower], at2[:k][down]
        undecided[own[~ok_own | down]] = False
        if up.size:
            passed = up[ok_up]                                      # x1 + 1 passes: n = x1 + 1
            n[passed], below[passed], at[passed] = x1[passed] + 1, at1[passed], at2[k:][ok_up]
            undecided[passed] = False
    rest = np.flatnonzero(undecided)
    if not rest.size:
        return n, below, at, rest, (), ()
    below[rest] = at[rest] = np.nan
    # The brackets of the cells left: (n, passed, value) at x0 and x1, x0 failed where x1 did,
    # its value the bound, unknown (NaN) where the bound does not settle it; x0's own where it
    # was evaluated; x1 and x1 + 1 where both failed.
    first = (x0.copy(), np.zeros(x0.size, bool), bound0.copy())
    second = (x1.copy(), ok1, at1.copy())
    first[2][up[~settles[up]]] = np.nan
    first[1][alone], first[2][alone] = (alone_ok, alone_v) if alone.size else ((), ())
    if k or up.size:
        first[1][own], first[2][own] = ok_own, at2[:k]
        failed = up[~ok_up]
        first[0][failed], first[1][failed], first[2][failed] = x1[failed], False, at1[failed]
        second[0][failed], second[2][failed] = x1[failed] + 1, at2[k:][~ok_up]
    return n, below, at, rest, tuple(x[rest] for x in first), tuple(x[rest] for x in second)


_NONE = np.empty(0, np.intp)
