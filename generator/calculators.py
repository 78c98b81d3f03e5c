"""The calculator sheets ANOVA, TTEST and CI: live formulas that recalculate in any spreadsheet.

Each sheet has its inputs at the top (yellow, validated, with workbook-level names) and a
status cell that names the first bad input; then the answers (the required n of the legacy and
the exact method, with a warning where they differ, and the power and the minimum detectable
difference at "your n"); the power at the answers and for n around them; a small chart of the
power against n; and below, grouped, the workings: every computation, written out row by row.

Nothing in the workings reads an input directly: each formula reads the input's *used* value,
which falls back to the starting value while the input is blank, text or out of range, so no
formula ever shows an error value. The answers show "check the inputs" meanwhile.

The summary is written first and the workings below it; the summary cells that show a result
of the workings are filled in once the workings are written (:meth:`Cursor.resolve`).
"""

from __future__ import annotations

from dataclasses import dataclass

from openpyxl.chart import Reference, ScatterChart, Series
from openpyxl.styles import Font, Protection
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation

from topicsetsize.params import N_MAX
from topicsetsize.designs.legacy import NAGATA_LAMBDA

from .cells import STYLE, col, put_formula, put_label, put_number, put_text, ref
from .formulas import N_FMT, P_FMT, anova_models, chi2_lambda_model, ci_models, ttest_models
from .inputs import INPUTS
from .layout import (CHECK_INPUTS, Cursor, answer_text, guarded, highlight_if, name_cell,
                     power_search,
                     too_large_text, write_inputs, write_result, write_status)
from .rows import Block, Col, bisection_answer, bisection_cols, bisection_steps, write_block

__all__ = ["add_calculators", "measure_list", "SHEETS", "NAMED_RESULTS", "start_sheet",
           "grey_when_bad", "display_columns", "Design", "guarded_block"]

#: The calculator sheets, in workbook order.
SHEETS = ("ANOVA", "TTEST", "CI", "ANOVA2", "TTEST2", "CI2")

#: Workbook-level names of the calculators' results (besides the inputs).
NAMED_RESULTS = {
    "anova_n_legacy": "ANOVA: required n, legacy method",
    "anova_n_exact": "ANOVA: required n, exact method",
    "anova_power_legacy": "ANOVA: legacy power at your n",
    "anova_power_exact": "ANOVA: exact power at your n",
    "anova_min_d_at_n_legacy": "ANOVA: minimum detectable minD at your n, legacy method",
    "anova_min_d_at_n_exact": "ANOVA: minimum detectable minD at your n, exact method",
    "anova_status": "ANOVA: status of the inputs (OK, or the first bad input)",
    "ttest_n_legacy": "TTEST: required n (minDt, σ̂t² inputs), legacy method",
    "ttest_n_exact": "TTEST: required n (minDt, σ̂t² inputs), exact method",
    "ttest_delta_t_n_legacy": "TTEST: required n for minΔt, legacy method",
    "ttest_delta_t_n_exact": "TTEST: required n for minΔt, exact method",
    "ttest_power_legacy": "TTEST: legacy power at your n",
    "ttest_power_exact": "TTEST: exact power at your n",
    "ttest_min_dt_at_n_legacy": "TTEST: minimum detectable minDt at your n, legacy method",
    "ttest_min_dt_at_n_exact": "TTEST: minimum detectable minDt at your n, exact method",
    "ttest_status": "TTEST: status of the inputs",
    "ci_n": "CI: required n",
    "ci_n_approx": "CI: required n with the approximation E[√V] ≈ σ̂t(1 − 1/(4(n−1)))",
    "ci_width_at_n": "CI: expected width at your n",
    "ci_status": "CI: status of the inputs",
    "anova2_n": "ANOVA2: required n, two-way ANOVA without replication (exact)",
    "anova2_power": "ANOVA2: power at your n",
    "anova2_min_d_at_n": "ANOVA2: minimum detectable minD at your n",
    "anova2_status": "ANOVA2: status of the inputs",
    "ttest2_n": "TTEST2: required n per system, two-sample t-test (exact)",
    "ttest2_power": "TTEST2: power at your n per system",
    "ttest2_min_d_at_n": "TTEST2: minimum detectable minD at your n per system",
    "ttest2_status": "TTEST2: status of the inputs",
    "ci2_n": "CI2: required n per system, CI of a difference of two independent means",
    "ci2_n_approx": "CI2: required n per system with the approximation E[s_p] ≈ σ̂(1 − 1/(4φ))",
    "ci2_width_at_n": "CI2: expected width at your n per system",
    "ci2_status": "CI2: status of the inputs",
}

#: Rows of the χ² bisection for λ̂: the bracket shrinks to 2^-50 of its width.
_LAMBDA_STEPS = 50
#: Rows of the log-scale bisections for the minimum detectable difference at a given n:
#: log10 of the noncentrality (or of minΔt) over [_LOG_LO, _LOG_HI], to 18/2^60 ≈ 2e-17.
_MIN_STEPS = 60
_LOG_LO, _LOG_HI = -8, 10
#: Rows of the power table on each side of an answer.
_AROUND = 6
#: Rows a table at the answers and a table around an answer take (with headings, gaps).
_ANSWERS_ROWS = 7
_AROUND_ROWS = 2 * _AROUND + 3
#: Rows the two small charts beside the results take (7.5 cm each).
_CHART_ROWS = 32
#: Points of the power curve behind the chart.
_CURVE = 25

_WIDTHS = {"A": 40, "B": 17, "C": 34, "D": 13, "E": 13}
#: Column C of a calculator holds the answers' notes left of the chart (column D).
_NOTES_WIDTH = 48
#: The column where the chart beside the answers starts.
_CHART_COLUMN = "D"
_FIRST = ("p_legacy", "p_exact", "ok_legacy", "ok_exact", "width", "ok", "width_approx",
          "ok_approx")
_GREY = Font(color="A6A6A6")


def display_columns(cols: list[Col]) -> list[Col]:
    """The model's columns with the powers (or widths) and verdicts first, for reading."""
    first = [c for key in _FIRST for c in cols if c.key == key]
    return first + [c for c in cols if c.key not in _FIRST]


def add_calculators(wb, values: dict, k_range: str, measures: str | None = None) -> None:
    """Add the three calculator sheets to ``wb``.

    ``values`` maps "anova"/"ttest"/"ci" to the starting values of the inputs (missing keys
    take the defaults of :data:`generator.inputs.INPUTS`); ``k_range`` is the absolute
    reference of the helper range k = 0..POISSON_TERMS−1. With ``measures`` (the prefix of
    the names ``{measures}_names`` / ``{measures}_variances`` from :func:`measure_list`),
    each calculator gets a drop-down that takes the variance from a measure.
    """
    _anova(wb, values.get("anova", {}), k_range, measures)
    _ttest(wb, values.get("ttest", {}), k_range, measures)
    _ci(wb, values.get("ci", {}), measures)
    _anova(wb, values.get("anova2", {}), k_range, measures, ANOVA2)
    _ttest(wb, values.get("ttest2", {}), k_range, measures, TTEST2)
    _ci(wb, values.get("ci2", {}), measures, CI2)


