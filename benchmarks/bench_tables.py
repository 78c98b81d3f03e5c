"""Benchmark: whole topic set size tables, vectorised, against statsmodels cell by cell.

Grid: m in {2..10, 15, 20, 30, 50, 100}, minD in {0.01, ..., 0.20}, three
variances (the bold std-AB and raw values of AIRS 2016 Table 1: .0127, .0601, .2130) and
(alpha, beta) in {(.05, .20), (.01, .10)}: 1,680 ANOVA cells; the paired t-test table uses
minDt = the same 20 values and sigma_t^2 = 2 * the three variances (120 cells).

In the same run it times statsmodels' FTestAnovaPower().solve_power and
TTestPower().solve_power cell by cell and checks that the n agree with the exact method
(statsmodels solves for a real total sample size N; the whole-topic answer is ceil(N/m)).
The "floor" rows time only the special-function calls that certify every exact cell (the
power at n - 1 and at n, all cells in one vectorised call), the cheaper way of issue 28.4: one
critical value per cell (the power at n - 1 taken at n's critical value is an upper bound of it;
n - 1's own only where that bound is not below 1 - beta), Boost's F point as it is (the refined
one and the series only for cells whose fast powers lie within their error of 1 - beta), and
the paired t power as one noncentral F tail (t'^2 ~ F'(1, phi, lambda^2)): no certified table
can cost less. Each table's
ratio to its floor is printed (issue 28.4 asks for at most 1.5x), and so is what the same table
calls cost with their answers given (validation, grid and DataFrame): no search can bring a
table closer to its floor than 1 + that. The floor is timed two ways: all tables' cells in one
vectorised call of each function (the stricter: one call's overhead and warm caches shared by
six tables), and each table's own cells in their own calls, table after table, which is the
least that a table call itself can cost.

A second case is one long table: m = 2..100,000 for minD = .1 and sigma^2 = .0601
(99,999 cells, one distinct m per cell), in both methods. With ``--before REV`` it also
times that case with the engine of git revision REV (extracted with ``git archive`` and run
in a subprocess), checks that the answers are identical and prints the speed-up.

    python benchmarks/bench_tables.py [--repeat 5] [--peer-repeat 3] [--before REV]
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
from _figures import figure
from _timing import best_time

import topicsetsize as tss

MS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20, 30, 50, 100]
MIN_DS = [round(0.01 * k, 2) for k in range(1, 21)]
VARIANCES = [0.0127, 0.0601, 0.2130]
ERRORS = [(0.05, 0.20), (0.01, 0.10)]


LONG_MS = range(2, 100_001)

#: Times the long table in whatever topicsetsize is importable; prints JSON.
_LONG_SCRIPT = """
import json, sys, time
import numpy as np
import topicsetsize as tss
out = {}
for method in ("exact", "legacy"):
    t0 = time.perf_counter()
    try:                                    # keyword-only API
        table = tss.anova_table(0.05, beta=0.2, variance=0.0601, ms=range(2, 100001),
                                min_ds=[0.1], method=method)
    except TypeError:                       # the positional API of older revisions
        table = tss.anova_table(0.05, 0.2, 0.0601, range(2, 100001), [0.1], method=method)
    out[method] = [time.perf_counter() - t0, int(np.asarray(table).sum())]
