"""``topicsetsize pool-depth``: V_E, required n and assessment cost at shallower pool depths.

Re-judges past runs with the depth-pd pool (the union of every run's top pd documents per topic;
documents outside it count as non-relevant), re-evaluates every run with ir_measures, and
prints, per depth, the documents judged per topic, V_E raw and std-AB and, with --m and --min-d,
the required n and the cost n x documents per topic (Sakai, CIKM 2014, 6.3; n of the one-way
ANOVA, or with --design anova2 of the two-way one at each depth's V_E2), with the share of
the pooled documents that the qrels judge (a warning below 90%; --condensed evaluates each run on
the judged documents only, Sakai, SIGIR 2007). Give --runs and
--qrels once per collection (e.g. two years of a track) to pool them, or --example for the
bundled CLEF 2017 eHealth TAR runs and qrels.
"""

from __future__ import annotations

from ..decide.wording import (
    ROUNDED_UP,
    budget_text,
    documents_text,
    whole_costs,
    whole_documents,
)
from ..errors import InputError
from ..examples import EXAMPLE_RUNS_DEPTH
from ._bootstrap import add_boot_options, boot_args, interval_note
from ._common import (
    number,
    numbers,
    path,
    print_frame,
    progress,
    reporting_warnings,
)
from ._inputs import add_design_options, add_duplicates_option
from .workload import check_bootstrap

#: The depths of ``--example`` when --depths is not given.
EXAMPLE_DEPTHS = [100, 50, 30, 20, 10, 5]


def register(sub, designs) -> None:
    """Add the ``pool-depth`` sub-command to the parser."""
    parser = sub.add_parser(
        "pool-depth",
        help="V_E, required n and assessment cost at shallower pool depths, from past runs "
             "and qrels (Sakai, CIKM 2014)",
        description=__doc__.split("\n\n")[1].replace("\n", " "))
    parser.add_argument("--runs", action="append", type=path, metavar="DIR",
                        help="a folder of TREC run files (qid Q0 docno rank score tag); repeat "
                             "with --qrels for each collection")
    parser.add_argument("--qrels", action="append", type=path,
                        metavar="FILE",
                        help="TREC qrels (qid 0 docno rel), one per --runs, in the same order")
    parser.add_argument("--example", action="store_true",
                        help="the bundled CLEF 2017 eHealth TAR runs (20 runs x 30 topics, top "
                             f"{EXAMPLE_RUNS_DEPTH} documents each: depths up to "
                             f"{EXAMPLE_RUNS_DEPTH}) and qrels; implies --duplicates first")
    add_duplicates_option(parser)
    parser.add_argument("--depths", type=numbers("depths", key="depth", whole=True),
                        metavar="PD[,PD...]",
                        help="pool depths, e.g. 100,50,30,10 (--example: "
                             f"{','.join(map(str, EXAMPLE_DEPTHS))})")
    parser.add_argument("--measure", default="AP",
                        help="an ir_measures measure: AP, nDCG@10, P@10, ... (default AP)")
    parser.add_argument("--m", type=number("m"), help="number of systems (with --min-d)")
    parser.add_argument("--min-d", type=number("min_d"), help="minimum detectable range")
    parser.add_argument("--alpha", type=number("alpha"), default=0.05,
                        help="significance level (default .05)")
    parser.add_argument("--beta", type=number("beta"), default=0.20,
                        help="Type II error probability; power = 1 - beta (default .20)")
    parser.add_argument("--budget", type=number("budget"),
                        help="documents that can be judged in all")
    add_design_options(parser, variance="the V_E each depth's n is sized from")
    parser.add_argument("--variance-from", choices=("raw", "std-ab"), default="raw",
                        help="which V_E (V_E2 with --design anova2) gives n (default raw); with "
                             "std-ab, --min-d is a difference of std-AB scores, not of raw "
                             "scores of the measure")
    parser.add_argument("--condensed", action="store_true",
                        help="evaluate each run on its condensed list: only the documents that "
                             "the pool and the qrels judge (Sakai, SIGIR 2007); default: a "
                             "pooled document the qrels do not judge is non-relevant")
    add_boot_options(parser)
    parser.add_argument("--plot", type=path, metavar="FILE.png",
                        help="write required n against judged documents per topic as a PNG "
                             "(needs matplotlib: pip install 'topicsetsize[plot]')")
    parser.add_argument("--csv", action="store_true", help="print CSV, full precision")
    parser.set_defaults(handler=run)


