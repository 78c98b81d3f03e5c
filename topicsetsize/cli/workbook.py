"""`topicsetsize workbook [SPEC] [--matrix FILE ...] [--out FILE]`: write a standalone workbook.

The workbook has live calculators (ANOVA, paired t-test, CI), the topic set size tables of the
spec's measures with charts, and a Variance sheet for score matrices. With no SPEC it builds the
bundled NTCIR-12 spec (Table 2 of the AIRS 2016 paper).
"""

from __future__ import annotations

import sys
import tempfile
import warnings
from dataclasses import replace
from pathlib import Path

from ..errors import InputError
from ._common import path, progress
from ._inputs import add_input_options, check_input_options, evaluate_from_args, reader_measure

__all__ = ["register", "run", "runs_provenance"]


def register(sub, designs) -> None:
    """Add the ``workbook`` sub-command to the parser (imports nothing heavy)."""
    p = sub.add_parser(
        "workbook",
        help="write a standalone .xlsx workbook: live calculators, tables, charts",
        description="Write a standalone .xlsx workbook with live calculators (ANOVA, paired "
                    "t-test, CI: legacy and exact; two-way ANOVA, unpaired t-test and CI: "
                    "exact), a Decide sheet, the topic set size tables of a spec's measures, "
                    "charts, a Budget sheet for its pool depths and a Variance sheet for "
                    "score matrices. It needs no Python or add-in to use.",
    )
    p.add_argument("spec", nargs="?", default=None, type=path, metavar="SPEC",
                   help="a spec file (TOML) or the name of a bundled spec (see --list-specs); "
                        "default: the bundled NTCIR-12 spec, ntcir12_std_ab")
    p.add_argument("--matrix", action="extend", nargs="+", default=[], type=path,
                   metavar="FILE",
                   help="also estimate V_E (raw and std-AB) from this score matrix and add "
                        "its tables (CSV/TSV, .xlsx, trec_eval -q files or a folder of them)")
    add_input_options(p)           # the reader options, and --runs DIR --qrels FILE
    p.add_argument("--out", type=lambda text: Path(path(text)), default=None, metavar="FILE",
                   help="where to write the workbook (default: the spec's output name in the "
                        "spec file's folder; for a bundled spec, in the current folder)")
    p.add_argument("--list-specs", action="store_true",
                   help="list the bundled specs and exit")
    p.set_defaults(handler=run)


def run(args) -> int:
    """Build the workbook described by ``args``; print where it was written."""
    from topicsetsize.generator import load_spec, with_matrices
    from topicsetsize.generator.content.bundled import DEFAULT_SPEC, bundled_specs, templates_dir

    if args.list_specs:
        for name in bundled_specs():
            print(f"{name}\t{templates_dir() / (name + '.toml')}")
        return 0
    if args.spec is None and args.matrix and _looks_like_spec(args.matrix[-1]):
        # --matrix takes one or more files, so a SPEC after it is read as a matrix
        raise InputError(f"--matrix {args.matrix[-1]}: this is a workbook spec, not a score "
                         f"matrix: put SPEC first (topicsetsize workbook {args.matrix[-1]} "
                         f"--matrix {' '.join(args.matrix[:-1]) or 'FILE'})")
    if args.spec is not None and Path(args.spec).suffix.lower() in _MATRIX_SUFFIXES:
        # a score matrix given as SPEC was read as TOML ("title: is missing", "not valid TOML")
        raise InputError(f"{args.spec}: SPEC is a workbook spec (TOML), not a score matrix: give "
                         f"the matrix with --matrix (topicsetsize workbook --matrix {args.spec})")
    check_input_options(args, {"FILE": bool(args.matrix), "--runs": args.runs is not None},
                        file="--matrix FILE")
    spec_file = _spec_path(args.spec or DEFAULT_SPEC)
    spec = load_spec(spec_file, ignore_output=args.out is not None)
    # A spec file's output stays in its folder; a bundled spec's goes to the current folder.
    args.out_folder = spec_file.parent if args.spec and Path(args.spec).is_file() else Path()
    _refuse_overwriting_inputs(args, spec, args.out if args.out is not None
                               else args.out_folder / spec.output)     # before any work
    with tempfile.TemporaryDirectory() as folder:
        if args.runs is not None or args.qrels is not None:
            if args.matrix:
                raise InputError("give --matrix FILEs or --runs, not both: run one command for "
                                 "each")
            # The evaluated matrix goes to the spec as a CSV named after the runs folder; the
            # workbook names the run folder, the qrels and the measure, not that file.
            matrix = evaluate_from_args(args)
            csv = Path(folder) / f"{Path(args.runs).name or 'runs'} {args.measure}.csv"
            matrix.to_csv(csv)
            spec = with_matrices(spec, [csv], fmt="wide")
            spec = replace(spec, matrices=spec.matrices[:-1] + (replace(
                spec.matrices[-1], **runs_provenance(args, matrix)),))
        return _write(args, spec)


