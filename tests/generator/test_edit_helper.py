"""The test helper that types into a workbook's named cells (``_edit.edited_copy``): what it
writes reads back as an openpyxl round trip (load, set, save) would have written it, and
every other part of the file is left byte for byte."""

from __future__ import annotations

import zipfile

import openpyxl
import pytest
from openpyxl.workbook.defined_name import DefinedName

from ._edit import edited_copy

#: Values as the suite types them: blank, numbers, text that reads as a number or a
#: percentage, text with spaces and XML's special characters, an error typed as a formula.
VALUES = [None, 0.05, 10**10, 1e-12, -5, True, "0,05", "5%", "0.05 ", " a & <b> ", "=1/0",
          "=NA()"]


def _book(path, sheet="Inputs 'x'"):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = sheet
    for row in range(1, len(VALUES) + 2):
        ws.cell(row, 2, 0.5).style = "Note"                 # a styled input cell
        ws.cell(row, 3, f"=B{row}*2")
        wb.defined_names[f"in_{row}"] = DefinedName(
            f"in_{row}", attr_text=f"{openpyxl.utils.quote_sheetname(sheet)}!$B${row}")
    wb.save(path)
    return path


@pytest.mark.parametrize("text", [False, True])
def test_edits_read_back_as_an_openpyxl_round_trip(tmp_path, text):
    source = _book(tmp_path / "in.xlsx")
    edits = {f"in_{k}": value for k, value in enumerate(VALUES, start=1)}
    ours = openpyxl.load_workbook(edited_copy(source, tmp_path / "ours.xlsx", edits, text=text))
    theirs = openpyxl.load_workbook(source)
    for k, value in enumerate(VALUES, start=1):              # in_k names B<k>
        cell = theirs.active[f"B{k}"]
        cell.value = value
        if text and isinstance(value, str):
            cell.data_type = "s"
    ws, want = ours.active, theirs.active
    for row in ws.iter_rows():
        for got in row:
            expected = want[got.coordinate]
            assert (got.value, got.data_type, got.style_id) == \
                (expected.value, expected.data_type, expected.style_id), got.coordinate
    # the comparison is not vacuous: a number, and an error typed as a formula (or as text)
    assert ws["B3"].value == 10**10 and ws["B11"].value == "=1/0"
    assert ws["B11"].data_type == ("s" if text else "f")


def test_every_other_part_is_left_as_it_was(tmp_path):
    source = _book(tmp_path / "in.xlsx")
    out = edited_copy(source, tmp_path / "out.xlsx", {"in_2": 7})
    with zipfile.ZipFile(source) as a, zipfile.ZipFile(out) as b:
        assert a.namelist() == b.namelist()
        changed = [n for n in a.namelist() if a.read(n) != b.read(n)]
    assert changed == ["xl/worksheets/sheet1.xml"]
    assert not list(tmp_path.glob("*.partial"))


def test_a_name_or_cell_it_cannot_find_is_an_error(tmp_path):
    source = _book(tmp_path / "in.xlsx")
    with pytest.raises(KeyError):
        edited_copy(source, tmp_path / "out.xlsx", {"no_such_name": 1})


def test_charts_alone_are_the_charts_openpyxl_reads(tmp_path):
    from openpyxl.chart import LineChart, Reference

    from ._edit import charts_of

    path = _book(tmp_path / "in.xlsx")
    wb = openpyxl.load_workbook(path)
    wb.create_sheet("Second")
    for k, ws in enumerate(wb.worksheets):   # one chart on the first sheet, two on the second
        for j in range(k + 1):
            chart = LineChart()
            chart.add_data(Reference(wb.active, min_col=2, min_row=1, max_row=5 + j))
            chart.y_axis.scaling.min, chart.y_axis.scaling.max = 0, 1 + j
            ws.add_chart(chart, f"E{1 + 15 * j}")
    wb.save(path)
    want, got = openpyxl.load_workbook(path), charts_of(path)
    assert got.sheetnames == want.sheetnames
    for ws in want.worksheets:
        assert len(ws._charts) >= 1
        assert [(c.series[0].val.numRef.f, c.y_axis.scaling.max) for c in got[ws.title]._charts] \
            == [(c.series[0].val.numRef.f, c.y_axis.scaling.max) for c in ws._charts]
