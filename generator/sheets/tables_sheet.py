"""The Tables sheet: for every measure, the ANOVA topic set size table, legacy and exact.

Rows m, columns minD, as in Table 2 of the AIRS 2016 paper. The numbers are values from the
engine (:func:`topicsetsize.anova_n` over the grid, the cells of
:func:`topicsetsize.anova_table`; arrays, so that the default workbook needs no pandas), not
formulas: the ANOVA calculator reproduces any cell live. Cells where the two methods disagree
are shaded in both tables and carry a note with both values.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from openpyxl.worksheet.pagebreak import Break

from ..content.spec import Measure, Spec
from ..spreadsheet.cells import STYLE, fit_texts, fixed_format, put_label, put_number, put_text

__all__ = ["MeasureTables", "TablePlace", "compute_tables", "add_tables_sheet", "interval_line",
           "SHEET"]

SHEET = "Tables"


@dataclass(frozen=True)
class MeasureTables:
    """A measure and its two tables of n (rows ``ms``, columns ``min_ds``)."""

    measure: Measure
    ms: tuple
    min_ds: tuple
    legacy: np.ndarray
    exact: np.ndarray

    def table(self, method: str) -> np.ndarray:
        return self.legacy if method == "legacy" else self.exact


@dataclass(frozen=True)
class TablePlace:
    """Where a measure's tables sit on the sheet (for the charts)."""

    header_row: int                 # the row of minD values
    first_row: int                  # first row of m values
    last_row: int
    first_col: dict                 # method -> column of the m labels


def _detail(measure: Measure) -> str:
    """The line under a measure's name: σ̂², its part and where σ̂² comes from."""
    return "; ".join([f"σ̂² = {measure.variance:.6g}",
                      *([f"part {measure.group}"] if measure.group else []),
                      *([measure.source] if measure.source else [])])


def interval_line(measure: Measure) -> str:
    """What σ̂²'s interval over the past topics means for the n of a measure's tables.

    n grows about in proportion to σ̂² (n ≈ λ/Δ, Δ = minD²/(2σ²)), so the ends of the interval,
    as ratios to σ̂², say how far each n may be off.

    >>> print(interval_line(Measure("web", 0.0084433, interval=(0.0060, 0.0114))))
    σ̂² is an estimate from the past topics: its 95% interval over them is 0.006 to 0.0114 (as
    topicsetsize variance gives it), and each n grows about in proportion to σ̂²: from roughly
    0.71 to 1.35 times the n shown (topicsetsize n at either end gives them exactly).
    """
    low, high = measure.interval
    return (f"σ̂² is an estimate from the past topics: its 95% interval over them is {low:.6g} "
            f"to {high:.6g} (as topicsetsize variance gives it), and each n grows about in "
            f"proportion to σ̂²: from roughly {low / measure.variance:.2f} to "
            f"{high / measure.variance:.2f} times the n shown (topicsetsize n at either end "
            "gives them exactly).")


def compute_tables(spec: Spec, measures, tick=None) -> list[MeasureTables]:
    """The legacy and exact tables of every measure (``tick(text)`` after each)."""
    from topicsetsize import anova_n
    from topicsetsize.designs.scales import warn_scale

    out = []
    for measure in measures:
        ms, min_ds = (tuple(x) for x in spec.grid(measure))
        warn_scale({"min_d": np.asarray(min_ds), "variance": measure.variance}, given=True)
        sizes = {}
        for method in ("legacy", "exact"):
            sizes[method] = np.asarray(anova_n(spec.alpha, spec.beta, np.asarray(min_ds)[None, :],
                                               measure.variance, np.asarray(ms)[:, None],
                                               method=method))
            if tick:
                tick(f"{method} table: {measure.name}")
        out.append(MeasureTables(measure, ms, min_ds, sizes["legacy"], sizes["exact"]))
    return out


#: Rows of the Tables sheet on one printed page (A4 landscape, one page wide), with room to
#: spare: a measure's tables start a new page rather than leave their heading at a page end.
PAGE_ROWS = 34


