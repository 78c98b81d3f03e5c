"""What every calculator sheet shares: the sheet, its inputs' measure picker, status, warning,
the workings' groups, the guarded blocks, the print layout, and what the parts of a builder hand
on to each other (:class:`SheetBuild`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from openpyxl.styles import Alignment, Font, Protection
from openpyxl.utils import column_index_from_string
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation

from ...content.calculators import Calculator
from ...spreadsheet.cells import (
    STYLE,
    col,
    fit_texts,
    put_formula,
    put_label,
    put_number,
    put_text,
    ref,
    set_style,
    wrap_over,
)
from ...spreadsheet.layout import (
    NO_VALUE,
    Cursor,
    exact_match,
    guarded,
    highlight_if,
    name_cell,
    write_inputs,
    write_status,
)
from ...spreadsheet.rows import Block, Col, write_block
from .inputs_line import write_inputs_line
from .scale_note import ok_status

#: Rows of the χ² bisection for λ̂: the bracket shrinks to 2^-50 of its width.
LAMBDA_STEPS = 50

#: Rows of the log-scale bisections for the minimum detectable difference at a given n:
#: log10 of the noncentrality (or of minΔt) over [LOG_LO, LOG_HI], to 18/2^60 ≈ 2e-17.
MIN_STEPS = 60

LOG_LO, LOG_HI = -8, 10


#: Rows of the power table on each side of an answer.
AROUND = 6


#: Rows a table at the answers and a table around an answer take (with headings, gaps).
ANSWERS_ROWS = 7


AROUND_ROWS = 2 * AROUND + 3


#: Rows the two small charts beside the results take (7.5 cm each).
CHART_ROWS = 32


#: Points of the power curve behind the chart.
CURVE = 25


_WIDTHS = {"A": 40, "B": 17, "C": 34, "D": 13, "E": 13}


#: Column C of a calculator holds the answers' notes left of the chart (column D).
NOTES_WIDTH = 48


#: The column where the charts beside the answers start (a note of column C that would run
#: under them wraps).
CHART_COLUMN = "D"


_FIRST = ("p_legacy", "p_exact", "ok_legacy", "ok_exact", "width", "ok", "width_approx",
          "ok_approx")


_GREY = Font(color="A6A6A6")
#: A typed variance while a measure is picked instead: not used.
_STRUCK = Font(color="A6A6A6", strike=True)


def display_columns(cols: list[Col]) -> list[Col]:
    """The model's columns with the powers (or widths) and verdicts first, for reading."""
    first = [c for key in _FIRST for c in cols if c.key == key]
    return first + [c for c in cols if c.key not in _FIRST]


def measure_list(wb, measures) -> str:
    """Write the measures (name, V_E) to the Helpers sheet for the calculators' drop-downs;
    define ``measure_names`` and ``measure_variances``; return the prefix "measure"."""
    ws = wb["Helpers"]
    put_label(ws, 1, 3, "measure (from the Variance sheet)")
    put_label(ws, 1, 4, "V_E")
    for i, m in enumerate(measures, start=2):
        put_text(ws, i, 3, m.name)
        put_number(ws, i, 4, m.variance)
    last = len(measures) + 1
    for name, c in (("measure_names", "C"), ("measure_variances", "D")):
        wb.defined_names[name] = DefinedName(name, attr_text=f"Helpers!${c}$2:${c}${last}")
    return "measure"


