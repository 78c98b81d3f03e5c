"""The inputs of the commands that read score matrices or runs, declared once.

:func:`add_input_options` is every matrix command's set (report, variance, hsd, reliability,
check-power, workbook): the reader options (:func:`add_reader_options`: ``--measure``,
``--sheet``, ``--format``, ``--transpose``, ``--topic-ids``/``--no-topic-ids``,
``--drop-incomplete-topics``) and the runs options (:func:`add_runs_options`: ``--runs``,
``--qrels``, ``--duplicates``); evaluate and pool-depth, which read runs only, take the runs
options. The loaders (:func:`load_matrix`, :func:`load_matrices`, :func:`evaluate_from_args`)
read what those options name and say on stderr, once the command has succeeded, how many topics
and runs each matrix gave (:func:`say_read`). Which option goes with which input is declared once,
in :data:`INPUT_OPTIONS`: an option given with an input it does not apply to is refused in one
line (:func:`check_input_options`), never silently ignored. The declarations and the checks use
only the standard library, so a refusal comes before numpy, scipy or pandas load.
"""

from __future__ import annotations

import argparse
import contextlib
import sys

from ..errors import InputError
from ._common import WHEN_DONE, path, progress, reporting_warnings

#: The inputs of a matrix command and the options that go with each (one place: an option given
#: with an input it does not apply to is refused, :func:`check_input_options`). ``FILE`` is a
#: score matrix file (``--matrix FILE`` of ``workbook``); the reader's options are its own.
INPUT_OPTIONS = {
    "FILE": ("--measure", "--sheet", "--format", "--transpose", "--drop-incomplete-topics",
             "--topic-ids"),
    "--example": (),
    "--runs": ("--measure", "--qrels", "--duplicates"),
}
#: The ``args`` attribute of an option of :data:`INPUT_OPTIONS` whose name differs.
_DESTS = {"--format": "fmt"}
#: Options whose False is a choice (``--no-topic-ids``), not "not given": only None is unset.
_TRI_STATE = {"--topic-ids"}


def check_input_options(args, given: dict[str, bool], *, file: str = "FILE") -> None:
    """Refuse, in one line, an option of :data:`INPUT_OPTIONS` that was given (not None, not
    False) although none of the inputs given (``given``: input -> whether given) takes it; and
    ``--sheet`` with ``--measure`` (both name the sheet of an .xlsx file).

    >>> import argparse
    >>> args = argparse.Namespace(transpose=True, fmt=None, measure="AP", qrels="q")
    >>> check_input_options(args, {"FILE": False, "--runs": True})
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: --transpose goes with FILE, not with --runs: drop it
    """
    inputs = [name for name, on in given.items() if on]
    for option in dict.fromkeys(o for options in INPUT_OPTIONS.values() for o in options):
        unset = (None,) if option in _TRI_STATE else (None, False)
        if getattr(args, _DESTS.get(option, option[2:].replace("-", "_")), None) in unset:
            continue
        takes = [name for name, options in INPUT_OPTIONS.items() if option in options]
        if not any(name in takes for name in inputs):
            where = " or ".join(file if name == "FILE" else name for name in takes)
            shown = " and ".join(file if name == "FILE" else name for name in inputs)
            if option in _TRI_STATE and getattr(args, _DESTS.get(
                    option, option[2:].replace("-", "_")), None) is False:
                option = "--no-" + option[2:]           # as the user typed it
            raise InputError(f"{option} goes with {where}, "
                             f"{f'not with {shown}' if shown else 'which is not given'}: drop it")
    if getattr(args, "sheet", None) is not None and getattr(args, "measure", None) is not None:
        raise InputError("give --sheet or --measure, not both (each names the sheet of an .xlsx "
                         "file)")


def reader_measure(args):
    """The measure (or .xlsx sheet) a matrix file is read with: ``--sheet`` or ``--measure``."""
    return args.measure if getattr(args, "sheet", None) is None else args.sheet


#: How the bundled example matrix is labelled in output.
EXAMPLE_NAME = "example: TREC 2010 Web AP"


def add_input_options(parser) -> None:
    """The input options of a matrix command: :func:`add_reader_options` (FILE's) and
    :func:`add_runs_options` (a matrix evaluated from run files)."""
    add_reader_options(parser)
    add_runs_options(parser)


def add_reader_options(parser) -> None:
    """The options of :func:`topicsetsize.matrices.readers.read_matrix` (shared by every FILE
    command)."""
    from ..matrices.formats import FORMATS

    parser.add_argument("--measure", help="measure to read from trec_eval / long-format files "
                        "(e.g. map, P_10); for .xlsx, the sheet name; with --runs, the "
                        "ir_measures measure to evaluate (AP, nDCG@10, P@10, ...)")
    parser.add_argument("--sheet",
                        help=".xlsx: the sheet to read (needed when the workbook has several)")
    parser.add_argument("--format", dest="fmt", choices=FORMATS,
                        help="file format (default: detected from the content)")
    parser.add_argument("--transpose", action="store_true",
                        help="wide files: the runs are the rows")
    parser.add_argument("--drop-incomplete-topics", action="store_true",
                        help="drop topics that lack a score for some run (and say how many)")
    parser.add_argument("--topic-ids", action=argparse.BooleanOptionalAction, default=None,
                        help="wide files: the first column holds the topic ids (--topic-ids) or "
                             "is the first run's scores, topics numbered 1.. (--no-topic-ids); "
                             "default: detected, refused where it could be either")


