"""The About sheet: sheets, inputs, method, version, date, references."""

from __future__ import annotations

import openpyxl
import pytest
from topicsetsize.generator.content.calculators import INPUTS, named_answers
from topicsetsize.generator.sheets.calculators import sheets

from topicsetsize import __version__

from ..conftest import DATE


def _texts(ws) -> list[str]:
    return [c.value for row in ws.iter_rows() for c in row if isinstance(c.value, str)]


@pytest.mark.slow
def test_about_sheet(built):
    wb = openpyxl.load_workbook(built.source["ntcir"])
    assert wb.sheetnames[0] == "About"
    texts = _texts(wb["About"])
    joined = "\n".join(texts)
    assert f"Generated {DATE.isoformat()} by topicsetsize {__version__}" in joined
    assert "ntcir12_std_ab.toml" in joined
    for sheet in (*sheets(), "Decide", "Tables", "Charts"):
        assert sheet in texts
    assert "Budget" not in texts          # the NTCIR-12 spec has no pool depths
    for calc, items in INPUTS.items():
        for item in items:
            if item.name and calc != "budget":
                assert item.name in texts
    for name in named_answers():
        assert name in texts
    for ref in ("Topic set size design. Information Retrieval Journal",
                "The effect of score standardisation on topic set size design. AIRS 2016",
                "Designing test collections for comparing many systems. CIKM 2014",
                "Nagata", "2003"):
        assert ref in joined, ref
    assert "Legacy:" in joined and "Exact:" in joined and "Precision" in joined
    assert "m ∈ {2, 10, 20, 30, 50}, minD ∈ {0.02, 0.05, 0.1, 0.2}" in joined
    assert "Part V: m ∈ {2, 10, 20, 40, 50}." in joined            # as published
    # for the reader first, the names last (issue 15.5); labels level with wrapped text
    ws = wb["About"]
    order = [t for t in texts if t in ("How to use it", "Sheets", "Method", "References",
                                       "Inputs (workbook-level names, for formulas of your "
                                       "own)", "Answers (workbook-level names)")]
    assert order == ["How to use it", "Sheets", "Method", "References", order[4],
                     "Answers (workbook-level names)"]
    # the names start a page: their heading is never left alone at a page end
    names = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == order[4])
    assert names - 1 in [b.id for b in ws.row_breaks.brk]
    for row in ws.iter_rows(min_col=1, max_col=3):
        if row[0].value in ("ANOVA", "anova_alpha") and row[2].alignment.wrap_text:
            assert row[0].alignment.vertical == row[2].alignment.vertical == "top"


@pytest.mark.slow
def test_about_lists_only_existing_sheets(built):
    wb = openpyxl.load_workbook(built.source["grid_00"])
    texts = _texts(wb["About"])
    assert "Tables" not in texts and "Variance" not in texts and "This spec has no tables." in texts
    wb = openpyxl.load_workbook(built.source["example"])
    assert "Variance" in _texts(wb["About"])