def measure_list(wb, measures) -> str:
    """Write the measures (name, V_E) to the Helpers sheet for the calculators' drop-downs;
    define ``measure_names`` and ``measure_variances``; return the prefix "measure"."""
    ws = wb["Helpers"]
    put_label(ws, 1, 3, "measure (from the Variance sheet)")
    put_label(ws, 1, 4, "V_E")
    for i, m in enumerate(measures, start=2):
        put_text(ws, i, 3, m.name)
        put_number(ws, i, 4, m.variance)
    last = len(measures) + 1
    for name, c in (("measure_names", "C"), ("measure_variances", "D")):
        wb.defined_names[name] = DefinedName(name, attr_text=f"Helpers!${c}$2:${c}${last}")
    return "measure"


def _measure_picker(cur: Cursor, wb, inp, key: str, scale: str, symbol: str,
                    prefix: str | None) -> None:
    """A drop-down of the measures; when one is picked, the variance input ``key`` is taken
    from it (times ``scale``: σ̂t² = 2σ̂²) and the typed value is ignored."""
    if not prefix:
        return
    ws, row = cur.ws, cur.row
    put_label(ws, row, 1, "or take σ̂² from", font=STYLE.bold)
    cell = ws.cell(row=row, column=2)
    cell.fill, cell.border = STYLE.input_fill, STYLE.box
    cell.protection = Protection(locked=False)
    put_label(ws, row, 3, "a measure of the Variance sheet")
    here = ref(row, 2, absolute=True)
    match = f"MATCH({here},{prefix}_names,0)"
    check = put_formula(ws, row, 4, f'=IF(ISBLANK({here}),"ok",IF(ISNA({match}),'
                                    f'"not a measure","ok"))')
    check.alignment = STYLE.center
    highlight_if(ws, ref(row, 4), f'{ref(row, 4)}<>"ok"', font=STYLE.warning_font)
    also = ", σ̂t² = 2·V_E" if scale != "1" else ""
    put_label(ws, row, 5, f"pick a measure to use its V_E (σ̂² = V_E{also}) "
                          f"instead of the typed {symbol}; clear the cell to type it again",
              font=STYLE.note)
    dv = DataValidation(type="list", formula1=f"{prefix}_names", allow_blank=True,
                        showErrorMessage=True, errorTitle="not a measure",
                        error="Pick a measure from the list (or clear the cell).")
    ws.add_data_validation(dv)
    dv.add(ref(row, 2))
    name_cell(wb, f"{ws.title.lower()}_measure", ws.title, row, 2)
    chk = ref(row, 4, absolute=True)
    inp.used[key] = (f"(IF(AND({chk}=\"ok\",NOT(ISBLANK({here}))),"
                     f"{scale}*INDEX({prefix}_variances,{match}),{inp.used[key]}))")
    inp.messages.append((chk, f'"the measure is "&{chk}&" (pick one from the list)."'))
    cur.skip()


def start_sheet(wb, title: str, heading: str, intro: list[str]) -> Cursor:
    ws = wb.create_sheet(title)
    for letter, width in _WIDTHS.items():
        ws.column_dimensions[letter].width = width
    for c in range(6, 30):
        ws.column_dimensions[col(c)].width = 13
    cur = Cursor(ws)
    cur.heading(heading, font=STYLE.title)
    for line in intro:
        cur.note(line)
    cur.skip()
    return cur


def _workings(cur: Cursor) -> Cursor:
    """A cursor for the workings, two rows below the summary; the rows are grouped."""
    work = Cursor(cur.ws, cur.row + 2)
    work.heading("Workings: the computations behind the answers (no need to edit anything "
                 "here; click + in the margin to show them)")
    work.note("Every formula reads the value used for each input (column B of the inputs, or "
              "its starting value while the input is bad). Bisection rows halve the bracket "
              "[low, high]; the criterion fails at low and holds at high.")
    work.skip()
    return work


def _group(work: Cursor, first: int) -> None:
    """Group (outline level 1, collapsed) the workings rows from ``first`` to the end."""
    ws = work.ws
    ws.row_dimensions.group(first, work.row, outline_level=1, hidden=True)
    ws.sheet_properties.outlinePr.summaryBelow = False


def _params(work: Cursor, title: str, rows: list[tuple[str, str, str, str]]) -> dict[str, str]:
    """A block of labelled scalars in the workings: (key, label, formula, format) per row."""
    work.heading(title, font=STYLE.bold)
    out = {}
    for key, label, formula, fmt in rows:
        put_label(work.ws, work.row, 1, label)
        put_formula(work.ws, work.row, 2, formula, number_format=fmt)
        out[key] = ref(work.row, 2, absolute=True)
        work.skip()
    work.skip()
    return out


def _warning(cur: Cursor, ok: str, status: str, n_legacy: str, n_exact: str,
             p_exact_at_legacy: str, p_exact_at_exact: str, target: str) -> None:
    """A sentence on whether the methods agree, red when they do not."""
    both = f"AND(ISNUMBER({n_legacy}),ISNUMBER({n_exact}))"
    nl, ne = answer_text(n_legacy), answer_text(n_exact)
    under = (f'"Warning: at the legacy n = "&{nl}&" the exact power is only "'
             f'&FIXED({p_exact_at_legacy},4,TRUE)&" < 1 − β = "&FIXED({target},4,TRUE)'
             f'&"; the exact method needs n = "&{ne}&"."')
    over = (f'"Note: the legacy n = "&{nl}&" is more than needed: the exact power reaches "'
            f'&FIXED({p_exact_at_exact},4,TRUE)&" at n = "&{ne}&"."')
    sentence = (f'IF({both},IF({n_legacy}={n_exact},"Legacy and exact agree: n = "&{ne}&".",'
                f'IF({n_legacy}<{n_exact},{under},{over})),"Warning: legacy n = "&{nl}&", exact '
                f'n = "&{ne}&" (no n up to the search limit is enough for at least one method).")')
    _sentence(cur, "Legacy vs exact", guarded(ok, sentence, status),
              f"NOT(AND({ok},{both},{n_legacy}={n_exact}))")


def _sentence(cur: Cursor, label: str, formula: str, alarm: str) -> None:
    """A labelled sentence formula in column B, in red where ``alarm`` holds."""
    put_label(cur.ws, cur.row, 1, label, font=STYLE.bold).alignment = STYLE.top
    put_formula(cur.ws, cur.row, 2, formula, font=STYLE.bold).alignment = STYLE.wrap
    cur.ws.merge_cells(f"B{cur.row}:C{cur.row}")     # wraps left of the chart (column D)
    cur.ws.row_dimensions[cur.row].height = 48
    highlight_if(cur.ws, f"B{cur.row}", alarm, font=STYLE.warning_font)
    cur.skip()


def grey_when_bad(cur: Cursor, block: Block, ok: str) -> None:
    """Grey out a display table while the inputs are bad (it then shows the fallbacks)."""
    last = max(block.columns.values())
    first = min(block.columns.values())
    highlight_if(cur.ws, f"{col(first)}{block.top}:{col(last)}{block.bottom}", f"NOT({ok})",
                 fill=None, font=_GREY)


#: First column of the hidden computing copies behind the guarded tables, and how many
#: columns are grouped and hidden from there (right of every block of the sheet).
_HIDDEN_COLUMN, _HIDDEN_WIDTH = 40, 40


