"""Benchmark: the two-sample (unpaired) t-test sizes, vectorised, against statsmodels cell by cell.

Grid: minD in {0.01, ..., 0.20}, the three variances of the AIRS 2016 Table 1 bold values
(.0127, .0601, .2130) and (alpha, beta) in {(.05, .20), (.01, .10)}: 120 cells, computed by
``ttest2_n`` in one vectorised call. In the same run it times statsmodels'
``TTestIndPower().solve_power(effect_size=minD/sigma, alpha=, power=, ratio=1)`` cell by cell
and checks that ceil(statsmodels' real n per group) equals ``ttest2_n``.

    python benchmarks/bench_unpaired.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import math
import time
import warnings

import numpy as np
from _figures import figure
from _timing import best_time

import topicsetsize as tss

MIN_DS = [round(0.01 * k, 2) for k in range(1, 21)]
VARIANCES = [0.0127, 0.0601, 0.2130]
ERRORS = [(0.05, 0.20), (0.01, 0.10)]


def grid():
    cells = [(a, b, d, v) for a, b in ERRORS for v in VARIANCES for d in MIN_DS]
    return [np.array(col) for col in zip(*cells)]


def engine(repeat):
    a, b, d, v = grid()
    return best_time(lambda: tss.ttest2_n(a, b, d, v), repeat)


def peer(n):
    from statsmodels.stats.power import TTestIndPower

    solver = TTestIndPower()
    agree = differ = failed = 0
    t0 = time.perf_counter()
    for k, (a, b, d, v) in enumerate(zip(*grid())):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            real = solver.solve_power(effect_size=d / math.sqrt(v), alpha=a, power=1 - b,
                                      ratio=1)
        if not np.isfinite(real):
            failed += 1
        elif max(2, math.ceil(real - 1e-9)) == n[k]:
            agree += 1
        else:
            differ += 1
    return time.perf_counter() - t0, agree, differ, failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    ours, n = engine(args.repeat)
    theirs, agree, differ, failed = peer(n)
    cells = n.size
    print(f"two-sample t-test sizes, {cells} cells (minD .01-.20, 3 variances, 2 (alpha, beta))")
    print(f"  topicsetsize ttest2_n (vectorised, best of {args.repeat}): "
          f"{1e6 * ours / cells:8.1f} us/cell")
    print(f"  statsmodels TTestIndPower.solve_power (cell by cell):   "
          f"{1e6 * theirs / cells:8.1f} us/cell")
    print(f"  ratio: {theirs / ours:.0f}x")
    figure("unpaired.exact_us", 1e6 * ours / cells, "us/cell", f"best of {args.repeat}, per cell")
    figure("unpaired.statsmodels_us", 1e6 * theirs / cells, "us/cell", "one pass cell by cell")
    figure("unpaired.speedup", theirs / ours, "x", "statsmodels / ours")
    print(f"  agreement with ceil(statsmodels): {agree} agree, {differ} differ, "
          f"{failed} statsmodels failures")


if __name__ == "__main__":
    main()
