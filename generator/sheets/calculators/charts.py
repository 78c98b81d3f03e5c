"""The two small charts beside a calculator's answers (the power, or the expected width,
against n; n against the effect), and what they show while an input is bad.

While an input is bad every plotted cell is #N/A, so the curves are empty, and a spreadsheet
draws an empty chart with axes of its own making (LibreOffice: n from 0 to 30), which reads as
a real chart with nothing in it. Each chart therefore carries one more series, the *note*
(:func:`note_block`): three points whose middle one is labelled with the series' name, a cell
that reads :data:`CHART_NOTE` while an input is bad and is blank otherwise. While the inputs
are good its points have no y (#N/A: nothing drawn) and an x inside the curves' range (the
axes as before); its legend entry is hidden always. A series' name and a data label showing
it follow their cell in Excel and in LibreOffice alike; a chart title linked to a cell does not
(LibreOffice 7.4 shows the text cached in the file, not the cell's), so the title stays a
fixed text.
"""

from __future__ import annotations

from openpyxl.chart import Reference, ScatterChart, Series
from openpyxl.chart.data_source import StrRef
from openpyxl.chart.label import DataLabel, DataLabelList
from openpyxl.chart.legend import LegendEntry
from openpyxl.chart.series import SeriesLabel
from openpyxl.chart.text import RichText
from openpyxl.descriptors.base import Set
from openpyxl.drawing.text import (
    CharacterProperties,
    Paragraph,
    ParagraphProperties,
    RichTextProperties,
)

from ...spreadsheet.cells import STYLE, put_formula, put_label, ref
from ...spreadsheet.layout import Cursor
from ...spreadsheet.rows import Block, Col, write_block
from ..charts_sheet import set_title, style_series

__all__ = ["CHART_NOTE", "note_block", "note_cell", "power_chart", "n_chart"]

#: What a calculator's charts say in the middle of their plot while an input is bad.
CHART_NOTE = "No curve: an input is bad (see Status)"

#: The note's colour: the warning font's (the status row's message).
_NOTE_COLOUR = "9C0006"


class _OneLine(RichTextProperties):
    """Text properties whose ``wrap`` may be "none" (openpyxl reads "none" as no value)."""

    tagname = "bodyPr"
    wrap = Set(values=("none", "square"))


def note_block(work: Cursor, ok: str, power: tuple[Block, str, bool],
               effect: tuple[Block, str]) -> Block:
    """The note's cells in the workings, for the power (or width) chart and the n-against-
    effect chart: x and y of three points per chart, and the text (column "note", first row):
    :data:`CHART_NOTE` while an input is bad (``ok`` false), else blank.

    ``power`` is (its curves' block, an x inside its plot while the inputs are good, whether
    its y axis is fixed at 0–1); ``effect`` the same without the last. While an input is bad
    a chart's points are x = 1, (k + 1)/2 and k for curves of k rows, y = 0, ½ and 1 (an axis
    fixed at 0–1) or 0, 1 and 2 (an automatic axis), so that the labelled middle one sits in
    the middle of the plot in both spreadsheets: LibreOffice places the points of an empty
    curve at x = 1 .. k (their positions), Excel leaves them out. While the inputs are good
    every y is #N/A (nothing drawn) and every x is the given x: LibreOffice, too, places a
    point with no x at its position, which would stretch the x axis to 1.

    >>> from openpyxl import Workbook
    >>> ws = Workbook().active
    >>> b = note_block(Cursor(ws, 1), "ok", (Block(1, 25), "N1", True), (Block(1, 15), "D1"))
    >>> [ws[b.cell(k, b.top + 1).replace("$", "")].value for k in ("x_power", "y_power")]
    ['=IF(ok,N1,13)', '=IF(ok,NA(),0.5)']
    """
    work.heading("What the charts say while an input is bad", font=STYLE.bold)
    cols = []
    for key, (curves, x_good, *fixed) in (("power", power), ("effect", effect)):
        k = curves.bottom - curves.top + 1
        top = 1 if fixed and fixed[0] else 2
        cols += [Col(f"x_{key}", f"x ({key} chart)",
                     lambda i, k=k, x=x_good: f"=IF({ok},{x},{(1, (k + 1) / 2, k)[i]:g})"),
                 Col(f"y_{key}", f"y ({key} chart)",
                     lambda i, top=top: f"=IF({ok},NA(),{i * top / 2:g})")]
    block = write_block(work.ws, work.row, 1, cols, 3)
    text = len(cols) + 1
    block.columns["note"] = text
    put_label(work.ws, block.top - 1, text, "the note (the series' name)", font=STYLE.bold,
              fill=STYLE.header_fill)
    put_formula(work.ws, block.top, text, f'=IF({ok},"","{CHART_NOTE}")')
    work.row = block.bottom + 2
    return block