def guarded_block(ws, top: int, left: int, cols: list[Col], count: int, ok: str, *,
                  plain: tuple[str, ...] = (), hidden_column: int = _HIDDEN_COLUMN) -> Block:
    """A table that shows its values only while every input is in range (``ok``), and
    "check the inputs" otherwise: no number and no "yes" from the fallback values.

    The block of ``cols`` is computed at ``hidden_column`` on the same rows (those columns
    are grouped and hidden); the table at ``left`` shows it, except the ``plain`` columns
    (constants such as m), written as they are. Returns the shown table's :class:`Block`.
    """
    work = write_block(ws, top, hidden_column, cols, count)
    ws.column_dimensions.group(col(hidden_column), col(hidden_column + _HIDDEN_WIDTH - 1),
                               outline_level=1, hidden=True)
    return write_block(ws, top, left, [
        c if c.key in plain else
        Col(c.key, c.header, lambda i, key=c.key: guarded(
            ok, work.cell(key, work.top + i, absolute=False)),   # relative: one template
            c.number_format)
        for c in cols], count)


def _answers_block(cur: Cursor, answers: list[tuple[str, str]], cols: list[Col],
                   heading: str, ok: str) -> Block:
    """Both methods' power at n − 1 and n of each answer (labels in column A)."""
    cur.heading(heading, font=STYLE.bold)
    templates = []
    labels = []
    for label, answer in answers:
        templates += [f"=IF(ISNUMBER({answer}),MAX(2,{answer}-1),{N_MAX})",
                      f"=IF(ISNUMBER({answer}),{answer},{N_MAX})"]
        labels += [f"{label} − 1", label]
    put_label(cur.ws, cur.row, 1, "at", font=STYLE.bold, fill=STYLE.header_fill)
    block = guarded_block(cur.ws, cur.row, 2, [Col("n", "n", lambda i: templates[i], N_FMT),
                                               *display_columns(cols)], len(templates), ok)
    for i, label in enumerate(labels):
        put_label(cur.ws, block.top + i, 1, label)
    cur.row = block.bottom + 2
    return block


def _around_block(cur: Cursor, answer: str, cols: list[Col], heading: str,
                  verdicts: tuple[tuple[str, str], ...], ok: str) -> Block:
    """The model on n = answer − _AROUND .. answer + _AROUND (within 2..N_MAX).

    Where a verdict column (``verdicts``: (value column, verdict column)) first holds, its
    value cell is boxed and bold: that is where the power crosses 1 − β (or the width δ).
    """
    cur.heading(heading, font=STYLE.bold)
    centre = f"IF(ISNUMBER({answer}),{answer},2)"
    block = guarded_block(cur.ws, cur.row, 2, [
        Col("n", "n", lambda i: f"=MIN(MAX(2,{centre}-{_AROUND}),{N_MAX - 2 * _AROUND})+{i}",
            N_FMT),
        *display_columns(cols)], 2 * _AROUND + 1, ok)
    ncol = col(block.columns["n"])
    highlight_if(cur.ws, f"{ncol}{block.top}:{ncol}{block.bottom}",
                 f"${ncol}{block.top}={centre}", fill=STYLE.answer_fill)
    for value, verdict in verdicts:
        v, c = col(block.columns[value]), col(block.columns[verdict])
        rng = f"{v}{block.top + 1}:{v}{block.bottom}"
        cond = f"AND(${c}{block.top + 1}=1,${c}{block.top}=0)"
        cur.ws.conditional_formatting.add(rng, _crossing_rule(cond))
    cur.row = block.bottom + 1
    return block


def _crossing_rule(condition: str):
    from openpyxl.formatting.rule import FormulaRule

    return FormulaRule(formula=[condition], fill=STYLE.cross_fill, font=STYLE.bold,
                       border=STYLE.box)


def _curve_block(work: Cursor, answers: tuple[str, str], cols: list[Col],
                 target: str, ok: str, plotted: tuple[str, ...]) -> Block:
    """n from half the smaller to 1.5 times the larger answer (the chart's data).

    The charts plot the columns "plot_n", "plot_target" and "plot_<key>" of each key of
    ``plotted``: the values while every input is in range (``ok``), else #N/A, which charts
    leave out, so that a bad input plots nothing (no curve from the fallback values).
    """
    work.heading("Power curve for the chart", font=STYLE.bold)
    a, b = (f"IF(ISNUMBER({x}),{x},100)" for x in answers)
    lo = f"MAX(2,ROUND(MIN({a},{b})/2,0))"
    hi = f"MIN({N_MAX},MAX({lo}+{_CURVE - 1},ROUND(1.5*MAX({a},{b}),0)))"
    cols = [Col("n", "n", lambda i: f"=ROUND({lo}+({hi}-{lo})*{i}/{_CURVE - 1},0)", N_FMT),
            *cols, Col("target", "1 − β", f"={target}", P_FMT)]
    shown = {c.key: c for c in cols}
    block = write_block(work.ws, work.row, 1, [*cols, *(
        Col(f"plot_{key}", f"{shown[key].header} (plotted)", f"=IF({ok},{{{key}}},NA())",
            shown[key].number_format) for key in ("n", *plotted, "target"))], _CURVE)
    work.row = block.bottom + 2
    return block


def _chart(ws, block: Block, series: list[tuple[str, str]], anchor: str, *, y_title: str,
           title: str) -> None:
    """A small scatter chart of ``series`` ((column key, name)) against n: their guarded
    copies "plot_<key>" (see :func:`_curve_block`)."""
    chart = ScatterChart()
    chart.title = title
    chart.style = 2
    chart.height, chart.width = 7.5, 12
    chart.x_axis.title = "n (topics)"
    chart.y_axis.title = y_title
    chart.y_axis.number_format = "0.00"
    chart.x_axis.number_format = "#,##0"
    chart.x_axis.delete = chart.y_axis.delete = False
    chart.legend.position = "b"
    xs = Reference(ws, min_col=block.columns["plot_n"], min_row=block.top,
                   max_row=block.bottom)
    from .charts import style_series

    for k, (key, name) in enumerate(series):
        ys = Reference(ws, min_col=block.columns[f"plot_{key}"], min_row=block.top,
                       max_row=block.bottom)
        s = Series(ys, xs, title=name)
        style_series(s, k, marker=key != "target")
        if k == 0 and len(series) > 2:
            # a wide plain line under the second method's markers: where the two coincide,
            # both stay visible
            s.marker.symbol = "none"
            s.graphicalProperties.line.width = 57150
        chart.series.append(s)
    chart.visible_cells_only = False      # the data sit in the (collapsed) workings
    ws.add_chart(chart, anchor)


def _min_at_n(work: Cursor, title: str, cols_of, ok: str, your_n: str,
              value) -> str:
    """Log-scale bisection for the smallest effect at a given n; returns its expression.

    ``cols_of(effect)`` gives the model columns for an effect expression; the bisection runs
    over t = log10(effect) in [_LOG_LO, _LOG_HI] and ``value(t)`` turns the answer into the
    quantity shown. It is 0 where even the smallest effect has the power (1 − β ≤ α), and a
    text where the largest has not (an approximation undefined at this n).
    """
    work.heading(title, font=STYLE.bold)
    cols = (bisection_cols(str(_LOG_LO), str(_LOG_HI), ok=ok, integer=False, label="log10",
                           key="t")
            + [Col("n", "n", f"={your_n}", N_FMT), *cols_of("(10^{t})")])
    block = write_block(work.ws, work.row, 1, cols, _MIN_STEPS)
    work.row = block.bottom + 1
    ends = write_block(work.ws, work.row, 1, [
        Col("t", "log10 at the ends", lambda i: (_LOG_LO, _LOG_HI)[i]),
        Col("n", "n", f"={your_n}", N_FMT), *cols_of("(10^{t})")], 2)
    work.row = ends.bottom + 2
    t = bisection_answer(block, ok, key="t")
    return (f'IF({ends.cell(ok, ends.top)},0,IF({ends.cell(ok)},{value(t)},'
            f'"not reached at this n"))')


