"""Writing cells safely and consistently: untrusted text, numbers, formulas and the house styles.

Every string that comes from user data (measure, run and topic names, spec titles, file names)
goes through :func:`put_text`. openpyxl turns any string that starts with ``=`` into a formula,
and a spreadsheet may read ``+1``, ``-1`` or ``@SUM(A1)`` as one when the cell is edited, so
:func:`put_text` always stores a plain text cell (``t="s"``) with the quote prefix set. Formulas
are written only by :func:`put_formula`, from templates in this package.
"""

from __future__ import annotations

from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, Cell
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.styles.cell_style import StyleArray
from openpyxl.styles.styleable import StyleableObject
from openpyxl.utils import get_column_letter

__all__ = ["put_text", "put_number", "put_formula", "put_label", "set_style", "ref", "col",
           "clean_text", "STYLE", "TEXT_LIMIT", "wrapped_lines", "fit_texts", "wrap_over",
           "fixed_format"]

#: The longest string a spreadsheet cell holds.
TEXT_LIMIT = 32767

_THIN = Side(style="thin", color="808080")
#: The one font family of the workbook (Excel's default; LibreOffice substitutes a metric
#: equivalent, Carlito, where Calibri is missing).
FONT = "Calibri"


def fixed_format(decimals: int = 4) -> str:
    """The number format of a score, a difference or a variance: ``decimals`` decimals, as the
    papers show them, but a non-zero value below 10^-(decimals − 1) (scores on a small scale,
    a minD of 0.000232) in scientific notation, so that it never reads as 0 (the command line's
    ``topicsetsize.cli._common.fixed``). For values ≥ 0: a format's conditions, which Excel and
    LibreOffice share, take a negative value as below the threshold.

    >>> fixed_format(), fixed_format(6)
    ('[=0]0.0000;[<0.001]0.00E+00;0.0000', '[=0]0.000000;[<0.00001]0.00E+00;0.000000')
    """
    plain = "0." + "0" * decimals
    return f"[=0]{plain};[<{10.0 ** (1 - decimals):.{max(decimals - 1, 1)}f}]0.00E+00;{plain}"


class STYLE:
    """The few looks the workbook uses, so that every sheet reads the same way."""

    title = Font(name=FONT, bold=True, size=14)
    heading = Font(name=FONT, bold=True, size=12)
    bold = Font(name=FONT, bold=True)
    note = Font(name=FONT, italic=True, color="555555")
    answer = Font(name=FONT, bold=True, size=14)
    warning_font = Font(name=FONT, bold=True, color="9C0006")
    link = Font(name=FONT, color="0563C1", underline="single")
    input_fill = PatternFill("solid", fgColor="FFF2CC")       # the cells a user types into
    answer_fill = PatternFill("solid", fgColor="E2EFDA")
    header_fill = PatternFill("solid", fgColor="D9E1F2")
    differ_fill = PatternFill("solid", fgColor="F8CBAD")      # legacy and exact disagree
    warning_fill = PatternFill("solid", fgColor="FFC7CE")
    cross_fill = PatternFill("solid", fgColor="C6EFCE")       # where the power reaches 1 − β
    box = Border(left=_THIN, right=_THIN, top=_THIN, bottom=_THIN)
    wrap = Alignment(wrap_text=True, vertical="top")
    #: a label beside wrapped text: level with its first line
    top = Alignment(vertical="top")
    center = Alignment(horizontal="center")
    #: column headings over numbers: right-aligned like the numbers, wrapped, at the bottom
    header = Alignment(horizontal="right", vertical="bottom", wrap_text=True)


def clean_text(value) -> str:
    """``value`` as a string a cell can hold: control characters replaced, length capped.

    >>> clean_text("run\\x07A")
    'run\\ufffdA'
    >>> len(clean_text("x" * 40000))
    32767
    """
    text = ILLEGAL_CHARACTERS_RE.sub("\ufffd", str(value))
    return text[:TEXT_LIMIT]


