"""The workbook in a second engine with Excel's arithmetic: the ``formulas`` package.

LibreOffice is one spreadsheet; the ``formulas`` package (test dependency) evaluates the
same formula text in IEEE doubles with Excel's function definitions, and unlike LibreOffice
it does not round a catastrophic cancellation to 0. The saved value of every cell checked
here must equal what ``formulas`` computes from that cell's formula, its inputs being the
saved values of the cells (and names) it reads: every visible answer of the bundled
workbooks and of grid workbooks with extreme inputs (``_cases.py``: the smallest α, n beyond
the search limit, m = 1000, n ≈ 10⁶; a sheet two of them share cell for cell, once),
without an error value; and the first and the last
cell of every distinct formula of the workbook (the same formula in relative R1C1 form, as a
block's rows), so that each formula the generator writes is checked at both ends of its
block, among them the noncentral-F Poisson mixtures (``SUMPRODUCT`` over the helper range,
where the two engines once differed by cancellation and overflow) at the smallest and the
largest n of each search and curve. The LibreOffice tests (test_cached.py,
test_calculators.py) hold the same saved values equal to LibreOffice's recalculation and to
the engine.

A cell is evaluated on its own (``formulas.Parser``), not through ``formulas.ExcelModel``,
which loaded and recalculated the answers' whole dependency graph (some 14,000 cells, a
minute or two a workbook); checked cell by cell, a wrong saved value fails at the cell
itself. ``formulas`` evaluates a range elementwise in Python (a mixture cell, 400 terms,
takes some 60 ms), hence both ends of each block rather than every row.
"""

from __future__ import annotations

import math
import re

import numpy as np
import openpyxl
import pytest
from openpyxl.utils import column_index_from_string, get_column_letter, range_boundaries
from topicsetsize.generator.sheets.calculators import sheets

formulas = pytest.importorskip("formulas")
schedula = pytest.importorskip("schedula")       # formulas' own dependency: its blank cell

#: The bundled workbooks (NTCIR default, TREC example with its matrix, Decide example with
#: its Budget sheet) and grid workbooks of extreme cases of _cases.py: grid_03 (α = β = .5;
#: the two-sample t-test and CI at α = 10⁻⁶, n ≈ 10⁶), grid_08 (α = 10⁻⁶, n = 2, the paired
#: t-test beyond the search limit).
WORKBOOKS = ["ntcir", "example", "decide", "grid_03", "grid_08"]
#: A workbook whose sheets are, cell for cell (formulas and saved values), those of another of
#: WORKBOOKS: its sheets are checked there (the NTCIR workbook's calculators start from the
#: Decide example's inputs), and only its other sheets here.
SAME_AS = {"ntcir": "decide"}
CALCULATOR_SHEETS = set(sheets())
#: Where a calculator's starting variance comes from, after its meaning (generator/build.py).
_SOURCE = re.compile(r"; (as the spec.* gives it, not estimated here|a placeholder, not from "
                     r"data: .*)$")
#: A cell reference in a formula (for its relative R1C1 form), written in this test.
_REF = re.compile(r"(?<![\w.$])(\$?)([A-Z]{1,3})(\$?)(\d+)(?![\w(.])")


def visible_answers(wb) -> list[str]:
    """``Sheet!B12`` of every visible answer of the workbook ``wb`` (its formulas, as openpyxl
    loads them): on a calculator, each formula cell of column B from the status down to its
    last named answer; on Decide, every formula cell of the table's visible columns below the
    status; elsewhere (Budget, Report) the named cells."""
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


def _r1c1(formula: str, row: int, column: int) -> str:
    """The formula with each relative reference as its offset from (row, column)."""
    def ref(m):
        c, r = column_index_from_string(m.group(2)), int(m.group(4))
        return (f"C{c}" if m.group(1) else f"C[{c - column}]") + (
            f"R{r}" if m.group(3) else f"R[{r - row}]")
    return _REF.sub(ref, formula)


