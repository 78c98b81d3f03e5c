"""The wide layout: a header row of run names, a first column of topic ids (CSV, TSV, .xlsx).

Many real matrices have no topic-id column: a header of run names and one score per run on
each line (R's ``write.csv(row.names = FALSE)``, simIReff's data). :func:`has_topic_ids` tells
the two layouts apart where the file settles it, and refuses in one line where it does not;
without ids the topics are numbered 1, 2, ... in the order of the lines.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pandas as pd

from ...errors import InputError
from .common import MISSING_TOKENS, Cells, as_label, guess_delimiter, label_key, parse_floats

__all__ = ["ID_LABELS", "has_topic_ids", "parse_wide", "parse_wide_numbers"]

#: Header labels of a topic-id column (:func:`~.common.label_key`'s form), and the
#: starts of such labels (``topic_no``, ``query number``); an empty corner cell (R's
#: ``write.csv``, pandas' ``to_csv``) says the same, and so does a corner that names the
#: columns' kind (``run``, ``system``).
ID_LABELS = frozenset({"", "id", "num", "number", "qno", "run", "runs", "system", "systems",
                       "sys"})
_ID_STARTS = ("topic", "query", "qid")

#: The option that settles the layout, as the messages name it.
_CHOICE = "topic_ids=True (--topic-ids) or topic_ids=False (--no-topic-ids)"


def has_topic_ids(corner: str, first, path, topic_ids: bool | None = None) -> bool:
    """Whether the first column of a wide table holds topic ids (else it is a run's scores).

    ``corner`` is the header's first field, ``first`` the first column's texts below it.
    ``topic_ids`` True or False is the caller's choice; None detects it: the first column holds
    ids when its header is empty or an id label (:data:`ID_LABELS`, or starting with
    ``topic``, ``query`` or ``qid``); scores when its numbers
    repeat or one is not whole (ids are distinct and, when numbers, whole; a text among such
    numbers is then a bad score, and named as one); ids when a value is not a number.
    Distinct whole numbers under another header could be either: a one-line
    :class:`~topicsetsize.InputError` names the two readings.

    >>> has_topic_ids("topic", ["401", "402"], "f.csv")
    True
    >>> has_topic_ids("bm25", ["0.25", "0.5", "0.25"], "f.csv")
    False
    >>> has_topic_ids("bm25", ["1", "2"], "f.csv")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: f.csv: the first column 'bm25' holds distinct whole numbers: ...
    """
    if topic_ids is not None:
        return bool(topic_ids)
    label = label_key(as_label(corner))
    if label in ID_LABELS or label.startswith(_ID_STARTS):
        return True
    texts = pd.Series([str(v).strip() for v in first], dtype=object)
    texts = texts[~texts.str.lower().isin(MISSING_TOKENS)]
    numbers = parse_floats(texts)
    numbers = numbers[np.isfinite(numbers)]
    if (numbers != np.round(numbers)).any() or len(np.unique(numbers)) < len(numbers):
        return False            # scores (a text among them is a bad score, named as such)
    if len(numbers) < len(texts) or texts.empty:
        return True
    raise InputError(f"{path}: the first column {corner!r} holds distinct whole numbers: read "
                     f"as topic ids (then {corner!r} is not a run) or as the scores of run "
                     f"{corner!r} (then the topics are numbered 1..{len(first)}); choose with "
                     f"{_CHOICE}")


# pandas 2.x's C reader parses floats with its fast "high" precision routine, which is not
# always correctly rounded (up to ~5e-13 relative off Python's float()); "round_trip" is, at
# about the same speed. pandas 3 parses exactly by default and deprecates the argument.
_EXACT_FLOATS = {"float_precision": "round_trip"} if int(pd.__version__.split(".")[0]) < 3 else {}


def parse_wide_numbers(path: Path, head: bytes, data: bytes | None = None,
                       topic_ids: bool | None = None) -> Cells | None:
    """Cells of a clean wide CSV/TSV file, parsed by pandas' C reader; None when in doubt.

    The fast path for a big matrix: one :func:`pandas.read_csv` call (about its time and
    memory) and vectorised checks after it. It returns float cells only when the file is
    UTF-8, has a delimited header (its first line, in ``head``, the file's first bytes) of
    distinct, non-empty run names, distinct non-empty topic ids and a finite number in every
    other field of rows as wide as the header (read from ``data``, the whole file, where it
    was read into memory: a pipe cannot be read twice). Anything else
    (a missing score, a non-number, a ragged row, a duplicate label, a decimal comma, an
    unusual layout) returns None, and :func:`parse_wide` parses the file field by field and
    names the offending cell in its one-line error. Whether the first column holds topic ids is
    :func:`has_topic_ids`'s to say (``topic_ids`` as there).
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
    if len(header) < 2 or not all(header[1:]) or len(set(header[1:])) < len(header) - 1:
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
    runs, ids = header[1:], has_topic_ids(header[0], topics, path, topic_ids)
    if not ids:                                                     # the first run's scores
        first = parse_floats(pd.Series(topics, dtype=object))
        if not all(header) or len(set(header)) < len(header) or not np.isfinite(first).all():
            return None
        values, runs = np.column_stack([first, values]), header
        topics = pd.Index([str(k) for k in range(1, len(first) + 1)], dtype=object)
    if not all(topics) or topics.has_duplicates or not np.isfinite(values).all():
        return None
    frame = pd.DataFrame(values, index=topics, columns=pd.Index(runs), copy=False)

    def where(i: int, j: int) -> str:  # pragma: no cover - a clean file has no cell to blame
        return f"topic {i + 1}, run {j + 1}"

    return Cells(frame, where, ids, header[0] if ids else "")


def parse_wide(rows, path: Path, line_word: str, field_word: str, transpose: bool,
               first_field: int = 1, topic_ids: bool | None = None) -> Cells:
    """Cells of a wide table: first row = run names (topic ids), first column = topic ids (runs).

    ``first_field`` is the number of the table's first field (column) in the file. Without
    topic ids (:func:`has_topic_ids`; ``transpose`` False only) every column is a run's and
    the topics are numbered 1, 2, ...
    """
    if transpose and topic_ids is False:
        raise InputError(f"{path}: topic_ids=False (--no-topic-ids) applies to files whose runs "
                         "are the columns, not with transpose=True (--transpose)")
    ids = None if transpose or len(rows) < 2 else has_topic_ids(
        rows[0][1][0], [fields[0] for _, fields in rows[1:]], path, topic_ids)
    if ids is False:
        rows = [(rows[0][0], [""] + list(rows[0][1]))] + [
            (line, [str(k)] + list(fields)) for k, (line, fields) in enumerate(rows[1:], 1)]
        first_field -= 1
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

    return Cells(frame, where, ids, "" if ids is False else as_label(header[0]))


def _field(word: str, number: int) -> str:
    """Field number as text: 3 for CSV fields, C for spreadsheet columns."""
    if word == "field":
        return str(number)
    from openpyxl.utils import get_column_letter

    return get_column_letter(number)
