"""Benchmark: guarantees() (one vectorised call per design) against a loop over the engine.

Run from the repository root::

    python benchmarks/bench_guarantees.py [--repeat 3]

The grid is n = 10, 20, ..., 500 (50 sizes) × m = 2, 5, 10, 20, 50, 100 (the default), at
σ̂² = .0601, α = .05, β = .20, both methods. The peer is the naive loop: one call of
``anova_min_d`` per (n, m) and one of ``ttest_min_dt`` and ``ci_delta`` per n. The script
checks that both give the same numbers and prints the times and the ratio.

Exit status 1 if the values differ.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _figures import figure  # noqa: E402
from _timing import best_time  # noqa: E402

from topicsetsize import anova_min_d, ci_delta, ttest_min_dt  # noqa: E402
from topicsetsize.decide.guarantee import DEFAULT_MS, guarantees  # noqa: E402

NS = list(range(10, 501, 10))
VARIANCE, ALPHA, BETA = 0.0601, 0.05, 0.20


def loop(method: str) -> list[list[float]]:
    rows = []
    for n in NS:
        min_dt = ttest_min_dt(n, variance_t=2 * VARIANCE, alpha=ALPHA, beta=BETA, method=method)
        width = ci_delta(n, variance_t=2 * VARIANCE, alpha=ALPHA)
        for m in DEFAULT_MS:
            rows.append([n, m, anova_min_d(n, m=m, variance=VARIANCE, alpha=ALPHA, beta=BETA,
                                           method=method), min_dt, width])
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="best of REPEAT timings")
    args = parser.parse_args(argv)
    cells = len(NS) * len(DEFAULT_MS)
    status = 0
    for method in ("legacy", "exact"):
        t_vec, result = best_time(lambda: guarantees(NS, variance=VARIANCE, alpha=ALPHA,
                                                     beta=BETA, method=method), args.repeat)
        t_loop, rows = best_time(lambda: loop(method), args.repeat)
        same = result.table.values.tolist() == rows
        status |= not same
        print(f"{method:6s} {cells} cells: guarantees {1e3 * t_vec:7.1f} ms "
              f"({1e6 * t_vec / cells:6.1f} µs/cell), loop {1e3 * t_loop:7.1f} ms "
              f"({1e6 * t_loop / cells:6.1f} µs/cell): {t_loop / t_vec:5.1f}x, "
              f"values {'identical' if same else 'DIFFER'}")
        how = f"best of {args.repeat}, {cells} cells"
        figure(f"guarantees.{method}_us", 1e6 * t_vec / cells, "us/cell", how)
        figure(f"guarantees.{method}_loop_us", 1e6 * t_loop / cells, "us/cell", how)
        figure(f"guarantees.{method}_speedup", t_loop / t_vec, "x", "loop / guarantees, " + how)
    return status


if __name__ == "__main__":
    sys.exit(main())
