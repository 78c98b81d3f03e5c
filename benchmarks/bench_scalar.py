"""Benchmark: one scalar ``*_n`` call (and its Excel function) against a cell of a vectorised table.

A sheet of a few hundred ``=TSS_ANOVA(...)`` formulas makes a few hundred scalar calls. In the
same run this times, warm, in the thread's CPU time (``time.thread_time``: on a shared machine
a process is at times given half a core, which doubles wall-clock times and not CPU times; best
of ``--repeat`` batches of ``--calls`` calls each):

* a cell of the exact ANOVA table of ``bench_tables.py`` (1,680 cells: m in {2..10, 15, 20, 30,
  50, 100}, minD in {.01, ..., .20}, three variances, two (alpha, beta)), the reference;
* one call of each topic set size function, exact method where it has one (anova_n, ttest_n,
  ci_n, anova2_n, ttest2_n, ci2_n), and of its Excel function (xladdin.udfs), on the README's
  examples.

Prints microseconds per call and the ratio to a table cell (issue 19 asks for at most 15x).
``allpairs_n`` is left out: it simulates (Monte Carlo), so one call is not a search.

Those eight are examples, not the worst case. The worst case is measured over a random grid
(``--grid`` points per function, fixed ``--seed``): alpha log-uniform in [1e-6, 0.5], beta
uniform in [0.01, 0.5], m log-uniform over 2..1,000 (ANOVA designs), and a target n
log-uniform over 2..1e9, reached by choosing minD (or minDt) for variance 1 from the
large-sample noncentrality (``chi2_lambda_one``; for the t designs z(alpha/2) + z(beta)), so
the answers spread over the whole range up to 1e9 (the returned n is what counts; each call
is timed cold for its arguments, best of ``--grid-repeat`` calls). For each of
``anova_n`` and ``ttest_n`` (exact and legacy), ``anova2_n`` and ``ttest2_n`` it prints
the worst and the median ratio to a table cell, and the point of the worst. At the worst point
(an F design with a large answer) it also times the certificate alone: the precise powers at
n − 1 and n that certify the answer (``FKind.power_cell``: the refined F points and, from
φE = 10⁶ on, the Poisson series; ``docs/formulas.md`` §4), which no scalar call of that cell can
do without.

A table cell is one reference (mostly small n, all cells alike); the other (issue 28 item 5) is
the same cells solved in one vectorised call: for each function, one call of it with arrays in
place of the scalars, solving all the grid points its scalar calls answered (its answers are
checked equal to theirs, and the run stops otherwise), timed best of ``--grid-repeat``; and one
such call for each band of the answer n alone (n < 10³, 10³ ≤ n < 10⁶, n ≥ 10⁶), so that a
scalar call with a large answer is also compared with cells of its own magnitude. It prints,
per function and over the grid, the median and the worst ratio of a scalar call to the mean
cell of the function's call, and the worst to the mean cell of its band's call.

    python benchmarks/bench_scalar.py [--calls 200] [--repeat 5] [--grid 200] [--seed 29]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from scipy.special import ndtri

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _figures import figure  # noqa: E402
from bench_tables import ERRORS, MIN_DS, MS, VARIANCES  # noqa: E402
from topicsetsize.xladdin import udfs  # noqa: E402

import topicsetsize as tss  # noqa: E402
from topicsetsize.designs.anova import ONE_WAY  # noqa: E402
from topicsetsize.designs.anova2 import TWO_WAY  # noqa: E402
from topicsetsize.numerics.distributions import chi2_lambda_one  # noqa: E402

#: The thread's CPU time (see the module docstring).
clock = time.thread_time

#: name: (engine call, Excel call), both answering the same question.
CALLS = {
    "anova_n (m=10, exact)": (
        lambda: tss.anova_n(0.05, 0.2, 0.1, 0.0601, 10, method="exact"),
        lambda: udfs.TSS_ANOVA(0.05, 0.2, 0.1, 0.0601, 10, "exact")),
    "anova_n (m=10, legacy)": (
        lambda: tss.anova_n(0.05, 0.2, 0.1, 0.0601, 10),
        lambda: udfs.TSS_ANOVA(0.05, 0.2, 0.1, 0.0601, 10)),
    "anova_n (n=6, legacy)": (      # below the legacy monotone start (9): a scan below it
        lambda: tss.anova_n(0.05, 0.2, 0.6, 0.0601, 10),
        lambda: udfs.TSS_ANOVA(0.05, 0.2, 0.6, 0.0601, 10)),
    "ttest_n (exact)": (
        lambda: tss.ttest_n(0.05, 0.2, 0.1, 0.04, method="exact"),
        lambda: udfs.TSS_TTEST(0.05, 0.2, 0.1, 0.04, "exact")),
    "ci_n": (
        lambda: tss.ci_n(0.05, delta=0.1, variance_t=0.05),
        lambda: udfs.TSS_CI(0.05, 0.1, 0.05)),
    "anova2_n (m=10)": (
        lambda: tss.anova2_n(0.05, 0.2, 0.1, 0.0045, 10),
        lambda: udfs.TSS_ANOVA2(0.05, 0.2, 0.1, 0.0045, 10)),
    "ttest2_n": (
        lambda: tss.ttest2_n(0.05, 0.2, 0.1, 0.0084),
        lambda: udfs.TSS_TTEST2(0.05, 0.2, 0.1, 0.0084)),
    "ci2_n": (
        lambda: tss.ci2_n(0.05, delta=0.1, variance=0.0084),
        lambda: udfs.TSS_CI2(0.05, 0.1, 0.0084)),
}


def per_call(func, calls: int, repeat: int) -> float:
    """Best mean seconds per call over ``repeat`` batches of ``calls`` calls."""
    func()
    best = float("inf")
    for _ in range(repeat):
        start = clock()
        for _ in range(calls):
            func()
        best = min(best, (clock() - start) / calls)
    return best


def grid_points(points: int, seed: int) -> list[tuple[float, float, int, float]]:
    """(alpha, beta, m, target n) of the random grid (see the module docstring)."""
    rng = np.random.default_rng(seed)
    alpha = np.exp(rng.uniform(np.log(1e-6), np.log(0.5), points))
    beta = rng.uniform(0.01, 0.5, points)
    m = np.rint(np.exp(rng.uniform(np.log(2), np.log(1000), points))).astype(int)
    n = np.exp(rng.uniform(np.log(2), np.log(1e9), points))
    return list(zip(alpha.tolist(), beta.tolist(), m.tolist(), n.tolist()))


def grid_args(name: str, alpha: float, beta: float, m: int, n: float):
    """(function, positional arguments, keywords) of ``name`` at one grid point, with minD
    chosen so that n is about ``n``; every function takes arrays in the same places."""
    z = float(ndtri(1 - alpha / 2) + ndtri(1 - beta))
    if name.startswith("anova"):
        min_d = anova_min_d(alpha, beta, m, n)
        if name == "anova2_n":
            return tss.anova2_n, (alpha, beta, min_d, 1.0, m), {}
        method = name.split()[-1].strip("()")
        return tss.anova_n, (alpha, beta, min_d, 1.0, m), {"method": method}
    if name.startswith("ttest_n"):
        method = name.split()[-1].strip("()")
        return tss.ttest_n, (alpha, beta, z / n ** 0.5, 1.0), {"method": method}
    return tss.ttest2_n, (alpha, beta, z * (2.0 / n) ** 0.5, 1.0), {}


def grid_call(name: str, alpha: float, beta: float, m: int, n: float):
    """The call of ``name`` at one grid point (see :func:`grid_args`)."""
    func, args, kwargs = grid_args(name, alpha, beta, m, n)
    return lambda: func(*args, **kwargs)


def vector_call(name: str, points: list[tuple[float, float, int, float]]):
    """One vectorised call of ``name`` solving the cells of all ``points`` (arrays in place of
    the scalars of :func:`grid_args`)."""
    calls = [grid_args(name, *point) for point in points]
    func, kwargs = calls[0][0], calls[0][2]
    arrays = [np.array(column) for column in zip(*(args for _, args, _ in calls))]
    return lambda: func(*arrays, **kwargs)


#: Bands of the answer n in which the scalar calls are also compared with a vectorised call of
#: the same band's cells only: (lower bound, label).
BANDS = ((0, "n < 1e3"), (10 ** 3, "1e3 <= n < 1e6"), (10 ** 6, "n >= 1e6"))


def band(n: int) -> int:
    """The index in :data:`BANDS` of an answer n."""
    return max(i for i, (low, _) in enumerate(BANDS) if n >= low)


def anova_min_d(alpha: float, beta: float, m: int, n: float) -> float:
    """minD (variance 1) of the ANOVA designs' grid points: λ = n·minD²/2 at the large-sample λ."""
    return (2.0 * chi2_lambda_one(alpha, beta, m - 1.0) / n) ** 0.5


