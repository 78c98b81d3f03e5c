"""The blocks of a calculator sheet: the answers, the power around them, the curves behind the
charts (power against n, n against minD; the charts are in :mod:`.charts`), and the minimum
detectable effect at the user's n."""

from __future__ import annotations

from topicsetsize.params import N_MAX

from ...spreadsheet.cells import STYLE, col, put_formula, put_label
from ...spreadsheet.formulas import N_FMT, P_FMT
from ...spreadsheet.layout import CHECK_INPUTS, Cursor, highlight_if, write_result
from ...spreadsheet.rows import Block, Col, bisection_answer, bisection_cols, write_block
from .sheet import AROUND, CURVE, LOG_HI, LOG_LO, MIN_STEPS, display_columns, guarded_block


def answers_block(cur: Cursor, answers: list[tuple[str, str]], cols: list[Col],
                   heading: str, ok: str) -> Block:
    """Both methods' power at n − 1 and n of each answer (labels in column A)."""
    cur.heading(heading, font=STYLE.bold)
    templates = []
    labels = []
    for label, answer in answers:
        # an answer beyond the search limit (text): the powers at 10⁹ − 1 and 10⁹, said so
        templates += [f"=IF(ISNUMBER({answer}),MAX(2,{answer}-1),{N_MAX - 1})",
                      f"=IF(ISNUMBER({answer}),{answer},{N_MAX})"]
        # (only while every input is in range: a bad one leaves the answer text too, and the
        # printed page said "n > 10⁹" of a blank input; a review, 2026-12-07)
        beyond = f"{label} > 10⁹: at 10⁹"
        labels += [f'=IF({ok},IF(ISNUMBER({answer}),"{label} − 1","{beyond} − 1"),'
                   f'"{label} − 1")',
                   f'=IF({ok},IF(ISNUMBER({answer}),"{label}","{beyond}"),"{label}")']
    put_label(cur.ws, cur.row, 1, "at", font=STYLE.bold, fill=STYLE.header_fill)
    block = guarded_block(cur.ws, cur.row, 2, [Col("n", "n", lambda i: templates[i], N_FMT),
                                               *display_columns(cols)], len(templates), ok)
    for i, label in enumerate(labels):
        put_formula(cur.ws, block.top + i, 1, label)
    cur.row = block.bottom + 2
    return block


def around_block(cur: Cursor, answer: str, cols: list[Col], heading: str,
                  verdicts: tuple[tuple[str, str], ...], ok: str) -> Block:
    """The model on n = answer − AROUND .. answer + AROUND (within 2..N_MAX).

    Where a verdict column (``verdicts``: (value column, verdict column)) first holds, its
    value cell is boxed and bold: that is where the power crosses 1 − β (or the width δ).
    """
    cur.heading(heading, font=STYLE.bold)
    # an answer beyond the search limit (text): the n up to 10⁹, none of them the answer
    centre = f"IF(ISNUMBER({answer}),{answer},{N_MAX})"
    block = guarded_block(cur.ws, cur.row, 2, [
        Col("n", "n", lambda i: f"=MIN(MAX(2,{centre}-{AROUND}),{N_MAX - 2 * AROUND})+{i}",
            N_FMT),
        *display_columns(cols)], 2 * AROUND + 1, ok)
    ncol = col(block.columns["n"])
    highlight_if(cur.ws, f"{ncol}{block.top}:{ncol}{block.bottom}",
                 f"AND(ISNUMBER({answer}),${ncol}{block.top}={centre})", fill=STYLE.answer_fill)
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


def curve_block(work: Cursor, answers: tuple[str, str], cols: list[Col],
                 target: str, ok: str, plotted: tuple[str, ...]) -> Block:
    """n from half the smaller to 1.5 times the larger answer (the chart's data).

    The charts plot the columns "plot_n", "plot_target" and "plot_<key>" of each key of
    ``plotted``: the values while every input is in range (``ok``), else #N/A, which charts
    leave out, so that a bad input plots nothing (no curve from the fallback values).
    """
    work.heading("Power curve for the chart", font=STYLE.bold)
    a, b = (f"IF(ISNUMBER({x}),{x},100)" for x in answers)
    lo = f"MAX(2,ROUND(MIN({a},{b})/2,0))"
    hi = f"MIN({N_MAX},MAX({lo}+{CURVE - 1},ROUND(1.5*MAX({a},{b}),0)))"
    cols = [Col("n", "n", lambda i: f"=ROUND({lo}+({hi}-{lo})*{i}/{CURVE - 1},0)", N_FMT),
            *cols, Col("target", "1 − β", f"={target}", P_FMT)]
    shown = {c.key: c for c in cols}
    block = write_block(work.ws, work.row, 1, [*cols, *(
        Col(f"plot_{key}", f"{shown[key].header} (plotted)", f"=IF({ok},{{{key}}},NA())",
            shown[key].number_format) for key in ("n", *plotted, "target"))], CURVE)
    work.row = block.bottom + 2
    return block