def add_matrix_input(parser) -> None:
    """FILE, ``--example`` or ``--runs``/``--qrels``, and the reader options: the input of a
    one-matrix command."""
    parser.add_argument("file", nargs="?", type=path, metavar="FILE",
                        help="a score matrix file (topics x runs), or a folder of trec_eval -q "
                             "files")
    parser.add_argument("--example", action="store_true",
                        help="use the bundled TREC 2010 Web AP matrix (48 topics x 88 runs)")
    add_input_options(parser)


def add_runs_options(parser, *, required: bool = False) -> None:
    """``--runs DIR --qrels FILE`` (with ``--measure``, ``--duplicates``): the matrix evaluated
    from run files by ir_measures (:func:`topicsetsize.matrices.evaluation.evaluate_runs`)."""
    parser.add_argument("--runs", type=path, metavar="DIR", required=required,
                        help="a folder of TREC run files: evaluate them on --qrels with "
                             "--measure (ir_measures, read as trec_eval reads them)")
    parser.add_argument("--qrels", type=path, metavar="FILE", required=required,
                        help="TREC qrels (qid iteration docno rel), with --runs")
    add_duplicates_option(parser, default=None)


def add_duplicates_option(parser, *, default: str | None = "error") -> None:
    """``--duplicates error|first``: a document retrieved twice within a topic of a run (the
    default None of a matrix command means "error", and tells that the option was not given)."""
    parser.add_argument("--duplicates", choices=("error", "first"), default=default,
                        help="a document retrieved twice within a topic: refuse the run, as "
                             "trec_eval does (default), or keep its first line and say how "
                             "many were dropped")


def add_design_options(parser, *, variance: str, default: str | None = "anova") -> None:
    """``--method`` and ``--design`` of a decision (``budget``, ``pool-depth``, ``recommend``,
    ``guarantees``): the designs and each one's default method as declared
    (:data:`~topicsetsize.decide.anova_designs.DESIGN_METHODS`; checked with
    :func:`~topicsetsize.decide.anova_designs.check_design`); ``variance``: what is V_E2 under
    the two-way design; ``default`` None where a plan file may give the design."""
    from ..decide.anova_designs import DESIGN_METHODS

    parser.add_argument("--method", choices=("legacy", "exact"),
                        help="legacy = the legacy Excel tools' approximations (the one-way "
                             "design's default); exact = noncentral t and F (--design anova2's "
                             "only)")
    parser.add_argument("--design", choices=tuple(DESIGN_METHODS), default=default,
                        help="anova = the papers' one-way ANOVA (default); anova2 = two-way "
                             "ANOVA, topics as blocks, the test for runs that share one topic "
                             f"set: {variance} is then V_E2 (exact n only)")


def evaluate_from_args(args, runs=None, qrels=None):
    """The topics x runs matrix of ``--runs``/``--qrels``/``--measure``; notes go to stderr."""
    from ..matrices.evaluation import evaluate_runs, run_sources
    from ..matrices.measures import parse_measure

    runs, qrels = runs or args.runs, qrels or args.qrels
    if runs is None or qrels is None:
        raise InputError("give both --runs DIR and --qrels FILE")
    if args.measure is None:
        raise InputError("--runs needs --measure: the ir_measures measure to evaluate (e.g. AP, "
                         "nDCG@10, P@10)")
    measure = parse_measure(args.measure)
    with reporting_warnings() as caught, \
            progress(len(run_sources(runs)), f"evaluating {measure}") as bar:
        matrix = evaluate_runs(runs, qrels, measure, duplicates=args.duplicates or "error",
                               progress=bar.update)
    # what the reader was told (dropped lines, ties), for a workbook to keep
    matrix.attrs["notes"] = [" ".join(str(w.message).splitlines()) for w in caught]
    say_read(f"{runs} on {qrels} ({measure})", matrix)
    return matrix


#: The lines of :func:`say_read`, said when the command succeeds (an error stays one line).
READ_LINES: list[str] = []


def say_read(name, matrix) -> None:
    """One line on stderr: how many topics and runs were read from ``name`` (and how the
    topics and runs were named where the file did not name them), so that a lost run or
    topic shows (stderr keeps a command's CSV output parseable). It is said when the command
    succeeds (:func:`said_what_was_read`): on an error, the error is the one line."""
    n, m = matrix.shape
    how = ""
    if matrix.attrs.get("topic_ids") is False:
        how = f" (no topic-id column: every column is a run, topics numbered 1..{n})"
    for key in ("topics_note", "run_names_note"):
        if matrix.attrs.get(key):
            how += f"; {matrix.attrs[key]}"
    READ_LINES.append(f"topicsetsize: read {name}: {n} topics x {m} runs{how}")


