"""The calculator sheet of a t-test design (builder ``"t"``): the paired t-test (legacy and
exact; minDt with σ̂t², or the effect size minΔt) and the unpaired two-sample t-test (exact, n
per system). What differs between them (the methods, the input styles, φ and λ, the initial n,
n per system or in all, the variance's name) comes from their declarations."""

from __future__ import annotations

from openpyxl.worksheet.pagebreak import Break

from ...content.calculators import Calculator
from ...spreadsheet.cells import STYLE
from ...spreadsheet.formulas import N0_FMT, N_FMT, ttest_models
from ...spreadsheet.layout import (
    CHECK_INPUTS,
    Cursor,
    both_systems_note,
    power_search,
    write_inputs,
    write_result,
)
from ...spreadsheet.rows import Col, write_block
from .blocks import (
    answers_block,
    around_block,
    at_your_n,
    curve_block,
    min_at_n,
    min_curve,
)
from .charts import n_chart, note_block, power_chart
from .methods_sentence import methods_warning
from .sheet import (
    ANSWERS_ROWS,
    AROUND_ROWS,
    CHART_COLUMN,
    CHART_ROWS,
    LOG_HI,
    LOG_LO,
    SheetBuild,
    begin,
    check_room,
    end_inputs,
    finish,
    group_workings,
    params_block,
    pick,
    workings,
)


def add_t_test_sheet(wb, calc: Calculator, values: dict, k: str, measures: str | None = None
                     ) -> None:
    """The calculator sheet of ``calc`` (a t-test design): inputs, answers, workings, tables
    and charts."""
    b = begin(wb, calc, values, k, measures)
    if calc.second_style:
        b.cur.note("Second input style: the effect size minΔt = minDt/σ̂t directly (blank = "
                   "follow the first style).")
        min_dt, var_t = b.used(calc.design.effect, calc.variance.input)
        write_inputs(b.cur, wb, calc.second_style, values, block=b.inp,
                     fallback={calc.second_style[0].key: f"{min_dt}/SQRT({var_t})"},
                     header=False)
    end_inputs(b)
    styles = _styles(calc)
    answers, warns = _summary(b, styles)
    b.cur.row = max(b.cur.row, b.anchor + CHART_ROWS)      # the tables start below the chart
    tables_top = b.cur.row
    rows = len(styles) * ANSWERS_ROWS + len(calc.methods) * AROUND_ROWS
    work = workings(Cursor(b.cur.ws, b.cur.row + rows + 1))
    first_work = work.row - 3
    parts = _workings(b, work, styles)
    curves = _curves(b, work, answers, parts["1"])
    note = note_block(work, b.ok, (curves[0], curves[0].cell("n", curves[0].top), True),
                      (curves[1][0][0], b.used(calc.design.effect)[0]))
    group_workings(work, first_work)
    b.cur.resolve()
    blocks = _tables(b, styles, answers, parts, warns, work, first_work)
    _charts(b, styles, *curves, note)
    finish(b.cur, first_work, tables_top, blocks[0])


def _styles(calc: Calculator) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """(label, tag, names of the required n per method) of each input style: the answers of
    the engine's role ``n``, and of ``n_effect`` for the second style."""
    effect, variance = calc.symbol(calc.design.effect), calc.symbol(calc.variance.input)

    def names(role):
        return tuple(calc.name(a.suffix) for m in calc.methods for a in calc.answers
                     if a.engine == role and a.method == m)

    styles = ((f"{effect}, {variance}", "1", names("n")),)
    if calc.second_style:
        styles += ((calc.second_style[0].symbol, "2", names("n_effect")),)
    return styles


def _effect_label(calc: Calculator, style: str) -> tuple[str, str, str]:
    """(key, label, note) of the effect size a style's results show."""
    if style == "1":
        return "effect1", calc.wording["effect"], calc.wording["effect_note"]
    return "effect2", "minΔt used", "the input, or minDt/σ̂t when it is blank"


