"""Untrusted strings become text cells, never formulas (formula injection)."""

from __future__ import annotations

import re
import zipfile

import openpyxl
import pytest
from openpyxl.styles import Alignment
from topicsetsize.generator.spreadsheet.cells import (
    STYLE,
    clean_text,
    put_formula,
    put_label,
    put_number,
    put_text,
    set_style,
)

from ..conftest import INJECTION_MEASURE, INJECTION_RUNS, INJECTION_TITLE, INJECTION_TOPICS

PAYLOADS = ['=HYPERLINK("http://evil.example","x")', "+1", "-1", "@SUM(A1)", "=1+1",
            "=cmd|' /C calc'!A0", "\t=1", "plain"]


def _formulas_in(path) -> list[str]:
    """Every <f> element's text in the workbook's sheets (raw XML, no parser in between)."""
    out = []
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            if name.startswith("xl/worksheets/sheet"):
                out += re.findall(r"<f[^>]*>(.*?)</f>", z.read(name).decode("utf-8"))
    return out


def test_put_text_writes_text_cells(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    for i, text in enumerate(PAYLOADS, start=1):
        cell = put_text(ws, i, 1, text)
        assert cell.data_type == "s" and cell.quotePrefix and cell.value == text
    path = tmp_path / "t.xlsx"
    wb.save(path)
    assert _formulas_in(path) == []
    back = openpyxl.load_workbook(path).active
    for i, text in enumerate(PAYLOADS, start=1):
        assert back.cell(i, 1).value == text and back.cell(i, 1).data_type == "s"
        assert back.cell(i, 1).quotePrefix


def test_only_package_formulas_and_labels_are_trusted():
    ws = openpyxl.Workbook().active
    # the package's own mistake, not a user's: a plain ValueError, never an InputError
    with pytest.raises(ValueError, match="may not start with '='"):
        put_label(ws, 1, 1, "=1+1")
    with pytest.raises(ValueError, match="must start with '='"):
        put_formula(ws, 1, 1, "SUM(A1)")


def test_clean_text_replaces_control_characters_and_caps_length():
    assert clean_text("a\x00b\x1fc") == "a\ufffdb\ufffdc"
    assert clean_text(12.5) == "12.5"
    assert len(clean_text("x" * 40_000)) == 32_767


def _user_cells(wb):
    """Cells whose value is one of the injected names, by value."""
    wanted = set(INJECTION_RUNS + INJECTION_TOPICS) | {INJECTION_MEASURE, INJECTION_TITLE}
    found = {}
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if isinstance(c.value, str) and (c.value in wanted
                                                 or c.value.startswith(INJECTION_MEASURE)):
                    found.setdefault(c.value, []).append(c)
    return found


@pytest.mark.slow
def test_injected_names_are_text_in_the_generated_workbook(built):
    path = built.source["inject"]
    for text in _formulas_in(path):                 # only the package's own formulas
        assert "evil" not in text and "SUM(A1)" not in text and not text.startswith("1+1")
    found = _user_cells(openpyxl.load_workbook(path))
    for name in INJECTION_RUNS + INJECTION_TOPICS + [INJECTION_MEASURE, INJECTION_TITLE]:
        assert name in found, name
    for cells in found.values():
        for c in cells:
            assert c.data_type == "s" and c.quotePrefix, (c.parent.title, c.coordinate)
    # where they went: runs and topics on the Variance sheet, the measure on Tables, title on About
    assert {c.parent.title for c in found[INJECTION_RUNS[0]]} == {"Variance"}
    assert {c.parent.title for c in found[INJECTION_TOPICS[0]]} == {"Variance"}
    assert "Tables" in {c.parent.title for c in found[INJECTION_MEASURE]}
    assert {c.parent.title for c in found[INJECTION_TITLE]} == {"About"}


@pytest.mark.libreoffice
def test_injected_names_stay_text_in_libreoffice(batch):
    wb = openpyxl.load_workbook(batch.recalculated["inject"])        # formulas, not values
    found = _user_cells(wb)
    for name in INJECTION_RUNS + INJECTION_TOPICS + [INJECTION_MEASURE, INJECTION_TITLE]:
        assert name in found, name
        for c in found[name]:
            assert c.data_type == "s", (name, c.parent.title, c.coordinate)
    values = _user_cells(batch.values("inject"))
    assert set(values) == set(found)                  # computed values: the same strings


def test_cells_are_styled_as_openpyxls_setters_style_them():
    """put_formula, put_number, put_label and set_style keep openpyxl's style ids per workbook
    (a number format's style array, a style object's index): every cell's style array and the
    workbook's lists of formats, fonts, fills and alignments are those of openpyxl's own
    setters, in the same order, new cells or not."""
    right = Alignment(horizontal="right")
    steps = [("formula", 1, 1, "=A2*2", "0.000", STYLE.bold, None),
             ("number", 2, 1, 3.5, "0.000", None, STYLE.input_fill),
             ("formula", 3, 1, "=A1+A2", "#,##0", None, None),
             ("formula", 1, 1, "=A3", "0.0%", None, STYLE.header_fill),     # an existing cell
             ("label", 4, 2, "text", None, STYLE.bold, STYLE.header_fill),
             ("formula", 5, 1, "=", "0.000", STYLE.note, None),            # "=" alone: text
             ("number", 6, 1, 2, "General", STYLE.bold, None),
             ("formula", 7, 1, "=A1", None, None, None)]
    ours, theirs = openpyxl.Workbook(), openpyxl.Workbook()
    for kind, row, column, value, fmt, font, fill in steps:
        if kind == "formula":
            cell = put_formula(ours.active, row, column, value, number_format=fmt, font=font,
                               fill=fill)
        elif kind == "number":
            cell = put_number(ours.active, row, column, value, number_format=fmt, font=font,
                              fill=fill)
        else:
            cell = put_label(ours.active, row, column, value, font=font, fill=fill)
        set_style(cell, alignment=right if row % 2 else None)
        plain = theirs.active.cell(row=row, column=column, value=value)
        if fmt:
            plain.number_format = fmt
        for name, look in (("font", font), ("fill", fill),
                           ("alignment", right if row % 2 else None)):
            if look is not None:
                setattr(plain, name, look)
    for (key, a), b in zip(sorted(ours.active._cells.items()),
                           (c for _, c in sorted(theirs.active._cells.items()))):
        assert (a.value, a.data_type) == (b.value, b.data_type), key
        assert (list(a._style) if a._style is not None else None) == (
            list(b._style) if b._style is not None else None), key
    for collection in ("_number_formats", "_fonts", "_fills", "_alignments"):
        assert list(getattr(ours, collection)) == list(getattr(theirs, collection))
