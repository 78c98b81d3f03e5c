"""``topicsetsize report FILE...``: know a past collection before designing the next.

For each score matrix: runs, topics, V_E and V_E2 (raw and std-AB), the generalizability theory
components σ²_s, σ²_t, σ²_e, Eρ² and Φ at the matrix's own number of topics with their
confidence intervals, the number of topics for Eρ² and Φ to reach the target, the
distribution of the differences between run means (all pairs, the top k runs, the best run
against the others), and the minD values that occur between its runs (top-k range, top-k
median and quartile, corrected for the selection of the top k by split halves, with their
Monte Carlo error; all-pairs median) with the share of their pairs, the standard error of a
paired difference, and Sakai's n for each (one-way ANOVA legacy and exact, two-way ANOVA
exact). Runs that are copies of others (equal scores on every topic) count once in the
differences and the minD values and are kept in the variances; a warning names them.
``--example`` adds the bundled TREC 2010 Web AP matrix.
"""

from __future__ import annotations

from ..errors import InputError
from ..params import N_HALVES  # the standard library only: the parser stays light
from ._bootstrap import add_boot_options, boot_args, check_boot_workload, interval_note
from ._common import (
    add_std_ab_options,
    checked,
    fixed,
    numbers,
    path,
    print_frame,
    reporting_warnings,
)
from ._inputs import add_input_options, load_matrices


def register(sub, designs) -> None:
    """Add the ``report`` sub-command to the parser."""
    parser = sub.add_parser(
        "report",
        help="one report per score matrix: V_E, generalizability theory (Erho2, Phi) and the "
             "realistic minD with Sakai's n",
        description=__doc__.split("\n\n")[1].replace("``", ""),
    )
    parser.add_argument("files", nargs="*", type=path, metavar="FILE",
                        help="a score matrix file, or a folder of trec_eval -q files")
    parser.add_argument("--example", action="store_true",
                        help="also report on the bundled TREC 2010 Web AP matrix (48 x 88)")
    add_input_options(parser)
    parser.add_argument("--top-k", type=checked("top_k"), default=None,
                        help="the best runs whose differences give the minD values (default "
                             "10, or --m: k = m)")
    parser.add_argument("--min-d", type=numbers("min_d"), default=[],
                        help="your own candidate minD values, e.g. 0.05,0.1: the share of run "
                             "pairs that differ by as much, and Sakai's n")
    parser.add_argument("--m", type=checked("m"), default=None,
                        help="systems of the ANOVA designs, and the size of the top group "
                             "(k = m; default 10)")
    parser.add_argument("--seed", type=checked("seed"), default=0,
                        help="seed of the random halves of the topics that correct the top-k "
                             "candidates for their selection, and of the bootstrap of n "
                             "(default 0)")
    parser.add_argument("--trials", type=checked("trials"), default=N_HALVES,
                        help="random halves of the topics that correct the top-k candidates "
                             f"(default {N_HALVES}); more halves, less Monte Carlo error (mc_se) "
                             "and less bias of the median and quartile")
    parser.add_argument("--alpha", type=checked("alpha"), default=0.05, help="default 0.05")
    parser.add_argument("--beta", type=checked("beta"), default=0.20, help="default 0.20")
    parser.add_argument("--target", type=checked("target"), default=0.95,
                        help="Erho2 and Phi to reach (default 0.95)")
    parser.add_argument("--level", type=checked("level"), default=0.95,
                        help="confidence level of the intervals (default 0.95)")
    add_std_ab_options(parser)
    add_boot_options(parser, seed=False)         # --seed above seeds the bootstrap too
    parser.add_argument("--plot", type=path, metavar="FILE.png",
                        help="draw Erho2, Phi and the one-way ANOVA power against n "
                             "(needs matplotlib: pip install 'topicsetsize[plot]')")
    parser.add_argument("--csv", action="store_true",
                        help="print CSV, one row per matrix, full precision")
    parser.set_defaults(handler=run)


