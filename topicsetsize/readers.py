"""Score matrices in: from files (CSV/TSV, .xlsx, ``trec_eval -q``, long format) or from memory.

A score matrix has the **topics as rows** and the **runs as columns** (``docs/formulas.md``). Every
estimate in the package takes one, as a :class:`pandas.DataFrame` or a 2-D array-like, and
checks it with :func:`check_matrix`; :func:`read_matrix` reads one from a file and returns a
DataFrame with string topic ids as the index, string run names as the columns and float values.

Supported files (``fmt``; detected from the content when ``fmt`` is None):

``"wide"``
    CSV, TSV or blank-separated; the first column holds the topic ids, the header the run
    names (``transpose=True`` when the runs are the rows). A header without the corner cell,
    as R's ``write.table`` writes it, is accepted.
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

The writers :func:`write_trec_eval` and :func:`write_long` produce the last two formats (with
full float precision, atomically).
"""

from __future__ import annotations

import csv
import io
import math
import numbers
import os
import re
import warnings
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from ._atomic import atomic_path
from .params import check_choice

__all__ = [
    "FORMATS",
    "ScoreMatrix",
    "IncompleteTopicsWarning",
    "check_matrix",
    "read_matrix",
    "write_trec_eval",
    "write_long",
]

#: The file formats :func:`read_matrix` understands.
FORMATS = ("wide", "xlsx", "trec_eval", "long")

#: How many offending cells an error message lists.
_SHOWN = 3


class IncompleteTopicsWarning(UserWarning):
    """Emitted when ``drop_incomplete_topics=True`` drops topics with missing scores."""


# --------------------------------------------------------------------------------------------
# In-memory matrices
# --------------------------------------------------------------------------------------------

class ScoreMatrix(NamedTuple):
    """A checked score matrix: float ``values`` (topics × runs) and a DataFrame's labels."""

    values: np.ndarray
    topics: pd.Index | None
    runs: pd.Index | None

    def like_input(self, values: np.ndarray):
        """``values`` (same shape) as a DataFrame with these labels, or as an ndarray."""
        if self.topics is None:
            return values
        return pd.DataFrame(values, index=self.topics, columns=self.runs)


def check_matrix(scores, *, name: str = "scores", min_topics: int = 2,
                 min_runs: int = 2) -> ScoreMatrix:
    """Check a topics × runs score matrix and return its float values (and labels).

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        Topics as rows, runs as columns.
    name : str
        The argument's name, used in error messages.
    min_topics, min_runs : int
        The smallest acceptable number of topics (rows) and runs (columns).

    Returns
    -------
    ScoreMatrix
        ``values`` (a float ndarray), and ``topics``/``runs`` (the DataFrame's index and
        columns; None for an array).

    Raises
    ------
    ValueError
        One line: a value that is not a finite number (with its topic and run), or too few
        topics or runs.

    Examples
    --------
    >>> check_matrix([[0.1, 0.2], [0.3, 0.4]]).values.shape
    (2, 2)
    >>> check_matrix([[0.1, float("nan")], [0.3, 0.4]])
    Traceback (most recent call last):
    ...
    ValueError: scores: missing or non-finite value nan at row 1, column 2
    >>> check_matrix(pd.DataFrame({"runA": [0.1, 0.2]}, index=["t1", "t2"]))
    Traceback (most recent call last):
    ...
    ValueError: scores has 1 run ('runA'): a score matrix needs at least 2 runs (columns)
    """
    if isinstance(scores, pd.DataFrame):
        topics, runs = scores.index, scores.columns
    else:
        topics = runs = None
    if topics is not None:
        raw = scores.to_numpy()
    elif isinstance(scores, np.ndarray):
        raw = scores
    else:                                   # lists: keep each cell's own type
        raw = np.asarray(scores, dtype=object)
        if raw.ndim == 2 and all(type(v) is float for v in raw.flat):
            raw = raw.astype(float)
    if raw.dtype.kind in "biuf":
        values = raw.astype(float)
    else:
        # Text, None or mixed cells: only real numbers count. Numbers stored as text ('0.5')
        # are refused rather than parsed, so the data is never silently changed.
        raw = raw.astype(object)
        values = np.vectorize(_to_float, otypes=[float])(raw) if raw.ndim == 2 else raw
    if values.ndim != 2:
        raise ValueError(f"{name} must be a 2-D matrix (topics as rows, runs as columns); "
                         f"got {values.ndim} dimension(s)")
    bad = ~np.isfinite(values)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        where = (f"topic {topics[i]!r}, run {runs[j]!r}" if topics is not None
                 else f"row {i + 1}, column {j + 1}")
        cell = raw[i, j]
        cell = float(cell) if isinstance(cell, np.floating) else cell
        kind = "missing or non-finite value" if _is_number(cell) else "non-numeric value"
        raise ValueError(f"{name}: {kind} {cell!r} at {where}")
    _check_shape(values.shape, name, topics, runs, min_topics, min_runs)
    return ScoreMatrix(values, topics, runs)


