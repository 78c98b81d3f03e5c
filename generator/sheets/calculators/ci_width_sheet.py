"""The CI and CI2 calculator sheets: the expected CI width of a paired difference, and of a
difference of two independent means (n per system)."""

from __future__ import annotations

from topicsetsize.params import N_MAX

from ...content.inputs import INPUTS
from ...spreadsheet.cells import STYLE
from ...spreadsheet.formulas import N_FMT, P_FMT, ci_models
from ...spreadsheet.layout import (
    CHECK_INPUTS,
    Cursor,
    answer_text,
    guarded,
    too_large_text,
    write_inputs,
    write_result,
    write_status,
)
from ...spreadsheet.rows import Col, bisection_answer, bisection_cols, bisection_steps, write_block
from .blocks import _answers_block, _around_block, _chart, _curve_block, _n_chart
from .sheet import (
    _ANSWERS_ROWS,
    _AROUND_ROWS,
    _CHART_COLUMN,
    _CHART_ROWS,
    _NOTES_WIDTH,
    Design,
    _check_room,
    _finish,
    _group,
    _measure_picker,
    _params,
    _sentence,
    _workings,
    start_sheet,
)

CI = Design("ci", "Confidence interval: how many topics for a CI of width δ", (
    "The smallest n whose expected 100(1−α)% CI width for the difference of two systems "
    "is at most δ (Sakai, IRJ 2016, Section 6), with E[√V] exact (GAMMALN).",
    "The approximation E[√V] ≈ σ̂t(1 − 1/(4(n−1))) is shown beside it.",
))


CI2 = Design("ci2", "CI of a difference of two independent means: n topics per system", (
    "Each system is evaluated on its own n topics (2n in all): the expected width of the "
    "100(1−α)% CI of x̄₁ − x̄₂ is 2·t(φ; α)·E[s_p]·√(2/n), φ = 2(n − 1).",
    "E[s_p] exact (GAMMALN); σ̂² is the within-system variance (one-way V_E). The "
    "approximation E[s_p] ≈ σ̂(1 − 1/(4φ)) is shown beside it.",
))


def _ci(wb, values: dict, measures: str | None = None, design: Design = CI) -> None:
    unpaired = design.model == "unpaired"
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
    _finish(cur, first_work, tables_top, at)
