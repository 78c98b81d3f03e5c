"""Charts: native scatter charts whose series point at the right cells of the Tables sheet."""

from __future__ import annotations

import functools
import math
import re
import zipfile

import openpyxl
import pytest
from topicsetsize.generator import bundled_spec, load_spec

import topicsetsize as tss

_REF = re.compile(r"^'?(?P<sheet>[^'!]+)'?!\$(?P<c1>[A-Z]+)\$(?P<r1>\d+)"
                  r"(?::\$(?P<c2>[A-Z]+)\$(?P<r2>\d+))?$")


def _resolve(wb, formula: str) -> list:
    """The values a chart reference such as 'Tables'!$B$9:$B$13 points at."""
    m = _REF.match(formula)
    assert m, formula
    ws = wb[m["sheet"]]
    cells = ws[f"{m['c1']}{m['r1']}:{m['c2'] or m['c1']}{m['r2'] or m['r1']}"]
    return [c.value for row in cells for c in row]


def _label(series) -> str:
    """A series' name: literal as written, or the cached text LibreOffice re-saves it as."""
    return series.tx.v or series.tx.strRef.strCache.pt[0].v


def _colour(fill) -> str:
    rgb = fill.srgbClr
    return rgb if isinstance(rgb, str) else rgb.val


def _title(chart) -> str:
    return "".join(r.t for p in chart.title.tx.rich.p for r in (p.r or []))


def _curves(chart) -> list:
    """A calculator chart's curves: its series but the last, the note that says why the
    chart is empty while an input is bad (generator.sheets.calculators.charts)."""
    return chart.series[:-1]


def _axis_title(axis) -> str:
    return "".join(r.t for p in axis.title.tx.rich.p for r in (p.r or []))


def _check_charts(wb, chart_wb=None):
    """Every measure: n against m (a series per minD), n against minD (a series per m)."""
    spec = load_spec(bundled_spec())
    charts = (chart_wb or wb)["Charts"]._charts
    assert len(charts) == 2 * len(spec.measures)
    for k, measure in enumerate(spec.measures):
        ms, min_ds = spec.grid(measure)
        table = tss.anova_table(spec.alpha, beta=spec.beta, variance=measure.variance,
                                ms=list(ms), min_ds=list(min_ds), method=spec.chart_method)
        by_m, by_d = charts[2 * k], charts[2 * k + 1]
        assert type(by_m).__name__ == type(by_d).__name__ == "ScatterChart"
        # the bundled names whole (at most 39 characters), on one line with what is plotted
        assert _title(by_m) == f"{measure.name}: n vs m"
        assert _title(by_d) == f"{measure.name}: n vs minD"
        for chart in (by_m, by_d):     # the method, in the axis that holds its n
            assert _axis_title(chart.y_axis) == f"{spec.chart_method} n (topics, log scale)"
        for chart in (by_m, by_d):   # every series its own colour, and marker or dash
            looks = [(_colour(s.graphicalProperties.line.solidFill),
                      s.marker.symbol, s.graphicalProperties.line.prstDash) for s in chart.series]
            assert len({c for c, _, _ in looks}) == len(looks)
            assert len({(m, d) for _, m, d in looks}) == len(looks)
            assert chart.y_axis.majorGridlines is not None
        assert len(by_m.series) == len(min_ds) and len(by_d.series) == len(ms)
        for j, s in enumerate(by_m.series):
            assert _label(s) == f"minD = {min_ds[j]:g}"
            assert _resolve(wb, s.xVal.numRef.f) == list(ms)
            assert _resolve(wb, s.yVal.numRef.f) == table.iloc[:, j].tolist()
        for i, s in enumerate(by_d.series):
            assert _label(s) == f"m = {ms[i]}"
            assert _resolve(wb, s.xVal.numRef.f) == list(min_ds)
            assert _resolve(wb, s.yVal.numRef.f) == table.iloc[i, :].tolist()


@pytest.mark.slow
def test_charts_reference_the_tables(built):
    wb = openpyxl.load_workbook(built.source["ntcir"])
    _check_charts(wb)
    chart = wb["Charts"]._charts[0]
    assert chart.y_axis.scaling.logBase == 10
    assert chart.x_axis.title is not None and chart.y_axis.title is not None


@pytest.mark.libreoffice
def test_charts_survive_libreoffice(batch):
    """LibreOffice keeps every chart and its references when it re-saves the file."""
    wb = openpyxl.load_workbook(batch.recalculated["ntcir"])
    _check_charts(wb)


