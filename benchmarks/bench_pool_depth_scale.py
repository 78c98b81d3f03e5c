"""Benchmark: pool_depth_study at TREC scale, its time and peak memory against floors.

Run from the repository root::

    python benchmarks/bench_pool_depth_scale.py [--runs 110] [--topics 249] [--docs 1000]

The default size is a Robust04-size study (110 runs x 249 topics x 1,000 documents, 27 M
lines, about 1 GB of run files); pass smaller sizes on a loaded machine. Synthetic run files
(plain text, ``qid Q0 docno rank score tag``) and qrels (every document of each topic's
universe judged, 10 % relevant) are written to a temporary folder by a child process (so that
this process stays small), then three child processes run, each started from this small parent
and reporting its own peak resident memory above its imports: on Linux ``VmHWM`` of
``/proc/self/status`` after resetting it to the current resident size through
``/proc/self/clear_refs`` once the imports are done, minus ``VmRSS`` at that point (the peak of
this process's own address space only: a peak inherited from a parent can't enter it). Where
``clear_refs`` is not available it falls back to ``ru_maxrss`` after the imports and at the
end, and says so. (Before, the files were written in this process and ``ru_maxrss`` taken as
the baseline in the child carried the writer's peak, which hid most of the study's memory: 54
MiB stated where the study holds some 330 MiB.)

- ``study``: ``pool_depth_study`` at depths 100, 50, 10 with AP (ir_measures);
- ``read all`` (the pre-streaming baseline): ``read_runs`` of the folder, every run in memory
  at once, as ``pool-depth`` did before it streamed;
- ``floor``: ``pandas.read_csv`` of each run file in turn (one file in memory at a time), the
  time it takes to parse the runs once.

It prints the size of the run files, each time and peak (MiB above the imports, and the whole
resident peak), the study's peak as a multiple of the run files' size (goal: at most 0.5, issue
28) and its time as a multiple of the floor. Linux/macOS only (``resource``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _figures import figure  # noqa: E402

DEPTHS = [100, 50, 10]

CHILD = r"""
import json, re, resource, sys, time
sys.path.insert(0, {root!r})
import pandas as pd
import ir_measures
from topicsetsize.decide.pooling import pool_depth_study
from topicsetsize.matrices.runfiles import read_runs
from pathlib import Path

def status(key):  # bytes
    text = open("/proc/self/status").read()
    return int(re.search(key + r":\s+(\d+) kB", text).group(1)) * 1024

def maxrss():
    k = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return k if sys.platform == "darwin" else k * 1024

try:
    with open("/proc/self/clear_refs", "w") as out:   # reset VmHWM to the current VmRSS
        out.write("5")
    method = "VmHWM after clear_refs"
    base = status("VmRSS")
    peak = lambda: status("VmHWM")
except OSError:
    method = "ru_maxrss (no clear_refs)"
    base = maxrss()
    peak = maxrss

runs, qrels, what = {runs!r}, {qrels!r}, {what!r}
start = time.perf_counter()
if what == "study":
    pool_depth_study(runs, qrels=qrels, depths={depths!r}, measure="AP")
elif what == "read all":
    read_runs(runs)
else:
    for path in sorted(Path(runs).iterdir()):
        pd.read_csv(path, sep=" ", header=None, dtype={{0: str, 2: str}})
print(json.dumps({{"seconds": time.perf_counter() - start, "peak": peak() - base,
                  "whole": peak(), "imports": base, "method": method}}))
