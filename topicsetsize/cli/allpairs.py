"""``topicsetsize n allpairs``: topics for Tukey's HSD to detect every pair at least minD apart.

Runs :func:`topicsetsize.designs.allpairs.allpairs_n` (a simulation with common random numbers)
with a
progress bar and prints the answer n with the simulated powers at n − 1 and n and their
standard errors.
"""

from __future__ import annotations

import math
import sys

from ..designs.registry import ALLPAIRS_CONFIGURATIONS, ALLPAIRS_TARGETS
from ._common import (
    checked,
    floor_power,
    fresh_seed,
    number,
    print_frame,
    progress,
    records_frame,
    with_settings,
)
from .workload import check_workload

#: Seconds a simulated trial, and a trial's further seconds a system, the search over n
#: included, measured on a 2-core machine with --min-d 0.1 --variance 0.02 --trials 1000000:
#: --m 5 5.3 s, --m 100 6.8 s (start-up included). A trial costs mostly the same whatever m:
#: the rate of 1e7 trial x system cells a second used before said 0.5 s for --m 5, and "about
#: 50 s" for --trials 1e8, which ran for minutes.
_PER_TRIAL, _PER_SYSTEM = 4.5e-6, 1.6e-8


def register(sub, designs) -> None:
    """Add ``allpairs`` to the ``n`` design group."""
    p = designs["n"].add_parser(
        "allpairs", help="Tukey HSD over m systems: detect every pair >= minD apart (simulated)",
        description="Smallest n at which Tukey's HSD (two-way, topics as blocks) detects every "
                    "pair of systems whose true difference is at least minD with probability "
                    "1 - beta, for the chosen configuration of true means, by simulation with "
                    "common random numbers across n. least-favourable (the F test's): two "
                    "systems minD apart, the rest at their midpoint (only that pair must be "
                    "detected: the easiest case for this target); equally-spaced: neighbours "
                    "minD apart (every pair must be detected); two-clusters: half the systems "
                    "minD above the other half, the most pairs at exactly minD (m = 10: 25, "
                    "against 9 neighbours), the demanding case for all pairs.")
    p.add_argument("--alpha", type=number("alpha"), default=0.05,
                   help="family-wise significance level (default .05)")
    p.add_argument("--beta", type=number("beta"), default=0.20,
                   help="Type II error probability; power = 1 - beta (default .20)")
    p.add_argument("--min-d", type=number("min_d"), required=True,
                   help="minimum detectable difference between two systems")
    p.add_argument("--variance", type=number("variance"), required=True,
                   help="residual variance (two-way V_E2; a one-way V_E is larger on raw scores, "
                        "so errs on the safe side there, but not after std-AB)")
    p.add_argument("--m", type=number("m", key="m_simulated"), required=True,
                   help="number of systems (2..1000)")
    p.add_argument("--configuration", choices=ALLPAIRS_CONFIGURATIONS,
                   default="least-favourable",
                   help="the true means (default least-favourable: only the best and the worst "
                        "are minD apart; equally-spaced: every neighbour; two-clusters: half "
                        "the systems minD above the other half, the most pairs at minD)")
    p.add_argument("--target", choices=ALLPAIRS_TARGETS, default="all-pairs",
                   help="the power to size for (default all-pairs)")
    p.add_argument("--trials", type=number("trials"), default=10000,
                   help="simulated trials per n (default 10000)")
    p.add_argument("--seed", type=checked("seed"),
                   help="random seed (default: a fresh one, printed)")
    p.add_argument("--csv", action="store_true", help="print CSV instead of a table")
    p.add_argument("--force", action="store_true",
                   help="run even where the estimated time is beyond ten minutes; refused "
                        "without it")
    p.set_defaults(handler=run_allpairs)


#: Fewer trials than this get a warning: at power 0.8 the Monte Carlo standard error
#: √(0.8 · 0.2 / trials) is then above 0.0126, and n can move by many topics between seeds.
MIN_RELIABLE_TRIALS = 1000