#: Rows of the "n against minD" chart's table: n spread geometrically from a third of the
#: answer to three times it.
_MIN_CURVE = 15
_SPREAD = 3
#: Power evaluations per row of that table: two starting values, then secant steps.
_SECANT = 6


def _suffixed(cols: list[Col], free: str, k: int) -> tuple[list[Col], list[Col]]:
    """Split model columns into those independent of the placeholder ``free`` (kept as they
    are) and those that depend on it, directly or through another column (renamed with the
    suffix ``k`` so that one row can hold several evaluations)."""
    dependent: set[str] = set()
    for c in cols:        # a model's columns read only the columns before them
        if f"{{{free}}}" in c.template or any(f"{{{d}}}" in c.template for d in dependent):
            dependent.add(c.key)
    fixed = [c for c in cols if c.key not in dependent]
    renamed = []
    for c in cols:
        if c.key in dependent and not c.key.startswith("ok"):
            template = c.template
            for d in dependent:
                template = template.replace(f"{{{d}}}", f"{{{d}_{k}}}")
            renamed.append(Col(f"{c.key}_{k}", f"{c.header} ({k})", template, c.number_format))
    return fixed, renamed


def _min_curve(work: Cursor, ok: str, answer: str, beta: str, method: str, cols_of,
               start: str, value, title: str) -> Block:
    """The smallest effect with power 1 − β at each n of a grid around ``answer``.

    n runs geometrically from answer/_SPREAD to answer·_SPREAD (within 2..N_MAX). Per row the
    effect x (λ for the ANOVA, the effect size for the t-tests) solves power(x) = 1 − β by
    the secant method: x₀ = ``start`` (a template of {n}), x₁ = 1.1·x₀, then _SECANT − 2
    steps x_{k+1} = x_k − f_k(x_k − x_{k−1})/(f_k − f_{k−1}), f = power − (1 − β) (an
    undefined legacy power counts as 0, as in the engine) rounded to 12 decimals: the
    residual of a settled solve is rounding noise, which would differ between spreadsheets.
    ``cols_of(x)`` gives the model columns for the effect expression x and ``value(x)`` the
    minD (a template of {n} and x).
    Column "d" holds the minD, or #N/A (a gap in the chart) while an input is bad or where
    the iteration has not settled to 1e-9.
    """
    work.heading(title, font=STYLE.bold)
    centre = f"IF(ISNUMBER({answer}),{answer},100)"
    half = (_MIN_CURVE - 1) / 2
    cols = [Col("n", "n", lambda i: f"=MIN({N_MAX},MAX(2,ROUND({centre}*{_SPREAD}"
                                    f"^({(i - half) / half:.6g}),0)))", N_FMT)]
    p = f"p_{method}"

    def step(a: int, b: int) -> str:
        xa, xb, fa, fb = (f"{{{x}}}" for x in (f"it{a}", f"it{b}", f"f{a}", f"f{b}"))
        return f"=IF({fa}={fb},{xa},MIN(4*{xa},MAX({xa}/2,{xa}-{fa}*({xa}-{xb})/({fa}-{fb}))))"

    for k in range(_SECANT):
        first = {0: f"={start}", 1: "=1.1*{it0}"}
        cols.append(Col(f"it{k}", f"x{k}", first.get(k) or step(k - 1, k - 2), "0.000000"))
        fixed, renamed = _suffixed(cols_of(f"{{it{k}}}"), f"it{k}", k)
        if k == 0:
            cols += fixed
        cols += renamed
        pk = f"{{{p}_{k}}}"
        cols.append(Col(f"f{k}", f"power − (1 − β) at x{k}",
                        f"=ROUND(IF(ISNUMBER({pk}),{pk},0)-(1-{beta}),12)", "0.0E+00"))
    last = _SECANT - 1
    cols.append(Col("root", "x", step(last, last - 1), "0.000000"))
    cols.append(Col("d", "minD", f"=IF(AND({ok},ABS({{root}}-{{it{last}}})<=1E-9*{{root}}),"
                                 f"{value('{root}')},NA())", "0.000000"))
    block = write_block(work.ws, work.row, 1, cols, _MIN_CURVE)
    work.row = block.bottom + 2
    return block


def _n_chart(ws, blocks: list[tuple[Block, str, str]], anchor: str, *, x_title: str,
             title: str) -> None:
    """A scatter chart of n (y) against the effect (x): ``blocks`` are (block, column key
    of the effect, series name), each with column "n"."""
    from .charts import style_series

    chart = ScatterChart()
    chart.title = title
    chart.style = 2
    chart.height, chart.width = 7.5, 12
    chart.x_axis.title = x_title
    chart.y_axis.title = "n (topics)"
    chart.x_axis.number_format = "0.00"
    chart.y_axis.number_format = "#,##0"
    chart.x_axis.delete = chart.y_axis.delete = False
    chart.legend.position = "b"
    for k, (block, key, name) in enumerate(blocks):
        xs = Reference(ws, min_col=block.columns[key], min_row=block.top, max_row=block.bottom)
        ys = Reference(ws, min_col=block.columns["n"], min_row=block.top, max_row=block.bottom)
        s = Series(ys, xs, title=name)
        style_series(s, k, marker=True)
        if k == 0 and len(blocks) > 1:
            s.marker.symbol = "none"       # a wide line under the second method's markers
            s.graphicalProperties.line.width = 57150
        chart.series.append(s)
    chart.visible_cells_only = False
    ws.add_chart(chart, anchor)


# --------------------------------------------------------------------------------- ANOVA
@dataclass(frozen=True)
class Design:
    """What distinguishes the calculator sheets that one builder writes.

    ``key`` names the inputs (:data:`generator.inputs.INPUTS`) and prefixes the sheet's
    workbook-level names; ``methods`` are the methods it shows ("legacy" exists only for the
    designs of Sakai's Excel tools); ``variant`` selects the model (two-way ANOVA, unpaired).
    """

    sheet: str
    key: str
    title: str
    intro: tuple[str, ...]
    methods: tuple[str, ...] = ("legacy", "exact")
    variant: bool = False      # two_way (ANOVA), unpaired (t-test, CI)

    def name(self, suffix: str) -> str:
        return f"{self.key}_{suffix}"


ANOVA = Design("ANOVA", "anova", "One-way ANOVA: how many topics to tell m systems apart", (
    "Type your design in the yellow cells; everything else recalculates. The answer is the "
    "smallest n from which the power stays at or above 1 − β.",
    "Legacy = Nagata's approximation, as in Sakai's samplesizeANOVA sheet and the published "
    "tables; exact = the noncentral F distribution.",
))
ANOVA2 = Design("ANOVA2", "anova2", "Two-way ANOVA without replication (randomised block: "
                "topics × systems)", (
    "Every system is run on the same topics, so the topics are blocks: σ̂² is the two-way "
    "residual variance V_E2 (topic effect removed), φE = (m − 1)(n − 1).",
    "Exact method only: power = Pr{F'(φA, φE, λ) ≥ F(φA, φE; α)}, λ = n·minD²/(2σ̂²) "
    "(the legacy tools have no two-way design).",
), methods=("exact",), variant=True)


