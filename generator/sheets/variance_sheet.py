"""The Variance sheet: one Table-1-style row per score matrix, and what it was computed from.

As in Table 1 of the AIRS 2016 paper: runs, topics, V_E of the raw and of the std-AB matrix,
and Kendall's τ with the paper's interval ("95% CI") between the run rankings by raw and by
std-AB mean (headed "AIRS interval": it is no confidence interval for this τ); then each
V_E with its 95% interval over the topics (the bootstrap of ``topicsetsize variance``). Below,
per matrix, the runs (mean raw and std-AB scores, ranks) and the topics' std-AB factors
(mean and SD over the runs), which standardise new runs the same way. Run, topic and matrix
names are user data: they are written as text, never as formulas.
"""

from __future__ import annotations

from openpyxl.worksheet.pagebreak import Break

from topicsetsize.estimates.interval_coverage import few_topics_note

from ..content.matrix_estimates import MatrixEstimate
from ..spreadsheet.cells import STYLE, fit_texts, fixed_format, put_label, put_number, put_text

__all__ = ["add_variance_sheet", "SHEET", "SUMMARY_COLUMNS", "tau_note"]

SHEET = "Variance"
SUMMARY_COLUMNS = ("matrix", "data", "runs", "topics", "V_E raw", "V_E std-AB", "τ",
                   "τ AIRS interval low", "τ AIRS interval high")
_FORMATS = {"V_E raw": fixed_format(), "V_E std-AB": fixed_format(), "τ": "0.000",
            "τ AIRS interval low": "0.000", "τ AIRS interval high": "0.000"}


def tau_note(highs) -> str:
    """Why the τ interval may end above 1, naming the upper ends above 1 among ``highs`` (the
    sheet's own, shaded), or none where no interval passes 1.

    >>> tau_note([1.03, 0.99]).split("exceed 1 ")[1][:21]
    '(shaded here: 1.030):'
    >>> "shaded" in tau_note([0.98])
    False
    """
    above = [f"{h:.3f}" for h in highs if h is not None and h > 1]
    shaded = f" (shaded here: {', '.join(above)})" if above else ""
    return ("Note: the τ interval is Sakai's \"95% CI\" of AIRS 2016, Table 1, unclipped as "
            f"published: τ ± z·√(2(2k+5)/(9k(k−1))) over k runs, so its upper end can exceed "
            f"1{shaded}: read it "
            "as 'up to 1'. τ itself never exceeds 1. The interval is the spread of τ between "
            "unrelated rankings (as the paper computes it), not a confidence interval for this τ.")


def add_variance_sheet(wb, estimates: list[MatrixEstimate]) -> None:
    """Write the Variance sheet for the matrices of a spec."""
    ws = wb.create_sheet(SHEET)
    # the run names whole (a longer one wraps): cut, different runs printed alike
    longest = max((len(str(r)) for est in estimates for r in est.runs.index), default=0)
    first = min(48, max(28, longest + 2))
    for letter, width in zip("ABCDEFGHI", (first, 30, 13, 13, 13, 13, 13, 19, 19)):
        ws.column_dimensions[letter].width = width
    put_label(ws, 1, 1, "Variance estimates from score matrices (AIRS 2016, Table 1 layout)",
              font=STYLE.title)
    put_label(ws, 2, 1, "V_E: one-way ANOVA residual variance (AIRS 2016, Eq. 1). std-AB: "
                        "per-topic z-scores ×0.15 + 0.5, clipped to [0, 1]. τ: Kendall's τ "
                        "between the raw and the std-AB run rankings, with the paper's interval.",
              font=STYLE.note)
    put_label(ws, 3, 1, tau_note([est.summary.tau_ci_high for est in estimates]),
              font=STYLE.note)
    for c, text in enumerate(SUMMARY_COLUMNS, start=1):
        put_label(ws, 4, c, text, font=STYLE.bold, fill=STYLE.header_fill).alignment = \
            STYLE.header if c > 2 else STYLE.wrap
    for i, est in enumerate(estimates):
        row = 5 + i
        s = est.summary
        put_text(ws, row, 1, est.spec.name)
        put_text(ws, row, 2, est.file)           # wrapped below where it is long
        values = (s.runs, s.topics, s.var_raw, s.var_std_ab, s.tau, s.tau_ci_low, s.tau_ci_high)
        for c, (head, value) in enumerate(zip(SUMMARY_COLUMNS[2:], values), start=3):
            if value != value:          # τ of tied run means (summarise: NaN, a warning)
                put_text(ws, row, c, "undefined")
                continue
            cell = put_number(ws, row, c, value, number_format=_FORMATS.get(head))
            if head == "τ AIRS interval high" and value is not None and value > 1:
                cell.fill = STYLE.differ_fill

    row = _intervals(ws, 6 + len(estimates), estimates)
    for est in estimates:
        row = _runs_and_topics(ws, row + 1, est)
    ws.print_title_rows = "1:1"                 # the heading on every page
    fit_texts(ws, 1, ws.max_row, len(SUMMARY_COLUMNS))


