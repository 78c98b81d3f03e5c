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

import math
from collections.abc import Callable

import numpy as np
from scipy import special

from ..errors import InputError
from ..params import N_MAX, PARAMS
from .precision import SeenValues, certify, undecided_by_fast
from .shapes import flat_cells
from .steps import next_point, pair_steps

__all__ = ["SearchLimitError", "smallest_n", "smallest_n_for_power", "probit", "describe_cells"]

_MAX_STEPS = 200
#: Why no n reaches a power target: the end of :class:`SearchLimitError`'s message.
_TOO_SMALL = "the difference is too small to detect with any practical topic set"


class SearchLimitError(InputError):
    """No n up to the search limit meets the target (the effect is too small)."""


def smallest_n(value: Callable[[np.ndarray, np.ndarray], np.ndarray], target, guess, *,
               monotone_from=2, n_min: int = 2, n_max: int = N_MAX,
               transform: Callable[[np.ndarray], np.ndarray] | None = None,
               describe: Callable[[int], str] | None = None, values: bool = False,
               pair: Callable[[np.ndarray, np.ndarray], tuple] | None = None,
               unreachable: str | None = None):
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
    values : bool
        Also return the criterion at n − 1 and at n as the search evaluated it (NaN where it
        did not, e.g. after the scan below ``monotone_from``).
    pair : callable, optional
        ``pair(n, idx)`` returns (``value(n, idx)``, an upper bound of ``value(n − 1, idx)``)
        more cheaply than two evaluations (e.g. the power at n − 1 taken at n's critical value:
        :func:`~topicsetsize.numerics.distributions.f_power_pair`); ``idx`` is ``slice(None)``
        in its first call, which takes every cell. The first step then
        evaluates the pair at the guess's n: where the bound at n − 1 is below the target, n − 1
        fails without its own evaluation; elsewhere ``value(n − 1)`` is computed. With
        ``values``, the value returned at n − 1 may be that bound (it lies above the value, so
        that a margin below the target it shows is one the value has too).
    unreachable : str, optional
        Why no n reaches the target, the end of the error (by default, that the difference is
        too small to detect; a CI width's design says that its width is too small).

    Returns
    -------
    ndarray of int64
        The required n, with the shape of ``target``; with ``values``, the tuple
        (n, value(n − 1), value(n)).

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
    guess = _flat(np.asarray(guess, float), shape)
    start = _flat(np.maximum(np.asarray(monotone_from, np.int64), n_min), shape)

    def passes(x: np.ndarray, idx: np.ndarray):
        v = np.asarray(value(x.astype(float), idx), float)
        with np.errstate(invalid="ignore"):
            return v >= target[idx], v

    def transformed(v: np.ndarray):
        with np.errstate(invalid="ignore"):
            y = transform(v)
        return np.where(np.isfinite(y), y, np.nan)

    # First step: the two whole numbers around the guess, evaluated in one call. With a
    # good guess they certify the answer x0 + 1: a failure at x0 ≥ the monotone start and a
    # pass at x0 + 1 (the usual case, and a scalar call's fast exit).
    # a NaN or −inf guess starts at start + 1 (fmax takes the other value), +inf at n_max
    x1 = np.minimum(np.fmax(np.ceil(guess), start + 1), n_max).astype(np.int64)  # clip, cheaper
    x0 = x1 - 1
    if pair is None:
        idx = np.arange(size)
        ok, v = passes(np.concatenate([x0, x1]), np.concatenate([idx, idx]))
        ok0, ok1 = ok[:size], ok[size:]
        n = x1
        below, at = v[:size].copy(), v[size:].copy()    # value(n - 1), value(n) where the
        rest = np.flatnonzero(ok0 | ~ok1 | (x0 < start))     # first step decides
        first, second = (x0, ok0, v[:size]), (x1, ok1, v[size:])
        if rest.size:
            first, second = (tuple(a[rest] for a in f) for f in (first, second))
    else:       # first and second: those of the cells ``rest`` only
        n, below, at, rest, first, second = pair_steps(pair, passes, target, x0, x1, start,
                                                        n_max)
    if rest.size:       # the cells whose guess was off narrow their bracket step by step
        seen = SeenValues(rest.size, n_max)
        for x, ok, v in (first, second):
            seen.record(np.arange(rest.size), x, ok, v)

        def evaluate_rest(x, i):
            ok_i, v_i = passes(x, rest[i])
            seen.record(i, x, ok_i, v_i)
            return ok_i, transformed(v_i)

        n[rest] = _narrow(evaluate_rest, transform(target[rest]), start[rest], n_max,
                          *((x, ok, transformed(v)) for x, ok, v in (first, second)),
                          lambda i: _name(int(rest[i]), describe), unreachable)
        below[rest], at[rest] = seen.around(n[rest])
        scanned = (n == start) & (start > n_min)
        _scan_below(n, start, n_min, passes)
        below[scanned] = at[scanned] = np.nan
    if values:
        return n.reshape(shape), below.reshape(shape), at.reshape(shape)
    return n.reshape(shape)


def _flat(values: np.ndarray, shape) -> np.ndarray:
    """``values`` broadcast to ``shape`` and flattened (a plain reshape where it has that shape
    already, a fill where it is one value: a third of :func:`numpy.broadcast_to`'s cost)."""
    if values.shape == shape:
        return values.reshape(-1)
    if values.ndim == 0:
        return np.full(math.prod(shape), values)
    return np.broadcast_to(values, shape).ravel()


def _narrow(evaluate, ty, start, n_max, first, second, describe, unreachable=None):
    """Narrow each cell's bracket from its first two evaluations until it closes.

    ``first`` and ``second`` are (n, passed, transformed value) at x0 and x0 + 1; returns the
    smallest passing n found above each cell's monotone start (the start itself where every
    n above it passes).
    """
    (x0, ok0, y0), (x1, ok1, y1) = first, second
    # Bracket state: lo fails (start - 1 is a sentinel meaning "nothing evaluated below"),
    # hi passes (n_max + 1 is a sentinel meaning "no pass seen yet"). After x0 then x1
    # (what _update would record, without its indexing): x0 ≥ start is above the sentinel
    # lo, and x0 < x1 < the sentinel hi.
    hi = np.where(ok0, x0, np.where(ok1, x1, n_max + 1))
    yhi = np.where(ok0, y0, np.where(ok1, y1, np.nan))
    lo = np.where(~ok1, x1, np.where(~ok0, x0, start - 1))
    ylo = np.where(~ok1, y1, np.where(~ok0, y0, np.nan))
    # +k: k passes in a row, -k: k failures in a row
    streak = np.where(ok1, np.where(ok0, 2, 1), np.where(ok0, -1, -2)).astype(np.int64)
    last = np.array([[x1, y1], [x0, y0]], float)      # the last two (x, y), newest first

    active = np.flatnonzero(hi - lo > 1)
    for _ in range(_MAX_STEPS):
        _raise_if_unreachable(lo, n_max, describe, unreachable)
        if active.size == 0:
            break
        x = next_point(active, lo, hi, ylo, yhi, ty, streak, last, start, n_max)
        ok, y = evaluate(x, active)
        _update(active, x, ok, y, lo, hi, ylo, yhi, streak, last)
        active = active[hi[active] - lo[active] > 1]
    else:  # pragma: no cover - the bracket shrinks by at least one every step
        raise RuntimeError("the topic set size search did not converge")
    _raise_if_unreachable(lo, n_max, describe, unreachable)
    return hi


def _name(i: int, describe: Callable[[int], str] | None) -> str:
    """Cell i's inputs for an error message: ``describe(i)``, or its index."""
    return describe(i) if describe else f"cell {i}"


def _raise_if_unreachable(lo, n_max, describe, unreachable=None):
    """Cells that fail at n_max can never be met: say so, naming the first one."""
    stuck = lo >= n_max
    if stuck.any():
        raise SearchLimitError(
            f"no n up to the search limit of {n_max:,} topics reaches the target for "
            f"{describe(int(np.argmax(stuck)))}: {unreachable or _TOO_SMALL}")


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


def _scan_below(n, start, n_min, passes, chunk: int = 8):
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
        ok, _ = passes(grid[valid], cells[rows])
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
        The inputs by parameter name, which broadcast together to the cells' shape (only when
        a message is written). Whole-number parameters of :data:`topicsetsize.params.PARAMS`
        (such as ``m``) are shown as integers, the others with ``:g``.
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
    >>> describe_cells({"alpha": 0.05, "m": np.array([[2.0], [10.0]])})(1)
    'alpha=0.05, m=10'
    """
    def show(name, x):
        spec = PARAMS.get(name)
        return f"{int(x)}" if spec is not None and spec.integer else f"{x:g}"

    def describe(i):
        cells = np.broadcast_arrays(*(np.asarray(x) for x in values.values()))
        text = ", ".join(f"{name}={show(name, x.flat[i])}" for name, x in zip(values, cells))
        return f"{text} ({label})" if label else text

    return describe


def smallest_n_for_power(power_at: Callable[..., np.ndarray], beta, guess, *, cells,
                         describe: Callable[[int], str], monotone_from=2,
                         precise_at: Callable[..., np.ndarray] | None = None,
                         tolerance: float = 0.0, check_from=N_MAX + 1,
                         power_pair: Callable[..., tuple] | None = None) -> np.ndarray:
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
        Type II error probability (validated), per cell or broadcast; the target is 1 − β.
    guess : array_like
        Per-cell initial estimate of n (see :func:`smallest_n`).
    cells : sequence of ndarray
        The arguments of ``power_at`` after ``n``, which broadcast with ``beta`` to the shape
        of the cells.
    describe : callable
        ``describe(i)`` names cell i's inputs in the error message
        (see :func:`describe_cells`).
    monotone_from : int or array_like
        As in :func:`smallest_n`.
    precise_at : callable, optional
        The precise power, as ``power_at``: from ``check_from`` on, the answers found with
        ``power_at`` are moved until ``precise_at`` certifies them
        (:func:`~topicsetsize.numerics.precision.certify`).
    tolerance : float
        The absolute precision of ``precise_at``.
    check_from : int or array_like, or callable
        Per cell (broadcast like the cells), the n from which ``precise_at`` certifies; or a
        function of no arguments that returns it, called only where some cell needs it.
    power_pair : callable, optional
        ``power_pair(n, *args)`` returns (``power_at(n, *args)``, an upper bound of
        ``power_at(n − 1, *args)``), for the first step of the search (``pair`` of
        :func:`smallest_n`): e.g. :func:`~topicsetsize.numerics.distributions.f_power_pair`,
        one F point for the two powers that certify most cells.

    Returns
    -------
    ndarray of int64
        The required n, with the broadcast shape of ``beta`` and ``cells``.

    Raises
    ------
    SearchLimitError
        If some cell does not reach the power at the search limit.

    Warns
    -----
    PrecisionWarning
        Where the certifying powers are within ``tolerance`` of 1 − β (see
        :func:`~topicsetsize.numerics.precision.certify`).

    Examples
    --------
    The paired z-test: power Φ(√n·Δ − 1.96) reaches .8 from n = ((1.96 + .8416)/Δ)²:

    >>> power = lambda n, effect: special.ndtr(np.sqrt(n) * effect - 1.959964)
    >>> smallest_n_for_power(power, np.array([0.2]), [30.0], cells=[np.array([0.5])],
    ...                      describe=str).tolist()
    [32]
    """
    shape, (beta, *flat) = flat_cells(beta, *cells)
    beta = beta.reshape(shape)

    def power(n, i):
        return power_at(n, *(x[i] for x in flat))

    pair = None if power_pair is None else (lambda n, i: power_pair(n, *(x[i] for x in flat)))
    target = 1.0 - beta
    if precise_at is None:
        return smallest_n(power, target, guess, monotone_from=monotone_from,
                          transform=probit, describe=describe, pair=pair)
    n, below, at = smallest_n(power, target, guess, monotone_from=monotone_from,
                              transform=probit, describe=describe, values=True, pair=pair)
    # Only where the fast powers leave the answer open (or were not kept) does the precise
    # power certify it; elsewhere the two cannot decide differently.
    undecided = undecided_by_fast(target, below, at, tolerance)
    if not undecided.any():
        return n                          # the fast powers settle every cell
    if callable(check_from):
        check_from = check_from()
    start = np.where(undecided, check_from, N_MAX + 1)
    if not (n >= start).any():
        return n
    return certify(lambda x, i: precise_at(x, *(c[i] for c in flat)), target, n,
                   tolerance=tolerance, check_from=start, describe=describe)