def _summary(b: SheetBuild, styles) -> tuple[list[dict[str, str]], list[Cursor]]:
    """Per style, the results and the warning's place; then the answers at your n."""
    cur, calc, methods = b.cur, b.calc, b.calc.methods
    legacy_too, per = "legacy" in methods, calc.per_system
    answers, warns = [], []
    for label, s, names in styles:
        cur.heading(f"Results: {label}" if legacy_too else "Results")
        key, text, note = _effect_label(calc, s)
        write_result(cur, text, b.show(key), number_format="0.000000", note=note)
        write_result(cur, "initial estimate n₀", b.show(f"n0_{s}"), number_format=N0_FMT,
                     note=calc.wording["n0_note"])
        found = {}
        for method, name in zip(methods, names):
            found[method] = write_result(
                cur, f"required n, {method}" if legacy_too else
                f"required n{' per system' * per}", b.show(f"n_{method}_{s}", f'"{CHECK_INPUTS}"'),
                number_format=N_FMT, answer=True, name=name, wb=b.wb,
                note=both_systems_note if per else "")
        answers.append(found)
        warns.append(Cursor(cur.ws, cur.row))
        cur.skip(2 if legacy_too else 1)
    cur.heading(f"At your n ({styles[0][0]})" if legacy_too else
                f"At your n{' (per system)' * per}", font=STYLE.bold)
    sym = calc.symbol(calc.design.effect)
    at_your_n(cur, b, methods, legacy_too, f"minimum detectable {sym} at your n",
              f"{calc.design.effect}_at_n")
    cur.skip()
    return answers, warns


def _workings(b: SheetBuild, work: Cursor, styles) -> dict[str, tuple]:
    """The effect sizes and n₀ of each style, and the searches for n; returns each style's
    models (shared, legacy, exact)."""
    calc = b.calc
    alpha, beta, min_dt, var_t = b.used("alpha", "beta", calc.design.effect, calc.variance.input)
    z, zb = f"_xlfn.NORM.S.INV(1-{alpha}/2)", f"_xlfn.NORM.S.INV(1-{beta})"
    n0 = calc.formulas["n0"]
    two = len(styles) > 1
    effect2 = b.inp.used[calc.second_style[0].key] if two else None
    params = [("effect1", calc.wording["effect"], f"={min_dt}/SQRT({var_t})", "0.000000")]
    if two:
        params.append(("effect2", "minΔt (second style)", f"={effect2}", "0.000000"))
    params.append(("n0_1", "initial estimate n₀" + " (first style)" * two,
                   n0.format(z=z, zb=zb, effect=min_dt, variance=var_t), N0_FMT))
    if two:
        params.append(("n0_2", "initial estimate n₀ (second style)",
                       f"=(({z}+{zb})/{effect2})^2+{z}^2/2", N0_FMT))
    p = params_block(work, "Parameters", params)
    b.w.update(p)
    parts = {}
    for label, s, _ in styles:
        shared, legacy, exact = ttest_models(alpha, beta, p[f"effect{s}"], b.k, calc.columns)
        legacy = legacy if "legacy" in calc.methods else []
        parts[s] = (shared, legacy, exact)
        b.w[f"n_legacy_{s}"], b.w[f"n_exact_{s}"] = power_search(
            work, shared, legacy or None, exact, f"{calc.sheet} ({label})")
    return parts


