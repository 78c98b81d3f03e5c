"""The Report sheet: per score matrix, the figures of ``topicsetsize report`` (docs/report.md).

Precomputed (from the data, by :func:`topicsetsize.collection_report` when the workbook is
built): runs, topics, V_E and V_E2 raw and std-AB, the generalizability theory components
σ²_s, σ²_t, σ²_e, Eρ² and Φ at the matrix's own n with their 95% intervals, the n for Eρ² and Φ
≥ .95, and the minD values that occur between the runs with Sakai's n. Live (formulas of the
two yellow inputs at the top, n′ and the target): Eρ² and Φ at n′ topics, and the n′ for each to
reach the target, from the precomputed components. Matrix names are user data: written as text.
"""

from __future__ import annotations

from openpyxl.styles import Alignment, Protection

from .cells import STYLE, put_formula, put_label, put_number, put_text, ref
from .layout import CHECK_INPUTS, STATUS_OK, highlight_if

__all__ = ["add_report_sheet", "SHEET", "DESCRIPTION", "FIGURES", "START_N", "START_TARGET"]

SHEET = "Report"
DESCRIPTION = ("per score matrix: V_E, generalizability theory (σ²_s, σ²_t, σ²_e, Eρ², Φ with "
               "95% CIs; precomputed), Eρ² and Φ at a typed n′ and the n′ for a typed target "
               "(live), and the realistic minD values with Sakai's n (precomputed)")

#: The precomputed figures, in order: (label, field of CollectionReport.figures(), format).
FIGURES = (("runs", "runs", "0"), ("topics", "topics", "0"),
           ("V_E raw", "V_E raw", "0.0000"), ("V_E std-AB", "V_E std-AB", "0.0000"),
           ("V_E2 raw", "V_E2 raw", "0.0000"), ("V_E2 std-AB", "V_E2 std-AB", "0.0000"),
           ("σ²_s (systems)", "sigma2_s", "0.000000"), ("σ²_t (topics)", "sigma2_t", "0.000000"),
           ("σ²_e (residual)", "sigma2_e", "0.000000"),
           ("Eρ² at its own n", "Erho2", "0.0000"), ("Eρ² 95% CI low", "Erho2 low", "0.0000"),
           ("Eρ² 95% CI high", "Erho2 high", "0.0000"), ("Φ at its own n", "Phi", "0.0000"),
           ("Φ 95% CI low", "Phi low", "0.0000"), ("Φ 95% CI high", "Phi high", "0.0000"),
           ("n for Eρ² ≥ 0.95", "n for Erho2 >= 0.95", "0"),
           ("n for Φ ≥ 0.95", "n for Phi >= 0.95", "0"))

#: Starting values of the live inputs, and their ranges as the sheet writes them.
START_N, START_TARGET = 100, 0.95
N_ALLOWED, TARGET_ALLOWED = "a whole number, 1 or more", "more than 0, less than 1"
_PRE, _LIVE = "precomputed", "live"
_MIN_D_COLUMNS = ("min_d", "share", "n one-way legacy", "n one-way exact", "n two-way exact")


def add_report_sheet(wb, estimates) -> None:
    """Write the Report sheet for the matrices of a spec (each ``MatrixEstimate.scores``)."""
    ws = wb.create_sheet(SHEET)
    for letter, width in zip("ABCDEFG", (30, 16, 13, 16, 16, 16, 16)):
        ws.column_dimensions[letter].width = width
    put_label(ws, 1, 1, "Know the past collection: Sakai's inputs beside generalizability theory",
              font=STYLE.title)
    put_label(ws, 2, 1, "precomputed = from the data, by topicsetsize when this workbook was "
                        "built (see docs/report.md); live = formulas of the yellow cells below.",
              font=STYLE.note)
    put_label(ws, 3, 1, "Eρ² = σ²_s/(σ²_s + σ²_e/n′); Φ = σ²_s/(σ²_s + (σ²_t + σ²_e)/n′); "
                        "CIs: Feldt (Eρ²), Arteaga, Jeyaratnam & Graybill as in gt4ireval (Φ).",
              font=STYLE.note)
    n_cell = _input(ws, 4, "n′ (topics, live)", START_N, N_ALLOWED)
    t_cell = _input(ws, 5, "target Eρ² or Φ (live)", START_TARGET, TARGET_ALLOWED)
    # the status names the first bad input, as on the calculators; the live answers read
    # "check the inputs" meanwhile
    put_label(ws, 6, 1, "Status", font=STYLE.bold)
    put_formula(ws, 6, 2, f'=IF(NOT({_n_ok(n_cell)}),"Check the inputs: n′ is "&'
                                   f'{_what(n_cell)}&" (allowed: {N_ALLOWED}).",IF(NOT('
                                   f'{_t_ok(t_cell)}),"Check the inputs: the target is "&'
                                   f'{_what(t_cell)}&" (allowed: {TARGET_ALLOWED}).",'
                                   f'"{STATUS_OK}"))', font=STYLE.bold)
    highlight_if(ws, "B6", f'B6<>"{STATUS_OK}"', font=STYLE.warning_font)
    row = 8
    from topicsetsize.report import collection_report   # pandas and scipy.stats: only here

    for est in estimates:
        report = collection_report(est.scores)
        row = _matrix_block(ws, row, est.spec.name, report, n_cell, t_cell) + 2


