"""`topicsetsize n`, `topicsetsize table` and `topicsetsize min-d`: the design engine."""

from __future__ import annotations

import argparse
import math
import sys

from ._common import (around_n, ceil_sig, check_distinct, float_list, floor_power, int_list,
                      number, print_frame, progress)
from ..errors import InputError

_METHODS = ("legacy", "exact", "both")


def register(sub, designs) -> None:
    """Add the ANOVA, t-test and CI designs to the `n`, `table` and `min-d` groups."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--alpha", type=number("alpha"), default=0.05,
                        help="significance level (default .05)")
    common.add_argument("--csv", action="store_true", help="print CSV instead of a table")
    errors = argparse.ArgumentParser(add_help=False, parents=[common])
    errors.add_argument("--beta", type=number("beta"), default=0.20,
                        help="Type II error probability; power = 1 - beta (default .20)")
    methods = argparse.ArgumentParser(add_help=False)
    methods.add_argument("--method", choices=_METHODS, default="legacy",
                         help="legacy = the legacy Excel tools' approximations (default); "
                              "exact = noncentral t and F; both = show both")

    n_sub = designs["n"]
    p = n_sub.add_parser("anova", parents=[errors, methods],
                         help="one-way ANOVA over m systems (minimum range minD)")
    p.add_argument("--min-d", type=number("min_d"), required=True, help="minimum detectable range")
    p.add_argument("--variance", type=number("variance"), required=True,
                   help="within-system variance")
    p.add_argument("--m", type=number("m"), required=True, help="number of systems")
    p.set_defaults(handler=_n_anova)
    p = n_sub.add_parser("ttest", parents=[errors, methods],
                         help="paired t-test between two systems")
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--min-dt", type=number("min_dt"), help="minimum detectable difference")
    group.add_argument("--min-delta-t", type=number("min_delta_t"),
                       help="minimum detectable effect size")
    p.add_argument("--variance-t", type=number("variance_t"),
                   help="variance of per-topic differences (with --min-dt)")
    p.set_defaults(handler=_n_ttest)
    p = n_sub.add_parser("ci", parents=[common], help="expected CI width of a difference")
    p.add_argument("--delta", type=number("delta"), required=True, help="largest expected CI width")
    p.add_argument("--variance-t", type=number("variance_t"), required=True,
                   help="variance of per-topic differences")
    p.set_defaults(handler=_n_ci)

    t_sub = designs["table"]
    p = t_sub.add_parser("anova", parents=[errors, methods], help="rows m, columns minD")
    p.add_argument("--m", type=int_list, required=True, help="e.g. 2,10,20 or 2-10")
    p.add_argument("--min-d", type=float_list, required=True, help="e.g. 0.02,0.05,0.1")
    p.add_argument("--variance", type=number("variance"), required=True,
                   help="within-system variance")
    p.set_defaults(handler=_table_anova)
    p = t_sub.add_parser("ttest", parents=[errors, methods], help="rows variance_t, columns minDt")
    p.add_argument("--min-dt", type=float_list, required=True, help="e.g. 0.02,0.05,0.1")
    p.add_argument("--variance-t", type=float_list, required=True, help="one or more, e.g. 0.1,0.2")
    p.set_defaults(handler=_table_ttest)

    d_sub = designs["min-d"]
    p = d_sub.add_parser("anova", parents=[errors, methods], help="minimum detectable range minD")
    p.add_argument("--n", type=number("n"), required=True, help="number of topics")
    p.add_argument("--m", type=number("m"), required=True, help="number of systems")
    p.add_argument("--variance", type=number("variance"), required=True,
                   help="within-system variance")
    p.set_defaults(handler=_min_d_anova)
    p = d_sub.add_parser("ttest", parents=[errors, methods], help="minimum detectable minDt")
    p.add_argument("--n", type=number("n"), required=True, help="number of topics")
    p.add_argument("--variance-t", type=number("variance_t"), required=True,
                   help="variance of per-topic differences")
    p.set_defaults(handler=_min_d_ttest)


#: How a missing value is shown in a readable table, and the note printed under it.
_UNDEFINED = "undefined"
_NO_TEST = "-"
_NOTES = {
    _UNDEFINED: "undefined: the legacy power (Nagata's approximation, Sakai IRJ 2016) has no "
                "value at so few topics (cA - a <= 0; the Excel tool shows #NUM!)",
    _NO_TEST: "-: fewer than 2 topics, no test",
}


def _methods(args) -> tuple[str, ...]:
    return ("legacy", "exact") if args.method == "both" else (args.method,)


def _report(title: str, rows: list[dict], args, *, n_column: str = "n") -> None:
    """Print the rows; NaN cells are empty in CSV and spelled out (with a note) in a table.
    ``n_column`` holds the topic set size (``n per system`` in the unpaired designs).

    Plain Python, no pandas: a one-answer command then starts in about the time of importing
    numpy and scipy.special. The layout is that of ``DataFrame.to_string`` (index ``method``).
    """
    columns = [c for c in rows[0] if c != "method"]
    if args.csv:
        import csv

        out = csv.writer(sys.stdout, lineterminator="\n")
        out.writerow(["method", *columns])
        for row in rows:
            out.writerow([row["method"], *(_csv_cell(row[c]) for c in columns)])
        return
    huge = any(isinstance(v, float) and math.isfinite(v) and abs(v) >= 1e16
               for row in rows for v in row.values())
    used, cells = [], []
    for row in rows:
        line = []
        for column in columns:
            value = row[column]
            if isinstance(value, float) and value != value:
                mark = _NO_TEST if _fewer_than_two(column, row.get(n_column)) else _UNDEFINED
                used.append(mark)
                line.append(mark)
            else:
                line.append(_cell_text(value, huge))
        cells.append(line)
    left = max(len("method"), *(len(row["method"]) for row in rows))
    widths = [max(len(c), *(len(line[i]) + 1 for line in cells)) for i, c in enumerate(columns)]
    print(title)
    print(" " * left + "".join(f" {c:>{w}}" for c, w in zip(columns, widths)))
    print("method".ljust(left + sum(w + 1 for w in widths)))
    for row, line in zip(rows, cells):
        print(row["method"].ljust(left) + "".join(f" {t:>{w}}" for t, w in zip(line, widths)))
    for mark in dict.fromkeys(used):
        print(_NOTES[mark])


def _cell_text(value, huge: bool) -> str:
    """A cell as ``DataFrame.to_string`` shows it: floats to 6 decimals without trailing zeros
    (``1.0``, ``0.13774``), or each in its shortest exact form once one is from 1e16 up."""
    if not isinstance(value, float):
        return str(value)
    if huge or not math.isfinite(value):
        return repr(value)
    text = f"{value:.6f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def _csv_cell(value):
    """A cell as ``DataFrame.to_csv`` writes it: NaN empty, a float in its shortest form."""
    return "" if isinstance(value, float) and value != value else value


def _fewer_than_two(column: str, n) -> bool:
    """True where a ``...(n-1)`` column has fewer than 2 topics to test."""
    return column.endswith("(n-1)") and n - 1 < 2


def _validate(**values) -> None:
    """Check the arguments against their declared ranges (numpy only) before the engine and
    scipy are imported: a rejected value answers at once, with the engine's own message."""
    from ..params import check_all

    check_all(**values)


