"""``topicsetsize evaluate``: the topics x runs score matrix of run files on qrels, per measure.

Reads every run file of --runs as trec_eval reads it (score descending, ties by document id
descending, the rank column ignored) and evaluates it on --qrels with every --measure in one
pass (ir_measures), one run at a time. One measure gives the matrix (one row per topic of the
qrels with a relevant document, as trec_eval -q; 0 where a run retrieves nothing) as CSV; several
give the long table run,topic,measure,value. --out writes the format its extension names: .csv,
.tsv (the same tables) or .xlsx (one sheet per measure). Runs are named by their run tags (the
sixth column), by the file name where a tag is missing or shared; stderr says which, and how
many topics of the qrels and of the runs matched.
"""

from __future__ import annotations

import sys
import warnings

from ..errors import InputError
from ..examples import EXAMPLE_RUNS_DEPTH
from ._common import csv_cell, path, progress, reporting_warnings
from ._inputs import add_runs_options, say_read


def register(sub, designs) -> None:
    """Add the ``evaluate`` sub-command to the parser."""
    parser = sub.add_parser(
        "evaluate",
        help="the topics x runs score matrix of run files on qrels (ir_measures), per measure",
        description=__doc__.split("\n\n")[1].replace("\n", " "))
    add_runs_options(parser)
    parser.add_argument("--measure", nargs="+", action="extend", metavar="MEASURE",
                        help="one or more ir_measures measures: AP, nDCG@10, P@10, ... (or "
                             "trec_eval's map), evaluated in one pass")
    parser.add_argument("--example", action="store_true",
                        help="the bundled CLEF 2017 eHealth TAR runs (20 runs x 30 topics, top "
                             f"{EXAMPLE_RUNS_DEPTH} documents each) and qrels (implies "
                             "--duplicates first)")
    parser.add_argument("--out", type=path, metavar="FILE",
                        help="write here (atomically) instead of stdout: .csv, .tsv (one "
                             "measure: the matrix; several: the long table) or .xlsx (one "
                             "sheet per measure)")
    parser.set_defaults(handler=run)


def run(args) -> int:
    """Evaluate the runs and write the matrices."""
    from ..matrices.writers import MATRIX_SUFFIXES

    if args.example:
        if args.runs or args.qrels:
            raise InputError("give either --example or --runs/--qrels")
        from ..examples import example_runs

        args.runs, args.qrels = example_runs()
        args.duplicates = "first"
    if args.runs is None or args.qrels is None:
        raise InputError("give both --runs DIR and --qrels FILE")
    if not args.measure:
        raise InputError("--runs needs --measure: the ir_measures measure(s) to evaluate (e.g. "
                         "AP, nDCG@10, P@10)")
    if args.out is not None and not args.out.lower().endswith(MATRIX_SUFFIXES):
        raise InputError(f"--out {args.out}: write {', '.join(MATRIX_SUFFIXES)} (the extension "
                         "names the format)")
    got = _evaluate(args)
    matrices = got.matrices
    if got.shape[0] < 2:        # written all the same: the user may add topics to it
        print(f"topicsetsize: warning: only {got.shape[0]} topic is evaluated: every command "
              "that reads the matrix needs at least 2 (V_E is a variance over topics)",
              file=sys.stderr)
    if args.out is None:           # the CSV of write_matrices, text cells made inert
        from ..matrices.writers import csv_text, matrices_rows

        sys.stdout.write(csv_text([csv_cell(x) if isinstance(x, str) else x for x in row]
                                  for row in matrices_rows(matrices)))
        return 0
    from ..matrices.writers import write_matrices

    written = write_matrices(matrices, args.out)
    first = next(iter(matrices.values()))
    risky = [x for x in (*first.topics, *first.runs) if csv_cell(str(x)) != str(x)]
    if risky and not args.out.lower().endswith(".xlsx"):   # kept: the file reads back the same
        print(f"topicsetsize: warning: {written}: {len(risky)} topic or run name(s) start with "
              f"=, +, -, @, a tab or a carriage return (e.g. {str(risky[0])!r}); they are "
              "written as they are, so that the file reads back with the same names: open it "
              "in a spreadsheet only through its import dialog, as text", file=sys.stderr)
    topics = f"{got.shape[0]} topic{'s' if got.shape[0] != 1 else ''}"
    print(f"wrote {written} ({topics} x {got.shape[1]} runs, "
          f"{', '.join(matrices)})")
    return 0


def _evaluate(args):
    """The :class:`~topicsetsize.matrices.evaluation.Evaluation` of every --measure, one pass
    over the runs (no pandas: issue 28.3); notes to stderr."""
    from ..matrices.evaluation import evaluate_scores, run_sources
    from ..matrices.measures import parse_measure

    measures = [parse_measure(m) for m in args.measure]     # bad names before any reading
    for k, measure in enumerate(measures):
        first = next((j for j in range(k) if str(measures[j]) == str(measure)), None)
        if first is not None:
            same = "" if args.measure[first] == args.measure[k] else \
                f" ({args.measure[first]} and {args.measure[k]} are the same measure)"
            raise InputError(f"--measure {args.measure[first]} is given twice{same}: give "
                             "each measure once")
    if args.example:
        warnings.warn(f"--example: the bundled runs keep each run's top {EXAMPLE_RUNS_DEPTH} "
                      "documents per topic, so these are the scores of the runs cut there (a "
                      f"relevant document a run ranks below {EXAMPLE_RUNS_DEPTH} counts as not "
                      "retrieved), not CLEF 2017's official ones (a measure at a cutoff of "
                      f"at most {EXAMPLE_RUNS_DEPTH}, such as P@10, is the same)", UserWarning,
                      stacklevel=2)
    label = ", ".join(dict.fromkeys(map(str, measures)))
    with reporting_warnings(), progress(len(run_sources(args.runs)), f"evaluating {label}") as bar:
        got = evaluate_scores(args.runs, args.qrels, measures,
                              duplicates=args.duplicates or "error", progress=bar.update)
    say_read(f"{args.runs} on {args.qrels} ({label})", got)
    return got
