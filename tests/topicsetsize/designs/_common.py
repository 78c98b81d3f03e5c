"""Helpers shared by the design tests."""

from __future__ import annotations

import numpy as np


def _brute_force(power, target, upto):
    """Smallest n from which power stays >= target, by evaluating every n up to `upto`."""
    n = np.arange(2, upto + 1, dtype=float)
    fail = ~(power(n) >= target)
    return 2 if not fail.any() else int(n[np.flatnonzero(fail)[-1]]) + 1