@pytest.mark.slow
def test_charts_of_the_example_spec(built):
    wb = openpyxl.load_workbook(built.source["example"])
    assert len(wb["Charts"]._charts) == 4          # raw and std-AB, two charts each


# ------------------------------------------------ the calculators' n against minD (δ) charts
#: Per calculator: the title of its second chart, and per method the engine's minimum
#: detectable effect at n (the expected width for the CIs) at the sheet's inputs ``g(name)``.
_AGAINST = {
    "ANOVA": ("n against minD", lambda g, n, method: tss.anova_min_d(
        n, m=g("anova_m"), variance=g("anova_variance"), alpha=g("anova_alpha"),
        beta=g("anova_beta"), method=method)),
    "TTEST": ("n against minDt", lambda g, n, method: tss.ttest_min_dt(
        n, variance_t=g("ttest_variance_t"), alpha=g("ttest_alpha"), beta=g("ttest_beta"),
        method=method)),
    "ANOVA2": ("n against minD", lambda g, n, method: tss.anova2_min_d(
        n, m=g("anova2_m"), variance=g("anova2_variance"), alpha=g("anova2_alpha"),
        beta=g("anova2_beta"))),
    "TTEST2": ("n against minD", None),        # no engine function: checked by its power
    "CI": ("n against δ", lambda g, n, method: tss.ci_delta(
        n, variance_t=g("ci_variance_t"), alpha=g("ci_alpha"))),
    "CI2": ("n against δ", lambda g, n, method: tss.ci2_delta(
        n, variance=g("ci2_variance"), alpha=g("ci2_alpha"))),
}


def _check_n_against_effect(charts_wb, values_wb, rtol: float) -> int:
    """Every calculator's second chart plots n (y) against the engine's minimum detectable
    effect at that n (x), for the inputs on the sheet; returns the points checked."""
    from ..conftest import named

    def g(name):
        return named(values_wb, name)

    points = 0
    for sheet, (title, engine) in _AGAINST.items():
        chart = charts_wb[sheet]._charts[1]
        assert type(chart).__name__ == "ScatterChart"
        assert _title(chart).startswith(title)
        methods = [_label(s) for s in _curves(chart)]
        assert methods == (["legacy", "exact"] if sheet in ("ANOVA", "TTEST") else ["exact"])
        for s, method in zip(_curves(chart), methods):
            ns = _resolve(values_wb, s.yVal.numRef.f)
            effects = _resolve(values_wb, s.xVal.numRef.f)
            assert len(ns) >= 15 and ns == sorted(ns) and len(set(ns)) > 10
            for n, effect in zip(ns, effects):
                if engine is not None:
                    want = engine(g, int(n), method)
                else:      # TTEST2: the power at the effect is 1 − β, and not just below it
                    power = functools.partial(tss.ttest2_power, int(n), variance=g(
                        "ttest2_variance"), alpha=g("ttest2_alpha"))
                    assert power(min_d=effect * (1 + rtol)) >= 1 - g("ttest2_beta")
                    assert power(min_d=effect * (1 - 100 * rtol)) < 1 - g("ttest2_beta")
                    want = effect
                assert math.isclose(effect, want, rel_tol=rtol), (sheet, method, n, effect)
                points += 1
    return points


@pytest.mark.slow
def test_n_against_min_d_charts_saved_values(built):
    """The values saved with the workbook (generator.saved.evaluator) are the engine's minD at n."""
    path = built.source["ntcir"]
    points = _check_n_against_effect(openpyxl.load_workbook(path),
                                     openpyxl.load_workbook(path, data_only=True), 1e-9)
    assert points == 15 * 4 + 15 * 2 + 25 * 2


@pytest.mark.libreoffice
def test_n_against_min_d_charts_in_libreoffice(batch):
    """Recalculated by LibreOffice, at the starting and at edited inputs."""
    for name in ("ntcir", "ntcir_edited"):
        wb = openpyxl.load_workbook(batch.recalculated[name])
        assert _check_n_against_effect(wb, batch.values(name), 1e-8) > 100


# ------------------------------------------ the calculators' power (CI: width) against n charts
def _approx_width(n: int, variance: float, alpha: float, unpaired: bool) -> float:
    """The CI width with E[s] ≈ σ(1 − 1/(4φ)) (spreadsheet.formulas), from scipy's t quantile."""
    from scipy import stats

    df = 2 * (n - 1) if unpaired else n - 1
    per = math.sqrt((2 if unpaired else 1) / n)
    return 2 * math.sqrt(variance) * stats.t.isf(alpha / 2, df) * (1 - 1 / (4 * df)) * per


