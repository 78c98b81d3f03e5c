"""The search for n of one cell, in plain Python floats: the fast path of a scalar call.

A call with one cell (``anova_n(0.05, 0.2, 0.1, 0.0601, 10)``, one Excel cell, one command
line answer) would pay numpy's per-call overhead in every step of the vectorised search
(:func:`topicsetsize.numerics.search.smallest_n`). :func:`smallest_n_one` runs the same bracket
and regula falsi on floats and returns n only where it certifies the answer exactly as the
vectorised search would; otherwise None, and the caller runs the vectorised search.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from scipy import special

from ..params import N_MAX

__all__ = ["ONE_CELL_N_MAX", "Uncertain", "smallest_n_one", "probit_one"]


#: Largest n that :func:`smallest_n_one` certifies: the search limit (issue 28.5; it was 10⁶,
#: from which a scalar call with a large answer ran the vectorised search, up to 0.6–2 ms).
#: Where Boost's noncentral F wobbles by more than a topic's step (by 1e-8 around n = 3e8), the
#: crossing found depends on the path of the search, but the F designs' one-cell answers are then
#: certified by the precise power (:func:`~topicsetsize.numerics.precision.certify_one`), as the
#: vectorised ones, whatever the path; the t designs' power (one noncentral F tail with φ1 = 1) and
#: the CI widths do not wobble at that scale (within 1e-15 of 40-digit references at φ = 10⁸).
ONE_CELL_N_MAX = N_MAX


class Uncertain(Exception):
    """Raised by a one-cell evaluation that cannot match the vectorised one exactly (e.g. an
    argument in a range where the vectorised function switches formulas): the caller of
    :func:`smallest_n_one` then runs :func:`~.search.smallest_n` instead."""


def smallest_n_one(value: Callable[[float], float], target: float, guess: float, start: int, *,
                   transform: Callable[[float], float] = float,
                   evaluations: int = 12, n_min: int = 2, scan: int = 32,
                   scan_many: Callable | None = None) -> int | None:
    """:func:`~.search.smallest_n` for one cell in plain Python floats, or None where it cannot
    certify.

    The answer n is returned only when it is certified as :func:`~.search.smallest_n` certifies it:
    ``value(n − 1) < target ≤ value(n)`` with n − 1 ≥ ``start``, the n from which the
    criterion is non-decreasing (``monotone_from``), so that the vectorised search returns the
    same n; or, where the criterion is met at ``start`` itself, by the same scan below ``start``
    as :func:`~.search.smallest_n` (1 + the largest failing n, or ``n_min``). The first
    evaluation is
    at the rounded guess and the second at its neighbour towards the crossing (with a guess
    within half a topic they decide); then the crossing is bracketed and narrowed by regula
    falsi in (√n, transform(value)), as in :func:`~.search.smallest_n`. None (the caller runs the
    vectorised search, which names a cell it cannot meet) is returned where that scan finds
    no failure in ``scan`` evaluations, where no n up to the search limit passes, where
    ``value`` raises :class:`Uncertain`, after ``evaluations`` evaluations, and where the
    answer would exceed :data:`ONE_CELL_N_MAX`.

    Parameters
    ----------
    value : callable
        ``value(n)`` for a float n: the criterion of the one cell (NaN means "not met").
    target : float
        The cell's target.
    guess : float
        Initial estimate of n (either side of the answer).
    start : int
        The criterion is non-decreasing for n ≥ ``start`` (``max(monotone_from, 2)``).
    transform : callable
        As in :func:`~.search.smallest_n`, for one float (e.g. :func:`probit_one`).
    evaluations : int
        At most this many evaluations of ``value`` before the scan below ``start``.
    n_min : int
        The smallest n (as in :func:`~.search.smallest_n`).
    scan : int
        At most this many evaluations in the scan below ``start``.
    scan_many : callable, optional
        ``scan_many(ns)``: the criterion at a float array of n, as the vectorised search
        evaluates it. With it the scan below ``start`` takes every n down to ``n_min`` in one
        call or two (:func:`_scan_below_one`) and always decides: a scan of 64 n cost 64 calls
        of ``value``, or the whole vectorised search where it exceeded ``scan``.

    Returns
    -------
    int or None

    Examples
    --------
    >>> smallest_n_one(math.sqrt, 10.5, 100.0, 2)       # √n ≥ 10.5 from n = 111
    111
    >>> smallest_n_one(math.sqrt, 1.2, 3.0, 2)           # met at the start 2: n = 2
    2
    >>> smallest_n_one(lambda n: float(n == 5 or n >= 31), 0.5, 3.0, 40)   # scanned below 40
    31
    >>> smallest_n_one(math.sqrt, 1.2, 3.0, 100) is None  # no failure in 32 n below 100
    True
    """
    lo, hi = start - 1, N_MAX + 1        # lo fails, hi passes; the sentinels as in smallest_n
    ylo = yhi = math.nan
    x = min(max(round(guess) if math.isfinite(guess) else start + 1, start + 1), N_MAX)
    last = []                            # the last two evaluations (x, y), newest last
    streak = 0                           # +k: k passes in a row, -k: k failures in a row
    try:
        for _ in range(evaluations):
            v = value(float(x))
            y = transform(v)
            if v >= target:
                if x < hi:
                    hi, yhi = x, y
                streak = max(streak, 0) + 1
            else:
                if x > lo:
                    lo, ylo = x, y
                streak = min(streak, 0) - 1
            if hi == start:             # passes at the monotone start: scan below, as smallest_n
                return _scan_below_one(value, target, start, n_min, scan, scan_many)
            if hi - lo == 1:
                return hi if start <= lo < ONE_CELL_N_MAX else None
            last = (last + [(x, y)])[-2:]
            # After the first evaluation, its neighbour towards the crossing: with a guess
            # within half a topic of the answer, two evaluations decide.
            x = (x - 1 if streak > 0 else x + 1) if len(last) == 1 else \
                _next_one(lo, hi, ylo, yhi, transform(target), last, streak, start)
            if x is None or not start <= x <= N_MAX:
                return None
    except Uncertain:
        return None
    return None


def _scan_below_one(value, target, start, n_min, scan, many=None):
    """:func:`~.search._scan_below` for one cell: 1 + the largest failing n below ``start``
    (or n_min).

    With ``many`` (the criterion at an array of n) and more than ``_SCAN_ONE_BY_ONE`` n below
    the start, n = start − 1, …, start − 64 in one call, the rest down to n_min in another if
    none failed; else one n at a time (cheaper for a few), and None if that takes more than
    ``scan`` evaluations.

    >>> _scan_below_one(None, 0.5, 129, 2, 32, lambda ns: (ns >= 31) | (ns == 5))
    31
    """
    if many is not None and start - n_min > _SCAN_ONE_BY_ONE:
        import numpy as np

        top = start - 1
        for low in (max(n_min, start - _SCAN_FIRST), n_min):
            if low > top:
                break
            ns = np.arange(top, low - 1, -1, dtype=float)       # descending: the first failure
            ok = np.asarray(many(ns)) >= target                  # is the largest (NaN fails)
            if not ok.all():
                return int(ns[np.argmin(ok)]) + 1
            top = low - 1
        return n_min
    for n in range(start - 1, max(n_min, start - scan) - 1, -1):
        if not value(float(n)) >= target:
            return n + 1
    return n_min if start - n_min <= scan else None


#: The n right below the start that :func:`_scan_below_one` takes in its first call (the
#: starts of the legacy approximations are 9 to 129, and 2049 for the rest); where there are at
#: most ``_SCAN_ONE_BY_ONE`` n below it (the starts 9 and 17), it takes them one at a time: the
#: README's legacy example (n = 6 below the start 9) cost 80 µs in one vectorised call of the
#: legacy ANOVA power, and 25 µs one n at a time.
_SCAN_FIRST = 64
_SCAN_ONE_BY_ONE = 16


def _next_one(lo, hi, ylo, yhi, t, last, streak, start):
    """The next n of :func:`smallest_n_one` (as :func:`~.steps.next_point` for one cell), or
    None."""
    if hi > N_MAX or lo < start:         # one side only: extrapolate the last secant, with margin
        if hi > N_MAX and lo >= N_MAX or hi <= start:
            return None                  # unreachable, or the answer is at or below the start
        (xb, yb), (xa, ya) = last
        sa, sb = math.sqrt(xa), math.sqrt(xb)
        g = math.nan
        if ya != yb and sa != sb and math.isfinite(ya) and math.isfinite(yb):
            g = sa + (t - ya) * (sa - sb) / (ya - yb)
            g = g * g
        if hi > N_MAX:
            up = math.ceil(g * 1.01 + 1) if math.isfinite(g) else 0
            x = up if lo < up <= lo * 4 else max(lo * 4, lo + 1)
            return min(x, N_MAX)
        down = math.floor(g * 0.99 - 1) if math.isfinite(g) else 0
        x = down if hi // 4 <= down < hi else (hi + start - 1) // 2
        return min(max(x, start), hi - 1)
    mid = (lo + hi) // 2
    if abs(streak) >= 3 or not (yhi > ylo):
        return mid
    sl, sh = math.sqrt(lo), math.sqrt(hi)
    root = sl + (t - ylo) * (sh - sl) / (yhi - ylo)
    x = math.ceil(root * root) if math.isfinite(root) else mid
    return min(max(x, lo + 1), hi - 1)


def probit_one(p: float) -> float:
    """:func:`~.search.probit` of one float (NaN stays NaN).

    >>> round(probit_one(0.8), 4)
    0.8416
    """
    return float(special.ndtri(min(max(p, 1e-300), 1.0 - 2.0 ** -53))) if p == p else math.nan
