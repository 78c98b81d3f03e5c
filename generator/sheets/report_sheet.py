"""The Report sheet: per score matrix, the figures of ``topicsetsize report`` (docs/report.md).

Precomputed (from the data, by :func:`topicsetsize.collection_report` when the workbook is
built): runs, topics, V_E and V_E2 raw and std-AB, the generalizability theory components
σ²_s, σ²_t, σ²_e, Eρ² and Φ at the matrix's own n with their 95% intervals, the n for Eρ² and Φ
≥ .95, the distribution of the differences between run means (all pairs, pairs among the top k
runs, the best run minus each other run: pairs, min, quartiles, median, mean, max) and the minD
values that occur between the runs with Sakai's n, the Monte Carlo standard error of each
selection-corrected minD and the engine's notes on the table
(:func:`topicsetsize.decide.realistic.table_notes`, the lines ``topicsetsize report`` prints),
and each n's 95% bootstrap interval over the past topics
(:func:`topicsetsize.report.min_d_intervals`, seed :data:`INTERVAL_SEED`), which holds minD
fixed (:data:`topicsetsize.report.MIN_D_HELD_FIXED`).
Live (formulas of the two yellow inputs at the top, n′ and the target, guarded like the
calculators' inputs: a check per input, a status row naming the first bad one and its range,
and "see Status" instead of a number while one is bad): Eρ² and Φ at n′ topics, and the
n′ for each to reach the target, from the precomputed components. Matrix names are user
data, and the notes hold candidate names: all written as text.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from openpyxl.styles import Alignment
from openpyxl.worksheet.pagebreak import Break

from ..content.inputs import REPORT_INPUTS
from ..spreadsheet.cells import (
    STYLE,
    col,
    fit_texts,
    fixed_format,
    put_formula,
    put_label,
    put_number,
    put_text,
    ref,
    wrapped_lines,
)
from ..spreadsheet.formulas import N_FMT
from ..spreadsheet.layout import TOO_LARGE, Cursor, guarded, write_inputs, write_status

__all__ = ["add_report_sheet", "SHEET", "DESCRIPTION", "FIGURES", "START_N", "START_TARGET",
           "WIDTHS", "MIN_D_HEADINGS"]

SHEET = "Report"
DESCRIPTION = ("per score matrix: V_E, generalizability theory (the variance components of the "
               "systems, the topics and the residual, Eρ², Φ with "
               "95% CIs; precomputed), Eρ² and Φ at a typed n′ and the n′ for a typed target "
               "(live), the distribution of the differences between run means (all pairs, top "
               "k, best vs others) and the realistic minD values with their Monte Carlo "
               "error, Sakai's n and its 95% bootstrap interval over the past topics "
               "(precomputed)")

#: The precomputed figures, in order: (label, field of CollectionReport.figures(), format).
FIGURES = (("runs", "runs", "0"), ("topics", "topics", "0"),
           ("V_E raw", "V_E raw", fixed_format()), ("V_E std-AB", "V_E std-AB", fixed_format()),
           ("V_E2 raw", "V_E2 raw", fixed_format()),
           ("V_E2 std-AB", "V_E2 std-AB", fixed_format()),
           ("σ² systems (variance component)", "sigma2_s", fixed_format(6)),
           ("σ² topics (variance component)", "sigma2_t", fixed_format(6)),
           ("σ² residual (variance component)", "sigma2_e", fixed_format(6)),
           ("Eρ² at its own n", "Erho2", "0.0000"), ("Eρ² 95% CI low", "Erho2 low", "0.0000"),
           ("Eρ² 95% CI high", "Erho2 high", "0.0000"), ("Φ at its own n", "Phi", "0.0000"),
           ("Φ 95% CI low", "Phi low", "0.0000"), ("Φ 95% CI high", "Phi high", "0.0000"),
           ("n for Eρ² ≥ 0.95", "n for Erho2 >= 0.95", "0"),
           ("n for Eρ² ≥ 0.95, 95% CI low", "n for Erho2 >= 0.95 low", "0"),
           ("n for Eρ² ≥ 0.95, 95% CI high", "n for Erho2 >= 0.95 high", "0"),
           ("n for Φ ≥ 0.95", "n for Phi >= 0.95", "0"),
           ("n for Φ ≥ 0.95, 95% CI low", "n for Phi >= 0.95 low", "0"),
           ("n for Φ ≥ 0.95, 95% CI high", "n for Phi >= 0.95 high", "0"))

#: Starting values of the live inputs.
START_N, START_TARGET = (item.default for item in REPORT_INPUTS)
#: Column widths: C holds an input's allowed range (as on the calculators), D its check; K the
#: last column of the minD table (its n two-way).
WIDTHS = {"A": 30, "B": 16, "C": 34, "D": 18, "E": 18, "F": 18, "G": 18, "H": 18, "I": 18,
          "J": 18, "K": 18}
#: Rows of the sheet on one printed page (A4 landscape, one page wide), with room to spare: a
#: table that would not fit in what is left of a page starts the next one.
PAGE_ROWS = 46
_PRE, _LIVE = "precomputed", "live"
_RIGHT = Alignment(horizontal="right")
_NOTE = Alignment(horizontal="left", indent=1)       # "how", set off from the number left of it
#: As topicsetsize.decide.realistic.SHOWN_COLUMNS, the order of ``topicsetsize report`` (its
#: test checks; written out here: that module loads scipy.stats, which building the sheet
#: imports only when it runs).
_MIN_D_COLUMNS = ("min_d", "uncorrected", "pairs", "share", "se", "above noise", "mc_se",
                  "n one-way legacy", "n one-way exact", "n two-way exact")
_MIN_D_TEXT = {"pairs": str, "above noise": lambda v: "yes" if v else "no"}
#: The number formats of the minD table's number columns (else whole numbers, the n, with
#: thousands separators as everywhere else in the workbook): mc_se one digit more than minD, as
#: the command prints it (at the default 64,000 halves it is about 1e-4).
_MIN_D_FORMATS = {"min_d": fixed_format(), "uncorrected": fixed_format(), "se": fixed_format(),
                  "share": "0.0%", "mc_se": fixed_format(5)}
#: The seed of the report's random halves and of the bootstrap intervals on n: the default of
#: ``topicsetsize report`` (--seed 0), so that the command prints what the sheet shows, and a
#: workbook built twice from the same data is the same.
INTERVAL_SEED = 0
#: Their headings, in the words of the calculator sheets (its test checks).
MIN_D_HEADINGS = ("minD", "minD uncorrected (all topics)", "pairs", "pairs differing by ≥ minD",
                  "standard error of a paired difference", "above the noise",
                  "Monte Carlo standard error of minD (another seed)",
                  "n, one-way ANOVA, legacy", "n, one-way ANOVA, exact", "n, two-way ANOVA, exact")


def add_report_sheet(wb, estimates) -> None:
    """Write the Report sheet for the matrices of a spec (each ``MatrixEstimate.scores``)."""
    ws = wb.create_sheet(SHEET)
    for letter, width in WIDTHS.items():
        ws.column_dimensions[letter].width = width
    cur = Cursor(ws)
    cur.heading("Know the past collection: Sakai's inputs beside generalizability theory",
                font=STYLE.title)
    cur.note("precomputed = from the data, by topicsetsize when this workbook was built (see "
             "docs/report.md); live = formulas of the yellow cells below.")
    cur.note("Eρ² = σ² systems/(σ² systems + σ² residual/n′); Φ = σ² systems/(σ² systems + "
             "(σ² topics + σ² residual)/n′), n′ topics; CIs: Feldt (Eρ²), Arteaga, Jeyaratnam & "
             "Graybill as in gt4ireval (Φ); the CI of an n for 0.95: the n at the CI's ends.")
    cur.skip()
    inp = write_inputs(cur, wb, REPORT_INPUTS, {})
    # General, not the whole-number format "#,##0": a typed 37.5 shows as 37.5 (not 38) beside
    # its "out of range" check
    ws.cell(inp.rows["n_dstudy"], 2).number_format = "General"
    _, ok = write_status(cur, wb, "report", inp)
    cur.skip()
    from topicsetsize.matrices.copies import identical_runs
    from topicsetsize.report import collection_report  # pandas and scipy.stats: only here

    for est in estimates:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            report = collection_report(est.scores, seed=INTERVAL_SEED)
        for caught_warning in caught:   # said again, naming the matrix (the spec holds several)
            warnings.warn(type(caught_warning.message)(f"{est.spec.name}: "
                                                       f"{caught_warning.message}"), stacklevel=2)
        _figures(cur, est.spec.name, report, inp, ok)
        _differences(cur, est.spec.name, report.differences)
        _min_d(cur, est.spec.name, report, copies=identical_runs(est.scores))
        _n_intervals(cur, est.spec.name, report)
    ws.print_title_rows = "1:1"
    fit_texts(ws, 3, ws.max_row, len(WIDTHS))      # the notes wrap within the tables' width


def _section(cur: Cursor, rows: int, heading: str, columns: tuple[str, ...], *,
             numbers: int, font=STYLE.bold) -> None:
    """Start a table of ``rows`` body rows: a new page if it would not fit in what is left of
    this one, its heading (user text: it holds the matrix name), and its header (the
    ``numbers`` columns after the first hold numbers: right-aligned above them)."""
    ws = cur.ws
    page_top = ws.row_breaks.brk[-1].id + 1 if ws.row_breaks.brk else 1
    if cur.row - page_top + rows + 2 > PAGE_ROWS:
        ws.row_breaks.append(Break(id=cur.row - 1))
    put_text(ws, cur.row, 1, heading, font=font)
    cur.skip()
    lines = 1
    for c, text in enumerate(columns, start=1):
        cell = put_label(ws, cur.row, c, text, font=STYLE.bold, fill=STYLE.header_fill)
        if 1 < c <= numbers + 1:
            cell.alignment = STYLE.header          # right-aligned, wrapped: the words whole
            lines = max(lines, wrapped_lines(text, WIDTHS.get(col(c), 8.43)))
        elif c > 1:
            cell.alignment = _NOTE
    ws.row_dimensions[cur.row].height = 15 * lines if lines > 1 else None
    cur.skip()


def _figures(cur: Cursor, name: str, report, inp, ok) -> None:
    """The matrix's heading and its figures: precomputed, then the live ones."""
    ws = cur.ws
    _section(cur, len(FIGURES) + 5, name, ("figure", "value", "how"), numbers=1,
             font=STYLE.heading)
    figures = report.figures()
    places = {}
    for label, field, fmt in FIGURES:
        put_label(ws, cur.row, 1, label)
        if math.isfinite(float(figures[field])):
            put_number(ws, cur.row, 2, figures[field], number_format=fmt)
        else:                                  # an n for a coefficient bound of 0: none
            put_label(ws, cur.row, 2, "none: σ² systems = 0").alignment = _RIGHT
        put_label(ws, cur.row, 3, _PRE, font=STYLE.note).alignment = _NOTE
        places[field] = ref(cur.row, 2)
        cur.skip()
    put_label(ws, cur.row, 1, "negative components set to 0")
    put_label(ws, cur.row, 2, ", ".join(report.gstudy.negative) or "none").alignment = _RIGHT
    put_label(ws, cur.row, 3, _PRE, font=STYLE.note).alignment = _NOTE
    cur.skip()
    s, t, e = places["sigma2_s"], places["sigma2_t"], places["sigma2_e"]
    n, target = inp.used["n_dstudy"], inp.used["target"]
    live = (("Eρ² at n′", guarded(ok, f"IF({s}>0,{s}/({s}+{e}/{n}),0)"), "0.0000"),
            ("Φ at n′", guarded(ok, f"IF({s}>0,{s}/({s}+({t}+{e})/{n}),0)"), "0.0000"),
            ("n′ for Eρ² ≥ target", guarded(ok, _n_formula(target, s, e)), "0"),
            ("n′ for Φ ≥ target", guarded(ok, _n_formula(target, s, f"({t}+{e})")), "0"))
    for label, formula, fmt in live:
        put_label(ws, cur.row, 1, label)
        put_formula(ws, cur.row, 2, formula, number_format=fmt,
                    fill=STYLE.answer_fill).alignment = _RIGHT
        put_label(ws, cur.row, 3, _LIVE, font=STYLE.note).alignment = _NOTE
        cur.skip()
    cur.skip()


