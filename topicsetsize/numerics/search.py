"""Vectorised search for the smallest number of topics that meets a target.

One search serves every design (ANOVA, paired t-test, CI) and both methods, for
one cell or a whole table at once. Each cell is a separate problem. All the
cells still unresolved are evaluated together in one numpy call per step, so a
table costs a handful of vectorised calls and no Python loop over cells.

The required n is the smallest n ≥ 2 from which the criterion *stays* met:
value(n') ≥ target for every n' ≥ n (``docs/formulas.md`` §4). Above ``monotone_from`` the
criterion is taken to be non-decreasing in n. There the search brackets the
crossing, then narrows it by regula falsi in (√n, transform(value)) space, where
power curves are close to straight lines, falling back to bisection. Below
``monotone_from`` (the legacy approximations wobble at tiny n) every n is
evaluated and the last failure decides.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy import special

from ..errors import InputError
from ..params import N_MAX, PARAMS

__all__ = ["SearchLimitError", "smallest_n", "smallest_n_for_power", "probit", "describe_cells"]

_MAX_STEPS = 200


class SearchLimitError(InputError):
    """No n up to the search limit meets the target (the effect is too small)."""


def smallest_n(value: Callable[[np.ndarray, np.ndarray], np.ndarray], target, guess, *,
               monotone_from=2, n_min: int = 2, n_max: int = N_MAX,
               transform: Callable[[np.ndarray], np.ndarray] | None = None,
               describe: Callable[[int], str] | None = None) -> np.ndarray:
    """Smallest whole n ≥ ``n_min`` from which ``value(n) ≥ target`` holds for good.

    Parameters
    ----------
    value : callable
        ``value(n, idx)`` returns the criterion (e.g. the power) at the float
        array ``n`` for the cells ``idx``. NaN means "not met" (an undefined
        approximation).
    target : array_like
        Per-cell target (e.g. 1 − β).
    guess : array_like
        Per-cell initial estimate of n. It only saves work and may be on either
        side of the answer, or far from it.
    monotone_from : int or array_like
        The criterion is non-decreasing for n ≥ this value. Below it, every n is
        checked.
    n_min, n_max : int
        The search range. Cells that are not met at ``n_max`` raise.
    transform : callable, optional
        Map of the criterion in which it is close to linear in √n (e.g. the
        probit for a power). It is used only to choose the next n to evaluate.
    describe : callable, optional
        ``describe(i)`` names cell i's inputs in the error message.

    Returns
    -------
    ndarray of int64
        The required n, with the shape of ``target``.

    Raises
    ------
    SearchLimitError
        If some cell does not meet its target at ``n_max``.

    Examples
    --------
    The smallest n with √n ≥ 10.5 (so n ≥ 110.25):

    >>> smallest_n(lambda n, i: np.sqrt(n), [10.5], [3.0]).tolist()
    [111]
    """
    target = np.asarray(target, float)
    shape = target.shape
    target = target.ravel()
    size = target.size
    transform = transform or (lambda v: v)
    guess = np.broadcast_to(np.asarray(guess, float), shape).ravel()
    start = np.broadcast_to(np.maximum(np.asarray(monotone_from, np.int64), n_min),
                            shape).ravel().copy()

    def evaluate(x: np.ndarray, idx: np.ndarray):
        v = np.asarray(value(x.astype(float), idx), float)
        with np.errstate(invalid="ignore"):
            ok = v >= target[idx]
            y = transform(v)
        return ok, np.where(np.isfinite(y), y, np.nan)

    # Bracket state: lo fails (start - 1 is a sentinel meaning "nothing evaluated below"),
    # hi passes (n_max + 1 is a sentinel meaning "no pass seen yet").
    lo = start - 1
    hi = np.full(size, n_max + 1, np.int64)
    ylo = np.full(size, np.nan)
    yhi = np.full(size, np.nan)
    streak = np.zeros(size, np.int64)  # +k: k passes in a row, -k: k failures in a row
    last = np.zeros((2, 2, size))      # the last two evaluations (x, y), newest first
    ty = transform(target)

    # First step: the two whole numbers around the guess, evaluated in one call. With a
    # good guess they already bracket the answer.
    g = np.where(np.isfinite(guess), guess, start)
    x1 = np.clip(np.ceil(g), start + 1, n_max).astype(np.int64)
    x0 = x1 - 1
    idx = np.arange(size)
    xs = np.concatenate([x0, x1])
    ok, y = evaluate(xs, np.concatenate([idx, idx]))
    if not ok[:size].any() and ok[size:].all() and (x0 >= start).all():
        # Every cell failed at x0 ≥ its monotone start and passed at x0 + 1: x0 + 1 is certified
        # (the usual case with a good guess, and a scalar call's fast exit).
        return x1.reshape(shape)
    # The bracket after x0 then x1 (what _update would record, without its indexing): x0 ≥ start
    # is above the sentinel lo, and x0 < x1 < the sentinel hi.
    ok0, ok1, y0, y1 = ok[:size], ok[size:], y[:size], y[size:]
    hi = np.where(ok0, x0, np.where(ok1, x1, hi))
    yhi = np.where(ok0, y0, np.where(ok1, y1, np.nan))
    lo = np.where(~ok1, x1, np.where(~ok0, x0, lo))
    ylo = np.where(~ok1, y1, np.where(~ok0, y0, np.nan))
    streak = np.where(ok1, np.where(ok0, 2, 1), np.where(ok0, -1, -2)).astype(np.int64)
    last[0] = x1, y1
    last[1] = x0, y0

    active = np.flatnonzero(hi - lo > 1)
    for _ in range(_MAX_STEPS):
        _raise_if_unreachable(lo, n_max, describe)
        if active.size == 0:
            break
        x = _next_point(active, lo, hi, ylo, yhi, ty, streak, last, start, n_max)
        ok, y = evaluate(x, active)
        _update(active, x, ok, y, lo, hi, ylo, yhi, streak, last)
        active = active[hi[active] - lo[active] > 1]
    else:  # pragma: no cover - the bracket shrinks by at least one every step
        raise RuntimeError("the topic set size search did not converge")

    _raise_if_unreachable(lo, n_max, describe)
    n = hi.copy()
    _scan_below(n, start, n_min, evaluate)
    return n.reshape(shape)


def _raise_if_unreachable(lo, n_max, describe):
    """Cells that fail at n_max can never be met: say so, naming the first one."""
    stuck = np.flatnonzero(lo >= n_max)
    if stuck.size:
        i = int(stuck[0])
        what = describe(i) if describe else f"cell {i}"
        raise SearchLimitError(
            f"no n up to the search limit of {n_max:,} topics reaches the target for {what}: "
            "the difference is too small to detect with any practical topic set")


def _update(idx, x, ok, y, lo, hi, ylo, yhi, streak, last):
    """Record evaluations at ``x`` for cells ``idx`` in the bracket state."""
    last[1][:, idx] = last[0][:, idx]
    last[0][0, idx], last[0][1, idx] = x, y
    passed = idx[ok]
    x_pass = x[ok]
    better = x_pass < hi[passed]
    hi[passed[better]] = x_pass[better]
    yhi[passed[better]] = y[ok][better]
    failed = idx[~ok]
    x_fail = x[~ok]
    better = x_fail > lo[failed]
    lo[failed[better]] = x_fail[better]
    ylo[failed[better]] = y[~ok][better]
    streak[passed] = np.maximum(streak[passed], 0) + 1
    streak[failed] = np.minimum(streak[failed], 0) - 1


def _next_point(active, lo, hi, ylo, yhi, ty, streak, last, start, n_max):
    """Choose the next n for each active cell: extrapolate, interpolate or bisect."""
    left, h = lo[active], hi[active]
    yl, yh, t = ylo[active], yhi[active], ty[active]
    no_pass = h > n_max
    no_fail = left < start[active]
    sl, sh = np.sqrt(np.maximum(left, 1)), np.sqrt(np.minimum(h, n_max))
    with np.errstate(invalid="ignore", divide="ignore"):
        root = sl + (t - yl) * (sh - sl) / (yh - yl)   # regula falsi in (sqrt n, y)
    x = np.ceil(root * root)
    usable = np.isfinite(x) & (yh > yl)
    mid = (left + np.minimum(h, n_max + 1)) // 2
    both = ~no_pass & ~no_fail
    # Interpolate inside a bracket; bisect if the interpolation is unusable or stalls.
    stall = np.abs(streak[active]) >= 3
    inner = np.where(usable & ~stall, x, mid)
    # Outside a bracket: extrapolate the secant through the last two evaluations, with a
    # margin so that the next point lands beyond the crossing; else grow x4 or halve.
    (xa, ya), (xb, yb) = last[0][:, active], last[1][:, active]
    sa, sb = np.sqrt(np.maximum(xa, 1)), np.sqrt(np.maximum(xb, 1))
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        guess = sa + (t - ya) * (sa - sb) / (ya - yb)
        guess = guess * guess
        ok_guess = np.isfinite(guess) & (ya != yb) & (sa != sb)
        up_guess = np.ceil(guess * 1.01 + 1)
        down_guess = np.floor(guess * 0.99 - 1)
    up = np.where(ok_guess & (up_guess > left) & (up_guess <= left * 4), up_guess,
                  np.maximum(left * 4, left + 1))
    up = np.minimum(up, n_max)
    down = np.where(ok_guess & (down_guess < h) & (down_guess >= h // 4), down_guess,
                    (h + start[active] - 1) // 2)
    down = np.maximum(down, start[active])
    nxt = np.where(both, inner, np.where(no_pass, up, down))
    return np.clip(nxt, left + 1, np.minimum(h - 1, n_max)).astype(np.int64)


def _scan_below(n, start, n_min, evaluate, chunk: int = 8):
    """Where the monotone search stopped at its start, find the last failure below it.

    Walks down from ``start - 1`` in chunks: the first failing n met from the top
    is the largest failing n, and the required n is one more.
    """
    cells = np.flatnonzero((n == start) & (start > n_min))
    top = start[cells] - 1                       # highest n not yet checked, per cell
    while cells.size:
        width = np.minimum(chunk, top - n_min + 1)
        steps = np.arange(chunk)
        grid = top[:, None] - steps[None, :]      # top, top-1, ... (descending)
        valid = steps[None, :] < width[:, None]
        rows = np.repeat(np.arange(cells.size), chunk)[valid.ravel()]
        ok, _ = evaluate(grid[valid], cells[rows])
        fails = np.zeros(valid.shape, bool)
        fails[valid] = ~ok
        hit = fails.any(axis=1)
        first = np.argmax(fails, axis=1)          # largest failing n in this chunk
        n[cells[hit]] = grid[hit, first[hit]] + 1
        top = top - width
        exhausted = ~hit & (top < n_min)
        n[cells[exhausted]] = n_min
        keep = ~hit & ~exhausted
        cells, top = cells[keep], top[keep]


def probit(p):
    """Φ⁻¹(p), the standard normal quantile, kept finite: the search transform for a power.

    A power curve is close to a straight line in (√n, Φ⁻¹(power)), which is what
    :func:`smallest_n` interpolates in. p is clipped to [1e-300, 1 − 2⁻⁵³] so that a power of
    0 or 1 maps to a finite number.

    Parameters
    ----------
    p : float or array_like
        Probabilities in [0, 1].

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> round(float(probit(0.8)), 4), bool(np.isfinite(probit(1.0)))
    (0.8416, True)
    """
    return special.ndtri(np.clip(p, 1e-300, 1.0 - 2.0 ** -53))


def describe_cells(values: dict, label: str | None = None) -> Callable[[int], str]:
    """A ``describe(i)`` for :func:`smallest_n` that names cell i's inputs.

    Parameters
    ----------
    values : dict of str to array_like
        The inputs by parameter name, each broadcast to the cells' shape. Whole-number
        parameters of :data:`topicsetsize.params.PARAMS` (such as ``m``) are shown as
        integers, the others with ``:g``.
    label : str, optional
        Appended in parentheses, e.g. the method or the design.

    Returns
    -------
    callable
        ``describe(i) -> str``, e.g. ``"alpha=0.05, m=10 (exact)"``.

    Examples
    --------
    >>> describe_cells({"alpha": np.array([0.05]), "m": np.array([10.0])}, "exact")(0)
    'alpha=0.05, m=10 (exact)'
    """
    flat = {name: np.ravel(x) for name, x in values.items()}

    def show(name, x):
        spec = PARAMS.get(name)
        return f"{int(x)}" if spec is not None and spec.integer else f"{x:g}"

    def describe(i):
        text = ", ".join(f"{name}={show(name, x[i])}" for name, x in flat.items())
        return f"{text} ({label})" if label else text

    return describe


def smallest_n_for_power(power_at: Callable[..., np.ndarray], beta, guess, *, cells,
                         describe: Callable[[int], str], monotone_from=2) -> np.ndarray:
    """Smallest n from which ``power_at`` stays at or above 1 − β, per cell.

    The common form of every power design's search: :func:`smallest_n` with the target
    1 − β and the :func:`probit` transform, the power evaluated on the cells' own
    arguments.

    Parameters
    ----------
    power_at : callable
        ``power_at(n, *args)``: the power at the float array ``n`` for the per-cell
        arguments ``args`` (one value per evaluated cell, in the order of ``cells``).
    beta : ndarray
        Per-cell Type II error probability (validated); the target is 1 − β.
    guess : array_like
        Per-cell initial estimate of n (see :func:`smallest_n`).
    cells : sequence of ndarray
        The arguments of ``power_at`` after ``n``, each of ``beta``'s shape.
    describe : callable
        ``describe(i)`` names cell i's inputs in the error message
        (see :func:`describe_cells`).
    monotone_from : int or array_like
        As in :func:`smallest_n`.

    Returns
    -------
    ndarray of int64
        The required n, with the shape of ``beta``.

    Raises
    ------
    SearchLimitError
        If some cell does not reach the power at the search limit.

    Examples
    --------
    The paired z-test: power Φ(√n·Δ − 1.96) reaches .8 from n = ((1.96 + .8416)/Δ)²:

    >>> power = lambda n, effect: special.ndtr(np.sqrt(n) * effect - 1.959964)
    >>> smallest_n_for_power(power, np.array([0.2]), [30.0], cells=[np.array([0.5])],
    ...                      describe=str).tolist()
    [32]
    """
    flat = [np.ravel(x) for x in cells]

    def power(n, i):
        return power_at(n, *(x[i] for x in flat))

    return smallest_n(power, 1.0 - beta, guess, monotone_from=monotone_from, transform=probit,
                      describe=describe)
