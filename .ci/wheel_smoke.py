"""Smoke test of the installed wheel: every sub-command once, on its bundled example.

Run by .ci/wheel_smoke.sh with the Python of a fresh venv that has only the wheel installed, from
a folder outside the source tree, so that a module, a data file or a bundled spec missing from
the wheel fails here (an editable install would find it in the clone). Every command of
``topicsetsize --help`` (and every design of ``n``, ``table``, ``min-d`` and ``power``) must
be listed below and must exit 0.

Usage: python wheel_smoke.py  (the current folder is where the outputs are written)
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

# The console script of the venv this Python belongs to (the venv need not be activated).
SCRIPT = shutil.which("topicsetsize", path=str(Path(sys.executable).parent)) or "topicsetsize"

DESIGN = ["--variance", "0.0601", "--m", "10", "--min-d", "0.1"]
CALLS = {
    "n anova": DESIGN,
    "n ttest": ["--min-dt", "0.1", "--variance-t", "0.0601"],
    "n ci": ["--delta", "0.1", "--variance-t", "0.0601"],
    "n anova2": DESIGN,
    "n ttest2": ["--min-d", "0.1", "--variance", "0.0601"],
    "n ci2": ["--delta", "0.1", "--variance", "0.0601"],
    "n allpairs": ["--variance", "0.0601", "--m", "5", "--min-d", "0.2", "--trials", "2000",
                   "--seed", "1"],
    "table anova": ["--m", "2,10", "--min-d", "0.1,0.2", "--variance", "0.0601"],
    "table ttest": ["--min-dt", "0.1,0.2", "--variance-t", "0.0601"],
    "table anova2": ["--m", "2,10", "--min-d", "0.1,0.2", "--variance", "0.0601"],
    "table ttest2": ["--min-d", "0.1,0.2", "--variance", "0.0601"],
    "min-d anova": ["--n", "50", "--m", "10", "--variance", "0.0601"],
    "min-d ttest": ["--n", "50", "--variance-t", "0.0601"],
    "min-d anova2": ["--n", "50", "--m", "10", "--variance", "0.0601"],
    "min-d ttest2": ["--n", "50", "--variance", "0.0601"],
    "power anova": ["--n", "50", *DESIGN, "--method", "both"],
    "power ttest": ["--n", "50", "--min-delta-t", "0.5"],
    "power ci": ["--n", "79", "--variance-t", "0.05"],
    "power anova2": ["--n", "50", *DESIGN],
    "power ttest2": ["--n", "50", "--min-d", "0.1", "--variance", "0.0601"],
    "power ci2": ["--n", "41", "--variance", "0.0127"],
    "variance": ["--example"],
    "workbook": ["--out", "ntcir12_std_ab.xlsx"],
    "reliability": ["--example", "--seed", "1", "--half", "10"],
    "check-power": ["--example", "--n", "10,20", "--m", "5", "--seed", "1"],
    "hsd": ["--example", "--trials", "200", "--seed", "1"],
    "guarantees": ["--n", "50,100", "--variance", "0.0601"],
    "recommend": ["--require", "label=EN,variance=0.0259,m=10,min_d=0.10"],
    "budget": ["--depths", "100,30", "--docs-per-topic", "250,80", "--variance", "0.15,0.16",
               "--m", "10", "--min-d", "0.1"],
    "pool-depth": ["--example", "--m", "10", "--min-d", "0.1", "--plot", "pool_depth.png"],
    "evaluate": ["--example", "--measure", "AP", "--out", "clef2017_tar_ap.csv"],
    "report": ["--example", "--plot", "report.png"],
}

#: The files the calls above write (a call that exits 0 without writing its file fails).
WRITTEN = {"workbook": "ntcir12_std_ab.xlsx", "pool-depth": "pool_depth.png",
           "evaluate": "clef2017_tar_ap.csv", "report": "report.png"}


def commands() -> list[str]:
    """Every command and design the installed parser offers (``n anova``, ``variance``...)."""
    from topicsetsize.cli import build_parser

    def sub(parser):
        action = next((a for a in parser._actions
                       if isinstance(a, argparse._SubParsersAction)), None)
        return {} if action is None else action.choices

    out = []
    for name, parser in sub(build_parser()).items():
        designs = sub(parser)
        out += [f"{name} {d}" for d in designs] if designs else [name]
    return out


def main() -> int:
    if Path("pyproject.toml").exists() or Path("topicsetsize").exists():
        sys.exit("wheel_smoke: run me from a folder outside the source tree")
    every = commands()
    missing = sorted(set(every) - set(CALLS))
    if missing:
        sys.exit(f"wheel_smoke: no smoke call for {', '.join(missing)}: add one to CALLS")
    failed = []
    for command in every:
        argv = [SCRIPT, *command.split(), *CALLS[command]]
        done = subprocess.run(argv, capture_output=True, text=True)
        print(f"wheel_smoke: exit {done.returncode}: {' '.join(argv[1:])}")
        if done.returncode != 0:
            failed.append(command)
            print(done.stdout[-2000:], done.stderr[-2000:], sep="\n")
    failed += [f"{command} (no {name} written)" for command, name in WRITTEN.items()
               if not Path(name).is_file()]
    if failed:
        sys.exit(f"wheel_smoke: failed: {', '.join(failed)}")
    print(f"wheel_smoke: {len(every)} of {len(every)} commands exit 0")
    return 0


if __name__ == "__main__":
    sys.exit(main())
