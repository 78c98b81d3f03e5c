"""The Report sheet: precomputed figures equal the engine's; live formulas recalculate like it.

Matrices: the bundled TREC 2010 Web AP and TREC 2004 Robust AP (tests/data). The precomputed
cells are compared with :func:`topicsetsize.collection_report` (itself checked against a
gt4ireval re-implementation and Monte Carlo in tests/topicsetsize/estimates/test_gtheory.py); the
live
cells, after LibreOffice recalculates a workbook whose inputs were retyped, with
:func:`topicsetsize.d_study` and :func:`topicsetsize.gt_n` at the typed values.
"""

from __future__ import annotations

import math

import openpyxl
import pandas as pd
import pytest

import topicsetsize as tss
from generator import spec_from_dict, write_workbook
from generator.layout import CHECK_INPUTS, STATUS_OK
from generator.report_sheet import FIGURES, SHEET

NAMES = ("TREC 2010 Web AP", "=1+1 Robust")          # the second would be a formula if careless


@pytest.fixture(scope="module")
def report_book(tmp_path_factory, data_dir):
    folder = tmp_path_factory.mktemp("report")
    spec = spec_from_dict({"title": "report", "m": [10], "min_d": [0.05], "matrices": [
        {"name": NAMES[0], "path": "example"},
        {"name": NAMES[1], "path": str(data_dir / "trec2004robust_ap.csv")}]})
    return write_workbook(spec, folder / "report.xlsx")


def _blocks(ws):
    """{matrix name: {label: (value, how)}} read back from the sheet."""
    out, current = {}, None
    for row in ws.iter_rows(min_row=7):
        a, b, c = (cell.value for cell in row[:3])
        if a in NAMES:
            current = out.setdefault(a, {})
        elif current is not None and a is not None:
            current[a] = (b, c)
    return out


def _scores(data_dir):
    return {NAMES[0]: tss.example_matrix(),
            NAMES[1]: pd.read_csv(data_dir / "trec2004robust_ap.csv", index_col=0)}


@pytest.mark.slow
def test_precomputed_figures(report_book, data_dir):
    wb = openpyxl.load_workbook(report_book)
    ws = wb[SHEET]
    assert ws.cell(8, 1).data_type == "s" and ws.cell(8, 1).value == NAMES[0]
    # the inputs' ranges in words, set off from the values (issue 15.5)
    assert [ws.cell(r, 3).value for r in (4, 5)] == ["a whole number, 1 or more",
                                                     "more than 0, less than 1"]
    assert all(ws.cell(r, 3).alignment.indent >= 1 for r in (4, 5))
    blocks = _blocks(ws)
    assert set(blocks) == set(NAMES)
    for name, scores in _scores(data_dir).items():
        report = tss.collection_report(scores)
        figures = report.figures()
        got = blocks[name]
        for label, field, _ in FIGURES:
            value, how = got[label]
            assert how == "precomputed"
            assert value == pytest.approx(float(figures[field]), rel=1e-12), (name, label)
        assert got["negative components set to 0"] == ("none", "precomputed")
        for candidate, row in report.min_d.iterrows():
            assert got[candidate][0] == pytest.approx(row["min_d"], rel=1e-12)
        for label in ("Eρ² at n′", "Φ at n′", "n′ for Eρ² ≥ target", "n′ for Φ ≥ target"):
            formula, how = got[label]
            # guarded by both inputs (n′ in B4, the target in B5)
            assert how == "live" and formula.startswith("=IF(AND(")
            assert "ISNUMBER($B$4)" in formula and "ISNUMBER($B$5)" in formula
    # user names are text, never formulas
    cells = [c for r in ws.iter_rows() for c in r if c.value == NAMES[1]]
    assert cells and all(c.data_type == "s" for c in cells)
    about = {c.value for row in wb["About"].iter_rows() for c in row}
    assert SHEET in about


@pytest.mark.libreoffice
def test_live_cells_recalculate_like_the_engine(report_book, data_dir, tmp_path):
    from ._libreoffice import filled_cells_without_errors, recalculate_batch

    (tmp_path / "in").mkdir()
    books = {}
    for name, n, target in (("edited", 37, 0.9), ("bad", None, "x"), ("bad_n", 2.5, 0.9),
                            ("bad_target", 37, 1)):
        wb = openpyxl.load_workbook(report_book)
        wb[SHEET]["B4"], wb[SHEET]["B5"] = n, target      # n′ and the target, retyped
        books[name] = tmp_path / "in" / f"{name}.xlsx"
        wb.save(books[name])
    done, _ = recalculate_batch(list(books.values()), tmp_path / "out")
    recalculated = {k: openpyxl.load_workbook(done[p.resolve()], data_only=True)
                    for k, p in books.items()}
    for name, wb in recalculated.items():
        assert filled_cells_without_errors(wb, name) > 100
    # a bad input is named in the status, and no live answer shows a number (issue 15.1)
    for name, status in (("bad", "n′ is blank (allowed: a whole number, 1 or more)"),
                         ("bad_n", "n′ is out of range (allowed: a whole number, 1 or more)"),
                         ("bad_target", "the target is out of range (allowed: more than 0, "
                                        "less than 1)")):
        assert recalculated[name][SHEET]["B6"].value == f"Check the inputs: {status}.", name
        bad = _blocks(recalculated[name][SHEET])
        for matrix in NAMES:
            for label in ("Eρ² at n′", "Φ at n′", "n′ for Eρ² ≥ target", "n′ for Φ ≥ target"):
                assert bad[matrix][label][0] == CHECK_INPUTS, (name, matrix, label)
    assert recalculated["edited"][SHEET]["B6"].value == STATUS_OK
    blocks = _blocks(recalculated["edited"][SHEET])
    for name, scores in _scores(data_dir).items():
        g = tss.g_study(scores)
        d = tss.d_study(g, 37)
        got = blocks[name]
        assert math.isclose(got["Eρ² at n′"][0], d.erho2, rel_tol=1e-12)
        assert math.isclose(got["Φ at n′"][0], d.phi, rel_tol=1e-12)
        assert got["n′ for Eρ² ≥ target"][0] == tss.gt_n(g, 0.9)
        assert got["n′ for Φ ≥ target"][0] == tss.gt_n(g, 0.9, coefficient="phi")