print(json.dumps(out))
"""


def long_table(src: Path | None = None) -> dict:
    """Seconds and the sum of all n for the long table, in a fresh interpreter.

    ``src`` is a directory holding the ``topicsetsize`` package to time; by default the one
    this script imports.
    """
    import json
    root = str(src) if src else str(Path(tss.__file__).resolve().parent.parent)
    run = subprocess.run([sys.executable, "-c", _LONG_SCRIPT], capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": root, "PATH": ""}, cwd=root)
    return json.loads(run.stdout)


def long_table_before(rev: str) -> dict:
    """:func:`long_table` with the engine of git revision ``rev`` of this repository."""
    repo = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(repo), "archive", rev, "topicsetsize"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        return long_table(Path(tmp))


def engine_anova(method):
    return {(a, b, v): tss.anova_table(a, beta=b, variance=v, ms=MS, min_ds=MIN_DS, method=method)
            for a, b in ERRORS for v in VARIANCES}


def engine_ttest(method):
    return {(a, b): tss.ttest_table(a, beta=b, variance_t=[2 * v for v in VARIANCES],
                                    min_dts=MIN_DS, method=method)
            for a, b in ERRORS}


def certification_floor_anova(tables):
    """The special-function calls that certify every exact ANOVA cell, and nothing else,
    the cheaper way (issue 28.4).

    Per cell, the exact power at n − 1 and at n, with the bound shortcut: one upper F point
    w(n) and two noncentral F tails (``_ncf_sf``), the one at n − 1 taken at w(n), an upper
    bound of its power (w(n − 1) > w(n)); where that bound is not below 1 − β (found here,
    before the clock starts), n − 1's own F point and tail as well. The F points are Boost's
    inverse as it is (``f_crit(precise=False)``), as the search's fast power takes them: its
    error is within ``FAST_POWER_ERROR``, so only a cell whose fast powers lie that close to
    1 − β (and whose n reaches ``certify_from``) needs the precise powers at n − 1 and n
    (``f_power``: the refined F point, the series), and those are timed too where there are
    any. All the table's cells in one vectorised call of each: what any certified answer
    must compute. (Until 2026-12-06 this floor refined every F point from φE = 10⁵ on,
    whether a cell needed it or not, which put it some 18% above what a certificate costs.)
    """
    from topicsetsize.numerics.distributions import _ncf_sf, f_crit, f_power
    from topicsetsize.numerics.precision import F_POWER_TOLERANCE, certify_from, undecided_by_fast
    cols = []
    for (a, b, v), table in tables.items():
        n = table.to_numpy(float).ravel()
        m = np.broadcast_to(np.asarray(table.index, float)[:, None], table.shape).ravel()
        effect = np.broadcast_to(np.asarray(table.columns, float)[None, :] ** 2 / (2 * v),
                                 table.shape).ravel()
        cols.append((np.full(n.size, a), np.full(n.size, 1 - b), m - 1.0, m * (n - 1.0),
                     m * (n - 2.0), n * effect, (n - 1.0) * effect, n, m))
    alpha, target, dfn, dfd, dfd0, nc, nc0, n, m = (np.concatenate(c) for c in zip(*cols))
    w = f_crit(alpha, dfn, dfd, precise=False)
    at, below = _ncf_sf(w, dfn, dfd, nc), _ncf_sf(w, dfn, dfd0, nc0)
    own = below >= target                                             # the fallback cells
    below[own] = _ncf_sf(f_crit(alpha[own], dfn[own], dfd0[own], precise=False), dfn[own],
                         dfd0[own], nc0[own])
    precise = undecided_by_fast(target, below, at, F_POWER_TOLERANCE) & (n >= certify_from(m))
    args2 = (np.concatenate([dfn, dfn]), np.concatenate([dfd, dfd0]), np.concatenate([nc, nc0]))
    own_args = (alpha[own], dfn[own], dfd0[own], nc0[own])
    precise_args = tuple(np.concatenate([x[precise], x[precise]]) for x in (alpha, dfn)) + (
        np.concatenate([dfd[precise], dfd0[precise]]), np.concatenate([nc[precise],
                                                                        nc0[precise]]))

    def floor():
        w = f_crit(alpha, dfn, dfd, precise=False)
        both = _ncf_sf(np.concatenate([w, w]), *args2)
        a_, n_, d_, l_ = own_args
        fallback = _ncf_sf(f_crit(a_, n_, d_, precise=False), n_, d_, l_)
        return both, fallback, f_power(*precise_args) if precise_args[0].size else None
    floor.fallback = int(own.sum())
    floor.precise = int(precise.sum())
    return floor


def certification_floor_ttest(tables):
    """As :func:`certification_floor_anova` for the exact paired t-test, the cheaper way: per
    cell, the critical t at n (``stdtrit``) and two noncentral F tails by the exact identity
    Pr{|t'(φ, λ)| ≥ w} = Pr{F'(1, φ, λ²) ≥ w²} (``_ncf_sf``), the one at n − 1 taken at n's
    critical t (an upper bound); n − 1's own critical t where that bound is not below 1 − β."""
    from topicsetsize.numerics.distributions import _ncf_sf, t_crit
    cols = []
    for (a, b), table in tables.items():
        n = table.to_numpy(float)
        effect = (np.asarray(table.columns, float)[None, :]
                  / np.sqrt(np.asarray(table.index, float))[:, None])
        n, effect = n.ravel(), np.broadcast_to(effect, table.shape).ravel()
        cols.append((np.full(n.size, a), np.full(n.size, 1 - b), n - 1.0, n - 2.0,
                     n * effect ** 2, (n - 1.0) * effect ** 2))
    alpha, target, df, df0, nc2, nc20 = (np.concatenate(c) for c in zip(*cols))
    own = _ncf_sf(t_crit(alpha, df) ** 2, 1.0, df0, nc20) >= target     # the fallback cells
    args2 = (1.0, np.concatenate([df, df0]), np.concatenate([nc2, nc20]))
    own_args = (alpha[own], df0[own], nc20[own])

    def floor():
        w = t_crit(alpha, df)
        w2 = w * w
        both = _ncf_sf(np.concatenate([w2, w2]), *args2)
        a_, d_, l_ = own_args
        return both, _ncf_sf(t_crit(a_, d_) ** 2, 1.0, d_, l_)
    floor.fallback = int(own.sum())
    return floor


