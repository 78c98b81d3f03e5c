"""Benchmark: start-up time of the command line, lazy imports against eager ones.

Times ``python -m topicsetsize --version`` and ``--help`` (each a fresh process, median of
``--repeat`` runs) and, in the same run, the same commands in a process that first imports every
engine module, as ``import topicsetsize`` did before its names were loaded lazily (numpy, scipy,
pandas and the whole engine up front). Prints both medians and their ratio.

Then the computing commands (one answer, a rejected argument, a small table), each against the
floor in the same run: a bare ``python -c "import numpy, scipy.special"``, the libraries that
every answer needs (issue 19 asks for at most 1.5x that floor). The runs of a command and of the
floor alternate, so a change in the machine's load hits both.

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
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _figures import figure  # noqa: E402

#: What ``import topicsetsize`` used to load before anything could run.
EAGER = ("import importlib, topicsetsize; "
         "[importlib.import_module('topicsetsize.' + m) for m in topicsetsize._EXPORTS]; ")


def command(eager: bool, flag: str) -> list[str]:
    if not eager:
        return [sys.executable, "-m", "topicsetsize", flag]
    return [sys.executable, "-c",
            EAGER + "import sys; from topicsetsize.cli import main; sys.exit(main(sys.argv[1:]))",
            flag]


#: The floor of a computing command: the libraries an answer needs, and nothing else.
FLOOR = [sys.executable, "-c", "import numpy, scipy.special"]

#: Computing commands, with the exit status each must end with (2: a rejected argument).
COMPUTING = {
    "n anova (m=10, legacy)": (["n", "anova", "--alpha", "0.05", "--beta", "0.2", "--min-d", "0.1",
                                "--variance", "0.0601", "--m", "10"], 0),
    "n anova --method both": (["n", "anova", "--min-d", "0.02", "--variance", "0.0601", "--m",
                               "2", "--method", "both"], 0),
    "n ttest --method exact": (["n", "ttest", "--min-dt", "0.1", "--variance-t", "0.04",
                                "--method", "exact"], 0),
    "n ci": (["n", "ci", "--delta", "0.1", "--variance-t", "0.05"], 0),
    "n anova --alpha 0 (rejected)": (["n", "anova", "--alpha", "0", "--beta", "0.2", "--min-d",
                                      "0.1", "--variance", "0.0601", "--m", "10"], 2),
}


def seconds(argv: list[str], expect: int = 0) -> float:
    t0 = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if done.returncode != expect:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.strip()}")
    return elapsed


def median_seconds(argv: list[str], repeat: int) -> float:
    return statistics.median(seconds(argv) for _ in range(repeat))


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
        how = f"median wall time of {args.repeat} fresh processes"
        figure(f"startup.{flag[2:]}_s", lazy, "s", how)
        figure(f"startup.{flag[2:]}_eager_ratio", eager / lazy, "x", "eager / lazy, " + how)
    print()
    print(f"{'command':<32} {'topicsetsize':>12} {'import numpy, scipy.special':>28} {'ratio':>7}")
    answers, floors_all = [], []
    for name, (argv, expect) in COMPUTING.items():
        runs, floors = [], []
        for _ in range(args.repeat):      # alternate, so that both see the same load
            runs.append(seconds([sys.executable, "-m", "topicsetsize", *argv], expect))
            floors.append(seconds(FLOOR))
        run, floor = statistics.median(runs), statistics.median(floors)
        print(f"{name:<32} {run:>11.3f}s {floor:>27.3f}s {run / floor:>6.2f}x")
        if expect == 0:
            answers.append((run, run / floor))
            floors_all.append(floor)
    how = (f"median wall time of {args.repeat} fresh processes, alternating with the floor; "
           "the slowest of the answering commands")
    figure("startup.answer_s", max(a for a, _ in answers), "s", how)
    figure("startup.answer_floor_s", statistics.median(floors_all), "s",
           "python -c 'import numpy, scipy.special', median over the commands' floors")
    figure("startup.answer_ratio", max(r for _, r in answers), "x",
           "the largest command / floor ratio of the answering commands, medians each")


if __name__ == "__main__":
    main()
