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
from topicsetsize.generator.sheets.calculators import sheets

formulas = pytest.importorskip("formulas")

#: The bundled workbooks (NTCIR default, TREC example with its matrix, Decide example with
#: its Budget sheet) and grid workbooks of extreme cases of _cases.py: grid_03 (α = β = .5;
#: the two-sample t-test and CI at α = 10⁻⁶, n ≈ 10⁶), grid_08 (α = 10⁻⁶, n = 2, the paired
#: t-test beyond the search limit).
WORKBOOKS = ["ntcir", "example", "decide", "grid_03", "grid_08"]
CALCULATOR_SHEETS = set(sheets())


def visible_answers(path) -> list[str]:
    """``Sheet!B12`` of every visible answer: on a calculator, each formula cell of column B
    from the status down to its last named answer; on Decide, every formula cell of the
    table's visible columns below the status; elsewhere (Budget, Report) the named cells."""
    wb = openpyxl.load_workbook(path)
    last, named = {}, set()
    for name in wb.defined_names.values():
        for sheet, ref in name.destinations:
            if ":" in ref:                    # a list (the measures' names, variances)
                continue
            row = int(ref.replace("$", "").lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
            last[sheet] = max(last.get(sheet, 0), row)
            named.add((sheet, ref.replace("$", "")))
    out = []
    for ws in wb.worksheets:
        if ws.title in CALCULATOR_SHEETS:
            cells = [ws.cell(r, 2) for r in range(1, last[ws.title] + 1)]
        elif ws.title == "Decide":
            hidden = [(d.min, d.max) for d in ws.column_dimensions.values() if d.hidden]
            cells = [c for row in ws.iter_rows(min_row=last[ws.title] + 1) for c in row
                     if not any(lo <= c.column <= hi for lo, hi in hidden)
                     and not ws.row_dimensions[c.row].hidden]
        else:
            cells = [ws[ref] for sheet, ref in sorted(named) if sheet == ws.title]
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
