"""How often the 95% interval of n from k past topics holds the n of the whole collection, on
real scores (the figures of
:data:`topicsetsize.estimates.interval_coverage.MEASURED_HIGH_MISSES` and docs/formulas.md §10).

    python tools/interval_coverage.py [--runs 20] [--subsets 400] [--sizes 10,20,30,48]
        [--seed 2026] [--design anova|anova2]

From TREC 2004 Robust AP (tests/data/trec2004robust_ap.csv: 249 topics, its first ``--runs``
runs), ``--subsets`` random sets of k topics (without replacement) for each k of ``--sizes``;
for each, the default interval of the exact one-way n (m = 10, minD = .1, α = .05, β = .2;
:func:`topicsetsize.estimates.uncertainty.n_interval`, 2,000 resamples, expanded percentile),
or with ``--design anova2`` of the two-way n at V_E2 (the interval resampling V_E2)
and whether the n of all 249 topics lies inside, above its upper end or below its lower end.
Prints one line per k: the coverage, the share above and the share below, with the Monte Carlo
standard error of a 95% coverage. 249 topics are a finite population: k near it (100 and more)
covers more than a draw from an endless supply of topics would.
"""

from __future__ import annotations

import argparse
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

import topicsetsize as tss
from topicsetsize.estimates.uncertainty import n_interval

MATRIX = Path(__file__).resolve().parent.parent / "tests" / "data" / "trec2004robust_ap.csv"


#: Each design's n (exact, m = 10, minD = .1, α = .05, β = .2) and residual variance.
DESIGNS = {"anova": (lambda v: tss.anova_n(0.05, 0.2, 0.1, v, 10, method="exact"),
                     tss.residual_variance, "one-way"),
           "anova2": (lambda v: tss.anova2_n(0.05, 0.2, 0.1, v, 10),
                      tss.two_way_residual_variance, "two-way")}


def coverage(scores: pd.DataFrame, k: int, subsets: int, rng,
             design: str = "anova") -> tuple[float, float, float]:
    """(inside, above, below): the shares of ``subsets`` random k-topic subsets of ``scores``
    whose interval of n holds, lies below and lies above the n of all of ``scores``' topics."""
    n_of, variance_of, estimator = DESIGNS[design]
    whole = n_of(variance_of(scores))
    counts = np.zeros(3)
    for t in range(subsets):
        rows = rng.choice(len(scores), k, replace=False)
        ci = n_interval(scores.iloc[rows], n_of, seed=t, estimator=estimator)
        counts[0 if ci.lower <= whole <= ci.upper else 1 if whole > ci.upper else 2] += 1
    return tuple(counts / subsets)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--subsets", type=int, default=400)
    parser.add_argument("--sizes", default="10,20,30,48")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--design", choices=tuple(DESIGNS), default="anova")
    args = parser.parse_args(argv)
    scores = pd.read_csv(MATRIX, index_col=0).iloc[:, :args.runs]
    rng = np.random.default_rng(args.seed)
    se = (0.95 * 0.05 / args.subsets) ** 0.5
    print(f"TREC 2004 Robust AP, {len(scores)} topics x {scores.shape[1]} runs; "
          f"{args.subsets} subsets per size, seed {args.seed}, {DESIGNS[args.design][2]} n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")        # the matrix's copied runs, said elsewhere
        for k in (int(x) for x in args.sizes.split(",")):
            inside, above, below = coverage(scores, k, args.subsets, rng, args.design)
            print(f"k={k}: coverage {inside:.3f} (MC se {se:.3f}), whole n above the upper end "
                  f"{above:.3f}, below the lower end {below:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
