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
        cached = answer_values(openpyxl.load_workbook(batch.source[name]))
        stored = openpyxl.load_workbook(batch.source[name], data_only=True)
        computed = batch.values(name)
        for key in cached:
            got, want = named(stored, key), named(computed, key)
            if isinstance(want, float):
                assert math.isclose(got, want, rel_tol=1e-7, abs_tol=1e-9), (name, key)
            else:
                assert got == want, (name, key, got, want)
