"""Score matrices in: read one from a file (CSV/TSV, .xlsx, ``trec_eval -q``, long format).

A score matrix has the **topics as rows** and the **runs as columns**. :func:`read_matrix`
detects the file's format, hands it to its parser in :mod:`topicsetsize.matrices.formats`, checks
the
cells and returns a DataFrame with string topic ids as the index, string run names as the columns
and float values. In-memory matrices are checked by
:func:`topicsetsize.matrices.matrix.check_matrix`.

Supported files (``fmt``; detected from the content when ``fmt`` is None):

``"wide"``
    CSV, TSV, semicolon- or blank-separated; the first column holds the topic ids, the header
    the run names (``transpose=True`` when the runs are the rows). A header without the corner cell,
    as R's ``write.table`` writes it, is accepted. A file without a topic-id column (R's
    ``write.csv(row.names = FALSE)``) is detected where its first column cannot be ids, and
    refused in one line where it could be either (``topic_ids`` settles it).
``"xlsx"``
    The first sheet of a workbook (or the sheet named by ``measure``), laid out as ``"wide"``.
``"trec_eval"``
    ``trec_eval -q`` output (``measure  topic  value`` per line), one file per run: a folder of
    them (runs in the natural order of the file names, hidden files skipped) or a list of
    files. The run is named by its ``runid  all  NAME`` line, else by the file name. The
    ``all`` (summary) rows are dropped.
``"long"``
    One score per line, ``run, topic, measure, value`` (CSV or TSV, with or without a header;
    with a header the columns may come in any order, and the measure column may be absent).

Every problem is reported as a one-line :class:`ValueError` that names the file and the first
offending cells. Nothing is changed silently: incomplete topics are dropped only on request
(``drop_incomplete_topics=True``), with a :class:`IncompleteTopicsWarning` and the dropped ids in
``frame.attrs["dropped_topics"]``.

The writers :func:`topicsetsize.matrices.writers.write_trec_eval` and
:func:`topicsetsize.matrices.writers.write_long` produce the last two formats (with full float
precision,
atomically).
"""

from __future__ import annotations

import math
import os
import re
import warnings
from itertools import islice
from pathlib import Path

import numpy as np
import pandas as pd

from ..atomic import read_whole
from ..errors import InputError
from ..params import check_choice
from .formats import FORMATS
from .formats.common import (
    MISSING_TOKENS,
    SUMMARY_TOPIC,
    Cells,
    cells_from_records,
    csv_rows,
    decode_text,
    guess_delimiter,
    is_numeric,
    nonempty_bytes,
    parse_floats,
    refuse_other_input,
    refuse_trec_input,
    split_fields,
)
from .formats.long import long_header, parse_long
from .formats.trec_eval import parse_trec_eval, read_trec_eval_files
from .formats.wide import parse_wide, parse_wide_numbers
from .formats.xlsx import read_xlsx
from .labels import check_labels, check_spellings, warn_numbered_runs
from .matrix import ScoreMatrix, check_matrix, check_shape  # noqa: F401  (importable from here)
from .writers import write_long, write_trec_eval  # noqa: F401  (importable from here)

__all__ = [
    "FORMATS",
    "MISSING_TOKENS",
    "IncompleteTopicsWarning",
    "StrayScoreWarning",
    "read_matrix",
    "holds_measures",
]

#: A number written with a decimal comma, as in "0,25".
_DECIMAL_COMMA = re.compile(r"[-+]?\d*,\d+")

#: How many offending cells an error message lists.
_SHOWN = 3
_TRANSPOSE_HINT = "; if the runs are the rows, use transpose=True (--transpose)"
_TREC_EVAL_HINT = "; a trec_eval -q file holds one run: give the folder (or list) of run files"
_TREC_EVAL_MISSING = ("; or, where a run retrieved nothing for a topic, score it 0 as trec_eval "
                      "-c does: rerun trec_eval -q -c (dropping the topic favours that run)")


class IncompleteTopicsWarning(UserWarning):
    """Emitted when ``drop_incomplete_topics=True`` drops topics with missing scores."""


class StrayScoreWarning(UserWarning):
    """A few scores (at most 1% of them) lie outside [0, 1] where all the others are within it:
    a score in percent among fractions, or a typo; the variances and every n sized on them
    depend on it (a review of the wheel: one AP of 31.5 among 4,224 made V_E raw 29 times
    larger, and only ``variance`` said that the scores ran to 31.5)."""


