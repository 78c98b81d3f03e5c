"""Benchmark: vectorised split-half (topicsetsize.checks.reliability.split_half) against a scipy
loop.

Run from the repository root::

    python benchmarks/bench_split_half.py [--loop-trials 20] [--loop-runs 20] [--repeat 3]

1. On a subsample of Voorhees' set-up (TREC 2004 Robust, topics 351-450, the first
   ``--loop-runs`` of the 83 best runs, ``--loop-trials`` random splits), it times the loop over
   ``scipy.stats.ttest_rel`` that the tests use as the reference (one call per pair and half)
   and ``split_half`` on the same splits, checks that the counts agree exactly and reports the
   ratio (target: at least 100x).
2. It times the full set-up: 83 runs, 100 topics, 1000 splits, 6,806,000 t-tests (target:
   under 2 s), and extrapolates the loop's time per test to it.

Exit status 1 if the counts disagree or a target is missed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _figures import figure  # noqa: E402
from _timing import best_time  # noqa: E402

from tests.topicsetsize.checks.test_reliability import loop_split_half  # noqa: E402
from topicsetsize.checks.reliability import random_splits, split_half  # noqa: E402
from topicsetsize.checks.selection import select_topics, top_runs  # noqa: E402

DATA = ROOT / "tests" / "data" / "trec2004robust_ap.csv"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loop-trials", type=int, default=20)
    parser.add_argument("--loop-runs", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3, help="best of REPEAT timings")
    args = parser.parse_args(argv)

    voorhees = select_topics(top_runs(pd.read_csv(DATA, index_col=0), fraction=0.75),
                             spec="351-450")
    sub = voorhees.iloc[:, :args.loop_runs]
    n, m = sub.shape
    tests = args.loop_trials * m * (m - 1)          # pairs x 2 halves x trials
    splits = random_splits(n, trials=args.loop_trials, seed=1)

    start = time.perf_counter()
    loop = loop_split_half(sub.to_numpy(), splits, 0.05)
    loop_time = time.perf_counter() - start
    fast_time, fast = best_time(lambda: split_half(sub, trials=args.loop_trials, seed=1),
                                max(args.repeat, 5))
    agree = loop == (fast.significant, fast.major, fast.minor)

    full_time, full = best_time(lambda: split_half(voorhees, trials=1000, seed=1), args.repeat)
    ratio = loop_time / fast_time
    rows = [
        ("scipy loop, subsample", f"{m} runs, {n} topics, {args.loop_trials} splits", tests,
         loop_time),
        ("split_half, subsample", "same splits", tests, fast_time),
        ("split_half, full set-up", "83 runs, 100 topics, 1000 splits", full.comparisons,
         full_time),
        ("scipy loop, full (extrapolated)", "", full.comparisons,
         loop_time / tests * full.comparisons),
    ]
    table = pd.DataFrame(rows, columns=["what", "set-up", "t-tests", "seconds"])
    table["t-tests/s"] = (table["t-tests"] / table["seconds"]).map("{:,.0f}".format)
    table["t-tests"] = table["t-tests"].map("{:,}".format)
    table["seconds"] = table["seconds"].map("{:.4f}".format)
    print(table.to_string(index=False))
    print(f"\ncounts agree with the loop: {agree} (significant, major, minor = {loop})")
    print(f"speed-up on the subsample: {ratio:,.0f}x (target >= 100x): "
          f"{'PASS' if ratio >= 100 else 'FAIL'}")
    print(f"full set-up: {full_time:.3f} s (target < 2 s): "
          f"{'PASS' if full_time < 2 else 'FAIL'}; {full.significant:,} significant, "
          f"{full.major:,} major, {full.minor:,} minor, {full.conflicted_pct:.2f}% conflicted")
    figure("split_half.full_s", full_time, "s", f"best of {args.repeat}, 6.8 M t-tests")
    figure("split_half.speedup", ratio, "x",
           f"one scipy loop / best of {max(args.repeat, 5)} split_half, on the subsample")
    return 0 if agree and ratio >= 100 and full_time < 2 else 1


if __name__ == "__main__":
    sys.exit(main())
