"""The ANOVA and ANOVA2 calculator sheets: one-way ANOVA (legacy and exact) and two-way ANOVA
without replication (exact)."""

from __future__ import annotations

from topicsetsize.designs.legacy import NAGATA_LAMBDA

from ...content.inputs import INPUTS
from ...spreadsheet.cells import STYLE
from ...spreadsheet.formulas import N_FMT, P_FMT, anova_models, chi2_lambda_model
from ...spreadsheet.layout import (
    CHECK_INPUTS,
    Cursor,
    guarded,
    power_search,
    write_inputs,
    write_result,
    write_status,
)
from ...spreadsheet.rows import Col, bisection_cols, write_block
from .blocks import (
    _answers_block,
    _around_block,
    _chart,
    _curve_block,
    _min_at_n,
    _min_curve,
    _n_chart,
)
from .sheet import (
    _ANSWERS_ROWS,
    _AROUND_ROWS,
    _CHART_COLUMN,
    _CHART_ROWS,
    _LAMBDA_STEPS,
    _LOG_HI,
    _LOG_LO,
    _NOTES_WIDTH,
    Design,
    _check_room,
    _finish,
    _group,
    _measure_picker,
    _params,
    _pick,
    _warning,
    _workings,
    start_sheet,
)

ANOVA = Design("anova", "One-way ANOVA: how many topics to tell m systems apart", (
    "Type your design in the yellow cells; everything else recalculates. The answer is the "
    "smallest n from which the power stays at or above 1 − β.",
    "Legacy = Nagata's approximation, as in Sakai's samplesizeANOVA sheet and the published "
    "tables; exact = the noncentral F distribution.",
))


ANOVA2 = Design("anova2", "Two-way ANOVA without replication (randomised block: "
               "topics × systems)", (
    "Every system is run on the same topics, so the topics are blocks: σ̂² is the two-way "
    "residual variance V_E2 (topic effect removed), φE = (m − 1)(n − 1).",
    "Exact method only: power = Pr{F'(φA, φE, λ) ≥ F(φA, φE; α)}, λ = n·minD²/(2σ̂²) "
    "(the legacy tools have no two-way design).",
))


def _anova(wb, values: dict, k: str, measures: str | None = None, design: Design = ANOVA
           ) -> None:
    methods, two_way = design.methods, design.model == "two-way"
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
    _finish(cur, first_work, tables_top, blocks)
