"""The calculator sheets ANOVA, TTEST and CI: live formulas that recalculate in any spreadsheet.

Each sheet has its inputs at the top (yellow, validated, with workbook-level names), the
initial estimate, the required n of the legacy and the exact method with a warning where they
differ, the power (or the expected CI width) at the answers and for a range of n around the
initial estimate, and below them the workings: the searches, written out row by row.
"""

from __future__ import annotations

from topicsetsize.params import N_MAX
from topicsetsize.samplesize import NAGATA_LAMBDA

from .cells import STYLE, col, put_formula, put_label, put_number
from .formulas import N_FMT, anova_models, chi2_lambda_model, ci_models, ttest_models
from .inputs import INPUTS
from .layout import (Cursor, answer_text, highlight_if, name_cell, power_search, too_large_text,
                     write_inputs, write_result)
from .rows import Col, bisection_answer, bisection_cols, bisection_steps, write_block

__all__ = ["add_calculators", "SHEETS"]

#: The calculator sheets, in workbook order.
SHEETS = ("ANOVA", "TTEST", "CI")

#: Rows of the χ² bisection for λ̂: the bracket shrinks to 2^-50 of its width.
_LAMBDA_STEPS = 50
#: Rows of the power table on each side of the initial estimate.
_AROUND = 10
#: First row of the workings (the summary above must end before it).
_WORKINGS_ROW = {"ANOVA": 62, "TTEST": 70, "CI": 51}

_WIDTHS = {"A": 30, "B": 16, "C": 30}
_FIRST = ("p_legacy", "p_exact", "ok_legacy", "ok_exact", "width", "ok", "width_approx",
          "ok_approx")


def _display(cols: list[Col]) -> list[Col]:
    """The model's columns with the powers (or widths) and verdicts first, for reading."""
    first = [c for key in _FIRST for c in cols if c.key == key]
    return first + [c for c in cols if c.key not in _FIRST]


def add_calculators(wb, values: dict, k_range: str) -> None:
    """Add the three calculator sheets to ``wb``.

    ``values`` maps "anova"/"ttest"/"ci" to the starting values of the inputs (missing keys
    take the defaults of :data:`generator.inputs.INPUTS`); ``k_range`` is the absolute
    reference of the helper range k = 0..POISSON_TERMS−1.
    """
    _anova(wb, values.get("anova", {}), k_range)
    _ttest(wb, values.get("ttest", {}), k_range)
    _ci(wb, values.get("ci", {}))


def _sheet(wb, title: str, heading: str, intro: list[str]) -> Cursor:
    ws = wb.create_sheet(title)
    for letter, width in _WIDTHS.items():
        ws.column_dimensions[letter].width = width
    for c in range(4, 30):
        ws.column_dimensions[col(c)].width = 13
    cur = Cursor(ws)
    cur.heading(heading, font=STYLE.title)
    for line in intro:
        cur.note(line)
    cur.skip()
    return cur


def _workings(cur: Cursor, title: str) -> Cursor:
    """A cursor at the workings area (fixed row, so the summary can refer to it)."""
    top = _WORKINGS_ROW[title]
    work = Cursor(cur.ws, top)
    work.heading("Workings: the searches behind the answers (no need to edit anything here)")
    work.note("Each row evaluates the power at one candidate n. Bisection rows halve the "
              "bracket [n low, n high]; the criterion fails at n low and holds at n high.")
    work.skip()
    return work


def _check_fits(cur: Cursor, title: str) -> None:
    if cur.row >= _WORKINGS_ROW[title]:  # pragma: no cover - a layout bug, caught by the tests
        raise RuntimeError(f"{title}: the summary ends at row {cur.row}, past the workings")


def _check_row(cur: Cursor, expected: int) -> None:
    """The workings refer to a summary cell by its row before it is written: check it."""
    if cur.row != expected:  # pragma: no cover - a layout bug, caught by the tests
        raise RuntimeError(f"{cur.ws.title}: a result landed on row {cur.row}, not {expected}")


