"""Benchmark: start-up time of the command line, lazy imports against eager ones.

Times ``python -m topicsetsize --version`` and ``--help`` (each a fresh process, median of
``--repeat`` runs) and, in the same run, the same commands in a process that first imports every
engine module, as ``import topicsetsize`` did before its names were loaded lazily (numpy, scipy,
pandas and the whole engine up front). Prints both medians and their ratio.

    python benchmarks/bench_startup.py [--repeat 9]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: What ``import topicsetsize`` used to load before anything could run.
EAGER = ("import importlib, topicsetsize; "
         "[importlib.import_module('topicsetsize.' + m) for m in topicsetsize._EXPORTS]; ")


def command(eager: bool, flag: str) -> list[str]:
    if not eager:
        return [sys.executable, "-m", "topicsetsize", flag]
    return [sys.executable, "-c",
            EAGER + "import sys; from topicsetsize.cli import main; sys.exit(main(sys.argv[1:]))",
            flag]


def median_seconds(argv: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
        times.append(time.perf_counter() - t0)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.strip()}")
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    print(f"{'command':<32} {'lazy (now)':>12} {'eager (before)':>15} {'ratio':>7}")
    for flag in ("--version", "--help"):
        lazy = median_seconds(command(False, flag), args.repeat)
        eager = median_seconds(command(True, flag), args.repeat)
        print(f"{'topicsetsize ' + flag:<32} {lazy:>11.3f}s {eager:>14.3f}s "
              f"{eager / lazy:>6.1f}x")


if __name__ == "__main__":
    main()
