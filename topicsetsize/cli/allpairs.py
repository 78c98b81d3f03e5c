"""``topicsetsize n allpairs``: topics for Tukey's HSD to detect every pair at least minD apart.

Runs :func:`topicsetsize.designs.allpairs.allpairs_n` (a simulation with common random numbers)
with a
progress bar and prints the answer n with the simulated powers at n − 1 and n and their
standard errors.
"""

from __future__ import annotations

import math
import sys

from ._common import checked, fresh_seed, number, print_frame, progress, records_frame
from .workload import check_workload

#: Simulated trial x system cells a second, the search over n included: measured on a 2-core
#: machine (--m 100 --trials 1000000: 1e8 cells in 9.6 s).
_CELLS_PER_SECOND = 1e7

_CONFIGURATIONS = ("least-favourable", "equally-spaced")
_TARGETS = ("all-pairs", "best-worst")


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
                    "minD apart (every pair must be detected). Neither bounds the others: means "
                    "in two clusters minD apart put more pairs at exactly minD and need more "
                    "topics.")
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
    p.add_argument("--configuration", choices=_CONFIGURATIONS, default="least-favourable",
                   help="the true means (default least-favourable: only the best and the worst "
                        "are minD apart; equally-spaced: every neighbour, all pairs detected)")
    p.add_argument("--target", choices=_TARGETS, default="all-pairs",
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
    check_workload(f"{trials:,} trials x {m} systems", seconds=trials * m / _CELLS_PER_SECOND,
                   force=args.force)
    from ..designs.allpairs import allpairs_n
    from ..designs.scales import warn_scale
    from ..designs.tukey_pair import one_pair_n

    warn_scale({"min_d": args.min_d, "variance": args.variance}, given=True)

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
    if args.csv:
        print_frame(table, csv=True)
        return 0
    exact = one_pair_n(args.alpha, args.beta, args.min_d, args.variance, args.m,
                       configuration=args.configuration, target=args.target)
    if exact is None:           # pairs at once: the simulation is the answer
        answer = (f"n = {result.n} (simulated power at n-1 and n; the answer carries Monte "
                  "Carlo error)")
    else:   # one pair to detect: its power in closed form leads, the simulation checks it
        below = "" if exact.power_below is None else f"{exact.power_below:.4f} at n-1, "
        answer = (f"n = {exact.n} without simulation (power {below}{exact.power:.4f} at n: the "
                  "target is one pair, whose power is a noncentral t tail at Tukey's critical "
                  f"value); the simulation below checks it: n = {result.n}, with Monte Carlo "
                  "error")
    print_frame(table.round(4), title=(
        f"Tukey HSD, all pairs: m={args.m:.15g} systems, minD={args.min_d:.15g}, "
        f"variance={args.variance:.15g}, alpha={args.alpha:.15g}, beta={args.beta:.15g}, "
        f"{args.configuration}, target {args.target}, {trials} trials per n, seed={seed}\n"
        + answer))
    if args.configuration == "least-favourable" and args.m > 2:
        print("note: least-favourable: only the best and the worst system are minD apart (the "
              "others at their midpoint), so every pair at least minD apart is that one pair and "
              "all_pairs = best_worst; --configuration equally-spaced puts every neighbour minD "
              "apart, every pair to be detected (more topics)")
    return 0
