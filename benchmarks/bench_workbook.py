"""Benchmark: CPU time of the default workbook (`topicsetsize workbook`), saved values included.

Runs ``topicsetsize workbook --out <tmp>`` in fresh processes (median CPU seconds, user +
system, of ``--repeat`` runs) and, in the same run, the floor: a process that only imports
what any workbook needs (numpy, scipy.special, openpyxl). Prints both, their ratio and the
goal of issue 19 (2 s of CPU). Then, in this process, where the time goes: the imports, the
build, the evaluation of every formula cell (the saved values) and the writing.

    python benchmarks/bench_workbook.py [--repeat 5] [--spec ntcir12_std_ab]
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from openpyxl.writer.excel import ExcelWriter

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _figures import figure  # noqa: E402

FLOOR = "import numpy, scipy.special, openpyxl"
GOAL = 2.0


def child_cpu(argv: list[str]) -> float:
    """CPU seconds (user + system) of one run of ``argv`` in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.strip()}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--spec", default="ntcir12_std_ab")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "w.xlsx")
        cli = [sys.executable, "-m", "topicsetsize", "workbook", args.spec, "--out", out]
        workbook = statistics.median(child_cpu(cli) for _ in range(args.repeat))
        floor = statistics.median(child_cpu([sys.executable, "-c", FLOOR])
                                  for _ in range(args.repeat))
    print(f"{'command':<44} {'CPU s':>7}")
    print(f"{'topicsetsize workbook ' + args.spec:<44} {workbook:>7.2f}")
    print(f"{'floor: ' + FLOOR:<44} {floor:>7.2f}")
    print(f"ratio {workbook / floor:.1f}x the floor; goal {GOAL:.1f} s: "
          f"{'met' if workbook <= GOAL else 'not met'}")
    how = f"median CPU (user + system) of {args.repeat} fresh processes"
    figure("workbook.cpu_s", workbook, "s", how)
    figure("workbook.floor_cpu_s", floor, "s", how + " of " + FLOOR)
    figure("workbook.to_floor", workbook / floor, "x",
           "workbook median / floor median, the floor measured in the same run")

    # where the time goes, in this process (CPU seconds)
    t = time.process_time()
    from topicsetsize.generator import build_workbook, bundled_spec, load_spec
    from topicsetsize.generator.saved.cached import write_with_cached_values
    from topicsetsize.generator.saved.evaluator import evaluate_workbook
    from topicsetsize.generator.spreadsheet.rows import shared_templates
    steps = {"imports": time.process_time() - t}
    t = time.process_time()
    wb = build_workbook(load_spec(bundled_spec(args.spec)))
    steps["build"] = time.process_time() - t
    t = time.process_time()
    values = evaluate_workbook(wb, shared_templates(wb))
    steps[f"evaluate {sum(map(len, values.values())):,} formula cells"] = (
        time.process_time() - t)
    t = time.process_time()
    saved, target = io.BytesIO(), io.BytesIO()
    with zipfile.ZipFile(saved, "w", zipfile.ZIP_STORED) as archive:   # as write_workbook
        ExcelWriter(wb, archive).save()
    write_with_cached_values(saved, target, values)
    steps["save with the values"] = time.process_time() - t
    for step, seconds in steps.items():
        print(f"  {step:<42} {seconds:>7.2f}")


if __name__ == "__main__":
    main()
