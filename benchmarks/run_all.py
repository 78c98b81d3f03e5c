"""Run every benchmark once, one after the other, and keep one log of the run.

Each ``bench_*.py`` times topicsetsize against its peer or floor in the same run and prints the
ratio; this script runs them all in fresh processes, in a fixed order, with the machine they ran
on (cores, processor, memory, Python and library versions) and the load average before and
after each, so that the README's performance table comes from one run of them all
(``docs/performance.md`` says which). The log goes to standard output and, with ``--log``, to
a file (written whole at the end, to a temporary name first).

    python benchmarks/run_all.py [--log benchmarks/last_run.txt] [--only tables,scalar]
                                 [--small]

``--small`` passes smaller sizes to the two long ones (``pool_depth_scale``: 20 runs x 50
topics; ``read_matrix``: 2,000 topics), for a quick look on a loaded machine; the README's
figures are from a run without it.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

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
    "read_matrix": ([], ["--topics", "2000"]),
    "pool_depth": ([], []),
    "pool_depth_scale": ([], ["--runs", "20", "--topics", "50"]),
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
                        help="smaller sizes for read_matrix and pool_depth_scale")
    args = parser.parse_args(argv)
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
    for name in names:
        full, small = BENCHMARKS[name]
        argv_ = [sys.executable, str(HERE / f"bench_{name}.py"), *(small if args.small else full)]
        say()
        say(f"## {name}: {' '.join(Path(a).name if i < 2 else a for i, a in enumerate(argv_))}")
        say(load())
        start = time.perf_counter()
        done = subprocess.run(argv_, cwd=ROOT, capture_output=True, text=True)
        for line in done.stdout.rstrip("\n").splitlines():
            say(line)
        if done.returncode != 0:
            failed.append(name)
            say(f"FAILED (exit {done.returncode}): {done.stderr.strip()[-2000:]}")
        say(f"({time.perf_counter() - start:.0f} s; after it, {load()})")
    say()
    say(f"{len(names) - len(failed)} of {len(names)} benchmarks ran"
        + (f"; failed: {', '.join(failed)}" if failed else ""))
    if args.log:
        tmp = args.log.with_name(args.log.name + ".tmp")
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
        os.replace(tmp, args.log)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