def _to_float(value) -> float:
    """A real number as float; anything else (text, None, a bool) as NaN, reported later."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.number)):
        return math.nan
    return float(value)


def _is_number(value) -> bool:
    return value is None or value is pd.NA or isinstance(value, (int, float, np.number))


def _check_shape(shape, name, topics, runs, min_topics=2, min_runs=2, hint="") -> None:
    n_topics, n_runs = shape
    for count, least, what, axis, labels in ((n_runs, min_runs, "run", "columns", runs),
                                             (n_topics, min_topics, "topic", "rows", topics)):
        if count < least:
            shown = f" ({labels[0]!r})" if count == 1 and labels is not None else ""
            raise ValueError(f"{name} has {count} {what}{'' if count == 1 else 's'}{shown}: "
                             f"a score matrix needs at least {least} {what}s ({axis}){hint}")


# --------------------------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------------------------

#: Cell texts read as "no score here" (case-insensitive, after stripping blanks).
MISSING_TOKENS = frozenset({"", "na", "nan", "n/a", "null", "none"})

#: Header names of the long format's columns (case-insensitive).
LONG_COLUMNS = {
    "run": ("run", "run_id", "runid", "run_name", "system", "system_id", "sys"),
    "topic": ("topic", "topic_id", "topicid", "query", "query_id", "queryid", "qid"),
    "measure": ("measure", "metric", "measure_name", "metric_name"),
    "value": ("value", "score", "val"),
}

_SUMMARY_TOPIC = "all"          # trec_eval's summary rows
_TRANSPOSE_HINT = "; if the runs are the rows, use transpose=True (--transpose)"
_TREC_EVAL_HINT = "; a trec_eval -q file holds one run: give the folder (or list) of run files"
_BINARY_MAGIC = (b"\x1f\x8b", b"BZh", b"\x89PNG", b"%PDF", b"\xd0\xcf\x11\xe0", b"7z\xbc\xaf")


class _Cells(NamedTuple):
    """Raw cells (topics × runs, object values; None = absent) and where each one came from."""

    frame: pd.DataFrame
    where: object               # callable (i, j) -> str, e.g. "line 4, field 3"


def read_matrix(path, *, measure: str | None = None, fmt: str | None = None,
                transpose: bool = False, drop_incomplete_topics: bool = False) -> pd.DataFrame:
    """Read a topics × runs score matrix from a file or a folder of ``trec_eval -q`` files.

    Parameters
    ----------
    path : str, path-like, or a list of them
        A CSV/TSV file, an .xlsx workbook, a long-format file, or the ``trec_eval -q`` output
        of the runs: a folder of files (one per run) or a list of files.
    measure : str, optional
        The measure to read (e.g. ``"map"``, ``"P_10"``, ``"ndcg_cut_10"``) from ``trec_eval``
        and long-format files; needed when a file holds several. For an .xlsx workbook it names
        the sheet (when the workbook has a sheet of that name). A wide CSV/TSV holds one
        measure, so there it is not used.
    fmt : {"wide", "xlsx", "trec_eval", "long"}, optional
        The file format; detected from the content when None.
    transpose : bool, default False
        For wide files (CSV/TSV/xlsx): the runs are the rows and the header holds topic ids.
    drop_incomplete_topics : bool, default False
        Drop the topics that lack a score for some run, instead of raising. A
        :class:`IncompleteTopicsWarning` says how many were dropped and
        ``frame.attrs["dropped_topics"]`` lists them.

    Returns
    -------
    pandas.DataFrame
        Topics as the index (``str``, named ``"topic"``), runs as the columns (``str``, named
        ``"run"``), float values; at least 2 topics and 2 runs. ``attrs`` holds ``source``,
        ``format``, ``measure`` and ``dropped_topics``.

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
    ValueError: .../scores.csv: non-numeric score 'high' at topic '402', run 'dfr' (line 3, field 3)
    """
    if fmt is not None:
        fmt = check_choice("fmt", fmt, FORMATS)
    paths = [Path(p) for p in path] if isinstance(path, (list, tuple)) else [Path(path)]
    if not paths:
        raise ValueError("path is an empty list: give a file, a folder or a list of files")
    for one in paths:
        if not one.exists():
            raise FileNotFoundError(f"{one}: no such file or folder")
    source = paths[0] if len(paths) == 1 else Path(os.path.commonpath(paths))
    if len(paths) > 1 or source.is_dir():
        cells, fmt, measure = _read_trec_eval_files(paths, source, fmt, measure)
    else:
        cells, fmt, measure = _read_file(source, fmt, measure, transpose)
    if transpose:
        if fmt not in ("wide", "xlsx"):
            raise ValueError(f"{source}: transpose applies to wide CSV/TSV and .xlsx files, "
                             f"not to {fmt} files")
        where = cells.where
        cells = _Cells(cells.frame.T, lambda i, j: where(j, i))
    hint = _TREC_EVAL_HINT if fmt == "trec_eval" else "" if transpose or fmt == "long" \
        else _TRANSPOSE_HINT
    frame = _finish(cells, source, drop_incomplete_topics, one_run_hint=hint)
    frame.attrs.update(source=str(source), format=fmt, measure=measure)
    return frame


def _read_file(path: Path, fmt: str | None, measure: str | None, transpose: bool):
    """Cells, format and measure of one file (any format)."""
    data = _nonempty_bytes(path)
    if data.startswith(b"PK\x03\x04") and fmt in (None, "xlsx"):
        return _read_xlsx(path, measure, transpose), "xlsx", measure
    if fmt == "xlsx":
        raise ValueError(f"{path}: not an .xlsx workbook")
    text = _decode(path, data)
    fmt = fmt or _detect(text)
    if fmt == "wide":
        return _parse_wide(_csv_rows(text, path), path, "line", "field", transpose), fmt, measure
    if fmt == "trec_eval":
        run, by_topic, measure = _parse_trec_eval(text, path, measure)
        return _cells_from_records({run: by_topic}, {run: path.name}), fmt, measure
    cells, measure = _parse_long(text, path, measure)
    return cells, fmt, measure


def _nonempty_bytes(path: Path) -> bytes:
    data = path.read_bytes()
    if not data.strip():
        raise ValueError(f"{path}: the file is empty")
    return data


def _decode(path: Path, data: bytes) -> str:
    head = data[:8192]
    control = sum(byte < 32 and byte not in b"\t\n\r\f\v\b" for byte in head)
    if b"\x00" in head or head.startswith(_BINARY_MAGIC) or control > len(head) // 20:
        raise ValueError(f"{path}: a binary file, not a score matrix (expected CSV/TSV text, "
                         "trec_eval output, the long format or an .xlsx workbook)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _delimiter(line: str) -> str | None:
    """Tab or comma when the line has one, else None (runs of blanks)."""
    return "\t" if "\t" in line else "," if "," in line else None


def _split(line: str, delimiter: str | None) -> list[str]:
    return line.split() if delimiter is None else next(csv.reader([line], delimiter=delimiter))


def _detect(text: str) -> str:
    """Guess the format of a text file from its first lines."""
    lines = [line for line in text.splitlines() if line.strip()][:200]
    tokens = [line.split() for line in lines]
    delimiter = _delimiter(lines[0])
    first = [f.strip().lower() for f in _split(lines[0], delimiter)]
    if _long_header(first) is not None:
        return "long"
    if all(len(t) == 3 and (_numeric(t[2]) or t[0] == "runid") for t in tokens) and (
            any(t[1] == _SUMMARY_TOPIC for t in tokens)
            or len({t[0] for t in tokens}) < len(tokens)):
        return "trec_eval"
    if len(first) == 4 and len(lines) > 1:
        row = _split(lines[1], delimiter)
        if len(row) == 4 and not _numeric(row[2]) and _numeric(row[3]) and not _numeric(first[3]):
            return "long"
        if len(row) == 4 and not _numeric(first[2]) and not _numeric(row[2]) and _numeric(first[3]):
            return "long"
    return "wide"


def _numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _csv_rows(text: str, path: Path) -> list[tuple[int, list[str]]]:
    """Non-blank rows of a CSV/TSV text with their line numbers; raises on ragged rows."""
    delimiter = _delimiter(next(line for line in text.splitlines() if line.strip()))
    reader = csv.reader(io.StringIO(text), delimiter=delimiter or " ", skipinitialspace=True)
    rows = []
    try:
        for fields in reader:
            if any(f.strip() for f in fields):
                rows.append((reader.line_num, [f.strip() for f in fields]))
    except csv.Error as exc:
        raise ValueError(f"{path}: line {reader.line_num}: {exc}") from None
    widths = [_trimmed_width(fields) for _, fields in rows]
    width = max(widths)
    if len(rows) > 1 and len(rows[0][1]) == width - 1 == min(len(f) for _, f in rows[1:]) - 1:
        rows[0] = (rows[0][0], [""] + rows[0][1])      # R's write.table: no corner cell
        widths[0] += 1
    for line, fields in rows:
        if len(fields) < width:
            widest = rows[widths.index(width)][0]
            raise ValueError(f"{path}: ragged rows: line {line} has {len(fields)} fields but "
                             f"line {widest} has {width}")
    return [(line, fields[:width]) for line, fields in rows]


def _trimmed_width(fields: list[str]) -> int:
    """Number of fields without the trailing empty ones."""
    width = len(fields)
    while width and not fields[width - 1]:
        width -= 1
    return width


def _label(value) -> str:
    """A topic id or run name as text (Excel numbers 301.0 -> '301')."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return "" if value is None else str(value).strip()


