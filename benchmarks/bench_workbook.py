"""Benchmark: CPU time of the default workbook (`topicsetsize workbook`), saved values included.

Runs ``topicsetsize workbook --out <tmp>`` in fresh processes (median CPU seconds, user +
system, of ``--repeat`` runs) and, in the same run (paired with each workbook run, the two in
turn first), the floor: a process that only imports
what any workbook needs (numpy, scipy.special, openpyxl). Prints both and their ratio, the
figure that holds on any machine (issue 28.6: at most 3x the floor; the seconds themselves
depend on how fast the machine imports). Then, in this process, where the time goes: the
imports, the build, the evaluation of every formula cell (the saved values) and the save
with those values.

Both sides run with the compiled bytecode of every module they import, as an installed
package has it (pip compiles it on install): an unmeasured first run of each writes it to a
temporary ``PYTHONPYCACHEPREFIX``. Otherwise, where the environment writes no bytecode
(``PYTHONDONTWRITEBYTECODE``) and the project is installed editable, the project's own modules
are compiled from source on every run while the floor's come compiled from site-packages
(about 0.08 s of the workbook's CPU): the ratio measured so is printed too, for reference.

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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _figures import figure  # noqa: E402

FLOOR = "import numpy, scipy.special, openpyxl"
GOAL = 3.0          # the workbook's CPU at most this many times the floor's (issue 28.6)


def child_cpu(argv: list[str], env: dict[str, str] | None = None) -> float:
    """CPU seconds (user + system) of one run of ``argv`` in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.strip()}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def paired(cli: list[str], floor_cli: list[str], env: dict[str, str] | None,
           repeat: int) -> tuple[float, float]:
    """Median CPU seconds of ``cli`` and of ``floor_cli``, ``repeat`` fresh runs of each,
    interleaved (each run of one beside one of the other, the two in turn first, so that both
    see the same machine load)."""
    workbook, floor = [], []
    for k in range(repeat):
        for argv in ((cli, floor_cli) if k % 2 == 0 else (floor_cli, cli)):
            (workbook if argv is cli else floor).append(child_cpu(argv, env))
    return statistics.median(workbook), statistics.median(floor)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--spec", default="ntcir12_std_ab")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "w.xlsx")
        cli = [sys.executable, "-m", "topicsetsize", "workbook", args.spec, "--out", out]
        floor_cli = [sys.executable, "-c", FLOOR]
        compiled = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        compiled["PYTHONPYCACHEPREFIX"] = os.path.join(tmp, "bytecode")
        for argv in (cli, floor_cli):       # unmeasured: writes the bytecode both then read
            child_cpu(argv, compiled)
        workbook, floor = paired(cli, floor_cli, compiled, args.repeat)
        as_is = paired(cli, floor_cli, None, args.repeat) if "PYTHONDONTWRITEBYTECODE" in \
            os.environ else None
    print(f"{'command':<44} {'CPU s':>7}")
    print(f"{'topicsetsize workbook ' + args.spec:<44} {workbook:>7.2f}")
    print(f"{'floor: ' + FLOOR:<44} {floor:>7.2f}")
    ratio = workbook / floor
    print(f"ratio {ratio:.2f}x the floor (same run); goal at most {GOAL:.0f}x: "
          f"{'met' if ratio <= GOAL else 'not met'}")
    if as_is is not None:
        print(f"without bytecode for the project (PYTHONDONTWRITEBYTECODE, as this environment "
              f"runs): {as_is[0]:.2f} s against {as_is[1]:.2f} s, "
              f"{as_is[0] / as_is[1]:.2f}x (not the figure)")
    how = (f"median CPU (user + system) of {args.repeat} fresh processes, with compiled "
           f"bytecode")
    figure("workbook.cpu_s", workbook, "s", how)
    figure("workbook.floor_cpu_s", floor, "s", how + " of " + FLOOR)
    figure("workbook.to_floor", ratio, "x",
           "workbook median / floor median, the floor measured in the same run (goal <= 3)")

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
    write_with_cached_values(wb, io.BytesIO(), values)        # as write_workbook, in memory
    steps["save with the values"] = time.process_time() - t
    for step, seconds in steps.items():
        print(f"  {step:<42} {seconds:>7.2f}")


if __name__ == "__main__":
    main()