def certificate(name: str, alpha: float, beta: float, m: int, target: float, n: int):
    """The certificate of an F design's answer n alone, as a call: its precise powers at n − 1
    and n (``FKind.power_cell``); None for the other designs."""
    if not name.startswith("anova"):
        return None
    kind = TWO_WAY if name == "anova2_n" else ONE_WAY
    method = "exact" if name == "anova2_n" else name.split()[-1].strip("()")
    effect = anova_min_d(alpha, beta, m, target) ** 2 / 2.0
    points = np.array([n - 1.0, float(n)])
    return lambda: kind.power_cell(points, m, effect, alpha, method)


GRID_FUNCTIONS = ("anova_n (exact)", "anova_n (legacy)", "ttest_n (exact)", "ttest_n (legacy)",
                  "anova2_n", "ttest2_n")


def vector_cell(name: str, points: list, answers: list[int], repeat: int) -> float:
    """Mean seconds per cell of one vectorised call of ``name`` solving the cells of ``points``
    (best of ``repeat`` calls); its answers must be the scalar calls' ``answers``."""
    call = vector_call(name, points)
    best = float("inf")
    for _ in range(repeat):
        start = clock()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = call()
        best = min(best, clock() - start)
    got = np.asarray(got)
    if got.shape != (len(answers),) or not np.array_equal(got, np.array(answers)):
        bad = [i for i, (g, a) in enumerate(zip(got.ravel().tolist(), answers)) if g != a]
        raise SystemExit(f"{name}: the vectorised call's answers differ from the scalar calls' "
                         f"at {len(bad)} of {len(answers)} points, e.g. {points[bad[0]]}: "
                         f"{got.ravel()[bad[0]]} != {answers[bad[0]]}" if bad else
                         f"{name}: the vectorised call returned shape {got.shape}")
    return best / len(answers)