def checked_cells(wb) -> list[str]:
    """``Sheet!B12`` of the cells checked beside the visible answers: the first and the last
    cell of every distinct formula (relative R1C1 form: a block's rows share one), so both
    ends of every block of the workings (the search's start and its last step, the smallest
    and the largest n of a curve) and every formula written once."""
    ends: dict[str, list[str]] = {}
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if c.data_type == "f":
                    where = f"{ws.title}!{c.coordinate}"
                    found = ends.setdefault(_r1c1(c.value, c.row, c.column), [where, where])
                    found[1] = where
    return list(dict.fromkeys(c for pair in ends.values() for c in pair))


#: Each formula's text compiled by ``formulas`` once per process: the workbooks checked share
#: most of their formulas (the same calculators, other inputs), and compiling is about a third
#: of a workbook's check. A compiled formula is a function of its inputs' values only.
_COMPILED: dict[str, object] = {}


def compile_formula(formula: str):
    """``formula`` (``=...``) compiled by ``formulas``: a function of its inputs (``.inputs``)."""
    if formula not in _COMPILED:
        _COMPILED[formula] = formulas.Parser().ast(formula)[1].compile()
    return _COMPILED[formula]


class _Cells:
    """The saved values of a workbook, as ``formulas`` takes them: a blank is its EMPTY, an
    error value its XlError, a range a 2-D array; a defined name is its cell's value, or (a
    formula name, e.g. ``anova_inputs_ok``) its formula evaluated the same way. ``books``: the
    workbook at ``path`` as openpyxl loads it with formulas and with saved values, if loaded."""

    def __init__(self, path, books=None):
        self.wb, self.saved = books or (openpyxl.load_workbook(path),
                                        openpyxl.load_workbook(path, data_only=True))
        self.names = {name.upper(): dn.attr_text for name, dn in self.wb.defined_names.items()}
        self.sheets = {ws.title.upper(): ws.title for ws in self.wb.worksheets}  # formulas: upper
        self.na = compile_formula("=NA()")()

    compile = staticmethod(compile_formula)

    def value(self, sheet: str, coord: str):
        v = self.saved[self.sheets.get(sheet, sheet)][coord].value
        if v is None:
            return schedula.EMPTY
        return self.na if v == "#N/A" else v

    def read(self, key: str, sheet: str):
        """The value of an input of a compiled formula (``B5``, ``HELPERS!A2:A401``, a name)."""
        if key in self.names:
            text = self.names[key]
            if "(" in text:
                return self.evaluate("=" + text, None)
            sheet, key = text.replace("$", "").rsplit("!", 1)
            sheet = sheet.strip("'")
        elif "!" in key:
            sheet, key = key.rsplit("!", 1)
            sheet = sheet.strip("'")
        if ":" not in key:
            return self.value(sheet, key)
        c1, r1, c2, r2 = range_boundaries(key)
        return np.array([[self.value(sheet, f"{get_column_letter(c)}{r}")
                          for c in range(c1, c2 + 1)] for r in range(r1, r2 + 1)], dtype=object)

    def evaluate(self, formula: str, sheet: str | None):
        fn = self.compile(formula)
        out = fn(*(self.read(key, sheet) for key in fn.inputs))
        return out.ravel()[0] if hasattr(out, "shape") else out


def _shifted(key: str, flags: dict[str, tuple[bool, bool]], dr: int, dc: int) -> str:
    """An input key of ``formulas`` (``B5``, ``HELPERS!A2:A401``: no ``$``) moved by (dr, dc)
    where its reference is relative in the formula (``flags``: column, row absolute)."""
    sheet, _, ref = key.rpartition("!")
    parts = []
    for part in ref.split(":"):
        m = re.fullmatch(r"([A-Z]{1,3})(\d+)", part)
        if m is None:                      # a name
            return key
        col_abs, row_abs = flags[part]
        c, r = column_index_from_string(m.group(1)), int(m.group(2))
        parts.append(get_column_letter(c if col_abs else c + dc) + str(r if row_abs else r + dr))
    return (sheet + "!" if sheet else "") + ":".join(parts)