def table_by_table(make_floor, tables):
    """The floor of each table call: ``make_floor`` (:func:`certification_floor_anova` or
    :func:`certification_floor_ttest`) of each table's own cells, called one table after
    another, as a table call must compute them (the floor of all ``tables`` in one vectorised
    call, the other floor the benchmark reports, shares numpy's per-call overhead and warm
    caches across tables, which no call of one table can)."""
    floors = [make_floor({key: table}) for key, table in tables.items()]

    def floor():
        for each in floors:
            each()
    floor.fallback = sum(each.fallback for each in floors)
    floor.precise = sum(getattr(each, "precise", 0) for each in floors)
    return floor


def fixed_cost(tables, kind):
    """What a table call costs besides its search: the same calls' validation of the grid and
    their DataFrame, with the answers given (:func:`topicsetsize.designs.tables.size_table` with
    a precomputed n, and the scalar checks of α and β), for the ``tables`` of
    :func:`engine_anova` (``kind="anova"``) or :func:`engine_ttest` (``"ttest"``). No search can
    make a table call cheaper than its floor plus this."""
    from topicsetsize.designs.tables import size_table
    from topicsetsize.params import check

    rows, columns = (("m", MS), ("min_d", MIN_DS)) if kind == "anova" else \
        (("variance_t", [2 * v for v in VARIANCES]), ("min_dt", MIN_DS))
    calls = [(a, b, table.to_numpy()) for (a, b, *_), table in tables.items()]

    def fixed():
        for a, b, n in calls:
            check("alpha", a, allow_array=False), check("beta", b, allow_array=False)
            size_table(lambda r, c, n=n: n, rows=rows, columns=columns)
    return fixed


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


def best_cpu_time(func, repeat: int) -> float:
    """The least CPU time of this thread over ``repeat`` calls of ``func()`` (not disturbed by
    other processes sharing the core, unlike the wall-clock :func:`best_time`)."""
    best = float("inf")
    for _ in range(max(1, repeat)):
        start = time.thread_time()
        func()
        best = min(best, time.thread_time() - start)
    return best