def grid_worst(cell: float, points: int, seed: int, repeat: int) -> dict[str, dict]:
    """Per function: the ratios to a table cell over the grid, and the point of the worst; the
    ratios to the mean cell of one vectorised call of the same cells (all the function's
    answered points), and to that of the same band's cells only (:data:`BANDS`)."""
    out = {}
    grid = grid_points(points, seed)
    for name in GRID_FUNCTIONS:
        ratios, worst, failed, answers = [], None, 0, []
        answered, seconds = [], []
        for alpha, beta, m, n in grid:
            call = grid_call(name, alpha, beta, m, n)
            best = float("inf")
            for _ in range(repeat):
                start = clock()
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")     # PrecisionWarning near 1e9
                        answer = call()
                except Exception:  # noqa: BLE001 - no n up to the limit: counted, not timed
                    failed += 1
                    break
                best = min(best, clock() - start)
            else:
                ratios.append(best / cell)
                answers.append(answer)
                answered.append((alpha, beta, m, n))
                seconds.append(best)
                if worst is None or best / cell > worst[0]:
                    worst = (best / cell, best, alpha, beta, m, answer, n)
        vs_same, vs_band, bands = [], [], {}
        if answered:
            same = vector_cell(name, answered, answers, repeat)
            vs_same = [t / same for t in seconds]
            vs_band = [0.0] * len(answered)
            for i in range(len(BANDS)):
                idx = [j for j, a in enumerate(answers) if band(a) == i]
                if not idx:
                    continue
                per = vector_cell(name, [answered[j] for j in idx], [answers[j] for j in idx],
                                  repeat)
                for j in idx:
                    vs_band[j] = seconds[j] / per
                bands[i] = (len(idx), per, max(vs_band[j] for j in idx))
        out[name] = {"ratios": ratios, "worst": worst, "failed": failed,
                     "largest_n": max(answers) if answers else 0,
                     "vs_same": vs_same, "vs_band": vs_band, "bands": bands,
                     "answered": answered, "answers": answers}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--grid", type=int, default=200, help="random grid points per function")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--grid-repeat", type=int, default=3,
                        help="best of this many calls per grid point")
    args = parser.parse_args(argv)
    cells = len(MS) * len(MIN_DS) * len(VARIANCES) * len(ERRORS)

    def table():
        for a, b in ERRORS:
            for v in VARIANCES:
                tss.anova_table(a, beta=b, variance=v, ms=MS, min_ds=MIN_DS, method="exact")

    cell = per_call(table, 1, args.repeat) / cells
    print(f"reference: a cell of the exact ANOVA table ({cells:,} cells): {cell * 1e6:.1f} us")
    print(f"{'function':26s} {'engine us':>10s} {'x cell':>7s} {'Excel us':>9s} {'x cell':>7s}")
    worst = 0.0
    for name, (engine, excel) in CALLS.items():
        assert engine() == excel(), name          # the same answer both ways
        t_engine = per_call(engine, args.calls, args.repeat)
        t_excel = per_call(excel, args.calls, args.repeat)
        worst = max(worst, t_engine / cell, t_excel / cell)
        print(f"{name:26s} {t_engine * 1e6:10.0f} {t_engine / cell:6.0f}x "
              f"{t_excel * 1e6:9.0f} {t_excel / cell:6.0f}x")
    print(f"worst ratio to a table cell of these examples: {worst:.0f}x (target at most 15x: "
          f"{'met' if worst <= 15 else 'NOT met'}); allpairs_n (simulated) is not timed")
    how = f"best of {args.repeat} batches of {args.calls} calls"
    figure("scalar.cell_us", cell * 1e6, "us", f"exact ANOVA table, best of {args.repeat}")
    figure("scalar.examples_worst_ratio", worst, "x", "worst of the 8 examples, engine and Excel, "
           + how)

    grid = grid_worst(cell, args.grid, args.seed, args.grid_repeat)
    print(f"\nrandom grid: {args.grid} points per function (seed {args.seed}): alpha 1e-6..0.5, "
          f"beta .01..0.5, m 2..1000, target n 2..1e9; best of {args.grid_repeat} calls each")
    print(f"{'function':20s} {'median x':>9s} {'worst x':>8s} {'worst us':>9s}  worst at "
          "(alpha, beta, m -> n); largest n; failures")
    all_ratios, overall = [], (0.0, "", None)
    for name, g in grid.items():
        if not g["ratios"]:
            print(f"{name:20s} no point answered ({g['failed']} failures)")
            continue
        ratio, seconds, a, b, m, n, target = g["worst"]
        all_ratios += g["ratios"]
        overall = max(overall, (ratio, name, (a, b, m, target, n)), key=lambda x: x[0])
        shown_m = m if name.startswith("anova") else "-"
        print(f"{name:20s} {statistics.median(g['ratios']):8.1f}x {ratio:7.0f}x "
              f"{seconds * 1e6:9.0f}  ({a:.2g}, {b:.2f}, {shown_m} -> "
              f"{n:,}); {g['largest_n']:,}; "
              f"{g['failed']}")
    if all_ratios:
        print(f"worst over the grid: {overall[0]:.0f}x a table cell ({overall[1]}; target at "
              f"most 15x: {'met' if overall[0] <= 15 else 'NOT met'}); median "
              f"{statistics.median(all_ratios):.1f}x")
        how = (f"{args.grid} random points x {len(GRID_FUNCTIONS)} functions, seed {args.seed}, "
               f"n up to 1e9, best of {args.grid_repeat} calls each / a table cell")
        figure("scalar.grid_worst_ratio", overall[0], "x", "worst of " + how)
        figure("scalar.grid_median_ratio", statistics.median(all_ratios), "x", "median of " + how)
        a, b, m, target, n = overall[2]
        check = certificate(overall[1], a, b, m, target, n)
        if check is not None:
            seconds = per_call(check, 20, args.repeat)
            print(f"its certificate alone (the precise powers at n - 1 and n of {overall[1]} at "
                  f"n = {n:,}): {seconds * 1e6:.0f} us, {seconds / cell:.0f}x a table cell")
            how = f"{overall[1]} at n = {n:,}, best of {args.repeat} batches of 20 calls"
            figure("scalar.certificate_us", seconds * 1e6, "us", how)
            figure("scalar.certificate_ratio", seconds / cell, "x", how + " / a table cell")
    report_same_cells(grid, args)
    return 0