#: The largest share of a matrix's scores outside [0, 1] that :class:`StrayScoreWarning` takes
#: for strays (a matrix in percent, or of an unbounded measure, has far more such scores).
STRAY_SHARE = 0.01
#: How far beyond [0, 1] a score must lie to be a stray: not a measure's rounding (an nDCG of
#: 1.0000000000000002 is 1).
STRAY_SLACK = 1e-9


def read_matrix(path, *, measure: str | None = None, fmt: str | None = None,
                transpose: bool = False, drop_incomplete_topics: bool = False,
                sheet: str | None = None, topic_ids: bool | None = None) -> pd.DataFrame:
    """Read a topics × runs score matrix from a file or a folder of ``trec_eval -q`` files.

    Parameters
    ----------
    path : str, path-like, or a list of them
        A CSV/TSV file, an .xlsx workbook, a long-format file, or the ``trec_eval -q`` output
        of the runs: a folder of files (one per run) or a list of files.
    measure : str, optional
        The measure to read (e.g. ``"map"``, ``"P_10"``, ``"ndcg_cut_10"``) from ``trec_eval``
        and long-format files; needed when a file holds several. For an .xlsx workbook without
        ``sheet`` it names the sheet. A wide CSV/TSV holds one measure, so there it is not used
        (a warning says so).
    fmt : {"wide", "xlsx", "trec_eval", "long"}, optional
        The file format; detected from the content when None.
    transpose : bool, default False
        For wide files (CSV/TSV/xlsx): the runs are the rows and the header holds topic ids.
    drop_incomplete_topics : bool, default False
        Drop the topics that lack a score for some run, instead of raising. A
        :class:`IncompleteTopicsWarning` says how many were dropped and
        ``frame.attrs["dropped_topics"]`` lists them.

    sheet : str, optional
        For an .xlsx workbook: the sheet to read. Required when the workbook has several
        sheets (one sheet is read without it); a name that is not a sheet is an error.
    topic_ids : bool, optional
        For wide files (CSV/TSV/xlsx): whether the first column holds the topic ids (True) or
        is the first run's scores, with the topics numbered 1, 2, ... in the order of the
        lines (False). None detects it
        (:func:`topicsetsize.matrices.formats.wide.has_topic_ids`): ids under an empty or
        id-like header ("topic", "qid", ...) or where a value is not a number; scores where
        the numbers repeat or are not whole; distinct whole numbers under another header are
        refused in one line that names the two readings.

    Returns
    -------
    pandas.DataFrame
        Topics as the index (``str``, named ``"topic"``), runs as the columns (``str``, named
        ``"run"``), float values; at least 2 topics and 2 runs. ``attrs`` holds ``source``,
        ``format``, ``measure``, ``dropped_topics`` and ``topic_ids`` (whether the file
        had a topic-id column; None for the formats that always have one).

    Raises
    ------
    FileNotFoundError
        No such file or folder.
    ValueError
        One line naming the file and the first offending cells: an empty or binary file, a
        ragged CSV, a duplicate run name or topic, a non-numeric or missing score, a measure
        that is not in the file (the message lists those that are), a single run or topic.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "scores.csv"
    >>> _ = path.write_text("topic,bm25,dfr\\n401,0.25,0.5\\n402,0.125,0.75\\n")
    >>> read_matrix(path)
    run    bm25   dfr
    topic
    401   0.250  0.50
    402   0.125  0.75
    >>> _ = path.write_text("topic,bm25,dfr\\n401,0.25,0.5\\n402,0.125,high\\n")
    >>> read_matrix(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: .../scores.csv: non-numeric score 'high' at topic '402', run 'dfr'
    (line 3, field 3)

    Without a topic-id column (the first column's scores repeat, so they are not ids):

    >>> _ = path.write_text("bm25,dfr\\n0.25,0.5\\n0.25,0.75\\n")
    >>> frame = read_matrix(path)
    >>> frame.columns.tolist(), frame.index.tolist(), frame.attrs["topic_ids"]
    (['bm25', 'dfr'], ['1', '2'], False)
    """
    if fmt is not None:
        fmt = check_choice("fmt", fmt, FORMATS)
    if topic_ids not in (None, True, False):
        raise InputError(f"topic_ids={topic_ids!r} is not allowed: give True, False or None "
                         "(detect)")
    paths = [Path(p) for p in path] if isinstance(path, (list, tuple)) else [Path(path)]
    if not paths:
        raise InputError("path is an empty list: give a file, a folder or a list of files")
    for one in paths:
        if not one.exists():
            raise FileNotFoundError(f"{one}: no such file or folder")
    source = paths[0] if len(paths) == 1 else Path(os.path.commonpath(paths))
    if len(paths) > 1 or source.is_dir():
        cells, fmt, measure = read_trec_eval_files(paths, source, fmt, measure)
    else:
        cells, fmt, measure = _read_file(source, fmt, measure, transpose,
                                         measure if sheet is None else sheet,
                                         _read_once(source), topic_ids)
    if measure is not None and fmt == "wide":
        warnings.warn(f"{source}: measure={measure!r} is not used: a wide CSV/TSV file holds the "
                      "scores of one measure, read as they are", stacklevel=2)
    if sheet is not None and fmt != "xlsx":
        warnings.warn(f"{source}: sheet={sheet!r} is not used: only an .xlsx workbook has "
                      "sheets", stacklevel=2)
    if topic_ids is not None and fmt not in ("wide", "xlsx"):
        raise InputError(f"{source}: topic_ids={topic_ids} (--topic-ids/--no-topic-ids) applies "
                         f"to wide CSV/TSV and .xlsx files, not to {fmt} files")
    if fmt in ("wide", "xlsx"):
        _warn_corner(source, cells, transpose)
    if transpose:
        if fmt not in ("wide", "xlsx"):
            raise InputError(f"{source}: transpose applies to wide CSV/TSV and .xlsx files, "
                             f"not to {fmt} files")
        where = cells.where
        cells = Cells(cells.frame.T, lambda i, j: where(j, i))
    hint = _TREC_EVAL_HINT if fmt == "trec_eval" else "" if transpose or fmt == "long" \
        else _TRANSPOSE_HINT
    check_spellings(cells.frame.index, source)
    frame = _finish(cells, source, drop_incomplete_topics, one_run_hint=hint,
                    missing_hint=_TREC_EVAL_MISSING if fmt == "trec_eval" else "")
    wide = fmt in ("wide", "xlsx") and not transpose
    check_labels(frame, source, header_runs=wide, run_ids=wide)
    if fmt in ("wide", "xlsx"):
        warn_numbered_runs(frame, source, transpose=transpose)
    frame.attrs.update(source=str(source), format=fmt, measure=measure,
                       topic_ids=getattr(cells, "topic_ids", None))
    return frame