def _warning(cur: Cursor, n_legacy: str, n_exact: str, p_exact_at_legacy: str,
             p_exact_at_exact: str, target: str) -> None:
    """A sentence on whether the methods agree, red when they do not."""
    both = f"AND(ISNUMBER({n_legacy}),ISNUMBER({n_exact}))"
    nl, ne = answer_text(n_legacy), answer_text(n_exact)
    under = (f'"Warning: at the legacy n = "&{nl}&" the exact power is only "'
             f'&FIXED({p_exact_at_legacy},4,TRUE)&" < 1 − β = "&FIXED({target},4,TRUE)'
             f'&"; the exact method needs n = "&{ne}&"."')
    over = (f'"Note: the legacy n = "&{nl}&" is more than needed: the exact power reaches "'
            f'&FIXED({p_exact_at_exact},4,TRUE)&" at n = "&{ne}&"."')
    formula = (f'=IF({both},IF({n_legacy}={n_exact},"Legacy and exact agree: n = "&{ne}&".",'
               f'IF({n_legacy}<{n_exact},{under},{over})),"Warning: legacy n = "&{nl}&", exact '
               f'n = "&{ne}&" (no n up to the search limit is enough for at least one method).")')
    _sentence(cur, "Legacy vs exact", formula, f"NOT(AND({both},{n_legacy}={n_exact}))")


def _sentence(cur: Cursor, label: str, formula: str, alarm: str) -> None:
    """A labelled sentence formula in column B, in red where ``alarm`` holds."""
    put_label(cur.ws, cur.row, 1, label, font=STYLE.bold)
    put_formula(cur.ws, cur.row, 2, formula, font=STYLE.bold)
    highlight_if(cur.ws, f"B{cur.row}", alarm, font=STYLE.warning_font)
    cur.skip()


def _answers_block(cur: Cursor, answers: list[tuple[str, str]], cols: list[Col],
                   heading: str):
    """Both methods' power at n − 1 and n of each answer (labels in column A)."""
    cur.heading(heading, font=STYLE.bold)
    templates = []
    labels = []
    for label, answer in answers:
        templates += [f"=IF(ISNUMBER({answer}),MAX(2,{answer}-1),{N_MAX})",
                      f"=IF(ISNUMBER({answer}),{answer},{N_MAX})"]
        labels += [f"{label} − 1", label]
    put_label(cur.ws, cur.row, 1, "at", font=STYLE.bold, fill=STYLE.header_fill)
    block = write_block(cur.ws, cur.row, 2, [Col("n", "n", lambda i: templates[i], N_FMT),
                                             *_display(cols)], len(templates))
    for i, label in enumerate(labels):
        put_label(cur.ws, block.top + i, 1, label)
    cur.row = block.bottom + 2
    return block


def _around_block(cur: Cursor, n0: str, cols: list[Col], heading: str, differ: tuple[str, str]):
    """The model on n = n₀ − 10 .. n₀ + 10 (within 2..N_MAX), rows where the methods differ
    shaded."""
    cur.heading(heading, font=STYLE.bold)
    block = write_block(cur.ws, cur.row, 2, [
        Col("n", "n", lambda i: f"=MIN(MAX(2,ROUND({n0},0)-{_AROUND}),{N_MAX - 2 * _AROUND})+{i}",
            N_FMT),
        *_display(cols)], 2 * _AROUND + 1)
    a, b = (col(block.columns[key]) for key in differ)
    last = max(block.columns.values())
    highlight_if(cur.ws, f"B{block.top}:{col(last)}{block.bottom}",
                 f"${a}{block.top}<>${b}{block.top}", fill=STYLE.differ_fill)
    cur.row = block.bottom + 1
    cur.note("Shaded rows: the two methods disagree on whether n reaches the target.")
    cur.skip()
    return block