def _parse_wide(rows, path: Path, line_word: str, field_word: str, transpose: bool,
                first_field: int = 1) -> _Cells:
    """Cells of a wide table: first row = run names (topic ids), first column = topic ids (runs).

    ``first_field`` is the number of the table's first field (column) in the file.
    """
    row_kind, column_kind = ("run name", "topic id") if transpose else ("topic id", "run name")
    (header_line, header), body = rows[0], rows[1:]
    columns = [_label(v) for v in header[1:]]
    row_labels = [_label(fields[0]) for _, fields in body]
    lines = [line for line, _ in body]
    def field(k: int) -> str:           # k = 0 for the label column
        return f"{field_word} {_field(field_word, first_field + k)}"

    for labels, kind, locate in ((columns, column_kind,
                                  lambda k: f"{line_word} {header_line}, {field(k + 1)}"),
                                 (row_labels, row_kind,
                                  lambda k: f"{line_word} {lines[k]}, {field(0)}")):
        seen: dict[str, int] = {}
        for k, label in enumerate(labels):
            if not label:
                raise ValueError(f"{path}: empty {kind} at {locate(k)}")
            if label in seen:
                raise ValueError(f"{path}: duplicate {kind} {label!r} at {locate(seen[label])} "
                                 f"and {locate(k)}")
            seen[label] = k
    frame = pd.DataFrame([fields[1:] for _, fields in body], index=row_labels, columns=columns,
                         dtype=object)

    def where(i: int, j: int) -> str:
        return f"{line_word} {lines[i]}, {field(j + 1)}"

    return _Cells(frame, where)


