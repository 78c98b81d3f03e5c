"""Whether a design's difference and its variance are on the same scale of scores.

A design's answer takes a difference (minD, minDt or the CI width δ) and a variance (V_E, V_E2
or σt²) in the units of the scores. Given in different units, they give a wrong n without any
error: V_E = 188.2 from scores in percent with minD = 0.1 meant as 0.10 on [0, 1] asks for a
difference of 0.1 percentage points (one-way ANOVA, m = 8, legacy: n = 536,920 where 55 is
meant), and minD = 10 meant as ten points with V_E = .05 from scores in [0, 1] gives n = 3
(144 meant). Most IR measures lie in [0, 1], and
there a variance and a difference cannot exceed the bounds declared here (:data:`SCORES_MAX`),
whatever the data. :func:`scale_note` says, in one line, where the two given lie on opposite
sides of their bounds and the difference is far from the spread of the scores (below 1/10 of
their standard deviation, or above 2 of them). A note, not an error: a measure on another scale
(unnormalised DCG, scores in percent with a small difference meant) is valid.

:func:`warn_scale` issues it as a :class:`ScaleWarning`: the designs' ``*_n``, power and table
functions (:mod:`topicsetsize.designs.kinds`) on their arguments where the user's code calls
them; where the package calls them, with values it may have computed itself (the minD that n
topics guarantee, the candidates read off a matrix), they do not, and what the user gave is
noted once by the package's function that took it (the command line's design commands,
``recommend``, ``budget_plan`` and so ``pool_depth_study``, ``realistic_min_d``'s own
candidates, the workbook's tables). This module imports no numerical library for a scalar call.
"""

from __future__ import annotations

import math
import sys
import warnings

from ..errors import caller_level, in_package

__all__ = ["SCORES_MAX", "VARIANCES", "SMALL_RATIO", "LARGE_RATIO", "UNITS_MAX", "ScaleWarning",
           "scale_note", "scale_pair", "warn_scale", "beyond_scores", "beyond_bound"]

#: The largest value each parameter can take where every score lies in [0, 1], with n ≥ 2 topics
#: (and m ≥ 2 runs). A difference of two means (minD, minDt): 1. A CI of a difference spans at
#: most [−1, 1]: δ ≤ 2. V_E and V_E2: each run's sum of squares is at most n/4 (Popoviciu), so
#: V_E ≤ n/(4(n − 1)) ≤ 1/2 and V_E2 ≤ mn/(4(m − 1)(n − 1)) ≤ 1. σt²: the differences lie in
#: [−1, 1], so σt² ≤ n/(n − 1) ≤ 2.
SCORES_MAX = {"min_d": 1.0, "min_dt": 1.0, "delta": 2.0, "variance": 1.0, "variance_t": 2.0}
#: The variances among them (the others are differences).
VARIANCES = frozenset({"variance", "variance_t"})
_PLAIN = frozenset({int, float})

#: How far from the scores' standard deviation σ a difference must lie, on the other side of
#: its bound from the variance, before the note is given: below σ/10 (a variance beyond [0, 1]
#: scores with a difference that could be one of them), or above 2σ (the reverse). The
#: designs' tables (AIRS 2016) range over minD/σ = .02 to .9 within [0, 1] and so never meet a
#: note; a difference given in the wrong unit of percent moves it by 100.
SMALL_RATIO, LARGE_RATIO = 0.1, 2.0
#: The largest factor between two units of scores that a slip is taken for (percent 100, per
#: mille 1,000, basis points 10,000): a difference beyond its bound by more than this, or a
#: variance by more than its square, is a stress test of the numerics (minD = 1e300), not a
#: slip of units, and gets no note.
UNITS_MAX = 1e4


class ScaleWarning(UserWarning):
    """A design's difference and variance look as if given on different scales of scores (see
    :mod:`topicsetsize.designs.scales`)."""


