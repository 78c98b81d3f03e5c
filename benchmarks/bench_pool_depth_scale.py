"""Benchmark: pool_depth_study on a large collection, its CPU and resident memory against floors.

Run from the repository root::

    python benchmarks/bench_pool_depth_scale.py [--runs 110] [--topics 40] [--docs 1000]

The default size is moderate, for a shared machine: Robust04's shape (110 runs, 1,000 documents
a topic, the same qrels per topic) with 40 of its 249 topics (4.4 M lines, about 130 MiB of run
files); ``--topics 249`` is Robust04's size (27 M lines, some 800 MiB here). Synthetic run
files (plain text, ``qid Q0 docno rank score tag``, scores with ties, document ids distinct
across topics as in a real collection) and qrels (every document of each topic's universe
judged, 10 % relevant) are written to a temporary folder by a child process (``_synthetic.py``,
so that this process stays small). Then each measurement runs in its own child
of this small parent, which reports its CPU time (``time.process_time``) and its peak resident
memory above its imports: on Linux ``VmHWM`` of ``/proc/self/status`` after resetting it to the
current resident size through ``/proc/self/clear_refs`` once the imports are done, minus
``VmRSS`` at that point (where ``clear_refs`` is not available, ``ru_maxrss`` after the imports
and at the end, said so):

- ``floor``: one evaluation pass over all runs at full depth, as a user would do it: each run
  file read by ``pandas.read_csv`` (one file in memory at a time; the qrels too), then evaluated
  by ir_measures (pytrec_eval) with AP on the full qrels; its reading and its evaluation are
  timed apart. Their sum F is the unit: reading the runs and evaluating them once.
- ``study, 1 depth`` and ``study, 4 depths``: ``pool_depth_study`` at depth 100, and at depths
  100, 50, 20, 10, with AP.

It prints each study's CPU as passes per depth, CPU / (depths x F) (goal: at most 1.2, issue
28; the study reads and checks each run once and evaluates it once at each depth, so the ratio
falls towards the evaluation's share of F as depths are added), and its peak resident memory
above the imports as a multiple of the run files' size (goal: at most 0.5 for any number of
depths). Linux/macOS only (``resource``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _figures import figure  # noqa: E402
from _resident import run_child  # noqa: E402
from _synthetic import write_in_child  # noqa: E402

#: The depths of the two studies.
STUDIES = {"study, 1 depth": [100], "study, 4 depths": [100, 50, 20, 10]}

CHILD = r"""
import json, sys, time
sys.path.insert(0, {root!r})
import pandas as pd
import ir_measures
from topicsetsize.decide.pooling import pool_depth_study
from topicsetsize.matrices.evaluation import qrels_dict, run_dict
from pathlib import Path
from _resident import above_imports

memory = above_imports()
runs, qrels, depths = {runs!r}, {qrels!r}, {depths!r}
names = ["query_id", "q0", "doc_id", "rank", "score", "tag"]
start, cpu = time.perf_counter(), time.process_time()
parts = {{}}
if depths:
    pool_depth_study(runs, qrels=qrels, depths=depths, measure="AP")
else:       # the floor: read each run, evaluate it at full depth; the two timed apart
    reading = time.process_time()
    table = pd.read_csv(qrels, sep=" ", header=None, names=["query_id", "it", "doc_id",
                        "relevance"], dtype={{"query_id": str, "doc_id": str}})
    evaluator = ir_measures.evaluator([ir_measures.AP], qrels_dict(table))
    del table
    read = time.process_time() - reading
    for path in sorted(Path(runs).iterdir()):
        reading = time.process_time()
        run = pd.read_csv(path, sep=" ", header=None, names=names,
                          dtype={{"query_id": str, "doc_id": str}})
        read += time.process_time() - reading
        list(evaluator.iter_calc(run_dict(run, set(run["query_id"]))))
    parts = {{"read_cpu": read, "eval_cpu": time.process_time() - cpu - read}}
print(json.dumps({{"seconds": time.perf_counter() - start, "cpu": time.process_time() - cpu,
                  **memory.report(), **parts}}))
"""


def child(runs: Path, qrels: Path, depths: list) -> dict:
    return run_child(CHILD.format(root=str(ROOT), runs=str(runs), qrels=str(qrels),
                                  depths=depths))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=110)
    parser.add_argument("--topics", type=int, default=40)
    parser.add_argument("--docs", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        runs, qrels = write_in_child(Path(tmp), args.runs, args.topics, args.docs)
        size = sum(p.stat().st_size for p in runs.iterdir())
        print(f"{args.runs} runs x {args.topics} topics x {args.docs} documents: "
              f"{args.runs * args.topics * args.docs:,} lines, {size / 2**20:.0f} MiB of run "
              f"files (written in {time.perf_counter() - start:.0f} s), AP")
        results = {"floor": child(runs, qrels, [])}
        results.update((what, child(runs, qrels, depths)) for what, depths in STUDIES.items())
    floor = results["floor"]
    unit = floor["read_cpu"] + floor["eval_cpu"]
    print(f"floor: one pass at full depth, CPU {unit:.1f} s = reading {floor['read_cpu']:.1f} s "
          f"(pandas.read_csv) + evaluating {floor['eval_cpu']:.1f} s (ir_measures, AP)")
    for what, r in results.items():
        print(f"{what:16s} CPU {r['cpu']:7.1f} s (wall {r['seconds']:6.1f} s)   peak above "
              f"imports {r['peak'] / 2**20:6.0f} MiB ({r['peak'] / size:.2f} x the run files; "
              f"whole resident peak {r['whole'] / 2**20:.0f} MiB, imports "
              f"{r['imports'] / 2**20:.0f} MiB)")
    print(f"memory measured as: {floor['method']}, each in a child of a small parent")
    how = (f"one run, {args.runs} runs x {args.topics} topics x {args.docs} documents, AP; "
           f"CPU by time.process_time; memory: {floor['method']} above the imports")
    figure("pool_depth_scale.run_files_mib", size / 2**20, "MiB", how)
    figure("pool_depth_scale.floor_read_cpu_s", floor["read_cpu"], "s", how)
    figure("pool_depth_scale.floor_eval_cpu_s", floor["eval_cpu"], "s", how)
    for what, depths in STUDIES.items():
        r, key = results[what], f"study{len(depths)}"
        passes = r["cpu"] / (len(depths) * unit)
        print(f"{what}: {passes:.2f} passes per depth (CPU / ({len(depths)} x F); goal <= 1.2); "
              f"memory {r['peak'] / size:.2f} x the run files (goal <= 0.5)")
        figure(f"pool_depth_scale.{key}_cpu_s", r["cpu"], "s", how)
        figure(f"pool_depth_scale.{key}_mib", r["peak"] / 2**20, "MiB", how)
        figure(f"pool_depth_scale.{key}_passes", passes, "x",
               f"study CPU / ({len(depths)} depth(s) x (reading + one evaluation pass at full "
               "depth)), same run")
        figure(f"pool_depth_scale.{key}_to_files", r["peak"] / size, "x",
               "study peak resident above imports / run files' size")
    return 0


if __name__ == "__main__":
    sys.exit(main())