def _field(word: str, number: int) -> str:
    """Field number as text: 3 for CSV fields, C for spreadsheet columns."""
    if word == "field":
        return str(number)
    from openpyxl.utils import get_column_letter

    return get_column_letter(number)


def _read_xlsx(path: Path, measure: str | None, transpose: bool) -> _Cells:
    import openpyxl

    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a damaged file
        raise ValueError(f"{path}: not a readable .xlsx workbook ({type(exc).__name__}: "
                         f"{exc})") from None
    try:
        names = book.sheetnames
        if measure is not None and measure in names:
            sheet = book[measure]
        elif measure is not None and len(names) > 1:
            raise ValueError(f"{path}: no sheet named {measure!r}; sheets: {', '.join(names)}")
        else:
            sheet = book.worksheets[0]
        rows = [(r, list(values)) for r, values in enumerate(sheet.iter_rows(values_only=True), 1)
                if any(v is not None and str(v).strip() for v in values)]
    finally:
        book.close()
    if not rows:
        raise ValueError(f"{path}: the sheet {sheet.title!r} is empty")
    texts = [[_label(v) for v in values] for _, values in rows]
    width = max(_trimmed_width(t) for t in texts)
    lead = min(next((k for k, v in enumerate(t) if v), width) for t in texts)   # empty columns
    rows = [(r, (values + [None] * width)[lead:width]) for r, values in rows]
    return _parse_wide(rows, path, "row", "column", transpose, first_field=lead + 1)


