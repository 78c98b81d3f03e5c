"""Assemble a workbook from a spec and write it atomically.

Sheets, in order: About, ANOVA, TTEST, CI, ANOVA2, TTEST2, CI2 (live calculators), Decide,
Budget (when the spec has pool depths), Tables and Charts (when the spec has measures or
matrices), Variance and Report (when it has matrices), and a hidden Helpers sheet.
"""

from __future__ import annotations

import datetime as _dt
import gc
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

from openpyxl import Workbook

from topicsetsize.atomic import atomic_path
from topicsetsize.errors import InputError

from .content.calculators import calculators
from .content.matrix_estimates import estimate, measures_of, read_note
from .content.spec import Spec
from .saved.cached import write_with_cached_values
from .saved.evaluator import evaluate_workbook
from .sheets import report_sheet
from .sheets.about_sheet import add_about_sheet
from .sheets.budget_sheet import add_budget_sheet
from .sheets.calculators import add_calculators, helper_sheet, measure_list
from .sheets.charts_sheet import add_charts_sheet
from .sheets.decide_sheet import add_decide_sheet
from .sheets.tables_sheet import add_pair_tables, add_tables_sheet, compute_tables
from .sheets.variance_sheet import add_variance_sheet
from .spreadsheet.formulas import POISSON_TERMS
from .spreadsheet.rows import shared_templates

__all__ = ["build_workbook", "write_workbook", "count_steps"]

#: How a calculator's variance input names a score matrix it comes from.
FROM_MATRIX = "from the matrix: "

#: What the About sheet says of each sheet but the calculators (whose declarations say it).
_DESCRIPTIONS = {
    "Decide": "a candidate n and minD: one-way ANOVA power per m (live), the minimum "
              "detectable minD per m and the recommendation over the spec's requirements "
              "(precomputed)",
    "Budget": "pool depths: required n (precomputed), cost = n × judged documents per topic "
              "against a budget, the cheapest depth, and a chart of n against the cost per topic",
    "Tables": "topic set size tables per measure (ANOVA: rows m, columns minD, legacy and exact; "
              "paired t-test and CI: rows measure)",
    "Charts": "n against m (one line per minD) and n against minD (one line per m)",
    "Variance": "one Table-1 row per score matrix: runs, topics, V_E raw and std-AB, τ [CI]",
    report_sheet.SHEET: report_sheet.DESCRIPTION,
}


def count_steps(spec: Spec) -> int:
    """Progress steps of :func:`build_workbook` (for a progress bar)."""
    measures = len(spec.measures) + sum(len(m.scores) for m in spec.matrices)
    return len(spec.matrices) + 2 * measures + 2


def _estimate(spec: Spec, k: int, matrix):
    """The estimates of the spec's ``k``-th matrix; an error in a matrix that the spec file
    gives (not ``--matrix``'s: no ``base``) names the spec and the key, and the spec's own key
    for what the command line's option would do (a review: "nope.csv: no such file or folder"
    alone, and --drop-incomplete-topics advised where a spec refuses it)."""
    try:
        return estimate(matrix)
    except (InputError, OSError) as exc:
        if matrix.base is None:
            raise
        text = (f"{exc.filename}: {exc.strerror}" if isinstance(exc, OSError) and exc.filename
                else str(exc)).replace("drop_incomplete_topics=True (--drop-incomplete-topics)",
                                       "drop_incomplete_topics = true in that table").replace(
                                           " (--drop-incomplete-topics)", "")
        raise InputError(f"{spec.source}: matrices[{k}] ({matrix.name}): {text}") from None