#: Decimals of the minimum detectable effect at the user's n, which is rounded up to them (as
#: the Decide sheet's and the ``guarantees`` table's): the value shown has the power.
MIN_DECIMALS = 6
MIN_FMT = "0." + "0" * MIN_DECIMALS
MIN_NOTE = f"rounded up to {MIN_DECIMALS} decimals: at this value the power is 1 − β or more"


def at_your_n(cur: Cursor, b, methods, legacy_too: bool, effect_label: str, effect_name: str):
    """The answers "at your n": each method's power and its minimum detectable effect (labelled
    ``effect_label``, named ``effect_name``), from the working cells ``p_{method}`` and
    ``d_{method}`` of the sheet build ``b``."""
    for key, label, fmt, suffix, note in (
            ("p", "power at your n", P_FMT, "power", ""),
            ("d", effect_label, MIN_FMT, effect_name, MIN_NOTE)):
        for method in methods:
            tag = f", {method}" if legacy_too else ""
            write_result(cur, f"{label}{tag}", b.show(f"{key}_{method}", f'"{CHECK_INPUTS}"'),
                         number_format=fmt, answer=True, wb=b.wb, note=note,
                         name=b.calc.name(f"{suffix}_{method}" if legacy_too else suffix))


def min_at_n(work: Cursor, title: str, cols_of, ok: str, your_n: str,
              value) -> str:
    """Log-scale bisection for the smallest effect at a given n; returns its expression.

    ``cols_of(effect)`` gives the model columns for an effect expression; the bisection runs
    over t = log10(effect) in [LOG_LO, LOG_HI] and ``value(t)`` turns the answer (the end that
    has the power) into the quantity shown, rounded up to :data:`MIN_DECIMALS`. It is
    :data:`NO_DIFFERENCE` where even the smallest effect has the power (a 1 − β not above α is
    refused by the status; the legacy approximation's error at α near 1 − β, whose 0 the Excel
    functions refuse too), and a text where the largest has not (an approximation undefined at
    this n).
    """
    work.heading(title, font=STYLE.bold)
    cols = (bisection_cols(str(LOG_LO), str(LOG_HI), ok=ok, integer=False, label="log10",
                           key="t")
            + [Col("n", "n", f"={your_n}", N_FMT), *cols_of("(10^{t})")])
    block = write_block(work.ws, work.row, 1, cols, MIN_STEPS)
    work.row = block.bottom + 1
    ends = write_block(work.ws, work.row, 1, [
        Col("t", "log10 at the ends", lambda i: (LOG_LO, LOG_HI)[i]),
        Col("n", "n", f"={your_n}", N_FMT), *cols_of("(10^{t})")], 2)
    work.row = ends.bottom + 2
    t = bisection_answer(block, ok, key="t")
    return (f'IF({ends.cell(ok, ends.top)},"{NO_DIFFERENCE}",IF({ends.cell(ok)},'
            f'ROUNDUP({value(t)},{MIN_DECIMALS}),"not reached at this n"))')


#: A minimum effect "at your n" where the smallest effect tried already has the power: not a
#: difference of 0 detected, but none, an artefact of the legacy approximation at α near 1 − β
#: (a parity review, 2026-12-07: the legacy minD at α = .5, β = .49 showed 0 under "OK", where
#: TSS_MIND_ANOVA refuses it; the sheet's "Legacy vs exact" row warns there). Short enough for
#: its cell.
NO_DIFFERENCE = "none (approx.)"


#: Rows of the "n against minD" chart's table: n spread geometrically from a third of the
#: answer to three times it.
_MIN_CURVE = 15


_SPREAD = 3


#: Power evaluations per row of that table: two starting values, then secant steps (8: the
#: one-way ANOVA at n = 2 to 3 needs 6 to 8 from its start for the usual α and β; an extreme
#: α such as 10⁻⁶ at β = .001 needs more there, and leaves a gap in the chart, not a point).
_SECANT = 8


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


def min_curve(work: Cursor, ok: str, answer: str, beta: str, method: str, cols_of,
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
    Column "d" holds the minD, or #N/A (a gap in the chart) while an input is bad, where
    the iteration has not settled to 1e-9 or where the last power is not a number (an
    undefined legacy approximation); column "plot_n" the n where "d" is a number, else #N/A
    too.
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
    # settled, and where the power is defined: an undefined legacy power (counted as 0) left
    # x at its start, which "settled" and plotted a minD at n = 2 where the legacy
    # approximation has none (a review, 2026-12-07)
    cols.append(Col("d", "minD", f"=IF(AND({ok},ISNUMBER({{{p}_{last}}}),ABS({{root}}-"
                                 f"{{it{last}}})<=1E-9*{{root}}),{value('{root}')},NA())",
                    "0.000000"))
    # the chart's n: #N/A with the minD, so a bad input plots no n against the point index
    cols.append(Col("plot_n", "n (plotted)", "=IF(ISNUMBER({d}),{n},NA())", N_FMT))
    block = write_block(work.ws, work.row, 1, cols, _MIN_CURVE)
    work.row = block.bottom + 2
    return block
