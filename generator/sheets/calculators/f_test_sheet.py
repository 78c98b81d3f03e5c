"""The calculator sheet of an F-test design (builder ``"F"``): the one-way ANOVA (legacy and
exact) and the two-way ANOVA without replication (exact). What differs between them (the
methods, φE, the measure picker) comes from their declarations."""

from __future__ import annotations

from topicsetsize.designs.legacy import NAGATA_LAMBDA

from ...content.calculators import Calculator
from ...spreadsheet.cells import STYLE
from ...spreadsheet.formulas import (
    N0_FMT,
    N_FMT,
    SMALL_FMT,
    anova_models,
    chi2_lambda_model,
)
from ...spreadsheet.layout import CHECK_INPUTS, Cursor, power_search, write_result
from ...spreadsheet.rows import Col, bisection_cols, write_block
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
    LAMBDA_STEPS,
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

_NOTES = {"legacy": "reproduces the legacy tool and the published tables",
          "exact": "the smallest n with exact power ≥ 1 − β"}


def add_f_test_sheet(wb, calc: Calculator, values: dict, k: str, measures: str | None = None
                     ) -> None:
    """The calculator sheet of ``calc`` (an ANOVA design): inputs, answers, workings, tables
    and charts."""
    b = begin(wb, calc, values, k, measures)
    end_inputs(b)
    answers, warn = _summary(b)
    b.cur.row = max(b.cur.row, b.anchor + CHART_ROWS)      # the tables start below the chart
    tables_top = b.cur.row
    work = workings(Cursor(b.cur.ws, b.cur.row + ANSWERS_ROWS
                           + len(calc.methods) * AROUND_ROWS + 1))
    first_work = work.row - 3
    models, parts, lam_chi2 = _workings(b, work)
    curves = _curves(b, work, answers, models, parts, lam_chi2)
    note = note_block(work, b.ok, (curves[0], curves[0].cell("n", curves[0].top), True),
                      (curves[1][0][0], b.used("min_d")[0]))
    group_workings(work, first_work)
    b.cur.resolve()
    blocks = _tables(b, answers, parts, warn, work, first_work)
    _charts(b, *curves, note)
    finish(b.cur, first_work, tables_top, blocks)


def _summary(b: SheetBuild) -> tuple[dict[str, str], Cursor]:
    """The results and the answers at your n; returns the answers' cells and the warning's
    place."""
    cur, calc, methods = b.cur, b.calc, b.calc.methods
    legacy_too = "legacy" in methods
    cur.heading("Results")
    write_result(cur, "Δ = minD²/(2σ̂²)", b.show("effect"), number_format=SMALL_FMT,
                 note="noncentrality per topic (CIKM 2014)")
    if legacy_too:
        write_result(cur, "λ̂ (Nagata, legacy pairs)", b.show("lam_nagata"),
                     number_format="0.0000",
                     note="x1 + x2·√φA (Nagata 2003), for the legacy sheet's four (α, β) pairs")
    write_result(cur, "λ̂ (noncentral χ²)", b.show("lam_chi2"), number_format="0.0000",
                 note="solves Pr{χ'²(φA, λ) ≥ c} = 1 − β")
    write_result(cur, "initial estimate n₀ = λ̂/Δ", b.show("n0"), number_format=N0_FMT,
                 note=("Nagata's λ̂ where the legacy sheet has it, else the χ² one" if legacy_too
                       else "the φE → ∞ limit; the search starts from nothing"))
    answers = {}
    for method in methods:
        answers[method] = write_result(
            cur, f"required n, {method}" if legacy_too else "required n",
            b.show(f"n_{method}", f'"{CHECK_INPUTS}"'), number_format=N_FMT, answer=True,
            name=calc.name(f"n_{method}" if legacy_too else "n"), wb=b.wb, note=_NOTES[method])
    warn = Cursor(cur.ws, cur.row)
    cur.skip()
    cur.heading("At your n", font=STYLE.bold)
    at_your_n(cur, b, methods, legacy_too, "minimum detectable minD at your n", "min_d_at_n")
    cur.skip()
    return answers, warn