def run(args) -> int:
    """Read the collections, run the study with a progress bar, print and plot."""
    from ..decide.anova_designs import AS_OPTION, ESTIMATORS, check_design
    from ..decide.pooling import pool_depth_study
    from ..matrices.evaluation import run_sources
    from ..matrices.measures import parse_measure
    from ..params import check
    from .design import design_caveat

    _example_inputs(args)
    if len(args.runs) != len(args.qrels):
        raise InputError(f"give one --qrels per --runs: got {len(args.runs)} --runs and "
                         f"{len(args.qrels)} --qrels")
    if (args.m is None) != (args.min_d is None):
        raise InputError("give both --m and --min-d (the ANOVA design) or neither")
    if args.budget is not None and args.m is None:      # it was dropped without a word
        raise InputError(f"--budget {args.budget:,.15g} needs --m and --min-d (the ANOVA design "
                         "whose n at each depth it is set against)")
    if args.plot is not None:
        if args.m is None:
            raise InputError("--plot needs --m and --min-d (it plots the required n)")
        if not args.plot.lower().endswith(".png"):
            raise InputError(f"--plot {args.plot}: the file name must end in .png")
        from ..plots import require_matplotlib
        require_matplotlib()   # fail before the long work

    # The design, validated before the runs are read (m comes back as an int).
    args.design, args.method = check_design(args.design, args.method, said=AS_OPTION)
    m = check("m", args.m, allow_array=False) if args.m is not None else None
    if args.min_d is not None:
        check("min_d", args.min_d, allow_array=False)
    for key in ("alpha", "beta", "budget"):
        if getattr(args, key) is not None:
            check(key, getattr(args, key), allow_array=False)
    measure = parse_measure(args.measure)
    n_boot, seed = boot_args(args)
    if m is not None and args.min_d is not None:     # the interval is made only then
        check_bootstrap(n_boot, topics=None, runs=None, repeats=len(args.depths),
                        force=args.force)
    # The runs are read one at a time by the study: only their files are listed here.
    total = len(args.depths) * sum(len(run_sources(r)) for r in args.runs)
    with reporting_warnings(), progress(total, f"evaluating runs ({measure})") as bar:
        study = pool_depth_study(list(args.runs), qrels=list(args.qrels), depths=args.depths,
                                 measure=measure, m=m, min_d=args.min_d, alpha=args.alpha,
                                 beta=args.beta, budget=args.budget, method=args.method,
                                 design=args.design,
                                 variance_from=args.variance_from, duplicates=args.duplicates,
                                 condensed=args.condensed, progress=bar.update, n_boot=n_boot,
                                 seed=seed)
    _copies(study, args)
    if study.note:          # the legacy n under the exact power: on stderr too, as budget's
        import warnings

        warnings.warn(study.note, UserWarning, stacklevel=1)
    if args.plot is not None:
        from ..plots import plot_pool_depth

        plot_pool_depth(study, args.plot, cost_text=documents_text, title=(
            f"{measure}, {_sources(args)}: {_DESIGN_NAMES[args.design]}, m={m}, "
            f"minD={args.min_d:.15g}, alpha={args.alpha:.15g}, beta={args.beta:.15g}, "
            f"{args.method}, {_variance_name(args)}"))    # the method, as the table says it
    if args.csv:
        sized = {} if m is None else {     # what n is sized for, as budget's CSV says it
            "design": args.design, "m": m, "min_d": args.min_d, "variance_from": args.variance_from,
            **({"budget": args.budget} if args.budget is not None else {})}
        print_frame(whole_costs(study.table).assign(method=args.method, alpha=args.alpha,
                                                    beta=args.beta, **sized), csv=True)
        if m is not None:
            design_caveat(csv=True, instead=_INSTEAD, design=args.design)
        return 0
    show = study.table.copy()
    show["docs_per_topic"] = show["docs_per_topic"].map("{:.1f}".format)
    show["judged"] = show["judged"].map("{:,}".format)
    show["judged_share"] = show["judged_share"].map(_share)
    for column in ("v_e_raw", "v_e_std_ab", "v_e2_raw", "v_e2_std_ab"):
        if column in show:
            show[column] = show[column].map("{:.4f}".format)
    design = ""
    if "n low" in show:         # the interval on n, as one column after n
        show["n [low, high]"] = [_interval_text(lo, hi) for lo, hi in zip(show.pop("n low"),
                                                                           show.pop("n high"))]
    if "cost high" in show:     # after the interval on n it comes from
        show["cost high"] = show.pop("cost high").map(cost_text)
        show["variance high"] = show.pop("variance high").map("{:.4f}".format)
    if m is not None:
        show["cost"] = show["cost"].map(documents_text)
        for column in ("within_budget", "below_cutoff"):
            if column in show:
                show[column] = show[column].map({True: "yes", False: "no"})
        budget = f", budget={budget_text(args.budget)}" if args.budget is not None else ""
        design = (f"\nn: {_DESIGN_NAMES[args.design]}, m={m}, minD={args.min_d:.15g}, "
                  f"alpha={args.alpha:.15g}, beta={args.beta:.15g}, {args.method}, from "
                  f"{_variance_name(args)}{budget}; "
                  + (f"minD is then a difference of std-AB scores, not of raw {measure} scores; "
                     if args.variance_from == "std-ab" else "")
                  + f"n from the unrounded {_variance_name(args).split()[0]} (the table shows 4 "
                    "decimals: copy a variance "
                    "from --csv, which has every digit); cost = n x docs_per_topic, "
                    f"{ROUNDED_UP}" + (
                      f"; cost high = n high x docs_per_topic; variance high = the "
                      f"{_variance_name(args)} at n high (a budget plan's variance_high)"
                      if study.n_interval is not None else ""))
        if study.n_interval is not None:
            design += "\n" + interval_note(study.n_interval.level, n_boot, seed,
                                           "the past topics (the same resamples at every depth)",
                                           count=int(study.table["topics"].iloc[0]),
                                           estimators=(ESTIMATORS[args.design][0],))
    print_frame(show, title=(
        f"Pool depth study (Sakai, CIKM 2014, 6.3) of {_sources(args)}: {measure} by "
        f"ir_measures, {_pooled(study)} pooled and evaluated; "
        + ("condensed lists: unjudged documents removed (Sakai, SIGIR 2007)" if study.condensed
           else "unjudged = non-relevant")
        + "; judged = pooled documents, judged_share = of them judged by the qrels"
        f"{design}"))
    if m is not None:
        upper_end_note(study)
        if study.cheapest is None:
            print(_no_cheapest(study, args.budget, measure))
        else:
            row = study.cheapest
            within = " within the budget" if args.budget is not None else ""
            between = (" " + _interval_text(row["n low"], row["n high"]) if "n low" in row.index
                       else "")
            print(f"cheapest{within}: pd={int(row.name)}, n={int(row['n'])}{between} topics, "
                  f"{documents_text(row['cost'])} documents judged")
            _below_cutoff_note(study, measure)
            _own_scores_note(study, measure, args.min_d, args.variance_from)
        if study.note:  # the legacy n falls short under the exact power: said beside the
            print(f"note: {study.note}")     # cheapest depth, never copied without it
        design_caveat(instead=_INSTEAD, design=args.design)
    if args.plot is not None:
        print(f"wrote {args.plot}")
    return 0