def _note_series(ws, note: Block, key: str) -> Series:
    """The note as a series of the ``key`` ("power" or "effect") chart: no line, no marker,
    its middle point labelled with its name."""
    xs = Reference(ws, min_col=note.columns[f"x_{key}"], min_row=note.top,
                   max_row=note.bottom)
    ys = Reference(ws, min_col=note.columns[f"y_{key}"], min_row=note.top,
                   max_row=note.bottom)
    series = Series(ys, xs)
    series.tx = SeriesLabel(strRef=StrRef(note_cell(ws, note)))
    series.marker.symbol = "none"
    series.graphicalProperties.line.noFill = True
    series.smooth = False
    font = CharacterProperties(sz=1000, b=True, solidFill=_NOTE_COLOUR)
    text = RichText(bodyPr=_OneLine(wrap="none"),     # LibreOffice wraps it after ~15 letters
                    p=[Paragraph(pPr=ParagraphProperties(defRPr=font),
                                 endParaRPr=CharacterProperties())])
    off = {"showLegendKey": False, "showVal": False, "showCatName": False,
           "showPercent": False, "showBubbleSize": False}
    series.dLbls = DataLabelList(dLbl=[DataLabel(idx=1, dLblPos="ctr", showSerName=True,
                                                 txPr=text, **off)],
                                 showSerName=False, **off)
    return series


def _finish(ws, chart: ScatterChart, note: Block, key: str, anchor: str) -> None:
    """Add the note series last, hide its legend entry, and place the chart."""
    chart.series.append(_note_series(ws, note, key))
    chart.legend.legendEntry = [LegendEntry(idx=len(chart.series) - 1, delete=True)]
    chart.visible_cells_only = False      # the data sit in the (collapsed) workings
    ws.add_chart(chart, anchor)


def _small_chart(title: str, x_title: str, y_title: str) -> ScatterChart:
    chart = ScatterChart()
    set_title(chart, title)
    chart.style = 2
    chart.height, chart.width = 7.5, 12
    chart.x_axis.title = x_title
    chart.y_axis.title = y_title
    chart.x_axis.delete = chart.y_axis.delete = False
    chart.legend.position = "b"
    return chart


def _under_markers(series: Series) -> None:
    """The first method's curve as a wide plain line under the second method's markers:
    where the two coincide, both stay visible."""
    series.marker.symbol = "none"
    series.graphicalProperties.line.width = 57150


def power_chart(ws, block: Block, series: list[tuple[str, str]], anchor: str, *, y_title: str,
                title: str, note: Block) -> None:
    """A small scatter chart of ``series`` ((column key, name)) against n: their guarded
    copies "plot_<key>" (see :func:`.blocks.curve_block`), and the ``note``."""
    chart = _small_chart(title, "n (topics)", y_title)
    # a width as the spreadsheet writes it (a review, 2026-12-08: at δ = 1e-4 "0.00" labelled
    # every tick of the width axis alike)
    chart.y_axis.number_format = "0.00" if y_title == "power" else "General"
    if y_title == "power":        # a probability: the axis its range, not the empty chart's 0–15
        chart.y_axis.scaling.min, chart.y_axis.scaling.max = 0, 1
    chart.x_axis.number_format = "#,##0"
    xs = Reference(ws, min_col=block.columns["plot_n"], min_row=block.top,
                   max_row=block.bottom)
    for k, (key, name) in enumerate(series):
        ys = Reference(ws, min_col=block.columns[f"plot_{key}"], min_row=block.top,
                       max_row=block.bottom)
        s = Series(ys, xs, title=name)
        style_series(s, k, marker=key != "target")
        if k == 0 and len(series) > 2:
            _under_markers(s)
        chart.series.append(s)
    _finish(ws, chart, note, "power", anchor)


def n_chart(ws, blocks: list[tuple[Block, str, str]], anchor: str, *, x_title: str,
            title: str, note: Block) -> None:
    """A scatter chart of n (y) against the effect (x): ``blocks`` are (block, column key
    of the effect, series name), each with column "plot_n" (n, or #N/A with the effect:
    while an input is bad both are #N/A, and the chart shows only the ``note``)."""
    chart = _small_chart(title, x_title, "n (topics)")
    chart.x_axis.number_format = "General"      # an effect of 1e-4 is not "0.00"
    chart.y_axis.number_format = "#,##0"
    for k, (block, key, name) in enumerate(blocks):
        xs = Reference(ws, min_col=block.columns[key], min_row=block.top, max_row=block.bottom)
        ys = Reference(ws, min_col=block.columns["plot_n"], min_row=block.top,
                       max_row=block.bottom)
        s = Series(ys, xs, title=name)
        style_series(s, k, marker=True)
        if k == 0 and len(blocks) > 1:
            _under_markers(s)
        chart.series.append(s)
    _finish(ws, chart, note, "effect", anchor)


def note_cell(ws, note: Block) -> str:
    """The note's text cell, with its sheet (what the note series is named by)."""
    return ref(note.top, note.columns["note"], absolute=True, sheet=ws.title)
