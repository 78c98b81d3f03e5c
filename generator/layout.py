"""Building blocks of the calculator sheets: input cells, result rows, warnings, searches.

The three calculators (:mod:`generator.calculators`) are assembled from these pieces, so they
look and behave alike: yellow input cells with data validation and a workbook-level name,
green answer cells, and the searches for the required n written out as rows of formulas under
a "Workings" heading, where anyone can follow them.
"""

from __future__ import annotations

from dataclasses import dataclass

from openpyxl.formatting.rule import FormulaRule
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation

from topicsetsize.params import N_MAX, Range

from .cells import STYLE, put_formula, put_label, put_number, ref
from .formulas import N_FMT
from .inputs import Input, allowed
from .rows import Col, bisection_answer, bisection_cols, bisection_steps, write_block

__all__ = ["Cursor", "write_inputs", "write_result", "name_cell", "validation_formula",
           "power_search", "SCAN_TOP", "TOO_LARGE", "too_large_text", "highlight_if",
           "answer_text"]

#: The legacy criterion is scanned for every n = 2..SCAN_TOP and bisected above.
SCAN_TOP = 128
#: What an answer shows when no n up to N_MAX is enough.
TOO_LARGE = f"more than {N_MAX:,}"


def too_large_text() -> str:
    """The string literal of :data:`TOO_LARGE` for a formula."""
    return f'"{TOO_LARGE}"'


@dataclass
class Cursor:
    """The next free row of a sheet being written top to bottom."""

    ws: object
    row: int = 1

    def skip(self, rows: int = 1) -> int:
        self.row += rows
        return self.row

    def heading(self, text: str, *, font=STYLE.heading) -> int:
        """A heading row; returns its row number."""
        put_label(self.ws, self.row, 1, text, font=font)
        self.row += 1
        return self.row - 1

    def note(self, text: str) -> int:
        put_label(self.ws, self.row, 1, text, font=STYLE.note)
        self.row += 1
        return self.row - 1


def name_cell(wb, name: str, sheet: str, row: int, column: int) -> None:
    """Define the workbook-level name ``name`` for one cell."""
    wb.defined_names[name] = DefinedName(name, attr_text=ref(row, column, absolute=True,
                                                              sheet=sheet))


def validation_formula(cell: str, rng: Range) -> str:
    """Custom data-validation formula that accepts exactly the values in ``rng``.

    >>> from topicsetsize.params import PARAMS
    >>> validation_formula("B5", PARAMS["m"])
    'AND(ISNUMBER(B5),B5>=2,B5<=1000000000,B5=INT(B5))'
    """
    parts = [f"ISNUMBER({cell})"]
    if rng.low != float("-inf"):
        parts.append(f"{cell}{'>' if rng.low_open else '>='}{_num(rng.low)}")
    if rng.high != float("inf"):
        parts.append(f"{cell}{'<' if rng.high_open else '<='}{_num(rng.high)}")
    if rng.integer:
        parts.append(f"{cell}=INT({cell})")
    return f"AND({','.join(parts)})"


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def write_inputs(cur: Cursor, wb, inputs: tuple[Input, ...], values: dict) -> dict[str, str]:
    """Input rows: symbol, value (yellow, validated, named), allowed range, meaning.

    Returns ``{key: absolute reference}`` of the value cells (the defined name when there is
    one, so that formulas read ``anova_alpha`` rather than ``$B$5``).
    """
    ws = cur.ws
    for c, text in enumerate(("input", "value", "allowed", "meaning"), start=1):
        put_label(ws, cur.row, c, text, font=STYLE.bold, fill=STYLE.header_fill)
    cur.skip()
    refs = {}
    for item in inputs:
        row = cur.row
        rng = allowed(item.key)
        put_label(ws, row, 1, f"{item.symbol}", font=STYLE.bold)
        cell = put_number(ws, row, 2, values.get(item.key, item.default),
                          number_format="0" if rng.integer else "General",
                          fill=STYLE.input_fill)
        cell.border = STYLE.box
        put_label(ws, row, 3, rng.describe(item.key))
        put_label(ws, row, 4, item.label)
        dv = DataValidation(type="custom", formula1=validation_formula(ref(row, 2), rng),
                            allow_blank=False, showErrorMessage=True, showInputMessage=True,
                            errorTitle=f"{item.symbol}: out of range"[:32],
                            error=f"{item.key} must satisfy {rng.describe(item.key)}."[:255],
                            promptTitle=item.symbol[:32],
                            prompt=f"{item.label}. Allowed: {rng.describe(item.key)}"[:255])
        ws.add_data_validation(dv)
        dv.add(ref(row, 2))
        if item.name:
            name_cell(wb, item.name, ws.title, row, 2)
        refs[item.key] = item.name or ref(row, 2, absolute=True)
        cur.skip()
    return refs


