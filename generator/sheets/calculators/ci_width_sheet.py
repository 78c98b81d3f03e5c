"""The calculator sheet of a CI-width design (builder ``"width"``): the expected CI width of a
paired difference, and of a difference of two independent means (n per system). What differs
between them (φ, the initial n, n per system or in all, the variance's name) comes from their
declarations."""

from __future__ import annotations

from topicsetsize.params import N_MAX

from ...content.calculators import Calculator
from ...spreadsheet.cells import STYLE
from ...spreadsheet.formulas import N0_FMT, N_FMT, P_FMT, ci_models
from ...spreadsheet.layout import (
    CHECK_INPUTS,
    Cursor,
    answer_text,
    both_systems_note,
    guarded,
    too_large_text,
    write_result,
)
from ...spreadsheet.rows import Col, bisection_answer, bisection_cols, bisection_steps, write_block
from .blocks import answers_block, around_block, curve_block
from .charts import n_chart, note_block, power_chart
from .sheet import (
    ANSWERS_ROWS,
    AROUND_ROWS,
    CHART_COLUMN,
    CHART_ROWS,
    SheetBuild,
    begin,
    check_room,
    end_inputs,
    finish,
    group_workings,
    params_block,
    sentence_row,
    workings,
)


def add_ci_width_sheet(wb, calc: Calculator, values: dict, k: str | None = None,
                       measures: str | None = None) -> None:
    """The calculator sheet of ``calc`` (a CI-width design): inputs, answers, workings, tables
    and charts."""
    b = begin(wb, calc, values, k, measures)
    end_inputs(b)
    n_exact, n_approx, warn = _summary(b)
    b.cur.row = max(b.cur.row, b.anchor + CHART_ROWS)      # the tables start below the chart
    tables_top = b.cur.row
    work = workings(Cursor(b.cur.ws, b.cur.row + ANSWERS_ROWS + AROUND_ROWS))
    first_work = work.row - 3
    models = _workings(b, work)
    curve = curve_block(work, (n_exact, n_approx), [c for part in models for c in part],
                        b.used("delta")[0], b.ok, ("width", "width_approx"))
    note = note_block(work, b.ok, (curve, curve.cell("n", curve.top), False),
                      (curve, b.used("delta")[0]))
    group_workings(work, first_work)
    b.cur.resolve()
    at = _tables(b, models, n_exact, n_approx, warn, work, first_work)
    _charts(b, curve, note)
    finish(b.cur, first_work, tables_top, at)


def _summary(b: SheetBuild) -> tuple[str, str, Cursor]:
    """The results and the width at your n; returns the two answers' cells and the warning's
    place."""
    cur, calc, per = b.cur, b.calc, b.calc.per_system
    cur.heading("Results")
    write_result(cur, "initial estimate n₀", b.show("n0"), number_format=N0_FMT,
                 note=calc.wording["n0_note"])
    n_exact = write_result(cur, f"required n{' per system' * per}",
                           b.show("n_exact", f'"{CHECK_INPUTS}"'), number_format=N_FMT,
                           answer=True, name=calc.name("n"), wb=b.wb,
                           note=both_systems_note if per else "")
    n_approx = write_result(cur, "n with the approximation", b.show("n_approx",
                                                                     f'"{CHECK_INPUTS}"'),
                            number_format=N_FMT, name=calc.name("n_approx"), wb=b.wb)
    warn = Cursor(cur.ws, cur.row)
    cur.skip(2)
    cur.heading("At your n", font=STYLE.bold)
    write_result(cur, "expected width at your n", b.show("width", f'"{CHECK_INPUTS}"'),
                 number_format=P_FMT, answer=True, name=calc.name("width_at_n"), wb=b.wb,
                 note="the δ your n meets on average: one interval may be wider")
    write_result(cur, "approximate width at your n", b.show("width_approx"),
                 number_format=P_FMT)
    cur.skip()
    return n_exact, n_approx, warn


