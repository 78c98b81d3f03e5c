"""The Budget sheet: pool depth, topic set size and assessment cost (Sakai, CIKM 2014, §6.3).

One row per pool depth of the spec's ``[[pool_depths]]``: the judged documents per topic,
σ̂² at that depth and the required n of the one-way ANOVA design (precomputed by the generator
with :func:`topicsetsize.budget_plan` for the spec's ``[budget]`` m and minD); the cost
n × documents per topic, whether it fits the budget (a yellow input) and the cheapest depth
within the budget are live formulas. A chart plots n against the judged documents per topic
(CIKM 2014, Figures 4–5).
"""

from __future__ import annotations

import textwrap

import numpy as np
from openpyxl.chart import Reference, ScatterChart, Series
from openpyxl.chart.legend import Legend
from openpyxl.styles import Alignment

import topicsetsize as tss

from ..content.calculators import CALCULATORS, INPUTS
from ..content.spec import Spec
from ..spreadsheet.cells import (
    STYLE,
    fit_texts,
    fixed_format,
    put_formula,
    put_label,
    put_number,
)
from ..spreadsheet.formulas import N_FMT, OK_FMT
from ..spreadsheet.layout import (
    NO_VALUE,
    TOO_LARGE,
    guarded,
    highlight_if,
    name_cell,
    write_inputs,
    write_status,
)
from ..spreadsheet.rows import Block
from .calculators import grey_when_bad, start_sheet
from .calculators.sheet import PRINT_SCALE
from .charts_sheet import set_title, style_series

__all__ = ["add_budget_sheet", "SHEET"]

SHEET = "Budget"
_HEADERS = ("pool depth pd", "judged docs per topic", "σ̂² at pd", "required n (not live)",
            "cost = n × docs, rounded up", "within budget", "cost if within",
            "pd if cheapest (ties: the deeper)")
#: The columns added where the spec gives each depth's ``variance_high`` (I and J).
_HIGH_HEADERS = ("n high: at σ̂² high (not live)", "cost high = n high × docs, rounded up")


def add_budget_sheet(wb, spec: Spec) -> None:
    """Write the Budget sheet (the spec must have ``[[pool_depths]]`` and ``[budget]``)."""
    b = spec.budget
    rows = spec.pool_depths
    high = all("variance_high" in r for r in rows)
    plan = tss.budget_plan([r["pd"] for r in rows],
                           docs_per_topic=[r["docs_per_topic"] for r in rows],
                           variances=[r["variance"] for r in rows], m=b["m"],
                           min_d=b["min_d"], alpha=spec.alpha, beta=spec.beta,
                           budget=b["documents"], method=b["method"], design=b["design"],
                           variances_high=[r["variance_high"] for r in rows] if high else None)
    two_way = b["design"] == "anova2"
    cur = start_sheet(wb, SHEET, "Budget: how deep to pool, how many topics, at what cost", [
        f"Required n per pool depth: "
        f"{'two-way ANOVA (topics as blocks)' if two_way else 'one-way ANOVA'}, m = {b['m']}, "
        f"minD = {b['min_d']:g}, "
        f"α = {spec.alpha:g}, β = {spec.beta:g}, {b['method']} method (precomputed by the "
        f"generator from each depth's σ̂²{', its V_E2' if two_way else ''}; not live).",
        "Cost = n × judged documents per topic (Sakai, CIKM 2014, §6.3), rounded up to a whole "
        "document; type your budget in the yellow cell: the cost, the fit and the cheapest "
        "depth recalculate.",
        ("Caution: the two-way ANOVA's power assumes normal residuals of equal variance (the "
         f"{CALCULATORS['anova2'].sheet} sheet says how far real scores are from it)." if two_way
         else "Caution: the one-way ANOVA's n is for independent topic samples per system (the "
         f"{CALCULATORS['anova'].sheet} sheet says why); design = \"anova2\" in the spec's "
         "[budget] sizes the two-way ANOVA (topics as blocks) from each depth's V_E2."),
    ])
    if high:    # ten columns on the calculators' printed page: A, B and E to J narrower (D
        # keeps the width of the check's longest word, "not a number", in bold)
        for letter, width in {"A": 30, "B": 13, **dict.fromkeys("EFGHIJ", 11)}.items():
            cur.ws.column_dimensions[letter].width = width
    cur.heading("Inputs")
    inp = write_inputs(cur, wb, INPUTS["budget"], {"budget": b["documents"]})
    budget = inp.used["budget"]
    _, ok = write_status(cur, wb, "budget", inp)
    # the caution, and the budget's allowed range (it ran into "ok": "at most 1,"), wrapped
    fit_texts(cur.ws, 2, cur.row - 1, 10 if high else 8)
    cur.skip()
    first, last, tied, cheapest = _depths(cur, plan, budget, ok)
    _cheapest(cur, wb, first, last, tied, cheapest, ok, high)
    # legacy: the depths whose n falls short under the exact power, in the warning's red
    for line in textwrap.wrap(plan.note, 110):
        cur.note(line, font=STYLE.warning_font)
    # n high drawn where every depth has a number (a text cell would plot as 0)
    _chart(cur, first, last, "J" if high else "H",
           high and bool(np.isfinite(plan.table["n high"]).all()))


