"""The wide layout: a header row of run names, a first column of topic ids (CSV, TSV, .xlsx)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from .common import Cells, as_label
from ..errors import InputError

__all__ = ["parse_wide"]


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
