"""Benchmark: reading a big wide CSV score matrix, against ``pandas.read_csv`` of the same file.

Writes a 14,000 topics x 400 runs CSV of scores with 6-7 significant digits (about 50 MB) to a
temporary folder, then, each in a fresh Python process (best of ``--repeat``), times

* ``pandas.read_csv(path, index_col=0)``: the floor, parsing without any check;
* :func:`topicsetsize.read_matrix`: the same parse plus the reader's checks (labels, shape,
  finite scores),

and the peak memory of each process above what it held after its imports (Linux: ``VmHWM``
of ``/proc/self/status``, reset through ``/proc/self/clear_refs`` after the imports).
Prints both and their ratios (issue 19 asks for at most 2x in time and in memory) and checks
that the two matrices are equal.

    python benchmarks/bench_read_matrix.py [--topics 14000] [--runs 400] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _figures import figure  # noqa: E402

#: Runs in a child process: time the read and the peak RSS above the imports, as JSON.
CHILD = r"""
import json, re, sys, time
import numpy as np, pandas as pd
import topicsetsize.matrices.readers
path, which = sys.argv[1], sys.argv[2]

def status(key):  # MB
    return int(re.search(key + r":\s+(\d+)", open("/proc/self/status").read()).group(1)) / 1024

with open("/proc/self/clear_refs", "w") as out:    # reset the peak (VmHWM) to the current RSS
    out.write("5")
base = status("VmRSS")
t0 = time.perf_counter()
if which == "pandas":
    frame = pd.read_csv(path, index_col=0)
else:
    frame = topicsetsize.matrices.readers.read_matrix(path)
elapsed = time.perf_counter() - t0
peak = status("VmHWM")
values = frame.to_numpy()
print(json.dumps({"seconds": elapsed, "peak_mb": peak - base, "shape": frame.shape,
                  "sum": float(values.sum()), "first": float(values[0, 0]),
                  "topics": [str(t) for t in frame.index[:3]]}))
"""


def measure(path: Path, which: str) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, str(path), which], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def best(path: Path, which: str, repeat: int) -> dict:
    runs = [measure(path, which) for _ in range(repeat)]
    out = min(runs, key=lambda r: r["seconds"])
    out["peak_mb"] = min(r["peak_mb"] for r in runs)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=14000)
    parser.add_argument("--runs", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(19)
    scores = rng.beta(2, 5, size=(args.topics, args.runs)).round(6)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "matrix.csv"
        with path.open("w") as out:
            out.write("topic," + ",".join(f"run{j:03d}" for j in range(args.runs)) + "\n")
            for i, row in enumerate(scores):
                out.write(f"{i + 1}," + ",".join(repr(float(v)) for v in row) + "\n")
        size = path.stat().st_size / 1e6
        floor = best(path, "pandas", args.repeat)
        ours = best(path, "read_matrix", args.repeat)
    same = (ours["shape"] == floor["shape"] and ours["sum"] == floor["sum"]
            and ours["first"] == floor["first"] and ours["topics"] == floor["topics"])
    print(f"reading a {args.topics:,} x {args.runs} CSV score matrix ({size:.0f} MB), "
          f"best of {args.repeat}, each in a fresh process")
    print(f"  pandas.read_csv(index_col=0): {floor['seconds']:7.2f} s, "
          f"peak {floor['peak_mb']:6.0f} MB above the imports")
    print(f"  topicsetsize.read_matrix:     {ours['seconds']:7.2f} s, "
          f"peak {ours['peak_mb']:6.0f} MB above the imports")
    print(f"  ratio: time {ours['seconds'] / floor['seconds']:.2f}x, memory "
          f"{ours['peak_mb'] / floor['peak_mb']:.2f}x (target at most 2x each); "
          f"same matrix: {'yes' if same else 'NO'}")
    how = f"best of {args.repeat} fresh processes; memory: VmHWM above VmRSS after the imports"
    figure("read_matrix.ours_s", ours["seconds"], "s", how)
    figure("read_matrix.ours_mb", ours["peak_mb"], "MB", how)
    figure("read_matrix.pandas_s", floor["seconds"], "s", how)
    figure("read_matrix.pandas_mb", floor["peak_mb"], "MB", how)
    figure("read_matrix.time_ratio", ours["seconds"] / floor["seconds"], "x", "ours / pandas")
    figure("read_matrix.memory_ratio", ours["peak_mb"] / floor["peak_mb"], "x", "ours / pandas")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