def _notes(t, differ) -> list[str]:
    """The lines under a measure's pair of tables: how many cells differ between the methods,
    in how many the legacy n is the smaller (it under-sizes: a review, 2026-12-07, found the
    shading saying only "differ"), and the interval on V_E where there is one."""
    short = int((t.legacy < t.exact).sum())
    return [f"{int(differ.sum())} of {differ.size} cells differ between the methods (shaded)"
            + (f"; in {short} the legacy n is smaller, and falls short of 1 − β under the exact "
               "test." if short else "."),
            *([interval_line(t.measure)] if t.measure.interval else [])]


def add_tables_sheet(wb, spec: Spec, tables: list[MeasureTables]) -> list[TablePlace]:
    """Write the Tables sheet; return where each measure's tables are."""
    ws = wb.create_sheet(SHEET)
    ws.column_dimensions["A"].width = 36       # the measure names of the t-test and CI tables
    # the title repeats on every printed page, the t-test and CI tables' too
    put_label(ws, 1, 1, "Topic set size tables: the n each measure needs", font=STYLE.title)
    put_label(ws, 2, 1, f"One-way ANOVA: rows m, columns minD; then the paired t-test and "
                        f"the CI. α = {spec.alpha:g}, β = {spec.beta:g}. Values computed by the "
                        "topicsetsize engine when the workbook was generated (the ANOVA sheet "
                        "recomputes any cell live).", font=STYLE.note)
    put_label(ws, 3, 1, "Legacy = Nagata's approximation (reproduces the published tables); "
                        "exact = noncentral F. Shaded cells: the methods disagree (an exact "
                        "cell's comment gives both values).", font=STYLE.note)
    put_label(ws, 4, 1, "A std-AB measure's minD is a difference of standardised scores (each "
                        "topic's z-scores × 0.15 + 0.5), not of raw scores: its n answers "
                        "another question than the raw measure's under the same minD.",
              font=STYLE.note)
    row = 6
    width = max(len(t.min_ds) for t in tables) + 1
    places = []
    page_top = 1
    for t in tables:
        # heading, detail, titles, header, rows, note (and σ̂²'s interval from a matrix, two
        # lines wrapped within the tables' width)
        block = len(t.ms) + 5 + 2 * (t.measure.interval is not None)
        if row - page_top + block > PAGE_ROWS:   # keep each heading with its tables
            ws.row_breaks.append(Break(id=row - 1))
            page_top = row
        put_text(ws, row, 1, t.measure.name, font=STYLE.heading)
        put_text(ws, row + 1, 1, _detail(t.measure), font=STYLE.note)
        differ = t.legacy != t.exact
        cols = {"legacy": 1, "exact": width + 2}
        titles = {"legacy": "Legacy (Nagata's approximation)",
                  "exact": "Exact (noncentral F)"}
        for method, c0 in cols.items():
            sizes = t.table(method)
            put_label(ws, row + 2, c0, titles[method], font=STYLE.bold)
            put_label(ws, row + 3, c0, "m \\ minD", font=STYLE.bold, fill=STYLE.header_fill)
            for j, d in enumerate(t.min_ds, start=1):
                put_number(ws, row + 3, c0 + j, float(d), font=STYLE.bold,
                           fill=STYLE.header_fill)
            for i, m in enumerate(t.ms):
                put_number(ws, row + 4 + i, c0, int(m), font=STYLE.bold)
                for j in range(len(t.min_ds)):
                    note = (f"legacy n = {t.legacy[i, j]}, exact n = {t.exact[i, j]}"
                            if differ[i, j] else None)
                    put_number(ws, row + 4 + i, c0 + 1 + j, int(sizes[i, j]),
                               number_format="#,##0",
                               fill=STYLE.differ_fill if differ[i, j] else None,
                               comment=note if method == "exact" else None)
        last = row + 3 + len(t.ms)
        notes = _notes(t, differ)
        _put_notes(ws, notes, last + 1, cols["exact"] + len(t.min_ds))
        places.append(TablePlace(row + 3, row + 4, last, cols))
        row = last + 2 + len(notes)
    ws.print_title_rows = "1:1"
    return places