def run(args) -> int:
    """Read every matrix, build its report, print (and plot)."""
    from ..params import check
    from ..report import MIN_D_HELD_FIXED, collection_report

    if args.min_d:
        check("min_d", args.min_d)
    from ..decide.realistic import check_top_k_fits, table_notes, top_k_and_m
    from ..matrices.copies import identical_runs

    top_k_and_m(args.top_k, args.m)         # k = m: refused before any matrix is read
    if args.plot is not None:
        if not args.plot.lower().endswith(".png"):
            raise InputError(f"--plot {args.plot}: the file name must end in .png")
        from ..plots import require_matplotlib
        require_matplotlib()
    matrices = load_matrices(args, args.files)
    n_boot, seed = boot_args(args)
    check_boot_workload(args, n_boot, matrices)
    _check_halves_workload(args, matrices)
    reports = {}
    for name, matrix in matrices.items():
        check_top_k_fits(args.top_k, args.m, len(identical_runs(matrix, name=name).keep),
                         names=("--top-k", "--m"), where=name)
        try:
            with reporting_warnings(about=name, when_done=True):     # e.g. the copies of runs
                reports[name] = collection_report(
                    matrix, top_k=args.top_k, m=args.m, alpha=args.alpha, beta=args.beta,
                    target=args.target, level=args.level, a=args.a, b=args.b, min_d=args.min_d,
                    trials=args.trials, seed=args.seed, n_boot=n_boot)
        except InputError as exc:
            raise InputError(f"{name}: {exc}") from exc
    if args.plot is not None:
        _plot(reports, args.plot)
    if args.csv:
        print_frame(_wide(reports), csv=True)
        return 0
    first = next(iter(reports.values()))
    print_frame(_readable(reports), title=(
        f"Generalizability theory (crossed systems x topics): Erho2 and Phi at the matrix's n "
        f"with {first.level:.0%} intervals (Feldt; Arteaga, Jeyaratnam & Graybill as in "
        f"gt4ireval); the n for the target with the n of those intervals' ends\n"
        f"V_E = one-way residual variance (AIRS 2016 Eq. 1), V_E2 = two-way; "
        f"std-AB with A={args.a:g}, B={args.b:g}; {_ROUNDED}"))
    for name, report in reports.items():
        print()
        print_frame(_differences_table(report), title=(
            f"{name}: differences between run means (all pairs of runs, pairs among the top "
            f"{report.differences.top_k} runs, the best run minus each other run)"))
        print()
        attrs = report.min_d.attrs
        print_frame(_min_d_table(report), title=(
            f"{name}: minD values that occur between its runs, and Sakai's n "
            f"(alpha={report.alpha:g}, beta={report.beta:g}, m={report.m}; two-way has no "
            f"legacy approximation)\ntop-k rows corrected for selection: the top "
            f"{attrs['top_k']} picked on a random half of the topics, measured on the other "
            f"half, mean over {attrs['trials']} halves (seed {attrs['seed']}); uncorrected = on "
            f"all topics\nmc_se = Monte Carlo standard error of a corrected min_d over those "
            f"halves (how far another --seed moves it; four times the --trials halves it)\n"
            f"share = of the row's pairs, those differing by at least min_d; se = "
            f"standard error of a paired difference on the past topics; above noise = min_d >= "
            f"{attrs['critical']:.2f} se (paired t-test, alpha={report.alpha:g}); "
            f"{_ROUNDED}"))
        for line in table_notes(report.min_d, option="--trials"):
            print(f"note: {name}: {line}")
        if report.n_intervals:
            print()
            print_frame(_interval_table(report), title=(
                f"{name}: Sakai's n [low, high] (the n above, with their uncertainty)\n"
                + interval_note(report.level, n_boot, seed,
                                f"its {report.summary.topics} topics",
                                count=report.summary.topics)
                + "\n" + MIN_D_HELD_FIXED))
    if any(r.gstudy.negative for r in reports.values()):
        print("note: a negative variance component estimate was set to 0 (see 'negative')")
    if args.plot is not None:
        print(f"wrote {args.plot}")
    return 0


