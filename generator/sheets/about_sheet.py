"""The About sheet: what the workbook holds, how it computes, and where the methods come from."""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

from openpyxl.worksheet.pagebreak import Break

from topicsetsize import __version__
from topicsetsize.params import N_MAX

from ..content.calculators import INPUTS, calculators, named_answers
from ..content.inputs import REPORT_INPUTS, reader_range
from ..content.spec import Spec
from ..spreadsheet.cells import STYLE, put_label, put_text, wrapped_lines
from ..spreadsheet.formulas import POISSON_TERMS
from ..spreadsheet.layout import SCAN_TOP

__all__ = ["add_about_sheet", "SHEET", "REFERENCES"]

SHEET = "About"

REFERENCES = (
    "T. Sakai. Topic set size design. Information Retrieval Journal 19(3), 256–283, 2016.",
    "T. Sakai. The effect of score standardisation on topic set size design. AIRS 2016, "
    "LNCS 9994 (std-AB and NTCIR-12; its Tables 1 and 2 are the bundled NTCIR-12 spec).",
    "T. Sakai. A simple and effective approach to score standardisation. ICTIR 2016 "
    "(std-AB itself).",
    "T. Sakai. Designing test collections for comparing many systems. CIKM 2014 "
    "(ANOVA-based design; Figures 1–3: n against m).",
    "T. Nagata. How to design the sample size (in Japanese). Asakura Shoten, 2003 "
    "(the normal approximation and λ̂ of the legacy ANOVA sheet).",
)

_HOW = (
    "The workbook answers: how many topics does a test collection need so that a comparison "
    "of systems has the power you want (Sakai's topic set size design)?",
    "Open a calculator sheet (ANOVA, TTEST, CI, ANOVA2, TTEST2, CI2) and type your values in "
    "the yellow cells: α, β, the smallest difference worth detecting and the variance of a "
    "past score matrix. The green cells give the required number of topics n; the chart "
    "shows the power (or the CI width) against n.",
    "A bad input (blank, text, out of range) is named in the Status row, and every answer "
    "reads \"see Status\" (a table cell \"—\") until it is fixed.",
)

#: What the other sheets are for, in the "How to use it" section (only those in the workbook).
_GUIDE = (("Decide", "Decide checks a candidate n"), ("Budget", "Budget weighs the judging cost"),
          ("Tables", "Tables lists n for the spec's measures"),
          ("Charts", "Charts plots it against m and minD"))


def _guide(sheets) -> tuple[str, ...]:
    """The line of :data:`_GUIDE` for the sheets of this workbook (none if it has none of them).

    >>> _guide({"Decide": "", "Tables": ""})
    ("Decide checks a candidate n; Tables lists n for the spec's measures.",)
    >>> _guide({})
    ()
    """
    said = [text for sheet, text in _GUIDE if sheet in sheets]
    return ("; ".join(said) + ".",) if said else ()


_METHOD = (
    "Required n: the smallest n ≥ 2 from which the power stays at or above 1 − β "
    "(for the CI: the smallest n whose expected width is at most δ).",
    "Legacy: the approximations of Sakai's Excel tools (samplesizeANOVA, samplesizeTTEST), "
    "reproduced number for number, including the ANOVA sheet's √(cA − a). They are not "
    f"monotone at small n, so n = 2..{SCAN_TOP} is scanned and larger n are bisected.",
    "Exact: the noncentral F (ANOVA) and noncentral t (paired t-test) as Poisson mixtures of "
    f"beta tails (SUMPRODUCT over {POISSON_TERMS} terms around λ/2), searched by bisection.",
    f"Search range: n up to {N_MAX:,}; an answer beyond says so instead of giving a number.",
    "Precision (checked in LibreOffice against the Python engine): the powers agree to about "
    "1e-10 while m(n − 1) ≤ 10⁷. Beyond, the spreadsheet's t, F and beta functions lose "
    "digits (about 1e-7 near n = 10⁹), so an answer in the hundreds of millions of topics "
    "may be off by a few: check it with the topicsetsize package, whose F powers are within "
    "3e-11 of 40-digit values up to n = 10⁹ and which warns where that cannot decide n.",
)


