"""`topicsetsize n ttest2` and `topicsetsize n ci2`: unpaired designs, n topics per system."""

from __future__ import annotations

import argparse

from ._common import around_n, floor_power, number
from .design import _report


def register(sub, designs) -> None:
    """Add ``ttest2`` and ``ci2`` to the ``n`` design group."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--alpha", type=number("alpha"), default=0.05,
                        help="significance level (default .05)")
    common.add_argument("--csv", action="store_true", help="print CSV instead of a table")
    variance = "within-system variance of either system (assumed equal), e.g. a one-way V_E"

    p = designs["n"].add_parser("ttest2", parents=[common],
                                help="two-sample (unpaired) t-test: n topics per system")
    p.add_argument("--beta", type=number("beta"), default=0.20,
                   help="Type II error probability; power = 1 - beta (default .20)")
    p.add_argument("--min-d", type=number("min_d"), required=True,
                   help="minimum detectable difference between the two systems")
    p.add_argument("--variance", type=number("variance"), required=True, help=variance)
    p.set_defaults(handler=_n_ttest2)

    p = designs["n"].add_parser("ci2", parents=[common],
                                help="expected CI width of a difference of two independent "
                                     "means: n topics per system")
    p.add_argument("--delta", type=number("delta"), required=True, help="largest expected CI width")
    p.add_argument("--variance", type=number("variance"), required=True, help=variance)
    p.set_defaults(handler=_n_ci2)


def _n_ttest2(args) -> None:

    from ..designs.ttest2 import ttest2_n, ttest2_power

    n = ttest2_n(args.alpha, args.beta, args.min_d, args.variance)

    def power(k):
        return floor_power(ttest2_power(k, min_d=args.min_d, variance=args.variance,
                                        alpha=args.alpha))
    _report(f"Two-sample (unpaired) t-test: minD={args.min_d:.15g}, variance={args.variance:.15g}, "
            f"alpha={args.alpha:.15g}, beta={args.beta:.15g}",
            [{"method": "exact", "n per system": n, "topics in all": 2 * n,
              **around_n(n, power, "power", missing=float("nan"))}], args, n_column="n per system")


def _n_ci2(args) -> None:

    from ..designs.ci2 import ci2_delta, ci2_n

    n = ci2_n(args.alpha, args.delta, args.variance)

    def width(k):
        return ci2_delta(k, variance=args.variance, alpha=args.alpha)
    _report(f"CI of a difference of two independent means: delta={args.delta:.15g}, "
            f"variance={args.variance:.15g}, alpha={args.alpha:.15g}",
            [{"method": "expected width", "n per system": n, "topics in all": 2 * n,
              **around_n(n, width, "width", missing=float("nan"))}], args,
            n_column="n per system")