#: Per calculator: the title of its first chart, and per series name the engine's value at n
#: (the power, or the expected width) at the sheet's inputs ``g(name)``; the flat line last.
_POWER = {
    "ANOVA": ("Power against n", lambda g, n, s: tss.anova_power(
        n, m=g("anova_m"), min_d=g("anova_min_d"), variance=g("anova_variance"),
        alpha=g("anova_alpha"), method=s), lambda g: 1 - g("anova_beta")),
    "TTEST": ("Power against n (minDt", lambda g, n, s: tss.ttest_power(
        n, min_dt=g("ttest_min_dt"), variance_t=g("ttest_variance_t"), alpha=g("ttest_alpha"),
        method=s), lambda g: 1 - g("ttest_beta")),
    "ANOVA2": ("Power against n", lambda g, n, s: tss.anova2_power(
        n, m=g("anova2_m"), min_d=g("anova2_min_d"), variance=g("anova2_variance"),
        alpha=g("anova2_alpha")), lambda g: 1 - g("anova2_beta")),
    "TTEST2": ("Power against n", lambda g, n, s: tss.ttest2_power(
        n, min_d=g("ttest2_min_d"), variance=g("ttest2_variance"), alpha=g("ttest2_alpha")),
        lambda g: 1 - g("ttest2_beta")),
    "CI": ("Expected CI width against n", lambda g, n, s: (
        tss.ci_delta(n, variance_t=g("ci_variance_t"), alpha=g("ci_alpha")) if s == "exact"
        else _approx_width(n, g("ci_variance_t"), g("ci_alpha"), False)),
        lambda g: g("ci_delta")),
    "CI2": ("Expected CI width against n", lambda g, n, s: (
        tss.ci2_delta(n, variance=g("ci2_variance"), alpha=g("ci2_alpha")) if s == "exact"
        else _approx_width(n, g("ci2_variance"), g("ci2_alpha"), True)),
        lambda g: g("ci2_delta")),
}


def _check_power_charts(charts_wb, values, rtol: float) -> int:
    """Every calculator's first chart plots the engine's power (CI: expected width, exact and
    approximate) at each n, and the flat 1 − β (δ) line; ``values`` is {sheet: {cell: value}}
    or a workbook of values. Returns the points checked."""
    def value(ref: str) -> list:
        return _resolve(values, ref)

    def g(name):
        sheet, coord = next(iter(charts_wb.defined_names[name].destinations))
        return values[sheet][coord.replace("$", "")].value

    points = 0
    for sheet, (title, engine, flat) in _POWER.items():
        chart = charts_wb[sheet]._charts[0]
        assert _title(chart).startswith(title), (sheet, _title(chart))
        *curves, line = _curves(chart)
        assert len(curves) == (2 if sheet in ("ANOVA", "TTEST", "CI", "CI2") else 1)
        for s in _curves(chart):
            ns = value(s.xVal.numRef.f)
            assert len(ns) >= 20 and ns == sorted(ns) and len(set(ns)) > 10, sheet
            ys = value(s.yVal.numRef.f)
            for n, y in zip(ns, ys):
                want = flat(g) if s is line else engine(g, int(n), _label(s))
                if isinstance(y, str) or (isinstance(want, float) and math.isnan(want)):
                    assert _label(s) == "legacy" and math.isnan(want), (sheet, n, y, want)
                else:
                    assert math.isclose(y, want, rel_tol=rtol), (sheet, _label(s), n, y, want)
                points += 1
    return points


@pytest.mark.slow
def test_power_charts_saved_values(built):
    """The values saved with the workbook (generator.saved.evaluator) are the engine's at each n."""
    path = built.source["ntcir"]
    assert _check_power_charts(openpyxl.load_workbook(path),
                               openpyxl.load_workbook(path, data_only=True), 1e-9) > 300


def _power_chart_cells(charts_wb, sheet: str) -> list[tuple[str, str]]:
    """(sheet, cell) of every x and y value the power (width) chart of ``sheet`` plots."""
    from openpyxl.utils import range_boundaries

    out = []
    for s in _curves(charts_wb[sheet]._charts[0]):
        for ref in (s.xVal.numRef.f, s.yVal.numRef.f):
            where, _, cells = ref.rpartition("!")
            c1, r1, c2, r2 = range_boundaries(cells.replace("$", ""))
            out += [(where.strip("'"), charts_wb[sheet].cell(r, c).coordinate)
                    for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]
    return out