#: How each design is named in the header over n.
_DESIGN_NAMES = {"anova": "one-way ANOVA", "anova2": "two-way ANOVA (topics as blocks)"}
#: How this command sizes the two-way design, said after the one-way design's caveat.
_INSTEAD = "here: --design anova2, at each depth's V_E2"


def _variance_name(args) -> str:
    """The variance n is sized from: ``V_E raw``, ``V_E2 std-ab``..."""
    from ..decide.anova_designs import variance_name

    return f"{variance_name(args.design)} {args.variance_from}"


def _no_cheapest(study, budget, measure) -> str:
    """Why no depth is the cheapest: none fits the budget, or none is at or above the
    measure's cutoff (the depths below it are no candidates: their n measures the pool)."""
    from ..decide.cutoff import measure_cutoff
    from ..decide.pooling import parse_measure

    if "below_cutoff" in study.table and study.table["below_cutoff"].all():
        k = measure_cutoff(parse_measure(study.measure))
        return (f"no pool depth to recommend: every depth studied is below the cutoff of "
                f"{measure} ({k}), where n measures the pool, not the systems; study depths "
                f"from pd={k} on, or use --condensed")
    return f"no pool depth fits the budget of {budget_text(budget)} documents"


def _below_cutoff_note(study, measure) -> None:
    """Where depths below the measure's cutoff are cheaper than the cheapest depth named (and
    fit the budget), the note says why they were passed over (the warning says more)."""
    if "below_cutoff" not in study.table:
        return
    table = study.table
    cheaper = table[table["below_cutoff"] & (table["cost"] < study.cheapest["cost"])]
    if "within_budget" in cheaper:
        cheaper = cheaper[cheaper["within_budget"]]
    if len(cheaper):
        depths = ", ".join(f"pd={d}" for d in cheaper.index)
        print(f"note: {depths} cost less but {'is' if len(cheaper) == 1 else 'are'} below the "
              f"cutoff of {measure}: n there measures the pool, not the systems, so the "
              "cheapest is taken from the cutoff on (the below_cutoff column)")