def measure_picker(cur: Cursor, wb, inp, key: str, scale: str, symbol: str,
                    prefix: str | None) -> None:
    """A drop-down of the measures; when one is picked, the variance input ``key`` is taken
    from it (times ``scale``: σ̂t² = 2σ̂²) and the typed value is ignored.

    The row below shows the variance in use (``symbol`` used) and where it comes from: the
    picked measure's name in full (a reference to the picker, never a literal), or the typed
    value; while a measure is picked, the typed value and its note are struck through.
    """
    if not prefix:
        return
    ws, row = cur.ws, cur.row
    put_label(ws, row, 1, "or take σ̂² from", font=STYLE.bold)
    cell = ws.cell(row=row, column=2)
    cell.fill, cell.border = STYLE.input_fill, STYLE.box
    cell.protection = Protection(locked=False)
    cell.alignment = Alignment(shrink_to_fit=True)      # "…, raw" and "…, std-AB" both whole
    put_label(ws, row, 3, "a measure of the Variance sheet")
    here = ref(row, 2, absolute=True)
    match = exact_match(here, f"{prefix}_names")      # "A?B" finds itself, not "AxB"
    check = put_formula(ws, row, 4, f'=IF(ISBLANK({here}),"ok",IF(ISNA({match}),'
                                    f'"not a measure","ok"))')
    check.alignment = STYLE.center
    highlight_if(ws, ref(row, 4), f'{ref(row, 4)}<>"ok"', font=STYLE.warning_font)
    also = ", σ̂t² = 2·V_E" if scale != "1" else ""
    put_label(ws, row, 5, f"pick a measure to use its V_E (σ̂² = V_E{also}) "
                          f"instead of the typed {symbol}; clear the cell to type it again",
              font=STYLE.note)
    dv = DataValidation(type="list", formula1=f"{prefix}_names", allow_blank=True,
                        showErrorMessage=True, errorTitle="not a measure",
                        error="Pick a measure from the list (or clear the cell).")
    ws.add_data_validation(dv)
    dv.add(ref(row, 2))
    name_cell(wb, f"{ws.title.lower()}_measure", ws.title, row, 2)
    chk = ref(row, 4, absolute=True)
    picked = f'AND({chk}="ok",NOT(ISBLANK({here})))'
    inp.used[key] = (f"(IF({picked},"
                     f"{scale}*INDEX({prefix}_variances,{match}),{inp.used[key]}))")
    inp.messages.append((chk, f'"the measure is "&{chk}&" (pick one from the list)."'))
    inp.shown_after[key] = f'IF(AND({picked},RIGHT({here},6)="std-AB")," (std-AB)","")'
    typed = inp.rows[key]
    highlight_if(ws, f"B{typed}:E{typed}", picked, fill=None, font=_STRUCK)
    cur.skip()
    row = cur.row
    put_label(ws, row, 1, f"{symbol} used", font=STYLE.bold)
    put_formula(ws, row, 2, guarded(f"{ws.title.lower()}_inputs_ok", inp.used[key]),
                number_format=ws.cell(typed, 2).number_format,
                font=STYLE.bold).alignment = Alignment(horizontal="general")
    twice = "2·" if scale != "1" else ""
    # a std-AB variance measures standardised scores: the difference typed is one of them too
    std_ab = f'IF(RIGHT({here},6)="std-AB","{_STD_AB_NOTE}","")'
    put_formula(ws, row, 3, f'=IF({picked},"= {twice}V_E of "&{here}&" (Variance sheet)"&'
                            f'{std_ab},"= the typed {symbol} above")', font=STYLE.note)
    # wrapped within the printed page, as tall as the longest name it can show needs (the
    # formula's text is not known to fit_texts): a long measure name ran past the page edge
    longest = max((str(c.value) for c in wb["Helpers"]["C"][1:] if c.value), key=len)
    wrap_over(ws, row, 3, _CHART_LAST_COLUMN - 1,
              f"= {twice}V_E of {longest} (Variance sheet){_STD_AB_NOTE}",
              _CHART_LAST_COLUMN - 1)
    cur.skip()


#: Said after a picked std-AB measure's variance: the difference typed is on its scale.
_STD_AB_NOTE = "; the difference typed is then one of std-AB scores, not of raw ones"


