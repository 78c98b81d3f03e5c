"""The workbook in a second engine with Excel's arithmetic: the ``formulas`` package.

LibreOffice is one spreadsheet; the ``formulas`` package (test dependency) evaluates the
same formula text in IEEE doubles with Excel's function definitions, and unlike LibreOffice
it does not round a catastrophic cancellation to 0. Every visible answer of the bundled
workbooks and of grid workbooks with extreme inputs (``_cases.py``: the smallest α, n
beyond the search limit, m = 1000, n ≈ 10⁶) must evaluate there without an error value and
equal the saved value, which the LibreOffice tests (test_cached.py, test_calculators.py)
hold equal to LibreOffice's recalculation and to the engine.

Only the answers and what they depend on are loaded (``ExcelModel.from_ranges``), not the
Tables sheet. A workbook still takes a minute or two: the tests are ``slow``.
"""

from __future__ import annotations

import math
import os

import openpyxl
import pytest

from generator.calculators import SHEETS

formulas = pytest.importorskip("formulas")

#: The bundled workbooks (NTCIR default, TREC example with its matrix, Decide example) and
#: the grid workbooks whose cases are the extremes of _cases.py (index: case row).
WORKBOOKS = ["ntcir", "example", "decide", "grid_08", "grid_12"]
CALCULATOR_SHEETS = set(SHEETS)


def visible_answers(path) -> list[str]:
    """``Sheet!B12`` of every visible answer: on a calculator, each formula cell of column B
    from the status down to its last named answer; on Decide, every formula cell of the
    table's visible columns below the status."""
    wb = openpyxl.load_workbook(path)
    last = {}
    for name in wb.defined_names.values():
        for sheet, ref in name.destinations:
            row = int(ref.replace("$", "").lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
            last[sheet] = max(last.get(sheet, 0), row)
    out = []
    for ws in wb.worksheets:
        if ws.title in CALCULATOR_SHEETS:
            cells = [ws.cell(r, 2) for r in range(1, last[ws.title] + 1)]
        elif ws.title == "Decide":
            cells = [c for row in ws.iter_rows(min_row=last[ws.title] + 1) for c in row
                     if not ws.column_dimensions[c.column_letter].hidden
                     and not ws.row_dimensions[c.row].hidden]
        else:
            continue
        out += [f"{ws.title}!{c.coordinate}" for c in cells
                if isinstance(c.value, str) and c.value.startswith("=")]
    return out


def formulas_values(path, cells: list[str]) -> dict[str, object]:
    """The values of ``cells`` as the ``formulas`` engine computes them from the formulas."""
    folder, file = os.path.split(os.path.abspath(path))
    refs = {c: "'{}/[{}]{}'!{}".format(folder, file, *c.split("!")) for c in cells}
    model = formulas.ExcelModel().from_ranges(*refs.values())
    model.finish()
    solution = model.calculate()
    by_key = {key.split("]", 1)[1].upper(): value for key, value in solution.items()
              if "]" in key}
    out = {}
    for cell, ref in refs.items():
        value = by_key[ref.split("]", 1)[1].upper()].value
        out[cell] = value[0, 0] if hasattr(value, "shape") else value
    return out


def _same(saved, value) -> bool:
    if isinstance(saved, bool) or isinstance(value, bool):
        return bool(saved) == bool(value)
    if isinstance(saved, (int, float)):
        return (isinstance(value, (int, float)) and not isinstance(value, bool)
                and math.isclose(saved, float(value), rel_tol=1e-9, abs_tol=1e-12))
    return str(saved) == str(value) or (saved is None and str(value) == "")


@pytest.mark.slow
@pytest.mark.parametrize("name", WORKBOOKS)
def test_every_answer_evaluates_in_excels_arithmetic(built, name):
    path = built.source[name]
    cells = visible_answers(path)
    assert len(cells) >= 10, cells              # the scan found the answers
    saved = openpyxl.load_workbook(path, data_only=True)
    got = formulas_values(path, cells)
    errors = {c: v for c, v in got.items() if str(v).startswith("#")}
    assert not errors
    differ = {c: (saved[c.split("!")[0]][c.split("!")[1]].value, v) for c, v in got.items()
              if not _same(saved[c.split("!")[0]][c.split("!")[1]].value, v)}
    assert not differ
