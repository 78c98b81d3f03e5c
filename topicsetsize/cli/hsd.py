"""``topicsetsize hsd``: randomised Tukey HSD over every run pair of a score matrix.

Reads FILE with the package's reader (or the bundled TREC 2010 Web AP matrix with
``--example``), runs :func:`topicsetsize.checks.tukey.tukey_hsd_randomised` with a progress bar and
prints the pairs sorted by p-value, marking those significant at ``--alpha``. A run identical to
another on every topic is counted once (a copy is not another system); a warning names them.
"""

from __future__ import annotations

from ._common import (
    checked,
    fresh_seed,
    number,
    print_frame,
    progress,
    reporting_warnings,
    with_settings,
)
from ._inputs import add_matrix_input, load_matrix, naming_the_input
from .workload import check_workload


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
    p.add_argument("--force", action="store_true",
                   help="run even where the estimated time or memory is beyond what the machine "
                        "has (or than ten minutes); refused without it")
    p.set_defaults(handler=run_hsd)


#: Estimates of hsd's work from its sizes, measured on a 2-core machine: the trials shuffle
#: 1e8 cells (trials x topics x runs) a second (--example --trials 100000: 4.2e8 cells, 4 s);
#: each pair of runs then costs, in seconds and in bytes of peak memory, as printed as a table
#: or as CSV (10 topics x 1,500 runs, 1.1 million pairs: 39 s and 1.4 GB; 16 s and 0.21 GB).
_CELLS_PER_SECOND = 1e8
_PER_PAIR = {"table": (35e-6, 1300.0), "csv": (13e-6, 200.0)}


def _check_workload(shape: tuple[int, int], trials: int, args) -> None:
    """Refuse (without --force) or announce a run beyond the machine's memory or ten minutes;
    ``shape`` is (topics, runs tested): the distinct runs (the copies are counted once)."""
    n, m = shape
    pairs = m * (m - 1) // 2
    seconds, nbytes = _PER_PAIR["csv" if args.csv else "table"]
    check_workload(f"{m:,} runs ({pairs:,} pairs) x {trials:,} trials",
                   seconds=trials * n * m / _CELLS_PER_SECOND + pairs * seconds,
                   memory=pairs * nbytes, force=args.force, fewer="runs or --trials")


def run_hsd(args) -> int:
    """All pairs, sorted by p-value; ``*`` marks p <= alpha."""
    from ..params import check

    trials = check("trials", args.trials)
    alpha = check("alpha", args.alpha)
    scores, name = load_matrix(args)    # the choice of input checked first, before numpy
    import numpy as np

    from ..checks.tukey import tukey_hsd_randomised
    from ..matrices.copies import identical_runs

    _check_workload((scores.shape[0], len(identical_runs(scores).keep)), trials, args)
    seed = fresh_seed(args.seed, csv=args.csv)
    with reporting_warnings(about=name, when_done=True), naming_the_input(name), \
            progress(trials, "randomised trials") as bar:
        table = tukey_hsd_randomised(scores, trials=trials, seed=seed, alpha=alpha,
                                     progress=bar.update)
    order = np.lexsort((-table["difference"].abs().to_numpy(), table["p_value"].to_numpy()))
    table = table.iloc[order].reset_index(drop=True)
    if args.csv:        # with its alpha, trials and seed: a saved file says how it was made
        print_frame(with_settings(table, alpha=alpha, trials=trials, seed=seed), csv=True,
                    index=False)
        return 0
    shown = table.assign(significant=table["significant"].map({True: "*", False: ""}))
    shown.index = shown.index + 1
    n, m = table.attrs["topics"], table.attrs["runs"]
    k = len(table.attrs["copies"])
    copies = (f" (of {scores.shape[1]}: {k} {'copy' if k == 1 else 'copies'} counted once)"
              if k else "")
    # which runs V_E2 is of, where `variance` (all runs) gives another (a review, 2026-12-07)
    of = (f" of the {m} distinct runs; `topicsetsize variance` gives that of all "
          f"{scores.shape[1]}" if k else "")
    print_frame(shown.round({"difference": 4, "p_value": 4, "es_hsd": 3}),
                title=f"Randomised Tukey HSD on {name}: {n} topics x {m} runs{copies}, "
                      f"{m * (m - 1) // 2} pairs, {trials} trials, seed={seed}\n"
                      f"difference = mean(run_a) - mean(run_b); es_hsd = difference / "
                      f"sqrt(V_E2), V_E2 = {table.attrs['variance']:.4g} (two-way residual "
                      f"variance{of}); * = p <= {alpha:.15g} ({int(table['significant'].sum())} "
                      "significant)")
    print_undecided(table["p_value"].to_numpy(), alpha, trials)
    print(spread_note(identical_runs(scores).distinct(scores)))
    from ..estimates.variance import ZERO_MEANS, negligible

    if negligible(table.attrs["variance"], float(np.abs(np.asarray(scores, float)).max())):
        print(f"note: V_E2 = 0 (up to rounding): {ZERO_MEANS['two-way']}, so es_hsd is "
              "infinite (or huge) wherever the difference is not 0")
    return 0


def spread_note(runs) -> str:
    """What the test assumes, and how far these runs are from it: each topic's scores
    exchangeable across the runs, spread included (docs/checks.md: runs of equal means and
    unequal spreads raise the family-wise error rate above α), with the least and the largest
    standard deviation of a run's scores over the topics (``runs``: a DataFrame, topics × the
    distinct runs). A review, 2026-12-07, found "the marks of this seed are a valid test"
    printed with no word of the assumption.

    >>> import pandas as pd
    >>> note = spread_note(pd.DataFrame({"a": [0.1, 0.5, 0.9], "b": [0.0, 0.01, 0.02]}))
    >>> note[note.index("; here") + 2:note.index(", and")]
    "here a run's standard deviation over the topics ranges from 0.01 (b) to 0.4 (a)"
    """
    sd = runs.std(ddof=1)
    low, high = sd.idxmin(), sd.idxmax()
    return ("note: the test holds its error rate at alpha where each topic's scores are "
            "exchangeable across the runs (the same distribution, spread included); here a "
            f"run's standard deviation over the topics ranges from {sd[low]:.2g} ({low}) to "
            f"{sd[high]:.2g} ({high}), and runs of unequal spread can raise the family-wise "
            "error rate above alpha (docs/checks.md: 14% at alpha = .05 in a simulation of "
            "equal means and spreads .25 and .02)")


def print_undecided(p_values, alpha: float, trials: int) -> None:
    """Note the pairs whose mark unlimited trials may not share: a p-value within two Monte
    Carlo standard errors of α, SE = √(α(1 − α)/trials), the spread of an estimate about a true
    p of α. Another seed's marks differ more widely (two estimates differ by √2·SE: a review
    found flips down to p = .027 at 1,000 trials, where this band starts at .036). The marks of
    this seed remain an exact randomisation test (p counts the observed arrangement), under the
    assumption :func:`spread_note` states; more trials narrow the band."""
    import numpy as np

    band = 2 * np.sqrt(alpha * (1 - alpha) / trials)
    close = int(np.count_nonzero(np.abs(np.asarray(p_values) - alpha) <= band))
    if close:
        pairs = "pair has" if close == 1 else "pairs have"
        print(f"note: {close} {pairs} a p-value within two Monte Carlo standard errors of alpha "
              f"({alpha:.15g} +- {band:.2g} at {trials} trials): with unlimited trials "
              f"{'its mark' if close == 1 else 'their marks'} may differ, and another seed's "
              "marks differ more widely still; the marks of this seed are an exact randomisation "
              "test (under the assumption below), and more --trials narrow the band")