def _workings(b: SheetBuild, work: Cursor):
    """Δ, φA and c; Nagata's λ̂ (legacy) and the χ² one; n₀; the searches for n. Returns
    the models (of an effect), their columns at Δ (shared, legacy, exact) and the cell of the
    χ² λ̂."""
    alpha, beta, min_d, var, m = b.used("alpha", "beta", "min_d", "variance", "m")
    legacy_too = "legacy" in b.calc.methods
    p = params_block(work, "Parameters", [
        ("effect", "Δ = minD²/(2σ̂²)", f"={min_d}^2/(2*{var})", SMALL_FMT),
        ("dfa", "φA = m − 1", f"={m}-1", "0"),
        ("crit", "c = χ²(φA; α)", f"=_xlfn.CHISQ.INV.RT({alpha},{m}-1)", "0.000000"),
    ])
    b.w.update(p)
    nagata = _nagata(work) if legacy_too else None
    work.heading("λ̂ from the noncentral χ² (the φE → ∞ limit): bisection over "
                 "λ ∈ (0, (√c + z_β)²], where the power is at least 1 − β", font=STYLE.bold)
    hi = f"(SQRT({p['crit']})+_xlfn.NORM.S.INV(1-{beta}))^2"
    lam_block = write_block(work.ws, work.row, 1, bisection_cols("0", hi, integer=False,
                                                                 label="λ", key="lam")
                            + chi2_lambda_model(beta, p["dfa"], p["crit"], b.k), LAMBDA_STEPS)
    work.row = lam_block.bottom + 2
    lam_rows = [("lam_chi2", "λ̂ (noncentral χ²)", f"={lam_block.cell('lam')}", "0.0000")]
    if legacy_too:
        pick_pair = f"({nagata.range('alpha')}={alpha})*({nagata.range('beta')}={beta})"
        lam_rows.insert(0, (
            "lam_nagata", "λ̂ (Nagata, legacy pairs)",
            f'=IF(SUMPRODUCT({pick_pair})=1,SUMPRODUCT({pick_pair}*({nagata.range("x1")}'
            f'+{nagata.range("x2")}*SQRT({p["dfa"]}))),"not a legacy (α, β) pair")', "0.0000"))
    q = params_block(work, "Initial estimate", lam_rows)
    b.w.update(q)
    lam = (f"IF(ISNUMBER({q['lam_nagata']}),{q['lam_nagata']},{q['lam_chi2']})" if legacy_too
           else q["lam_chi2"])
    b.w.update(params_block(work, "", [("n0", "initial estimate n₀ = λ̂/Δ",
                                        f"={lam}/{p['effect']}", N0_FMT)]))

    def models(effect):
        return anova_models(alpha, beta, m, effect, b.k, b.calc.columns["dfe"])

    shared, legacy, exact = models(p["effect"])
    legacy = legacy if legacy_too else []
    b.w["n_legacy"], b.w["n_exact"] = power_search(work, shared, legacy or None, exact,
                                                   b.calc.sheet)
    return models, (shared, legacy, exact), q["lam_chi2"]


def _nagata(work: Cursor):
    """The table of Nagata's coefficients for the legacy sheet's (α, β) pairs."""
    work.heading("Nagata's λ̂ = x1 + x2·√φA for the four (α, β) pairs of the legacy sheet",
                 font=STYLE.bold)
    nagata = write_block(work.ws, work.row, 1, [
        Col("alpha", "α", lambda i: list(NAGATA_LAMBDA)[i][0]),
        Col("beta", "β", lambda i: list(NAGATA_LAMBDA)[i][1]),
        Col("x1", "x1", lambda i: list(NAGATA_LAMBDA.values())[i][0]),
        Col("x2", "x2", lambda i: list(NAGATA_LAMBDA.values())[i][1])],
        len(NAGATA_LAMBDA))
    work.row = nagata.bottom + 2
    return nagata