def run_allpairs(args) -> int:
    """n, and the simulated powers at n − 1 and n."""
    from ..params import check

    trials = check("trials", args.trials)
    m = check("m", args.m, key="m_simulated")
    check_workload(f"{trials:,} trials x {m} systems",
                   seconds=trials * (_PER_TRIAL + _PER_SYSTEM * m), force=args.force)
    from ..designs.allpairs import allpairs_n
    from ..designs.scales import warn_scale
    from ..designs.tukey_pair import one_pair_n

    warn_scale({"min_d": args.min_d, "variance": args.variance}, given=True)
    spread = _spread_beyond_scores(args)
    if spread:
        print(f"topicsetsize: warning: {spread}", file=sys.stderr)

    seed = fresh_seed(args.seed, csv=args.csv)
    with progress(None, "simulated trials") as bar:
        result = allpairs_n(args.alpha, args.beta, args.min_d, args.variance, args.m,
                            configuration=args.configuration, target=args.target,
                            trials=trials, seed=seed, progress=bar.update)
    if trials < MIN_RELIABLE_TRIALS:
        se = math.sqrt(args.beta * (1 - args.beta) / trials)
        power = round(1 - args.beta, 12)        # 1 - 0.999999 is 1.00000000002876e-06
        print(f"topicsetsize: warning: --trials {trials}: too few for a reliable power estimate "
              f"(its standard error at power {power:.12g} is {se:.2g}); use at least "
              f"{MIN_RELIABLE_TRIALS}", file=sys.stderr)
    rows = [r for r in (result.power_below, result.power) if r is not None]
    table = records_frame(rows, {"n": "n", "all_pairs": "all_pairs",
                                 "all_pairs_se": "all_pairs_se", "best_worst": "best_worst",
                                 "best_worst_se": "best_worst_se", "critical_q": "critical"})
    exact = one_pair_n(args.alpha, args.beta, args.min_d, args.variance, args.m,
                       configuration=args.configuration, target=args.target)
    if args.csv:        # the interval on the simulated n beside every row, as n's inputs are,
        # and the answer without simulation where the target is one pair (blank: none; n_high
        # blank: the trials cannot bound it above)
        print_frame(with_settings(
            table, n_low=result.n_low, n_high=result.n_high, level=result.level,
            n_without_simulation=None if exact is None else exact.n, alpha=args.alpha,
            beta=args.beta, min_d=args.min_d, variance=args.variance, m=int(args.m),
            configuration=args.configuration, target=args.target, trials=trials, seed=seed),
            csv=True)
        return 0
    if exact is None:           # pairs at once: the simulation is the answer
        answer = (f"n = {result.n} (simulated power at n-1 and n), with Monte Carlo error: "
                  f"{interval_text(result)}")
    else:   # one pair to detect: its power in closed form leads, the simulation checks it
        places = _distinct_places(exact.power_below, exact.power)
        below = ("" if exact.power_below is None
                 else f"{floor_power(exact.power_below, places):.{places}f} at n-1, ")
        answer = (f"n = {exact.n} without simulation (power {below}"
                  f"{floor_power(exact.power, places):.{places}f} at "
                  "n: the target is one pair, whose power is a noncentral t tail at Tukey's "
                  f"critical value); {_checked(exact.n, result)}")
        if args.m > 2 and args.target == "all-pairs" and args.configuration == "least-favourable":
            # the line a proposal quotes: whose pairs it is for (a review, 2026-12-07)
            answer += " for the least-favourable means, one pair minD apart (the note below)"
    print_frame(table.round(4), title=(
        f"Tukey HSD, all pairs: m={args.m:.15g} systems, minD={args.min_d:.15g}, "
        f"variance={args.variance:.15g}, alpha={args.alpha:.15g}, beta={args.beta:.15g}, "
        f"{args.configuration}, target {args.target}, {trials} trials per n, seed={seed}\n"
        + answer))
    if args.m > 2 and args.target == "all-pairs" and args.configuration != "two-clusters":
        print(_NOTES[args.configuration])
    return 0


def _spread_beyond_scores(args) -> str | None:
    """A warning where equally spaced means span (m − 1)·minD, more than scores in [0, 1] can
    differ, while the variance fits such scores (a review, 2026-12-07: m = 30, minD = .05 asked
    for means 1.45 apart on AP and was answered without a word); else None."""
    from ..designs.scales import beyond_bound

    span = (args.m - 1) * args.min_d
    if args.configuration != "equally-spaced" or not beyond_bound("min_d", span, "variance",
                                                                  args.variance):
        return None
    return (f"equally-spaced means of m={args.m:.15g} systems span (m - 1) x minD = {span:.6g}, "
            f"more than scores in [0, 1] can differ (at most 1), and variance="
            f"{args.variance:.6g} fits such scores: if they lie in [0, 1], no {args.m:.15g} "
            "systems are minD apart in turn (--configuration two-clusters or least-favourable "
            "size for means that fit)")


def _checked(n: int, result) -> str:
    """What the simulation says of the answer ``n`` without simulation: its own n is an
    estimate, which may differ by a topic or two (a review, 2026-12-07: "n = 65 without
    simulation ... the simulation below checks it: n = 64" read as two answers)."""
    within = result.n_low <= n and (result.n_high is None or n <= result.n_high)
    return (f"the simulation below checks it: its estimate is n = {result.n}, "
            f"{interval_text(result)}, which {'holds' if within else 'misses'} {n}"
            f"{'' if within else ' (as such an interval at times does)'}; the answer is n = {n}")


def _distinct_places(below, at_n) -> int:
    """Decimals (4 or more, up to 12) at which the powers at n − 1 and n, truncated (never
    rounded up to the target), differ: at β = .001 both read 0.9990 rounded, as if n − 1
    reached the target, and a review found 0.949961 rounded to 0.9500 at β = .05."""
    places = 4
    while below is not None and places < 12 and (
            floor_power(below, places) >= floor_power(at_n, places)):
        places += 1
    return places


def interval_text(result) -> str:
    """The Monte Carlo interval on a simulated n, in topics, for the answer line."""
    level = f"{100 * result.level:.12g}%"
    if result.n_high is None:
        return (f"{level} interval from {result.n_low} topics, unbounded above at "
                f"{result.power.trials} trials (more --trials bound it; the variance's own "
                "uncertainty is not in it)")
    return (f"{level} interval {result.n_low} to {result.n_high} topics (more --trials "
            "narrow it; the variance's own uncertainty is not in it)")


#: Under each configuration but the demanding one, what its all-pairs n leaves out (a reviewer's
#: find, 2026-12-06: the least-favourable note called equally-spaced "every pair to be detected",
#: where two clusters need more topics still).
_NOTES = {
    "least-favourable": "note: least-favourable: only the best and the worst system are minD "
                        "apart (the others at their midpoint), so every pair at least minD apart "
                        "is that one pair and all_pairs = best_worst; where more pairs may lie "
                        "minD apart, --configuration two-clusters (half the systems minD above "
                        "the other half) sizes for the most such pairs (more topics)",
    "equally-spaced": "note: equally-spaced puts only the m - 1 neighbours exactly minD apart; "
                      "--configuration two-clusters (half the systems minD above the other "
                      "half) puts the most pairs there and needs more topics (m = 10, minD = .1, "
                      "variance = .02: about 70% power for all pairs at the 106 topics that "
                      "equally-spaced sizes for 80%)",
}