# --------------------------------------------------------------------------------- ANOVA
def _anova(wb, values: dict, k: str) -> None:
    cur = _sheet(wb, "ANOVA", "One-way ANOVA: how many topics to tell m systems apart", [
        "Type your design in the yellow cells; everything else recalculates. The answer is the "
        "smallest n from which the power stays at or above 1 − β.",
        "Legacy = Nagata's approximation, as in Sakai's samplesizeANOVA sheet and the published "
        "tables; exact = the noncentral F distribution.",
    ])
    cur.heading("Inputs")
    r = write_inputs(cur, wb, INPUTS["anova"], values)
    alpha, beta, min_d, var, m = (r[x] for x in ("alpha", "beta", "min_d", "variance", "m"))
    cur.skip()

    results = cur.row + 1          # the first result row, under the "Results" heading
    effect_ref, dfa_ref, crit_ref = (f"$B${results + i}" for i in range(3))
    work = _workings(cur, "ANOVA")
    work.heading("Nagata's λ̂ = x1 + x2·√φA for the four (α, β) pairs of the legacy sheet",
                 font=STYLE.bold)
    nagata = write_block(cur.ws, work.row, 1, [
        Col("alpha", "α", lambda i: list(NAGATA_LAMBDA)[i][0]),
        Col("beta", "β", lambda i: list(NAGATA_LAMBDA)[i][1]),
        Col("x1", "x1", lambda i: list(NAGATA_LAMBDA.values())[i][0]),
        Col("x2", "x2", lambda i: list(NAGATA_LAMBDA.values())[i][1])], len(NAGATA_LAMBDA))
    work.row = nagata.bottom + 2
    work.heading("λ̂ from the noncentral χ² (the φE → ∞ limit): bisection over "
                 "λ ∈ (0, (√c + z_β)²], where the power is at least 1 − β", font=STYLE.bold)
    hi = f"(SQRT({crit_ref})+_xlfn.NORM.S.INV(1-{beta}))^2"
    lam_block = write_block(cur.ws, work.row, 1, bisection_cols("0", hi, integer=False,
                                                                label="λ")
                            + chi2_lambda_model(beta, dfa_ref, crit_ref, k), _LAMBDA_STEPS)
    work.row = lam_block.bottom + 2
    shared, legacy, exact = anova_models(alpha, beta, m, effect_ref, k)
    n_legacy, n_exact = power_search(work, shared, legacy, exact, "ANOVA")

    cur.heading("Results")
    _check_row(cur, results)
    write_result(cur, "Δ = minD²/(2σ̂²)", f"={min_d}^2/(2*{var})", number_format="0.000000",
                 note="noncentrality per topic: the best and the worst system minD apart, "
                      "the others at the grand mean (CIKM 2014)")
    write_result(cur, "φA = m − 1", f"={m}-1", number_format="0")
    write_result(cur, "c = χ²(φA; α)", f"=_xlfn.CHISQ.INV.RT({alpha},{dfa_ref})",
                 number_format="0.000000", note="upper α point of χ² with φA degrees of freedom")
    pick = (f"({nagata.range('alpha')}={alpha})*({nagata.range('beta')}={beta})")
    lam_nagata = write_result(
        cur, "λ̂ (Nagata, legacy pairs)",
        f'=IF(SUMPRODUCT({pick})=1,SUMPRODUCT({pick}*({nagata.range("x1")}'
        f'+{nagata.range("x2")}*SQRT({dfa_ref}))),"not a legacy (α, β) pair")',
        number_format="0.0000", note="x1 + x2·√φA (Nagata 2003); the legacy sheet accepts only "
                                     "these four (α, β) pairs")
    lam_chi2 = write_result(cur, "λ̂ (noncentral χ²)", f"={lam_block.cell('n')}",
                            number_format="0.0000",
                            note="solves Pr{χ'²(φA, λ) ≥ c} = 1 − β (see the workings)")
    n0 = write_result(cur, "initial estimate n₀ = λ̂/Δ",
                      f"=IF(ISNUMBER({lam_nagata}),{lam_nagata},{lam_chi2})/{effect_ref}",
                      number_format="#,##0.0",
                      note="Nagata's λ̂ where the legacy sheet has it, else the χ² one; it may "
                           "be far from the answer")
    write_result(cur, "initial estimate (χ² λ̂)", f"={lam_chi2}/{effect_ref}",
                 number_format="#,##0.0", note="the starting point of the exact method")
    nl = write_result(cur, "required n, legacy", f"={n_legacy}", number_format=N_FMT, answer=True,
                      note="reproduces the legacy tool and the published tables")
    name_cell(wb, "anova_n_legacy", "ANOVA", cur.row - 1, 2)
    ne = write_result(cur, "required n, exact", f"={n_exact}", number_format=N_FMT, answer=True,
                      note="the smallest n with exact power ≥ 1 − β")
    name_cell(wb, "anova_n_exact", "ANOVA", cur.row - 1, 2)
    warn_row = cur.row
    cur.skip(2)
    both = shared + legacy + exact
    answers = _answers_block(cur, [("legacy n", nl), ("exact n", ne)], both,
                             "Power of both methods at the answers")
    _around_block(cur, n0, both, "Power for n around the initial estimate",
                  ("ok_legacy", "ok_exact"))
    _check_fits(cur, "ANOVA")
    _warning(Cursor(cur.ws, warn_row), nl, ne, answers.cell("p_exact", answers.top + 1),
             answers.cell("p_exact", answers.top + 3), f"1-{beta}")