def said_what_was_read(succeeded: bool) -> None:
    """Print the warnings kept for the end (``reporting_warnings(when_done=True)``), then the
    lines of :func:`say_read`, on stderr where the command succeeded; forget them."""
    if succeeded:
        for line in (*WHEN_DONE, *READ_LINES):
            print(line, file=sys.stderr)
    WHEN_DONE.clear()
    READ_LINES.clear()


def load_matrix(args):
    """The score matrix of FILE, ``--example`` or ``--runs`` (see :func:`add_matrix_input`),
    and a name for it. The choice of input, and the options that go with it, are checked before
    the numerical libraries load."""
    given = {"FILE": args.file is not None, "--example": args.example,
             "--runs": args.runs is not None}
    if sum(given.values()) != 1:
        raise InputError("give one of FILE, --example or --runs DIR --qrels FILE")
    check_input_options(args, given)
    from ..examples import example_matrix

    if args.example:
        matrix = example_matrix()
        say_read(EXAMPLE_NAME, matrix)
        return matrix, EXAMPLE_NAME
    if args.runs is not None:
        return evaluate_from_args(args), f"{args.runs} ({args.measure})"
    scores = read_matrix_reporting(args.file, args)
    from ..matrices.matrix import check_matrix

    # the scores' range now, so that an error names the file (the shape: each command's own)
    check_matrix(scores, name=str(args.file), min_topics=1, min_runs=1)
    return scores, args.file


@contextlib.contextmanager
def naming_the_input(name):
    """An :class:`InputError` of the block that names the engine's argument (``scores: ...``)
    names the input ``name`` instead (a file, the example, run files), as the other commands'
    errors do (a review, 2026-12-07: ``hsd`` on a constant file began with "scores:").

    >>> with naming_the_input("runs.csv"):
    ...     raise InputError("scores: it has 1 run: no two runs to compare")
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: runs.csv: it has 1 run: no two runs to compare
    """
    try:
        yield
    except InputError as exc:
        text = str(exc).removeprefix("scores: ")
        if text == str(exc):
            raise
        raise InputError(f"{name}: {text}") from exc


def read_matrix_reporting(path, args):
    """Read one score matrix with the reader options in ``args``; warnings go to stderr."""
    from ..matrices.readers import read_matrix

    with reporting_warnings():
        matrix = read_matrix(path, measure=getattr(args, "measure", None),
                             sheet=getattr(args, "sheet", None), fmt=args.fmt,
                             transpose=args.transpose,
                             drop_incomplete_topics=args.drop_incomplete_topics,
                             topic_ids=args.topic_ids)
    say_read(path, matrix)
    return matrix


def _refuse_files_with_runs(args, files) -> None:
    """FILEs and ``--runs`` together: one line that says so, or, where a FILE that does not
    exist follows ``--measure`` (``--measure AP nDCG@10``: nDCG@10 taken as a FILE), that
    ``--measure`` takes one value here."""
    import os

    from ..matrices.measures import parse_measure

    def a_measure(name) -> bool:
        try:
            parse_measure(name)
        except InputError:         # what parse_measure raises for a name it refuses
            return False
        return True

    missing = next((f for f in files if not os.path.exists(f) and a_measure(f)), None)
    if missing is not None and args.measure is not None:
        raise InputError(f"FILE {missing} does not exist; --measure takes one value here "
                         f"(--measure {args.measure}): give one measure per command")
    raise InputError("give FILEs or --runs, not both: run one command for each")


def load_matrices(args, files) -> dict:
    """``{name: matrix}`` of a several-matrix command: the bundled example (``--example``),
    the matrix evaluated from ``--runs``/``--qrels`` and each FILE, in that order. The choice
    of inputs, and the options that go with them, are checked before numpy and pandas load."""
    if not files and not args.example and args.runs is None:
        raise InputError("give at least one FILE (or --example for the bundled matrix), or "
                         "--runs DIR --qrels FILE --measure M")
    check_input_options(args, {"FILE": bool(files), "--example": args.example,
                                "--runs": args.runs is not None})
    from ..examples import example_matrix

    matrices = {}
    if args.example:
        matrices[EXAMPLE_NAME] = example_matrix()
        say_read(EXAMPLE_NAME, matrices[EXAMPLE_NAME])
    if args.runs is not None or args.qrels is not None:
        if files:
            _refuse_files_with_runs(args, files)
        matrices[f"{args.runs} ({args.measure})"] = evaluate_from_args(args)
    for name in files:
        matrices[name] = read_matrix_reporting(name, args)
    return matrices
