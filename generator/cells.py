"""Writing cells safely and consistently: untrusted text, numbers, formulas and the house styles.

Every string that comes from user data (measure, run and topic names, spec titles, file names)
goes through :func:`put_text`. openpyxl turns any string that starts with ``=`` into a formula,
and a spreadsheet may read ``+1``, ``-1`` or ``@SUM(A1)`` as one when the cell is edited, so
:func:`put_text` always stores a plain text cell (``t="s"``) with the quote prefix set. Formulas
are written only by :func:`put_formula`, from templates in this package.
"""

from __future__ import annotations

from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter

__all__ = ["put_text", "put_number", "put_formula", "put_label", "ref", "col", "clean_text",
           "STYLE", "TEXT_LIMIT"]

#: The longest string a spreadsheet cell holds.
TEXT_LIMIT = 32767

_THIN = Side(style="thin", color="808080")
#: The one font family of the workbook (Excel's default; LibreOffice substitutes a metric
#: equivalent, Carlito, where Calibri is missing).
FONT = "Calibri"


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
    cell = ws.cell(row=row, column=column)
    if value is not None:
        number = float(value)
        cell.value = int(number) if number.is_integer() and abs(number) < 2**53 else number
    if number_format:
        cell.number_format = number_format
    _style(cell, font, fill, comment)
    return cell


def put_formula(ws, row: int, column: int, formula: str, *, number_format: str | None = None,
                font=None, fill=None):
    """Write a formula of this package (must start with ``=``)."""
    if not formula.startswith("="):
        raise ValueError(f"a formula must start with '=': {formula!r}")
    cell = ws.cell(row=row, column=column, value=formula)
    if number_format:
        cell.number_format = number_format
    _style(cell, font, fill, None)
    return cell


def _style(cell, font, fill, comment):
    if font is not None:
        cell.font = font
    if fill is not None:
        cell.fill = fill
    if comment:
        cell.comment = Comment(clean_text(comment), "topicsetsize", width=260, height=90)


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