def _curves(b: SheetBuild, work: Cursor, answers: list[dict], first: tuple):
    """The power and the minimum effect at your n (first style); the charts' curves."""
    calc, methods = b.calc, b.calc.methods
    alpha, beta, var_t, your_n = b.used("alpha", "beta", calc.variance.input, "n")
    z, zb = f"_xlfn.NORM.S.INV(1-{alpha}/2)", f"_xlfn.NORM.S.INV(1-{beta})"
    sym, sigma = calc.symbol(calc.design.effect), calc.symbol(calc.variance.input)[:-1]
    shared, legacy, exact = first

    def models(effect):
        return ttest_models(alpha, beta, effect, b.k, calc.columns)

    work.heading("Power at your n", font=STYLE.bold)
    at = write_block(work.ws, work.row, 1, [Col("n", "n", f"={your_n}", N_FMT), *shared,
                                            *legacy, *exact], 1)
    work.row = at.bottom + 2
    for method in methods:
        b.w[f"p_{method}"] = at.cell(f"p_{method}")
        b.w[f"d_{method}"] = min_at_n(
            work, f"Minimum detectable {sym} at your n ({method}): bisection over "
                  f"log10 of the effect size ∈ [{LOG_LO}, {LOG_HI}]",
            lambda e, method=method: pick(models(e), method),
            f"ok_{method}", your_n, lambda t: f"10^{t}*SQRT({var_t})")
    ends = [answers[0][x] for x in methods]
    curve = curve_block(work, (ends[0], ends[-1]), [*shared, *legacy, *exact], f"1-{beta}",
                        b.ok, tuple(f"p_{x}" for x in methods))
    d_curves = [(min_curve(
        work, b.ok, answers[0]["exact"], beta, method,
        lambda e, method=method: pick(models(e), method),
        f"({z}+{zb})*{calc.formulas['per']}", lambda x: f"{x}*SQRT({var_t})",
        f"n against {sym} ({method}): per n, the effect size with power 1 − β by the secant "
        f"method, {sym} = effect size × {sigma}"), "d", method) for method in methods]
    return curve, d_curves


def _tables(b: SheetBuild, styles, answers, parts, warns, work: Cursor, first_work: int):
    """The display tables between the summary and the workings, and the methods' warnings."""
    cur, methods = b.cur, b.calc.methods
    legacy_too = "legacy" in methods
    blocks = []
    for (label, s, _), found in zip(styles, answers):
        blocks.append(answers_block(
            cur, [(f"{x} n", found[x]) for x in methods], [c for part in parts[s] for c in part],
            f"Power of both methods at the answers ({label})" if legacy_too
            else "Power at the answer", b.ok))
    cols = [c for part in parts["1"] for c in part]
    crossings = tuple((f"p_{x}", f"ok_{x}") for x in methods)
    if legacy_too:
        around_block(cur, answers[0]["legacy"], cols,
                     f"Power for n around the legacy answer ({styles[0][0]})", crossings, b.ok)
        cur.skip()
        # the tables of both input styles fill a page: the last one on a page of its own
        cur.ws.row_breaks.append(Break(id=cur.row - 1))
    around_block(cur, answers[0]["exact"], cols, "Power for n around the exact answer (boxed: "
                 "where each power first reaches 1 − β)" if legacy_too else
                 "Power for n around the answer (boxed: where it first reaches 1 − β)",
                 crossings, b.ok)
    check_room(cur, work, first_work)
    if legacy_too:
        for found, block, warn in zip(answers, blocks, warns):
            methods_warning(warn, b.ok, b.status, found["legacy"], found["exact"],
                            block.cell("p_exact", block.top + 1),
                            block.cell("p_exact", block.top + 3), b.used('beta')[0])
    return blocks


def _charts(b: SheetBuild, styles, curve, d_curves, note) -> None:
    calc = b.calc
    sym, var_sym = calc.symbol(calc.design.effect), calc.symbol(calc.variance.input)
    series = [(f"p_{x}", x) for x in calc.methods] + [("target", "1 − β")]
    power_chart(b.cur.ws, curve, series, f"{CHART_COLUMN}{b.anchor}", y_title="power",
                title=f"Power against n ({styles[0][0]})", note=note)
    n_chart(b.cur.ws, d_curves, f"{CHART_COLUMN}{b.anchor + CHART_ROWS // 2}", x_title=sym,
            title=f"n against {sym} (α, β, {var_sym} as above)", note=note)