def put_text(ws, row: int, column: int, value, *, font=None, fill=None, comment: str | None = None):
    """Write ``value`` as a text cell that can never become a formula.

    Parameters
    ----------
    ws : openpyxl worksheet
    row, column : int
        1-based cell position.
    value : object
        Converted with ``str``; illegal control characters are replaced.
    font, fill : openpyxl styles, optional
    comment : str, optional
        A cell note.

    Returns
    -------
    openpyxl.cell.Cell

    Examples
    --------
    >>> from openpyxl import Workbook
    >>> ws = Workbook().active
    >>> c = put_text(ws, 1, 1, "=HYPERLINK(\\"http://x\\")")
    >>> c.data_type, c.value, c.quotePrefix
    ('s', '=HYPERLINK("http://x")', True)
    """
    cell = ws.cell(row=row, column=column)
    cell.value = clean_text(value)
    cell.data_type = "s"          # set after the value: openpyxl infers "f" from a leading "="
    cell.quotePrefix = True
    _style(cell, font, fill, comment)
    return cell


def put_label(ws, row: int, column: int, text: str, *, font=None, fill=None):
    """Write a fixed label of this package (trusted text that never starts with ``=``)."""
    if text.startswith("="):
        raise ValueError(f"a label may not start with '=': {text!r}")
    cell = ws.cell(row=row, column=column, value=text)
    _style(cell, font, fill, None)
    return cell


def put_number(ws, row: int, column: int, value, *, number_format: str | None = None,
               font=None, fill=None, comment: str | None = None):
    """Write a number (int or float); ``None`` leaves the cell empty."""
    cell = _formatted(ws, row, column, number_format)
    if value is not None:
        number = float(value)
        cell.value = int(number) if number.is_integer() and abs(number) < 2**53 else number
    _style(cell, font, fill, comment)
    return cell


def put_formula(ws, row: int, column: int, formula: str, *, number_format: str | None = None,
                font=None, fill=None):
    """Write a formula of this package (must start with ``=``)."""
    if not formula.startswith("="):
        raise ValueError(f"a formula must start with '=': {formula!r}")
    fresh = (row, column) not in ws._cells
    cell = _formatted(ws, row, column, number_format)
    if (fresh and type(formula) is str and 1 < len(formula) <= TEXT_LIMIT
            and ILLEGAL_CHARACTERS_RE.search(formula) is None):
        cell._value, cell.data_type = formula, "f"   # what openpyxl's value setter makes of it
    else:
        cell.value = formula
    if font is not None or fill is not None:
        _style(cell, font, fill, None)
    return cell


def _style(cell, font, fill, comment):
    if font is not None or fill is not None:
        set_style(cell, font=font, fill=fill)
    if comment:
        cell.comment = Comment(clean_text(comment), "topicsetsize", width=260, height=90)


#: The attribute of a workbook where :func:`set_style` and :func:`_formatted` keep the style
#: ids openpyxl gave (kept with the workbook, so they go when it goes).
_STYLE_IDS = "_topicsetsize_style_ids"


def _style_ids(wb) -> dict:
    ids = wb.__dict__.get(_STYLE_IDS)
    if ids is None:
        ids = wb.__dict__[_STYLE_IDS] = {}
    return ids