def _parse_trec_eval(text: str, path: Path, measure: str | None):
    """One ``trec_eval -q`` file: (run name, {topic: (value text, where)}, measure)."""
    run = path.stem
    per_measure: dict[str, dict[str, tuple[str, str]]] = {}
    for line_no, line in enumerate(text.splitlines(), 1):
        tokens = line.split()
        if not tokens:
            continue
        if len(tokens) != 3:
            raise ValueError(f"{path}: line {line_no} is not trec_eval -q output (measure, topic, "
                             f"value): {line.strip()[:60]!r}")
        name, topic, value = tokens
        if topic == _SUMMARY_TOPIC:
            if name == "runid":
                run = value
            continue
        topics = per_measure.setdefault(name, {})
        if topic in topics:
            raise ValueError(f"{path}: duplicate score for measure {name!r}, topic {topic!r} "
                             f"({topics[topic][1]} and line {line_no})")
        topics[topic] = (value, f"line {line_no} of {path.name}")
    measure = _pick_measure(measure, per_measure, path)
    return run, per_measure[measure], measure


def _pick_measure(measure, available, path) -> str:
    names = list(available)
    if measure is None and len(names) == 1:
        return names[0]
    if measure in available:
        return measure
    shown = ", ".join(names[:20]) + (f", ... ({len(names)} in all)" if len(names) > 20 else "")
    if measure is None:
        raise ValueError(f"{path}: several measures; choose one with measure= (--measure): "
                         f"{shown}")
    if not names:
        raise ValueError(f"{path}: no per-topic scores in the file")
    raise ValueError(f"{path}: no measure {measure!r}; the measures in the file are: {shown}")


def _read_trec_eval_files(paths: list[Path], source: Path, fmt: str | None,
                          measure: str | None):
    """Cells of a folder, or a list, of ``trec_eval -q`` files (one run each)."""
    if fmt not in (None, "trec_eval"):
        raise ValueError(f"{source}: only trec_eval output is read from a folder or a list of "
                         "files (one file per run)")
    if len(paths) == 1:
        paths = sorted((p for p in source.iterdir() if p.is_file()
                        and not p.name.startswith(".")), key=_natural)
        if not paths:
            raise ValueError(f"{source}: the folder has no files (expected one trec_eval -q "
                             "file per run)")
    records, origins = {}, {}
    for path in paths:
        if path.is_dir():
            raise ValueError(f"{path} is a folder: give trec_eval -q files, or one folder")
        run, by_topic, measure_here = _parse_trec_eval(_decode(path, _nonempty_bytes(path)),
                                                       path, measure)
        if run in records:
            raise ValueError(f"{source}: duplicate run name {run!r} in {origins[run]} and "
                             f"{path.name}")
        if measure is None:
            measure = measure_here
        records[run], origins[run] = by_topic, path.name
    return _cells_from_records(records, origins), "trec_eval", measure


def _natural(path: Path) -> list:
    """Sort key that puts run2.txt before run10.txt."""
    return [int(part) if part.isdigit() else part.lower()
            for part in re.split(r"(\d+)", path.name)]


def _long_header(fields: list[str]) -> dict[str, int] | None:
    """Column positions of a long-format header, or None when the row is not one."""
    found = {}
    for key, names in LONG_COLUMNS.items():
        hits = [k for k, f in enumerate(fields) if f in names]
        if hits:
            found[key] = hits[0]
    if {"run", "topic", "value"} <= found.keys():
        return found
    return None