def _anova(wb, values: dict, k: str, measures: str | None = None, design: Design = ANOVA
           ) -> None:
    methods, two_way = design.methods, design.variant
    legacy_too = "legacy" in methods
    cur = start_sheet(wb, design.sheet, design.title, list(design.intro))
    cur.ws.column_dimensions["C"].width = _NOTES_WIDTH
    cur.heading("Inputs")
    inp = write_inputs(cur, wb, INPUTS[design.key], values)
    if not two_way:
        _measure_picker(cur, wb, inp, "variance", "1", "σ̂²", measures)
    alpha, beta, min_d, var, m, your_n = (inp.used[x] for x in
                                          ("alpha", "beta", "min_d", "variance", "m", "n"))
    status, ok = write_status(cur, wb, design.key, inp)
    cur.skip()
    w = {}                          # results of the workings, filled in below
    anchor = cur.row
    cur.heading("Results")

    def show(key: str, text: str = '""'):
        return lambda: guarded(ok, w[key], text)

    def models(effect):
        return anova_models(alpha, beta, m, effect, k, two_way=two_way)

    write_result(cur, "Δ = minD²/(2σ̂²)", show("effect"), number_format="0.000000",
                 note="noncentrality per topic (CIKM 2014)")
    if legacy_too:
        write_result(cur, "λ̂ (Nagata, legacy pairs)", show("lam_nagata"),
                     number_format="0.0000",
                     note="x1 + x2·√φA (Nagata 2003), for the legacy sheet's four (α, β) pairs")
    write_result(cur, "λ̂ (noncentral χ²)", show("lam_chi2"), number_format="0.0000",
                 note="solves Pr{χ'²(φA, λ) ≥ c} = 1 − β")
    write_result(cur, "initial estimate n₀ = λ̂/Δ", show("n0"), number_format="#,##0.0",
                 note=("Nagata's λ̂ where the legacy sheet has it, else the χ² one" if legacy_too
                       else "the φE → ∞ limit; the search starts from nothing"))
    answers = {}
    notes = {"legacy": "reproduces the legacy tool and the published tables",
             "exact": "the smallest n with exact power ≥ 1 − β"}
    for method in methods:
        answers[method] = write_result(
            cur, f"required n, {method}" if legacy_too else "required n",
            show(f"n_{method}", f'"{CHECK_INPUTS}"'), number_format=N_FMT, answer=True,
            name=design.name(f"n_{method}" if legacy_too else "n"), wb=wb, note=notes[method])
    warn = Cursor(cur.ws, cur.row)
    cur.skip()
    cur.heading("At your n", font=STYLE.bold)
    for method in methods:
        tag = f", {method}" if legacy_too else ""
        write_result(cur, f"power at your n{tag}", show(f"p_{method}", f'"{CHECK_INPUTS}"'),
                     number_format=P_FMT, answer=True,
                     name=design.name(f"power_{method}" if legacy_too else "power"), wb=wb)
    for method in methods:
        tag = f", {method}" if legacy_too else ""
        write_result(cur, f"minimum detectable minD at your n{tag}",
                     show(f"d_{method}", f'"{CHECK_INPUTS}"'), number_format="0.000000",
                     answer=True, wb=wb,
                     name=design.name(f"min_d_at_n_{method}" if legacy_too else "min_d_at_n"))
    cur.skip()

    # the display tables read the workings: write the workings below the room the tables
    # take, then the tables
    cur.row = max(cur.row, anchor + _CHART_ROWS)      # the tables start below the chart
    tables_top = cur.row
    work = _workings(Cursor(cur.ws, cur.row + _ANSWERS_ROWS + len(methods) * _AROUND_ROWS + 1))
    first_work = work.row - 3
    p = _params(work, "Parameters", [
        ("effect", "Δ = minD²/(2σ̂²)", f"={min_d}^2/(2*{var})", "0.000000"),
        ("dfa", "φA = m − 1", f"={m}-1", "0"),
        ("crit", "c = χ²(φA; α)", f"=_xlfn.CHISQ.INV.RT({alpha},{m}-1)", "0.000000"),
    ])
    w.update(p)
    if legacy_too:
        work.heading("Nagata's λ̂ = x1 + x2·√φA for the four (α, β) pairs of the legacy sheet",
                     font=STYLE.bold)
        nagata = write_block(cur.ws, work.row, 1, [
            Col("alpha", "α", lambda i: list(NAGATA_LAMBDA)[i][0]),
            Col("beta", "β", lambda i: list(NAGATA_LAMBDA)[i][1]),
            Col("x1", "x1", lambda i: list(NAGATA_LAMBDA.values())[i][0]),
            Col("x2", "x2", lambda i: list(NAGATA_LAMBDA.values())[i][1])],
            len(NAGATA_LAMBDA))
        work.row = nagata.bottom + 2
    work.heading("λ̂ from the noncentral χ² (the φE → ∞ limit): bisection over "
                 "λ ∈ (0, (√c + z_β)²], where the power is at least 1 − β", font=STYLE.bold)
    hi = f"(SQRT({p['crit']})+_xlfn.NORM.S.INV(1-{beta}))^2"
    lam_block = write_block(cur.ws, work.row, 1, bisection_cols("0", hi, integer=False,
                                                                label="λ", key="lam")
                            + chi2_lambda_model(beta, p["dfa"], p["crit"], k), _LAMBDA_STEPS)
    work.row = lam_block.bottom + 2
    lam_rows = [("lam_chi2", "λ̂ (noncentral χ²)", f"={lam_block.cell('lam')}", "0.0000")]
    if legacy_too:
        pick = f"({nagata.range('alpha')}={alpha})*({nagata.range('beta')}={beta})"
        lam_rows.insert(0, (
            "lam_nagata", "λ̂ (Nagata, legacy pairs)",
            f'=IF(SUMPRODUCT({pick})=1,SUMPRODUCT({pick}*({nagata.range("x1")}'
            f'+{nagata.range("x2")}*SQRT({p["dfa"]}))),"not a legacy (α, β) pair")', "0.0000"))
    q = _params(work, "Initial estimate", lam_rows)
    w.update(q)
    lam = (f"IF(ISNUMBER({q['lam_nagata']}),{q['lam_nagata']},{q['lam_chi2']})" if legacy_too
           else q["lam_chi2"])
    w.update(_params(work, "", [("n0", "initial estimate n₀ = λ̂/Δ", f"={lam}/{p['effect']}",
                                 "#,##0.0")]))
    shared, legacy, exact = models(p["effect"])
    legacy = legacy if legacy_too else []
    w["n_legacy"], w["n_exact"] = power_search(work, shared, legacy or None, exact,
                                               design.sheet)

    work.heading("Power at your n", font=STYLE.bold)
    at = write_block(cur.ws, work.row, 1, [Col("n", "n", f"={your_n}", N_FMT), *shared,
                                           *legacy, *exact], 1)
    work.row = at.bottom + 2
    for method in methods:
        w[f"p_{method}"] = at.cell(f"p_{method}")
        w[f"d_{method}"] = _min_at_n(
            work, f"Minimum detectable minD at your n ({method}): bisection over "
                  f"log10 λ ∈ [{_LOG_LO}, {_LOG_HI}], Δ = λ/n",
            lambda e, method=method: _pick(models(f"{e}/{{n}}"), method),
            f"ok_{method}", your_n, lambda t: f"SQRT(2*{var}*10^{t}/{your_n})")
    ends = [answers[x] for x in methods]
    curve = _curve_block(work, (ends[0], ends[-1]), [*shared, *legacy, *exact], f"1-{beta}",
                         ok, tuple(f"p_{x}" for x in methods))
    d_curves = [(_min_curve(
        work, ok, answers["exact"], beta, method,
        lambda e, method=method: _pick(models(f"{e}/{{n}}"), method), q["lam_chi2"],
        lambda x: f"SQRT(2*{var}*{x}/{{n}})",
        f"n against minD ({method}): per n, λ with power 1 − β by the secant method, "
        "minD = √(2σ̂²λ/n)"), "d", method) for method in methods]
    _group(work, first_work)
    cur.resolve()

    # display tables (between the summary and the workings)
    cols = [*shared, *legacy, *exact]
    blocks = _answers_block(cur, [(f"{x} n", answers[x]) for x in methods], cols,
                            "Power of both methods at the answers" if legacy_too
                            else "Power at the answer", ok)
    crossings = tuple((f"p_{x}", f"ok_{x}") for x in methods)
    if legacy_too:
        _around_block(cur, answers["legacy"], cols, "Power for n around the legacy answer",
                      crossings, ok)
        cur.skip()
    _around_block(cur, answers["exact"], cols, "Power for n around the exact answer (boxed: "
                  "where each power first reaches 1 − β)" if legacy_too else
                  "Power for n around the answer (boxed: where it first reaches 1 − β)",
                  crossings, ok)
    _check_room(cur, work, first_work)
    if legacy_too:
        _warning(warn, ok, status, answers["legacy"], answers["exact"],
                 blocks.cell("p_exact", blocks.top + 1), blocks.cell("p_exact", blocks.top + 3),
                 f"1-{beta}")
    series = [(f"p_{x}", x) for x in methods] + [("target", "1 − β")]
    _chart(cur.ws, curve, series, f"{_CHART_COLUMN}{anchor}", y_title="power",
           title="Power against n")
    _n_chart(cur.ws, d_curves, f"{_CHART_COLUMN}{anchor + _CHART_ROWS // 2}",
             x_title="minD", title="n against minD (m, α, β, σ̂² as above)")
    _finish(cur, first_work, tables_top)


