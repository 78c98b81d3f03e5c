"""Benchmark: topicsetsize.decide.pooling.pool_depth_study against a naive loop.

Run from the repository root::

    python benchmarks/bench_pool_depth.py [--repeat 3]

Both evaluate every run of the test collections (tests/data/pool_runs/A and B: 45 topics, 8 runs
each, 60 documents per run and topic) at pool depths 60, 30, 20, 10, 5 with AP by ir_measures.
The naive loop (tests/topicsetsize/decide/test_pooling.py) pools per depth, per run, per topic in
Python and calls ``ir_measures.iter_calc`` per run and depth; pool_depth_study reads each run
once, keeps its ranking compactly (which gives every depth's pool), and evaluates it once at
each depth with one ir_measures evaluator per depth. It checks that the matrices agree and
prints the ratio. CPU and memory at scale: bench_pool_depth_scale.py.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _figures import figure  # noqa: E402
from _timing import best_time  # noqa: E402

from tests.topicsetsize.decide.test_pooling import naive_pool_depth_study  # noqa: E402
from topicsetsize.decide.pooling import pool_depth_study  # noqa: E402

DATA = ROOT / "tests" / "data" / "pool_runs"
DEPTHS = [60, 30, 20, 10, 5]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    names = ["A", "B"]
    ours_t, study = best_time(lambda: pool_depth_study(
        [DATA / c / "runs" for c in names], qrels=[DATA / c / "qrels.txt" for c in names],
        depths=DEPTHS, measure="AP"), args.repeat)
    naive_t, naive = best_time(lambda: [naive_pool_depth_study(
        DATA / c / "runs", DATA / c / "qrels.txt", DEPTHS, "AP") for c in names], args.repeat)
    for k, _ in enumerate(names):
        for d in DEPTHS:
            ours, theirs = study.scores[d][k], naive[k][d][1]
            if not np.allclose(ours.loc[theirs.index, theirs.columns], theirs, atol=1e-12):
                print(f"MISMATCH at depth {d}, collection {names[k]}")
                return 1
    evaluations = len(DEPTHS) * 16
    print(f"pool_depth_study: {ours_t:.3f} s for {len(DEPTHS)} depths x 16 runs "
          f"({1e3 * ours_t / evaluations:.1f} ms per run and depth)")
    print(f"naive loop:       {naive_t:.3f} s ({1e3 * naive_t / evaluations:.1f} ms per run "
          "and depth)")
    print(f"ratio naive / pool_depth_study: {naive_t / ours_t:.1f}x (matrices agree)")
    how = f"best of {args.repeat}"
    figure("pool_depth.study_s", ours_t, "s", how)
    figure("pool_depth.naive_s", naive_t, "s", how)
    figure("pool_depth.naive_to_study", naive_t / ours_t, "x", "naive best / study best")
    return 0


if __name__ == "__main__":
    sys.exit(main())
