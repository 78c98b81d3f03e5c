"""The certification of an F design's n by its precise power, and the flag where it cannot decide.

The searches narrow n with a fast power (Boost's F point and noncentral F as they are,
``precise=False``), which is off by up to ~4e-8 near 10⁹ topics, where the power rises by only a
few 1e-10 per topic. Where the fast powers at n − 1 and n leave the answer open
(:func:`undecided_by_fast`), :func:`certify` moves n until the precise power (within
:data:`F_POWER_TOLERANCE`) certifies it, power(n − 1) < 1 − β ≤ power(n); and where a certifying
power lies within that tolerance of 1 − β, the powers cannot decide between n − 1, n and n + 1:
a :class:`PrecisionWarning` says so instead of certifying silently (``docs/formulas.md`` §4,
numerical precision).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable

import numpy as np

from ..errors import caller_level
from ..params import N_MAX
from .distributions import PRECISE_FROM
from .search_one import Uncertain

__all__ = ["PrecisionWarning", "F_POWER_TOLERANCE", "FAST_POWER_ERROR", "CHECK_FROM", "certify",
           "certify_one", "certify_from", "undecided_by_fast", "SeenValues"]

#: Absolute precision of the F designs' precise powers (exact and legacy) up to n = 10⁹, φE up
#: to 10¹²: over twice the largest error measured against 40-digit mpmath powers (1.3e-11,
#: ``tests/data/anova_large_n_reference.csv``), which comes from the F point (up to 1e-11).
F_POWER_TOLERANCE = 3e-11

#: The n from which the certifying powers are checked against :data:`F_POWER_TOLERANCE` (and
#: from which an answer the fast powers leave open is certified by the precise power; below it,
#: only where the two powers differ, φE ≥ 10⁵: :func:`certify_from`). Below it the power rises per
#: topic by some 1e-7 or more (about φ(z_β)·(z_α + z_β)/(2n)), thousands of times the
#: tolerance, so that only a cell built to sit on the target (a minD computed for that very n)
#: comes within it.
CHECK_FROM = 10**4

#: A bound on how far the fast power (``precise=False``) can lie from the precise one, from
#: Boost's F point (off by up to 1.24e-8 relative) and tail (1.1e-9): measured, at most 4.1e-8
#: (exact) and 1.5e-8 (legacy) over 20,000 random cells (α from 1e-7 to .5, m from 2 to 1000,
#: n from 10³ to 10⁹, power from .1 to .99), 1.2e-10 where φE < 10⁷; taken with a margin of
#: five. Where the fast powers at n − 1 and n lie farther than this (plus the tolerance) from
#: 1 − β, the precise ones decide alike and are not computed (:func:`undecided_by_fast`).
FAST_POWER_ERROR = 2e-7

#: Steps of one topic that :func:`certify` walks (the fast power is seldom more than ~1e-9 off);
#: past them it brackets the crossing by doubling steps from this many topics and bisects
#: (:func:`_crossing`: 4e-9 off, 8 topics, at n ≈ 6·10⁸).
_MAX_MOVES = 16


class PrecisionWarning(UserWarning):
    """The power at n − 1 or at n is within the power's stated precision of 1 − β: the n returned
    is the one the computed powers certify, and the smallest n may be a topic or two away."""


class SeenValues:
    """What the search saw, per cell: the criterion at the largest failing and the smallest
    passing n (for :func:`~topicsetsize.numerics.search.smallest_n` with ``values``, whose fast
    powers at n − 1 and n tell where :func:`certify` is needed)."""

    def __init__(self, size: int, n_max: int):
        self.fail_x = np.full(size, -1, np.int64)
        self.pass_x = np.full(size, n_max + 2, np.int64)
        self.fail_v = np.full(size, np.nan)
        self.pass_v = np.full(size, np.nan)

    def record(self, cells, x, ok, v):
        """Evaluations at ``x`` of the (distinct) ``cells``."""
        better = ok & (x < self.pass_x[cells])
        self.pass_x[cells[better]], self.pass_v[cells[better]] = x[better], v[better]
        better = ~ok & (x > self.fail_x[cells])
        self.fail_x[cells[better]], self.fail_v[cells[better]] = x[better], v[better]

    def around(self, n):
        """(value(n − 1), value(n)) where they were evaluated, else NaN."""
        return (np.where(self.fail_x == n - 1, self.fail_v, np.nan),
                np.where(self.pass_x == n, self.pass_v, np.nan))


def undecided_by_fast(target, below, at, tolerance: float = F_POWER_TOLERANCE):
    """Per cell, True where the fast powers at n − 1 (``below``) and n (``at``) do not settle
    the certificate: either lies within :data:`FAST_POWER_ERROR` + ``tolerance`` of the target,
    or is NaN (not kept by the search).

    >>> undecided_by_fast(0.8, np.array([0.79, 0.79999999]), np.array([0.81, 0.81])).tolist()
    [False, True]
    """
    with np.errstate(invalid="ignore"):
        margin = np.minimum(np.asarray(target) - below, np.asarray(at) - target)
        return ~(margin > FAST_POWER_ERROR + tolerance)


def certify_from(dfe_per_topic, check_from: int = CHECK_FROM):
    """Per cell, the n from which :func:`certify` runs: ``check_from``, or the first n whose
    φE = k·(n − 1) reaches :data:`~topicsetsize.numerics.distributions.PRECISE_FROM` (k = m for
    the one-way design, m − 1 for the two-way one) if smaller; at least 3.

    >>> certify_from(np.array([2.0, 99.0])).tolist()
    [10000, 1012]
    """
    first = np.maximum(np.ceil(PRECISE_FROM / np.asarray(dfe_per_topic, float)) + 1.0, 3.0)
    return np.minimum(first, check_from).astype(np.int64)      # n − 1 ≥ 2: a valid size


def certify(power, target, n, *, tolerance: float, check_from, describe: Callable[[int], str],
            warn_from: int = CHECK_FROM) -> np.ndarray:
    """Move each n ≥ ``check_from`` until ``power`` certifies it; warn where it cannot decide.

    For those cells, the powers at n − 1 and n are evaluated; n moves down while
    power(n − 1) ≥ target and up while power(n) < target (a few topics at most, the power being
    monotone in n). Where a certifying power then lies within ``tolerance`` of the target (or
    the walk did not settle) at n ≥ ``warn_from``, a :class:`PrecisionWarning` names the first
    such cell and their number.

    Parameters
    ----------
    power : callable
        ``power(n, idx)``, the (precise) criterion at the float array ``n`` for the cells ``idx``.
    target : array_like
        Per-cell target, broadcast to the shape of ``n``.
    n : ndarray of int
        The answers of the search.
    tolerance : float
        The absolute precision of ``power``.
    check_from : int or array_like
        Per cell (broadcast to ``n``), the smallest n that is certified.
    describe : callable
        ``describe(i)`` names cell i's inputs.
    warn_from : int
        The smallest n checked against ``tolerance``.

    Returns
    -------
    ndarray of int64
        The certified n, the shape of ``n``.

    Examples
    --------
    A power rising by 1e-9 per topic, exactly .8 at n = 10⁸: 10⁸ + 3 moves down to 10⁸, and
    the power there is within 1.5e-9 of the target at n (and at n − 1):

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     n = certify(lambda x, i: 0.8 + (x - 1e8) * 1e-9, 0.8, np.array([100_000_003]),
    ...                 tolerance=1.5e-9, check_from=10**4, describe=str)
    >>> n.tolist(), caught[0].category.__name__
    ([100000000], 'PrecisionWarning')
    """
    n = np.array(n, dtype=np.int64)
    flat = n.ravel()
    target = np.broadcast_to(np.asarray(target, float), n.shape).ravel()
    undecided = np.zeros(flat.shape, bool)
    start = np.maximum(np.broadcast_to(np.asarray(check_from, np.int64), n.shape).ravel(), 3)
    cells = np.flatnonzero(flat >= start)
    if cells.size:
        x, t = flat[cells], target[cells]
        settled = np.zeros(cells.size, bool)
        for _ in range(_MAX_MOVES):
            p = np.asarray(power(np.concatenate([x - 1.0, x]), np.concatenate([cells, cells])),
                           float)
            below, at = p[:cells.size], p[cells.size:]
            down = below >= t
            up = ~(at >= t)
            settled = ~(down ^ up)           # certified, or contradictory (both): stop there
            if settled.all():
                break
            x = np.clip(np.where(down & ~up, x - 1, np.where(up & ~down, x + 1, x)), 3, N_MAX)
        for j in np.flatnonzero(~settled & (down ^ up)):    # still walking: bracket and bisect
            found = _crossing(lambda z, c=cells[j]: power(z, np.full(z.shape, c)), t[j],
                              int(x[j]), bool(up[j]))
            if found is not None:
                (x[j], below[j], at[j]), settled[j] = found, True
        with np.errstate(invalid="ignore"):
            near = (np.abs(below - t) < tolerance) | (np.abs(at - t) < tolerance)
        undecided[cells] = (near | ~settled | (down & up)) & (x >= warn_from)
        flat[cells] = x
    if undecided.any():
        _warn(int(flat[int(np.argmax(undecided))]), describe(int(np.argmax(undecided))),
              int(undecided.sum()) - 1, tolerance)
    return flat.reshape(n.shape)


def _crossing(power, target: float, x: int, up: bool) -> tuple[int, float, float] | None:
    """Where :func:`certify`'s walk of one topic a step has not settled a cell in
    :data:`_MAX_MOVES` steps (its search's fast power was farther off than that: 8 topics at
    n ≈ 6·10⁸, φE ≈ 2.4·10⁹, α = .32, a hypothesis find): the smallest n from ``x`` on (``up``)
    or below it whose precise ``power`` (of a float array) reaches ``target``, by steps doubling
    from :data:`_MAX_MOVES` until the crossing is bracketed, then bisection; (n, power(n − 1),
    power(n)), or None where no bracket lies within 3..10⁹ (the cell stays unsettled).

    >>> _crossing(lambda z: (z - 1000.0) * 1e-3, 0.0, 900, True)
    (1000, -0.001, 0.0)
    >>> _crossing(lambda z: (z - 1000.0) * 1e-3, 0.0, 1100, False)[0]
    1000
    """
    def passes(z: int) -> bool:
        return bool(power(np.array([float(z)]))[0] >= target)

    step = _MAX_MOVES
    if up:                      # x fails: a passing n above it
        lo = x
        while not passes(hi := min(lo + step, N_MAX)):
            if hi >= N_MAX:
                return None
            lo, step = hi, 2 * step
    else:                       # x − 1 passes: a failing n below it
        hi = x - 1
        while passes(lo := max(hi - step, 3)):
            if lo <= 3:
                return None
            hi, step = lo, 2 * step
    while hi - lo > 1:          # power(lo) < target <= power(hi)
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if passes(mid) else (mid, hi)
    below, at = (float(v) for v in power(np.array([hi - 1.0, float(hi)])))
    return hi, below, at


def _warn(n: int, cell: str, more: int, tolerance: float) -> None:
    """The :class:`PrecisionWarning` of :func:`certify`: n of the first undecided cell, its
    inputs, and how many more."""
    warnings.warn(
        f"n={n:,} for {cell} is certified by powers within "
        f"{tolerance:g} of 1 - beta, the power's precision: the smallest n may be a topic or "
        f"two away" + (f" (and {more} more cells)" if more else ""),
        PrecisionWarning, stacklevel=caller_level())


def certify_one(power: Callable[[np.ndarray], np.ndarray], target: float, n: int | None,
                describe: Callable[[int], str], *, dfe_per_topic: float,
                fast: Callable[[float], float],
                power_some: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None
                ) -> int | None:
    """:func:`certify` of a one-cell answer n with the F designs' tolerance, from
    :func:`certify_from` (None passes through), where the fast power ``fast(x)`` (a float x)
    leaves it open (:func:`undecided_by_fast`); ``power(x)`` is the cell's precise power at the
    float array x.

    The walk is :func:`certify`'s on floats, with n's neighbours n − 2, …, n + 1 in one call of
    the power (a walk of one topic costs no second call). With ``power_some(x, use)``, the
    precise power at ``x[use]`` with the same bits as ``power(x)`` there (issue 28.5), the
    first call computes only n − 1 and n (not where the fast power alone settles that side:
    farther than :data:`FAST_POWER_ERROR` + the tolerance from the target, the precise power is
    on the same side, outside the tolerance, as in :func:`undecided_by_fast`) and the neighbours
    that a walk of one topic would need from an open side; once the walk moves, the rest of each
    call's points: the same n and the same warning.

    >>> certify_one(lambda x: x / 1e6, 0.5000005, 500_004, str, dfe_per_topic=2.0,
    ...             fast=lambda x: 0.5000005)                           # open: moves down
    500001
    >>> certify_one(lambda x: 1 / 0, 0.5, 500_004, str, dfe_per_topic=2.0,
    ...             fast=lambda x: 0.5 + (x - 500_003.5) * 1e-3)        # settled by the fast power
    500004
    >>> certify_one(lambda x: 1 / 0, 0.5000005, 500_004, str, dfe_per_topic=2.0,
    ...             fast=lambda x: x / 1e6, power_some=lambda x, use: x[use] / 1e6)
    500001
    """
    if n is None or n < min(max(math.ceil(PRECISE_FROM / dfe_per_topic) + 1, 3), CHECK_FROM):
        return n                          # certify_from(dfe_per_topic), without numpy
    try:
        fast_below, fast_at = fast(n - 1.0), fast(float(n))
    except Uncertain:   # the fast one-cell power refuses: let the precise one certify
        fast_below = fast_at = math.nan
    t, edge = target, FAST_POWER_ERROR + F_POWER_TOLERANCE
    if t - fast_below > edge and fast_at - t > edge:    # undecided_by_fast, on floats
        return n
    # where the fast power settles a side by itself, the precise one would decide it alike
    settled_by_fast = {} if power_some is None else {
        x: side for x, side, margin in ((n - 1, False, t - fast_below), (n, True, fast_at - t))
        if margin > edge}
    # certify's walk of one cell on floats (the same steps, stops and warning); `batch` holds,
    # per n, the call of the power it belongs to (n's neighbours in one call), `seen` the powers
    x, batch, seen = n, {}, {}
    # the first call takes, beside n - 1 and n, the neighbours a walk of one topic would need
    # (a second call costs several times more): on an open side only (the fast power settles
    # the other), or on both (which way it goes, the fast power cannot tell within its error)
    first = (n - 1, n) + ((n - 2,) if n - 1 not in settled_by_fast else ()) + (
        (n + 1,) if n not in settled_by_fast else ())
    for _ in range(_MAX_MOVES):
        if x - 1 not in batch or x not in batch:
            xs = [v for v in (x - 2, x - 1, x, x + 1) if 2 <= v <= N_MAX and v not in batch]
            batch.update((v, xs) for v in xs)
        compared = (x - 1, x)
        for v in compared:      # after a move, the rest of a call's points (the walk goes on)
            if v not in seen and v not in settled_by_fast:
                _evaluate(power, power_some, batch[v], first if x == n else batch[v],
                          settled_by_fast, seen)
        down = settled_by_fast[x - 1] if x - 1 in settled_by_fast else seen[x - 1] >= t
        up = not (settled_by_fast[x] if x in settled_by_fast else seen[x] >= t)
        settled = down == up              # certified, or contradictory (both): stop there
        if settled:
            break
        x = min(max(x - 1 if down else x + 1, 3), N_MAX)
    if not settled and (found := _crossing(power, t, x, up)) is not None:   # as certify
        x, seen[x - 1], seen[x] = found[0], found[1], found[2]
        compared, settled, down, up = (x - 1, x), True, False, False
    near = any(abs(seen[v] - t) < F_POWER_TOLERANCE for v in compared if v in seen)
    if (near or not settled or down and up) and x >= CHECK_FROM:
        _warn(x, describe(0), 0, F_POWER_TOLERANCE)
    return x


def _evaluate(power, power_some, xs, wanted, settled_by_fast, seen):
    """The precise powers of the call ``xs`` of :func:`certify_one`'s walk: all of them
    (``power``), or those of ``wanted`` not settled by the fast power (``power_some``)."""
    if power_some is None:
        seen.update(zip(xs, (float(p) for p in power(np.array(xs, float)))))
        return
    use = np.array([v in wanted and v not in settled_by_fast and v not in seen for v in xs])
    got = power_some(np.array(xs, float), use)
    seen.update(zip((v for v, u in zip(xs, use) if u), (float(p) for p in got)))