def _parse_long(text: str, path: Path, measure: str | None):
    rows = _csv_rows(text, path)
    columns = _long_header([f.lower() for f in rows[0][1]])
    if columns is None:
        if len(rows[0][1]) != 4:
            raise ValueError(f"{path}: a long-format file without a header needs 4 columns "
                             f"(run, topic, measure, value); line {rows[0][0]} has "
                             f"{len(rows[0][1])}")
        columns = dict(run=0, topic=1, measure=2, value=3)
    else:
        rows = rows[1:]
    per_measure: dict[str, dict[str, dict[str, tuple[str, str]]]] = {}
    for line, fields in rows:
        name = fields[columns["measure"]] if "measure" in columns else measure
        run, topic, value = (fields[columns[k]] for k in ("run", "topic", "value"))
        if topic == _SUMMARY_TOPIC:
            continue
        if not run or not topic:
            raise ValueError(f"{path}: line {line}: empty {'run' if not run else 'topic'}")
        by_topic = per_measure.setdefault(name, {}).setdefault(run, {})
        if topic in by_topic:
            raise ValueError(f"{path}: duplicate score for run {run!r}, topic {topic!r}, "
                             f"measure {name!r} ({by_topic[topic][1]} and line {line})")
        by_topic[topic] = (value, f"line {line}")
    measure = _pick_measure(measure, per_measure, path)
    return _cells_from_records(per_measure[measure], {}), measure


def _cells_from_records(records: dict[str, dict[str, tuple[str, str]]],
                        origins: dict[str, str]) -> _Cells:
    """Cells from {run: {topic: (value text, where)}}; topics in order of first appearance."""
    topics = list(dict.fromkeys(t for by_topic in records.values() for t in by_topic))
    runs = list(records)
    frame = pd.DataFrame({run: [records[run].get(t, (None,))[0] for t in topics]
                          for run in runs}, index=topics, dtype=object)

    def where(i: int, j: int) -> str:
        run, topic = runs[j], topics[i]
        if topic in records[run]:
            return records[run][topic][1]
        return f"no line for it{' in ' + origins[run] if run in origins else ''}"

    return _Cells(frame, where)


def _finish(cells: _Cells, path: Path, drop_incomplete_topics: bool,
            one_run_hint: str = "") -> pd.DataFrame:
    """Check the cells and turn them into the float score matrix."""
    raw = cells.frame
    flat = pd.Series(raw.to_numpy(dtype=object).ravel())
    text = flat.map(lambda v: v.strip() if isinstance(v, str) else v)
    missing = text.map(lambda v: v is None or (isinstance(v, float) and math.isnan(v))
                       or (isinstance(v, str) and v.lower() in MISSING_TOKENS)).to_numpy()
    numbers = pd.to_numeric(text.where(~missing, np.nan), errors="coerce").to_numpy(dtype=float)
    shape = raw.shape
    missing = missing.reshape(shape)
    numbers = numbers.reshape(shape)
    bad = ~missing & ~np.isfinite(numbers)

    def cell(i, j):
        return f"topic {raw.index[i]!r}, run {raw.columns[j]!r} ({cells.where(i, j)})"

    if bad.any():
        i, j = np.argwhere(bad)[0]
        value = raw.iat[i, j]
        kind = "non-numeric score" if np.isnan(numbers[i, j]) else "non-finite score"
        raise ValueError(f"{path}: {kind} {value!r} at {cell(i, j)}")
    incomplete = missing.any(axis=1)
    if incomplete.any():
        if not drop_incomplete_topics:
            where = np.argwhere(missing)
            shown = "; ".join(cell(i, j) for i, j in where[:_SHOWN])
            more = f" and {len(where) - _SHOWN} more" if len(where) > _SHOWN else ""
            raise ValueError(f"{path}: missing scores at {shown}{more}; drop the "
                             f"{int(incomplete.sum())} incomplete topic(s) with "
                             "drop_incomplete_topics=True (--drop-incomplete-topics)")
        dropped = [str(t) for t in raw.index[incomplete]]
        warnings.warn(f"{path}: dropped {len(dropped)} of {len(raw.index)} topics with missing "
                      f"scores: {', '.join(dropped[:10])}{' ...' if len(dropped) > 10 else ''}",
                      IncompleteTopicsWarning, stacklevel=3)
    else:
        dropped = []
    frame = pd.DataFrame(numbers[~incomplete], index=pd.Index(raw.index[~incomplete], name="topic",
                                                              dtype=str),
                         columns=pd.Index(raw.columns, name="run", dtype=str))
    hint = one_run_hint if frame.shape[1] < 2 <= frame.shape[0] else ""
    _check_shape(frame.shape, str(path), frame.index, frame.columns, hint=hint)
    frame.attrs["dropped_topics"] = dropped
    return frame


# --------------------------------------------------------------------------------------------
# Writers
# --------------------------------------------------------------------------------------------