def _differences(cur: Cursor, name: str, differences) -> None:
    """The distribution of the differences between run means, as ``topicsetsize report``
    prints it (:attr:`topicsetsize.estimates.differences.RunDifferences.table`)."""
    table = differences.table
    _section(cur, len(table.index),
             f"{name}: differences between run means (all pairs of runs, pairs among the top "
             f"{differences.top_k} runs, the best run minus each other run); {_PRE}",
             ("statistic", *table.columns), numbers=len(table.columns))
    for statistic, values in table.iterrows():
        put_label(cur.ws, cur.row, 1, str(statistic))
        for c, value in enumerate(values, start=2):
            put_number(cur.ws, cur.row, c, value,
                       number_format="#,##0" if statistic == "pairs" else fixed_format())
        cur.skip()
    cur.skip()


def _min_d(cur: Cursor, name: str, report, *, copies) -> None:
    """The minD values that occur between the runs, with Sakai's n for each, and the notes of
    ``topicsetsize report`` on them (:func:`topicsetsize.decide.realistic.table_notes`), and
    the runs that are ``copies`` of others (counted once here) as its warning names them."""
    import pandas as pd

    from topicsetsize.decide.realistic import COPIES, table_notes

    attrs = report.min_d.attrs
    explained = (
        f"top-k: the top {report.differences.top_k} runs by mean (range: the best minus the "
        "k-th best; median, 25%: of their pairwise differences), corrected for their "
        "selection (uncorrected: on all topics); all-pairs: every pair of runs. Pairs "
        "differing by ≥ minD: the share of the row's pairs (top k or all) whose means "
        "differ by at least minD. Above the noise: minD ≥ t(1 − α/2; n − 1) × the standard "
        "error, i.e. a paired t-test on the past topics tells such a difference from zero.",
        f"Corrected for selection: the top k picked on a random half of the topics, their "
        f"differences measured on the other half, the mean over {attrs['trials']} halves (seed "
        f"{attrs['seed']}). The Monte Carlo standard error of a corrected minD (mc_se in the "
        "notes) is about how far another seed moves it; n goes as 1/minD², so another seed "
        "moves n by about twice that share of minD. The notes in bold, where there are any, "
        "are those topicsetsize report FILE prints (--trials: its number of halves).")
    notes = table_notes(report.min_d, option="--trials") + (
        [copies.message(COPIES)] if len(copies) else [])
    _section(cur, len(report.min_d.index) + sum(map(_lines, (*explained, *notes))),
             f"{name}: minD values between its runs (top {report.differences.top_k} runs, the "
             f"top-k rows corrected for the selection of the top k by split halves; "
             f"α = {report.alpha:g}, β = {report.beta:g}, m = {report.m}); {_PRE}",
             ("candidate", *MIN_D_HEADINGS), numbers=len(_MIN_D_COLUMNS))
    for candidate, values in report.min_d.iterrows():
        put_label(cur.ws, cur.row, 1, str(candidate))
        for c, column in enumerate(_MIN_D_COLUMNS, start=2):
            value = values[column]
            if column in _MIN_D_TEXT:
                put_label(cur.ws, cur.row, c, _MIN_D_TEXT[column](value)).alignment = _RIGHT
                continue
            put_number(cur.ws, cur.row, c, None if pd.isna(value) else value,
                       number_format=_MIN_D_FORMATS.get(column, N_FMT))
        cur.skip()
    for text in explained:
        cur.note(text)
    for line in notes:         # the engine's words, as text (they hold the candidates' names)
        put_text(cur.ws, cur.row, 1, line, font=STYLE.warning_font)
        cur.skip()
    cur.skip()