def _power_rows(n_of, power_of, args):
    rows = []
    for method in _methods(args):
        n = n_of(method)
        rows.append({"method": method, "n": n,
                     **around_n(n, lambda k, meth=method: floor_power(power_of(k, meth)),
                                "power", missing=float("nan"))})
    return rows


def _n_anova(args) -> None:
    _validate(alpha=args.alpha, beta=args.beta, min_d=args.min_d, variance=args.variance,
              m=args.m)
    from ..designs.anova import anova_power
    from ..designs.anova import anova_n

    rows = _power_rows(
        lambda meth: anova_n(args.alpha, beta=args.beta, min_d=args.min_d,
                             variance=args.variance, m=args.m, method=meth),
        lambda n, meth: anova_power(n, m=args.m, min_d=args.min_d, variance=args.variance,
                                    alpha=args.alpha, method=meth), args)
    _report(f"One-way ANOVA: m={args.m:.15g} systems, minD={args.min_d:.15g}, "
            f"variance={args.variance:.15g},"
            f" alpha={args.alpha:.15g}, beta={args.beta:.15g}", rows, args)


def _n_ttest(args) -> None:
    if args.min_dt is not None:
        if args.variance_t is None:
            raise InputError("--min-dt needs --variance-t (or give --min-delta-t instead)")
        min_dt, var_t = args.min_dt, args.variance_t
        label = f"minDt={min_dt:.15g}, variance_t={var_t:.15g}"
    else:
        if args.variance_t is not None:
            raise InputError("--variance-t goes with --min-dt, not with --min-delta-t")
        min_dt, var_t = args.min_delta_t, 1.0
        label = f"minDeltaT={min_dt:.15g}"
    _validate(min_dt=min_dt, variance_t=var_t, alpha=args.alpha, beta=args.beta)
    from ..designs.ttest import ttest_power
    from ..designs.ttest import ttest_n

    rows = _power_rows(
        lambda meth: ttest_n(args.alpha, beta=args.beta, min_dt=min_dt, variance_t=var_t,
                             method=meth),
        lambda n, meth: ttest_power(n, min_dt=min_dt, variance_t=var_t, alpha=args.alpha,
                                    method=meth), args)
    _report(f"Paired t-test: {label}, alpha={args.alpha:.15g}, beta={args.beta:.15g}", rows, args)


