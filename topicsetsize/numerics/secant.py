"""Where the vectorised search for n evaluates next: regula falsi in (√n, transform(value))
inside a bracket, the secant with a margin outside it (:func:`~.search.smallest_n`; one cell's
twin is ``search_one._next_one``).
"""

from __future__ import annotations

import numpy as np

__all__ = ["next_point"]


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