def _put_notes(ws, notes: list[str], row: int, last_column: int) -> None:
    """The lines under a measure's tables from ``row`` on, wrapped within them (a review,
    2026-12-08: σ̂²'s interval ran past them, and the page, fitted to its width, printed every
    table of the sheet at about 6 pt)."""
    for k, text in enumerate(notes, start=row):
        put_label(ws, k, 1, text, font=STYLE.note)
    fit_texts(ws, row, row + len(notes) - 1, last_column)


def add_pair_tables(wb, spec: Spec, measures) -> None:
    """Below the ANOVA tables: the paired t-test (legacy and exact) and the CI topic set sizes
    of every measure, with σ̂t² = 2·σ̂² (the variance of a difference of two systems whose
    scores have variance σ̂² each), columns minDt (t-test) and δ (CI) = the spec's minD grid.
    Values from the engine (:func:`topicsetsize.ttest_n` and :func:`topicsetsize.ci_n` over
    the grid: the cells of :func:`topicsetsize.ttest_table`)."""
    from topicsetsize import ci_n, ttest_n

    ws = wb[SHEET]
    row = ws.max_row + 3
    page_top = ws.row_breaks.brk[-1].id + 1 if ws.row_breaks.brk else 1
    if row - page_top + 4 + len(measures) + 2 > PAGE_ROWS:   # the title with its first table
        ws.row_breaks.append(Break(id=row - 1))
    grid = [float(d) for d in spec.min_d]
    var_t = [2 * float(m.variance) for m in measures]
    put_label(ws, row, 1, "Paired t-test and CI topic set sizes (σ̂t² = 2σ̂² of each measure)",
              font=STYLE.title)
    row += 1
    put_label(ws, row, 1, f"α = {spec.alpha:g}, β = {spec.beta:g} (the CI needs no β). The TTEST "
                          "and CI sheets recompute any cell live.", font=STYLE.note)
    row += 2
    blocks = []
    for method in ("legacy", "exact"):
        sizes = ttest_n(spec.alpha, spec.beta, np.asarray(grid)[None, :],
                        np.asarray(var_t)[:, None], method=method)
        blocks.append((f"Paired t-test, {method}: rows measure, columns minDt", "minDt",
                       np.asarray(sizes)))
    ci = ci_n(spec.alpha, np.asarray(grid)[None, :], np.asarray(var_t)[:, None])
    blocks.append(("CI of a difference: rows measure, columns δ (the largest expected width)",
                   "δ", np.asarray(ci)))
    page_top = ws.row_breaks.brk[-1].id + 1 if ws.row_breaks.brk else 1
    for title, symbol, values in blocks:
        if row - page_top + len(measures) + 2 > PAGE_ROWS:    # keep each table on one page
            ws.row_breaks.append(Break(id=row - 1))
            page_top = row
        put_label(ws, row, 1, title, font=STYLE.bold)
        row += 1
        put_label(ws, row, 1, "measure", font=STYLE.bold, fill=STYLE.header_fill)
        put_label(ws, row, 2, "σ̂t²", font=STYLE.bold, fill=STYLE.header_fill).alignment = \
            STYLE.header
        for j, d in enumerate(grid):
            cell = put_number(ws, row, 3 + j, d, font=STYLE.bold, fill=STYLE.header_fill)
            cell.alignment = STYLE.header
        put_label(ws, row, 3 + len(grid), f"← {symbol}", font=STYLE.note)
        for i, measure in enumerate(measures):
            put_text(ws, row + 1 + i, 1, measure.name)
            put_number(ws, row + 1 + i, 2, var_t[i], number_format=fixed_format())
            for j in range(len(grid)):
                put_number(ws, row + 1 + i, 3 + j, int(values[i, j]), number_format="#,##0")
        # a name longer than its column wraps (cut by σ̂t², "…, raw" and "…, std-AB" alike)
        fit_texts(ws, row + 1, row + len(measures), 2 + len(grid))
        row += len(measures) + 2
