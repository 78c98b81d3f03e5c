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

__all__ = ["add_charts_sheet", "SHEET", "CHART_ROWS", "style_series", "set_title", "title",
           "PALETTE"]

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


#: A chart title's size in points (bold), set rather than left to each spreadsheet's default:
#: LibreOffice draws an unsized title at 18 pt, where the calculators' titles took two lines.
TITLE_PT = 12
#: The titles of the Charts sheet's charts, which name a measure.
NAMED_TITLE_PT = 10


def set_title(chart, text: str, size: float = TITLE_PT) -> None:
    """Give ``chart`` the title ``text``, bold, at ``size`` points."""
    from openpyxl.chart.text import RichText, Text
    from openpyxl.chart.title import Title
    from openpyxl.drawing.text import (
        CharacterProperties,
        Paragraph,
        ParagraphProperties,
        RegularTextRun,
    )

    font = CharacterProperties(sz=round(size * 100), b=True)
    chart.title = Title(tx=Text(rich=RichText(p=[Paragraph(
        pPr=ParagraphProperties(defRPr=font), r=[RegularTextRun(rPr=font, t=text)])])),
        overlay=False)


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

        by_m = _chart(title(name, "n vs m"), "m (number of systems)",
                      f"{method} n (topics, log scale)")
        xs = Reference(src, min_col=c0, min_row=place.first_row, max_row=place.last_row)
        for j in range(n_d):
            ys = Reference(src, min_col=c0 + 1 + j, min_row=place.first_row,
                           max_row=place.last_row)
            by_m.series.append(_series(ys, xs, f"minD = {t.min_ds[j]:g}", j))

        by_d = _chart(title(name, "n vs minD"), "minD (minimum detectable range)",
                      f"{method} n (topics, log scale)")
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


def _chart(text: str, x_title: str, y_title: str) -> ScatterChart:
    chart = ScatterChart()
    set_title(chart, text, NAMED_TITLE_PT)
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


#: Characters of a title that print on one line across a chart of the Charts sheet (15.5 cm,
#: the title at NAMED_TITLE_PT). Measured in LibreOffice (DejaVu Sans Bold, the widest of the
#: fonts it puts for Calibri): its unsized titles (18 pt) wrapped from 37 characters on; at
#: 11 pt the bundled titles of 50 fit and a cut name's 52 (underscores, no spaces) did not;
#: at 10 pt the cut titles of 54 print on one line (tests/generator/test_printing.py checks
#: it in the PDF, on its "long" workbook).
TITLE_CHARS = 54


def title(name: str, what: str, limit: int = TITLE_CHARS) -> str:
    """A chart's title: the measure ``name`` and ``what`` the chart plots, on one line. A
    name too long for it is cut in the middle (a matrix's measures differ in their end: "raw",
    "std-AB"); ``what`` is never cut.

    >>> title("MedNLPDoc raw recall", "n vs m")
    'MedNLPDoc raw recall: n vs m'
    >>> title("trec2004_robust_track_adhoc_average_precision_all_runs, std-AB", "n vs minD")
    'trec2004_robust_track_adho…all_runs, std-AB: n vs minD'
    """
    room = limit - len(what) - 2
    if len(name) > room:
        tail = (room - 1) * 2 // 5
        name = f"{name[:room - 1 - tail]}…{name[-tail:]}"
    return f"{name}: {what}"


def _series(values: Reference, xvalues: Reference, title: str, k: int) -> Series:
    series = Series(values, xvalues, title=title)
    style_series(series, k)
    return series
