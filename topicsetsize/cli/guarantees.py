"""``topicsetsize guarantees``: what n topics guarantee for the ANOVA, t-test and CI designs.

For each n and each m: the minimum detectable range minD of a one-way ANOVA over m systems (or,
with --design anova2, of a two-way ANOVA at V_E2);
for each n: the paired t-test's minimum detectable difference minDt and the expected width of
the 100(1 - alpha)% CI of a difference (Sakai, IRJ 2016). The variance of the per-topic
differences defaults to 2 x variance.
"""

from __future__ import annotations

from ._common import number, numbers, print_frame
from ._inputs import add_design_options


def register(sub, designs) -> None:
    """Add the ``guarantees`` sub-command."""
    p = sub.add_parser("guarantees", help="what n topics guarantee: minD per m, minDt, CI width",
                       description=__doc__.split("\n\n")[1])
    p.add_argument("--n", type=numbers("n", whole=True), required=True,
                   help="numbers of topics, e.g. 100 or 50,100 or 50-60")
    p.add_argument("--variance", type=number("variance"), required=True,
                   help="within-system variance V_E (V_E2 with --design anova2)")
    p.add_argument("--m", type=numbers("m", whole=True), default=None,
                   help="numbers of systems (default 2,5,10,20,50,100)")
    p.add_argument("--alpha", type=number("alpha"), default=0.05,
                   help="significance level, and 1 - confidence of the CI (default .05)")
    p.add_argument("--beta", type=number("beta"), default=0.20,
                   help="Type II error probability; power = 1 - beta (default .20)")
    p.add_argument("--variance-t", type=number("variance_t"), default=None,
                   help="variance of the per-topic differences (default 2 x variance)")
    add_design_options(p, variance="--variance")
    p.add_argument("--csv", action="store_true",
                   help="print the table as CSV (full precision), without the statements")
    p.set_defaults(handler=run)


def run(args) -> int:
    """Compute the guarantees and print the table and the statements."""
    from ..decide.anova_designs import AS_OPTION, check_design
    from ..decide.guarantee import DEFAULT_MS, TABLE_DECIMALS, guarantees, percent_text, round_up
    from .design import design_caveat

    args.design, args.method = check_design(args.design, args.method, said=AS_OPTION)
    result = guarantees(args.n, variance=args.variance,
                        ms=DEFAULT_MS if args.m is None else args.m, alpha=args.alpha,
                        beta=args.beta, variance_t=args.variance_t, method=args.method,
                        design=args.design)
    if result.note:         # the legacy guarantees under the exact tests: on stderr (as n's)
        import warnings

        warnings.warn(result.note, UserWarning, stacklevel=1)
    if args.csv:
        table = result.table
        if result.method == "legacy":   # beside the legacy minD and minDt, the exact tests',
            # which the text's statements give where the legacy ones fall short (a review,
            # 2026-12-07: the CSV kept only the legacy values)
            from .. import anova_min_d, ttest_min_dt

            n, m = table["n"].to_numpy(), table["m"].to_numpy()
            given = dict(alpha=result.alpha, beta=result.beta, method="exact")
            table = table.assign(
                min_d_exact=anova_min_d(n, m=m, variance=result.variance, **given),
                min_dt_exact=ttest_min_dt(n, variance_t=result.variance_t, **given))
        print_frame(table.assign(method=result.method, design=result.design,
                                 alpha=result.alpha, beta=result.beta, variance=result.variance,
                                 variance_t=result.variance_t), csv=True, index=False)
        design_caveat(csv=True, instead=_INSTEAD, design=args.design)
        return 0
    shown = result.table.copy()
    for column in ("min_d", "min_dt", "ci_delta"):      # rounded up: never below the truth
        shown[column] = round_up(shown[column].to_numpy(), decimals=TABLE_DECIMALS)
    print_frame(shown, index=False, title=(
        "What n topics guarantee: "
        + ("min_d of the two-way ANOVA (topics as blocks), variance = V_E2; "
           if args.design == "anova2" else "") +
        f"variance={result.variance:.15g}, "
        f"variance_t={result.variance_t:.15g}, alpha={result.alpha:.15g}, "
        f"power={percent_text(result.beta)} ({result.method}); values rounded up, in the "
        "statements too (to two decimals, or two significant digits below 0.1)"))
    print()
    print("\n".join(result.statements()))
    if args.variance_t is None and args.design == "anova2":     # 2·V_E2: the pairs' mean
        print(f"note: variance_t = 2 x V_E2 = {result.variance_t:.15g} is the mean, over the "
              "past runs' pairs, of the variance of their per-topic differences (as "
              "`topicsetsize variance` says it): --variance-t sets another")
    elif args.variance_t is None:     # σt² taken as 2·V_E: on the safe side, and how far
        print(f"note: variance_t = 2 x variance = {result.variance_t:.15g} treats the two runs "
              "as independent; runs that score alike on the same topics vary less in their "
              "per-topic differences (2 x V_E2 of `topicsetsize variance` is the mean over a "
              "matrix's run pairs), and give a smaller min_dt and CI width: --variance-t sets it")
    if result.note:     # some statement fails under the exact tests: said beside them, so that
        print(f"note: {result.note}")      # they are never copied without it
    beyond = _beyond_scores(result)
    if beyond:
        print(f"note: {beyond}")
    from ..decide.wording import ESTIMATED_VARIANCES

    # what n "guarantees" holds at the variance given: V_E, or V_E2 for the two-way design
    print(f"note: {ESTIMATED_VARIANCES[args.design]}")
    design_caveat(instead=_INSTEAD, design=args.design)   # the minD column's design
    return 0


#: How this command gives the two-way design's minD, said after the one-way design's caveat.
_INSTEAD = "here: --design anova2, with V_E2 as --variance"


def _beyond_scores(result) -> str | None:
    """One line where the table shows a difference more than scores in [0, 1] can show (a
    minD or minDt above 1, a CI width above 2) at variances that fit such scores: there, n
    topics detect nothing (:func:`~topicsetsize.designs.scales.beyond_scores` for one answer)."""
    from ..designs.scales import beyond_bound

    places = []
    for n, rows in result.table.groupby("n", sort=False):
        over_d = beyond_bound("min_d", rows.min_d, "variance", result.variance)
        over = [f"min_d (m = {', '.join(str(m) for m in rows.m[over_d])})" * bool(over_d.any()),
                "min_dt" * bool(beyond_bound("min_dt", rows.min_dt.iloc[0], "variance_t",
                                             result.variance_t)),
                "ci_delta" * bool(beyond_bound("delta", rows.ci_delta.iloc[0], "variance_t",
                                               result.variance_t))]
        if any(over):
            places.append(f"n = {n}: {', '.join(filter(None, over))}")
    if not places:
        return None
    return ("scores in [0, 1] differ by at most 1 (a CI of a difference spans at most 2), and "
            "the variances fit such scores: where the table shows more "
            f"({'; '.join(places)}), those topics detect no difference such scores can show")
