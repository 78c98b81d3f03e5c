"""``topicsetsize evaluate``: the topics x runs score matrix of run files on qrels, as CSV.

Reads every run file of --runs as trec_eval reads it (score descending, ties by document id
descending, the rank column ignored), evaluates it on --qrels with --measure by ir_measures, one
run at a time, and writes the matrix (one row per topic of the qrels with a relevant document,
as trec_eval -q; 0 where a run retrieves nothing) as CSV to --out, or to stdout.
"""

from __future__ import annotations

import sys

from ._common import add_runs_options, csv_cell, evaluate_from_args, path, print_frame
from ..errors import InputError


def register(sub, designs) -> None:
    """Add the ``evaluate`` sub-command to the parser."""
    parser = sub.add_parser(
        "evaluate",
        help="the topics x runs score matrix of run files on qrels (ir_measures), as CSV",
        description=__doc__.split("\n\n")[1].replace("\n", " "))
    add_runs_options(parser)
    parser.add_argument("--measure", help="an ir_measures measure: AP, nDCG@10, P@10, ... "
                        "(or trec_eval's map)")
    parser.add_argument("--example", action="store_true",
                        help="the bundled CLEF 2017 eHealth TAR runs and qrels (implies "
                             "--duplicates first)")
    parser.add_argument("--out", type=path, metavar="FILE.csv",
                        help="write the CSV here (atomically) instead of stdout")
    parser.set_defaults(handler=run)


def run(args) -> int:
    """Evaluate the runs and write the matrix."""
    if args.example:
        if args.runs or args.qrels:
            raise InputError("give either --example or --runs/--qrels")
        from ..examples import example_runs

        args.runs, args.qrels = example_runs()
        args.duplicates = "first"
    matrix = evaluate_from_args(args)
    if args.out is None:
        print_frame(matrix, csv=True)
        return 0
    from ..atomic import atomic_write_text

    written = atomic_write_text(args.out, matrix.to_csv(lineterminator="\n"))
    risky = [x for x in (*matrix.index, *matrix.columns) if csv_cell(str(x)) != str(x)]
    if risky:       # kept as they are, so that the file reads back with the same names
        print(f"topicsetsize: warning: {written}: {len(risky)} topic or run name(s) start with "
              f"=, +, -, @, a tab or a carriage return (e.g. {str(risky[0])!r}); they are "
              "written as they are, so that the file reads back with the same names: open it "
              "in a spreadsheet only through its import dialog, as text", file=sys.stderr)
    print(f"wrote {written} ({matrix.shape[0]} topics x {matrix.shape[1]} runs, "
          f"{matrix.attrs.get('measure', args.measure)})")
    return 0