#: Seconds per random half of the top-k candidates, and scores (topics x runs) a second they go
#: through beyond it, measured on a loaded 2-core machine at 2,000 to 64,000 halves (wall
#: time): TREC 2010 Web AP (48 x 88) 5.2 us a half, TREC 2004 Robust (249 x 110) 9 us, random
#: 100 x 2,000 135 us, 1,000 x 1,000 115 us (the estimate errs high for many topics). A single
#: rate of 1e8 scores a second (1,000 halves of Web in 0.034 s, mostly fixed costs) put the
#: default 64,000 halves of a 1,000 x 1,000 matrix at 11 minutes (refused); they take 7 s.
_HALF_SECONDS, _HALF_CELLS_PER_SECOND = 5e-6, 1.5e9


def _check_halves_workload(args, matrices) -> None:
    """Refuse (without --force) or announce --trials halves that would take long."""
    from .workload import check_workload

    cells = sum(matrix.size for matrix in matrices.values())
    check_workload(f"--trials {args.trials:,} halves of {cells:,} scores",
                   seconds=args.trials * (len(matrices) * _HALF_SECONDS
                                          + cells / _HALF_CELLS_PER_SECOND),
                   force=args.force)


#: The tables round V_E and min_d (4 decimals, 3 significant digits below .001), and the n of
#: a rounded figure can be topics off (TREC 2010 Web's top-k range, 0.008012 shown as 0.0080:
#: 4,089 one-way legacy topics, not 4,097): said in both tables' titles.
_ROUNDED = ("the figures are rounded: copy a V_E or a min_d from --csv, which has every digit "
            "(the n of a rounded one can be topics off)")


def _readable(reports):
    import pandas as pd

    def interval(v, lo, hi):
        return f"{v:.4f} [{lo:.4f}, {hi:.4f}]"

    columns = {}
    for name, r in reports.items():
        s, g, d, gt = r.summary, r.gstudy, r.dstudy, r.gt_n_intervals()
        columns[name] = {
            "runs": str(s.runs), "topics": str(s.topics),
            "V_E raw": fixed(s.var_raw), "V_E std-AB": fixed(s.var_std_ab),
            "V_E2 raw": fixed(s.var2_raw), "V_E2 std-AB": fixed(s.var2_std_ab),
            "sigma2_s (systems)": fixed(g.var_s, 6), "sigma2_t (topics)": fixed(g.var_t, 6),
            "sigma2_e (residual)": fixed(g.var_e, 6),
            "negative set to 0": ", ".join(g.negative) or "none",
            f"Erho2 at n={s.topics} [CI]": interval(d.erho2, d.erho2_low, d.erho2_high),
            f"Phi at n={s.topics} [CI]": interval(d.phi, d.phi_low, d.phi_high),
        }
        for label, n, ci in ((f"n for Erho2 >= {r.target:g} [CI]", r.n_erho2, gt["erho2"]),
                             (f"n for Phi >= {r.target:g} [CI]", r.n_phi, gt["phi"])):
            columns[name][label] = f"{n:g} [{ci.low:g}, {ci.high:g}]"
    # the topic counts differ between matrices: one row label for all
    frame = pd.DataFrame({name: list(c.values()) for name, c in columns.items()},
                         index=[_generic(k) for k in next(iter(columns.values()))])
    return frame


def _generic(label: str) -> str:
    """'Erho2 at n=48 [CI]' -> 'Erho2 at own n [CI]'."""
    import re

    return re.sub(r"at n=\d+", "at own n", label)


def _differences_table(report):
    table = report.differences.table.astype(object)
    for label in table.index:
        table.loc[label] = [f"{v:.0f}" if label == "pairs" else fixed(v)
                            for v in report.differences.table.loc[label]]
    return table


