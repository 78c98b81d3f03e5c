"""Cached values of the formula cells, so that previewers show the workbook as computed.

openpyxl writes every formula cell without a result (``<v/>``). A spreadsheet computes them
on opening, but previewers (mail clients, file browsers, ``pandas.read_excel``, Excel's
Protected View) show only stored results, so tables, checks and answers looked blank.
:func:`write_with_cached_values` saves the workbook with the value of every formula cell
(computed by :func:`generator.saved.evaluator.evaluate_workbook`) as its cached result, in the
same pass: openpyxl writes everything but the cells of a sheet, which are written here with their
values. The workbook still asks for a full recalculation on opening (``fullCalcOnLoad``).
"""

from __future__ import annotations

import re
import zipfile
from collections import defaultdict
from io import BytesIO

from openpyxl.comments.comment_sheet import CommentRecord
from openpyxl.compat import safe_string
from openpyxl.drawing.spreadsheet_drawing import SpreadsheetDrawing
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._writer import WorksheetWriter
from openpyxl.writer.excel import ExcelWriter
from openpyxl.xml.functions import Element

from .evaluator import ErrorValue

__all__ = ["write_with_cached_values", "named_values"]


def write_with_cached_values(wb, target, values: dict[str, dict[str, object]]) -> None:
    """Save the openpyxl workbook ``wb`` to ``target`` (a path or a binary file object), with
    ``values`` ({sheet: {cell: value}}, e.g. from
    :func:`generator.saved.evaluator.evaluate_workbook`) stored as the cached results of those
    formula cells.

    ``target`` is written directly: the caller makes it a temporary file that it renames
    (:func:`topicsetsize.atomic.atomic_path`), so a crash never leaves half a workbook.

    Examples
    --------
    >>> import io, openpyxl
    >>> wb = openpyxl.Workbook()
    >>> wb.active["A1"] = "=1+1"
    >>> out = io.BytesIO()
    >>> write_with_cached_values(wb, out, {"Sheet": {"A1": 2}})
    >>> openpyxl.load_workbook(out, data_only=True).active["A1"].value
    2
    """
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        _Writer(wb, archive, values).save()


class _Writer(ExcelWriter):
    """openpyxl's writer, its worksheets written by :class:`_SheetWriter` (in memory)."""

    def __init__(self, wb, archive, values):
        super().__init__(wb, archive)
        self._values = values

    def write_worksheet(self, ws):        # ExcelWriter.write_worksheet, without a temporary file
        ws._drawing = SpreadsheetDrawing()
        ws._drawing.charts = ws._charts
        ws._drawing.images = ws._images
        writer = _SheetWriter(ws, self._values.get(ws.title, {}))
        writer.write()
        ws._rels = writer._rels
        self._archive.writestr(ws.path[1:], writer.xml())
        self.manifest.append(ws)


class _SheetWriter(WorksheetWriter):
    """openpyxl's worksheet writer; the cells (``sheetData``) with their cached values are
    written by :func:`_sheet_data`, as openpyxl would write them, in one pass. A sheet with a
    cell that it does not write (rich text, a date, a hyperlink, an array formula)
    is written by openpyxl, the values put in after (:func:`_inject`)."""

    def __init__(self, ws, values):
        super().__init__(ws, out=BytesIO())
        self.values = values
        self.sheet_data = None

    def write_rows(self):
        self.sheet_data = _sheet_data(self.ws, self.values)
        if self.sheet_data is None:
            super().write_rows()
        else:
            self.xf.send(Element("sheetData"))          # a place holder: <sheetData/>

    def xml(self) -> bytes:
        data = self.read()
        if self.sheet_data is None:
            return _inject(data.decode("utf-8"), self.values).encode("utf-8")
        head, found, tail = data.partition(b"<sheetData/>")
        if not found:
            raise RuntimeError(f"{self.ws.title}: no place for the cells in the sheet XML")
        return b"".join((head, self.sheet_data, tail))


#: Attribute values written as they are (openpyxl's row attributes are numbers and flags).
_PLAIN_ATTRIBUTE = re.compile(r"[\w.+-]*")
_SIMPLE_TYPES = frozenset("nbe")


def _simple(cell) -> bool:
    """Whether :func:`_sheet_data` writes ``cell`` exactly as openpyxl would."""
    kind, value = cell.data_type, cell._value
    if cell.hyperlink is not None:
        return False
    if kind in ("s", "f"):
        return value is None or type(value) is str
    return kind in _SIMPLE_TYPES


def _text(value: str) -> str:
    """Text as openpyxl's XML writer (lxml, ASCII) writes it: &, <, > and CR escaped, and
    every non-ASCII character as a character reference."""
    value = escape(value)
    if "\r" in value:
        value = value.replace("\r", "&#13;")
    return value if value.isascii() else value.encode("ascii", "xmlcharrefreplace").decode()


_LETTERS: dict[int, str] = {}


def _letter(column: int) -> str:
    """The letters of a column number (openpyxl's, kept)."""
    letters = _LETTERS.get(column)
    if letters is None:
        letters = _LETTERS[column] = get_column_letter(column)
    return letters


