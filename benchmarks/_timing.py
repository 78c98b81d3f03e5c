"""Timing shared by the benchmarks: the best of several runs of the same call."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_time(func: Callable[[], object], repeat: int = 1) -> tuple[float, object]:
    """The fastest wall-clock time of ``repeat`` calls of ``func()``, and the last result.

    The best time is the one least disturbed by the rest of the machine (the benchmarks run on
    2 shared cores), so that ratios taken in the same run compare like with like.
    """
    best, result = float("inf"), None
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        result = func()
        best = min(best, time.perf_counter() - start)
    return best, result