def _own_scores_note(study, measure, min_d: float, variance_from: str) -> None:
    """minD is a difference of each depth's own scores: where the cheapest depth is not the
    deepest, how its scores and its ranking of the runs differ from the deepest's (bundled CLEF
    2017 TAR, AP: mean .223 at pd=5 against .189 at pd=100, Kendall's tau .77; a reviewer's
    find: the note named cutoff measures and std-AB only). With ``variance_from="std-ab"`` minD
    is a difference of each depth's std-AB scores, whose mean is about .5 at every depth by
    construction: the note says so and the ranking only (the raw means would contradict the
    header, which says minD is on std-AB scores)."""
    import numpy as np
    from scipy.stats import kendalltau

    deepest, depth = max(study.scores), int(study.cheapest.name)
    if depth == deepest:
        return
    shallow, deep = study.scores[depth], study.scores[deepest]
    runs = [list(s.columns) for s in shallow]
    if all(r == runs[0] for r in runs):     # the same runs: their means over every topic
        tau = kendalltau(*(np.mean(np.concatenate([np.asarray(x) for x in scores]), axis=0)
                           for scores in (shallow, deep))).statistic
        which = ""
    else:   # other runs in each collection: the lowest of theirs (a review found it unsaid)
        tau = min(kendalltau(np.mean(s, axis=0), np.mean(d, axis=0)).statistic
                  for s, d in zip(shallow, deep))
        which = f" (the lowest of the {len(shallow)} collections')"

    def mean(matrices) -> float:
        return float(np.mean(np.concatenate([np.asarray(x, float).ravel() for x in matrices])))

    if variance_from == "std-ab":
        print(f"note: minD = {min_d:.15g} is a difference of each depth's own std-AB scores "
              f"(standardised on that depth's {measure}): pd={depth}'s {measure} ranks the runs "
              f"with Kendall's tau {tau:.2f}{which} against pd={deepest}'s; its n detects that "
              f"difference at pd={depth}, so weigh the ranking it gives too")
        return
    print(f"note: minD = {min_d:.15g} is a difference of each depth's own {measure}: at "
          f"pd={depth} the scores average {mean(shallow):.3f} (pd={deepest}: {mean(deep):.3f}) "
          f"and rank the runs with Kendall's tau {tau:.2f}{which} against pd={deepest}; its n "
          f"detects that difference in pd={depth}'s {measure}, so weigh the ranking it gives too")


