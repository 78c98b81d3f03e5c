"""The Decide sheet: is a candidate number of topics enough? (Sakai's recommendations)

Type a candidate n and a minD (yellow): for each m of the spec's list the sheet shows, live,
the one-way ANOVA power at that n and minD (legacy and exact) and whether it meets 1 − β.
Beside it, precomputed by the generator with :func:`topicsetsize.anova_min_d` (the minD column
of :func:`topicsetsize.guarantees`) for the default inputs, the minimum detectable minD per m
(Sakai, IRJ 2016, Section 5; AIRS 2016 reads its Table 2 this way). When the spec lists
``[[requirements]]``, the recommendation of :func:`topicsetsize.recommend` (AIRS 2016,
Section 4): its sentence (stored as text: the labels are untrusted) and the per-requirement
table.
"""

from __future__ import annotations

import numpy as np
from openpyxl.styles import Alignment
from openpyxl.worksheet.pagebreak import Break

import topicsetsize as tss
from topicsetsize.decide.guarantee import TABLE_DECIMALS, round_up

from ..content.calculators import CALCULATORS, INPUTS
from ..content.spec import DECIDE_MS, Spec
from ..spreadsheet.cells import (
    STYLE,
    fit_texts,
    fixed_format,
    put_formula,
    put_label,
    put_number,
    put_text,
)
from ..spreadsheet.formulas import N_FMT, P_FMT, anova_models
from ..spreadsheet.layout import name_cell, write_inputs, write_status
from ..spreadsheet.rows import Col
from .calculators import caution, display_columns, guarded_block, start_sheet
from .calculators.scale_note import ok_status
from .calculators.sheet import PRINT_SCALE

__all__ = ["add_decide_sheet", "SHEET", "decide_defaults", "decide_variances"]

SHEET = "Decide"
#: Where the workbook sizes the two-way design, after the one-way design's caution.
_TWO_WAY = f" (the {CALCULATORS['anova2'].sheet} sheet)"
#: First column of the live table's workings (right of the table and of the print area A:P).
_WORK_COLUMN = 30


def decide_variances(spec: Spec, fallback: float, *, from_matrix: bool = False
                     ) -> tuple[float, ...]:
    """The variances of the precomputed minD table: ``[decide] variance``, else the distinct
    variances of the requirements, else ``fallback`` (the ANOVA calculator's σ̂²). Where
    ``fallback`` is a matrix's estimate (``from_matrix``), it comes first, before the
    requirements' variances."""
    if spec.decide.get("variance"):
        return tuple(spec.decide["variance"])
    from_requirements = tuple(dict.fromkeys(r["variance"] for r in spec.requirements))
    if from_matrix:
        return tuple(dict.fromkeys((fallback, *from_requirements)))
    return from_requirements or (fallback,)


def decide_defaults(spec: Spec, fallback: float, source: str | None = None) -> dict:
    """Starting values of the Decide sheet's inputs; where σ̂² is ``fallback`` and ``source``
    (a matrix's estimate) is given, the input names it (``_source``)."""
    variances = decide_variances(spec, fallback, from_matrix=source is not None)
    out = {"alpha": spec.alpha, "beta": spec.beta, "n": spec.decide.get("n", 100),
           "min_d": spec.decide.get("min_d", 0.1), "variance": variances[0]}
    if source and variances[0] == fallback:
        out["_source"] = {"variance": source}
    return out


