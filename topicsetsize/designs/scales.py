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

:func:`warn_scale` issues it as a :class:`ScaleWarning`, from the designs' ``*_n``, power and
table functions (:mod:`topicsetsize.designs.kinds`), so that the command line, which prints every
warning on one line, says it too. This module imports no numerical library for a scalar call.
"""

from __future__ import annotations

import math
import warnings

from ..errors import caller_level

__all__ = ["SCORES_MAX", "VARIANCES", "SMALL_RATIO", "LARGE_RATIO", "ScaleWarning", "scale_note",
           "warn_scale"]

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
    call); the note names the first such cell and how many more there are.

    Examples
    --------
    V_E of scores in percent, minD meant on [0, 1]:

    >>> print(scale_note({"min_d": 0.1, "variance": 188.2}))           # doctest: +ELLIPSIS
    variance=188.2 is beyond what scores in [0, 1] can give (at most 1), so the scores are on \
another scale (percent, or a measure not bounded by 1), but min_d=0.1 is only 0.0073 times \
their standard deviation 13.72: give min_d in the scores' unit (in percent, 10 for 0.1)
    >>> print(scale_note({"min_dt": 10, "variance_t": 0.08}))         # doctest: +ELLIPSIS
    min_dt=10 is beyond what scores in [0, 1] can give (at most 1), but variance_t=0.08 fits \
them: min_dt is 35 times their standard deviation 0.2828; give min_dt in the scores' unit (0.1 \
for 10 percentage points)
    >>> scale_note({"min_d": 0.1, "variance": 0.0601}) is None       # AIRS 2016's own values
    True
    """
    named = [name for name in arguments if name in SCORES_MAX]     # (a scalar call: ~0.5 µs)
    if len(named) != 2 or (named[0] in VARIANCES) == (named[1] in VARIANCES):
        return None
    d_name, v_name = named if named[1] in VARIANCES else named[::-1]
    d, v = arguments[d_name], arguments[v_name]
    if type(d) in _PLAIN and type(v) in _PLAIN:
        if not _mismatched(d, v, d_name, v_name):
            return None
        cells, first = 1, (float(d), float(v))
    else:
        cells, first = _first_mismatched(arguments, d_name, v_name)
    if not cells:
        return None
    d, v = first
    sd = math.sqrt(v)
    more = f" (and {cells - 1} more cell{'s' if cells > 2 else ''})" if cells > 1 else ""
    if v > SCORES_MAX[v_name]:
        return (f"{v_name}={v:.6g} is beyond what scores in [0, 1] can give (at most "
                f"{SCORES_MAX[v_name]:g}), so the scores are on another scale (percent, or a "
                f"measure not bounded by 1), but {d_name}={d:.6g} is only {d / sd:.2g} times "
                f"their standard deviation {sd:.4g}: give {d_name} in the scores' unit (in "
                f"percent, {d * 100:.6g} for {d:g}){more}")
    return (f"{d_name}={d:.6g} is beyond what scores in [0, 1] can give (at most "
            f"{SCORES_MAX[d_name]:g}), but {v_name}={v:.6g} fits them: {d_name} is "
            f"{d / sd:.2g} times their standard deviation {sd:.4g}; give {d_name} in the scores' "
            f"unit ({d / 100:.6g} for {d:.6g} percentage points){more}")


def _mismatched(d: float, v: float, d_name: str, v_name: str) -> bool:
    """:func:`scale_note`'s test of one cell (plain numbers)."""
    sd = math.sqrt(v) if v > 0 else math.nan
    if not (d > 0 and math.isfinite(d) and 0 < d / sd < math.inf):
        return False        # refused by the checks (an effect d/σ beyond floats), not a note
    if v > SCORES_MAX[v_name]:
        return d <= SCORES_MAX[d_name] and d < SMALL_RATIO * sd
    return d > SCORES_MAX[d_name] and d > LARGE_RATIO * sd


def _first_mismatched(arguments: dict, d_name: str, v_name: str) -> tuple[int, tuple | None]:
    """The number of mismatched cells of the arguments (all broadcast together, so that a cell
    is one of the call's answers) and the first one."""
    import numpy as np

    shape = np.broadcast_shapes(*(np.shape(x) for x in arguments.values()))
    d, v = (np.broadcast_to(np.asarray(arguments[k], float), shape) for k in (d_name, v_name))
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        sd = np.sqrt(v)
        beyond = v > SCORES_MAX[v_name]
        bad = np.where(beyond, (d <= SCORES_MAX[d_name]) & (d < SMALL_RATIO * sd),
                       (d > SCORES_MAX[d_name]) & (d > LARGE_RATIO * sd))
        bad &= (d > 0) & np.isfinite(d) & (d / sd > 0) & np.isfinite(d / sd)
    cells = int(np.count_nonzero(bad))
    if not cells:
        return 0, None
    i = int(np.flatnonzero(bad.ravel())[0])
    return cells, (float(d.ravel()[i]), float(v.ravel()[i]))


def warn_scale(arguments: dict) -> None:
    """Issue :func:`scale_note` of ``arguments`` as a :class:`ScaleWarning`, if there is one,
    pointing at the first caller outside the package (the user's call).

    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_scale({"delta": 5.0, "variance_t": 0.05})
    >>> caught[0].category.__name__, str(caught[0].message)[:40]
    ('ScaleWarning', 'delta=5 is beyond what scores in [0, 1] ')
    """
    note = scale_note(arguments)
    if note is not None:
        warnings.warn(note, ScaleWarning, stacklevel=caller_level())