def start_sheet(wb, title: str, heading: str, intro: list[str], *,
                inputs_line: bool = False) -> Cursor:
    """A sheet with its title in row 1 and its intro below; with ``inputs_line``, row 2 is kept
    for :func:`write_inputs_line`."""
    ws = wb.create_sheet(title)
    for letter, width in _WIDTHS.items():
        ws.column_dimensions[letter].width = width
    for c in range(6, 30):
        ws.column_dimensions[col(c)].width = 13
    cur = Cursor(ws)
    cur.heading(heading, font=STYLE.title)
    if inputs_line:
        cur.skip()
    for line in intro:
        cur.note(line)
    cur.skip()
    return cur


def workings(cur: Cursor) -> Cursor:
    """A cursor for the workings, two rows below the summary; the rows are grouped."""
    work = Cursor(cur.ws, cur.row + 2)
    work.heading("Workings: the computations behind the answers (no need to edit anything "
                 "here; click + in the margin to show them)")
    work.note("Every formula reads the value used for each input (column B of the inputs, or "
              "its starting value while the input is bad). Bisection rows halve the bracket "
              "[low, high]; the criterion fails at low and holds at high.")
    work.skip()
    return work


def group_workings(work: Cursor, first: int) -> None:
    """Group (outline level 1, collapsed) the workings rows from ``first`` to the end."""
    ws = work.ws
    ws.row_dimensions.group(first, work.row, outline_level=1, hidden=True)
    ws.sheet_properties.outlinePr.summaryBelow = False


def params_block(work: Cursor, title: str, rows: list[tuple[str, str, str, str]]) -> dict[str, str]:
    """A block of labelled scalars in the workings: (key, label, formula, format) per row."""
    work.heading(title, font=STYLE.bold)
    out = {}
    for key, label, formula, fmt in rows:
        put_label(work.ws, work.row, 1, label)
        put_formula(work.ws, work.row, 2, formula, number_format=fmt)
        out[key] = ref(work.row, 2, absolute=True)
        work.skip()
    work.skip()
    return out


def sentence_row(cur: Cursor, label: str, formula: str, alarm: str) -> None:
    """A labelled sentence formula in column B, in red where ``alarm`` holds."""
    put_label(cur.ws, cur.row, 1, label, font=STYLE.bold).alignment = STYLE.top
    put_formula(cur.ws, cur.row, 2, formula, font=STYLE.bold).alignment = STYLE.wrap
    cur.ws.merge_cells(f"B{cur.row}:C{cur.row}")     # wraps left of the chart (column D)
    cur.ws.row_dimensions[cur.row].height = 48
    highlight_if(cur.ws, f"B{cur.row}", alarm, font=STYLE.warning_font)
    cur.skip()


def grey_when_bad(cur: Cursor, block: Block, ok: str) -> None:
    """Grey out a display table while the inputs are bad (it then shows the fallbacks)."""
    last = max(block.columns.values())
    first = min(block.columns.values())
    highlight_if(cur.ws, f"{col(first)}{block.top}:{col(last)}{block.bottom}", f"NOT({ok})",
                 fill=None, font=_GREY)


#: First column of the hidden computing copies behind the guarded tables, and how many
#: columns are grouped and hidden from there (right of every block of the sheet).
_HIDDEN_COLUMN, _HIDDEN_WIDTH = 40, 40


_RIGHT = Alignment(horizontal="right")


def guarded_block(ws, top: int, left: int, cols: list[Col], count: int, ok: str, *,
                  plain: tuple[str, ...] = (), hidden_column: int = _HIDDEN_COLUMN) -> Block:
    """A table that shows its values only while every input is in range (``ok``), and
    :data:`~spreadsheet.layout.NO_VALUE` otherwise: no number and no "yes" from the fallback
    values.

    The block of ``cols`` is computed at ``hidden_column`` on the same rows (those columns
    are grouped and hidden); the table at ``left`` shows it, except the ``plain`` columns
    (constants such as m), written as they are. Returns the shown table's :class:`Block`.
    """
    work = write_block(ws, top, hidden_column, cols, count)
    ws.column_dimensions.group(col(hidden_column), col(hidden_column + _HIDDEN_WIDTH - 1),
                               outline_level=1, hidden=True)
    shown = write_block(ws, top, left, [
        c if c.key in plain else
        Col(c.key, c.header, lambda i, key=c.key: guarded(
            ok, work.cell(key, work.top + i, absolute=False),    # relative: one template
            f'"{NO_VALUE}"'),
            c.number_format, shared=True)
        for c in cols], count)
    # NO_VALUE where the numbers stand (a left-aligned mark would abut the column before)
    for key, column in shown.columns.items():
        if key not in plain:
            for row in range(shown.top, shown.bottom + 1):
                set_style(ws.cell(row, column), alignment=_RIGHT)
    return shown