def _min_d_table(report):
    import pandas as pd

    from ..decide.realistic import MC_SE_COLUMN, SHOWN_COLUMNS

    table = report.min_d[list(SHOWN_COLUMNS)].copy()      # mc_se before the n it moves
    for column in ("min_d", "uncorrected", "se"):
        table[column] = table[column].map(lambda v: "" if v != v else fixed(v))
    # one digit more than min_d: at the default 64,000 halves it is about 1e-4
    table[MC_SE_COLUMN] = table[MC_SE_COLUMN].map(lambda v: "" if v != v else fixed(v, 5))
    table["share"] = table["share"].map(lambda v: "" if v != v else f"{v:.1%}")
    table["above noise"] = table["above noise"].map({True: "yes", False: "no"})
    for column in (c for c in SHOWN_COLUMNS if c.startswith("n ")):   # no n: the notes say why
        table[column] = table[column].map(lambda v: "none" if v is pd.NA else str(v))
    return table.rename_axis(None)


def _interval_table(report):
    """Each candidate's n beside its interval: ``466 [323, 623]``."""
    import pandas as pd

    from ..report import interval_end_text, interval_table

    table = interval_table(report)
    out = pd.DataFrame({"min_d": table["min_d"].map(fixed)}, index=table.index)
    for name, ci in report.n_intervals.items():
        out[name] = [("" if pd.isna(n) else
                      f"{n} [{interval_end_text(lo)}, {interval_end_text(hi)}]")
                     for n, lo, hi in zip(table[name], ci.lower, ci.upper)]
    return out.rename_axis(None)


def _wide(reports):
    """One CSV row per matrix: the figures, then each candidate's minD, share and n."""
    import pandas as pd

    rows = {}
    for name, r in reports.items():
        row = r.figures().to_dict()
        for candidate, values in r.min_d.iterrows():
            for field, value in values.items():
                row[f"{candidate}: {field}"] = value
        if r.n_intervals:           # the intervals on n: their own columns, after the others
            from ..report import interval_table

            table = interval_table(r)
            for candidate, values in table.iterrows():
                for column in table.columns:
                    if column.endswith((" low", " high")):
                        row[f"{candidate}: {column}"] = values[column]
            first = next(iter(r.n_intervals.values()))
            row.update({"interval level": first.level, "interval method": first.method,
                        "n_boot": first.n_boot, "seed": first.seed})
        # what its n were sized with (a saved file says it): alpha, beta, m, the top k runs of
        # its differences and the reliability target
        row.update({k: row.get(k, v) for k, v in (
            ("alpha", r.alpha), ("beta", r.beta), ("m", r.m), ("top_k", r.differences.top_k),
            ("reliability target", r.target))})
        rows[name] = row
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("matrix")


def _plot(reports, target):
    import numpy as np
    import pandas as pd

    from ..plots import plot_reliability
    from ..report import reliability_curves

    # up to where Phi and the ANOVA power reach their targets (at most 2000 topics)
    ends = [v for r in reports.values() for v in (r.summary.topics, r.n_erho2, r.n_phi,
                                                 r.min_d.loc["top-k range", "n one-way exact"])
            if pd.notna(v) and np.isfinite(float(v))]
    top = min(max(ends), 2000)
    ns = np.unique(np.geomspace(2, max(20, 1.2 * top), 150).round().astype(int))
    first = next(iter(reports.values()))
    plot_reliability({name: reliability_curves(r, ns) for name, r in reports.items()}, target,
                     lines=((first.target, f"target Eρ², Φ = {first.target:g}"),
                            (1 - first.beta, f"power 1 − β = {1 - first.beta:g}")),
                     title=(f"Eρ², Φ ({first.level:.0%} bands) and one-way ANOVA power at the "
                            f"top-{first.differences.top_k} range minD (m={first.m}, "
                            f"α={first.alpha:g}, β={first.beta:g})"))