@pytest.mark.slow
def test_power_charts_plot_nothing_while_an_input_is_bad_saved_values(built):
    """The generator's own evaluation of a workbook with bad inputs (as in the LibreOffice
    test below): every plotted cell of a sheet whose status is not OK is #N/A."""
    from topicsetsize.generator.saved.evaluator import evaluate_workbook

    bad = 0
    for name in built.bad_names[:2]:
        wb = openpyxl.load_workbook(built.source[name])
        values = evaluate_workbook(wb)
        for sheet in _POWER:
            sheet_, coord = next(iter(wb.defined_names[f"{sheet.lower()}_status"].destinations))
            if values[sheet_][coord.replace("$", "")].startswith("OK"):
                continue
            bad += 1
            cells = _power_chart_cells(wb, sheet)
            assert len(cells) >= 4 * 20
            assert {values[s][c] for s, c in cells} == {"#N/A"}, (name, sheet)
    assert bad >= 10


@pytest.mark.libreoffice
def test_power_charts_in_libreoffice(batch):
    """Recalculated by LibreOffice, at the starting and at edited inputs: the engine's powers
    (widths) at each n."""
    for name in ("ntcir", "ntcir_edited"):
        wb = openpyxl.load_workbook(batch.recalculated[name])
        assert _check_power_charts(wb, batch.values(name), 1e-8) > 300


@pytest.mark.libreoffice
def test_charts_plot_nothing_while_an_input_is_bad_in_libreoffice(batch):
    """While an input of a calculator is bad, every x and y its power (width) chart plots is
    #N/A, and so is every effect (x) and every n (y) of its n-against-effect chart: gaps, the
    charts show nothing from the fallback values (issue 26.2: the n kept its fallback, a
    rising curve against the point index). The emptied power chart keeps power's 0–1 axis,
    not the 0–15 LibreOffice invents for an empty chart."""
    from .._edit import charts_of
    from ..conftest import named

    bad = 0
    for name in batch.bad_names:        # the charts as LibreOffice re-saved them, read alone
        values, charts = batch.values(name), charts_of(batch.recalculated[name])
        for sheet in _POWER:
            if named(values, f"{sheet.lower()}_status").startswith("OK"):
                continue
            bad += 1
            assert {values[s][c].value for s, c in _power_chart_cells(charts, sheet)} \
                == {"#N/A"}, (name, sheet)
            for s in _curves(charts[sheet]._charts[1]):
                for ref in (s.xVal, s.yVal):
                    assert set(_resolve(values, ref.numRef.f)) == {"#N/A"}, (name, sheet)
            scaling = charts[sheet]._charts[0].y_axis.scaling
            if not sheet.startswith("CI"):         # a width has no range known beforehand
                assert (scaling.min, scaling.max) == (0, 1), sheet
    assert bad >= 40


# ------------------------------------------------------ what a calculator's empty chart says
def _check_notes(charts_wb, values) -> tuple[int, int]:
    """Every calculator chart's last series is the note: named by a cell that reads
    CHART_NOTE while an input of its sheet is bad, and is blank otherwise; its three points
    are numbers while an input is bad (the middle one, labelled with the name, halfway
    between the others) and #N/A otherwise, at an x inside the curves' x range, so that the
    note leaves the axes of a good chart as they were. ``values`` is a workbook of values.
    Returns (charts checked with a bad input, with good inputs)."""
    from topicsetsize.generator.sheets.calculators.charts import CHART_NOTE

    from ..conftest import named

    counts = [0, 0]
    for sheet in _POWER:
        bad = not named(values, f"{sheet.lower()}_status").startswith("OK")
        for chart in charts_wb[sheet]._charts:
            note = chart.series[-1]
            (text,) = _resolve(values, note.tx.strRef.f)
            xs, ys = (_resolve(values, ref.numRef.f) for ref in (note.xVal, note.yVal))
            (label,) = note.dLbls.dLbl
            assert (label.idx, label.showSerName, note.dLbls.showSerName) == (1, True, False)
            assert [(e.idx, e.delete) for e in chart.legend.legendEntry] == \
                [(len(chart.series) - 1, True)]
            if bad:
                assert text == CHART_NOTE, (sheet, text)
                assert all(isinstance(v, (int, float)) for v in xs + ys), (sheet, xs, ys)
                assert xs[1] == (xs[0] + xs[2]) / 2 and ys[1] == (ys[0] + ys[2]) / 2
            else:
                assert text in ("", None), (sheet, text)
                assert set(ys) == {"#N/A"}, (sheet, ys)
                plotted = [x for s in _curves(chart) for x in _resolve(values, s.xVal.numRef.f)
                           if isinstance(x, (int, float))]
                assert plotted and all(min(plotted) <= x <= max(plotted) for x in xs), \
                    (sheet, xs, min(plotted), max(plotted))
            counts[not bad] += 1
    return counts[0], counts[1]