@dataclass
class SheetBuild:
    """What the parts of a calculator sheet's builder hand on to each other: the declaration,
    the summary's cursor, the inputs' used values, the status and "inputs ok" names, the row
    where the charts go, and ``w``, the workings' results that the summary shows (filled in
    when the workings are written: :meth:`show` defers the reading)."""

    wb: object
    calc: Calculator
    cur: Cursor
    k: str | None
    inp: object = None
    status: str = ""
    ok: str = ""
    anchor: int = 0
    w: dict = field(default_factory=dict)

    def used(self, *keys: str) -> tuple[str, ...]:
        return tuple(self.inp.used[x] for x in keys)

    def show(self, key: str, text: str = '""'):
        return lambda: guarded(self.ok, self.w[key], text)


def caution(calc: Calculator, where: str = "") -> list[str]:
    """The design's caveat as a sheet's line ("Caution: One-way ANOVA: its n is ..."), the
    engine's own without Markdown's marks, after the design's name as the commands say it (a
    review, 2026-12-08: "Caution: Its n ..." named no design), ``where`` after it (e.g. which
    sheet sizes the other design); none where the design has none."""
    caveat = calc.design.caveat.replace("`", "")
    return [f"Caution: {calc.design.name}: {caveat}{where}."] if caveat else []


def begin(wb, calc: Calculator, values: dict, k: str | None, measures: str | None
          ) -> SheetBuild:
    """The sheet with its title, its inputs (and the measure picker of a one-way variance)."""
    cur = start_sheet(wb, calc.sheet, calc.title, [*calc.intro, *caution(calc)],
                      inputs_line=True)
    cur.ws.column_dimensions["C"].width = NOTES_WIDTH
    cur.heading("Inputs")
    inp = write_inputs(cur, wb, calc.inputs, values)
    if calc.variance.source == "one-way":
        measure_picker(cur, wb, inp, calc.variance.input, str(calc.variance.factor),
                       calc.symbol(calc.variance.input), measures)
    return SheetBuild(wb, calc, cur, k, inp)


def end_inputs(b: SheetBuild) -> None:
    """The status line under the inputs, and the inputs' line in row 2; the charts start
    below the status."""
    b.status, b.ok = write_status(b.cur, b.wb, b.calc.key, b.inp, ok_status(b.calc.inputs,
                                                                          b.inp.used))
    write_inputs_line(b)
    b.cur.skip()
    b.anchor = b.cur.row


def pick(models, method: str) -> list[Col]:
    shared, legacy, exact = models
    return [*shared, *(legacy if method == "legacy" else exact)]


def check_room(cur: Cursor, work: Cursor, first_work: int) -> None:
    if cur.row >= first_work:  # pragma: no cover - a layout bug, caught by the tests
        raise RuntimeError(f"{cur.ws.title}: the summary ends at row {cur.row}, past the "
                           f"workings at row {first_work}")


#: The last column of a calculator's first printed page: the charts (anchored at column D, 12 cm
#: wide) end in it. The texts of that page wrap within the column before it: LibreOffice draws
#: columns wider than Excel does, and a text merged up to H ran past the page edge there.
_CHART_LAST_COLUMN = 8


#: Print scale of a calculator: its first page (inputs, answers, chart) fits an A4 landscape
#: page with the answers (14 pt) at about 9 pt; the tables follow on the next pages.
PRINT_SCALE = 66


