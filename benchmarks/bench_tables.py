"""Benchmark: whole topic set size tables, vectorised, against statsmodels cell by cell.

Grid (issue 2): m in {2..10, 15, 20, 30, 50, 100}, minD in {0.01, ..., 0.20}, three
variances (the bold std-AB and raw values of AIRS 2016 Table 1: .0127, .0601, .2130) and
(alpha, beta) in {(.05, .20), (.01, .10)}: 1,680 ANOVA cells; the paired t-test table uses
minDt = the same 20 values and sigma_t^2 = 2 * the three variances (120 cells).

In the same run it times statsmodels' FTestAnovaPower().solve_power and
TTestPower().solve_power cell by cell and checks that the n agree with the exact method
(statsmodels solves for a real total sample size N; the whole-topic answer is ceil(N/m)).

    python benchmarks/bench_tables.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import math
import time
import warnings

import numpy as np

import topicsetsize as tss

MS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20, 30, 50, 100]
MIN_DS = [round(0.01 * k, 2) for k in range(1, 21)]
VARIANCES = [0.0127, 0.0601, 0.2130]
ERRORS = [(0.05, 0.20), (0.01, 0.10)]


def best_of(repeat, fn):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def engine_anova(method):
    return {(a, b, v): tss.anova_table(a, beta=b, variance=v, ms=MS, min_ds=MIN_DS, method=method)
            for a, b in ERRORS for v in VARIANCES}


def engine_ttest(method):
    return {(a, b): tss.ttest_table(a, beta=b, variance_t=[2 * v for v in VARIANCES],
                                    min_dts=MIN_DS, method=method)
            for a, b in ERRORS}


def statsmodels_anova(tables):
    from statsmodels.stats.power import FTestAnovaPower
    solver = FTestAnovaPower()
    agree = differ = failed = 0
    t0 = time.perf_counter()
    for (a, b, v), table in tables.items():
        for m in MS:
            for d in MIN_DS:
                f = math.sqrt(d * d / (2 * v) / m)       # Cohen's f: lambda = f^2 * N, N = m n
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    try:
                        nobs = solver.solve_power(effect_size=f, nobs=None, alpha=a, power=1 - b,
                                                  k_groups=m)
                    except Exception:  # noqa: BLE001 - counted as a failure of the peer
                        nobs = float("nan")
                if not np.isfinite(nobs):
                    failed += 1
                elif max(2, math.ceil(nobs / m - 1e-9)) == table.loc[m, d]:
                    agree += 1
                else:
                    differ += 1
    return time.perf_counter() - t0, agree, differ, failed


def statsmodels_ttest(tables):
    from statsmodels.stats.power import TTestPower
    solver = TTestPower()
    agree = differ = failed = 0
    t0 = time.perf_counter()
    for (a, b), table in tables.items():
        for vt in table.index:
            for d in table.columns:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    try:
                        nobs = solver.solve_power(effect_size=d / math.sqrt(vt), nobs=None,
                                                  alpha=a, power=1 - b)
                    except Exception:  # noqa: BLE001
                        nobs = float("nan")
                if not np.isfinite(nobs):
                    failed += 1
                elif max(2, math.ceil(nobs - 1e-9)) == table.loc[vt, d]:
                    agree += 1
                else:
                    differ += 1
    return time.perf_counter() - t0, agree, differ, failed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    n_anova = len(MS) * len(MIN_DS) * len(VARIANCES) * len(ERRORS)
    n_ttest = len(MIN_DS) * len(VARIANCES) * len(ERRORS)

    engine_anova("exact"), engine_anova("legacy")          # warm-up (imports, caches)
    t_exact, exact_tables = best_of(args.repeat, lambda: engine_anova("exact"))
    t_legacy, _ = best_of(args.repeat, lambda: engine_anova("legacy"))
    t_sm, agree, differ, failed = statsmodels_anova(exact_tables)
    tt_exact, exact_t = best_of(args.repeat, lambda: engine_ttest("exact"))
    tt_legacy, _ = best_of(args.repeat, lambda: engine_ttest("legacy"))
    tt_sm, t_agree, t_differ, t_failed = statsmodels_ttest(exact_t)

    us = lambda seconds, cells: seconds / cells * 1e6  # noqa: E731
    rows = [
        ("ANOVA", "topicsetsize exact (vectorised)", us(t_exact, n_anova), us(t_sm, n_anova) / us(t_exact, n_anova)),
        ("ANOVA", "topicsetsize legacy (vectorised)", us(t_legacy, n_anova), us(t_sm, n_anova) / us(t_legacy, n_anova)),
        ("ANOVA", "statsmodels FTestAnovaPower.solve_power", us(t_sm, n_anova), 1.0),
        ("t-test", "topicsetsize exact (vectorised)", us(tt_exact, n_ttest), us(tt_sm, n_ttest) / us(tt_exact, n_ttest)),
        ("t-test", "topicsetsize legacy (vectorised)", us(tt_legacy, n_ttest), us(tt_sm, n_ttest) / us(tt_legacy, n_ttest)),
        ("t-test", "statsmodels TTestPower.solve_power", us(tt_sm, n_ttest), 1.0),
    ]
    print(f"ANOVA table: {n_anova} cells; t-test table: {n_ttest} cells; best of {args.repeat}")
    print(f"{'design':7s} {'implementation':42s} {'us/cell':>10s} {'speed-up vs statsmodels':>24s}")
    for design, name, per_cell, ratio in rows:
        print(f"{design:7s} {name:42s} {per_cell:10.1f} {ratio:23.0f}x")
    print(f"legacy / exact time per ANOVA cell: {t_legacy / t_exact:.2f} "
          "(target: legacy at least as fast as exact, <= 1)")
    print(f"n agreement with statsmodels (exact): ANOVA {agree} agree, {differ} differ, "
          f"{failed} failed; t-test {t_agree} agree, {t_differ} differ, {t_failed} failed")


if __name__ == "__main__":
    main()