def write_result(cur: Cursor, label: str, formula: str, *, number_format: str = "General",
                 answer: bool = False, note: str = "") -> str:
    """A result row: label in A, formula in B, an explanation in C. Returns B's reference."""
    ws, row = cur.ws, cur.row
    put_label(ws, row, 1, label, font=STYLE.bold if answer else None)
    cell = put_formula(ws, row, 2, formula, number_format=number_format,
                       font=STYLE.answer if answer else None,
                       fill=STYLE.answer_fill if answer else None)
    if answer:
        cell.border = STYLE.box
    if note:
        put_label(ws, row, 3, note, font=STYLE.note)
    cur.skip()
    return ref(row, 2, absolute=True)


def highlight_if(ws, cells: str, condition: str, fill=STYLE.warning_fill, font=None) -> None:
    """Conditional format: fill ``cells`` where ``condition`` (relative to its top-left) holds."""
    ws.conditional_formatting.add(cells, FormulaRule(formula=[condition], fill=fill, font=font))


def answer_text(value: str) -> str:
    """Expression showing an answer cell in a sentence (its number, or the 'more than' text)."""
    return f'{value}&""'


def power_search(cur: Cursor, shared: list[Col], legacy: list[Col], exact: list[Col],
                 label: str) -> tuple[str, str]:
    """Write the searches for the required n; return the (legacy, exact) answer expressions.

    * Legacy: every n = 2..SCAN_TOP is evaluated, and if the criterion already holds at
      SCAN_TOP + 1 the answer is one more than the largest failing n (or 2); otherwise a
      30-row bisection over (SCAN_TOP + 1, N_MAX] finds the first n that holds.
    * Exact: the power rises with n, so a 30-row bisection over (1, N_MAX] suffices.
    * One row evaluates both models at N_MAX: if the criterion fails there, the answer says
      :data:`TOO_LARGE` instead of a number.
    """
    ws = cur.ws
    start = SCAN_TOP + 1
    cur.heading(f"{label}: legacy power for every n = 2..{start} (the approximation is not "
                "monotone at small n)", font=STYLE.bold)
    scan = write_block(ws, cur.row, 1, [Col("n", "n", lambda i: i + 2, "0"), *shared, *legacy,
                                        Col("fail", "n if it fails, else 1",
                                            "=IF({ok_legacy},1,{n})", "0")], start - 1)
    cur.row = scan.bottom + 2

    cur.heading(f"{label}: legacy bisection over n = {start + 1}..{N_MAX:,}", font=STYLE.bold)
    lb = write_block(ws, cur.row, 1, bisection_cols(str(start), str(N_MAX), ok="ok_legacy")
                     + shared + legacy, bisection_steps(N_MAX - start))
    cur.row = lb.bottom + 2

    cur.heading(f"{label}: exact bisection over n = 2..{N_MAX:,}", font=STYLE.bold)
    eb = write_block(ws, cur.row, 1, bisection_cols("1", str(N_MAX), ok="ok_exact")
                     + shared + exact, bisection_steps(N_MAX - 1))
    cur.row = eb.bottom + 2

    cur.heading(f"{label}: both methods at the search limit n = {N_MAX:,}", font=STYLE.bold)
    top = write_block(ws, cur.row, 1, [Col("n", "n", lambda i: N_MAX, N_FMT), *shared, *legacy,
                                       *exact], 1)
    cur.row = top.bottom + 2

    at_start = scan.cell("ok_legacy")            # the last scan row is n = SCAN_TOP + 1
    legacy_n = (f"IF({at_start},MAX({scan.range('fail')})+1,IF({top.cell('ok_legacy')},"
                f"{bisection_answer(lb, 'ok_legacy')},{too_large_text()}))")
    exact_n = f"IF({top.cell('ok_exact')},{bisection_answer(eb, 'ok_exact')},{too_large_text()})"
    return legacy_n, exact_n