def best_peer(peer, tables, repeat: int):
    """The peer's pass with the best time (as the engine's best of ``--repeat``), its counts."""
    return min((peer(tables) for _ in range(max(1, repeat))), key=lambda result: result[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--peer-repeat", type=int, default=3,
                        help="best of this many passes of statsmodels (default 3)")
    parser.add_argument("--before", metavar="REV",
                        help="also time the long table with the engine of this git revision")
    args = parser.parse_args()
    n_anova = len(MS) * len(MIN_DS) * len(VARIANCES) * len(ERRORS)
    n_ttest = len(MIN_DS) * len(VARIANCES) * len(ERRORS)

    engine_anova("exact"), engine_anova("legacy")          # warm-up (imports, caches)
    t_exact, exact_tables = best_time(lambda: engine_anova("exact"), args.repeat)
    t_legacy, _ = best_time(lambda: engine_anova("legacy"), args.repeat)
    t_sm, agree, differ, failed = best_peer(statsmodels_anova, exact_tables, args.peer_repeat)
    tt_exact, exact_t = best_time(lambda: engine_ttest("exact"), args.repeat)
    tt_legacy, _ = best_time(lambda: engine_ttest("legacy"), args.repeat)
    tt_sm, t_agree, t_differ, t_failed = best_peer(statsmodels_ttest, exact_t, args.peer_repeat)
    floor_anova, floor_ttest = (certification_floor_anova(exact_tables),
                                certification_floor_ttest(exact_t))
    t_floor, _ = best_time(floor_anova, args.repeat)
    tt_floor, _ = best_time(floor_ttest, args.repeat)
    each_anova, each_ttest = (table_by_table(certification_floor_anova, exact_tables),
                              table_by_table(certification_floor_ttest, exact_t))
    t_each, _ = best_time(each_anova, args.repeat)
    tt_each, _ = best_time(each_ttest, args.repeat)
    # The same ratios in CPU time of this thread: on 2 shared cores a process is at times given
    # half a core, which doubles its wall-clock time for a while (the "hash seed" anomaly of
    # issue 28.4 was that: the thread's CPU time stayed flat); these do not move with the load.
    cpu = [best_cpu_time(f, args.repeat) for f in (lambda: engine_anova("exact"), floor_anova,
                                                   lambda: engine_ttest("exact"), floor_ttest,
                                                   each_anova, each_ttest)]
    fixed_cpu = [best_cpu_time(fixed_cost(t, k), args.repeat)
                 for t, k in ((exact_tables, "anova"), (exact_t, "ttest"))]

    def row(design, what, seconds, peer_seconds, cells):
        return design, what, seconds / cells * 1e6, peer_seconds / seconds

    rows = [
        row("ANOVA", "topicsetsize exact (vectorised)", t_exact, t_sm, n_anova),
        row("ANOVA", "topicsetsize legacy (vectorised)", t_legacy, t_sm, n_anova),
        row("ANOVA", "floor: f_crit + 2 ncf sf per cell (shortcut)", t_floor, t_sm, n_anova),
        row("ANOVA", "statsmodels FTestAnovaPower.solve_power", t_sm, t_sm, n_anova),
        row("t-test", "topicsetsize exact (vectorised)", tt_exact, tt_sm, n_ttest),
        row("t-test", "topicsetsize legacy (vectorised)", tt_legacy, tt_sm, n_ttest),
        row("t-test", "floor: t_crit + 2 ncf sf per cell (shortcut)", tt_floor, tt_sm, n_ttest),
        row("t-test", "statsmodels TTestPower.solve_power", tt_sm, tt_sm, n_ttest),
    ]
    print(f"ANOVA table: {n_anova} cells; t-test table: {n_ttest} cells; best of {args.repeat} "
          f"(statsmodels: best of {args.peer_repeat})")
    print(f"{'design':7s} {'implementation':42s} {'us/cell':>10s} {'speed-up vs statsmodels':>24s}")
    for design, name, per_cell, ratio in rows:
        print(f"{design:7s} {name:42s} {per_cell:10.1f} {ratio:23.0f}x")
    print(f"exact table / its certifying floor: ANOVA {t_exact / t_floor:.2f}, t-test "
          f"{tt_exact / tt_floor:.2f} (target at most 1.5; the floors' own critical value at "
          f"n - 1 for {floor_anova.fallback} of {n_anova} and {floor_ttest.fallback} of "
          f"{n_ttest} cells; the precise ANOVA powers for {floor_anova.precise})")
    print(f"the same in CPU time (this thread): ANOVA {cpu[0] / cpu[1]:.2f}, t-test "
          f"{cpu[2] / cpu[3]:.2f}")
    print(f"exact table / the floor of each table call (each table's cells in their own calls): "
          f"ANOVA {t_exact / t_each:.2f} (CPU {cpu[0] / cpu[4]:.2f}), t-test "
          f"{tt_exact / tt_each:.2f} (CPU {cpu[2] / cpu[5]:.2f}); that floor / the one of all "
          f"tables in one call: ANOVA {t_each / t_floor:.2f}, t-test {tt_each / tt_floor:.2f}")
    per_table = [fixed_cpu[0] / len(exact_tables) * 1e6, fixed_cpu[1] / len(exact_t) * 1e6]
    print(f"a table call's fixed cost (validation, grid and DataFrame, n given) / the floor, in "
          f"CPU time: ANOVA {fixed_cpu[0] / cpu[1]:.2f} ({per_table[0]:.0f} us per table), "
          f"t-test {fixed_cpu[1] / cpu[3]:.2f} ({per_table[1]:.0f} us per table): the exact "
          "table can come no closer to its floor than 1 + this")
    print(f"legacy / exact time per ANOVA cell: {t_legacy / t_exact:.2f} "
          "(target: legacy at least as fast as exact, <= 1)")
    how = f"best of {args.repeat} whole tables, per cell"
    peer_how = f"best of {args.peer_repeat} passes cell by cell, per cell"
    for key, seconds, cells, h in (
            ("anova_exact_us", t_exact, n_anova, how), ("anova_legacy_us", t_legacy, n_anova, how),
            ("anova_floor_us", t_floor, n_anova, how), ("anova_statsmodels_us", t_sm, n_anova,
                                                        peer_how),
            ("ttest_exact_us", tt_exact, n_ttest, how), ("ttest_legacy_us", tt_legacy, n_ttest,
                                                         how),
            ("ttest_floor_us", tt_floor, n_ttest, how), ("ttest_statsmodels_us", tt_sm, n_ttest,
                                                         peer_how)):
        figure(f"tables.{key}", seconds / cells * 1e6, "us/cell", h)
    for key, seconds, peer in (("anova_exact", t_exact, t_sm), ("anova_legacy", t_legacy, t_sm),
                               ("anova_floor", t_floor, t_sm), ("ttest_exact", tt_exact, tt_sm),
                               ("ttest_legacy", tt_legacy, tt_sm),
                               ("ttest_floor", tt_floor, tt_sm)):
        figure(f"tables.{key}_speedup", peer / seconds, "x", "statsmodels best / ours best")
    # (design, its table, CPU; floor of all tables in one call, CPU; each table's own, CPU)
    for design, times in (("anova", (t_exact, cpu[0], t_floor, cpu[1], t_each, cpu[4])),
                          ("ttest", (tt_exact, cpu[2], tt_floor, cpu[3], tt_each, cpu[5]))):
        table, table_cpu, floor, floor_cpu, each, each_cpu = times
        for key, ratio, how in (
                ("floor", table / floor, "exact table best / floor best"),
                ("floor_cpu", table_cpu / floor_cpu,
                 "exact table / floor, least thread CPU time of each"),
                ("table_floor", table / each,
                 "exact table best / best of each table's own floor, called table by table"),
                ("table_floor_cpu", table_cpu / each_cpu,
                 "exact table / each table's own floor, least thread CPU time of each")):
            figure(f"tables.{design}_exact_to_{key}", ratio, "x", how)
    figure("tables.anova_fixed_to_floor_cpu", fixed_cpu[0] / cpu[1], "x",
           "validation, grid and DataFrame of the same table calls with n given / floor, least "
           "thread CPU time of each")
    figure("tables.ttest_fixed_to_floor_cpu", fixed_cpu[1] / cpu[3], "x",
           "validation, grid and DataFrame of the same table calls with n given / floor, least "
           "thread CPU time of each")
    figure("tables.anova_legacy_to_exact", t_legacy / t_exact, "x",
           "legacy best / exact best, 1,680 cells")
    print(f"n agreement with statsmodels (exact): ANOVA {agree} agree, {differ} differ, "
          f"{failed} failed; t-test {t_agree} agree, {t_differ} differ, {t_failed} failed")

    cells = len(LONG_MS)
    now = long_table()
    before = long_table_before(args.before) if args.before else None
    print(f"\nlong ANOVA table: m = 2..{LONG_MS[-1]:,}, minD = .1, variance = .0601 "
          f"({cells:,} cells, one run each)")
    for method in ("exact", "legacy"):
        line = f"  {method:6s} {now[method][0]:6.2f} s  {now[method][0] / cells * 1e6:6.1f} us/cell"
        if before:
            same = "identical n" if before[method][1] == now[method][1] else "n DIFFER"
            line += (f"   {args.before}: {before[method][0]:6.2f} s  "
                     f"speed-up {before[method][0] / now[method][0]:.1f}x ({same})")
        print(line)
    print(f"  legacy / exact time: {now['legacy'][0] / now['exact'][0]:.2f}")
    for method in ("exact", "legacy"):
        figure(f"tables.long_{method}_us", now[method][0] / cells * 1e6, "us/cell",
               "one run in a fresh process, 99,999 cells")
    figure("tables.long_legacy_to_exact", now["legacy"][0] / now["exact"][0], "x",
           "legacy / exact, one run each")


if __name__ == "__main__":
    main()