def _depths(cur, plan, budget: str, ok: str) -> tuple[int, int, str, str]:
    """The table of pool depths: n, cost, fit; the cheapest row highlighted. Returns its
    first and last rows, the range of the tied depths and the cheapest depth's formula."""
    ws, rows = cur.ws, plan.table
    high = "n high" in rows
    cur.heading("Pool depths")
    top = cur.row
    for c, text in enumerate(_HEADERS + (_HIGH_HEADERS if high else ()), start=1):
        put_label(ws, top, c, text, font=STYLE.bold,
                  fill=STYLE.header_fill).alignment = STYLE.header
    ws.row_dimensions[top].height = 60 if high else 45     # four lines in the narrower columns
    first, last = top + 1, top + len(rows)
    costs_if = f"$G${first}:$G${last}"
    tied = f"$H${first}:$H${last}"
    for i, (pd, row) in enumerate(plan.table.iterrows()):
        r = first + i
        put_number(ws, r, 1, pd, number_format="0")
        put_number(ws, r, 2, row["docs_per_topic"], number_format="#,##0.##")
        put_number(ws, r, 3, row["variance"], number_format=fixed_format())
        put_number(ws, r, 4, row["n"], number_format=N_FMT)
        # guarded like every answer of the sheet: no number while the budget is bad
        # the cost rounded up to a whole document (topicsetsize.decide.wording.whole_documents:
        # to 6 decimals first, the same in every spreadsheet's arithmetic)
        for c, value, fmt in ((5, f"ROUNDUP(ROUND(D{r}*B{r},6),0)", "#,##0"),
                              (6, f"IF(E{r}<={budget},1,0)", OK_FMT)):
            put_formula(ws, r, c, guarded(ok, value, f'"{NO_VALUE}"'), number_format=fmt
                        ).alignment = Alignment(horizontal="right")
        put_formula(ws, r, 7, f'=IF(F{r}=1,E{r},"")', number_format="#,##0")
        # the pd of a row that ties for the cheapest cost within the budget, else blank text
        put_formula(ws, r, 8, f'=IF(AND(F{r}=1,E{r}=MIN({costs_if})),A{r},"")',
                    number_format="0")
        if high:
            _high_cells(ws, r, row["n high"], ok)
    end = "J" if high else "H"
    if high:    # first, so that it shows on the highlighted row too: within at n, not at n high
        highlight_if(ws, f"J{first}:J{last}",
                     f"AND($F{first}=1,OR(NOT(ISNUMBER($J{first})),$J{first}>{budget}))")
    cheapest = f"IF(COUNT({tied})=0,0,MAX({tied}))"
    highlight_if(ws, f"A{first}:{end}{last}", f"AND(ISNUMBER($H{first}),$A{first}={cheapest})",
                 fill=STYLE.cross_fill, font=STYLE.bold)
    block = Block(first, last, {k: c for c, k in enumerate("ABCDEFGHIJ"[:ord(end) - 64],
                                                           start=1)})
    grey_when_bad(cur, block, ok)
    cur.row = last + 2
    return first, last, tied, cheapest


def _high_cells(ws, r: int, n_high: float, ok: str) -> None:
    """Row ``r``'s n high (precomputed; words beyond the search limit) and its live cost."""
    if n_high == float("inf"):
        put_label(ws, r, 9, TOO_LARGE).alignment = Alignment(horizontal="right", shrink_to_fit=True)
    else:
        put_number(ws, r, 9, n_high, number_format=N_FMT)
    put_formula(ws, r, 10, guarded(ok, f'IF(ISNUMBER(I{r}),ROUNDUP(ROUND(I{r}*B{r},6),0),'
                                       f'"n high {TOO_LARGE}")', f'"{NO_VALUE}"'),
                number_format="#,##0"
                ).alignment = Alignment(horizontal="right", shrink_to_fit=True)