def report_same_cells(grid: dict[str, dict], args) -> None:
    """The grid's scalar calls against the same cells solved in one vectorised call."""
    print(f"\nthe same cells in one vectorised call of each function (its answers checked equal "
          f"to the scalar calls'; best of {args.grid_repeat} calls): a scalar call / the mean "
          f"cell of that call, and / the mean cell of a vectorised call of its band's cells "
          f"only ({'; '.join(label for _, label in BANDS)})")
    print(f"{'function':20s} {'median x':>9s} {'worst x':>8s} {'band worst x':>13s}  per band: "
          "cells, us per cell in one call, worst x")
    all_same, all_band, worst = [], [], (0.0, "", None)
    for name, g in grid.items():
        if not g["vs_same"]:
            continue
        all_same += g["vs_same"]
        all_band += g["vs_band"]
        i = int(np.argmax(g["vs_same"]))
        worst = max(worst, (g["vs_same"][i], name, (*g["answered"][i][:3], g["answers"][i])),
                    key=lambda x: x[0])
        bands = "; ".join(f"{BANDS[i][1]}: {count}, {per * 1e6:.1f} us, {w:.0f}x"
                          for i, (count, per, w) in sorted(g["bands"].items()))
        print(f"{name:20s} {statistics.median(g['vs_same']):8.1f}x {max(g['vs_same']):7.1f}x "
              f"{max(g['vs_band']):12.1f}x  {bands}")
    if not all_same:
        return
    print(f"over the grid: median {statistics.median(all_same):.1f}x, worst "
          f"{max(all_same):.0f}x the same cells in one vectorised call; worst "
          f"{max(all_band):.0f}x the same band's cells in one vectorised call (median "
          f"{statistics.median(all_band):.1f}x)")
    a, b, m, n = worst[2]
    print(f"worst against the same cells: {worst[1]} at (alpha, beta, m -> n) = ({a:.2g}, "
          f"{b:.2f}, {m if worst[1].startswith('anova') else '-'} -> {n:,})")
    how = (f"{args.grid} random points x {len(GRID_FUNCTIONS)} functions, seed {args.seed}, "
           f"n up to 1e9; a scalar call (best of {args.grid_repeat}) / the mean cell of one "
           f"vectorised call of")
    figure("scalar.grid_median_vs_same_cells", statistics.median(all_same), "x",
           f"median of {how} the function's grid cells")
    figure("scalar.grid_worst_vs_same_cells", max(all_same), "x",
           f"worst of {how} the function's grid cells")
    figure("scalar.grid_worst_vs_same_band", max(all_band), "x",
           f"worst of {how} the function's grid cells in the same band of n (<1e3, <1e6, >=1e6)")


if __name__ == "__main__":
    sys.exit(main())
