"""The Charts sheet: native spreadsheet charts drawn from the Tables sheet.

For every measure, two scatter charts with lines, as in the CIKM 2014 paper's Figures 1–3:
n against m with one series per minD, and n against minD with one series per m (n on a log
scale, since it spans orders of magnitude). The series
refer to the cells of the Tables sheet, so the charts follow the tables.
"""

from __future__ import annotations

from openpyxl.chart import Reference, ScatterChart, Series
from openpyxl.chart.axis import ChartLines
from openpyxl.worksheet.pagebreak import Break

from ..spreadsheet.cells import STYLE, clean_text, put_label
from .tables_sheet import SHEET as TABLES
from .tables_sheet import MeasureTables, TablePlace

__all__ = ["add_charts_sheet", "SHEET", "CHART_ROWS", "style_series", "PALETTE"]

#: Distinct series colours (Okabe-Ito, readable with colour-vision deficiencies), markers and
#: dashes: series k gets PALETTE[k], MARKERS[k] and DASHES[k] (cycling), so that neighbouring
#: series differ in all three.
PALETTE = ("0072B2", "D55E00", "009E73", "CC79A7", "E69F00", "56B4E9", "000000", "F0E442")
MARKERS = ("circle", "square", "triangle", "diamond", "x", "star", "plus", "dash")
DASHES = ("solid", "dash", "sysDot", "dashDot", "lgDash", "sysDash", "lgDashDot", "solid")


def style_series(series, k: int, *, marker: bool = True) -> None:
    """Give series ``k`` its own colour, marker and dash pattern."""
    from openpyxl.chart.shapes import GraphicalProperties
    from openpyxl.drawing.line import LineProperties

    colour = PALETTE[k % len(PALETTE)]
    series.graphicalProperties = GraphicalProperties(
        ln=LineProperties(solidFill=colour, w=22225, prstDash=DASHES[k % len(DASHES)]))
    if marker:
        series.marker.symbol = MARKERS[k % len(MARKERS)]
        series.marker.size = 6
        series.marker.graphicalProperties = GraphicalProperties(solidFill=colour)
        series.marker.graphicalProperties.line.solidFill = colour
    else:
        series.marker.symbol = "none"
    series.smooth = False


SHEET = "Charts"
#: Rows between the tops of two measures' charts.
CHART_ROWS = 20


def add_charts_sheet(wb, tables: list[MeasureTables], places: list[TablePlace],
                     method: str) -> None:
    """Two charts per measure, from the ``method`` ("legacy" or "exact") table."""
    ws = wb.create_sheet(SHEET)
    src = wb[TABLES]
    put_label(ws, 1, 1, f"Topic set size n against m and against minD: the {method} method's "
                        f"tables on the {TABLES} sheet", font=STYLE.title)
    for k, (t, place) in enumerate(zip(tables, places)):
        c0 = place.first_col[method]
        n_d, n_m = len(t.min_ds), len(t.ms)
        name = clean_text(t.measure.name)

        by_m = _chart(f"{_short(name)}: n vs m ({method})", "m (number of systems)",
                      "n (topics, log scale)")
        xs = Reference(src, min_col=c0, min_row=place.first_row, max_row=place.last_row)
        for j in range(n_d):
            ys = Reference(src, min_col=c0 + 1 + j, min_row=place.first_row,
                           max_row=place.last_row)
            by_m.series.append(_series(ys, xs, f"minD = {t.min_ds[j]:g}", j))

        by_d = _chart(f"{_short(name)}: n vs minD ({method})", "minD (minimum detectable range)",
                      "n (topics, log scale)")
        xs = Reference(src, min_col=c0 + 1, max_col=c0 + n_d, min_row=place.header_row)
        for i in range(n_m):
            row = place.first_row + i
            ys = Reference(src, min_col=c0 + 1, max_col=c0 + n_d, min_row=row)
            by_d.series.append(_series(ys, xs, f"m = {t.ms[i]}", i))

        top = 3 + k * CHART_ROWS
        ws.add_chart(by_m, f"A{top}")
        ws.add_chart(by_d, f"J{top}")
        if k % 2 == 1 and k + 1 < len(tables):     # two measures a page: no chart is cut
            ws.row_breaks.append(Break(id=top + CHART_ROWS - 2))
    ws.print_area = f"A1:S{3 + len(tables) * CHART_ROWS}"
    ws.print_title_rows = "1:1"                 # the heading on every page


def _chart(title: str, x_title: str, y_title: str) -> ScatterChart:
    chart = ScatterChart()
    chart.title = title
    chart.style = 2
    chart.x_axis.title = x_title
    chart.y_axis.title = y_title
    chart.height, chart.width = 9, 15.5          # cm
    chart.legend.position = "r"
    # openpyxl >= 3.1 hides axes unless told otherwise
    chart.x_axis.delete = False
    chart.y_axis.delete = False
    chart.y_axis.scaling.logBase = 10          # n spans orders of magnitude
    chart.y_axis.majorGridlines = ChartLines()   # gridlines at 1, 10, 100, ... topics
    chart.x_axis.majorGridlines = None
    return chart


def _short(name: str, limit: int = 44) -> str:
    """A measure name short enough for a chart title."""
    return name if len(name) <= limit else name[:limit - 1] + "…"


def _series(values: Reference, xvalues: Reference, title: str, k: int) -> Series:
    series = Series(values, xvalues, title=title)
    style_series(series, k)
    return series