def _curves(b: SheetBuild, work: Cursor, answers: dict, models, parts: tuple, lam_chi2: str):
    """The power and the minimum minD at your n; the curves behind the charts."""
    (shared, legacy, exact), methods = parts, b.calc.methods
    beta, var, your_n = b.used("beta", "variance", "n")
    work.heading("Power at your n", font=STYLE.bold)
    at = write_block(work.ws, work.row, 1, [Col("n", "n", f"={your_n}", N_FMT), *shared,
                                            *legacy, *exact], 1)
    work.row = at.bottom + 2
    for method in methods:
        b.w[f"p_{method}"] = at.cell(f"p_{method}")
        b.w[f"d_{method}"] = min_at_n(
            work, f"Minimum detectable minD at your n ({method}): bisection over "
                  f"log10 λ ∈ [{LOG_LO}, {LOG_HI}], Δ = λ/n",
            lambda e, method=method: pick(models(f"{e}/{{n}}"), method),
            f"ok_{method}", your_n, lambda t: f"SQRT(2*{var}*10^{t}/{your_n})")
    ends = [answers[x] for x in methods]
    curve = curve_block(work, (ends[0], ends[-1]), [*shared, *legacy, *exact], f"1-{beta}",
                        b.ok, tuple(f"p_{x}" for x in methods))
    # the secant starts from the χ² limit's λ moved by its tangent in 1/φE (docs/formulas.md
    # §4): from the limit alone, 6 steps left the exact curve unsettled (#N/A, no point) at
    # n = 2 to 8 of m = 3, minD = .13, σ̂² = .0023 (a review, 2026-12-07)
    dfe = b.calc.columns["dfe"][1].lstrip("=").replace("{m}", f"({b.used('m')[0]})")
    # (the exact curve's only: the legacy power, undefined at some λ of a small n, is best
    # started from the limit, as it was)
    start = {"exact": f"{lam_chi2}*(1+{b.w['crit']}/(2*{dfe}))", "legacy": lam_chi2}
    d_curves = [(min_curve(
        work, b.ok, answers["exact"], beta, method,
        lambda e, method=method: pick(models(f"{e}/{{n}}"), method), start[method],
        lambda x: f"SQRT(2*{var}*{x}/{{n}})",
        f"n against minD ({method}): per n, λ with power 1 − β by the secant method, "
        "minD = √(2σ̂²λ/n)"), "d", method) for method in methods]
    return curve, d_curves


def _tables(b: SheetBuild, answers: dict, parts: tuple, warn: Cursor, work: Cursor,
            first_work: int):
    """The display tables between the summary and the workings, and the methods' warning."""
    cur, methods = b.cur, b.calc.methods
    legacy_too = "legacy" in methods
    cols = [c for part in parts for c in part]
    blocks = answers_block(cur, [(f"{x} n", answers[x]) for x in methods], cols,
                           "Power of both methods at the answers" if legacy_too
                           else "Power at the answer", b.ok)
    crossings = tuple((f"p_{x}", f"ok_{x}") for x in methods)
    if legacy_too:
        around_block(cur, answers["legacy"], cols, "Power for n around the legacy answer",
                     crossings, b.ok)
        cur.skip()
    around_block(cur, answers["exact"], cols, "Power for n around the exact answer (boxed: "
                 "where each power first reaches 1 − β)" if legacy_too else
                 "Power for n around the answer (boxed: where it first reaches 1 − β)",
                 crossings, b.ok)
    check_room(cur, work, first_work)
    if legacy_too:
        methods_warning(warn, b.ok, b.status, answers["legacy"], answers["exact"],
                        blocks.cell("p_exact", blocks.top + 1),
                        blocks.cell("p_exact", blocks.top + 3), b.used('beta')[0])
    return blocks


def _charts(b: SheetBuild, curve, d_curves, note) -> None:
    series = [(f"p_{x}", x) for x in b.calc.methods] + [("target", "1 − β")]
    power_chart(b.cur.ws, curve, series, f"{CHART_COLUMN}{b.anchor}", y_title="power",
                title="Power against n", note=note)
    n_chart(b.cur.ws, d_curves, f"{CHART_COLUMN}{b.anchor + CHART_ROWS // 2}",
            x_title="minD", title="n against minD (m, α, β, σ̂² as above)",
            note=note)
