"""Cached values of the formula cells, so that previewers show the workbook as computed.

openpyxl writes every formula cell without a result (``<v/>``). A spreadsheet computes them
on opening, but previewers (mail clients, file browsers, ``pandas.read_excel``, Excel's
Protected View) show only stored results, so tables, checks and answers looked blank.
:func:`write_with_cached_values` writes the value of every formula cell (computed by
:func:`generator.saved.evaluator.evaluate_workbook`) into the saved file as its cached result. The
workbook still asks for a full recalculation on opening (``fullCalcOnLoad``).
"""

from __future__ import annotations

import re
import zipfile
from html import escape as _html_escape

from .evaluator import ErrorValue

__all__ = ["write_with_cached_values", "named_values"]


def write_with_cached_values(source, target, values: dict[str, dict[str, object]]) -> None:
    """Copy the saved workbook ``source`` (a path or a binary file object) to ``target``, with
    ``values`` ({sheet: {cell: value}}, e.g. from :func:`saved.evaluator.evaluate_workbook`)
    stored as the cached results of those formula cells.

    ``target`` is written directly: the caller makes it a temporary file that it renames
    (:func:`topicsetsize.atomic.atomic_path`), so a crash never leaves half a workbook.
    """
    with zipfile.ZipFile(source) as zin, \
            zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        parts = _sheet_parts(zin)
        for item in zin.infolist():
            data = zin.read(item.filename)
            sheet = parts.get(item.filename)
            if sheet in values:
                data = _inject(data.decode("utf-8"), values[sheet]).encode("utf-8")
            zout.writestr(item.filename, data)


def named_values(wb, values: dict[str, object]) -> dict[str, dict[str, object]]:
    """{defined name: value} as {sheet: {cell: value}} (for :func:`write_with_cached_values`)."""
    cells: dict[str, dict[str, object]] = {}
    for name, value in values.items():
        sheet, coord = next(iter(wb.defined_names[name].destinations))
        cells.setdefault(sheet, {})[coord.replace("$", "")] = value
    return cells


def _sheet_parts(z: zipfile.ZipFile) -> dict[str, str]:
    """{zip member of a worksheet: sheet name}, from workbook.xml and its relationships."""
    book = z.read("xl/workbook.xml").decode("utf-8")
    rels = z.read("xl/_rels/workbook.xml.rels").decode("utf-8")
    targets = {m.group(2): m.group(1) for m in re.finditer(
        r'<Relationship[^>]*?Target="([^"]+)"[^>]*?Id="([^"]+)"', rels)}
    targets.update({m.group(1): m.group(2) for m in re.finditer(
        r'<Relationship[^>]*?Id="([^"]+)"[^>]*?Target="([^"]+)"', rels)})
    out = {}
    for m in re.finditer(r'<sheet\b[^>]*?name="([^"]+)"[^>]*?r:id="([^"]+)"', book):
        target = targets[m.group(2)].lstrip("/")
        member = target if target.startswith("xl/") else f"xl/{target}"
        out[member] = _unescape(m.group(1))
    return out


def escape(text: str) -> str:
    """&, < and > as XML entities (what ``xml.sax.saxutils.escape`` does, without its import
    of urllib and ssl, about 60 ms of the workbook's start)."""
    return _html_escape(text, quote=False)


def _unescape(text: str) -> str:
    return (text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
            .replace("&apos;", "'").replace("&amp;", "&"))


_FORMULA_CELL = re.compile(
    r'<c r="([A-Z]+[0-9]+)"([^>]*)>(<f>.*?</f>)(?:<v\s*/>|<v>[^<]*</v>)?</c>', re.S)


def _inject(xml: str, values: dict[str, object]) -> str:
    """Put ``<v>`` results into the formula cells ``values`` names (each must be found)."""
    found = set()

    def cell(match):
        coord = match.group(1)
        if coord not in values:
            return match.group(0)
        found.add(coord)
        value = values[coord]
        attrs = re.sub(r'\s+t="[^"]*"', "", match.group(2))
        if isinstance(value, bool):
            return f'<c r="{coord}"{attrs} t="b">{match.group(3)}<v>{int(value)}</v></c>'
        if isinstance(value, ErrorValue):
            return f'<c r="{coord}"{attrs} t="e">{match.group(3)}<v>{escape(value)}</v></c>'
        if isinstance(value, str):
            return f'<c r="{coord}"{attrs} t="str">{match.group(3)}<v>{escape(value)}</v></c>'
        number = float(value)
        text = str(int(number)) if number.is_integer() and abs(number) < 2**53 else repr(number)
        return f'<c r="{coord}"{attrs}>{match.group(3)}<v>{text}</v></c>'

    xml = _FORMULA_CELL.sub(cell, xml)
    missing = sorted(set(values) - found)
    if missing:
        raise RuntimeError(f"cached values: no formula cell {missing[0]} in the sheet XML")
    return xml