def _n_intervals(cur: Cursor, name: str, report) -> None:
    """The bootstrap interval of every n of the minD table (:func:`topicsetsize.report.
    interval_table`): per candidate, the low and high end for each design."""
    import pandas as pd

    from topicsetsize.estimates.interval_coverage import few_topics_note
    from topicsetsize.report import MIN_D_HELD_FIXED, interval_table

    if not report.n_intervals:
        return
    few = few_topics_note(report.summary.topics)    # the upper ends run low: said, in red
    table = interval_table(report)
    first = next(iter(report.n_intervals.values()))
    designs = list(report.n_intervals)
    columns = [f"{d.removeprefix('n ')} {end}" for d in designs for end in ("low", "high")]
    _section(cur, len(table.index) + 1 + _lines(MIN_D_HELD_FIXED) + (_lines(few) if few else 0),
             f"{name}: Sakai's n above, {first.level:.0%} interval over its "
             f"{report.summary.topics} topics; {_PRE}", ("candidate", *columns),
             numbers=len(columns))
    for i, candidate in enumerate(table.index):
        put_label(cur.ws, cur.row, 1, str(candidate))
        ends = (end for d in designs for end in (report.n_intervals[d].lower[i],
                                                 report.n_intervals[d].upper[i]))
        for c, value in enumerate(ends, start=2):
            if value == np.inf:         # beyond the search limit: said, as the calculators say it
                put_text(cur.ws, cur.row, c, TOO_LARGE)
            else:
                put_number(cur.ws, cur.row, c, None if pd.isna(value) else int(value),
                           number_format=N_FMT)
        cur.skip()
    put_text(cur.ws, cur.row, 1,
             f"Expanded percentile bootstrap: the topics resampled with replacement "
             f"{first.n_boot} times (seed {first.seed}), V_E or V_E2 re-estimated, n recomputed "
             f"(docs/formulas.md). The same: topicsetsize report FILE --seed {first.seed}.",
             font=STYLE.note)
    cur.skip()
    put_text(cur.ws, cur.row, 1, MIN_D_HELD_FIXED, font=STYLE.note)    # as the command says it
    if few:
        cur.skip()
        put_text(cur.ws, cur.row, 1, few[0].upper() + few[1:] + ".", font=STYLE.warning_font)
    cur.skip(2)


def _lines(text: str) -> int:
    """The printed lines of a note wrapped across the sheet's columns (as :func:`fit_texts`
    wraps it)."""
    return wrapped_lines(text, sum(WIDTHS.values()) / 0.9)


def _n_formula(target: str, s: str, noise: str) -> str:
    """⌈t·noise/((1−t)·σ² systems)⌉, at least 1, as :func:`topicsetsize.gt_n` (no leading "=")."""
    exact = f"{target}*{noise}/((1-{target})*{s})"
    return f'IF({s}>0,MAX(1,ROUNDUP({exact}*(1-1E-12),0)),"none: σ² systems = 0")'