def set_style(cell, **looks) -> None:
    """Give ``cell`` the looks named (``font``, ``fill``, ``border``, ``alignment``,
    ``protection``: openpyxl style objects; None leaves one as it is), as ``cell.font = font``
    and so on do.

    openpyxl's setter looks each object up among the workbook's by its value, hashing every
    attribute (some 7,000 times a default workbook). Here the index openpyxl gave an object is
    kept for that object (by identity, the object kept alive with it), so it is looked up once
    per workbook. Like openpyxl's own list of styles, this takes a style object as unchanged
    once used: the generator never changes one.

    Examples
    --------
    >>> from openpyxl import Workbook
    >>> ws = Workbook().active
    >>> set_style(ws["A1"], font=STYLE.bold, fill=STYLE.header_fill)
    >>> ws["A1"].font.b, ws["A1"].fill.fgColor.rgb
    (True, '00D9E1F2')
    """
    ids = None
    for name, look in looks.items():
        if look is None:
            continue
        if ids is None:
            ids = _style_ids(cell.parent.parent)
        kept = ids.get((name, id(look)))
        if kept is None or kept[0] is not look:
            setattr(cell, name, look)               # openpyxl adds it to the workbook's list
            kept = ids[name, id(look)] = (look, getattr(cell._style, _ID_FIELD[name]))
        elif cell._style is None:
            cell._style = StyleArray()
        setattr(cell._style, _ID_FIELD[name], kept[1])


#: The field of a cell's style array that holds each look's index (openpyxl's descriptors).
_ID_FIELD = {name: StyleableObject.__dict__[name].key
             for name in ("font", "fill", "border", "alignment", "protection")}


def _formatted(ws, row: int, column: int, number_format: str | None):
    """The cell at (row, column), ``number_format`` set (when given), as ``ws.cell(row,
    column)`` then ``cell.number_format = number_format``: a new cell takes a copy of the
    style array openpyxl made for the format's first cell (one lookup per format and
    workbook)."""
    if (row, column) in ws._cells or not (0 < row < 1048577 and column > 0):
        cell = ws.cell(row=row, column=column)
        if number_format:
            cell.number_format = number_format
        return cell
    ids = _style_ids(ws.parent) if number_format else None
    array = ids.get(("number_format", number_format)) if number_format else None
    cell = Cell(ws, row=row, column=column, style_array=array)      # a copy of ``array``
    ws._add_cell(cell)
    if number_format and array is None:
        cell.number_format = number_format          # openpyxl adds it to the workbook's list
        ids["number_format", number_format] = StyleArray(cell._style)
    return cell


def col(index: int) -> str:
    """Column letter of a 1-based column index.

    >>> col(1), col(27)
    ('A', 'AA')
    """
    return get_column_letter(index)


def ref(row: int, column: int, *, absolute: bool = False, sheet: str | None = None) -> str:
    """A1 reference of a cell, optionally absolute and sheet-qualified.

    >>> ref(3, 2), ref(3, 2, absolute=True, sheet="ANOVA")
    ('B3', 'ANOVA!$B$3')
    """
    letter = col(column)
    text = f"${letter}${row}" if absolute else f"{letter}{row}"
    return f"{_quote_sheet(sheet)}!{text}" if sheet else text


def _quote_sheet(name: str) -> str:
    if name.replace("_", "").isalnum() and not name[0].isdigit():
        return name
    return "'" + name.replace("'", "''") + "'"


def wrapped_lines(text: str, width: float) -> int:
    """Lines a wrapped cell ``width`` characters wide needs for ``text`` (a safe estimate:
    spreadsheets do not size rows of wrapped text written by a program). A word longer than
    a line is broken over lines, as the spreadsheets do (a file name without spaces).

    >>> wrapped_lines("word " * 30, 80), wrapped_lines("short", 80), wrapped_lines("x" * 90, 40)
    (2, 1, 3)
    """
    line = max(1, int(width * 0.95))
    lines, used = 1, 0
    for word in text.split():
        if used and used + 1 + len(word) > line:
            lines, used = lines + 1, 0
        else:
            used += 1 if used else 0
        while used + len(word) > line:          # a word longer than the rest of a line
            lines, word = lines + 1, word[line - used:]
            used = 0
        used += len(word)
    return lines


def _width(ws, column: int) -> float:
    dim = ws.column_dimensions.get(get_column_letter(column))
    return (dim.width if dim is not None and dim.width else 8.43)


def _free(cell) -> bool:
    """A cell a text may run into: no value, and not an input (unlocked)."""
    return cell is None or (cell.value is None and cell.protection.locked is not False)