def _input(ws, row, label, value, allowed):
    put_label(ws, row, 1, label, font=STYLE.bold)
    cell = put_number(ws, row, 2, value, fill=STYLE.input_fill)
    cell.border, cell.protection = STYLE.box, Protection(locked=False)
    put_label(ws, row, 3, allowed, font=STYLE.note).alignment = Alignment(horizontal="left",
                                                                         indent=1)
    return ref(row, 2, absolute=True)


def _matrix_block(ws, row, name, report, n_cell, t_cell) -> int:
    import pandas as pd

    put_text(ws, row, 1, name, font=STYLE.heading)
    row += 1
    for c, text in enumerate(("figure", "value", "how"), start=1):
        put_label(ws, row, c, text, font=STYLE.bold, fill=STYLE.header_fill)
    figures = report.figures()
    places = {}
    for label, field, fmt in FIGURES:
        row += 1
        put_label(ws, row, 1, label)
        put_number(ws, row, 2, figures[field], number_format=fmt)
        put_label(ws, row, 3, _PRE, font=STYLE.note)
        places[field] = ref(row, 2)
    row += 1
    put_label(ws, row, 1, "negative components set to 0")
    put_label(ws, row, 2, ", ".join(report.gstudy.negative) or "none")
    put_label(ws, row, 3, _PRE, font=STYLE.note)
    s, t, e = places["sigma2_s"], places["sigma2_t"], places["sigma2_e"]
    # every live answer waits for both inputs, as a calculator's answers do
    n_ok = t_ok = f"AND({_n_ok(n_cell)},{_t_ok(t_cell)})"
    live = (("Eρ² at n′", f'=IF({n_ok},IF({s}>0,{s}/({s}+{e}/{n_cell}),0),"{CHECK_INPUTS}")',
             "0.0000"),
            ("Φ at n′", f'=IF({n_ok},IF({s}>0,{s}/({s}+({t}+{e})/{n_cell}),0),'
                        f'"{CHECK_INPUTS}")', "0.0000"),
            ("n′ for Eρ² ≥ target", _n_formula(t_ok, t_cell, s, e), "0"),
            ("n′ for Φ ≥ target", _n_formula(t_ok, t_cell, s, f"({t}+{e})"), "0"))
    for label, formula, fmt in live:
        row += 1
        put_label(ws, row, 1, label)
        put_formula(ws, row, 2, formula, number_format=fmt, fill=STYLE.answer_fill)
        put_label(ws, row, 3, _LIVE, font=STYLE.note)
    row += 2
    put_label(ws, row, 1, f"minD values between its runs (top {report.differences.top_k} "
                          f"runs; α = {report.alpha:g}, β = {report.beta:g}, m = {report.m}); "
                          f"{_PRE}", font=STYLE.bold)
    row += 1
    for c, text in enumerate(("candidate", *_MIN_D_COLUMNS), start=1):
        put_label(ws, row, c, text, font=STYLE.bold, fill=STYLE.header_fill)
    for candidate, values in report.min_d.iterrows():
        row += 1
        put_label(ws, row, 1, str(candidate))
        for c, column in enumerate(_MIN_D_COLUMNS, start=2):
            value = values[column]
            fmt = {"min_d": "0.0000", "share": "0.0%"}.get(column, "0")
            put_number(ws, row, c, None if pd.isna(value) else value, number_format=fmt)
    return row


def _n_formula(t_ok: str, target: str, s: str, noise: str) -> str:
    """⌈t·noise/((1−t)·σ²_s)⌉, at least 1, as :func:`topicsetsize.gt_n`."""
    exact = f"{target}*{noise}/((1-{target})*{s})"
    return (f'=IF({t_ok},IF({s}>0,MAX(1,ROUNDUP({exact}*(1-1E-12),0)),"none: σ²_s = 0"),'
            f'"{CHECK_INPUTS}")')


def _n_ok(cell: str) -> str:
    """n′ is a whole number, 1 or more (INT only where it is a number: no error value)."""
    return f"AND(ISNUMBER({cell}),{cell}>=1,IF(ISNUMBER({cell}),INT({cell})={cell},FALSE))"


def _t_ok(cell: str) -> str:
    return f"AND(ISNUMBER({cell}),{cell}>0,{cell}<1)"


def _what(cell: str) -> str:
    """What is wrong with a bad input: blank, not a number, or out of range."""
    return f'IF(ISBLANK({cell}),"blank",IF(ISNUMBER({cell}),"out of range","not a number"))'
