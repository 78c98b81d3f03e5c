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

    First ``pair`` at x1 = x0 + 1: where x1 passes and the bound at x0 fails, n = x1. Then, in one
    call, ``pair`` at x0 where x1 passes but the bound does not settle x0 (x0 fails: n = x1; x0
    passes and the bound at x0 − 1 ≥ start fails: n = x0), and at x1 + 1 where x1 fails (it
    passes: n = x1 + 1); where x0 − 1 < start, x0's value comes from ``passes``. Returns n,
    value(n − 1) (or its bound) and value(n) (NaN where undecided), the undecided cells, and per
    cell the two evaluations (n, passed, value) that ``search._narrow`` starts from, at consecutive
    n (a failure whose value is unknown has NaN).
    """
    size = x0.size
    with np.errstate(invalid="ignore"):
        at1, bound0 = (np.asarray(y, float) for y in pair(x1.astype(float), np.arange(size)))
        ok1, settles = at1 >= target, bound0 < target
    n, below, at = x1.copy(), bound0.copy(), at1.copy()
    first, second = (x0.copy(), np.zeros(size, bool), bound0.copy()), (x1.copy(), ok1, at1.copy())
    undecided = ~(ok1 & settles)
    own = np.flatnonzero(ok1 & ~settles)                 # x0 needs its own value
    if own.size and (x0[own] - 1 < start[own]).any():   # by value where x0 − 1 is below start
        alone = own[x0[own] - 1 < start[own]]
        own = own[x0[own] - 1 >= start[own]]
        first[1][alone], first[2][alone] = passes(x0[alone], alone)
        below[alone] = first[2][alone]
        undecided[alone[~first[1][alone]]] = False       # x0 fails: n = x1
    up = np.flatnonzero(~ok1 & (x1 < n_max))             # x1 fails: try x1 + 1
    first[2][up[~settles[up]]] = np.nan                  # x0 failed (x1 did), value unknown
    cells = np.concatenate([own, up])
    if cells.size:
        x = np.concatenate([x0[own], x1[up] + 1])
        with np.errstate(invalid="ignore"):
            at2, bound2 = (np.asarray(y, float) for y in pair(x.astype(float), cells))
            ok2 = at2 >= target[cells]
            low2 = bound2 < target[cells]
        k = own.size
        first[1][own], first[2][own] = ok2[:k], at2[:k]          # x0's own evaluation
        fails = ~ok2[:k]
        down = ok2[:k] & low2[:k] & (x0[own] - 1 >= start[own])
        below[own] = np.where(fails, at2[:k], bound2[:k])
        n[own[down]], at[own[down]] = x0[own[down]], at2[:k][down]
        undecided[own[fails | down]] = False
        passed = ok2[k:]                                          # x1 + 1 passes: n = x1 + 1
        n[up[passed]], below[up[passed]], at[up[passed]] = x1[up[passed]] + 1, at1[up[passed]], \
            at2[k:][passed]
        undecided[up[passed]] = False
        # x1 and x1 + 1 both fail: the bracket starts from them
        failed = up[~passed]
        first[0][failed], first[1][failed], first[2][failed] = x1[failed], False, at1[failed]
        second[0][failed], second[2][failed] = x1[failed] + 1, at2[k:][~passed]
    rest = np.flatnonzero(undecided)
    below[rest] = at[rest] = np.nan
    return n, below, at, rest, first, second