#: Corner cells (lower case) that name a wide file's rows: runs where its rows are read as
#: topics, or topics where they are read as runs (``transpose``).
_CORNERS = {False: {"run", "runs", "run_id", "runid", "run id", "runtag", "system", "systems"},
            True: {"topic", "topics", "topic_id", "topicid", "topic id", "qid", "query",
                   "query_id", "queries"}}


def _warn_corner(source, cells, transpose: bool) -> None:
    """Warn where a wide file's corner cell names its rows the other kind: "run" over rows
    read as topics (a file of runs by topics read without ``transpose``, whose V_E would be
    that of the wrong axis: 0.0057 for TREC 2010 Web AP's 0.0084), or "topic" over rows read
    as runs."""
    corner = cells.corner.strip()
    if corner.lower() in _CORNERS[transpose]:
        rows, named, fix = ("runs", "topics", "without transpose (no --transpose)") \
            if transpose else ("topics", "runs", "with transpose=True (--transpose)")
        warnings.warn(f"{source}: its first column is headed {corner!r}, but its "
                      f"{cells.frame.shape[0]} rows are read as {rows}; if they are {named}, "
                      f"read it {fix}", stacklevel=3)


def _read_once(path: Path) -> bytes | None:
    """The bytes of a file that cannot be read twice, read once: a pipe (``<(...)``,
    ``/dev/stdin``), a FIFO, a device, a ``/proc`` file (which says it is empty); None for a
    regular file, read where needed. A read error is a one-line OSError naming the file."""
    import stat

    info = os.stat(path)
    if stat.S_ISREG(info.st_mode) and info.st_size > 0:
        return None
    return read_whole(path)


