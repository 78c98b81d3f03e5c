"""``topicsetsize reliability`` and ``topicsetsize check-power``: empirical checks of a design.

``reliability`` splits the topics of a score matrix at random into two halves, many times, runs a
paired t-test on every run pair in each half and counts the conflicts between the halves
(Voorhees, SIGIR 2009). ``check-power`` resamples n topics from the matrix and compares the
rejection rate of the ANOVA or the paired t-test with the exact theoretical power. Both read FILE
with the package's reader (or use the bundled TREC 2010 Web AP matrix with ``--example``), show a
progress bar and print a summary table; ``--seed`` makes them reproducible.
"""

from __future__ import annotations

from ..errors import InputError
from ._common import (
    checked,
    fresh_seed,
    number,
    numbers,
    print_frame,
    progress,
    records_frame,
    reporting_warnings,
    with_settings,
)
from ._inputs import add_matrix_input, load_matrix, naming_the_input
from .workload import check_workload

#: Split-half trials (:func:`_split_half_seconds`): cells (topics x runs) split a second, and
#: paired t-tests (run pairs x 2 halves) a second, fitted to the whole commands on a 2-core
#: machine (TREC 2004 Robust AP, 249 x 110, 20,000 trials: 5.9 s; TREC 2010 Web AP, 48 x 88,
#: 50,000 trials: 6.3 s; the estimates 6.7 and 7.4 s). The one rate of 2e8 cells a second used
#: before said 2.7 and 1.1 s: it left out the pairs.
_CELLS_PER_SECOND, _TESTS_PER_SECOND = 2e8, 6e7
#: check-power (:func:`_resampled_seconds`): seconds a trial, and a trial's further seconds a
#: topic of the matrix, a run compared and a topic drawn (the counts' matrix products cost
#: little beside the per-run statistics), fitted to 1,000,000 trials of the whole command on a
#: 2-core machine: TREC 2004 Robust AP (249 topics) n = 5, 20, 249, 1000 with --m 5 (1.2, 1.5,
#: 2.8, 9.2 s), n = 20 with all 110 runs (3.3 s) and TREC 2010 Web AP (48 topics) n = 20 with
#: 2, 5 and all 78 distinct runs (0.9, 1.0, 2.8 s). The rate of 2e8 cells (topics x all runs)
#: a second used before said 411 s for 3,000,000 trials at n = 249 on Robust, which took 13 s.
_TRIAL, _PER_TOPIC, _PER_RUN, _PER_DRAW = 4e-7, 1.5e-9, 2.5e-8, 8e-9
#: A trial draws n topic indices up to this n (``checks.resampling._CHUNK_ELEMENTS``, spelled
#: out so that building the parser imports no numpy; a test checks that they agree), and beyond
#: it the counts at once from their multinomial, whose cost stops growing with n at about
#: _DRAWS_SATURATE draws a topic (measured, 20,000 trials: 48 topics, 6 us a trial from n = 10^5
#: to 10^9; 249 topics, 34 us): ``check-power --example --n 1e9 --trials 50`` was estimated at
#: 7 minutes, and took 1.3 s.
_INDEXED_DRAWS_MAX, _DRAWS_SATURATE = 2 ** 19, 20


def _split_half_seconds(trials: int, halves: int, topics: int, runs: int) -> float:
    """The estimated seconds of ``reliability`` (see :data:`_TESTS_PER_SECOND`).

    >>> round(_split_half_seconds(20000, 1, 249, 110), 1)      # measured: 5.9 s
    6.7
    """
    return trials * halves * (topics * runs / _CELLS_PER_SECOND
                              + runs * (runs - 1) / _TESTS_PER_SECOND)


def _resampled_seconds(trials: int, ns: list[int], topics: int, runs: int) -> float:
    """The estimated seconds of ``check-power`` over ``runs`` compared (see :data:`_TRIAL`).

    >>> round(_resampled_seconds(3_000_000, [249], 249, 110), 1)     # measured: 12.9 s
    16.5
    """
    return trials * sum(_TRIAL + _PER_TOPIC * topics + _PER_RUN * runs
                        + _PER_DRAW * (n if n <= _INDEXED_DRAWS_MAX else _DRAWS_SATURATE * topics)
                        for n in ns)


