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


def all_times(func: Callable[[], object], repeat: int = 1) -> tuple[list[float], object]:
    """The wall-clock times of ``repeat`` calls of ``func()`` (in order), and the last result.

    For ratios stated both best against best (min / min) and typical against typical
    (median / median), where one of the two sides is bimodal (page faults on a large array).
    """
    times, result = [], None
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - start)
    return times, result