def _sheet_data(ws, values: dict[str, object]) -> bytes | None:
    """The ``<sheetData>`` element of ``ws`` as openpyxl's ``WorksheetWriter.write_rows``
    writes it, with ``values`` as the cached results of their formula cells (as
    :func:`_inject` writes them); None where a cell is not :func:`_simple`."""
    cells = ws._cells
    if not all(map(_simple, cells.values())):
        return None
    rows: dict[int, list] = defaultdict(list)
    for key in sorted(cells):
        rows[key[0]].append(cells[key])
    dims = ws.row_dimensions
    for row in dims.keys() - rows.keys():
        rows[row] = []
    styles, style_ids = ws.parent._cell_styles, {}       # Cell.style_id, kept per style
    out = ["<sheetData>"]
    found = 0
    for row, line in sorted(rows.items()):
        attrs = {"r": f"{row}"}
        attrs.update(dims.get(row, {}))
        if not all(_PLAIN_ATTRIBUTE.fullmatch(v) for v in attrs.values()):
            return None
        out.append("<row" + "".join(f' {k}="{v}"' for k, v in attrs.items()) + ">")
        number = attrs["r"]
        for cell in line:
            comment, value, style = cell._comment, cell._value, cell._style
            if comment is not None:          # as openpyxl: the sheet's comments in order
                ws._comments.append(CommentRecord.from_cell(cell))
            styled = style is not None and any(style)          # Cell.has_style
            if value is None and not styled and comment is None:
                continue
            kind, coord = cell.data_type, _letter(cell.column) + number
            if styled:
                sid = style_ids.get(key := style.tobytes())
                if sid is None:                 # the first of this style: as openpyxl adds it
                    sid = style_ids[key] = styles.add(style)
                style = f' s="{sid}"'
            else:
                style = ""
            if kind == "f" and coord in values and value:
                found += 1
                out.append(_cached(coord, style, _text(value[1:]), values[coord]))
                continue
            start = f'<c r="{coord}"{style}' + ("" if kind == "f" else
                                                  ' t="inlineStr"' if kind == "s" else
                                                  f' t="{kind}"') + ">"
            if value is None or value == "":
                out.append(start + "</c>")
            elif kind == "f":
                out.append(f"{start}<f>{_text(value[1:])}</f><v></v></c>")
            elif kind == "s":
                space = ' xml:space="preserve"' if value != value.strip() else ""
                out.append(f"{start}<is><t{space}>{_text(value)}</t></is></c>")
            else:
                out.append(f"{start}<v>{_text(safe_string(value))}</v></c>")
        out.append("</row>")
    out.append("</sheetData>")
    if found != len(values):
        missing = sorted(set(values) - {c.coordinate for c in cells.values()
                                        if c.data_type == "f" and c._value})
        raise RuntimeError(f"cached values: no formula cell {missing[0]} in the sheet XML")
    return "".join(out).encode("utf-8")


def named_values(wb, values: dict[str, object]) -> dict[str, dict[str, object]]:
    """{defined name: value} as {sheet: {cell: value}} (for :func:`write_with_cached_values`)."""
    cells: dict[str, dict[str, object]] = {}
    for name, value in values.items():
        sheet, coord = next(iter(wb.defined_names[name].destinations))
        cells.setdefault(sheet, {})[coord.replace("$", "")] = value
    return cells


def escape(text: str) -> str:
    """&, < and > as XML entities (what ``xml.sax.saxutils.escape`` and ``html.escape(text,
    quote=False)`` do, without the imports of urllib and ssl, about 60 ms of the workbook's
    start, or of html.entities, about 5 ms).

    >>> escape("a < b & c > d")
    'a &lt; b &amp; c &gt; d'
    """
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_FORMULA_CELL = re.compile(
    r'<c r="([A-Z]+[0-9]+)"([^>]*)>(<f>.*?</f>)(?:<v\s*/>|<v>[^<]*</v>)?</c>', re.S)


def _cached(coord: str, attrs: str, formula: str, value) -> str:
    """A formula cell (its escaped ``formula``) with ``value`` as its cached result."""
    if isinstance(value, bool):
        return f'<c r="{coord}"{attrs} t="b"><f>{formula}</f><v>{int(value)}</v></c>'
    if isinstance(value, ErrorValue):
        return f'<c r="{coord}"{attrs} t="e"><f>{formula}</f><v>{escape(value)}</v></c>'
    if isinstance(value, str):
        return f'<c r="{coord}"{attrs} t="str"><f>{formula}</f><v>{escape(value)}</v></c>'
    number = float(value)
    text = str(int(number)) if number.is_integer() and abs(number) < 2**53 else repr(number)
    return f'<c r="{coord}"{attrs}><f>{formula}</f><v>{text}</v></c>'


def _inject(xml: str, values: dict[str, object]) -> str:
    """Put ``<v>`` results into the formula cells ``values`` names (each must be found)."""
    found = set()

    def cell(match):
        coord = match.group(1)
        if coord not in values:
            return match.group(0)
        found.add(coord)
        attrs = re.sub(r'\s+t="[^"]*"', "", match.group(2))
        return _cached(coord, attrs, match.group(3)[3:-4], values[coord])

    xml = _FORMULA_CELL.sub(cell, xml)
    missing = sorted(set(values) - found)
    if missing:
        raise RuntimeError(f"cached values: no formula cell {missing[0]} in the sheet XML")
    return xml