#: ``topicsetsize.checks.selection.SCORE_KINDS`` and ``topicsetsize.checks.resampling.TESTS``,
#: spelled out so
#: that building the parser imports nothing heavy (a test checks that they agree).
_SCORE_KINDS = ("raw", "std-ab", "std-cdf")
_TESTS = ("anova", "ttest", "anova2")


def register(sub, designs) -> None:
    """Add the ``reliability`` and ``check-power`` sub-commands to the parser."""
    rel = sub.add_parser(
        "reliability",
        help="split-half conflicts of paired t-tests over all run pairs (Voorhees, SIGIR 2009)",
        description="Split the topics at random into two halves, --trials times; run a "
                    "two-sided paired t-test on every run pair in each half and count the "
                    "significant results and the major (both halves significant, opposite "
                    "directions) and minor (one significant, the other favouring the other run) "
                    "conflicts. % conflicted = (2 major + minor) / significant.")
    add_matrix_input(rel)
    rel.add_argument("--topics", metavar="SPEC",
                     help="topics to use, e.g. 351-450 or 301-350,601-700 (ids or ranges)")
    rel.add_argument("--top-runs", type=number("top_runs", key="fraction"), metavar="FRACTION",
                     help="keep the best FRACTION of the runs by mean raw score over all topics "
                          "(rounded up: 0.75 of 110 runs keeps 83)")
    rel.add_argument("--scores", choices=_SCORE_KINDS, default="raw",
                     help="score transform, with per-topic factors from all runs (default raw)")
    rel.add_argument("--half", type=numbers("half", whole=True), metavar="N[,N...]",
                     help="topics per half (default: half the topics); several give the "
                          "conflict rate against the topic set size")
    _common_arguments(rel)
    rel.set_defaults(handler=run_reliability)

    chk = sub.add_parser(
        "check-power",
        help="empirical power at n topics by resampling topics, next to the theoretical power",
        description="Draw N topics with replacement from the matrix, --trials times, and run "
                    "the one-way ANOVA over the M best runs (--test anova2: the two-way ANOVA "
                    "with the topics as blocks; --test ttest: the paired t-test of the best "
                    "against the M-th best run); the full-matrix means are the truth. Prints the "
                    "rejection rate next to the exact noncentral F / t power for that effect.")
    add_matrix_input(chk)
    chk.add_argument("--n", type=numbers("n", whole=True), required=True, metavar="N[,N...]",
                     help="topics per resampled matrix (several: one row each)")
    chk.add_argument("--m", type=number("m"), help="runs compared: the M best by mean score (ANOVA "
                     "default: all distinct runs; t-test default 2: the two best)")
    chk.add_argument("--test", choices=_TESTS, default="anova", help="default anova")
    chk.add_argument("--pair", metavar="RUN,RUN",
                     help="t-test: the two runs to compare (instead of --m)")
    _common_arguments(chk)
    chk.set_defaults(handler=run_check_power)


def _common_arguments(parser) -> None:
    parser.add_argument("--trials", type=number("trials"), default=1000, help="default 1000")
    parser.add_argument("--alpha", type=number("alpha"), default=0.05,
                        help="significance level (default 0.05)")
    parser.add_argument("--seed", type=checked("seed"),
                        help="random seed (default: a fresh one, printed)")
    parser.add_argument("--csv", action="store_true", help="print CSV, full precision")
    parser.add_argument("--force", action="store_true",
                        help="run even where the estimated time or memory is beyond what the "
                             "machine has (or than ten minutes); refused without it")


