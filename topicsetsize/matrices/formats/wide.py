"""The wide layout: a header row of run names, a first column of topic ids (CSV, TSV, .xlsx)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pandas as pd

from .common import Cells, as_label, guess_delimiter
from ...errors import InputError

__all__ = ["parse_wide", "parse_wide_numbers"]

# pandas 2.x's C reader parses floats with its fast "high" precision routine, which is not
# always correctly rounded (up to ~5e-13 relative off Python's float()); "round_trip" is, at
# about the same speed. pandas 3 parses exactly by default and deprecates the argument.
_EXACT_FLOATS = {"float_precision": "round_trip"} if int(pd.__version__.split(".")[0]) < 3 else {}


def parse_wide_numbers(path: Path, head: bytes, data: bytes | None = None) -> Cells | None:
    """Cells of a clean wide CSV/TSV file, parsed by pandas' C reader; None when in doubt.

    The fast path for a big matrix: one :func:`pandas.read_csv` call (about its time and
    memory) and vectorised checks after it. It returns float cells only when the file is
    UTF-8, has a delimited header (its first line, in ``head``, the file's first bytes) of
    distinct, non-empty run names, distinct non-empty topic ids and a finite number in every
    other field of rows as wide as the header (read from ``data``, the whole file, where it
    was read into memory: a pipe cannot be read twice). Anything else
    (a missing score, a non-number, a ragged row, a duplicate label, a decimal comma, an
    unusual layout) returns None, and :func:`parse_wide` parses the file field by field and
    names the offending cell in its one-line error.
    """
    start = len(head) - len(head.lstrip())
    end = head.find(b"\n", start)
    try:
        first = head[start:None if end < 0 else end].decode("utf-8-sig").strip("\r")
    except UnicodeDecodeError:
        return None
    delimiter = guess_delimiter(first)
    if delimiter is None or first.count('"') % 2:
        return None
    try:        # a carriage return inside an unquoted name: the field-by-field parser says so
        header = [field.strip() for field in next(csv.reader([first], delimiter=delimiter,
                                                              skipinitialspace=True))]
    except csv.Error:
        return None
    runs = header[1:]
    if not runs or not all(runs) or len(set(runs)) < len(runs):
        return None
    try:
        body = pd.read_csv(path if data is None else io.BytesIO(data), sep=delimiter, header=None,
                           skiprows=head[:start].count(b"\n") + 1, index_col=0,
                           dtype={0: object}, na_filter=False, skipinitialspace=True,
                           encoding="utf-8-sig", engine="c", **_EXACT_FLOATS)
    except (ValueError, IndexError, pd.errors.ParserError, UnicodeDecodeError):
        return None
    if body.shape[1] + 1 != len(header) or body.shape[0] == 0 or not all(
            dtype.kind in "fi" for dtype in body.dtypes):     # a column with a non-number
        return None
    values = body.to_numpy(np.float64)    # one block (the reader makes one per column)
    topics = pd.Index([label.strip() for label in body.index], dtype=object)
    del body
    if not all(topics) or topics.has_duplicates or not np.isfinite(values).all():
        return None
    frame = pd.DataFrame(values, index=topics, columns=pd.Index(runs), copy=False)

    def where(i: int, j: int) -> str:  # pragma: no cover - a clean file has no cell to blame
        return f"topic {i + 1}, run {j + 1}"

    return Cells(frame, where)


def parse_wide(rows, path: Path, line_word: str, field_word: str, transpose: bool,
                first_field: int = 1) -> Cells:
    """Cells of a wide table: first row = run names (topic ids), first column = topic ids (runs).

    ``first_field`` is the number of the table's first field (column) in the file.
    """
    row_kind, column_kind = ("run name", "topic id") if transpose else ("topic id", "run name")
    (header_line, header), body = rows[0], rows[1:]
    columns = [as_label(v) for v in header[1:]]
    row_labels = [as_label(fields[0]) for _, fields in body]
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
                raise InputError(f"{path}: empty {kind} at {locate(k)}")
            if label in seen:
                raise InputError(f"{path}: duplicate {kind} {label!r} at {locate(seen[label])} "
                                 f"and {locate(k)}")
            seen[label] = k
    frame = pd.DataFrame([fields[1:] for _, fields in body], index=row_labels, columns=columns,
                         dtype=object)

    def where(i: int, j: int) -> str:
        return f"{line_word} {lines[i]}, {field(j + 1)}"

    return Cells(frame, where)


def _field(word: str, number: int) -> str:
    """Field number as text: 3 for CSV fields, C for spreadsheet columns."""
    if word == "field":
        return str(number)
    from openpyxl.utils import get_column_letter

    return get_column_letter(number)