@pytest.mark.slow
def test_charts_carry_the_note_saved_values(built):
    """The values saved with the bundled workbook (generator.saved.evaluator): every input
    good, every note blank and undrawn."""
    path = built.source["ntcir"]
    assert _check_notes(openpyxl.load_workbook(path),
                        openpyxl.load_workbook(path, data_only=True)) == (0, 12)


@pytest.mark.slow
@pytest.mark.libreoffice
def test_an_empty_chart_says_why_in_libreoffice(batch):
    """Recalculated by LibreOffice: while an input is bad, the charts (whose curves are empty,
    above) name the reason in the middle of their plot; with good inputs they show nothing
    more than their curves. LibreOffice draws an empty chart with axes of its own (n from 0
    to 30), which read as a real chart with nothing in it."""
    bad = good = 0
    charts: dict[bytes, openpyxl.Workbook] = {}     # workbooks by their charts' parts
    for name in (*batch.bad_names, "ntcir", "ntcir_edited", "decide"):
        # The bad_k workbooks are the Decide workbook with other inputs typed in (tests/
        # generator/_edit.py): their charts are byte for byte its own, so one is loaded for all
        key = _chart_parts(batch.source[name])
        if key not in charts:
            charts[key] = openpyxl.load_workbook(batch.source[name])
        counts = _check_notes(charts[key], batch.values(name))
        bad, good = bad + counts[0], good + counts[1]
    assert bad >= 80 and good >= 40, (bad, good)
    assert len(charts) == 2         # decide's (and its bad_k's), ntcir's (and ntcir_edited's)


def _chart_parts(path) -> bytes:
    """The bytes of a workbook's charts, drawings and the sheets' links to them."""
    with zipfile.ZipFile(path) as book:
        return b"\0".join(name.encode() + b"\0" + book.read(name)
                           for name in sorted(book.namelist())
                           if name.startswith(("xl/charts/", "xl/drawings/",
                                               "xl/worksheets/_rels/", "xl/workbook.xml")))


@pytest.mark.slow
def test_the_n_against_min_d_chart_at_small_n(tmp_path):
    """A review (2026-12-07), at m = 3, minD = .13, σ̂² = .0023 (n 3 legacy, 4 exact): the exact
    curve had no point from n = 2 to 8 (its secant, 6 steps from the χ² limit, had not
    settled) and the legacy one plotted a minD at n = 2, where the legacy approximation has
    none. Now every n of the exact curve is the engine's minD, and the legacy curve leaves out
    exactly the n where the engine's legacy minD is undefined (saved values)."""
    import datetime as dt

    from topicsetsize.generator import spec_from_dict, write_workbook

    inputs = dict(alpha=0.05, beta=0.2, variance=0.0023, m=3)
    path = write_workbook(spec_from_dict({"title": "small n", "calculators": {"anova": {
        **inputs, "min_d": 0.13, "n": 4}}}), tmp_path / "small.xlsx", generated=dt.date(2024, 1, 2))
    chart = openpyxl.load_workbook(path)["ANOVA"]._charts[1]
    ws = openpyxl.load_workbook(path, data_only=True)["ANOVA"]
    for series in _curves(chart):
        method = _label(series)
        first = int(_REF.match(series.yVal.numRef.f)["r1"])
        shown = zip(_resolve(ws.parent, series.yVal.numRef.f),
                    _resolve(ws.parent, series.xVal.numRef.f))
        ns = [ws.cell(first + i, 1).value for i in range(15)]       # the table's n column
        assert min(ns) == 2
        for n, (plotted, effect) in zip(ns, shown):
            try:
                want = float(tss.anova_min_d(n, method=method, **inputs))
            except tss.InputError:                      # the legacy approximation at tiny n
                assert method == "legacy" and (plotted, effect) == ("#N/A", "#N/A"), n
                continue
            assert plotted == n and math.isclose(effect, want, rel_tol=1e-9), (method, n)
