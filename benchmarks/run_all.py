"""Run every benchmark several times, keep one log, and summarise each stated figure's spread.

Each ``bench_*.py`` times topicsetsize against its peer or floor in the same run, prints the
ratio, and prints each figure the README or ``docs/performance.md`` states as a ``FIGURE`` line
(``_figures.py``). This script runs them all in fresh processes, ``--repeat`` passes over the
whole list (the benchmarks in a fixed order in each pass, so that a change in the machine's load
falls on every benchmark rather than on all repeats of one), with the machine they ran on
(cores, processor, memory, Python and library versions) and the load average before and after
each. At the end it prints every figure as min / median / max over the repeats, with how it was
measured, and with ``--summary FILE`` writes that summary as JSON, from which
``benchmarks/perf_table.py`` regenerates the README's and the docs' performance tables. The log
goes to standard output and, with ``--log``, to a file (written whole at the end, to a
temporary name first).

    python benchmarks/run_all.py [--repeat 3] [--scale-repeat 1] [--log benchmarks/last_run.txt]
                                 [--summary benchmarks/last_summary.json]
                                 [--only tables,scalar] [--small]

``pool_depth_scale`` (about a minute a run) runs ``--scale-repeat`` times
(default 1: its figures then have no spread, and the summary says ``1 run``). ``--small``
passes smaller sizes to the long ones (``pool_depth_scale`` and ``evaluate``'s case at scale:
40 runs x 20 topics; ``read_matrix``: 2,000 topics) and one child per side to ``evaluate``, for
a quick look on a loaded machine; the README's figures are from a run without it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from _figures import fmt, parse_figures, summarise  # noqa: E402

#: The benchmarks in the order they run (the quick ones first), with the arguments of a full
#: run and of a ``--small`` one.
BENCHMARKS = {
    "startup": ([], []),
    "scalar": ([], []),
    "tables": ([], []),
    "unpaired": ([], []),
    "guarantees": ([], []),
    "tukey": ([], []),
    "split_half": ([], []),
    "workbook": ([], []),
    "evaluate": ([], ["--repeat", "1", "--runs", "40", "--topics", "20"]),
    "read_matrix": ([], ["--topics", "2000"]),
    "pool_depth": ([], []),
    "pool_depth_scale": ([], ["--runs", "40", "--topics", "20"]),
}

LIBRARIES = ("numpy", "scipy", "pandas", "openpyxl", "lxml", "statsmodels", "ir_measures")


def machine() -> list[str]:
    """Lines that say what the benchmarks ran on."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
        memory_text = f"{memory:.0f} GiB"
    except (ValueError, OSError, AttributeError):
        memory_text = "unknown"
    versions = []
    for name in LIBRARIES:
        try:
            versions.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{name} (not installed)")
    return [f"date: {time.strftime('%Y-%m-%d %H:%M %Z')}",
            f"machine: {os.cpu_count()} cores, {cpu}, {memory_text}",
            f"python: {platform.python_version()}; " + ", ".join(versions)]


def load() -> str:
    try:
        return "load average (1, 5, 15 min): " + ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "load average: unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log", type=Path, help="also write the log to this file")
    parser.add_argument("--only", help="comma-separated names among: " + ", ".join(BENCHMARKS))
    parser.add_argument("--small", action="store_true",
                        help="smaller sizes for read_matrix, pool_depth_scale and "
                             "evaluate's case at scale")
    parser.add_argument("--repeat", type=int, default=3,
                        help="passes over the benchmarks (default 3); each figure is "
                             "summarised as min / median / max over them")
    parser.add_argument("--scale-repeat", type=int, default=1,
                        help="runs of the long pool_depth_scale (default 1)")
    parser.add_argument("--summary", type=Path,
                        help="write the summary of the figures (JSON) to this file")
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.scale_repeat < 1:
        parser.error(f"--repeat {args.repeat} / --scale-repeat {args.scale_repeat}: "
                     "each must be at least 1")
    names = list(BENCHMARKS)
    if args.only:
        names = [x.strip() for x in args.only.split(",") if x.strip()]
        unknown = [x for x in names if x not in BENCHMARKS]
        if unknown:
            parser.error(f"--only: unknown benchmark {unknown[0]!r}; "
                         f"known: {', '.join(BENCHMARKS)}")
    lines: list[str] = []

    def say(text: str = "") -> None:
        print(text, flush=True)
        lines.append(text)

    for line in machine():
        say(line)
    failed = []
    figures: dict[str, list[list[dict]]] = {name: [] for name in names}
    loads: list[float] = []
    for rep in range(args.repeat):
        for name in names:
            if name == "pool_depth_scale" and rep >= args.scale_repeat:
                continue
            full, small = BENCHMARKS[name]
            argv_ = [sys.executable, str(HERE / f"bench_{name}.py"),
                     *(small if args.small else full)]
            say()
            say(f"## {name} (pass {rep + 1} of {args.repeat}): "
                f"{' '.join(Path(a).name if i < 2 else a for i, a in enumerate(argv_))}")
            say(load())
            try:
                loads.append(os.getloadavg()[0])
            except OSError:
                pass
            start = time.perf_counter()
            done = subprocess.run(argv_, cwd=ROOT, capture_output=True, text=True)
            out = done.stdout.rstrip("\n").splitlines()
            for line in out:
                say(line)
            figures[name].append(parse_figures(out))
            if done.returncode != 0:
                failed.append(f"{name} (pass {rep + 1})")
                say(f"FAILED (exit {done.returncode}): {done.stderr.strip()[-2000:]}")
            say(f"({time.perf_counter() - start:.0f} s; after it, {load()})")
    say()
    say(f"{sum(map(len, figures.values())) - len(failed)} of {sum(map(len, figures.values()))} "
        "benchmark runs ran" + (f"; failed: {', '.join(failed)}" if failed else ""))
    summary = {}
    for name in names:
        summary.update(summarise(figures[name]))
    say()
    say("## summary: each figure over the repeated runs (min / median / max)")
    say(f"{'figure':34s} {'min':>9s} {'median':>9s} {'max':>9s}  {'unit':12s} runs  how")
    for key, s in summary.items():
        say(f"{key:34s} {fmt(s['min']):>9s} {fmt(s['median']):>9s} {fmt(s['max']):>9s}  "
            f"{s['unit']:12s} {s['repeats']:4d}  {s['how']}")
    if args.summary:
        record = {"machine": machine()[1:], "date": machine()[0], "small": args.small,
                  "load_1min": [min(loads), max(loads)] if loads else None,
                  "repeat": args.repeat, "scale_repeat": args.scale_repeat, "figures": summary}
        tmp = args.summary.with_name(args.summary.name + ".tmp")
        tmp.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, args.summary)
    if args.log:
        tmp = args.log.with_name(args.log.name + ".tmp")
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
        os.replace(tmp, args.log)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
