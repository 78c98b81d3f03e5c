"""Charts: native scatter charts whose series point at the right cells of the Tables sheet."""

from __future__ import annotations

import functools
import math
import re

import openpyxl
import pytest

import topicsetsize as tss
from generator import bundled_spec, load_spec

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


def _short(name: str) -> str:
    return name if len(name) <= 44 else name[:43] + "…"


def _title(chart) -> str:
    return "".join(r.t for p in chart.title.tx.rich.p for r in (p.r or []))


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
        assert _title(by_m) == f"{_short(measure.name)}: n vs m ({spec.chart_method})"
        assert _title(by_d) == f"{_short(measure.name)}: n vs minD ({spec.chart_method})"
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
    from .conftest import named

    def g(name):
        return named(values_wb, name)

    points = 0
    for sheet, (title, engine) in _AGAINST.items():
        chart = charts_wb[sheet]._charts[1]
        assert type(chart).__name__ == "ScatterChart"
        assert _title(chart).startswith(title)
        methods = [_label(s) for s in chart.series]
        assert methods == (["legacy", "exact"] if sheet in ("ANOVA", "TTEST") else ["exact"])
        for s, method in zip(chart.series, methods):
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


def test_n_against_min_d_charts_saved_values(built):
    """The values saved with the workbook (generator.evaluate) are the engine's minD at n."""
    path = built.source["ntcir"]
    points = _check_n_against_effect(openpyxl.load_workbook(path),
                                     openpyxl.load_workbook(path, data_only=True), 1e-9)
    assert points == 15 * 4 + 15 * 2 + 25 * 2


@pytest.mark.libreoffice
def test_n_against_min_d_charts_in_libreoffice(batch):
    """Recalculated by LibreOffice, at the starting and at edited inputs; and while an input
    is bad, the chart's effects are #N/A (gaps: the chart shows nothing)."""
    for name in ("ntcir", "ntcir_edited"):
        wb = openpyxl.load_workbook(batch.recalculated[name])
        assert _check_n_against_effect(wb, batch.values(name), 1e-8) > 100
    from .conftest import named

    bad = 0
    for name in batch.bad_names:
        values, charts = batch.values(name), openpyxl.load_workbook(batch.recalculated[name])
        for sheet in ("ANOVA", "TTEST", "ANOVA2", "TTEST2"):
            if named(values, f"{sheet.lower()}_status").startswith("OK"):
                continue
            bad += 1
            for s in charts[sheet]._charts[1].series:
                assert set(_resolve(values, s.xVal.numRef.f)) == {"#N/A"}, (name, sheet)
    assert bad >= 40
