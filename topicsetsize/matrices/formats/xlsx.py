"""Excel workbooks: one sheet laid out in the wide layout (read with openpyxl)."""

from __future__ import annotations

from pathlib import Path

from ...errors import InputError
from .common import Cells, as_label, trimmed_width
from .wide import parse_wide

__all__ = ["read_xlsx"]


def read_xlsx(path: Path, measure: str | None, transpose: bool,
              data: bytes | None = None, topic_ids: bool | None = None) -> Cells:
    """The cells of the sheet named ``measure`` (the only sheet when None); from ``data``, the
    file's bytes, where it was read into memory (a pipe cannot be read twice); ``topic_ids``
    as in :func:`topicsetsize.matrices.formats.wide.has_topic_ids`."""
    import openpyxl

    try:
        book = openpyxl.load_workbook(_source(path, data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a damaged file
        raise InputError(f"{path}: not a readable .xlsx workbook ({type(exc).__name__}: "
                         f"{exc})") from None
    try:
        names = book.sheetnames
        if measure is not None and measure not in names:
            raise InputError(f"{path}: no sheet named {measure!r}; sheets: {', '.join(names)} "
                             "(sheet= (--sheet) names the sheet)")
        if measure is None and len(names) > 1:      # never guess which sheet is meant
            raise InputError(f"{path}: the workbook has {len(names)} sheets "
                             f"({', '.join(names)}): choose one with sheet= (--sheet)")
        sheet = book[measure] if measure is not None else book.worksheets[0]
        title = sheet.title
        rows = [(r, list(values)) for r, values in enumerate(sheet.iter_rows(values_only=True), 1)
                if any(v is not None and str(v).strip() for v in values)]
    finally:
        book.close()
    if not rows:
        raise InputError(f"{path}: the sheet {title!r} is empty")
    texts = [[as_label(v) for v in values] for _, values in rows]
    width = max(trimmed_width(t) for t in texts)
    lead = min(next((k for k, v in enumerate(t) if v), width) for t in texts)   # empty columns
    rows = [(r, (values + [None] * width)[lead:width]) for r, values in rows]
    if any(v is None for _, values in rows[1:] for v in values[1:]):
        _refuse_unsaved_formulas(path, title, rows, lead, data)
    return parse_wide(rows, path, "row", "column", transpose, first_field=lead + 1,
                      topic_ids=topic_ids)


def _source(path: Path, data: bytes | None):
    """What openpyxl reads: the file, or its bytes read before."""
    import io

    return path if data is None else io.BytesIO(data)


def _refuse_unsaved_formulas(path: Path, title: str, rows, lead: int,
                             data: bytes | None = None) -> None:
    """Raise if the empty cells of the table are formulas whose values were never saved.

    openpyxl and other writers store a formula without its result; only Excel or LibreOffice
    compute and save it. Such a cell reads as empty, which is not a missing score.
    """
    import openpyxl
    from openpyxl.utils import get_column_letter

    wanted = {r: values for r, values in rows}
    book = openpyxl.load_workbook(_source(path, data), read_only=True, data_only=False)
    try:
        found = []
        for r, formulas in enumerate(book[title].iter_rows(values_only=True), 1):
            if r not in wanted:
                continue
            for k, value in enumerate(formulas[lead:lead + len(wanted[r])]):
                if wanted[r][k] is None and isinstance(value, str) and value.startswith("="):
                    found.append(f"{get_column_letter(lead + k + 1)}{r}")
    finally:
        book.close()
    if found:
        shown = ", ".join(found[:3]) + (f" and {len(found) - 3} more" if len(found) > 3 else "")
        raise InputError(f"{path}: sheet {title!r}: {len(found)} cell(s) ({shown}) hold formulas "
                         "without saved values (the file was written by a program that does not "
                         "calculate); open and save it in Excel or LibreOffice, or export the "
                         "values as CSV")