# --------------------------------------------------------------------------------- TTEST
def _ttest(wb, values: dict, k: str) -> None:
    cur = _sheet(wb, "TTEST", "Paired t-test: how many topics to tell two systems apart", [
        "Two input styles: minDt with σ̂t² (the named answers ttest_n_legacy/ttest_n_exact), "
        "or the effect size minΔt = minDt/σ̂t directly (second block).",
        "Legacy = the normal approximation of Sakai's samplesizeTTEST sheet; exact = the "
        "noncentral t distribution (as a noncentral F(1, φ) mixture).",
    ])
    cur.heading("Inputs")
    r = write_inputs(cur, wb, INPUTS["ttest"], values)
    alpha, beta, min_dt, var_t = (r[x] for x in ("alpha", "beta", "min_dt", "variance_t"))
    cur.note("Second input style: give the effect size minΔt = minDt/σ̂t directly.")
    effect2 = write_inputs(cur, wb, INPUTS["ttest_effect"], values)["min_delta_t"]
    cur.skip()

    effect1 = f"$B${cur.row + 1}"   # minΔt, the first result row under the heading
    styles = (("minDt, σ̂t²", effect1, ("ttest_n_legacy", "ttest_n_exact")),
              ("minΔt", effect2, ("", "")))
    work = _workings(cur, "TTEST")
    models, found = [], []
    for label, effect, _ in styles:
        models.append(ttest_models(alpha, beta, effect, k))
        found.append(power_search(work, *models[-1], f"TTEST ({label})"))

    z = f"_xlfn.NORM.S.INV(1-{alpha}/2)"
    results = []                  # per style: (legacy n, exact n, warning row)
    n0 = None
    for (label, effect, names), (n_legacy, n_exact) in zip(styles, found):
        cur.heading(f"Results: {label}")
        if effect == effect1:
            _check_row(cur, int(effect1.rsplit("$", 1)[1]))
            write_result(cur, "minΔt = minDt/σ̂t", f"={min_dt}/SQRT({var_t})",
                         number_format="0.000000", note="the effect size")
        start = write_result(cur, "initial estimate n₀",
                             f"=(({z}+_xlfn.NORM.S.INV(1-{beta}))/{effect})^2+{z}^2/2",
                             number_format="#,##0.0",
                             note="((z_{α/2} + z_β)/minΔt)² + z_{α/2}²/2 (Sakai, IRJ 2016, Eq. 6)")
        n0 = n0 or start
        answers = []
        for method, formula, name in (("legacy", n_legacy, names[0]),
                                      ("exact", n_exact, names[1])):
            answers.append(write_result(cur, f"required n, {method}", f"={formula}",
                                        number_format=N_FMT, answer=True))
            if name:
                name_cell(wb, name, "TTEST", cur.row - 1, 2)
        results.append((*answers, cur.row))
        cur.skip(2)
    blocks = [_answers_block(cur, [("legacy n", nl), ("exact n", ne)],
                             [c for part in parts for c in part],
                             f"Power of both methods at the answers ({label})")
              for (label, _, _), parts, (nl, ne, _) in zip(styles, models, results)]
    _around_block(cur, n0, [c for part in models[0] for c in part],
                  "Power for n around the initial estimate (minDt, σ̂t²)",
                  ("ok_legacy", "ok_exact"))
    _check_fits(cur, "TTEST")
    for (nl, ne, warn_row), block in zip(results, blocks):
        _warning(Cursor(cur.ws, warn_row), nl, ne, block.cell("p_exact", block.top + 1),
                 block.cell("p_exact", block.top + 3), f"1-{beta}")