def _labelled(scores) -> pd.DataFrame:
    """A checked matrix as a DataFrame with text labels (arrays: topics 1.., runs run1..)."""
    matrix = check_matrix(scores, min_topics=1, min_runs=1)
    n, m = matrix.values.shape
    topics = matrix.topics if matrix.topics is not None else range(1, n + 1)
    runs = matrix.runs if matrix.runs is not None else [f"run{j}" for j in range(1, m + 1)]
    return pd.DataFrame(matrix.values, index=[str(t) for t in topics],
                        columns=[str(r) for r in runs])


def _check_token(kind: str, value: str) -> None:
    if not value or any(ch.isspace() for ch in value) or value == _SUMMARY_TOPIC:
        raise ValueError(f"{kind} {value!r} cannot be written as trec_eval output (it must be "
                         f"non-empty, without blanks, and not {_SUMMARY_TOPIC!r})")


def write_trec_eval(scores, *, folder, measure: str) -> list[Path]:
    """Write a score matrix as ``trec_eval -q`` output: one file per run, ``<run>.txt``.

    Each file holds a ``runid all <run>`` line, one ``<measure> <topic> <value>`` line per
    topic (full float precision, so :func:`read_matrix` gets the same numbers back) and the
    ``all`` summary line with the mean, as ``trec_eval -q`` prints it. Files are written
    atomically.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        Topics as rows, runs as columns (arrays: topics ``1..n``, runs ``run1..runm``).
    folder : str or path-like
        Created if needed.
    measure : str
        The measure name, e.g. ``"map"``.

    Returns
    -------
    list of pathlib.Path
        The files written, in run order.

    Examples
    --------
    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> paths = write_trec_eval([[0.25, 0.5], [0.125, 0.75]], folder=folder, measure="map")
    >>> print(paths[0].read_text(), end="")
    runid                 	all	run1
    map                   	1	0.25
    map                   	2	0.125
    map                   	all	0.1875
    >>> read_matrix(folder, measure="map").to_numpy().tolist()
    [[0.25, 0.5], [0.125, 0.75]]
    """
    frame = _labelled(scores)
    _check_token("measure", str(measure))
    for label in (*frame.index, *frame.columns):
        _check_token("topic/run label", label)
    names = [_file_name(run) for run in frame.columns]
    if len(set(names)) != len(names):
        raise ValueError("two run names map to the same file name: "
                         + repr(next(n for n in names if names.count(n) > 1)))
    folder = Path(folder)
    paths = []
    for run, name in zip(frame.columns, names):
        column = frame[run]
        lines = [f"{'runid':<22}\t{_SUMMARY_TOPIC}\t{run}"]
        lines += [f"{measure:<22}\t{topic}\t{value!r}" for topic, value in
                  zip(column.index, column.to_numpy().tolist())]
        lines.append(f"{measure:<22}\t{_SUMMARY_TOPIC}\t{float(column.mean())!r}")
        with atomic_path(folder / name) as tmp:
            tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(folder / name)
    return paths


def _file_name(run: str) -> str:
    safe = "".join(ch if ch.isalnum() or ch in "-_.+" else "_" for ch in run).lstrip(".")
    return f"{safe or 'run'}.txt"


def write_long(scores, *, path, measure: str) -> Path:
    """Write a score matrix in the long format: ``run, topic, measure, value``, one score a line.

    A header line names the columns. The file is TSV when ``path`` ends in ``.tsv`` or
    ``.tab``, CSV otherwise; values keep full float precision. Written atomically.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array-like
        Topics as rows, runs as columns (arrays: topics ``1..n``, runs ``run1..runm``).
    path : str or path-like
    measure : str

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "scores.csv"
    >>> out = write_long([[0.25, 0.5], [0.125, 0.75]], path=path, measure="map")
    >>> print(out.read_text(), end="")
    run,topic,measure,value
    run1,1,map,0.25
    run1,2,map,0.125
    run2,1,map,0.5
    run2,2,map,0.75
    """
    frame = _labelled(scores)
    if not str(measure).strip():
        raise ValueError("measure must be a non-empty name")
    path = Path(path)
    long = frame.rename_axis(index="topic", columns="run").T.stack().rename("value").reset_index()
    long.insert(2, "measure", str(measure))
    sep = "\t" if path.suffix.lower() in (".tsv", ".tab") else ","
    with atomic_path(path) as tmp:
        long.to_csv(tmp, sep=sep, index=False, lineterminator="\n")
    return path