def _cheapest(cur, wb, first: int, last: int, tied: str, cheapest: str, ok: str,
              high: bool) -> None:
    """The cheapest depth within the budget, its n and its cost (named answers)."""
    ws = cur.ws
    put_label(ws, cur.row, 1, "Cheapest within the budget", font=STYLE.bold)
    match = f"MATCH({cheapest},$A${first}:$A${last},0)"
    put_formula(ws, cur.row, 2, guarded(
        ok, f'IF(COUNT({tied})=0,"No pool depth fits the budget.","pool depth "'
            f'&{cheapest}&": n = "&INDEX($D${first}:$D${last},{match})&" topics")'),
        font=STYLE.answer)
    ws.merge_cells(start_row=cur.row, start_column=2, end_row=cur.row, end_column=8)
    name_cell(wb, "budget_cheapest", ws.title, cur.row, 2)
    cur.skip()
    # numbers, not TEXT(): the cell's number format shows the separators in every locale
    answers = [("budget_cheapest_pd", "its pool depth", f'IF(COUNT({tied})=0,"none",{cheapest})',
                "0"),
               ("budget_cheapest_cost", "its cost (judged documents)",
                f'IF(COUNT({tied})=0,"none",INDEX($E${first}:$E${last},{match}))', "#,##0")]
    if high:
        answers.append(("budget_cheapest_cost_high", "its cost at n high",
                        f'IF(COUNT({tied})=0,"none",INDEX($J${first}:$J${last},{match}))',
                        "#,##0"))
    for name, label, value, fmt in answers:
        put_label(ws, cur.row, 1, label)
        put_formula(ws, cur.row, 2, guarded(ok, value), number_format=fmt,
                    font=STYLE.answer).alignment = Alignment(horizontal="left")
        name_cell(wb, name, ws.title, cur.row, 2)
        cur.skip()
    cur.skip()
    cur.note("Highlighted: the cheapest depth within the budget. The cost compares depths "
             "only: a shallower pool is cheaper per topic but noisier, so it needs more topics.")
    lines = ("Each n is a point estimate: its σ̂² was measured on a few dozen past topics "
             "and carries their sampling error.",
             *(("n high is n at σ̂² high, the upper end of σ̂²'s interval over the past topics "
                "(the spec's variance_high; topicsetsize pool-depth --csv gives the 95% one),",
                "and cost high the cost there: a depth within the budget at n may not be at "
                "n high (its cost high in pink). Compare the budget with cost high before "
                "committing to a depth.")
               if high else
               ("topicsetsize pool-depth on the runs and qrels gives the 95% interval of n at "
                "every depth, and the cost at its upper end (cost high):",
                "a depth within the budget at n may not be at n high. Compare the budget with "
                "cost high before committing to a depth.")))
    for line in lines:
        cur.note(line)


def _chart(cur, first: int, last: int, end: str, with_high: bool) -> None:
    """n (and, ``with_high``, n high) against judged documents per topic, below the table;
    the print layout."""
    ws = cur.ws
    chart = ScatterChart()
    set_title(chart, "n against judged documents per topic")   # one line: y is "required n"
    chart.style = 2
    chart.height, chart.width = 8, 14
    chart.x_axis.title = "judged documents per topic"
    chart.y_axis.title = "required n (topics)"
    chart.x_axis.delete = chart.y_axis.delete = False
    chart.legend = None
    xs = Reference(ws, min_col=2, min_row=first, max_row=last)
    ys = Reference(ws, min_col=4, min_row=first, max_row=last)
    # the legend's words are not an answer's label ("required n"), which a printed line of
    # labels and answers would be read as
    series = Series(ys, xs, title="n (at σ̂²)" if with_high else "required n")
    style_series(series, 0)
    chart.series.append(series)
    if with_high:
        series = Series(Reference(ws, min_col=9, min_row=first, max_row=last), xs,
                        title="n high (at σ̂² high)")
        style_series(series, 1)
        chart.series.append(series)
        chart.legend = Legend()
        chart.legend.position = "b"
    # below the table (beside it, the page had to shrink to about 4 pt to fit the width)
    ws.add_chart(chart, f"A{cur.row + 1}")
    ws.freeze_panes = "A3"
    ws.print_area = f"A1:{end}{cur.row + 17}"     # the chart takes about 16 rows
    ws.print_title_rows = "1:1"
    ws.page_setup.scale = PRINT_SCALE          # as the calculators: 9 pt answers