def build_workbook(spec: Spec, *, tick: Callable[[str], None] | None = None,
                   generated: _dt.date | None = None) -> Workbook:
    """Build the workbook of ``spec`` in memory.

    Parameters
    ----------
    spec : Spec
        From :func:`generator.load_spec` or :func:`generator.spec_from_dict`.
    tick : callable, optional
        Called with a short description after each step (see :func:`count_steps`).
    generated : datetime.date, optional
        The date the About sheet shows (default today).

    Returns
    -------
    openpyxl.Workbook

    Examples
    --------
    >>> from topicsetsize.generator import spec_from_dict
    >>> wb = build_workbook(spec_from_dict({"title": "calculators only"}))
    >>> wb.sheetnames
    ['About', 'ANOVA', 'TTEST', 'CI', 'ANOVA2', 'TTEST2', 'CI2', 'Decide', 'Helpers']
    """
    tick = tick or (lambda text: None)
    estimates = []
    for k, matrix in enumerate(spec.matrices, 1):
        estimates.append(_estimate(spec, k, matrix))
        tick(f"read {matrix.name}: {read_note(estimates[-1])}")
    measures = list(spec.measures) + [m for e in estimates for m in measures_of(e)]
    tables = compute_tables(spec, measures, tick)

    wb = Workbook()
    wb.remove(wb.active)
    k_range = helper_sheet(wb, POISSON_TERMS)
    from_matrices = [m for e in estimates for m in measures_of(e)]
    picker = measure_list(wb, from_matrices) if from_matrices else None
    values = _starting_values(spec, estimates)
    add_calculators(wb, values, k_range, picker)
    anova = values.get("anova", {})
    source = anova.get("_source", {}).get("variance", "")
    add_decide_sheet(wb, spec, k_range, anova.get("variance", 0.0601),
                     source if source.startswith(FROM_MATRIX) else None)
    if spec.pool_depths:
        add_budget_sheet(wb, spec)
    tick("calculators")
    if tables:
        places = add_tables_sheet(wb, spec, tables)
        add_pair_tables(wb, spec, [t.measure for t in tables])
        add_charts_sheet(wb, tables, places, spec.chart_method)
    if estimates:
        add_variance_sheet(wb, estimates)
        report_sheet.add_report_sheet(wb, estimates)
    wb.move_sheet("Helpers", offset=len(wb.sheetnames) - 1)
    descriptions = {c.sheet: c.description for c in calculators()} | _DESCRIPTIONS
    add_about_sheet(wb, spec, {s: descriptions[s] for s in wb.sheetnames if s in descriptions},
                    generated=generated, estimates=estimates)
    wb.active = 1                     # open on the ANOVA calculator
    wb["ANOVA"].sheet_view.tabSelected = True
    footer = _footer(spec, generated)
    for ws in wb.worksheets:
        _page_setup(ws, footer)
    wb.calculation.fullCalcOnLoad = True
    return wb


def _starting_values(spec: Spec, estimates) -> dict:
    """The calculators' starting values: the spec's, and where it gives no variance, the
    estimate of its first score matrix that the design uses (the first of its scores, raw or
    std-AB), as its declaration says (:class:`~content.calculators.StartVariance`): V_E (the
    one-way within-system variance) or the two-way V_E2, times its factor (σ̂t² = 2·V_E). The
    matrix is the spec's ``start_from`` (the first one added by ``--matrix``), else its first.
    Each such input names its source (``values[calc]["_source"]``)."""
    values = {calc: dict(v) for calc, v in spec.calculators.items()}
    if estimates:
        e = next((x for x in estimates if x.spec.name == spec.start_from), estimates[0])
        raw = e.spec.scores[0] == "raw"
        label = "raw" if raw else "std-AB"
        v = float(e.summary.var_raw if raw else e.summary.var_std_ab)
        v2 = float(e.summary.var2_raw if raw else e.summary.var2_std_ab)
        sources = {"one-way": (v, f"V_E of {e.spec.name}, {label}"),
                   "two-way": (v2, f"two-way V_E2 of {e.spec.name}, {label}")}
        for calc in calculators():
            value, source = sources[calc.variance.source]
            if calc.variance.factor != 1:
                value, source = calc.variance.factor * value, f"{calc.variance.factor}·{source}"
                if calc.variance.source == "one-way":   # what it leaves out, in the data
                    source += (f" (2·V_E2 = {2 * v2:.4g}: the mean, over its pairs of runs, of "
                               "the variance of their per-topic differences)")
            start = values.setdefault(calc.key, {})
            if calc.variance.input not in start:
                start[calc.variance.input] = value
                start.setdefault("_source", {})[calc.variance.input] = (
                    f"{FROM_MATRIX}{source}")
    # Where no matrix gives a variance, it says where it comes from (a review, 2026-12-08: the
    # default workbook's TTEST 0.04 and CI 0.05 were attributed to nothing): the spec, or the
    # calculator's placeholder (a review, 2026-12-07: the default workbook's 0.0601, a one-way
    # V_E, read as a V_E2).
    for calc in calculators():
        start = values.setdefault(calc.key, {})
        if calc.variance.input not in start.get("_source", {}):
            start.setdefault("_source", {})[calc.variance.input] = _unestimated(
                calc.variance, given=calc.variance.input in start, spec=spec)
    return values