def _read_file(path: Path, fmt: str | None, measure: str | None, transpose: bool,
               sheet: str | None, data: bytes | None = None, topic_ids: bool | None = None):
    """Cells, format and measure of one file (any format).

    The format is detected from the file's first MiB; a clean wide CSV/TSV is then parsed by
    pandas' C reader straight from the file (:func:`parse_wide_numbers`), without a copy of its
    text, and anything else is read whole and parsed field by field. ``data`` is the whole file
    where it was read into memory already (:func:`_read_once`): everything is then read from it.
    """
    head = _head_bytes(path) if data is None else nonempty_bytes(path, data)
    if head.startswith(b"PK\x03\x04") and fmt in (None, "xlsx"):
        return read_xlsx(path, sheet, transpose, data, topic_ids), "xlsx", sheet
    if fmt == "xlsx":
        raise InputError(f"{path}: not an .xlsx workbook")
    if fmt is None:
        refuse_other_input(path)    # a workbook that is no zip, a TOML spec...
        start = decode_text(path, head)
        refuse_trec_input(path, start)
        fmt = _detect(start)
    if fmt == "wide":
        cells = parse_wide_numbers(path, head, data, topic_ids)  # clean: pandas' C reader
        if cells is not None:
            return cells, fmt, measure
    text = decode_text(path, nonempty_bytes(path, data))
    if fmt == "wide":                               # field by field, naming the culprit
        return (parse_wide(csv_rows(text, path), path, "line", "field", transpose,
                           topic_ids=topic_ids), fmt, measure)
    if fmt == "trec_eval":
        run, by_topic, measure = parse_trec_eval(text, path, measure)
        return cells_from_records({run: by_topic}, {run: path.name}), fmt, measure
    cells, measure = parse_long(text, path, measure)
    return cells, fmt, measure


#: Bytes read to detect the format: some 200 lines of any usual file.
_HEAD_BYTES = 1 << 20


def _head_bytes(path: Path) -> bytes:
    """The file's first MiB up to its last whole line (the whole file if that is shorter);
    the whole file if those bytes are blank (so that an empty file is refused as before)."""
    with path.open("rb") as stream:
        head = stream.read(_HEAD_BYTES)
        more = stream.read(1)
    if more and head.strip():
        cut = head.rfind(b"\n")
        return head[:cut + 1] if cut > 0 else head
    return head if head.strip() else nonempty_bytes(path)


def holds_measures(path, fmt: str | None = None) -> bool:
    """Whether :func:`read_matrix` picks a measure in ``path`` (its ``measure``): a folder of
    trec_eval files, an .xlsx workbook (a sheet) or a long-format or trec_eval text file; not a
    wide CSV/TSV, which holds one measure (read from the first MiB, as the reader detects it).

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "w.csv").write_text("topic,a,b\\n1,0.1,0.2\\n")
    >>> _ = (d / "l.csv").write_text("run,topic,measure,value\\na,1,AP,0.1\\n")
    >>> holds_measures(d / "w.csv"), holds_measures(d / "l.csv"), holds_measures(d)
    (False, True, True)
    """
    path = Path(path)
    if fmt is not None or path.is_dir():
        return fmt != "wide"
    head = _head_bytes(path)
    return head.startswith(b"PK\x03\x04") or _detect(decode_text(path, head)) != "wide"


def _detect(text: str) -> str:
    """Guess the format of a text file from its first lines."""
    lines = list(islice((line for line in text.splitlines() if line.strip()), 200))
    tokens = [line.split() for line in lines]
    delimiter = guess_delimiter(lines[0])
    first = [f.strip().lower() for f in split_fields(lines[0], delimiter)]
    if long_header(first) is not None:
        return "long"
    if all(len(t) == 3 and (is_numeric(t[2]) or t[0] == "runid") for t in tokens) and (
            any(t[1] == SUMMARY_TOPIC for t in tokens)
            or len({t[0] for t in tokens}) < len(tokens)):
        return "trec_eval"
    if len(first) == 4 and len(lines) > 1:
        row = split_fields(lines[1], delimiter)

        def measure(field: str) -> bool:    # a measure's name: not a number, and not blank (a
            return bool(field.strip()) and not is_numeric(field)    # wide file's missing score)

        if len(row) == 4 and measure(row[2]) and is_numeric(row[3]) and not is_numeric(first[3]):
            return "long"
        if len(row) == 4 and measure(first[2]) and measure(row[2]) and is_numeric(first[3]):
            return "long"
    return "wide"


def _is_numbers(raw: pd.DataFrame) -> bool:
    """True for cells already parsed to floats (:func:`parse_wide_numbers`), not raw text."""
    return all(dtype == np.float64 for dtype in raw.dtypes)