def runs_provenance(args, matrix) -> dict:
    """Where a matrix evaluated from ``--runs`` comes from, by file and folder names only (a
    workbook sent to others must not carry its maker's paths): ``origin`` (the measure, the
    run folder, the qrels, the number of runs and topics) and ``notes`` (what the evaluation
    dropped or reordered, and why: the warnings it printed, each naming its run file).

    >>> import argparse, pandas as pd
    >>> args = argparse.Namespace(runs="/data/tar/runs", qrels="/data/tar/qrels.gz",
    ...                           measure="AP", duplicates="first")
    >>> m = pd.DataFrame([[0.1, 0.2]], index=["t1"], columns=["a", "b"])
    >>> m.attrs["notes"] = ["/data/tar/runs/b: dropped 3 line(s) retrieving a document twice"]
    >>> p = runs_provenance(args, m)
    >>> p["origin"]
    'AP of the run files in runs/ (2 runs) on the qrels qrels.gz (1 topic with a relevant document)'
    >>> p["notes"]
    ('run b: dropped 3 line(s) retrieving a document twice',)
    """
    folder = Path(args.runs)
    runs, topics = matrix.shape[1], matrix.shape[0]
    origin = (f"{args.measure} of the run files in {folder.name or folder}/ ({runs} run"
              f"{'s' if runs != 1 else ''}) on the qrels {Path(args.qrels).name} ({topics} "
              f"topic{'s' if topics != 1 else ''} with a relevant document)")
    notes = []
    for text in matrix.attrs.get("notes", []):
        for prefix in (str(folder.resolve()), str(folder)):   # "<folder>/<run>: ..."
            if text.startswith(prefix):
                text = "run " + text[len(prefix):].lstrip("/\\")
                break
        for qrels in (str(Path(args.qrels).resolve()), str(args.qrels)):
            text = text.replace(qrels, Path(args.qrels).name)
        notes.append(text)
    return {"origin": origin, "notes": tuple(notes)}


def _write(args, spec) -> int:
    """Add the --matrix files to ``spec``, write the workbook and say where."""
    from topicsetsize.generator import count_steps, with_matrices, write_workbook

    if args.matrix:
        measure = reader_measure(args)
        if getattr(args, "sheet", None) is not None and not any(
                str(p).lower().endswith(".xlsx") for p in args.matrix):
            # as read_matrix says it: the sheet was passed on as a measure of a CSV file
            print(f"topicsetsize: warning: --sheet {args.sheet}: not used: only an .xlsx "
                  "workbook has sheets", file=sys.stderr)
            measure = None
        spec = with_matrices(spec, args.matrix, measure=measure, fmt=args.fmt,
                             transpose=args.transpose, topic_ids=args.topic_ids,
                             drop_incomplete_topics=args.drop_incomplete_topics)
    out = args.out if args.out is not None else args.out_folder / spec.output
    # --out's file is said by check_files; the default output's, once it is replaced (a review,
    # 2026-12-07: a workbook edited under the default name was replaced without a word)
    replaced = args.out is None and out.is_file()
    read = []                       # what each matrix gave: said on stderr, as everywhere
    with progress(count_steps(spec), "workbook") as bar:
        def tick(text: str) -> None:
            if text.startswith("read "):
                read.append(text)
            bar.set_postfix_str(text[:40], refresh=False)
            bar.update(1)

        with warnings.catch_warnings(record=True) as caught:
            if spec.matrices:      # the readers (and pandas) only where matrices are read
                from ..matrices.readers import IncompleteTopicsWarning

                warnings.simplefilter("always", IncompleteTopicsWarning)
            # the process ends after the command: the collector need not scan the workbook
            path = write_workbook(spec, out, tick=tick,
                                  restart_gc=not getattr(args, "process_ends", False))
    for w in caught:        # as the command's other warnings (one line; a scale note once)
        warnings.showwarning(w.message, w.category, w.filename, w.lineno)
    from ._inputs import READ_LINES

    for text in read[:-1] if args.runs is not None else read:   # --runs: said when evaluated
        READ_LINES.append(f"topicsetsize: {text}")
    measures = len(spec.measures) + sum(len(m.scores) for m in spec.matrices)
    sheets = "Decide and Budget sheets" if spec.pool_depths else "Decide sheet"  # as build's
    what = (f"{measures} measure{'s' if measures != 1 else ''}" if measures
            else f"calculators, {sheets}, no measure tables")
    print(f"wrote {path.resolve()} ({what})")
    if replaced:
        print(f"topicsetsize: note: it replaced the workbook {out} that was there (--out FILE "
              "writes another)", file=sys.stderr)
    return 0


def _refuse_overwriting_inputs(args, spec, out: Path) -> None:
    """The workbook must not replace the spec, a --matrix file or a matrix the spec names."""
    from ._files import input_files, refuse_output_over_inputs

    inputs = input_files(args) + [("SPEC", Path(spec.source))]
    inputs += [(f"matrix {m.name!r} of the spec", m.resolved_path()) for m in spec.matrices
               if m.resolved_path() is not None]
    refuse_output_over_inputs("--out" if args.out is not None else "the spec's output", out,
                              inputs)


#: The file types of a score matrix (``topicsetsize variance`` reads them), never a spec's.
_MATRIX_SUFFIXES = (".csv", ".tsv", ".xlsx", ".xls")


def _looks_like_spec(item: str) -> bool:
    """A .toml file, or a bundled spec's name that is not a file here."""
    from topicsetsize.generator.content.bundled import bundled_specs

    return item.lower().endswith(".toml") or (item in bundled_specs() and not Path(item).exists())


def _spec_path(spec: str) -> Path:
    """A spec file, or a bundled spec's name."""
    from topicsetsize.generator.content.bundled import bundled_spec, bundled_specs

    path = Path(spec)
    if path.exists() and not path.is_dir():         # a file, or a pipe (<(cat spec.toml))
        return path
    if path.suffix.lower() in ("", ".toml") and path.parent == Path("."):
        try:
            return bundled_spec(path.name)
        except FileNotFoundError:
            pass
    raise FileNotFoundError(f"{spec}: no such spec file, and not a bundled spec "
                            f"({', '.join(bundled_specs())})")