def _pick(models, method: str) -> list[Col]:
    shared, legacy, exact = models
    return [*shared, *(legacy if method == "legacy" else exact)]


def _check_room(cur: Cursor, work: Cursor, first_work: int) -> None:
    if cur.row >= first_work:  # pragma: no cover - a layout bug, caught by the tests
        raise RuntimeError(f"{cur.ws.title}: the summary ends at row {cur.row}, past the "
                           f"workings at row {first_work}")


#: The last column of a calculator's first printed page: the charts (anchored at column D, 12 cm
#: wide) and the inputs' meaning texts (column E, at most 44 characters overflowing to the right)
#: end in it (a longer text is cut at the page edge and its end printed on a page of its own).
_CHART_LAST_COLUMN = 8
#: Print scale of a calculator: its first page (inputs, answers, chart) fits an A4 landscape
#: page with the answers (14 pt) at about 9 pt; the tables follow on the next pages.
PRINT_SCALE = 66


def _finish(cur: Cursor, first_work: int, tables_top: int) -> None:
    """Freeze the title rows; print the summary and the chart on the first page, then the
    tables (at a fixed, readable scale: fitting the wide tables to one page shrank the
    answers to about 6 pt)."""
    ws = cur.ws
    ws.freeze_panes = "A3"
    last = min(max(ws.max_column, _CHART_LAST_COLUMN), 16)
    ws.print_area = (f"A1:{col(_CHART_LAST_COLUMN)}{tables_top - 1},"
                     f"A{tables_top}:{col(last)}{first_work - 1}")
    ws.print_title_rows = "1:1"
    ws.page_setup.scale = PRINT_SCALE


# --------------------------------------------------------------------------------- TTEST
TTEST = Design("TTEST", "ttest", "Paired t-test: how many topics to tell two systems apart", (
    "Two input styles: minDt with σ̂t², or the effect size minΔt = minDt/σ̂t (blank: it "
    "follows minDt/σ̂t of the first style).",
    "Legacy = the normal approximation of Sakai's samplesizeTTEST sheet; exact = the "
    "noncentral t distribution (as a noncentral F(1, φ) mixture).",
))
TTEST2 = Design("TTEST2", "ttest2", "Unpaired (two-sample) t-test: n topics per system", (
    "Each system is evaluated on its own n topics (2n in all): Student's t-test with "
    "φ = 2(n − 1) and λ = √(n/2)·minD/σ̂; σ̂² is the within-system variance (one-way V_E).",
    "Exact method only: the noncentral t distribution (as a noncentral F(1, φ) mixture).",
), methods=("exact",), variant=True)