def add_decide_sheet(wb, spec: Spec, k: str, fallback: float,
                     source: str | None = None) -> None:
    """Write the Decide sheet; ``k`` is the helper range of the Poisson mixtures,
    ``fallback`` the variance used when the spec names none and ``source`` where it came
    from (shown beside the input)."""
    cur = start_sheet(wb, SHEET, "Decide: is a candidate number of topics enough?", [
        "Type a candidate n and a minD (yellow): the table shows the one-way ANOVA power "
        "for each number of systems m, live, and whether it reaches 1 − β.",
        "The minimum detectable minD per m below it is precomputed by the generator for the "
        "default n, α and β: it shows \"—\" while they differ.",
        *caution(CALCULATORS["anova"], _TWO_WAY),
    ])
    cur.ws.column_dimensions["C"].width = 44      # "a whole number from 2 to 1,000,000,000"
    start = decide_defaults(spec, fallback, source)
    cur.heading("Inputs")
    inp = write_inputs(cur, wb, INPUTS["decide"], start)
    alpha, beta, n, min_d, var = (inp.used[x] for x in
                                  ("alpha", "beta", "n", "min_d", "variance"))
    _, ok = write_status(cur, wb, "decide", inp, ok_status(INPUTS["decide"], inp.used))
    cur.skip()

    ms = spec.decide.get("m", DECIDE_MS)
    cur.heading("One-way ANOVA power at your n and minD (live)")
    shared, legacy, exact = anova_models(alpha, beta, "{m}", f"({min_d}^2/(2*{var}))", k,
                                         CALCULATORS["anova"].columns["dfe"])
    # the workings right of the printed area (columns AD on, grouped and hidden); the table
    # shows them only while every input is in range
    block = guarded_block(cur.ws, cur.row, 1, [
        Col("m", "m (systems)", lambda i: ms[i], "0"), Col("n", "n", f"={n}", N_FMT),
        *display_columns([*shared, *legacy, *exact])], len(ms), ok, plain=("m",),
        hidden_column=_WORK_COLUMN)
    cur.row = block.bottom + 1
    cur.note("p_legacy: Nagata's approximation (Sakai's Excel tools; \"undefined\" where it "
             "has no value); p_exact: the noncentral F. \"yes\" where the power is ≥ 1 − β.")
    cur.skip()

    _precomputed(cur, spec, start, f'AND({ok},{n}={int(start["n"])},{alpha}={start["alpha"]!r},'
                                    f'{beta}={start["beta"]!r})')
    if spec.requirements:
        _recommendation(cur, spec)
    ws = cur.ws
    ws.freeze_panes = "A3"
    # the inputs and answers (A:H) on readable pages; the live table's working columns right
    # of them print only when the reader widens the print area (fitting A:P to the width
    # shrank it to 4 pt)
    ws.print_area = f"A1:H{cur.row}"
    ws.print_title_rows = "1:1"
    ws.page_setup.scale = PRINT_SCALE
    fit_texts(ws, 1, cur.row, 8)


def _precomputed(cur, spec: Spec, start: dict, same: str) -> None:
    """Minimum detectable minD per m at the default n, per variance and method: shown while
    the typed n, α and β are the defaults (``same``, a formula's condition), "—" otherwise
    (the numbers would answer another n than the candidate's live table just above)."""
    n, alpha, beta = int(start["n"]), start["alpha"], start["beta"]
    ms = spec.decide.get("m", DECIDE_MS)
    variances = decide_variances(spec, start["variance"], from_matrix="_source" in start)
    cur.heading(f"Minimum detectable minD per m at n = {n} (precomputed for the default "
                f"inputs: α = {alpha:g}, β = {beta:g}, σ̂² as each column says; not live)")
    ws, top = cur.ws, cur.row
    put_label(ws, top, 1, "m (systems)", font=STYLE.bold, fill=STYLE.header_fill)
    column = 2
    for v in variances:
        for method in ("legacy", "exact"):
            put_label(ws, top, column, f"σ̂² = {v:g}, {method}", font=STYLE.bold,
                      fill=STYLE.header_fill).alignment = STYLE.header
            try:        # the ANOVA column of tss.guarantees(n, ...) as its table prints it:
                # rounded up, so that a value shown has the power (rounded, 0.097605 showed
                # 0.0976, a range that 100 topics detect with a power just under 80%)
                values = [float(x) for x in round_up(np.ravel(tss.anova_min_d(
                    n, m=np.asarray(ms), variance=v, alpha=alpha, beta=beta, method=method)),
                    decimals=TABLE_DECIMALS)]
            except tss.InputError:       # not reached at this n: said in the cell
                values = [None] * len(ms)
            for i, value in enumerate(values):
                shown = '"not reached"' if value is None else repr(value)
                put_formula(ws, top + 1 + i, column, f'=IF({same},{shown},"—")',
                            number_format=f"0.{'0' * TABLE_DECIMALS}"
                            ).alignment = Alignment(horizontal="right")
            column += 1
    ws.row_dimensions[top].height = 30
    for i, m in enumerate(ms):
        put_number(ws, top + 1 + i, 1, m, number_format="0")
    cur.row = top + len(ms) + 1
    cur.note("The smallest range between the best and the worst of m systems that n topics "
             "detect with power 1 − β (topicsetsize.anova_min_d, the minD of "
             f"topicsetsize.guarantees), rounded up to {TABLE_DECIMALS} decimals as the "
             "guarantees table prints it: each value shown has that power.")
    cur.note(f"—: the typed candidate n, α or β is not the default this table was computed "
             f"for (n = {n}, α = {alpha:g}, β = {beta:g}), or an input is bad. Each column is "
             "for the σ̂² in its heading, whatever σ̂² is typed above.")
    cur.skip()


