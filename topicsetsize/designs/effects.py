"""Effect sizes of the designs: the noncentrality per topic, and a standardised difference.

Shared by the one-way and two-way ANOVA (Δ = minD²/(2σ²), Sakai, CIKM 2014, Eq. 7) and by the
paired, unpaired and all-pairs t designs (minD/σ, Sakai, IRJ 2016, Section 3; Cohen 1988).
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import InputError

__all__ = ["anova_effect", "anova_difference", "t_effect"]


def anova_effect(min_d, variance):
    """Δ = minD² / (2σ²), the worst-case noncentrality per topic (CIKM 2014, Eq. 7).

    Where minD² or 2σ² would overflow (or underflow) it is computed as (minD/σ)²/2, so that
    Δ is right whenever it is representable.

    >>> round(anova_effect(0.1, 0.005), 12)
    1.0
    >>> float(anova_effect(1e200, 1e200))        # minD² overflows; (minD/σ)²/2 = 5e199
    5e+199
    """
    if type(min_d) is float and type(variance) is float:    # a scalar call: plain floats
        direct = min_d * min_d / (2.0 * variance)
        if 0.0 < direct < math.inf:
            return direct
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        direct = min_d * min_d / (2.0 * variance)
        ok = np.isfinite(direct) & (direct > 0)
        if ok.all() if isinstance(ok, np.ndarray) else ok:
            return direct
        scaled = np.square(min_d / np.sqrt(variance)) / 2.0
    out = np.where(ok, direct, scaled)
    return out if np.ndim(out) else out[()]


def anova_difference(effect, variance):
    """minD = √(2σ²Δ), the range whose noncentrality per topic is Δ: the inverse of
    :func:`anova_effect`, taken as √(2Δ)·σ where 2σ²Δ overflows (σ² from about 1e307 on).

    >>> float(anova_difference(1.0, 0.005))
    0.1
    >>> float(anova_difference(2.0, 1e308))       # 2σ²Δ overflows; √(2Δ)σ = 2e154
    2e+154
    """
    with np.errstate(over="ignore"):
        direct = np.sqrt(2.0 * variance * effect)
    return np.where(np.isfinite(direct), direct, np.sqrt(2.0 * effect) * np.sqrt(variance))


def t_effect(min_d, variance, *, names=("min_dt", "variance_t")):
    """minD/σ, the standardised difference of a t-test design, checked to be usable.

    The effect size minΔt = minDt/σt of the paired t-test (Sakai, IRJ 2016, Section 3), and
    Cohen's d = minD/σ of the two-sample test (Cohen 1988, Chapter 2). The arguments are
    valid on their own; their ratio can still overflow or underflow.

    Parameters
    ----------
    min_d, variance : ndarray
        Validated difference (> 0) and variance (> 0).
    names : tuple of str
        The two arguments' names, for the error message.

    Returns
    -------
    ndarray

    Raises
    ------
    ValueError
        One line where the ratio is not a positive finite number.

    Examples
    --------
    >>> float(t_effect(np.array(0.1), np.array(0.04)))
    0.5
    >>> t_effect(np.array(1e-300), np.array(1e300), names=("min_d", "variance"))
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: min_d/sqrt(variance)=0 is out of range: allowed a positive, finite
    effect size
    (min_d and variance are too far apart in scale)
    """
    with np.errstate(all="ignore"):
        effect = min_d / np.sqrt(variance)
    bad = ~(np.isfinite(effect) & (effect > 0))
    if bad.any():
        d, v = names
        raise InputError(f"{d}/sqrt({v})={effect[bad].flat[0]:g} is out of range: "
                         "allowed a positive, finite effect size "
                         f"({d} and {v} are too far apart in scale)")
    return effect