def _unestimated(variance, *, given: bool, spec: Spec) -> str:
    """Where a calculator's starting ``variance`` (a :class:`~content.calculators.StartVariance`)
    comes from when no matrix gives it: the spec (``given``), or the calculator's placeholder."""
    if given:
        name = "" if spec.source == "<spec>" else f" {Path(spec.source).name}"
        return f"as the spec{name} gives it, not estimated here"
    if variance.source == "two-way":
        return ("a placeholder, a one-way V_E of AIRS 2016 Table 1; a two-way V_E2 is smaller "
                "(Robust04 AP: .0132, V_E .0451): `topicsetsize variance FILE` gives it")
    wanted = "V_E" if variance.factor == 1 else "2·V_E or 2·V_E2"
    return f"a placeholder, not from data: {wanted} of `topicsetsize variance FILE`"


def _footer(spec, generated) -> tuple[str, str]:
    """The printed pages' footer: what the page is (the sheet, its page of how many) and where
    it comes from (the spec's file name, the names of its score matrices, topicsetsize's
    version, the day it was generated), so that a page read on its own says both. Only the
    spec's file name, never a path; the header and footer codes ``&`` in it are doubled
    (printed as they are)."""
    from topicsetsize import __version__

    date = (generated or _dt.date.today()).isoformat()
    source = Path(spec.source).name
    # and the score matrices the variances come from, by their names in the workbook (a
    # review, 2026-12-07: a --matrix workbook's pages named the default spec alone)
    names = ", ".join(m.name for m in spec.matrices)
    data = f", data {names if len(names) <= 60 else names[:59] + '…'}" if names else ""
    return ("&A, page &P of &N",
            f"topicsetsize {__version__}, spec {source}{data}, generated {date}".replace(
                "&", "&&"))


def _page_setup(ws, footer: tuple[str, str]) -> None:
    """Landscape, one page wide (unless the sheet sets its own scale), the footer on every
    page (:func:`_footer`), and protected (no password: it only guards against overwriting a
    formula by accident; Review > Unprotect lifts it). Rows may still be
    shown and hidden, so the grouped workings can be opened."""
    ws.oddFooter.left.text, ws.oddFooter.right.text = footer
    ws.oddFooter.left.size = ws.oddFooter.right.size = 8
    ws.page_setup.orientation = "landscape"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    if ws.page_setup.scale is None:         # a sheet without its own print scale
        ws.page_setup.fitToWidth, ws.page_setup.fitToHeight = 1, 0
        ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.page_margins.left = ws.page_margins.right = 0.4
    # the footer 0.2 inch from the paper's edge, within the 0.5 inch margin (LibreOffice leaves
    # out a footer at openpyxl's 0.3 inch: the 0.2 inch left above it cannot hold its line)
    ws.page_margins.top = ws.page_margins.bottom = 0.5
    ws.page_margins.footer = 0.2
    ws.print_options.gridLines = False
    if ws.sheet_state == "visible":
        ws.protection.sheet = True
        ws.protection.formatRows = False          # False = allowed: show/hide rows
        ws.protection.formatColumns = False
        ws.protection.formatCells = True
        ws.protection.selectLockedCells = False
        ws.protection.selectUnlockedCells = False


@contextmanager
def _no_cyclic_gc(restart: bool = True):
    """Python's cyclic garbage collector paused for the block (and restored after it, unless
    not ``restart``).

    A workbook is some 30,000 cells, their styles and the evaluator's values: objects that all
    live until the file is written, which the collector would scan again and again for cycles
    to free (about 0.2 s of the default workbook's CPU). Reference counting still frees
    everything else at once. Restarted, the collector first scans every object made in the
    block (about 0.025 s).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled and restart:
            gc.enable()


def write_workbook(spec: Spec, out, *, tick: Callable[[str], None] | None = None,
                   generated: _dt.date | None = None, restart_gc: bool = True) -> Path:
    """Build the workbook of ``spec`` and write it to ``out`` atomically; return the path.

    Python's cyclic garbage collector is paused while the workbook is built and written;
    ``restart_gc=False`` leaves it paused after (for a process that ends once the workbook is
    written: the ``workbook`` command, which spares the collector's scan of the workbook's
    objects; anywhere else the collector must run again).
    """
    out = Path(out)
    if out.suffix.lower() != ".xlsx":
        raise InputError(f"{out}: the workbook must be written to an .xlsx file")
    with _no_cyclic_gc(restart_gc):
        wb = build_workbook(spec, tick=tick, generated=generated)
        values = evaluate_workbook(wb, shared_templates(wb))
        with atomic_path(out) as tmp:
            write_with_cached_values(wb, tmp, values)
    if tick:
        tick("saved")
    return out