def _ttest(wb, values: dict, k: str, measures: str | None = None, design: Design = TTEST
           ) -> None:
    unpaired, methods = design.variant, design.methods
    legacy_too = "legacy" in methods
    cur = start_sheet(wb, design.sheet, design.title, list(design.intro))
    cur.ws.column_dimensions["C"].width = _NOTES_WIDTH
    cur.heading("Inputs")
    inp = write_inputs(cur, wb, INPUTS[design.key], values)
    if unpaired:
        diff, var_key, sym, var_sym = "min_d", "variance", "minD", "σ̂²"
    else:
        diff, var_key, sym, var_sym = "min_dt", "variance_t", "minDt", "σ̂t²"
    _measure_picker(cur, wb, inp, var_key, "1" if unpaired else "2", var_sym, measures)
    alpha, beta, min_dt, var_t, your_n = (inp.used[x] for x in
                                          ("alpha", "beta", diff, var_key, "n"))
    if not unpaired:
        cur.note("Second input style: the effect size minΔt = minDt/σ̂t directly (blank = "
                 "follow the first style).")
        write_inputs(cur, wb, INPUTS["ttest_effect"], values, block=inp,
                     fallback={"min_delta_t": f"{min_dt}/SQRT({var_t})"}, header=False)
        effect2 = inp.used["min_delta_t"]
    status, ok = write_status(cur, wb, design.key, inp)
    cur.skip()
    w = {}
    anchor = cur.row

    def show(key: str, text: str = '""'):
        return lambda: guarded(ok, w[key], text)

    def models(effect):
        return ttest_models(alpha, beta, effect, k, unpaired=unpaired)

    if unpaired:
        styles = (("minD, σ̂²", "1", (design.name("n"),)),)
    else:
        styles = (("minDt, σ̂t²", "1", ("ttest_n_legacy", "ttest_n_exact")),
                  ("minΔt", "2", ("ttest_delta_t_n_legacy", "ttest_delta_t_n_exact")))
    answers, warns = [], []
    for label, s, names in styles:
        cur.heading(f"Results: {label}" if legacy_too else "Results")
        if unpaired:
            write_result(cur, "minD/σ̂", show("effect1"), number_format="0.000000",
                         note="the effect size (Cohen's d)")
            write_result(cur, "initial estimate n₀", show(f"n0_{s}"), number_format="#,##0.0",
                         note="2((z_{α/2} + z_β)σ̂/minD)² + z_{α/2}²/4 (Cohen 1988)")
        else:
            if s == "1":
                write_result(cur, "minΔt = minDt/σ̂t", show("effect1"),
                             number_format="0.000000", note="the effect size")
            else:
                write_result(cur, "minΔt used", show("effect2"), number_format="0.000000",
                             note="the input, or minDt/σ̂t when it is blank")
            write_result(cur, "initial estimate n₀", show(f"n0_{s}"), number_format="#,##0.0",
                         note="((z_{α/2} + z_β)/minΔt)² + z_{α/2}²/2 (Sakai, IRJ 2016, Eq. 6)")
        found = {}
        for method, name in zip(methods, names):
            found[method] = write_result(
                cur, f"required n, {method}" if legacy_too else "required n per system",
                show(f"n_{method}_{s}", f'"{CHECK_INPUTS}"'), number_format=N_FMT,
                answer=True, name=name, wb=wb,
                note="" if legacy_too else "2n topics in all")
        answers.append(found)
        warns.append(Cursor(cur.ws, cur.row))
        cur.skip(2 if legacy_too else 1)
    cur.heading(f"At your n ({styles[0][0]})" if legacy_too else "At your n (per system)",
                font=STYLE.bold)
    for key, label, fmt, suffix in (("p", "power at your n", P_FMT, "power"),
                                    ("d", f"minimum detectable {sym} at your n", "0.000000",
                                     f"{diff}_at_n")):
        for method in methods:
            tag = f", {method}" if legacy_too else ""
            write_result(cur, f"{label}{tag}", show(f"{key}_{method}", f'"{CHECK_INPUTS}"'),
                         number_format=fmt, answer=True, wb=wb,
                         name=design.name(f"{suffix}_{method}" if legacy_too else suffix))
    cur.skip()

    cur.row = max(cur.row, anchor + _CHART_ROWS)      # the tables start below the chart
    tables_top = cur.row
    rows = (2 if legacy_too else 1) * _ANSWERS_ROWS + len(methods) * _AROUND_ROWS
    work = _workings(Cursor(cur.ws, cur.row + rows + 1))
    first_work = work.row - 3
    z = f"_xlfn.NORM.S.INV(1-{alpha}/2)"
    zb = f"_xlfn.NORM.S.INV(1-{beta})"
    if unpaired:
        params = [
            ("effect1", "minD/σ̂", f"={min_dt}/SQRT({var_t})", "0.000000"),
            ("n0_1", "initial estimate n₀", f"=2*(({z}+{zb})/{min_dt}*SQRT({var_t}))^2+{z}^2/4",
             "#,##0.0"),
        ]
    else:
        params = [
            ("effect1", "minΔt = minDt/σ̂t", f"={min_dt}/SQRT({var_t})", "0.000000"),
            ("effect2", "minΔt (second style)", f"={effect2}", "0.000000"),
            ("n0_1", "initial estimate n₀ (first style)",
             f"=(({z}+{zb})/{min_dt}*SQRT({var_t}))^2+{z}^2/2", "#,##0.0"),
            ("n0_2", "initial estimate n₀ (second style)",
             f"=(({z}+{zb})/{effect2})^2+{z}^2/2", "#,##0.0"),
        ]
    p = _params(work, "Parameters", params)
    w.update(p)
    parts = {}
    for label, s, _ in styles:
        shared, legacy, exact = models(p[f"effect{s}"])
        legacy = legacy if legacy_too else []
        parts[s] = (shared, legacy, exact)
        w[f"n_legacy_{s}"], w[f"n_exact_{s}"] = power_search(
            work, shared, legacy or None, exact, f"{design.sheet} ({label})")
    shared, legacy, exact = parts["1"]
    work.heading("Power at your n", font=STYLE.bold)
    at = write_block(cur.ws, work.row, 1, [Col("n", "n", f"={your_n}", N_FMT), *shared,
                                           *legacy, *exact], 1)
    work.row = at.bottom + 2
    for method in methods:
        w[f"p_{method}"] = at.cell(f"p_{method}")
        w[f"d_{method}"] = _min_at_n(
            work, f"Minimum detectable {sym} at your n ({method}): bisection over "
                  f"log10 of the effect size ∈ [{_LOG_LO}, {_LOG_HI}]",
            lambda e, method=method: _pick(models(e), method),
            f"ok_{method}", your_n,
            lambda t: f"10^{t}*SQRT({var_t})")
    first = [answers[0][x] for x in methods]
    curve = _curve_block(work, (first[0], first[-1]), [*shared, *legacy, *exact], f"1-{beta}",
                         ok, tuple(f"p_{x}" for x in methods))
    per = "SQRT(2/{n})" if unpaired else "SQRT(1/{n})"
    d_curves = [(_min_curve(
        work, ok, answers[0]["exact"], beta, method,
        lambda e, method=method: _pick(models(e), method),
        f"({z}+{zb})*{per}", lambda x: f"{x}*SQRT({var_t})",
        f"n against {sym} ({method}): per n, the effect size with power 1 − β by the secant "
        f"method, {sym} = effect size × {'σ̂' if unpaired else 'σ̂t'}"), "d", method)
        for method in methods]
    _group(work, first_work)
    cur.resolve()

    blocks = []
    for (label, s, _), found in zip(styles, answers):
        blocks.append(_answers_block(
            cur, [(f"{x} n", found[x]) for x in methods], [c for part in parts[s] for c in part],
            f"Power of both methods at the answers ({label})" if legacy_too
            else "Power at the answer", ok))
    cols = [*shared, *legacy, *exact]
    crossings = tuple((f"p_{x}", f"ok_{x}") for x in methods)
    if legacy_too:
        _around_block(cur, answers[0]["legacy"], cols,
                      f"Power for n around the legacy answer ({styles[0][0]})", crossings, ok)
        cur.skip()
    _around_block(cur, answers[0]["exact"], cols, "Power for n around the exact answer (boxed: "
                  "where each power first reaches 1 − β)" if legacy_too else
                  "Power for n around the answer (boxed: where it first reaches 1 − β)",
                  crossings, ok)
    _check_room(cur, work, first_work)
    if legacy_too:
        for found, block, warn in zip(answers, blocks, warns):
            _warning(warn, ok, status, found["legacy"], found["exact"],
                     block.cell("p_exact", block.top + 1),
                     block.cell("p_exact", block.top + 3), f"1-{beta}")
    series = [(f"p_{x}", x) for x in methods] + [("target", "1 − β")]
    _chart(cur.ws, curve, series, f"{_CHART_COLUMN}{anchor}", y_title="power",
           title=f"Power against n ({styles[0][0]})")
    _n_chart(cur.ws, d_curves, f"{_CHART_COLUMN}{anchor + _CHART_ROWS // 2}", x_title=sym,
             title=f"n against {sym} (α, β, {var_sym} as above)")
    _finish(cur, first_work, tables_top)