def scale_note(arguments: dict) -> str | None:
    """One line where the difference and the variance among ``arguments`` (parameter name →
    a number or an array; the names of :data:`topicsetsize.params.PARAMS`) look as if given on
    different scales, else None.

    The note is given where a variance above its bound for scores in [0, 1]
    (:data:`SCORES_MAX`) meets a difference within its bound and below σ/10 (σ the square root
    of the variance), or a variance within its bound meets a difference above it and above 2σ.
    Arrays are compared cell by cell (all the arguments broadcast: a cell is one answer of the
    call); the note names the first such cell, how many more lie the same way, and how many the
    other way. It suggests the difference in percent (or from percent) only where that value
    would not be noted.

    Examples
    --------
    V_E of scores in percent, minD meant on [0, 1]:

    >>> print(scale_note({"min_d": 0.1, "variance": 188.2}))
    variance=188.2 is beyond what scores in [0, 1] can give (at most 1), so the scores are on \
another scale (percent, or a measure not bounded by 1), but min_d=0.1 is only 0.0073 times \
sqrt(variance) = 13.72: give min_d in the scores' unit (in percent, 10 for 0.1)
    >>> print(scale_note({"min_dt": 10, "variance_t": 0.08}))
    min_dt=10 is beyond what scores in [0, 1] can give (at most 1), but variance_t=0.08 fits \
them: min_dt is 35 times sqrt(variance_t) = 0.2828; give min_dt in the scores' unit (0.1 for 10 \
percentage points)
    >>> scale_note({"min_d": 0.1, "variance": 0.0601}) is None       # AIRS 2016's own values
    True
    """
    pair = scale_pair(arguments)                # (a scalar call: ~0.8 µs in all)
    if pair is None:
        return None
    d_name, v_name = pair
    d, v = arguments[d_name], arguments[v_name]
    if _one(d) and _one(v):     # numbers, 0-d arrays: on floats
        first = (float(d), float(v))
        if not _slipped(*first, d_name, v_name):
            return None
        same, other = _cells(arguments), 0
    else:
        if not _beyond_anywhere(d, v, d_name, v_name):      # the usual table: ~3.5 µs
            return None
        same, other, first = _first_mismatched(arguments, d_name, v_name)
        if not same:
            return None
    d, v = first
    sd = math.sqrt(v)
    more = "".join(f" (and {k} more cell{'s' if k > 1 else ''}{how})" for k, how in (
        (same - 1, ""), (other, " the other way round")) if k)
    if v > SCORES_MAX[v_name]:
        hint = (f" (in percent, {d * 100:.6g} for {d:g})"
                if not _slipped(d * 100, v, d_name, v_name) else "")
        return (f"{v_name}={v:.6g} is beyond what scores in [0, 1] can give (at most "
                f"{SCORES_MAX[v_name]:g}), so the scores are on another scale (percent, or a "
                f"measure not bounded by 1), but {d_name}={d:.6g} is only {d / sd:.2g} times "
                f"sqrt({v_name}) = {sd:.4g}: give {d_name} in the scores' unit{hint}{more}")
    hint = (f" ({d / 100:.6g} for {d:.6g} percentage points)"
            if not _slipped(d / 100, v, d_name, v_name) else "")
    return (f"{d_name}={d:.6g} is beyond what scores in [0, 1] can give (at most "
            f"{SCORES_MAX[d_name]:g}), but {v_name}={v:.6g} fits them: {d_name} is "
            f"{d / sd:.2g} times sqrt({v_name}) = {sd:.4g}; give {d_name} in the scores' "
            f"unit{hint}{more}")


def beyond_scores(arguments: dict, n) -> str | None:
    """One line where a difference that ``n`` topics detect (computed, not given: a minimum
    difference or a CI width; the largest finite one of an array) is more than scores in [0, 1]
    can show, while the variance fits such scores; else None. ``arguments`` holds the
    difference and the variance (:func:`scale_pair`; others are ignored). A minimum difference
    of 1.39 on AP says that 2 topics detect no difference AP can show, which the number alone
    does not say (``min-d anova --n 2 --m 10 --variance 0.0601``).

    >>> beyond_scores({"min_d": 1.38685, "variance": 0.0601, "m": 10}, 2)[:66]
    'min_d=1.38685 at n=2 is more than scores in [0, 1] can differ (at '
    >>> beyond_scores({"min_d": [0.2, float("inf")], "variance": 0.0601}, 50) is None
    True
    """
    import numpy as np

    name, v_name = scale_pair(arguments)
    value, variance = arguments[name], arguments[v_name]
    over = beyond_bound(name, value, v_name, variance)
    if not over.any():
        return None
    largest = float(np.max(np.asarray(value, float)[over]))
    bound = SCORES_MAX[name]
    what = ("the interval is wider than any difference they can show" if name == "delta" else
            f"{int(n)} topics detect no difference they can show")
    return (f"{name}={largest:.6g} at n={int(n)} is more than scores in [0, 1] can "
            f"{'span' if name == 'delta' else 'differ'} (at most {bound:g}), and "
            f"{v_name}={variance:.6g} fits such scores: if they lie in [0, 1], {what} (more "
            "topics are needed)")


def beyond_bound(name: str, value, v_name: str, variance: float):
    """Where a computed difference ``value`` (a number or an array; ``name`` and ``v_name`` of
    :data:`SCORES_MAX`) is above its bound for scores in [0, 1] while the ``variance`` fits such
    scores: a bool array, False where the value is not finite. Shared by :func:`beyond_scores`
    and ``guarantees``' note on its table.

    >>> beyond_bound("min_d", [0.5, 1.4, float("nan")], "variance", 0.0601).tolist()
    [False, True, False]
    """
    import numpy as np

    value = np.asarray(value, float)
    return np.isfinite(value) & (value > SCORES_MAX[name]) & (variance <= SCORES_MAX[v_name])