def _copies(study, args) -> None:
    """Name the runs that are copies of others in each collection's scores at the deepest pool
    (identical runs score alike at every depth), as every matrix command does: the study keeps
    them, as the variance estimates do."""
    from ..matrices.copies import identical_runs

    deepest = study.scores[max(study.scores)]
    for k, scores in enumerate(deepest):
        about = str(args.qrels[k]) if len(deepest) > 1 else None
        with reporting_warnings(about=about, when_done=True):
            identical_runs(scores).warn(COPIES_KEPT)


#: What the study does with copies of runs (the end of :meth:`RunCopies.warn`'s line).
COPIES_KEPT = ("kept: V_E and n at every depth use every run, each copy as a run of its own, as "
               "the variance estimates do")


def upper_end_note(study) -> None:
    """A note naming the depths within the budget at the point n but not at n's upper end
    (``study``: a pool-depth study or a budget plan, each with ``table`` and ``budget``)."""
    table = study.table
    if study.budget is None or "cost high" not in table:
        return
    over = table.index[table["within_budget"] & (whole_documents(table["cost high"].to_numpy())
                                                 > study.budget)]
    if len(over):
        depths = ", ".join(f"pd={d} ({cost_text(table.loc[d, 'cost high'])})" for d in over)
        print(f"note: within the budget of {budget_text(study.budget)} at the point n but not "
              f"at the upper end of n's interval (cost high): {depths}")


def _interval_text(low, high) -> str:
    """n's interval as ``[low, high]``; an end beyond the search limit in words."""
    from ..report import interval_end_text

    return f"[{interval_end_text(low)}, {interval_end_text(high)}]"


def cost_text(cost) -> str:
    """A cost with thousands separators; at an n beyond the search limit (inf), that n."""
    from ..report import interval_end_text

    return documents_text(cost) if cost != float("inf") else f"n high {interval_end_text(cost)}"


def _pooled(study) -> str:
    """How many topics and runs the study pooled and evaluated, as ``evaluate`` says it:
    ``30 topics x 20 runs``, or per collection where there are several."""
    shapes = [scores.shape for scores in next(iter(study.scores.values()))]
    each = [f"{n} topics x {m} runs" for n, m in shapes]
    if len(each) == 1:
        return each[0]
    return f"{sum(n for n, _ in shapes)} topics of {len(each)} collections ({', '.join(each)})"


def _share(value: float) -> str:
    """A share as a percentage, never rounded up to 100% (99.96% is "99.9%")."""
    import math

    return "100%" if value >= 1.0 else f"{math.floor(value * 1000) / 10:.1f}%"


def _example_inputs(args) -> None:
    """``--example``: the bundled runs and qrels (their duplicates kept first), default depths;
    otherwise check that --runs, --qrels and --depths are given."""
    if args.example:
        if args.runs or args.qrels:
            raise InputError("give either --example or --runs/--qrels")
        from ..examples import example_runs

        runs, qrels = example_runs()
        args.runs, args.qrels, args.duplicates = [str(runs)], [str(qrels)], "first"
        args.depths = args.depths or EXAMPLE_DEPTHS
        deeper = [d for d in args.depths if d > EXAMPLE_RUNS_DEPTH]
        if deeper:      # the cut runs would pool fewer documents than CLEF 2017's, and say so
            raise InputError(
                f"--depths {deeper[0]} is out of range for --example: allowed depths <= "
                f"{EXAMPLE_RUNS_DEPTH} (the bundled runs keep each run's top "
                f"{EXAMPLE_RUNS_DEPTH} documents per topic; a deeper pool needs the full runs: "
                "--runs DIR --qrels FILE)")
        args.label = f"CLEF 2017 eHealth TAR (bundled, top {EXAMPLE_RUNS_DEPTH})"
        return
    for option in ("runs", "qrels", "depths"):
        if not getattr(args, option):
            raise InputError(f"--{option} is required (or --example for the bundled runs)")


def _sources(args) -> str:
    return getattr(args, "label", None) or " + ".join(args.runs)