def run_reliability(args) -> int:
    """Split-half conflicts of the matrix, one row per half size."""
    from ..params import check

    trials = check("trials", args.trials)
    raw, name = load_matrix(args)       # the choice of input checked first, before pandas
    import pandas as pd

    from ..checks.reliability import COPIES, split_half_curve
    from ..checks.selection import select_topics, top_runs, transform_scores
    from ..matrices.copies import identical_runs

    runs = raw.columns if args.top_runs is None else top_runs(raw, fraction=args.top_runs).columns
    if len(runs) < 2 and args.top_runs is None:     # e.g. a folder of one run file
        raise InputError(f"{name} has {len(runs)} run: a split-half experiment compares at "
                         "least 2 runs")
    if len(runs) < 2:           # the option left one: say so
        raise InputError(f"--top-runs {args.top_runs:.15g} keeps 1 of the {raw.shape[1]} runs of "
                         f"{name}: allowed 1/{raw.shape[1]} < --top-runs <= 1 here (a split-half "
                         "experiment compares at least 2 runs)")
    scores = transform_scores(raw, kind=args.scores)[runs]
    if args.topics:
        scores = select_topics(scores, spec=args.topics)
    n, m = scores.shape
    if args.half is None and n < 4:
        raise InputError(f"{name}: {n} topics{' selected' if args.topics else ''}: a split-half "
                         "experiment needs at least 4 topics (two halves of at least 2)")
    halves = args.half or [n // 2]
    check_workload(f"{trials:,} trials x {len(halves)} half size(s) on {n} topics x {m} runs",
                   seconds=_split_half_seconds(trials, len(halves), n, m), force=args.force)
    seed = fresh_seed(args.seed, csv=args.csv)
    with reporting_warnings(about=name, when_done=True):
        identical_runs(scores).warn(COPIES)         # the runs tested, after any selection
        with progress(trials * len(halves), "split-half trials") as bar:
            table = split_half_curve(scores, halves=halves, trials=trials, alpha=args.alpha,
                                     seed=seed, progress=bar.update)
    if args.csv:        # with its settings: a saved file says how it was made
        print_frame(with_settings(table, scores=args.scores, alpha=args.alpha, seed=seed),
                    csv=True)
        return 0
    kept = (f" (the best {100 * args.top_runs:.15g}% of {raw.shape[1]} by mean raw score over all "
            f"{raw.shape[0]} topics)" if args.top_runs is not None else "")
    picked = f" ({args.topics})" if args.topics else ""
    readable = pd.DataFrame({
        "trials": table["trials"],
        "comparisons": table["comparisons"].map("{:,}".format),
        "significant": table["significant"].map("{:,}".format),
        "major": table["major"].map("{:,}".format),
        "minor": table["minor"].map("{:,}".format),
        "% conflicted": table["conflicted_pct"].map(
            lambda x: "-" if x != x else f"{x:.2f}"),       # NaN: no significant comparison
    }, index=table.index)
    print_frame(readable, title=f"Split-half reliability (Voorhees 2009) of {name}: {n} topics"
                f"{picked} x {m} runs{kept}, {args.scores} scores, two-sided paired t-tests at "
                f"alpha={args.alpha:.15g}, seed={seed}\n"
                "comparisons = trials x run pairs x 2 halves;"
                " % conflicted = 100 (2 major + minor) / significant"
                + ("; - where no comparison is significant"
                   if table["conflicted_pct"].isna().any() else ""))
    return 0


def run_check_power(args) -> int:
    """Empirical against theoretical power, one row per n."""
    from ..params import check

    trials = check("trials", args.trials)
    scores, name = load_matrix(args)
    from ..checks.resampling import resampled_power
    from ..matrices.copies import identical_runs

    identical_runs(scores, name=name).require_two("no two runs to compare", name=name)
    pair = None
    if args.pair is not None:
        pair = [p.strip() for p in args.pair.split(",")]
        if args.test != "ttest":
            raise InputError("--pair is only for --test ttest")
        if args.m is not None:          # it was ignored without a word
            raise InputError(f"--pair {args.pair} names the two runs compared: give it or "
                             f"--m {args.m:.15g}, not both")
    topics, runs = scores.shape
    check_workload(f"{trials:,} trials x {len(args.n)} n on {topics} topics x {runs} runs",
                   seconds=_resampled_seconds(trials, args.n, topics, _compared(args, runs)),
                   force=args.force)
    seed = fresh_seed(args.seed, csv=args.csv)
    results = []
    # the copies of runs, counted once, said once (not once an n)
    with reporting_warnings(about=name, when_done=True), \
            progress(trials * len(args.n), "resampled trials") as bar:
        for n in args.n:
            with naming_the_input(name):
                results.append(resampled_power(scores, n=n, trials=trials, alpha=args.alpha,
                                               test=args.test, m=args.m, pair=pair, seed=seed,
                                               progress=bar.update))
    table = records_frame(results, {"n": "n", "empirical": "empirical", "se": "null_se",
                                    "theoretical": "theoretical", "gap": "gap", "z": "z",
                                    "noncentrality": "noncentrality"})
    first = results[0]
    if args.csv:        # with its settings: a saved file says how it was made
        print_frame(with_settings(table, test=first.test, m=first.m, alpha=args.alpha,
                                  trials=trials, seed=seed), csv=True)
        return 0
    covers = f"these {first.m} runs over all {first.topics} topics"
    if first.test == "anova":
        what = (f"one-way ANOVA over the {first.m} runs {_runs(first.runs)}: range of means "
                f"{first.difference:.4f}, V_E {first.variance:.4f} (one-way, of {covers})")
    elif first.test == "anova2":
        what = (f"two-way ANOVA (runs x topics) over the {first.m} runs {_runs(first.runs)}: "
                f"range of means {first.difference:.4f}, two-way V_E {first.variance:.4f} "
                f"(of {covers})")
    else:
        what = (f"paired t-test {first.runs[0]} vs {first.runs[1]}: |mean difference| "
                f"{first.difference:.4f}, variance of differences {first.variance:.4f} "
                f"(over all {first.topics} topics)")
    notes = ["se = sqrt(P(1 - P)/trials) at the theoretical power P (kept half a trial from 0 "
             "and 1): the Monte Carlo error of the empirical power if the theory were right; "
             "z = gap/se"]
    if any(abs(r.z) > 3 for r in results):
        notes.append("|z| > 3: the gap is more than Monte Carlo error: the scores depart from "
                     "the design's model (normal, equal variances, independent scores)")
        repeats = _repeats_note(first.topics, [r.n for r in results if abs(r.z) > 3])
        if repeats:
            notes.append(repeats)
        blocking = _blocking_note(scores, results)
        if blocking:
            notes.append(blocking)
    print_frame(table.round(4), title=f"Resampled power on {name} ({first.topics} topics, "
                f"drawn with replacement), {what}, alpha={args.alpha:.15g}, {trials} trials, "
                f"seed={seed}\n" + "\n".join(notes[:1]))
    for note in notes[1:]:
        print(note)
    return 0


def _repeats_note(topics: int, ns: list[int]) -> str:
    """Where a resampled set of n of the ``topics`` repeats a topic often (at the n in ``ns``):
    a repeat is no new topic (a two-way residual of n = 2 with one topic twice is 0, its F
    infinite), so part of a gap there is the resampling's own (a real-data review, 2026-12-07).

    >>> print(_repeats_note(30, [2, 5, 100]))
    the topics are drawn with replacement: a set repeats a topic with probability 3% at n = 2,
    30% at n = 5, 100% at n = 100 (a real topic set never does): part of the gap there can be the
    resampling's own, not the scores'
    """
    shown = []
    for n in ns:
        distinct = 1.0
        for k in range(min(n, topics + 1)):        # Pr{n draws of `topics` all differ}
            distinct *= max(0.0, 1.0 - k / topics)
        if 1.0 - distinct >= 0.01:
            shown.append(f"{1.0 - distinct:.0%} at n = {n}")
    if not shown:
        return ""
    return ("the topics are drawn with replacement: a set repeats a topic with probability "
            f"{', '.join(shown)} (a real topic set never does): part of the gap there can be "
            "the resampling's own, not the scores'")


def _blocking_note(scores, results) -> str:
    """One line where the one-way test's empirical power is far below its theory and the
    topics carry part of V_E: the one-way design ignores the topic blocking."""
    from ..estimates.variance import residual_variance, two_way_residual_variance

    first = results[0]
    if first.test != "anova" or not any(r.z < -3 for r in results):
        return ""
    x = scores[list(first.runs)].to_numpy(float)
    v1, v2 = residual_variance(x), two_way_residual_variance(x)
    if not v2 < v1:
        return ""
    return (f"the one-way test ignores topic blocking: every run is scored on the same topics, "
            f"which carry {1 - v2 / v1:.0%} of V_E (two-way V_E2 {v2:.4f} against V_E "
            f"{v1:.4f}), so it rejects less often than its theory; --test anova2 blocks on topics")


def _runs(runs: tuple) -> str:
    shown = ", ".join(str(r) for r in runs[:4])
    return f"({shown}{', ...' if len(runs) > 4 else ''})"


def _compared(args, runs: int) -> int:
    """The runs check-power compares: --m, a t-test's 2, else every run of the matrix."""
    if args.m is not None:
        return min(args.m, runs)
    return 2 if args.test == "ttest" else runs
