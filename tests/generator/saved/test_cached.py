"""Cached answers in the written file: what previewers show equals what LibreOffice computes
on opening, and a full recalculation is still requested."""

from __future__ import annotations

import math

import openpyxl
import pandas as pd
import pytest
from topicsetsize.generator import bundled_spec, load_spec, write_workbook

from .._oracle import answer_values
from ..conftest import named

NAMES = ("anova_n_legacy", "anova_n_exact", "ttest_n_legacy", "ci_n", "anova_status")


@pytest.mark.slow
def test_answers_are_cached_and_recalculation_is_forced(built):
    wb = openpyxl.load_workbook(built.source["ntcir"], data_only=True)
    assert (named(wb, "anova_n_legacy"), named(wb, "anova_n_exact")) == (2301, 2360)
    assert named(wb, "ci_n") == 79 and named(wb, "anova_status").startswith("OK")
    assert openpyxl.load_workbook(built.source["ntcir"]).calculation.fullCalcOnLoad
    # pandas (a previewer's view) sees the answer
    frame = pd.read_excel(built.source["ntcir"], sheet_name="ANOVA", header=None)
    assert 2301 in frame.iloc[:, 1].tolist()


@pytest.mark.slow
def test_written_file_still_has_formulas(tmp_path):
    out = write_workbook(load_spec(bundled_spec()), tmp_path / "w.xlsx")
    wb = openpyxl.load_workbook(out)
    sheet, coord = next(iter(wb.defined_names["anova_n_exact"].destinations))
    assert str(wb[sheet][coord.replace("$", "")].value).startswith("=IF(anova_inputs_ok,")
    assert not list(tmp_path.glob(".*tmp"))            # no temporary file left behind


@pytest.mark.libreoffice
def test_cached_values_equal_libreoffice(batch):
    for name in ("ntcir", "example", *batch.grid_names):
        stored = openpyxl.load_workbook(batch.source[name], data_only=True)
        cached = answer_values(stored)        # its inputs are values: the saved ones do
        computed = batch.values(name)
        for key in cached:
            got, want = named(stored, key), named(computed, key)
            if isinstance(want, float):
                assert math.isclose(got, want, rel_tol=1e-7, abs_tol=1e-9), (name, key)
            else:
                assert got == want, (name, key, got, want)


def _openpyxl_sheets(wb, values) -> dict[str, bytes]:
    """Each sheet's XML as openpyxl's own writer writes it, the values put in after."""
    from io import BytesIO

    from openpyxl.worksheet._writer import WorksheetWriter
    from topicsetsize.generator.saved.cached import _inject

    out = {}
    for ws in wb.worksheets:
        writer = WorksheetWriter(ws, out=BytesIO())
        writer.write()
        out[ws.title] = _inject(writer.read().decode(), values.get(ws.title, {})).encode()
    return out


def _workbook_to_write():
    """The Decide example's workbook and a sheet of text that XML must escape or keep."""
    from openpyxl.comments import Comment
    from openpyxl.styles import Font
    from topicsetsize.generator import build_workbook

    wb = build_workbook(load_spec(bundled_spec("decide_example")))
    ws = wb.create_sheet("Text")
    texts = [" lead", "trail ", "a & b < c > d", "cr\rlf\n", "σ̂² − β ≥ 1 😀", "", "=1+1 (text)"]
    for r, text in enumerate(texts, start=1):
        ws.cell(r, 1, text).data_type = "s"
        ws.cell(r, 2, f'=A{r}&" ✓ <&>"')
        ws.cell(r, 3, r * 0.1).font = Font(bold=True)
    ws["D1"], ws["D2"], ws["D3"] = True, "=D1", "=NA()"
    ws["D1"].comment = Comment("a note", "me")
    return wb


@pytest.mark.slow
def test_cells_are_written_as_openpyxl_writes_them():
    """The sheets written in one pass with their values (generator.cached) are byte for byte
    openpyxl's own writer's, with the values put in: for every sheet of a bundled workbook and
    for text that XML must escape or keep (&, <, >, CR, spaces at the ends, non-ASCII). Two
    copies of the workbook: openpyxl's writer changes a workbook it writes (outlineLevelCol)."""
    import io
    import zipfile

    from topicsetsize.generator.saved.cached import write_with_cached_values
    from topicsetsize.generator.saved.evaluator import evaluate_workbook

    wb, twin = _workbook_to_write(), _workbook_to_write()
    values = evaluate_workbook(wb)
    assert values["Text"]["B4"] == "cr\rlf\n ✓ <&>" and values["Text"]["D2"] is True
    saved = io.BytesIO()
    write_with_cached_values(wb, saved, values)
    with zipfile.ZipFile(saved) as z:
        parts = {ws.title: z.read(f"xl/worksheets/sheet{i}.xml")
                 for i, ws in enumerate(wb.worksheets, start=1)}
    assert parts == _openpyxl_sheets(twin, values)