def scale_pair(names) -> tuple[str, str] | None:
    """The difference and the variance among parameter ``names`` (an iterable, e.g. a dict of
    arguments), or None unless there is exactly one of each.

    >>> scale_pair({"alpha": 0.05, "variance_t": 0.1, "min_dt": 0.2})
    ('min_dt', 'variance_t')
    """
    named = [name for name in names if name in SCORES_MAX]
    if len(named) != 2 or (named[0] in VARIANCES) == (named[1] in VARIANCES):
        return None
    return (named[0], named[1]) if named[1] in VARIANCES else (named[1], named[0])


def _slips(d, v, sd, d_name: str, v_name: str):
    """Whether each cell's variance lies beyond its bound with the difference far below, and
    whether its difference lies beyond with the variance within (:func:`scale_note`'s test), for
    floats or arrays alike (comparisons, arithmetic and ``&`` only; ``sd`` is √v, NaN where
    v ≤ 0). A cell whose effect d/σ lies beyond floats is neither: refused or answered, it is
    not a matter of scale."""
    d_max, v_max = SCORES_MAX[d_name], SCORES_MAX[v_name]
    ratio = d / sd
    usable = (d > 0) & (d < math.inf) & (ratio > 0) & (ratio < math.inf)
    high_v = (usable & (v > v_max) & (v <= v_max * UNITS_MAX ** 2) & (d <= d_max)
              & (d < SMALL_RATIO * sd))
    high_d = (usable & (v <= v_max) & (d > d_max) & (d <= d_max * UNITS_MAX)
              & (d > LARGE_RATIO * sd))
    return high_v, high_d


def _slipped(d: float, v: float, d_name: str, v_name: str) -> bool:
    """:func:`_slips` of one cell (plain numbers): either way."""
    if not (v > SCORES_MAX[v_name] or d > SCORES_MAX[d_name]):     # the usual call
        return False
    return any(_slips(d, v, math.sqrt(v) if v > 0 else math.nan, d_name, v_name))


def _one(x) -> bool:
    """Whether ``x`` is one number (a Python or numpy number, or a 0-d array)."""
    return type(x) in _PLAIN or getattr(x, "ndim", None) == 0


def _beyond_anywhere(d, v, d_name: str, v_name: str) -> bool:
    """Whether some difference or some variance of the arrays lies beyond its bound: no cell
    can be noted otherwise (NaN is beyond nothing)."""
    import numpy as np

    d, v = np.asarray(d, float), np.asarray(v, float)
    return bool(d.size and v.size and (v.max() > SCORES_MAX[v_name]
                                       or d.max() > SCORES_MAX[d_name]))


def _cells(arguments: dict) -> int:
    """The number of answers of a call with these arguments (their broadcast size)."""
    if all(_one(x) for x in arguments.values()):
        return 1
    import numpy as np

    return math.prod(np.broadcast_shapes(*(np.shape(x) for x in arguments.values())))


def _first_mismatched(arguments: dict, d_name: str, v_name: str) -> tuple[int, int, tuple]:
    """The numbers of cells of the arguments (all broadcast together, so that a cell is one of
    the call's answers) that lie the way of the first such cell and the other way, and that
    first cell (d, v)."""
    import numpy as np

    shape = np.broadcast_shapes(*(np.shape(x) for x in arguments.values()))
    d, v = (np.broadcast_to(np.asarray(arguments[k], float), shape) for k in (d_name, v_name))
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        high_v, high_d = _slips(d, v, np.sqrt(v), d_name, v_name)
    bad = (high_v | high_d).ravel()
    if not bad.any():
        return 0, 0, None
    i = int(np.argmax(bad))
    counts = int(np.count_nonzero(high_v)), int(np.count_nonzero(high_d))
    same, other = counts if high_v.ravel()[i] else counts[::-1]
    return same, other, (float(d.ravel()[i]), float(v.ravel()[i]))


def warn_scale(arguments: dict, *, given: bool = False) -> None:
    """Issue :func:`scale_note` of ``arguments`` as a :class:`ScaleWarning`, if there is one,
    pointing at the first caller outside the package (the user's call).

    A design's functions call it on their arguments, and note them only where they were called
    from outside the package: where the package calls them (a command, a recommendation, a
    study, the workbook), the values may be its own (a minD it computed from the scores), and
    it notes what the user gave once itself, with ``given=True``.

    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_scale({"delta": 5.0, "variance_t": 0.05})
    >>> caught[0].category.__name__, str(caught[0].message)[:40]
    ('ScaleWarning', 'delta=5 is beyond what scores in [0, 1] ')
    """
    note = scale_note(arguments)
    if note is not None and (given or _called_from_outside()):
        warnings.warn(note, ScaleWarning, stacklevel=caller_level())


def _called_from_outside() -> bool:
    """Whether the design function calling :func:`warn_scale` was called from outside the
    package: the first frame that is not in ``designs/`` is not in the package."""
    frame = sys._getframe(2)
    while frame is not None and in_package(frame, "designs"):
        frame = frame.f_back
    return frame is None or not in_package(frame)
