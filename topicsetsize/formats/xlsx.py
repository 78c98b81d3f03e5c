"""Excel workbooks: one sheet laid out in the wide layout (read with openpyxl)."""

from __future__ import annotations

from pathlib import Path

from .common import Cells, as_label, trimmed_width
from .wide import parse_wide

__all__ = ["read_xlsx"]


def read_xlsx(path: Path, measure: str | None, transpose: bool) -> Cells:
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
    texts = [[as_label(v) for v in values] for _, values in rows]
    width = max(trimmed_width(t) for t in texts)
    lead = min(next((k for k, v in enumerate(t) if v), width) for t in texts)   # empty columns
    rows = [(r, (values + [None] * width)[lead:width]) for r, values in rows]
    return parse_wide(rows, path, "row", "column", transpose, first_field=lead + 1)
