"""``topicsetsize hsd``: randomised Tukey HSD over every run pair of a score matrix.

Reads FILE with the package's reader (or the bundled TREC 2010 Web AP matrix with
``--example``), runs :func:`topicsetsize.checks.tukey.tukey_hsd_randomised` with a progress bar and
prints the pairs sorted by p-value, marking those significant at ``--alpha``.
"""

from __future__ import annotations

from ._common import checked, fresh_seed, number, print_frame, progress
from ._inputs import add_matrix_input, load_matrix


def register(sub, designs) -> None:
    """Add the ``hsd`` sub-command."""
    p = sub.add_parser(
        "hsd", help="randomised Tukey HSD: p-values and effect sizes for every run pair",
        description="Randomised Tukey HSD (Carterette, TOIS 2012; Sakai): each of --trials "
                    "trials shuffles every topic's scores across the runs and records the "
                    "range of the run means; the p-value of a pair is (1 + the trials whose "
                    "range reaches its |mean difference|) / (trials + 1). ES_HSD = mean "
                    "difference / sqrt(two-way residual variance).")
    add_matrix_input(p)
    p.add_argument("--trials", type=number("trials"), default=5000, help="default 5000")
    p.add_argument("--alpha", type=number("alpha"), default=0.05,
                   help="family-wise significance level for the marks (default 0.05)")
    p.add_argument("--seed", type=checked("seed"),
                   help="random seed (default: a fresh one, printed)")
    p.add_argument("--csv", action="store_true", help="print CSV, full precision")
    p.set_defaults(handler=run_hsd)


def run_hsd(args) -> int:
    """All pairs, sorted by p-value; ``*`` marks p <= alpha."""
    import numpy as np

    from ..params import check
    from ..checks.tukey import tukey_hsd_randomised

    trials = check("trials", args.trials)
    alpha = check("alpha", args.alpha)
    scores, name = load_matrix(args)
    seed = fresh_seed(args.seed)
    with progress(trials, "randomised trials") as bar:
        table = tukey_hsd_randomised(scores, trials=trials, seed=seed, progress=bar.update)
    table["significant"] = table["p_value"] <= alpha
    order = np.lexsort((-table["difference"].abs().to_numpy(), table["p_value"].to_numpy()))
    table = table.iloc[order].reset_index(drop=True)
    if args.csv:
        print_frame(table, csv=True, index=False)
        return 0
    shown = table.assign(significant=table["significant"].map({True: "*", False: ""}))
    shown.index = shown.index + 1
    n, m = table.attrs["topics"], table.attrs["runs"]
    print_frame(shown.round({"difference": 4, "p_value": 4, "es_hsd": 3}),
                title=f"Randomised Tukey HSD on {name}: {n} topics x {m} runs, "
                      f"{m * (m - 1) // 2} pairs, {trials} trials, seed={seed}\n"
                      f"difference = mean(run_a) - mean(run_b); es_hsd = difference / "
                      f"sqrt(V_E2), V_E2 = {table.attrs['variance']:.4g} (two-way residual "
                      f"variance); * = p <= {alpha:.15g} ({int(table['significant'].sum())} "
                      "significant)")
    return 0
