"""Charts: native scatter charts whose series point at the right cells of the Tables sheet."""

from __future__ import annotations

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