# --------------------------------------------------------------------------------- CI
def _ci(wb, values: dict) -> None:
    cur = _sheet(wb, "CI", "Confidence interval: how many topics for a CI of width δ", [
        "The smallest n whose expected 100(1−α)% CI width for the difference of two systems "
        "is at most δ (Sakai, IRJ 2016, Section 6), with E[√V] exact (GAMMALN).",
        "The approximation E[√V] ≈ σ̂t(1 − 1/(4(n−1))) is shown beside it.",
    ])
    cur.heading("Inputs")
    r = write_inputs(cur, wb, INPUTS["ci"], values)
    alpha, delta, var_t = (r[x] for x in ("alpha", "delta", "variance_t"))
    cur.skip()

    work = _workings(cur, "CI")
    shared, exact, approx = ci_models(alpha, delta, var_t)
    found = []
    for label, model, ok in (("exact E[√V]", exact, "ok"), ("approximation", approx, "ok_approx")):
        work.heading(f"CI ({label}): bisection over n = 2..{N_MAX:,}", font=STYLE.bold)
        block = write_block(cur.ws, work.row, 1, bisection_cols("1", str(N_MAX), ok=ok)
                            + shared + model, bisection_steps(N_MAX - 1))
        work.row = block.bottom + 2
        found.append((block, ok))
    work.heading(f"CI: both at the search limit n = {N_MAX:,}", font=STYLE.bold)
    top = write_block(cur.ws, work.row, 1, [Col("n", "n", lambda i: N_MAX, N_FMT), *shared,
                                            *exact, *approx], 1)

    cur.heading("Results")
    z = f"_xlfn.NORM.S.INV(1-{alpha}/2)"
    n0 = write_result(cur, "initial estimate n₀", f"=4*{z}^2*{var_t}/{delta}^2",
                      number_format="#,##0.0", note="4·z_{α/2}²·σ̂t²/δ² (Sakai, IRJ 2016, Eq. 15)")
    answers = []
    for (block, ok), label in zip(found, ("required n", "n with the approximation")):
        formula = (f"=IF({top.cell(ok)},{bisection_answer(block, ok)},{too_large_text()})")
        answers.append(write_result(cur, label, formula, number_format=N_FMT,
                                    answer=label == "required n"))
        if label == "required n":
            name_cell(wb, "ci_n", "CI", cur.row - 1, 2)
    warn_row = cur.row
    cur.skip(2)
    cols = shared + exact + approx
    at = _answers_block(cur, [("required n", answers[0]), ("approximate n", answers[1])], cols,
                        "Expected width at the answers")
    _around_block(cur, n0, cols, "Expected width for n around the initial estimate",
                  ("ok", "ok_approx"))
    _check_fits(cur, "CI")
    n_exact, n_approx = answers
    both = f"AND(ISNUMBER({n_exact}),ISNUMBER({n_approx}))"
    formula = (f'=IF({both},IF({n_exact}={n_approx},"The approximation agrees: n = "'
               f'&{answer_text(n_exact)}&".","Note: the approximation gives n = "'
               f'&{answer_text(n_approx)}&"; with the exact E[√V] the width at that n is "'
               f'&FIXED({at.cell("width", at.top + 3)},4,TRUE)&" (δ = "&FIXED({delta},4,TRUE)'
               f'&")."),"No n up to the search limit gives an expected width of at most δ.")')
    _sentence(Cursor(cur.ws, warn_row), "Exact vs approximation", formula,
              f"NOT(AND({both},{n_exact}={n_approx}))")


def helper_sheet(wb, terms: int) -> str:
    """A hidden sheet holding k = 0..terms−1 for the Poisson mixtures; returns the range."""
    ws = wb.create_sheet("Helpers")
    put_label(ws, 1, 1, "k (Poisson mixture index offsets, used by the calculators)")
    for k in range(terms):
        put_number(ws, k + 2, 1, k)
    ws.sheet_state = "hidden"
    return f"Helpers!$A$2:$A${terms + 1}"
