"""The TTEST and TTEST2 calculator sheets: the paired t-test (legacy and exact; minDt with σ̂t²,
or the effect size minΔt) and the unpaired two-sample t-test (exact, n per system)."""

from __future__ import annotations

from openpyxl.worksheet.pagebreak import Break

from ...content.inputs import INPUTS
from ...spreadsheet.cells import STYLE
from ...spreadsheet.formulas import N_FMT, P_FMT, ttest_models
from ...spreadsheet.layout import (
    CHECK_INPUTS,
    Cursor,
    guarded,
    power_search,
    write_inputs,
    write_result,
    write_status,
)
from ...spreadsheet.rows import Col, write_block
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

TTEST = Design("ttest", "Paired t-test: how many topics to tell two systems apart", (
    "Two input styles: minDt with σ̂t², or the effect size minΔt = minDt/σ̂t (blank: it "
    "follows minDt/σ̂t of the first style).",
    "Legacy = the normal approximation of Sakai's samplesizeTTEST sheet; exact = the "
    "noncentral t distribution (as a noncentral F(1, φ) mixture).",
))


TTEST2 = Design("ttest2", "Unpaired (two-sample) t-test: n topics per system", (
    "Each system is evaluated on its own n topics (2n in all): Student's t-test with "
    "φ = 2(n − 1) and λ = √(n/2)·minD/σ̂; σ̂² is the within-system variance (one-way V_E).",
    "Exact method only: the noncentral t distribution (as a noncentral F(1, φ) mixture).",
))


def _ttest(wb, values: dict, k: str, measures: str | None = None, design: Design = TTEST
           ) -> None:
    unpaired, methods = design.model == "unpaired", design.methods
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
        # the tables of both input styles fill a page: the last one on a page of its own
        cur.ws.row_breaks.append(Break(id=cur.row - 1))
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
    _finish(cur, first_work, tables_top, blocks[0])