def add_about_sheet(wb, spec: Spec, sheets: dict[str, str], *,
                    generated: _dt.date | None = None, estimates=()) -> None:
    """Write the About sheet (as the first sheet).

    ``sheets`` maps the other sheets' titles to one-line descriptions; ``estimates`` are the
    score matrices' (:class:`content.matrix_estimates.MatrixEstimate`), named by their files'
    names (never a path) with what was dropped from them.
    """
    ws = wb.create_sheet(SHEET, 0)
    ws.column_dimensions["A"].width = 22
    ws.column_dimensions["B"].width = 16
    ws.column_dimensions["C"].width = 80
    put_label(ws, 1, 1, "Topic set size design workbook", font=STYLE.title)
    put_text(ws, 2, 1, spec.title, font=STYLE.heading)
    row = 3
    if spec.description:
        put_text(ws, row, 1, spec.description, font=STYLE.note)
        row += 1
    date = (generated or _dt.date.today()).isoformat()
    data = " and the score matrices under Data below" if estimates else ""
    put_label(ws, row, 1, f"Generated {date} by topicsetsize {__version__} from the spec "
                          f"{Path(spec.source).name}{data}")
    row += 1
    put_label(ws, row, 1, "No Python or add-in is needed: the calculator sheets are live "
                          "formulas. Type in the yellow cells.", font=STYLE.note)
    row += 2

    # for the reader first (what it is for, how to use it, the method, the references),
    # the workbook-level names last
    if estimates:     # each matrix, and what was dropped from it (the other notes: Variance)
        row = _section(ws, row, "Data", [
            line for e in estimates for line in (
                (e.spec.name, "", f"{e.file}: {e.summary.runs} runs × {e.summary.topics} "
                                  "topics." + (" Notes on the Variance sheet." if e.notes
                                               else "")),
                *(("", "", f"Dropped: {note}.") for note in e.notes if "dropped" in note))])
    row = _section(ws, row, "How to use it", [("", "", text) for text in _HOW + _guide(sheets)])
    row = _section(ws, row, "Sheets", [(name, "", text) for name, text in sheets.items()])
    row = _section(ws, row, "Method", [("", "", text) for text in _METHOD])
    tables = (f"Tables: α = {spec.alpha:g}, β = {spec.beta:g}, m ∈ "
              f"{{{', '.join(str(m) for m in spec.m)}}}, minD ∈ "
              f"{{{', '.join(f'{d:g}' for d in spec.min_d)}}}; charts from the "
              f"{spec.chart_method} tables." if spec.m else "This spec has no tables.")
    for group, grid in spec.parts.items():
        tables += (f" Part {group}: " + "; ".join(
            f"{'m' if k == 'm' else 'minD'} ∈ {{{', '.join(f'{x:g}' for x in v)}}}"
            for k, v in grid.items()) + ".")
    row = _section(ws, row, "This spec", [("", "", tables)])
    row = _section(ws, row, "References", [("", "", text) for text in REFERENCES])
    _names(ws, wb, row)


def _names(ws, wb, row: int) -> None:
    """The workbook-level names of the inputs and the answers, on pages of their own."""
    inputs = []
    for calc, items in INPUTS.items():
        sheet = {"decide": "Decide", "budget": "Budget",
                 **{f"{c.key}_effect": c.sheet for c in calculators()}}.get(calc, calc.upper())
        if sheet not in wb.sheetnames:
            continue
        for item in items:
            inputs.append((item.name or f"{sheet} (unnamed)", item.symbol,
                           f"{item.label}; allowed: {reader_range(item.key)}"))
    if "Report" in wb.sheetnames:
        inputs += [(item.name, item.symbol, f"Report: {item.label}; allowed: "
                                            f"{reader_range(item.key)}")
                   for item in REPORT_INPUTS]
    ws.row_breaks.append(Break(id=row - 1))     # the names on pages of their own
    ws.print_title_rows = "1:1"                 # under the workbook's title
    row = _section(ws, row, "Inputs (workbook-level names, for formulas of your own)", inputs)
    _section(ws, row, "Answers (workbook-level names)",
             [(name, "", text) for name, text in named_answers().items()])


def _section(ws, row: int, title: str, lines) -> int:
    put_label(ws, row, 1, title, font=STYLE.heading)
    row += 1
    for a, b, c in lines:
        if a:        # at the top, level with the first line of the wrapped text beside it
            put_text(ws, row, 1, a, font=STYLE.bold).alignment = STYLE.top
        if b:
            put_text(ws, row, 2, b).alignment = STYLE.top
        put_text(ws, row, 3, c).alignment = STYLE.wrap
        ws.row_dimensions[row].height = 15 * wrapped_lines(c, 80)
        row += 1
    return row + 1