def formulas_values(path, cells: list[str], books=None) -> dict[str, object]:
    """The values ``formulas`` computes for ``cells`` from their formulas and the saved values
    of what they read (``books``: see :class:`_Cells`). Cells of one formula in relative R1C1
    form (a block's rows) share its compiled function, each reading its own inputs."""
    book = _Cells(path, books)
    first: dict[str, tuple] = {}          # R1C1 form: (function, row, column, $ flags)
    out = {}
    for cell in cells:
        sheet, coord = cell.split("!")
        c = book.wb[sheet][coord]
        key = _r1c1(c.value, c.row, c.column)
        if key not in first:
            flags: dict[str, tuple[bool, bool]] = {}
            for m in _REF.finditer(c.value):
                flags.setdefault(m.group(2) + m.group(4), set()).add(
                    (bool(m.group(1)), bool(m.group(3))))
            unique = all(len(f) == 1 for f in flags.values())
            first[key] = (book.compile(c.value), c.row, c.column,
                          {k: next(iter(f)) for k, f in flags.items()} if unique else None)
        fn, row, column, flags = first[key]
        if flags is None:                  # one coordinate written both ways: on its own
            fn, inputs = book.compile(c.value), None
        else:
            inputs = [_shifted(k, flags, c.row - row, c.column - column) for k in fn.inputs]
        value = fn(*(book.read(k, sheet) for k in (inputs or fn.inputs)))
        if hasattr(value, "shape"):
            value = value.ravel()[0]
        out[cell] = value.item() if isinstance(value, np.generic) else value
    return out


def _same(saved, value) -> bool:
    if isinstance(saved, bool) or isinstance(value, bool):
        return bool(saved) == bool(value)
    if isinstance(saved, (int, float)):
        return (isinstance(value, (int, float)) and not isinstance(value, bool)
                and math.isclose(saved, float(value), rel_tol=1e-9, abs_tol=1e-12))
    return str(saved) == str(value) or (saved is None and str(value) == "")


def _same_sheets(books, other) -> set[str]:
    """The sheets of ``books`` (formulas, saved values) equal, cell for cell, to those of the
    workbook ``other``."""
    others = (openpyxl.load_workbook(other), openpyxl.load_workbook(other, data_only=True))

    def cells(ws):      # an input's source beside it may name its spec: no formula reads it
        return {c.coordinate: _SOURCE.sub("", c.value) if isinstance(c.value, str) else c.value
                for c in ws._cells.values() if c.value is not None}

    return {ws.title for ws in books[0].worksheets
            if ws.title in others[0].sheetnames
            and all(cells(b[ws.title]) == cells(o[ws.title]) for b, o in zip(books, others))}


@pytest.mark.slow
@pytest.mark.parametrize("name", WORKBOOKS)
def test_every_answer_evaluates_in_excels_arithmetic(built, name):
    path = built.source[name]
    saved = openpyxl.load_workbook(path, data_only=True)
    formulas_of = openpyxl.load_workbook(path)
    answers = visible_answers(formulas_of)
    assert len(answers) >= 10, answers            # the scan found the answers
    others = [c for c in checked_cells(formulas_of) if c not in answers]
    assert len(others) >= 100, len(others)        # the mixture and the workings' formulas
    if name in SAME_AS:
        same = _same_sheets((formulas_of, saved), built.source[SAME_AS[name]])
        assert CALCULATOR_SHEETS <= same, same    # checked in the other workbook's test
        answers, others = ([c for c in cells if c.split("!")[0] not in same]
                           for cells in (answers, others))
        assert answers or others                  # its own sheets (Decide) are checked here
    got = formulas_values(path, answers + others, (formulas_of, saved))
    errors = {c: got[c] for c in answers if str(got[c]).startswith("#")}
    assert not errors
    differ = {c: (saved[c.split("!")[0]][c.split("!")[1]].value, v) for c, v in got.items()
              if not _same(saved[c.split("!")[0]][c.split("!")[1]].value, v)}
    assert not differ