def _intervals(ws, row: int, estimates: list[MatrixEstimate]) -> int:
    """Each matrix's V_E raw and std-AB with its 95% interval over the topics (the bootstrap of
    ``topicsetsize variance``), from ``row`` on; returns the row after them."""
    put_text(ws, row, 1, "V_E with its 95% interval over the topics: an n sized on V_E has the "
                         "interval n(low) to n(high)", font=STYLE.heading)
    ci = next(iter(estimates[0].intervals.values()))
    notes = [f"Expanded percentile bootstrap: the topics resampled with replacement, V_E "
             f"re-estimated ({ci.n_boot} resamples, seed {ci.seed}), as topicsetsize variance "
             "gives it; topicsetsize n at either end gives n(low) and n(high)."]
    notes += [f"{est.spec.name}: {few}." for est in estimates
              if (few := few_topics_note(est.summary.topics, ("one-way",)))]
    for k, text in enumerate(notes, start=row + 1):
        put_text(ws, k, 1, text, font=STYLE.note)
    row += 1 + len(notes)
    for c, text in enumerate(_INTERVAL_COLUMNS, start=1):      # (B: filled, as above)
        put_label(ws, row, c, text, font=STYLE.bold, fill=STYLE.header_fill
                  ).alignment = STYLE.header if c > 2 else STYLE.wrap
    for i, est in enumerate(estimates, start=row + 1):
        put_text(ws, i, 1, est.spec.name)
        values = (est.summary.var_raw, est.intervals["raw"].low, est.intervals["raw"].high,
                  est.summary.var_std_ab, est.intervals["std-ab"].low,
                  est.intervals["std-ab"].high)
        for c, value in enumerate(values, start=3):
            put_number(ws, i, c, value, number_format=fixed_format())
    return row + len(estimates) + 1


#: The interval table's columns (B, the data file's, left empty).
_INTERVAL_COLUMNS = ("matrix", "", "V_E raw", "95% low", "95% high", "V_E std-AB", "95% low",
                     "95% high")


def _runs_and_topics(ws, row: int, est: MatrixEstimate) -> int:
    """One matrix's runs (mean raw and std-AB scores, ranks) and topics (std-AB factors) from
    ``row`` on, on pages of their own, :data:`PAGE_LINES` to a page under the headings; returns
    the row after them."""
    ws.row_breaks.append(Break(id=row - 1))
    put_text(ws, row, 1, f"{est.spec.name}: runs and topics", font=STYLE.heading)
    row += 1
    for text in (f"Data: {est.file}.", *(f"Note: {note}." for note in est.notes)):
        put_text(ws, row, 1, text, font=STYLE.note)
        row += 1
    runs, topics = list(est.runs.iterrows()), list(est.topics.iterrows())
    lines = max(len(runs), len(topics))
    for start in range(0, lines, PAGE_LINES):   # a page of lines under their headings
        if start:
            ws.row_breaks.append(Break(id=row - 1))
        _headings(ws, row, est.spec.name if start else None)
        for i, k in enumerate(range(start, min(start + PAGE_LINES, lines)), start=row + 1):
            if k < len(runs):
                run, r = runs[k]
                put_text(ws, i, 1, run)
                put_number(ws, i, 2, r["mean_raw"], number_format=fixed_format())
                put_number(ws, i, 3, r["mean_std_ab"], number_format=fixed_format())
                put_number(ws, i, 4, r["rank_raw"])
                put_number(ws, i, 5, r["rank_std_ab"])
            if k < len(topics):
                topic, t = topics[k]
                put_text(ws, i, 7, topic)
                put_number(ws, i, 8, t["mean"], number_format=fixed_format())
                put_number(ws, i, 9, t["sd"], number_format=fixed_format())
        row += min(PAGE_LINES, lines - start) + 1
    return row + 1


#: Runs (and topics) per printed page of the Variance sheet: each page repeats the column
#: headings (and the matrix's name), so that a page read on its own says what its numbers are.
#: 30 lines, the headings and the sheet's title fit a landscape A4 page at the sheet's
#: fit-to-width scale with room to spare.
PAGE_LINES = 30
_HEADS = ("run", "mean raw", "mean std-AB", "rank raw", "rank std-AB", "", "topic",
          "std-AB factor: mean", "std-AB factor: SD")


def _headings(ws, row: int, continued: str | None) -> None:
    """The column headings of a page of runs and topics; on a continuation page, column A
    names the matrix (``continued``) above its runs."""
    for c, text in enumerate(_HEADS, start=1):
        if text:
            if c == 1 and continued:
                text = f"run ({continued}, continued)"
            put_label(ws, row, c, text, font=STYLE.bold, fill=STYLE.header_fill)
