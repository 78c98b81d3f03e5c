"""`topicsetsize n|table|min-d anova2`: the two-way ANOVA (randomised block) design."""

from __future__ import annotations

import argparse

from .design import _report
from ._common import (around_n, ceil_sig, check_distinct, float_list, floor_power, int_list,
                      number, print_frame)


def register(sub, designs) -> None:
    """Add ``anova2`` to the ``n``, ``table`` and ``min-d`` design groups."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--alpha", type=number("alpha"), default=0.05,
                        help="significance level (default .05)")
    common.add_argument("--beta", type=number("beta"), default=0.20,
                        help="Type II error probability; power = 1 - beta (default .20)")
    common.add_argument("--csv", action="store_true", help="print CSV instead of a table")
    variance = "two-way (runs x topics) residual variance, e.g. V_E2 of `topicsetsize variance`"
    what = "two-way ANOVA, topics as blocks (exact noncentral F)"

    p = designs["n"].add_parser("anova2", parents=[common], help=f"{what}: n for m systems")
    p.add_argument("--min-d", type=number("min_d"), required=True, help="minimum detectable range")
    p.add_argument("--variance", type=number("variance"), required=True, help=variance)
    p.add_argument("--m", type=number("m"), required=True, help="number of systems")
    p.set_defaults(handler=_n)

    p = designs["table"].add_parser("anova2", parents=[common],
                                    help=f"{what}: rows m, columns minD")
    p.add_argument("--m", type=int_list, required=True, help="e.g. 2,10,20 or 2-10")
    p.add_argument("--min-d", type=float_list, required=True, help="e.g. 0.02,0.05,0.1")
    p.add_argument("--variance", type=number("variance"), required=True, help=variance)
    p.set_defaults(handler=_table)

    p = designs["min-d"].add_parser("anova2", parents=[common], help=f"{what}: minimum range")
    p.add_argument("--n", type=number("n"), required=True, help="number of topics")
    p.add_argument("--m", type=number("m"), required=True, help="number of systems")
    p.add_argument("--variance", type=number("variance"), required=True, help=variance)
    p.set_defaults(handler=_min_d)


def _title(args, what: str) -> str:
    return (f"Two-way ANOVA (runs x topics, without replication): {what}, "
            f"variance={args.variance:.15g}, alpha={args.alpha:.15g}, beta={args.beta:.15g}")


def _n(args) -> None:

    from ..designs.anova2 import anova2_n, anova2_power

    n = anova2_n(args.alpha, args.beta, args.min_d, args.variance, args.m)

    def power(k):
        return floor_power(anova2_power(k, m=args.m, min_d=args.min_d, variance=args.variance,
                                    alpha=args.alpha))
    _report(_title(args, f"m={args.m:.15g} systems, minD={args.min_d:.15g}"),
            [{"method": "exact", "n": n, **around_n(n, power, "power", missing=float("nan"))}],
            args)


def _table(args) -> None:
    from ..designs.anova2 import anova2_table

    check_distinct(args, "m", "min_d")

    frame = anova2_table(args.alpha, beta=args.beta, variance=args.variance, ms=args.m,
                         min_ds=args.min_d)
    if args.csv:
        print_frame(frame.stack().rename("n").reset_index(), csv=True, index=False)
    else:
        print_frame(frame, title=_title(args, "topic set sizes, rows m, columns minD") +
                    " (exact)")


def _min_d(args) -> None:
    import pandas as pd

    from ..designs.anova2 import anova2_min_d

    d = anova2_min_d(args.n, m=args.m, variance=args.variance, alpha=args.alpha, beta=args.beta)
    frame = pd.DataFrame([{"method": "exact", "min_d": ceil_sig(d)}]).set_index("method")
    print_frame(frame, csv=args.csv, title=None if args.csv else _title(
        args, f"minimum detectable range, n={args.n:.15g} topics, m={args.m:.15g} systems"))