def _n_ci(args) -> None:
    _validate(alpha=args.alpha, delta=args.delta, variance_t=args.variance_t)
    from ..designs.ci import ci_delta, ci_n

    n = ci_n(args.alpha, delta=args.delta, variance_t=args.variance_t)
    rows = [{"method": "expected width", "n": n,
             **around_n(n, lambda k: ci_delta(k, variance_t=args.variance_t, alpha=args.alpha),
                        "width", missing=float("nan"))}]
    _report(f"CI width: delta={args.delta:.15g}, variance_t={args.variance_t:.15g}, "
            f"alpha={args.alpha:.15g}", rows, args)


def _print_tables(build, title: str, args) -> None:
    import pandas as pd

    frames = {method: build(method) for method in _methods(args)}
    if args.csv:        # one long table (one header), a row per cell and method
        long = pd.concat([frame.stack().rename("n").reset_index().assign(method=method)
                          for method, frame in frames.items()], ignore_index=True)
        print_frame(long, csv=True, index=False)
        return
    for method, frame in frames.items():
        print_frame(frame, title=f"{title} ({method})")
        print()


#: Cells per chunk of a long ``table anova`` run (one progress-bar step per chunk).
_CHUNK_CELLS = 2000


def _table_anova(args) -> None:
    check_distinct(args, "m", "min_d")
    _print_tables(lambda meth: _anova_table_chunked(args, meth),
                  f"ANOVA topic set sizes: variance={args.variance:.15g}, alpha={args.alpha:.15g}, "
                  f"beta={args.beta:.15g}; rows m, columns minD", args)


def _anova_table_chunked(args, method: str):
    """``anova_table`` over the m values in chunks, with a progress bar for long runs."""
    import pandas as pd

    from ..designs.anova import anova_table

    rows = max(1, _CHUNK_CELLS // max(1, len(args.min_d)))
    chunks = [args.m[i:i + rows] for i in range(0, len(args.m), rows)]
    parts = []
    with progress(len(chunks), f"table anova ({method})", disable=None if len(chunks) > 1
                  else True) as bar:
        for chunk in chunks:
            parts.append(anova_table(args.alpha, beta=args.beta, variance=args.variance,
                                     ms=chunk, min_ds=args.min_d, method=method))
            bar.update(1)
    return pd.concat(parts) if len(parts) > 1 else parts[0]


def _table_ttest(args) -> None:
    from ..designs.ttest import ttest_table

    check_distinct(args, "variance_t", "min_dt")
    _print_tables(lambda meth: ttest_table(args.alpha, beta=args.beta,
                                           variance_t=args.variance_t, min_dts=args.min_dt,
                                           method=meth),
                  f"Paired t-test topic set sizes: alpha={args.alpha:.15g}, beta={args.beta:.15g}; "
                  "rows variance_t, columns minDt", args)


def _min_d_anova(args) -> None:
    _validate(n=args.n, m=args.m, variance=args.variance, alpha=args.alpha, beta=args.beta)
    from ..designs.anova import anova_min_d

    rows = [{"method": meth, "min_d": ceil_sig(anova_min_d(
        args.n, m=args.m, variance=args.variance, alpha=args.alpha, beta=args.beta,
        method=meth))}
        for meth in _methods(args)]
    _report(f"Minimum detectable range: n={args.n:.15g} topics, m={args.m:.15g} systems, "
            f"variance={args.variance:.15g}, alpha={args.alpha:.15g}, beta={args.beta:.15g}",
            rows, args)


def _min_d_ttest(args) -> None:
    _validate(n=args.n, variance_t=args.variance_t, alpha=args.alpha, beta=args.beta)
    from ..designs.ttest import ttest_min_dt

    rows = [{"method": meth, "min_dt": ceil_sig(ttest_min_dt(
        args.n, variance_t=args.variance_t, alpha=args.alpha, beta=args.beta, method=meth))}
        for meth in _methods(args)]
    _report(f"Minimum detectable difference: n={args.n:.15g} topics, "
            f"variance_t={args.variance_t:.15g}, alpha={args.alpha:.15g}, "
            f"beta={args.beta:.15g}", rows, args)