def fit_texts(ws, first_row: int, last_row: int, last_column: int,
              stops: tuple[tuple[int, int, int], ...] = ()) -> None:
    """Wrap every text of rows ``first_row..last_row`` that would run past ``last_column``
    (the printed page's edge), into the next filled cell, or into a chart (``stops``:
    (first column, first row, last row) of each chart): the text is merged over the empty
    cells it may use and wrapped, and its row made tall enough. Texts already wrapped or
    merged are left alone.

    >>> from openpyxl import Workbook
    >>> ws = Workbook().active
    >>> _ = put_label(ws, 1, 1, "word " * 12)
    >>> fit_texts(ws, 1, 1, 3)          # three columns of 8.43: about 25 characters a line
    >>> [m.coord for m in ws.merged_cells.ranges], ws["A1"].alignment.wrap_text
    (['A1:C1'], True)
    >>> ws.row_dimensions[1].height         # 60 characters: three lines of 15 points
    45.0
    """
    merged = {c for rng in ws.merged_cells.ranges for c in rng.cells}
    for r in range(first_row, last_row + 1):
        for c in range(1, last_column + 1):
            cell = ws._cells.get((r, c))
            if (cell is None or not isinstance(cell.value, str) or cell.data_type == "f"
                    or (r, c) in merged or (cell.alignment is not None
                                            and cell.alignment.wrap_text)):
                continue
            limit = min([last_column] + [first - 1 for first, top, bottom in stops
                                         if top <= r <= bottom and first > c])
            end = c
            while end < limit and _free(ws._cells.get((r, end + 1))):
                end += 1
            if len(cell.value) <= _room(ws, c, end):
                continue
            wrap_over(ws, r, c, end, cell.value, last_column)
            merged |= {(r, k) for k in range(c, end + 1)}


def _room(ws, first: int, last: int) -> float:
    """Characters of 11-point text that columns ``first..last`` hold on one line: a character
    takes about 0.9 widths of a '0' (measured on the printed pages of LibreOffice: 45
    characters of a note in 39 widths)."""
    return sum(_width(ws, k) for k in range(first, last + 1)) / 0.9


def wrap_over(ws, row: int, column: int, end: int, text: str, last_column: int) -> None:
    """Wrap cell (``row``, ``column``) over the columns up to ``end`` (merged), top-aligned,
    and make its row tall enough for ``text`` (its value, or the longest it can take: a
    formula's); the row's other filled cells up to ``last_column`` level with its first line.

    >>> from openpyxl import Workbook
    >>> ws = Workbook().active
    >>> _ = put_formula(ws, 1, 2, '=A1&" words"')
    >>> wrap_over(ws, 1, 2, 4, "word " * 12, 4)
    >>> [m.coord for m in ws.merged_cells.ranges], ws.row_dimensions[1].height
    (['B1:D1'], 45.0)
    """
    cell = ws.cell(row=row, column=column)
    if end > column:
        ws.merge_cells(start_row=row, start_column=column, end_row=row, end_column=end)
    old = cell.alignment
    cell.alignment = Alignment(wrap_text=True, vertical="top",       # its indent kept (an
                               horizontal=old.horizontal if old is not None else None,  # input's
                               indent=old.indent if old is not None else 0)  # allowed range)
    for k in range(1, last_column + 1):    # the row's other cells level with its first line
        other = ws._cells.get((row, k))
        if other is not None and other is not cell and other.value is not None:
            a = other.alignment
            other.alignment = Alignment(horizontal=a.horizontal, wrap_text=a.wrap_text,
                                        indent=a.indent, vertical="top")
    size = cell.font.sz if cell.font is not None and cell.font.sz else 11
    room = _room(ws, column, end)
    height = 15 * size / 11 * wrapped_lines(text, room * 11 / size)
    ws.row_dimensions[row].height = max(ws.row_dimensions[row].height or 15, height)