# --------------------------------------------------------------------------------- CI
CI = Design("CI", "ci", "Confidence interval: how many topics for a CI of width δ", (
    "The smallest n whose expected 100(1−α)% CI width for the difference of two systems "
    "is at most δ (Sakai, IRJ 2016, Section 6), with E[√V] exact (GAMMALN).",
    "The approximation E[√V] ≈ σ̂t(1 − 1/(4(n−1))) is shown beside it.",
), methods=("exact",))
CI2 = Design("CI2", "ci2", "CI of a difference of two independent means: n topics per system", (
    "Each system is evaluated on its own n topics (2n in all): the expected width of the "
    "100(1−α)% CI of x̄₁ − x̄₂ is 2·t(φ; α)·E[s_p]·√(2/n), φ = 2(n − 1).",
    "E[s_p] exact (GAMMALN); σ̂² is the within-system variance (one-way V_E). The "
    "approximation E[s_p] ≈ σ̂(1 − 1/(4φ)) is shown beside it.",
), methods=("exact",), variant=True)


def _ci(wb, values: dict, measures: str | None = None, design: Design = CI) -> None:
    unpaired = design.variant
    var_key, var_sym = ("variance", "σ̂²") if unpaired else ("variance_t", "σ̂t²")
    cur = start_sheet(wb, design.sheet, design.title, list(design.intro))
    cur.ws.column_dimensions["C"].width = _NOTES_WIDTH
    cur.heading("Inputs")
    inp = write_inputs(cur, wb, INPUTS[design.key], values)
    _measure_picker(cur, wb, inp, var_key, "1" if unpaired else "2", var_sym, measures)
    alpha, delta, var_t, your_n = (inp.used[x] for x in ("alpha", "delta", var_key, "n"))
    status, ok = write_status(cur, wb, design.key, inp)
    cur.skip()
    w = {}
    anchor = cur.row

    def show(key: str, text: str = '""'):
        return lambda: guarded(ok, w[key], text)

    cur.heading("Results")
    write_result(cur, "initial estimate n₀", show("n0"), number_format="#,##0.0",
                 note="8·z_{α/2}²·σ̂²/δ² per system" if unpaired else
                 "4·z_{α/2}²·σ̂t²/δ² (Sakai, IRJ 2016, Eq. 15)")
    n_exact = write_result(cur, "required n per system" if unpaired else "required n",
                           show("n_exact", f'"{CHECK_INPUTS}"'), number_format=N_FMT,
                           answer=True, name=design.name("n"), wb=wb,
                           note="2n topics in all" if unpaired else "")
    n_approx = write_result(cur, "n with the approximation", show("n_approx",
                                                                   f'"{CHECK_INPUTS}"'),
                            number_format=N_FMT, name=design.name("n_approx"), wb=wb)
    warn = Cursor(cur.ws, cur.row)
    cur.skip(2)
    cur.heading("At your n", font=STYLE.bold)
    write_result(cur, "expected width at your n", show("width", f'"{CHECK_INPUTS}"'),
                 number_format=P_FMT, answer=True, name=design.name("width_at_n"), wb=wb,
                 note="the narrowest δ that your n guarantees")
    write_result(cur, "approximate width at your n", show("width_approx"), number_format=P_FMT)
    cur.skip()

    cur.row = max(cur.row, anchor + _CHART_ROWS)      # the tables start below the chart
    tables_top = cur.row
    work = _workings(Cursor(cur.ws, cur.row + _ANSWERS_ROWS + _AROUND_ROWS))
    first_work = work.row - 3
    z = f"_xlfn.NORM.S.INV(1-{alpha}/2)"
    w.update(_params(work, "Parameters", [
        ("n0", "initial estimate n₀", f"={8 if unpaired else 4}*{z}^2*{var_t}/{delta}^2",
         "#,##0.0")]))
    shared, exact, approx = ci_models(alpha, delta, var_t, unpaired=unpaired)
    found = []
    for label, model, okc in (("exact E[√V]", exact, "ok"), ("approximation", approx,
                                                             "ok_approx")):
        work.heading(f"{design.sheet} ({label}): bisection over n = 2..{N_MAX:,}", font=STYLE.bold)
        block = write_block(cur.ws, work.row, 1, bisection_cols("1", str(N_MAX), ok=okc)
                            + shared + model, bisection_steps(N_MAX - 1))
        work.row = block.bottom + 2
        found.append((block, okc))
    work.heading(f"{design.sheet}: both at the search limit n = {N_MAX:,}", font=STYLE.bold)
    top = write_block(cur.ws, work.row, 1, [Col("n", "n", lambda i: N_MAX, N_FMT), *shared,
                                            *exact, *approx], 1)
    work.row = top.bottom + 2
    for key, (block, okc) in zip(("n_exact", "n_approx"), found):
        w[key] = f"IF({top.cell(okc)},{bisection_answer(block, okc)},{too_large_text()})"
    work.heading("Width at your n", font=STYLE.bold)
    at = write_block(cur.ws, work.row, 1, [Col("n", "n", f"={your_n}", N_FMT), *shared,
                                           *exact, *approx], 1)
    work.row = at.bottom + 2
    w["width"], w["width_approx"] = at.cell("width"), at.cell("width_approx")
    curve = _curve_block(work, (n_exact, n_approx), [*shared, *exact, *approx], delta, ok,
                         ("width", "width_approx"))
    _group(work, first_work)
    cur.resolve()

    cols = shared + exact + approx
    at = _answers_block(cur, [("required n", n_exact), ("approximate n", n_approx)], cols,
                        "Expected width at the answers", ok)
    _around_block(cur, n_exact, cols, "Expected width for n around the answer (boxed: where "
                                      "each width first reaches δ)",
                  (("width", "ok"), ("width_approx", "ok_approx")), ok)
    _check_room(cur, work, first_work)
    both = f"AND(ISNUMBER({n_exact}),ISNUMBER({n_approx}))"
    sentence = (f'IF({both},IF({n_exact}={n_approx},"The approximation agrees: n = "'
                f'&{answer_text(n_exact)}&".","Note: the approximation gives n = "'
                f'&{answer_text(n_approx)}&"; with the exact E[√V] the width at that n is "'
                f'&FIXED({at.cell("width", at.top + 3)},4,TRUE)&" (δ = "&FIXED({delta},4,TRUE)'
                f'&")."),"No n up to the search limit gives an expected width of at most δ.")')
    _sentence(warn, "Exact vs approximation", guarded(ok, sentence, status),
              f"NOT(AND({ok},{both},{n_exact}={n_approx}))")
    _chart(cur.ws, curve, [("width", "exact"), ("width_approx", "approximation"),
                           ("target", "δ")], f"{_CHART_COLUMN}{anchor}", y_title="expected width",
           title="Expected CI width against n")
    _n_chart(cur.ws, [(curve, "plot_width", "exact")],
             f"{_CHART_COLUMN}{anchor + _CHART_ROWS // 2}", x_title="δ (expected width)",
             title=f"n against δ (α, {var_sym} as above)")
    _finish(cur, first_work, tables_top)


def helper_sheet(wb, terms: int) -> str:
    """A hidden sheet holding k = 0..terms−1 for the Poisson mixtures; returns the range."""
    ws = wb.create_sheet("Helpers")
    put_label(ws, 1, 1, "k (Poisson mixture index offsets, used by the calculators)")
    for k in range(terms):
        put_number(ws, k + 2, 1, k)
    ws.sheet_state = "hidden"
    return f"Helpers!$A$2:$A${terms + 1}"