#: Points of an A4 landscape page's height that a sheet prints on: 595 less the top and bottom
#: margins (0.5 inch each, generator.build._page_setup).
PAGE_HEIGHT = 595 - 2 * 36


def print_scale(ws, last_row: int) -> int:
    """The scale at which rows 1..``last_row`` (the first page) fit a page's height:
    :data:`PRINT_SCALE`, or less where long texts (a long measure name, wrapped) made the rows
    taller: at 66 % the charts' foot went to a page of its own.

    >>> from openpyxl import Workbook
    >>> ws = Workbook().active
    >>> print_scale(ws, 40), print_scale(ws, 60)      # rows of 15 points: 600 and 900
    (66, 58)
    """
    height = sum(ws.row_dimensions[r].height or 15 for r in range(1, last_row + 1))
    return min(PRINT_SCALE, int(100 * PAGE_HEIGHT / height))


def finish(cur: Cursor, first_work: int, tables_top: int, table: Block) -> None:
    """Freeze the title rows; print the summary and the chart on the first page, then the
    tables (at a fixed, readable scale: fitting the wide tables to one page shrank the
    answers to about 6 pt): their n, powers (or widths) and verdicts, the columns of
    ``table`` that :func:`display_columns` puts first; the model's working columns right of
    them print only when the reader widens the print area. Every text of the first page that
    would run past its edge or under a chart is wrapped, and the charts are stacked by the
    rows' heights."""
    ws = cur.ws
    ws.freeze_panes = "A3"
    charts = sorted(ws._charts, key=lambda chart: _anchor(chart)[1])
    band = ((_anchor(charts[0])[0], _anchor(charts[0])[1], tables_top - 1),) if charts else ()
    fit_texts(ws, 1, tables_top - 1, _CHART_LAST_COLUMN - 1, band)
    end = 0
    for k, chart in enumerate(charts):   # each right below the one before, by the rows' heights
        column, top = _anchor(chart)
        top = top if k == 0 else end + 1
        chart.anchor = f"{col(column)}{top}"
        end = rows_down(ws, top, chart.height)
    if end >= tables_top:  # pragma: no cover - a layout bug, caught by the tests
        raise RuntimeError(f"{ws.title}: the charts end at row {end}, past the tables")
    last = max(table.columns[key] for key in ("n", *_FIRST) if key in table.columns)
    written = max(r for (r, c), cell in ws._cells.items()
                  if r < tables_top and cell.value is not None)
    ws.print_area = (f"A1:{col(_CHART_LAST_COLUMN)}{max(end, written)},"
                     f"A{tables_top}:{col(last)}{first_work - 1}")
    ws.print_title_rows = "1:2"             # the title and the inputs' line on every page
    ws.page_setup.scale = print_scale(ws, max(end, written))


def _anchor(chart) -> tuple[int, int]:
    """(column, row) of the cell a chart is anchored at."""
    letters = chart.anchor.rstrip("0123456789")
    return column_index_from_string(letters), int(chart.anchor[len(letters):])


def rows_down(ws, top: int, height_cm: float) -> int:
    """The row in which something ``height_cm`` tall placed at the top of row ``top`` ends
    (rows of 15 points where the sheet sets no height).

    >>> from openpyxl import Workbook
    >>> rows_down(Workbook().active, 10, 7.5)      # 15 points = 0.529 cm: 14.2 rows
    24
    """
    used, row = 0.0, top
    while True:
        used += (ws.row_dimensions[row].height or 15) / 72 * 2.54
        if used >= height_cm:
            return row
        row += 1


def helper_sheet(wb, terms: int) -> str:
    """A hidden sheet holding k = 0..terms−1 for the Poisson mixtures; returns the range."""
    ws = wb.create_sheet("Helpers")
    put_label(ws, 1, 1, "k (Poisson mixture index offsets, used by the calculators)")
    for k in range(terms):
        put_number(ws, k + 2, 1, k)
    ws.sheet_state = "hidden"
    return f"Helpers!$A$2:$A${terms + 1}"