"""


def write_collection(folder: Path, runs: int, topics: int, docs: int, seed: int = 2004):
    """Synthetic runs and qrels: each run ranks ``docs`` of the topic's 3 x ``docs`` documents
    (shared across runs, so that pools overlap), scores with ties (2 decimals)."""
    rng = np.random.default_rng(seed)
    run_dir = folder / "runs"
    run_dir.mkdir()
    universe = 3 * docs
    qids = np.repeat(np.arange(301, 301 + topics).astype(str), docs)
    ranks = np.tile(np.arange(1, docs + 1), topics)
    for r in range(runs):
        picks = np.concatenate([rng.choice(universe, docs, replace=False) for _ in range(topics)])
        scores = np.round(np.sort(rng.gamma(2.0, 2.0, (topics, docs)), axis=1)[:, ::-1], 2)
        pd.DataFrame({"qid": qids, "q0": "Q0", "doc": np.char.add("D", picks.astype(str)),
                      "rank": ranks, "score": scores.ravel(), "tag": f"run{r}"}).to_csv(
            run_dir / f"run{r:03d}", sep=" ", header=False, index=False)
    judged = np.arange(universe)
    pd.DataFrame({"qid": np.repeat(np.arange(301, 301 + topics).astype(str), universe),
                  "it": 0, "doc": np.tile(np.char.add("D", judged.astype(str)), topics),
                  "rel": (rng.random(topics * universe) < 0.1).astype(int)}).to_csv(
        folder / "qrels", sep=" ", header=False, index=False)
    return run_dir, folder / "qrels"


def child(runs: Path, qrels: Path, what: str) -> dict:
    code = CHILD.format(root=str(ROOT), runs=str(runs), qrels=str(qrels), what=what,
                        depths=DEPTHS)
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=110)
    parser.add_argument("--topics", type=int, default=249)
    parser.add_argument("--docs", type=int, default=1000)
    parser.add_argument("--write-to", type=Path, help=argparse.SUPPRESS)  # the writer child
    args = parser.parse_args()
    if args.write_to:
        write_collection(args.write_to, args.runs, args.topics, args.docs)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        subprocess.run([sys.executable, __file__, "--runs", str(args.runs), "--topics",
                        str(args.topics), "--docs", str(args.docs), "--write-to", tmp],
                       check=True)
        runs, qrels = Path(tmp) / "runs", Path(tmp) / "qrels"
        size = sum(p.stat().st_size for p in runs.iterdir())
        print(f"{args.runs} runs x {args.topics} topics x {args.docs} documents: "
              f"{args.runs * args.topics * args.docs:,} lines, {size / 2**20:.0f} MiB of run "
              f"files (written in {time.perf_counter() - start:.0f} s); depths {DEPTHS}, AP")
        results = {what: child(runs, qrels, what) for what in ("floor", "read all", "study")}
    for what, r in results.items():
        print(f"{what:9s} {r['seconds']:8.1f} s   peak above imports {r['peak'] / 2**20:8.0f} MiB"
              f"  ({r['peak'] / size:.2f} x the run files; whole resident peak "
              f"{r['whole'] / 2**20:.0f} MiB, imports {r['imports'] / 2**20:.0f} MiB)")
    study, floor, whole = results["study"], results["floor"], results["read all"]
    print(f"memory measured as: {study['method']}, in a child of a small parent")
    print(f"study peak / run files: {study['peak'] / size:.2f} (goal <= 0.5); study peak / "
          f"read-all peak: {study['peak'] / whole['peak']:.2f}; study time / floor (one "
          f"read_csv pass): {study['seconds'] / floor['seconds']:.1f}x")
    how = (f"one run, {args.runs} runs x {args.topics} topics x {args.docs} documents, "
           f"depths {DEPTHS}; memory: {study['method']} above the imports")
    figure("pool_depth_scale.run_files_mib", size / 2**20, "MiB", how)
    for key, r in (("study", study), ("read_all", whole), ("floor", floor)):
        figure(f"pool_depth_scale.{key}_s", r["seconds"], "s", how)
        figure(f"pool_depth_scale.{key}_mib", r["peak"] / 2**20, "MiB", how)
    figure("pool_depth_scale.study_to_files", study["peak"] / size, "x",
           "study peak above imports / run files' size")
    figure("pool_depth_scale.study_to_floor", study["seconds"] / floor["seconds"], "x",
           "study time / one read_csv pass over the files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