def _workings(b: SheetBuild, work: Cursor):
    """n₀, the bisections for n (exact and approximate), and the width at your n."""
    calc = b.calc
    alpha, delta, var_t, your_n = b.used("alpha", "delta", calc.variance.input, "n")
    z = f"_xlfn.NORM.S.INV(1-{alpha}/2)"
    b.w.update(params_block(work, "Parameters", [
        ("n0", "initial estimate n₀",
         calc.formulas["n0"].format(z=z, zb="", effect=delta, variance=var_t), N0_FMT)]))
    shared, exact, approx = ci_models(alpha, delta, var_t, calc.columns["dfe"],
                                      calc.formulas["per"])
    found = []
    for label, model, okc in (("exact E[√V]", exact, "ok"), ("approximation", approx,
                                                             "ok_approx")):
        work.heading(f"{calc.sheet} ({label}): bisection over n = 2..{N_MAX:,}",
                     font=STYLE.bold)
        block = write_block(work.ws, work.row, 1, bisection_cols("1", str(N_MAX), ok=okc)
                            + shared + model, bisection_steps(N_MAX - 1))
        work.row = block.bottom + 2
        found.append((block, okc))
    work.heading(f"{calc.sheet}: both at the search limit n = {N_MAX:,}", font=STYLE.bold)
    top = write_block(work.ws, work.row, 1, [Col("n", "n", lambda i: N_MAX, N_FMT), *shared,
                                             *exact, *approx], 1)
    work.row = top.bottom + 2
    for key, (block, okc) in zip(("n_exact", "n_approx"), found):
        b.w[key] = f"IF({top.cell(okc)},{bisection_answer(block, okc)},{too_large_text()})"
    work.heading("Width at your n", font=STYLE.bold)
    at = write_block(work.ws, work.row, 1, [Col("n", "n", f"={your_n}", N_FMT), *shared,
                                            *exact, *approx], 1)
    work.row = at.bottom + 2
    b.w["width"], b.w["width_approx"] = at.cell("width"), at.cell("width_approx")
    return shared, exact, approx


def _tables(b: SheetBuild, models, n_exact: str, n_approx: str, warn: Cursor, work: Cursor,
            first_work: int):
    """The display tables, and the sentence on whether the approximation agrees."""
    cur, delta = b.cur, b.used("delta")[0]
    cols = [c for part in models for c in part]
    at = answers_block(cur, [("required n", n_exact), ("approximate n", n_approx)], cols,
                       "Expected width at the answers", b.ok)
    around_block(cur, n_exact, cols, "Expected width for n around the answer (boxed: where "
                                     "each width first reaches δ)",
                 (("width", "ok"), ("width_approx", "ok_approx")), b.ok)
    check_room(cur, work, first_work)
    both = f"AND(ISNUMBER({n_exact}),ISNUMBER({n_approx}))"
    text = (f'IF({both},IF({n_exact}={n_approx},"The approximation agrees: n = "'
            f'&{answer_text(n_exact)}&".","Note: the approximation gives n = "'
            f'&{answer_text(n_approx)}&"; with the exact E[√V] the width at that n is "'
            f'&FIXED({at.cell("width", at.top + 3)},4,TRUE)&" (δ = "&FIXED({delta},4,TRUE)'
            f'&")."),"No n up to the search limit gives an expected width of at most δ.")')
    sentence_row(warn, "Exact vs approximation", guarded(b.ok, text, b.status),
             f"NOT(AND({b.ok},{both},{n_exact}={n_approx}))")
    return at


def _charts(b: SheetBuild, curve, note) -> None:
    var_sym = b.calc.symbol(b.calc.variance.input)
    power_chart(b.cur.ws, curve, [("width", "exact"), ("width_approx", "approximation"),
                                  ("target", "δ")], f"{CHART_COLUMN}{b.anchor}",
                y_title="expected width", title="Expected CI width against n", note=note)
    n_chart(b.cur.ws, [(curve, "plot_width", "exact")],
            f"{CHART_COLUMN}{b.anchor + CHART_ROWS // 2}", x_title="δ (expected width)",
            title=f"n against δ (α, {var_sym} as above)", note=note)