def _missing_and_numbers(raw: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Which cells are missing, and the number in each cell (NaN where it is not a number)."""
    if _is_numbers(raw):                            # parsed by pandas' C reader
        numbers = raw.to_numpy()
        return np.isnan(numbers), numbers
    flat = pd.Series(raw.to_numpy(dtype=object).ravel())
    text = flat.map(lambda v: v.strip() if isinstance(v, str) else v)
    missing = text.map(lambda v: v is None or (isinstance(v, float) and math.isnan(v))
                       or (isinstance(v, str) and v.lower() in MISSING_TOKENS)).to_numpy()
    numbers = parse_floats(text.where(~missing, np.nan))
    return missing.reshape(raw.shape), numbers.reshape(raw.shape)


def _finish(cells: Cells, path: Path, drop_incomplete_topics: bool,
            one_run_hint: str = "", missing_hint: str = "") -> pd.DataFrame:
    """Check the cells and turn them into the float score matrix (hints end two errors)."""
    raw = cells.frame
    missing, numbers = _missing_and_numbers(raw)
    bad = ~missing & ~np.isfinite(numbers)

    def cell(i, j):
        return f"topic {raw.index[i]!r}, run {raw.columns[j]!r} ({cells.where(i, j)})"

    if bad.any():
        i, j = np.argwhere(bad)[0]
        value = raw.iat[i, j]
        kind = "non-numeric score" if np.isnan(numbers[i, j]) else "non-finite score"
        hint = ("; a decimal comma? write the numbers with a decimal point"
                if isinstance(value, str) and _DECIMAL_COMMA.fullmatch(value.strip()) else "")
        raise InputError(f"{path}: {kind} {value!r} at {cell(i, j)}{hint}")
    empty = np.flatnonzero(missing.all(axis=0))
    if empty.size and len(raw.index) > 1:   # a review: "drop the 48 incomplete topic(s)", all
        names = ", ".join(repr(str(raw.columns[j])) for j in empty[:_SHOWN])
        more = f" and {empty.size - _SHOWN} more" if empty.size > _SHOWN else ""
        raise InputError(f"{path}: run {names}{more} has no score on any topic: remove its "
                         f"column (dropping the incomplete topics would drop all "
                         f"{len(raw.index)})")
    incomplete = missing.any(axis=1)
    if incomplete.any():
        if not drop_incomplete_topics:
            where = np.argwhere(missing)
            shown = "; ".join(cell(i, j) for i, j in where[:_SHOWN])
            more = f" and {len(where) - _SHOWN} more" if len(where) > _SHOWN else ""
            raise InputError(f"{path}: missing scores at {shown}{more}; drop the "
                             f"{int(incomplete.sum())} incomplete topic(s) with drop_incomplete_"
                             f"topics=True (--drop-incomplete-topics){missing_hint}")
        dropped = [str(t) for t in raw.index[incomplete]]
        warnings.warn(f"{path}: dropped {len(dropped)} of {len(raw.index)} topics with missing "
                      f"scores: {', '.join(dropped[:10])}{' ...' if len(dropped) > 10 else ''}",
                      IncompleteTopicsWarning, stacklevel=3)
    else:
        dropped = []
    topics = pd.Index(raw.index[~incomplete], name="topic", dtype=str)
    runs = pd.Index(raw.columns, name="run", dtype=str)
    if _is_numbers(raw) and not incomplete.any():   # pandas' C reader's frame: relabel, no copy
        frame = raw.set_axis(topics, axis=0).set_axis(runs, axis=1)
    else:
        frame = pd.DataFrame(numbers[~incomplete], index=topics, columns=runs)
    hint = one_run_hint if frame.shape[1] < 2 <= frame.shape[0] else ""
    if dropped and frame.shape[0] < 2:      # the warning that says so is not shown beside an error
        hint = (f"; drop_incomplete_topics (--drop-incomplete-topics) dropped the other "
                f"{len(dropped)} of its {len(raw.index)} topics, which have missing scores")
    check_shape(frame.shape, str(path), frame.index, frame.columns, hint=hint)
    outside = (numbers < -STRAY_SLACK) | (numbers > 1 + STRAY_SLACK)
    count = int(np.count_nonzero(outside))      # located only where it is a few strays
    if 0 < count <= STRAY_SHARE * numbers.size:
        shown = "; ".join(f"{raw.iat[i, j]} at {cell(i, j)}"
                          for i, j in np.argwhere(outside)[:_SHOWN])
        warnings.warn(StrayScoreWarning(
            f"{path}: {count} of {numbers.size:,} scores outside [0, 1], where all the "
            f"others are within it: {shown}{' ...' if count > _SHOWN else ''}; a score "
            "in percent, or a typo? The variances and every n sized on them depend on it"),
            stacklevel=3)
    frame.attrs["dropped_topics"] = dropped
    return frame