def _recommendation(cur, spec: Spec) -> None:
    """The recommendation over the spec's requirements, as text and a table of numbers."""
    method = spec.decide.get("method", "legacy")
    design = spec.decide.get("design", "anova")
    round_to = spec.decide.get("round_to", 10)
    rec = tss.recommend(list(spec.requirements), alpha=spec.alpha, beta=spec.beta,
                        round_to=round_to, method=method, design=design)
    ws = cur.ws
    # on a page of its own: split over two, a page held its last rows without their header
    # (the one-way caution's lines above moved it down)
    ws.row_breaks.append(Break(id=cur.row - 1))
    cur.heading("Recommendation over the spec's requirements ("
                + ("two-way ANOVA, each σ̂² a V_E2, " if design == "anova2" else "")
                + f"{method} method, rounded up to a multiple of {round_to}; precomputed)")
    put_label(ws, cur.row, 1, "recommended n", font=STYLE.bold)
    cell = put_number(ws, cur.row, 2, rec.n, number_format=N_FMT, font=STYLE.answer,
                      fill=STYLE.answer_fill)
    cell.border = STYLE.box
    cur.skip()
    put_label(ws, cur.row, 1, "in words", font=STYLE.bold).alignment = STYLE.top
    sentence = put_text(ws, cur.row, 2, rec.sentence, font=STYLE.bold)
    sentence.alignment = STYLE.wrap
    # B:H, inside the printed columns A:H
    ws.merge_cells(start_row=cur.row, start_column=2, end_row=cur.row, end_column=8)
    ws.row_dimensions[cur.row].height = 15 * (len(rec.sentence) // 95 + 1)
    sentence_row = cur.row
    cur.skip()
    if rec.note:    # legacy: what the exact power says of it (a shortfall in the warning's red)
        note = put_text(ws, cur.row, 2, rec.note,
                        font=STYLE.warning_font if rec.short else STYLE.note)
        note.alignment = STYLE.wrap
        ws.merge_cells(start_row=cur.row, start_column=2, end_row=cur.row, end_column=8)
        ws.row_dimensions[cur.row].height = 15 * (len(rec.note) // 95 + 1)
        cur.skip()
    cur.skip()
    headers = ("requirement", "label", "σ̂²", "m", "minD", "its n",
               f"power at the recommended n ({method})")
    for c, text in enumerate(headers, start=1):
        put_label(ws, cur.row, c, text, font=STYLE.bold,
                  fill=STYLE.header_fill).alignment = STYLE.header
    ws.row_dimensions[cur.row].height = 45
    cur.skip()
    for number, row in rec.requirements.iterrows():
        put_number(ws, cur.row, 1, number, number_format="0")
        put_text(ws, cur.row, 2, "" if row["label"] is None else row["label"])
        put_number(ws, cur.row, 3, row["variance"], number_format=fixed_format())
        put_number(ws, cur.row, 4, row["m"], number_format="0")
        put_number(ws, cur.row, 5, row["min_d"], number_format="0.00##")
        put_number(ws, cur.row, 6, row["n"], number_format=N_FMT)
        put_number(ws, cur.row, 7, row["power"], number_format=P_FMT)
        cur.skip()
    cur.skip()
    name_cell(cur.ws.parent, "decide_recommended_n", ws.title, sentence_row - 1, 2)
    name_cell(cur.ws.parent, "decide_sentence", ws.title, sentence_row, 2)
